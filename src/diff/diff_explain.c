/*
 * The explanation of one workload: which host is how much faster, then the
 * dominant factor with the metric moves behind it, in plain words.  It reads
 * the computed model only, so a later explanation can add sentences from new
 * fields without touching the arithmetic.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "diff_thresholds.h"
#include "text.h"

/* ", with branch MPKI 23.9 -> 0.843 and L1d MPKI 50 -> 6.37 behind it", naming only the metrics both sides have. */
static void behind(FILE *f, const struct ud_diff_workload *w)
{
	static const enum ud_metric causes[] = { UD_M_BRANCH_MPKI, UD_M_L1D_MPKI };
	int n = 0;

	for (size_t i = 0; i < sizeof(causes) / sizeof(causes[0]); i++) {
		const struct ud_ab *m = &w->metric[causes[i]];

		if (isfinite(m->a) && isfinite(m->b))
			fprintf(f, "%s%s %.3g -> %.3g", n++ ? " and " : ", with ", ud_metric_label(causes[i]), m->a, m->b);
	}
	fputs(n ? " behind it" : " (no miss counters on both sides to say why)", f);
}

/* The factor's part of ln(speedup) in percent, as the sentence shows it. */
static double percent(const struct ud_diff_workload *w, enum ud_factor f)
{
	return 100 * log(w->factor[f]) / log(w->speedup);
}

/* The sentence for the factor that carries most of ln(speedup). */
static void dominant_sentence(FILE *f, const struct ud_diff_workload *w, const char *la)
{
	const struct ud_ab *m = w->metric;

	switch (w->dominant) {
	case UD_FACTOR_IPC:
		fprintf(f, " IPC (%.2f -> %.2f) carries %.0f%% of it", m[UD_M_IPC].a, m[UD_M_IPC].b,
			percent(w, UD_FACTOR_IPC));
		behind(f, w);
		fputs(".", f);
		break;
	case UD_FACTOR_FREQUENCY:
		fprintf(f, " Clock frequency (%.3g -> %.3g GHz) carries %.0f%% of it.", m[UD_M_GHZ].a, m[UD_M_GHZ].b,
			percent(w, UD_FACTOR_FREQUENCY));
		break;
	case UD_FACTOR_PATH_LENGTH:
		fprintf(f, " Path length carries %.0f%% of it: %s retires %.3gx the instructions per unit of work.",
			percent(w, UD_FACTOR_PATH_LENGTH), la, w->factor[UD_FACTOR_PATH_LENGTH]);
		break;
	case UD_FACTOR_UTILIZATION:
		fprintf(f, " CPU utilization (%.3g -> %.3g CPUs) carries %.0f%% of it.", m[UD_M_CPUS_UTILIZED].a,
			m[UD_M_CPUS_UTILIZED].b, percent(w, UD_FACTOR_UTILIZATION));
		break;
	case UD_FACTOR_UNEXPLAINED:
	case UD_FACTOR_COUNT:
		if (!isfinite(m[UD_M_IPC].a) || !isfinite(m[UD_M_IPC].b))
			fputs(" Without cycles and instructions on both sides the counters cannot say why.", f);
		else
			fprintf(f,
				" The counters do not explain most of it (unexplained factor %.3g): the score does not "
				"follow the counted work.",
				w->factor[UD_FACTOR_UNEXPLAINED]);
		break;
	}
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
	if (w->user_mode_only)
		fputs(" Cycles and instructions were counted in user mode only (perf without privilege, "
		      "':u'): the kernel's part of the work is not in them.",
		      f);
	if (w->ipc_beyond_generation)
		fprintf(f,
			" A %.3gx IPC %s on nearly the same instructions is beyond what a core generation brings: "
			"look at the kernel path and the environment before the cores (see Findings).",
			w->factor[UD_FACTOR_IPC] >= 1 ? w->factor[UD_FACTOR_IPC] : 1 / w->factor[UD_FACTOR_IPC],
			w->factor[UD_FACTOR_IPC] >= 1 ? "rise" : "drop");
}

static void first_sentence(FILE *f, const struct ud_diff_workload *w, const char *la, const char *lb)
{
	char words[48];

	if (w->basis == UD_SPEEDUP_NONE) {
		fprintf(f, "%s has no score on both sides and no task-clock to compare CPU time by: its "
			   "counters stand side by side.",
			w->a->name);
		return;
	}
	ud_speedup_words(w->speedup, true, words, sizeof(words));
	fprintf(f, "%s is %s %s on %s%s.", lb, words, la, w->a->name,
		w->basis == UD_SPEEDUP_TASK_CLOCK
			? " in CPU time (task-clock; no score on both sides, so both runs are taken to do the same work)"
			: "");
}

int ud_diff_explain(struct ud_diff_workload *w, const char *la, const char *lb)
{
	/* Sized by what it says: a long workload name or host label is never cut mid-word. */
	size_t len = 0;
	FILE *f = open_memstream(&w->explanation, &len);

	if (!f)
		return -1;
	first_sentence(f, w, la, lb);
	if (w->has_dominant)
		dominant_sentence(f, w, la);
	else if (ud_speedup_direction(w->speedup, &(double){ 0 }) != UD_DIR_SAME && isfinite(w->speedup))
		fprintf(f, " The move is too small (under %.0f%%) or within the measured noise to split into factors.",
			100 * UD_SHARE_MIN_MOVE);
	caveat_sentence(f, w);
	if (fclose(f) != 0) {
		free(w->explanation);
		w->explanation = NULL;
		return -1;
	}
	return 0;
}
