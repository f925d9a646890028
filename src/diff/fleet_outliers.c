/*
 * fleet_outliers.c - each group's hosts judged against their group (fleet.h):
 * in a group of at least UD_FLEET_MIN_PEERS hosts, the moves beyond both the
 * group's spread and the host's own measured noise, each host's evidence
 * combined over every workload (which ranks the outliers), and the hosts
 * whose only such moves are where their own runs are noisy, named once; in
 * a smaller group, how far each host lies from the others.  In a group a
 * host fact splits (fleet_split.c) each host is judged against its own
 * side's median and spread: the split is the finding, not its hosts.
 *
 * A move is ln(value / group median).  The group's spread on a workload is
 * the MAD of its hosts' moves (diff_thresholds.h); a host's own noise is
 * the 95% interval its profile measured for that value.  A workload whose
 * own interval is above UD_NOISE_MAX_CI95_REL, or whose run warned of
 * noise (steal, a busy CPU, samples that disagree), is no evidence either
 * way: the run itself said its number is not to be trusted.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff_thresholds.h"
#include "fleet_priv.h"
#include "host_facts.h"
#include "noise.h"
#include "sort.h"

double ud_fleet_ratio(const struct ud_fleet_workload *w, double v, double r)
{
	if (!isfinite(v) || !isfinite(r) || v <= 0 || r <= 0)
		return NAN;
	return w->higher_is_better ? v / r : r / v;
}

/* What one host's moves over its group's workloads add up to. */
struct tally {
	double sum;           /* its capped z per workload judged */
	size_t n;             /* the workloads judged */
	bool outlier;         /* a move beyond its group's spread and its own noise */
	size_t noisy_w;       /* its largest move beyond the spread where it is noisy; SIZE_MAX none */
	double noisy_ratio;
};

static int by_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* Host k's first noise warning on workload w, borrowed; NULL none. */
static const char *warning_on(const struct ud_fleet_host *h, size_t w)
{
	for (size_t j = 0; j < h->nwarnings; j++)
		if (h->warnings[j].workload == w)
			return h->warnings[j].text;
	return NULL;
}

/*
 * Whether host h's own run of workload w is too noisy to be evidence: its
 * interval above the one a run warns of, compared as printed to 0.1% as
 * noise.c does (a run whose 5.04% drew no warning is not noisy here), or
 * a warning of its profile.
 */
static bool noisy_on(const struct ud_fleet_host *h, size_t w)
{
	return round(1000 * h->interval[w]) / 10 > 100 * UD_NOISE_MAX_CI95_REL || warning_on(h, w);
}

static int add_outlier(struct ud_fleet *f, size_t *cap, size_t k, size_t w, double ratio)
{
	if (f->noutliers == *cap) {
		size_t n = *cap ? 2 * *cap : 16;
		struct ud_fleet_outlier *o = realloc(f->outliers, n * sizeof(*o));

		if (!o)
			return -1;
		f->outliers = o;
		*cap = n;
	}
	f->outliers[f->noutliers] = (struct ud_fleet_outlier){ .host = k, .workload = w, .ratio = ratio,
								.interval = f->hosts[k].interval[w] };
	for (int i = 0; i < UD_FACTOR_COUNT; i++)
		f->outliers[f->noutliers].factor[i] = NAN;
	f->noutliers++;
	return 0;
}

