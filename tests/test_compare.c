/*
 * compare: three hosts built here, every speedup and geomean worked out by
 * hand; the uarchdiff.compare/1 document; each report format; the command's
 * exit statuses and one-line errors.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "diffutil.h"
#include "report.h"
#include "testutil.h"

#define UD UD_BINARY
#define EVIL "<script>alert(1)</script>"

/*
 *            int   fp    pipe  lat (lower is better)  index (composite)  extra
 *   A        100   200   50    10                     300                -
 *   B        150   100   75    5                      330                -
 *   C        400   -     25    40                     600                10
 *
 *   B/A      1.5   0.5   1.5   2                      1.1
 *   C/A      4     -     0.5   0.25                   2
 *
 * geomeans (composite out): B = (1.5 x 0.5 x 1.5 x 2)^(1/4) = 2.25^(1/4) = sqrt(1.5);
 * C = (4 x 0.5 x 0.25)^(1/3) = 0.5^(1/3).
 */
static struct ud_profile *prof[3];
static const char *paths[3] = { "a.json", "b.json", "c.json" };
static struct ud_compare *cmp;

static struct ud_profile *host(const char *label, const char *uarch, const char *kernel)
{
	return ud_profile_new(host_from_text("{\"label\": \"%s\", \"cpu\": {\"vendor\": \"AuthenticAMD\", "
					     "\"uarch\": \"%s\"}, \"kernel\": \"%s\"}", label, uarch, kernel));
}

static void scored(struct ud_profile *p, const char *name, double score, int hib, bool composite)
{
	struct ud_workload *w = add(p, name, score, hib);

	w->composite = composite;
	w->units = strdup(hib ? "lps" : "s");
}

static void setup(void)
{
	struct ud_compare_input in = { (const struct ud_profile *const *)prof, paths, 3, &diffutil_db, NULL };
	struct ud_err err = UD_ERR_INIT;
	static const double score[3][6] = { { 100, 200, 50, 10, 300, NAN },
					    { 150, 100, 75, 5, 330, NAN },
					    { 400, NAN, 25, 40, 600, 10 } };
	static const char *names[6] = { "int", "fp", "pipe", "lat", "index", "extra" };
	static const char *labels[3] = { "A", "B", EVIL }, *kernels[3] = { "6.1", "6.8", "6.8" };
	static const char *uarchs[3] = { "zen4", "zen5", "zen5" };

	diffutil_load();
	for (int k = 0; k < 3; k++) {
		prof[k] = host(labels[k], uarchs[k], kernels[k]);
		for (int i = 0; i < 6; i++)
			if (!isnan(score[k][i]))
				scored(prof[k], names[i], score[k][i], i != 3, i == 4);
	}
	/* Counters on one workload, so the per-pair parts have something to say. */
	for (int k = 0; k < 3; k++)
		counts(&prof[k]->workloads[0], 1e9, 1e9 / (1 + k), 5e8, 0.6);
	cmp = ud_compare_build(&in, &err);
	ck_assert_msg(cmp != NULL, "%s", err.msg);
}

static void teardown(void)
{
	ud_compare_free(cmp);
	for (int k = 0; k < 3; k++)
		ud_profile_free(prof[k]);
	diffutil_unload();
}

/* The speedup in row i, column k, NAN when the model has none. */
static double cell(size_t i, size_t k)
{
	ck_assert_uint_lt(i, cmp->nrows);
	return cmp->rows[i].speedup[k];
}

