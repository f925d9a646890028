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

/* "branch MPKI 23.9 -> 0.843": a metric's move from A to B. */
static void move(char *buf, size_t len, const struct ud_diff_workload *w, enum ud_metric m)
{
	char fa[32], fb[32];

	snprintf(fa, sizeof(fa), "%.3g", w->metric[m].a);
	snprintf(fb, sizeof(fb), "%.3g", w->metric[m].b);
	snprintf(buf, len, "%s %s -> %s", ud_metric_label(m), fa, fb);
}

/* The factor's part of ln(speedup) in percent, as the sentence shows it. */
static double percent(const struct ud_diff_workload *w, enum ud_factor f)
{
	return 100 * log(w->factor[f]) / log(w->speedup);
}

static void dominant_sentence(char *buf, size_t len, const struct ud_diff_workload *w, const char *la)
{
	const struct ud_ab *m = w->metric;
	char m1[96], m2[96];

	switch (w->dominant) {
	case UD_FACTOR_IPC:
		move(m1, sizeof(m1), w, UD_M_BRANCH_MPKI);
		move(m2, sizeof(m2), w, UD_M_L1D_MPKI);
		snprintf(buf, len, " IPC (%.2f -> %.2f) carries %.0f%% of it, with %s and %s behind it.", m[UD_M_IPC].a,
			 m[UD_M_IPC].b, percent(w, UD_FACTOR_IPC), m1, m2);
		break;
	case UD_FACTOR_FREQUENCY:
		snprintf(buf, len, " Clock frequency (%.3g -> %.3g GHz) carries %.0f%% of it.", m[UD_M_GHZ].a,
			 m[UD_M_GHZ].b, percent(w, UD_FACTOR_FREQUENCY));
		break;
	case UD_FACTOR_PATH_LENGTH:
		snprintf(buf, len, " Path length carries %.0f%% of it: %s retires %.3gx the instructions per unit of work.",
			 percent(w, UD_FACTOR_PATH_LENGTH), la, w->factor[UD_FACTOR_PATH_LENGTH]);
		break;
	case UD_FACTOR_UTILIZATION:
		snprintf(buf, len, " CPU utilization (%.3g -> %.3g CPUs) carries %.0f%% of it.", m[UD_M_CPUS_UTILIZED].a,
			 m[UD_M_CPUS_UTILIZED].b, percent(w, UD_FACTOR_UTILIZATION));
		break;
	case UD_FACTOR_UNEXPLAINED:
	case UD_FACTOR_COUNT:
		snprintf(buf, len,
			 " The counters do not explain most of it (unexplained factor %.3g): counters are missing on one "
			 "side or the score does not follow the counted work.",
			 w->factor[UD_FACTOR_UNEXPLAINED]);
		break;
	}
}

int ud_diff_explain(struct ud_diff_workload *w, const char *la, const char *lb)
{
	char first[256], second[512];

	snprintf(first, sizeof(first), "%s is %.3gx %s on %s.", lb, w->speedup, la, w->a->name);
	if (!w->has_dominant)
		snprintf(second, sizeof(second), " The two scores are equal.");
	else
		dominant_sentence(second, sizeof(second), w, la);
	w->explanation = malloc(strlen(first) + strlen(second) + 1);
	if (!w->explanation)
		return -1;
	strcpy(w->explanation, first);
	strcat(w->explanation, second);
	return 0;
}
