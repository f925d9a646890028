/*
 * import_foreign.c - other vendors' metric summaries, each file one
 * workload (issue 38): Intel PerfSpect 1.x's metric summary
 * (metric_out.average.csv: "metrics,avg,p95,min,max", one "metric_<name>"
 * a row) and Arm topdown-tool's metrics CSV (--cpu-generate-csv metrics:
 * "time,group,stage,level,metric,value,units", one row a metric and
 * interval) and AMD uProf's AMDuProfPcm CSV report (-o FILE.csv: a line of
 * groups, "Core-58,,...,CCX-3,,", a line of metric names, then one row an
 * interval, a column a metric).
 *
 * These tools print metrics, ratios of events, not the events' counts, so
 * no counter can be made of them: a metric that is a ratio of two counter
 * classes the derived metrics know (SPEC §4: CPI is cycles over
 * instructions) is kept under that derived metric's name ("cpi",
 * "l1d_mpki", "branch_miss_rate"), scaled to its unit; a top-down level-1 or
 * level-2 bucket goes to the workload's top-down record; every other
 * metric is kept by the name the tool gave it.  All as perf_metrics, the
 * profile's place for metrics a source printed.
 *
 * Where the formats are documented: PerfSpect 1.x's perf-postprocess.py
 * (intel/PerfSpect at 112554d8, line 648 writes the five columns);
 * topdown-tool's README.CPU.md "Metrics CSV format" (Arm telemetry-solution
 * at 917257c7); AMDuProfPcm's is not documented, and is read as its real
 * output shows it.  Real samples: tests/data/foreign/README.md.
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "derived.h"
#include "import_block.h"
#include "import_lines.h"
#include "import_number.h"
#include "import_parsers.h"
#include "import_warnings.h"
#include "text.h"
#include "topdown.h"

/* The header lines, as the tools write them. */
#define PERFSPECT_HEADER "metrics,avg,p95,min,max"
#define TOPDOWN_TOOL_HEADER "time,group,stage,level,metric,value,units"
/* PerfSpect 1.x's metric rows: "metric_" and the name its metric file gives. */
#define PERFSPECT_PREFIX "metric_"
/*
 * Its top-down rows: "TMA_", two dots a level below the first
 * ("TMA_..Fetch_Latency(%)"); in the metric files for Cascade Lake and
 * before, "TMAM_" and level 1 only ("TMAM_Backend_bound(%)": the
 * similarity analyzer's CLX reference).
 */
static const char *const perfspect_tma[] = { "TMA_", "TMAM_" };
/* The fields of a topdown-tool row. */
#define TT_FIELDS 7
/* A metric name as long as these tools write them (PerfSpect's run to ~70 bytes), with room to spare. */
#define FOREIGN_NAME_MAX 256
/* The metrics one file holds: PerfSpect's largest summaries have ~200; a thousand is a damaged file. */
#define FOREIGN_MAX_METRICS 4096

/*
 * A metric that is a derived metric of SPEC §4, as the tool names it
 * (compared without case), and what its value is multiplied by to be in
 * the derived metric's unit.
 */
struct derived_name {
	const char *name;
	enum ud_metric metric;
	double scale;
};

/* PerfSpect's (1.x's names without "metric_"; 3.x names them the same). */
static const struct derived_name perfspect_names[] = {
	{ "CPI", UD_M_CPI, 1 },
	{ "IPC", UD_M_IPC, 1 },
	{ "CPU operating frequency (in GHz)", UD_M_GHZ, 1 },
	/* L1d misses (its data, RFO and prefetch misses) per instruction: x 1000 per kilo-instruction */
	{ "L1D MPI (includes data+rfo w/ prefetches)", UD_M_L1D_MPKI, 1000 },
	{ NULL, 0, 0 },
};

/*
 * topdown-tool's (its README's outputs name these; Arm's telemetry
 * specifications give the units): MPKI per 1,000 instructions, ratios per
 * access or branch, stalls in % of cycles.
 */
