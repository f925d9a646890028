#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "text.h"
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
	const double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	const double tx[] = { 1, 2, 2, 3, 4 }, ty[] = { 2, 3, 5, 6, 6, 7 };

	/* complete separation of 5 and 5: the smallest two-sided p, 2 / C(10,5) */
	ck_assert_double_eq_tol(ud_mann_whitney_p(a, 5, b, 5), 2.0 / 252, 1e-12);
	ck_assert_double_eq_tol(ud_mann_whitney_p(b, 5, a, 5), 2.0 / 252, 1e-12);
	ck_assert_double_gt(ud_mann_whitney_p(a, 5, c, 5), 0.2);
	/*
	 * The worked example of scipy.stats.mannwhitneyu's documentation, ages
	 * at diagnosis of 5 men and 4 women: U = 17 of 20, exact two-sided p =
	 * 0.1111 (scipy, method="exact"); by hand, 7 of the C(9,4) = 126
	 * arrangements have U <= 3, so p = 2 x 7 / 126.
	 */
	ck_assert_double_eq_tol(ud_mann_whitney_p(males, 5, females, 4), 2.0 * 7 / 126, 1e-12);
	ck_assert_double_eq_tol(ud_mann_whitney_p(females, 4, males, 5), 2.0 * 7 / 126, 1e-12);
	/*
	 * With ties, the normal approximation with tie and continuity
	 * corrections (scipy's method="asymptotic"): x = 1 2 2 3 4, y = 2 3 5 6
	 * 6 7; ranks 1, 3, 3, 5.5, 7 for x, U = 4.5 against a mean of 15,
	 * variance 30/12 x (12 - 36/110) = 29.1818, z = (10.5 - 0.5) / 5.40202
	 * = 1.85116, p = erfc(z / sqrt 2) = 0.064147.
	 */
	ck_assert_double_eq_tol(ud_mann_whitney_p(tx, 5, ty, 6), erfc(10 / sqrt(30.0 / 12 * (12 - 36.0 / 110)) / sqrt(2)),
				1e-12);
	ck_assert_double_eq_tol(ud_mann_whitney_p(tx, 5, ty, 6), 0.064147, 1e-6);
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

/*
 * Student's t against the textbook: the table's t(0.975, 10) = 2.228, and
 * the first example of Wikipedia's "Welch's t-test" article (two samples of
 * 15, t = -2.46, Welch-Satterthwaite df = 25.0, two-sided p = 0.021; scipy
 * 1.10's ttest_ind(equal_var=False) gives t = -2.4554, p = 0.021378 on the
 * exact df 24.9885).  Fractional df is what Welch's test needs.
 */
/* text.h's one rule for numbers: grouped thousands, three significant digits, no exponent, "n/a" unknown. */
START_TEST(test_format_human)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = { { 5362.4, "5,362" }, { 48746027, "48,746,027" }, { -1331, "-1,331" }, { 91.14, "91.1" },
		      { 0.8434, "0.843" }, { 3.26e-05, "0.0000326" }, { 6.23e-07, "0.000000623" }, { 0, "0" },
		      { 999.4, "999" }, { 999.6, "1,000" }, { 4.87e12, "4.87T" }, { NAN, "n/a" }, { INFINITY, "n/a" },
		      /* issue 36: SI to quetta, then an exponent; no long runs of digits or zeros, no "-0" */
		      { 999.6e12, "1P" }, { 2.5e30, "2.5Q" }, { 1e40, "1e+40" }, { -1e40, "-1e+40" },
		      { DBL_MAX, "1.8e+308" }, { 1e-40, "1e-40" }, { 4.9e-324, "4.94e-324" },
		      { 2.2250738585072014e-308, "2.23e-308" }, { -0.0, "0" }, { 1e-18, "0.000000000000000001" } };
	char buf[40];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_str_eq(ud_format_human(cases[i].v, buf, sizeof(buf)), cases[i].want);
		ck_assert_uint_lt(strlen(buf), UD_NUMBER_MAX);
	}
}
END_TEST

/* Fitting text to a width: sentences at spaces, table rows under their last column, a long word whole. */
START_TEST(test_text_fit)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ud_text_fit("one two three four five six seven eight\n"
		    "  - a bullet whose words go on and on\n"
		    "  name      12.5 ns   the last column wraps here\n"
		    "an-unbreakable-word-longer-than-the-width x\n",
		    36, f);
	fclose(f);
	ck_assert_str_eq(buf, "one two three four five six seven\n"
			      "eight\n"
			      "  - a bullet whose words go on and\n"
			      "    on\n"
			      "  name      12.5 ns   the last\n"
			      "                      column wraps\n"
			      "                      here\n"
			      "an-unbreakable-word-longer-than-the-width\n"
			      "x\n");
	free(buf);
}
END_TEST

START_TEST(test_student_t)
{
	ck_assert_double_eq_tol(ud_student_t_quantile2(0.05, 10), 2.228139, 1e-6);
	ck_assert_double_eq_tol(ud_student_t_quantile2(0.05, 1), 12.706205, 1e-6);
	ck_assert_double_eq_tol(ud_student_t_tail2(2.455356398286006, 24.988529290231416), 0.021378001462866985, 1e-12);
	ck_assert_double_eq_tol(ud_student_t_tail2(2.46, 25.0), 0.021154303, 1e-8);
	ck_assert_double_eq_tol(ud_student_t_tail2(0, 3), 1, 1e-15);
	ck_assert_double_eq(ud_student_t_tail2(INFINITY, 3), 0);
	ck_assert(isnan(ud_student_t_tail2(1, 0)));
	ck_assert(isnan(ud_student_t_quantile2(1, 5)));
}
END_TEST

