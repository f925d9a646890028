/*
 * import_perf_csv.c - `perf stat -x SEP`: value,unit,event[,variance],
 * run_time,pct_running,metric,metric_unit, with an interval timestamp or a
 * CPU column first under -I or -A.  The separator is read from the first
 * counter line; -G adds a cgroup after the event.  perf 6.x adds metric-only rows and metric-group headers
 * with the value and event empty: their metrics are kept, not refused.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_event_name.h"
#include "import_number.h"
#include "import_parsers.h"
#include "import_rows.h"

#define MAX_FIELDS 16
/* -G's cgroup and the four fields perf prints after it: run time, running share, metric value, metric unit. */
#define CSV_FIELDS_AFTER_CGROUP 5

/*
 * Splits line on sep into f (MAX_FIELDS at most), in place.  A field that
 * starts with '"' is quoted as CSV quotes it (RFC 4180, "" a quote inside):
 * `uarchdiff stat -x` quotes an event name holding the separator
 * ("cpu/event=0x3c,umask=0/"); perf prints such names bare.
 */
static int split(char *line, char sep, char **f)
{
	int n = 0;
	char *p = line;

	while (n < MAX_FIELDS) {
		char *out = p;

		f[n++] = p;
		/* an unquoted field, nearly every one, ends in place: found by strchr(), nothing copied */
		if (*p != '"') {
			if (!(p = strchr(p, sep)))
				break;
			*p++ = '\0';
			continue;
		}
		for (p++; *p && !(*p == '"' && p[1] != '"'); p++)
			*out++ = *p == '"' ? *p++ : *p;
		p += *p == '"';
		while (*p && *p != sep)
			*out++ = *p++;
		if (!*p) {
			*out = '\0';
			break;
		}
		*out = '\0';
		p++;
	}
	return n;
}

/* A field that is a timestamp and nothing else. */
static bool timestamp_field(const char *s)
{
	size_t n = imp_timestamp_len(s);

	return n && s[n] == '\0';
}

static char guess_sep(const char *line)
{
	static const char seps[] = ",;|\t";
	int best = 0;
	char sep = ',';

	for (const char *c = seps; *c; c++) {
		int k = 0;

		for (const char *p = line; *p; p++)
			k += *p == *c;
		if (k > best) {
			best = k;
			sep = *c;
		}
	}
	return sep;
}

/* A number field, or NAN when empty or not one. */
static double number_or_nan(const char *f)
{
	double v;

	return *f && imp_parse_field_number(f, 0, &v, NULL) == 0 ? v : NAN;
}

/*
 * A row without a value and event (perf 6.x): a metric-only row
 * (",,,,,63.2,%  tma_backend_bound", its value empty where perf computed
 * none) or a metric group's header (",118331208844,100.00,,,,TopdownL1").
 * The metric goes to the block (1), the header is skipped (0); -1 error.
 */
static int take_metric_row(struct acc *a, char **f, int n, const char *name, int lineno, struct ud_err *err)
{
	char *metric;
	int last = n - 1, r;

	while (last > 0 && !*f[last])
		last--;
	if (!*f[last] || (r = imp_metric_name_new(f[last], strlen(f[last]), true, &metric)) == 0)
		return 0;
	/* a header names a group, not a unit and a metric, and has no value before it */
	if (r > 0 && !*f[last - 1] && f[last][0] != '%') {
		imp_acc_metric_group(a, f[last]);
		free(metric);
		return 0;
	}
	r = r < 0 ? -1 : imp_acc_set_metric(a, metric, number_or_nan(f[last - 1]));
	free(metric);
	if (r != 0)
		return ud_fail(err, "%s:%d: out of memory", name, lineno);
	return 1;
}

/* The metric perf printed beside a counter, where it names one of its own (tma_*), not a comment (GHz). */
static int take_row_metric(struct acc *a, char **f, int n, int at, const char *event, const char *name,
			   int lineno, struct ud_err *err)
{
	char *metric;
	int r;

	if (n <= at + 1 || !*f[at] || (r = imp_metric_name_new(f[at + 1], strlen(f[at + 1]), false, &metric)) == 0)
		return 0;
	r = r < 0 ? -1 : imp_acc_set_counter_metric(a, event, metric, number_or_nan(f[at]));
	free(metric);
	if (r != 0)
		return ud_fail(err, "%s:%d: out of memory", name, lineno);
	return 0;
}

