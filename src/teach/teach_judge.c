/*
 * teach_judge.c - from a lab's points to its effect and verdict (teach.h):
 * the two numbers a student compares, their ratio, whether the lab showed
 * what it set out to show on this host, and why not when it did not.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "teach.h"
#include "text.h"

/*
 * Shown when random data costs at least this many times sorted data:
 * issue 14 measured 13x on Zen 5 (3.5 ns against 0.26 ns an element);
 * 5x leaves room for cores with shorter pipelines.
 */
#define BRANCH_SHOWN_RATIO 5.0
/* The sweep shows the mechanism when its 50% point costs at least twice its 0% point. */
#define BRANCH_SWEEP_RISE 2.0
/* A knee matches a cache when it lies within this factor of the sysfs size (the brief's tolerance). */
#define KNEE_FACTOR 2.0
/* The ilp effect compares 1 chain with this many: past the multiply-add latency (about 4 cycles) of current cores. */
#define ILP_B_CHAINS 4
/* Shown when ILP_B_CHAINS chains do at least this many times the work of one (the brief's bar). */
#define ILP_SHOWN_RATIO 2.0

/* The point at x, or NULL. */
static const struct ud_lab_point *point_at(const struct ud_lab_result *r, double x)
{
	for (size_t i = 0; i < r->npoints; i++)
		if (fabs(r->points[i].x - x) < 1e-9)
			return &r->points[i];
	return NULL;
}

static void set_effect(struct ud_lab_result *r, double a, double b)
{
	r->a = a;
	r->b = b;
	r->ratio = isfinite(a) && isfinite(b) && a > 0 ? b / a : NAN;
}

static void judge_branch(struct ud_lab_result *r)
{
	const struct ud_lab_point *none = point_at(r, 0), *half = point_at(r, 50);
	double rise = none && half && none->y > 0 ? half->y / none->y : NAN;

	snprintf(r->a_label, sizeof(r->a_label), "sorted");
	snprintf(r->b_label, sizeof(r->b_label), "random, 50%% taken");
	set_effect(r, r->reference, half ? half->y : NAN);
	ud_replace(&r->measured,
		   "Random data costs %.3g ns an element against %.3g ns sorted: %s. Across the sweep the cost rises "
		   "from %.3g ns (0%% taken) to %.3g ns (50%%), %s.",
		   r->b, r->a, UD_RATIO_X(r->ratio), none ? none->y : NAN, half ? half->y : NAN, UD_RATIO_X(rise));
	r->shown = r->ratio >= BRANCH_SHOWN_RATIO && rise >= BRANCH_SWEEP_RISE;
	if (!(r->ratio >= BRANCH_SHOWN_RATIO))
		ud_replace(&r->why_not,
			   "random data costs only %s sorted (at least %.0fx expected): another process may have "
			   "shared the core, or this predictor learns more than 1 MB of history",
			   UD_RATIO_X(r->ratio), BRANCH_SHOWN_RATIO);
	else if (!(rise >= BRANCH_SWEEP_RISE))
		ud_replace(&r->why_not, "the sweep rose only %s from 0%% to 50%% taken (at least %.0fx expected)",
			   UD_RATIO_X(rise), BRANCH_SWEEP_RISE);
}

/* The knee nearest to kb, within KNEE_FACTOR, or NAN. */
static double knee_near(const struct ud_lab_result *r, double kb)
{
	double best = NAN;

	for (size_t i = 0; i < r->nknees && kb > 0; i++) {
		double f = fabs(log(r->knees_kb[i] / kb));

		if (f <= log(KNEE_FACTOR) + 1e-9 && !(fabs(log(best / kb)) <= f))
			best = r->knees_kb[i];
	}
	return best;
}

/* "L1d 32 KB: knee at 32 KB" or "L1d 32 KB: no knee within 2x" or "L1d unknown", appended to buf. */
static void describe_level(const struct ud_lab_result *r, const char *name, double kb, char *buf, size_t len)
{
	char size[32], knee[32];
	size_t used = strlen(buf);
	double k = knee_near(r, kb);

	ud_format_kb(kb, size, sizeof(size));
	ud_format_kb(k, knee, sizeof(knee));
	if (!(kb > 0))
		snprintf(buf + used, len - used, "%s%s size unknown", used ? "; " : "", name);
	else if (isfinite(k))
		snprintf(buf + used, len - used, "%s%s %s: knee at %s", used ? "; " : "", name, size, knee);
	else
		snprintf(buf + used, len - used, "%s%s %s: no knee within %.0fx", used ? "; " : "", name, size, KNEE_FACTOR);
}

