/*
 * diff.h - why one host scores differently from another (SPEC §5).
 *
 * For every workload both profiles hold: the speedup (from the scores, or
 * from CPU time when neither side has one), split exactly into
 * path length x IPC x frequency x utilization x unexplained (the last
 * carries whatever missing counters or inconsistent inputs leave; where a
 * side has no task-clock, one clock factor, cycles per wall-clock second,
 * stands for frequency x utilization), each factor's share of ln(speedup)
 * and the dominant one in the direction of the result, every derived metric
 * side by side and whether the two sides' events make it comparable, the
 * CPI stack (branch, L1d, other) from each host's microarchitecture
 * penalties, the top-down buckets in cycles per unit of work where the
 * profiles have them, the misses that can carry the IPC change (causes), whether the
 * speedup lies outside the measured noise (a test from the samples or the
 * sources' summaries, with the speedup's 95% interval), and a plain
 * explanation; per unit of work, the CPU time and every counter counted on
 * both sides, and the CPU time split into user and kernel.  Across
 * workloads: a summary (geometric mean, groups by kernel share, composite
 * scores apart, a headline).  Then the hosts' differing environment and
 * rule-based findings with their evidence.
 *
 * Typed in the middle, JSON at the edge: ud_diff_build() computes the model
 * below, the rules (findings) read it, and ud_diff_to_json() writes the
 * uarchdiff.diff/2 document from it once.  In the model a number that cannot
 * be computed is NAN; in the document it is null, never NaN or infinity.
 *
 * Ownership: a struct ud_diff owns its arrays, strings and JSON references
 * and is released with ud_diff_free().  It borrows from its input: the two
 * profiles, the file names and the microarchitecture database must outlive
 * it (workloads point at the profiles' workloads, hosts at their labels).
 */
#ifndef UD_DIFF_H
#define UD_DIFF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cpu_mode.h"
#include "derived.h"
#include "error.h"
#include "profile.h"
#include "uarch.h"

#define UD_DIFF_SCHEMA "uarchdiff.diff/2"

/* The factors of the speedup, in the order the document and reports list them. */
enum ud_factor {
	UD_FACTOR_PATH_LENGTH,
	UD_FACTOR_IPC,
	UD_FACTOR_FREQUENCY,
	UD_FACTOR_UTILIZATION,
	/*
	 * cycles per wall-clock second, frequency x utilization in one, where a
	 * side has cycles and elapsed time but no task-clock (benchmark logs);
	 * NAN otherwise, and frequency and utilization are NAN where it is set
	 */
	UD_FACTOR_CLOCK,
	/*
	 * cycles per unit of work, A over B: path length x IPC in one, where the
	 * two do not split (other instruction sets, instructions that are not
	 * the unit of work); NAN where they do
	 */
	UD_FACTOR_CYCLES,
	UD_FACTOR_UNEXPLAINED, /* what the counters leave: the product is always the speedup */
	UD_FACTOR_COUNT
};

/* The JSON key ("path_length") and the label a report shows ("path length").  Both static. */
const char *ud_factor_name(enum ud_factor f);
const char *ud_factor_label(enum ud_factor f);
/* 0 with *out set, or -1 for a name no factor has. */
int ud_factor_from_name(const char *name, enum ud_factor *out);

/* How the work per run was obtained; the document names the assumption. */
enum ud_work_basis {
	UD_WORK_UNITS,         /* the workload's own work_units on both sides */
	UD_WORK_SCORE_ELAPSED, /* a rate: score x elapsed */
	UD_WORK_ONE_RUN,       /* a time: one run of the command */
	UD_WORK_BASIS_COUNT
};

/* Returns a static string. */
const char *ud_work_basis_text(enum ud_work_basis b);

struct ud_work {
	double a, b; /* work per run u on each side */
	enum ud_work_basis basis;
	char unit[24]; /* what one unit of work is: "KB" for KBps, "loop" for lps, "run" */
};

/* Where the speedup came from. */
enum ud_speedup_basis {
	UD_SPEEDUP_SCORE,      /* the workloads' own scores */
	UD_SPEEDUP_TASK_CLOCK, /* no score on either side: CPU time (task-clock), lower is better */
	UD_SPEEDUP_NONE,       /* neither: the counters stand side by side, unexplained */
	UD_SPEEDUP_BASIS_COUNT
};

