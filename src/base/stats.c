#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"
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
		ud_sort(s, n, sizeof(*s), cmp_double);
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
 * Ways to reach U = u with m x-values and n y-values, u = 0..m*n, into a
 * new array the caller frees (NULL when out of memory): f(m,n,u) =
 * f(m-1,n,u-n) + f(m,n-1,u), kept for the rows i-1 and i only (a diff asks
 * once a workload: allocating and zeroing all m rows was most of its cost).
 * Row j holds U = 0..i*j only: past that a count is 0, read as such rather
 * than from a zeroed buffer (the zeroing was a fifth of the tests a diff runs).
 */
static double *exact_u_counts(size_t m, size_t n)
{
	size_t umax = m * n, stride = umax + 1;
	double *rows = malloc(2 * (n + 1) * stride * sizeof(*rows)), *out = malloc(stride * sizeof(*out));
	double *prev = rows, *cur = rows + (n + 1) * stride;

	if (!rows || !out) {
		free(rows);
		free(out);
		return NULL;
	}
	for (size_t j = 0; j <= n; j++)
		prev[j * stride] = 1; /* i = 0: U is 0 */
	for (size_t i = 1; i <= m; i++) {
		cur[0] = 1; /* j = 0: U is 0 */
		for (size_t j = 1; j <= n; j++)
			for (size_t u = 0; u <= i * j; u++)
				cur[j * stride + u] = (u >= j ? prev[j * stride + u - j] : 0) +
						      (u <= i * (j - 1) ? cur[(j - 1) * stride + u] : 0);
		double *t = prev;

		prev = cur;
		cur = t;
	}
	memcpy(out, prev + n * stride, stride * sizeof(*out));
	free(rows);
	return out;
}

static double exact_u_cdf(size_t m, size_t n, double u_obs)
{
	double *f = exact_u_counts(m, n), total = 0, below = 0;

	if (!f)
		return NAN;
	for (size_t u = 0; u <= m * n; u++) {
		total += f[u];
		if ((double)u <= u_obs)
			below += f[u];
	}
	free(f);
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
	ud_sort(r, n, sizeof(*r), cmp_ranked);
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

/* Continued fraction of the incomplete beta function (Lentz's method, as in Numerical Recipes' betacf). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 1000; m++) {
		double aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), del;

		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* the continued fraction converges fast on this side of the mean; the symmetry takes the other */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double ud_student_t_tail2(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

/* The x >= 0 at which the decreasing tail(x) falls to p, by bisection. */
static double invert_tail(double (*tail)(double x, double arg), double arg, double p)
{
	double lo = 0, hi = 1;

	while (tail(hi, arg) > p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (tail(mid, arg) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double ud_student_t_quantile2(double p, double df)
{
	if (!(df > 0) || !(p > 0 && p < 1))
		return NAN;
	return invert_tail(ud_student_t_tail2, df, p);
}

int ud_welch_ratio(double mean_a, double rel_se_a, size_t n_a, double mean_b, double rel_se_b, size_t n_b,
		   double level, struct ud_welch *out)
{
	double va = rel_se_a * rel_se_a, vb = rel_se_b * rel_se_b, se = sqrt(va + vb), shift;

	if (!(mean_a > 0) || !(mean_b > 0) || !(rel_se_a >= 0) || !(rel_se_b >= 0) || n_a < 2 || n_b < 2 ||
	    !(level > 0 && level < 1) || !isfinite(se))
		return -1;
	shift = log(mean_b) - log(mean_a);
	out->ratio = mean_b / mean_a;
	if (se == 0) { /* no spread at all: any difference is beyond it */
		*out = (struct ud_welch){ shift == 0 ? 0 : copysign(INFINITY, shift), (double)(n_a + n_b - 2),
					  shift == 0 ? 1 : 0, out->ratio, out->ratio, out->ratio };
		return 0;
	}
	out->df = (va + vb) * (va + vb) / (va * va / (double)(n_a - 1) + vb * vb / (double)(n_b - 1));
	out->t = shift / se;
	out->p = ud_student_t_tail2(out->t, out->df);
	double q = ud_student_t_quantile2(1 - level, out->df);

	out->lo = exp(shift - q * se);
	out->hi = exp(shift + q * se);
	return 0;
}

static double normal_tail2(double z, double unused)
{
	(void)unused;
	return erfc(z / sqrt(2));
}

/*
 * The largest k with P(U <= k - 1) <= tail (one side): the rank of the
 * interval's ends among the m x n differences; 0 when none reaches it.
 */
static size_t shift_rank(size_t m, size_t n, double tail)
{
	double mn = (double)m * (double)n;
	size_t k = 0;

	if (m > 20 || n > 20) {
		double z = invert_tail(normal_tail2, 0, 2 * tail);
		double c = floor(mn / 2 - z * sqrt(mn * (double)(m + n + 1) / 12));

		return c >= 1 ? (size_t)c : 0;
	}
	double *f = exact_u_counts(m, n), total = 0, cdf = 0;

	if (!f)
		return 0;
	for (size_t u = 0; u <= m * n; u++)
		total += f[u];
	for (size_t u = 0; u < m * n; u++) {
		cdf += f[u];
		if (cdf / total > tail)
			break;
		k = u + 1;
	}
	free(f);
	return k;
}

/* Beyond this many pairwise differences (32 MB of them) the interval is not computed: a caller falls back on Welch. */
#define SHIFT_MAX_PAIRS ((size_t)1 << 22)

int ud_shift_ratio_ci(const double *x, size_t nx, const double *y, size_t ny, double level, double *lo,
		      double *hi)
{
	size_t k, npairs = nx * ny;
	double *d;

	if (nx == 0 || ny == 0 || npairs > SHIFT_MAX_PAIRS || !(level > 0 && level < 1))
		return -1;
	for (size_t i = 0; i < nx; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return -1;
	for (size_t j = 0; j < ny; j++)
		if (!(y[j] > 0) || !isfinite(y[j]))
			return -1;
	k = shift_rank(nx, ny, (1 - level) / 2);
	if (k == 0 || !(d = malloc(npairs * sizeof(*d))))
		return -1;
	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			d[i * ny + j] = log(y[j]) - log(x[i]);
	ud_sort(d, npairs, sizeof(*d), cmp_double);
	*lo = exp(d[k - 1]);
	*hi = exp(d[npairs - k]);
	free(d);
	return 0;
}