START_TEST(test_table_by_hand)
{
	static const char *order[] = { "int", "fp", "pipe", "lat", "index", "extra" };

	ck_assert_uint_eq(cmp->nhosts, 3);
	ck_assert_uint_eq(cmp->nrows, 6);
	for (size_t i = 0; i < 6; i++)
		ck_assert_str_eq(cmp->rows[i].workload, order[i]);
	for (size_t i = 0; i < 5; i++)
		ck_assert(cell(i, 0) == 1);
	REL(cell(0, 1), 1.5);
	REL(cell(1, 1), 0.5);
	REL(cell(2, 1), 1.5);
	REL(cell(3, 1), 2);
	REL(cell(4, 1), 1.1);
	REL(cell(0, 2), 4);
	ck_assert(isnan(cell(1, 2))); /* C lacks fp */
	REL(cell(2, 2), 0.5);
	REL(cell(3, 2), 0.25);
	REL(cell(4, 2), 2);
	for (size_t k = 0; k < 3; k++)
		ck_assert(isnan(cell(5, k))); /* the baseline lacks extra: no speedup anywhere */
	ck_assert(cmp->rows[4].composite);
	ck_assert(!cmp->rows[0].composite && !cmp->rows[5].composite);
}
END_TEST

START_TEST(test_geomeans_by_hand)
{
	ck_assert(cmp->hosts[0].geomean == 1);
	ck_assert_uint_eq(cmp->hosts[0].ngeomean, 4); /* int, fp, pipe, lat: the index is composite */
	REL(cmp->hosts[1].geomean, sqrt(1.5));
	ck_assert_uint_eq(cmp->hosts[1].ngeomean, 4);
	REL(cmp->hosts[2].geomean, cbrt(0.5));
	ck_assert_uint_eq(cmp->hosts[2].ngeomean, 3);
	ck_assert_str_eq(cmp->hosts[0].label, "A");
	ck_assert_str_eq(cmp->hosts[2].path, "c.json");
	ck_assert_ptr_eq(cmp->diffs[1]->host[UD_SIDE_B].profile, prof[2]);
}
END_TEST

/*
 * B and C are Zen 5 hosts with the same newer kernel: one group apart from
 * the Zen 4 baseline, named by what they share, listing what both differ
 * from the baseline in; its geomean sqrt(1.225 x 0.794) = 1/1.01.
 */
START_TEST(test_environment_groups)
{
	const struct ud_compare_group *g;
	struct ud_compare *same;
	const struct ud_profile *trio[3] = { prof[0], prof[1], prof[0] };
	const char *paths[3] = { "a.json", "b.json", "a2.json" };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_uint_eq(cmp->ngroups, 2);
	ck_assert_uint_eq(cmp->groups[0].nhosts, 1);
	ck_assert_str_eq(cmp->groups[0].name, "zen4");
	ck_assert_uint_eq(cmp->groups[0].nenv, 0);
	REL(cmp->groups[0].geomean, 1);
	g = &cmp->groups[1];
	ck_assert_str_eq(g->name, "zen5");
	ck_assert_uint_eq(g->nhosts, 2);
	ck_assert_uint_eq(g->hosts[0], 1);
	ck_assert_uint_eq(g->hosts[1], 2);
	ck_assert_uint_eq(cmp->hosts[2].group, 1);
	ck_assert_uint_eq(g->nenv, 2);
	ck_assert_str_eq(g->env[0]->field, "cpu.uarch");
	ck_assert_str_eq(g->env[1]->field, "kernel");
	REL(g->geomean, sqrt(sqrt(1.5) * cbrt(0.5)));
	REL(g->min, cbrt(0.5));
	REL(g->max, sqrt(1.5));
	/* A third host identical to the baseline shares its group: the group's mean is its own, not diluted by the baseline's 1 */
	same = ud_compare_build(&(struct ud_compare_input){ trio, paths, 3, &diffutil_db, NULL }, &err);
	ck_assert_msg(same != NULL, "%s", err.msg);
	ck_assert_uint_eq(same->groups[0].nhosts, 2);
	REL(same->groups[0].geomean, 1);
	ud_compare_free(same);
}
END_TEST

