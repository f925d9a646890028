/*
 * report_chart.c - the geometry of the HTML report's inline SVG charts: an
 * overview of every workload's speedup, a waterfall of each workload's
 * factors on one log axis shared by all of them (so a bar's length means
 * the same ratio in every chart), A-vs-B bars for IPC and the miss rates,
 * and each host's CPI as a stacked bar, or its cycles per unit of work by
 * top-down bucket.  Coordinates, colours and legends are computed here so
 * the template only places what it is given.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "derived.h"
#include "diff.h"
#include "report_priv.h"
#include "sort.h"
#include "text.h"

/* Every chart is as wide as the page's text column, so they line up. */
#define CHART_WIDTH 920
#define CHART_LABEL_X 8
/* Waterfall and A-vs-B bars: a label column, then the plot, then room for the value printed after a bar. */
#define CHART_PLOT_LEFT 170
#define CHART_PLOT_RIGHT 820
/* The A-vs-B bars end where "B 12.96%" still fits before the page's edge. */
#define AB_PLOT_RIGHT 840
/* A symbol's label fits the label column: 20 characters of 12 px text are at most about 150 px of its 162. */
#define HOT_LABEL_CHARS 20
/* Hotspot bars end where "B not among its top symbols" (about 170 px at 12 px) still fits. */
#define HOT_PLOT_RIGHT 740
#define CHART_ROW 28
#define CHART_BAR 20
#define CHART_TOP 10
/* Below the last row: the axis' tick labels. */
#define AXIS_LABELS 22
/* A legend row: swatch size and the room given to each entry. */
#define LEGEND_ROW 24
#define LEGEND_SWATCH 12
#define LEGEND_ENTRY 225

/* The overview: a name column wide enough for UnixBench's names, the plot, the speedup in words. */
#define OV_NAME_CHARS 50
#define OV_PLOT_LEFT 380
#define OV_PLOT_RIGHT 770
#define OV_VALUE_X 782
/* Rows shrink from OV_ROW_MAX to OV_ROW_MIN as workloads grow, so 100 stay one readable screenful or two. */
#define OV_ROW_MAX 22
#define OV_ROW_MIN 12
#define OV_HEIGHT_TARGET 1100
/* More workloads than this: the ones that moved most, with a note; the tables list them all. */
#define OVERVIEW_MAX 100
/* The top band holds the geomean's label. */
#define OV_TOP 24

/* The stacked CPI bars: one per host, the parts' values under each. */
#define CPI_ROW 50
#define CPI_BAR 22
/* A part narrower than this has its value only in the line under the bar. */
#define CPI_TEXT_MIN 70
#define PER_KILO 1000.0

/* Colours: gains green, losses red, what the counters cannot place neutral grey, totals blue. */
#define COLOR_UP "#2ca02c"
#define COLOR_DOWN "#d62728"
#define COLOR_TOTAL "#1f77b4"
#define COLOR_UNEXPLAINED "#b0b0b0"
#define COLOR_SAME "#7f7f7f"
#define COLOR_BRANCH "#ff7f0e"
#define COLOR_L1D "#9467bd"
#define COLOR_OTHER "#aec7e8"

/*
 * Round ratios for ticks, by range: the first ladder whose last tick holds
 * the data is used, and each end of the axis moves out to the next tick.
 */
#define LADDER_TICKS 6
static const struct ladder {
	double t[LADDER_TICKS]; /* ascending ratios above 1; 0 ends a short ladder */
} ladders[] = {
	{ { 1.02, 1.05, 1.1 } }, { { 1.1, 1.25, 1.5 } }, { { 1.25, 1.5, 2 } },  { { 2, 4, 8, 16 } },
	{ { 4, 16, 64, 256 } },  { { 10, 100, 1e3, 1e4, 1e5, 1e6 } },
};
#define LADDER_COUNT (sizeof(ladders) / sizeof(ladders[0]))

static int ladder_len(const struct ladder *l)
{
	int n = 0;

	while (n < LADDER_TICKS && l->t[n] > 0)
		n++;
	return n;
}

static const struct ladder *ladder_for(double extent)
{
	for (size_t i = 0; i < LADDER_COUNT; i++)
		if (log(ladders[i].t[ladder_len(&ladders[i]) - 1]) >= extent)
			return &ladders[i];
	return &ladders[LADDER_COUNT - 1];
}

/* The first tick at or beyond ln ratio e (e >= 0), or e itself past the ladder. */
static double ladder_end(const struct ladder *l, double e)
{
	for (int i = 0; i < ladder_len(l); i++)
		if (log(l->t[i]) >= e - 1e-12)
			return log(l->t[i]);
	return e;
}

