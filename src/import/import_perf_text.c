/*
 * import_perf_text.c - `perf stat` as printed, and as it survives being
 * pasted into tickets, mails and blogs: leading spaces lost, "> " or "| "
 * quoting, the header missing, old perf's forms ([40.00%], "task-clock
 * (msec)", task-clock in msec with no unit), any locale's separators with
 * the decimal mark decided per block, -r's "( +- 0.12% )", per-CPU rows (-a
 * -A) and intervals (-I) summed, the running share on the continuation line
 * under instructions, perf 6.x's metric lines (tma_*), runs pasted one
 * after another without headers (a counter after "seconds time elapsed"
 * starts the next), the perf command line pasted above a block (its
 * --all-user, -a, -r N), and the program's own output in between (whose
 * UnixBench COUNT and TIME lines become the score).
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_block.h"
#include "import_event_name.h"
#include "import_lines.h"
#include "import_number.h"
#include "import_parsers.h"
#include "import_perf_command.h"

/* The most columns perf's --topdown table prints (level 1 and 2 together). */
#define TD_COLUMNS_MAX 12
/* Longest name a block takes from the text line before it. */
#define PROSE_NAME_MAX 80
/* Longest -G cgroup column read: a path under the cgroup hierarchy, PATH_MAX in the kernel. */
#define CGROUP_NAME_MAX 4096
/* Votes that settle a block's decimal mark: past these, reading on changes nothing. */
#define DECIMAL_VOTES_ENOUGH 16

struct text_state {
	struct acc acc;
	struct ud_profile *p;
	const struct ud_import_opts *o;
	const char *name;      /* the file, in messages */
	const char *fallback;  /* a workload name when perf names no command */
	int header_line;       /* line of an open header that has no counters yet; 0 none */
	int command_line;      /* line of the header that named the block's command */
	struct ud_import_seen *seen; /* o->seen, else this file's own */
	struct ud_err *err;
	int lineno;
	char decimal;          /* the block's decimal mark ('.', ','; 0 unknown), decided before its lines are read */
	bool need_decimal;     /* a block starts on the next line: decide its mark first */
	char prose[PROSE_NAME_MAX]; /* the last line of other text, which may name the block after it */
	const char *td_metrics[TD_COLUMNS_MAX]; /* perf --topdown's table: each column's metric; static */
	size_t ntd;
	/*
	 * An interval's count whose event name a narrow terminal wrapped onto
	 * the next line ("1.001023931  26,624" then "hv_gpci/.../"): its
	 * value, status, taken when that line is one event name
	 */
	bool pending;
	enum ud_count_status pending_status;
	double pending_value;
	bool prose_is_command; /* it was a shell prompt's "$ CMD": the program's output after it does not name the block */
	/*
	 * The last comment's unit text and the metric it names
	 * (imp_metric_name_new(); NULL names none), which every cycles row of
	 * an interval file repeats; both owned
	 */
	char *unit_seen, *metric_seen;
	size_t unit_seen_len;
	char **names;          /* per workload added: the text line before its block; NULL none */
	size_t nnames, names_cap;
	json_t *taken;         /* the profile's workload names (imp_names_taken()) */
};

static const char *skip_space(const char *s)
{
	/*
	 * perf pads its columns with long runs of spaces: four at a time (the
	 * && stops at a NUL, never reading past it), and isspace()'s other
	 * bytes, '\t' to '\r' in the C locale, without its table lookup
	 */
	for (;; s++) {
		while (s[0] == ' ' && s[1] == ' ' && s[2] == ' ' && s[3] == ' ')
			s += 4;
		while (*s == ' ')
			s++;
		if ((unsigned char)(*s - '\t') > '\r' - '\t')
			return s;
	}
}

/*
 * Strips what mail and chat put before each line: "> ", "| ", ">>"; and a
 * diff's "+" before a line it adds (a paste quoted in a documentation
 * patch), which a counter line never starts with.
 */
