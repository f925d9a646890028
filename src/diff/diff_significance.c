/*
 * Whether one workload's speedup lies outside the noise of its sources
 * (SPEC §5.2 "significance"), with the speedup's 95% interval.
 *
 * Each side's noise comes from what measured its speedup: the score's
 * samples (run's own, `import --score V1,V2,...`, a -r N paste's COUNT
 * lines), else the summary a source printed (perf stat -r N: the mean and
 * the standard error of the mean), else it is one run.  For a speedup in
 * CPU time it is the task-clock counter's summary.  Mann-Whitney U takes
 * samples where both sides have enough of them; Welch's t takes means and
 * standard errors; a side with one run leaves the question open.
 */
#include <math.h>
#include <stdio.h>

#include "diff_priv.h"
#include "diff_thresholds.h"
#include "stats.h"

/* One side's noise: samples where there are some, else a summary. */
struct side_noise {
	const double *samples; /* borrowed; NULL for a summary */
	size_t n;              /* samples, or the runs behind the summary */
	/*
	 * n is the fewest runs the source implies, not their count (perf
	 * printed "+-" under a cut header): the test takes that many, which can
	 * only widen its interval
	 */
	bool at_least;
	double mean, rel_se;   /* the mean and its relative standard error; NAN unknown */
};

static struct side_noise score_noise(const struct ud_workload *w)
{
	const struct ud_score *s = &w->score;

	if (s->nsamples >= 2)
		return (struct side_noise){ s->samples, s->nsamples, false, ud_mean(s->samples, s->nsamples),
					    ud_rel_stderr(s->samples, s->nsamples) };
	if (s->runs >= 2) /* a summary; its spread NAN where the source printed none */
		return (struct side_noise){ NULL, (size_t)s->runs, false, s->median, s->rel_stderr };
	if (w->runs_at_least >= 2 && s->rel_stderr >= 0)
		return (struct side_noise){ NULL, (size_t)w->runs_at_least, true, s->median, s->rel_stderr };
	return (struct side_noise){ NULL, 1, false, s->median, NAN };
}

/* perf stat -r N's task-clock: the mean over the runs and its relative standard error (rel_stddev). */
static struct side_noise clock_noise(const struct ud_workload *w)
{
	const struct ud_counter *c = ud_workload_task_clock(w);
	double v = c && c->status == UD_COUNTED ? c->value : NAN;

	if (w->runs >= 2)
		return (struct side_noise){ NULL, (size_t)w->runs, false, v, c ? c->rel_stddev : NAN };
	if (w->runs_at_least >= 2 && c && c->rel_stddev >= 0)
		return (struct side_noise){ NULL, (size_t)w->runs_at_least, true, v, c->rel_stddev };
	return (struct side_noise){ NULL, 1, false, v, NAN };
}

/* The interval of b/a as an interval of the speedup, which is a/b when lower is better. */
static void set_interval(struct ud_significance *s, double lo, double hi, bool inverted)
{
	s->lo = inverted ? 1 / hi : lo;
	s->hi = inverted ? 1 / lo : hi;
}

static void welch(struct ud_significance *s, const struct side_noise *a, const struct side_noise *b, bool inverted)
{
	struct ud_welch t;

	if (!(a->rel_se >= 0) || !(b->rel_se >= 0) ||
	    ud_welch_ratio(a->mean, a->rel_se, a->n, b->mean, b->rel_se, b->n, UD_SIG_LEVEL, &t) != 0) {
		s->method = UD_SIG_NO_SPREAD;
		snprintf(s->note, sizeof(s->note), "%zu and %zu runs, but %s printed their spread: the noise is unknown",
			 a->n, b->n, !(a->rel_se >= 0) && !(b->rel_se >= 0) ? "neither source" : "one source never");
		return;
	}
	s->method = UD_SIG_WELCH;
	s->p = t.p;
	s->significant = t.p < UD_SIG_ALPHA;
	set_interval(s, t.lo, t.hi, inverted);
	snprintf(s->note, sizeof(s->note), "Welch's t on %s%zu and %s%zu runs (+-%.2g%% and +-%.2g%%): p = %.3g",
		 a->at_least ? "at least " : "", a->n, b->at_least ? "at least " : "", b->n, 100 * a->rel_se,
		 100 * b->rel_se, t.p);
}

