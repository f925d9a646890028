/* The reports from the templates: content, charts, and escaping of profile strings. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diff.h"
#include "import.h"
#include "report.h"
#include "report_priv.h"
#include "report_view.h"
#include "run_summary.h"
#include "testutil.h"

#define EVIL "<script>alert(1)</script>"

/*
 * The worked example: its model, holding the profiles it points into, which
 * some tests give copies of the workload (rebuilt()) or edit the numbers of.
 */
static struct ud_diff *model;
static struct ud_profile *pa, *pb;
static struct ud_uarch_db db;
/* The model's findings while a test shows it without them (none()); restored before it is freed. */
static size_t nfindings;

static struct ud_profile *imported(const char *file, const char *label, const char *uarch)
{
	struct ud_import_opts o = { 0 };
	struct ud_profile *p = ud_profile_new(host_from_text(
		"{\"label\": \"%s\", \"cpu\": {\"uarch\": \"%s\"}, \"kernel\": \"%s\"}", label, uarch, label));
	struct ud_err err;

	ck_assert_msg(ud_import_file(p, file, &o, &err) == 0, "%s", err.msg);
	return p;
}

static void build(void)
{
	struct ud_err err;
	struct ud_diff_input in = { pa, pb, "e5.json", "e6.json", &db };

	model = ud_diff_build(&in, &err);
	ck_assert_msg(model != NULL, "%s", err.msg);
	nfindings = model->nfindings;
}

