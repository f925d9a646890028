/*
 * import_lkp.c - the kernel test robot's comparison tables (the mails of
 * Intel's LKP that say "kernel test robot noticed a 12.3% regression of
 * will-it-scale.per_process_ops"), one side of each, the parent commit
 * (base) or the commit (head), as one workload a table.
 *
 * What the table is, from lkp-tests (github.com/intel/lkp-tests at commit
 * bbbc29c4, July 2026; doc/commands.md says the same for users):
 *
 * - Each row is a stat's mean over the runs of each commit, then per further
 *   commit its %change and mean (lib/compare.rb:867-901, show_perf_change).
 *   A mean under 1000 is printed "%.2f", over 1e8 "%.4g", else "%d"; the
 *   %change is relative ("%+.1f%%"), or an absolute difference without the
 *   % sign for stats named "perf-profile.*" or ending in "%"
 *   (lib/compare.rb:19-22, $stat_absolute_changes; 773-795).
 * - "± N%" is the runs' standard deviation relative to the mean, printed
 *   only above 2% (lib/compare.rb:892-897: "if stddev > 2", with "%d",
 *   which truncates), and the deviation is the population one: the sum of
 *   squares over n, not n - 1 (lib/statistics.rb:29-36).  A single run has
 *   none (lib/compare.rb:762: -1 unless v.many?).  A blank is therefore at
 *   most 2%, and "± N%" lies in [N, N + 1) percent.
 * - Only the stats that changed are printed (lib/stats.rb:586-620), and
 *   only where a side has 3 runs or more (lib/stats.rb:589); how many runs
 *   each side had is printed only in the failure block above
 *   ("fail:runs", lib/compare.rb:843-865: "F:RUNS").
 * - perf-stat rows come from `perf stat -a --scale -I 1000 -x ,` over the
 *   whole machine (programs/perf-stat/monitor:100) with the events of
 *   monitor:65-77.  "perf-stat.ps.X" is X's total over the run divided by
 *   its seconds (programs/perf-stat/parse:290-293), "perf-stat.i.X" the
 *   mean of the per-second rates of its 1 s intervals (parse:128 and
 *   lib/matrix.rb:165), "perf-stat.total.instructions" the run's total
 *   (parse:295-299), "perf-stat.overall.*" ratios of the run's totals
 *   (parse:91-98: ipc, cpi, miss rates), and "perf-stat.overall.path-length"
 *   total instructions over the test's ".workload" stat (lib/matrix.rb:90-99).
 *   task-clock and cpu-clock rates are milliseconds per second (parse:180).
 *
 * So the workload this makes is one second of the run on the whole machine:
 * counters are the per-second rates, elapsed_ns is 1 s, the target is every
 * CPU, and the work of that second is the score times one second where the
 * score is a rate (the diff says so).  Both sides of a table share that
 * basis, which is what a per-unit comparison needs.
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_block.h"
#include "import_event_name.h"
#include "import_lines.h"
#include "import_number.h"
#include "import_parsers.h"
#include "import_warnings.h"
#include "text.h"

/* The one- and two-byte spellings of "±": a mail in ISO-8859-1 (as the robot's are) and the same text in UTF-8. */
#define PLUS_MINUS_UTF8 "\xc2\xb1"
#define PLUS_MINUS_LATIN1 '\xb1'

/* A blank %stddev means at most this (lib/compare.rb:894 prints it only above 2%). */
#define LKP_STDDEV_SHOWN_ABOVE 0.02
/* The workload is one second of the run: every perf-stat.ps/i row is a rate per second. */
#define LKP_WINDOW_NS 1e9
/* task-clock and cpu-clock rows are msec per second (programs/perf-stat/parse:180); the profile keeps ns. */
#define NS_PER_MS 1e6
/* Tokens a row can have: 2 columns of value, "±", "N%" and a change, and the name, with room to spare. */
#define LKP_MAX_TOKENS 16
/* Commits a table compares: the robot's compare prints more columns; one import takes base or head of two. */
#define LKP_MAX_COLS 8
/*
 * A '%stddev' line longer than this is not the robot's table header (its
 * own are under 100 bytes): detection, which runs on every file imported,
 * does not copy a long line to look at it.
 */
#define LKP_HEADER_MAX 4096

struct lkp_row {
	char *key;                 /* owned */
	double value[2];
	int stddev_pct[2];         /* the printed "± N%" as N; -1 blank */
	int lineno;
};

/*
 * What the mail says around the table: the metric it noticed, the test and
 * the machine.  Each text is owned, never NULL ("" unsaid), and as long as
 * the mail wrote it: a cut commit subject or metric would name another.
 */
struct lkp_facts {
	char *metric;
	int verdict;               /* +1 "improvement", -1 "regression", 0 not said */
	char *testcase, *test, *governor, *machine;
	char *commits[2];          /* the "commit:" block's first two lines: id ("subject") */
	int ncommits;              /* lines of that block read so far; -1 not in one */
	char *axes;                /* "compiler/cpufreq_governor/.../testcase:" awaiting its values line */
	char *prev;                /* the last non-blank line: a table's commit ids */
};

enum lkp_state { LKP_PROSE, LKP_HEAD, LKP_FAIL_ROWS, LKP_ROWS };

struct lkp_table {
	enum lkp_state state;
	int ncols;
	char *ids[2];              /* owned; NULL where the line above named none */
	int runs[2];               /* from the failure block's "F:RUNS"; 0 unknown */
	bool any_stddev[2];        /* a "±" on that side: it had two runs or more */
	struct lkp_row *rows;
	size_t n, cap;
	json_t *keys;              /* row name -> index, to find rows and refuse repeats */
};

