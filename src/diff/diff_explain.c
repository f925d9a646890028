/*
 * The explanation of one workload: which host is how much faster and
 * whether that is outside the noise, then the factors in the direction of
 * the result (the dominant first) and those that pulled the other way, the
 * misses that can carry an IPC change (causes), and the caveats an expert
 * states before crediting the cores.  It reads the computed model only, so
 * a later explanation can add sentences from new fields without touching
 * the arithmetic.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "diff_thresholds.h"
#include "text.h"

/* The two hosts' labels, for the phrases that name the side a ratio favours. */
struct labels {
	const char *a, *b;
};

/* The most differing facts named beside one factor: the Environment section lists them all. */
#define ENV_BESIDE_MAX 3

struct env_walk {
	const struct ud_host *b;
	const char *const *fields; /* names, or prefixes ending in '.' */
	FILE *f; /* NULL while only counting */
	int n;
};

static bool env_field_wanted(const char *name, const char *const *fields)
{
	for (; *fields; fields++) {
		size_t len = strlen(*fields);

		if ((*fields)[len - 1] == '.' ? strncmp(name, *fields, len) == 0 : strcmp(name, *fields) == 0)
			return true;
	}
	return false;
}

static int env_visit(const char *name, const struct ud_fact *a, void *arg)
{
	struct env_walk *e = arg;
	struct ud_fact b;
	char ta[96], tb[96];

	if (a->type == UD_FACT_GROUP || a->type == UD_FACT_NULL || !env_field_wanted(name, e->fields))
		return 0;
	b = ud_host_fact(e->b, name);
	if (b.type == UD_FACT_ABSENT || b.type == UD_FACT_NULL || ud_fact_equal(a, &b))
		return 0;
	if (e->n++ < ENV_BESIDE_MAX && e->f)
		fprintf(e->f, "%s%s %s on A, %s on B", e->n > 1 ? "; " : "", name, ud_fact_text(a, ta, sizeof(ta)),
			ud_fact_text(&b, tb, sizeof(tb)));
	return 0;
}

/*
 * The facts that bear on a factor where both hosts know them and disagree
 * (issue 33: a governor beside the clock, mitigations beside a kernel
 * crossing), after lead: "; the hosts differ: cpufreq.governor powersave on
 * A, performance on B".  Nothing where no such fact differs; returns how
 * many do.
 */
static int env_beside(FILE *f, const struct ud_diff_workload *w, const char *lead, const char *const *fields)
{
	struct env_walk e = { w->host[UD_SIDE_B], fields, NULL, 0 };
	int n;

	if (!w->host[UD_SIDE_A] || !w->host[UD_SIDE_B])
		return 0;
	/* counted first, then written after lead: a stream of its own to hold the facts cost 8 KB of zeroed buffer */
	ud_host_each_fact(w->host[UD_SIDE_A], env_visit, &e);
	if (!(n = e.n))
		return 0;
	fputs(lead, f);
	e = (struct env_walk){ w->host[UD_SIDE_B], fields, f, 0 };
	ud_host_each_fact(w->host[UD_SIDE_A], env_visit, &e);
	if (n > ENV_BESIDE_MAX)
		fprintf(f, " and %d more (see Environment)", n - ENV_BESIDE_MAX);
	return n;
}

static const char *const clock_facts[] = { "cpufreq.", "hypervisor", NULL };
static const char *const crossing_facts[] = { "vulnerabilities.", "kernel", "hypervisor", NULL };

/*
 * A factor with the numbers behind it: "IPC (0.71 -> 2.70)", "path length
 * (A needs 1.25x the instructions per KB)".  A ratio is always stated from
 * the side that has more, so it never reads "0.8x".
 */
