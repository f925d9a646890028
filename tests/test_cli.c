/* The built binary, as a user runs it: outputs, exit statuses, bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "counting.h"
#include "testutil.h"

#define UD UD_BINARY

/* Bad input: exactly one line on stderr containing want, and the status. */
static void expect_one_line_error(char *const argv[], int status, const char *want)
{
	struct run_result r = run_capture(argv);

	ck_assert_msg(r.status == status, "exit %d, want %d; stderr: %s", r.status, status, r.err);
	ck_assert_msg(count_lines(r.err) == 1, "want one line, got: %s", r.err);
	ck_assert_msg(strstr(r.err, want) != NULL, "'%s' lacks '%s'", r.err, want);
	ck_assert_str_eq(r.out, "");
	run_free(&r);
}

START_TEST(test_stat_json_true)
{
	char *argv[] = { UD, "stat", "--json", "--", "true", NULL };
	struct run_result r = run_capture(argv);
	json_error_t jerr;
	json_t *root, *counters, *cycles, *insns, *tc;
	char why[256];

	ck_assert_int_eq(r.status, 0);
	root = json_loads(r.err, 0, &jerr);
	ck_assert_msg(root != NULL, "%s", jerr.text);
	ck_assert_str_eq(json_string_value(json_object_get(root, "schema")), "uarchdiff.profile/1");
	counters = json_object_get(json_array_get(json_object_get(root, "workloads"), 0), "counters");
	tc = json_object_get(counters, "task-clock");
	ck_assert_str_eq(json_string_value(json_object_get(tc, "status")), "counted");
	ck_assert(json_is_number(json_object_get(tc, "value")));
	cycles = json_object_get(counters, "cycles");
	insns = json_object_get(counters, "instructions");
	if (ud_pmu_probe(why, sizeof(why)) != UD_PMU_AVAILABLE) {
		/* never a made-up 0: not_supported, null value, the reason in words */
		ck_assert_str_eq(json_string_value(json_object_get(cycles, "status")), "not_supported");
		ck_assert(json_is_null(json_object_get(cycles, "value")));
		ck_assert_str_eq(json_string_value(json_object_get(insns, "status")), "not_supported");
		ck_assert_str_eq(json_string_value(json_object_get(insns, "reason")), why);
		ck_assert(json_is_null(json_object_get(json_object_get(json_array_get(json_object_get(root, "workloads"), 0),
								       "derived"), "ipc")));
	}
	ck_assert_uint_eq(json_object_size(counters), 12);
	json_decref(root);
	run_free(&r);
}
END_TEST

START_TEST(test_stat_passes_output_and_status_through)
{
	char *argv[] = { UD, "stat", "-e", "task-clock", "--", "/bin/sh", "-c", "echo hello; exit 7", NULL };
	struct run_result r = run_capture(argv);

	ck_assert_int_eq(r.status, 7);
	ck_assert_str_eq(r.out, "hello\n");
	ck_assert_ptr_nonnull(strstr(r.err, "Performance counter stats for '/bin/sh -c echo hello; exit 7'"));
	run_free(&r);
}
END_TEST

START_TEST(test_stat_profile_file)
{
	char *dir = make_tempdir(), path[4200];
	char *argv[] = { UD, "stat", "--json", "-r", "2", "-o", path, "--", UD_TESTCHILD, "pages", "500", NULL };
	struct run_result r;
	json_t *root, *w;
	json_error_t jerr;

	snprintf(path, sizeof(path), "%s/one.json", dir);
	r = run_capture(argv);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.err, "");
	root = json_load_file(path, 0, &jerr);
	ck_assert_ptr_nonnull(root);
	w = json_array_get(json_object_get(root, "workloads"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(w, "runs")), 2);
	ck_assert_uint_eq(json_array_size(json_object_get(json_object_get(w, "score"), "samples")), 2);
	ck_assert(json_number_value(json_object_get(json_object_get(json_object_get(w, "counters"), "page-faults"),
						    "value")) >= 500);
	json_decref(root);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_stat_csv)
{
	char *argv[] = { UD, "stat", "-x", ",", "-e", "task-clock,page-faults", "--", "true", NULL };
	struct run_result r = run_capture(argv);

	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(count_lines(r.err), 2);
	ck_assert_ptr_nonnull(strstr(r.err, ",msec,task-clock,"));
	ck_assert_ptr_nonnull(strstr(r.err, ",,page-faults,"));
	run_free(&r);
}
END_TEST