struct lkp_ctx {
	struct ud_profile *p;
	const struct ud_import_opts *o;
	const char *name;
	struct ud_import_warnings *warn;
	struct ud_err *err;
	json_t *taken;
	struct lkp_facts f;
	struct lkp_table t;
	int tables;
};

/* ---- tokens and numbers ---- */

/* Splits s in place at blanks, and a leading "±" off its number ("±117%"); the count, or -1 past max. */
static int tokenize(char *s, char **tok, int max)
{
	static char pm[] = "±";
	int n = 0;

	while (*s) {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (!*s)
			break;
		if (n + 2 > max)
			return -1;
		if (strncmp(s, PLUS_MINUS_UTF8, 2) == 0 || *s == PLUS_MINUS_LATIN1) {
			tok[n++] = pm;
			s += *s == PLUS_MINUS_LATIN1 ? 1 : 2;
			continue;
		}
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	return n;
}

/*
 * A number as Ruby's printf writes the table ("294.00", "24387540",
 * "4.591e+10", "-0.4"), read exactly (not through the C library, whose
 * decimal mark follows the locale): 1 finite, 0 not a number.
 */
static int lkp_number(const char *s, double *out)
{
	struct decimal d = { 0, 0 };
	int sign = 1, exp = 0, digits = 0, esign = 1;

	if (*s == '+' || *s == '-')
		sign = *s++ == '-' ? -1 : 1;
	for (bool frac = false; isdigit((unsigned char)*s) || (*s == '.' && !frac); s++) {
		if (*s == '.') {
			frac = true;
			continue;
		}
		if (d.mant > (UINT64_MAX - 9) / 10)
			return 0; /* more digits than any printed mean has */
		d.mant = d.mant * 10 + (uint64_t)(*s - '0');
		d.frac += frac;
		digits++;
	}
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			esign = *s++ == '-' ? -1 : 1;
		if (!isdigit((unsigned char)*s))
			return 0;
		for (; isdigit((unsigned char)*s) && exp < 1000; s++)
			exp = exp * 10 + (*s - '0');
	}
	if (*s)
		return 0;
	*out = sign * imp_decimal_value(d, esign * exp);
	return isfinite(*out) ? 1 : 0;
}

/* "N%" as N (0 up), else -1. */
static int percent_token(const char *s)
{
	int n = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s) && n < 100000; s++)
		n = n * 10 + (*s - '0');
	return strcmp(s, "%") == 0 ? n : -1;
}

/* Whether every token is one of the header words in order: first, then (second, first) pairs. */
static bool header_words(char **tok, int n, const char *first, const char *second)
{
	if (n < 3 || n % 2 == 0)
		return false;
	for (int i = 0; i < n; i++)
		if (strcmp(tok[i], i % 2 ? second : first) != 0)
			return false;
	return true;
}

/* ---- the table ---- */

static void table_free(struct lkp_table *t)
{
	free(t->ids[0]);
	free(t->ids[1]);
	for (size_t i = 0; i < t->n; i++)
		free(t->rows[i].key);
	free(t->rows);
	json_decref(t->keys);
	memset(t, 0, sizeof(*t));
}

static const struct lkp_row *row_named(const struct lkp_table *t, const char *key)
{
	json_t *i = t->keys ? json_object_get(t->keys, key) : NULL;

	return i ? &t->rows[json_integer_value(i)] : NULL;
}

static int add_row(struct lkp_ctx *c, const struct lkp_row *r, int lineno)
{
	struct lkp_table *t = &c->t;

	if (!t->keys && !(t->keys = json_object()))
		return ud_fail(c->err, "out of memory");
	if (json_object_get(t->keys, r->key))
		return ud_fail(c->err, "%s:%d: '%s' appears twice in the table", c->name, lineno, r->key);
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct lkp_row *grown = realloc(t->rows, cap * sizeof(*grown));

		if (!grown)
			return ud_fail(c->err, "out of memory");
		t->rows = grown;
		t->cap = cap;
	}
	t->rows[t->n] = *r;
	if (!(t->rows[t->n].key = strdup(r->key)) ||
	    /* nocheck: a name is any bytes the mail holds, not necessarily UTF-8 */
	    json_object_set_new_nocheck(t->keys, r->key, json_integer((json_int_t)t->n)) != 0) {
		free(t->rows[t->n].key);
		return ud_fail(c->err, "out of memory");
	}
	t->rows[t->n++].lineno = lineno;
	return 0;
}

/* One column's "VALUE [± N%]" at tok[*i]; -1 with err. */
static int take_column(struct lkp_ctx *c, char **tok, int n, int *i, double *value, int *pct, int lineno)
{
	if (*i >= n || !lkp_number(tok[*i], value))
		return ud_fail(c->err, "%s:%d: '%s' is not a number: a row is VALUE [± N%%] CHANGE VALUE [± N%%] NAME",
			       c->name, lineno, *i < n ? tok[*i] : "(end of line)");
	(*i)++;
	*pct = -1;
	if (*i < n && strcmp(tok[*i], "±") == 0) {
		if (*i + 1 >= n || (*pct = percent_token(tok[*i + 1])) < 0)
			return ud_fail(c->err, "%s:%d: '±' must be followed by a whole percentage (± 12%%)", c->name,
				       lineno);
		*i += 2;
	}
	return 0;
}

