/*
 * report_format.c - numbers and host facts as the reports show them, shared
 * by the diff's and compare's views and the charts: a missing value reads
 * "n/a" or "unknown", never "nan", "inf" or "(null)"; and the width the
 * text forms fit (ud_report_set_width).  Also the parts of a
 * diff that the diff report lists, as typed rows: environment, findings.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "report.h"
#include "report_priv.h"
#include "template.h"
#include "text.h"
#include "view_pool.h"

static const char *fact_text(const char *field, const struct ud_fact *v, char *buf, size_t len);

/* The one setting the text forms share: set once by the command before it writes (report.h). */
static size_t report_width = UD_REPORT_WIDTH;

void ud_report_set_width(size_t columns)
{
	report_width = columns < UD_REPORT_WIDTH_MIN ? UD_REPORT_WIDTH_MIN : columns;
}

size_t ud_report_width(void)
{
	return report_width;
}

const char *ud_rv_pool_fmt(struct ud_view_pool *pool, const char *format, double v)
{
	char buf[64];

	if (!isfinite(v))
		return "n/a";
	snprintf(buf, sizeof(buf), format, v);
	return ud_view_pool_printf(pool, "%s", buf);
}

const char *ud_rv_pool_ratio(struct ud_view_pool *pool, double v)
{
	char buf[UD_RATIO_MAX];

	return ud_view_pool_printf(pool, "%s", ud_format_ratio_x(v, buf, sizeof(buf)));
}

/* A count per unit as text.h's one rule writes numbers: "3,807", "91.1", "0.0000326". */
void ud_rv_count_text(double v, char *buf, size_t len)
{
	ud_format_human(v, buf, len);
}

const char *ud_rv_pool_coord(struct ud_view_pool *pool, double v)
{
	return ud_view_pool_printf(pool, "%.1f", v);
}

double ud_rv_known(double v)
{
	return isfinite(v) ? v : NAN;
}

const char *ud_rv_pool_metric(struct ud_view_pool *pool, double v, enum ud_metric m)
{
	return ud_metric_is_percent(m) ? ud_rv_pool_fmt(pool, "%.2f%%", 100 * v) : ud_rv_pool_fmt(pool, "%.3g", v);
}

void ud_rv_speedup_text(double s, int significant, char *buf, size_t len)
{
	ud_speedup_words(ud_rv_known(s), significant, false, buf, len);
}

int ud_rv_summary_significant(const struct ud_diff_summary *s)
{
	if (!isfinite(s->geomean_lo) || !isfinite(s->geomean_hi))
		return -1;
	return s->geomean_lo > 1 || s->geomean_hi < 1;
}

bool ud_rv_penalties(const struct ud_uarch *u, double *branch, double *l1d)
{
	bool known = u && isfinite(u->penalty_branch) && isfinite(u->penalty_l1d);

	*branch = known ? u->penalty_branch : NAN;
	*l1d = known ? u->penalty_l1d : NAN;
	return known;
}

/* UTF-8 continuation bytes (10xxxxxx) are not where a character starts. */
static bool starts_char(unsigned char c)
{
	return (c & 0xc0) != 0x80;
}

char *ud_shorten_new(const char *s, size_t max_chars)
{
	size_t chars = 0, len = strlen(s), head, tail, keep;

	for (size_t i = 0; i < len; i++)
		chars += starts_char((unsigned char)s[i]);
	/* A name short enough stays whole; so does one under a limit too small to read. */
	if (chars <= max_chars || max_chars < 3)
		return ud_printf_new("%s", s);
	/* Keep the start and the end: names differ at both ("... (1 copy)"). */
	keep = max_chars - 1;
	head = 0;
	for (size_t n = 0; head < len && n < (keep + 1) / 2; n++)
		while (++head < len && !starts_char((unsigned char)s[head]))
			;
	tail = len;
	for (size_t n = 0; tail > head && n < keep / 2; n++)
		while (--tail > head && !starts_char((unsigned char)s[tail]))
			;
	return ud_printf_new("%.*s\xe2\x80\xa6%s", (int)head, s, s + tail);
}

const char *ud_rv_pool_shorten(struct ud_view_pool *pool, const char *s, size_t max_chars)
{
	return ud_view_pool_keep(pool, ud_shorten_new(s, max_chars));
}