/*
 * Welch on the log of two means, by hand: A 1000 +-0.1% over 5 runs, B 999
 * +-0.1% over 5.  se = sqrt(0.001^2 + 0.001^2) = 0.0014142; t = ln(0.999)
 * / se = -0.70746; df = (2e-6)^2 / (2 x 1e-12 / 4) = 8; p = 0.4996
 * (scipy: 0.49978 for t = 0.70675 with ln 1.001).  Then 700 +-0.6%: t =
 * ln(0.7) / sqrt(1e-6 + 3.6e-5) = -58.637 on df = 4.2221, p = 2.6178e-7
 * (scipy 1.10: 2.61776e-07): few runs and one noisy side keep p from vanishing.
 */
START_TEST(test_welch_ratio)
{
	struct ud_welch w;
	double se = sqrt(2e-6);

	ck_assert_int_eq(ud_welch_ratio(1000, 0.001, 5, 999, 0.001, 5, 0.95, &w), 0);
	ck_assert_double_eq_tol(w.t, log(0.999) / se, 1e-12);
	ck_assert_double_eq_tol(w.df, 8, 1e-9);
	ck_assert_double_eq_tol(w.p, ud_student_t_tail2(log(0.999) / se, 8), 1e-12);
	ck_assert_double_gt(w.p, 0.49);
	ck_assert_double_lt(w.p, 0.51);
	/* the interval of the ratio: exp(ln 0.999 +- t(0.975, 8) x se), t(0.975, 8) = 2.306004 */
	ck_assert_double_eq_tol(w.lo, exp(log(0.999) - 2.306004 * se), 1e-6);
	ck_assert_double_eq_tol(w.hi, exp(log(0.999) + 2.306004 * se), 1e-6);
	ck_assert(w.lo < 1 && w.hi > 1);
	ck_assert_int_eq(ud_welch_ratio(1000, 0.001, 5, 700, 0.006, 5, 0.95, &w), 0);
	ck_assert_double_eq_tol(w.t, log(0.7) / sqrt(1e-6 + 3.6e-5), 1e-9);
	ck_assert_double_eq_tol(w.df, 4.222050886661526, 1e-9);
	ck_assert_double_eq_tol(w.p, 2.6177578532289226e-07, 1e-12);
	ck_assert(w.hi < 1);
	/* one run, a mean of 0, a negative spread: no test */
	ck_assert_int_eq(ud_welch_ratio(1000, 0.001, 1, 999, 0.001, 5, 0.95, &w), -1);
	ck_assert_int_eq(ud_welch_ratio(0, 0.001, 5, 999, 0.001, 5, 0.95, &w), -1);
	ck_assert_int_eq(ud_welch_ratio(1000, -1, 5, 999, 0.001, 5, 0.95, &w), -1);
	/* no spread at all: any difference is beyond it, none is not */
	ck_assert_int_eq(ud_welch_ratio(1000, 0, 3, 1000, 0, 3, 0.95, &w), 0);
	ck_assert_double_eq(w.p, 1);
	ck_assert_int_eq(ud_welch_ratio(1000, 0, 3, 1001, 0, 3, 0.95, &w), 0);
	ck_assert_double_eq(w.p, 0);
}
END_TEST

/*
 * The Hodges-Lehmann interval that goes with Mann-Whitney, by enumeration:
 * x = 10..15 (6), y = 12..18 (7).  The exact U distribution of 6 and 7 has
 * P(U <= 6) = 0.0251 > 0.025 and P(U <= 5) <= 0.025, so k = 7 (rank of the
 * ends among the 42 ratios y/x sorted): the 7th smallest is 1.0 and the 7th
 * largest 1.5 (exhaustive count in Python: k = 7, [1.0, 1.5]).  4 against 4
 * reaches 95% with k = 1 (P(U = 0) = 1/70): the extremes; 3 against 3
 * cannot (P(U = 0) = 1/20 > 0.025).
 */
START_TEST(test_shift_interval)
{
	const double x[] = { 10, 11, 12, 13, 14, 15 }, y[] = { 12, 13, 14, 15, 16, 17, 18 };
	const double p[] = { 1, 2, 3, 4 }, q[] = { 5, 6, 7, 8 };
	double lo, hi;

	ck_assert_int_eq(ud_shift_ratio_ci(x, 6, y, 7, 0.95, &lo, &hi), 0);
	ck_assert_double_eq_tol(lo, 1.0, 1e-12);
	ck_assert_double_eq_tol(hi, 1.5, 1e-12);
	ck_assert_int_eq(ud_shift_ratio_ci(p, 4, q, 4, 0.95, &lo, &hi), 0);
	ck_assert_double_eq_tol(lo, 5.0 / 4, 1e-12);
	ck_assert_double_eq_tol(hi, 8.0 / 1, 1e-12);
	ck_assert_int_eq(ud_shift_ratio_ci(p, 3, q, 3, 0.95, &lo, &hi), -1);
	ck_assert_int_eq(ud_shift_ratio_ci((const double[]){ 1, 0, 2, 3 }, 4, q, 4, 0.95, &lo, &hi), -1);
	/* the textbook's exact p of 4 against 4, completely separated: 2/70 */
	ck_assert_double_eq_tol(ud_mann_whitney_p(p, 4, q, 4), 2.0 / 70, 1e-12);
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
	tcase_add_test(tc, test_student_t);
	tcase_add_test(tc, test_welch_ratio);
	tcase_add_test(tc, test_shift_interval);
	tcase_add_test(tc, test_format_human);
	tcase_add_test(tc, test_text_fit);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