/* The axis holding ln ratios lo..hi (lo <= 0 <= hi) between x = left and right. */
static void ud_axis_fit(struct ud_log_axis *ax, double lo, double hi, double left, double right)
{
	const struct ladder *l = ladder_for(fmax(-lo, hi));

	ax->lo = lo < 0 ? -ladder_end(l, -lo) : 0;
	ax->hi = hi > 0 ? ladder_end(l, hi) : 0;
	if (ax->hi - ax->lo <= 0) /* every ratio 1x: show the finest ladder's first step */
		ax->hi = log(ladders[0].t[0]);
	ax->left = left;
	ax->right = right;
}

/* The x of a ratio's logarithm. */
static double ud_axis_x(const struct ud_log_axis *ax, double ln_ratio)
{
	return ax->left + (ln_ratio - ax->lo) / (ax->hi - ax->lo) * (ax->right - ax->left);
}

static json_t *tick(const struct ud_log_axis *ax, double ln_ratio)
{
	return json_pack("{s:o s:o s:b}", "x", ud_rv_coord(ud_axis_x(ax, ln_ratio)), "label",
			 ud_rv_ratio(exp(ln_ratio)), "one", fabs(ln_ratio) < 1e-12);
}

/* 1x and the ladder's ticks on either side that lie on the axis, left to right. */
static json_t *axis_ticks(const struct ud_log_axis *ax)
{
	const struct ladder *l = ladder_for(fmax(-ax->lo, ax->hi));
	json_t *ticks = json_array();
	int n = ladder_len(l);

	for (int i = n - 1; i >= 0; i--)
		if (-log(l->t[i]) >= ax->lo - 1e-9)
			json_array_append_new(ticks, tick(ax, -log(l->t[i])));
	json_array_append_new(ticks, tick(ax, 0));
	for (int i = 0; i < n; i++)
		if (log(l->t[i]) <= ax->hi + 1e-9)
			json_array_append_new(ticks, tick(ax, log(l->t[i])));
	return ticks;
}

static json_t *legend_entry(int i, const char *color, const char *label)
{
	int x = CHART_LABEL_X + i * LEGEND_ENTRY;

	return json_pack("{s:i s:i s:s s:s}", "x", x, "text_x", x + LEGEND_SWATCH + 5, "color", color, "label", label);
}

void ud_chart_waterfall_extent(const double factor[UD_FACTOR_COUNT], double speedup, double *lo, double *hi)
{
	double cum = 0;

	for (int i = 0; i < UD_FACTOR_COUNT; i++) {
		double f = factor[i];

		if (isfinite(f) && f > 0) {
			cum += log(f);
			*lo = fmin(*lo, cum);
			*hi = fmax(*hi, cum);
		}
	}
	if (isfinite(speedup) && speedup > 0) {
		*lo = fmin(*lo, log(speedup));
		*hi = fmax(*hi, log(speedup));
	}
}

void ud_chart_waterfall_axis(struct ud_log_axis *ax, double lo, double hi)
{
	ud_axis_fit(ax, lo, hi, CHART_PLOT_LEFT, CHART_PLOT_RIGHT);
}

static const char *factor_color(bool total, enum ud_factor f, double v)
{
	if (total)
		return COLOR_TOTAL;
	if (f == UD_FACTOR_UNEXPLAINED)
		return COLOR_UNEXPLAINED;
	return v >= 1 ? COLOR_UP : COLOR_DOWN;
}

