/*
 * A diff workload's hotspots for the reports: each symbol's share of the
 * samples on both hosts and the CPU time per unit of work it stands for,
 * as a table (a text column too) and a chart.
 */
#include <math.h>
#include <stdio.h>

#include "report_view.h"
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

static struct rv_hot_row row_view(struct ud_view_pool *pool, const struct ud_hotspot_move *h)
{
	const char *sym = ud_rv_pool_shorten(pool, h->symbol, SYMBOL_CHARS);
	const char *mode = ud_mode_name(h->mode);
	char a[16], b[16], an[32], bn[32];

	share_cell(h->a_share, a, sizeof(a));
	share_cell(h->b_share, b, sizeof(b));
	ns_cell(h->a_ns, an, sizeof(an));
	ns_cell(h->b_ns, bn, sizeof(bn));
	return (struct rv_hot_row){
		.symbol = sym, .mode = mode, .a = ud_view_pool_printf(pool, "%s", a), .b = ud_view_pool_printf(pool, "%s", b),
		.a_ns = ud_view_pool_printf(pool, "%s", an), .b_ns = ud_view_pool_printf(pool, "%s", bn),
		.col = ud_view_pool_printf(pool, "%-40s %-6s %7s %7s %12s %12s", sym ? sym : "", mode, a, b, an, bn),
	};
}

struct rv_hotspots *ud_rv_hotspots(struct ud_view_pool *pool, const struct ud_diff_workload *w)
{
	struct rv_hotspots *v;

	/* SPEC §5.1: a diff has hotspots only where both profiles were sampled */
	if (!w->a->hotspots || !w->b->hotspots || w->nhotspots == 0)
		return NULL;
	if (!(v = ud_view_pool_alloc(pool, 1, sizeof(*v))) ||
	    !(v->rows = ud_view_pool_alloc(pool, w->nhotspots, sizeof(*v->rows))))
		return NULL;
	for (size_t i = 0; i < w->nhotspots; i++)
		v->rows[v->nrows++] = row_view(pool, &w->hotspots[i]);
	v->title = ud_view_pool_printf(pool, "sampled symbols whose share moved most: share of samples, CPU time per %s",
				       w->work.unit);
	v->chart = ud_chart_hotspots(pool, w->hotspots, w->nhotspots);
	return v;
}

static const struct ud_field row_rows[] = {
	UD_FIELD(struct rv_hot_row, symbol, UD_FIELD_STRING), UD_FIELD(struct rv_hot_row, mode, UD_FIELD_STRING),
	UD_FIELD(struct rv_hot_row, a, UD_FIELD_STRING),      UD_FIELD(struct rv_hot_row, b, UD_FIELD_STRING),
	UD_FIELD(struct rv_hot_row, a_ns, UD_FIELD_STRING),   UD_FIELD(struct rv_hot_row, b_ns, UD_FIELD_STRING),
	UD_FIELD(struct rv_hot_row, col, UD_FIELD_STRING),
};
static const struct ud_fields row_fields = UD_FIELDS("a hotspot row", row_rows);

static const struct ud_field hotspots_rows[] = {
	UD_FIELD(struct rv_hotspots, title, UD_FIELD_STRING),
	UD_FIELD_LIST_OF(struct rv_hotspots, rows, nrows, &row_fields),
	UD_FIELD_SUB(struct rv_hotspots, chart, UD_FIELD_OBJECT, &ud_rv_hot_chart_fields),
};
const struct ud_fields ud_rv_hotspots_fields = UD_FIELDS("a workload's hotspots", hotspots_rows);
