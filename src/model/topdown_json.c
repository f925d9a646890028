/*
 * topdown_json.c - top-down records written into and read back from a
 * profile's workloads (topdown_json.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "topdown_json.h"

/* The buckets written whether or not the method measures them: a reader always finds the four. */
static bool always_written(int b)
{
	return b <= UD_TD_BACKEND_BOUND;
}

static bool has_reasons(const struct ud_topdown *t)
{
	for (int b = 0; b < UD_TD_NBUCKETS; b++)
		if ((t->defined[b] || always_written(b)) && isnan(t->value[b]) && t->reason[b][0])
			return true;
	return isnan(t->residual) && t->residual_reason[0];
}

static void reasons_emit(struct ud_jw *jw, const struct ud_topdown *t)
{
	ud_jw_object(jw, "reasons");
	for (int b = 0; b < UD_TD_NBUCKETS; b++)
		if ((t->defined[b] || always_written(b)) && isnan(t->value[b]) && t->reason[b][0])
			ud_jw_string(jw, ud_topdown_bucket_name(b), t->reason[b]);
	if (isnan(t->residual) && t->residual_reason[0])
		ud_jw_string(jw, "residual", t->residual_reason);
	ud_jw_end(jw);
}

void ud_topdown_emit(struct ud_jw *jw, const char *key, const struct ud_topdown *t)
{
	bool level2 = false;

	ud_jw_object(jw, key);
	ud_jw_string(jw, "method", ud_topdown_method_name(t->method));
	ud_jw_integer(jw, "level", t->level);
	ud_jw_string(jw, "source", ud_topdown_source_name(t->source));
	for (int b = 0; b < UD_TD_LEVEL1_COUNT; b++)
		if (t->defined[b] || always_written(b))
			ud_jw_real(jw, ud_topdown_bucket_name(b), t->value[b]);
	ud_jw_real(jw, "residual", t->residual);
	ud_jw_real(jw, "raw_sum", t->raw_sum);
	for (int b = UD_TD_LEVEL1_COUNT; b < UD_TD_NBUCKETS; b++) {
		if (!t->defined[b])
			continue;
		if (!level2)
			ud_jw_object(jw, "level2");
		level2 = true;
		ud_jw_real(jw, ud_topdown_bucket_name(b), t->value[b]);
	}
	if (level2)
		ud_jw_end(jw);
	if (t->estimate[0])
		ud_jw_string(jw, "estimate", t->estimate);
	if (has_reasons(t))
		reasons_emit(jw, t);
	ud_jw_end(jw);
}

void ud_topdown_emit_workload(struct ud_jw *jw, const struct ud_workload *w)
{
	if (w->ntopdown == 1 && !w->topdown[0].pmu[0]) {
		ud_topdown_emit(jw, "topdown", &w->topdown[0]);
		return;
	}
	if (!w->ntopdown)
		return;
	ud_jw_object(jw, "topdown_per_pmu");
	for (size_t i = 0; i < w->ntopdown; i++)
		ud_topdown_emit(jw, w->topdown[i].pmu, &w->topdown[i]);
	ud_jw_end(jw);
}

/* ---- reading ---- */

/* A fraction or null into *v: 0, or -1 with err. */
static int read_fraction(struct ud_jv v, const char *where, const char *key, double max, double *out,
			 struct ud_err *err)
{
	*out = NAN;
	if (ud_jv_is_null(v))
		return 0;
	if (!ud_jv_is_number(v) || !(ud_jv_number(v) >= 0 && ud_jv_number(v) <= max))
		return ud_fail(err, "%s.%s: expected a fraction from 0 to %g, or null", where, key, max);
	*out = ud_jv_number(v);
	return 0;
}

static int read_level2(struct ud_jv l2, const char *where, struct ud_topdown *t, struct ud_err *err)
{
	struct ud_jv v;

	if (ud_jv_absent(l2))
		return 0;
	if (!ud_jv_is_object(l2))
		return ud_fail(err, "%s.level2: expected an object", where);
	ud_jv_foreach(l2, v) {
		int b = ud_topdown_bucket_index(ud_jv_key(v));
		double x;

		if (b < 0 || ud_topdown_bucket_level(b) != 2)
			return ud_fail(err, "%s.level2.%s: not a level-2 bucket", where, ud_jv_key(v));
		if (read_fraction(v, where, ud_jv_key(v), 1, &x, err) != 0)
			return -1;
		ud_topdown_set(t, b, x, NULL);
	}
	return 0;
}

static int read_reasons(struct ud_jv r, const char *where, struct ud_topdown *t, struct ud_err *err)
{
	struct ud_jv v;

	if (ud_jv_absent(r))
		return 0;
	if (!ud_jv_is_object(r))
		return ud_fail(err, "%s.reasons: expected an object", where);
	ud_jv_foreach(r, v) {
		const char *key = ud_jv_key(v);
		int b = ud_topdown_bucket_index(key);

		if (!ud_jv_is_string(v) || (b < 0 && strcmp(key, "residual") != 0))
			return ud_fail(err, "%s.reasons.%s: expected a string naming why a bucket is null", where, key);
		snprintf(b < 0 ? t->residual_reason : t->reason[b], UD_TD_REASON, "%s", ud_jv_string(v));
	}
	return 0;
}

