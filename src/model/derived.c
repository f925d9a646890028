#include <math.h>
#include <stdbool.h>

#include "derived.h"

/*
 * The one table of the metrics: the JSON key of SPEC §4, the label a report
 * shows, whether it is a rate a report shows as a percentage, and for a
 * ratio of two counters, the counters and the scale (SPEC §4's formulas).
 */
static const struct {
	const char *name, *label;
	bool percent;
	const char *num, *den; /* counter names; NULL for the metrics of times */
	double scale;
} metrics[UD_METRIC_COUNT] = {
	[UD_M_IPC] = { "ipc", "IPC", false, "instructions", "cycles", 1 },
	[UD_M_CPI] = { "cpi", "CPI", false, "cycles", "instructions", 1 },
	[UD_M_BRANCH_MISS_RATE] = { "branch_miss_rate", "branch-miss rate", true, "branch-misses", "branches", 1 },
	[UD_M_BRANCH_MPKI] = { "branch_mpki", "branch MPKI", false, "branch-misses", "instructions", 1000 },
	[UD_M_L1D_MISS_RATE] = { "l1d_miss_rate", "L1d miss rate", true, "L1-dcache-load-misses", "L1-dcache-loads", 1 },
	[UD_M_L1D_MPKI] = { "l1d_mpki", "L1d MPKI", false, "L1-dcache-load-misses", "instructions", 1000 },
	[UD_M_FRONTEND_STALL_RATE] = { "frontend_stall_rate", "frontend stall rate", true, "stalled-cycles-frontend",
				       "cycles", 1 },
	[UD_M_BACKEND_STALL_RATE] = { "backend_stall_rate", "backend stall rate", true, "stalled-cycles-backend",
				      "cycles", 1 },
	[UD_M_GHZ] = { "ghz", "GHz", false, "cycles", "task-clock", 1 },
	[UD_M_CPUS_UTILIZED] = { "cpus_utilized", "CPUs utilized", false, NULL, NULL, 1 },
	[UD_M_SYS_SHARE] = { "sys_share", "sys share of CPU time", true, NULL, NULL, 1 },
};

const char *ud_metric_name(enum ud_metric m)
{
	return metrics[m].name;
}

const char *ud_metric_label(enum ud_metric m)
{
	return metrics[m].label;
}

bool ud_metric_is_percent(enum ud_metric m)
{
	return metrics[m].percent;
}

/*
 * getrusage's CPU time above task-clock by more than this share means
 * task-clock missed work; below it the two agree within the rounding of
 * perf's printed user and sys seconds (imports), and task-clock stands.
 */
#define RUSAGE_COMPLETE_MARGIN 0.02

/*
 * The CPU time behind "CPUs utilized" (derived.h): task-clock, unless getrusage's user
 * + sys says more.  A child's inherited counters are flushed to its parent
 * when it exits but before Linux (6.18 here) tears its address space down,
 * so that teardown never reaches task-clock: about 50 us a fork from a small
 * process, 2.5 ms from a 64 MB one, measured here; spawn read 0.59 CPUs
 * where getrusage, which counts a child whole once it is reaped, said 0.97.
 */
double ud_cpu_time_ns(double task_clock_ns, double user_ns, double sys_ns)
{
	double ru = user_ns + sys_ns;

	if (isnan(ru) || (!isnan(task_clock_ns) && ru <= task_clock_ns * (1 + RUSAGE_COMPLETE_MARGIN)))
		return task_clock_ns;
	return ru;
}

/* NAN unless both are known and the denominator is not zero. */
static double ratio(double num, double den, double scale)
{
	if (isnan(num) || isnan(den) || den == 0)
		return NAN;
	return scale * num / den;
}

bool ud_metric_counters(enum ud_metric m, const char **num, const char **den)
{
	*num = metrics[m].num;
	*den = metrics[m].den;
	return *num != NULL;
}

double ud_metric(const struct ud_workload *w, enum ud_metric m)
{
	if (metrics[m].num)
		return ratio(ud_workload_total(w, metrics[m].num, NULL), ud_workload_total(w, metrics[m].den, NULL),
			     metrics[m].scale);
	if (m == UD_M_CPUS_UTILIZED)
		return ratio(ud_cpu_time_ns(ud_workload_total(w, "task-clock", NULL), w->user_ns, w->sys_ns),
			     w->elapsed_ns, 1);
	return ratio(w->sys_ns, w->user_ns + w->sys_ns, 1); /* UD_M_SYS_SHARE */
}

void ud_derived_emit(struct ud_jw *jw, const char *key, const struct ud_workload *w)
{
	ud_jw_object(jw, key);
	for (int m = 0; m < UD_METRIC_COUNT; m++)
		ud_jw_real(jw, metrics[m].name, ud_metric(w, (enum ud_metric)m));
	ud_jw_end(jw);
}
