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

#endif
