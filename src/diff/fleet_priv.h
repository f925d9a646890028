/*
 * fleet_priv.h - what the fleet's folding (fleet_fold.c) hands its
 * summaries (fleet.c, fleet_median.c): per group and workload every number
 * the hosts measured, and per group every host fact's votes.
 */
#ifndef UD_FLEET_PRIV_H
#define UD_FLEET_PRIV_H

#include "fleet.h"

/* A growing array of doubles. */
struct ud_fleet_values {
	double *v;
	size_t n, cap;
};

/* A counter of a workload as the group's hosts counted it: its metadata from the first host that did. */
struct ud_fleet_acc_counter {
	char *name, *semantics, *vendor_event, *opened_as; /* owned */
	size_t first;                                      /* the host the metadata came from */
	struct ud_fleet_values v;
};

/* One workload's numbers in one group. */
struct ud_fleet_acc_workload {
	struct ud_fleet_values value, score, work_units, elapsed, user, sys;
	struct ud_fleet_acc_counter *counters; /* owned */
	size_t ncounters, cap;
};

/* One host fact's distinct values in a group, with how many hosts have each. */
struct ud_fleet_vote {
	char *value; /* owned: the value as the profile's JSON writes it ("\"6.8.0\"", "64") */
	size_t count, first;
	/* owned: for a fact a split is sought by (ud_fleet_split_fact()), the input paths with it; else NULL */
	size_t *who;
	size_t nwho, capwho;
};

struct ud_fleet_fact {
	char *field; /* owned: dotted path */
	struct ud_fleet_vote *votes;
	size_t nvotes, cap;
};

struct ud_fleet_acc_group {
	char **keys;      /* owned: the key values as text, NULL unknown */
	size_t first;     /* its first host */
	struct ud_fleet_acc_workload *w; /* owned: one per workload of the fleet so far */
	size_t nw;
	struct ud_fleet_fact *facts;
	size_t nfacts, cap;
};

/*
 * One of a workload's identities as the fold met it: a host's name, units
 * and direction of it.  Hosts that disagree fold apart, and are reconciled
 * with the majority once every host is in (fleet_fold.c).
 */
struct ud_fleet_variant {
	bool scored;   /* by its score; else by CPU time, whatever its units and direction */
	bool dead;     /* folded into another (its data moved there) or left out: no workload of the fleet */
	size_t nhosts; /* the hosts that measured it so */
};

/* What fleet_fold.c leaves for fleet.c: the fleet's groups and hosts before their summaries. */
struct ud_fleet_acc {
	struct ud_fleet_acc_group *groups; /* owned, in order of their first host once sorted */
	size_t ngroups, cap;
	size_t *host_group;      /* per input path: its group; SIZE_MAX when it did not load */
	/* per input path: (workload id, value, interval) triples (owned), NULL when it did not load */
	double **host_values;
	size_t *host_nvalues;
	struct ud_fleet_warning **host_warnings; /* per input path: its noise warnings by workload id (owned) */
	size_t *host_nwarnings;
	char **host_labels;      /* owned */
	bool *host_incomplete;
	bool *host_no_pmu;
	char no_pmu_reason[UD_NO_PMU_REASON_MAX]; /* the lowest such host's */
	size_t no_pmu_index;
	struct ud_err *errs;     /* per input path: why it did not load */
	size_t *first_pos;       /* per workload: (first host, position) as host x 65536 + position, for the order */
	struct ud_fleet_workload *workloads; /* owned, in the order they were met (their ids) */
	struct ud_fleet_variant *variants;   /* owned: per id */
	struct ud_fleet_exclusion *excluded; /* owned: host as input index, workload as id until finished */
	size_t nexcluded;
	size_t *order;           /* owned once finished: the ids in the fleet's order */
	size_t nworkloads, capw;
	struct ud_profile *keep; /* the first profile under --baseline first, owned */
	size_t keep_index;
	const struct ud_fleet_input *in;
	const char *const *keys;
	size_t nkeys;
	/* per key: some host has the fact at all, if only as unknown ("generic"): a key no host has is a typo */
	bool key_present[UD_FLEET_MAX_KEYS];
	bool key_known[UD_FLEET_MAX_KEYS];  /* some host has a value for it (not null, not "unknown") */
	bool key_group[UD_FLEET_MAX_KEYS];  /* some host has a group of facts there (cpu), not one fact */
	bool out_of_memory;
};

/* Folds every path into acc (fleet_fold.c): 0, or -1 when out of memory. */
int ud_fleet_fold_all(struct ud_fleet_acc *acc);
/* Sorts groups and workloads into order of first appearance and fills f's hosts, values and workloads. */
int ud_fleet_acc_finish(struct ud_fleet_acc *acc, struct ud_fleet *f);
void ud_fleet_acc_free(struct ud_fleet_acc *acc);

/*
 * The synthetic median host of group g (fleet_median.c), its workloads f's
 * (order: their ids in g), labelled label: a new profile (caller frees), or
 * NULL out of memory.  Sorts g's values.
 */
struct ud_profile *ud_fleet_median_profile(const struct ud_fleet_acc_group *g, const struct ud_fleet *f,
					   const size_t *order, const char *label);

/*
 * v's n finite values sorted ascending, equal ones (0 and -0) in their
 * order, as glibc's qsort, a stable merge sort, left them, with no
 * call per comparison: a group's values are sorted per workload and
 * counter, and the calls were a twentieth of compare's instructions
 * (issue 38).  Values already in order (a group's scores, sorted by its
 * median host first) cost one pass (fleet_median.c).
 */
void ud_fleet_sort_values(double *v, size_t n);

/* The q-quantile (0..1) of n sorted values, linear between ranks (R's type 7). */
double ud_fleet_quantile(const double *sorted, size_t n, double q);

/* Value v's speedup over r on workload w: v / r for a score, r / v for a time; NAN where unknown (fleet_outliers.c). */
double ud_fleet_ratio(const struct ud_fleet_workload *w, double v, double r);

/*
 * The outliers, the noisy hosts, each host's evidence and the small
 * groups' distances (fleet_outliers.c), each outlier explained against its
 * group's median: 0, or -1 out of memory.
 */
int ud_fleet_judge(struct ud_fleet *f);

/* Whether a group's hosts are tested for a split by the fact field (fleet_split.c): who voted for it is kept. */
bool ud_fleet_split_fact(const char *field);

/*
 * Each tested group's split by a host fact, where one is found
 * (fleet_split.c), from the votes a holds: 0, or -1 out of memory.
 */
int ud_fleet_find_splits(struct ud_fleet *f, const struct ud_fleet_acc *a);
void ud_fleet_split_free(struct ud_fleet_split *s);

/*
 * Every host's label made its own (fleet_names.c): a label more than one
 * host has is followed by each one's path.  With baseline (--baseline
 * LABEL), f->ref_host set to the host of that label (as the profile gives
 * it, else as named apart).  0, or -1 with err: no host or several have
 * that label (their names listed), or out of memory.
 */
int ud_fleet_name_hosts(struct ud_fleet *f, const char *baseline, struct ud_err *err);

#endif