static void mann_whitney(struct ud_significance *s, const struct side_noise *a, const struct side_noise *b,
			 bool inverted)
{
	double lo, hi;
	struct ud_welch t;

	s->method = UD_SIG_MANN_WHITNEY;
	s->p = ud_mann_whitney_p(a->samples, a->n, b->samples, b->n);
	s->significant = s->p < UD_SIG_ALPHA;
	/* The rank test's own interval; where it has none at this level (too many pairs), Welch's on the same samples. */
	if (ud_shift_ratio_ci(a->samples, a->n, b->samples, b->n, UD_SIG_LEVEL, &lo, &hi) == 0)
		set_interval(s, lo, hi, inverted);
	else if (ud_welch_ratio(a->mean, a->rel_se, a->n, b->mean, b->rel_se, b->n, UD_SIG_LEVEL, &t) == 0)
		set_interval(s, t.lo, t.hi, inverted);
	snprintf(s->note, sizeof(s->note), "Mann-Whitney U on %zu and %zu samples: p = %.3g", a->n, b->n, s->p);
}

void ud_diff_significance(struct ud_diff_workload *w)
{
	struct ud_significance *s = &w->sig;
	bool by_score = w->basis == UD_SPEEDUP_SCORE;
	struct side_noise a, b;

	*s = (struct ud_significance){ .method = UD_SIG_NONE, .significant = -1, .p = NAN, .lo = NAN, .hi = NAN };
	if (w->basis == UD_SPEEDUP_NONE) {
		snprintf(s->note, sizeof(s->note), "no speedup to test");
		return;
	}
	a = by_score ? score_noise(w->a) : clock_noise(w->a);
	b = by_score ? score_noise(w->b) : clock_noise(w->b);
	s->n_a = a.n;
	s->n_b = b.n;
	if (a.n < 2 || b.n < 2) {
		s->method = UD_SIG_SINGLE_RUN;
		snprintf(s->note, sizeof(s->note), "%s has one run: the noise is unknown",
			 a.n < 2 && b.n < 2 ? "each side" : a.n < 2 ? "A" : "B");
		return;
	}
	/* the speedup is b/a for a higher-is-better score, a/b for a time (and for CPU time) */
	bool inverted = !by_score || w->a->higher_is_better == 0;

	if (a.samples && b.samples && a.n >= UD_SIG_MIN_RANK_SAMPLES && b.n >= UD_SIG_MIN_RANK_SAMPLES)
		mann_whitney(s, &a, &b, inverted);
	else
		welch(s, &a, &b, inverted);
}

/*
 * perf prints "+-" as a percentage to two decimals: "+- 0.00%" is a spread
 * under half of its last digit, not none, and is taken as that half.
 */
#define PRINTED_SPREAD_FLOOR 0.00005

/* The runs behind a side's counts, or the fewest its source implies. */
static size_t runs_of(const struct ud_workload *x)
{
	return x->runs >= 2 ? (size_t)x->runs : (size_t)x->runs_at_least;
}

void ud_diff_counter_significance(const struct ud_diff_workload *w, const struct ud_counter *a,
				  const struct ud_counter *b, struct ud_per_unit *u)
{
	double ra = fmax(a->rel_stddev, PRINTED_SPREAD_FLOOR), rb = fmax(b->rel_stddev, PRINTED_SPREAD_FLOOR);
	struct ud_welch t;

	u->significant = -1;
	u->p = NAN;
	if (isnan(a->rel_stddev) || isnan(b->rel_stddev) ||
	    ud_welch_ratio(u->v.a, ra, runs_of(w->a), u->v.b, rb, runs_of(w->b), UD_SIG_LEVEL, &t) != 0)
		return;
	u->p = t.p;
	u->significant = t.p < UD_SIG_ALPHA;
}

bool ud_diff_mover_notable(const struct ud_per_unit *u)
{
	/* software counts (faults, switches) follow the load and the kernel, not the work */
	return u->cls != UD_CLASS_SOFTWARE && u->significant == 1 && u->p < UD_MOVER_FINDING_P &&
	       fabs(log(u->v.ratio)) >= log1p(UD_MOVER_FINDING_MIN_MOVE);
}

bool ud_diff_movers_speak(const struct ud_diff_workload *w)
{
	return w->verdict == UD_VERDICT_SAME && !(w->a->noise && w->a->noise->nwarnings) &&
	       !(w->b->noise && w->b->noise->nwarnings);
}
