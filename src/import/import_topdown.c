/*
 * import_topdown.c - the top-down record of an imported workload
 * (import_topdown.h).  perf's own metrics, where it printed them, are its
 * answer as printed; the topdown-* events are divided here as perf divides
 * them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import_topdown.h"
#include "topdown.h"

/* The most core PMUs one paste names (a hybrid part has two). */
#define TD_MAX_PREFIXES 8

struct td_name {
	const char *perf;   /* as perf names the metric */
	int bucket;
};

/* Intel's TMA metrics, as perf's *-metrics.json name them (TopdownL1 and TopdownL2). */
static const struct td_name tma_names[] = {
	{ "tma_retiring", UD_TD_RETIRING },
	{ "tma_bad_speculation", UD_TD_BAD_SPECULATION },
	{ "tma_frontend_bound", UD_TD_FRONTEND_BOUND },
	{ "tma_backend_bound", UD_TD_BACKEND_BOUND },
	{ "tma_fetch_latency", UD_TD_FETCH_LATENCY },
	{ "tma_fetch_bandwidth", UD_TD_FETCH_BANDWIDTH },
	{ "tma_branch_mispredicts", UD_TD_BRANCH_MISPREDICTS },
	{ "tma_machine_clears", UD_TD_MACHINE_CLEARS },
	{ "tma_memory_bound", UD_TD_MEMORY_BOUND },
	{ "tma_core_bound", UD_TD_CORE_BOUND },
	{ "tma_heavy_operations", UD_TD_HEAVY_OPERATIONS },
	{ "tma_light_operations", UD_TD_LIGHT_OPERATIONS },
	{ NULL, 0 },
};

/*
 * AMD's PipelineL1 and PipelineL2 (amdzen4/pipeline.json's names, then
 * amdzen5's) and Arm's TopdownL1 (arm64/sbsa.json: the same four names).
 */
static const struct td_name pipeline_names[] = {
	{ "retiring", UD_TD_RETIRING },
	{ "bad_speculation", UD_TD_BAD_SPECULATION },
	{ "frontend_bound", UD_TD_FRONTEND_BOUND },
	{ "backend_bound", UD_TD_BACKEND_BOUND },
	{ "smt_contention", UD_TD_SMT_CONTENTION },
	{ "frontend_bound_latency", UD_TD_FETCH_LATENCY },
	{ "frontend_bound_by_latency", UD_TD_FETCH_LATENCY },
	{ "frontend_bound_bandwidth", UD_TD_FETCH_BANDWIDTH },
	{ "frontend_bound_by_bandwidth", UD_TD_FETCH_BANDWIDTH },
	{ "bad_speculation_mispredicts", UD_TD_BRANCH_MISPREDICTS },
	{ "bad_speculation_from_mispredicts", UD_TD_BRANCH_MISPREDICTS },
	{ "bad_speculation_pipeline_restarts", UD_TD_MACHINE_CLEARS },
	{ "bad_speculation_from_pipeline_restarts", UD_TD_MACHINE_CLEARS },
	{ "backend_bound_memory", UD_TD_MEMORY_BOUND },
	{ "backend_bound_by_memory", UD_TD_MEMORY_BOUND },
	{ "backend_bound_cpu", UD_TD_CORE_BOUND },
	{ "backend_bound_by_cpu", UD_TD_CORE_BOUND },
	{ "retiring_fastpath", UD_TD_FASTPATH },
	{ "retiring_from_fastpath", UD_TD_FASTPATH },
	{ "retiring_microcode", UD_TD_MICROCODE },
	{ "retiring_from_microcode", UD_TD_MICROCODE },
	{ NULL, 0 },
};

/*
 * Intel's TopdownL1 before the tma_ names (perf 4.x and 5.x
 * pmu-events/arch/x86/skylakex/skx-metrics.json and the like: "MetricName": "Backend_Bound",
 * "MetricGroup": "TopdownL1", no ScaleUnit, so perf printed fractions).
 */
static const struct td_name intel_old_names[] = {
	{ "Retiring", UD_TD_RETIRING },
	{ "Bad_Speculation", UD_TD_BAD_SPECULATION },
	{ "Frontend_Bound", UD_TD_FRONTEND_BOUND },
	{ "Backend_Bound", UD_TD_BACKEND_BOUND },
	{ NULL, 0 },
};

