/*
 * SPEC §4 on the numbers of the E5 (Genoa) fstime fixture, checked against
 * perf's own comments there: 0.71 insn per cycle, 10.97% of all branches,
 * 12.96% of all L1-dcache accesses, 2.853 GHz, 0.746 CPUs utilized.
 */
#include <math.h>

#include "derived.h"
#include "testutil.h"

static void put(struct ud_workload *w, const char *name, double v)
{
	struct ud_counter *c = ud_workload_add_counter(w, name);

	c->status = UD_COUNTED;
	c->value = v;
}

START_TEST(test_e5_fixture_metrics)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "fstime");

	put(w, "task-clock", 34021.81e6);
	put(w, "cycles", 97062243821);
	put(w, "stalled-cycles-frontend", 56777056732);
	put(w, "instructions", 68912885650);
	put(w, "branches", 15035010502);
	put(w, "branch-misses", 1649850885);
	put(w, "L1-dcache-loads", 26596574472);
	put(w, "L1-dcache-load-misses", 3447196065);
	w->elapsed_ns = 45.582058193e9;
	w->user_ns = 7.321303e9;
	w->sys_ns = 24.381246e9;

	ck_assert_double_eq_tol(ud_metric(w, UD_M_IPC), 0.71, 0.005);
	ck_assert_double_eq_tol(ud_metric(w, UD_M_BRANCH_MISS_RATE) * 100, 10.97, 0.005);
	ck_assert_double_eq_tol(ud_metric(w, UD_M_L1D_MISS_RATE) * 100, 12.96, 0.005);
	ck_assert_double_eq_tol(ud_metric(w, UD_M_GHZ), 2.853, 0.0005);
	ck_assert_double_eq_tol(ud_metric(w, UD_M_CPUS_UTILIZED), 0.746, 0.0005);
	ck_assert_double_eq_tol(ud_metric(w, UD_M_FRONTEND_STALL_RATE) * 100, 58.50, 0.005);
	ck_assert_double_eq_tol(ud_metric(w, UD_M_BRANCH_MPKI), 1000.0 * 1649850885 / 68912885650, 1e-9);
	ck_assert_double_eq_tol(ud_metric(w, UD_M_L1D_MPKI), 1000.0 * 3447196065 / 68912885650, 1e-9);
	ck_assert_double_eq_tol(ud_metric(w, UD_M_CPI), 97062243821.0 / 68912885650, 1e-12);
	ck_assert_double_eq_tol(ud_metric(w, UD_M_SYS_SHARE), 24.381246 / (24.381246 + 7.321303), 1e-12);
	/* no stalled-cycles-backend in the fixture: null, not 0 */
	ck_assert(isnan(ud_metric(w, UD_M_BACKEND_STALL_RATE)));
	ud_profile_free(p);
}
END_TEST

START_TEST(test_missing_or_zero_inputs_are_null)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "x");
	struct ud_counter *c = ud_workload_add_counter(w, "cycles");
	struct ud_jw *jw;
	json_t *j;

	c->status = UD_NOT_SUPPORTED;
	put(w, "instructions", 100);
	put(w, "branches", 0);
	put(w, "branch-misses", 0);
	ck_assert(isnan(ud_metric(w, UD_M_IPC)));
	ck_assert(isnan(ud_metric(w, UD_M_BRANCH_MISS_RATE))); /* 0/0 */
	ck_assert_double_eq(ud_metric(w, UD_M_BRANCH_MPKI), 0);
	ck_assert(isnan(ud_metric(w, UD_M_CPUS_UTILIZED)));
	jw = ud_jw_tree();
	ud_derived_emit(jw, NULL, w);
	ck_assert_int_eq(ud_jw_finish(jw, &j), 0);
	ck_assert(json_is_null(json_object_get(j, "ipc")));
	ck_assert_uint_eq(json_object_size(j), UD_METRIC_COUNT);
	json_decref(j);
	ud_profile_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("derived");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_e5_fixture_metrics);
	tcase_add_test(tc, test_missing_or_zero_inputs_are_null);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