/* The factors as a waterfall: each bar starts where the last ended, the speedup last, from 1x. */
json_t *ud_chart_waterfall(const double factor[UD_FACTOR_COUNT], double speedup, const struct ud_log_axis *ax)
{
	json_t *bars = json_array();
	double cum = 0, top = CHART_TOP + LEGEND_ROW, bottom;
	int row = 0;

	for (int i = 0; i <= UD_FACTOR_COUNT; i++) {
		bool total = i == UD_FACTOR_COUNT;
		enum ud_factor id = (enum ud_factor)(total ? 0 : i);
		double f = total ? speedup : factor[id], from = total ? 0 : cum, to;
		double y = top + row * CHART_ROW, x0, x1;

		if (!isfinite(f) || f <= 0)
			continue;
		to = from + log(f);
		if (!total)
			cum = to;
		x0 = ud_axis_x(ax, fmin(from, to));
		x1 = ud_axis_x(ax, fmax(from, to));
		json_array_append_new(bars, json_pack("{s:s s:o s:o s:o s:o s:o s:o s:s s:o s:o}", "label",
						      total ? "speedup" : ud_factor_label(id), "x", ud_rv_coord(x0), "y",
						      ud_rv_coord(y), "w", ud_rv_coord(fmax(x1 - x0, 1)), "h",
						      ud_rv_coord(CHART_BAR), "text_y", ud_rv_coord(y + CHART_BAR * 0.7),
						      "value_x", ud_rv_coord(fmax(x1, x0 + 1) + 4), "color",
						      factor_color(total, id, f), "value", ud_rv_ratio(f), "label_x",
						      ud_rv_coord(CHART_LABEL_X)));
		row++;
	}
	bottom = top + row * CHART_ROW;
	return json_pack("{s:i s:i s:o s:o s:i s:o s:o s:o s:o s:[oooo]}", "width", CHART_WIDTH, "height",
			 (int)bottom + AXIS_LABELS, "bars", bars, "axis_x", ud_rv_coord(ud_axis_x(ax, 0)), "axis_top", (int)top - 4,
			 "axis_bottom", ud_rv_coord(bottom), "tick_y", ud_rv_coord(bottom + AXIS_LABELS - 6), "ticks",
			 axis_ticks(ax), "legend_y", ud_rv_coord(CHART_TOP), "legend",
			 legend_entry(0, COLOR_UP, "factor above 1 (B gains)"),
			 legend_entry(1, COLOR_DOWN, "factor below 1 (B loses)"),
			 legend_entry(2, COLOR_UNEXPLAINED, "unexplained (no counter)"),
			 legend_entry(3, COLOR_TOTAL, "speedup: their product"));
}

/* IPC and the miss rates, A above B, each pair scaled to its larger value. */
/*
 * The A-vs-B metric bars' one axis: log from the decade below the smallest
 * value to the decade above the largest where they span a decade or more
 * (IPC near 1 beside miss rates near 0.01), else linear from 0 to the
 * largest; bars end short of the page's edge by the value printed after them.
 */
struct ab_axis {
	bool log;
	double lo, hi; /* the values at the plot's ends */
};

static double ab_x(const struct ab_axis *ax, double v)
{
	double f = ax->log ? log10(v / ax->lo) / log10(ax->hi / ax->lo) : v / ax->hi;

	return CHART_PLOT_LEFT + fmax(f, 0) * (AB_PLOT_RIGHT - CHART_PLOT_LEFT);
}

/* The axis' ticks under the rows at y: each decade (log), or 0, half and the end (linear). */
static json_t *ab_ticks(const struct ab_axis *ax, double y)
{
	json_t *ticks = json_array();
	char label[32];

	for (double v = ax->log ? ax->lo : 0; v <= ax->hi * 1.0001; v = ax->log ? v * 10 : v + ax->hi / 2) {
		ud_format_human(v, label, sizeof(label));
		json_array_append_new(ticks, json_pack("{s:o s:o s:o s:s}", "x", ud_rv_coord(ab_x(ax, v)),
						       "y", ud_rv_coord(y), "label_y", ud_rv_coord(y + 14), "label", label));
	}
	return ticks;
}

/* The shown metrics' extent: the smallest and largest positive values of both sides. */
static void ab_extent(const struct ud_ab metric[UD_METRIC_COUNT], const enum ud_metric *shown, size_t n,
		      struct ab_axis *ax)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ud_ab *m = &metric[shown[i]];

		if (!isfinite(m->a) || !isfinite(m->b) || fmax(m->a, m->b) <= 0)
			continue;
		for (int k = 0; k < 2; k++) {
			double v = k ? m->b : m->a;

			if (v > 0) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	}
	ax->log = hi > 0 && hi / lo >= 10;
	ax->lo = ax->log ? pow(10, floor(log10(lo))) : 0;
	ax->hi = ax->log ? pow(10, ceil(log10(hi))) : hi > 0 ? hi : 1;
}

