/*
 * import_redis.c - redis-benchmark's output: each test ("SET", "LRANGE_100
 * (first 100 elements)") becomes a score-only workload "redis-TEST" (the
 * prefix is --workload where given) scored in requests per second, higher
 * better.  Read in both of its forms:
 *
 *   -q:    "SET: 395256.91 requests per second" (Redis 6.2 and later add
 *          ", p50=0.191 msec", a sub-score);
 *   full:  a "====== SET ======" block: "N requests completed in S seconds",
 *          clients, payload, the latency tables, and the rate, either as a
 *          line of its own (before 6.2) or as "throughput summary: ..."
 *          followed by the latency summary (avg min p50 p95 p99 max, ms),
 *          which become sub-scores.
 *
 * A test printed again in one file (a loop of runs) is another sample of
 * the same workload, so the diff has a spread to judge by; its sub-scores
 * are the mean over the runs.  The "redis-benchmark ..." command line pasted
 * above the results is the workload's command; a test repeated under another
 * command line is refused, as those are different measurements.
 *
 * redis-benchmark redraws its progress ("SET: rps=... (overall: ...)") with
 * a carriage return, which a captured file keeps: each line is read as a
 * terminal shows it, the text after its last '\r'.  Formats from
 * redis/redis src/redis-benchmark.c (showLatencyReport, showThroughput).
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
#include "text.h"

/* The sub-scores a test may have, in the order they are written. */
enum sub { S_AVG, S_MIN, S_P50, S_P95, S_P99, S_MAX, S_REQUESTS, S_SECONDS, S_CLIENTS, S_PAYLOAD, S_COUNT };

static const struct {
	const char *name, *units;
} subs[S_COUNT] = {
	[S_AVG] = { "latency avg", "ms" },   [S_MIN] = { "latency min", "ms" },
	[S_P50] = { "latency p50", "ms" },   [S_P95] = { "latency p95", "ms" },
	[S_P99] = { "latency p99", "ms" },   [S_MAX] = { "latency max", "ms" },
	[S_REQUESTS] = { "requests", NULL }, [S_SECONDS] = { "elapsed", "s" },
	[S_CLIENTS] = { "parallel clients", NULL }, [S_PAYLOAD] = { "payload", "bytes" },
};

/* One run of one test: its rate and what else its lines gave (NAN: not given). */
struct result {
	double rps;
	double sub[S_COUNT];
};

struct test {
	char *title;
	char *command; /* the command line it was first run under; NULL none pasted */
	double *rps;
	size_t n, cap;
	double sum[S_COUNT];
	int nsum[S_COUNT];
};

struct parse {
	const char *name;
	struct test *tests;
	size_t ntests, cap;
	char *command;         /* the last "redis-benchmark ..." line pasted; owned */
	/* the full form's open block */
	bool in_block, want_summary;
	int block_line;
	char block_title[256];
	struct result block;
};

static void result_init(struct result *r)
{
	r->rps = NAN;
	for (int i = 0; i < S_COUNT; i++)
		r->sub[i] = NAN;
}

static struct test *find_test(struct parse *ps, const char *title)
{
	for (size_t i = 0; i < ps->ntests; i++)
		if (strcmp(ps->tests[i].title, title) == 0)
			return &ps->tests[i];
	return NULL;
}

static struct test *new_test(struct parse *ps, const char *title)
{
	struct test *t;