static const char *unquote(const char *s)
{
	for (;;) {
		s = skip_space(s);
		if (*s == '+' && (s[1] == '\0' || isspace((unsigned char)s[1])))
			s++;
		else if (*s != '>' && *s != '|')
			return s;
		else
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

/* The text line before a block without a command, kept to name it if the paste turns out to hold several. */
static int remember_name(struct text_state *t)
{
	char **grown = t->nnames < t->names_cap ? t->names
			: realloc(t->names, (t->names_cap = t->names_cap ? 2 * t->names_cap : 16) * sizeof(*grown));

	if (!grown)
		return fail_line(t, "out of memory");
	t->names = grown;
	grown[t->nnames] = NULL;
	if (!t->acc.command && t->prose[0] && !(grown[t->nnames] = strdup(t->prose)))
		return fail_line(t, "out of memory");
	t->nnames++;
	t->prose[0] = '\0';
	t->prose_is_command = false;
	return 0;
}

/*
 * A second block of one command (two hosts' pastes in one file or in two
 * files, or runs counted apart) is refused rather than numbered "CMD#2":
 * a diff would take the two measurements for two workloads.  -r N's runs
 * print one header, and -I's intervals none, so neither comes here.
 */
static int take_command(struct text_state *t)
{
	const json_t *first = json_object_get(t->seen->at, t->acc.command);
	char at[4200];

	if (first)
		return ud_fail(t->err,
			       "%s:%d: a second block of '%s' (the first at %s): a profile holds one measurement of a "
			       "workload. Two hosts' counts: import each apart (uarchdiff import -o a.json FILE) and diff "
			       "the two profiles; runs on one host: count them as one block (perf stat -r N)",
			       t->name, t->command_line, t->acc.command, json_string_value(first));
	snprintf(at, sizeof(at), "%s:%d", t->name, t->command_line);
	/* nocheck: a command and a file name are any bytes, not necessarily UTF-8 */
	if (json_object_set_new_nocheck(t->seen->at, t->acc.command, json_string_nocheck(at)) != 0)
		return fail_line(t, "out of memory");
	return 0;
}

static int flush(struct text_state *t)
{
	int ret = 0;

	if (t->header_line && t->acc.n == 0) {
		t->lineno = t->header_line;
		return fail_line(t, "a 'Performance counter stats' block with no counter lines (truncated?)");
	}
	if (!imp_acc_empty(&t->acc) && t->acc.command && take_command(t) != 0)
		return -1;
	if (!imp_acc_empty(&t->acc)) {
		ret = imp_acc_to_workload(&t->acc, t->p, t->o, t->fallback, t->taken, t->err);
		if (ret == 0)
			ret = remember_name(t);
	}
	imp_acc_free(&t->acc);
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
	t->header_line = t->command_line = t->lineno;
	t->need_decimal = true;
	return 0;
}

/* A number scaled by 10^pow10; 1 read, 0 none there, -1 error. */
static int number_at(struct text_state *t, const char **s, int pow10, double *out)
{
	struct decimal d;
	int r = imp_scan_decimal_as(*s, s, &d, t->decimal, t->err);

	if (r < 0)
		return failed_at_line(t);
	if (r > 0)
		*out = imp_decimal_value(d, pow10);
	return r;
}

/*
 * "( +- 0.12% )" after a counter under -r N, as a fraction: perf's
 * print_noise_pct() of stddev_stats(), the standard error of the mean over
 * the N runs relative to the mean (tools/perf/util/stat.c, stat-display.c),
 * not the runs' own standard deviation, which is sqrt(N) times larger.
 */
static double rel_spread(const char *s, char decimal)
{
	const char *pm = strchr(s, '+'), *end;
	struct decimal d;

	/* strchr() to each '+', which a row mostly lacks, rather than strstr() on every row */
	while (pm && pm[1] != '-')
		pm = strchr(pm + 1, '+');
	if (!pm)
		return NAN;
	pm = skip_space(pm + 2);
	if (imp_scan_decimal_as(pm, &end, &d, decimal, NULL) <= 0 || *end != '%')
		return NAN;
	return imp_decimal_value(d, -2);
}

/*
 * -r N's "31.52 +- 0.19 seconds time elapsed  ( +-  0.60% )", s past the
 * mean (mean_ns): perf's print_footer() (tools/perf/util/stat-display.c)
 * prints the mean of the runs' wall times, then stddev_stats() of them, the
 * standard error of the mean (stat.c: sqrt(variance / n)), in seconds to
 * two digits past its first, then print_noise_pct()'s 100 x that / mean to
 * two decimals.  Kept relative, a fraction: from the seconds, which keep
 * those two digits where the percentage rounds a small spread to 0.00%;
 * from the percentage where only it is there.  1 read.
 */
static int elapsed_spread(struct text_state *t, const char *s, double mean_ns)
{
	struct decimal d;
	const char *end;

	s = skip_space(s);
	if (strncmp(s, "+-", 2) == 0 && imp_scan_decimal_as(skip_space(s + 2), &end, &d, t->decimal, NULL) > 0 &&
	    *end != '%' && mean_ns > 0)
		t->acc.elapsed_rel_stddev = imp_decimal_value(d, 9) / mean_ns;
	else
		t->acc.elapsed_rel_stddev = rel_spread(s, t->decimal);
	return 1;
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
	if (dst == &t->acc.elapsed_ns) {
		/* The block ends here: a counter after it is another run's, whose mark is decided anew. */
		t->acc.closed = true;
		t->need_decimal = true;
	}
	r = number_at(t, &s, 9, &v);
	if (r == 0)
		return fail_line(t, "a seconds line without a number");
	if (r > 0)
		*dst = v;
	if (r > 0 && dst == &t->acc.elapsed_ns)
		return elapsed_spread(t, s, v);
	return r;
}

/* The last "(85.70%)" or "[40.00%]" in s, as a percentage, read with the block's decimal mark; NAN if none. */
static double running_pct(const char *s, char decimal)
{
	const char *pct = strrchr(s, '%'), *open = pct, *end;
	struct decimal d;

	/* The share ends the line; a "+-" spread before it is not one. */
	while (open && open > s && open[-1] != '(' && open[-1] != '[' && open[-1] != '+')
		open--;
	if (!open || open == s || open[-1] == '+')
		return NAN;
	if (imp_scan_decimal_as(skip_space(open), &end, &d, decimal, NULL) <= 0 || *end != '%')
		return NAN;
	return imp_decimal_value(d, 0);
}

/* A timestamp and a space: an interval row's start. */
static bool is_timestamp(const char *s, const char **end)
{
	size_t n = imp_timestamp_len(s);

	if (!n || !isspace((unsigned char)s[n]))
		return false;
	*end = s + n;
	return true;
}

static bool is_unit(const char *tok, size_t n)
{
	static const struct {
		const char *name;
		size_t len;
	} units[] = { { "msec", 4 }, { "ns", 2 }, { "us", 2 }, { "Joules", 6 }, { "MiB", 3 },
		      { "KiB", 3 },  { "GiB", 3 }, { "W", 1 },  { "Hz", 2 } };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (units[i].len == n && memcmp(tok, units[i].name, n) == 0)
			return true;
	return false;
}

/*
 * Whether c may be in an event's name: ASCII letters and digits (as
 * isalnum() in the C locale, without its lookup a byte) and "_-./:=,@".
 */
static bool event_char(char c)
{
	unsigned char u = (unsigned char)c;

	switch (u) {
	case '_': case '-': case '.': case '/': case ':': case '=': case ',': case '@':
		return true;
	default:
		return (unsigned char)((u | 0x20) - 'a') < 26 || (unsigned char)(u - '0') < 10;
	}
}

/* Whether the counter just read is cycles (any mode), the one perf prints its GHz beside. */
static bool is_cycles(const struct text_state *t)
{
	const char *name = t->acc.last >= 0 ? t->acc.c[t->acc.last].name : "";

	return strncmp(name, "cycles", 6) == 0 && (name[6] == '\0' || name[6] == ':');
}

/*
 * Whether s holds "etiring" (Retiring, retiring): through strchr() to each
 * 'e', which a counter's comment mostly lacks, where strstr() costs a
 * hundred instructions on every row.
 */
static bool retiring_in(const char *s)
{
	while ((s = strchr(s, 'e')) != NULL && strncmp(s, "etiring", 7) != 0)
		s++;
	return s != NULL;
}

/*
 * "# 63.2 %  tma_backend_bound": a metric perf computed itself, kept by its
 * name, and the cycles line's "# 2.853 GHz" as "ghz" (imp_metric_name_of());
 * perf's other comments on a counter (insn per cycle, of all branches) are
 * not kept, as the derived metrics recompute them from the counts.
 */
static int take_comment_metric(struct text_state *t, const char *event, const char *rest)
{
	const char *hash = strchr(rest, '#'), *p;
	struct decimal d;
	size_t n;

	/*
	 * the cheap tests first: most counter lines of an interval file carry a
	 * comment that is no metric; a metric's name has an underscore, but
	 * PipelineL1's and Arm's TopdownL1 "retiring", older Intel's "Retiring"
	 */
	if (!hash || (!strchr(hash, '_') && !retiring_in(hash) && !(event && is_cycles(t) && strstr(hash, "GHz"))))
		return 0;
	p = skip_space(hash + 1);
	if (imp_scan_decimal_as(p, &p, &d, t->decimal, NULL) <= 0)
		return 0;
	n = strcspn(p, "([");
	/* the name made once a unit, not on every cycles row of an interval file */
	if (!t->unit_seen || n != t->unit_seen_len || memcmp(p, t->unit_seen, n) != 0) {
		free(t->unit_seen);
		free(t->metric_seen);
		t->metric_seen = NULL;
		t->unit_seen_len = n;
		if (!(t->unit_seen = strndup(p, n)) || imp_metric_name_new(p, n, false, &t->metric_seen) < 0)
			return fail_line(t, "out of memory");
	}
	if (!t->metric_seen)
		return 0;
	if ((event ? imp_acc_set_counter_metric(&t->acc, event, t->metric_seen, imp_decimal_value(d, 0))
		   : imp_acc_set_metric(&t->acc, t->metric_seen, imp_decimal_value(d, 0))) != 0)
		return fail_line(t, "out of memory");
	return 1;
}

struct counter_row {
	bool part;             /* one interval's (-I) or one CPU's (-A) part of the count */
	enum ud_count_status status;
	struct decimal d;
	int pow10;             /* 6 where the value is in milliseconds */
	char event[128];
};

/* [timestamp] [CPUn] value [unit]: 1 read (p past it), 0 not a counter line, -1 error. */
static int counter_value(struct text_state *t, const char **p, struct counter_row *row)
{
	size_t n;
	int r;

	const char *stamp = *p;

	if (is_timestamp(*p, p)) {
		imp_acc_interval_text(&t->acc, stamp, (size_t)(*p - stamp));
		*p = skip_space(*p);
		row->part = true;
	}
	if (strncmp(*p, "CPU", 3) == 0 && isdigit((unsigned char)(*p)[3])) {
		*p = skip_space(*p + 3 + strspn(*p + 3, "0123456789"));
		row->part = true;
	}
	if (**p == '<' && (strncmp(*p, "<not supported>", 15) == 0 || strncmp(*p, "<not counted>", 13) == 0)) {
		row->status = (*p)[5] == 's' ? UD_NOT_SUPPORTED : UD_NOT_COUNTED;
		*p = skip_space(strchr(*p, '>') + 1);
		return 1;
	}
	row->status = UD_COUNTED;
	r = imp_scan_decimal_as(*p, p, &row->d, t->decimal, t->err);
	if (r <= 0)
		return r < 0 ? failed_at_line(t) : 0;
	if (**p && !isspace((unsigned char)**p))
		return 0; /* "2.0s", "10/20": not perf's */
	*p = skip_space(*p);
	n = strcspn(*p, " \t");
	if (is_unit(*p, n) && (*p)[n]) {
		if (strncmp(*p, "msec", 4) == 0)
			row->pow10 = 6; /* task-clock: msec printed, nanoseconds counted */
		*p = skip_space(*p + n);
	}
	return 1;
}

/*
 * The length of -G's cgroup column at rest, after the event name ev (n
 * characters), else 0.  perf's print_cgroup() prints it one space after
 * the name padded to its width, 32 columns (perf 6) or 25 (older perf, and
 * perf 6's <not counted> rows): where it starts tells it from prose ("3
 * files copied"), which a paste whose spaces were squeezed loses.
 */
static size_t cgroup_column(const char *ev, size_t n, const char *rest)
{
	static const size_t widths[] = { 25, 32 };
	size_t at = (size_t)(rest - ev);

	if (!*rest || strchr("#([", *rest))
		return 0;
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (at == (n > widths[i] ? n : widths[i]) + 1)
			return strcspn(rest, " \t");
	return 0;
}

/*
 * A counter line: [timestamp] [CPUn] value [unit] event [cgroup] [# comment] [(pct%)].
 * Returns 1 when taken, 0 when the line is not one (program output), -1 on error.
 */
static int take_counter(struct text_state *t, const char *s)
{
	struct counter_row row = { 0 };
	const char *p = s, *ev, *rest;
	char cgroup[CGROUP_NAME_MAX];
	double pct;
	size_t n, cgroup_len;
	int r = counter_value(t, &p, &row);

	if (r <= 0)
		return r;
	cgroup[0] = '\0'; /* not "= \"\"": that clears all 4096 bytes, on every row */
	ev = p;
	while (*p && event_char(*p))
		p++;
	n = (size_t)(p - ev);
	if (n == 0 && strncmp(ev, "+-", 2) == 0)
		return 0; /* "2.80 +- 0.01 seconds time elapsed" */
	if (n && ev[n - 1] == ':')
		return 0; /* "3 runs:": prose; no event name ends with its separator */
	/*
	 * A number with no name right under a header is a counter cut short; one
	 * after counters is the program's own output (a pasted "cat" of a
	 * tunable between two perf blocks), as perf never prints a nameless row
	 */
	if (n == 0 || n >= sizeof(row.event)) {
		if (t->header_line && (n || t->acc.n == 0))
			return fail_line(t, n ? "event name too long" : "a counter value without an event name (truncated line?)");
		if (n == 0 && row.part && !*skip_space(ev)) {
			t->pending = true;
			t->pending_status = row.status;
			t->pending_value = row.status == UD_COUNTED ? imp_decimal_value(row.d, row.pow10) : 0;
			return 1;
		}
		return 0;
	}
	memcpy(row.event, ev, n);
	rest = skip_space(p);
	/* old perf: "task-clock (msec)", and older still task-clock in msec with no unit at all */
	if (strncmp(rest, "(msec)", 6) == 0) {
		row.pow10 = 6;
		rest = skip_space(rest + 6);
	} else if (row.pow10 == 0 && imp_is_clock_event(row.event)) {
		row.pow10 = 6;
	}
	if ((cgroup_len = cgroup_column(ev, n, rest)) > 0) {
		if (cgroup_len >= sizeof(cgroup))
			return fail_line(t, "cgroup name too long");
		memcpy(cgroup, rest, cgroup_len);
		cgroup[cgroup_len] = '\0';
		rest = skip_space(rest + cgroup_len);
	}
	if (*rest && *rest != '#' && *rest != '(' && *rest != '[')
		return 0; /* "3 files copied": prose, not a counter */
	/* A counter after a block's "seconds time elapsed" line is the next run's, headed or not. */
	if (t->acc.closed && flush(t) != 0)
		return -1;
	pct = running_pct(rest, t->decimal);
	if (imp_check_running_pct(pct, t->err) != 0)
		return failed_at_line(t);
	if (imp_acc_add_in(&t->acc, row.event, cgroup, row.status,
			   row.status == UD_COUNTED ? imp_decimal_value(row.d, row.pow10) : 0, pct,
			   rel_spread(rest, t->decimal), row.part) != 0)
		return fail_line(t, "out of memory");
	return take_comment_metric(t, row.event, rest) < 0 ? -1 : 1;
}

/*
 * A counter row inside a block whose count is negative or hexadecimal ("-62
 * page-faults", "0x3e page-faults"): no count perf prints, so a paste that
 * was edited or mangled.  Taken as prose it would vanish without a word
 * (doc/input-limits.md: refused).  Returns -1 with err, 0 when not one.
 */
static int refuse_count_shape(struct text_state *t, const char *s)
{
	bool negative = *s == '-' && isdigit((unsigned char)s[1]);
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2]);
	const char *p = s + (negative ? 1 : hex ? 2 : 0), *ev;

	if (!(negative || hex) || !(t->header_line || (t->acc.n && !t->acc.closed)))
		return 0;
	p += strspn(p, hex ? "0123456789abcdefABCDEF" : "0123456789.,");
	if (!isspace((unsigned char)*p))
		return 0;
	ev = p = skip_space(p);
	while (*p && event_char(*p))
		p++;
	p = skip_space(p);
	if (p == ev || (*p && *p != '#' && *p != '('))
		return 0;
	return fail_line(t, negative ? "a negative count: no counter counts below zero"
				      : "a hexadecimal count: perf prints counts in decimal");
}