static const struct derived_name topdown_tool_names[] = {
	{ "Branch MPKI", UD_M_BRANCH_MPKI, 1 },
	{ "Branch Misprediction Ratio", UD_M_BRANCH_MISS_RATE, 1 },
	{ "L1D Cache MPKI", UD_M_L1D_MPKI, 1 },
	{ "L1D Cache Miss Ratio", UD_M_L1D_MISS_RATE, 1 },
	{ "Frontend Stalled Cycles", UD_M_FRONTEND_STALL_RATE, 0.01 },
	{ "Backend Stalled Cycles", UD_M_BACKEND_STALL_RATE, 0.01 },
	{ NULL, 0, 0 },
};

/*
 * AMDuProfPcm's (the names of its -m ipc,l1,l2,l3 report on one core, as
 * tests/data/foreign/uprof-pcm shows them): "Eff Freq" in MHz, "pti" per
 * thousand instructions, the misprediction ratio per retired branch.  A
 * line filled into the L1 data cache is a miss it served, so its fills per
 * thousand instructions are the L1d MPKI.
 */
static const struct derived_name uprof_names[] = {
	{ "IPC (Sys + User)", UD_M_IPC, 1 },
	{ "CPI (Sys + User)", UD_M_CPI, 1 },
	{ "Eff Freq", UD_M_GHZ, 0.001 },
	{ "Branch Misprediction Ratio", UD_M_BRANCH_MISS_RATE, 1 },
	{ "All DC Fills (pti)", UD_M_L1D_MPKI, 1 },
	{ NULL, 0, 0 },
};

/*
 * The metric names that make a line AMDuProfPcm's header: its report opens
 * with lines of its own (the sample's source cut 47 of them), so the header
 * is found by the names in it, not by its place.  Two of them are needed,
 * so that a line of prose naming one is not taken for it.
 */
static const char *const uprof_header_names[] = {
	"Utilization (%)", "Eff Freq", "IPC (Sys + User)", "CPI (Sys + User)", "Branch Misprediction Ratio",
	"IC Access (pti)", "IC Miss (pti)", "DC Access (pti)", "All DC Fills (pti)", "L2 Access (pti)",
	"L2 Miss (pti)", "L2 Hit (pti)", "L3 Access", "L3 Miss", "L3 Miss %", "Ave L3 Miss Latency",
};
/* The lines before the header that are looked through for it: the report's own (47 in the sample's source), with room. */
#define UPROF_SCAN_LINES 128

/* One metric of the file: its name as kept, and its values' sum over the rows (intervals) that gave one. */
struct fmetric {
	char name[FOREIGN_NAME_MAX];
	int bucket;          /* the top-down bucket it is, or -1 */
	double sum, scale;
	int n;               /* rows with a value */
	int rows;            /* rows, valued or not */
	char last_time[32];  /* the interval of its last row: a metric in two groups is one value */
};

struct fparse {
	const char *name;
	const char *tool;    /* "PerfSpect", "topdown-tool": for reasons */
	struct fmetric *m;
	size_t n, cap;
	struct ud_err *err;
};

/* A value field: a number as Python and Go print them ("3e-06", "-0.5"), empty or "nan" for none (NAN). */
static int field_value(const char *s, double *out, struct ud_err *err)
{
	struct decimal d;
	const char *end;
	int neg = *s == '-', r;

	if (!*s || strcmp(s, "nan") == 0 || strcmp(s, "NaN") == 0) {
		*out = NAN;
		return 0;
	}
	/* no grouping in these files: a lone '.' is always the decimal mark ("2.542" is not 2542) */
	r = imp_scan_decimal_as(s + neg, &end, &d, '.', err);
	if (r < 0)
		return -1;
	if (r == 0 || *end)
		return ud_fail(err, "'%s' is not a number", s);
	*out = (neg ? -1 : 1) * imp_decimal_value(d, 0);
	return 0;
}

