/*
 * teach_view.c - the teach document as a student reads it (teach.h): every
 * number formatted, the points as a table (aligned for text), each lab's
 * chart, rendered through report-templates/teach.{txt,html}; or the
 * document itself as JSON.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_io.h"
#include "report_format.h"
#include "teach.h"
#include "text.h"

/* A table column: its heading, the point's key, and how its numbers read. */
struct column {
	const char *heading, *key, *format;
};

#define COLUMNS_MAX 4
/* Text columns: the first as wide as "working set", the others as "multiply-adds per ns", two spaces apart. */
#define FIRST_WIDTH 13
#define CELL_WIDTH 22

/* The mechanism columns each lab counts; the first two columns are its axes. */
static size_t columns(enum ud_lab lab, const char *metric, struct column *c, char *xh, char *yh, size_t hlen)
{
	size_t n = 0;

	snprintf(xh, hlen, "%s", lab == UD_LAB_CACHE ? "working set" : lab == UD_LAB_BRANCH ? "taken (%)" : "chains");
	snprintf(yh, hlen, "%s", metric ? metric : "");
	c[n++] = (struct column){ xh, "x", lab == UD_LAB_BRANCH ? "%g%%" : "%g" };
	c[n++] = (struct column){ yh, "y", "%.3g" };
	if (lab == UD_LAB_BRANCH)
		c[n++] = (struct column){ "mispredicts/elem", "mispredicts_per_element", "%.3g" };
	if (lab == UD_LAB_CACHE)
		c[n++] = (struct column){ "L1d misses/load", "l1d_misses_per_load", "%.3g" };
	c[n++] = (struct column){ "IPC", "ipc", "%.3g" };
	return n;
}

static json_t *cell(enum ud_lab lab, const struct column *c, const json_t *p)
{
	double v = ud_json_number_at(p, c->key);
	char buf[32];

	if (lab == UD_LAB_CACHE && strcmp(c->key, "x") == 0) {
		ud_format_kb(v, buf, sizeof(buf));
		return json_string(buf);
	}
	return ud_rv_fmt(c->format, v);
}

/* Leaves out the mechanism columns no point has a value in: a column of n/a says nothing (the document keeps the nulls). */
static size_t known_columns(struct column *c, size_t n, const json_t *points)
{
	size_t kept = 2, i;
	const json_t *p;

	for (size_t k = 2; k < n; k++) {
		bool known = false;

		json_array_foreach(points, i, p)
			known = known || isfinite(ud_json_number_at(p, c[k].key));
		if (known)
			c[kept++] = c[k];
	}
	return kept;
}

/* The table twice: cells for HTML, and lines padded to CELL_WIDTH for text. */
static void table(enum ud_lab lab, const json_t *doc_lab, json_t *view)
{
	struct column c[COLUMNS_MAX];
	char xh[64], yh[64], line[COLUMNS_MAX * CELL_WIDTH + FIRST_WIDTH + 8];
	size_t n = columns(lab, json_string_value(json_object_get(json_object_get(doc_lab, "effect"), "metric")), c, xh, yh,
			   sizeof(xh)), i, used = 0;
	json_t *heads = json_array(), *rows = json_array(), *lines = json_array();
	const json_t *p;

	n = known_columns(c, n, json_object_get(doc_lab, "points"));

	for (size_t k = 0; k < n; k++) {
		json_array_append_new(heads, json_string(c[k].heading));
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%*s", k ? CELL_WIDTH : FIRST_WIDTH, c[k].heading);
	}
	json_object_set_new(view, "header", json_string(line));
	json_array_foreach(json_object_get(doc_lab, "points"), i, p) {
		json_t *cells = json_array();

		used = 0;
		for (size_t k = 0; k < n; k++) {
			json_t *v = cell(lab, &c[k], p);

			used += (size_t)snprintf(line + used, sizeof(line) - used, "%*s", k ? CELL_WIDTH : FIRST_WIDTH, json_string_value(v));
			json_array_append_new(cells, v);
		}
		json_array_append_new(rows, json_pack("{s:o}", "cells", cells));
		json_array_append_new(lines, json_string(line));
	}
	json_object_set_new(view, "columns", heads);
	json_object_set_new(view, "rows", rows);
	json_object_set_new(view, "lines", lines);
}

static json_t *effect_line(const json_t *lab)
{
	const json_t *e = json_object_get(lab, "effect");
	double a = ud_json_number_at(e, "a"), b = ud_json_number_at(e, "b"), ratio = ud_json_number_at(e, "ratio");

	if (!isfinite(a) || !isfinite(b) || !isfinite(ratio))
		return json_string("not measured");
	return ud_rv_printf("%s: %.3g (%s) -> %.3g (%s): %s", json_string_value(json_object_get(e, "metric")), a,
			    json_string_value(json_object_get(e, "a_label")), b,
			    json_string_value(json_object_get(e, "b_label")), UD_RATIO_X(ratio));
}

