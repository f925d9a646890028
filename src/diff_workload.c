/*
 * The numbers of one workload in the diff (SPEC §5): speedup, work per run,
 * factors and their shares, the metrics side by side, the CPI stack and
 * whether the speedup is outside the noise.  Nothing here writes text for a
 * person beyond the significance note, nor JSON.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "stats.h"

/* Rank-test p below which a speedup counts as outside the noise. */
#define ALPHA 0.05
/* MPKI is per thousand instructions; the CPI stack wants per instruction. */
#define PER_KILO 1000.0
#define NS_PER_S 1e9

/* The one table of the factors' names: JSON key and report label. */
static const struct {
	const char *name, *label;
} factors[UD_FACTOR_COUNT] = {
	[UD_FACTOR_PATH_LENGTH] = { "path_length", "path length" },
	[UD_FACTOR_IPC] = { "ipc", "IPC" },
	[UD_FACTOR_FREQUENCY] = { "frequency", "frequency" },
	[UD_FACTOR_UTILIZATION] = { "utilization", "utilization" },
	[UD_FACTOR_UNEXPLAINED] = { "unexplained", "unexplained" },
};

static const char *const work_basis_text[UD_WORK_BASIS_COUNT] = {
	[UD_WORK_UNITS] = "work_units",
	[UD_WORK_SCORE_ELAPSED] = "score x elapsed (assumed: the score is a rate sustained over the whole measured run)",
	[UD_WORK_ONE_RUN] = "one run of the command per measurement (assumed)",
};

static const char *const sig_method_names[UD_SIG_METHOD_COUNT] = {
	[UD_SIG_MANN_WHITNEY] = "mann-whitney",
	[UD_SIG_CI95] = "ci95",
	[UD_SIG_SINGLE_RUN] = "single-run",
};

const char *ud_factor_name(enum ud_factor f)
{
	return factors[f].name;
}

const char *ud_factor_label(enum ud_factor f)
{
	return factors[f].label;
}

int ud_factor_from_name(const char *name, enum ud_factor *out)
{
	for (int f = 0; f < UD_FACTOR_COUNT; f++) {
		if (strcmp(name, factors[f].name) == 0) {
			*out = (enum ud_factor)f;
			return 0;
		}
	}
	return -1;
}

const char *ud_work_basis_text(enum ud_work_basis b)
{
	return work_basis_text[b];
}

const char *ud_sig_method_name(enum ud_sig_method m)
{
	return sig_method_names[m];
}

static double ratio(double num, double den)
{
	return isfinite(num) && isfinite(den) && den != 0 ? num / den : NAN;
}

/* Work per run: work_units where both know it, else what the score implies. */
static struct ud_work work_per_run(const struct ud_workload *a, const struct ud_workload *b)
{
	if (isfinite(a->work_units) && isfinite(b->work_units) && a->work_units > 0 && b->work_units > 0)
		return (struct ud_work){ a->work_units, b->work_units, UD_WORK_UNITS };
	if (a->higher_is_better != 0)
		return (struct ud_work){ a->score.median * a->elapsed_ns / NS_PER_S,
					 b->score.median * b->elapsed_ns / NS_PER_S, UD_WORK_SCORE_ELAPSED };
	return (struct ud_work){ 1, 1, UD_WORK_ONE_RUN };
}

static void compute_factors(struct ud_diff_workload *w)
{
	const struct ud_workload *a = w->a, *b = w->b;
	double product = 1, l = log(w->speedup);

	w->work = work_per_run(a, b);
	w->factor[UD_FACTOR_PATH_LENGTH] = ratio(ratio(ud_workload_value(a, "instructions"), w->work.a),
						 ratio(ud_workload_value(b, "instructions"), w->work.b));
	w->factor[UD_FACTOR_IPC] = ratio(ud_metric(b, UD_M_IPC), ud_metric(a, UD_M_IPC));
	w->factor[UD_FACTOR_FREQUENCY] = ratio(ud_metric(b, UD_M_GHZ), ud_metric(a, UD_M_GHZ));
	w->factor[UD_FACTOR_UTILIZATION] = ratio(ud_metric(b, UD_M_CPUS_UTILIZED), ud_metric(a, UD_M_CPUS_UTILIZED));
	for (int f = 0; f < UD_FACTOR_UNEXPLAINED; f++) {
		if (!(w->factor[f] > 0) || !isfinite(w->factor[f]))
			w->factor[f] = NAN;
		else
			product *= w->factor[f];
	}
	/* What the counters do not explain, so that the product is the speedup. */
	w->factor[UD_FACTOR_UNEXPLAINED] = w->speedup / product;
	w->has_dominant = false;
	for (int f = 0; f < UD_FACTOR_COUNT; f++) {
		/* A speedup of exactly 1 has no log to share out. */
		double share = l != 0 ? log(w->factor[f]) / l : NAN;

		w->share[f] = isfinite(share) ? share : NAN;
		if (isfinite(share) && fabs(share) > (w->has_dominant ? fabs(w->share[w->dominant]) : 0)) {
			w->dominant = (enum ud_factor)f;
			w->has_dominant = true;
		}
	}
}

