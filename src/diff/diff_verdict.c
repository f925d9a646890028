/*
 * A workload's verdict (SPEC §5.3): faster, slower, the same, or no claim,
 * with the reason in words.  No claim without a measurement of work: no
 * score and no CPU time, a command that waited nearly all of its time, a
 * single run too short to time.  The same where the test found the move
 * within the noise, or where each side's own samples drifted between their
 * first and second halves by as much as the two sides differ (two profiles
 * of one host under changing load).  Faster or slower otherwise, saying
 * how strong the evidence is, and saying first when the side that won got
 * more CPU rather than did the work in less of it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "diff_thresholds.h"
#include "stats.h"
#include "text.h"

static const char *const verdict_names[UD_VERDICT_COUNT] = {
	[UD_VERDICT_FASTER] = "faster",
	[UD_VERDICT_SLOWER] = "slower",
	[UD_VERDICT_SAME] = "same",
	[UD_VERDICT_NO_CLAIM] = "no-claim",
};

const char *ud_verdict_name(enum ud_verdict v)
{
	return verdict_names[v];
}

/* Whether x's score is its own elapsed time (a counted command, perf stat's block): what waiting inflates. */
static bool timed_command(const struct ud_workload *x)
{
	return x->higher_is_better == 0 && x->units && strcmp(x->units, "s") == 0;
}

/*
 * The drift of x's samples: |ln| of the median of their second half over
 * that of their first, 0 with fewer than UD_SIG_MIN_RANK_SAMPLES.
 */
static double drift(const struct ud_workload *x)
{
	size_t n = x->score.nsamples, h = n / 2;

	if (n < UD_SIG_MIN_RANK_SAMPLES)
		return 0;
	double first = ud_median(x->score.samples, h), second = ud_median(x->score.samples + (n - h), h);

	return first > 0 && second > 0 ? fabs(log(second / first)) : 0;
}

/* Whether x failed: an outcome that is not "ok" (a profile without one says nothing either way). */
static bool failed(const struct ud_workload *x)
{
	return x->outcome && strcmp(x->outcome, "ok") != 0;
}

/*
 * Why no speedup could be had: the side that failed, with what stopped it
 * ("exited with status 3: license server unreachable"), before the side
 * that merely has no measurement of its work.
 */
static bool unmeasured(struct ud_diff_workload *w)
{
	const struct ud_workload *a = w->a, *b = w->b;
	bool ma = isfinite(a->score.median) || ud_workload_task_clock_ns(a) > 0;

	if (failed(a) && failed(b))
		return ud_replace(&w->verdict_reason, "A %s; B %s", a->outcome, b->outcome);
	if (failed(a) || failed(b))
		return ud_replace(&w->verdict_reason, "%s %s", failed(a) ? "A" : "B", failed(a) ? a->outcome : b->outcome);
	if (!ma && !(isfinite(b->score.median) || ud_workload_task_clock_ns(b) > 0))
		return ud_replace(&w->verdict_reason, "no score and no CPU time on either side: nothing measured the work");
	return ud_replace(&w->verdict_reason, "%s has no score and no CPU time: nothing measured its work, so %s's %s "
			  "has nothing to be compared with", ma ? "B" : "A", ma ? "A" : "B",
			  isfinite((ma ? a : b)->score.median) ? "score" : "CPU time");
}

/* No claim, with its reason; -1 when out of memory for it. */
static int no_claim(struct ud_diff_workload *w)
{
	const struct ud_ab *cpus = &w->metric[UD_M_CPUS_UTILIZED];

	if (w->basis == UD_SPEEDUP_NONE)
		return unmeasured(w) ? 1 : -1;
	if (timed_command(w->a) && (cpus->a < UD_MIN_UTILIZATION || cpus->b < UD_MIN_UTILIZATION))
		return ud_replace(&w->verdict_reason,
				  "%s ran on a CPU %.2g%% of its elapsed time: that time measures waiting, not work",
				  cpus->a < cpus->b ? "A" : "B", 100 * fmin(cpus->a, cpus->b))
			       ? 1
			       : -1;
	if (timed_command(w->a) && w->sig.method == UD_SIG_SINGLE_RUN &&
	    (w->a->elapsed_ns < UD_MIN_SINGLE_RUN_NS || w->b->elapsed_ns < UD_MIN_SINGLE_RUN_NS))
		return ud_replace(&w->verdict_reason,
				  "one run of %.2g ms against %.2g ms: too short to time (start-up and the scheduler's "
				  "tick weigh as much as the work)",
				  w->a->elapsed_ns / 1e6, w->b->elapsed_ns / 1e6)
			       ? 1
			       : -1;
	return 0;
}