/*
 * Why no lab counted hardware events, when none did: the host's pmu_reason
 * where it has no PMU, else the first lab's reason (borrowed from host or doc);
 * NULL when some lab counted.
 */
static const char *no_pmu_reason(const struct ud_host *host, const json_t *doc)
{
	static const char lead[] = "no hardware PMU on this host: ";
	const char *pmu = host ? host->pmu : NULL, *reason = NULL;
	const json_t *lab;
	size_t i;

	json_array_foreach(json_object_get(doc, "labs"), i, lab) {
		const json_t *c = json_object_get(lab, "counters");
		const char *status = json_string_value(json_object_get(c, "status"));

		if (status && strcmp(status, "counted") == 0)
			return NULL;
		reason = reason ? reason : json_string_value(json_object_get(c, "reason"));
	}
	if (pmu && strcmp(pmu, "available") != 0 && host->pmu_reason)
		reason = host->pmu_reason;
	if (!reason)
		reason = "no lab counted cycles or instructions";
	return strncmp(reason, lead, sizeof(lead) - 1) == 0 ? reason + sizeof(lead) - 1 : reason;
}

static json_t *counters_line(const json_t *lab, bool banner)
{
	const json_t *c = json_object_get(lab, "counters");
	const char *status = json_string_value(json_object_get(c, "status"));
	const char *reason = json_string_value(json_object_get(c, "reason"));
	char buf[UD_REASON_MAX + 200];

	if (status && strcmp(status, "counted") == 0)
		return json_string("Hardware counters: counted; the mechanism columns are per unit of work.");
	if (banner) /* the banner above the labs said why, once */
		return json_null();
	snprintf(buf, sizeof(buf), "Hardware counters: %s here (%s); the mechanism columns read n/a, timing only.",
		 status ? status : "not_counted", reason ? reason : "no reason given");
	return json_string(buf);
}

/* The cache lab's knees beside the sysfs sizes, in words; "" for other labs. */
static json_t *knees_line(const json_t *lab)
{
	const json_t *k, *sys = json_object_get(lab, "sysfs_kb");
	char buf[256] = "", kb[32];
	size_t i, used = 0;

	if (!json_object_get(lab, "knees_kb"))
		return json_null();
	used += (size_t)snprintf(buf, sizeof(buf), "Knees found at");
	json_array_foreach(json_object_get(lab, "knees_kb"), i, k) {
		ud_format_kb(json_number_value(k), kb, sizeof(kb));
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s %s", i ? "," : "", kb);
	}
	if (!json_array_size(json_object_get(lab, "knees_kb")))
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, " none");
	used += (size_t)snprintf(buf + used, sizeof(buf) - used, "; sysfs:");
	for (int l = 0; l < 3; l++) {
		static const char *const keys[] = { "l1d", "l2", "l3" }, *const names[] = { "L1d", "L2", "L3" };

		ud_format_kb(ud_json_number_at(sys, keys[l]), kb, sizeof(kb));
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s %s %s", l ? "," : "", names[l],
					 strcmp(kb, "n/a") ? kb : "unknown");
	}
	return json_string(buf);
}

/*
 * The lab's noise warnings (noise.h's sentences) as one sentence beside the
 * verdict, which they never change; null when the host was quiet.
 */