START_TEST(test_json)
{
	json_t *doc = ud_compare_to_json(cmp), *t, *row;
	char *text;

	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "schema")), "uarchdiff.compare/1");
	t = json_object_get(doc, "profiles");
	ck_assert_uint_eq(json_array_size(t), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(t, 1), "label")), "B");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(t, 2), "path")), "c.json");
	t = json_object_get(doc, "diffs");
	ck_assert_uint_eq(json_array_size(t), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(t, 1), "schema")), UD_DIFF_SCHEMA);
	REL(at(json_array_get(t, 0), "summary.geomean_speedup"), sqrt(1.5));
	t = json_object_get(doc, "geomeans");
	ck_assert_uint_eq(json_array_size(t), 3);
	REL(json_number_value(json_array_get(t, 0)), 1);
	REL(json_number_value(json_array_get(t, 2)), cbrt(0.5));
	t = json_object_get(doc, "table");
	ck_assert_uint_eq(json_array_size(t), 6);
	row = json_array_get(t, 1);
	ck_assert_str_eq(json_string_value(json_object_get(row, "workload")), "fp");
	REL(json_number_value(json_array_get(json_object_get(row, "speedups"), 1)), 0.5);
	ck_assert(json_is_null(json_array_get(json_object_get(row, "speedups"), 2)));
	ck_assert(json_is_true(json_object_get(json_array_get(t, 4), "composite")));
	t = json_array_get(json_object_get(doc, "groups"), 1);
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(t, "hosts"), 1)), 2);
	ck_assert_str_eq(json_string_value(json_object_get(t, "name")), "zen5");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(t, "keys"), "cpu.uarch")), "zen5");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(t, "environment"), 1), "b")),
			 "6.8");
	text = json_dumps(doc, JSON_COMPACT);
	ck_assert(!has_word(text, "nan"));
	free(text);
	json_decref(doc);
}
END_TEST

/* The text of c in format f, as `compare` writes it. */
static char *render_of(const struct ud_compare *c, enum ud_report_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct ud_err err = UD_ERR_INIT;

	ck_assert_msg(ud_compare_write(c, f, UD_TEMPLATES_DIR, out, &err) == 0, "%s", err.msg);
	fclose(out);
	return buf;
}

static char *render(enum ud_report_format f)
{
	return render_of(cmp, f);
}

