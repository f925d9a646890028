/*
 * import_unixbench.c - UnixBench result logs (`Run` output): every test of
 * every run (1 copy, N copies) becomes a score-only workload whose score is
 * its index, with the raw result and baseline as sub-scores; the overall
 * index score is a workload too.  The log's own host lines (System:, OS:)
 * fill the profile's hostname and kernel where they are unknown.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_block.h"
#include "import_lines.h"
#include "import_number.h"
#include "import_parsers.h"
#include "import_warnings.h"
#include "text.h"

#define MAX_TESTS 64

struct result {
	char name[128];
	double value;
	char units[16];
	int samples;           /* the "N samples" UnixBench averaged, which it prints without their spread; 0 unknown */
	bool indexed;          /* its line in the index table was read */
};

struct run {
	int copies;
	struct result results[MAX_TESTS]; /* the "NAME VALUE UNITS (T s, N samples)" lines */
	int nresults;
	bool in_index;
	bool scored;           /* the "System Benchmarks Index Score" line was read: the table is whole */
	json_t *taken;         /* the profile's workload names (imp_names_taken()), kept across runs */
};

/* The last whitespace-separated token of s[0..*len) as a number; shortens *len. */
static bool last_number(const char *s, size_t *len, double *v)
{
	size_t end = *len, start;
	char tok[64];

	while (end && isspace((unsigned char)s[end - 1]))
		end--;
	start = end;
	while (start && !isspace((unsigned char)s[start - 1]))
		start--;
	if (start == end || end - start >= sizeof(tok))
		return false;
	snprintf(tok, sizeof(tok), "%.*s", (int)(end - start), s + start);
	if (imp_parse_number_str(tok, 0, v, NULL) != 0)
		return false;
	*len = start;
	return true;
}

static void copies_label(int copies, char *buf, size_t len)
{
	snprintf(buf, len, "(%d cop%s)", copies, copies == 1 ? "y" : "ies");
}

static int add_workload(struct ud_profile *p, struct run *r, const char *test, double index,
			double baseline, double result, struct ud_err *err, const char *name, int lineno)
{
	char full[200], label[32];
	struct ud_workload *w;
	const char *units = NULL;
	int samples = 0;

	copies_label(r->copies, label, sizeof(label));
	snprintf(full, sizeof(full), "%s %s", test, label);
	if (json_object_get(r->taken, full))
		return ud_fail(err, "%s:%d: '%s' appears twice", name, lineno, full);
	w = ud_profile_add_workload(p, full);
	if (!w || imp_name_take(r->taken, full) != 0)
		return ud_fail(err, "out of memory");
	for (int i = 0; i < r->nresults; i++) {
		if (strcmp(r->results[i].name, test) == 0) {
			units = r->results[i].units;
			samples = r->results[i].samples;
			r->results[i].indexed = true;
		}
	}
	w->higher_is_better = 1;
	w->units = strdup(isnan(index) ? (units ? units : "") : "index");
	ud_score_set_samples(&w->score, isnan(index) ? &result : &index, 1);
	/* the runs behind the mean, whose spread the log does not give: the diff says so rather than "one run" */
	if (samples >= 2)
		w->score.runs = samples;
	if (!isnan(index)) {
		ud_workload_add_subscore(w, "result", result, units);
		ud_workload_add_subscore(w, "baseline", baseline, units);
	}
	return 0;
}

/* A fact the log gives where nothing better (--host) did; out of memory leaves it unknown. */
static void set_host_string(char **field, const char *value)
{
	if (!*field)
		ud_host_set_string(field, value);
}

/* "OS: GNU/Linux -- 5.15.0-1028-aws -- #32-Ubuntu ..." and "System: host: GNU/Linux" */
static void take_host_line(struct ud_profile *p, const char *s)
{
	char buf[256];

	if (strncmp(s, "OS:", 3) == 0) {
		const char *k = strstr(s, "--");

		if (k) {
			k += 2;
			while (*k == ' ')
				k++;
			snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(k, " "), k);
			if (*buf)
				set_host_string(&p->host->kernel, buf);
		}
	} else if (strncmp(s, "System:", 7) == 0) {
		const char *h = s + 7;

		while (*h == ' ')
			h++;
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(h, ": "), h);
		if (*buf)
			set_host_string(&p->host->hostname, buf);
	}
}

/* "Dhrystone 2 using register variables 49993610.6 lps (10.0 s, 7 samples)" */
static void take_result(struct run *r, const char *s)
{
	const char *paren = strrchr(s, '(');
	char buf[256], *head, *units;
	size_t len;
	struct result *res;

	if (!paren || !strstr(paren, "samples") || r->nresults == MAX_TESTS)
		return;
	snprintf(buf, sizeof(buf), "%.*s", (int)(paren - s), s);
	head = ud_trim(buf);
	units = strrchr(head, ' ');
	if (!units)
		return;
	*units++ = '\0';
	res = &r->results[r->nresults];
	len = strlen(head);
	if (!last_number(head, &len, &res->value))
		return;
	head[len] = '\0';
	head = ud_trim(head);
	snprintf(res->name, sizeof(res->name), "%s", head);
	snprintf(res->units, sizeof(res->units), "%s", units);
	if (sscanf(paren, "(%*[^,], %d samples", &res->samples) != 1 || res->samples < 0)
		res->samples = 0;
	r->nresults++;
}

/*
 * A run whose index table never reached its score line was cut short (a
 * paste or a log truncated mid-table): what it holds is kept, the profile
 * is marked incomplete and the tests without an index line are named.
 */