static void factor_phrase(FILE *f, const struct ud_diff_workload *w, enum ud_factor k, const struct labels *l)
{
	const struct ud_ab *m = w->metric;
	double r = w->factor[k], big = r >= 1 ? r : 1 / r, ga, gb;
	const char *favoured = r >= 1 ? l->b : l->a, *more = r >= 1 ? l->a : l->b;

	switch (k) {
	case UD_FACTOR_PATH_LENGTH:
		fprintf(f, "path length (%s needs %s the instructions per %s)", more, UD_RATIO_X(big), w->work.unit);
		break;
	case UD_FACTOR_IPC:
		fprintf(f, "IPC (%.2f -> %.2f)", m[UD_M_IPC].a, m[UD_M_IPC].b);
		break;
	case UD_FACTOR_FREQUENCY:
		fprintf(f, "clock frequency (%.3g -> %.3g GHz", m[UD_M_GHZ].a, m[UD_M_GHZ].b);
		env_beside(f, w, "; the hosts differ: ", clock_facts);
		fputs(")", f);
		break;
	case UD_FACTOR_UTILIZATION:
		fprintf(f, "CPU utilization (%.3g -> %.3g CPUs)", m[UD_M_CPUS_UTILIZED].a, m[UD_M_CPUS_UTILIZED].b);
		break;
	case UD_FACTOR_CLOCK:
		fprintf(f, "the clock (%s runs %s the cycles per second: frequency and utilization, without task-clock",
			favoured, UD_RATIO_X(big));
		/* perf's own GHz beside the cycles line, where both pastes kept it: the evidence as printed */
		ga = ud_workload_perf_metric(w->a, "ghz");
		gb = ud_workload_perf_metric(w->b, "ghz");
		if (isfinite(ga) && isfinite(gb))
			fprintf(f, "; perf printed %.4g -> %.4g GHz", ga, gb);
		env_beside(f, w, "; the hosts differ: ", clock_facts);
		fputs(")", f);
		break;
	case UD_FACTOR_CYCLES:
		fprintf(f, "cycles per %s (%s needs %s the cycles)", w->work.unit, more, UD_RATIO_X(big));
		break;
	case UD_FACTOR_UNEXPLAINED:
	case UD_FACTOR_COUNT:
		fprintf(f, "what the counters do not explain (%s in %s's favour)", UD_RATIO_X(big), favoured);
		break;
	}
}

/*
 * "branch-misses 0.913 -> 0.611 per call (88% of what IPC changed)",
 * "PM_EXEC_STALL_TLBIE 0.6 -> 0.04 cycles per op (91% of the change)".
 */
static void cause_phrase(FILE *f, const struct ud_diff_workload *w, const struct ud_cause *c)
{
	char a[32], b[32];

	ud_format_human(c->a, a, sizeof(a));
	ud_format_human(c->b, b, sizeof(b));
	fprintf(f, "%s %s -> %s per %s (%.0f%% of %s)", c->counter, a, b, w->work.unit, 100 * c->cycles_share,
		c->kind == UD_CAUSE_MISS && isfinite(w->ipc_cycles) ? "what IPC changed" : "the change in cycles");
}

/* Whether both sides counted a class of counter that costs cycles (misses, stalls): causes could have been named. */
static bool costs_counted(const struct ud_diff_workload *w)
{
	for (size_t i = 0; i < w->nper_unit; i++)
		if (ud_counter_class_is_miss(w->per_unit[i].cls) || ud_counter_class_is_stall(w->per_unit[i].cls))
			return true;
	return false;
}

/* What stands behind the change in cycles: the causes, or plainly that the counters do not say. */
static void behind(FILE *f, const struct ud_diff_workload *w)
{
	if (w->ncauses) {
		fputs(w->crossing ? ", with these symptoms behind it: " : ", with ", f);
		for (size_t i = 0; i < w->ncauses; i++) {
			fputs(i ? " and " : "", f);
			cause_phrase(f, w, &w->causes[i]);
		}
		fputs(w->crossing ? "" : " behind it", f);
	} else if (costs_counted(w)) {
		fputs("; no counted miss or stall moved enough, the right way, to explain it", f);
	} else {
		fputs(" (no miss or stall counters on both sides to say why)", f);
	}
}

/* Every finite share within 0..100%: the plain "carries N% of it" reads right. */
static bool shares_plain(const struct ud_diff_workload *w)
{
	for (int k = 0; k < UD_FACTOR_COUNT; k++)
		if (isfinite(w->share[k]) && (w->share[k] < 0 || w->share[k] > 1))
			return false;
	return true;
}

/*
 * The factors whose share has this sign and is worth naming
 * (UD_FACTOR_MENTION_SHARE), dominant first: "IPC (0.71 -> 2.70) and clock
 * frequency (...)".
 */
/* Whether factor k is named among those that pulled with the result (with_result) or against it. */
static bool factor_listed(const struct ud_diff_workload *w, int k, bool with_result)
{
	double s = w->share[k];

	return isfinite(s) && fabs(s) >= UD_FACTOR_MENTION_SHARE && k != (int)w->dominant && (s > 0) == with_result;
}