static void compute_metrics(struct ud_diff_workload *w)
{
	for (int m = 0; m < UD_METRIC_COUNT; m++) {
		double a = ud_metric(w->a, (enum ud_metric)m), b = ud_metric(w->b, (enum ud_metric)m);

		w->metric[m] = (struct ud_ab){ a, b, ratio(b, a) };
	}
}

/*
 * ΔCPI = cpi_A - cpi_B split into what branch and L1d misses cost on each
 * host, by its own penalties (the document's "cpi_penalties"); "other" is
 * the residual, which an out-of-order core always leaves (Eyerman et al.,
 * ASPLOS 2006).
 */
static void compute_cpi_stack(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	const struct ud_ab *cpi = &w->metric[UD_M_CPI], *bm = &w->metric[UD_M_BRANCH_MPKI], *lm = &w->metric[UD_M_L1D_MPKI];
	double pb_a = ua ? ua->penalty_branch : NAN, pb_b = ub ? ub->penalty_branch : NAN;
	double pl_a = ua ? ua->penalty_l1d : NAN, pl_b = ub ? ub->penalty_l1d : NAN;
	struct ud_cpi_stack *s = &w->cpi;

	s->cpi_a = cpi->a;
	s->cpi_b = cpi->b;
	s->delta = cpi->a - cpi->b;
	s->branch = (bm->a * pb_a - bm->b * pb_b) / PER_KILO;
	s->l1d = (lm->a * pl_a - lm->b * pl_b) / PER_KILO;
	s->other = s->delta - (isfinite(s->branch) ? s->branch : 0) - (isfinite(s->l1d) ? s->l1d : 0);
}

/* The smallest p the rank test can give for these sample sizes: complete separation. */
static double best_possible_p(size_t na, size_t nb)
{
	double *a = malloc(na * sizeof(double)), *b = malloc(nb * sizeof(double)), p = 1;

	if (a && b) {
		for (size_t i = 0; i < na; i++)
			a[i] = -(double)i;
		for (size_t i = 0; i < nb; i++)
			b[i] = 1 + (double)i;
		p = ud_mann_whitney_p(a, na, b, nb);
	}
	free(a);
	free(b);
	return p;
}

static void compute_significance(struct ud_diff_workload *w)
{
	const struct ud_score *sa = &w->a->score, *sb = &w->b->score;
	double ca = sa->ci95_rel, cb = sb->ci95_rel;
	struct ud_significance *s = &w->sig;

	s->p = NAN;
	/* The rank test where the samples can reach ALPHA at all (5 and 5 can: p >= 0.008). */
	if (sa->nsamples >= 2 && sb->nsamples >= 2 && best_possible_p(sa->nsamples, sb->nsamples) < ALPHA) {
		s->method = UD_SIG_MANN_WHITNEY;
		s->p = ud_mann_whitney_p(sa->samples, sa->nsamples, sb->samples, sb->nsamples);
		s->significant = s->p < ALPHA;
		snprintf(s->note, sizeof(s->note), "Mann-Whitney U on %zu and %zu samples: p = %.4g", sa->nsamples,
			 sb->nsamples, s->p);
	} else if (isfinite(ca) && isfinite(cb)) {
		s->method = UD_SIG_CI95;
		s->significant = fabs(w->speedup - 1) > ca + cb;
		snprintf(s->note, sizeof(s->note), "speedup %.4g against the two 95%% intervals (+-%.2f%%, +-%.2f%%)",
			 w->speedup, 100 * ca, 100 * cb);
	} else {
		s->method = UD_SIG_SINGLE_RUN;
		s->significant = -1;
		snprintf(s->note, sizeof(s->note), "single runs (imported?): no noise was measured on one side or both");
	}
}

void ud_diff_workload_compute(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	const struct ud_workload *a = w->a, *b = w->b;

	w->speedup = a->higher_is_better == 0 ? a->score.median / b->score.median : b->score.median / a->score.median;
	compute_factors(w);
	compute_metrics(w);
	compute_cpi_stack(w, ua, ub);
	compute_significance(w);
}