/* A row of the %stddev block: base [± N%] then per commit CHANGE[%] VALUE [± N%], then the name. */
static int take_row(struct lkp_ctx *c, char **tok, int n, int lineno)
{
	struct lkp_row r = { .key = NULL };
	double v = NAN;
	int i = 0, pct = -1;

	for (int col = 0; col < c->t.ncols; col++) {
		if (col > 0) {
			size_t len = i < n ? strlen(tok[i]) : 0;
			char chg[64];

			/* the change: "+1.9%", "-0.4", "+6.6e+103%" (Ruby's "%+.2g" past 100,000) */
			snprintf(chg, sizeof(chg), "%.*s", (int)(len && tok[i][len - 1] == '%' ? len - 1 : len),
				 i < n ? tok[i] : "");
			if (i >= n || (tok[i][0] != '+' && tok[i][0] != '-') || !lkp_number(chg, &v))
				return ud_fail(c->err, "%s:%d: '%s' is not a change (+1.9%%, -0.4)", c->name, lineno,
					       i < n ? tok[i] : "(end of line)");
			i++;
		}
		if (take_column(c, tok, n, &i, &v, &pct, lineno) != 0)
			return -1;
		if (col < 2) {
			r.value[col] = v;
			r.stddev_pct[col] = pct;
			c->t.any_stddev[col] |= pct >= 0;
		}
	}
	if (i != n - 1)
		return ud_fail(c->err, "%s:%d: %s", c->name, lineno,
			       i >= n ? "the row has no name (cut short?)" : "the row has more columns than its header");
	r.key = tok[i];
	return add_row(c, &r, lineno);
}

/* "1:5  -19%  0:4  NAME" (or ":4" where nothing failed): each side's runs. */
static int take_fail_row(struct lkp_ctx *c, char **tok, int n, int lineno)
{
	for (int col = 0, i = 0; col < c->t.ncols && col < 2; col++, i += 2) {
		const char *colon = i < n ? strchr(tok[i], ':') : NULL;
		char *end;
		long runs = colon ? strtol(colon + 1, &end, 10) : 0;

		if (!colon || colon[1] == '\0' || *end || runs < 1 || runs > 100000)
			return ud_fail(c->err, "%s:%d: a fail:runs row needs FAILS:RUNS in each column, not '%s'", c->name,
				       lineno, i < n ? tok[i] : "(end of line)");
		if (!c->t.runs[col])
			c->t.runs[col] = (int)runs;
	}
	return 0;
}

/* ---- the prose around it ---- */

/* Replaces *dst (owned) with the n bytes at s, whole; -1 out of memory. */
static int set_text(char **dst, const char *s, size_t n)
{
	char *t = strndup(s, n);

	if (!t)
		return -1;
	free(*dst);
	*dst = t;
	return 0;
}

/* The text after prefix (and its blanks) into *out when s starts with prefix: 1 it did, 0 not, -1 out of memory. */
static int after(const char *s, const char *prefix, char **out)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) != 0)
		return 0;
	for (s += n; *s == ' ' || *s == '\t'; s++)
		;
	return set_text(out, s, strlen(s)) == 0 ? 1 : -1;
}

/*
 * "kernel test robot noticed a 1.9% improvement of will-it-scale.per_process_ops on:"
 * (older mails: "FYI, we noticed a -13.2% regression of ... due to commit:").
 */
static int take_noticed(struct lkp_facts *f, const char *s)
{
	static const struct {
		const char *words;
		int verdict;
	} kinds[] = { { "% regression of ", -1 }, { "% improvement of ", 1 } };

	if (!strstr(s, "noticed a"))
		return 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const char *m = strstr(s, kinds[i].words);

		if (m) {
			m += strlen(kinds[i].words);
			if (set_text(&f->metric, m, strcspn(m, " \t")) != 0)
				return -1;
			f->verdict = kinds[i].verdict;
		}
	}
	return 0;
}

static size_t count_char(const char *s, char ch)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == ch;
	return n;
}

/* The job's axes ("compiler/.../testcase:" over "gcc-12/.../will-it-scale"): the test where the prose gave none. */
static int take_axes(struct lkp_facts *f, const char *values)
{
	char *keys = strndup(f->axes, strlen(f->axes) - 1), *vals = strdup(values), *ks, *vs, *k, *v;
	int ret = keys && vals ? 0 : -1;

	f->axes[0] = '\0';
	/* a value holding a '/' (ltp's hugetlb/hugemmap10) shifts every column after it: no axes then */
	if (ret == 0 && (strspn(keys, "/") != 0 || count_char(keys, '/') != count_char(vals, '/')))
		keys[0] = '\0';
	for (k = ret ? NULL : strtok_r(keys, "/", &ks), v = ret ? NULL : strtok_r(vals, "/", &vs); ret == 0 && k && v;
	     k = strtok_r(NULL, "/", &ks), v = strtok_r(NULL, "/", &vs)) {
		char **to = strcmp(k, "testcase") == 0 ? &f->testcase : strcmp(k, "test") == 0 ? &f->test :
			    strcmp(k, "cpufreq_governor") == 0 ? &f->governor : NULL;

		if (to && !(*to)[0])
			ret = set_text(to, v, strlen(v));
	}
	free(keys);
	free(vals);
	return ret;
}

/* The facts a line states as "prefix: value": 1 it stated one, 0 none, -1 out of memory. */
static int take_stated(struct lkp_facts *f, const char *s)
{
	const struct {
		const char *prefix;
		char **to;
	} stated[] = { { "testcase:", &f->testcase }, { "in testcase:", &f->testcase },
		       { "test machine:", &f->machine }, { "on test machine:", &f->machine },
		       { "test:", &f->test }, { "cpufreq_governor:", &f->governor } };
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < sizeof(stated) / sizeof(stated[0]); i++)
		ret = after(s, stated[i].prefix, stated[i].to);
	return ret;
}