/* Other text: remembered, as "$ ./bench --size 10" or "run 2:" before a block may name it. */
static int take_prose(struct text_state *t, const char *s)
{
	bool command = *s == '$';
	size_t n;

	/* Text after a finished block comes before the next one: the finished one is named already. */
	if (t->acc.closed && flush(t) != 0)
		return -1;
	if (t->prose_is_command && !command)
		return 0;
	if (command)
		s = skip_space(s + 1);
	n = strlen(s);
	while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == ':'))
		n--;
	if (n == 0 || n >= PROSE_NAME_MAX)
		return 0;
	snprintf(t->prose, sizeof(t->prose), "%.*s", (int)n, s);
	t->prose_is_command = command;
	return 0;
}

/*
 * "$ perf stat --all-user -e cycles ./x" above a block: its options go to
 * the block it starts (after a finished one, or one still open), and the
 * line may name the block as other prompt lines do.
 */
static int take_perf_command(struct text_state *t, const char *s)
{
	if ((t->acc.closed || t->acc.n) && flush(t) != 0)
		return -1;
	if (imp_acc_take_perf_command(&t->acc, s, t->err) < 0)
		return failed_at_line(t);
	return take_prose(t, s);
}

/*
 * "# 0.82 stalled cycles per insn  ( +-  0.41% )  (85.67%)": the line
 * above's spread and running share where its own comment wrapped them onto
 * this one, or perf's own metric
 */