/* Returns a static string. */
const char *ud_speedup_basis_name(enum ud_speedup_basis b);

/*
 * Which way a speedup goes.  The same (as fast as) only when a test found
 * the move within the noise (significant == 0) or the ratio is exactly 1:
 * never from rounding, since a 0.1% move can be real and a 3% one noise.
 */
enum ud_direction { UD_DIR_FASTER, UD_DIR_SLOWER, UD_DIR_SAME, UD_DIR_NONE };

/*
 * The direction and, in *magnitude, the factor >= 1 a person reads ("4.66"
 * for 4.66 and 1/4.66); significant is the test's verdict (1, 0, -1 unknown).
 */
enum ud_direction ud_speedup_direction(double speedup, int significant, double *magnitude);

/*
 * A speedup in words, the way a person says it, never "0.215x": with its
 * object, "4.66x faster than", "4.66x slower than", "as fast as", "not
 * comparable with"; without, "4.66x faster", "4.66x slower", "~ 1.02x
 * faster" (within the noise: benchstat's mark), "n/a".  Two decimals below 10x, one
 * below 100x, none above ("1500x"); three where two would read "1.00".
 */
void ud_speedup_words(double speedup, int significant, bool with_object, char *buf, size_t len);

/* One value on both hosts and B over A; NAN where unknown. */
struct ud_ab {
	double a, b, ratio;
};

/*
 * ΔCPI = cpi_a - cpi_b = branch + l1d + other.  The branch and L1d parts
 * charge the full penalty to every miss, so they are upper bounds where
 * misses overlap; when together they exceed ΔCPI, other goes negative and
 * overshoot says so.
 */
struct ud_cpi_stack {
	double cpi_a, cpi_b, delta, branch, l1d, other;
	bool overshoot;
};

/*
 * How the speedup was tested against the noise.  Mann-Whitney U where both
 * sides have at least UD_SIG_MIN_RANK_SAMPLES samples (benchstat's choice:
 * fewer cannot reach p < 0.05); Welch's t on the means where both sides
 * have at least two runs but not that many samples, or only the summary a
 * source printed (perf stat -r N: the mean and its standard error);
 * single-run where a side truly has one run; no-spread where a side's source
 * names several runs but prints no spread (a UnixBench log's "7 samples");
 * none without a speedup.
 */
enum ud_sig_method {
	UD_SIG_MANN_WHITNEY,
	UD_SIG_WELCH,
	UD_SIG_SINGLE_RUN,
	UD_SIG_NO_SPREAD,
	UD_SIG_NONE,
	UD_SIG_METHOD_COUNT
};

/* Returns a static string. */
const char *ud_sig_method_name(enum ud_sig_method m);

struct ud_significance {
	enum ud_sig_method method;
	int significant;   /* 1, 0, or -1 unknown */
	double p;          /* the test's two-sided p; NAN without a test */
	double lo, hi;     /* the speedup's 95% interval; NAN where the test gives none */
	size_t n_a, n_b;   /* runs (or samples) behind each side's score */
	char note[160];    /* how it was decided, in words */
};

/*
 * One total per unit of work on both hosts: user_ns, sys_ns, task-clock or
 * a counter (SPEC §5.3 "movers").
 */
struct ud_per_unit {
	const char *name; /* borrowed: a counter's name in the profile, or a static string */
	struct ud_ab v;
	enum ud_counter_class cls; /* a counter's class; UD_CLASS_SOFTWARE for the times */
	enum ud_counting mode;     /* a counter's counting mode (one on both sides: its name says it) */
	/*
	 * Whether it moved outside the noise of both sides' counts (Welch's t
	 * on perf's "+-" and the runs behind it): 1, 0, or -1 where a side
	 * printed no spread; p the test's, NAN without one
	 */
	int significant;
	double p;
};

/*
 * One privilege level's CPU time per unit of work (ns) and its part of the
 * change in CPU time per unit: the two shares sum to 1 (NAN when the total
 * did not change).  Where cycles and instructions were counted per mode
 * (cycles:u, instructions:k ...) on both sides, that mode's IPC too.
 */
struct ud_mode_part {
	double a, b, share;
	struct ud_ab ipc;
	/*
	 * Its part of the change in cycles per unit of work, as share is of CPU
	 * time: where the IPC factor's cycles went, by mode.  NAN without
	 * per-mode cycles on both sides.
	 */
	double cycles_share;
};

