/*
 * derived.h - the derived metrics of SPEC §4, computed from a workload's
 * counters and times.  A metric whose input is missing (not counted,
 * unknown, or a zero denominator) is NAN, written as JSON null.
 */
#ifndef UD_DERIVED_H
#define UD_DERIVED_H

#include <stdbool.h>

#include "json_emit.h"
#include "profile.h"

enum ud_metric {
	UD_M_IPC,
	UD_M_CPI,
	UD_M_BRANCH_MISS_RATE,
	UD_M_BRANCH_MPKI,
	UD_M_L1D_MISS_RATE,
	UD_M_L1D_MPKI,
	UD_M_FRONTEND_STALL_RATE,
	UD_M_BACKEND_STALL_RATE,
	UD_M_GHZ,
	UD_M_CPUS_UTILIZED,
	UD_M_SYS_SHARE,
	UD_METRIC_COUNT
};

/*
 * The JSON key ("branch_mpki"), the label a report shows ("branch MPKI"),
 * and whether a report shows the value as a percentage (a rate).
 * The strings are static.
 */
const char *ud_metric_name(enum ud_metric m);
const char *ud_metric_label(enum ud_metric m);
bool ud_metric_is_percent(enum ud_metric m);
double ud_metric(const struct ud_workload *w, enum ud_metric m);
/*
 * For a metric that is a ratio of two counters, their names (static) in
 * *num and *den, and true; false (both NULL) for the metrics of times
 * (CPUs utilized, sys share).
 */
bool ud_metric_counters(enum ud_metric m, const char **num, const char **den);
/*
 * The CPU time that "CPUs utilized" divides by the elapsed time: task-clock,
 * unless getrusage's user + sys (which counts reaped children whole) exceeds
 * it by more than 2%, as it does for fork-heavy work (derived.c says why).
 * NAN when neither is known.
 */
double ud_cpu_time_ns(double task_clock_ns, double user_ns, double sys_ns);
/* Writes {"ipc": .., ...}, every metric as a real, null for NAN, as member key of the open object (NULL in an array). */
void ud_derived_emit(struct ud_jw *jw, const char *key, const struct ud_workload *w);

#endif
