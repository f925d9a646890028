/*
 * topdown.h - a workload's top-down accounting (SPEC §5.2 "topdown"): where
 * the pipeline's issue slots went, as fractions of all slots, whether
 * counted from a table's formulas (topdown_method.h) or imported from
 * perf's own metrics or topdown-* events.
 *
 * Level 1 is retiring, bad_speculation, frontend_bound and backend_bound
 * (and AMD's smt_contention where the method has it); level 2 splits each
 * into two buckets of a fixed vocabulary (ud_topdown_bucket_name()).  A
 * bucket the source measures is "defined"; its value is NAN (null) with a
 * reason where an input was missing.  The four level-1 buckets are always
 * written, null with the method's reason where it has none of them (cycle
 * accounting has no retiring).
 *
 * The struct is a plain value: fixed arrays, nothing to free.
 */
#ifndef UD_TOPDOWN_H
#define UD_TOPDOWN_H

#include <stdbool.h>
#include <stddef.h>

enum ud_topdown_method {
	UD_TD_METHOD_NONE,          /* the core counts nothing top-down can use */
	UD_TD_SLOTS,                /* issue or dispatch slots: real top-down */
	UD_TD_CYCLE_ACCOUNTING,     /* whole stalled cycles over all cycles: not top-down */
};

enum ud_topdown_source {
	UD_TD_COUNTED,              /* the table's formulas over counted events */
	UD_TD_PERF_METRICS,         /* perf's own metric rows (tma_*, PipelineL1, TopdownL1) */
	UD_TD_PERF_TOPDOWN_EVENTS,  /* perf's slots and topdown-* events */
};

enum ud_topdown_bucket {
	UD_TD_RETIRING,
	UD_TD_BAD_SPECULATION,
	UD_TD_FRONTEND_BOUND,
	UD_TD_BACKEND_BOUND,
	UD_TD_SMT_CONTENTION,       /* AMD: slots given to the other thread of the core */
	UD_TD_FETCH_LATENCY,        /* the level-2 buckets, two under each level-1 one */
	UD_TD_FETCH_BANDWIDTH,
	UD_TD_BRANCH_MISPREDICTS,
	UD_TD_MACHINE_CLEARS,       /* AMD: pipeline restarts (resyncs) */
	UD_TD_MEMORY_BOUND,
	UD_TD_CORE_BOUND,           /* AMD: backend_bound_cpu */
	UD_TD_HEAVY_OPERATIONS,     /* Intel: uops of instructions needing more than one */
	UD_TD_LIGHT_OPERATIONS,
	UD_TD_MICROCODE,            /* AMD: retired microcode ops */
	UD_TD_FASTPATH,
	UD_TD_NBUCKETS,
};

#define UD_TD_LEVEL1_COUNT 5        /* the buckets before UD_TD_FETCH_LATENCY */
/* a counted bucket's reason holds its event's name, status and the counter's reason (UD_REASON_MAX) */
#define UD_TD_REASON 512
#define UD_TD_PMU 32

struct ud_topdown {
	char pmu[UD_TD_PMU];        /* the core type on a hybrid host ("cpu_core"); "" otherwise */
	enum ud_topdown_method method;
	enum ud_topdown_source source;
	int level;                  /* 1 or 2: the deepest level with a defined bucket */
	bool defined[UD_TD_NBUCKETS];
	double value[UD_TD_NBUCKETS];           /* 0..1; NAN null */
	char reason[UD_TD_NBUCKETS][UD_TD_REASON]; /* why a null one is null */
	double raw_sum;             /* the level-1 buckets' sum as the formulas gave it; NAN unknown */
	double residual;            /* 1 - raw_sum, the slots no bucket claims; 0 when normalised; NAN unknown */
	char residual_reason[UD_TD_REASON];
	/*
	 * Why the buckets are only an estimate, "" when they are not: counted
	 * events that shared their counters with other groups (multiplexed),
	 * so each is a count scaled from part of the run.
	 */
	char estimate[UD_TD_REASON];
};

/* "retiring", ..., "fastpath"; NULL out of range.  Returns a static string. */
const char *ud_topdown_bucket_name(int b);
/* The bucket named name, or -1. */
int ud_topdown_bucket_index(const char *name);
/* 1 or 2. */
int ud_topdown_bucket_level(int b);
/* The level-1 bucket a level-2 one splits; b itself for a level-1 bucket. */
int ud_topdown_bucket_parent(int b);

/* The names are static. */
const char *ud_topdown_method_name(enum ud_topdown_method m);
int ud_topdown_method_parse(const char *name, enum ud_topdown_method *out);
const char *ud_topdown_source_name(enum ud_topdown_source s);
int ud_topdown_source_parse(const char *name, enum ud_topdown_source *out);

/* An empty record: nothing defined, every value NAN. */
void ud_topdown_init(struct ud_topdown *t, enum ud_topdown_method m, enum ud_topdown_source s, const char *pmu);
/* Defines bucket b with value v (a fraction; NAN null, then why says why). */
void ud_topdown_set(struct ud_topdown *t, int b, double v, const char *why);
/*
 * Completes a record once its buckets are set: a level-1 bucket of the
 * four that the method does not measure becomes null with
 * undefined_reason; a value below 0 (a formula subtracting an estimate)
 * becomes 0; raw_sum and residual follow from the level-1 buckets.  Where
 * they sum to more than 1 (Zen 5 counts bad speculation in ops, not slots)
 * every bucket is scaled by 1 / raw_sum and the residual is 0; where less,
 * the residual is what is left.
 */
void ud_topdown_finish(struct ud_topdown *t, const char *undefined_reason);

#endif