/*
 * A sampled symbol on both hosts (SPEC §5.1 "hotspots"): its share of the
 * samples and the CPU time per unit of work that share stands for (share x
 * the time split's user + kernel time per unit, else task-clock per unit).
 * A share is NAN where the symbol is not among that host's top symbols.
 */
struct ud_hotspot_move {
	const char *symbol, *dso; /* borrowed from a profile's hotspots */
	enum ud_mode mode;
	double a_share, b_share;
	double a_ns, b_ns;        /* per unit of work; NAN where the share or the time is unknown */
};

/* How a cause's cycles were found. */
enum ud_cause_kind {
	/* stall cycles (or top-down slots, over the side's slots per cycle): their change is cycles already */
	UD_CAUSE_STALL,
	/* misses or mispredicts per instruction, each charged a penalty, against the IPC part of the change only */
	UD_CAUSE_MISS,
};

/*
 * A counter credited with part of the change in cycles per unit of work
 * (SPEC §5.3 "causes"), of any class that costs cycles: stalls directly,
 * misses against the part of the change that IPC made (path length's part
 * is no miss's doing).  Only counters that moved the way the change went,
 * outside their noise (or with none printed), in the counted domain and
 * comparable on both sides, carrying at least UD_CAUSE_MIN_SHARE.
 */
struct ud_cause {
	const char *counter;             /* its name in A's profile (borrowed) */
	enum ud_counter_class cls;
	enum ud_cause_kind kind;
	double a, b;                     /* per unit of work on each side, as counted */
	double cycles;                   /* the cycles per unit it accounts for, A - B (positive: B saves them) */
	/* cycles over the change it is charged against (the IPC part for misses, all of it for stalls), at most 1 */
	double cycles_share;
	double penalty;                  /* misses: the cycles charged a miss; NAN for stalls */
	const char *penalty_source;      /* static: the table's name or the default's reason; NULL for stalls */
	/* misses: what each miss would cost to carry the IPC part alone; NAN for stalls */
	double implied;
	/*
	 * one side pays a cost at every kernel crossing (ud_diff_workload's
	 * crossing): these misses are what state lost there looks like, named
	 * as symptoms, not as independent causes
	 */
	bool symptom;
	char evidence[384];
};

/* The most causes a workload lists (the largest shares): more are noise to a reader. */
#define UD_MAX_CAUSES 6

/* A workload's verdict (SPEC §5.3). */
enum ud_verdict {
	UD_VERDICT_FASTER,
	UD_VERDICT_SLOWER,
	UD_VERDICT_SAME,
	UD_VERDICT_NO_CLAIM, /* no measurement to claim a speed by: no score, no CPU time, a run too short or idle */
	UD_VERDICT_COUNT
};

/* "faster", "slower", "same", "no-claim".  Returns a static string. */
const char *ud_verdict_name(enum ud_verdict v);

/*
 * What the counters counted on both sides (SPEC §5.3 "counting"): each
 * side's counting domain (the mode of its cycles and instructions,
 * UD_COUNTING_COUNT none) and how much of its CPU time that domain covers
 * (1 for all modes; the user or kernel share of getrusage's time for one
 * mode; NAN unknown).  The factors compare A's domain with B's when they
 * are one, or when one side counted all modes and the other's one mode
 * covers most of its time or cannot be known not to (approximate).
 */
struct ud_counting_info {
	enum ud_counting domain[2];      /* indexed by enum ud_side */
	double coverage[2];
	bool coverage_at_most[2];        /* coverage is a bound from the slowest clock, not read from getrusage */
	bool approximate;                /* the domains differ but are compared (see above) */
	const char *isa[2];              /* static or borrowed: "x86_64", "aarch64", "ppc64"; NULL unknown */
	bool cross_isa;                  /* both known and different: instructions are not one unit */
	/* cycles and instructions per unit of work in each side's compared domain; NAN where not comparable */
	double cycles[2], instructions[2];
};

/* One top-down bucket's figure on both hosts: its fraction x that host's measure per unit (struct ud_diff_topdown). */
struct ud_td_cycles {
	double a, b;
	/* (b - a) over the change in the measure per unit; NAN where the methods differ, a side is null, nothing
	 * changed or the measure is the fraction itself */
	double share_of_change;
};