/*
 * perf prints a metric scaled by its ScaleUnit: "100%" ones as percentages,
 * those without one (older Intel's and HiSilicon's TopdownL1) as fractions.
 * The level-1 buckets share the slots, so the rows printed sum to at most
 * 1 as fractions (a little over, from multiplexed groups), and as
 * percentages to more unless every bucket printed is nearly empty, which
 * real pastes never are.  "0.91 Backend_Bound" is 91%, not 0.91%.
 */
#define TD_FRACTIONS_SUM_AT_MOST 1.05

/* perf's level-1 metric events, in the order of the buckets they give (arch/x86/events/intel/core.c). */
static const struct td_name td_events[] = {
	{ "topdown-retiring", UD_TD_RETIRING },
	{ "topdown-bad-spec", UD_TD_BAD_SPECULATION },
	{ "topdown-fe-bound", UD_TD_FRONTEND_BOUND },
	{ "topdown-be-bound", UD_TD_BACKEND_BOUND },
};

/* "pmu/name", or "" where it would not fit: no counter or metric is named so. */
static void prefixed(char *out, size_t len, const char *pmu, const char *name)
{
	if (snprintf(out, len, "%s%s%s", pmu, pmu[0] ? "/" : "", name) >= (int)len)
		out[0] = '\0';
}

/* The perf metric pmu/name: its index, or -1 when perf printed no such row. */
static int metric_at(const struct ud_workload *w, const char *pmu, const char *name)
{
	char full[160];

	prefixed(full, sizeof(full), pmu, name);
	for (size_t i = 0; i < w->nperf_metrics; i++)
		if (strcmp(w->perf_metrics[i].name, full) == 0)
			return (int)i;
	return -1;
}

/*
 * 100 where perf printed the level-1 rows of this naming as percentages, 1
 * where as fractions: older Intel's names always (none had a ScaleUnit),
 * the others by what their rows sum to (HiSilicon's lowercase names had
 * none either).
 */
static double printed_scale(const struct ud_workload *w, const char *pmu, const struct td_name *names)
{
	double sum = 0;

	if (names == intel_old_names)
		return 1;
	for (const struct td_name *n = names; n->perf; n++) {
		int i = ud_topdown_bucket_level(n->bucket) == 1 ? metric_at(w, pmu, n->perf) : -1;

		if (i >= 0 && isfinite(w->perf_metrics[i].value))
			sum += w->perf_metrics[i].value;
	}
	return sum > TD_FRACTIONS_SUM_AT_MOST ? 100 : 1;
}

/* Fills a record from perf's metric rows of one naming: 1 done, 0 none of its level-1 rows printed, -1 out of memory. */
static int from_metrics(struct ud_workload *w, const char *pmu, const struct td_name *names, struct ud_err *err)
{
	struct ud_topdown *t;
	char why[UD_TD_REASON];
	bool any = false;
	double scale;

	for (const struct td_name *n = names; n->perf; n++)
		any = any || (ud_topdown_bucket_level(n->bucket) == 1 && metric_at(w, pmu, n->perf) >= 0);
	if (!any)
		return 0;
	t = ud_workload_add_topdown(w, UD_TD_SLOTS, UD_TD_PERF_METRICS, pmu);
	if (!t)
		return ud_fail(err, "out of memory");
	scale = printed_scale(w, pmu, names);
	for (const struct td_name *n = names; n->perf; n++) {
		int i = metric_at(w, pmu, n->perf);
		double v = i >= 0 ? w->perf_metrics[i].value : NAN;

		if (i < 0 && (t->defined[n->bucket] || n->bucket > UD_TD_BACKEND_BOUND))
			continue; /* another spelling of a bucket already set, or one this paste does not give */
		snprintf(why, sizeof(why), i < 0 ? "perf printed no %s row" : "perf printed %s without a value", n->perf);
		ud_topdown_set(t, n->bucket, v / scale, why);
	}
	ud_topdown_finish(t, NULL);
	return 1;
}

/*
 * The counter of one of the four events, in whatever mode it was counted
 * ("topdown-retiring:k" under --all-kernel): the four are read in one mode,
 * the first's.
 */
