/*
 * import_summary.c - the one line import says of what it read, so that a
 * user sees the paste was understood: import printed nothing on success,
 * and an unknown core silently changed what a diff explains.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count_status.h"
#include "cpu_mode.h"
#include "import.h"

struct tally {
	size_t counters, counted, refused, not_counted;
	int runs_min, runs_max;   /* of the workloads that state them; 0 none */
	size_t runs_unstated;
	unsigned modes;           /* bit per enum ud_counting, of the counted counters */
};

static void tally_workload(struct tally *t, const struct ud_workload *w)
{
	if (w->runs > 0) {
		t->runs_min = t->runs_min && t->runs_min < w->runs ? t->runs_min : w->runs;
		t->runs_max = t->runs_max > w->runs ? t->runs_max : w->runs;
	} else {
		t->runs_unstated++;
	}
	for (size_t c = 0; c < w->ncounters; c++) {
		const struct ud_counter *k = &w->counters[c];

		t->counters++;
		t->counted += k->status == UD_COUNTED;
		t->refused += k->status == UD_NOT_SUPPORTED;
		t->not_counted += k->status == UD_NOT_COUNTED;
		if (k->status == UD_COUNTED && k->mode < UD_COUNTING_COUNT)
			t->modes |= 1u << k->mode;
	}
}

static void say_runs(FILE *f, const struct tally *t)
{
	if (!t->runs_max)
		fputs("runs not stated", f);
	else if (t->runs_min == t->runs_max)
		fprintf(f, "%d run%s", t->runs_max, t->runs_max == 1 ? "" : "s");
	else
		fprintf(f, "%d to %d runs", t->runs_min, t->runs_max);
	if (t->runs_max && t->runs_unstated)
		fprintf(f, " (%zu not stated)", t->runs_unstated);
}

/* Only a mode other than perf's default (every privilege level) is news: a :u-only paste explains less. */
static void say_modes(FILE *f, unsigned modes)
{
	const char *sep = "; counted in ";

	if (!modes || modes == 1u << UD_COUNTING_ALL)
		return;
	for (int m = 0; m < UD_COUNTING_COUNT; m++) {
		if (modes & (1u << m)) {
			fprintf(f, "%s%s", sep, ud_counting_name((enum ud_counting)m));
			sep = " and ";
		}
	}
	fputs(" mode", f);
}

static void say_statuses(FILE *f, const struct tally *t)
{
	const char *sep = " (";

	if (!t->counters)
		return;
	if (t->counted)
		fprintf(f, "%s%zu counted", sep, t->counted), sep = ", ";
	if (t->refused)
		fprintf(f, "%s%zu not supported", sep, t->refused), sep = ", ";
	if (t->not_counted)
		fprintf(f, "%s%zu not counted", sep, t->not_counted);
	fputc(')', f);
}

char *ud_import_summary(const struct ud_profile *p, size_t first, size_t end, const char *path)
{
	struct tally t = { 0 };
	size_t n = end - first, len;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (size_t i = first; i < end; i++)
		tally_workload(&t, &p->workloads[i]);
	fprintf(f, "%s: %zu workload%s, %zu counter%s", path, n, n == 1 ? "" : "s", t.counters,
		t.counters == 1 ? "" : "s");
	say_statuses(f, &t);
	fputs(", ", f);
	say_runs(f, &t);
	say_modes(f, t.modes);
	/* without its core a diff charges misses generic costs: say so where there are counters to charge */
	if (t.counters && (!p->host->cpu.uarch || strcmp(p->host->cpu.uarch, "generic") == 0))
		fputs("; core unknown: --uarch NAME (or --cpuinfo FILE) gives the diff its costs", f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