/* The index of the residual (the slots no bucket claims) beside the buckets in struct ud_diff_topdown. */
#define UD_TD_RESIDUAL UD_TD_NBUCKETS

/*
 * Top-down on both hosts (SPEC §5.2 "topdown"): each side's record, and the
 * change in cycles per unit of work split by where the slots went, so that
 * "B needs 5,400 fewer cycles per KB: 3,100 of them were bad speculation"
 * can be said.  Two methods (slots on one side, cycle accounting on the
 * other) are shown apart: each side's cycles per bucket, no share of a
 * change between them.
 */
/*
 * What a bucket's figures count: cycles per unit of work where every side
 * with a record has cycles, else slots per unit where both are one core
 * (slots are a fixed number a cycle there, so their split is the cycles'
 * split), else the bucket's fraction of the slots itself, which the record
 * always has.
 */
enum ud_td_measure { UD_TD_IN_CYCLES, UD_TD_IN_SLOTS, UD_TD_IN_FRACTION };

/* "cycles", "slots", "fraction": the diff JSON's topdown.measure; static */
const char *ud_td_measure_name(enum ud_td_measure m);

struct ud_diff_topdown {
	/* borrowed from the workloads; NULL where a side has none (or one per core type, not compared) */
	const struct ud_topdown *a, *b;
	bool same_method;
	double cycles_a, cycles_b;      /* cycles per unit of work; NAN unknown */
	enum ud_td_measure measure;
	double per_a, per_b;            /* the measure per unit of work on each side (1 for fractions); NAN unknown */
	bool written[UD_TD_NBUCKETS + 1];  /* defined on both sides (on either, where the methods differ) */
	struct ud_td_cycles cycles[UD_TD_NBUCKETS + 1];
};

/* How much of its CPU time a workload spends in the kernel, on the worse side. */
enum ud_group {
	UD_GROUP_KERNEL_HEAVY,  /* sys share >= 50% on either host */
	UD_GROUP_COMPUTE_BOUND, /* sys share <= 10% on both */
	UD_GROUP_MIXED,         /* in between */
	UD_GROUP_UNKNOWN,       /* no user/sys split on a side (UnixBench logs) */
	UD_GROUP_COUNT
};

/* "kernel-heavy", "compute-bound", "mixed", "unknown".  Returns a static string. */
const char *ud_group_name(enum ud_group g);

/* One side of the diff: index 0 is the baseline A, 1 the candidate B. */
enum ud_side { UD_SIDE_A, UD_SIDE_B, UD_SIDE_COUNT };

/* A counter only one side counted (struct ud_diff_workload's one_sided). */
struct ud_one_sided {
	const char *name;     /* borrowed: the counter's name in the side that counted it */
	enum ud_side counted; /* that side */
	/* the other side's status for it ("not_supported", "not_counted"), or "absent" where it did not ask */
	const char *other;
};

