/*
 * A diff workload's hotspots for the reports: each symbol's share of the
 * samples on both hosts and the CPU time per unit of work it stands for,
 * as a table (a text column too) and a chart.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

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

static json_t *row_view(const json_t *h)
{
	json_t *sym = ud_rv_shorten(json_string_value(json_object_get(h, "symbol")), SYMBOL_CHARS);
	const char *mode = json_string_value(json_object_get(h, "mode"));
	char a[16], b[16], an[32], bn[32], col[256];

	share_cell(ud_rv_get(h, "a_share"), a, sizeof(a));
	share_cell(ud_rv_get(h, "b_share"), b, sizeof(b));
	ns_cell(ud_rv_get(h, "a_ns_per_unit"), an, sizeof(an));
	ns_cell(ud_rv_get(h, "b_ns_per_unit"), bn, sizeof(bn));
	snprintf(col, sizeof(col), "%-40s %-6s %7s %7s %12s %12s", json_string_value(sym), mode ? mode : "", a, b, an,
		 bn);
	return json_pack("{s:o s:s s:s s:s s:s s:s s:s}", "symbol", sym, "mode", mode ? mode : "", "a", a, "b", b,
			 "a_ns", an, "b_ns", bn, "col", col);
}

json_t *ud_rv_hotspots(const json_t *w)
{
	const json_t *hs = json_object_get(w, "hotspots"), *h;
	const char *unit = json_string_value(json_object_get(json_object_get(w, "work"), "unit"));
	json_t *rows;
	char title[160];
	size_t i;

	if (!json_array_size(hs))
		return json_null();
	rows = json_array();
	json_array_foreach(hs, i, h)
		json_array_append_new(rows, row_view(h));
	snprintf(title, sizeof(title), "sampled symbols whose share moved most: share of samples, CPU time per %s",
		 unit ? unit : "unit");
	return json_pack("{s:s s:o s:o}", "title", title, "rows", rows, "chart", ud_chart_hotspots(hs));
}
