/*
 * teach_view.c - the labs' results as a student reads them (teach.h): every
 * number formatted, the points as a table (aligned for text), each lab's
 * chart, as a typed view (teach_view.h) rendered through
 * report-templates/teach.{txt,html} by the field tables at the end.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teach_view.h"
#include "text.h"

/* ---- the view ---- */

/* The text form's paragraphs, each in lines (teach.txt), under the names the page shows them by. */
struct tv_text {
	const char **explanation, **experiment, **expected, **measured, **verdict, **counters, **knees, **note, **noise;
	size_t nexplanation, nexperiment, nexpected, nmeasured, nverdict, ncounters, nknees, nnote, nnoise;
};

struct tv_row {
	const char **cells;
	size_t ncells;
};

/* One lab: NULL strings are left out by the templates (no knees, no note, the banner said the counters). */
struct tv_lab {
	const char *name, *title, *explanation, *experiment, *expected, *measured;
	bool shown;
	const char *verdict, *effect, *counters, *knees, *note, *seconds, *noise, *header;
	struct ud_teach_chart *chart;
	const char **columns, **lines;
	size_t ncolumns, nlines;
	struct tv_row *rows;
	size_t nrows;
	struct tv_text text;
};

struct tv_teach {
	const char *host, *pmu_banner, *total;
	const char **pmu_banner_lines;
	size_t npmu_banner_lines;
	struct tv_lab *labs;
	size_t nlabs;
};

enum point_key { KEY_X, KEY_Y, KEY_MISPREDICTS, KEY_L1D, KEY_IPC };

/* A table column: its heading, the point's value, and how its numbers read. */
struct column {
	const char *heading;
	enum point_key key;
	const char *format;
};

#define COLUMNS_MAX 4
/* Text columns: the first as wide as "working set", the others as "multiply-adds per ns", two spaces apart. */
#define FIRST_WIDTH 13
#define CELL_WIDTH 22

static double point_value(const struct ud_lab_point *p, enum point_key key)
{
	const double v[] = { p->x, p->y, p->mispredicts, p->l1d_misses, p->ipc };

	return v[key];
}

/* The mechanism columns each lab counts; the first two columns are its axes. */
static size_t columns(enum ud_lab lab, const char *metric, struct column *c)
{
	size_t n = 0;

	c[n++] = (struct column){ lab == UD_LAB_CACHE ? "working set" : lab == UD_LAB_BRANCH ? "taken (%)" : "chains", KEY_X,
				  lab == UD_LAB_BRANCH ? "%g%%" : "%g" };
	c[n++] = (struct column){ metric ? metric : "", KEY_Y, "%.3g" };
	if (lab == UD_LAB_BRANCH)
		c[n++] = (struct column){ "mispredicts/elem", KEY_MISPREDICTS, "%.3g" };
	if (lab == UD_LAB_CACHE)
		c[n++] = (struct column){ "L1d misses/load", KEY_L1D, "%.3g" };
	c[n++] = (struct column){ "IPC", KEY_IPC, "%.3g" };
	return n;
}

static const char *cell(struct ud_view_pool *pool, enum ud_lab lab, const struct column *c, const struct ud_lab_point *p)
{
	double v = point_value(p, c->key);
	char buf[64];

	if (lab == UD_LAB_CACHE && c->key == KEY_X)
		ud_format_kb(v, buf, sizeof(buf));
	else if (!isfinite(v))
		snprintf(buf, sizeof(buf), "n/a");
	else
		snprintf(buf, sizeof(buf), c->format, v);
	return ud_view_pool_printf(pool, "%s", buf);
}

/* Leaves out the mechanism columns no point has a value in: a column of n/a says nothing (the document keeps the nulls). */
static size_t known_columns(struct column *c, size_t n, const struct ud_lab_result *r)
{
	size_t kept = 2;

	for (size_t k = 2; k < n; k++) {
		bool known = false;

		for (size_t i = 0; i < r->npoints; i++)
			known = known || isfinite(point_value(&r->points[i], c[k].key));
		if (known)
			c[kept++] = c[k];
	}
	return kept;
}