json_t *ud_chart_ab_bars(const struct ud_ab metric[UD_METRIC_COUNT])
{
	static const enum ud_metric shown[] = { UD_M_IPC, UD_M_BRANCH_MISS_RATE, UD_M_L1D_MISS_RATE };
	const size_t nshown = sizeof(shown) / sizeof(shown[0]);
	json_t *rows = json_array();
	struct ab_axis ax;
	int row = 0;
	double bottom;

	ab_extent(metric, shown, nshown, &ax);
	for (size_t i = 0; i < nshown; i++) {
		double a = metric[shown[i]].a, b = metric[shown[i]].b, y = 10 + row * (2 * CHART_BAR + 14);
		double aw, bw;

		if (!isfinite(a) || !isfinite(b) || fmax(a, b) <= 0)
			continue;
		aw = fmax(ab_x(&ax, a) - CHART_PLOT_LEFT, 1);
		bw = fmax(ab_x(&ax, b) - CHART_PLOT_LEFT, 1);
		json_array_append_new(rows, json_pack("{s:s s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o}", "label",
						      ud_metric_label(shown[i]), "label_y", ud_rv_coord(y + CHART_BAR * 0.7),
						      "a_y", ud_rv_coord(y), "b_y", ud_rv_coord(y + CHART_BAR + 2), "a_w",
						      ud_rv_coord(aw), "b_w", ud_rv_coord(bw), "a_text", ud_rv_metric(a, shown[i]),
						      "b_text", ud_rv_metric(b, shown[i]), "a_tx",
						      ud_rv_coord(CHART_PLOT_LEFT + aw + 4), "b_tx", ud_rv_coord(CHART_PLOT_LEFT + bw + 4),
						      "b_ty", ud_rv_coord(y + 2 * CHART_BAR * 0.85)));
		row++;
	}
	bottom = 10 + row * (2 * CHART_BAR + 14);
	/* drawn: a host pair without IPC or a miss rate (no PMU) gets no chart, not an empty frame */
	return json_pack("{s:i s:o s:i s:o s:o s:o s:s s:b}", "width", CHART_WIDTH, "height",
			 ud_rv_coord(bottom + AXIS_LABELS), "left", CHART_PLOT_LEFT, "rows", rows, "ticks",
			 row ? ab_ticks(&ax, bottom) : json_array(), "axis_bottom", ud_rv_coord(bottom), "scale",
			 ax.log ? "log" : "linear", "drawn", row > 0);
}

/* A share as the chart labels it; a symbol not among a host's top ones has none there. */
static json_t *share_text(double v)
{
	return isfinite(v) ? ud_rv_fmt("%.1f%%", 100 * v) : json_string("not among its top symbols");
}

/* The symbols' shares, A above B, scaled to the largest; a symbol absent on a side has no bar there. */
json_t *ud_chart_hotspots(const struct ud_hotspot_move *moves, size_t n)
{
	json_t *rows = json_array();
	double top = 0, width = HOT_PLOT_RIGHT - CHART_PLOT_LEFT;

	for (size_t i = 0; i < n; i++)
		top = fmax(top, fmax(ud_rv_known(moves[i].a_share), ud_rv_known(moves[i].b_share)));
	for (size_t i = 0; i < n; i++) {
		double a = ud_rv_known(moves[i].a_share), b = ud_rv_known(moves[i].b_share), y = CHART_TOP + (double)i * (2 * CHART_BAR + 14);
		double aw = isfinite(a) && top > 0 ? fmax(width * a / top, 1) : 0, bw = isfinite(b) && top > 0 ? fmax(width * b / top, 1) : 0;

		json_array_append_new(rows, json_pack("{s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o}", "label",
						      ud_rv_shorten(moves[i].symbol, HOT_LABEL_CHARS),
						      "label_y", ud_rv_coord(y + CHART_BAR * 0.7), "a_y", ud_rv_coord(y), "b_y",
						      ud_rv_coord(y + CHART_BAR + 2), "a_w", ud_rv_coord(aw), "b_w", ud_rv_coord(bw),
						      "a_text", share_text(a), "b_text", share_text(b),
						      "a_tx", ud_rv_coord(CHART_PLOT_LEFT + aw + 4), "b_tx",
						      ud_rv_coord(CHART_PLOT_LEFT + bw + 4), "b_ty",
						      ud_rv_coord(y + 2 * CHART_BAR * 0.85)));
	}
	return json_pack("{s:i s:o s:i s:o}", "width", CHART_WIDTH, "height",
			 ud_rv_coord(CHART_TOP + (double)n * (2 * CHART_BAR + 14)), "left",
			 CHART_PLOT_LEFT, "rows", rows);
}

struct ov_item {
	const struct ud_diff_workload *w;
	double ln;     /* ln(speedup) */
	double lo, hi; /* ln of its 95% interval's ends; NAN without one */
};

/* ln of the ends of the workload's 95% interval, NAN where it has none. */
static void interval_of(struct ov_item *it)
{
	double lo = ud_rv_known(it->w->sig.lo), hi = ud_rv_known(it->w->sig.hi);

	it->lo = it->hi = NAN;
	if (lo > 0 && hi > 0) {
		it->lo = log(lo);
		it->hi = log(hi);
	}
}

static int by_moved(const void *x, const void *y)
{
	double a = fabs(((const struct ov_item *)x)->ln), b = fabs(((const struct ov_item *)y)->ln);

	return (a < b) - (a > b);
}

