/*
 * measure.h - the one counting pipeline that `stat` and `run` share:
 * plan the counter groups, run a measured unit (multiplexed, or once a
 * group with --exact), and fold the counts of several runs into the
 * counters of a profile workload.
 *
 * What differs between the two commands is a parameter, not a copy:
 *  - what one run is: `stat` launches a command (ud_measure_command()
 *    below, through launch.h); the runner forks a workload child (runner.h).
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
 */
struct ud_event *ud_measure_plan(const struct ud_uarch *u, const char *list, size_t *n, struct ud_err *err);
/*
 * The same, leaving `reserved` programmable counters to another user: a
 * sampling event on cycles (sampler.h) holds one while the groups count,
 * and --exact's groups must still fit beside it.
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
/* Frees what the fold held, leaving the counters as they are. */
void ud_fold_abort(struct ud_fold *f);

/*
 * `stat`: runs argv `runs` times counting ev[0..n) from its exec (exact: once
 * a group per run), sampling it too where sampling is not NULL, and fills w: counters (means over runs), the score (the
 * elapsed seconds of each run), and mean elapsed, user and sys times;
 * *wait_status is the last run's, as from wait4().  Returns UD_LAUNCH_OK, or launch.h's UD_LAUNCH_EXEC_FAILED / UD_LAUNCH_SYSTEM
 * with err set.
 */
int ud_measure_command(char *const argv[], const struct ud_event *ev, size_t n, bool exact, size_t runs,
		       const struct ud_launch_sampling *sampling, struct ud_workload *w, int *wait_status,
		       struct ud_err *err);

#endif
