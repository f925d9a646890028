/*
 * teach_json.c - the uarchdiff.teach/1 document (teach.h): the host, then
 * each lab's words, points, effect, verdict and noise (SPEC §3.1's object);
 * a number that was not measured is null, never 0.
 */
#include <math.h>

#include "teach.h"

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *kb_or_null(double kb)
{
	return kb > 0 ? json_real(kb) : json_null();
}

static json_t *points_json(const struct ud_lab_result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->npoints; i++) {
		const struct ud_lab_point *p = &r->points[i];

		json_array_append_new(a, json_pack("{s:o s:o s:o s:o s:o}", "x", num(p->x), "y", num(p->y),
						   "mispredicts_per_element", num(p->mispredicts), "l1d_misses_per_load",
						   num(p->l1d_misses), "ipc", num(p->ipc)));
	}
	return a;
}

static json_t *axes_json(const struct ud_lab_text *t)
{
	return json_pack("{s:{s:s s:s s:b} s:{s:s s:s s:b}}", "x", "label", t->x_label, "unit", t->x_unit, "log",
			 t->x_log, "y", "label", t->y_label, "unit", t->y_unit, "log", t->y_log);
}

/* The cache lab's knees beside the sysfs sizes, and how the knees were found. */
static void add_cache(json_t *lab, const struct ud_lab_result *r)
{
	json_t *knees = json_array();
	char method[256];

	snprintf(method, sizeof(method),
		 "slope of log latency over log working set between neighbouring sizes; knees are the steepest %d "
		 "slopes of at least %g (%.3gx a doubling), none beside another, each reported as the larger working "
		 "set before the jump",
		 UD_TEACH_KNEES_MAX, UD_KNEE_MIN_SLOPE, pow(2, UD_KNEE_MIN_SLOPE));
	for (size_t i = 0; i < r->nknees; i++)
		json_array_append_new(knees, json_real(r->knees_kb[i]));
	json_object_set_new(lab, "knees_kb", knees);
	json_object_set_new(lab, "sysfs_kb", json_pack("{s:o s:o s:o}", "l1d", kb_or_null(r->sysfs.l1d), "l2",
						       kb_or_null(r->sysfs.l2), "l3", kb_or_null(r->sysfs.l3)));
	json_object_set_new(lab, "knee_method", json_string(method));
}

static json_t *lab_json(const struct ud_lab_result *r)
{
	const struct ud_lab_text *t = ud_lab_text(r->lab);
	json_t *lab = json_pack(
		"{s:s s:s s:b s:o s:{s:s s:o s:o s:o s:s s:s} s:s s:s s:s s:s s:o s:o s:o s:{s:s s:o} s:o s:o}", "name",
		ud_lab_name(r->lab), "title", t->title, "shown", r->shown, "why_not",
		r->why_not[0] ? json_string(r->why_not) : json_null(), "effect", "metric", t->metric, "a", num(r->a), "b",
		num(r->b), "ratio", num(r->ratio), "a_label", r->a_label, "b_label", r->b_label, "explanation",
		t->explanation, "experiment", t->experiment, "expected", t->expected, "measured", r->measured, "axes",
		axes_json(t), "points", points_json(r), "reference",
		isfinite(r->reference) ? json_pack("{s:s s:f}", "label", "sorted", "y", r->reference) : json_null(),
		"counters", "status", ud_count_status_name(r->counters), "reason",
		r->counters_reason[0] ? json_string(r->counters_reason) : json_null(), "note",
		r->note[0] ? json_string(r->note) : json_null(), "seconds", num(r->seconds));

	if (lab)
		json_object_set_new(lab, "noise", ud_noise_to_json(&r->noise));
	if (lab && r->lab == UD_LAB_CACHE)
		add_cache(lab, r);
	return lab;
}

json_t *ud_teach_to_json(const json_t *host, const struct ud_lab_result *labs, size_t n)
{
	json_t *arr = json_array(), *doc;

	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, lab_json(&labs[i]));
	doc = json_pack("{s:s s:{s:s s:s} s:O s:o}", "schema", "uarchdiff.teach/1", "tool", "name", "uarchdiff",
			"version", UD_VERSION, "host", host ? (json_t *)host : json_null(), "labs", arr);
	return doc;
}