static void judge_cache(struct ud_lab_result *r)
{
	char levels[200] = "", lo[32], hi[32];
	bool l1, l2;

	r->nknees = ud_knees_find(r->points, r->npoints, r->knees_kb, UD_TEACH_KNEES_MAX);
	l1 = isfinite(knee_near(r, r->sysfs.l1d));
	l2 = isfinite(knee_near(r, r->sysfs.l2));
	ud_format_kb(r->npoints ? r->points[0].x : NAN, lo, sizeof(lo));
	ud_format_kb(r->npoints ? r->points[r->npoints - 1].x : NAN, hi, sizeof(hi));
	snprintf(r->a_label, sizeof(r->a_label), "%s", lo);
	snprintf(r->b_label, sizeof(r->b_label), "%s", hi);
	set_effect(r, r->npoints ? r->points[0].y : NAN, r->npoints ? r->points[r->npoints - 1].y : NAN);
	describe_level(r, "L1d", r->sysfs.l1d, levels, sizeof(levels));
	describe_level(r, "L2", r->sysfs.l2, levels, sizeof(levels));
	describe_level(r, "L3", r->sysfs.l3, levels, sizeof(levels));
	ud_replace(&r->measured, "A load takes %.3g ns at %s and %.3g ns at %s (%s); %zu knee%s found. %s.", r->a, lo,
		   r->b, hi, UD_RATIO_X(r->ratio), r->nknees, r->nknees == 1 ? "" : "s", levels);
	r->shown = l1 && l2;
	if (!r->shown)
		ud_replace(&r->why_not,
			   "no knee within %.0fx of the %s size (%s): another process may have shared the caches, or "
			   "sysfs gives no size",
			   KNEE_FACTOR, !l1 && !l2 ? "L1d or L2" : !l1 ? "L1d" : "L2", levels);
}

static void judge_ilp(struct ud_lab_result *r)
{
	const struct ud_lab_point *one = point_at(r, 1), *four = point_at(r, ILP_B_CHAINS), *peak = NULL;

	for (size_t i = 0; i < r->npoints; i++)
		if (!peak || r->points[i].y > peak->y)
			peak = &r->points[i];
	snprintf(r->a_label, sizeof(r->a_label), "1 chain");
	snprintf(r->b_label, sizeof(r->b_label), "%d chains", ILP_B_CHAINS);
	set_effect(r, one ? one->y : NAN, four ? four->y : NAN);
	ud_replace(&r->measured,
		   "One chain does %.3g multiply-adds a ns, %d chains %.3g (%s); the most is %.3g, at %.0f chains.", r->a,
		   ILP_B_CHAINS, r->b, UD_RATIO_X(r->ratio), peak ? peak->y : NAN, peak ? peak->x : NAN);
	r->shown = r->ratio >= ILP_SHOWN_RATIO;
	if (!r->shown)
		ud_replace(&r->why_not,
			   "%d chains do only %s the work of one (at least %.0fx expected): another process may have "
			   "shared the core",
			   ILP_B_CHAINS, UD_RATIO_X(r->ratio), ILP_SHOWN_RATIO);
}

/*
 * An effect within its own noise shows nothing: a lab whose points' 95%
 * interval is as wide as the change it reports (ratio - 1, either way) is
 * not shown, whatever its ratio.
 */
static void judge_noise(struct ud_lab_result *r)
{
	double effect = fabs(r->ratio - 1);

	if (!r->shown || !isfinite(r->noise.ci95_rel) || !(r->noise.ci95_rel >= effect))
		return;
	r->shown = false;
	ud_replace(&r->why_not,
		   "too noisy: the 95%% interval of its points (%.1f%%) is as wide as the effect (%s, %.1f%%); run it "
		   "again on a quiet host",
		   100 * r->noise.ci95_rel, UD_RATIO_X(r->ratio), 100 * effect);
}

void ud_lab_judge(struct ud_lab_result *r)
{
	free(r->why_not);
	r->why_not = NULL;
	if (r->lab == UD_LAB_BRANCH)
		judge_branch(r);
	else if (r->lab == UD_LAB_CACHE)
		judge_cache(r);
	else
		judge_ilp(r);
	judge_noise(r);
}
