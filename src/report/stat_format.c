#include <math.h>
#include <string.h>

#include "derived.h"
#include "stat_format.h"
#include "text.h"
#include "stats.h"

struct comment {
	double value;       /* NAN: no comment */
	char unit[48];
	const char *format; /* printf format of value in the text form */
};

/* task-clock and cpu-clock count nanoseconds, with or without a ":u"-style modifier. */
static int is_clock(const char *name)
{
	size_t len = strcspn(name, ":");

	return (len == 10 && strncmp(name, "task-clock", len) == 0) ||
	       (len == 9 && strncmp(name, "cpu-clock", len) == 0);
}

/* An events-per-second rate over task-clock, as perf prints for counts. */
static void rate(struct comment *cm, const struct ud_workload *w, double count)
{
	double secs = ud_workload_value(w, "task-clock") / 1e9;
	double r = count / secs;
	static const struct {
		double scale;
		const char *unit;
	} steps[] = { { 1e9, "G/sec" }, { 1e6, "M/sec" }, { 1e3, "K/sec" }, { 1, "/sec" } };

	if (isnan(r) || isinf(r))
		return;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (r >= steps[i].scale || steps[i].scale == 1) {
			cm->value = r / steps[i].scale;
			snprintf(cm->unit, sizeof(cm->unit), "%s", steps[i].unit);
			return;
		}
	}
}

static void percent(struct comment *cm, double fraction, const char *unit)
{
	if (isnan(fraction))
		return;
	cm->value = 100 * fraction;
	cm->format = "%7.2f%%";
	snprintf(cm->unit, sizeof(cm->unit), "%s", unit);
}

static void ratio_comment(struct comment *cm, double v, const char *unit, const char *format)
{
	if (isnan(v))
		return;
	cm->value = v;
	cm->format = format;
	snprintf(cm->unit, sizeof(cm->unit), "%s", unit);
}

static struct comment comment_for(const struct ud_workload *w, const struct ud_counter *c)
{
	struct comment cm = { NAN, "", "%8.3f" };
	const char *n = c->name;

	if (c->status != UD_COUNTED)
		return cm;
	if (is_clock(n))
		ratio_comment(&cm, ud_metric(w, UD_M_CPUS_UTILIZED), "CPUs utilized", "%8.3f");
	else if (strcmp(n, "cycles") == 0)
		ratio_comment(&cm, ud_metric(w, UD_M_GHZ), "GHz", "%8.3f");
	else if (strcmp(n, "instructions") == 0)
		ratio_comment(&cm, ud_metric(w, UD_M_IPC), "insn per cycle", "%8.2f");
	else if (strcmp(n, "branch-misses") == 0)
		percent(&cm, ud_metric(w, UD_M_BRANCH_MISS_RATE), "of all branches");
	else if (strcmp(n, "L1-dcache-load-misses") == 0)
		percent(&cm, ud_metric(w, UD_M_L1D_MISS_RATE), "of all L1-dcache accesses");
	else if (strcmp(n, "stalled-cycles-frontend") == 0)
		percent(&cm, ud_metric(w, UD_M_FRONTEND_STALL_RATE), "frontend cycles idle");
	else if (strcmp(n, "stalled-cycles-backend") == 0)
		percent(&cm, ud_metric(w, UD_M_BACKEND_STALL_RATE), "backend cycles idle");
	if (isnan(cm.value) && !is_clock(n))
		rate(&cm, w, c->value);
	return cm;
}

static const char *status_text(const struct ud_counter *c)
{
	return c->status == UD_NOT_COUNTED ? "<not counted>" : "<not supported>";
}

static int multiplexed(const struct ud_counter *c)
{
	return c->status == UD_COUNTED && !isnan(c->running_ns) && !isnan(c->enabled_ns) &&
	       c->running_ns < c->enabled_ns;
}

static void print_counter_line(FILE *f, const struct ud_workload *w, const struct ud_counter *c)
{
	struct comment cm = comment_for(w, c);
	char comment[96] = "", line[512], buf[256];
	/* -e names are the user's input: shown, never obeyed by the terminal. */
	const char *name = ud_visible(c->name, buf, sizeof(buf));
	size_t len;

	if (c->status != UD_COUNTED) {
		fprintf(f, "%18s      %s\n", status_text(c), name);
		return;
	}
	if (!isnan(cm.value)) {
		char v[32];

		snprintf(v, sizeof(v), cm.format, cm.value);
		snprintf(comment, sizeof(comment), "# %s %s", v, cm.unit);
	}
	if (is_clock(c->name))
		len = snprintf(line, sizeof(line), "%18.2f msec %-32s %-40s", c->value / 1e6, name, comment);
	else
		len = snprintf(line, sizeof(line), "%18.0f      %-32s %-40s", c->value, name, comment);
	if (!isnan(c->rel_stddev) && len < sizeof(line))
		len += snprintf(line + len, sizeof(line) - len, "  ( +- %5.2f%% )", 100 * c->rel_stddev);
	if (multiplexed(c) && len < sizeof(line))
		snprintf(line + len, sizeof(line) - len, "  (%.2f%%)", 100 * c->running_ns / c->enabled_ns);
	/* The padding lines up what follows; with nothing after it, drop it. */
	for (len = strlen(line); len > 0 && line[len - 1] == ' '; len--)
		line[len - 1] = '\0';
	fprintf(f, "%s\n", line);
}

