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
	const char *num, *den; /* perf's generic names of the counters; NULL for the metrics of times */
	enum ud_counter_class num_class, den_class; /* what the formula reads: any counter of that class */
	double scale;
} metrics[UD_METRIC_COUNT] = {
	[UD_M_IPC] = { "ipc", "IPC", false, "instructions", "cycles", UD_CLASS_INSTRUCTIONS, UD_CLASS_CYCLES, 1 },
	[UD_M_CPI] = { "cpi", "CPI", false, "cycles", "instructions", UD_CLASS_CYCLES, UD_CLASS_INSTRUCTIONS, 1 },
	[UD_M_BRANCH_MISS_RATE] = { "branch_miss_rate", "branch-miss rate", true, "branch-misses", "branches",
				    UD_CLASS_BRANCH_MISSES, UD_CLASS_BRANCHES, 1 },
	[UD_M_BRANCH_MPKI] = { "branch_mpki", "branch MPKI", false, "branch-misses", "instructions",
			       UD_CLASS_BRANCH_MISSES, UD_CLASS_INSTRUCTIONS, 1000 },
	[UD_M_L1D_MISS_RATE] = { "l1d_miss_rate", "L1d miss rate", true, "L1-dcache-load-misses", "L1-dcache-loads",
				 UD_CLASS_L1D_MISS, UD_CLASS_L1D_ACCESS, 1 },
	[UD_M_L1D_MPKI] = { "l1d_mpki", "L1d MPKI", false, "L1-dcache-load-misses", "instructions", UD_CLASS_L1D_MISS,
			    UD_CLASS_INSTRUCTIONS, 1000 },
	[UD_M_FRONTEND_STALL_RATE] = { "frontend_stall_rate", "frontend stall rate", true, "stalled-cycles-frontend",
				       "cycles", UD_CLASS_STALL_FRONTEND, UD_CLASS_CYCLES, 1 },
	[UD_M_BACKEND_STALL_RATE] = { "backend_stall_rate", "backend stall rate", true, "stalled-cycles-backend",
				      "cycles", UD_CLASS_STALL_BACKEND, UD_CLASS_CYCLES, 1 },
	/* the denominator is task-clock, which counts time in every mode (ud_metric() reads it by name) */
	[UD_M_GHZ] = { "ghz", "GHz", false, "cycles", "task-clock", UD_CLASS_CYCLES, UD_CLASS_SOFTWARE, 1 },
	[UD_M_CPUS_UTILIZED] = { "cpus_utilized", "CPUs utilized", false, NULL, NULL, UD_CLASS_OTHER, UD_CLASS_OTHER, 1 },
	[UD_M_SYS_SHARE] = { "sys_share", "sys share of CPU time", true, NULL, NULL, UD_CLASS_OTHER, UD_CLASS_OTHER, 1 },
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

/* The modes a ratio is looked for in after the workload's domain, widest first. */
static const enum ud_counting ratio_modes[] = { UD_COUNTING_ALL, UD_COUNTING_USER, UD_COUNTING_KERNEL,
						UD_COUNTING_HOST, UD_COUNTING_GUEST };

/*
 * num / den of one counting mode: the workload's domain (that of its cycles
 * and instructions), else the first mode that has both, so that a branch
 * miss rate of an --all-kernel paste is the kernel's and never a ratio of
 * two modes' counts.
 */
static double class_ratio(const struct ud_workload *w, enum ud_metric m)
{
	enum ud_counting d = ud_workload_domain(w);
	double v = d == UD_COUNTING_COUNT ? NAN
					  : ratio(ud_workload_class_value(w, metrics[m].num_class, d),
						  ud_workload_class_value(w, metrics[m].den_class, d), metrics[m].scale);

	for (size_t i = 0; isnan(v) && i < sizeof(ratio_modes) / sizeof(ratio_modes[0]); i++)
		v = ratio(ud_workload_class_value(w, metrics[m].num_class, ratio_modes[i]),
			  ud_workload_class_value(w, metrics[m].den_class, ratio_modes[i]), metrics[m].scale);
	return v;
}

double ud_metric(const struct ud_workload *w, enum ud_metric m)
{
	if (m == UD_M_GHZ)
		return ratio(ud_workload_domain_value(w, UD_CLASS_CYCLES), ud_workload_task_clock_ns(w), 1);
	if (metrics[m].num)
		return class_ratio(w, m);
	if (m == UD_M_CPUS_UTILIZED)
		return ratio(ud_cpu_time_ns(ud_workload_task_clock_ns(w), w->user_ns, w->sys_ns), w->elapsed_ns, 1);
	return ratio(w->sys_ns, w->user_ns + w->sys_ns, 1); /* UD_M_SYS_SHARE */
}

void ud_derived_emit(struct ud_jw *jw, const char *key, const struct ud_workload *w)
{
	ud_jw_object(jw, key);
	for (int m = 0; m < UD_METRIC_COUNT; m++)
		ud_jw_real(jw, metrics[m].name, ud_metric(w, (enum ud_metric)m));
	ud_jw_end(jw);
}
