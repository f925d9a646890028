#include <math.h>
#include <stdbool.h>
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

double ud_geomean(const double *x, size_t n)
{
	double log_sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return NAN;
		log_sum += log(x[i]);
	}
	return exp(log_sum / (double)n);
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

/* A sorted copy of x[0..n), n > 0 (the caller frees it); NULL when out of memory. */
static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (s) {
		memcpy(s, x, n * sizeof(*s));
		qsort(s, n, sizeof(*s), cmp_double);
	}
	return s;
}

static double median_of_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double ud_median(const double *x, size_t n)
{
	double *s, m;

	if (n == 0 || !(s = sorted_copy(x, n)))
		return NAN;
	m = median_of_sorted(s, n);
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

/* The largest k with P(Binomial(n, 1/2) <= k - 1) <= 0.025; 0 when none (n < 6). */
static size_t median_ci_rank(size_t n)
{
	double p = pow(0.5, (double)n), cdf = 0, term = p; /* term = C(n, j) / 2^n */
	size_t k = 0;

	for (size_t j = 0; j < n / 2; j++) {
		cdf += term;
		if (cdf > 0.025)
			break;
		k = j + 1;
		term = term * (double)(n - j) / (double)(j + 1);
	}
	return k;
}

double ud_ci95_median_rel(const double *x, size_t n)
{
	double *s, med, half;
	size_t k;

	if (n < 2 || !(s = sorted_copy(x, n)))
		return NAN;
	med = median_of_sorted(s, n);
	k = median_ci_rank(n);
	k = k ? k : 1;
	half = (s[n - k] - s[k - 1]) / 2;
	free(s);
	return med == 0 ? NAN : half / fabs(med);
}

/*
 * Ways to reach U = u with m x-values and n y-values: f(m,n,u) = f(m-1,n,u-n)
 * + f(m,n-1,u), kept for the rows i-1 and i only (a diff asks once a
 * workload: allocating and zeroing all m rows was most of its cost).
 */
static double exact_u_cdf(size_t m, size_t n, double u_obs)
{
	size_t umax = m * n, stride = umax + 1;
	double *rows = calloc(2 * (n + 1) * stride, sizeof(*rows)), total = 0, below = 0;
	double *prev = rows, *cur = rows + (n + 1) * stride;

	if (!rows)
		return NAN;
	for (size_t j = 0; j <= n; j++)
		prev[j * stride] = 1; /* i = 0: U is 0 */
	for (size_t i = 1; i <= m; i++) {
		cur[0] = 1; /* j = 0: U is 0 */
		for (size_t j = 1; j <= n; j++)
			for (size_t u = 0; u <= i * j; u++)
				cur[j * stride + u] = (u >= j ? prev[j * stride + u - j] : 0) + cur[(j - 1) * stride + u];
		double *t = prev;

		prev = cur;
		cur = t;
	}
	for (size_t u = 0; u <= umax; u++) {
		total += prev[n * stride + u];
		if ((double)u <= u_obs)
			below += prev[n * stride + u];
	}
	free(rows);
	return below / total;
}

struct ranked {
	double v;
	bool is_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/*
 * U (the (x, y) pairs with x > y, a tie counting half) and the tie term
 * (t^3 - t summed over the groups of t equal values) from one sort of both
 * samples: O(n log n), where comparing every pair took minutes at 100k a side.
 * Returns -1 when out of memory.
 */
static int rank_sums(const double *x, size_t nx, const double *y, size_t ny, double *u, double *ties)
{
	size_t n = nx + ny, below_y = 0;
	struct ranked *r = malloc(n * sizeof(*r));

	if (!r)
		return -1;
	for (size_t i = 0; i < n; i++)
		r[i] = i < nx ? (struct ranked){ x[i], true } : (struct ranked){ y[i - nx], false };
	qsort(r, n, sizeof(*r), cmp_ranked);
	*u = *ties = 0;
	for (size_t i = 0, j; i < n; i = j) {
		size_t cx = 0, cy = 0;

		for (j = i; j < n && r[j].v == r[i].v; j++)
			r[j].is_x ? cx++ : cy++;
		if (j == i) /* a NaN equals nothing, itself included: a group of one */
			r[j++].is_x ? cx++ : cy++;
		*u += (double)cx * (double)below_y + 0.5 * (double)cx * (double)cy;
		*ties += (double)(cx + cy) * ((double)(cx + cy) * (double)(cx + cy) - 1);
		below_y += cy;
	}
	free(r);
	return 0;
}

double ud_mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny)
{
	size_t n = nx + ny;
	double u, ties, mean, var, z, p;
	bool tied;

	if (nx == 0 || ny == 0 || rank_sums(x, nx, y, ny, &u, &ties) != 0)
		return NAN;
	tied = ties > 0;
	mean = (double)(nx * ny) / 2;
	if (!tied && nx <= 20 && ny <= 20) {
		double lo = u < mean ? u : (double)(nx * ny) - u;

		p = 2 * exact_u_cdf(nx, ny, lo);
		return p > 1 ? 1 : p;
	}
	var = (double)(nx * ny) / 12 * ((double)(n + 1) - ties / (double)(n * (n - 1)));
	if (var <= 0)
		return 1;
	z = (fabs(u - mean) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2));
}
