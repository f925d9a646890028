/*
 * teach_json.c - the uarchdiff.teach/1 document (teach.h): the host, then
 * each lab's words, points, effect, verdict and noise (SPEC §3.1's object);
 * a number that was not measured is null, never 0.  Written once, through
 * json_emit.h, streamed for `teach -f json`; the pages read the results
 * themselves (teach_view.c), never this document.
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

int ud_teach_write_json(const struct ud_host *host, const struct ud_lab_result *labs, size_t n, FILE *f)
{
	struct ud_jw *w = ud_jw_text(f);

	if (!w)
		return -1;
	emit(w, host, labs, n);
	return ud_jw_finish(w, NULL);
}