/* Reasons grouped, so twelve counters refused for one reason take one line. */
static void print_reasons(FILE *f, const struct ud_workload *w)
{
	int header = 0;

	for (size_t i = 0; i < w->ncounters; i++) {
		const struct ud_counter *c = &w->counters[i];
		const char *why = c->reason ? c->reason : "no reason given";
		int seen = 0;

		if (c->status == UD_COUNTED)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = w->counters[j].status != UD_COUNTED &&
			       strcmp(w->counters[j].reason ? w->counters[j].reason : "no reason given", why) == 0;
		if (seen)
			continue;
		if (!header)
			fprintf(f, "\n Not counted:\n");
		header = 1;
		fprintf(f, "   ");
		for (size_t j = i, first = 1; j < w->ncounters; j++) {
			const struct ud_counter *d = &w->counters[j];

			if (d->status == UD_COUNTED || strcmp(d->reason ? d->reason : "no reason given", why) != 0)
				continue;
			fputs(first ? "" : ", ", f);
			ud_fputs_visible(f, d->name);
			first = 0;
		}
		fputs(": ", f);
		ud_fputs_visible(f, why);
		fputc('\n', f);
	}
}

void ud_stat_print_text(FILE *f, const struct ud_workload *w)
{
	double elapsed_s = w->elapsed_ns / 1e9;

	fputs("\n Performance counter stats for '", f);
	ud_fputs_visible(f, w->command ? w->command : w->name);
	fputc('\'', f);
	if (w->runs > 1)
		fprintf(f, " (%d runs)", w->runs);
	fprintf(f, ":\n\n");
	for (size_t i = 0; i < w->ncounters; i++)
		print_counter_line(f, w, &w->counters[i]);
	print_reasons(f, w);
	fputc('\n', f);
	if (w->runs > 1 && w->score.nsamples > 1) {
		double m = ud_mean(w->score.samples, w->score.nsamples);
		double sd = ud_stddev(w->score.samples, w->score.nsamples) / sqrt((double)w->score.nsamples);

		fprintf(f, "       %12.9f +- %.9f seconds time elapsed  ( +- %5.2f%% )\n\n", elapsed_s, sd,
			m > 0 ? 100 * sd / m : 0);
	} else {
		fprintf(f, "  %18.9f seconds time elapsed\n\n", elapsed_s);
	}
	fprintf(f, "  %18.9f seconds user\n", w->user_ns / 1e9);
	fprintf(f, "  %18.9f seconds sys\n\n", w->sys_ns / 1e9);
}

void ud_stat_print_csv(FILE *f, const struct ud_workload *w, const char *sep)
{
	for (size_t i = 0; i < w->ncounters; i++) {
		const struct ud_counter *c = &w->counters[i];
		struct comment cm = comment_for(w, c);
		double pct = 0, run = 0;

		if (c->status == UD_COUNTED) {
			run = c->running_ns;
			pct = c->enabled_ns > 0 ? 100 * c->running_ns / c->enabled_ns : 100;
			if (is_clock(c->name))
				fprintf(f, "%.2f%smsec%s", c->value / 1e6, sep, sep);
			else
				fprintf(f, "%.0f%s%s", c->value, sep, sep);
		} else {
			fprintf(f, "%s%s%s", status_text(c), sep, sep);
		}
		ud_fputs_visible(f, c->name);
		if (w->runs > 1) {
			if (isnan(c->rel_stddev))
				fprintf(f, "%s", sep);
			else
				fprintf(f, "%s%.2f%%", sep, 100 * c->rel_stddev);
		}
		fprintf(f, "%s%.0f%s%.2f%s", sep, run, sep, pct, sep);
		if (!isnan(cm.value))
			fprintf(f, "%.3f%s%s", cm.value, sep, cm.unit);
		else
			fprintf(f, "%s", sep);
		fputc('\n', f);
	}
}
