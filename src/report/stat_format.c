#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "cpu_mode.h"
#include "derived.h"
#include "event_names.h"
#include "sort.h"
#include "stat_format.h"
#include "stats.h"
#include "text.h"
#include "topdown.h"

/*
 * perf 6.1's column widths (stat-display.c: COUNTS_LEN, EVNAME_LEN, METRIC_LEN, which
 * later perf widened to 38; the unit column at least "msec").
 */
#define COUNTS_LEN 18
#define EVNAME_LEN 32
/* perf 6.1 pads the name of a counter not counted or not supported to 25 (stat-display.c, printout()) */
#define EVNAME_LEN_MISSING 25
#define METRIC_LEN 35
#define UNIT_LEN_MIN 4
/* perf prints the interval header again after this many intervals (print_header(): num_print_iv). */
#define HEADER_EVERY 26

struct comment {
	double value;       /* NAN: no comment */
	char unit[64];
	const char *format; /* printf format of value and value2 in the text form */
	/* a level-2 top-down row's second share (Light Operations beside Heavy Operations); NAN none */
	double value2;
	char unit2[64];
};

/*
 * The name perf prints for a counter, whole however long (perf prints it
 * whole): an event asked for again is counted under "NAME#2"
 * (event_names.h), and perf prints NAME for every copy.  Returns a new
 * string the caller frees; out of memory, the counter's own name whole
 * (its "#2" shown) as a borrowed one: free it through perf_name_free().
 */
static char *perf_name(const struct ud_counter *c)
{
	char *name = strndup(c->name, ud_event_repeat_base_len(c->name));

	return name ? name : (char *)c->name;
}

static void perf_name_free(const struct ud_counter *c, char *name)
{
	if (name != c->name)
		free(name);
}

/* Whether counter k is the one perf names name (its copies too). */
static bool perf_named(const struct ud_counter *k, const char *name)
{
	size_t len = ud_event_repeat_base_len(k->name);

	return len == strlen(name) && strncmp(k->name, name, len) == 0;
}

/* task-clock and cpu-clock count nanoseconds, with or without a ":u"-style modifier. */
static int is_clock(const char *name)
{
	size_t len = strcspn(name, ":");

	return (len == 10 && strncmp(name, "task-clock", len) == 0) ||
	       (len == 9 && strncmp(name, "cpu-clock", len) == 0);
}

/*
 * The value of the counter perf names name in c's cgroup (-G,
 * --for-each-cgroup): perf keeps its shadow stats per cgroup (stat-shadow.c,
 * saved with evsel->cgrp), so a cgroup's rates are over its own clock.
 */
static double in_cgroup_of(const struct ud_workload *w, const struct ud_counter *c, const char *name)
{
	for (size_t i = 0; i < w->ncounters; i++) {
		const struct ud_counter *k = &w->counters[i];

		if (k->status == UD_COUNTED && k->cgroup && strcmp(k->cgroup, c->cgroup) == 0 && perf_named(k, name))
			return k->value;
	}
	return NAN;
}

