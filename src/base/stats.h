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

#endif
