/*
 * fleet.h - a fleet of profiles as groups of like hosts (SPEC §5.1,
 * `compare`): hosts grouped by the host facts they share (CPU vendor,
 * microarchitecture and online CPUs unless --group-by names others), per
 * group and workload the distribution of the hosts' results (median,
 * quartiles, min and max, n), the outliers of each group (fleet_outliers.c:
 * a host beyond both its group's spread and its own measured noise, ranked
 * by its evidence over every workload) each explained by the diff engine
 * against its group's median, the hosts whose own runs are too noisy to
 * judge, how far each host of a group too small to test lies from the
 * others, a group whose hosts split by a host fact they differ in
 * (fleet_split.c: kernel, microcode, SMT, hypervisor, governor, a
 * mitigation) with the workloads that moved between its sides, whose
 * hosts are then judged against their own side, and every group's median compared with the reference (the
 * largest group's median, the first host or a named one) through the diff
 * engine too.
 *
 * The group's median is a synthetic host: per workload the median of each
 * number its hosts measured (score, times, every counter), and per host
 * fact the value most of them have, so a diff against it names what an
 * outlier does differently from its peers.  Profiles are loaded in
 * parallel and folded into their groups as they are read
 * (ud_profile_load_fold()): a host costs its results and its facts' votes,
 * not its profile.  The few profiles a diff needs again (outliers, --pairs)
 * are read again from their files.
 *
 * Typed in the middle, JSON at the edge: ud_fleet_build() computes the
 * model, fleet_json.c writes the uarchdiff.compare/2 document from it.  A
 * number that cannot be computed is NAN in the model and null in the
 * document.
 *
 * Ownership: a struct ud_fleet owns everything reachable from it and is
 * released with ud_fleet_free(); it borrows the paths and the
 * microarchitecture database, which must outlive it.
 */
#ifndef UD_FLEET_H
#define UD_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diff.h"
#include "error.h"
#include "profile.h"
#include "uarch.h"

#define UD_FLEET_SCHEMA "uarchdiff.compare/2"

/* What every group is compared with. */
enum ud_fleet_baseline {
	UD_FLEET_MEDIAN, /* the largest group's median (the first of the largest on a tie) */
	UD_FLEET_FIRST,  /* the first profile given, as the pair-wise compare did (it must load) */
	UD_FLEET_LABEL,  /* the host labelled baseline_label, or so named apart (fleet_names.c); never one of several */
};

struct ud_fleet_input {
	char *const *paths;          /* n profile files, as the user named them */
	size_t n;                    /* at least 2 */
	const char *const *group_by; /* host-fact fields ("kernel", "cpu.uarch"); NULL: the default */
	size_t ngroup_by;            /* at most UD_FLEET_MAX_KEYS */
	enum ud_fleet_baseline baseline;
	const char *baseline_label;  /* for UD_FLEET_LABEL */
	const struct ud_uarch_db *db; /* penalties for the diffs' CPI stacks; may be NULL */
};

#define UD_FLEET_MAX_KEYS 8

/* The default grouping: what a host's hardware is, so that software facts explain its peers' spread. */
extern const char *const ud_fleet_default_keys[];
extern const size_t ud_fleet_default_nkeys;

/* One workload as the fleet measures it: the score where it has one, else CPU time per unit of work. */
struct ud_fleet_workload {
	char *name;            /* owned */
	char *units;           /* owned: "lps", "ns per unit" for CPU time; NULL unknown */
	bool higher_is_better; /* of the value below: a score's own direction, false for CPU time */
	bool composite;        /* a composite score (UnixBench's index): shown, out of the geomeans */
	int direction;         /* the first profile's higher_is_better (1, 0, -1 unknown), for the median host */
};

/* n values' median, quartiles (linear interpolation) and range; NAN and 0 where no host has one. */
struct ud_fleet_dist {
	size_t n;
	double median, q1, q3, min, max;
};

/* A workload on which a host's own profile warned of noise: the first warning, as the profile words it. */
struct ud_fleet_warning {
	size_t workload;
	char *text; /* owned */
};

/* How far a host of a group too small to test lies from the others (fleet_outliers.c). */
struct ud_fleet_distance {
	double geomean;     /* its speedup over the others' median, over the workloads shared; NAN none */
	size_t nworkloads;  /* the workloads behind it (composites out) */
	size_t largest;     /* the workload of its largest move; SIZE_MAX none */
	double largest_ratio;
};