/*
 * Splits line in place at commas into at most max fields, a field in
 * double quotes unquoted ("" a quote) as Python's csv module writes one
 * holding a comma (topdown-tool's unit "misses per 1,000 instructions");
 * the count, max + 1 when there are more, or -1 for an unclosed quote.
 */
static int split(char *line, char **f, int max)
{
	int n = 0;
	char *s = line;

	for (;;) {
		if (n > max)
			return n;
		f[n++] = s;
		if (*s == '"') {
			char *to = s;

			for (s++;; s++) {
				if (!*s)
					return -1;
				if (*s == '"' && s[1] != '"')
					break;
				s += *s == '"';
				*to++ = *s;
			}
			*to = '\0';
			s++;
			if (*s && *s != ',')
				return -1;
		} else
			s += strcspn(s, ",");
		if (!*s)
			return n;
		*s++ = '\0';
	}
}

static const struct derived_name *derived_named(const struct derived_name *t, const char *name)
{
	for (; t->name; t++)
		if (strcasecmp(t->name, name) == 0)
			return t;
	return NULL;
}

/*
 * The top-down bucket a name is ("Frontend Bound", "Fetch_Latency(%)"),
 * at level: its words lowercased and joined by '_', a "(%)" dropped; -1
 * when it is none, or one of another level (PerfSpect's "....L1_Bound").
 */
static int bucket_named(const char *name, int level)
{
	char norm[FOREIGN_NAME_MAX];
	size_t n = 0;
	int b;

	for (; *name && n + 1 < sizeof(norm); name++) {
		if (strcmp(name, "(%)") == 0)
			break;
		norm[n++] = *name == ' ' ? '_' : (char)tolower((unsigned char)*name);
	}
	norm[n] = '\0';
	b = ud_topdown_bucket_index(norm);
	return b >= 0 && ud_topdown_bucket_level(b) == level ? b : -1;
}

static struct fmetric *metric_of(struct fparse *fp, const char *name, int lineno)
{
	for (size_t i = 0; i < fp->n; i++)
		if (strcmp(fp->m[i].name, name) == 0)
			return &fp->m[i];
	if (fp->n == FOREIGN_MAX_METRICS) {
		ud_fail(fp->err, "%s:%d: more than %d metrics: not a %s summary", fp->name, lineno, FOREIGN_MAX_METRICS,
			fp->tool);
		return NULL;
	}
	if (fp->n == fp->cap) {
		size_t cap = fp->cap ? 2 * fp->cap : 64;
		struct fmetric *grown = realloc(fp->m, cap * sizeof(*grown));

		if (!grown) {
			ud_fail(fp->err, "out of memory");
			return NULL;
		}
		fp->m = grown;
		fp->cap = cap;
	}
	memset(&fp->m[fp->n], 0, sizeof(fp->m[0]));
	snprintf(fp->m[fp->n].name, sizeof(fp->m[0].name), "%s", name);
	fp->m[fp->n].bucket = -1;
	fp->m[fp->n].scale = 1;
	return &fp->m[fp->n++];
}

/*
 * One row's metric: named as kept (a derived metric's name, or the tool's),
 * its value added; a bucket >= 0 is a top-down bucket's value in percent.
 */
static int take(struct fparse *fp, const char *tool_name, const struct derived_name *table, int bucket,
		const char *value, const char *time, int lineno)
{
	const struct derived_name *d = bucket < 0 ? derived_named(table, tool_name) : NULL;
	struct fmetric *m;
	double v = NAN;

	if (strlen(tool_name) >= FOREIGN_NAME_MAX || !*tool_name)
		return ud_fail(fp->err, "%s:%d: a metric's name is empty or longer than %d bytes", fp->name, lineno,
			       FOREIGN_NAME_MAX - 1);
	if (field_value(value, &v, fp->err) != 0)
		return ud_err_prefix(fp->err, "%s:%d", fp->name, lineno);
	m = metric_of(fp, bucket >= 0 ? ud_topdown_bucket_name(bucket) : d ? ud_metric_name(d->metric) : tool_name,
		      lineno);
	if (!m)
		return -1;
	if (m->rows && time && strcmp(m->last_time, time) == 0)
		return 0; /* topdown-tool prints a metric of two groups twice an interval, with one value */
	m->bucket = bucket;
	m->scale = bucket >= 0 ? 0.01 : d ? d->scale : 1;
	m->rows++;
	snprintf(m->last_time, sizeof(m->last_time), "%s", time ? time : "");
	if (!isnan(v)) {
		m->sum += v;
		m->n++;
	}
	return 0;
}