/* One workload both profiles hold. */
struct ud_diff_workload {
	const struct ud_workload *a, *b; /* borrowed from the profiles; same name */
	const struct ud_host *host[2];   /* their hosts' facts, by enum ud_side; borrowed */
	/* per counter of a, b's counter of the same name or NULL (owned; matched once, not per lookup) */
	const struct ud_counter **counter_b;
	enum ud_speedup_basis basis;
	double speedup;                  /* B over A, inverted when lower is better; NAN with UD_SPEEDUP_NONE */
	bool composite;                  /* a score made of the others (UnixBench's index): kept out of the summary */
	enum ud_group group;
	/*
	 * IPC moved >= 1.5x (either way) on nearly the same instructions, on
	 * cores of one instruction set: more than a core generation explains
	 * (diff_thresholds.h).
	 */
	bool ipc_beyond_generation;
	/* cycles or instructions were counted in user mode only on a side (perf without privilege) */
	bool user_mode_only;
	/* the two sides counted cycles and instructions in different privilege levels (SPEC §5.2) */
	bool modes_differ;
	/* IPC below UD_LOW_IPC on a side: instructions are not the unit of work there */
	bool low_ipc;
	/*
	 * A side's counts are not the workload's own work (stat -a, -C, -p, -t;
	 * a pasted perf stat -a): its instructions are not the workload's path
	 * length, which is then not computed
	 */
	bool foreign_counts;
	struct ud_work work;
	struct ud_per_unit *per_unit;    /* owned array: user_ns, sys_ns, task-clock, then A's counters */
	size_t nper_unit;
	/*
	 * Counters that one side counted and the other did not, A's then B's,
	 * each in its side's order (owned array): left out of per_unit and the
	 * metrics, which need both, and said so rather than dropped in silence.
	 */
	struct ud_one_sided *one_sided;
	size_t none_sided;
	struct ud_mode_part mode[UD_MODE_COUNT];
	struct ud_counting_info counting;
	/*
	 * User and kernel time per unit of work both moved beyond a core
	 * generation, the same way, on a kernel-heavy workload: a cost paid at
	 * every kernel crossing (mitigations on entry and exit, VM exits) fits,
	 * a faster core does not (diff_thresholds.h)
	 */
	bool crossing;
	struct ud_hotspot_move *hotspots; /* owned: largest share moves first; none unless both sides were sampled */
	size_t nhotspots;
	double factor[UD_FACTOR_COUNT];  /* NAN where a counter is missing, except unexplained */
	/* why a factor is NAN where the counters are there but do not compare (static text); NULL otherwise */
	const char *factor_notes[UD_FACTOR_COUNT];
	double share[UD_FACTOR_COUNT];   /* ln(factor) / ln(speedup); NAN at a speedup of 1 */
	struct ud_ab metric[UD_METRIC_COUNT];
	/*
	 * The value an imported tool printed for a metric (PerfSpect's CPI
	 * and GHz, perf's "# 2.853 GHz"), on a side whose counts give none:
	 * shown beside the counts' metrics, never used to reason (the
	 * factors, rules and CPI stack read metric alone).  NAN elsewhere.
	 */
	struct ud_ab printed[UD_METRIC_COUNT];
	/*
	 * Why a metric is not comparable between the sides (different events
	 * behind one generic name, a rate above 100%, different counting
	 * modes), owned; NULL where it is.  Such a metric is shown, never
	 * ranked, charged or named as a cause.
	 */
	char *incomparable[UD_METRIC_COUNT];
	struct ud_cause causes[UD_MAX_CAUSES]; /* the largest share first */
	size_t ncauses;
	/* the part of the change in cycles per unit that IPC made (A - B, at B's path length); NAN where none */
	double ipc_cycles;
	enum ud_verdict verdict;
	/*
	 * Why a faster or slower verdict is not the work's (issue 33, same-host
	 * honesty): the side that won got more CPU, or a side was measured on a
	 * noisy host; UD_QUALIFIED_NONE for a plain claim and for the other
	 * verdicts.  The headline claims no speedup that only such verdicts carry
	 * (more CPU only between two profiles of one machine).
	 */
	enum ud_qualified { UD_QUALIFIED_NONE, UD_QUALIFIED_MORE_CPU, UD_QUALIFIED_NOISY, UD_QUALIFIED_COUNT } qualified;
	char *verdict_reason;            /* owned; the verdict's why, as long as the names it holds */
	struct ud_cpi_stack cpi;
	struct ud_diff_topdown topdown;  /* a and b NULL where neither side has top-down */
	struct ud_significance sig;
	bool has_dominant;               /* false when no factor pulled in the direction of the result */
	/*
	 * The factor with the largest share in the direction of the result
	 * (share > 0); factors with a negative share pulled the other way.
	 */
	enum ud_factor dominant;
	char *explanation;               /* owned */
};

/* A host fact both profiles know and disagree on. */
struct ud_env_entry {
	char *field;          /* the fact's dotted name (host_facts.h), "vulnerabilities.retbleed"; owned */
	struct ud_fact a, b;  /* the two values, borrowed from the profiles' hosts (the diff's inputs) */
};