/* What no format may show: numbers that are not numbers, missing strings, ratios below 1. */
static void clean(const char *s)
{
	static const char *words[] = { "nan", "NaN", "inf" }; /* as words: "dominant" holds a "nan" */
	static const char *bad[] = { "(null)", "0.5x", "0.25x", "0.794x", "0.79x" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		ck_assert_msg(!has_word(s, words[i]), "'%s' in the report", words[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(strstr(s, bad[i]) == NULL, "'%s' in the report", bad[i]);
}

START_TEST(test_formats)
{
	enum ud_report_format f = (enum ud_report_format)_i;
	char *s = render(f);

	clean(s);
	if (f != UD_REPORT_JSON) {
		ck_assert_ptr_nonnull(strstr(s, "2.00x slower"));    /* pipe on C */
		ck_assert_ptr_nonnull(strstr(s, "4.00x faster"));    /* int on C */
		ck_assert_ptr_nonnull(strstr(s, "1.26x slower"));    /* C's geomean: 0.5^(1/3) = 1/1.26 */
		ck_assert_ptr_nonnull(strstr(s, "1.22x faster"));    /* B's: sqrt(1.5) */
		ck_assert_ptr_nonnull(strstr(s, "—"));              /* C lacks fp */
	}
	if (f == UD_REPORT_HTML) {
		ck_assert_ptr_null(strstr(s, "<script>"));
		ck_assert_ptr_nonnull(strstr(s, "&lt;script&gt;"));
		ck_assert_ptr_nonnull(strstr(s, "id=\"host-3\""));
		ck_assert_ptr_nonnull(strstr(s, "href=\"#host-3\""));
		ck_assert_ptr_nonnull(strstr(s, "href=\"#group-G2\""));
		ck_assert_ptr_nonnull(strstr(s, "id=\"group-G2\""));
	} else if (f == UD_REPORT_TEXT) {
		ck_assert_ptr_nonnull(strstr(s, EVIL));
		ck_assert_ptr_nonnull(strstr(s, "index *"));
		ck_assert_ptr_nonnull(strstr(s, "G2 zen5: 1.01x slower (1.26x slower to 1.22x faster), 2 hosts: #2 B, #3 " EVIL
						"\n    cpu.uarch: zen4 -> zen5\n    kernel: 6.1 -> 6.8\n"));
	}
	free(s);
}
END_TEST

/*
 * Imported pastes that say nothing of their CPU share nothing known: each
 * is a group of its own, never lumped with the baseline or with each other
 * (issue 20: "G1: 6 hosts" of POWER, EPYC and Xeon); two Intel hosts whose
 * microarchitecture is unknown share their vendor.
 */
START_TEST(test_groups_share_only_what_is_known)
{
	struct ud_profile *p[4] = { ud_profile_new(NULL), ud_profile_new(NULL),
				    ud_profile_new(host_from_text("{\"cpu\": {\"vendor\": \"GenuineIntel\"}}")),
				    ud_profile_new(host_from_text("{\"cpu\": {\"vendor\": \"GenuineIntel\"}}")) };
	const char *ps[4] = { "p.json", "q.json", "x1.json", "x2.json" };
	struct ud_err err = UD_ERR_INIT;
	struct ud_compare *c;

	for (int k = 0; k < 4; k++)
		scored(p[k], "w", 100 + k, 1, false);
	c = ud_compare_build(&(struct ud_compare_input){ (const struct ud_profile *const *)p, ps, 4, &diffutil_db, NULL },
			     &err);
	ck_assert_msg(c != NULL, "%s", err.msg);
	ck_assert_uint_eq(c->ngroups, 3);
	ck_assert_str_eq(c->groups[0].name, "CPU unknown");
	ck_assert_uint_eq(c->groups[0].nhosts, 1);
	ck_assert_uint_eq(c->groups[1].nhosts, 1);
	ck_assert_str_eq(c->groups[2].name, "GenuineIntel, microarchitecture unknown");
	ck_assert_uint_eq(c->groups[2].nhosts, 2);
	ud_compare_free(c);
	for (int k = 0; k < 4; k++)
		ud_profile_free(p[k]);
}
END_TEST

START_TEST(test_text_columns)
{
	char *s = render(UD_REPORT_TEXT), *line = strstr(s, "\nfp ");

	ck_assert_ptr_nonnull(line);
	/* name, then each host right-aligned in its column */
	ck_assert_ptr_nonnull(strstr(line, "1.00x    2.00x slower               —\n"));
	free(s);
}
END_TEST


/* The table's head line ("workload  #1 ...") of a compare text, into out. */
static void head_line(const char *text, char *out, size_t len)
{
	const char *at = strstr(text, "\nworkload");

	ck_assert_msg(at != NULL, "%s", text);
	snprintf(out, len, "%.*s", (int)strcspn(at + 1, "\n"), at + 1);
}

/*
 * Column heads keep hosts apart (issue 20: "#1 Xeon… Lake)  #2 Xeon… Lake)"):
 * what every label shares is dropped before a head is cut; where cutting
 * still makes two alike, the heads are the numbers alone (the hosts list
 * above the table names each in full).
 */
START_TEST(test_labels_stay_distinct)
{
	static const char *xeons[] = { "Intel Xeon Platinum 8375C (Ice Lake)", "Intel Xeon Platinum 8488C (Sapphire Rapids)",
				       "Intel Xeon Platinum 8480C (Sapphire Rapids)" };
	static const char *alike[] = { "abcdefghijklmnopq1", "abcdefghijklmnopq2", "abcdefghijklmnopq3" };
	const char *const *sets[] = { xeons, alike };
	const char *ps[3] = { "a.json", "b.json", "c.json" };

	for (int set = 0; set < 2; set++) {
		struct ud_profile *p[3];
		struct ud_err err = UD_ERR_INIT;
		struct ud_compare *c;
		char *t;

		for (int k = 0; k < 3; k++) {
			p[k] = ud_profile_new(host_from_text("{\"label\": \"%s\"}", sets[set][k]));
			scored(p[k], "w", 100 + k, 1, false);
		}
		c = ud_compare_build(&(struct ud_compare_input){ (const struct ud_profile *const *)p, ps, 3, &diffutil_db, NULL },
				     &err);
		ck_assert_msg(c != NULL, "%s", err.msg);
		t = render_of(c, UD_REPORT_TEXT);
		char head[512];

		head_line(t, head, sizeof(head));
		if (set == 0) {
			ck_assert_msg(strstr(head, "#1 8375C (Ice…") && strstr(head, "#2 8488C (Sap…") &&
					      strstr(head, "#3 8480C (Sap…"),
				      "%s", head);
			ck_assert_ptr_null(strstr(head, "Intel"));
		} else {
			ck_assert_msg(strstr(head, " #1") && strstr(head, " #3") && !strstr(head, "abcd"), "%s", head);
		}
		ck_assert_ptr_nonnull(strstr(t, set ? "  #1 abcdefghijklmnopq1  (a.json)" : "  #1 Intel Xeon Platinum 8375C"));
		free(t);
		ud_compare_free(c);
		for (int k = 0; k < 3; k++)
			ud_profile_free(p[k]);
	}
}
END_TEST

START_TEST(test_fewer_than_two)
{
	struct ud_compare_input in = { (const struct ud_profile *const *)prof, paths, 1, &diffutil_db, NULL };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_ptr_null(ud_compare_build(&in, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "at least two"));
}
END_TEST

/* One odd host among others is left out, named, with its reason; alone, it fails the comparison. */
START_TEST(test_nothing_in_common)
{
	struct ud_profile *other = host("D", "zen4", "6.1");
	const struct ud_profile *ps[] = { prof[0], other, prof[1] };
	const char *names[] = { "a.json", "d.json", "b.json" };
	struct ud_compare_input in = { ps, names, 3, &diffutil_db, NULL };
	struct ud_err err = UD_ERR_INIT;
	struct ud_compare *c;
	json_t *doc;

	scored(other, "unrelated", 1, 1, false);
	c = ud_compare_build(&in, &err);
	ck_assert_msg(c != NULL, "%s", err.msg);
	ck_assert_uint_eq(c->nhosts, 2);
	ck_assert_str_eq(c->hosts[1].path, "b.json");
	ck_assert_uint_eq(c->nskipped, 1);
	ck_assert_str_eq(c->skipped[0].path, "d.json");
	ck_assert_ptr_nonnull(strstr(c->skipped[0].reason.msg, "no workload in common"));
	doc = ud_compare_to_json(c);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(doc, "skipped"), 0), "path")),
			 "d.json");
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "profiles")), 2);
	json_decref(doc);
	ud_compare_free(c);
	in.n = 2; /* the baseline and the odd host alone */
	ck_assert_ptr_null(ud_compare_build(&in, &err));
	ck_assert_msg(strncmp(err.msg, "d.json: no workload in common", 29) == 0, "%s", err.msg);
	ud_profile_free(other);
}
END_TEST

