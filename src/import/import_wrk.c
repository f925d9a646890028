/*
 * import_wrk.c - wrk's report: a run ("Running 8s test @ URL") becomes one
 * score-only workload, "wrk" or --workload's name, scored by its
 * "Requests/sec:", higher better.  Sub-scores: "Transfer/sec:" in bytes per
 * second, the Thread Stats table (latency avg, stdev, max in ms; requests a
 * second of one thread, avg, stdev, max), --latency's distribution (latency
 * p50, p75, p90, p99 in ms), the requests and seconds of "N requests in Ts",
 * and the errors it counted (socket errors, non-2xx or 3xx responses), which
 * say whether the rate measured serving at all.
 *
 * Several runs in one file against the same URL with the same threads and
 * connections (a loop of runs) are samples of the one workload; a run
 * against another target is refused, as it is another measurement.  wrk's
 * units are its own (src/units.c of github.com/wg/wrk): times us, ms, s, m,
 * h; counts k, M, G (x1000); bytes K, M, G, T, P (x1024) before "B".
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

enum sub {
	S_LAT_AVG, S_LAT_STDEV, S_LAT_MAX, S_RPS_AVG, S_RPS_STDEV, S_RPS_MAX, S_P50, S_P75, S_P90, S_P99,
	S_TRANSFER, S_REQUESTS, S_SECONDS, S_SOCKET_ERRORS, S_NON_2XX, S_COUNT
};

static const struct {
	const char *name, *units;
} subs[S_COUNT] = {
	[S_LAT_AVG] = { "latency avg", "ms" }, [S_LAT_STDEV] = { "latency stdev", "ms" },
	[S_LAT_MAX] = { "latency max", "ms" }, [S_RPS_AVG] = { "thread requests/s avg", "requests/s" },
	[S_RPS_STDEV] = { "thread requests/s stdev", "requests/s" },
	[S_RPS_MAX] = { "thread requests/s max", "requests/s" },
	[S_P50] = { "latency p50", "ms" }, [S_P75] = { "latency p75", "ms" },
	[S_P90] = { "latency p90", "ms" }, [S_P99] = { "latency p99", "ms" },
	[S_TRANSFER] = { "transfer", "bytes/s" }, [S_REQUESTS] = { "requests", NULL },
	[S_SECONDS] = { "elapsed", "s" }, [S_SOCKET_ERRORS] = { "socket errors", NULL },
	[S_NON_2XX] = { "non-2xx or 3xx responses", NULL },
};

/* Runs of one target in a file: more is a file of many targets, or damaged. */
#define WRK_MAX_RUNS 10000

struct parse {
	const char *name;
	char target[512];      /* "8s test @ URL", threads and connections of the first run */
	char run_target[512];  /* of the run being read */
	bool in_run, in_distribution;
	int run_line;
	double rps, sub[S_COUNT];   /* the run being read; NAN: not given */
	double samples[WRK_MAX_RUNS];
	size_t n;
	double sum[S_COUNT];
	int nsum[S_COUNT];
};

struct unit {
	const char *suffix;
	double scale;
};

/* Longest suffix first: "ms" before "s", "KB" before "B". */
static const struct unit time_ms[] = { { "us", 1e-3 }, { "ms", 1 }, { "s", 1e3 }, { "m", 60e3 }, { "h", 3600e3 }, { NULL, 0 } };
static const struct unit metric[] = { { "k", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 }, { "P", 1e15 }, { "", 1 }, { NULL, 0 } };
static const struct unit bytes[] = { { "KB", 1024.0 }, { "MB", 1048576.0 }, { "GB", 1073741824.0 },
				    { "TB", 1099511627776.0 }, { "PB", 1125899906842624.0 }, { "B", 1 }, { NULL, 0 } };

/*
 * The number with one of units' suffixes at *s, scaled, into *v; *s moves
 * past it and the blanks after it.  -1 with err naming the line.
 */
static int take_value(struct parse *ps, const char **s, const struct unit *units, double *v, int lineno,
		      struct ud_err *err)
{
	struct ud_err why = UD_ERR_INIT;
	const char *end;
	int r;

	while (**s == ' ')
		(*s)++;
	r = imp_plain_number(*s, &end, v, &why);
	if (r < 0)
		return ud_fail(err, "%s:%d: %s", ps->name, lineno, why.msg);
	for (const struct unit *u = units; r > 0 && u->suffix; u++) {
		size_t k = strlen(u->suffix);

		if (strncmp(end, u->suffix, k) == 0 && (end[k] == '\0' || end[k] == ' ' || end[k] == ',')) {
			*v *= u->scale;
			for (*s = end + k; **s == ' ';)
				(*s)++;
			return 0;
		}
	}
	return ud_fail(err, "%s:%d: a value with wrk's units expected at '%s' (line cut short?)", ps->name, lineno, *s);
}

