/*
 * topdown.c - the top-down record's vocabulary and its completion
 * (topdown.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "topdown.h"

static const struct {
	const char *name;
	int parent;
} buckets[UD_TD_NBUCKETS] = {
	[UD_TD_RETIRING] = { "retiring", UD_TD_RETIRING },
	[UD_TD_BAD_SPECULATION] = { "bad_speculation", UD_TD_BAD_SPECULATION },
	[UD_TD_FRONTEND_BOUND] = { "frontend_bound", UD_TD_FRONTEND_BOUND },
	[UD_TD_BACKEND_BOUND] = { "backend_bound", UD_TD_BACKEND_BOUND },
	[UD_TD_SMT_CONTENTION] = { "smt_contention", UD_TD_SMT_CONTENTION },
	[UD_TD_FETCH_LATENCY] = { "fetch_latency", UD_TD_FRONTEND_BOUND },
	[UD_TD_FETCH_BANDWIDTH] = { "fetch_bandwidth", UD_TD_FRONTEND_BOUND },
	[UD_TD_BRANCH_MISPREDICTS] = { "branch_mispredicts", UD_TD_BAD_SPECULATION },
	[UD_TD_MACHINE_CLEARS] = { "machine_clears", UD_TD_BAD_SPECULATION },
	[UD_TD_MEMORY_BOUND] = { "memory_bound", UD_TD_BACKEND_BOUND },
	[UD_TD_CORE_BOUND] = { "core_bound", UD_TD_BACKEND_BOUND },
	[UD_TD_HEAVY_OPERATIONS] = { "heavy_operations", UD_TD_RETIRING },
	[UD_TD_LIGHT_OPERATIONS] = { "light_operations", UD_TD_RETIRING },
	[UD_TD_MICROCODE] = { "microcode", UD_TD_RETIRING },
	[UD_TD_FASTPATH] = { "fastpath", UD_TD_RETIRING },
};

static const char *const methods[] = { "none", "slots", "cycle-accounting" };
static const char *const sources[] = { "counted", "perf-metrics", "perf-topdown-events" };

const char *ud_topdown_bucket_name(int b)
{
	return b >= 0 && b < UD_TD_NBUCKETS ? buckets[b].name : NULL;
}

int ud_topdown_bucket_index(const char *name)
{
	for (int b = 0; b < UD_TD_NBUCKETS; b++)
		if (strcmp(buckets[b].name, name) == 0)
			return b;
	return -1;
}

int ud_topdown_bucket_level(int b)
{
	return b < UD_TD_LEVEL1_COUNT ? 1 : 2;
}

int ud_topdown_bucket_parent(int b)
{
	return buckets[b].parent;
}

const char *ud_topdown_method_name(enum ud_topdown_method m)
{
	return methods[m];
}

/* The index of name in names[0..n) into *out: 0, or -1 when it is none of them. */
static int name_index(const char *const *names, size_t n, const char *name, int *out)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(names[i], name) == 0) {
			*out = (int)i;
			return 0;
		}
	}
	return -1;
}

int ud_topdown_method_parse(const char *name, enum ud_topdown_method *out)
{
	int i;

	if (name_index(methods, sizeof(methods) / sizeof(methods[0]), name, &i) != 0)
		return -1;
	*out = (enum ud_topdown_method)i;
	return 0;
}

const char *ud_topdown_source_name(enum ud_topdown_source s)
{
	return sources[s];
}

int ud_topdown_source_parse(const char *name, enum ud_topdown_source *out)
{
	int i;

	if (name_index(sources, sizeof(sources) / sizeof(sources[0]), name, &i) != 0)
		return -1;
	*out = (enum ud_topdown_source)i;
	return 0;
}

void ud_topdown_init(struct ud_topdown *t, enum ud_topdown_method m, enum ud_topdown_source s, const char *pmu)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->pmu, sizeof(t->pmu), "%s", pmu ? pmu : "");
	t->method = m;
	t->source = s;
	t->level = 1;
	for (int b = 0; b < UD_TD_NBUCKETS; b++)
		t->value[b] = NAN;
	t->raw_sum = t->residual = NAN;
}

void ud_topdown_set(struct ud_topdown *t, int b, double v, const char *why)
{
	t->defined[b] = true;
	t->value[b] = v;
	snprintf(t->reason[b], sizeof(t->reason[b]), "%s", isnan(v) && why ? why : "");
}

/* The first defined level-1 bucket without a value, or -1. */
static int first_null(const struct ud_topdown *t)
{
	for (int b = 0; b < UD_TD_LEVEL1_COUNT; b++)
		if (t->defined[b] && isnan(t->value[b]))
			return b;
	return -1;
}

void ud_topdown_finish(struct ud_topdown *t, const char *undefined_reason)
{
	double sum = 0;
	int null;

	t->level = 1;
	for (int b = 0; b < UD_TD_NBUCKETS; b++) {
		if (!t->defined[b])
			continue;
		if (t->value[b] < 0)
			t->value[b] = 0;
		if (ud_topdown_bucket_level(b) == 2)
			t->level = 2;
		else if (!isnan(t->value[b]))
			sum += t->value[b];
	}
	for (int b = 0; b <= UD_TD_BACKEND_BOUND; b++)
		if (!t->defined[b])
			snprintf(t->reason[b], sizeof(t->reason[b]), "%s",
				 undefined_reason ? undefined_reason : "the method has no such bucket");
	null = first_null(t);
	if (null >= 0) {
		t->raw_sum = t->residual = NAN;
		snprintf(t->residual_reason, sizeof(t->residual_reason), "%s is null", ud_topdown_bucket_name(null));
		return;
	}
	t->raw_sum = sum;
	t->residual_reason[0] = '\0';
	if (sum <= 1) {
		t->residual = 1 - sum;
		return;
	}
	for (int b = 0; b < UD_TD_NBUCKETS; b++)
		if (t->defined[b] && !isnan(t->value[b]))
			t->value[b] /= sum;
	t->residual = 0;
}
