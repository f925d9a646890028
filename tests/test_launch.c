/*
 * Counting a command from its exec, with software events: the counts are
 * real, so the assertions are lower bounds set by the child's known work.
 */
#include <signal.h>
#include <string.h>

#include "launch.h"
#include "testutil.h"

static const char *const sw_names[] = { "page-faults", "context-switches", "task-clock" };
enum { PF, CS, TC, NSW };

static int launch(char *const argv[], struct ud_count *out, struct ud_launch_result *res, struct ud_err *err)
{
	struct ud_event ev[NSW];

	for (int i = 0; i < NSW; i++)
		ud_event_resolve(sw_names[i], &ev[i]);
	return ud_launch_counted(argv, ev, NSW, out, res, err);
}

START_TEST(test_page_faults_of_touched_pages)
{
	char *argv[] = { UD_TESTCHILD, "pages", "2000", NULL };
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err;

	ck_assert_int_eq(launch(argv, out, &res, &err), UD_LAUNCH_OK);
	ck_assert_int_eq(ud_exit_status(res.wait_status), 0);
	ck_assert_int_eq(out[PF].status, UD_COUNTED);
	ck_assert_double_ge(out[PF].value, 2000);
	ck_assert_int_eq(out[TC].status, UD_COUNTED);
	ck_assert_double_gt(out[TC].value, 0);
	ck_assert_uint_gt(res.elapsed_ns, 0);
}
END_TEST

START_TEST(test_context_switches_of_pingpong)
{
	char *argv[] = { UD_TESTCHILD, "pingpong", "500", NULL };
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err;

	ck_assert_int_eq(launch(argv, out, &res, &err), UD_LAUNCH_OK);
	ck_assert_int_eq(out[CS].status, UD_COUNTED);
	/* each round trip blocks both sides once: >= 500 switches, counted across the fork */
	ck_assert_double_ge(out[CS].value, 500);
}
END_TEST

START_TEST(test_work_in_forked_child_is_counted)
{
	char *argv[] = { UD_TESTCHILD, "forkpages", "3000", NULL };
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err;

	ck_assert_int_eq(launch(argv, out, &res, &err), UD_LAUNCH_OK);
	ck_assert_double_ge(out[PF].value, 3000);
}
END_TEST

START_TEST(test_group_read_includes_forked_children)
{
	/* One group, inherited: the group read must fold in the child's counts. */
	char *argv[] = { UD_TESTCHILD, "forkpages", "3000", NULL };
	struct ud_event ev[NSW];
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err;

	for (int i = 0; i < NSW; i++) {
		ud_event_resolve(sw_names[NSW - 1 - i], &ev[i]); /* task-clock leads */
		ev[i].group = 0;
	}
	ck_assert_int_eq(ud_launch_counted(argv, ev, NSW, out, &res, &err), UD_LAUNCH_OK);
	for (int i = 0; i < NSW; i++)
		ck_assert_int_eq(out[i].status, UD_COUNTED);
	ck_assert_double_ge(out[2].value, 3000); /* page-faults */
}
END_TEST

START_TEST(test_counting_starts_at_exec)
{
	/* A tiny command: the fork-to-exec gap and our own set-up are not in its counts. */
	char *argv[] = { UD_TESTCHILD, "exit", "0", NULL };
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err;

	ck_assert_int_eq(launch(argv, out, &res, &err), UD_LAUNCH_OK);
	ck_assert_double_lt(out[PF].value, 1000);
}
END_TEST

START_TEST(test_exit_status_and_signal)
{
	char *exit3[] = { UD_TESTCHILD, "exit", "3", NULL };
	char *killed[] = { UD_TESTCHILD, "kill", "15", NULL };
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err;

	ck_assert_int_eq(launch(exit3, out, &res, &err), UD_LAUNCH_OK);
	ck_assert_int_eq(ud_exit_status(res.wait_status), 3);
	ck_assert_int_eq(launch(killed, out, &res, &err), UD_LAUNCH_OK);
	ck_assert_int_eq(ud_exit_status(res.wait_status), 128 + SIGTERM);
}
END_TEST

START_TEST(test_missing_command)
{
	char *argv[] = { "/nonexistent/command-xyz", NULL };
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err;

	ck_assert_int_eq(launch(argv, out, &res, &err), UD_LAUNCH_EXEC_FAILED);
	ck_assert_str_eq(err.msg, "/nonexistent/command-xyz: command not found");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("launch");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_page_faults_of_touched_pages);
	tcase_add_test(tc, test_context_switches_of_pingpong);
	tcase_add_test(tc, test_work_in_forked_child_is_counted);
	tcase_add_test(tc, test_group_read_includes_forked_children);
	tcase_add_test(tc, test_counting_starts_at_exec);
	tcase_add_test(tc, test_exit_status_and_signal);
	tcase_add_test(tc, test_missing_command);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