static void env_side_text(const struct ud_diff *d, size_t i, enum ud_side side, char *buf, size_t len)
{
	const struct ud_env_entry *e = &d->env[i];
	const struct ud_profile *p = d->host[side].profile;
	char fact[256];
	const char *text = fact_text(e->field, side == UD_SIDE_A ? &e->a : &e->b, fact, sizeof(fact));

	/* "(stated)" where a person stated that fact (import --fact) rather than it being read */
	snprintf(buf, len, p && ud_host_stated(p->host, e->field) ? "%s (stated)" : "%s", text);
}

struct ud_rv_env_row *ud_rv_env_rows(struct ud_view_pool *pool, const struct ud_diff *d, bool own, size_t *n)
{
	struct ud_rv_env_row *rows = d->nenv ? ud_view_pool_alloc(pool, d->nenv, sizeof(*rows)) : NULL;

	*n = 0;
	for (size_t i = 0; rows && i < d->nenv; i++) {
		char a[512], b[512];

		env_side_text(d, i, UD_SIDE_A, a, sizeof(a));
		env_side_text(d, i, UD_SIDE_B, b, sizeof(b));
		rows[(*n)++] = (struct ud_rv_env_row){ own ? ud_view_pool_printf(pool, "%s", d->env[i].field) : d->env[i].field,
						       ud_view_pool_printf(pool, "%s", a),
						       ud_view_pool_printf(pool, "%s", b) };
	}
	return rows;
}

/* s, or its copy in pool when own (NULL stays NULL). */
static const char *kept(struct ud_view_pool *pool, const char *s, bool own)
{
	return own && s ? ud_view_pool_printf(pool, "%s", s) : s;
}

struct ud_rv_finding *ud_rv_finding_rows(struct ud_view_pool *pool, const struct ud_diff *d, bool own, size_t *n)
{
	struct ud_rv_finding *rows = d->nfindings ? ud_view_pool_alloc(pool, d->nfindings, sizeof(*rows)) : NULL;

	*n = 0;
	for (size_t i = 0; rows && i < d->nfindings; i++) {
		const struct ud_finding *f = &d->findings[i];
		struct ud_rv_finding *r = &rows[(*n)++];

		*r = (struct ud_rv_finding){ ud_finding_name(f->id), kept(pool, f->hypothesis, own),
					     kept(pool, f->confirm, own), f->evidence, f->nevidence };
		if (own && f->nevidence) {
			if (!(r->evidence = ud_view_pool_alloc(pool, f->nevidence, sizeof(*r->evidence))))
				return NULL;
			for (size_t k = 0; k < f->nevidence; k++)
				r->evidence[k] = ud_view_pool_printf(pool, "%s", f->evidence[k]);
		}
	}
	return rows;
}

static const struct ud_field env_rows[] = {
	UD_FIELD(struct ud_rv_env_row, field, UD_FIELD_STRING),
	UD_FIELD(struct ud_rv_env_row, a, UD_FIELD_STRING),
	UD_FIELD(struct ud_rv_env_row, b, UD_FIELD_STRING),
};
const struct ud_fields ud_rv_env_fields = UD_FIELDS("a host fact that differs", env_rows);

static const struct ud_field finding_rows[] = {
	UD_FIELD(struct ud_rv_finding, id, UD_FIELD_STRING),
	UD_FIELD(struct ud_rv_finding, hypothesis, UD_FIELD_STRING),
	UD_FIELD(struct ud_rv_finding, confirm, UD_FIELD_STRING),
	UD_FIELD_STRINGS_OF(struct ud_rv_finding, evidence, nevidence),
};
const struct ud_fields ud_rv_finding_fields = UD_FIELDS("a finding", finding_rows);

/* Arm's MIDR fields are hex where the kernel and `host` print them ("0x41"), not 65. */
static bool is_hex_field(const char *field)
{
	return strncmp(field, "cpu.midr_", strlen("cpu.midr_")) == 0;
}

/*
 * A host fact as text, the one way diff and compare show them: "unknown"
 * for null, yes/no, MIDR fields in hex ("0xd0c", as `host` prints them).
 * Returns buf or a static string.
 */
static const char *fact_text(const char *field, const struct ud_fact *v, char *buf, size_t len)
{
	if (v->type == UD_FACT_BOOLEAN)
		return v->boolean ? "yes" : "no";
	if (v->type == UD_FACT_INTEGER && is_hex_field(field)) {
		snprintf(buf, len, "0x%llx", v->integer);
		return buf;
	}
	/* a string as it is, a number in decimal, a list of facts as JSON, else "unknown" */
	return ud_fact_text(v, buf, len);
}
