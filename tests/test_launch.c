/*
 * Counting a command from its exec, with software events: the counts are
 * real, so the assertions are lower bounds set by the child's known work.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
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

/*
 * A tiny command: the fork-to-exec gap and our own set-up are not in its
 * counts.  Held against a reference counted in the same run, the same
 * program touching 20,000 pages more, not against a fixed bound: the
 * program's start-up varies by build and went past 1,000 faults once.
 */
START_TEST(test_counting_starts_at_exec)
{
	char *tiny[] = { UD_TESTCHILD, "exit", "0", NULL };
	char *pages[] = { UD_TESTCHILD, "pages", "20000", NULL };
	struct ud_count out[NSW], ref[NSW];
	struct ud_launch_result res;
	struct ud_err err;

	ck_assert_int_eq(launch(tiny, out, &res, &err), UD_LAUNCH_OK);
	ck_assert_int_eq(launch(pages, ref, &res, &err), UD_LAUNCH_OK);
	ck_assert_double_gt(out[PF].value, 0);
	/* the 20,000 pages are the difference, and the tiny one a small part of that: nothing of ours rode along */
	ck_assert_double_ge(ref[PF].value - out[PF].value, 19000);
	ck_assert_double_lt(out[PF].value, (ref[PF].value - out[PF].value) / 4);
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

struct ticks {
	int n;
	uint64_t at[64], len[64];
	double faults;
};

static void count_tick(void *ctx, const struct ud_count *deltas, uint64_t at_ns, uint64_t length_ns)
{
	struct ticks *t = ctx;

	if (t->n < 64) {
		t->at[t->n] = at_ns;
		t->len[t->n] = length_ns;
	}
	t->n++;
	if (deltas[PF].status == UD_COUNTED)
		t->faults += deltas[PF].value;
}

static void resolve_sw(struct ud_event *ev)
{
	for (int i = 0; i < NSW; i++)
		ud_event_resolve(sw_names[i], &ev[i]);
}

/* -I: intervals of the asked length, whose deltas add up to the totals. */
START_TEST(test_intervals_add_up)
{
	char *argv[] = { "/bin/sh", "-c", "sleep 0.25; exec " UD_TESTCHILD " pages 1000", NULL };
	struct ticks t = { 0 };
	struct ud_session s = { .argv = argv, .interval_ns = 100000000ULL, .on_interval = count_tick, .ctx = &t };
	struct ud_event ev[NSW];
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err = UD_ERR_INIT;

	resolve_sw(ev);
	ck_assert_int_eq(ud_launch_session(&s, ev, NSW, out, &res, &err), UD_LAUNCH_OK);
	/* at least 0.1, 0.2 and the last, shorter one; never early, under any load */
	ck_assert_int_ge(t.n, 3);
	for (int i = 0; i < t.n - 1 && i < 64; i++)
		ck_assert_uint_ge(t.len[i], 100000000ULL);
	ck_assert_uint_ge(t.at[0], 100000000ULL);
	ck_assert_double_eq(t.faults, out[PF].value);
	ck_assert_double_ge(out[PF].value, 1000);
}
END_TEST

/* --timeout: the command gets SIGTERM, and what it counted until then is kept. */
START_TEST(test_timeout_stops_the_command)
{
	char *argv[] = { UD_TESTCHILD, "loop", "100000000000", NULL };
	struct ud_session s = { .argv = argv, .timeout_ns = 200000000ULL };
	struct ud_event ev[NSW];
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err = UD_ERR_INIT;

	resolve_sw(ev);
	ck_assert_int_eq(ud_launch_session(&s, ev, NSW, out, &res, &err), UD_LAUNCH_OK);
	ck_assert(res.timed_out && res.ran_command);
	ck_assert_int_eq(ud_exit_status(res.wait_status), 128 + SIGTERM);
	ck_assert_uint_ge(res.elapsed_ns, 200000000ULL);
	ck_assert_int_eq(out[TC].status, UD_COUNTED);
	ck_assert_double_gt(out[TC].value, 0);
}
END_TEST

/* -D: counting starts after the delay; the elapsed time is what was counted over. */
START_TEST(test_delay_leaves_the_start_uncounted)
{
	/* a second for 3,000 pages that take milliseconds: a loaded host is late by far less */
	char *argv[] = { "/bin/sh", "-c", UD_TESTCHILD " pages 3000; sleep 1.5", NULL };
	struct ud_session s = { .argv = argv, .delay_ns = 1000000000ULL };
	struct ud_event ev[NSW];
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err = UD_ERR_INIT;

	uint64_t before, after;

	resolve_sw(ev);
	before = ud_now_ns();
	ck_assert_int_eq(ud_launch_session(&s, ev, NSW, out, &res, &err), UD_LAUNCH_OK);
	after = ud_now_ns();
	/* the 3,000 pages are touched in the first milliseconds, long before counting starts */
	ck_assert_double_lt(out[PF].value, 1000);
	/*
	 * Counted over what followed the delay, whatever the load: no bound in
	 * milliseconds (a busy host wakes the delay late: 82 ms of the 300 ms
	 * sleep were left once under ASan beside other builds), only that the
	 * count began at least the delay after the session did.
	 */
	ck_assert_uint_gt(res.elapsed_ns, 0);
	ck_assert_uint_le(res.elapsed_ns + s.delay_ns, after - before);
}
END_TEST

/* -p: a task counted from outside; counting ends when it exits. */
START_TEST(test_attached_task_ends_with_it)
{
	char *argv[] = { UD_TESTCHILD, "loop", "100000000000", NULL };
	pid_t pid = fork();
	struct ud_count_slot slot = { 0, -1 };
	struct ud_session s = { .slots = &slot, .nslots = 1, .tasks = true };
	struct ud_event ev[NSW];
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err = UD_ERR_INIT;
	pid_t killer;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	slot.pid = pid;
	killer = fork();
	if (killer == 0) {
		usleep(300000);
		kill(pid, SIGKILL);
		_exit(0);
	}
	resolve_sw(ev);
	ck_assert_int_eq(ud_launch_session(&s, ev, NSW, out, &res, &err), UD_LAUNCH_OK);
	waitpid(killer, NULL, 0);
	waitpid(pid, NULL, 0);
	ck_assert(!res.ran_command && !res.timed_out);
	ck_assert_int_eq(res.stop_signal, 0);
	ck_assert_int_eq(out[TC].status, UD_COUNTED);
	ck_assert_double_gt(out[TC].value, 0);
}
END_TEST

/*
 * Without a command, SIGINT ends counting, and the counts are read all the
 * same.  The elapsed time is held only to the call's own span: a lower bound
 * from the killer's sleep fails when a loaded host delays this process between
 * the fork and the session's start (seen at load 17 on the 2-vCPU VM).
 * SIGINT is held blocked until the session waits, so that a killer early
 * on a loaded host meets the session's handler, not the test's default.
 */
START_TEST(test_signal_ends_counting_of_tasks)
{
	sigset_t intr, old;
	struct ud_count_slot slot = { getpid(), -1 };
	struct ud_session s = { .slots = &slot, .nslots = 1, .tasks = true };
	struct ud_event ev[NSW];
	struct ud_count out[NSW];
	struct ud_launch_result res;
	struct ud_err err = UD_ERR_INIT;
	uint64_t before, after;
	pid_t me = getpid(), killer;

	sigemptyset(&intr);
	sigaddset(&intr, SIGINT);
	sigprocmask(SIG_BLOCK, &intr, &old);
	killer = fork();
	if (killer == 0) {
		usleep(200000);
		kill(me, SIGINT);
		_exit(0);
	}
	resolve_sw(ev);
	before = ud_now_ns();
	ck_assert_int_eq(ud_launch_session(&s, ev, NSW, out, &res, &err), UD_LAUNCH_OK);
	after = ud_now_ns();
	waitpid(killer, NULL, 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	ck_assert_int_eq(res.stop_signal, SIGINT);
	ck_assert_uint_gt(res.elapsed_ns, 0);
	ck_assert_uint_le(res.elapsed_ns, after - before);
	ck_assert_int_ne(out[TC].status, UD_NOT_SUPPORTED);
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
	tcase_add_test(tc, test_intervals_add_up);
	tcase_add_test(tc, test_timeout_stops_the_command);
	tcase_add_test(tc, test_delay_leaves_the_start_uncounted);
	tcase_add_test(tc, test_attached_task_ends_with_it);
	tcase_add_test(tc, test_signal_ends_counting_of_tasks);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
