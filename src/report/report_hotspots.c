/*
 * A diff workload's hotspots for the reports: each symbol's share of the
 * samples on both hosts and the CPU time per unit of work it stands for,
 * as a table (a text column too) and a chart.
 */
#include <math.h>
#include <stdio.h>

#include "report_priv.h"
#include "text.h"

/* Longest symbol a table shows whole; longer ones keep their ends. */
#define SYMBOL_CHARS 40

static void share_cell(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.1f%%", 100 * v);
	else
		snprintf(buf, len, "-");
}

static void ns_cell(double v, char *buf, size_t len)
{
	if (isfinite(v))
		ud_format_ns(v, buf, len);
	else
		snprintf(buf, len, "-");
}

static json_t *row_view(const struct ud_hotspot_move *h)
{
	json_t *sym = ud_rv_shorten(h->symbol, SYMBOL_CHARS);
	const char *mode = ud_mode_name(h->mode);
	char a[16], b[16], an[32], bn[32], col[256];

	share_cell(h->a_share, a, sizeof(a));
	share_cell(h->b_share, b, sizeof(b));
	ns_cell(h->a_ns, an, sizeof(an));
	ns_cell(h->b_ns, bn, sizeof(bn));
	snprintf(col, sizeof(col), "%-40s %-6s %7s %7s %12s %12s", json_string_value(sym), mode, a, b, an, bn);
	return json_pack("{s:o s:s s:s s:s s:s s:s s:s}", "symbol", sym, "mode", mode, "a", a, "b", b,
			 "a_ns", an, "b_ns", bn, "col", col);
}

json_t *ud_rv_hotspots(const struct ud_diff_workload *w)
{
	json_t *rows;
	char title[160];

	/* SPEC §5.1: a diff has hotspots only where both profiles were sampled */
	if (!w->a->hotspots || !w->b->hotspots || w->nhotspots == 0)
		return json_null();
	rows = json_array();
	for (size_t i = 0; i < w->nhotspots; i++)
		json_array_append_new(rows, row_view(&w->hotspots[i]));
	snprintf(title, sizeof(title), "sampled symbols whose share moved most: share of samples, CPU time per %s",
		 w->work.unit);
	return json_pack("{s:s s:o s:o}", "title", title, "rows", rows, "chart", ud_chart_hotspots(w->hotspots, w->nhotspots));
}