/* A line of the mail outside the table: the facts it states, each where nothing said it before; -1 out of memory. */
static int take_prose(struct lkp_facts *f, const char *s)
{
	int ret = 0;

	if (!*s) {
		f->ncommits = -1; /* the "commit:" block ends at a blank line */
		return 0;
	}
	if (f->axes[0]) {
		ret = take_axes(f, s);
	} else if (f->ncommits >= 0) {
		if (f->ncommits < 2)
			ret = set_text(&f->commits[f->ncommits], s, strlen(s));
		f->ncommits++;
	} else if (strcmp(s, "commit:") == 0) {
		f->ncommits = 0;
	} else if (s[strlen(s) - 1] == ':' && strchr(s, '/') && !strchr(s, ' ')) {
		ret = set_text(&f->axes, s, strlen(s));
	} else if ((ret = take_stated(f, s)) == 0) {
		ret = take_noticed(f, s);
	}
	return ret < 0 || set_text(&f->prev, s, strlen(s)) != 0 ? -1 : 0;
}

/* ---- what one side becomes ---- */

/*
 * LKP's own sense of its scores, by name: lkp-tests etc/index-perf-all.yaml
 * lists its performance KPIs as "REGEX: 1" (higher is better) or "-1"
 * (lower), and etc/index-latency-all.yaml its latencies, all lower; both
 * are matched whole (lib/bisect_kpi.rb:98-100).  The ones mails name most,
 * with the file's line; '*' stands for the regexes' ".+".
 */
static const struct {
	const char *pattern;
	int higher;
} kpi_table[] = {
	{ "*.throughput", 1 },                /* index-perf-all.yaml:1 (vm-scalability, hackbench) */
	{ "aim7.jobs-per-min", 1 },           /* :4 */
	{ "aim9.*.ops_per_sec", 1 },          /* :5 */
	{ "filebench.sum_operations/s", 1 },  /* :16 */
	{ "fio.*_bw_MBps", 1 },               /* :17 */
	{ "fio.*_iops", 1 },                  /* :18 */
	{ "kbuild.*_per_iteration", 0 },      /* :35 */
	{ "kernbench.elapsed_time", 0 },      /* :36 */
	{ "netperf.Throughput_Mbps", 1 },     /* :49 */
	{ "netperf.Throughput_tps", 1 },      /* :50 */
	{ "pft.faults_per_sec_per_cpu", 1 },  /* :62 */
	{ "reaim.jobs_per_min", 1 },          /* :185 */
	{ "stress-ng.*_per_sec", 1 },         /* :195 */
	{ "unixbench.score", 1 },             /* :210 */
	{ "vm-scalability.median", 1 },       /* :212 */
	{ "will-it-scale.*_ops", 1 },         /* :213 */
	{ "pgbench.latency_ms", 0 },          /* index-latency-all.yaml:19 */
	{ "schbench.*_latency_*", 0 },        /* index-latency-all.yaml:25-28 */
};

/* Whether s matches pattern whole, '*' matching one character or more. */
static bool glob_match(const char *p, const char *s)
{
	for (; *p; p++, s++) {
		if (*p == '*') {
			for (const char *t = s + 1; *s; t++) {
				if (glob_match(p + 1, t))
					return true;
				if (!*t)
					return false;
			}
			return false;
		}
		if (*p != *s)
			return false;
	}
	return !*s;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* 1 higher is better, 0 lower, -1 not known: LKP's table, else words of the name (times and latencies are lower). */
static int direction_of(const char *name)
{
	static const char *const lower[] = { "elapsed_time", ".seconds", "_time_ms", "_ms", "_us", "_ns", ".ms" };
	static const char *const higher[] = { "_per_sec", "/s", "_ops", "throughput", "_MBps", "_Mbps", "_iops", "score" };

	for (size_t i = 0; i < sizeof(kpi_table) / sizeof(kpi_table[0]); i++)
		if (glob_match(kpi_table[i].pattern, name))
			return kpi_table[i].higher;
	if (strstr(name, "latency"))
		return 0;
	for (size_t i = 0; i < sizeof(lower) / sizeof(lower[0]); i++)
		if (ends_with(name, lower[i]))
			return 0;
	for (size_t i = 0; i < sizeof(higher) / sizeof(higher[0]); i++)
		if (ends_with(name, higher[i]))
			return 1;
	return -1;
}

/* Whether LKP's table knows name as a score (a KPI), and not only the words of it. */
static bool is_kpi(const char *name)
{
	for (size_t i = 0; i < sizeof(kpi_table) / sizeof(kpi_table[0]); i++)
		if (glob_match(kpi_table[i].pattern, name))
			return true;
	return false;
}

/* The score row: the metric the mail noticed, else the first of LKP's KPIs, the test's own first. */
static const struct lkp_row *primary_row(const struct lkp_ctx *c)
{
	const struct lkp_row *r = row_named(&c->t, c->f.metric);
	size_t tlen = strlen(c->f.testcase);

	if (r)
		return r;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < c->t.n; i++)
			if (is_kpi(c->t.rows[i].key) &&
			    (pass || (tlen && strncmp(c->t.rows[i].key, c->f.testcase, tlen) == 0 &&
				      c->t.rows[i].key[tlen] == '.')))
				return &c->t.rows[i];
	return NULL;
}

/*
 * The standard error of a side's mean relative to it, as the profile's
 * noise is (perf's "+-"), from the robot's %stddev: a population standard
 * deviation s over n runs gives s / sqrt(n - 1) (the sample deviation is
 * s * sqrt(n / (n - 1)), its standard error that over sqrt(n)).  The
 * printed "± N%" is at most N + 1 percent and a blank at most 2%: the
 * bound is kept, so the noise is never understated.  With n unknown but
 * two runs or more (a "±" on that side), n = 2 gives the largest error,
 * the deviation itself; a side that may have had one run has no spread.
 */
