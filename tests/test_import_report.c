/*
 * perf report --stdio imported as hotspots: the real outputs in
 * tests/data/perf-report (see its README), the Children/Self layout, joining
 * a perf stat workload, and input that is not a report or is cut short.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "profile.h"
#include "testutil.h"

#define REPORTS UD_TEST_DATA "/perf-report/"

static struct ud_profile *import_one(const char *path, const char *workload)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_import_opts o = { .format = UD_FMT_AUTO, .workload = workload };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_msg(ud_import_file(p, path, &o, &err) == 0, "%s", err.msg);
	return p;
}

static double sum_shares(const struct ud_hotspots *h)
{
	double s = 0;

	for (size_t i = 0; i < h->nrows; i++)
		s += h->rows[i].share;
	return s;
}

START_TEST(test_plain_report)
{
	struct ud_profile *p = import_one(REPORTS "vm-syscall-cpu-clock.txt", NULL);
	const struct ud_hotspots *h = p->workloads[0].hotspots;

	ck_assert_str_eq(p->workloads[0].name, "uarchdiff"); /* the command perf names */
	ck_assert_str_eq(h->sampling.event, "cpu-clock");
	ck_assert_double_eq(h->sampling.samples, 747);
	ck_assert_str_eq(h->rows[0].symbol, "do_syscall_64");
	ck_assert_str_eq(h->rows[0].dso, "[kernel.kallsyms]");
	ck_assert_int_eq(h->rows[0].mode, UD_MODE_KERNEL);
	ck_assert_double_eq_tol(h->rows[0].share, 0.3735, 1e-9);
	ck_assert_double_eq(h->rows[0].samples, 279);
	ck_assert_str_eq(h->rows[h->nrows - 1].symbol, "[other]");
	ck_assert_double_eq_tol(sum_shares(h), 1, 1e-9);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_unresolved_and_rounding)
{
	struct ud_profile *p = import_one(REPORTS "vm-ls-gzip-commands.txt", "mix");
	const struct ud_hotspots *h = p->workloads[0].hotspots;

	ck_assert_str_eq(p->workloads[0].name, "mix");
	/* perf's bare address becomes the project's unknown form, with the file it is in. */
	ck_assert_str_eq(h->rows[0].symbol, "[unknown] gzip+0x4330");
	ck_assert_double_eq_tol(sum_shares(h), 1, 1e-9); /* printed percentages sum past 100% */
	ud_profile_free(p);
}
END_TEST

START_TEST(test_children_self_takes_self)
{
	struct ud_profile *p = import_one(REPORTS "vm-ls-callgraph.txt", NULL);
	const struct ud_hotspots *h = p->workloads[0].hotspots;

	/* entry_SYSCALL_64_after_hwframe leads by Children (75%) with no Self: not a hotspot. */
	for (size_t i = 0; i < h->nrows; i++)
		ck_assert_str_ne(h->rows[i].symbol, "entry_SYSCALL_64_after_hwframe");
	ck_assert_str_eq(h->rows[0].symbol, "iowrite16");
	ck_assert_double_eq_tol(h->rows[0].share, 0.0732, 1e-9);
	ck_assert_double_eq_tol(sum_shares(h), 1, 1e-9);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_joins_perf_stat_workload)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_import_opts o = { .format = UD_FMT_AUTO, .workload = "fstime" };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_import_file(p, UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", &o, &err), 0);
	ck_assert_msg(ud_import_file(p, REPORTS "vm-syscall-cpu-clock.txt", &o, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_ptr_nonnull(p->workloads[0].hotspots);
	ck_assert_uint_gt(p->workloads[0].ncounters, 0);
	ud_profile_free(p);
}
END_TEST

static void expect_error(const char *text, enum ud_import_format f, const char *want)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_import_opts o = { .format = f };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_ne(ud_import_buffer(p, text, strlen(text), "r.txt", &o, &err), 0);
	ck_assert_msg(strstr(err.msg, want) != NULL, "'%s' lacks '%s'", err.msg, want);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	ck_assert_uint_eq(p->nworkloads, 0);
	ud_profile_free(p);
}

START_TEST(test_not_a_report)
{
	char *stat = read_text(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt");

	expect_error(stat, UD_FMT_PERF_REPORT, "r.txt: no '# Overhead ... Symbol' table");
	expect_error("# Samples: 10  of event 'cpu-clock'\n# Overhead  Command  Shared Object  Symbol\n"
		     "# ........  .......  .............  ......\n#\n",
		     UD_FMT_AUTO, "r.txt:2: the perf report table has no rows");
	expect_error("# Overhead  Command  Shared Object  Symbol\n# ........  .......  .............  ......\n"
		     "   250.00%  x        x              [.] f\n",
		     UD_FMT_AUTO, "r.txt:3: overhead 250.00% is not a percentage");
	free(stat);
}
END_TEST

START_TEST(test_cut_short_keeps_rows_before)
{
	char *text = read_text(REPORTS "vm-syscall-cpu-clock.txt");
	char *cut = strstr(text, "alloc_fd");
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_import_opts o = { .format = UD_FMT_AUTO };
	struct ud_err err = UD_ERR_INIT;
	const struct ud_hotspots *h;

	ck_assert_ptr_nonnull(cut);
	ck_assert_int_eq(ud_import_detect(text, strlen(text)), UD_FMT_PERF_REPORT);
	/* Cut inside the third row's symbol: the two rows before it. */
	ck_assert_msg(ud_import_buffer(p, text, (size_t)(cut - text) + 4, "cut.txt", &o, &err) == 0, "%s", err.msg);
	h = p->workloads[0].hotspots;
	ck_assert_str_eq(h->rows[0].symbol, "do_syscall_64");
	for (size_t i = 0; i < h->nrows; i++) /* the cut name is not a symbol */
		ck_assert_str_ne(h->rows[i].symbol, "allo");
	ck_assert_double_eq_tol(sum_shares(h), 1, 1e-9);
	ud_profile_free(p);
	free(text);
}
END_TEST

START_TEST(test_cli_not_a_report_one_line)
{
	char *argv[] = { UD_BINARY, "import", "--format", "perf-report", "-o", "/dev/null",
			 UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	struct run_result r = run_capture(argv);

	ck_assert_int_eq(r.status, 2);
	ck_assert_int_eq(count_lines(r.err), 1);
	ck_assert_ptr_nonnull(strstr(r.err, "not 'perf report --stdio' output"));
	run_free(&r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("import_report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_plain_report);
	tcase_add_test(tc, test_unresolved_and_rounding);
	tcase_add_test(tc, test_children_self_takes_self);
	tcase_add_test(tc, test_joins_perf_stat_workload);
	tcase_add_test(tc, test_not_a_report);
	tcase_add_test(tc, test_cut_short_keeps_rows_before);
	tcase_add_test(tc, test_cli_not_a_report_one_line);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