/* Fastest first, so the chart reads from B's best case down to its worst. */
static int by_speedup(const void *x, const void *y)
{
	double a = ((const struct ov_item *)x)->ln, b = ((const struct ov_item *)y)->ln;

	return (a < b) - (a > b);
}

/* The workloads the overview draws: every non-composite one with a speedup, at most OVERVIEW_MAX. */
static struct ov_item *overview_items(const struct ud_diff *d, size_t *n, size_t *total, size_t *no_speedup)
{
	struct ov_item *items = calloc(d->nworkloads + 1, sizeof(*items));

	*n = *no_speedup = 0;
	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_diff_workload *w = &d->workloads[i];
		double s = w->speedup;

		if (!items || w->composite)
			continue;
		if (isfinite(s) && s > 0) {
			items[*n] = (struct ov_item){ w, log(s), NAN, NAN };
			interval_of(&items[(*n)++]);
		} else
			(*no_speedup)++;
	}
	*total = *n;
	if (*n > OVERVIEW_MAX) {
		ud_sort(items, *n, sizeof(*items), by_moved);
		*n = OVERVIEW_MAX;
	}
	if (items)
		ud_sort(items, *n, sizeof(*items), by_speedup);
	return items;
}

static json_t *overview_bar(const struct ov_item *it, const struct ud_log_axis *ax, double y, double pitch)
{
	double x0 = ud_axis_x(ax, fmin(0, it->ln)), x1 = ud_axis_x(ax, fmax(0, it->ln)), h = pitch * 0.7;
	const char *name = it->w->a->name;
	char sp[48];
	json_t *bar;

	ud_rv_speedup_text(exp(it->ln), it->w->sig.significant, sp, sizeof(sp));
	bar = json_pack("{s:s s:o s:o s:o s:o s:o s:o s:s s:s s:b}", "name", name, "label",
			 ud_rv_shorten(name, OV_NAME_CHARS), "x", ud_rv_coord(x0), "y", ud_rv_coord(y + (pitch - h) / 2),
			 "w", ud_rv_coord(fmax(x1 - x0, 1)), "h", ud_rv_coord(h), "text_y", ud_rv_coord(y + pitch * 0.72),
			 "color", fabs(it->ln) < 1e-9 ? COLOR_SAME : it->ln > 0 ? COLOR_UP : COLOR_DOWN, "value", sp,
			 "lower_is_better", !it->w->a->higher_is_better);
	/* the speedup's 95% interval as a whisker across the bar's end, where the diff has one */
	json_object_set_new(bar, "whisker",
			    isfinite(it->lo) ? json_pack("{s:o s:o s:o}", "x1", ud_rv_coord(ud_axis_x(ax, it->lo)), "x2",
							 ud_rv_coord(ud_axis_x(ax, it->hi)), "y",
							 ud_rv_coord(y + pitch / 2))
					 : json_null());
	return bar;
}

/* "The 100 of 1000 workloads that moved most", those without a speedup, or "" when all are drawn. */
static json_t *overview_note(size_t n, size_t total, size_t no_speedup)
{
	char note[320] = "";
	int used = 0;

	if (n < total)
		used = snprintf(note, sizeof(note), "The %zu of %zu workloads that moved most; the table below has them all.",
				n, total);
	if (no_speedup)
		snprintf(note + used, sizeof(note) - (size_t)used,
			 "%s%zu without a speedup (no score or task-clock on a side) %s left out.", used ? " " : "", no_speedup,
			 no_speedup == 1 ? "is" : "are");
	return json_string(note);
}