static void setup(void)
{
	struct ud_err err;

	/* the phrases matched below on one line: laid out wider than a pipe's 80 columns */
	ud_report_set_width(100);
	ck_assert(ud_uarch_db_load(UD_EVENTS_DIR, &db, &err) == 0);
	pa = imported(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", EVIL, "zen4");
	pb = imported(UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", "E6 | *Turin*", "zen5");
	build();
}

static void free_model(void)
{
	model->nfindings = nfindings;
	ud_diff_free(model);
}

/* The typed view a test reads (view_of()), its parts in view_pool. */
static struct ud_view_pool view_pool;
static struct rv_report the_view;

/* d's typed view, the one before it freed; the teardown frees the last. */
static const struct rv_report *view_of(const struct ud_diff *d)
{
	ud_view_pool_free(&view_pool);
	ck_assert_int_eq(ud_report_view(&view_pool, d, &the_view), 0);
	return &the_view;
}

static void teardown(void)
{
	ud_view_pool_free(&view_pool);
	free_model();
	ud_profile_free(pa);
	ud_profile_free(pb);
	ud_uarch_db_free(&db);
}

/* The fixture's pastes imported again into both profiles as one more workload named name. */
static void add_copy(const char *name)
{
	static const char *const files[] = { UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt",
					     UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt" };
	struct ud_profile *p[] = { pa, pb };
	struct ud_import_opts o = { .workload = name };
	struct ud_err err;

	for (int i = 0; i < 2; i++) {
		char *text = read_text(files[i]);

		ck_assert_msg(ud_import_buffer(p[i], text, strlen(text), files[i], &o, &err) == 0, "%s", err.msg);
		free(text);
	}
}

/* The model again, from the profiles as the test has changed them. */
static void rebuilt(void)
{
	free_model();
	build();
}

/* The model shown without its findings (their evidence lists every workload). */
static void none(void)
{
	model->nfindings = 0;
}

static char *report_of(const struct ud_diff *d, enum ud_report_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct ud_err err;

	ck_assert_msg(ud_report_write(d, f, UD_TEMPLATES_DIR, out, &err) == 0, "%s", err.msg);
	fclose(out);
	return buf;
}

static char *report(enum ud_report_format f)
{
	return report_of(model, f);
}

START_TEST(test_text)
{
	char *t = report(UD_REPORT_TEXT);

	ck_assert_ptr_nonnull(strstr(t, ": 4.66x"));
	ck_assert_ptr_nonnull(strstr(model->workloads[0].explanation, "carries 87% of")); /* wrapped in t where it falls */
	ck_assert_ptr_nonnull(strstr(t, "  IPC                  3.8x  helped B      +87%\n  frequency"));
	ck_assert_ptr_null(strstr(t, "\n  clock ")); /* task-clock is there: the clock factor does not apply, no row */
	ck_assert_ptr_nonnull(strstr(t, "  branch-miss rate             10.97%        0.46%"));
	ck_assert_ptr_nonnull(strstr(t, "branch +0.300 + L1d +0.611 + other +0.127"));
	ck_assert_ptr_nonnull(strstr(t, "== Environment"));
	ck_assert_ptr_nonnull(strstr(t, EVIL)); /* text is shown as it is, control characters aside */
	free(t);
}
END_TEST

START_TEST(test_markdown_escapes)
{
	char *m = report(UD_REPORT_MD);

	ck_assert_ptr_nonnull(strstr(m, "\\<script>")); /* read plainly raw, and a tag no renderer opens */
	for (const char *tag = m; (tag = strstr(tag, "<script>")) != NULL; tag++)
		ck_assert(tag > m && tag[-1] == '\\');
	ck_assert_ptr_null(strstr(m, "&gt;"));
	ck_assert_ptr_nonnull(strstr(m, "E6 \\| \\*Turin\\*")); /* no broken table, no emphasis */
	ck_assert_ptr_nonnull(strstr(m, "| IPC | 3.8x | helped B | +87% |"));
	free(m);
}
END_TEST

START_TEST(test_html_is_self_contained_with_charts)
{
	char *h = report(UD_REPORT_HTML);

	ck_assert_ptr_null(strstr(h, "<script"));
	ck_assert_ptr_nonnull(strstr(h, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	ck_assert_ptr_nonnull(strstr(h, "<svg class=\"waterfall\""));
	ck_assert_ptr_nonnull(strstr(h, "<svg class=\"bars\""));
	ck_assert_ptr_nonnull(strstr(h, "fill=\"#2ca02c\"")); /* a factor above 1 */
	ck_assert_ptr_null(strstr(h, "http://"));            /* nothing fetched from the network */
	ck_assert_ptr_null(strstr(h, "https://"));
	ck_assert_ptr_null(strstr(h, "{{"));
	free(h);
}
END_TEST

/*
 * Each section can be linked to (issue 39): every h2 has an id, no two the
 * same, a workload's taken from its name (names that slug alike get -2),
 * and the page fits a phone: the viewport tag, tables in scroll boxes.
 */
START_TEST(test_html_section_ids)
{
	char *h;
	size_t n = 0;
	char ids[16][96];

	add_copy("Second Run!");
	add_copy("second-run");
	rebuilt();
	h = report(UD_REPORT_HTML);
	ck_assert_ptr_nonnull(strstr(h, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"));
	ck_assert_ptr_nonnull(strstr(h, "<div class=\"scroll\">\n<table>"));
	for (const char *p = h; (p = strstr(p, "<h2")) != NULL; p++) {
		ck_assert_msg(strncmp(p, "<h2 id=\"", 8) == 0, "an h2 without an id: %.60s", p);
		ck_assert_uint_lt(n, 16);
		ck_assert_int_eq(sscanf(p + 8, "%95[^\"]", ids[n]), 1);
		for (size_t i = 0; i < n; i++)
			ck_assert_str_ne(ids[i], ids[n]);
		n++;
	}
	ck_assert_uint_ge(n, 5);
	ck_assert_ptr_nonnull(strstr(h, "<h2 id=\"findings\">"));
	ck_assert_ptr_nonnull(strstr(h, "<h2 id=\"workload-second-run\">"));
	ck_assert_ptr_nonnull(strstr(h, "<h2 id=\"workload-second-run-2\">"));
	free(h);
}
END_TEST

static bool any_single_threaded(const char *workload)
{
	(void)workload;
	return true;
}

/* The longest line of text, in characters (UTF-8). */
static size_t widest_line(const char *text)
{
	size_t widest = 0, cols = 0;

	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			cols = 0;
		else if (((unsigned char)*p & 0xC0) != 0x80)
			cols++;
		widest = cols > widest ? cols : widest;
	}
	return widest;
}

/*
 * run's summary at 80 columns (a pipe, issue 39): long workload names and
 * every noise cause at once (interval, CPUs, steal, the budget) still fit,
 * each cause whole, the row's values never run together.
 */
START_TEST(test_run_summary_fits_80)
{
	struct ud_profile *p = ud_profile_new(NULL);
	const char *names[] = { "a-workload-name-longer-than-its-column", "syscall" };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	for (size_t i = 0; i < 2; i++) {
		struct ud_workload *w = ud_profile_add_workload(p, names[i]);
		struct ud_noise *n = ud_workload_noise(w);

		w->score = (struct ud_score){ .median = 13875924581.0, .ci95_rel = 0.166 };
		w->units = strdup("operations per second");
		w->outcome = strdup("ok");
		*n = (struct ud_noise){ .cpus_utilized_min = 0.48, .steal_pct = 3.1, .load_avg = NAN, .ci95_rel = 0.166,
					.samples_taken = 30, .budget_ran_out = true };
	}
	ud_run_summary_print(out, p, 80, any_single_threaded);
	fclose(out);
	ck_assert_msg(widest_line(text) <= 80, "a line over 80 columns:\n%s", text);
	ck_assert_ptr_nonnull(strstr(text, "interval 16.6%"));
	ck_assert_ptr_nonnull(strstr(text, "0.48 CPUs"));
	ck_assert_ptr_nonnull(strstr(text, "steal 3.1%"));
	ck_assert_ptr_nonnull(strstr(text, "13,875,924,581 "));
	free(text);
	ud_profile_free(p);
}
END_TEST

/*
 * Top-down on both hosts replaces the CPI stack in every format: the
 * buckets in cycles per KB (test_diff.c works them out by hand), the
 * sentence, and in HTML a stacked bar per host.
 */
START_TEST(test_topdown_replaces_cpi_stack)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/made-up-e5-topdown.txt", "E5", "zen4");
	struct ud_profile *b = imported(UD_TEST_DATA "/perf-stat/made-up-e6-topdown.txt", "E6", "zen5");
	struct ud_diff_input in = { a, b, "a.json", "b.json", &db };
	struct ud_err err;
	struct ud_diff *d = ud_diff_build(&in, &err);
	char *t, *m, *h;

	ck_assert_msg(d != NULL, "%s", err.msg);
	t = report_of(d, UD_REPORT_TEXT);
	m = report_of(d, UD_REPORT_MD);
	h = report_of(d, UD_REPORT_HTML);
	ck_assert_ptr_nonnull(strstr(t, "  bad speculation                     2,145            106       51%\n"));
	ck_assert_ptr_nonnull(strstr(t, "E6 needs 4,031 fewer cycles per KB than E5: 2,038 of them (51%) were bad "
					"speculation."));
	ck_assert_ptr_null(strstr(t, "CPI stack"));
	ck_assert_ptr_nonnull(strstr(m, "| bad speculation | 2,145 | 106 | 51% |"));
	ck_assert_ptr_null(strstr(m, "CPI stack"));
	ck_assert_ptr_nonnull(strstr(h, "<svg class=\"topdown\""));
	ck_assert_ptr_null(strstr(h, "<svg class=\"cpi\""));
	/* A's bar: bad speculation 0.40 of 5,362 cycles, the widest of the two hosts' 650 px: 260 px */
	ck_assert_ptr_nonnull(strstr(h, "width=\"260.0\" height=\"22.0\" fill=\"#d62728\""));
	free(t);
	free(m);
	free(h);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* The streamed document is the tree the model writes, every real to the bit, labels escaped and back. */
START_TEST(test_json_round_trips_the_label)
{
	char *j = report(UD_REPORT_JSON);
	json_t *back = json_loads(j, 0, NULL), *diff = ud_diff_to_json(model);

	ck_assert_ptr_nonnull(back);
	ck_assert(json_equal(back, diff));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(back, "baseline"), "label")), EVIL);
	json_decref(back);
	json_decref(diff);
	free(j);
}
END_TEST

START_TEST(test_missing_template)
{
	struct ud_err err;

	ck_assert_int_eq(ud_report_write(model, UD_REPORT_HTML, "/nonexistent", stdout, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/report.html"));
}
END_TEST

/* Factor and metric rows carry the labels of the enums' one table, in the enums' order. */
START_TEST(test_labels_from_the_tables)
{
	const struct rv_workload *w = &view_of(model)->workloads[0];
	const struct rv_ab_row *bars = w->bars->rows;
	char *t = report(UD_REPORT_TEXT);

	/*
	 * every factor that applies, in the enum's order: all but the clock, which
	 * task-clock makes needless here, and cycles per unit, which path length
	 * and IPC split
	 */
	ck_assert_uint_eq(w->nfactors, UD_FACTOR_COUNT - 2);
	for (int f = 0, row = 0; f < UD_FACTOR_COUNT; f++)
		if (f != UD_FACTOR_CLOCK && f != UD_FACTOR_CYCLES)
			ck_assert_str_eq(w->factors[row++].name, ud_factor_label((enum ud_factor)f));
	/* every metric known on either side, in the enum's order: a row of n/a on both (backend stalls here) goes */
	for (int m = 0, row = 0; m < UD_METRIC_COUNT; m++) {
		const struct ud_ab *ab = &model->workloads[0].metric[m];

		if (!isfinite(ab->a) && !isfinite(ab->b)) {
			ck_assert_ptr_null(strstr(t, ud_metric_label((enum ud_metric)m)));
			continue;
		}
		ck_assert_str_eq(w->metrics[row++].name, ud_metric_label((enum ud_metric)m));
		ck_assert_ptr_nonnull(strstr(t, ud_metric_label((enum ud_metric)m)));
		ck_assert_uint_eq(w->nmetrics, UD_METRIC_COUNT - 1);
	}
	ck_assert_str_eq(bars[1].label, ud_metric_label(UD_M_BRANCH_MISS_RATE));
	ck_assert_str_eq(bars[1].a_text, "10.97%");
	/* one axis for IPC (0.71, 2.7) and the rates (0.46% to 12.96%): three decades, so log, a tick a decade */
	ck_assert_str_eq(w->bars->scale, "log");
	ck_assert_uint_eq(w->bars->nticks, 5);
	ck_assert_str_eq(w->bars->ticks[0].label, "0.001");
	ck_assert_str_eq(w->bars->ticks[4].label, "10");
	/* on one axis B's IPC bar is longer than B's L1d miss-rate bar; each pair scaled alone, both were full */
	ck_assert_double_gt(atof(bars[0].b_w), atof(bars[2].b_w) + 100);
	ck_assert_ptr_nonnull(strstr(t, "  path length"));
	free(t);
}
END_TEST

/* No number the report could not format reaches the page as C prints it. */
static void no_bad_words(const char *h)
{
	static const char *const bad[] = { "nan", "inf", "(null)" };

	for (const char *p = h; *p; p++) {
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			size_t n = strlen(bad[i]);

			/* A match never runs past the end: the terminator cannot match a letter of bad[i]. */
			if (strncasecmp(p, bad[i], n) != 0)
				continue;
			ck_assert_msg((p > h && isalpha((unsigned char)p[-1])) || isalpha((unsigned char)p[n]),
				      "'%s' at ...%.40s", bad[i], p);
		}
	}
}

static const struct rv_wf_bar *bar_named(const struct rv_waterfall *chart, const char *label)
{
	for (size_t i = 0; i < chart->nbars; i++)
		if (strcmp(chart->bars[i].label, label) == 0)
			return &chart->bars[i];
	ck_abort_msg("no bar %s", label);
	return NULL;
}

/* Two workloads' waterfalls share one axis: the same ticks, the same length for the same factor. */
START_TEST(test_waterfalls_share_one_axis)
{
	const struct rv_waterfall *w0, *w1;
	const char *want[] = { "0.25x", "0.5x", "1x", "2x", "4x", "8x" };

	add_copy("second");
	rebuilt();
	model->workloads[1].factor[UD_FACTOR_PATH_LENGTH] = 0.4;
	w0 = view_of(model)->workloads[0].waterfall;
	w1 = the_view.workloads[1].waterfall;
	ck_assert_uint_eq(w0->nticks, w1->nticks);
	for (size_t i = 0; i < w0->nticks; i++) {
		ck_assert_str_eq(w0->ticks[i].x, w1->ticks[i].x);
		ck_assert_str_eq(w0->ticks[i].label, w1->ticks[i].label);
	}
	ck_assert_str_eq(w0->axis_x, w1->axis_x);
	/* IPC is 3.8x in both: its bar is as long in both, wherever it starts. */
	ck_assert_str_eq(bar_named(w0, "IPC")->w, bar_named(w1, "IPC")->w);
	ck_assert_str_ne(bar_named(w0, "IPC")->x, bar_named(w1, "IPC")->x);
	/* The axis holds the second's 0.4x path length on the left and the first's 4.66x on the right. */
	ck_assert_uint_eq(w0->nticks, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < w0->nticks; i++)
		ck_assert_str_eq(w0->ticks[i].label, want[i]);
	ck_assert_str_eq(bar_named(w0, "unexplained")->color, "#b0b0b0");
	ck_assert_uint_eq(w0->nlegend, 4);
}
END_TEST

/*
 * A number the model holds as infinite reads as the document has it, null:
 * no factor row, "n/a" in the tables, no speedup in words.
 */
START_TEST(test_infinite_reads_as_unknown)
{
	struct ud_diff_workload *w = &model->workloads[0];
	const struct rv_workload *v;
	json_t *doc;

	w->factor[UD_FACTOR_FREQUENCY] = INFINITY;
	w->metric[UD_M_IPC].a = INFINITY;
	w->speedup = INFINITY;
	doc = ud_diff_to_json(model);
	ck_assert(json_is_null(json_object_get(json_object_get(json_array_get(json_object_get(doc, "workloads"), 0),
							       "factors"),
					       "frequency")));
	v = &view_of(model)->workloads[0];
	ck_assert_uint_eq(v->nfactors, UD_FACTOR_COUNT - 3);
	for (size_t i = 0; i < v->nfactors; i++)
		ck_assert_str_ne(v->factors[i].name, ud_factor_label(UD_FACTOR_FREQUENCY));
	ck_assert_str_eq(v->metrics[UD_M_IPC].a, "n/a");
	ck_assert_str_eq(v->speedup, "n/a");
	ck_assert_str_eq(the_view.rows[0].speedup, "n/a");
	ck_assert_str_eq(the_view.rows[0].ipc, "n/a");
	json_decref(doc);
}
END_TEST

/*
 * Names that are not ASCII keep their row in the summary table, cut and
 * padded by characters: main cut "%.27s" bytes into a character and lost
 * the row (no JSON string holds the half).
 */
START_TEST(test_summary_names_cut_by_character)
{
	char twenty[64] = "", forty[128] = "", want[128] = "";
	const struct rv_report *view;
	char *t;

	for (int i = 0; i < 40; i++) {
		strcat(forty, "\xc3\xa9"); /* é, two bytes */
		if (i < 20)
			strcat(twenty, "\xc3\xa9");
		if (i < 27)
			strcat(want, "\xc3\xa9");
	}
	add_copy(twenty);
	add_copy(forty);
	rebuilt();
	view = view_of(model);
	ck_assert_uint_eq(view->nrows, 3);
	/* 20 characters and 10 spaces fill the 30-character column, as an ASCII name does */
	ck_assert_str_eq(view->rows[1].name, twenty);
	ck_assert(strncmp(view->rows[1].col + strlen(twenty), "           4.66x faster", 23) == 0);
	strcat(want, "... 4.66x faster");
	ck_assert_str_eq(view->rows[2].name, forty);
	ck_assert(strncmp(view->rows[2].col, want, strlen(want)) == 0);
	t = report(UD_REPORT_TEXT);
	ck_assert_ptr_nonnull(strstr(t, want));
	free(t);
}
END_TEST

/*
 * The score table (no counters) keeps the rows of long names whole (issue
 * 36: once cut at fixed buffers, a heading of 3-byte characters at 63 bytes,
 * a row at 256 with its scores lost): the heading and the row's text hold
 * every character, and the row its scores after the name.
 */
START_TEST(test_score_table_keeps_long_names)
{
	char heading_name[160] = "w (", long_name[400] = "";
	const struct rv_report *view;
	const struct rv_score_row *g;
	size_t rows = 0;

	for (int i = 0; i < 30; i++)
		strcat(heading_name, "\xe2\x82\xac"); /* €, three bytes */
	strcat(heading_name, " copies)");
	for (int i = 0; i < 130; i++)
		strcat(long_name, "\xc3\xa9");
	add_copy(heading_name);
	add_copy(long_name);
	rebuilt();
	model->summary.counters = false;
	view = view_of(model);
	for (size_t i = 0; i < view->nscore_table; i++)
		rows += view->score_table[i].nrows;
	ck_assert_uint_eq(rows, 3);
	ck_assert_uint_eq(view->nscore_table, 3);
	ck_assert_str_eq(view->score_table[1].heading, strchr(heading_name, '('));
	g = &view->score_table[2].rows[0];
	ck_assert_ptr_nonnull(strstr(g->col, long_name));
	ck_assert_ptr_nonnull(strstr(g->col + strlen(long_name), g->speedup));
}
END_TEST

/* A counter named past the per-unit column's old 240 bytes keeps its row whole, its ratio after the name (issue 36). */
START_TEST(test_per_unit_keeps_long_names)
{
	char name[256] = "";
	const struct rv_workload *w;
	bool found = false;

	for (int i = 0; i < 100; i++)
		strcat(name, "\xc3\xa9");
	for (int s = 0; s < 2; s++) {
		struct ud_counter *c = ud_workload_add_counter(&(s ? pb : pa)->workloads[0], name);

		c->status = UD_COUNTED;
		c->value = 1e9;
	}
	rebuilt();
	w = &view_of(model)->workloads[0];
	for (size_t i = 0; i < w->nper_unit; i++) {
		const struct rv_per_unit *r = &w->per_unit[i];

		if (strcmp(r->name, name) != 0)
			continue;
		found = true;
		ck_assert_ptr_nonnull(strstr(r->col, name));
		ck_assert_ptr_nonnull(strstr(r->col + strlen(name), r->ratio));
	}
	ck_assert(found);
}
END_TEST

/* Each host's stacked CPI bar: branch + L1d + other is its CPI, and so are the parts' widths. */
static void check_cpi_row(const struct rv_stack_row *row, double cpi)
{
	double sum = 0;

	ck_assert_double_eq_tol(strtod(row->branch, NULL) + strtod(row->l1d, NULL) + strtod(row->other, NULL), cpi, 0.0021);
	for (size_t i = 0; i < row->nsegs; i++)
		sum += strtod(row->segs[i].w, NULL);
	ck_assert_double_eq_tol(sum, strtod(row->total_w, NULL), 0.16);
}

START_TEST(test_cpi_stack_per_host)
{
	const struct rv_stack_chart *chart = view_of(model)->workloads[0].cpi_chart;
	const struct rv_stack_row *a = &chart->rows[0];
	struct ud_ab *m = model->workloads[0].metric;
	double cpi_a = m[UD_M_CPI].a, cpi_b = m[UD_M_CPI].b, bm_a = m[UD_M_BRANCH_MPKI].a;
	char want[16];

	ck_assert_uint_eq(chart->nrows, 2);
	check_cpi_row(a, cpi_a);
	check_cpi_row(&chart->rows[1], cpi_b);
	snprintf(want, sizeof(want), "%.3f", bm_a * 13 / 1000); /* zen4: 13 cycles per mispredict */
	ck_assert_str_eq(a->branch, want);
	ck_assert(!chart->overshoot);
	/* The longer bar is the larger CPI: one scale for both hosts. */
	ck_assert_double_gt(strtod(a->total_w, NULL), strtod(chart->rows[1].total_w, NULL));

	/* Branch misses enough to exceed the CPI alone: the bar still spans the CPI, 'other' is empty. */
	m[UD_M_BRANCH_MPKI].a = 100;
	chart = view_of(model)->workloads[0].cpi_chart;
	ck_assert(chart->overshoot);
	ck_assert_str_eq(chart->rows[0].other, "0.000");
	check_cpi_row(&chart->rows[1], cpi_b);
}
END_TEST

/* The overview: every non-composite workload once, the composite left out, the geomean marked. */
START_TEST(test_overview_has_every_workload)
{
	const struct rv_overview *ov;
	size_t seen = 0;

	add_copy("second");
	add_copy("Index Score");
	add_copy("no score");
	rebuilt();
	model->workloads[1].factor[UD_FACTOR_IPC] = 0.5;
	model->workloads[1].speedup = 0.6;
	model->workloads[2].composite = true;
	model->workloads[3].speedup = NAN;
	ov = view_of(model)->overview;
	ck_assert_ptr_nonnull(strstr(ov->note, "1 without a speedup"));
	ck_assert_uint_eq(ov->nbars, 2);
	for (size_t i = 0; i < ov->nbars; i++) {
		const char *name = ov->bars[i].name;

		ck_assert_str_ne(name, "Index Score");
		seen |= strcmp(name, "second") == 0 ? 1u : 2u;
		/* Faster first (green, right of 1x), slower last (red, left of it). */
		ck_assert_str_eq(ov->bars[i].color, i == 0 ? "#2ca02c" : "#d62728");
	}
	ck_assert_uint_eq(seen, 3);
	ck_assert_str_eq(ov->bars[1].value, "1.67x slower");
	ck_assert_ptr_nonnull(ov->geomean);
	ck_assert_ptr_nonnull(ov->geomean->x);
}
END_TEST

/* Many workloads: the overview draws those that moved most, says so, and the file stays small. */
START_TEST(test_overview_many_workloads)
{
	const struct rv_overview *ov;
	char name[32];
	char *h;

	for (int i = 1; i < 1000; i++) {
		snprintf(name, sizeof(name), "w%04d", i);
		add_copy(name);
	}
	rebuilt();
	for (int i = 1; i < 1000; i++)
		model->workloads[i].speedup = exp((i % 200 - 100) / 40.0);
	ov = view_of(model)->overview;
	ck_assert_uint_eq(ov->nbars, 100);
	ck_assert_ptr_nonnull(strstr(ov->note, "100 of 1000"));
	none(); /* their evidence lists every workload: not the charts' size */
	h = report(UD_REPORT_HTML);
	ck_assert_uint_lt(strlen(h), 600 * 1000);
	no_bad_words(h);
	free(h);
}
END_TEST

/* Lower-is-better workloads say so; an empty Findings says "none". */
START_TEST(test_html_marks_and_empty_findings)
{
	char *h;

	pa->workloads[0].higher_is_better = 0;
	none();
	h = report(UD_REPORT_HTML);
	ck_assert_ptr_nonnull(strstr(h, "time: lower is better"));
	ck_assert_ptr_nonnull(strstr(h, "<h2 id=\"findings\">Findings</h2>\n<p>none</p>"));
	ck_assert_ptr_nonnull(strstr(h, "<svg class=\"overview\""));
	ck_assert_ptr_nonnull(strstr(h, "<svg class=\"cpi\""));
	ck_assert_ptr_nonnull(strstr(h, "fill=\"#b0b0b0\"")); /* unexplained, neutral */
	no_bad_words(h);
	free(h);
}
END_TEST

/* Two UnixBench logs, no counters: the overview and the score table, no chart that needs counters. */
START_TEST(test_html_score_only)
{
	struct ud_uarch_db db;
	struct ud_err err;
	struct ud_profile *a, *b;
	struct ud_diff_input in;
	struct ud_diff *model;
	const struct rv_report *view;
	char *h;

	ck_assert(ud_uarch_db_load(UD_EVENTS_DIR, &db, &err) == 0);
	a = imported(UD_TEST_DATA "/unixbench/aws-m6g-graviton2.txt", "G2", "neoverse-n1");
	b = imported(UD_TEST_DATA "/unixbench/aws-m7g-graviton3.txt", "G3", "neoverse-v1");
	in = (struct ud_diff_input){ a, b, "g2.json", "g3.json", &db };
	model = ud_diff_build(&in, &err);
	ck_assert_msg(model != NULL, "%s", err.msg);
	view = view_of(model);
	ck_assert(view->score_only);
	ck_assert_uint_eq(view->nworkloads, 0);
	/* 26 rows, the two index scores left out. */
	ck_assert_uint_eq(view->overview->nbars, 24);
	h = report_of(model, UD_REPORT_HTML);
	ck_assert_ptr_nonnull(strstr(h, "<svg class=\"overview\""));
	ck_assert_ptr_nonnull(strstr(h, "geomean 1.09x faster"));
	ck_assert_ptr_nonnull(strstr(h, "<th colspan=\"4\">(2 copies)</th>"));
	ck_assert_ptr_null(strstr(h, "class=\"waterfall\""));
	ck_assert_ptr_null(strstr(h, "class=\"cpi\""));
	ck_assert_ptr_null(strstr(h, "class=\"bars\""));
	no_bad_words(h);
	free(h);
	ud_diff_free(model);
	ud_profile_free(a);
	ud_profile_free(b);
	ud_uarch_db_free(&db);
}
END_TEST

/*
 * A hotspot label fits its column beside the bars (issue 23: "[unknown]
 * libc.so.6+0xfaa72" ran into them): 20 characters, the middle cut; each
 * value's text ends inside the chart.
 */
START_TEST(test_hotspot_labels_fit)
{
	struct ud_hotspot_move moves[] = {
		{ "[unknown] /usr/lib/x86_64-linux-gnu/libc.so.6+0xfaa72", NULL, UD_MODE_USER, 0.5, NAN, 1, NAN },
		{ "entry_SYSCALL_64_after_hwframe", NULL, UD_MODE_KERNEL, 0.2, 0.6, 1, 2 },
	};
	struct ud_view_pool pool = { 0 };
	const struct rv_hot_chart *chart = ud_chart_hotspots(&pool, moves, 2);
	double width = chart->width;

	ck_assert_uint_eq(chart->nrows, 2);
	for (size_t i = 0; i < chart->nrows; i++) {
		const struct rv_ab_row *row = &chart->rows[i];
		const char *label = row->label;
		size_t chars = 0;

		for (const char *c = label; *c; c++)
			chars += ((unsigned char)*c & 0xc0) != 0x80;
		ck_assert_msg(chars <= 20, "label '%s' is %zu characters", label, chars);
		/* "B not among its top symbols", about 170 px at 12 px, after the longest bar */
		ck_assert_double_le(atof(row->a_tx) + 170, width);
		ck_assert_double_le(atof(row->b_tx) + 170, width);
	}
	ud_view_pool_free(&pool);
}
END_TEST

/* Every name report.txt, report.md and report.html use is a field of the view's tables: a misspelt one fails here. */
START_TEST(test_templates_name_fields)
{
	static const char *const stems[] = { "report.txt", "report.md", "report.html" };
	struct ud_err err = UD_ERR_INIT;

	for (size_t i = 0; i < sizeof(stems) / sizeof(stems[0]); i++) {
		char path[512], *tmpl;

		snprintf(path, sizeof(path), "%s/../../report-templates/%s", UD_TEST_DATA, stems[i]);
		ck_assert_ptr_nonnull(tmpl = read_text(path));
		ck_assert_msg(ud_template_check(tmpl, stems[i], ud_report_fields(), &err) == 0, "%s", err.msg);
		free(tmpl);
	}
	ck_assert_int_eq(ud_template_check("{{#workloads}}{{#topdown}}{{#chart}}{{#rows}}{{#segs}}{{text_y}}{{label_x}}"
					   "{{/segs}}{{/rows}}{{/chart}}{{/topdown}}{{/workloads}}", "t", ud_report_fields(), &err),
			 0);
	ck_assert_int_eq(ud_template_check("{{#workloads}}\n{{speedpu}}{{/workloads}}", "t", ud_report_fields(), &err), -1);
	ck_assert_str_eq(err.msg, "t:2: '{{speedpu}}' is no field of a workload, the diff report");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_templates_name_fields);
	tcase_add_test(tc, test_hotspot_labels_fit);
	tcase_add_test(tc, test_markdown_escapes);
	tcase_add_test(tc, test_html_is_self_contained_with_charts);
	tcase_add_test(tc, test_html_section_ids);
	tcase_add_test(tc, test_run_summary_fits_80);
	tcase_add_test(tc, test_topdown_replaces_cpi_stack);
	tcase_add_test(tc, test_json_round_trips_the_label);
	tcase_add_test(tc, test_missing_template);
	tcase_add_test(tc, test_labels_from_the_tables);
	tcase_add_test(tc, test_waterfalls_share_one_axis);
	tcase_add_test(tc, test_infinite_reads_as_unknown);
	tcase_add_test(tc, test_summary_names_cut_by_character);
	tcase_add_test(tc, test_score_table_keeps_long_names);
	tcase_add_test(tc, test_per_unit_keeps_long_names);
	tcase_add_test(tc, test_cpi_stack_per_host);
	tcase_add_test(tc, test_overview_has_every_workload);
	tcase_add_test(tc, test_overview_many_workloads);
	tcase_add_test(tc, test_html_marks_and_empty_findings);
	tcase_add_test(tc, test_html_score_only);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
