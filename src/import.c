/*
 * import.c - format detection and dispatch, and the pieces the parsers
 * share (import_priv.h).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "event_names.h"
#include "fileio.h"
#include "import_priv.h"

/* ---- lines ---- */

void lines_init(struct lines *l, const char *text, size_t len)
{
	memset(l, 0, sizeof(*l));
	l->text = l->cur = text;
	l->end = text + len;
}

char *lines_next(struct lines *l)
{
	const char *nl;
	size_t n;

	if (l->cur >= l->end)
		return NULL;
	nl = memchr(l->cur, '\n', (size_t)(l->end - l->cur));
	n = (size_t)((nl ? nl : l->end) - l->cur);
	if (n + 1 > l->cap) {
		char *grown = realloc(l->buf, n + 1);

		if (!grown)
			return NULL;
		l->buf = grown;
		l->cap = n + 1;
	}
	memcpy(l->buf, l->cur, n);
	if (n && l->buf[n - 1] == '\r')
		n--;
	l->buf[n] = '\0';
	l->cur = nl ? nl + 1 : l->end;
	l->lineno++;
	return l->buf;
}

void lines_free(struct lines *l)
{
	free(l->buf);
	l->buf = NULL;
}

/* ---- numbers ---- */

/* Bytes of a thousands separator at s (0 if none): ',', '.', '\'', ' ', U+00A0, U+202F. */
static int sep_len(const char *s, char *kind)
{
	if (*s == ',' || *s == '.' || *s == '\'' || *s == ' ') {
		*kind = *s;
		return 1;
	}
	if ((unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xa0) {
		*kind = ' ';
		return 2;
	}
	if ((unsigned char)s[0] == 0xe2 && (unsigned char)s[1] == 0x80 && (unsigned char)s[2] == 0xaf) {
		*kind = ' ';
		return 3;
	}
	return 0;
}

static size_t digit_run(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

int scan_decimal(const char *s, const char **end, struct decimal *d, struct ud_err *err)
{
	struct {
		char kind;
		size_t digits;
		const char *at;
	} seps[64];
	size_t nseps = 0, first = digit_run(s), commas = 0, dots = 0;
	const char *p = s + first, *decimal = NULL;

	if (first == 0)
		return 0;
	for (;;) {
		char kind;
		int sl = sep_len(p, &kind);
		size_t n = sl ? digit_run(p + sl) : 0;

		if (!sl || !n)
			break;
		/* A space is a separator only before a group of exactly three digits. */
		if (kind == ' ' && (n != 3 || first > 3))
			break;
		if (nseps == sizeof(seps) / sizeof(seps[0]))
			return ud_fail(err, "number too long");
		seps[nseps].kind = kind;
		seps[nseps].digits = n;
		seps[nseps++].at = p;
		commas += kind == ',';
		dots += kind == '.';
		p += (size_t)sl + n;
	}
	/* The decimal separator, if any, is the last one, where groups allow it. */
	if (nseps) {
		char k = seps[nseps - 1].kind;
		size_t same = k == ',' ? commas : k == '.' ? dots : 0, other = k == ',' ? dots : commas;

		if ((k == ',' || k == '.') && same == 1 && (other || seps[nseps - 1].digits != 3))
			decimal = seps[nseps - 1].at; /* 1.234,56 1,234.56 0,72 45.112821074 */
		for (size_t i = 0; i < nseps; i++)
			if (seps[i].at != decimal && (seps[i].digits != 3 || first > 3))
				return ud_fail(err, "malformed number '%.*s'", (int)(p - s), s);
	}
	d->mant = 0;
	d->frac = 0;
	for (const char *q = s; q < p; q++) {
		if (!isdigit((unsigned char)*q))
			continue;
		if (d->mant > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			return ud_fail(err, "number '%.*s' is too large for a 64-bit counter", (int)(p - s), s);
		d->mant = d->mant * 10 + (uint64_t)(*q - '0');
		d->frac += decimal && q > decimal;
	}
	*end = p;
	return 1;
}

double decimal_value(struct decimal d, int pow10)
{
	int k = pow10 - d.frac;
	uint64_t r = d.mant;

	if (k >= 0) {
		for (int i = 0; i < k; i++) {
			if (r > UINT64_MAX / 10)
				return (double)d.mant * pow(10, k);
			r *= 10;
		}
		return (double)r;
	}
	/* Both operands exact, so IEEE division rounds to the nearest double, as strtod would. */
	if (d.mant < (uint64_t)IMPORT_EXACT_MAX && -k <= 22)
		return (double)d.mant / pow(10, -k);
	return (double)d.mant * pow(10, k);
}

int parse_number_str(const char *s, int pow10, double *value, struct ud_err *err)
{
	struct decimal d;
	const char *end;
	int r;

	while (isspace((unsigned char)*s))
		s++;
	r = scan_decimal(s, &end, &d, err);
	if (r < 0)
		return -1;
	while (r > 0 && isspace((unsigned char)*end))
		end++;
	if (r == 0 || *end)
		return ud_fail(err, "'%s' is not a number", s);
	*value = decimal_value(d, pow10);
	return 0;
}

int parse_counter_value(const char *field, const char *unit, enum ud_count_status *status, double *value,
			struct ud_err *err)
{
	struct decimal d;
	const char *end;
	int r;

	*value = 0;
	if (strcmp(field, "<not supported>") == 0 || strcmp(field, "<not counted>") == 0) {
		*status = field[5] == 's' ? UD_NOT_SUPPORTED : UD_NOT_COUNTED;
		return 1;
	}
	r = scan_decimal(field, &end, &d, err);
	if (r <= 0 || *end)
		return r < 0 ? -1 : 0;
	*status = UD_COUNTED;
	*value = decimal_value(d, unit && strcmp(unit, "msec") == 0 ? 6 : 0);
	return 1;
}

/* ---- event names ---- */

static const struct {
	const char *pmu_event;
	const char *generic;
} vendor_aliases[] = {
	/* Arm PMUv3 spellings under armv8_pmuv3_N/.../ */
	{ "cpu_cycles", "cycles" }, { "inst_retired", "instructions" }, { "br_retired", "branches" },
	{ "br_mis_pred_retired", "branch-misses" }, { "br_mis_pred", "branch-misses" },
	{ "stall_frontend", "stalled-cycles-frontend" }, { "stall_backend", "stalled-cycles-backend" },
	{ "l1d_cache_rd", "L1-dcache-loads" }, { "l1d_cache_refill_rd", "L1-dcache-load-misses" },
	{ "l1d_cache", "L1-dcache-loads" }, { "l1d_cache_refill", "L1-dcache-load-misses" },
};

void normalize_event(const char *in, char *out, size_t len)
{
	char name[128], *mods = NULL, *first, *second;
	const char *generic;

	snprintf(name, sizeof(name), "%s", in);
	/* cpu_core/cycles/, armv8_pmuv3_0/cpu_cycles/:u: the event inside the PMU's slashes */
	first = strchr(name, '/');
	second = first ? strchr(first + 1, '/') : NULL;
	if (second && second > first + 1 && !memchr(first + 1, '=', (size_t)(second - first - 1))) {
		char inner[128];

		snprintf(inner, sizeof(inner), "%.*s%s", (int)(second - first - 1), first + 1, second + 1);
		snprintf(name, sizeof(name), "%s", inner);
		for (size_t i = 0; i < sizeof(vendor_aliases) / sizeof(vendor_aliases[0]); i++) {
			size_t n = strlen(vendor_aliases[i].pmu_event);

			if (strncmp(name, vendor_aliases[i].pmu_event, n) == 0 && (name[n] == '\0' || name[n] == ':')) {
				snprintf(inner, sizeof(inner), "%s%s", vendor_aliases[i].generic, name + n);
				snprintf(name, sizeof(name), "%s", inner);
				break;
			}
		}
	}
	mods = strchr(name, ':');
	if (mods) {
		*mods++ = '\0';
		/* :H, :G and :HG count what the unmodified event counts on a host */
		if (strspn(mods, "HG") == strlen(mods))
			mods = NULL;
	}
	generic = ud_generic_event_name(name);
	snprintf(out, len, "%s%s%s", generic ? generic : name, mods ? ":" : "", mods ? mods : "");
}

/* ---- the accumulator ---- */

void acc_init(struct acc *a)
{
	memset(a, 0, sizeof(*a));
	a->elapsed_ns = a->user_ns = a->sys_ns = NAN;
	a->last = -1;
}

void acc_free(struct acc *a)
{
	free(a->c);
	free(a->command);
	free(a->scores);
	acc_init(a);
}

bool acc_empty(const struct acc *a)
{
	return a->n == 0 && a->nscores == 0;
}

int acc_add(struct acc *a, const char *event, enum ud_count_status status, double value, double pct,
	    double rel_stddev)
{
	char name[96];
	struct acc_counter *c = NULL;

	/* Interval and per-CPU files repeat each spelling thousands of times. */
	for (size_t i = 0; i < a->n && !c; i++)
		if (strcmp(a->c[i].printed, event) == 0)
			c = &a->c[i];
	if (!c)
		normalize_event(event, name, sizeof(name));
	for (size_t i = 0; i < a->n && !c; i++)
		if (strcmp(a->c[i].name, name) == 0)
			c = &a->c[i];
	if (!c) {
		if (a->n == a->cap) {
			size_t cap = a->cap ? 2 * a->cap : 16;
			struct acc_counter *grown = realloc(a->c, cap * sizeof(*grown));

			if (!grown)
				return -1;
			a->c = grown;
			a->cap = cap;
		}
		c = &a->c[a->n++];
		memset(c, 0, sizeof(*c));
		snprintf(c->name, sizeof(c->name), "%s", name);
		snprintf(c->printed, sizeof(c->printed), "%s", event);
		c->status = status;
		c->rel_stddev = NAN;
	}
	/* Rows of one event (per CPU, per interval, per hybrid PMU) add up. */
	if (status == UD_COUNTED) {
		c->value += value;
		if (c->status != UD_COUNTED && c->rows == 0)
			c->status = UD_COUNTED;
	} else if (c->status == UD_COUNTED && c->rows == 0) {
		c->status = status;
	}
	if (!isnan(pct)) {
		c->pct_sum += pct;
		c->pct_rows++;
	}
	if (!isnan(rel_stddev))
		c->rel_stddev = rel_stddev;
	c->rows++;
	a->last = (int)(c - a->c);
	return 0;
}

int acc_add_score(struct acc *a, double value, const char *units)
{
	struct acc_score *grown = realloc(a->scores, (a->nscores + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	a->scores = grown;
	a->scores[a->nscores].value = value;
	snprintf(a->scores[a->nscores++].units, sizeof(grown->units), "%s", units ? units : "");
	return 0;
}

int acc_take_count_line(struct acc *a, const char *line, struct ud_err *err)
{
	const char *v, *units;
	char field[64];
	double value;
	size_t n;

	if (strncmp(line, "COUNT|", 6) != 0)
		return 0;
	v = line + 6;
	n = strcspn(v, "|");
	if (n == 0 || n >= sizeof(field) || v[n] != '|')
		return ud_fail(err, "malformed UnixBench COUNT line");
	snprintf(field, sizeof(field), "%.*s", (int)n, v);
	if (parse_number_str(field, 0, &value, err) != 0)
		return -1;
	units = strrchr(line, '|') + 1;
	if (acc_add_score(a, value, units) != 0)
		return ud_fail(err, "out of memory");
	return 1;
}

static bool lower_is_better(const char *units)
{
	static const char *const times[] = { "s", "sec", "secs", "seconds", "ms", "msec", "us", "usec", "ns" };

	for (size_t i = 0; units && i < sizeof(times) / sizeof(times[0]); i++)
		if (strcmp(units, times[i]) == 0)
			return true;
	return false;
}

static char *unique_name(const struct ud_profile *p, const char *base)
{
	char *name = malloc(strlen(base) + 16);

	if (!name)
		return NULL;
	strcpy(name, base);
	for (int k = 2;; k++) {
		bool taken = false;

		for (size_t i = 0; i < p->nworkloads && !taken; i++)
			taken = strcmp(p->workloads[i].name, name) == 0;
		if (!taken)
			return name;
		sprintf(name, "%s#%d", base, k);
	}
}

int acc_to_workload(struct acc *a, struct ud_profile *p, const struct ud_import_opts *o, const char *fallback,
		    struct ud_err *err)
{
	const char *base = o->workload ? o->workload : a->command ? a->command : fallback;
	char *name = unique_name(p, base);
	struct ud_workload *w = name ? ud_profile_add_workload(p, name) : NULL;
	double samples[1];

	free(name);
	if (!w)
		return ud_fail(err, "out of memory");
	w->command = a->command ? strdup(a->command) : NULL;
	w->runs = a->runs;
	w->elapsed_ns = a->elapsed_ns;
	w->user_ns = a->user_ns;
	w->sys_ns = a->sys_ns;
	for (size_t i = 0; i < a->n; i++) {
		const struct acc_counter *s = &a->c[i];
		struct ud_counter *c = ud_workload_add_counter(w, s->name);

		if (!c)
			return ud_fail(err, "out of memory");
		c->status = s->status;
		c->value = s->status == UD_COUNTED ? s->value : NAN;
		if (s->pct_rows)
			c->running_pct = s->pct_sum / s->pct_rows;
		c->rel_stddev = s->rel_stddev;
		if (s->status != UD_COUNTED)
			c->reason = strdup(s->status == UD_NOT_COUNTED ? "perf printed <not counted>"
								      : "perf printed <not supported>");
	}
	if (o->has_score) {
		samples[0] = o->score;
		w->units = o->score_units ? strdup(o->score_units) : NULL;
	} else if (a->nscores) {
		/* UnixBench prints several COUNT lines for some tests: the last is the score. */
		samples[0] = a->scores[a->nscores - 1].value;
		w->units = strdup(a->scores[a->nscores - 1].units);
		for (size_t i = 0; i + 1 < a->nscores; i++) {
			char sub[32];

			snprintf(sub, sizeof(sub), "COUNT %zu", i + 1);
			ud_workload_add_subscore(w, sub, a->scores[i].value, a->scores[i].units);
		}
	} else if (!isnan(a->elapsed_ns)) {
		/* Like `stat`: the score of a counted command is its time. */
		samples[0] = a->elapsed_ns / 1e9;
		w->units = strdup("s");
		w->work_units = 1;
	} else {
		return 0;
	}
	w->higher_is_better = !lower_is_better(w->units);
	ud_score_set_samples(&w->score, samples, 1);
	return 0;
}

int import_rows(struct ud_profile *p, const char *text, size_t len, const char *name,
		const struct ud_import_opts *o, import_row_fn row, void *ctx, const char *what, struct ud_err *err)
{
	const char *base = strrchr(name, '/');
	struct lines l;
	struct acc a;
	char *line;
	int ret = 0, rows = 0;

	acc_init(&a);
	lines_init(&l, text, len);
	while (ret == 0 && (line = lines_next(&l)) != NULL) {
		int r;

		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line || *line == '#')
			continue;
		r = acc_take_count_line(&a, line, err);
		if (r < 0) {
			char msg[sizeof(err->msg)];

			snprintf(msg, sizeof(msg), "%s", err->msg);
			ret = ud_fail(err, "%s:%d: %s", name, l.lineno, msg);
		}
		if (r != 0)
			continue;
		r = row(&a, line, ctx, name, l.lineno, err);
		ret = r < 0 ? -1 : 0;
		rows += r > 0;
	}
	lines_free(&l);
	if (ret == 0 && !rows)
		ret = ud_fail(err, "%s: no %s found", name, what);
	if (ret == 0)
		ret = acc_to_workload(&a, p, o, base ? base + 1 : name, err);
	acc_free(&a);
	return ret;
}

/* ---- formats ---- */

static const char *const format_names[] = {
	[UD_FMT_AUTO] = "auto",
	[UD_FMT_PERF_TEXT] = "perf-text",
	[UD_FMT_PERF_CSV] = "perf-csv",
	[UD_FMT_PERF_JSON] = "perf-json",
	[UD_FMT_UNIXBENCH] = "unixbench",
};

int ud_import_format_parse(const char *name, enum ud_import_format *out)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (strcmp(name, format_names[i]) == 0) {
			*out = (enum ud_import_format)i;
			return 0;
		}
	}
	return -1;
}

const char *ud_import_format_name(enum ud_import_format f)
{
	return format_names[f];
}

/* The n-th field of line split at sep, into buf. */
static const char *csv_field(const char *line, char sep, int n, char *buf, size_t len)
{
	for (; n > 0 && line; n--) {
		line = strchr(line, sep);
		line = line ? line + 1 : NULL;
	}
	if (!line)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(line, (char[]){ sep, '\0' }), line);
	return buf;
}

/* value,unit,event,...: a number (or <not ...>) first, an event name third, after an optional time or CPU. */
static bool looks_csv(const char *line)
{
	for (const char *sep = ",;"; *sep; sep++) {
		char f0[64], f2[64];
		int skip = 0;

		if (!csv_field(line, *sep, 0, f0, sizeof(f0)))
			continue;
		if (strncmp(f0, "CPU", 3) == 0 || (strchr(f0, '.') && strlen(strchr(f0, '.') + 1) == 9))
			skip = 1;
		if (!csv_field(line, *sep, skip, f0, sizeof(f0)) || !csv_field(line, *sep, skip + 2, f2, sizeof(f2)))
			continue;
		if ((isdigit((unsigned char)f0[0]) || strncmp(f0, "<not ", 5) == 0) && isalpha((unsigned char)f2[0]) &&
		    !strchr(f0, ' '))
			return true;
	}
	return false;
}

enum ud_import_format ud_import_detect(const char *text, size_t len)
{
	struct lines l;
	enum ud_import_format f = UD_FMT_PERF_TEXT;
	char *line;
	int n = 0;

	lines_init(&l, text, len);
	while ((line = lines_next(&l)) != NULL && n < 200) {
		while (isspace((unsigned char)*line))
			line++;
		if (!*line || strncmp(line, "# started on", 12) == 0)
			continue;
		n++;
		if (strstr(line, "System Benchmarks Index") || strstr(line, "BYTE UNIX Benchmarks")) {
			f = UD_FMT_UNIXBENCH;
			break;
		}
		if (line[0] == '{' && (strstr(line, "\"counter-value\"") || strstr(line, "\"event\""))) {
			f = UD_FMT_PERF_JSON;
			break;
		}
		if (looks_csv(line)) {
			f = UD_FMT_PERF_CSV;
			break;
		}
		if (strstr(line, "Performance counter stats for"))
			break;
	}
	lines_free(&l);
	return f;
}

static bool binary(const char *text, size_t len)
{
	return memchr(text, '\0', len) != NULL;
}

int ud_import_buffer(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err)
{
	enum ud_import_format f = o->format == UD_FMT_AUTO ? ud_import_detect(text, len) : o->format;
	size_t before = p->nworkloads;
	int ret;

	if (len == 0)
		return ud_fail(err, "%s: empty file", name);
	if (binary(text, len))
		return ud_fail(err, "%s: a binary file, not perf stat output or a UnixBench log", name);
	switch (f) {
	case UD_FMT_PERF_CSV: ret = import_perf_csv(p, text, len, name, o, err); break;
	case UD_FMT_PERF_JSON: ret = import_perf_json(p, text, len, name, o, err); break;
	case UD_FMT_UNIXBENCH: ret = import_unixbench(p, text, len, name, o, err); break;
	default: ret = import_perf_text(p, text, len, name, o, err); break;
	}
	if (ret != 0) {
		/* Leave the profile as it was: drop what this file added. */
		while (p->nworkloads > before)
			ud_profile_drop_last_workload(p);
	}
	return ret;
}

int ud_import_file(struct ud_profile *p, const char *path, const struct ud_import_opts *o, struct ud_err *err)
{
	size_t len;
	char *text = ud_read_file(path, &len, err);
	int ret;

	if (!text)
		return -1;
	ret = ud_import_buffer(p, text, len, path, o, err);
	free(text);
	return ret;
}