static int finish_run(struct ud_profile *p, const struct run *r, const char *name, int lineno,
		      struct ud_import_warnings *warn)
{
	char missing[1024] = "", label[32];
	size_t used = 0;

	if (r->scored || (r->nresults == 0 && !r->in_index))
		return 0;
	p->incomplete = 1;
	for (int i = 0; i < r->nresults; i++)
		if (!r->results[i].indexed && used < sizeof(missing))
			used += (size_t)snprintf(missing + used, sizeof(missing) - used, "%s%s", used ? ", " : "",
						 r->results[i].name);
	if (used < sizeof(missing))
		snprintf(missing + used, sizeof(missing) - used, "%sSystem Benchmarks Index Score", used ? ", " : "");
	copies_label(r->copies, label, sizeof(label));
	return imp_warn(warn, "%s:%d: the UnixBench index table %s ends early (log cut short?); "
			   "profile marked incomplete; missing: %s", name, lineno, label, missing);
}

static int indexed_rows(const struct run *r)
{
	int n = 0;

	for (int i = 0; i < r->nresults; i++)
		n += r->results[i].indexed;
	return n;
}

static bool rest_blank(const struct lines *l)
{
	for (const char *c = l->cur; c < l->end; c++)
		if (!isspace((unsigned char)*c))
			return false;
	return true;
}

/* "NAME BASELINE RESULT INDEX", columns flattened or not.  1 when the log's last line is cut inside it. */
static int take_index_line(struct ud_profile *p, struct run *r, char *s, const struct lines *l, const char *name,
			   struct ud_err *err)
{
	size_t n = strlen(s);
	double index, result, baseline;

	if (!last_number(s, &n, &index) || !last_number(s, &n, &result) || !last_number(s, &n, &baseline)) {
		/* A half line at the very end of a table already begun is where the log was cut. */
		if (rest_blank(l) && indexed_rows(r) > 0)
			return 1;
		return ud_fail(err, "%s:%d: an index line needs BASELINE RESULT INDEX (truncated?)", name, l->lineno);
	}
	s[n] = '\0';
	s = ud_trim(s);
	return add_workload(p, r, s, index, baseline, result, err, name, l->lineno);
}

static int take_score_line(struct ud_profile *p, struct run *r, const char *s, int lineno, const char *name,
			   struct ud_err *err)
{
	size_t n = strlen(s);
	double score;

	if (!last_number(s, &n, &score))
		return ud_fail(err, "%s:%d: an index score line without a number", name, lineno);
	r->in_index = false;
	r->scored = true;
	if (add_workload(p, r, "System Benchmarks Index Score", score, NAN, NAN, err, name, lineno) != 0)
		return -1;
	/* The geometric mean of the index lines above it: a summary, not another measurement. */
	p->workloads[p->nworkloads - 1].composite = true;
	return 0;
}

static void new_run(struct run *r)
{
	json_t *taken = r->taken;

	memset(r, 0, sizeof(*r));
	r->copies = 1;
	r->taken = taken;
}

/* One line of the log; 1 when it ends the log early (a cut index line). */
static int take_line(struct ud_profile *p, struct run *r, char *s, const struct lines *l, const char *name,
		     struct ud_import_warnings *warn, struct ud_err *err)
{
	const char *copy;

	take_host_line(p, s);
	if (strncmp(s, "Benchmark Run:", 14) == 0) {
		if (finish_run(p, r, name, l->lineno - 1, warn) != 0)
			return ud_fail(err, "out of memory");
		new_run(r);
	} else if ((copy = strstr(s, "running ")) && strstr(s, "parallel cop")) {
		char *end;
		long copies;

		errno = 0;
		copies = strtol(copy + 8, &end, 10);
		/* A count that does not fit an int would wrap into another run's name: refused. */
		if (errno || end == copy + 8 || copies < 1 || copies > INT_MAX)
			return ud_fail(err, "%s:%d: the number of parallel copies must be from 1 to %d", name, l->lineno,
				       INT_MAX);
		r->copies = (int)copies;
	} else if (strncmp(s, "System Benchmarks Index Values", 30) == 0) {
		r->in_index = true;
	} else if (strncmp(s, "System Benchmarks Index Score", 29) == 0) {
		return take_score_line(p, r, s, l->lineno, name, err);
	} else if (r->in_index && s[0] != '=') {
		return take_index_line(p, r, s, l, name, err);
	} else if (!r->in_index) {
		take_result(r, s);
	}
	return 0;
}

int imp_unixbench(struct ud_profile *p, const char *text, size_t len, const char *name,
		     struct ud_import_warnings *warn, struct ud_err *err)
{
	struct run *r = calloc(1, sizeof(*r));
	size_t before = p->nworkloads;
	struct lines l;
	char *line;
	int ret = 0;

	if (!r || !(r->taken = imp_names_taken(p))) {
		free(r);
		return ud_fail(err, "out of memory");
	}
	new_run(r);
	imp_lines_init(&l, text, len);
	while (ret == 0 && (line = imp_lines_next(&l)) != NULL) {
		char *s = ud_trim(line);

		if (*s)
			ret = take_line(p, r, s, &l, name, warn, err);
	}
	if (ret >= 0 && p->nworkloads == before)
		ret = ud_fail(err, "%s: no UnixBench index lines found", name);
	else if (ret >= 0 && finish_run(p, r, name, l.lineno, warn) != 0)
		ret = ud_fail(err, "out of memory");
	imp_lines_free(&l);
	json_decref(r->taken);
	free(r);
	return ret < 0 ? -1 : 0;
}