json_t *ud_chart_overview(const struct ud_diff *d)
{
	size_t n, total, no_speedup;
	struct ov_item *items = overview_items(d, &n, &total, &no_speedup);
	double geomean = d->summary.geomean_speedup, extent = isfinite(geomean) && geomean > 0 ? fabs(log(geomean)) : 0, pitch, bottom;
	struct ud_log_axis ax;
	json_t *bars = json_array(), *out;
	char gm[64];

	if (!items || n == 0) {
		free(items);
		json_decref(bars);
		return json_null();
	}
	for (size_t i = 0; i < n; i++) {
		extent = fmax(extent, fabs(items[i].ln));
		if (isfinite(items[i].lo)) /* the whiskers stay on the axis too */
			extent = fmax(extent, fmax(fabs(items[i].lo), fabs(items[i].hi)));
	}
	/* Centred at 1x: a gain and a loss of the same ratio are bars of the same length. */
	ud_axis_fit(&ax, -extent, extent, OV_PLOT_LEFT, OV_PLOT_RIGHT);
	pitch = fmin(OV_ROW_MAX, fmax(OV_ROW_MIN, (double)OV_HEIGHT_TARGET / (double)n));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(bars, overview_bar(&items[i], &ax, OV_TOP + (double)i * pitch, pitch));
	free(items);
	bottom = OV_TOP + (double)n * pitch;
	ud_rv_speedup_text(geomean, -1, gm, sizeof(gm));
	out = json_pack("{s:i s:i s:o s:i s:i s:o s:o s:o s:o s:o s:s s:o}", "width", CHART_WIDTH, "height",
			(int)(bottom + AXIS_LABELS), "bars", bars, "label_right", OV_PLOT_LEFT - 8, "value_x", OV_VALUE_X,
			"axis_x", ud_rv_coord(ud_axis_x(&ax, 0)), "axis_bottom", ud_rv_coord(bottom), "tick_y",
			ud_rv_coord(bottom + AXIS_LABELS - 6), "ticks", axis_ticks(&ax), "note", overview_note(n, total, no_speedup),
			"font", pitch < 16 ? "11" : "12", "geomean", json_null());
	json_object_set_new(out, "axis_top", json_integer(OV_TOP - 2));
	if (isfinite(geomean) && geomean > 0)
		json_object_set_new(out, "geomean", json_pack("{s:o s:s s:i}", "x", ud_rv_coord(ud_axis_x(&ax, log(geomean))),
							      "label", gm, "y", OV_TOP - 8));
	return out;
}

/* One host's CPI terms: each miss charged its full penalty (upper bounds), the rest what remains. */
struct cpi_terms {
	double cpi, branch, l1d, other;
	bool split;	/* penalties and miss rates known */
	bool overshoot; /* branch + l1d > cpi: misses overlap */
};

/* One side's value of an A/B pair. */
static double side_of(const struct ud_ab *v, enum ud_side side)
{
	return ud_rv_known(side == UD_SIDE_A ? v->a : v->b);
}

static struct cpi_terms cpi_terms(const struct ud_ab *metric, const struct ud_uarch *u, enum ud_side side)
{
	struct cpi_terms t = { .cpi = side_of(&metric[UD_M_CPI], side) };
	double bm = side_of(&metric[UD_M_BRANCH_MPKI], side), lm = side_of(&metric[UD_M_L1D_MPKI], side), bp, lp;

	ud_rv_penalties(u, &bp, &lp);

	t.branch = bm * bp / PER_KILO;
	t.l1d = lm * lp / PER_KILO;
	t.split = isfinite(t.branch) && isfinite(t.l1d);
	if (!t.split)
		t.branch = t.l1d = 0;
	t.other = t.cpi - t.branch - t.l1d;
	t.overshoot = t.other < 0;
	return t;
}

static json_t *cpi_segment(double x, double w, const char *color, const char *what, double v, bool dark)
{
	char text[48] = "";

	if (w >= CPI_TEXT_MIN)
		snprintf(text, sizeof(text), "%s %.3f", what, v);
	return json_pack("{s:o s:o s:s s:s s:o s:s}", "x", ud_rv_coord(x), "w", ud_rv_coord(w), "color", color, "text", text,
			 "text_x", ud_rv_coord(x + 5), "text_color", dark ? "#ffffff" : "#222222");
}

/* One host's bar: the parts scaled to the CPI they share (in an overshoot, shrunk to fit it). */
static json_t *cpi_row(const char *host, const struct cpi_terms *t, double scale, double y)
{
	double parts = t->branch + t->l1d, fit = t->overshoot && parts > 0 ? t->cpi / parts : 1, x = CHART_PLOT_LEFT;
	double wb = t->branch * fit * scale, wl = t->l1d * fit * scale, wo = fmax(t->other, 0) * scale;
	json_t *segs = json_array();
	char label[48], line[160];

	json_array_append_new(segs, cpi_segment(x, wb, COLOR_BRANCH, "branch", t->branch, true));
	json_array_append_new(segs, cpi_segment(x + wb, wl, COLOR_L1D, "L1d", t->l1d, true));
	json_array_append_new(segs, cpi_segment(x + wb + wl, wo, COLOR_OTHER, "other", fmax(t->other, 0), false));
	snprintf(label, sizeof(label), "%s: CPI %.3f", host, t->cpi);
	if (t->split)
		snprintf(line, sizeof(line), "branch up to %.3f + L1d up to %.3f + other %.3f%s", t->branch, t->l1d,
			 fmax(t->other, 0), t->overshoot ? " (the two parts alone exceed the CPI)" : "");
	else
		snprintf(line, sizeof(line), "no miss penalties or miss rates known: all of it in 'other'");
	return json_pack("{s:s s:s s:o s:o s:o s:o s:o s:s s:o s:o s:o s:o}", "host", host, "label", label, "y",
			 ud_rv_coord(y), "h", ud_rv_coord(CPI_BAR), "text_y", ud_rv_coord(y + CPI_BAR * 0.7), "segs", segs,
			 "total_w", ud_rv_coord(t->cpi * scale), "line", line, "line_y", ud_rv_coord(y + CPI_BAR + 15),
			 "branch", ud_rv_fmt("%.3f", t->branch), "l1d", ud_rv_fmt("%.3f", t->l1d), "other",
			 ud_rv_fmt("%.3f", fmax(t->other, 0)));
}