/* Host k's move d on workload w against the group's limit, into its tally and the outliers. */
static int judge_move(struct ud_fleet *f, struct tally *t, size_t k, size_t w, double d, double limit,
		      size_t *cap)
{
	const struct ud_fleet_host *h = &f->hosts[k];
	/* its own 95% half-width as a move; unknown (one run): the group's spread alone judges it */
	double own = isfinite(h->interval[w]) ? log1p(h->interval[w]) : 0;
	/* not hypot(): Debian 12's libm binds it to hypot@GLIBC_2.35, which RHEL 9's glibc 2.34 lacks, so
	 * the RPM (issue 38) would not run there; both terms are logs of ratios, far from overflow */
	double sd = sqrt(pow(limit / UD_FLEET_OUTLIER_Z, 2) + pow(own / 1.96, 2));

	if (noisy_on(h, w)) {
		if (fabs(d) > limit && (t->noisy_w == SIZE_MAX || fabs(d) > fabs(log(t->noisy_ratio)))) {
			t->noisy_w = w;
			t->noisy_ratio = exp(d);
		}
		return 0;
	}
	if (!f->workloads[w].composite) {
		t->sum += fmax(-UD_FLEET_EVIDENCE_Z_CAP, fmin(UD_FLEET_EVIDENCE_Z_CAP, d / sd));
		t->n++;
	}
	if (fabs(d) <= limit || fabs(d) <= own)
		return 0;
	t->outlier = true;
	return add_outlier(f, cap, k, w, exp(d));
}

/*
 * Hosts (n of them, the group's or a side's) on workload w: their moves
 * from their median m, the limit median +- k x MAD (at least
 * UD_FLEET_OUTLIER_MIN_MOVE), each move judged.  dev is scratch for n moves.
 */
static int judge_workload(struct ud_fleet *f, const size_t *hosts, size_t nhosts, size_t w, double m, double *dev,
			  struct tally *tally, size_t *cap)
{
	double limit;
	size_t n = 0;

	for (size_t i = 0; i < nhosts; i++) {
		double s = ud_fleet_ratio(&f->workloads[w], f->hosts[hosts[i]].value[w], m);

		if (isfinite(s))
			dev[n++] = fabs(log(s));
	}
	if (n < UD_FLEET_MIN_PEERS)
		return 0;
	ud_sort(dev, n, sizeof(*dev), by_double);
	limit = fmax(UD_FLEET_OUTLIER_MADS * ud_fleet_quantile(dev, n, 0.5), log(UD_FLEET_OUTLIER_MIN_MOVE));
	for (size_t i = 0; i < nhosts; i++) {
		size_t k = hosts[i];
		double s = ud_fleet_ratio(&f->workloads[w], f->hosts[k].value[w], m);

		if (isfinite(s) && judge_move(f, &tally[k], k, w, log(s), limit, cap) != 0)
			return -1;
	}
	return 0;
}

/* Group g's hosts on workload w: against the group's median, or where a fact splits it, each against its side's. */
static int judge_group_workload(struct ud_fleet *f, const struct ud_fleet_group *grp, size_t w, double *dev,
				struct tally *tally, size_t *cap)
{
	const struct ud_fleet_split *sp = grp->split;

	if (!sp)
		return judge_workload(f, grp->hosts, grp->nhosts, w, grp->dist[w].median, dev, tally, cap);
	for (int i = 0; i < 2; i++)
		if (judge_workload(f, sp->side[i].hosts, sp->side[i].nhosts, w, sp->side[i].median[w], dev, tally,
				   cap) != 0)
			return -1;
	return 0;
}

/* Each host's evidence, and the noisy hosts: a move beyond the spread only where its own runs are noisy. */
static int settle(struct ud_fleet *f, const struct tally *tally)
{
	if (!(f->noisy = malloc((f->nhosts ? f->nhosts : 1) * sizeof(*f->noisy))))
		return -1;
	for (size_t k = 0; k < f->nhosts; k++) {
		struct ud_fleet_host *h = &f->hosts[k];
		const struct tally *t = &tally[k];

		h->evidence = t->n ? t->sum / sqrt((double)t->n) : NAN;
		h->evidence_workloads = t->n;
		h->noisy = t->noisy_w != SIZE_MAX && !t->outlier;
		if (h->noisy)
			f->noisy[f->nnoisy++] = (struct ud_fleet_noisy){ k, t->noisy_w, t->noisy_ratio,
									 h->interval[t->noisy_w],
									 warning_on(h, t->noisy_w) };
	}
	return 0;
}

