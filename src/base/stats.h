/*
 * stats.h - the summary statistics of repeated measurements.
 *
 * All functions take a plain array and never modify it.  An empty array (or,
 * for spreads, one element) yields NAN: callers write NAN as JSON null.
 */
#ifndef UD_STATS_H
#define UD_STATS_H

#include <stddef.h>

double ud_mean(const double *x, size_t n);
/*
 * Geometric mean, the one average of ratios that does not depend on which
 * host is the baseline (SPEC's and UnixBench's index).  NAN when empty or
 * when any value is not a positive finite number.
 */
double ud_geomean(const double *x, size_t n);
/* Sample standard deviation (n - 1 in the denominator). */
double ud_stddev(const double *x, size_t n);
/*
 * Relative standard error of the mean, as perf stat's "( +- 0.12% )" prints
 * it: stddev / sqrt(n) / mean.  A fraction, not a percentage.
 */
double ud_rel_stderr(const double *x, size_t n);
double ud_median(const double *x, size_t n);
double ud_min(const double *x, size_t n);
double ud_max(const double *x, size_t n);
/* Half-width of the 95% confidence interval of the mean (Student's t), relative to the mean. */
double ud_ci95_rel(const double *x, size_t n);
/*
 * Half-width of a distribution-free 95% confidence interval of the median,
 * relative to the median: the order statistics x(k) and x(n+1-k) with k the
 * largest for which a Binomial(n, 1/2) falls below k with probability at
 * most 2.5%, so the pair covers the median at least 95% of the time
 * whatever the distribution (no normality on few samples).  From 6 samples;
 * below that no pair reaches 95% and the range stands in (covering
 * 1 - 2^(1-n): 94% at 5).  NAN for fewer than 2 or a zero median.
 */
double ud_ci95_median_rel(const double *x, size_t n);

/*
 * Two-sided p-value of the Mann-Whitney U test that x and y come from the
 * same distribution: exact for small samples without ties, the normal
 * approximation with tie correction otherwise.  NAN when either is empty.
 */
double ud_mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny);

/*
 * Student's t distribution with df degrees of freedom, df > 0 and not
 * necessarily whole (Welch's test gives fractional ones): the two-sided
 * tail P(|T| >= t), and the t for which that tail is p (0 < p < 1).  NAN
 * for arguments outside those ranges.
 */
double ud_student_t_tail2(double t, double df);
double ud_student_t_quantile2(double p, double df);

/*
 * Welch's unequal-variances t-test of two means known only by their
 * summaries: each side's mean (> 0), the standard error of that mean
 * relative to it, and the runs behind it (>= 2).  It is done on ln(mean),
 * whose standard error is the relative one (delta method), so that the
 * test and the interval of the ratio mean_b / mean_a agree: the interval
 * excludes 1 exactly when p < 1 - level.  df is Welch-Satterthwaite's.
 * 0 with *out filled, -1 for inputs outside those ranges.
 */
struct ud_welch {
	double t, df, p;
	double ratio, lo, hi; /* mean_b / mean_a and its interval at the level asked */
};
int ud_welch_ratio(double mean_a, double rel_se_a, size_t n_a, double mean_b, double rel_se_b, size_t n_b,
		   double level, struct ud_welch *out);

/*
 * The distribution-free interval that goes with the Mann-Whitney test
 * (Hodges-Lehmann): of the shift of ln(y) against ln(x), so of the ratio
 * y / x, at the level asked (0.95), from the order statistics of the
 * nx x ny pairwise differences; the ranks come from the exact U
 * distribution up to 20 a side and its normal approximation beyond.  All
 * values must be > 0.  0 with *lo and *hi set (as ratios), -1 when the
 * samples are too few for that level (4 and 4 reach 97%: P(U = 0) = 1/70
 * a tail), a value is not positive, or out of memory.
 */
int ud_shift_ratio_ci(const double *x, size_t nx, const double *y, size_t ny, double level, double *lo,
		      double *hi);

#endif
