/*
 * The summary across workloads (SPEC §5.1): the geometric mean of the
 * speedups, the same per group of kernel share, and a headline that reads
 * the groups against each other.  Composite scores (UnixBench's index, the
 * geometric mean of the other rows) stay out of every mean: counting them
 * would count their parts twice.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "diff_thresholds.h"
#include "stats.h"
#include "text.h"

bool ud_diff_in_summary(const struct ud_diff *d, const struct ud_diff_workload *w)
{
	return !w->composite && w->basis == d->summary.basis && isfinite(w->speedup) && w->speedup > 0 &&
	       w->verdict != UD_VERDICT_NO_CLAIM;
}

/* The scores' basis where any workload has one, else CPU time's (the enum lists them best first). */
static enum ud_speedup_basis summary_basis(const struct ud_diff *d)
{
	enum ud_speedup_basis best = UD_SPEEDUP_NONE;

	for (size_t i = 0; i < d->nworkloads; i++)
		if (!d->workloads[i].composite && d->workloads[i].basis < best)
			best = d->workloads[i].basis;
	return best;
}

static bool any_counted(const struct ud_workload *w)
{
	if (w->ntopdown > 0)
		return true;
	for (size_t i = 0; i < w->ncounters; i++)
		if (w->counters[i].status == UD_COUNTED)
			return true;
	return false;
}

/* The geometric mean of the speedups of the workloads in group g (UD_GROUP_COUNT: all). */
static double geomean_of(const struct ud_diff *d, int g, double *buf, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_diff_workload *w = &d->workloads[i];

		if (ud_diff_in_summary(d, w) && (g == UD_GROUP_COUNT || w->group == (enum ud_group)g))
			buf[(*n)++] = w->speedup;
	}
	return ud_geomean(buf, *n);
}

/* "kernel-heavy ones 4.20x faster (3)" */
static int group_phrase(char *buf, size_t len, const struct ud_diff_summary *s, enum ud_group g)
{
	char words[48];

	ud_speedup_words(s->group_geomean[g], -1, false, words, sizeof(words));
	return snprintf(buf, len, "%s ones %s (%zu)", ud_group_name(g), words, s->group_n[g]);
}

/* The groups' sentence names no workload or host: its words and numbers fit this. */
#define GROUPS_SENTENCE_MAX 512

/* The sentence that sets kernel-heavy against compute-bound work, when both are there. */
static void groups_sentence(char *buf, size_t len, const struct ud_diff_summary *s)
{
	const double *g = s->group_geomean;
	char heavy[96], bound[96];
	double gap;

	buf[0] = '\0';
	if (!s->group_n[UD_GROUP_KERNEL_HEAVY] || !s->group_n[UD_GROUP_COMPUTE_BOUND])
		return;
	group_phrase(heavy, sizeof(heavy), s, UD_GROUP_KERNEL_HEAVY);
	group_phrase(bound, sizeof(bound), s, UD_GROUP_COMPUTE_BOUND);
	gap = g[UD_GROUP_KERNEL_HEAVY] / g[UD_GROUP_COMPUTE_BOUND];
	if (gap >= UD_GROUP_GAP || gap <= 1 / UD_GROUP_GAP)
		snprintf(buf, len,
			 " The %s against the %s: a gap that large points at the kernel path (mitigations, kernel "
			 "version, virtualisation) rather than the cores.",
			 heavy, bound);
	else
		snprintf(buf, len, " The %s, the %s: kernel and user work moved alike.", heavy, bound);
}

/*
 * Whether the summary's speedup is outside the noise: a lone workload's
 * test, else the geometric mean's interval (1 outside it, 0 inside, -1 when
 * there is none).
 */
static int summary_significance(const struct ud_diff *d)
{
	const struct ud_diff_summary *s = &d->summary;
	size_t same = 0;

	/* every workload within its noise: no interval of their mean says more (one noisy workload pulled it out) */
	for (size_t i = 0; i < d->nworkloads; i++)
		same += ud_diff_in_summary(d, &d->workloads[i]) && d->workloads[i].verdict == UD_VERDICT_SAME;
	if (s->ngeomean && same == s->ngeomean)
		return 0;

	if (s->ngeomean == 1)
		for (size_t i = 0; i < d->nworkloads; i++)
			if (ud_diff_in_summary(d, &d->workloads[i]))
				return d->workloads[i].sig.significant;
	if (!isfinite(s->geomean_lo))
		return -1;
	return s->geomean_lo > 1 || s->geomean_hi < 1;
}