/* "metric_TMA_..Fetch_Latency(%)" and the like: one PerfSpect row. */
static int perfspect_row(struct fparse *fp, char *line, int lineno)
{
	char *f[6];
	const char *name;
	int n = split(line, f, 5), dots = 0, bucket = -1;

	if (n < 0)
		return ud_fail(fp->err, "%s:%d: a quoted field is not closed at its comma", fp->name, lineno);
	if (n != 5)
		return ud_fail(fp->err, "%s:%d: %d fields where PerfSpect's summary has 5 (metric,avg,p95,min,max)",
			       fp->name, lineno, n);
	name = f[0];
	if (strncmp(name, PERFSPECT_PREFIX, strlen(PERFSPECT_PREFIX)) == 0)
		name += strlen(PERFSPECT_PREFIX);
	for (size_t i = 0; i < sizeof(perfspect_tma) / sizeof(perfspect_tma[0]); i++) {
		const char *tma = name + strlen(perfspect_tma[i]);

		if (strncmp(name, perfspect_tma[i], strlen(perfspect_tma[i])) != 0)
			continue;
		while (tma[dots] == '.')
			dots++;
		bucket = dots % 2 ? -1 : bucket_named(tma + dots, dots / 2 + 1);
	}
	return take(fp, name, perfspect_names, bucket, f[1], NULL, lineno);
}

/* "0.10,Topdown_L1,1,1,Retiring,17.02,%": one topdown-tool row. */
static int topdown_tool_row(struct fparse *fp, char *line, int lineno)
{
	char *f[TT_FIELDS + 1];
	int n = split(line, f, TT_FIELDS), bucket = -1;

	if (n < 0)
		return ud_fail(fp->err, "%s:%d: a quoted field is not closed at its comma", fp->name, lineno);
	if (n != TT_FIELDS)
		return ud_fail(fp->err, "%s:%d: %d fields where topdown-tool's metrics CSV has %d (%s)", fp->name, lineno,
			       n, TT_FIELDS, TOPDOWN_TOOL_HEADER);
	/* stage 1 is the top-down tree, its level the bucket's; stage 2's groups are micro-architectural */
	if (strcmp(f[2], "1") == 0 && (strcmp(f[3], "1") == 0 || strcmp(f[3], "2") == 0) && strcmp(f[6], "%") == 0)
		bucket = bucket_named(f[4], f[3][0] - '0');
	return take(fp, f[4], topdown_tool_names, bucket, f[5], f[0], lineno);
}

/* The workload's name: --workload, else the file's base name without its ".csv". */
static char *workload_base(const char *name, const struct ud_import_opts *o)
{
	const char *base = strrchr(name, '/');
	char *s;
	size_t n;

	if (o->workload)
		return strdup(o->workload);
	base = base ? base + 1 : name;
	n = strlen(base);
	if (n > 4 && strcasecmp(base + n - 4, ".csv") == 0)
		n -= 4;
	s = malloc(n + 1);
	if (s)
		snprintf(s, n + 1, "%s", base);
	return s;
}