/* How far host k of a small group lies from the others: per workload its ratio to the others' median. */
static void distance(struct ud_fleet *f, const struct ud_fleet_group *grp, size_t k, double *others)
{
	struct ud_fleet_host *h = &f->hosts[k];
	double sum = 0, largest = 0;

	h->distance = (struct ud_fleet_distance){ NAN, 0, SIZE_MAX, NAN };
	for (size_t w = 0; w < f->nworkloads; w++) {
		size_t n = 0;
		double r;

		for (size_t i = 0; i < grp->nhosts; i++)
			if (grp->hosts[i] != k && isfinite(f->hosts[grp->hosts[i]].value[w]))
				others[n++] = f->hosts[grp->hosts[i]].value[w];
		ud_sort(others, n, sizeof(*others), by_double);
		r = n ? ud_fleet_ratio(&f->workloads[w], h->value[w], ud_fleet_quantile(others, n, 0.5)) : NAN;
		if (!isfinite(r) || f->workloads[w].composite)
			continue;
		sum += log(r);
		h->distance.nworkloads++;
		if (h->distance.largest == SIZE_MAX || fabs(log(r)) > largest) {
			largest = fabs(log(r));
			h->distance.largest = w;
			h->distance.largest_ratio = r;
		}
	}
	if (h->distance.nworkloads)
		h->distance.geomean = exp(sum / (double)h->distance.nworkloads);
}

/* Every group judged: tested ones move by move, small ones by distance. */
static int judge_groups(struct ud_fleet *f, struct tally *tally, double *dev)
{
	size_t cap = 0;

	for (size_t k = 0; k < f->nhosts; k++) {
		tally[k] = (struct tally){ .noisy_w = SIZE_MAX };
		f->hosts[k].distance = (struct ud_fleet_distance){ NAN, 0, SIZE_MAX, NAN };
	}
	for (size_t g = 0; g < f->ngroups; g++) {
		struct ud_fleet_group *grp = &f->groups[g];

		grp->tested = grp->nhosts >= UD_FLEET_MIN_PEERS;
		for (size_t w = 0; grp->tested && w < f->nworkloads; w++)
			if (judge_group_workload(f, grp, w, dev, tally, &cap) != 0)
				return -1;
		for (size_t i = 0; !grp->tested && grp->nhosts >= 2 && i < grp->nhosts; i++)
			distance(f, grp, grp->hosts[i], dev);
	}
	return settle(f, tally);
}

/* "kernel 6.8.0 -> 6.1.0": one host fact as the group's median host has it, then the host. */
static void fact_change(FILE *out, const struct ud_env_entry *e)
{
	char a[512], b[512];

	fprintf(out, "%s %s -> %s", e->field, ud_fact_text(&e->a, a, sizeof(a)), ud_fact_text(&e->b, b, sizeof(b)));
}

/* Outlier o explained from d (its group's median against the host): the workload's explanation and the facts. */
static int explain(struct ud_fleet_outlier *o, const char *wname, const struct ud_diff *d, const char *why_not)
{
	const char *name = NULL;
	size_t len;
	FILE *out = open_memstream(&o->explanation, &len);

	if (!out)
		return -1;
	for (size_t j = 0; d && j < d->nworkloads && !name; j++) {
		const struct ud_diff_workload *dw = &d->workloads[j];

		if (strcmp(dw->a->name, wname) != 0 || !dw->explanation)
			continue;
		name = dw->a->name;
		memcpy(o->factor, dw->factor, sizeof(o->factor));
		o->has_dominant = dw->has_dominant;
		o->dominant = dw->dominant;
		fputs(dw->explanation, out);
	}
	if (!d)
		fprintf(out, "not explained: %s", why_not);
	if (d && d->nenv) {
		fputs(name ? " Host facts that differ from its group's: " : "Host facts that differ from its group's: ", out);
		for (size_t e = 0; e < d->nenv; e++) {
			fputs(e ? "; " : "", out);
			fact_change(out, &d->env[e]);
		}
		fputs(".", out);
	} else if (d) {
		fputs(name ? " No host fact differs from its group's." : "No host fact differs from its group's.", out);
	}
	return fclose(out) == 0 ? 0 : -1;
}

