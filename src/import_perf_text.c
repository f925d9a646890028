/*
 * import_perf_text.c - `perf stat` as printed, and as it survives being
 * pasted into tickets, mails and blogs: leading spaces lost, "> " or "| "
 * quoting, the header missing, old perf's forms ([40.00%], "task-clock
 * (msec)"), any locale's separators, -r's "( +- 0.12% )", per-CPU rows (-a
 * -A) and intervals (-I) summed, the running share on the continuation line
 * under instructions, and the program's own output in between (whose
 * UnixBench COUNT lines become the score).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_block.h"
#include "import_lines.h"
#include "import_number.h"
#include "import_parsers.h"

struct text_state {
	struct acc acc;
	struct ud_profile *p;
	const struct ud_import_opts *o;
	const char *name;      /* the file, in messages */
	const char *fallback;  /* a workload name when perf names no command */
	int header_line;       /* line of an open header that has no counters yet; 0 none */
	struct ud_err *err;
	int lineno;
};

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* Strips what mail and chat put before each line: "> ", "| ", ">>". */
static const char *unquote(const char *s)
{
	for (;;) {
		s = skip_space(s);
		if (*s != '>' && *s != '|')
			return s;
		s++;
	}
}

static int fail_line(struct text_state *t, const char *what)
{
	return ud_fail(t->err, "%s:%d: %s", t->name, t->lineno, what);
}

/* A shared piece failed into t->err: say where. */
static int failed_at_line(struct text_state *t)
{
	return ud_err_prefix(t->err, "%s:%d", t->name, t->lineno);
}

static int flush(struct text_state *t)
{
	int ret = 0;

	if (t->header_line && t->acc.n == 0) {
		t->lineno = t->header_line;
		return fail_line(t, "a 'Performance counter stats' block with no counter lines (truncated?)");
	}
	if (!acc_empty(&t->acc))
		ret = acc_to_workload(&t->acc, t->p, t->o, t->fallback, t->err);
	acc_free(&t->acc);
	t->header_line = 0;
	return ret;
}

/* "Performance counter stats for 'CMD' (5 runs):" */
static int take_header(struct text_state *t, const char *s)
{
	const char *q1 = strchr(s, '\''), *q2 = q1 ? strrchr(s, '\'') : NULL, *runs;

	if (t->acc.n && flush(t) != 0)
		return -1;
	free(t->acc.command);
	t->acc.command = NULL;
	if (q1 && q2 > q1)
		t->acc.command = strndup(q1 + 1, (size_t)(q2 - q1 - 1));
	runs = strstr(s, " runs)");
	if (runs) {
		const char *b = runs;

		while (b > s && isdigit((unsigned char)b[-1]))
			b--;
		t->acc.runs = atoi(b);
	}
	t->header_line = t->lineno;
	return 0;
}

/* A number scaled by 10^pow10; 1 read, 0 none there, -1 error. */
static int number_at(struct text_state *t, const char **s, int pow10, double *out)
{
	struct decimal d;
	int r = scan_decimal(*s, s, &d, t->err);

	if (r < 0)
		return failed_at_line(t);
	if (r > 0)
		*out = decimal_value(d, pow10);
	return r;
}

/* "45.58 seconds time elapsed", "0.0013 +- 0.0001 seconds time elapsed", "7.32 seconds user" */
static int take_seconds(struct text_state *t, const char *s)
{
	double *dst = strstr(s, "seconds time elapsed") ? &t->acc.elapsed_ns
		      : strstr(s, "seconds user")        ? &t->acc.user_ns
		      : strstr(s, "seconds sys")         ? &t->acc.sys_ns
							 : NULL;
	double v = NAN;
	int r;

	if (!dst)
		return 0;
	r = number_at(t, &s, 9, &v);
	if (r == 0)
		return fail_line(t, "a seconds line without a number");
	if (r > 0)
		*dst = v;
	return r;
}

/* The last "(85.70%)" or "[40.00%]" in s, as a percentage; NAN if none. */
static double running_pct(const char *s)
{
	const char *pct = strrchr(s, '%'), *open = pct, *end;
	struct decimal d;

	/* The share ends the line; a "+-" spread before it is not one. */
	while (open && open > s && open[-1] != '(' && open[-1] != '[' && open[-1] != '+')
		open--;
	if (!open || open == s || open[-1] == '+')
		return NAN;
	if (scan_decimal(skip_space(open), &end, &d, NULL) <= 0 || *end != '%')
		return NAN;
	return decimal_value(d, 0);
}

/* "( +- 0.12% )": the relative spread perf prints with -r, as a fraction. */
static double rel_spread(const char *s)
{
	const char *pm = strstr(s, "+-"), *end;
	struct decimal d;

	if (!pm)
		return NAN;
	pm = skip_space(pm + 2);
	if (scan_decimal(pm, &end, &d, NULL) <= 0 || *end != '%')
		return NAN;
	return decimal_value(d, -2);
}

static bool is_timestamp(const char *s, const char **end)
{
	size_t n = strspn(s, "0123456789");

	if (n == 0 || s[n] != '.' || strspn(s + n + 1, "0123456789") != 9 || !isspace((unsigned char)s[n + 10]))
		return false;
	*end = s + n + 10;
	return true;
}