/* A candidate whose file did not load is left out with the loader's reason; a baseline that did not is an error. */
START_TEST(test_unloaded_left_out)
{
	const struct ud_profile *ps[] = { prof[0], NULL, prof[1] };
	const char *names[] = { "a.json", "cut.json", "b.json" };
	struct ud_err why[3] = { UD_ERR_INIT, { "cut.json:1:80: premature end of input" }, UD_ERR_INIT };
	struct ud_compare_input in = { ps, names, 3, &diffutil_db, why };
	struct ud_err err = UD_ERR_INIT;
	struct ud_compare *c = ud_compare_build(&in, &err);

	ck_assert_msg(c != NULL, "%s", err.msg);
	ck_assert_uint_eq(c->nhosts, 2);
	ck_assert_str_eq(c->hosts[1].path, "b.json");
	ck_assert_uint_eq(c->nskipped, 1);
	ck_assert_str_eq(c->skipped[0].path, "cut.json");
	ck_assert_str_eq(c->skipped[0].reason.msg, "cut.json:1:80: premature end of input");
	ud_compare_free(c);
	ps[0] = NULL;
	ps[1] = prof[1];
	snprintf(why[0].msg, sizeof(why[0].msg), "a.json: not a uarchdiff profile");
	ck_assert_ptr_null(ud_compare_build(&in, &err));
	ck_assert_str_eq(err.msg, "a.json: not a uarchdiff profile");
}
END_TEST