/* The same, with its reason; -1 when out of memory for it. */
static int same(struct ud_diff_workload *w)
{
	double d = fmax(drift(w->a), drift(w->b));

	if (w->sig.significant == 0 || w->speedup == 1)
		return ud_replace(&w->verdict_reason, "within the noise (%s)", w->sig.note) ? 1 : -1;
	if (fabs(log(w->speedup)) < d)
		return ud_replace(&w->verdict_reason,
				  "the %s is less than a side's own samples drifted between their first and second "
				  "halves (%s): the load changed under the measurement",
				  UD_RATIO_X(w->speedup >= 1 ? w->speedup : 1 / w->speedup), UD_RATIO_X(exp(d)))
			       ? 1
			       : -1;
	return 0;
}

/* How strong the evidence of a move is, in words. */
static void evidence_words(const struct ud_diff_workload *w, char *buf, size_t len)
{
	const struct ud_significance *s = &w->sig;

	if (s->significant == 1 && s->p >= UD_SIG_WEAK)
		snprintf(buf, len, "weak evidence: p = %.2g", s->p);
	else if (s->significant == 1)
		snprintf(buf, len, "p = %.2g", s->p);
	else if (s->method == UD_SIG_SINGLE_RUN)
		snprintf(buf, len, "%s: unverified", s->n_a < 2 && s->n_b < 2 ? "one run each" : s->n_a < 2 ? "one run of A"
																 : "one run of B");
	else
		snprintf(buf, len, "unverified: %s", s->note);
}

/* The first noise warning of a side measured on a noisy host (noise.h), with the side; NULL where neither was. */
static const char *noisy_side(const struct ud_diff_workload *w, const char **side)
{
	const struct ud_noise *n[UD_SIDE_COUNT] = { w->a->noise, w->b->noise };

	for (int s = 0; s < UD_SIDE_COUNT; s++)
		if (n[s] && n[s]->nwarnings) {
			*side = s == UD_SIDE_A ? "A" : "B";
			return n[s]->warnings[0];
		}
	return NULL;
}

int ud_diff_verdict(struct ud_diff_workload *w)
{
	char evidence[192];
	const char *side = NULL, *noise;
	int r;

	w->qualified = UD_QUALIFIED_NONE;
	if ((r = no_claim(w)) != 0) {
		w->verdict = UD_VERDICT_NO_CLAIM;
		return r < 0 ? -1 : 0;
	}
	if ((r = same(w)) != 0) {
		w->verdict = UD_VERDICT_SAME;
		return r < 0 ? -1 : 0;
	}
	w->verdict = w->speedup > 1 ? UD_VERDICT_FASTER : UD_VERDICT_SLOWER;
	evidence_words(w, evidence, sizeof(evidence));
	/* the side that won got more CPU: said before any "faster" */
	if (w->has_dominant && w->dominant == UD_FACTOR_UTILIZATION) {
		w->qualified = UD_QUALIFIED_MORE_CPU;
		return ud_replace(&w->verdict_reason,
				  "%s got more CPU (utilization %.3g -> %.3g CPUs carries %.0f%%), not more work per "
				  "CPU second; %s",
				  w->speedup > 1 ? "B" : "A", w->metric[UD_M_CPUS_UTILIZED].a,
				  w->metric[UD_M_CPUS_UTILIZED].b, 100 * w->share[UD_FACTOR_UTILIZATION], evidence)
			       ? 0
			       : -1;
	}
	if ((noise = noisy_side(w, &side)) != NULL) {
		/* a busy host slows the work per CPU second too (caches, memory, SMT siblings): no test tells it apart */
		w->qualified = UD_QUALIFIED_NOISY;
		return ud_replace(&w->verdict_reason,
				  "measured on a noisy host (%s: %s): the difference may be the load's, not the "
				  "work's; %s",
				  side, noise, evidence)
			       ? 0
			       : -1;
	}
	return ud_replace(&w->verdict_reason, "%s", evidence) ? 0 : -1;
}