/* An events-per-second rate over task-clock, as perf prints for counts. */
static void rate(struct comment *cm, const struct ud_workload *w, const struct ud_counter *c)
{
	/* perf's runtime_nsecs_stats: whichever clock was counted (cpu-clock by default with -a) */
	double clock = c->cgroup ? in_cgroup_of(w, c, "task-clock") : ud_workload_value(w, "task-clock");
	double secs = (!isnan(clock) ? clock
		       : c->cgroup  ? in_cgroup_of(w, c, "cpu-clock")
				    : ud_workload_value(w, "cpu-clock")) / 1e9;
	double r = c->value / secs;
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

static void ratio_comment(struct comment *cm, double v, const char *unit, const char *format)
{
	if (isnan(v) || isinf(v))
		return;
	cm->value = v;
	cm->format = format;
	snprintf(cm->unit, sizeof(cm->unit), "%s", unit);
}

static void percent(struct comment *cm, double fraction, const char *unit)
{
	ratio_comment(cm, 100 * fraction, unit, "%7.2f%%");
}

/* perf's "of all ... accesses" comments beyond the derived metrics (stat-shadow.c, print_*_cache_misses). */
static const struct {
	const char *misses, *accesses, *unit;
} miss_ratios[] = {
	{ "cache-misses", "cache-references", "of all cache refs" },
	{ "LLC-load-misses", "LLC-loads", "of all LL-cache accesses" },
	{ "L1-icache-load-misses", "L1-icache-loads", "of all L1-icache accesses" },
	{ "dTLB-load-misses", "dTLB-loads", "of all dTLB cache accesses" },
	{ "iTLB-load-misses", "iTLB-loads", "of all iTLB cache accesses" },
};

static bool miss_ratio(struct comment *cm, const struct ud_workload *w, const struct ud_counter *c, const char *name)
{
	for (size_t i = 0; i < sizeof(miss_ratios) / sizeof(miss_ratios[0]); i++) {
		if (strcmp(name, miss_ratios[i].misses) == 0) {
			double all = ud_workload_value(w, miss_ratios[i].accesses);

			if (all > 0)
				percent(cm, c->value / all, miss_ratios[i].unit);
			return true;
		}
	}
	return false;
}

/*
 * perf 6.1's top-down metrics beside Intel's topdown-* counters
 * (stat-shadow.c), each a share of the level-1 four's sum.  A level-2 row
 * has two: its own share, and its level-1 parent's less it.
 */
static const struct {
	const char *event, *metric, *parent, *rest;
} topdown_rows[] = {
	{ "topdown-retiring", "Retiring", NULL, NULL },
	{ "topdown-bad-spec", "Bad Speculation", NULL, NULL },
	{ "topdown-fe-bound", "Frontend Bound", NULL, NULL },
	{ "topdown-be-bound", "Backend Bound", NULL, NULL },
	{ "topdown-heavy-ops", "Heavy Operations", "topdown-retiring", "Light Operations" },
	{ "topdown-br-mispredict", "Branch Mispredict", "topdown-bad-spec", "Machine Clears" },
	{ "topdown-fetch-lat", "Fetch Latency", "topdown-fe-bound", "Fetch Bandwidth" },
	{ "topdown-mem-bound", "Memory Bound", "topdown-be-bound", "Core Bound" },
};
/* The first rows of topdown_rows, level 1's. */
#define TOPDOWN_LEVEL1_ROWS 4

/*
 * c's shares where name is a topdown-* row and at least two of level 1's
 * four counted (perf's full_td()); else no comment, and perf prints the
 * counter's rate instead, as for any other event.  perf 6.1 shows level
 * 2's shares with its default events (topdown_level at its most); here
 * wherever level 2's counters are, asked for with -e or not.
 */
static void topdown_share(struct comment *cm, const struct ud_workload *w, const struct ud_counter *c,
			  const char *name)
{
	size_t n = sizeof(topdown_rows) / sizeof(topdown_rows[0]), k = n;
	double sum = 0;
	int counted = 0;

	for (size_t i = 0; i < TOPDOWN_LEVEL1_ROWS; i++) {
		double v = ud_workload_value(w, topdown_rows[i].event);

		if (v > 0) {
			sum += v;
			counted++;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(name, topdown_rows[i].event) == 0)
			k = i;
	if (k == n || counted < 2)
		return;
	ratio_comment(cm, 100 * c->value / sum, topdown_rows[k].metric, "%8.1f%%");
	if (topdown_rows[k].parent) {
		cm->value2 = 100 * (ud_workload_value(w, topdown_rows[k].parent) - c->value) / sum;
		snprintf(cm->unit2, sizeof(cm->unit2), "%s", topdown_rows[k].rest);
	}
}

/* CPUs utilized: task-clock over the time it was counted in (SPEC §4, perf's stat-shadow.c). */
static double cpus_utilized(const struct ud_workload *w, const struct ud_counter *c)
{
	return w->elapsed_ns > 0 ? c->value / w->elapsed_ns : NAN;
}

static struct comment comment_for(const struct ud_workload *w, const struct ud_counter *c)
{
	struct comment cm = { NAN, "", "%8.3f", NAN, "" };
	char *n;

	if (c->status != UD_COUNTED)
		return cm;
	/* a copy of an event reads as perf reads each: task-clock#2 is CPUs utilized too */
	n = perf_name(c);
	if (is_clock(n))
		ratio_comment(&cm, cpus_utilized(w, c), "CPUs utilized", "%8.3f");
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
	else if (!miss_ratio(&cm, w, c, n))
		topdown_share(&cm, w, c, n);
	if (isnan(cm.value) && !is_clock(n))
		rate(&cm, w, c);
	perf_name_free(c, n);
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

static struct ud_stat_unit unit_of(const struct ud_stat_view *v, size_t i)
{
	static const struct ud_stat_unit none = { "", 1, false };

	return v->units ? v->units[i] : none;
}

/* The unit column's width: perf's 4, or the longest unit (sysfs "Joules"). */
static int unit_width(const struct ud_stat_view *v)
{
	int width = UNIT_LEN_MIN;

	for (size_t i = 0; v->units && i < v->whole->ncounters; i++)
		if (v->units[i].unit && (int)strlen(v->units[i].unit) > width)
			width = (int)strlen(v->units[i].unit);
	return width;
}

/* A count in its unit (as read with --no-scale). */
static double shown(const struct ud_stat_view *v, const struct ud_counter *c, struct ud_stat_unit u)
{
	return (v->no_scale && !isnan(c->raw_value) ? c->raw_value : c->value) * u.scale;
}

/* perf's decimals of a count: two where the scale is not whole (msec), none otherwise. */
static int decimals(struct ud_stat_unit u)
{
	return floor(u.scale) != u.scale ? 2 : 0;
}

/*
 * A text count as perf -B prints it ("%'18.0f"): the whole digits in
 * threes, joined by sep (the locale's; none for NULL or "").  Grouped here,
 * not by printf's "'" flag, which needs setlocale() for the whole process.
 */
static void count_text(char *buf, size_t len, double value, int prec, const char *sep)
{
	char digits[128];
	size_t n = (size_t)snprintf(digits, sizeof(digits), "%.*f", prec, value), at = 0, sign = digits[0] == '-';
	size_t whole = strcspn(digits, ".");

	if (!sep || !*sep || n >= sizeof(digits)) {
		snprintf(buf, len, "%s", digits);
		return;
	}
	for (size_t i = 0; i < n && at + strlen(sep) + 1 < len; i++) {
		/* a separator before each group of three whole digits but the first */
		if (i > sign && i < whole && (whole - i) % 3 == 0)
			at += (size_t)snprintf(buf + at, len - at, "%s", sep);
		buf[at++] = digits[i];
	}
	buf[at < len ? at : len - 1] = '\0';
}

static double event_runtime(const struct ud_counter *c)
{
	return c->status == UD_COUNTED && !isnan(c->running_ns) ? c->running_ns : 0;
}

static double pcnt_running(const struct ud_counter *c)
{
	return multiplexed(c) && c->enabled_ns > 0 ? 100 * c->running_ns / c->enabled_ns : 100;
}

/* The relative spread perf prints after a count of several runs, in percent; 0 for one run. */
static double noise_pct(const struct ud_stat_view *v, const struct ud_counter *c)
{
	return v->whole->runs > 1 && !isnan(c->rel_stddev) ? 100 * c->rel_stddev : 0;
}

/* "%6lu.%09lu" of the interval's time stamp: whole seconds and nanoseconds, never rounded up to the next second. */
static void stamp(const struct ud_stat_view *v, unsigned long *sec, unsigned long *nsec)
{
	uint64_t ns = (uint64_t)llround(v->interval_s * 1e9);

	*sec = (unsigned long)(ns / 1000000000ULL);
	*nsec = (unsigned long)(ns % 1000000000ULL);
}

/* The aggregate's columns in perf's text layout (stat-display.c, print_aggr_id_std). */
static int aggr_text(char *buf, size_t len, enum ud_stat_aggr aggr, const struct ud_stat_slot *s)
{
	char visible[128];
	const char *label = s && s->label ? ud_visible(s->label, visible, sizeof(visible)) : "";

	switch (aggr) {
	case UD_STAT_PER_CPU: return snprintf(buf, len, "CPU%-7d ", s->number);
	case UD_STAT_PER_CORE: return snprintf(buf, len, "%-15s %4d ", label, s->number);
	case UD_STAT_PER_SOCKET:
	case UD_STAT_PER_NODE: return snprintf(buf, len, "%-6s %4d ", label, s->number);
	case UD_STAT_PER_DIE: return snprintf(buf, len, "%-12s %4d ", label, s->number);
	case UD_STAT_PER_THREAD: return snprintf(buf, len, "%16s-%-8d ", label, s->number);
	case UD_STAT_WHOLE: break;
	}
	return 0;
}

/* perf's print_metric_std() at line[len]: " # ", value, the unit padded to METRIC_LEN; blanks for none.  The new len. */
static size_t text_metric(char *line, size_t size, size_t len, double value, const char *format, const char *unit)
{
	char buf[64];
	int n;

	if (len >= size)
		return len;
	if (isnan(value))
		return len + (size_t)snprintf(line + len, size - len, "%-*s", METRIC_LEN, "");
	n = snprintf(buf, sizeof(buf), " # ");
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, format, value);
	return len + (size_t)snprintf(line + len, size - len, "%s %-*s", buf, METRIC_LEN - n - 1, unit);
}

/* A text row's room beside its event's name and cgroup: the times, counts, unit, metric and noise columns. */
#define TEXT_ROW_ROOM 1024

static void text_row(FILE *f, const struct ud_stat_view *v, const struct ud_stat_slot *s, size_t i)
{
	const struct ud_workload *w = s ? s->w : v->whole;
	const struct ud_counter *c = &w->counters[i];
	struct comment cm = comment_for(w, c);
	struct ud_stat_unit u = unit_of(v, i);
	char buf[256], *perf = perf_name(c);
	/* -e names are the user's input: shown, never obeyed by the terminal; whole, as perf prints them */
	char *name = ud_visible_new(perf), *cg = v->cgroups ? ud_visible_new(c->cgroup ? c->cgroup : "") : NULL;
	size_t len = 0, room = TEXT_ROW_ROOM + (name ? strlen(name) : 0) + (cg ? strlen(cg) : 0);
	char *line = name && (cg || !v->cgroups) ? malloc(room) : NULL;

	perf_name_free(c, perf);
	if (!line) {
		/* out of memory: the name alone, never a row without it */
		ud_fputs_visible(f, c->name);
		fputc('\n', f);
		free(name);
		free(cg);
		return;
	}

	if (!isnan(v->interval_s)) {
		unsigned long sec, nsec;

		stamp(v, &sec, &nsec);
		len += (size_t)snprintf(line + len, room - len, "%6lu.%09lu ", sec, nsec);
	}
	len += (size_t)aggr_text(line + len, room - len, v->aggr, s);
	if (c->status == UD_COUNTED) {
		count_text(buf, sizeof(buf), shown(v, c, u), decimals(u), v->thousands_sep);
		len += (size_t)snprintf(line + len, room - len, "%*s ", COUNTS_LEN, buf);
	} else {
		len += (size_t)snprintf(line + len, room - len, "%*s ", COUNTS_LEN, status_text(c));
	}
	if (v->cgroups) {
		/* perf's print_cgroup(): the cgroup after the name, empty for a counter without one */
		len += (size_t)snprintf(line + len, room - len, "%-*s %-*s %s", unit_width(v), u.unit,
					c->status == UD_COUNTED ? EVNAME_LEN : EVNAME_LEN_MISSING, name, cg);
	} else {
		len += (size_t)snprintf(line + len, room - len, "%-*s %-*s", unit_width(v), u.unit, EVNAME_LEN,
					name);
	}
	len = text_metric(line, room, len, cm.value, cm.format, cm.unit);
	/* perf's print_metric_std() prints a second metric on the same line, as no new_line() comes between */
	if (!isnan(cm.value2))
		len = text_metric(line, room, len, cm.value2, cm.format, cm.unit2);
	if (noise_pct(v, c) != 0 && len < room)
		len += (size_t)snprintf(line + len, room - len, "  ( +-%6.2f%% )", noise_pct(v, c));
	if (multiplexed(c) && len < room)
		snprintf(line + len, room - len, "  (%.2f%%)", pcnt_running(c));
	/* perf pads every column; with nothing after them, the padding goes. */
	for (len = strlen(line); len > 0 && line[len - 1] == ' '; len--)
		line[len - 1] = '\0';
	fprintf(f, "%s\n", line);
	free(line);
	free(name);
	free(cg);
}

typedef void (*row_fn)(FILE *f, const struct ud_stat_view *v, const struct ud_stat_slot *s, size_t i,
		       const void *arg);

static bool row_shown(const struct ud_stat_view *v, size_t i)
{
	return v->verbose || !v->units || !v->units[i].extra;
}

/* A thread's count of event i as perf sorts it: 0 where it was not counted. */
static double thread_count(const struct ud_stat_slot *s, size_t i)
{
	const struct ud_counter *c = &s->w->counters[i];

	return c->status == UD_COUNTED ? c->value : 0;
}

struct thread_rank {
	double count;
	size_t slot;
};

/* Highest count first; equal counts in the threads' order, so the output does not depend on qsort. */
static int by_count(const void *a, const void *b)
{
	const struct thread_rank *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

/* Event i's rows per thread in perf's order; -1 out of memory (nothing printed). */
static int thread_rows(FILE *f, const struct ud_stat_view *v, size_t i, row_fn fn, const void *arg)
{
	struct thread_rank *rank = calloc(v->nslots + 1, sizeof(*rank));
	size_t k = 0;

	if (!rank)
		return -1;
	for (size_t s = 0; s < v->nslots; s++)
		if (!v->all_threads || thread_count(&v->slots[s], i) != 0)
			rank[k++] = (struct thread_rank){ thread_count(&v->slots[s], i), s };
	ud_sort(rank, k, sizeof(*rank), by_count);
	for (size_t r = 0; r < k; r++)
		fn(f, v, &v->slots[rank[r].slot], i, arg);
	free(rank);
	return 0;
}

/*
 * Every row in perf's order: per CPU and per thread event by event; per
 * core, die, socket and node aggregate by aggregate.
 */
static void each_row(FILE *f, const struct ud_stat_view *v, row_fn fn, const void *arg)
{
	size_t n = v->whole->ncounters;

	if (v->aggr == UD_STAT_WHOLE) {
		for (size_t i = 0; i < n; i++)
			if (row_shown(v, i))
				fn(f, v, NULL, i, arg);
	} else if (v->aggr == UD_STAT_PER_THREAD) {
		for (size_t i = 0; i < n; i++)
			if (row_shown(v, i) && thread_rows(f, v, i, fn, arg) != 0)
				return;
	} else if (v->aggr == UD_STAT_PER_CPU) {
		for (size_t i = 0; i < n; i++)
			for (size_t s = 0; s < v->nslots && row_shown(v, i); s++)
				fn(f, v, &v->slots[s], i, arg);
	} else {
		for (size_t s = 0; s < v->nslots; s++)
			for (size_t i = 0; i < n; i++)
				if (row_shown(v, i))
					fn(f, v, &v->slots[s], i, arg);
	}
}

static void text_row_fn(FILE *f, const struct ud_stat_view *v, const struct ud_stat_slot *s, size_t i, const void *arg)
{
	(void)arg;
	text_row(f, v, s, i);
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

/* perf's print_header_interval_std(): the time, the aggregate's columns, then counts, unit and events. */
static void interval_header(FILE *f, const struct ud_stat_view *v)
{
	static const char *const aggr_part[] = {
		[UD_STAT_WHOLE] = "",
		[UD_STAT_PER_CPU] = " CPU       ",
		[UD_STAT_PER_CORE] = " core            cpus",
		[UD_STAT_PER_SOCKET] = " socket cpus",
		[UD_STAT_PER_THREAD] = "             comm-pid     ",
		[UD_STAT_PER_DIE] = " die          cpus",
		[UD_STAT_PER_NODE] = " node   cpus",
	};

	fprintf(f, "#%15s%s %*s %*s events\n", "time", aggr_part[v->aggr], COUNTS_LEN, "counts", unit_width(v), "unit");
}

/* The digits perf keeps of a mean with spread sd: two past the spread's first (get_precision()). */
static int precision(double sd)
{
	return sd > 1 || sd <= 0 ? 2 : (int)lround(ceil(-log10(sd))) + 2;
}

/* perf's bar in --table: a '#' for each 5% a run is off the mean, and one more (print_table()). */
#define TABLE_BAR_PCT 5

/* perf's --table: each run's elapsed time, how far it is from the mean, and a bar of that (print_table()). */
static void print_table(FILE *f, const struct ud_workload *w, int prec, double mean)
{
	char tmp[64];
	int indent;

	snprintf(tmp, sizeof(tmp), " %17.*f", prec, mean);
	indent = (int)strspn(tmp, " ");
	fprintf(f, "%*s# Table of individual measurements:\n", indent, "");
	for (size_t i = 0; i < w->score.nsamples; i++) {
		double run = w->score.samples[i];
		int bars = 1 + abs((int)(100.0 * (run - mean) / run) / TABLE_BAR_PCT);

		fprintf(f, " %17.*f (%+.*f) ", prec, run, prec, run - mean);
		for (int h = 0; h < bars; h++)
			fputc('#', f);
		fputc('\n', f);
	}
	fprintf(f, "\n%*s# Final result:\n", indent, "");
}

/* perf's print_footer(): the elapsed time (with its spread over runs), user and sys. */
static void footer(FILE *f, const struct ud_stat_view *v)
{
	const struct ud_workload *w = v->whole;
	double elapsed_s = w->elapsed_ns / 1e9, tc = ud_workload_value(w, "task-clock");

	if (!v->null_run)
		fputc('\n', f);
	if (w->runs > 1 && w->score.nsamples > 1) {
		double m = ud_mean(w->score.samples, w->score.nsamples);
		double sd = ud_stddev(w->score.samples, w->score.nsamples) / sqrt((double)w->score.nsamples);
		int p = precision(sd);

		if (v->table)
			print_table(f, w, p, elapsed_s);
		fprintf(f, " %17.*f +- %.*f seconds time elapsed", p, elapsed_s, p, sd);
		if (m > 0 && sd > 0)
			fprintf(f, "  ( +-%6.2f%% )", 100 * sd / m);
	} else {
		fprintf(f, " %17.9f seconds time elapsed", elapsed_s);
		if (v->rusage) {
			fprintf(f, "\n\n %17.9f seconds user\n %17.9f seconds sys\n", w->user_ns / 1e9, w->sys_ns / 1e9);
			/* derived.h: getrusage counts reaped children whole, task-clock misses their exit. */
			if (v->rusage_cpus && !isnan(tc) && ud_cpu_time_ns(tc, w->user_ns, w->sys_ns) != tc && w->elapsed_ns > 0)
				fprintf(f, " %17.3f CPUs utilized by getrusage (user + sys over elapsed)\n",
					(w->user_ns + w->sys_ns) / w->elapsed_ns);
		}
	}
	fprintf(f, "\n\n");
}

/* perf's column width in metric-only output (tools/perf/util/stat-display.c, METRIC_ONLY_LEN). */
#define TOPDOWN_COLUMN 20

/* "bad_speculation" as perf --topdown heads its column: "bad speculation". */
static void topdown_label(int b, char *buf, size_t len)
{
	snprintf(buf, len, "%s", ud_topdown_bucket_name(b));
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

static bool topdown_column(const struct ud_topdown *t, int b)
{
	return b <= UD_TD_BACKEND_BOUND ? t->defined[b] || t->method == UD_TD_SLOTS : t->defined[b];
}

/* One record as perf stat --topdown prints level 1: a line of names, a line of percentages, then why any is n/a. */
static void print_topdown_record(FILE *f, const struct ud_topdown *t)
{
	char label[64];

	fprintf(f, "\n Top-down%s%s (%s, level %d):\n\n", t->pmu[0] ? " on " : "", t->pmu,
		t->method == UD_TD_SLOTS ? "issue slots" : "cycle accounting: stalled cycles over all cycles, not top-down",
		t->level);
	for (int b = 0; b < UD_TD_LEVEL1_COUNT; b++) {
		if (!topdown_column(t, b))
			continue;
		topdown_label(b, label, sizeof(label));
		fprintf(f, "%*s ", TOPDOWN_COLUMN, label);
	}
	fputc('\n', f);
	for (int b = 0; b < UD_TD_LEVEL1_COUNT; b++) {
		if (!topdown_column(t, b))
			continue;
		if (isnan(t->value[b]))
			fprintf(f, "%*s ", TOPDOWN_COLUMN, "n/a");
		else
			fprintf(f, "%*.1f%% ", TOPDOWN_COLUMN - 1, 100 * t->value[b]);
	}
	fputc('\n', f);
	for (int b = 0; b < UD_TD_LEVEL1_COUNT; b++) {
		if (!topdown_column(t, b) || !isnan(t->value[b]) || !t->reason[b][0])
			continue;
		topdown_label(b, label, sizeof(label));
		fprintf(f, "   %s n/a: ", label);
		ud_fputs_visible(f, t->reason[b]);
		fputc('\n', f);
	}
	if (t->estimate[0]) {
		fputs("   estimate: ", f);
		ud_fputs_visible(f, t->estimate);
		fputc('\n', f);
	}
}

/* perf's width of a --metric-only column (METRIC_ONLY_LEN), wider where its unit is longer. */
#define METRIC_ONLY_LEN 20
/* perf heads --metric-only intervals again after this many (print_interval(): num_print_interval). */
#define METRIC_HEADER_EVERY 25

/* The metrics perf's --metric-only leaves out, rates and CPUs utilized (valid_only_metric()). */
static bool only_metric(const char *unit)
{
	return !strstr(unit, "/sec") && !strstr(unit, "CPUs utilized");
}

/* A --metric-only column's heading: "NAME of all branches", wider than any column perf pads (METRIC_ONLY_LEN). */
#define METRIC_HEADING_MAX 512
/* What ends a heading cut to its buffer. */
#define CUT_MARK "..."

/* The end of the len-byte buffer s (len > 4) replaced by CUT_MARK, at a UTF-8 character's edge. */
static void end_cut(char *s, size_t len)
{
	size_t at = strnlen(s, len - 1);

	if (at > len - sizeof(CUT_MARK))
		at = len - sizeof(CUT_MARK);
	while (at > 0 && ((unsigned char)s[at] & 0xC0) == 0x80)
		at--;
	memcpy(s + at, CUT_MARK, sizeof(CUT_MARK));
}

/*
 * Whether counter i is a --metric-only column, and its heading: the
 * metric's unit, with the event's name before "of all ..." (fixunit()).
 * Decided on the whole, so every row has the same columns.
 */
static bool metric_column(const struct ud_stat_view *v, size_t i, char *unit, size_t len)
{
	struct comment cm = comment_for(v->whole, &v->whole->counters[i]);
	const struct ud_counter *c = &v->whole->counters[i];
	char *name, *shown;

	if (!row_shown(v, i) || isnan(cm.value) || !only_metric(cm.unit))
		return false;
	if (strncmp(cm.unit, "of all", 6) != 0) {
		snprintf(unit, len, "%s", cm.unit);
		return true;
	}
	name = perf_name(c);
	shown = ud_visible_new(name);
	/* a heading longer than its column's room ends in a visible "...", never cut silently */
	if ((size_t)snprintf(unit, len, "%s %s", shown ? shown : "", cm.unit) >= len || !shown)
		end_cut(unit, len);
	free(shown);
	perf_name_free(c, name);
	return true;
}

/* value in format, as -x and -j write a metric: without padding or '%'; "" for NAN. */
static void digits_of(double value, const char *format, char *buf, size_t len)
{
	char *p = buf, *end;

	buf[0] = '\0';
	if (isnan(value))
		return;
	snprintf(buf, len, format, value);
	while (*p == ' ')
		p++;
	for (end = p; (*end >= '0' && *end <= '9') || *end == '.' || *end == '-'; end++)
		;
	*end = '\0';
	memmove(buf, p, (size_t)(end - p) + 1);
}

/* A row's metric of counter i as -x and -j write it, without padding or '%'; "" where it has none. */
static void metric_digits(const struct ud_workload *w, size_t i, char *buf, size_t len)
{
	struct comment cm = comment_for(w, &w->counters[i]);

	digits_of(cm.value, cm.format, buf, len);
}

/* The rows of --metric-only: the whole's one, or one an aggregate. */
static size_t metric_rows(const struct ud_stat_view *v)
{
	return v->aggr == UD_STAT_WHOLE ? 1 : v->nslots;
}

static const struct ud_stat_slot *metric_slot(const struct ud_stat_view *v, size_t r)
{
	return v->aggr == UD_STAT_WHOLE ? NULL : &v->slots[r];
}

/* perf's heading line of --metric-only text: the aggregate's room (or the interval's "# time"), then each unit. */
static void metric_header_text(FILE *f, const struct ud_stat_view *v)
{
	static const int indent[] = { [UD_STAT_WHOLE] = 0, [UD_STAT_PER_CPU] = 6, [UD_STAT_PER_CORE] = 24,
				      [UD_STAT_PER_SOCKET] = 12, [UD_STAT_PER_THREAD] = 24 };
	static const char *const interval_part[] = {
		[UD_STAT_WHOLE] = "", [UD_STAT_PER_CPU] = " CPU    ", [UD_STAT_PER_CORE] = " core            cpus",
		[UD_STAT_PER_SOCKET] = " socket cpus", [UD_STAT_PER_THREAD] = "             comm-pid",
	};
	char unit[METRIC_HEADING_MAX];

	if (!isnan(v->interval_s))
		fprintf(f, "#%15s%s ", "time", interval_part[v->aggr]);
	else
		fprintf(f, "%*s", indent[v->aggr], "");
	for (size_t i = 0; i < v->whole->ncounters; i++)
		if (metric_column(v, i, unit, sizeof(unit)))
			fprintf(f, "%*s ", METRIC_ONLY_LEN, unit);
	fputc('\n', f);
}

/* perf's --metric-only text: a heading line of units, then a line of values a row. */
static void metric_only_text(FILE *f, const struct ud_stat_view *v)
{
	char unit[METRIC_HEADING_MAX], line[256];
	unsigned long sec, nsec;

	if (isnan(v->interval_s) || v->interval_index % METRIC_HEADER_EVERY == 0)
		metric_header_text(f, v);
	for (size_t r = 0; r < metric_rows(v); r++) {
		const struct ud_stat_slot *s = metric_slot(v, r);
		const struct ud_workload *w = s ? s->w : v->whole;

		if (!isnan(v->interval_s)) {
			stamp(v, &sec, &nsec);
			fprintf(f, "%6lu.%09lu ", sec, nsec);
		}
		line[0] = '\0'; /* the whole has no aggregate's columns */
		aggr_text(line, sizeof(line), v->aggr, s);
		fputs(line, f);
		for (size_t i = 0; i < v->whole->ncounters; i++) {
			struct comment cm = comment_for(w, &w->counters[i]);
			int width = METRIC_ONLY_LEN;

			if (!metric_column(v, i, unit, sizeof(unit)))
				continue;
			if ((int)strlen(unit) > width)
				width = (int)strlen(unit) + 1;
			line[0] = '\0';
			if (!isnan(cm.value))
				snprintf(line, sizeof(line), cm.format, cm.value);
			fprintf(f, "%*s ", width, line);
		}
		fputc('\n', f);
	}
}

void ud_stat_print_text(FILE *f, const struct ud_stat_view *v)
{
	const struct ud_workload *w = v->whole;

	if (!isnan(v->interval_s) && v->metric_only && !v->null_run) {
		metric_only_text(f, v);
		return;
	}
	if (!isnan(v->interval_s)) {
		if (v->interval_index % HEADER_EVERY == 0)
			interval_header(f, v);
		each_row(f, v, text_row_fn, NULL);
		return;
	}
	fputs("\n Performance counter stats for ", f);
	if (v->target) {
		ud_fputs_visible(f, v->target);
	} else {
		fputc('\'', f);
		ud_fputs_visible(f, w->command ? w->command : w->name);
		fputc('\'', f);
	}
	if (w->runs > 1)
		fprintf(f, " (%d runs)", w->runs);
	fprintf(f, ":\n\n");
	if (v->metric_only && !v->null_run) {
		metric_only_text(f, v);
	} else if (!v->null_run) {
		each_row(f, v, text_row_fn, NULL);
		if (v->verbose)
			print_reasons(f, w);
		for (size_t i = 0; i < w->ntopdown; i++)
			print_topdown_record(f, &w->topdown[i]);
	}
	footer(f, v);
}

/* The row's opening for -x and -j: the interval's time stamp, or perf --summary's marker after intervals. */
static void csv_prefix(FILE *f, const struct ud_stat_view *v, const char *sep)
{
	unsigned long sec, nsec;

	if (!isnan(v->interval_s)) {
		stamp(v, &sec, &nsec);
		fprintf(f, "%6lu.%09lu%s", sec, nsec, sep);
	} else if (v->summary && !v->no_csv_summary) {
		fprintf(f, "%16s%s", "summary", sep);
	}
}

/* The aggregate's fields of -x (stat-display.c, print_aggr_id_csv). */
static void aggr_csv(FILE *f, enum ud_stat_aggr aggr, const struct ud_stat_slot *s, const char *sep)
{
	switch (aggr) {
	case UD_STAT_PER_CPU: fprintf(f, "CPU%d%s", s->number, sep); break;
	case UD_STAT_PER_CORE:
	case UD_STAT_PER_DIE:
	case UD_STAT_PER_SOCKET:
	case UD_STAT_PER_NODE:
		ud_fputs_visible(f, s->label);
		fprintf(f, "%s%d%s", sep, s->number, sep);
		break;
	case UD_STAT_PER_THREAD:
		ud_fputs_visible(f, s->label);
		fprintf(f, "-%d%s", s->number, sep);
		break;
	case UD_STAT_WHOLE: break;
	}
}

/* A metric's value as -x writes it: the text form's digits, without padding or '%' (print_metric_csv()). */
static void csv_metric(FILE *f, const struct ud_workload *w, size_t i, const struct comment *cm, const char *sep)
{
	char digits[64];

	metric_digits(w, i, digits, sizeof(digits));
	fprintf(f, "%s%s%s%s", sep, digits, sep, isnan(cm->value) ? "" : cm->unit);
	/* print_metric_csv() appends a second metric's two fields */
	if (!isnan(cm->value2)) {
		digits_of(cm->value2, cm->format, digits, sizeof(digits));
		fprintf(f, "%s%s%s%s", sep, digits, sep, cm->unit2);
	}
}

/*
 * A name as a field of -x output, shown (text.h): as it is, or, when it holds
 * the separator or a '"' (a PMU event's terms, "cpu/event=0x3c,umask=0/",
 * under -x ,), quoted as CSV quotes (RFC 4180: "..." with "" for a quote),
 * so that every row keeps its number of fields.  perf prints it bare, and
 * such a row has one field too many.
 */
static void csv_name(FILE *f, const char *name, const char *sep)
{
	if (!strstr(name, sep) && !strchr(name, '"')) {
		ud_fputs_visible(f, name);
		return;
	}
	fputc('"', f);
	for (const char *c = name; *c;) {
		size_t n = ud_control_len(c);

		for (size_t k = 0; k < n; k++)
			fprintf(f, "\\x%02x", (unsigned char)c[k]);
		if (!n)
			fputs(*c == '"' ? "\"\"" : (char[]){ *c, '\0' }, f);
		c += n ? n : 1;
	}
	fputc('"', f);
}

static void csv_row(FILE *f, const struct ud_stat_view *v, const struct ud_stat_slot *s, size_t i, const void *arg)
{
	const char *sep = arg;
	const struct ud_workload *w = s ? s->w : v->whole;
	const struct ud_counter *c = &w->counters[i];
	struct comment cm = comment_for(w, c);
	struct ud_stat_unit u = unit_of(v, i);
	char *name = perf_name(c);

	csv_prefix(f, v, sep);
	aggr_csv(f, v->aggr, s, sep);
	if (c->status == UD_COUNTED)
		fprintf(f, "%.*f%s", decimals(u), shown(v, c, u), sep);
	else
		fprintf(f, "%s%s", status_text(c), sep);
	fprintf(f, "%s%s", u.unit, sep);
	csv_name(f, name, sep);
	perf_name_free(c, name);
	if (v->cgroups) {
		fputs(sep, f);
		csv_name(f, c->cgroup ? c->cgroup : "", sep);
	}
	if (v->whole->runs > 1)
		fprintf(f, "%s%.2f%%", sep, noise_pct(v, c));
	fprintf(f, "%s%.0f%s%.2f", sep, event_runtime(c), sep, pcnt_running(c));
	csv_metric(f, w, i, &cm, sep);
	fputc('\n', f);
}

/* perf's --metric-only -x: a heading line (" time," with -I, the aggregate's fields, each unit), then a line a row. */
static void metric_only_csv(FILE *f, const struct ud_stat_view *v, const char *sep)
{
	/* perf's words, their commas whatever SEP is (and "socket,cpus" without its last), as perf writes them */
	static const char *const aggr_part[] = { [UD_STAT_WHOLE] = "", [UD_STAT_PER_CPU] = "cpu,",
						 [UD_STAT_PER_CORE] = "core,cpus,", [UD_STAT_PER_SOCKET] = "socket,cpus",
						 [UD_STAT_PER_THREAD] = "comm-pid," };
	char unit[METRIC_HEADING_MAX], digits[64];
	unsigned long sec, nsec;

	if (isnan(v->interval_s) || v->interval_index % METRIC_HEADER_EVERY == 0) {
		fputs(isnan(v->interval_s) ? "" : " time,", f);
		fputs(aggr_part[v->aggr], f);
		for (size_t i = 0; i < v->whole->ncounters; i++)
			if (metric_column(v, i, unit, sizeof(unit)))
				fprintf(f, "%s%s", unit, sep);
		fputc('\n', f);
	}
	for (size_t r = 0; r < metric_rows(v); r++) {
		const struct ud_stat_slot *s = metric_slot(v, r);

		if (!isnan(v->interval_s)) {
			stamp(v, &sec, &nsec);
			fprintf(f, "%6lu.%09lu%s", sec, nsec, sep);
		}
		aggr_csv(f, v->aggr, s, sep);
		for (size_t i = 0; i < v->whole->ncounters; i++) {
			if (!metric_column(v, i, unit, sizeof(unit)))
				continue;
			metric_digits(s ? s->w : v->whole, i, digits, sizeof(digits));
			fprintf(f, "%s%s", digits, sep);
		}
		fputc('\n', f);
	}
}

void ud_stat_print_csv(FILE *f, const struct ud_stat_view *v, const char *sep)
{
	if (v->null_run)
		return;
	if (v->metric_only)
		metric_only_csv(f, v, sep);
	else
		each_row(f, v, csv_row, sep);
}

/* A JSON string's body: names are the user's input, quotes and control characters escaped. */
static void json_text(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
}

/* The aggregate's keys of -j (stat-display.c, print_aggr_id_json). */
static void aggr_json(FILE *f, enum ud_stat_aggr aggr, const struct ud_stat_slot *s)
{
	static const char *const key[] = { [UD_STAT_PER_CORE] = "core", [UD_STAT_PER_SOCKET] = "socket",
					   [UD_STAT_PER_DIE] = "die", [UD_STAT_PER_NODE] = "node" };

	switch (aggr) {
	case UD_STAT_PER_CPU: fprintf(f, "\"cpu\" : \"%d\", ", s->number); break;
	case UD_STAT_PER_CORE:
	case UD_STAT_PER_DIE:
	case UD_STAT_PER_SOCKET:
	case UD_STAT_PER_NODE:
		fprintf(f, "\"%s\" : \"", key[aggr]);
		json_text(f, s->label);
		fprintf(f, "\", \"aggregate-number\" : %d, ", s->number);
		break;
	case UD_STAT_PER_THREAD:
		fputs("\"thread\" : \"", f);
		json_text(f, s->label);
		fprintf(f, "-%d\", ", s->number);
		break;
	case UD_STAT_WHOLE: break;
	}
}

static void json_row(FILE *f, const struct ud_stat_view *v, const struct ud_stat_slot *s, size_t i, const void *arg)
{
	const struct ud_workload *w = s ? s->w : v->whole;
	const struct ud_counter *c = &w->counters[i];
	struct comment cm = comment_for(w, c);
	struct ud_stat_unit u = unit_of(v, i);
	char *name = perf_name(c);

	(void)arg;
	if (!isnan(v->interval_s)) {
		unsigned long sec, nsec;

		stamp(v, &sec, &nsec);
		fprintf(f, "{\"interval\" : %lu.%09lu, ", sec, nsec);
	} else {
		fputc('{', f);
	}
	aggr_json(f, v->aggr, s);
	if (c->status == UD_COUNTED)
		fprintf(f, "\"counter-value\" : \"%f\", ", shown(v, c, u));
	else
		fprintf(f, "\"counter-value\" : \"%s\", ", status_text(c));
	fputs("\"unit\" : \"", f);
	json_text(f, u.unit);
	fputs("\", \"event\" : \"", f);
	json_text(f, name);
	perf_name_free(c, name);
	fputs("\", ", f);
	if (v->cgroups) {
		fputs("\"cgroup\" : \"", f);
		json_text(f, c->cgroup ? c->cgroup : "");
		fputs("\", ", f);
	}
	if (v->whole->runs > 1)
		fprintf(f, "\"variance\" : %.2f, ", noise_pct(v, c));
	fprintf(f, "\"event-runtime\" : %.0f, \"pcnt-running\" : %.2f, ", event_runtime(c), pcnt_running(c));
	/* perf 6.1 prints "(null)" for a counted event without a metric (printf of NULL); "" is what it means. */
	fprintf(f, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"}\n", isnan(cm.value) ? 0 : cm.value,
		isnan(cm.value) ? "" : cm.unit);
}

/*
 * --metric-only -j: an object a metric of a row, its interval and aggregate
 * keys, "metric-value" and "metric-unit".  perf 6.1 writes a row's objects
 * side by side on one line ({...}{...}) and leaves an aggregate's object
 * open, which no JSON reader, perf's own test's included, can parse.
 */
static void metric_only_json(FILE *f, const struct ud_stat_view *v)
{
	char unit[METRIC_HEADING_MAX], digits[64];
	unsigned long sec, nsec;

	for (size_t r = 0; r < metric_rows(v); r++) {
		const struct ud_stat_slot *s = metric_slot(v, r);

		for (size_t i = 0; i < v->whole->ncounters; i++) {
			if (!metric_column(v, i, unit, sizeof(unit)))
				continue;
			metric_digits(s ? s->w : v->whole, i, digits, sizeof(digits));
			if (!digits[0])
				continue;
			fputc('{', f);
			if (!isnan(v->interval_s)) {
				stamp(v, &sec, &nsec);
				fprintf(f, "\"interval\" : %lu.%09lu, ", sec, nsec);
			}
			aggr_json(f, v->aggr, s);
			fprintf(f, "\"metric-value\" : \"%s\", \"metric-unit\" : \"", digits);
			json_text(f, unit);
			fputs("\"}\n", f);
		}
	}
}

void ud_stat_print_json(FILE *f, const struct ud_stat_view *v)
{
	if (v->null_run)
		return;
	if (v->metric_only)
		metric_only_json(f, v);
	else
		each_row(f, v, json_row, NULL);
}

void ud_stat_print_hotspots(FILE *f, const struct ud_hotspots *h)
{
	if (!h)
		return;
	fprintf(f, " Hotspots (%s at %.0f Hz, %.0f samples%s%s):\n\n", h->sampling.event, h->sampling.frequency_hz,
		h->sampling.samples, h->sampling.kernel_symbols ? "; kernel symbols: " : "",
		h->sampling.kernel_symbols ? h->sampling.kernel_symbols : "");
	/* Symbol and file names come from the ELF files run: shown, never obeyed by the terminal. */
	for (size_t i = 0; i < h->nrows; i++) {
		char sym[1024], dso[4096];

		fprintf(f, " %6.2f%%  %-6s  %-40s %s\n", 100 * h->rows[i].share,
			h->rows[i].mode == UD_MODE_COUNT ? "" : ud_mode_name(h->rows[i].mode),
			ud_visible(h->rows[i].symbol, sym, sizeof(sym)),
			h->rows[i].dso ? ud_visible(h->rows[i].dso, dso, sizeof(dso)) : "");
	}
	fprintf(f, "\n");
}