/* The table twice: cells for HTML, and lines padded to CELL_WIDTH for text. */
static void table(struct ud_view_pool *pool, const struct ud_lab_result *r, struct tv_lab *v)
{
	struct column c[COLUMNS_MAX];
	char line[COLUMNS_MAX * CELL_WIDTH + FIRST_WIDTH + 8];
	size_t n = known_columns(c, columns(r->lab, ud_lab_text(r->lab)->metric, c), r), used = 0;

	v->columns = ud_view_pool_alloc(pool, n, sizeof(*v->columns));
	v->rows = ud_view_pool_alloc(pool, r->npoints, sizeof(*v->rows));
	v->lines = ud_view_pool_alloc(pool, r->npoints, sizeof(*v->lines));
	if (!v->columns || !v->rows || !v->lines)
		return;
	for (size_t k = 0; k < n; k++) {
		v->columns[v->ncolumns++] = c[k].heading;
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%*s", k ? CELL_WIDTH : FIRST_WIDTH, c[k].heading);
	}
	v->header = ud_view_pool_printf(pool, "%s", line);
	for (size_t i = 0; i < r->npoints; i++) {
		struct tv_row *row = &v->rows[v->nrows++];

		if (!(row->cells = ud_view_pool_alloc(pool, n, sizeof(*row->cells))))
			return;
		used = 0;
		for (size_t k = 0; k < n; k++) {
			const char *s = cell(pool, r->lab, &c[k], &r->points[i]);

			used += (size_t)snprintf(line + used, sizeof(line) - used, "%*s", k ? CELL_WIDTH : FIRST_WIDTH,
						 s ? s : "");
			row->cells[row->ncells++] = s;
		}
		v->lines[v->nlines++] = ud_view_pool_printf(pool, "%s", line);
	}
}

static const char *effect_line(struct ud_view_pool *pool, const struct ud_lab_result *r)
{
	if (!isfinite(r->a) || !isfinite(r->b) || !isfinite(r->ratio))
		return "not measured";
	return ud_view_pool_printf(pool, "%s: %.3g (%s) -> %.3g (%s): %s", ud_lab_text(r->lab)->metric, r->a, r->a_label, r->b,
			    r->b_label, UD_RATIO_X(r->ratio));
}

/*
 * Why no lab counted hardware events, when none did: the host's pmu_reason
 * where it has no PMU, else the first lab's reason (borrowed from host or
 * the labs); NULL when some lab counted.
 */
static const char *no_pmu_reason(const struct ud_host *host, const struct ud_lab_result *labs, size_t n)
{
	static const char lead[] = "no hardware PMU on this host: ";
	const char *pmu = host ? host->pmu : NULL, *reason = NULL;

	for (size_t i = 0; i < n; i++) {
		if (labs[i].counters == UD_COUNTED)
			return NULL;
		reason = reason ? reason : labs[i].counters_reason[0] ? labs[i].counters_reason : NULL;
	}
	if (pmu && strcmp(pmu, "available") != 0 && host->pmu_reason)
		reason = host->pmu_reason;
	if (!reason)
		reason = "no lab counted cycles or instructions";
	return strncmp(reason, lead, sizeof(lead) - 1) == 0 ? reason + sizeof(lead) - 1 : reason;
}

static const char *counters_line(struct ud_view_pool *pool, const struct ud_lab_result *r, bool banner)
{
	if (r->counters == UD_COUNTED)
		return "Hardware counters: counted; the mechanism columns are per unit of work.";
	if (banner) /* the banner above the labs said why, once */
		return NULL;
	return ud_view_pool_printf(pool, "Hardware counters: %s here (%s); the mechanism columns read n/a, timing only.",
			    ud_count_status_name(r->counters), r->counters_reason[0] ? r->counters_reason : "no reason given");
}

/* The cache lab's knees beside the sysfs sizes, in words; NULL for other labs. */
static const char *knees_line(struct ud_view_pool *pool, const struct ud_lab_result *r)
{
	static const char *const names[] = { "L1d", "L2", "L3" };
	const double sysfs[] = { r->sysfs.l1d, r->sysfs.l2, r->sysfs.l3 };
	char buf[256] = "", kb[32];
	size_t used = 0;

	if (r->lab != UD_LAB_CACHE)
		return NULL;
	used += (size_t)snprintf(buf, sizeof(buf), "Knees found at");
	for (size_t i = 0; i < r->nknees; i++) {
		ud_format_kb(r->knees_kb[i], kb, sizeof(kb));
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s %s", i ? "," : "", kb);
	}
	if (!r->nknees)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, " none");
	used += (size_t)snprintf(buf + used, sizeof(buf) - used, "; sysfs:");
	for (int l = 0; l < 3; l++) {
		ud_format_kb(sysfs[l] > 0 ? sysfs[l] : NAN, kb, sizeof(kb));
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s %s %s", l ? "," : "", names[l],
					 strcmp(kb, "n/a") ? kb : "unknown");
	}
	return ud_view_pool_printf(pool, "%s", buf);
}

/*
 * The lab's noise warnings (noise.h's sentences) as one sentence beside the
 * verdict, which they never change; NULL when the host was quiet.
 */