/* " (95% interval 1.21-1.38x)", or " (within the noise: 95% interval 0.97-1.06x)", or "" */
static void interval_words(char *buf, size_t len, const struct ud_diff *d, int significant)
{
	const struct ud_diff_summary *s = &d->summary;
	char lo[UD_NUMBER_MAX];

	buf[0] = '\0';
	/* scores alone, and none with a spread to judge by: how much, never whether (issue 40) */
	if (significant < 0 && !s->counters && !isfinite(s->geomean_lo)) {
		snprintf(buf, len, "; unverified: no workload has runs with a spread to judge the noise by");
		return;
	}
	/* every workload within its own noise, though their mean's interval is not: the workloads' word stands */
	if (significant == 0 && (s->geomean_lo > 1 || s->geomean_hi < 1))
		snprintf(buf, len, "; every workload within its own noise");
	else if (isfinite(s->geomean_lo))
		snprintf(buf, len, " (%s95%% interval %s-%s)", significant == 0 ? "within the noise: " : "",
			 ud_format_ratio(s->geomean_lo, lo, sizeof(lo)),
			 UD_RATIO_X(s->geomean_hi));
}

/*
 * Whether the two profiles are of one machine: its model, CPUs and core
 * known alike on both.  There more CPU is the conditions', not the
 * hardware's; between machines (16 cores against 8) it is the speedup.
 */
static bool one_machine(const struct ud_diff *d)
{
	static const char *const facts[] = { "cpu.model_name", "cpu.online_cpus", "cpu.uarch" };
	const struct ud_host *a = d->host[UD_SIDE_A].profile->host, *b = d->host[UD_SIDE_B].profile->host;

	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		struct ud_fact fa = ud_host_fact(a, facts[i]), fb = ud_host_fact(b, facts[i]);

		if (fa.type == UD_FACT_ABSENT || fa.type == UD_FACT_NULL || !ud_fact_equal(&fa, &fb))
			return false;
	}
	return true;
}

/*
 * Where no workload's faster or slower verdict is the work's own (each is
 * the same, or taken on a noisy host, or on one machine carried by more
 * CPU) and some are qualified: the ratio stated, and why it is no claim
 * (issue 33: two profiles of one host under changing load must not
 * headline a speedup).  false where a plain claim stands; *out is then
 * untouched, else the sentence (caller owns; NULL when out of memory).
 */
static bool qualified_sentence(char **out, const struct ud_diff *d)
{
	const struct ud_diff_summary *s = &d->summary;
	size_t n[UD_QUALIFIED_COUNT] = { 0 }, same = 0, plain = 0;
	bool machine = one_machine(d), ok;
	char *buf;

	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_diff_workload *w = &d->workloads[i];
		bool qualified = w->qualified == UD_QUALIFIED_NOISY || (w->qualified == UD_QUALIFIED_MORE_CPU && machine);

		if (!ud_diff_in_summary(d, w))
			continue;
		same += w->verdict == UD_VERDICT_SAME;
		plain += w->verdict != UD_VERDICT_SAME && !qualified;
		n[w->qualified]++;
	}
	if (plain || !(n[UD_QUALIFIED_MORE_CPU] + n[UD_QUALIFIED_NOISY]))
		return false;
	buf = ud_printf_new("%s's %s against %s %s not the work's: ", d->host[UD_SIDE_B].label,
			    UD_RATIO_X(s->geomean_speedup), d->host[UD_SIDE_A].label,
			    s->ngeomean == 1 ? "on the one workload compared is" : "(geometric mean) is");
	ok = buf != NULL;
	if (same && ok)
		ok = ud_append(&buf, "%zu within the noise, ", same);
	if (n[UD_QUALIFIED_MORE_CPU] && ok)
		ok = ud_append(&buf, "%zu carried by more CPU on one side, ", n[UD_QUALIFIED_MORE_CPU]);
	if (n[UD_QUALIFIED_NOISY] && ok)
		ok = ud_append(&buf, "%zu measured on a noisy host, ", n[UD_QUALIFIED_NOISY]);
	if (ok) {
		buf[strlen(buf) - 2] = '\0'; /* the last ", " */
		ok = ud_append(&buf, " (see each workload).");
	}
	if (!ok) {
		free(buf);
		buf = NULL;
	}
	*out = buf;
	return true;
}