/* The top-down record of the buckets the file gave, the others of their levels null with why. */
static int add_topdown(struct ud_workload *w, const struct fparse *fp)
{
	struct ud_topdown *t = NULL;
	char why[UD_TD_REASON];

	for (size_t i = 0; i < fp->n; i++) {
		const struct fmetric *m = &fp->m[i];

		if (m->bucket < 0)
			continue;
		if (!t && !(t = ud_workload_add_topdown(w, UD_TD_SLOTS, UD_TD_PERF_METRICS, "")))
			return ud_fail(fp->err, "out of memory");
		snprintf(why, sizeof(why), "%s printed %s without a value", fp->tool, m->name);
		ud_topdown_set(t, m->bucket, m->n ? m->sum / m->n * m->scale : NAN, why);
	}
	if (t) {
		/* a level-1 bucket the file does not give is unknown, not outside the method: the residual is too */
		for (int b = UD_TD_RETIRING; b <= UD_TD_BACKEND_BOUND; b++) {
			if (t->defined[b])
				continue;
			snprintf(why, sizeof(why), "%s printed no %s row", fp->tool, ud_topdown_bucket_name(b));
			ud_topdown_set(t, b, NAN, why);
		}
		snprintf(why, sizeof(why), "%s printed no such row", fp->tool);
		ud_topdown_finish(t, why);
	}
	return 0;
}

static int to_workload(struct ud_profile *p, const struct fparse *fp, const struct ud_import_opts *o)
{
	json_t *taken = imp_names_taken(p);
	char *base = workload_base(fp->name, o), *unique = NULL;
	struct ud_workload *w = NULL;
	int ret = 0;

	if (!taken || !base || !(unique = imp_unique_name(taken, base)) || !(w = ud_profile_add_workload(p, unique)))
		ret = ud_fail(fp->err, "out of memory");
	json_decref(taken);
	free(base);
	free(unique);
	/* a summary has no score: --score gives one, as for a perf paste */
	if (ret == 0 && o->nscores &&
	    (ud_score_set_samples(&w->score, o->scores, o->nscores) != 0 ||
	     (o->score_units && !(w->units = strdup(o->score_units)))))
		ret = ud_fail(fp->err, "out of memory");
	if (ret == 0 && o->nscores)
		w->higher_is_better = o->score_units ? !imp_units_lower_is_better(o->score_units) : 1;
	for (size_t i = 0; ret == 0 && i < fp->n; i++) {
		const struct fmetric *m = &fp->m[i];

		if (m->bucket < 0 &&
		    ud_workload_add_perf_metric(w, m->name, m->n ? m->sum / m->n * m->scale : NAN) != 0)
			ret = ud_fail(fp->err, "out of memory");
	}
	return ret == 0 ? add_topdown(w, fp) : ret;
}

typedef int (*row_fn)(struct fparse *fp, char *line, int lineno);

/* The file's rows after its header, each through row, then the workload. */
static int import_rows(struct ud_profile *p, const char *text, size_t len, const char *name,
		       const struct ud_import_opts *o, const char *tool, const char *header, row_fn row,
		       struct ud_err *err)
{
	struct fparse fp = { .name = name, .tool = tool, .err = err };
	struct lines l;
	char *line;
	bool seen_header = false;
	int ret = 0;

	imp_lines_init(&l, text, len);
	while (ret == 0 && (line = imp_lines_next(&l)) != NULL) {
		char *s = ud_trim(line);

		if (!*s)
			continue;
		if (!seen_header) {
			if (strcmp(s, header) != 0)
				ret = ud_fail(err, "%s:%d: not %s's header (%s)", name, l.lineno, tool, header);
			seen_header = true;
		} else
			ret = row(&fp, s, l.lineno);
	}
	if (ret == 0 && fp.n == 0)
		ret = ud_fail(err, "%s: %s's header without a metric row", name, tool);
	if (ret == 0)
		ret = to_workload(p, &fp, o);
	imp_lines_free(&l);
	free(fp.m);
	return ret;
}

int imp_perfspect(struct ud_profile *p, const char *text, size_t len, const char *name,
		  const struct ud_import_opts *o, struct ud_err *err)
{
	return import_rows(p, text, len, name, o, "PerfSpect", PERFSPECT_HEADER, perfspect_row, err);
}

int imp_topdown_tool(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err)
{
	return import_rows(p, text, len, name, o, "topdown-tool", TOPDOWN_TOOL_HEADER, topdown_tool_row, err);
}