static double rel_stderr_of(const struct lkp_table *t, const struct lkp_row *r, int side)
{
	double bound = r->stddev_pct[side] >= 0 ? (r->stddev_pct[side] + 1) / 100.0 : LKP_STDDEV_SHOWN_ABOVE;

	if (t->runs[side] >= 2)
		return bound / sqrt(t->runs[side] - 1);
	return t->any_stddev[side] && t->runs[side] == 0 ? bound : NAN;
}

/* LKP's perf-stat events (programs/perf-stat/monitor:65-77): the perf-stat.ps/i rows that are counts, not its ratios. */
static const char *const lkp_events[] = {
	"cpu-cycles", "instructions", "cache-references", "cache-misses", "branch-instructions", "branch-misses",
	"dTLB-loads", "dTLB-load-misses", "dTLB-stores", "dTLB-store-misses", "iTLB-loads", "iTLB-load-misses",
	"node-loads", "node-load-misses", "node-stores", "node-store-misses", "cpu-clock", "task-clock",
	"page-faults", "context-switches", "cpu-migrations", "minor-faults", "major-faults",
};

/* The event a row of family counts ("perf-stat.ps.cpu-cycles" -> "cpu-cycles"), else NULL. */
static const char *event_of(const char *key, const char *family)
{
	size_t n = strlen(family);

	if (strncmp(key, family, n) != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(lkp_events) / sizeof(lkp_events[0]); i++)
		if (strcmp(key + n, lkp_events[i]) == 0)
			return key + n;
	return NULL;
}

/*
 * The rows that become counters: the per-second rates of the whole run
 * (perf-stat.ps.*, totals over the run's seconds, the same totals the
 * overall.* ratios come from), else the means of the 1 s intervals
 * (perf-stat.i.*) where the table prints no ps row.  One family, never
 * both: a counter and its ratio to another are then of one basis.
 */
static const char *counter_family(const struct lkp_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (event_of(t->rows[i].key, "perf-stat.ps."))
			return "perf-stat.ps.";
	return "perf-stat.i.";
}

static int add_counter(struct lkp_ctx *c, struct ud_workload *w, const struct lkp_row *r, const char *event, int side)
{
	char *name;
	struct ud_counter *k;
	double v = r->value[side];

	if (v < 0)
		return ud_fail(c->err, "%s:%d: %s: a count cannot be negative (%g)", c->name, r->lineno, r->key, v);
	/* the name whole, in its own length: a cut one would merge two counters */
	name = imp_event_name_new(event);
	k = name ? ud_workload_add_counter(w, name) : NULL;
	free(name);
	if (!k)
		return ud_fail(c->err, "out of memory");
	k->status = UD_COUNTED;
	k->value = imp_is_clock_event(event) ? v * NS_PER_MS : v;
	k->rel_stddev = rel_stderr_of(&c->t, r, side);
	return 0;
}

/*
 * cycles from instructions and the cycles per instruction (or IPC) the
 * table prints where it prints no cycles row (a row is printed only when
 * it changed), said in the counter's reason.  The overall ratio first: it
 * is of the run's totals, as the ps rates are.
 */
static int derive_cycles(struct lkp_ctx *c, struct ud_workload *w, const char *family, int side)
{
	char cpi[64], ipc[64], why[256];
	const char *ratios[] = { "perf-stat.overall.cpi", "perf-stat.overall.ipc", cpi, ipc };
	const struct ud_counter *instr = ud_workload_counter(w, "instructions");
	struct ud_counter *k;

	if (ud_workload_counter(w, "cycles") || !instr)
		return 0;
	snprintf(cpi, sizeof(cpi), "%scpi", family);
	snprintf(ipc, sizeof(ipc), "%sipc", family);
	for (size_t i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		const struct lkp_row *r = row_named(&c->t, ratios[i]);
		bool per_instr = i % 2 == 0;

		if (!r || !(r->value[side] > 0))
			continue;
		snprintf(why, sizeof(why),
			 "derived by uarchdiff: %sinstructions %s %s (the table prints no cycles row, and the ratio to "
			 "two decimals)", family, per_instr ? "x" : "/", ratios[i]);
		if (!(k = ud_workload_add_counter(w, "cycles")) || !(k->reason = strdup(why)))
			return ud_fail(c->err, "out of memory");
		instr = ud_workload_counter(w, "instructions"); /* the add may have moved it */
		k->status = UD_COUNTED;
		k->value = per_instr ? instr->value * r->value[side] : instr->value / r->value[side];
		return 0;
	}
	return 0;
}

/* perf-stat rows as counters, and the rest of them (ratios, path length, the other family) as perf's metrics. */
static int add_perf_stat(struct lkp_ctx *c, struct ud_workload *w, int side)
{
	const char *family = counter_family(&c->t);

	for (size_t i = 0; i < c->t.n; i++) {
		const struct lkp_row *r = &c->t.rows[i];
		const char *event = event_of(r->key, family);

		if (event) {
			if (add_counter(c, w, r, event, side) != 0)
				return -1;
		} else if (strncmp(r->key, "perf-stat.", 10) == 0 &&
			   ud_workload_add_perf_metric(w, r->key, r->value[side]) != 0) {
			return ud_fail(c->err, "out of memory");
		}
	}
	return derive_cycles(c, w, family, side);
}

/* The machine's hardware threads ("104 threads 2 sockets ..."): 0 unknown, or past Linux's largest NR_CPUS (8192, arch/x86/Kconfig MAXSMP). */
static long long machine_threads(const char *machine)
{
	char *end;
	long long n = strtoll(machine, &end, 10);

	return end != machine && strncmp(end, " threads", 8) == 0 && n > 0 && n <= 8192 ? n : 0;
}

/*
 * User and kernel CPU time of the second, from mpstat's shares of all CPU
 * time: usr% as user, sys% with irq% and soft% where printed as kernel
 * (mpstat's %sys leaves interrupts out; they are the kernel's time too).
 * Only with both usr% and sys% and the CPU count; a share the table leaves
 * out (unchanged between the commits) stays out.
 */