/*
 * The first sentence: how much faster over how many workloads, and by what
 * measure, in *out (caller owns; NULL when out of memory).  Returns whether
 * it claims a speedup, which the groups' sentence may then break down.
 */
static bool first_sentence(char **out, const struct ud_diff *d)
{
	const struct ud_diff_summary *s = &d->summary;
	const char *la = d->host[UD_SIDE_A].label, *lb = d->host[UD_SIDE_B].label;
	const char *measure = s->basis == UD_SPEEDUP_TASK_CLOCK ? ", in CPU time (task-clock): no scores to compare" : "";
	int significant = summary_significance(d);
	char words[48], interval[96];
	size_t composites = 0;
	const struct ud_diff_workload *no_claim = NULL;

	for (size_t i = 0; i < d->nworkloads; i++) {
		composites += d->workloads[i].composite;
		if (!no_claim && d->workloads[i].verdict == UD_VERDICT_NO_CLAIM)
			no_claim = &d->workloads[i];
	}
	ud_speedup_words(s->geomean_speedup, significant, true, words, sizeof(words));
	interval_words(interval, sizeof(interval), d, significant);
	if (!s->ngeomean && composites)
		*out = ud_printf_new("%s and %s have only composite scores in common: see them below.", la, lb);
	else if (!s->ngeomean && no_claim)
		*out = ud_printf_new("No speed verdict: %s (%s).", no_claim->verdict_reason, no_claim->a->name);
	else if (!s->ngeomean)
		*out = ud_printf_new("No workload has a speedup (no score and no task-clock on a side): the counters "
				     "stand side by side.");
	else if (qualified_sentence(out, d))
		return false;
	else if (s->ngeomean == 1)
		*out = ud_printf_new("%s is %s %s on the one workload compared%s%s.", lb, words, la, interval, measure);
	else
		*out = ud_printf_new("%s is %s %s over %zu workloads (geometric mean%s)%s.", lb, words, la,
				     s->ngeomean, interval, measure);
	return s->ngeomean > 0 && significant != 0;
}

static int headline(struct ud_diff *d)
{
	const struct ud_diff_summary *s = &d->summary;
	static const char no_counters[] = " No counters on either side: the scores say how much, not why.";
	char *first = NULL, groups[GROUPS_SENTENCE_MAX] = "";

	/* the kernel-heavy and compute-bound ones apart only where there is a speedup to break down */
	if (first_sentence(&first, d))
		groups_sentence(groups, sizeof(groups), s);
	d->summary.headline = first ? ud_printf_new("%s%s%s", first, groups, s->counters ? "" : no_counters) : NULL;
	free(first);
	return d->summary.headline ? 0 : -1;
}

/*
 * The geometric mean's interval: each workload's interval on the log scale
 * read as +-1.96 standard errors, the errors taken as independent, so the
 * mean's is sqrt(sum se^2) / n; none unless every workload behind the mean
 * has an interval.
 */
static void geomean_interval(struct ud_diff *d)
{
	struct ud_diff_summary *s = &d->summary;
	const double z = 1.959964; /* the normal's 97.5% quantile */
	double var = 0;

	s->geomean_lo = s->geomean_hi = NAN;
	if (!s->ngeomean)
		return;
	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_significance *g = &d->workloads[i].sig;

		if (!ud_diff_in_summary(d, &d->workloads[i]))
			continue;
		if (!(g->lo > 0) || !(g->hi > 0))
			return;
		var += pow((log(g->hi) - log(g->lo)) / (2 * z), 2);
	}
	double se = sqrt(var) / (double)s->ngeomean, l = log(s->geomean_speedup);

	s->geomean_lo = exp(l - z * se);
	s->geomean_hi = exp(l + z * se);
}

int ud_diff_summarize(struct ud_diff *d)
{
	struct ud_diff_summary *s = &d->summary;
	double *buf = malloc((d->nworkloads + 1) * sizeof(double));

	if (!buf)
		return -1;
	s->basis = summary_basis(d);
	s->geomean_speedup = geomean_of(d, UD_GROUP_COUNT, buf, &s->ngeomean);
	for (int g = 0; g < UD_GROUP_COUNT; g++)
		s->group_geomean[g] = geomean_of(d, g, buf, &s->group_n[g]);
	free(buf);
	geomean_interval(d);
	for (size_t i = 0; i < d->nworkloads && !s->counters; i++)
		s->counters = any_counted(d->workloads[i].a) || any_counted(d->workloads[i].b);
	return headline(d);
}