/* "Latency   368.31us  327.11us   8.11ms   92.48%" and "Req/Sec   131.79k     6.77k  147.18k    77.50%" */
static int take_stats(struct parse *ps, const char *s, const struct unit *units, enum sub first, int lineno,
		      struct ud_err *err)
{
	for (int i = 0; i < 3; i++)
		if (take_value(ps, &s, units, &ps->sub[first + i], lineno, err) != 0)
			return -1;
	if (!isdigit((unsigned char)*s) || s[strlen(s) - 1] != '%')
		return ud_fail(err, "%s:%d: the Thread Stats row needs Avg, Stdev, Max and +/- Stdev (line cut short?)",
			       ps->name, lineno);
	return 0;
}

/*
 * "50%  295.00us" (wrk2 prints "50.000%" and more rows): the rows that have
 * a sub-score are kept, the others (99.9%, 100%) read and left.
 */
static int take_percentile(struct parse *ps, const char *s, int lineno, struct ud_err *err)
{
	static const struct {
		double pct;
		enum sub which;
	} known[] = { { 50, S_P50 }, { 75, S_P75 }, { 90, S_P90 }, { 99, S_P99 } };
	struct ud_err why = UD_ERR_INIT;
	double pct, v;
	const char *end;

	if (imp_plain_number(s, &end, &pct, &why) <= 0 || *end != '%' || end[1] != ' ')
		return ud_fail(err, "%s:%d: a latency percentile needs 'P%% TIME' (line cut short?)", ps->name, lineno);
	s = end + 1;
	if (take_value(ps, &s, time_ms, &v, lineno, err) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (pct == known[i].pct)
			ps->sub[known[i].which] = v;
	return 0;
}

/* The run being read, as a sample, where it reached its rate. */
static int end_run(struct parse *ps, struct ud_err *err)
{
	if (!ps->in_run)
		return 0;
	ps->in_run = ps->in_distribution = false;
	if (isnan(ps->rps))
		return ud_fail(err, "%s:%d: the wrk run has no 'Requests/sec:' line (output cut short?)", ps->name,
			       ps->run_line);
	if (ps->n == 0)
		snprintf(ps->target, sizeof(ps->target), "%s", ps->run_target);
	else if (strcmp(ps->target, ps->run_target) != 0)
		return ud_fail(err, "%s:%d: a wrk run of another target than the first ('%s', not '%s'): import each "
			       "target's output on its own", ps->name, ps->run_line, ps->run_target, ps->target);
	if (ps->n == WRK_MAX_RUNS)
		return ud_fail(err, "%s:%d: more than %d wrk runs in one file", ps->name, ps->run_line, WRK_MAX_RUNS);
	ps->samples[ps->n++] = ps->rps;
	for (int i = 0; i < S_COUNT; i++)
		if (!isnan(ps->sub[i])) {
			ps->sum[i] += ps->sub[i];
			ps->nsum[i]++;
		}
	return 0;
}

static int start_run(struct parse *ps, const char *s, int lineno, struct ud_err *err)
{
	if (end_run(ps, err) != 0)
		return -1;
	ps->in_run = true;
	ps->run_line = lineno;
	ps->rps = NAN;
	for (int i = 0; i < S_COUNT; i++)
		ps->sub[i] = NAN;
	snprintf(ps->run_target, sizeof(ps->run_target), "%s", s + 8);
	return 0;
}

/* "4196014 requests in 8.06s, 352.14MB read" */
static int take_requests(struct parse *ps, const char *s, int lineno, struct ud_err *err)
{
	static const struct unit seconds[] = { { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 }, { "m", 60 }, { "h", 3600 }, { NULL, 0 } };
	static const struct unit none[] = { { "", 1 }, { NULL, 0 } };
	const char *in = strstr(s, " requests in ");

	if (take_value(ps, &s, none, &ps->sub[S_REQUESTS], lineno, err) != 0)
		return -1;
	s = in + 13;
	return take_value(ps, &s, seconds, &ps->sub[S_SECONDS], lineno, err);
}

/* "Socket errors: connect 0, read 31, write 0, timeout 0": their sum */
static int take_socket_errors(struct parse *ps, const char *s, int lineno, struct ud_err *err)
{
	static const char *const kinds[] = { "connect ", "read ", "write ", "timeout " };
	double total = 0;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const char *at = strstr(s, kinds[i]);
		struct ud_err why = UD_ERR_INIT;
		const char *end;
		double v;

		if (!at || imp_plain_number(at + strlen(kinds[i]), &end, &v, &why) <= 0)
			return ud_fail(err, "%s:%d: socket errors need connect, read, write and timeout counts (line cut "
				       "short?)", ps->name, lineno);
		total += v;
	}
	ps->sub[S_SOCKET_ERRORS] = total;
	return 0;
}

static int take_rate(struct parse *ps, const char *s, int lineno, struct ud_err *err)
{
	static const struct unit none[] = { { "", 1 }, { NULL, 0 } };

	if (take_value(ps, &s, none, &ps->rps, lineno, err) != 0)
		return -1;
	if (!(ps->rps > 0))
		return ud_fail(err, "%s:%d: 0 requests a second: nothing was measured to compare", ps->name, lineno);
	return 0;
}

