/*
 * import_unixbench.c - UnixBench result logs (`Run` output): every test of
 * every run (1 copy, N copies) becomes a score-only workload whose score is
 * its index, with the raw result and baseline as sub-scores; the overall
 * index score is a workload too.  The log's own host lines (System:, OS:)
 * fill the profile's hostname and kernel where they are unknown.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_lines.h"
#include "import_number.h"
#include "import_parsers.h"
#include "text.h"

#define MAX_TESTS 64

struct result {
	char name[128];
	double value;
	char units[16];
};

struct run {
	int copies;
	struct result results[MAX_TESTS]; /* the "NAME VALUE UNITS (T s, N samples)" lines */
	int nresults;
	bool in_index;
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
	if (parse_number_str(tok, 0, v, NULL) != 0)
		return false;
	*len = start;
	return true;
}

static void copies_label(int copies, char *buf, size_t len)
{
	snprintf(buf, len, "(%d cop%s)", copies, copies == 1 ? "y" : "ies");
}

static int add_workload(struct ud_profile *p, const struct run *r, const char *test, double index,
			double baseline, double result, struct ud_err *err, const char *name, int lineno)
{
	char full[200], label[32];
	struct ud_workload *w;
	const char *units = NULL;

	copies_label(r->copies, label, sizeof(label));
	snprintf(full, sizeof(full), "%s %s", test, label);
	for (size_t i = 0; i < p->nworkloads; i++)
		if (strcmp(p->workloads[i].name, full) == 0)
			return ud_fail(err, "%s:%d: '%s' appears twice", name, lineno, full);
	w = ud_profile_add_workload(p, full);
	if (!w)
		return ud_fail(err, "out of memory");
	for (int i = 0; i < r->nresults; i++)
		if (strcmp(r->results[i].name, test) == 0)
			units = r->results[i].units;
	w->higher_is_better = 1;
	w->units = strdup(isnan(index) ? (units ? units : "") : "index");
	ud_score_set_samples(&w->score, isnan(index) ? &result : &index, 1);
	if (!isnan(index)) {
		ud_workload_add_subscore(w, "result", result, units);
		ud_workload_add_subscore(w, "baseline", baseline, units);
	}
	return 0;
}

static void set_host_string(struct ud_profile *p, const char *key, const char *value)
{
	if (json_is_null(json_object_get(p->host, key)) || !json_object_get(p->host, key))
		json_object_set_new(p->host, key, json_string(value));
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
				set_host_string(p, "kernel", buf);
		}
	} else if (strncmp(s, "System:", 7) == 0) {
		const char *h = s + 7;

		while (*h == ' ')
			h++;
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(h, ": "), h);
		if (*buf)
			set_host_string(p, "hostname", buf);
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
	r->nresults++;
}

int import_unixbench(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err)
{
	struct run *r = calloc(1, sizeof(*r));
	size_t before = p->nworkloads;
	struct lines l;
	char *line;
	int ret = 0;

	(void)o;
	if (!r)
		return ud_fail(err, "out of memory");
	r->copies = 1;
	lines_init(&l, text, len);
	while (ret == 0 && (line = lines_next(&l)) != NULL) {
		char *s = ud_trim(line);
		const char *copy;

		if (!*s)
			continue;
		take_host_line(p, s);
		if (strncmp(s, "Benchmark Run:", 14) == 0) {
			memset(r, 0, sizeof(*r));
			r->copies = 1;
		} else if ((copy = strstr(s, "running ")) && strstr(s, "parallel cop")) {
			r->copies = atoi(copy + 8);
		} else if (strncmp(s, "System Benchmarks Index Values", 30) == 0) {
			r->in_index = true;
		} else if (strncmp(s, "System Benchmarks Index Score", 29) == 0) {
			size_t n = strlen(s);
			double score;

			if (!last_number(s, &n, &score)) {
				ret = ud_fail(err, "%s:%d: an index score line without a number", name, l.lineno);
				break;
			}
			ret = add_workload(p, r, "System Benchmarks Index Score", score, NAN, NAN, err, name, l.lineno);
			/* The geometric mean of the index lines above it: a summary, not another measurement. */
			if (ret == 0)
				p->workloads[p->nworkloads - 1].composite = true;
			r->in_index = false;
		} else if (r->in_index && s[0] != '=') {
			/* "NAME BASELINE RESULT INDEX", columns flattened or not */
			size_t n = strlen(s);
			double index, result, baseline;

			if (!last_number(s, &n, &index) || !last_number(s, &n, &result) || !last_number(s, &n, &baseline)) {
				ret = ud_fail(err, "%s:%d: an index line needs BASELINE RESULT INDEX (truncated?)", name,
					      l.lineno);
				break;
			}
			s[n] = '\0';
			s = ud_trim(s);
			ret = add_workload(p, r, s, index, baseline, result, err, name, l.lineno);
		} else if (!r->in_index) {
			take_result(r, s);
		}
	}
	lines_free(&l);
	free(r);
	if (ret == 0 && p->nworkloads == before)
		ret = ud_fail(err, "%s: no UnixBench index lines found", name);
	return ret;
}
