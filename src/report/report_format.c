/*
 * report_format.c - numbers and host facts as the reports show them, shared
 * by the diff's and compare's views and the charts: a missing value reads
 * "n/a" or "unknown", never "nan", "inf" or "(null)"; and the width the
 * text forms fit (ud_report_set_width).  Also the parts of a
 * diff that both views list alike: environment, findings, names.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "report.h"
#include "report_priv.h"
#include "text.h"

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

json_t *ud_rv_fmt(const char *format, double v)
{
	char buf[64];

	if (!isfinite(v))
		return json_string("n/a");
	snprintf(buf, sizeof(buf), format, v);
	return json_string(buf);
}

json_t *ud_rv_ratio(double v)
{
	char buf[UD_RATIO_MAX];

	return json_string(ud_format_ratio_x(v, buf, sizeof(buf)));
}

json_t *ud_rv_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	json_t *v;

	va_start(ap, fmt);
	s = ud_vprintf_new(fmt, ap);
	va_end(ap);
	if (!s)
		return NULL;
	ud_utf8_sanitize(s);
	v = json_string(s);
	free(s);
	return v;
}

/* A count per unit as text.h's one rule writes numbers: "3,807", "91.1", "0.0000326". */
void ud_rv_count_text(double v, char *buf, size_t len)
{
	ud_format_human(v, buf, len);
}

json_t *ud_rv_coord(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.1f", v);
	return json_string(buf);
}

double ud_rv_known(double v)
{
	return isfinite(v) ? v : NAN;
}

json_t *ud_rv_metric(double v, enum ud_metric m)
{
	return ud_metric_is_percent(m) ? ud_rv_fmt("%.2f%%", 100 * v) : ud_rv_fmt("%.3g", v);
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

json_t *ud_rv_shorten(const char *s, size_t max_chars)
{
	char *t = ud_shorten_new(s, max_chars);
	json_t *v = t ? json_string(t) : NULL;

	free(t);
	return v;
}

void ud_rv_env_side_text(const struct ud_diff *d, size_t i, enum ud_side side, char *buf, size_t len)
{
	const struct ud_env_entry *e = &d->env[i];
	const struct ud_profile *p = d->host[side].profile;
	char fact[256];
	const char *text = fact_text(e->field, side == UD_SIDE_A ? &e->a : &e->b, fact, sizeof(fact));

	/* "(stated)" where a person stated that fact (import --fact) rather than it being read */
	snprintf(buf, len, p && ud_host_stated(p->host, e->field) ? "%s (stated)" : "%s", text);
}

json_t *ud_rv_environment(const struct ud_diff *d)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < d->nenv; i++) {
		char a[512], b[512];

		ud_rv_env_side_text(d, i, UD_SIDE_A, a, sizeof(a));
		ud_rv_env_side_text(d, i, UD_SIDE_B, b, sizeof(b));
		json_array_append_new(rows, json_pack("{s:s s:s s:s}", "field", d->env[i].field, "a", a, "b", b));
	}
	return rows;
}

json_t *ud_rv_names(const char **names, size_t n)
{
	json_t *out = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(out, json_string(names[i]));
	return out;
}

json_t *ud_rv_findings(const struct ud_diff *d)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < d->nfindings; i++) {
		const struct ud_finding *f = &d->findings[i];
		json_t *evidence = json_array();

		for (size_t k = 0; k < f->nevidence; k++)
			json_array_append_new(evidence, json_string(f->evidence[k]));
		json_array_append_new(rows, json_pack("{s:s s:o s:o s:o}", "id", ud_finding_name(f->id), "hypothesis",
						      f->hypothesis ? json_string(f->hypothesis) : json_null(), "evidence",
						      evidence, "confirm", f->confirm ? json_string(f->confirm) : json_null()));
	}
	return rows;
}

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