static bool is_unit(const char *tok, size_t n)
{
	static const char *const units[] = { "msec", "ns", "us", "Joules", "MiB", "KiB", "GiB", "W", "Hz" };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i]) == n && strncmp(tok, units[i], n) == 0)
			return true;
	return false;
}

static bool event_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_-./:=,@", c);
}

/*
 * A counter line: [timestamp] [CPUn] value [unit] event [# comment] [(pct%)].
 * Returns 1 when taken, 0 when the line is not one (program output), -1 on error.
 */
static int take_counter(struct text_state *t, const char *s)
{
	const char *p = s, *ev, *rest;
	enum ud_count_status status = UD_COUNTED;
	char event[128];
	double value = 0;
	int pow10 = 0, r;
	size_t n;

	if (is_timestamp(p, &p))
		p = skip_space(p);
	if (strncmp(p, "CPU", 3) == 0 && isdigit((unsigned char)p[3])) {
		p += 3 + strspn(p + 3, "0123456789");
		p = skip_space(p);
	}
	if (strncmp(p, "<not supported>", 15) == 0 || strncmp(p, "<not counted>", 13) == 0) {
		status = p[5] == 's' ? UD_NOT_SUPPORTED : UD_NOT_COUNTED;
		p = strchr(p, '>') + 1;
	} else {
		struct decimal d;

		r = scan_decimal(p, &p, &d, t->err);
		if (r <= 0)
			return r < 0 ? failed_at_line(t) : 0;
		if (*p && !isspace((unsigned char)*p))
			return 0; /* "2.0s", "10/20": not perf's */
		p = skip_space(p);
		n = strcspn(p, " \t");
		if (is_unit(p, n) && p[n]) {
			if (strncmp(p, "msec", 4) == 0)
				pow10 = 6; /* task-clock: msec printed, nanoseconds counted */
			p = skip_space(p + n);
		}
		value = decimal_value(d, pow10);
	}
	p = skip_space(p);
	ev = p;
	while (*p && event_char(*p))
		p++;
	n = (size_t)(p - ev);
	if (n == 0 && strncmp(ev, "+-", 2) == 0)
		return 0; /* "2.80 +- 0.01 seconds time elapsed" */
	if (n == 0 || n >= sizeof(event)) {
		if (t->header_line || t->acc.n)
			return fail_line(t, n ? "event name too long" : "a counter value without an event name (truncated line?)");
		return 0;
	}
	memcpy(event, ev, n);
	event[n] = '\0';
	rest = skip_space(p);
	/* old perf: "task-clock (msec)" */
	if (strncmp(rest, "(msec)", 6) == 0) {
		if (status == UD_COUNTED && pow10 == 0)
			value *= 1e6;
		rest = skip_space(rest + 6);
	}
	if (*rest && *rest != '#' && *rest != '(' && *rest != '[')
		return 0; /* "3 files copied": prose, not a counter */
	if (acc_add(&t->acc, event, status, value, running_pct(rest), rel_spread(rest)) != 0)
		return fail_line(t, "out of memory");
	return 1;
}

static int take_line(struct text_state *t, const char *line)
{
	const char *s = unquote(line);
	int r;

	if (!*s)
		return 0;
	/* Most lines of a long file are counters: try that first. */
	if (isdigit((unsigned char)*s) || *s == '<' || *s == 'C') {
		r = take_counter(t, s);
		if (r > 0)
			t->header_line = 0;
		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	if (strstr(s, "Performance counter stats for"))
		return take_header(t, s);
	if (strncmp(s, "COUNT|", 6) == 0) {
		/* Program output after a finished block belongs to the next one. */
		if (t->acc.n && flush(t) != 0)
			return -1;
		r = acc_take_count_line(&t->acc, s, t->err);
		return r < 0 ? failed_at_line(t) : 0;
	}
	if (strstr(s, " seconds "))
		return take_seconds(t, s) < 0 ? -1 : 0;
	if (*s == '#') {
		/* "# 0.82 stalled cycles per insn (85.67%)": the line above's running share */
		double pct = running_pct(s);

		if (!isnan(pct) && t->acc.last >= 0 && t->acc.c[t->acc.last].pct_rows == 0) {
			t->acc.c[t->acc.last].pct_sum = pct;
			t->acc.c[t->acc.last].pct_rows = 1;
		}
	}
	return 0;
}

int import_perf_text(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err)
{
	struct text_state t = { .p = p, .o = o, .name = name, .err = err };
	const char *base = strrchr(name, '/');
	struct lines l;
	size_t before = p->nworkloads;
	char *line;
	int ret = 0;

	t.fallback = base ? base + 1 : name;
	acc_init(&t.acc);
	lines_init(&l, text, len);
	while (ret == 0 && (line = lines_next(&l)) != NULL) {
		t.lineno = l.lineno;
		ret = take_line(&t, line);
	}
	if (ret == 0)
		ret = flush(&t);
	acc_free(&t.acc);
	lines_free(&l);
	if (ret == 0 && p->nworkloads == before)
		ret = ud_fail(err, "%s: no perf stat counter lines or UnixBench results found", name);
	return ret;
}