json_t *ud_chart_cpi_stack(const struct ud_ab metric[UD_METRIC_COUNT], const struct ud_diff *d)
{
	static const char *const hosts[] = { "A", "B" };
	struct cpi_terms t[UD_SIDE_COUNT];
	json_t *rows = json_array(), *missing = json_array();
	double top = 0, y = CHART_TOP + LEGEND_ROW;
	bool overshoot = false;

	for (int i = 0; i < UD_SIDE_COUNT; i++) {
		t[i] = cpi_terms(metric, d->host[i].uarch, (enum ud_side)i);
		if (isfinite(t[i].cpi) && t[i].cpi > 0)
			top = fmax(top, t[i].cpi);
	}
	if (top <= 0) {
		json_decref(rows);
		json_decref(missing);
		return json_null();
	}
	/* One scale for both hosts: the bars' lengths compare their CPIs. */
	for (int i = 0; i < UD_SIDE_COUNT; i++) {
		if (!isfinite(t[i].cpi) || t[i].cpi <= 0) {
			json_array_append_new(missing, json_string(hosts[i]));
			continue;
		}
		json_array_append_new(rows, cpi_row(hosts[i], &t[i], (CHART_PLOT_RIGHT - CHART_PLOT_LEFT) / top, y));
		overshoot |= t[i].overshoot && t[i].split;
		y += CPI_ROW;
	}
	return json_pack("{s:i s:i s:o s:o s:i s:o s:b s:o s:[ooo]}", "width", CHART_WIDTH, "height", (int)y, "rows", rows,
			 "missing", missing, "line_x", CHART_PLOT_LEFT,
			 "legend_y", ud_rv_coord(CHART_TOP), "overshoot", overshoot, "label_x", ud_rv_coord(CHART_LABEL_X),
			 "legend", legend_entry(0, COLOR_BRANCH, "branch mispredicts (upper bound)"),
			 legend_entry(1, COLOR_L1D, "L1d misses (upper bound)"), legend_entry(2, COLOR_OTHER, "everything else"));
}

/* The stacked top-down bars: one per host, each bucket's cycles per unit of work, on one scale. */
#define TD_LEGEND_ENTRY 150
/* A part's text shows where it fits: 11 px system-ui runs about 6.5 px a character, 5 px in from each end. */
#define TD_CHAR_W 6.5
#define TD_TEXT_PAD 10

static const char *const td_colors[UD_TD_LEVEL1_COUNT] = {
	[UD_TD_RETIRING] = "#2ca02c", [UD_TD_BAD_SPECULATION] = "#d62728", [UD_TD_FRONTEND_BOUND] = "#ff7f0e",
	[UD_TD_BACKEND_BOUND] = "#9467bd", [UD_TD_SMT_CONTENTION] = "#8c564b",
};

static const char *td_color(int b)
{
	return b == UD_TD_RESIDUAL ? COLOR_UNEXPLAINED : td_colors[b];
}

/* A bucket's fraction on one side, the residual at UD_TD_RESIDUAL; NAN where the side lacks it. */
static double td_fraction(const struct ud_topdown *t, int b)
{
	return b == UD_TD_RESIDUAL ? t->residual : t->defined[b] ? t->value[b] : NAN;
}