static int list_factors(FILE *f, const struct ud_diff_workload *w, bool with_result, const struct labels *l)
{
	int n = 0;

	if (with_result) {
		factor_phrase(f, w, w->dominant, l);
		n++;
	}
	for (int k = 0; k < UD_FACTOR_COUNT; k++) {
		if (!factor_listed(w, k, with_result))
			continue;
		fputs(n++ ? " and " : "", f);
		factor_phrase(f, w, (enum ud_factor)k, l);
	}
	return n;
}

/* Whether the IPC factor pulled in the direction of the result. */
static bool ipc_with_result(const struct ud_diff_workload *w)
{
	return w->share[UD_FACTOR_IPC] > 0;
}

/*
 * The factors.  Where every share lies in 0..100%, the dominant one
 * "carries N% of it"; otherwise shares beyond that range would read as
 * nonsense (-540%), so the factors that made the result are named apart
 * from those that pulled the other way.
 */
static void factors_text(FILE *f, const struct ud_diff_workload *w, const struct labels *l)
{
	if (w->dominant == UD_FACTOR_UNEXPLAINED) {
		if (!isfinite(w->metric[UD_M_IPC].a) || !isfinite(w->metric[UD_M_IPC].b))
			fputs("Without cycles and instructions on both sides the counters cannot say why.", f);
		else if (w->foreign_counts)
			fputs("The counters counted a whole machine or other tasks, not the workload alone: they do "
			      "not split its speedup.", f);
		else
			fprintf(f,
				"The counters do not explain most of it (unexplained factor %.3g): the score does not "
				"follow the counted work.",
				w->factor[UD_FACTOR_UNEXPLAINED]);
		return;
	}
	if (shares_plain(w)) {
		factor_phrase(f, w, w->dominant, l);
		fprintf(f, " carries %.0f%% of it", 100 * w->share[w->dominant]);
	} else {
		list_factors(f, w, true, l);
		fprintf(f, " made %s %s", l->b, w->speedup > 1 ? "faster" : "slower");
	}
	if (w->ncauses || ipc_with_result(w))
		behind(f, w);
	if (!shares_plain(w)) {
		bool against = false;

		for (int k = 0; k < UD_FACTOR_COUNT; k++)
			against = against || factor_listed(w, k, false);
		/* only when one did: "; ." when no factor pulled the other way (issue 26's outliers showed it) */
		if (against) {
			fputs("; ", f);
			list_factors(f, w, false, l);
			fputs(" pulled the other way", f);
		}
	}
	fputs(".", f);
}

/*
 * The factors' sentence, begun with a capital: "Clock frequency (...) made
 * B slower".  f is ud_diff_explain's memory stream, rewound to the start
 * of this explanation: after fflush its buffer is the text so far, so the
 * first letter is raised in place (a stream of its own per sentence cost
 * 8 KB of zeroed buffer a workload).
 */
static void factors_sentence(FILE *f, char *const *text, const struct ud_diff_workload *w, const struct labels *l)
{
	long at;

	fputc(' ', f);
	if ((at = ftell(f)) < 0)
		return;
	factors_text(f, w, l);
	if (fflush(f) == 0 && *text && (*text)[at])
		(*text)[at] = (char)toupper((unsigned char)(*text)[at]);
}

static const char *domain_words(enum ud_counting d)
{
	return d == UD_COUNTING_USER ? "user mode" : d == UD_COUNTING_KERNEL ? "kernel mode" : ud_counting_name(d);
}

/*
 * The domain the counters speak for: one mode only (an --all-kernel or :u
 * paste), how much of the CPU time it covers, and whether the two sides'
 * differ.
 */
