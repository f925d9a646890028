/*
 * import_perf_csv.c - `perf stat -x SEP`: value,unit,event[,variance],
 * run_time,pct_running,metric,metric_unit, with an interval timestamp or a
 * CPU column first under -I or -A.  The separator is read from the first
 * counter line.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import_number.h"
#include "import_parsers.h"
#include "import_rows.h"

#define MAX_FIELDS 16

static int split(char *line, char sep, char **f)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < MAX_FIELDS; p++) {
		if (*p == sep) {
			*p = '\0';
			f[n++] = p + 1;
		}
	}
	return n;
}

static bool timestamp_field(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n && s[n] == '.' && strspn(s + n + 1, "0123456789") == 9 && s[n + 10] == '\0';
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

/* 1 taken, 0 not a counter row, -1 error. */
static int take_row(struct acc *a, char *line, void *ctx, const char *name, int lineno, struct ud_err *err)
{
	char *sep_seen = ctx, sep;
	char *f[MAX_FIELDS], *value, *unit, *event;
	enum ud_count_status status = UD_COUNTED;
	double v = 0, pct = NAN, spread = NAN;
	int n, i = 0;

	/* The separator is the first row's most frequent candidate. */
	if (!*sep_seen)
		*sep_seen = guess_sep(line);
	sep = *sep_seen;
	n = split(line, sep, f);

	if (n >= 1 && timestamp_field(f[0]))
		i++;
	if (n > i && strncmp(f[i], "CPU", 3) == 0 && isdigit((unsigned char)f[i][3]))
		i++;
	if (n - i < 3)
		return 0;
	value = f[i];
	unit = f[i + 1];
	event = f[i + 2];
	if (!*event)
		return ud_fail(err, "%s:%d: a CSV counter row without an event name", name, lineno);
	switch (parse_counter_value(value, unit, &status, &v, err)) {
	case -1: return ud_err_prefix(err, "%s:%d", name, lineno);
	case 0: return 0; /* the program's own output */
	default: break;
	}
	i += 3;
	/* -r inserts the variance ("0.12%") after the event */
	if (n > i && *f[i] && f[i][strlen(f[i]) - 1] == '%') {
		f[i][strlen(f[i]) - 1] = '\0';
		if (parse_number_str(f[i], -2, &spread, NULL) != 0)
			spread = NAN; /* a spread perf could not compute is no reason to reject the row */
		i++;
	}
	if (n > i + 1 && *f[i + 1] && parse_number_str(f[i + 1], 0, &pct, err) != 0)
		return ud_err_prefix(err, "%s:%d", name, lineno);
	if (status != UD_COUNTED)
		pct = NAN;
	if (acc_add(a, event, status, v, pct, spread) != 0)
		return ud_fail(err, "%s:%d: out of memory", name, lineno);
	return 1;
}

int import_perf_csv(struct ud_profile *p, const char *text, size_t len, const char *name,
		    const struct ud_import_opts *o, struct ud_err *err)
{
	char sep = 0;

	return import_rows(p, text, len, name, o, take_row, &sep, "perf stat -x counter rows", err);
}