static int take_comment_line(struct text_state *t, const char *s)
{
	double pct = running_pct(s, t->decimal), spread = rel_spread(s, t->decimal);
	struct acc_counter *last = t->acc.last >= 0 ? &t->acc.c[t->acc.last] : NULL;

	if (!isnan(pct) && last && last->pct_rows == 0) {
		last->pct_sum = pct;
		last->pct_rows = 1;
	}
	if (!isnan(spread) && last && isnan(last->rel_stddev))
		last->rel_stddev = spread;
	return take_comment_metric(t, NULL, s) < 0 ? -1 : 0;
}

/*
 * perf stat --topdown's table before perf 6 (tools/perf/util/stat-display.c
 * of Linux 5.x): a header of bucket names ("retiring  bad speculation
 * frontend bound  backend bound"), columns at least two spaces apart, then
 * a row of percentages, after an aggregation's name and count with -a or
 * -C ("S0-D0-C1  1  18.3%  0.0%  0.1%  81.6%").  Kept as the tma_* metrics
 * perf 6 names the same buckets (import_topdown.c reads them).
 */
static const struct {
	const char *header, *metric;
} topdown_columns[] = {
	{ "retiring", "tma_retiring" }, { "bad speculation", "tma_bad_speculation" },
	{ "frontend bound", "tma_frontend_bound" }, { "backend bound", "tma_backend_bound" },
	{ "heavy operations", "tma_heavy_operations" }, { "light operations", "tma_light_operations" },
	{ "branch mispredict", "tma_branch_mispredicts" }, { "machine clears", "tma_machine_clears" },
	{ "fetch latency", "tma_fetch_latency" }, { "fetch bandwidth", "tma_fetch_bandwidth" },
	{ "memory bound", "tma_memory_bound" }, { "core bound", "tma_core_bound" },
};