static const struct ud_counter *event_counter(const struct ud_workload *w, const char *full)
{
	size_t n = strlen(full);

	for (size_t i = 0; i < w->ncounters; i++) {
		const char *name = w->counters[i].name;

		if (strncmp(name, full, n) == 0 && (name[n] == '\0' || name[n] == ':'))
			return &w->counters[i];
	}
	return NULL;
}

/* Why the four events give no fractions: the first of them not counted. */
static const char *events_missing(const struct ud_workload *w, const char *pmu, char *why, size_t len)
{
	for (size_t i = 0; i < sizeof(td_events) / sizeof(td_events[0]); i++) {
		char full[96];
		const struct ud_counter *c;

		prefixed(full, sizeof(full), pmu, td_events[i].perf);
		c = event_counter(w, full);
		if (!c || c->status != UD_COUNTED) {
			snprintf(why, len, "%s %s", td_events[i].perf,
				 !c ? "is not in the paste" : c->reason ? c->reason : "was not counted");
			return why;
		}
	}
	return NULL;
}

/*
 * perf's topdown-* events: each over the four's sum, as perf prints them
 * (its td_metric_ratio, and perf's tma_* formulas over the same events):
 * the kernel scales each from the metrics register by the slots count, so
 * the four add up to slots but for the register's rounding.
 */
static int from_events(struct ud_workload *w, const char *pmu, struct ud_err *err)
{
	double v[4], sum = 0;
	char full[96], why[UD_TD_REASON];
	const char *missing = events_missing(w, pmu, why, sizeof(why));
	struct ud_topdown *t;
	bool any = false;

	for (size_t i = 0; i < 4; i++) {
		const struct ud_counter *c;

		prefixed(full, sizeof(full), pmu, td_events[i].perf);
		c = event_counter(w, full);
		any = any || c;
		v[i] = c && c->status == UD_COUNTED ? c->value : NAN;
		sum += v[i];
	}
	if (!any)
		return 0;
	t = ud_workload_add_topdown(w, UD_TD_SLOTS, UD_TD_PERF_TOPDOWN_EVENTS, pmu);
	if (!t)
		return ud_fail(err, "out of memory");
	if (!missing && !(sum > 0))
		missing = "the four topdown events counted 0";
	for (size_t i = 0; i < 4; i++)
		ud_topdown_set(t, td_events[i].bucket, missing ? NAN : v[i] / sum, missing);
	ud_topdown_finish(t, NULL);
	return 1;
}

/*
 * pmu's record from the first source perf printed: Intel's tma_* metrics,
 * else the topdown-* events (perf 5.x prints them with "retiring" beside
 * one, which is no PipelineL1 row), else AMD's or Arm's bucket metrics,
 * else Intel's older TopdownL1 names.
 */
static int import_pmu(struct ud_workload *w, const char *pmu, struct ud_err *err)
{
	int r = from_metrics(w, pmu, tma_names, err);

	if (r == 0)
		r = from_events(w, pmu, err);
	if (r == 0)
		r = from_metrics(w, pmu, pipeline_names, err);
	if (r == 0)
		r = from_metrics(w, pmu, intel_old_names, err);
	return r < 0 ? -1 : 0;
}

/* Adds the core PMU name's prefix ("cpu_core" of "cpu_core/tma_retiring") to the set, once. */
static void take_prefix(const char *name, char set[][UD_TD_PMU], size_t *n)
{
	const char *slash = strchr(name, '/');
	size_t len = slash ? (size_t)(slash - name) : 0;

	if (!slash || len == 0 || len >= UD_TD_PMU || *n == TD_MAX_PREFIXES)
		return;
	for (size_t i = 0; i < *n; i++)
		if (strlen(set[i]) == len && strncmp(set[i], name, len) == 0)
			return;
	memcpy(set[*n], name, len);
	set[(*n)++][len] = '\0';
}

int imp_topdown(struct ud_workload *w, struct ud_err *err)
{
	char pmus[TD_MAX_PREFIXES][UD_TD_PMU] = { "" };
	size_t n = 1;

	for (size_t i = 0; i < w->nperf_metrics; i++)
		take_prefix(w->perf_metrics[i].name, pmus, &n);
	for (size_t i = 0; i < w->ncounters; i++)
		take_prefix(w->counters[i].name, pmus, &n);
	for (size_t i = 0; i < n; i++)
		if (import_pmu(w, pmus[i], err) != 0)
			return -1;
	return 0;
}
