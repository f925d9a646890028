/*
 * teach_json.c - the uarchdiff.teach/1 document (teach.h): the host, then
 * each lab's words, points, effect, verdict and noise (SPEC §3.1's object);
 * a number that was not measured is null, never 0.  Written once, through
 * json_emit.h: streamed for `teach -f json`, or into a tree; and read back
 * into results for a caller that holds only the document (ud_teach_write).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_emit.h"
#include "json_io.h"
#include "noise.h"
#include "teach.h"
#include "text.h"

static void points(struct ud_jw *w, const struct ud_lab_result *r)
{
	ud_jw_array(w, "points");
	for (size_t i = 0; i < r->npoints; i++) {
		const struct ud_lab_point *p = &r->points[i];

		ud_jw_object(w, NULL);
		ud_jw_real(w, "x", p->x);
		ud_jw_real(w, "y", p->y);
		ud_jw_real(w, "mispredicts_per_element", p->mispredicts);
		ud_jw_real(w, "l1d_misses_per_load", p->l1d_misses);
		ud_jw_real(w, "ipc", p->ipc);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

static void axis(struct ud_jw *w, const char *key, const char *label, const char *unit, bool log_scale)
{
	ud_jw_object(w, key);
	ud_jw_string(w, "label", label);
	ud_jw_string(w, "unit", unit);
	ud_jw_bool(w, "log", log_scale);
	ud_jw_end(w);
}

/* A cache size from sysfs in KB, null where sysfs does not say. */
static void kb_or_null(struct ud_jw *w, const char *key, double kb)
{
	if (kb > 0)
		ud_jw_real(w, key, kb);
	else
		ud_jw_null(w, key);
}

/* The cache lab's knees beside the sysfs sizes, and how the knees were found. */
static void cache(struct ud_jw *w, const struct ud_lab_result *r)
{
	char method[256];

	snprintf(method, sizeof(method),
		 "slope of log latency over log working set between neighbouring sizes; knees are the steepest %d "
		 "slopes of at least %g (%s a doubling), none beside another, each reported as the larger working "
		 "set before the jump",
		 UD_TEACH_KNEES_MAX, UD_KNEE_MIN_SLOPE, UD_RATIO_X(pow(2, UD_KNEE_MIN_SLOPE)));
	ud_jw_array(w, "knees_kb");
	for (size_t i = 0; i < r->nknees; i++)
		ud_jw_real(w, NULL, r->knees_kb[i]);
	ud_jw_end(w);
	ud_jw_object(w, "sysfs_kb");
	kb_or_null(w, "l1d", r->sysfs.l1d);
	kb_or_null(w, "l2", r->sysfs.l2);
	kb_or_null(w, "l3", r->sysfs.l3);
	ud_jw_end(w);
	ud_jw_string(w, "knee_method", method);
}

static void effect(struct ud_jw *w, const struct ud_lab_result *r, const struct ud_lab_text *t)
{
	ud_jw_object(w, "effect");
	ud_jw_string(w, "metric", t->metric);
	ud_jw_real(w, "a", r->a);
	ud_jw_real(w, "b", r->b);
	ud_jw_real(w, "ratio", r->ratio);
	ud_jw_string(w, "a_label", r->a_label);
	ud_jw_string(w, "b_label", r->b_label);
	ud_jw_end(w);
}

static void lab(struct ud_jw *w, const struct ud_lab_result *r)
{
	const struct ud_lab_text *t = ud_lab_text(r->lab);

	ud_jw_object(w, NULL);
	ud_jw_string(w, "name", ud_lab_name(r->lab));
	ud_jw_string(w, "title", t->title);
	ud_jw_bool(w, "shown", r->shown);
	ud_jw_string(w, "why_not", r->why_not);
	effect(w, r, t);
	ud_jw_string(w, "explanation", t->explanation);
	ud_jw_string(w, "experiment", t->experiment);
	ud_jw_string(w, "expected", t->expected);
	ud_jw_string(w, "measured", r->measured);
	ud_jw_object(w, "axes");
	axis(w, "x", t->x_label, t->x_unit, t->x_log);
	axis(w, "y", t->y_label, t->y_unit, t->y_log);
	ud_jw_end(w);
	points(w, r);
	if (isfinite(r->reference)) {
		ud_jw_object(w, "reference");
		ud_jw_string(w, "label", "sorted");
		ud_jw_real(w, "y", r->reference);
		ud_jw_end(w);
	} else {
		ud_jw_null(w, "reference");
	}
	ud_jw_object(w, "counters");
	ud_jw_string(w, "status", ud_count_status_name(r->counters));
	ud_jw_string(w, "reason", r->counters_reason[0] ? r->counters_reason : NULL);
	ud_jw_end(w);
	ud_jw_string(w, "note", r->note[0] ? r->note : NULL);
	ud_jw_string(w, "failed", r->failed[0] ? r->failed : NULL);
	ud_jw_real(w, "seconds", r->seconds);
	ud_noise_emit(w, "noise", &r->noise);
	if (r->lab == UD_LAB_CACHE)
		cache(w, r);
	ud_jw_end(w);
}

static void emit(struct ud_jw *w, const struct ud_host *host, const struct ud_lab_result *labs, size_t n)
{
	ud_jw_object(w, NULL);
	ud_jw_string(w, "schema", UD_TEACH_SCHEMA);
	ud_jw_object(w, "tool");
	ud_jw_string(w, "name", "uarchdiff");
	ud_jw_string(w, "version", UD_VERSION);
	ud_jw_end(w);
	if (host)
		ud_host_emit(w, "host", host);
	else
		ud_jw_null(w, "host");
	ud_jw_array(w, "labs");
	for (size_t i = 0; i < n; i++)
		lab(w, &labs[i]);
	ud_jw_end(w);
	ud_jw_end(w);
}