/* "bad speculation", or what the residual is for the record's method. */
static void td_label(const struct ud_topdown *t, int b, char *buf, size_t len)
{
	if (b == UD_TD_RESIDUAL)
		snprintf(buf, len, "%s", t->method == UD_TD_CYCLE_ACCOUNTING ? "not stalled" : "unclaimed");
	else
		snprintf(buf, len, "%s", ud_topdown_bucket_name(b));
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

/* The level-1 buckets and the residual, in the bar's order. */
static int td_part(int i)
{
	return i < UD_TD_LEVEL1_COUNT ? i : UD_TD_RESIDUAL;
}

/* One host's bar: each level-1 bucket's cycles (or slots) per unit, its share of the bar where neither is known. */
static json_t *td_row(const char *host, const struct ud_topdown *t, double cycles, double scale, const char *measure,
		      const char *unit, double y)
{
	double x = CHART_PLOT_LEFT, per = isfinite(cycles) ? cycles : 1;
	json_t *segs = json_array(), *v;
	char label[96], name[48], value[40], *line = NULL;
	bool ok = true;

	for (int i = 0; i <= UD_TD_LEVEL1_COUNT; i++) {
		int b = td_part(i);
		double f = td_fraction(t, b), w = f * per * scale;
		char text[96] = "";

		if (!isfinite(f) || f <= 0)
			continue;
		td_label(t, b, name, sizeof(name));
		snprintf(text, sizeof(text), "%s %.0f%%", name, 100 * f);
		if (w < TD_CHAR_W * (double)strlen(text) + TD_TEXT_PAD)
			text[0] = '\0';
		json_array_append_new(segs, json_pack("{s:o s:o s:s s:s s:o s:s}", "x", ud_rv_coord(x), "w", ud_rv_coord(w),
						      "color", td_color(b), "text", text, "text_x", ud_rv_coord(x + 5),
						      "text_color", b == UD_TD_RESIDUAL ? "#222222" : "#ffffff"));
		x += w;
		ud_rv_count_text(f * cycles, value, sizeof(value));
		if (ok)
			ok = isfinite(cycles) ? ud_append(&line, "%s%s %s", line ? " + " : "", name, value)
					      : ud_append(&line, "%s%s %.1f%%", line ? " + " : "", name, 100 * f);
	}
	ud_rv_count_text(cycles, value, sizeof(value));
	if (isfinite(cycles))
		snprintf(label, sizeof(label), "%s: %s %s/%s", host, value, measure, unit);
	else
		snprintf(label, sizeof(label), "%s: slots", host);
	v = json_pack("{s:s s:o s:o s:o s:o s:s s:o}", "label", label, "y", ud_rv_coord(y), "h", ud_rv_coord(CPI_BAR),
		      "text_y", ud_rv_coord(y + CPI_BAR * 0.7), "segs", segs, "line", ok && line ? line : "", "line_y",
		      ud_rv_coord(y + CPI_BAR + 15));
	free(line);
	return v;
}

/* A legend entry for each part either host's bar holds. */
static json_t *td_legend(const struct ud_topdown *const t[UD_SIDE_COUNT])
{
	json_t *legend = json_array();
	char name[48];
	int k = 0;

	for (int i = 0; i <= UD_TD_LEVEL1_COUNT; i++) {
		int b = td_part(i);
		const struct ud_topdown *with = NULL;

		for (int s = 0; s < UD_SIDE_COUNT && !with; s++)
			if (t[s] && td_fraction(t[s], b) > 0)
				with = t[s];
		if (!with)
			continue;
		td_label(with, b, name, sizeof(name));
		json_array_append_new(legend, json_pack("{s:i s:i s:s s:s}", "x", CHART_LABEL_X + k * TD_LEGEND_ENTRY,
							"text_x", CHART_LABEL_X + k * TD_LEGEND_ENTRY + LEGEND_SWATCH + 5,
							"color", td_color(b), "label", name));
		k++;
	}
	return legend;
}

json_t *ud_chart_topdown(const struct ud_diff_topdown *td, const char *unit)
{
	static const char *const hosts[] = { "A", "B" };
	const struct ud_topdown *t[UD_SIDE_COUNT] = { td->a, td->b };
	double cycles[UD_SIDE_COUNT] = { td->per_a, td->per_b }, top, y = CHART_TOP + LEGEND_ROW;
	bool known = td->measure != UD_TD_IN_FRACTION;
	json_t *rows = json_array();

	/* One scale for both hosts where both cycles are known: the bars' lengths compare cycles per unit. */
	top = known ? fmax(t[0] ? cycles[0] : 0, t[1] ? cycles[1] : 0) : 1;
	for (int i = 0; i < UD_SIDE_COUNT; i++) {
		if (!t[i])
			continue;
		json_array_append_new(rows, td_row(hosts[i], t[i], known ? cycles[i] : NAN,
						   (CHART_PLOT_RIGHT - CHART_PLOT_LEFT) / (top > 0 ? top : 1),
						   ud_td_measure_name(td->measure), unit, y));
		y += CPI_ROW;
	}
	return json_pack("{s:i s:i s:o s:i s:o s:o s:o}", "width", CHART_WIDTH, "height", (int)y, "rows", rows, "line_x",
			 CHART_PLOT_LEFT, "legend_y", ud_rv_coord(CHART_TOP), "label_x", ud_rv_coord(CHART_LABEL_X),
			 "legend", td_legend(t));
}
