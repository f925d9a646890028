#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double ud_mean(const double *x, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double ud_stddev(const double *x, size_t n)
{
	double mean = ud_mean(x, n), ss = 0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

double ud_rel_stderr(const double *x, size_t n)
{
	double mean = ud_mean(x, n);

	if (n < 2 || mean == 0)
		return NAN;
	return ud_stddev(x, n) / sqrt((double)n) / fabs(mean);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double ud_median(const double *x, size_t n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double ud_min(const double *x, size_t n)
{
	double m = NAN;

	for (size_t i = 0; i < n; i++)
		if (i == 0 || x[i] < m)
			m = x[i];
	return m;
}

double ud_max(const double *x, size_t n)
{
	double m = NAN;

	for (size_t i = 0; i < n; i++)
		if (i == 0 || x[i] > m)
			m = x[i];
	return m;
}

/* Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
static const double t975[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double ud_ci95_rel(const double *x, size_t n)
{
	size_t df = n - 1;
	double t, mean = ud_mean(x, n);

	if (n < 2 || mean == 0)
		return NAN;
	t = df <= sizeof(t975) / sizeof(t975[0]) ? t975[df - 1] : 1.960;
	return t * ud_stddev(x, n) / sqrt((double)n) / fabs(mean);
}