static const char *noise_line(struct ud_view_pool *pool, const struct ud_lab_result *r)
{
	char buf[1024];
	size_t used;

	if (!r->noise.nwarnings)
		return NULL;
	used = (size_t)snprintf(buf, sizeof(buf), "Measured while the host was busy:");
	for (size_t i = 0; i < r->noise.nwarnings; i++)
		if (used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s %s", i ? ";" : "", r->noise.warnings[i]);
	if (used < sizeof(buf))
		snprintf(buf + used, sizeof(buf) - used, ". The verdict is as measured; run the lab again on a quiet host "
			 "to trust it.");
	return ud_view_pool_printf(pool, "%s", buf);
}

/* The text form's paragraphs: s in lines of at most TEXT_WIDTH columns, broken at spaces. */
#define TEXT_WIDTH 76

static const char **wrap(struct ud_view_pool *pool, const char *s, size_t *n)
{
	const char **lines = ud_view_pool_alloc(pool, s ? strlen(s) / 2 + 1 : 1, sizeof(*lines)); /* a line a word at most */

	*n = 0;
	while (lines && s && *s) {
		size_t len = strlen(s), cut = len;

		if (len > TEXT_WIDTH) {
			cut = TEXT_WIDTH;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = TEXT_WIDTH;
		}
		lines[(*n)++] = ud_view_pool_printf(pool, "%.*s", (int)cut, s);
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

/* Each paragraph wrapped for the text form. */
static void wrapped(struct ud_view_pool *pool, struct tv_lab *v)
{
	struct tv_text *t = &v->text;

	t->explanation = wrap(pool, v->explanation, &t->nexplanation);
	t->experiment = wrap(pool, v->experiment, &t->nexperiment);
	t->expected = wrap(pool, v->expected, &t->nexpected);
	t->measured = wrap(pool, v->measured, &t->nmeasured);
	t->verdict = wrap(pool, v->verdict, &t->nverdict);
	t->counters = wrap(pool, v->counters, &t->ncounters);
	t->knees = wrap(pool, v->knees, &t->nknees);
	t->note = wrap(pool, v->note, &t->nnote);
	t->noise = wrap(pool, v->noise, &t->nnoise);
}

static void lab_view(struct ud_view_pool *pool, const struct ud_lab_result *r, bool banner, struct tv_lab *v)
{
	const struct ud_lab_text *t = ud_lab_text(r->lab);
	bool why = !r->shown && r->why_not;

	*v = (struct tv_lab){
		.name = ud_lab_name(r->lab), .title = t->title, .explanation = t->explanation, .experiment = t->experiment,
		.expected = t->expected, .measured = r->measured, .shown = r->shown,
		.verdict = ud_view_pool_printf(pool, "%s%s%s", r->shown ? "shown" : "not shown", why ? ": " : "",
					why ? r->why_not : ""),
		.effect = effect_line(pool, r), .counters = counters_line(pool, r, banner), .knees = knees_line(pool, r),
		.note = r->note[0] ? r->note : NULL, .seconds = ud_view_pool_printf(pool, "%.1f s", r->seconds),
		.chart = ud_teach_chart(pool, r), .noise = noise_line(pool, r),
	};
	if (!isfinite(r->seconds))
		v->seconds = "n/a";
	table(pool, r, v);
	wrapped(pool, v);
}

static const char *host_line(struct ud_view_pool *pool, const struct ud_host *host)
{
	const char *label = host ? host->label : NULL, *model = host ? host->cpu.model_name : NULL;
	const char *uarch = host ? host->cpu.uarch : NULL, *kernel = host ? host->kernel : NULL;

	return ud_view_pool_printf(pool, "%s: %s (%s), kernel %s", label ? label : "this host", model ? model : "unknown CPU",
			    uarch ? uarch : "unknown", kernel ? kernel : "unknown");
}

static void teach_view(struct ud_view_pool *pool, const struct ud_host *host, const struct ud_lab_result *labs, size_t n,
		       struct tv_teach *v)
{
	const char *no_pmu = no_pmu_reason(host, labs, n);
	size_t shown = 0, noisy = 0, used;
	double seconds = 0;
	char total[192], *banner;

	*v = (struct tv_teach){ .host = host_line(pool, host), .labs = ud_view_pool_alloc(pool, n, sizeof(*v->labs)) };
	for (size_t i = 0; v->labs && i < n; i++) {
		lab_view(pool, &labs[i], no_pmu != NULL, &v->labs[v->nlabs++]);
		shown += labs[i].shown;
		noisy += labs[i].noise.nwarnings > 0;
		seconds += isfinite(labs[i].seconds) ? labs[i].seconds : 0;
	}
	used = (size_t)snprintf(total, sizeof(total), "%zu of %zu lab%s shown, in %.1f s.", shown, n, n == 1 ? "" : "s",
				seconds);
	if (noisy)
		snprintf(total + used, sizeof(total) - used, " %zu measured while the host was busy: see %s.", noisy,
			 noisy == 1 ? "its verdict" : "their verdicts");
	v->total = ud_view_pool_printf(pool, "%s", total);
	if (no_pmu && (banner = ud_view_pool_keep(pool, ud_pmu_banner("here", no_pmu))) != NULL) {
		v->pmu_banner = banner;
		v->pmu_banner_lines = wrap(pool, banner, &v->npmu_banner_lines);
	}
}

/* ---- what teach.txt and teach.html read ---- */

#define TEXT_LINES(M) UD_FIELD_STRINGS_OF(struct tv_text, M, n##M)

static const struct ud_field text_rows[] = {
	TEXT_LINES(explanation), TEXT_LINES(experiment), TEXT_LINES(expected), TEXT_LINES(measured), TEXT_LINES(verdict),
	TEXT_LINES(counters),    TEXT_LINES(knees),      TEXT_LINES(note),     TEXT_LINES(noise),
};
static const struct ud_fields text_fields = UD_FIELDS("a lab's text lines", text_rows);

static const struct ud_field row_rows[] = { UD_FIELD_STRINGS_OF(struct tv_row, cells, ncells) };
static const struct ud_fields row_fields = UD_FIELDS("a table row", row_rows);

static const struct ud_field lab_rows[] = {
	UD_FIELD(struct tv_lab, name, UD_FIELD_STRING),        UD_FIELD(struct tv_lab, title, UD_FIELD_STRING),
	UD_FIELD(struct tv_lab, explanation, UD_FIELD_STRING), UD_FIELD(struct tv_lab, experiment, UD_FIELD_STRING),
	UD_FIELD(struct tv_lab, expected, UD_FIELD_STRING),    UD_FIELD(struct tv_lab, measured, UD_FIELD_STRING),
	UD_FIELD(struct tv_lab, shown, UD_FIELD_BOOL),         UD_FIELD(struct tv_lab, verdict, UD_FIELD_STRING),
	UD_FIELD(struct tv_lab, effect, UD_FIELD_STRING),      UD_FIELD(struct tv_lab, counters, UD_FIELD_STRING),
	UD_FIELD(struct tv_lab, knees, UD_FIELD_STRING),       UD_FIELD(struct tv_lab, note, UD_FIELD_STRING),
	UD_FIELD(struct tv_lab, seconds, UD_FIELD_STRING),     UD_FIELD(struct tv_lab, noise, UD_FIELD_STRING),
	UD_FIELD(struct tv_lab, header, UD_FIELD_STRING),
	UD_FIELD_SUB(struct tv_lab, chart, UD_FIELD_OBJECT, &ud_teach_chart_fields),
	UD_FIELD_STRINGS_OF(struct tv_lab, columns, ncolumns), UD_FIELD_STRINGS_OF(struct tv_lab, lines, nlines),
	UD_FIELD_LIST_OF(struct tv_lab, rows, nrows, &row_fields),
	UD_FIELD_SUB(struct tv_lab, text, UD_FIELD_STRUCT, &text_fields),
};
static const struct ud_fields lab_fields = UD_FIELDS("a lab", lab_rows);

static const struct ud_field teach_rows[] = {
	UD_FIELD(struct tv_teach, host, UD_FIELD_STRING),
	UD_FIELD(struct tv_teach, pmu_banner, UD_FIELD_STRING),
	UD_FIELD_STRINGS_OF(struct tv_teach, pmu_banner_lines, npmu_banner_lines),
	UD_FIELD_LIST_OF(struct tv_teach, labs, nlabs, &lab_fields),
	UD_FIELD(struct tv_teach, total, UD_FIELD_STRING),
};
static const struct ud_fields teach_fields = UD_FIELDS("the teach page", teach_rows);

const struct ud_fields *ud_teach_fields(void)
{
	return &teach_fields;
}

int ud_teach_render(const struct ud_host *host, const struct ud_lab_result *labs, size_t n, enum ud_report_format f,
		    const char *dir, FILE *out, struct ud_err *err)
{
	struct ud_view_pool pool = { 0 };
	struct tv_teach view;
	int ret;

	if (f == UD_REPORT_JSON)
		return ud_fail(err, "the JSON document is ud_teach_write_json()'s");
	if (f == UD_REPORT_MD)
		return ud_fail(err, "teach has no Markdown form (text, html, json)");
	teach_view(&pool, host, labs, n, &view);
	ret = pool.oom ? ud_fail(err, "out of memory") : ud_report_render_typed(&view, &teach_fields, "teach", f, dir, out, err);
	ud_view_pool_free(&pool);
	return ret;
}