/* AMDuProfPcm's report being read: its header's columns, and room for a row's fields. */
struct uprof {
	struct fparse fp;
	char *header;   /* the header line, owned, cut in place into cols */
	char **cols;    /* the metric each column holds; "" for none (the empty field of the comma ending each line) */
	int ncols, header_line;
	char **row;
	int ipc_col, cpi_col;  /* their columns, -1 none */
	int rows, uncounted;   /* the rows, and those whose IPC and CPI were not counted */
};

/* Whether line is AMDuProfPcm's header: two of its comma-separated fields are names the report prints. */
static bool uprof_is_header(const char *line)
{
	const size_t nnames = sizeof(uprof_header_names) / sizeof(uprof_header_names[0]);
	int known = 0;

	for (const char *s = line;; s++) {
		size_t n = strcspn(s, ",");

		for (size_t i = 0; i < nnames; i++) {
			if (strlen(uprof_header_names[i]) == n && memcmp(s, uprof_header_names[i], n) == 0) {
				known++;
				break;
			}
		}
		if (known == 2)
			return true;
		s += n;
		if (!*s)
			return false;
	}
}

/*
 * The header's columns.  A name heading two columns is refused: the report
 * of several cores or CCXs (-a, -c core=0,1) repeats each name under each
 * one's group, and no such report was seen to say how it is to be read.
 */
static int uprof_header(struct uprof *u, const char *line, int lineno)
{
	size_t commas = 0;

	for (const char *s = line; *s; s++)
		commas += *s == ',';
	if (commas >= FOREIGN_MAX_METRICS)
		return ud_fail(u->fp.err, "%s:%d: more than %d columns: not one core's AMDuProfPcm report", u->fp.name,
			       lineno, FOREIGN_MAX_METRICS);
	u->header_line = lineno;
	if (!(u->header = strdup(line)) || !(u->cols = calloc(commas + 2, sizeof(*u->cols))) ||
	    !(u->row = calloc(commas + 2, sizeof(*u->row))))
		return ud_fail(u->fp.err, "out of memory");
	u->ncols = split(u->header, u->cols, (int)commas + 1);
	if (u->ncols < 0)
		return ud_fail(u->fp.err, "%s:%d: a quoted field is not closed at its comma", u->fp.name, lineno);
	u->ipc_col = u->cpi_col = -1;
	for (int i = 0; i < u->ncols; i++) {
		if (strcmp(u->cols[i], "IPC (Sys + User)") == 0)
			u->ipc_col = i;
		if (strcmp(u->cols[i], "CPI (Sys + User)") == 0)
			u->cpi_col = i;
		for (int j = 0; *u->cols[i] && j < i; j++) {
			if (strcmp(u->cols[i], u->cols[j]) == 0)
				return ud_fail(u->fp.err,
					       "%s:%d: '%s' heads columns %d and %d: a report of several cores or CCXs "
					       "is not read (one core's is: AMDuProfPcm -c core=N)",
					       u->fp.name, lineno, u->cols[i], j + 1, i + 1);
		}
	}
	return 0;
}

static bool is_zero(const char *s)
{
	struct ud_err scratch = UD_ERR_INIT;
	double v;

	return field_value(s, &v, &scratch) == 0 && v == 0;
}

/*
 * "100.03,3724.22,1.53,...": one interval's row, a value a column.  IPC
 * and CPI both 0 is no interval's count (a CPI of 0 is no clock at all,
 * and one over 200 does not print as 0.00): AMDuProfPcm prints its event
 * groups' metrics as 0 in the intervals it did not count them
 * (multiplexing, tests/data/foreign/uprof-pcm/test-core80.csv), so such a
 * row gives neither.
 */