	if (ps->ntests == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 16;
		struct test *grown = realloc(ps->tests, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		ps->tests = grown;
		ps->cap = cap;
	}
	t = &ps->tests[ps->ntests];
	memset(t, 0, sizeof(*t));
	t->title = strdup(title);
	t->command = ps->command ? strdup(ps->command) : NULL;
	if (!t->title || (ps->command && !t->command)) {
		free(t->title);
		free(t->command);
		return NULL;
	}
	ps->ntests++;
	return t;
}

static bool same_command(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* One run of title: a sample of its test, made where it is the first. */
static int add_result(struct parse *ps, const char *title, const struct result *r, int lineno, struct ud_err *err)
{
	struct test *t = find_test(ps, title);

	if (t && !same_command(t->command, ps->command))
		return ud_fail(err, "%s:%d: '%s' again under another command line than its first run's: import each "
			       "command's output on its own", ps->name, lineno, title);
	if (!t && !(t = new_test(ps, title)))
		return ud_fail(err, "out of memory");
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4;
		double *grown = realloc(t->rps, cap * sizeof(*grown));

		if (!grown)
			return ud_fail(err, "out of memory");
		t->rps = grown;
		t->cap = cap;
	}
	t->rps[t->n++] = r->rps;
	for (int i = 0; i < S_COUNT; i++)
		if (!isnan(r->sub[i])) {
			t->sum[i] += r->sub[i];
			t->nsum[i]++;
		}
	return 0;
}

/* The rate at s, "N requests per second", checked: a ratio needs it above 0. */
static int take_rate(struct parse *ps, const char *s, const char **end, double *rps, int lineno, struct ud_err *err)
{
	struct ud_err why = UD_ERR_INIT;
	int r = imp_plain_number(s, end, rps, &why);

	if (r < 0)
		return ud_fail(err, "%s:%d: %s", ps->name, lineno, why.msg);
	if (r == 0 || strncmp(*end, " requests per second", 20) != 0)
		return ud_fail(err, "%s:%d: a rate needs 'N requests per second' (line cut short?)", ps->name, lineno);
	if (!(*rps > 0))
		return ud_fail(err, "%s:%d: 0 requests per second: nothing was measured to compare", ps->name, lineno);
	*end += 20;
	return 0;
}

/*
 * Where the rate of a -q result starts: "TITLE: <rate> requests per
 * second", the title anything (a command's own: "script load
 * redis.call(...)"), or, for a line cut short, a title in capitals (SET,
 * LRANGE_100 ...) and ": <digit>".  Prose ("Note: 5 runs") is neither; a
 * line that is the latter and then fails is a damaged result.  NULL for
 * none, and for the full form's "throughput summary:".
 */
static const char *quiet_value(const char *s)
{
	const char *rate = strstr(s, " requests per second"), *colon;

	if (strncmp(s, "throughput summary: ", 20) == 0)
		return NULL;
	if (rate) {
		const char *v = rate;

		while (v > s && (isdigit((unsigned char)v[-1]) || v[-1] == '.'))
			v--;
		if (v < rate && v - s >= 3 && v[-2] == ':' && v[-1] == ' ')
			return v;
	}
	colon = strstr(s, ": ");
	if (!colon || !isupper((unsigned char)s[0]))
		return NULL;
	for (const char *c = s; c < colon && *c != ' '; c++)
		if (!isupper((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_' && *c != '-')
			return NULL;
	return isdigit((unsigned char)colon[2]) ? colon + 2 : NULL;
}

/* "SET: 395256.91 requests per second[, p50=0.191 msec]" */
static int take_quiet(struct parse *ps, char *s, const char *value, int lineno, struct ud_err *err)
{
	struct result r;
	const char *end;
	char title[256];

	result_init(&r);
	if (take_rate(ps, value, &end, &r.rps, lineno, err) != 0)
		return -1;
	if (strncmp(end, ", p50=", 6) == 0) {
		struct ud_err why = UD_ERR_INIT;
		int got = imp_plain_number(end + 6, &end, &r.sub[S_P50], &why);

		if (got <= 0 || strcmp(end, " msec") != 0)
			return ud_fail(err, "%s:%d: ', p50=' needs 'N msec' (line cut short?)", ps->name, lineno);
	} else if (*end) {
		return ud_fail(err, "%s:%d: unexpected '%s' after the rate", ps->name, lineno, end);
	}
	snprintf(title, sizeof(title), "%.*s", (int)(value - 2 - s), s);
	return add_result(ps, title, &r, lineno, err);
}

/* The open block, ended (by the next one, a command line, a -q result or the end). */
static int close_block(struct parse *ps, struct ud_err *err)
{
	if (!ps->in_block)
		return 0;
	ps->in_block = false;
	if (isnan(ps->block.rps))
		return ud_fail(err, "%s:%d: '====== %s ======' has no 'requests per second' line (output cut short?)",
			       ps->name, ps->block_line, ps->block_title);
	if (ps->want_summary)
		return ud_fail(err, "%s:%d: the latency summary of '%s' has no values (output cut short?)", ps->name,
			       ps->block_line, ps->block_title);
	return add_result(ps, ps->block_title, &ps->block, ps->block_line, err);
}

/* "N label" at s into the block's sub-score, where s is one; 1 taken, 0 not, -1 err. */
static int take_count(struct parse *ps, const char *s, const char *label, enum sub which, int lineno,
		      struct ud_err *err)
{
	struct ud_err why = UD_ERR_INIT;
	const char *end;
	double v;
	int r = imp_plain_number(s, &end, &v, &why);

	if (r <= 0 || strncmp(end, label, strlen(label)) != 0)
		return r < 0 && strstr(s, label) ? ud_fail(err, "%s:%d: %s", ps->name, lineno, why.msg) : 0;
	ps->block.sub[which] = v;
	return 1;
}

/* "avg min p50 p95 p99 max" values under the latency summary's header. */
static int take_summary(struct parse *ps, const char *s, int lineno, struct ud_err *err)
{
	static const enum sub order[] = { S_AVG, S_MIN, S_P50, S_P95, S_P99, S_MAX };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		struct ud_err why = UD_ERR_INIT;
		int r = imp_plain_number(s, &s, &ps->block.sub[order[i]], &why);

		if (r < 0)
			return ud_fail(err, "%s:%d: %s", ps->name, lineno, why.msg);
		if (r == 0)
			return ud_fail(err, "%s:%d: the latency summary needs 6 values (avg min p50 p95 p99 max)",
				       ps->name, lineno);
		while (*s == ' ')
			s++;
	}
	if (*s)
		return ud_fail(err, "%s:%d: unexpected '%s' after the latency summary", ps->name, lineno, s);
	ps->want_summary = false;
	return close_block(ps, err);
}

/* A line inside a "======" block. */
static int take_block_line(struct parse *ps, const char *s, int lineno, struct ud_err *err)
{
	const char *end;
	int r;

	if (ps->want_summary && isdigit((unsigned char)s[0]))
		return take_summary(ps, s, lineno, err);
	if (strncmp(s, "avg ", 4) == 0 && strstr(s, "p50")) {
		ps->want_summary = true;
		return 0;
	}
	if (strncmp(s, "throughput summary: ", 20) == 0)
		return take_rate(ps, s + 20, &end, &ps->block.rps, lineno, err);
	/* before 6.2 the rate is a line of its own, and ends the block */
	if (isdigit((unsigned char)s[0]) && strstr(s, "requests per second")) {
		if (take_rate(ps, s, &end, &ps->block.rps, lineno, err) != 0)
			return -1;
		return close_block(ps, err);
	}
	if (strstr(s, " requests completed in ")) {
		if (take_count(ps, s, " requests completed in ", S_REQUESTS, lineno, err) <= 0 ||
		    take_count(ps, strstr(s, " in ") + 4, " seconds", S_SECONDS, lineno, err) <= 0)
			return ud_fail(err, "%s:%d: 'N requests completed in S seconds' expected (line cut short?)",
				       ps->name, lineno);
		return 0;
	}
	if ((r = take_count(ps, s, " parallel clients", S_CLIENTS, lineno, err)) != 0)
		return r < 0 ? -1 : 0;
	r = take_count(ps, s, " bytes payload", S_PAYLOAD, lineno, err);
	return r < 0 ? -1 : 0;
}

static int open_block(struct parse *ps, const char *s, int lineno, struct ud_err *err)
{
	size_t n = strlen(s);

	if (close_block(ps, err) != 0)
		return -1;
	/* "====== SET ======" */
	if (n < 15 || strcmp(s + n - 7, " ======") != 0)
		return ud_fail(err, "%s:%d: a block header needs '====== TEST ======' (line cut short?)", ps->name, lineno);
	snprintf(ps->block_title, sizeof(ps->block_title), "%.*s", (int)(n - 14), s + 7);
	ps->in_block = true;
	ps->want_summary = false;
	ps->block_line = lineno;
	result_init(&ps->block);
	return 0;
}

static int take_command(struct parse *ps, const char *at, struct ud_err *err)
{
	/* up to the shell's next word of its own ("; done", "| tee", "> out"): those are not the benchmark's */
	char *copy = strndup(at, strcspn(at, ";|&>"));

	if (!copy)
		return ud_fail(err, "out of memory");
	ud_trim(copy);
	free(ps->command);
	ps->command = copy;
	return 0;
}

static int take_line(struct parse *ps, char *s, int lineno, struct ud_err *err)
{
	const char *value, *cmd;

	if (strncmp(s, "====== ", 7) == 0)
		return open_block(ps, s, lineno, err);
	/* progress, redrawn in place: never a result */
	if (strstr(s, ": rps=") || strncmp(s, "clients: ", 9) == 0)
		return 0;
	if ((value = quiet_value(s)) != NULL) {
		if (close_block(ps, err) != 0)
			return -1;
		return take_quiet(ps, s, value, lineno, err);
	}
	if ((cmd = strstr(s, "redis-benchmark")) != NULL && (cmd == s || cmd[-1] == ' ' || cmd[-1] == '/')) {
		if (close_block(ps, err) != 0)
			return -1;
		return take_command(ps, cmd, err);
	}
	return ps->in_block ? take_block_line(ps, s, lineno, err) : 0;
}

static int to_workloads(struct ud_profile *p, struct parse *ps, const struct ud_import_opts *o, struct ud_err *err)
{
	json_t *taken = imp_names_taken(p);
	int ret = taken ? 0 : ud_fail(err, "out of memory");

	for (size_t i = 0; ret == 0 && i < ps->ntests; i++) {
		const struct test *t = &ps->tests[i];
		char full[300];
		struct ud_workload *w;

		snprintf(full, sizeof(full), "%s-%s", o->workload ? o->workload : "redis", t->title);
		if (json_object_get(taken, full)) {
			ret = ud_fail(err, "%s: the profile already holds a workload '%s'", ps->name, full);
			break;
		}
		w = ud_profile_add_workload(p, full);
		if (!w || imp_name_take(taken, full) != 0 || !(w->units = strdup("requests/s")) ||
		    ud_score_set_samples(&w->score, t->rps, t->n) != 0 ||
		    (t->command && !(w->command = strdup(t->command)))) {
			ret = ud_fail(err, "out of memory");
			break;
		}
		w->higher_is_better = 1;
		for (int k = 0; k < S_COUNT && ret == 0; k++)
			if (t->nsum[k] && ud_workload_add_subscore(w, subs[k].name, t->sum[k] / t->nsum[k], subs[k].units))
				ret = ud_fail(err, "out of memory");
	}
	json_decref(taken);
	return ret;
}

static void parse_free(struct parse *ps)
{
	for (size_t i = 0; i < ps->ntests; i++) {
		free(ps->tests[i].title);
		free(ps->tests[i].command);
		free(ps->tests[i].rps);
	}
	free(ps->tests);
	free(ps->command);
}

int imp_redis(struct ud_profile *p, const char *text, size_t len, const char *name, const struct ud_import_opts *o,
	      struct ud_err *err)
{
	struct parse ps = { .name = name };
	struct lines l;
	char *line;
	int ret = 0;

	if (o->nscores)
		return ud_fail(err, "%s: --score gives a perf paste its score; redis-benchmark's are its rates", name);
	imp_lines_init(&l, text, len);
	while (ret == 0 && (line = imp_lines_next(&l)) != NULL) {
		char *cr = strrchr(line, '\r'), *s = ud_trim(cr ? cr + 1 : line);

		if (*s)
			ret = take_line(&ps, s, l.lineno, err);
	}
	if (ret == 0)
		ret = close_block(&ps, err);
	if (ret == 0 && ps.ntests == 0)
		ret = ud_fail(err, "%s: no redis-benchmark results ('TEST: N requests per second') found", name);
	if (ret == 0)
		ret = to_workloads(p, &ps, o, err);
	imp_lines_free(&l);
	parse_free(&ps);
	return ret;
}

bool imp_redis_detect(const char *text, size_t len)
{
	struct lines l;
	char *line;
	bool found = false;

	/* a full block cut before its rate is still one, for the parser to refuse by line */
	if (memmem(text, len, "====== ", 7) && memmem(text, len, " requests completed in ", 23))
		return true;
	if (!memmem(text, len, "requests per second", 19))
		return false;
	imp_lines_init(&l, text, len);
	while (!found && (line = imp_lines_next(&l)) != NULL) {
		char *cr = strrchr(line, '\r'), *s = ud_trim(cr ? cr + 1 : line);
		const char *v = quiet_value(s);

		found = (v && strstr(v, " requests per second")) || strncmp(s, "throughput summary: ", 20) == 0;
	}
	imp_lines_free(&l);
	return found;
}