static void add_times(const struct lkp_ctx *c, struct ud_workload *w, int side)
{
	const struct lkp_row *usr = row_named(&c->t, "mpstat.cpu.all.usr%");
	const struct lkp_row *sys = row_named(&c->t, "mpstat.cpu.all.sys%");
	const struct lkp_row *irq = row_named(&c->t, "mpstat.cpu.all.irq%");
	const struct lkp_row *soft = row_named(&c->t, "mpstat.cpu.all.soft%");
	double cpu_ns = (double)machine_threads(c->f.machine) * LKP_WINDOW_NS;

	w->elapsed_ns = LKP_WINDOW_NS;
	if (!usr || !sys || !(cpu_ns > 0))
		return;
	w->user_ns = usr->value[side] / 100 * cpu_ns;
	w->sys_ns = (sys->value[side] + (irq ? irq->value[side] : 0) + (soft ? soft->value[side] : 0)) / 100 * cpu_ns;
}

/* perf stat -a counted every CPU (programs/perf-stat/monitor:100): the counts are the machine's, not the test's alone. */
static int add_target(const struct lkp_ctx *c, struct ud_workload *w)
{
	long long n = machine_threads(c->f.machine);
	int *ids;

	if (!n)
		return imp_warn(c->warn, "%s: no 'test machine: N threads' line: the robot's perf-stat counts are "
				"system-wide, but without the CPU count the profile cannot say so", c->name);
	if (!(ids = malloc((size_t)n * sizeof(*ids))))
		return -1;
	for (long long i = 0; i < n; i++)
		ids[i] = (int)i;
	if (!ud_workload_set_target(w, UD_TARGET_SYSTEM_WIDE, ids, (size_t)n)) {
		free(ids);
		return -1;
	}
	free(ids);
	return 0;
}

/*
 * Whether higher is better for the score: the mail's own verdict where it
 * names the metric ("a 12.4% regression" of a score that fell: higher is
 * better; LKP signs its KPI changes by that table, lib/bisect_kpi.rb:66-73),
 * else by name.
 */
static int score_direction(const struct lkp_ctx *c, const struct lkp_row *r)
{
	if (c->f.verdict && strcmp(r->key, c->f.metric) == 0 && r->value[0] != r->value[1])
		return (c->f.verdict > 0) == (r->value[1] > r->value[0]);
	return direction_of(r->key);
}

/* The score (the metric noticed, or --score), its noise and runs, and the test's other rows as sub-scores. */
static int add_score(struct lkp_ctx *c, struct ud_workload *w, const struct lkp_row *score, int side)
{
	const char *units = score ? strchr(score->key, '.') : NULL;
	size_t plen = units ? (size_t)(units - score->key) + 1 : 0;
	double v = score ? score->value[side] : NAN;

	if (c->o->nscores) {
		if (ud_score_set_samples(&w->score, c->o->scores, c->o->nscores) != 0)
			return ud_fail(c->err, "out of memory");
	} else if (score && v > 0) {
		if (ud_score_set_samples(&w->score, &v, 1) != 0)
			return ud_fail(c->err, "out of memory");
		w->score.rel_stderr = rel_stderr_of(&c->t, score, side);
		w->score.runs = c->t.runs[side];
	}
	w->units = strdup(c->o->score_units ? c->o->score_units : units ? units + 1 : "");
	if (!w->units)
		return ud_fail(c->err, "out of memory");
	if (c->o->nscores && c->o->score_units)
		w->higher_is_better = !imp_units_lower_is_better(c->o->score_units);
	else
		w->higher_is_better = score ? score_direction(c, score) : -1;
	for (size_t i = 0; score && i < c->t.n; i++) {
		const struct lkp_row *r = &c->t.rows[i];

		if (r != score && strncmp(r->key, score->key, plen) == 0 &&
		    ud_workload_add_subscore(w, r->key, r->value[side], NULL) != 0)
			return ud_fail(c->err, "out of memory");
	}
	return 0;
}

/* What follows " 2 sockets" in the machine's description, where the robot gives the socket count. */
static const char *after_sockets(const char *s)
{
	char *end;
	long sockets = strtol(s, &end, 10);

	return end != s && sockets > 0 && strncmp(end, " sockets", 8) == 0 ? end + 8 : s;
}

/* Facts of the host the mail states, each where nothing better (--host, --cpuinfo, --label) gave it. */
static int set_host(struct lkp_ctx *c, int side)
{
	struct ud_host *h = c->p->host;
	const char *label = c->f.commits[side][0] ? c->f.commits[side] : c->t.ids[side] ? c->t.ids[side] : "";
	char *model, *m;
	const char *desc = c->f.machine, *with = NULL;
	long long threads = machine_threads(desc);
	int ret = 0;

	if ((!h->label && *label && ud_host_set_string(&h->label, label) != 0) ||
	    (!h->cpufreq.governor && c->f.governor[0] && ud_host_set_string(&h->cpufreq.governor, c->f.governor) != 0))
		return ud_fail(c->err, "out of memory");
	if (!threads)
		return 0;
	if (h->cpu.online_cpus == UD_HOST_UNKNOWN)
		h->cpu.online_cpus = threads;
	/* "104 threads 2 sockets Intel(R) Xeon(R) ... (Cascade Lake) with 192G memory": the CPU between */
	desc = after_sockets(strstr(desc, " threads") + 8);
	for (const char *s = strstr(desc, " with "); s; s = strstr(s + 1, " with "))
		with = s;
	if (!(model = strndup(desc, with ? (size_t)(with - desc) : strlen(desc))))
		return ud_fail(c->err, "out of memory");
	m = ud_trim(model);
	if (*m == '(' && m[strlen(m) - 1] == ')' && !strchr(m + 1, '(')) { /* "(Skylake)": the codename alone */
		m[strlen(m) - 1] = '\0';
		m++;
	}
	if (!h->cpu.model_name && *m && ud_host_set_string(&h->cpu.model_name, m) != 0)
		ret = ud_fail(c->err, "out of memory");
	free(model);
	return ret;
}

