/*
 * Hardware counters, where this host has a PMU.  Elsewhere the whole test
 * reports itself skipped (exit 77, CTest's SKIP_RETURN_CODE) with the
 * reason, rather than passing silently.
 */
#include <stdio.h>
#include <stdlib.h>

#include "counting.h"
#include "launch.h"
#include "runner.h"
#include "testutil.h"

#define LOOP_ITERATIONS 10000000L

START_TEST(test_known_loop_counts_instructions)
{
	char iters[32];
	char *argv[] = { UD_TESTCHILD, "loop", iters, NULL };
	const char *names[] = { "instructions", "cycles" };
	struct ud_event ev[2];
	struct ud_count out[2];
	struct ud_launch_result res;
	struct ud_err err;

	snprintf(iters, sizeof(iters), "%ld", LOOP_ITERATIONS);
	for (int i = 0; i < 2; i++) {
		ud_event_resolve(names[i], &ev[i]);
		ev[i].group = 0;
		ev[i].attr.exclude_kernel = 1; /* the loop is user code; paranoid 2 allows this */
	}
	ck_assert_int_eq(ud_launch_counted(argv, ev, 2, out, &res, &err), UD_LAUNCH_OK);
	ck_assert_int_eq(out[0].status, UD_COUNTED);
	ck_assert_int_eq(out[1].status, UD_COUNTED);
	/* 4 instructions an iteration; process start-up adds well under 1% at this length */
	ck_assert_double_ge(out[0].value, 4.0 * LOOP_ITERATIONS);
	ck_assert_double_le(out[0].value, 4.0 * LOOP_ITERATIONS * 1.01);
	/* one group: one schedule, consistent times, a plausible IPC */
	ck_assert_uint_eq(out[0].enabled_ns, out[1].enabled_ns);
	ck_assert_uint_eq(out[0].running_ns, out[1].running_ns);
	ck_assert_double_gt(out[0].value / out[1].value, 0.1);
	ck_assert_double_lt(out[0].value / out[1].value, 10);
}
END_TEST

/* The teaching kernels show their effect in the counters where there are counters. */
static double rate(const struct ud_workload_def *def, const char *num, const char *den)
{
	const char *names[] = { num, den };
	struct ud_event ev[2];
	struct ud_runner_opts o = { .target_s = 0.05, .samples = 1, .timeout_s = 300, .ev = ev, .nev = 2 };
	struct ud_run_result r;
	double v;

	for (int i = 0; i < 2; i++) {
		ud_event_resolve(names[i], &ev[i]);
		ev[i].group = 0;
	}
	ud_run_workload(def, &o, &r);
	ck_assert_msg(r.outcome == UD_OUT_OK, "%s", r.detail.msg);
	ck_assert_int_eq(r.samples[0].counts[0].status, UD_COUNTED);
	v = r.samples[0].counts[0].value / r.samples[0].counts[1].value;
	ud_run_result_free(&r);
	return v;
}

START_TEST(test_branch_kernels)
{
	double sorted = rate(&wl_branch_sorted, "branch-misses", "branches");
	double random = rate(&wl_branch_random, "branch-misses", "branches");

	ck_assert_msg(random > 10 * sorted && random > 0.05, "miss rate sorted %g, random %g", sorted, random);
}
END_TEST

START_TEST(test_sweep_kernels)
{
	double l1 = rate(&wl_sweep_l1, "L1-dcache-load-misses", "L1-dcache-loads");
	double l2 = rate(&wl_sweep_l2, "L1-dcache-load-misses", "L1-dcache-loads");

	ck_assert_msg(l2 > 5 * l1, "L1d miss rate within L1 %g, past it %g", l1, l2);
}
END_TEST

int main(void)
{
	char why[256];
	Suite *s;
	TCase *tc;

	if (ud_pmu_probe(why, sizeof(why)) != UD_PMU_AVAILABLE) {
		printf("SKIPPED: hardware counter tests: %s\n", why);
		return 77;
	}
#if !defined(__x86_64__)
	printf("SKIPPED: the known-length loop is written for x86-64\n");
	return 77;
#endif
	s = suite_create("hardware");
	tc = tcase_create("core");
	tcase_add_test(tc, test_known_loop_counts_instructions);
	tcase_add_test(tc, test_branch_kernels);
	tcase_add_test(tc, test_sweep_kernels);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