struct ud_fleet_host {
	char *label;       /* owned: host.label, else the path; followed by the path where another host has it (fleet_names.c) */
	/* label's first bytes, as the profile gave it: where the path is shown beside it, it need not be said twice */
	size_t given_len;
	const char *path;  /* borrowed */
	size_t group;
	double *value;     /* nworkloads values into the fleet's storage; NAN where it lacks one */
	/*
	 * nworkloads: the 95% interval of each value relative to it, as its
	 * profile measured it (the score's samples, else the summary a source
	 * printed); NAN unknown (one run)
	 */
	double *interval;
	struct ud_fleet_warning *warnings; /* owned: the workloads its profile warned of noise on, in order */
	size_t nwarnings;
	double geomean;    /* its speedups over the reference, composites out; NAN when none */
	/*
	 * Its evidence of differing from its group (fleet_outliers.c): the
	 * combined z of its moves over every workload it can be judged on,
	 * below 0 slower; NAN where its group is not tested or none can be
	 */
	double evidence;
	size_t evidence_workloads; /* the workloads behind it */
	bool noisy;        /* moved beyond its group's spread only where its own runs are noisy: named, not ranked */
	struct ud_fleet_distance distance; /* in a group of 2 to UD_FLEET_MIN_PEERS - 1 hosts; else geomean NAN */
	bool incomplete;   /* its run was stopped before every workload ran */
	bool no_pmu;       /* it holds counters but no hardware count (ud_profile_no_pmu_reason()) */
};

/* One side of a group's split: the hosts with these values of the fact. */
struct ud_fleet_side {
	char **values;  /* owned: the fact's values on this side as text ("6.8.0", "unknown"), sorted */
	size_t nvalues;
	size_t *hosts;  /* owned: indices into hosts, in order */
	size_t nhosts;
	double *median; /* owned: nworkloads: the median of the side's values; NAN where it has none */
};

/* A workload on which a split's sides differ consistently. */
struct ud_fleet_moved {
	size_t workload;
	double ratio;       /* side 1's median's speedup over side 0's: below 1 slower */
	double p;           /* the rank test's two-sided p, before the multiple-testing bound */
	double consistency; /* the share of host pairs across the sides ordered as the medians are */
};

/*
 * A group whose hosts split by a host fact, with a consistent difference
 * (fleet_split.c): side 0 the larger, side 1 the one described against it.
 */
struct ud_fleet_split {
	char *fact;                   /* owned: the dotted name ("kernel", "vulnerabilities.retbleed") */
	struct ud_fleet_side side[2];
	struct ud_fleet_moved *moved; /* owned: the largest move first */
	size_t nmoved;
	char **same;                  /* owned: the other facts that split the group's hosts the same way, sorted */
	size_t nsame;
	size_t ntests;                /* the tests made in the group: the multiple-testing bound divides by it */
};

struct ud_fleet_group {
	char *name;            /* owned: its key values, "zen4, 64 CPUs"; "host facts unknown" */
	char **keys;           /* owned: ngroup_by values as text, NULL where the host fact is unknown */
	size_t *hosts;         /* owned: indices into hosts, in order */
	size_t nhosts;
	struct ud_fleet_dist *dist;   /* owned: nworkloads distributions */
	struct ud_profile *median;    /* owned: the synthetic median host */
	/*
	 * The reference against this group's median (owned); NULL for the
	 * reference group under --baseline median, or where it could not be
	 * diffed (diff_error says why).
	 */
	struct ud_diff *diff;
	char diff_error[sizeof(((struct ud_err *)0)->msg)]; /* the whole of the diff's error: never cut to fit */
	double geomean;        /* its median's speedup over the reference; 1 for the reference group */
	bool reference;        /* the reference is this group's median or one of its hosts */
	bool tested;           /* it has the UD_FLEET_MIN_PEERS hosts outliers need */
	/* owned: the host fact its hosts split by, whose sides its hosts are judged against; NULL none */
	struct ud_fleet_split *split;
};

/*
 * A host outside its group's spread and its own noise on a workload,
 * explained against its group's median.
 */
struct ud_fleet_outlier {
	size_t host, workload;
	double ratio;           /* its speedup over the group's median: below 1 slower */
	double interval;        /* the host's own 95% interval on it, relative; NAN unknown */
	double factor[UD_FACTOR_COUNT]; /* the diff's split of the speedup; NAN where unknown */
	bool has_dominant;
	enum ud_factor dominant;
	char *explanation;      /* owned */
};

/* A noisy host named once: its largest move beyond its group's spread on a workload its own runs blur. */
struct ud_fleet_noisy {
	size_t host, workload;
	double ratio;           /* its speedup over the group's median */
	double interval;        /* its own 95% interval there, relative; NAN unknown */
	const char *warning;    /* borrowed from the host: its profile's warning there; NULL none */
};

/* A file left out: it did not load (its reason as the loader gave it). */
struct ud_fleet_skip {
	const char *path;
	struct ud_err reason;
};

/*
 * A host left out of one workload, not of the fleet: it measured it in other
 * units, in the other direction, or with a score where most hosts have none
 * (or the reverse), so no ratio to the others means a speedup.  The
 * workload's identity is its name, units and direction as most of the hosts
 * that ran it measured it (the first of those given on a tie), whatever the
 * order the profiles load in.
 */