static int uprof_row(struct uprof *u, char *line, int lineno)
{
	int n = split(line, u->row, u->ncols);
	bool uncounted;

	if (n < 0)
		return ud_fail(u->fp.err, "%s:%d: a quoted field is not closed at its comma", u->fp.name, lineno);
	if (n != u->ncols)
		return ud_fail(u->fp.err, "%s:%d: %d fields where AMDuProfPcm's header (line %d) has %d", u->fp.name,
			       lineno, n, u->header_line, u->ncols);
	uncounted = u->ipc_col >= 0 && u->cpi_col >= 0 && is_zero(u->row[u->ipc_col]) && is_zero(u->row[u->cpi_col]);
	u->rows++;
	u->uncounted += uncounted;
	for (int i = 0; i < n; i++) {
		if (!*u->cols[i] || (uncounted && (i == u->ipc_col || i == u->cpi_col)))
			continue;
		if (take(&u->fp, u->cols[i], uprof_names, -1, u->row[i], NULL, lineno) != 0)
			return -1;
	}
	return 0;
}

int imp_uprof_pcm(struct ud_profile *p, const char *text, size_t len, const char *name,
		  const struct ud_import_opts *o, struct ud_import_warnings *warn, struct ud_err *err)
{
	struct uprof u = { .fp = { .name = name, .tool = "AMDuProfPcm", .err = err } };
	struct lines l;
	char *line;
	int ret = 0, before = 0;

	imp_lines_init(&l, text, len);
	while (ret == 0 && (line = imp_lines_next(&l)) != NULL) {
		char *s = ud_trim(line);

		if (!*s)
			continue;
		if (u.cols)
			ret = uprof_row(&u, s, l.lineno);
		else if (uprof_is_header(s))
			ret = uprof_header(&u, s, l.lineno);
		else if (++before > UPROF_SCAN_LINES)
			ret = ud_fail(err, "%s:%d: no AMDuProfPcm metric header (\"%s,%s,...\") in the first %d lines",
				      name, l.lineno, uprof_header_names[0], uprof_header_names[1], UPROF_SCAN_LINES);
	}
	if (ret == 0 && !u.cols)
		ret = ud_fail(err, "%s: no AMDuProfPcm metric header (\"%s,%s,...\")", name, uprof_header_names[0],
			      uprof_header_names[1]);
	if (ret == 0 && u.fp.n == 0)
		ret = ud_fail(err, "%s: AMDuProfPcm's header without a row", name);
	if (ret == 0)
		ret = to_workload(p, &u.fp, o);
	if (ret == 0 && u.uncounted &&
	    imp_warn(warn,
		     "%s: %d of %d intervals print IPC and CPI 0, not counted in them (AMDuProfPcm multiplexes "
		     "its event groups): they are left out of both; other metrics' zeros cannot be told from "
		     "a count of none, and are averaged as printed",
		     name, u.uncounted, u.rows) != 0)
		ret = ud_fail(err, "out of memory");
	imp_lines_free(&l);
	free(u.fp.m);
	free(u.header);
	free(u.cols);
	free(u.row);
	return ret;
}

bool imp_uprof_pcm_detect(const char *text, size_t len)
{
	struct lines l;
	char *line;
	bool found = false;

	imp_lines_init(&l, text, len);
	for (int n = 0; !found && n <= UPROF_SCAN_LINES && (line = imp_lines_next(&l)) != NULL; n++)
		found = uprof_is_header(ud_trim(line));
	imp_lines_free(&l);
	return found;
}

/* Whether text's first line (blank lines and a carriage return aside) is header. */
static bool starts_with_line(const char *text, size_t len, const char *header)
{
	size_t i = 0, n = strlen(header);

	while (i < len && (text[i] == '\n' || text[i] == '\r' || text[i] == ' '))
		i++;
	return len - i >= n && memcmp(text + i, header, n) == 0 &&
	       (i + n == len || text[i + n] == '\n' || text[i + n] == '\r');
}

bool imp_perfspect_detect(const char *text, size_t len)
{
	return starts_with_line(text, len, PERFSPECT_HEADER);
}

bool imp_topdown_tool_detect(const char *text, size_t len)
{
	return starts_with_line(text, len, TOPDOWN_TOOL_HEADER);
}