/* Rule ids; diff_rules.c has the table (scope, condition, hypothesis) in this order. */
enum ud_finding_id {
	UD_FINDING_INCOMPLETE_PROFILE, /* first: it qualifies everything after it */
	UD_FINDING_KERNEL_HEAVY,
	UD_FINDING_KERNEL_HEAVY_GAINED_MOST,
	UD_FINDING_MITIGATIONS_DIFFER,
	UD_FINDING_IPC_BEYOND_GENERATION,
	UD_FINDING_FREQUENCY_EXPLAINS_MOST,
	UD_FINDING_DIFFERENT_BINARIES,
	UD_FINDING_SEMANTICS_DIFFER,
	UD_FINDING_MULTIPLEXED,
	UD_FINDING_NO_HARDWARE_COUNTERS,
	UD_FINDING_HYBRID_CPU,
	UD_FINDING_NOISY_MEASUREMENT,
	UD_FINDING_KERNEL_SYMBOL_ONE_HOST,
	UD_FINDING_COUNTING_MODES_DIFFER,
	UD_FINDING_LOW_IPC_WORK,
	UD_FINDING_COUNTERS_MOVED_TIME_DID_NOT,
	UD_FINDING_COUNT
};

/* The JSON id ("multiplexed") and the hypothesis a finding states.  Both static. */
const char *ud_finding_name(enum ud_finding_id id);
const char *ud_finding_hypothesis(enum ud_finding_id id);
int ud_finding_from_name(const char *name, enum ud_finding_id *out);

struct ud_finding {
	enum ud_finding_id id;
	const char *hypothesis; /* static text of the rule */
	const char *confirm;    /* what to run to confirm it; static, NULL when the rule names nothing */
	char **evidence;        /* owned strings */
	size_t nevidence;
};

struct ud_diff_host {
	const struct ud_profile *profile; /* borrowed */
	const char *label;                /* host.label, else "A" / "B"; borrowed */
	const char *file;                 /* borrowed */
	const struct ud_uarch *uarch;     /* penalties for the CPI stack; NULL when unknown */
	const char *no_pmu;               /* why it has no hardware counts (ud_profile_no_pmu_reason): into no_pmu_buf */
	char no_pmu_buf[UD_NO_PMU_REASON_MAX];
	const char **only;                /* names of the workloads the other side lacks; array owned */
	size_t nonly;
};

/* Across the workloads in common, composites left out. */
struct ud_diff_summary {
	/*
	 * The means take one kind of speedup: the scores' where any workload
	 * has them, else CPU time's; a ratio of scores and one of task-clocks
	 * do not average into anything.
	 */
	enum ud_speedup_basis basis;
	double geomean_speedup;             /* NAN when no workload has a speedup */
	/*
	 * Its 95% interval, from the workloads' intervals on the log scale
	 * (independent errors); NAN unless every workload behind it has one.
	 */
	double geomean_lo, geomean_hi;
	size_t ngeomean;                    /* the workloads behind it */
	double group_geomean[UD_GROUP_COUNT];
	size_t group_n[UD_GROUP_COUNT];
	bool counters;                      /* any counter counted on either side */
	char *headline;                     /* owned: one or two sentences across the workloads */
};

struct ud_diff {
	struct ud_diff_host host[UD_SIDE_COUNT];
	struct ud_diff_summary summary;
	struct ud_diff_workload *workloads; /* in the baseline's order */
	size_t nworkloads;
	struct ud_env_entry *env;
	size_t nenv;
	struct ud_finding *findings;        /* the diff's, then each workload's */
	size_t nfindings;
};

struct ud_diff_input {
	const struct ud_profile *a, *b; /* baseline and candidate */
	const char *a_name, *b_name;    /* their files, for the report */
	const struct ud_uarch_db *db;   /* penalties for the CPI stack; may be NULL */
};

/*
 * The model, or NULL with err: a workload with a zero or negative score, one
 * measured in different units or directions on the two sides, no workload in
 * common (the message lists both sides), or out of memory.
 * Caller frees (ud_diff_free()).
 */
struct ud_diff *ud_diff_build(const struct ud_diff_input *in, struct ud_err *err);
/* Whether w is one of the summary's means: not composite, a speedup of the summary's basis. */
bool ud_diff_in_summary(const struct ud_diff *d, const struct ud_diff_workload *w);
void ud_diff_free(struct ud_diff *d);

struct ud_jw;

/*
 * The uarchdiff.diff/2 document, written once (diff_json.c): into w as its
 * member key (NULL for the document itself or an array's element); as a
 * new reference, or NULL when out of memory; as text to f, 0 or -1 when out
 * of memory or f refused.
 */
void ud_diff_emit(const struct ud_diff *d, struct ud_jw *w, const char *key);
json_t *ud_diff_to_json(const struct ud_diff *d);
int ud_diff_write_json(const struct ud_diff *d, FILE *f);

#endif