/* The workload's name: --workload, else the test ("will-it-scale/poll2"), else the score's test, else the file's. */
static char *workload_name(const struct lkp_ctx *c, const struct lkp_row *score)
{
	char *base, *name;

	if (c->o->workload)
		base = strdup(c->o->workload);
	else if (c->f.testcase[0])
		base = ud_printf_new("%s%s%s", c->f.testcase, c->f.test[0] ? "/" : "", c->f.test);
	else if (score)
		base = strndup(score->key, strcspn(score->key, "."));
	else
		base = strdup(c->name);
	name = base ? imp_unique_name(c->taken, base) : NULL;
	free(base);
	return name;
}

/* The finished table's side as a workload of the profile, and the host facts the mail states. */
static int table_to_workload(struct lkp_ctx *c)
{
	int side = c->o->side == UD_IMPORT_SIDE_HEAD;
	const struct lkp_row *score = primary_row(c);
	char *name = workload_name(c, score);
	struct ud_workload *w = name ? ud_profile_add_workload(c->p, name) : NULL;

	free(name);
	if (!w)
		return ud_fail(c->err, "out of memory");
	w->runs = c->t.runs[side];
	/* a "±" on a side says it ran twice at least, whose noise the diff then tests with that many */
	w->runs_at_least = !w->runs && c->t.any_stddev[side] ? 2 : 0;
	if (add_score(c, w, score, side) != 0 || add_perf_stat(c, w, side) != 0 || set_host(c, side) != 0)
		return -1;
	add_times(c, w, side);
	if (w->ncounters && add_target(c, w) != 0)
		return ud_fail(c->err, "out of memory");
	c->tables++;
	return 0;
}

/* A table's end: its side becomes a workload, and what the mail said of this table is spent. */
static int end_table(struct lkp_ctx *c, int lineno)
{
	int ret = 0;

	if (c->t.state == LKP_HEAD || (c->t.state == LKP_ROWS && c->t.n == 0))
		ret = ud_fail(c->err, "%s:%d: the table ends before its first row (cut short?)", c->name, lineno);
	else if (c->t.n)
		ret = table_to_workload(c);
	table_free(&c->t);
	/* a later table of the mail has its own test and metric: its axes line says them */
	c->f.metric[0] = c->f.testcase[0] = c->f.test[0] = '\0';
	c->f.verdict = 0;
	c->f.commits[0][0] = c->f.commits[1][0] = '\0';
	return ret;
}

/* The dashes under the commit ids ("---------------- ---------------------------"). */
static bool dashes(char **tok, int n)
{
	for (int i = 0; i < n; i++)
		if (strlen(tok[i]) < 8 || strspn(tok[i], "-") != strlen(tok[i]))
			return false;
	return n >= 2;
}

/* The marks under a header ("\   |   \", "|   |   |"): nothing to read. */
static bool marks(char **tok, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(tok[i], "|") != 0 && strcmp(tok[i], "\\") != 0)
			return false;
	return n > 0;
}

/* A table's head: its columns, the commit ids above it, and the side to take. */
static int begin_table(struct lkp_ctx *c, int ncols, enum lkp_state next, bool ids_above, int lineno)
{
	char *ids = strdup(ids_above ? c->f.prev : ""), *tok[LKP_MAX_COLS + 1];
	int n = ids ? tokenize(ids, tok, LKP_MAX_COLS + 1) : 0;

	for (int i = 0; ids && n == ncols && i < 2; i++)
		c->t.ids[i] = strdup(tok[i]);
	free(ids);
	if (!ids || (n == ncols && (!c->t.ids[0] || !c->t.ids[1])))
		return ud_fail(c->err, "out of memory");
	if (ncols != 2)
		return ud_fail(c->err, "%s:%d: the table compares %d commits; --side base|head takes one of two, so keep "
			       "the parent's columns and one commit's", c->name, lineno, ncols);
	if (c->o->side == UD_IMPORT_SIDE_NONE)
		return ud_fail(c->err, "%s:%d: a kernel test robot table holds two sides: add --side base (the parent "
			       "commit%s%s) or --side head (the commit%s%s)", c->name, lineno, c->t.ids[0] ? ", " : "",
			       c->t.ids[0] ? c->t.ids[0] : "", c->t.ids[1] ? ", " : "", c->t.ids[1] ? c->t.ids[1] : "");
	c->t.ncols = ncols;
	c->t.state = next;
	return 0;
}

/* A line that may start a table (dashes, "%stddev ...", "fail:runs ..."): 1 it did, 0 it is prose, -1 err. */
static int table_start(struct lkp_ctx *c, char *s, int lineno)
{
	char *tok[LKP_MAX_TOKENS];
	int n;

	if (s[0] != '-' && s[0] != '%' && strncmp(s, "fail:runs", 9) != 0)
		return 0;
	n = tokenize(s, tok, LKP_MAX_TOKENS);
	if (n > 0 && dashes(tok, n))
		return begin_table(c, n, LKP_HEAD, true, lineno) == 0 ? 1 : -1;
	if (n > 0 && header_words(tok, n, "%stddev", "%change"))
		return begin_table(c, (n + 1) / 2, LKP_ROWS, false, lineno) == 0 ? 1 : -1;
	if (n > 0 && header_words(tok, n, "fail:runs", "%reproduction"))
		return begin_table(c, (n + 1) / 2, LKP_FAIL_ROWS, false, lineno) == 0 ? 1 : -1;
	return 0;
}

