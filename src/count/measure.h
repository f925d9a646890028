/*
 * measure.h - the one counting pipeline that `stat` and `run` share:
 * plan the counter groups, run a measured unit (multiplexed, or once a
 * group with --exact), and fold the counts of several runs into the
 * counters of a profile workload.
 *
 * What differs between the two commands is a parameter, not a copy:
 *  - what one run is: `stat` runs a session, a command or CPUs or tasks
 *    counted (ud_measure_stat() below, through launch.h); the runner forks
 *    a workload child (runner.h).
 *    Both hand ud_measure_unit() a callback that counts one run;
 *  - how runs combine (enum ud_fold_mode): `stat` prints means over runs as
 *    perf -r does; `run` keeps the samples' totals so that every ratio
 *    between counts, work and times stays exact.
 *
 * Ownership: ud_measure_plan() returns an array the caller frees with
 * free(); a struct ud_fold holds memory until ud_fold_finish() or
 * ud_fold_abort(); the counters it fills belong to the workload.
 */
#ifndef UD_MEASURE_H
#define UD_MEASURE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counting.h"
#include "error.h"
#include "events.h"
#include "launch.h"
#include "profile.h"
#include "uarch.h"

/*
 * Resolves a comma-separated event list for u (NULL list: the default
 * events) and plans the groups for this host's usable counters (the NMI
 * watchdog's counter taken off).  Unknown names stay in the plan, unresolved,
 * to be reported `not_supported`.  Returns NULL with err set for an empty
 * list, an empty name in it, or no memory.
 * The caller frees the array with free().
 */
struct ud_event *ud_measure_plan(const struct ud_uarch *u, const char *list, size_t *n, struct ud_err *err);
/*
 * The same, leaving `reserved` programmable counters to another user: a
 * sampling event on cycles (sampler.h) holds one while the groups count,
 * and --exact's groups must still fit beside it.  Caller frees, as above.
 */
struct ud_event *ud_measure_plan_reserving(const struct ud_uarch *u, const char *list, int reserved, size_t *n,
					   struct ud_err *err);

/*
 * Counts one run of the measured unit with ev[0..n) into counts[0..n).
 * `first` is true for the run whose times stand for the unit (the only run
 * when multiplexed, the first group's with --exact).  Returns 0, or a
 * caller-defined nonzero code that ud_measure_unit() passes back.
 */
typedef int (*ud_measure_run_fn)(void *ctx, const struct ud_event *ev, size_t n, struct ud_count *counts,
				 bool first);

/*
 * Measures the unit once: one run counting every event of the plan, or with
 * exact, one run a counter group, each group alone on the PMU (software and
 * ungrouped events ride with the first group).  Fills counts[0..n) in plan
 * order.  Returns 0, the callback's first nonzero code, or
 * UD_MEASURE_NO_MEMORY.
 */
#define UD_MEASURE_NO_MEMORY INT_MIN /* a code no callback may return */
int ud_measure_unit(const struct ud_event *ev, size_t n, bool exact, ud_measure_run_fn run, void *ctx,
		    struct ud_count *counts);

enum ud_fold_mode {
	UD_FOLD_MEAN, /* value, raw and times are means over runs (perf -r) */
	UD_FOLD_SUM,  /* totals over runs, so ratios with summed work and times are exact */
};

struct ud_fold {
	struct ud_workload *w;
	size_t first;           /* index of the fold's first counter in w */
	size_t n, runs, done;
	enum ud_fold_mode mode;
	double *values;         /* n x runs scaled values, for the mean and its spread */
};

/*
 * Adds one counter per event to w, carrying what stands behind it
 * (vendor_event, semantics, opened_as, group), ready for up to `runs` runs.
 * Returns -1 when out of memory.
 */
int ud_fold_begin(struct ud_fold *f, struct ud_workload *w, const struct ud_event *ev, size_t n, size_t runs,
		  enum ud_fold_mode mode);
/* Adds one run's counts (n of them, in plan order); runs past `runs` are ignored. */
void ud_fold_add(struct ud_fold *f, const struct ud_count *counts);
/*
 * Sets the counters' values and statuses: a counter missed in any run takes
 * the first such run's status and reason; with no run at all, every counter
 * is not_counted.  Frees what the fold held.
 */