/* The header's columns into t->td_metrics: true when every column is a bucket (two or more). */
static bool topdown_header(struct text_state *t, const char *s)
{
	size_t n = 0;

	while (*(s = skip_space(s)) && n < TD_COLUMNS_MAX) {
		const char *end = strstr(s, "  ");
		size_t len = end ? (size_t)(end - s) : strcspn(s, "\r\n");
		size_t k = 0;

		while (len && isspace((unsigned char)s[len - 1]))
			len--;
		for (; k < sizeof(topdown_columns) / sizeof(topdown_columns[0]); k++)
			if (strlen(topdown_columns[k].header) == len && strncmp(s, topdown_columns[k].header, len) == 0)
				break;
		if (k == sizeof(topdown_columns) / sizeof(topdown_columns[0]))
			return false;
		t->td_metrics[n++] = topdown_columns[k].metric;
		s += len;
	}
	return n >= 2 && !*s && (t->ntd = n, true);
}

/* A row of the table: its percentages as the columns' metrics.  True when s was one. */
static bool topdown_row(struct text_state *t, const char *s)
{
	double v[TD_COLUMNS_MAX];
	size_t n = 0;

	/* "S0-D0-C1  1": the aggregation's name and how many CPUs it holds */
	if (*s == 'S' && isdigit((unsigned char)s[1]))
		s = skip_space(skip_space(s + strcspn(s, " \t")) + strspn(skip_space(s + strcspn(s, " \t")), "0123456789"));
	for (; n < t->ntd && *s; n++, s = skip_space(s)) {
		struct decimal d;

		if (imp_scan_decimal_as(s, &s, &d, t->decimal, NULL) <= 0 || *s++ != '%')
			return false;
		v[n] = imp_decimal_value(d, 0);
	}
	if (n != t->ntd || *s)
		return false;
	for (size_t i = 0; i < n; i++)
		if (imp_acc_set_metric(&t->acc, t->td_metrics[i], v[i]) != 0)
			return false;
	t->header_line = 0;
	return true;
}