/* A line inside a table; its end (a blank line, or a rule of '*' or '=') makes the workload. */
static int table_line(struct lkp_ctx *c, char *s, int lineno)
{
	char *tok[LKP_MAX_TOKENS];
	int n;

	if (!*s || strspn(s, "*") == strlen(s) || strspn(s, "=") == strlen(s))
		return end_table(c, lineno);
	n = tokenize(s, tok, LKP_MAX_TOKENS);
	if (n < 0 || (n > 0 && marks(tok, n)))
		return n < 0 ? ud_fail(c->err, "%s:%d: not a row of the table: too many columns", c->name, lineno) : 0;
	if (header_words(tok, n, "%stddev", "%change") && c->t.state != LKP_ROWS) {
		if ((n + 1) / 2 != c->t.ncols)
			return ud_fail(c->err, "%s:%d: %d columns under a header of %d commits", c->name, lineno,
				       (n + 1) / 2, c->t.ncols);
		c->t.state = LKP_ROWS;
		return 0;
	}
	if (header_words(tok, n, "fail:runs", "%reproduction") && c->t.state == LKP_HEAD) {
		c->t.state = LKP_FAIL_ROWS;
		return 0;
	}
	if (c->t.state == LKP_HEAD)
		return ud_fail(c->err, "%s:%d: a robot table's '%%stddev %%change %%stddev' line was expected here",
			       c->name, lineno);
	return c->t.state == LKP_FAIL_ROWS ? take_fail_row(c, tok, n, lineno) : take_row(c, tok, n, lineno);
}

/* A mail's quoting ("> > "), which a reply puts before every line of the table. */
static char *unquote(char *s)
{
	s = ud_trim(s);
	while (*s == '>')
		s = ud_trim(s + 1);
	return s;
}

static int read_lines(struct lkp_ctx *c, const char *text, size_t len)
{
	struct lines l;
	char *line;
	int ret = 0;

	imp_lines_init(&l, text, len);
	while (ret == 0 && (line = imp_lines_next(&l)) != NULL) {
		char *s = unquote(line);

		if (c->t.state != LKP_PROSE)
			ret = table_line(c, s, l.lineno);
		else if ((ret = table_start(c, s, l.lineno)) == 0 && take_prose(&c->f, s) != 0)
			ret = ud_fail(c->err, "out of memory");
		ret = ret < 0 ? -1 : 0;
	}
	if (ret == 0 && c->t.state != LKP_PROSE)
		ret = end_table(c, l.lineno);
	imp_lines_free(&l);
	return ret;
}

static char **facts_texts(struct lkp_facts *f, size_t i)
{
	char **all[] = { &f->metric, &f->testcase, &f->test, &f->governor, &f->machine,
			 &f->commits[0], &f->commits[1], &f->axes, &f->prev };

	return i < sizeof(all) / sizeof(all[0]) ? all[i] : NULL;
}

/* Every text of f as "" (owned): -1 out of memory, f then for facts_free(). */
static int facts_init(struct lkp_facts *f)
{
	char **t;

	for (size_t i = 0; (t = facts_texts(f, i)) != NULL; i++)
		if (!(*t = strdup("")))
			return -1;
	return 0;
}

static void facts_free(struct lkp_facts *f)
{
	char **t;

	for (size_t i = 0; (t = facts_texts(f, i)) != NULL; i++) {
		free(*t);
		*t = NULL;
	}
}

int imp_lkp(struct ud_profile *p, const char *text, size_t len, const char *name, const struct ud_import_opts *o,
	    struct ud_import_warnings *warn, struct ud_err *err)
{
	struct lkp_ctx c = { .p = p, .o = o, .name = name, .warn = warn, .err = err };
	int ret = facts_init(&c.f);

	c.f.ncommits = -1;
	if (ret != 0 || !(c.taken = imp_names_taken(p))) {
		facts_free(&c.f);
		return ud_fail(err, "out of memory");
	}
	ret = read_lines(&c, text, len);
	if (ret == 0 && c.tables == 0)
		ret = ud_fail(err, "%s: no kernel test robot table with '%%stddev %%change %%stddev' rows found", name);
	table_free(&c.t);
	facts_free(&c.f);
	json_decref(c.taken);
	return ret;
}

/*
 * Looks only at the lines holding "%stddev", found with memchr, rather than
 * reading every line: detection runs on every file imported, and a paste of
 * gigabyte size holds mostly other lines.  A table with rows always has
 * that header; one with only a fail:runs block has nothing to import.
 */
bool imp_lkp_detect(const char *text, size_t len)
{
	static const char word[] = "%stddev";
	const char *end = text + len, *at = text;

	while ((at = memchr(at, '%', (size_t)(end - at))) != NULL) {
		const char *start = at, *stop = at;
		char line[LKP_HEADER_MAX + 1], *tok[LKP_MAX_TOKENS];
		int n = 0;

		if ((size_t)(end - at) < sizeof(word) - 1 || memcmp(at, word, sizeof(word) - 1) != 0) {
			at++;
			continue;
		}
		while (start > text && start[-1] != '\n')
			start--;
		while (stop < end && *stop != '\n')
			stop++;
		if ((size_t)(stop - start) <= LKP_HEADER_MAX) {
			memcpy(line, start, (size_t)(stop - start));
			line[stop - start] = '\0';
			n = tokenize(unquote(line), tok, LKP_MAX_TOKENS);
		}
		if (n > 0 && header_words(tok, n, "%stddev", "%change"))
			return true;
		at = stop;
	}
	return false;
}
