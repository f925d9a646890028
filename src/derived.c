#include <math.h>

#include "derived.h"

static const char *const names[UD_METRIC_COUNT] = {
	[UD_M_IPC] = "ipc",
	[UD_M_CPI] = "cpi",
	[UD_M_BRANCH_MISS_RATE] = "branch_miss_rate",
	[UD_M_BRANCH_MPKI] = "branch_mpki",
	[UD_M_L1D_MISS_RATE] = "l1d_miss_rate",
	[UD_M_L1D_MPKI] = "l1d_mpki",
	[UD_M_FRONTEND_STALL_RATE] = "frontend_stall_rate",
	[UD_M_BACKEND_STALL_RATE] = "backend_stall_rate",
	[UD_M_GHZ] = "ghz",
	[UD_M_CPUS_UTILIZED] = "cpus_utilized",
	[UD_M_SYS_SHARE] = "sys_share",
};

const char *ud_metric_name(enum ud_metric m)
{
	return names[m];
}

/* NAN unless both are known and the denominator is not zero. */
static double ratio(double num, double den, double scale)
{
	if (isnan(num) || isnan(den) || den == 0)
		return NAN;
	return scale * num / den;
}

double ud_metric(const struct ud_workload *w, enum ud_metric m)
{
#define V(name) ud_workload_value(w, name)
	switch (m) {
	case UD_M_IPC: return ratio(V("instructions"), V("cycles"), 1);
	case UD_M_CPI: return ratio(V("cycles"), V("instructions"), 1);
	case UD_M_BRANCH_MISS_RATE: return ratio(V("branch-misses"), V("branches"), 1);
	case UD_M_BRANCH_MPKI: return ratio(V("branch-misses"), V("instructions"), 1000);
	case UD_M_L1D_MISS_RATE: return ratio(V("L1-dcache-load-misses"), V("L1-dcache-loads"), 1);
	case UD_M_L1D_MPKI: return ratio(V("L1-dcache-load-misses"), V("instructions"), 1000);
	case UD_M_FRONTEND_STALL_RATE: return ratio(V("stalled-cycles-frontend"), V("cycles"), 1);
	case UD_M_BACKEND_STALL_RATE: return ratio(V("stalled-cycles-backend"), V("cycles"), 1);
	case UD_M_GHZ: return ratio(V("cycles"), V("task-clock"), 1);
	case UD_M_CPUS_UTILIZED: return ratio(V("task-clock"), w->elapsed_ns, 1);
	case UD_M_SYS_SHARE: return ratio(w->sys_ns, w->user_ns + w->sys_ns, 1);
	case UD_METRIC_COUNT: break;
	}
#undef V
	return NAN;
}

json_t *ud_derived_json(const struct ud_workload *w)
{
	json_t *d = json_object();

	for (int m = 0; m < UD_METRIC_COUNT; m++) {
		double v = ud_metric(w, (enum ud_metric)m);

		json_object_set_new(d, names[m], isnan(v) ? json_null() : json_real(v));
	}
	return d;
}