static bool take_topdown_table(struct text_state *t, const char *s)
{
	return (t->ntd && topdown_row(t, s)) || topdown_header(t, s);
}

/* The wrapped event name of a pending interval count (struct text_state's pending): 1 taken, 0 not one. */
static int take_wrapped_name(struct text_state *t, const char *s)
{
	size_t n = 0;

	t->pending = false;
	while (s[n] && event_char(s[n]))
		n++;
	if (n == 0 || *skip_space(s + n) || !isalpha((unsigned char)*s))
		return 0;
	char event[128];

	snprintf(event, sizeof(event), "%.*s", (int)(n < sizeof(event) ? n : sizeof(event) - 1), s);
	if (imp_acc_add(&t->acc, event, t->pending_status, t->pending_value, NAN, NAN, true) != 0)
		return fail_line(t, "out of memory");
	return 1;
}

static int take_line(struct text_state *t, const char *line)
{
	const char *s = unquote(line);
	int r;

	if (!*s)
		return 0;
	if (t->pending && (r = take_wrapped_name(t, s)) != 0)
		return r < 0 ? -1 : 0;
	if (refuse_count_shape(t, s) != 0)
		return -1;
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
	if (imp_has_perf_command(s))
		return take_perf_command(t, s);
	if (strncmp(s, "TIME|", 5) == 0 && imp_acc_take_count_line(&t->acc, s, t->err) > 0)
		return 0;
	if (strncmp(s, "COUNT|", 6) == 0) {
		/* Program output after a finished block belongs to the next one. */
		if (t->acc.n && flush(t) != 0)
			return -1;
		r = imp_acc_take_count_line(&t->acc, s, t->err);
		return r < 0 ? failed_at_line(t) : 0;
	}
	if (strstr(s, " seconds "))
		return take_seconds(t, s) < 0 ? -1 : 0;
	if (*s == '#')
		return take_comment_line(t, s);
	/* perf 6.x: "TopdownL1 (cpu_core)   #  63.2 %  tma_backend_bound", a group's label where an event would be */
	if (strchr(s, '#')) {
		char label[PROSE_NAME_MAX];

		snprintf(label, sizeof(label), "%.*s", (int)strcspn(s, "#"), s);
		imp_acc_metric_group(&t->acc, label);
		r = take_comment_metric(t, NULL, s);
		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	if (take_topdown_table(t, s))
		return 0;
	return take_prose(t, s);
}

/*
 * The decimal mark of the block starting at text: votes of its numbers up
 * to its "seconds time elapsed" line (or the next header), enough of them.
 */
static char block_decimal(const char *text, size_t len)
{
	struct decimal_votes v = { 0 };
	struct lines l;
	char *line;
	bool first = true;

	imp_lines_init(&l, text, len);
	while (v.dot + v.comma < DECIMAL_VOTES_ENOUGH && (line = imp_lines_next(&l)) != NULL) {
		if (!first && strstr(line, "Performance counter stats for"))
			break;
		first = false;
		imp_decimal_votes_add(&v, line);
		if (strstr(line, "seconds time elapsed"))
			break;
	}
	imp_lines_free(&l);
	return imp_decimal_votes_mark(&v);
}

/*
 * Several blocks without a command (pasted runs, no headers) are named by
 * the text line before each, where there is one; --workload names them all
 * with a suffix instead.  One block keeps the file's name.
 */
static int name_blocks(struct text_state *t, size_t before)
{
	if (t->o->workload || t->nnames < 2)
		return 0;
	for (size_t i = 0; i < t->nnames && before + i < t->p->nworkloads; i++) {
		struct ud_workload *w = &t->p->workloads[before + i];

		if (!t->names[i])
			continue;
		if (json_object_get(t->taken, t->names[i]))
			continue; /* two runs after the same line: keep the numbered names */
		if (imp_name_take(t->taken, t->names[i]) != 0)
			return ud_fail(t->err, "out of memory");
		json_object_del(t->taken, w->name);
		free(w->name);
		w->name = t->names[i];
		t->names[i] = NULL;
	}
	return 0;
}

static void free_names(struct text_state *t)
{
	for (size_t i = 0; i < t->nnames; i++)
		free(t->names[i]);
	free(t->names);
}

int imp_perf_text(struct ud_profile *p, struct lines *l, const char *name, const struct ud_import_opts *o,
		  struct ud_err *err)
{
	struct text_state t = { .p = p, .o = o, .name = name, .err = err, .need_decimal = true };
	struct ud_import_seen own = { o->seen ? NULL : json_object() };
	const char *base = strrchr(name, '/');
	size_t before = p->nworkloads;
	char *line;
	int ret = 0;

	t.fallback = base ? base + 1 : name;
	t.seen = o->seen ? o->seen : &own;
	t.taken = imp_names_taken(p);
	if (!t.taken || !t.seen->at) {
		json_decref(t.taken);
		json_decref(own.at);
		return ud_fail(err, "out of memory");
	}
	imp_acc_init(&t.acc);
	while (ret == 0) {
		if (t.need_decimal) {
			/* a streamed file's votes come from its next IMP_LINES_WINDOW bytes: 16 votes take a few lines */
			size_t len;
			const char *ahead = imp_lines_ahead(l, &len);
			char mark = block_decimal(ahead, len);

			t.decimal = mark ? mark : t.decimal; /* no vote: as the block before */
			t.need_decimal = false;
		}
		if ((line = imp_lines_next(l)) == NULL)
			break;
		t.lineno = l->lineno;
		ret = take_line(&t, line);
	}
	if (ret == 0 && l->failed)
		ret = -1; /* err says why */
	if (ret == 0)
		ret = flush(&t);
	if (ret == 0)
		ret = name_blocks(&t, before);
	imp_acc_free(&t.acc);
	free_names(&t);
	free(t.unit_seen);
	free(t.metric_seen);
	json_decref(t.taken);
	json_decref(own.at);
	if (ret == 0 && p->nworkloads == before)
		ret = ud_fail(err, "%s: no perf stat counter lines or UnixBench results found", name);
	return ret;
}