static int by_host(const void *x, const void *y)
{
	const struct ud_fleet_outlier *a = x, *b = y;

	if (a->host != b->host)
		return a->host < b->host ? -1 : 1;
	return (a->workload > b->workload) - (a->workload < b->workload);
}

/* Every outlier explained: each outlier host read again and diffed against its group's median once. */
static int explain_outliers(struct ud_fleet *f)
{
	ud_sort(f->outliers, f->noutliers, sizeof(*f->outliers), by_host);
	for (size_t i = 0; i < f->noutliers;) {
		size_t k = f->outliers[i].host, j = i;
		const struct ud_fleet_group *grp = &f->groups[f->hosts[k].group];
		struct ud_err err = UD_ERR_INIT;
		/* read again from its file, as ud_fleet_reload() does */
		struct ud_profile *p = ud_profile_load(f->hosts[k].path, &err);
		struct ud_diff_input di = { grp->median, p, grp->median->host->label,
					    f->hosts[k].path, f->db };
		struct ud_diff *d = p ? ud_diff_build(&di, &err) : NULL;
		int ret = 0;

		for (; j < f->noutliers && f->outliers[j].host == k && ret == 0; j++)
			ret = explain(&f->outliers[j], f->workloads[f->outliers[j].workload].name, d, err.msg);
		ud_diff_free(d);
		ud_profile_free(p);
		if (ret != 0)
			return -1;
		i = j;
	}
	return 0;
}

static const struct ud_fleet_host *rank_hosts; /* qsort has no context argument; judging is not reentrant */

/* The strongest evidence first (either way), then the host, then its largest move first. */
static int by_evidence(const void *x, const void *y)
{
	const struct ud_fleet_outlier *a = x, *b = y;
	double ea = fabs(rank_hosts[a->host].evidence), eb = fabs(rank_hosts[b->host].evidence);
	double ma = fabs(log(a->ratio)), mb = fabs(log(b->ratio));

	ea = isfinite(ea) ? ea : 0, eb = isfinite(eb) ? eb : 0;
	if (a->host != b->host && ea != eb)
		return ea < eb ? 1 : -1;
	if (a->host != b->host)
		return a->host < b->host ? -1 : 1;
	if (ma != mb)
		return ma < mb ? 1 : -1;
	return (a->workload > b->workload) - (a->workload < b->workload);
}

static int by_noisy_move(const void *x, const void *y)
{
	const struct ud_fleet_noisy *a = x, *b = y;
	double ma = fabs(log(a->ratio)), mb = fabs(log(b->ratio));

	if (ma != mb)
		return ma < mb ? 1 : -1;
	return (a->host > b->host) - (a->host < b->host);
}

void ud_fleet_ranking_text(char *buf, size_t len)
{
	snprintf(buf, len, "ranked by the evidence over every workload judged, not by the largest move: each move from "
		 "the group's median in standard deviations of the group's spread and the host's own interval, at most "
		 "%g, summed and divided by the square root of their number (Stouffer's z, below 0 slower)",
		 UD_FLEET_EVIDENCE_Z_CAP);
}

int ud_fleet_judge(struct ud_fleet *f)
{
	struct tally *tally = malloc((f->nhosts ? f->nhosts : 1) * sizeof(*tally));
	double *dev = malloc((f->nhosts ? f->nhosts : 1) * sizeof(*dev));
	int ret = tally && dev ? judge_groups(f, tally, dev) : -1;

	free(tally);
	free(dev);
	if (ret != 0 || explain_outliers(f) != 0)
		return -1;
	rank_hosts = f->hosts;
	if (f->noutliers)
		ud_sort(f->outliers, f->noutliers, sizeof(*f->outliers), by_evidence);
	if (f->nnoisy)
		ud_sort(f->noisy, f->nnoisy, sizeof(*f->noisy), by_noisy_move);
	return 0;
}
