#include <math.h>
#include <stdlib.h>

#include "stats.h"
#include "testutil.h"

START_TEST(test_geomean)
{
	const double x[] = { 2, 8 }, y[] = { 4.66 }, inverse[] = { 0.5, 0.125 }, bad[] = { 2, 0 };

	ck_assert_double_eq_tol(ud_geomean(x, 2), 4, 1e-12);
	ck_assert_double_eq_tol(ud_geomean(y, 1), 4.66, 1e-12);
	/* Swapping the hosts inverts the mean exactly. */
	ck_assert_double_eq_tol(ud_geomean(inverse, 2), 0.25, 1e-12);
	ck_assert(isnan(ud_geomean(x, 0)));
	ck_assert(isnan(ud_geomean(bad, 2)));
}
END_TEST

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

/* The median's interval from order statistics: ranks from the binomial, an outlier ignored. */
START_TEST(test_median_interval)
{
	const double six[] = { 6, 1, 5, 2, 4, 3 }, nine[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	double twenty[20], outlier[11];

	/* 6 samples: P(B <= 0) = 1/64 <= 2.5%, so x(1)..x(6), covering 96.9% */
	ck_assert_double_eq_tol(ud_ci95_median_rel(six, 6), (6.0 - 1) / 2 / 3.5, 1e-12);
	/* 9: P(B <= 1) = 10/512 = 1.95%: x(2)..x(8) */
	ck_assert_double_eq_tol(ud_ci95_median_rel(nine, 9), (8.0 - 2) / 2 / 5, 1e-12);
	/* 20: P(B <= 5) = 2.07%, P(B <= 6) = 5.77%: x(6)..x(15) */
	for (int i = 0; i < 20; i++)
		twenty[i] = i + 1;
	ck_assert_double_eq_tol(ud_ci95_median_rel(twenty, 20), (15.0 - 6) / 2 / 10.5, 1e-12);
	/* one sample ten times the rest widens the mean's interval, not the median's */
	for (int i = 0; i < 11; i++)
		outlier[i] = i == 5 ? 1000 : 100;
	ck_assert_double_eq(ud_ci95_median_rel(outlier, 11), 0);
	ck_assert_double_gt(ud_ci95_rel(outlier, 11), 0.5);
	/* fewer than 6: the range */
	ck_assert_double_eq_tol(ud_ci95_median_rel(nine, 5), (5.0 - 1) / 2 / 3, 1e-12);
	ck_assert(isnan(ud_ci95_median_rel(nine, 1)));
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

START_TEST(test_mann_whitney)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 }, c[] = { 1.5, 6.5, 2.5, 7.5, 3.5 };

	/* complete separation of 5 and 5: the smallest two-sided p, 2 / C(10,5) */
	ck_assert_double_eq_tol(ud_mann_whitney_p(a, 5, b, 5), 2.0 / 252, 1e-12);
	ck_assert_double_eq_tol(ud_mann_whitney_p(b, 5, a, 5), 2.0 / 252, 1e-12);
	ck_assert_double_gt(ud_mann_whitney_p(a, 5, c, 5), 0.2);
	/* identical samples: no evidence at all */
	ck_assert_double_eq_tol(ud_mann_whitney_p(a, 5, a, 5), 1, 1e-9);
	/* one sample each cannot reject: p = 1 */
	ck_assert_double_eq_tol(ud_mann_whitney_p(a, 1, b, 1), 1, 1e-12);
	ck_assert(isnan(ud_mann_whitney_p(a, 0, b, 5)));
}
END_TEST

/* The rank test as it was (every pair compared): the reference for the sort-based one. */
static double brute_u_p(const double *x, size_t nx, const double *y, size_t ny, double *u_out)
{
	size_t n = nx + ny;
	double u = 0, ties = 0, mean, var, z;

	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	for (size_t i = 0; i < n; i++) {
		double v = i < nx ? x[i] : y[i - nx];
		size_t t = 0;

		for (size_t j = 0; j < n; j++)
			t += (j < nx ? x[j] : y[j - nx]) == v;
		ties += (double)(t * t - 1);
	}
	*u_out = u;
	mean = (double)(nx * ny) / 2;
	var = (double)(nx * ny) / 12 * ((double)(n + 1) - ties / (double)(n * (n - 1)));
	if (var <= 0)
		return 1;
	z = (fabs(u - mean) - 0.5) / sqrt(var);
	return erfc((z < 0 ? 0 : z) / sqrt(2));
}

/* Issue 12: 100k samples a side took 75 s.  The sorted ranks must give the pairwise answer, ties included. */
START_TEST(test_mann_whitney_matches_brute_force)
{
	unsigned seed = 12;
#define rand_r(s) (*(s) = *(s) * 1103515245u + 12345u, (*(s) >> 16) & 0x7fff) /* a fixed LCG: the same rounds every run */

	for (int round = 0; round < 300; round++) {
		size_t nx = 21 + (size_t)(rand_r(&seed) % 40), ny = 21 + (size_t)(rand_r(&seed) % 40);
		double x[64], y[64], u, want;
		/* few distinct values in some rounds: many ties, within and across the samples */
		int spread = round % 3 == 0 ? 4 : round % 3 == 1 ? 50 : 100000;

		for (size_t i = 0; i < nx; i++)
			x[i] = rand_r(&seed) % spread;
		for (size_t i = 0; i < ny; i++)
			y[i] = rand_r(&seed) % spread + round % 5;
		want = brute_u_p(x, nx, y, ny, &u);
		ck_assert_double_eq_tol(ud_mann_whitney_p(x, nx, y, ny), want, 1e-12);
	}
#undef rand_r
}
END_TEST

START_TEST(test_mann_whitney_large)
{
	size_t n = 100000;
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));

	for (size_t i = 0; i < n; i++) {
		x[i] = (double)(i % 1000);
		y[i] = (double)(i % 1000) + 500;
	}
	ck_assert_double_lt(ud_mann_whitney_p(x, n, y, n), 1e-12);
	ck_assert_double_eq_tol(ud_mann_whitney_p(x, n, x, n), 1, 1e-9);
	free(x);
	free(y);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_mean_median_spread);
	tcase_add_test(tc, test_geomean);
	tcase_add_test(tc, test_median_interval);
	tcase_add_test(tc, test_degenerate_inputs_are_nan);
	tcase_add_test(tc, test_mann_whitney);
	tcase_add_test(tc, test_mann_whitney_matches_brute_force);
	tcase_add_test(tc, test_mann_whitney_large);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