void ud_fold_finish(struct ud_fold *f);

/*
 * Whether the kernel's NMI watchdog is on (/proc/sys/kernel/nmi_watchdog):
 * on x86 it holds a programmable counter that a group plan cannot have
 * (uarch.h's ud_uarch_usable_counters()).  false when unreadable.
 */
bool ud_measure_nmi_watchdog(void);
/*
 * The same, for perf stat's -d levels (0 to 3, events.h
 * ud_detailed_events()): their events join the list's (or the defaults'),
 * in perf's order, but those already in it; and with topdown, the events
 * of u's top-down methods (uarch.h, events/README.md "Top-down") besides:
 * for each method, the events its level-1 formulas read as one requested
 * group (a slots method's buckets are ratios inside one group, as perf
 * counts a metric), and those only level 2 reads as another, each named as
 * the table names it; a group that needs more general-purpose counters than
 * are usable is planned freely instead (multiplexed: an estimate).  An
 * event the list already holds by that name is not added twice.  With
 * one_group (perf stat -g), the list's events (or the defaults) and -d's
 * are one requested group, whatever groups the list wrote, as perf's
 * evlist__set_leader() makes them; the top-down groups stay their own.  u NULL
 * plans a list with no hardware event, no -d and no top-down: the list's
 * events need no table (measurement.h).  Caller frees, as above.
 */
struct ud_event *ud_measure_plan_topdown(const struct ud_uarch *u, const char *list, int detailed, int reserved,
					 bool topdown, bool one_group, size_t *n, struct ud_err *err);

/*
 * Appends w's top-down records from its counters (topdown_counters.h), the
 * slots a cycle read from the PMU's caps/slots where a method needs them.
 * Returns 0, or -1 with err.
 */
int ud_measure_topdown(const struct ud_uarch *u, struct ud_workload *w, struct ud_err *err);

/* What `stat` measures: one session a run (launch.h), repeated. */
struct ud_measure_stat {
	struct ud_session session; /* the command or the slots, and for how long */
	bool exact;                /* one run a counter group: the command target alone, no aggregates */
	size_t runs;
	const char *pre, *post;    /* shell commands run before and after each run (perf's --pre, --post); NULL none */
	bool sync;                 /* sync() before each run, after --pre (perf's -S: dirty pages written out first) */
	const size_t *aggr_of;     /* slot -> aggregate (a CPU, a core, a socket, a thread); NULL: the whole only */
	size_t naggr;
	const struct ud_uarch *topdown; /* whose top-down records follow from the counts (--topdown); NULL none */
};

/*
 * `stat`: runs the session m->runs times (a stop signal ends the runs after
 * the one it stopped) and fills w: counters (means over runs), the score
 * (the elapsed seconds of each run), and mean elapsed, user and sys times;
 * and each aggr[0..naggr) with the counters of its slots alone and the
 * same times; with m->topdown, each its top-down records.  duration_time is
 * each run's elapsed time, user_time and system_time its command's rusage
 * (not counted without a command), each aggregate reading the whole's.
 * *last is the last run's launch result.  Returns UD_LAUNCH_OK, or launch.h's
 * UD_LAUNCH_EXEC_FAILED / UD_LAUNCH_SYSTEM with err set (a --pre or --post
 * command that fails is UD_LAUNCH_SYSTEM).
 */
int ud_measure_stat(const struct ud_measure_stat *m, const struct ud_event *ev, size_t n, struct ud_workload *w,
		    struct ud_workload *const *aggr, struct ud_launch_result *last, struct ud_err *err);

/*
 * One interval of m's session (launch.h's ud_interval_fn hands over the
 * per-slot deltas): the whole's counters into w, each aggregate's into
 * aggr[a], each over length_ns (its elapsed time, and duration_time;
 * user_time and system_time are not counted before the command has ended).
 * Returns -1 when out of memory.
 */
int ud_measure_interval(const struct ud_measure_stat *m, const struct ud_event *ev, size_t n,
			const struct ud_count *deltas, uint64_t length_ns, struct ud_workload *w,
			struct ud_workload *const *aggr);

#endif