json_t *ud_teach_to_json(const struct ud_host *host, const struct ud_lab_result *labs, size_t n)
{
	struct ud_jw *w = ud_jw_tree();
	json_t *doc = NULL;

	if (!w)
		return NULL;
	emit(w, host, labs, n);
	return ud_jw_finish(w, &doc) == 0 ? doc : NULL;
}

int ud_teach_write_json(const struct ud_host *host, const struct ud_lab_result *labs, size_t n, FILE *f)
{
	struct ud_jw *w = ud_jw_text(f);

	if (!w)
		return -1;
	emit(w, host, labs, n);
	return ud_jw_finish(w, NULL);
}

/* ---- the document read back, for a caller that holds it instead of the results ---- */

static char *dup_or_null(const json_t *s)
{
	return json_is_string(s) ? strdup(json_string_value(s)) : NULL;
}

/* o's string at key, "" where it is null or missing (borrowed). */
static const char *text_at(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static void read_points(const json_t *lab, struct ud_lab_result *r)
{
	const json_t *points = json_object_get(lab, "points"), *p;
	size_t i;

	r->points = calloc(json_array_size(points) ? json_array_size(points) : 1, sizeof(*r->points));
	json_array_foreach(points, i, p)
		if (r->points)
			r->points[r->npoints++] = (struct ud_lab_point){ ud_json_number_at(p, "x"), ud_json_number_at(p, "y"),
								  ud_json_number_at(p, "mispredicts_per_element"),
								  ud_json_number_at(p, "l1d_misses_per_load"),
								  ud_json_number_at(p, "ipc") };
}

/* The cache lab's knees and the sysfs sizes (0 where the document says null, as ud_teach_caches() leaves them). */
static void read_cache(const json_t *lab, struct ud_lab_result *r)
{
	const json_t *sys = json_object_get(lab, "sysfs_kb"), *k;
	double l1d = ud_json_number_at(sys, "l1d"), l2 = ud_json_number_at(sys, "l2"), l3 = ud_json_number_at(sys, "l3");
	size_t i;

	r->sysfs = (struct ud_cache_kb){ isfinite(l1d) ? l1d : 0, isfinite(l2) ? l2 : 0, isfinite(l3) ? l3 : 0 };
	json_array_foreach(json_object_get(lab, "knees_kb"), i, k)
		if (r->nknees < UD_TEACH_KNEES_MAX)
			r->knees_kb[r->nknees++] = json_number_value(k);
}

/* One lab of the document as a result: what the page shows of it; -1 when it names no lab or memory ran out. */
static int read_lab(const json_t *lab, struct ud_lab_result *r)
{
	const json_t *e = json_object_get(lab, "effect"), *c = json_object_get(lab, "counters"), *w;
	const char *name = json_string_value(json_object_get(lab, "name"));
	const char *status = json_string_value(json_object_get(c, "status"));
	enum ud_lab id;
	size_t i;

	ud_lab_result_init(r, UD_LAB_BRANCH); /* freed by the caller, whatever follows */
	if (!name || ud_lab_parse(name, &id) != 0)
		return -1;
	r->lab = id;
	read_points(lab, r);
	r->reference = ud_json_number_at(json_object_get(lab, "reference"), "y");
	if (!status || ud_count_status_parse(status, &r->counters) != 0)
		r->counters = UD_NOT_COUNTED;
	snprintf(r->counters_reason, sizeof(r->counters_reason), "%s", text_at(c, "reason"));
	snprintf(r->note, sizeof(r->note), "%s", text_at(lab, "note"));
	snprintf(r->failed, sizeof(r->failed), "%s", text_at(lab, "failed"));
	r->seconds = ud_json_number_at(lab, "seconds");
	json_array_foreach(json_object_get(json_object_get(lab, "noise"), "warnings"), i, w)
		if (json_is_string(w) && ud_noise_add_warning(&r->noise, json_string_value(w)) != 0)
			return -1;
	read_cache(lab, r);
	r->a = ud_json_number_at(e, "a");
	r->b = ud_json_number_at(e, "b");
	r->ratio = ud_json_number_at(e, "ratio");
	snprintf(r->a_label, sizeof(r->a_label), "%s", text_at(e, "a_label"));
	snprintf(r->b_label, sizeof(r->b_label), "%s", text_at(e, "b_label"));
	r->shown = json_is_true(json_object_get(lab, "shown"));
	r->measured = dup_or_null(json_object_get(lab, "measured"));
	r->why_not = dup_or_null(json_object_get(lab, "why_not"));
	return r->points ? 0 : -1;
}

int ud_teach_write(const struct ud_host *host, const json_t *doc, enum ud_report_format f, const char *dir, FILE *out,
		   struct ud_err *err)
{
	const json_t *labs = json_object_get(doc, "labs"), *lab;
	struct ud_lab_result res[UD_LAB_COUNT];
	size_t i, n = 0;
	int ret = 0;

	json_array_foreach(labs, i, lab) {
		if (n == UD_LAB_COUNT) {
			ret = ud_fail(err, "a teach document of more than %d labs", UD_LAB_COUNT);
			break;
		}
		if (read_lab(lab, &res[n++]) != 0) {
			ret = ud_fail(err, "the teach document's lab %zu: an unknown lab, or out of memory", i + 1);
			break;
		}
	}
	if (ret == 0)
		ret = ud_teach_render(host, res, n, f, dir, out, err);
	for (i = 0; i < n; i++)
		ud_lab_result_free(&res[i]);
	return ret;
}