START_TEST(test_stat_unknown_event_goes_on)
{
	char *argv[] = { UD, "stat", "-x", ",", "-e", "task-clock,bogus-event", "--", "true", NULL };
	struct run_result r = run_capture(argv);

	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.err, "unknown event 'bogus-event'"));
	ck_assert_ptr_nonnull(strstr(r.err, "<not supported>,,bogus-event,"));
	run_free(&r);
}
END_TEST

START_TEST(test_stat_bad_input)
{
	char *empty[] = { UD, "stat", "-e", "", "--", "true", NULL };
	char *nocmd[] = { UD, "stat", "-e", "task-clock", NULL };
	char *missing[] = { UD, "stat", "--", "/nonexistent/cmd", NULL };
	char *zero[] = { UD, "stat", "-r", "0", "--", "true", NULL };
	char *both[] = { UD, "stat", "-x", ",", "--json", "--", "true", NULL };
	char *unwritable[] = { UD, "stat", "-o", "/nonexistent-dir/out.txt", "--", "true", NULL };

	expect_one_line_error(empty, 2, "empty event list");
	expect_one_line_error(nocmd, 2, "no command given");
	expect_one_line_error(missing, 2, "/nonexistent/cmd: command not found");
	expect_one_line_error(zero, 2, "-r needs a positive number of runs");
	expect_one_line_error(both, 2, "choose one");
	expect_one_line_error(unwritable, 2, "/nonexistent-dir/out.txt: cannot write");
}
END_TEST

START_TEST(test_stat_unwritable_output_runs_nothing)
{
	char *dir = make_tempdir(), marker[4200], script[4400];
	char *argv[] = { UD, "stat", "-o", "/nonexistent-dir/out.txt", "--", "/bin/sh", "-c", script, NULL };
	struct run_result r;
	struct stat st;

	snprintf(marker, sizeof(marker), "%s/ran", dir);
	snprintf(script, sizeof(script), "touch %s", marker);
	r = run_capture(argv);
	ck_assert_int_eq(r.status, 2);
	ck_assert_int_ne(stat(marker, &st), 0);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_host)
{
	char *json[] = { UD, "host", "--json", NULL };
	char *arm[] = { UD, "host", "--json", "--cpuinfo", UD_TEST_DATA "/cpuinfo/aws-m6g-graviton2.txt", NULL };
	char *text[] = { UD, "host", NULL };
	char *bad[] = { UD, "host", "--cpuinfo", "/nonexistent/cpuinfo", NULL };
	struct run_result r = run_capture(json);
	json_t *root;

	ck_assert_int_eq(r.status, 0);
	root = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(root);
	ck_assert(json_is_string(json_object_get(root, "kernel")));
	ck_assert(json_is_string(json_object_get(root, "pmu")));
	json_decref(root);
	run_free(&r);

	r = run_capture(arm);
	root = json_loads(r.out, 0, NULL);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "cpu"), "midr_part")), 0xd0c);
	json_decref(root);
	run_free(&r);

	r = run_capture(text);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "vulnerabilities:"));
	run_free(&r);

	expect_one_line_error(bad, 2, "/nonexistent/cpuinfo");
}
END_TEST

START_TEST(test_top_level)
{
	char *version[] = { UD, "--version", NULL };
	char *help[] = { UD, "--help", NULL };
	char *stat_help[] = { UD, "stat", "--help", NULL };
	char *unknown[] = { UD, "frobnicate", NULL };
	struct run_result r = run_capture(version);

	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "uarchdiff "));
	run_free(&r);
	r = run_capture(help);
	ck_assert_ptr_nonnull(strstr(r.out, "stat"));
	run_free(&r);
	r = run_capture(stat_help);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "usage: uarchdiff stat"));
	run_free(&r);
	expect_one_line_error(unknown, 2, "'frobnicate' is not a command");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_stat_json_true);
	tcase_add_test(tc, test_stat_passes_output_and_status_through);
	tcase_add_test(tc, test_stat_profile_file);
	tcase_add_test(tc, test_stat_csv);
	tcase_add_test(tc, test_stat_unknown_event_goes_on);
	tcase_add_test(tc, test_stat_bad_input);
	tcase_add_test(tc, test_stat_unwritable_output_runs_nothing);
	tcase_add_test(tc, test_host);
	tcase_add_test(tc, test_top_level);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