static int take_run_line(struct parse *ps, const char *s, int lineno, struct ud_err *err)
{
	static const struct unit none[] = { { "", 1 }, { NULL, 0 } };

	/* the distribution's rows, "50%  295.00us", until the first that is not one ("N requests in") */
	if (ps->in_distribution && isdigit((unsigned char)s[0]) && s[strspn(s, "0123456789.")] == '%')
		return take_percentile(ps, s, lineno, err);
	ps->in_distribution = false;
	if (strncmp(s, "Latency Distribution", 20) == 0)
		ps->in_distribution = true;
	else if (strncmp(s, "Latency ", 8) == 0)
		return take_stats(ps, s + 8, time_ms, S_LAT_AVG, lineno, err);
	else if (strncmp(s, "Req/Sec ", 8) == 0)
		return take_stats(ps, s + 8, metric, S_RPS_AVG, lineno, err);
	else if (strstr(s, " requests in ") && isdigit((unsigned char)s[0]))
		return take_requests(ps, s, lineno, err);
	else if (strncmp(s, "Socket errors:", 14) == 0)
		return take_socket_errors(ps, s, lineno, err);
	else if (strncmp(s, "Non-2xx or 3xx responses:", 25) == 0) {
		s += 25;
		return take_value(ps, &s, none, &ps->sub[S_NON_2XX], lineno, err);
	} else if (strncmp(s, "Requests/sec:", 13) == 0)
		return take_rate(ps, s + 13, lineno, err);
	else if (strncmp(s, "Transfer/sec:", 13) == 0) {
		s += 13;
		if (take_value(ps, &s, bytes, &ps->sub[S_TRANSFER], lineno, err) != 0)
			return -1;
		/* the report's last line */
		return end_run(ps, err);
	} else if (isdigit((unsigned char)s[0]) && strstr(s, " threads and ")) {
		size_t n = strlen(ps->run_target);

		snprintf(ps->run_target + n, sizeof(ps->run_target) - n, ", %s", s);
	}
	return 0;
}

static int to_workload(struct ud_profile *p, const struct parse *ps, const struct ud_import_opts *o,
		       struct ud_err *err)
{
	const char *name = o->workload ? o->workload : "wrk";
	json_t *taken = imp_names_taken(p);
	struct ud_workload *w = NULL;
	int ret = 0;

	if (!taken)
		return ud_fail(err, "out of memory");
	if (json_object_get(taken, name))
		ret = ud_fail(err, "%s: the profile already holds a workload '%s' (name this one with --workload)",
			      ps->name, name);
	else if (!(w = ud_profile_add_workload(p, name)) || !(w->units = strdup("requests/s")) ||
		 ud_score_set_samples(&w->score, ps->samples, ps->n) != 0 ||
		 !(w->command = malloc(strlen(ps->target) + 5)))
		ret = ud_fail(err, "out of memory");
	json_decref(taken);
	if (ret != 0)
		return ret;
	/* what wrk itself prints of how it was run: the nearest to its command line a report has */
	sprintf(w->command, "wrk %s", ps->target);
	w->higher_is_better = 1;
	for (int k = 0; k < S_COUNT; k++)
		if (ps->nsum[k] && ud_workload_add_subscore(w, subs[k].name, ps->sum[k] / ps->nsum[k], subs[k].units))
			return ud_fail(err, "out of memory");
	return 0;
}

int imp_wrk(struct ud_profile *p, const char *text, size_t len, const char *name, const struct ud_import_opts *o,
	    struct ud_err *err)
{
	struct parse *ps = calloc(1, sizeof(*ps));
	struct lines l;
	char *line;
	int ret = 0;

	if (!ps)
		return ud_fail(err, "out of memory");
	ps->name = name;
	if (o->nscores) {
		free(ps);
		return ud_fail(err, "%s: --score gives a perf paste its score; wrk's is its Requests/sec", name);
	}
	imp_lines_init(&l, text, len);
	while (ret == 0 && (line = imp_lines_next(&l)) != NULL) {
		char *s = ud_trim(line);

		if (strncmp(s, "Running ", 8) == 0 && strstr(s, " test @ "))
			ret = start_run(ps, s, l.lineno, err);
		else if (ps->in_run && *s)
			ret = take_run_line(ps, s, l.lineno, err);
	}
	if (ret == 0)
		ret = end_run(ps, err);
	if (ret == 0 && ps->n == 0)
		ret = ud_fail(err, "%s: no wrk run ('Running ... test @ URL' ... 'Requests/sec:') found", name);
	if (ret == 0)
		ret = to_workload(p, ps, o, err);
	imp_lines_free(&l);
	free(ps);
	return ret;
}

bool imp_wrk_detect(const char *text, size_t len)
{
	/* a report cut short is still one, for the parser to refuse by line */
	return memmem(text, len, "Running ", 8) && memmem(text, len, " test @ ", 8) &&
	       (memmem(text, len, "Requests/sec:", 13) || memmem(text, len, "Thread Stats", 12) ||
		memmem(text, len, "Transfer/sec:", 13) || memmem(text, len, "Latency Distribution", 20));
}
