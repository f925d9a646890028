/* The reports from the templates: content, charts, and escaping of profile strings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "import.h"
#include "report.h"
#include "testutil.h"

#define EVIL "<script>alert(1)</script>"

static json_t *diff;

static struct ud_profile *imported(const char *file, const char *label, const char *uarch)
{
	struct ud_import_opts o = { 0 };
	struct ud_profile *p = ud_profile_new(json_pack("{s:s s:{s:s} s:s}", "label", label, "cpu", "uarch", uarch,
							"kernel", label));
	struct ud_err err;

	ck_assert_msg(ud_import_file(p, file, &o, &err) == 0, "%s", err.msg);
	return p;
}

static void setup(void)
{
	struct ud_uarch_db db;
	struct ud_err err;
	struct ud_profile *a, *b;
	struct ud_diff_input in;
	struct ud_diff *model;

	ck_assert(ud_uarch_db_load(UD_EVENTS_DIR, &db, &err) == 0);
	a = imported(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", EVIL, "zen4");
	b = imported(UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", "E6 | *Turin*", "zen5");
	in = (struct ud_diff_input){ a, b, "e5.json", "e6.json", &db };
	model = ud_diff_build(&in, &err);
	ck_assert_msg(model != NULL, "%s", err.msg);
	diff = ud_diff_to_json(model);
	ck_assert_ptr_nonnull(diff);
	ud_diff_free(model);
	ud_profile_free(a);
	ud_profile_free(b);
	ud_uarch_db_free(&db);
}

static void teardown(void)
{
	json_decref(diff);
}

static char *report(enum ud_report_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct ud_err err;

	ck_assert_msg(ud_report_write(diff, f, UD_TEMPLATES_DIR, out, &err) == 0, "%s", err.msg);
	fclose(out);
	return buf;
}

START_TEST(test_text)
{
	char *t = report(UD_REPORT_TEXT);

	ck_assert_ptr_nonnull(strstr(t, ": 4.66x"));
	ck_assert_ptr_nonnull(strstr(t, "IPC (0.71 -> 2.70) carries"));
	ck_assert_ptr_nonnull(strstr(t, "  IPC                  3.8x     +87%"));
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

	ck_assert_ptr_null(strstr(m, "<script>"));
	ck_assert_ptr_nonnull(strstr(m, "&lt;script&gt;"));
	ck_assert_ptr_nonnull(strstr(m, "E6 \\| \\*Turin\\*")); /* no broken table, no emphasis */
	ck_assert_ptr_nonnull(strstr(m, "| IPC | 3.8x | +87% |"));
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

START_TEST(test_json_round_trips_the_label)
{
	char *j = report(UD_REPORT_JSON);
	json_t *back = json_loads(j, 0, NULL);

	ck_assert_ptr_nonnull(back);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(back, "baseline"), "label")), EVIL);
	json_decref(back);
	free(j);
}
END_TEST

START_TEST(test_missing_template)
{
	struct ud_err err;

	ck_assert_int_eq(ud_report_write(diff, UD_REPORT_HTML, "/nonexistent", stdout, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/report.html"));
}
END_TEST

/* Factor and metric rows carry the labels of the enums' one table, in the enums' order. */
START_TEST(test_labels_from_the_tables)
{
	json_t *view = ud_report_view(diff), *w = json_array_get(json_object_get(view, "workloads"), 0);
	const json_t *factors = json_object_get(w, "factors"), *metrics = json_object_get(w, "metrics");
	const json_t *bars = json_object_get(json_object_get(w, "bars"), "rows");
	char *t = report(UD_REPORT_TEXT);

	ck_assert_uint_eq(json_array_size(factors), UD_FACTOR_COUNT);
	for (int f = 0; f < UD_FACTOR_COUNT; f++)
		ck_assert_str_eq(json_string_value(json_object_get(json_array_get(factors, (size_t)f), "name")),
				 ud_factor_label((enum ud_factor)f));
	ck_assert_uint_eq(json_array_size(metrics), UD_METRIC_COUNT);
	for (int m = 0; m < UD_METRIC_COUNT; m++) {
		ck_assert_str_eq(json_string_value(json_object_get(json_array_get(metrics, (size_t)m), "name")),
				 ud_metric_label((enum ud_metric)m));
		ck_assert_ptr_nonnull(strstr(t, ud_metric_label((enum ud_metric)m)));
	}
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(bars, 1), "label")),
			 ud_metric_label(UD_M_BRANCH_MISS_RATE));
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(bars, 1), "a_text")), "10.97%");
	ck_assert_ptr_nonnull(strstr(t, "  path length"));
	free(t);
	json_decref(view);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_markdown_escapes);
	tcase_add_test(tc, test_html_is_self_contained_with_charts);
	tcase_add_test(tc, test_json_round_trips_the_label);
	tcase_add_test(tc, test_missing_template);
	tcase_add_test(tc, test_labels_from_the_tables);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
