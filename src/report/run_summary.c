#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_mode.h"
#include "derived.h"
#include "hotspots.h"
#include "noise.h"
#include "run_summary.h"
#include "text.h"

/* What a name reads where there was no memory to show it. */
#define OUT_OF_MEMORY "(out of memory)"

/* The summary's counter columns, IPC and the two miss rates: shown only where some workload has a value. */
static const enum ud_metric summary_metric[] = { UD_M_IPC, UD_M_BRANCH_MISS_RATE, UD_M_L1D_MISS_RATE };
#define SUMMARY_METRICS (sizeof(summary_metric) / sizeof(summary_metric[0]))

static void summary_row(FILE *f, const struct ud_workload *w, const bool shown[SUMMARY_METRICS])
{
	/* unknown reads "n/a", as in every report */
	char s[32] = "n/a", ci[16] = "n/a", n[16] = "n/a", cols[64] = "";
	/* names, units and outcomes are as long as their writer made them: shown whole */
	char *name = ud_visible_new(w->name), *units = ud_visible_new(w->units ? w->units : "");
	char *outcome = ud_visible_new(w->outcome ? w->outcome : "");
	size_t used = 0;

	if (isfinite(w->score.median))
		ud_format_human(w->score.median, s, sizeof(s));
	if (isfinite(w->score.ci95_rel))
		snprintf(ci, sizeof(ci), "%.1f%%", 100 * w->score.ci95_rel);
	for (size_t i = 0; i < SUMMARY_METRICS; i++) {
		double v = ud_metric(w, summary_metric[i]);
		char cell[16] = "n/a";

		if (!shown[i])
			continue;
		if (isfinite(v))
			snprintf(cell, sizeof(cell), i == 0 ? "%.2f" : "%.2f%%", i == 0 ? v : 100 * v);
		used += (size_t)snprintf(cols + used, sizeof(cols) - used, i == 0 ? " %6s" : " %9s", cell);
	}
	if (w->noise)
		snprintf(n, sizeof(n), "%d", w->noise->samples_taken);
	fprintf(f, "%-20s %14s %-8s %7s %3s%s  %s\n", name ? name : OUT_OF_MEMORY, s, units ? units : OUT_OF_MEMORY,
		ci, n, cols, outcome ? outcome : OUT_OF_MEMORY);
	free(name);
	free(units);
	free(outcome);
}

/* One line a noisy workload, its causes together, under their legend: each said once. */
static void noise_lines(FILE *f, const struct ud_profile *p, ud_keeps_one_cpu_fn one_cpu)
{
	bool legend = false;
	/* never cut: at most three tags of under 32 bytes and the budget's sentence (noise.h) */
	char causes[256];

	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct ud_workload *w = &p->workloads[i];
		char *name;

		ud_noise_causes(w->noise, one_cpu(w->name), causes, sizeof(causes));
		if (strcmp(causes, "-") == 0)
			continue;
		if (!legend)
			fprintf(f, "\n%s\n", UD_NOISE_LEGEND);
		legend = true;
		/* two spaces before the causes: a table row to the fitting, wrapped under its causes' column */
		name = ud_visible_new(w->name);
		fprintf(f, "  %-20s  %s\n", name ? name : OUT_OF_MEMORY, causes);
		free(name);
	}
}

/* The head of the summary's table, with the counter columns shown. */
static void summary_head(FILE *f, const bool shown[SUMMARY_METRICS])
{
	static const char *const head[SUMMARY_METRICS] = { "IPC", "br-miss", "L1d-miss" };
	char cols[64] = "";
	size_t used = 0;

	for (size_t i = 0; i < SUMMARY_METRICS; i++)
		if (shown[i])
			used += (size_t)snprintf(cols + used, sizeof(cols) - used, i == 0 ? " %6s" : " %9s", head[i]);
	fprintf(f, "%-20s %14s %-8s %7s %3s%s  %s\n", "workload", "score", "units", "+-95%", "n", cols, "outcome");
}

/* The summary unfitted: the banner, the table, the noise lines. */
static void summary_text(FILE *f, const struct ud_profile *p, ud_keeps_one_cpu_fn one_cpu)
{
	bool shown[SUMMARY_METRICS] = { false };
	char why[UD_NO_PMU_REASON_MAX], *banner;
	const char *no_pmu = ud_profile_no_pmu_reason(p, why, sizeof(why));

	if (no_pmu && (banner = ud_pmu_banner("here", no_pmu)) != NULL) {
		fprintf(f, "%s\n\n", banner);
		free(banner);
	}
	for (size_t i = 0; i < p->nworkloads; i++)
		for (size_t k = 0; k < SUMMARY_METRICS; k++)
			shown[k] = shown[k] || isfinite(ud_metric(&p->workloads[i], summary_metric[k]));
	summary_head(f, shown);
	for (size_t i = 0; i < p->nworkloads; i++)
		summary_row(f, &p->workloads[i], shown);
	noise_lines(f, p, one_cpu);
}

void ud_run_summary_print(FILE *f, const struct ud_profile *p, size_t width, ud_keeps_one_cpu_fn one_cpu)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	/*
	 * Fitted as a whole, as the reports are: a noisy line's causes and a
	 * row's outcome wrap under their column rather than past an 80-column
	 * pipe (issue 39); out of memory for the copy, the summary unfitted
	 * rather than lost.
	 */
	if (!mem) {
		summary_text(f, p, one_cpu);
		return;
	}
	summary_text(mem, p, one_cpu);
	if (fclose(mem) != 0 || !text)
		summary_text(f, p, one_cpu);
	else
		ud_text_fit(text, width, f);
	free(text);
}

void ud_run_top_symbols_print(FILE *f, const struct ud_profile *p)
{
	bool header = false;

	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct ud_hotspot *t = ud_hotspots_top(p->workloads[i].hotspots);
		char *name, *sym, *dso;

		if (!t)
			continue;
		if (!header)
			fprintf(f, "\n%-16s %7s  %s\n", "workload", "samples", "top symbol");
		header = true;
		/* a C++ symbol or a path is as long as it is: shown whole */
		name = ud_visible_new(p->workloads[i].name);
		sym = ud_visible_new(t->symbol);
		dso = ud_visible_new(t->dso ? t->dso : "-");
		fprintf(f, "%-16s %6.1f%%  %s (%s, %s)\n", name ? name : OUT_OF_MEMORY, 100 * t->share,
			sym ? sym : OUT_OF_MEMORY, dso ? dso : OUT_OF_MEMORY, ud_mode_name(t->mode));
		free(name);
		free(sym);
		free(dso);
	}
}