static void domain_sentence(FILE *f, const struct ud_diff_workload *w)
{
	const struct ud_counting_info *c = &w->counting;
	enum ud_counting da = c->domain[UD_SIDE_A], db = c->domain[UD_SIDE_B];

	if (da == UD_COUNTING_COUNT || db == UD_COUNTING_COUNT || (da == UD_COUNTING_ALL && db == UD_COUNTING_ALL))
		return;
	if (da == db)
		fprintf(f, " The counters counted %s only", domain_words(da));
	else
		fprintf(f, " The counters counted %s on A and %s on B", domain_words(da), domain_words(db));
	if (isfinite(c->coverage[UD_SIDE_A]) && da != UD_COUNTING_ALL)
		fprintf(f, "; that is %s%.0f%% of A's CPU time", c->coverage_at_most[UD_SIDE_A] ? "at most " : "",
			100 * c->coverage[UD_SIDE_A]);
	if (isfinite(c->coverage[UD_SIDE_B]) && db != UD_COUNTING_ALL)
		fprintf(f, "; %s%.0f%% of B's", c->coverage_at_most[UD_SIDE_B] ? "at most " : "", 100 * c->coverage[UD_SIDE_B]);
	if (ud_diff_domain_too_narrow(w))
		fputs(": too little to split the speedup by, so their own change is all they say.", f);
	else if (c->approximate && isfinite(c->cycles[UD_SIDE_A]))
		fputs(": compared as the same work, approximately (see Findings).", f);
	else if (da != db)
		fputs(": they do not compare (see Findings).", f);
	else
		fputs(": the factors describe that mode.", f);
}

/*
 * A cost paid at every kernel crossing, named before any miss: user and
 * kernel time per unit both moved beyond a core generation.
 */
static void crossing_sentence(FILE *f, const struct ud_diff_workload *w)
{
	const struct ud_mode_part *u = &w->mode[UD_MODE_USER], *k = &w->mode[UD_MODE_KERNEL];
	bool fell = u->b < u->a;

	if (!w->crossing)
		return;
	fprintf(f, " User time per %s %s %s and kernel time %s with it: a cost paid at every kernel crossing "
		   "(speculative-execution mitigations on entry and exit, VM exits) on %s does that; a faster core alone "
		   "does not.",
		w->work.unit, fell ? "fell" : "rose", UD_RATIO_X(fell ? u->a / u->b : u->b / u->a),
		UD_RATIO_X(fell ? k->a / k->b : k->b / k->a), fell ? "A" : "B");
	if (env_beside(f, w, " The hosts differ there: ", crossing_facts))
		fputs(".", f);
}

/*
 * What an expert says before crediting the cores: the work is mostly the
 * kernel's, and an IPC move beyond any core generation points there too.
 */
static void caveat_sentence(FILE *f, const struct ud_diff_workload *w)
{
	const struct ud_ab *ss = &w->metric[UD_M_SYS_SHARE];
	const struct ud_mode_part *k = &w->mode[UD_MODE_KERNEL];

	if (w->group == UD_GROUP_KERNEL_HEAVY && isfinite(ss->a) && isfinite(ss->b)) {
		char ta[32], tb[32];

		ud_format_ns(k->a, ta, sizeof(ta));
		ud_format_ns(k->b, tb, sizeof(tb));
		fprintf(f, " It spends %.0f%% -> %.0f%% of its CPU time in the kernel", 100 * ss->a, 100 * ss->b);
		/* a share outside 0..1 means user and kernel time moved opposite ways: no share to speak of */
		if (isfinite(k->a) && isfinite(k->b) && k->share >= 0 && k->share <= 1)
			fprintf(f, ", where time per %s %s %s -> %s (%.0f%% of the change)", w->work.unit,
				k->b < k->a ? "fell" : "rose", ta, tb, 100 * k->share);
		fputs(".", f);
	}
	if (w->foreign_counts)
		fputs(" A side's counts are not the workload's own (system-wide, CPUs or attached tasks): they hold "
		      "other work or miss some of it, so path length is not computed and the other factors describe "
		      "what was counted, not the workload alone.",
		      f);
	domain_sentence(f, w);
	if (w->counting.cross_isa)
		fprintf(f, " %s and %s are different instruction sets: instructions and IPC do not compare, cycles per "
			   "%s and the clock do.", w->counting.isa[UD_SIDE_A], w->counting.isa[UD_SIDE_B], w->work.unit);
	else if (w->low_ipc)
		fprintf(f, " At IPC %.2f -> %.2f instructions are not the unit of work: cycles and time per %s compare "
			   "what was done (see Findings).",
			w->metric[UD_M_IPC].a, w->metric[UD_M_IPC].b, w->work.unit);
	if (w->ipc_beyond_generation)
		fprintf(f,
			" A %s IPC %s on nearly the same instructions is beyond what a core generation brings: "
			"look at the kernel path and the environment before the cores (see Findings).",
			UD_RATIO_X(w->factor[UD_FACTOR_IPC] >= 1 ? w->factor[UD_FACTOR_IPC] : 1 / w->factor[UD_FACTOR_IPC]),
			w->factor[UD_FACTOR_IPC] >= 1 ? "rise" : "drop");
}

