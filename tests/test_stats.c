#include <math.h>

#include "stats.h"
#include "testutil.h"

START_TEST(test_mean_median_spread)
{
	const double x[] = { 4, 1, 3, 2 };

	ck_assert_double_eq_tol(ud_mean(x, 4), 2.5, 1e-12);
	ck_assert_double_eq_tol(ud_median(x, 4), 2.5, 1e-12);
	ck_assert_double_eq_tol(ud_median(x, 3), 3, 1e-12);
	ck_assert_double_eq(ud_min(x, 4), 1);
	ck_assert_double_eq(ud_max(x, 4), 4);
	/* sample stddev of 1..4 = sqrt(5/3) */
	ck_assert_double_eq_tol(ud_stddev(x, 4), sqrt(5.0 / 3.0), 1e-12);
	ck_assert_double_eq_tol(ud_rel_stderr(x, 4), sqrt(5.0 / 3.0) / 2 / 2.5, 1e-12);
	/* t(0.975, 3) = 3.182 */
	ck_assert_double_eq_tol(ud_ci95_rel(x, 4), 3.182 * sqrt(5.0 / 3.0) / 2 / 2.5, 1e-12);
}
END_TEST

START_TEST(test_degenerate_inputs_are_nan)
{
	const double one[] = { 7 };

	ck_assert(isnan(ud_mean(one, 0)));
	ck_assert(isnan(ud_median(one, 0)));
	ck_assert(isnan(ud_stddev(one, 1)));
	ck_assert(isnan(ud_rel_stderr(one, 1)));
	ck_assert(isnan(ud_ci95_rel(one, 1)));
	ck_assert(isnan(ud_min(one, 0)));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_mean_median_spread);
	tcase_add_test(tc, test_degenerate_inputs_are_nan);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