static json_t *noise_line(const json_t *lab)
{
	const json_t *warnings = json_object_get(json_object_get(lab, "noise"), "warnings"), *w;
	char buf[1024];
	size_t i, used;

	if (!json_array_size(warnings))
		return json_null();
	used = (size_t)snprintf(buf, sizeof(buf), "Measured while the host was busy:");
	json_array_foreach(warnings, i, w)
		if (used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s %s", i ? ";" : "", json_string_value(w));
	if (used < sizeof(buf))
		snprintf(buf + used, sizeof(buf) - used, ". The verdict is as measured; run the lab again on a quiet host "
			 "to trust it.");
	return json_string(buf);
}

/* The text form's paragraphs: s in lines of at most TEXT_WIDTH columns, broken at spaces. */
#define TEXT_WIDTH 76

static json_t *wrap(const char *s)
{
	json_t *lines = json_array();
	char line[TEXT_WIDTH + 1];

	while (s && *s) {
		size_t n = strlen(s), cut = n;

		if (n > TEXT_WIDTH) {
			cut = TEXT_WIDTH;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = TEXT_WIDTH;
		}
		snprintf(line, sizeof(line), "%.*s", (int)cut, s);
		json_array_append_new(lines, json_string(line));
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

/* Each paragraph wrapped for the text form, under the same keys. */
static json_t *wrapped(const json_t *v)
{
	static const char *const keys[] = { "explanation", "experiment", "expected", "measured", "verdict", "counters",
					    "knees", "note", "noise" };
	json_t *w = json_object();

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_set_new(w, keys[i], wrap(json_string_value(json_object_get(v, keys[i]))));
	return w;
}

static json_t *lab_view(const json_t *lab, bool banner)
{
	const char *name = json_string_value(json_object_get(lab, "name"));
	enum ud_lab id = UD_LAB_BRANCH;
	bool shown = json_is_true(json_object_get(lab, "shown"));
	const char *why_not = json_string_value(json_object_get(lab, "why_not"));
	json_t *v;

	ud_lab_parse(name ? name : "", &id);
	v = json_pack("{s:O s:O s:O s:O s:O s:O s:b s:o s:o s:o s:o s:O s:o s:o}", "name", json_object_get(lab, "name"),
		      "title", json_object_get(lab, "title"), "explanation", json_object_get(lab, "explanation"),
		      "experiment", json_object_get(lab, "experiment"), "expected", json_object_get(lab, "expected"),
		      "measured", json_object_get(lab, "measured"), "shown", shown, "verdict",
		      ud_rv_printf("%s%s%s", shown ? "shown" : "not shown", shown || !why_not ? "" : ": ",
				   shown || !why_not ? "" : why_not),
		      "effect", effect_line(lab), "counters", counters_line(lab, banner), "knees", knees_line(lab), "note",
		      json_object_get(lab, "note"), "seconds", ud_rv_fmt("%.1f s", ud_json_number_at(lab, "seconds")), "chart",
		      ud_teach_chart(lab));
	if (v) {
		json_object_set_new(v, "noise", noise_line(lab));
		table(id, lab, v);
		json_object_set_new(v, "text", wrapped(v));
	}
	return v;
}

static json_t *host_line(const struct ud_host *host)
{
	const char *label = host ? host->label : NULL, *model = host ? host->cpu.model_name : NULL;
	const char *uarch = host ? host->cpu.uarch : NULL, *kernel = host ? host->kernel : NULL;

	return ud_rv_printf("%s: %s (%s), kernel %s", label ? label : "this host", model ? model : "unknown CPU",
			    uarch ? uarch : "unknown", kernel ? kernel : "unknown");
}

static json_t *teach_view(const struct ud_host *host, const json_t *doc)
{
	json_t *labs = json_array(), *lab, *view;
	const char *no_pmu = no_pmu_reason(host, doc);
	size_t i, shown = 0, noisy = 0, used;
	double seconds = 0;
	char total[192], *banner;

	json_array_foreach(json_object_get(doc, "labs"), i, lab) {
		json_array_append_new(labs, lab_view(lab, no_pmu != NULL));
		shown += json_is_true(json_object_get(lab, "shown"));
		noisy += json_array_size(json_object_get(json_object_get(lab, "noise"), "warnings")) > 0;
		seconds += isfinite(ud_json_number_at(lab, "seconds")) ? ud_json_number_at(lab, "seconds") : 0;
	}
	used = (size_t)snprintf(total, sizeof(total), "%zu of %zu lab%s shown, in %.1f s.", shown, json_array_size(labs),
				json_array_size(labs) == 1 ? "" : "s", seconds);
	if (noisy)
		snprintf(total + used, sizeof(total) - used, " %zu measured while the host was busy: see %s.",
			 noisy, noisy == 1 ? "its verdict" : "their verdicts");
	view = json_pack("{s:o s:o s:s}", "host", host_line(host), "labs", labs, "total", total);
	if (view && no_pmu && (banner = ud_pmu_banner("here", no_pmu)) != NULL) {
		json_object_set_new(view, "pmu_banner", json_string(banner));
		json_object_set_new(view, "pmu_banner_lines", wrap(banner));
		free(banner);
	}
	return view;
}

int ud_teach_write(const struct ud_host *host, const json_t *doc, enum ud_report_format f, const char *dir, FILE *out,
		   struct ud_err *err)
{
	json_t *view;
	int ret;

	if (f == UD_REPORT_JSON)
		return ud_fail(err, "the JSON document is ud_teach_write_json()'s");
	if (f == UD_REPORT_MD)
		return ud_fail(err, "teach has no Markdown form (text, html, json)");
	view = teach_view(host, doc);
	ret = view ? ud_report_render(view, "teach", f, dir, out, err) : ud_fail(err, "out of memory");
	json_decref(view);
	return ret;
}