/*
 * Whether the first of the n fields after a row's event is -G's cgroup
 * column: perf's print_cgroup() puts it there ("" for an event counted in
 * none), before -r's variance, and perf (4.x to 6.x) then always prints
 * run time, running share, metric value and metric unit, so a row without
 * it has at most 4 fields left after its event, or 5 with a variance,
 * which ends in '%'.
 */
static bool cgroup_field(char **f, int n)
{
	size_t len = n > 0 ? strlen(f[0]) : 0;

	return n >= CSV_FIELDS_AFTER_CGROUP && !(len && f[0][len - 1] == '%');
}

/* 1 taken, 0 not a counter row, -1 error. */
static int take_row(struct acc *a, char *line, void *ctx, const char *name, int lineno, struct ud_err *err)
{
	char *sep_seen = ctx, sep;
	char *f[MAX_FIELDS], *value, *unit, *event, *cgroup = NULL;
	enum ud_count_status status = UD_COUNTED;
	double v = 0, pct = NAN, spread = NAN;
	int n, i = 0;
	bool part = false;

	/* The separator is the first row's most frequent candidate. */
	if (!*sep_seen)
		*sep_seen = guess_sep(line);
	sep = *sep_seen;
	n = split(line, sep, f);

	if (n >= 1 && timestamp_field(f[0])) {
		imp_acc_interval_text(a, f[0], strlen(f[0]));
		i++;
		part = true;
	}
	if (n > i && strncmp(f[i], "CPU", 3) == 0 && isdigit((unsigned char)f[i][3])) {
		i++;
		part = true;
	} else if (n > i + 1 && (*f[i] == 'S' || *f[i] == 'N') && imp_is_aggregation_id(f[i], strlen(f[i]))) {
		/* ("S" or "N" first: strlen() only where an aggregation may start) */
		i += 2; /* --per-socket's "S0,1,": the aggregation and its CPUs */
		part = true;
	}
	if (n - i < 3)
		return 0;
	value = f[i];
	unit = f[i + 1];
	event = f[i + 2];
	if (!*value && !*event)
		return take_metric_row(a, f + i, n - i, name, lineno, err);
	/* a row whose first field is no count is someone's note beside the output ("===> S0,1,..."), not perf's */
	if (!*event && !isdigit((unsigned char)*value) && *value != '<')
		return 0;
	if (!*event)
		return ud_fail(err, "%s:%d: a CSV counter row without an event name", name, lineno);
	/* old perf: task-clock in milliseconds with the unit field empty */
	if (!*unit && imp_is_clock_event(event))
		unit = "msec";
	switch (imp_parse_counter_value(value, unit, &status, &v, err)) {
	case -1: return ud_err_prefix(err, "%s:%d", name, lineno);
	case 0: return 0; /* the program's own output */
	default: break;
	}
	i += 3;
	if (cgroup_field(f + i, n - i)) {
		cgroup = f[i];
		i++;
	}
	/* -r inserts the variance ("0.12%") after the event */
	if (n > i && *f[i] && f[i][strlen(f[i]) - 1] == '%') {
		f[i][strlen(f[i]) - 1] = '\0';
		if (imp_parse_number_str(f[i], -2, &spread, NULL) != 0)
			spread = NAN; /* a spread perf could not compute is no reason to reject the row */
		i++;
	}
	if (n > i + 1 && *f[i + 1] && imp_parse_number_str(f[i + 1], 0, &pct, err) != 0)
		return ud_err_prefix(err, "%s:%d", name, lineno);
	/* perf prints "0.00%" beside "<not supported>": no run was counted, so no spread was measured */
	if (status != UD_COUNTED)
		pct = spread = NAN;
	if (imp_check_running_pct(pct, err) != 0)
		return ud_err_prefix(err, "%s:%d", name, lineno);
	if (imp_acc_add_in(a, event, cgroup, status, v, pct, spread, part) != 0)
		return ud_fail(err, "%s:%d: out of memory", name, lineno);
	return take_row_metric(a, f, n, i + 2, event, name, lineno, err) < 0 ? -1 : 1;
}

int imp_perf_csv(struct ud_profile *p, struct lines *l, const char *name, const struct ud_import_opts *o,
		struct ud_err *err)
{
	char sep = 0;

	return imp_rows(p, l, name, o, take_row, &sep, "perf stat -x counter rows", err);
}