struct ud_fleet_exclusion {
	size_t host, workload;
	char *reason; /* owned: as diff words it for such a pair */
};

struct ud_fleet {
	enum ud_fleet_baseline baseline;
	const char *const *keys;       /* borrowed: the grouping fields, the input's or the default */
	size_t nkeys;
	struct ud_fleet_workload *workloads; /* owned: in order of first appearance */
	size_t nworkloads;
	struct ud_fleet_host *hosts;   /* owned: the profiles that loaded, in input order */
	size_t nhosts;
	double *values;                /* owned: nhosts x nworkloads */
	double *intervals;             /* owned: nhosts x nworkloads */
	struct ud_fleet_group *groups; /* owned: in order of their first host */
	size_t ngroups;
	size_t ref_group;              /* the reference group */
	size_t ref_host;               /* under first and LABEL: the reference host; else SIZE_MAX */
	/* what the reference is called in the reports: borrowed from its host's label or its group's median's */
	const char *ref_label;
	struct ud_profile *ref_profile; /* owned when a host is the reference; else NULL (a group's median) */
	/* owned: the host with the strongest evidence first, each host's pairs together, its largest move first */
	struct ud_fleet_outlier *outliers;
	size_t noutliers;
	struct ud_fleet_noisy *noisy;  /* owned: one per noisy host, the largest move first */
	size_t nnoisy;
	struct ud_fleet_skip *skipped; /* owned: in input order */
	size_t nskipped;
	struct ud_fleet_exclusion *excluded; /* owned: by host, then workload */
	size_t nexcluded;
	const struct ud_uarch_db *db;  /* borrowed */
	char no_pmu_reason[UD_NO_PMU_REASON_MAX]; /* why the first host without hardware counts has none; "" */
};

/*
 * The model, or NULL with err: fewer than two profiles, fewer than two that
 * loaded (the first failure's reason), a group-by field that no host has,
 * a baseline label no host has, under UD_FLEET_FIRST a first profile that
 * did not load (its reason), or out of memory.  A file that does not
 * load while others do is left out and listed in skipped.
 * Caller frees (ud_fleet_free()).
 */
struct ud_fleet *ud_fleet_build(const struct ud_fleet_input *in, struct ud_err *err);
void ud_fleet_free(struct ud_fleet *f);


/* Host k's speedup over the reference on workload w (the per-host table); NAN where unknown. */
double ud_fleet_speedup(const struct ud_fleet *f, size_t k, size_t w);


/*
 * What the outliers are ranked by, one sentence for the reports and the
 * document (fleet_outliers.c's rule, with its thresholds' values).
 */
void ud_fleet_ranking_text(char *buf, size_t len);

/* What a split is found by, one sentence for the reports and the document (fleet_split.c's rule, its thresholds). */
void ud_fleet_split_rule_text(char *buf, size_t len);

/*
 * The pairs --pairs left out, in the order of hosts: a host that shares no
 * workload with the reference, whose results cannot be compared with it,
 * or whose file no longer reads.  The report covers the other pairs and
 * names these with their reasons, so that one such host does not cost the
 * others their diffs nor leave a document cut where it came.  Room for
 * every host is made before anything is written (ud_fleet_gaps_init()), so
 * that recording one cannot fail half way; ud_fleet_gaps_free() frees what
 * it holds, not the struct.
 */
struct ud_fleet_gap {
	size_t host;
	char *reason; /* owned; NULL when there was no memory to copy it ("out of memory") */
};

struct ud_fleet_gaps {
	struct ud_fleet_gap *v;
	size_t n;
};

/* 0, or -1 with err when out of memory. */
int ud_fleet_gaps_init(struct ud_fleet_gaps *g, const struct ud_fleet *f, struct ud_err *err);
void ud_fleet_gaps_free(struct ud_fleet_gaps *g);

/*
 * Host k's diff against the reference, for --pairs (caller frees it with
 * ud_diff_free(), then *p with ud_profile_free(): the diff borrows it), or
 * NULL with the reason recorded in gaps.
 */
struct ud_diff *ud_fleet_pair(const struct ud_fleet *f, size_t k, struct ud_profile **p, struct ud_fleet_gaps *gaps);

/*
 * The uarchdiff.compare/2 document (fleet_json.c) to out; with gaps (made
 * by ud_fleet_gaps_init()) each host's whole diff against the reference,
 * each made, written and freed in turn, and the pairs left out listed in
 * "pairs_left_out" and recorded in gaps.  The document is whole whatever
 * a pair does.  0, or -1 with err when out refused it.
 */
int ud_fleet_write_json(const struct ud_fleet *f, struct ud_fleet_gaps *gaps, FILE *out, struct ud_err *err);

#endif