/* The speedup in words and, where a test decided, its verdict. */
static void first_sentence(FILE *f, const struct ud_diff_workload *w, const char *la, const char *lb)
{
	const struct ud_significance *s = &w->sig;
	char words[48], lo[UD_NUMBER_MAX];

	if (w->basis == UD_SPEEDUP_NONE) {
		fprintf(f, "No speed verdict on %s: %s; its counters stand side by side.", w->a->name,
			w->verdict_reason);
		return;
	}
	if (w->verdict == UD_VERDICT_NO_CLAIM) {
		fprintf(f, "No speed verdict on %s: %s.", w->a->name, w->verdict_reason);
		return;
	}
	ud_speedup_words(w->speedup, w->verdict == UD_VERDICT_SAME ? 0 : s->significant, true, words, sizeof(words));
	fprintf(f, "%s is %s %s on %s%s", lb, words, la, w->a->name,
		w->basis == UD_SPEEDUP_TASK_CLOCK
			? " in CPU time (task-clock; no score on both sides, so both runs are taken to do the same work)"
			: "");
	if (w->verdict == UD_VERDICT_SAME)
		fprintf(f, ": its %s is %s", UD_RATIO_X(w->speedup), w->verdict_reason);
	else if (s->significant == 1 && isfinite(s->lo))
		fprintf(f, " (95%% interval %s-%s; %s)", ud_format_ratio(s->lo, lo, sizeof(lo)), UD_RATIO_X(s->hi),
			w->verdict_reason);
	else
		fprintf(f, " (%s)", w->verdict_reason);
	fputs(".", f);
}

/* " Its counters did move: instructions 0.979x and branches 0.976x per run, outside their noise; ..." */
static void movers_sentence(FILE *f, const struct ud_diff_workload *w)
{
	size_t n = 0;

	if (!ud_diff_movers_speak(w))
		return;
	for (size_t i = 0; i < w->nper_unit; i++) {
		const struct ud_per_unit *u = &w->per_unit[i];

		if (!ud_diff_mover_notable(u))
			continue;
		fprintf(f, "%s%s %s", n ? ", " : " Its counters did move: ", u->name, UD_RATIO_X(u->v.ratio));
		n++;
	}
	if (n)
		fprintf(f, " per %s, outside their noise: what the core did changed and the time did not show it (see "
			   "Findings).",
			w->work.unit);
}

int ud_diff_explain(struct ud_diff_workload *w, const char *la, const char *lb, struct ud_explain_stream *s)
{
	/* Sized by what it says: a long workload name or host label is never cut mid-word. */
	FILE *f = s->f;
	long end;

	if (fseek(f, 0, SEEK_SET) != 0)
		return -1;
	first_sentence(f, w, la, lb);
	movers_sentence(f, w);
	crossing_sentence(f, w);
	if (w->verdict == UD_VERDICT_NO_CLAIM)
		; /* nothing to split */
	else if (w->has_dominant)
		factors_sentence(f, &s->text, w, &(struct labels){ la, lb });
	else if (w->sig.significant != 0 && isfinite(w->speedup) && w->speedup != 1 &&
		 isfinite(w->metric[UD_M_IPC].a) && isfinite(w->metric[UD_M_IPC].b)) {
		fprintf(f, " The move is too small (under %.0f%%) to split into factors", 100 * UD_SHARE_MIN_MOVE);
		/* a counter that moved the cycles is worth its sentence even under 1% (a return-stack fix) */
		if (w->ncauses) {
			fputs(", but the counters that moved say where the cycles went: ", f);
			for (size_t i = 0; i < w->ncauses; i++) {
				fputs(i ? " and " : "", f);
				cause_phrase(f, w, &w->causes[i]);
			}
		}
		fputs(".", f);
	}
	caveat_sentence(f, w);
	if (fflush(f) != 0 || (end = ftell(f)) < 0 || !(w->explanation = malloc((size_t)end + 1)))
		return -1;
	memcpy(w->explanation, s->text, (size_t)end);
	w->explanation[end] = '\0';
	return 0;
}