/* Writes the three profiles into dir as a.json, b.json, c.json. */
static void save_all(const char *dir, char out[3][512])
{
	for (int k = 0; k < 3; k++) {
		struct ud_err err = UD_ERR_INIT;

		snprintf(out[k], 512, "%s/%s", dir, paths[k]);
		ck_assert_msg(ud_profile_save(prof[k], out[k], &err) == 0, "%s", err.msg);
	}
}

static void expect_one_line_error(char *const argv[], int status, const char *want)
{
	struct run_result r = run_capture(argv);

	ck_assert_msg(r.status == status, "exit %d, want %d; stderr: %s", r.status, status, r.err);
	ck_assert_msg(count_lines(r.err) == 1, "want one line, got: %s", r.err);
	ck_assert_msg(strncmp(r.err, "uarchdiff compare: ", 19) == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, want) != NULL, "'%s' lacks '%s'", r.err, want);
	ck_assert_str_eq(r.out, "");
	run_free(&r);
}

START_TEST(test_cli)
{
	char *dir = make_tempdir(), f[3][512], missing[600], html[600];
	char *one[] = { UD, "compare", f[0], NULL };
	char *gone[] = { UD, "compare", missing, f[0], f[1], NULL };
	char *gone_candidate[] = { UD, "compare", "-f", "json", f[0], missing, f[1], NULL };
	char *badf[] = { UD, "compare", "-f", "pdf", f[0], f[1], NULL };
	char *ok[] = { UD, "compare", "-f", "json", f[0], f[1], f[2], NULL };
	char *tofile[] = { UD, "compare", "-f", "html", "-o", html, f[0], f[1], f[2], NULL };
	struct run_result r;
	json_t *doc;

	save_all(dir, f);
	snprintf(missing, sizeof(missing), "%s/missing.json", dir);
	snprintf(html, sizeof(html), "%s/out.html", dir);
	expect_one_line_error(one, 2, "at least two profiles");
	expect_one_line_error(gone, 2, missing);
	expect_one_line_error(badf, 2, "pdf");
	/* A candidate that does not load is named on stderr and in the report; the others are compared. */
	r = run_capture(gone_candidate);
	ck_assert_msg(r.status == 0 && count_lines(r.err) == 1 && strstr(r.err, "warning: ") && strstr(r.err, missing),
		      "exit %d: %s", r.status, r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "diffs")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(doc, "skipped"), 0), "path")),
			 missing);
	json_decref(doc);
	run_free(&r);
	r = run_capture(ok);
	ck_assert_msg(r.status == 0, "%s", r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "diffs")), 2);
	json_decref(doc);
	run_free(&r);
	r = run_capture(tofile);
	ck_assert_msg(r.status == 0 && r.out[0] == 0, "%s", r.err);
	run_free(&r);
	free(read_text(html)); /* fails the test when it was not written */
	rm_tree(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_table_by_hand);
	tcase_add_test(tc, test_geomeans_by_hand);
	tcase_add_test(tc, test_environment_groups);
	tcase_add_test(tc, test_json);
	tcase_add_loop_test(tc, test_formats, UD_REPORT_TEXT, UD_REPORT_HTML + 1);
	tcase_add_test(tc, test_text_columns);
	tcase_add_test(tc, test_groups_share_only_what_is_known);
	tcase_add_test(tc, test_labels_stay_distinct);
	tcase_add_test(tc, test_fewer_than_two);
	tcase_add_test(tc, test_nothing_in_common);
	tcase_add_test(tc, test_unloaded_left_out);
	tcase_add_test(tc, test_cli);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