static int read_estimate(struct ud_jv j, const char *where, struct ud_topdown *t, struct ud_err *err)
{
	struct ud_jv v = ud_jv_get(j, "estimate");

	if (ud_jv_absent(v))
		return 0;
	if (!ud_jv_is_string(v))
		return ud_fail(err, "%s.estimate: expected a string saying why the buckets are an estimate", where);
	snprintf(t->estimate, sizeof(t->estimate), "%s", ud_jv_string(v));
	return 0;
}

static int read_head(struct ud_jv j, const char *where, struct ud_topdown *t, struct ud_err *err)
{
	const char *method = ud_jv_string(ud_jv_get(j, "method")), *source = ud_jv_string(ud_jv_get(j, "source"));
	struct ud_jv level = ud_jv_get(j, "level");

	if (!ud_jv_is_object(j))
		return ud_fail(err, "%s: expected an object", where);
	if (!method || ud_topdown_method_parse(method, &t->method) != 0 || t->method == UD_TD_METHOD_NONE)
		return ud_fail(err, "%s.method: expected \"slots\" or \"cycle-accounting\"", where);
	if (!source || ud_topdown_source_parse(source, &t->source) != 0)
		return ud_fail(err, "%s.source: expected \"counted\", \"perf-metrics\" or \"perf-topdown-events\"", where);
	if (!ud_jv_is_integer(level) || (ud_jv_integer(level) != 1 && ud_jv_integer(level) != 2))
		return ud_fail(err, "%s.level: expected 1 or 2", where);
	t->level = (int)ud_jv_integer(level);
	return 0;
}

static int read_record(struct ud_jv j, const char *where, struct ud_topdown *t, struct ud_err *err)
{
	if (read_head(j, where, t, err) != 0)
		return -1;
	for (int b = 0; b < UD_TD_LEVEL1_COUNT; b++) {
		struct ud_jv v = ud_jv_get(j, ud_topdown_bucket_name(b));
		double x;

		if (ud_jv_absent(v) && !always_written(b))
			continue;
		if (read_fraction(v, where, ud_topdown_bucket_name(b), 1, &x, err) != 0)
			return -1;
		ud_topdown_set(t, b, x, NULL);
	}
	/* a sum of fractions, before normalising: above 1 where the buckets over-count */
	if (read_fraction(ud_jv_get(j, "residual"), where, "residual", 1, &t->residual, err) != 0 ||
	    read_fraction(ud_jv_get(j, "raw_sum"), where, "raw_sum", INFINITY, &t->raw_sum, err) != 0)
		return -1;
	if (read_level2(ud_jv_get(j, "level2"), where, t, err) != 0 || read_estimate(j, where, t, err) != 0)
		return -1;
	return read_reasons(ud_jv_get(j, "reasons"), where, t, err);
}

static int read_per_pmu(struct ud_jv per, const char *where, struct ud_workload *w, struct ud_err *err)
{
	char at[256];
	struct ud_jv r;

	if (!ud_jv_is_object(per))
		return ud_fail(err, "%s.topdown_per_pmu: expected an object", where);
	ud_jv_foreach(per, r) {
		const char *pmu = ud_jv_key(r);
		struct ud_topdown *t;

		if (!pmu[0] || strlen(pmu) >= UD_TD_PMU)
			return ud_fail(err, "%s.topdown_per_pmu: a core PMU's name must be 1 to %d bytes", where,
				       UD_TD_PMU - 1);
		t = ud_workload_add_topdown(w, UD_TD_SLOTS, UD_TD_COUNTED, pmu);
		if (!t)
			return ud_fail(err, "out of memory");
		snprintf(at, sizeof(at), "%s.topdown_per_pmu.%s", where, pmu);
		if (read_record(r, at, t, err) != 0)
			return -1;
	}
	return 0;
}

int ud_topdown_from_doc(struct ud_jv j, const char *where, struct ud_workload *w, struct ud_err *err)
{
	struct ud_jv one = ud_jv_get(j, "topdown"), per = ud_jv_get(j, "topdown_per_pmu");
	char at[256];
	struct ud_topdown *t;

	if (!ud_jv_absent(one)) {
		t = ud_workload_add_topdown(w, UD_TD_SLOTS, UD_TD_COUNTED, NULL);
		if (!t)
			return ud_fail(err, "out of memory");
		snprintf(at, sizeof(at), "%s.topdown", where);
		if (read_record(one, at, t, err) != 0)
			return -1;
	}
	return ud_jv_absent(per) ? 0 : read_per_pmu(per, where, w, err);
}
