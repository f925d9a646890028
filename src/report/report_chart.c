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
#include "report_view.h"
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

static struct rv_tick tick(struct ud_view_pool *pool, const struct ud_log_axis *ax, double ln_ratio)
{
	return (struct rv_tick){ ud_rv_pool_coord(pool, ud_axis_x(ax, ln_ratio)), ud_rv_pool_ratio(pool, exp(ln_ratio)),
				 fabs(ln_ratio) < 1e-12 };
}

/* 1x and the ladder's ticks on either side that lie on the axis, left to right, into *ticks (owned by pool). */
static size_t axis_ticks(struct ud_view_pool *pool, const struct ud_log_axis *ax, struct rv_tick **ticks)
{
	const struct ladder *l = ladder_for(fmax(-ax->lo, ax->hi));
	int n = ladder_len(l);
	size_t k = 0;

	if (!(*ticks = ud_view_pool_alloc(pool, 2 * (size_t)n + 1, sizeof(**ticks))))
		return 0;
	for (int i = n - 1; i >= 0; i--)
		if (-log(l->t[i]) >= ax->lo - 1e-9)
			(*ticks)[k++] = tick(pool, ax, -log(l->t[i]));
	(*ticks)[k++] = tick(pool, ax, 0);
	for (int i = 0; i < n; i++)
		if (log(l->t[i]) <= ax->hi + 1e-9)
			(*ticks)[k++] = tick(pool, ax, log(l->t[i]));
	return k;
}

static struct rv_legend legend_entry(int i, int step, const char *color, const char *label)
{
	int x = CHART_LABEL_X + i * step;

	return (struct rv_legend){ x, x + LEGEND_SWATCH + 5, color, label };
}

/* n legend entries from colors[] and labels[], LEGEND_ENTRY apart, into *legend (owned by pool). */
static size_t legend(struct ud_view_pool *pool, const char *const *colors, const char *const *labels, size_t n,
		     struct rv_legend **legend)
{
	if (!(*legend = ud_view_pool_alloc(pool, n, sizeof(**legend))))
		return 0;
	for (size_t i = 0; i < n; i++)
		(*legend)[i] = legend_entry((int)i, LEGEND_ENTRY, colors[i], labels[i]);
	return n;
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

static struct rv_wf_bar waterfall_bar(struct ud_view_pool *pool, const char *label, double x0, double x1, double y,
				      const char *color, double f)
{
	return (struct rv_wf_bar){
		.label = label, .x = ud_rv_pool_coord(pool, x0), .y = ud_rv_pool_coord(pool, y),
		.w = ud_rv_pool_coord(pool, fmax(x1 - x0, 1)), .h = ud_rv_pool_coord(pool, CHART_BAR),
		.text_y = ud_rv_pool_coord(pool, y + CHART_BAR * 0.7), .value_x = ud_rv_pool_coord(pool, fmax(x1, x0 + 1) + 4),
		.color = color, .value = ud_rv_pool_ratio(pool, f), .label_x = ud_rv_pool_coord(pool, CHART_LABEL_X),
	};
}

/* The factors as a waterfall: each bar starts where the last ended, the speedup last, from 1x. */
struct rv_waterfall *ud_chart_waterfall(struct ud_view_pool *pool, const double factor[UD_FACTOR_COUNT], double speedup,
					const struct ud_log_axis *ax)
{
	static const char *const colors[] = { COLOR_UP, COLOR_DOWN, COLOR_UNEXPLAINED, COLOR_TOTAL };
	static const char *const labels[] = { "factor above 1 (B gains)", "factor below 1 (B loses)",
					      "unexplained (no counter)", "speedup: their product" };
	struct rv_waterfall *v = ud_view_pool_alloc(pool, 1, sizeof(*v));
	double cum = 0, top = CHART_TOP + LEGEND_ROW, bottom;

	if (!v || !(v->bars = ud_view_pool_alloc(pool, UD_FACTOR_COUNT + 1, sizeof(*v->bars))))
		return NULL;
	for (int i = 0; i <= UD_FACTOR_COUNT; i++) {
		bool total = i == UD_FACTOR_COUNT;
		enum ud_factor id = (enum ud_factor)(total ? 0 : i);
		double f = total ? speedup : factor[id], from = total ? 0 : cum, to;

		if (!isfinite(f) || f <= 0)
			continue;
		to = from + log(f);
		if (!total)
			cum = to;
		v->bars[v->nbars] = waterfall_bar(pool, total ? "speedup" : ud_factor_label(id), ud_axis_x(ax, fmin(from, to)),
						  ud_axis_x(ax, fmax(from, to)), top + (double)v->nbars * CHART_ROW,
						  factor_color(total, id, f), f);
		v->nbars++;
	}
	bottom = top + (double)v->nbars * CHART_ROW;
	v->width = CHART_WIDTH;
	v->height = (int)bottom + AXIS_LABELS;
	v->axis_x = ud_rv_pool_coord(pool, ud_axis_x(ax, 0));
	v->axis_top = (int)top - 4;
	v->axis_bottom = ud_rv_pool_coord(pool, bottom);
	v->tick_y = ud_rv_pool_coord(pool, bottom + AXIS_LABELS - 6);
	v->nticks = axis_ticks(pool, ax, &v->ticks);
	v->legend_y = ud_rv_pool_coord(pool, CHART_TOP);
	v->nlegend = legend(pool, colors, labels, 4, &v->legend);
	return v;
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

/* The axis' ticks under the rows at y: each decade (log), or 0, half and the end (linear), into v. */
static void ab_ticks(struct ud_view_pool *pool, const struct ab_axis *ax, double y, struct rv_ab_bars *v)
{
	char label[32];
	size_t n = 0;

	for (double t = ax->log ? ax->lo : 0; t <= ax->hi * 1.0001; t = ax->log ? t * 10 : t + ax->hi / 2)
		n++;
	if (!(v->ticks = ud_view_pool_alloc(pool, n, sizeof(*v->ticks))))
		return;
	for (double t = ax->log ? ax->lo : 0; t <= ax->hi * 1.0001 && v->nticks < n; t = ax->log ? t * 10 : t + ax->hi / 2) {
		ud_format_human(t, label, sizeof(label));
		v->ticks[v->nticks++] = (struct rv_ab_tick){ ud_rv_pool_coord(pool, ab_x(ax, t)), ud_rv_pool_coord(pool, y),
							    ud_rv_pool_coord(pool, y + 14), ud_view_pool_printf(pool, "%s", label) };
	}
}

/* A pair of bars at y, aw and bw wide, labelled label, a_text and b_text. */
static struct rv_ab_row ab_row(struct ud_view_pool *pool, const char *label, double y, double aw, double bw,
			       const char *a_text, const char *b_text)
{
	return (struct rv_ab_row){
		.label = label, .label_y = ud_rv_pool_coord(pool, y + CHART_BAR * 0.7), .a_y = ud_rv_pool_coord(pool, y),
		.b_y = ud_rv_pool_coord(pool, y + CHART_BAR + 2), .a_w = ud_rv_pool_coord(pool, aw),
		.b_w = ud_rv_pool_coord(pool, bw), .a_text = a_text, .b_text = b_text,
		.a_tx = ud_rv_pool_coord(pool, CHART_PLOT_LEFT + aw + 4), .b_tx = ud_rv_pool_coord(pool, CHART_PLOT_LEFT + bw + 4),
		.b_ty = ud_rv_pool_coord(pool, y + 2 * CHART_BAR * 0.85),
	};
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

struct rv_ab_bars *ud_chart_ab_bars(struct ud_view_pool *pool, const struct ud_ab metric[UD_METRIC_COUNT])
{
	static const enum ud_metric shown[] = { UD_M_IPC, UD_M_BRANCH_MISS_RATE, UD_M_L1D_MISS_RATE };
	const size_t nshown = sizeof(shown) / sizeof(shown[0]);
	struct rv_ab_bars *v = ud_view_pool_alloc(pool, 1, sizeof(*v));
	struct ab_axis ax;
	double bottom;

	if (!v || !(v->rows = ud_view_pool_alloc(pool, nshown, sizeof(*v->rows))))
		return NULL;
	ab_extent(metric, shown, nshown, &ax);
	for (size_t i = 0; i < nshown; i++) {
		double a = metric[shown[i]].a, b = metric[shown[i]].b, y = 10 + (double)v->nrows * (2 * CHART_BAR + 14);
		double aw, bw;

		if (!isfinite(a) || !isfinite(b) || fmax(a, b) <= 0)
			continue;
		aw = fmax(ab_x(&ax, a) - CHART_PLOT_LEFT, 1);
		bw = fmax(ab_x(&ax, b) - CHART_PLOT_LEFT, 1);
		v->rows[v->nrows++] = ab_row(pool, ud_metric_label(shown[i]), y, aw, bw, ud_rv_pool_metric(pool, a, shown[i]),
					     ud_rv_pool_metric(pool, b, shown[i]));
	}
	bottom = 10 + (double)v->nrows * (2 * CHART_BAR + 14);
	v->width = CHART_WIDTH;
	v->height = ud_rv_pool_coord(pool, bottom + AXIS_LABELS);
	v->left = CHART_PLOT_LEFT;
	if (v->nrows)
		ab_ticks(pool, &ax, bottom, v);
	v->axis_bottom = ud_rv_pool_coord(pool, bottom);
	v->scale = ax.log ? "log" : "linear";
	/* drawn: a host pair without IPC or a miss rate (no PMU) gets no chart, not an empty frame */
	v->drawn = v->nrows > 0;
	return v;
}

/* A share as the chart labels it; a symbol not among a host's top ones has none there. */
static const char *share_text(struct ud_view_pool *pool, double v)
{
	return isfinite(v) ? ud_rv_pool_fmt(pool, "%.1f%%", 100 * v) : "not among its top symbols";
}

/* The symbols' shares, A above B, scaled to the largest; a symbol absent on a side has no bar there. */
struct rv_hot_chart *ud_chart_hotspots(struct ud_view_pool *pool, const struct ud_hotspot_move *moves, size_t n)
{
	struct rv_hot_chart *v = ud_view_pool_alloc(pool, 1, sizeof(*v));
	double top = 0, width = HOT_PLOT_RIGHT - CHART_PLOT_LEFT;

	if (!v || !(v->rows = ud_view_pool_alloc(pool, n, sizeof(*v->rows))))
		return NULL;
	for (size_t i = 0; i < n; i++)
		top = fmax(top, fmax(ud_rv_known(moves[i].a_share), ud_rv_known(moves[i].b_share)));
	for (size_t i = 0; i < n; i++) {
		double a = ud_rv_known(moves[i].a_share), b = ud_rv_known(moves[i].b_share), y = CHART_TOP + (double)i * (2 * CHART_BAR + 14);
		double aw = isfinite(a) && top > 0 ? fmax(width * a / top, 1) : 0, bw = isfinite(b) && top > 0 ? fmax(width * b / top, 1) : 0;

		v->rows[v->nrows++] = ab_row(pool, ud_rv_pool_shorten(pool, moves[i].symbol, HOT_LABEL_CHARS), y, aw, bw,
					     share_text(pool, a), share_text(pool, b));
	}
	v->width = CHART_WIDTH;
	v->height = ud_rv_pool_coord(pool, CHART_TOP + (double)n * (2 * CHART_BAR + 14));
	v->left = CHART_PLOT_LEFT;
	return v;
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

static struct rv_ov_bar overview_bar(struct ud_view_pool *pool, const struct ov_item *it, const struct ud_log_axis *ax,
				     double y, double pitch)
{
	double x0 = ud_axis_x(ax, fmin(0, it->ln)), x1 = ud_axis_x(ax, fmax(0, it->ln)), h = pitch * 0.7;
	const char *name = it->w->a->name;
	struct rv_whisker *whisker = isfinite(it->lo) ? ud_view_pool_alloc(pool, 1, sizeof(*whisker)) : NULL;
	char sp[48];

	ud_rv_speedup_text(exp(it->ln), it->w->sig.significant, sp, sizeof(sp));
	/* the speedup's 95% interval as a whisker across the bar's end, where the diff has one */
	if (whisker)
		*whisker = (struct rv_whisker){ ud_rv_pool_coord(pool, ud_axis_x(ax, it->lo)),
						ud_rv_pool_coord(pool, ud_axis_x(ax, it->hi)), ud_rv_pool_coord(pool, y + pitch / 2) };
	return (struct rv_ov_bar){
		.name = name, .label = ud_rv_pool_shorten(pool, name, OV_NAME_CHARS), .x = ud_rv_pool_coord(pool, x0),
		.y = ud_rv_pool_coord(pool, y + (pitch - h) / 2), .w = ud_rv_pool_coord(pool, fmax(x1 - x0, 1)),
		.h = ud_rv_pool_coord(pool, h), .text_y = ud_rv_pool_coord(pool, y + pitch * 0.72),
		.color = fabs(it->ln) < 1e-9 ? COLOR_SAME : it->ln > 0 ? COLOR_UP : COLOR_DOWN,
		.value = ud_view_pool_printf(pool, "%s", sp), .lower_is_better = !it->w->a->higher_is_better, .whisker = whisker,
	};
}

/* "The 100 of 1000 workloads that moved most", those without a speedup, or "" when all are drawn (owned by pool). */
static const char *overview_note(struct ud_view_pool *pool, size_t n, size_t total, size_t no_speedup)
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
	return ud_view_pool_printf(pool, "%s", note);
}

/* The overview's frame around its bars: size, axis, ticks, note, the geomean's mark. */
static void overview_frame(struct ud_view_pool *pool, struct rv_overview *v, const struct ud_log_axis *ax, double bottom,
			   double pitch, double geomean)
{
	char gm[64];

	v->width = CHART_WIDTH;
	v->height = (int)(bottom + AXIS_LABELS);
	v->label_right = OV_PLOT_LEFT - 8;
	v->value_x = OV_VALUE_X;
	v->axis_x = ud_rv_pool_coord(pool, ud_axis_x(ax, 0));
	v->axis_bottom = ud_rv_pool_coord(pool, bottom);
	v->tick_y = ud_rv_pool_coord(pool, bottom + AXIS_LABELS - 6);
	v->nticks = axis_ticks(pool, ax, &v->ticks);
	v->font = pitch < 16 ? "11" : "12";
	v->axis_top = OV_TOP - 2;
	ud_rv_speedup_text(geomean, -1, gm, sizeof(gm));
	if (isfinite(geomean) && geomean > 0 && (v->geomean = ud_view_pool_alloc(pool, 1, sizeof(*v->geomean))))
		*v->geomean = (struct rv_ov_geomean){ ud_rv_pool_coord(pool, ud_axis_x(ax, log(geomean))),
						      ud_view_pool_printf(pool, "%s", gm), OV_TOP - 8 };
}

struct rv_overview *ud_chart_overview(struct ud_view_pool *pool, const struct ud_diff *d)
{
	size_t n, total, no_speedup;
	struct ov_item *items = overview_items(d, &n, &total, &no_speedup);
	double geomean = d->summary.geomean_speedup, extent = isfinite(geomean) && geomean > 0 ? fabs(log(geomean)) : 0, pitch;
	struct ud_log_axis ax;
	struct rv_overview *v = items && n ? ud_view_pool_alloc(pool, 1, sizeof(*v)) : NULL;

	if (!v || !(v->bars = ud_view_pool_alloc(pool, n, sizeof(*v->bars)))) {
		free(items);
		return NULL;
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
		v->bars[v->nbars++] = overview_bar(pool, &items[i], &ax, OV_TOP + (double)i * pitch, pitch);
	free(items);
	v->note = overview_note(pool, n, total, no_speedup);
	overview_frame(pool, v, &ax, OV_TOP + (double)n * pitch, pitch, geomean);
	return v;
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

static struct rv_seg segment(struct ud_view_pool *pool, double x, double w, const char *color, const char *text,
			     const char *text_color)
{
	return (struct rv_seg){ ud_rv_pool_coord(pool, x), ud_rv_pool_coord(pool, w), color, text,
				ud_rv_pool_coord(pool, x + 5), text_color };
}

static struct rv_seg cpi_segment(struct ud_view_pool *pool, double x, double w, const char *color, const char *what,
				 double v, bool dark)
{
	const char *text = w >= CPI_TEXT_MIN ? ud_view_pool_printf(pool, "%s %.3f", what, v) : "";

	return segment(pool, x, w, color, text, dark ? "#ffffff" : "#222222");
}

/* One host's bar: the parts scaled to the CPI they share (in an overshoot, shrunk to fit it). */
static struct rv_stack_row cpi_row(struct ud_view_pool *pool, const char *host, const struct cpi_terms *t, double scale,
				   double y)
{
	double parts = t->branch + t->l1d, fit = t->overshoot && parts > 0 ? t->cpi / parts : 1, x = CHART_PLOT_LEFT;
	double wb = t->branch * fit * scale, wl = t->l1d * fit * scale, wo = fmax(t->other, 0) * scale;
	struct rv_stack_row r = { .host = host };

	if ((r.segs = ud_view_pool_alloc(pool, 3, sizeof(*r.segs))) != NULL) {
		r.segs[r.nsegs++] = cpi_segment(pool, x, wb, COLOR_BRANCH, "branch", t->branch, true);
		r.segs[r.nsegs++] = cpi_segment(pool, x + wb, wl, COLOR_L1D, "L1d", t->l1d, true);
		r.segs[r.nsegs++] = cpi_segment(pool, x + wb + wl, wo, COLOR_OTHER, "other", fmax(t->other, 0), false);
	}
	r.label = ud_view_pool_printf(pool, "%s: CPI %.3f", host, t->cpi);
	if (t->split)
		r.line = ud_view_pool_printf(pool, "branch up to %.3f + L1d up to %.3f + other %.3f%s", t->branch, t->l1d,
					     fmax(t->other, 0), t->overshoot ? " (the two parts alone exceed the CPI)" : "");
	else
		r.line = "no miss penalties or miss rates known: all of it in 'other'";
	r.y = ud_rv_pool_coord(pool, y);
	r.h = ud_rv_pool_coord(pool, CPI_BAR);
	r.text_y = ud_rv_pool_coord(pool, y + CPI_BAR * 0.7);
	r.total_w = ud_rv_pool_coord(pool, t->cpi * scale);
	r.line_y = ud_rv_pool_coord(pool, y + CPI_BAR + 15);
	r.branch = ud_rv_pool_fmt(pool, "%.3f", t->branch);
	r.l1d = ud_rv_pool_fmt(pool, "%.3f", t->l1d);
	r.other = ud_rv_pool_fmt(pool, "%.3f", fmax(t->other, 0));
	return r;
}

/* A stacked chart's frame: its rows and missing hosts allocated, its legend from colors[] and labels[]. */
static struct rv_stack_chart *stack_chart(struct ud_view_pool *pool, const char *const *colors,
					  const char *const *labels, size_t nlegend)
{
	struct rv_stack_chart *v = ud_view_pool_alloc(pool, 1, sizeof(*v));

	if (!v || !(v->rows = ud_view_pool_alloc(pool, UD_SIDE_COUNT, sizeof(*v->rows))) ||
	    !(v->missing = ud_view_pool_alloc(pool, UD_SIDE_COUNT, sizeof(*v->missing))))
		return NULL;
	v->width = CHART_WIDTH;
	v->line_x = CHART_PLOT_LEFT;
	v->legend_y = ud_rv_pool_coord(pool, CHART_TOP);
	v->label_x = ud_rv_pool_coord(pool, CHART_LABEL_X);
	if (colors)
		v->nlegend = legend(pool, colors, labels, nlegend, &v->legend);
	return v;
}

struct rv_stack_chart *ud_chart_cpi_stack(struct ud_view_pool *pool, const struct ud_ab metric[UD_METRIC_COUNT],
					  const struct ud_diff *d)
{
	static const char *const hosts[] = { "A", "B" };
	static const char *const colors[] = { COLOR_BRANCH, COLOR_L1D, COLOR_OTHER };
	static const char *const labels[] = { "branch mispredicts (upper bound)", "L1d misses (upper bound)",
					      "everything else" };
	struct cpi_terms t[UD_SIDE_COUNT];
	struct rv_stack_chart *v;
	double top = 0, y = CHART_TOP + LEGEND_ROW;

	for (int i = 0; i < UD_SIDE_COUNT; i++) {
		t[i] = cpi_terms(metric, d->host[i].uarch, (enum ud_side)i);
		if (isfinite(t[i].cpi) && t[i].cpi > 0)
			top = fmax(top, t[i].cpi);
	}
	if (top <= 0 || !(v = stack_chart(pool, colors, labels, 3)))
		return NULL;
	/* One scale for both hosts: the bars' lengths compare their CPIs. */
	for (int i = 0; i < UD_SIDE_COUNT; i++) {
		if (!isfinite(t[i].cpi) || t[i].cpi <= 0) {
			v->missing[v->nmissing++] = hosts[i];
			continue;
		}
		v->rows[v->nrows++] = cpi_row(pool, hosts[i], &t[i], (CHART_PLOT_RIGHT - CHART_PLOT_LEFT) / top, y);
		v->overshoot |= t[i].overshoot && t[i].split;
		y += CPI_ROW;
	}
	v->height = (int)y;
	return v;
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
static struct rv_stack_row td_row(struct ud_view_pool *pool, const char *host, const struct ud_topdown *t, double cycles,
				  double scale, const char *measure, const char *unit, double y)
{
	double x = CHART_PLOT_LEFT, per = isfinite(cycles) ? cycles : 1;
	struct rv_stack_row r = { .segs = ud_view_pool_alloc(pool, UD_TD_LEVEL1_COUNT + 1, sizeof(*r.segs)) };
	char name[48], value[40], *line = NULL;
	bool ok = true;

	for (int i = 0; i <= UD_TD_LEVEL1_COUNT && r.segs; i++) {
		int b = td_part(i);
		double f = td_fraction(t, b), w = f * per * scale;
		char text[96] = "";

		if (!isfinite(f) || f <= 0)
			continue;
		td_label(t, b, name, sizeof(name));
		snprintf(text, sizeof(text), "%s %.0f%%", name, 100 * f);
		if (w < TD_CHAR_W * (double)strlen(text) + TD_TEXT_PAD)
			text[0] = '\0';
		r.segs[r.nsegs++] = segment(pool, x, w, td_color(b), ud_view_pool_printf(pool, "%s", text),
					    b == UD_TD_RESIDUAL ? "#222222" : "#ffffff");
		x += w;
		ud_rv_count_text(f * cycles, value, sizeof(value));
		if (ok)
			ok = isfinite(cycles) ? ud_append(&line, "%s%s %s", line ? " + " : "", name, value)
					      : ud_append(&line, "%s%s %.1f%%", line ? " + " : "", name, 100 * f);
	}
	ud_rv_count_text(cycles, value, sizeof(value));
	r.label = isfinite(cycles) ? ud_view_pool_printf(pool, "%s: %s %s/%s", host, value, measure, unit)
				   : ud_view_pool_printf(pool, "%s: slots", host);
	r.y = ud_rv_pool_coord(pool, y);
	r.h = ud_rv_pool_coord(pool, CPI_BAR);
	r.text_y = ud_rv_pool_coord(pool, y + CPI_BAR * 0.7);
	if (ok && line) {
		r.line = ud_view_pool_keep(pool, line);
	} else {
		free(line);
		r.line = "";
	}
	r.line_y = ud_rv_pool_coord(pool, y + CPI_BAR + 15);
	return r;
}

/* A legend entry for each part either host's bar holds, into v. */
static void td_legend(struct ud_view_pool *pool, const struct ud_topdown *const t[UD_SIDE_COUNT], struct rv_stack_chart *v)
{
	char name[48];

	if (!(v->legend = ud_view_pool_alloc(pool, UD_TD_LEVEL1_COUNT + 1, sizeof(*v->legend))))
		return;
	for (int i = 0; i <= UD_TD_LEVEL1_COUNT; i++) {
		int b = td_part(i);
		const struct ud_topdown *with = NULL;

		for (int s = 0; s < UD_SIDE_COUNT && !with; s++)
			if (t[s] && td_fraction(t[s], b) > 0)
				with = t[s];
		if (!with)
			continue;
		td_label(with, b, name, sizeof(name));
		v->legend[v->nlegend] = legend_entry((int)v->nlegend, TD_LEGEND_ENTRY, td_color(b),
						     ud_view_pool_printf(pool, "%s", name));
		v->nlegend++;
	}
}

struct rv_stack_chart *ud_chart_topdown(struct ud_view_pool *pool, const struct ud_diff_topdown *td, const char *unit)
{
	static const char *const hosts[] = { "A", "B" };
	const struct ud_topdown *t[UD_SIDE_COUNT] = { td->a, td->b };
	double cycles[UD_SIDE_COUNT] = { td->per_a, td->per_b }, top, y = CHART_TOP + LEGEND_ROW;
	bool known = td->measure != UD_TD_IN_FRACTION;
	struct rv_stack_chart *v = stack_chart(pool, NULL, NULL, 0);

	if (!v)
		return NULL;
	/* One scale for both hosts where both cycles are known: the bars' lengths compare cycles per unit. */
	top = known ? fmax(t[0] ? cycles[0] : 0, t[1] ? cycles[1] : 0) : 1;
	for (int i = 0; i < UD_SIDE_COUNT; i++) {
		if (!t[i])
			continue;
		v->rows[v->nrows++] = td_row(pool, hosts[i], t[i], known ? cycles[i] : NAN,
					     (CHART_PLOT_RIGHT - CHART_PLOT_LEFT) / (top > 0 ? top : 1),
					     ud_td_measure_name(td->measure), unit, y);
		y += CPI_ROW;
	}
	v->height = (int)y;
	td_legend(pool, t, v);
	return v;
}

/* ---- what the templates read of the charts ---- */

#define STR(T, M) UD_FIELD(T, M, UD_FIELD_STRING)
#define INT(T, M) UD_FIELD(T, M, UD_FIELD_INT)

static const struct ud_field legend_rows[] = {
	INT(struct rv_legend, x), INT(struct rv_legend, text_x), STR(struct rv_legend, color), STR(struct rv_legend, label),
};
static const struct ud_fields legend_fields = UD_FIELDS("a legend entry", legend_rows);

static const struct ud_field tick_rows[] = {
	STR(struct rv_tick, x), STR(struct rv_tick, label), UD_FIELD(struct rv_tick, one, UD_FIELD_BOOL),
};
static const struct ud_fields tick_fields = UD_FIELDS("an axis tick", tick_rows);

static const struct ud_field wf_bar_rows[] = {
	STR(struct rv_wf_bar, label),  STR(struct rv_wf_bar, x),       STR(struct rv_wf_bar, y),
	STR(struct rv_wf_bar, w),      STR(struct rv_wf_bar, h),       STR(struct rv_wf_bar, text_y),
	STR(struct rv_wf_bar, value_x), STR(struct rv_wf_bar, color),  STR(struct rv_wf_bar, value),
	STR(struct rv_wf_bar, label_x),
};
static const struct ud_fields wf_bar_fields = UD_FIELDS("a waterfall bar", wf_bar_rows);

static const struct ud_field waterfall_rows[] = {
	INT(struct rv_waterfall, width),
	INT(struct rv_waterfall, height),
	INT(struct rv_waterfall, axis_top),
	UD_FIELD_LIST_OF(struct rv_waterfall, bars, nbars, &wf_bar_fields),
	STR(struct rv_waterfall, axis_x),
	STR(struct rv_waterfall, axis_bottom),
	STR(struct rv_waterfall, tick_y),
	STR(struct rv_waterfall, legend_y),
	UD_FIELD_LIST_OF(struct rv_waterfall, ticks, nticks, &tick_fields),
	UD_FIELD_LIST_OF(struct rv_waterfall, legend, nlegend, &legend_fields),
};
const struct ud_fields ud_rv_waterfall_fields = UD_FIELDS("a waterfall", waterfall_rows);

static const struct ud_field ab_row_rows[] = {
	STR(struct rv_ab_row, label),  STR(struct rv_ab_row, label_y), STR(struct rv_ab_row, a_y),
	STR(struct rv_ab_row, b_y),    STR(struct rv_ab_row, a_w),     STR(struct rv_ab_row, b_w),
	STR(struct rv_ab_row, a_text), STR(struct rv_ab_row, b_text),  STR(struct rv_ab_row, a_tx),
	STR(struct rv_ab_row, b_tx),   STR(struct rv_ab_row, b_ty),
};
static const struct ud_fields ab_row_fields = UD_FIELDS("a pair of bars", ab_row_rows);

static const struct ud_field ab_tick_rows[] = {
	STR(struct rv_ab_tick, x), STR(struct rv_ab_tick, y), STR(struct rv_ab_tick, label_y), STR(struct rv_ab_tick, label),
};
static const struct ud_fields ab_tick_fields = UD_FIELDS("a metric bars' tick", ab_tick_rows);

static const struct ud_field ab_bars_rows[] = {
	INT(struct rv_ab_bars, width),
	INT(struct rv_ab_bars, left),
	STR(struct rv_ab_bars, height),
	STR(struct rv_ab_bars, axis_bottom),
	STR(struct rv_ab_bars, scale),
	UD_FIELD_LIST_OF(struct rv_ab_bars, rows, nrows, &ab_row_fields),
	UD_FIELD_LIST_OF(struct rv_ab_bars, ticks, nticks, &ab_tick_fields),
	UD_FIELD(struct rv_ab_bars, drawn, UD_FIELD_BOOL),
};
const struct ud_fields ud_rv_ab_bars_fields = UD_FIELDS("the metric bars", ab_bars_rows);

static const struct ud_field hot_chart_rows[] = {
	INT(struct rv_hot_chart, width),
	INT(struct rv_hot_chart, left),
	STR(struct rv_hot_chart, height),
	UD_FIELD_LIST_OF(struct rv_hot_chart, rows, nrows, &ab_row_fields),
};
const struct ud_fields ud_rv_hot_chart_fields = UD_FIELDS("the hotspots chart", hot_chart_rows);

static const struct ud_field whisker_rows[] = {
	STR(struct rv_whisker, x1), STR(struct rv_whisker, x2), STR(struct rv_whisker, y),
};
static const struct ud_fields whisker_fields = UD_FIELDS("a whisker", whisker_rows);

static const struct ud_field ov_bar_rows[] = {
	STR(struct rv_ov_bar, name),   STR(struct rv_ov_bar, label), STR(struct rv_ov_bar, x),
	STR(struct rv_ov_bar, y),      STR(struct rv_ov_bar, w),     STR(struct rv_ov_bar, h),
	STR(struct rv_ov_bar, text_y), STR(struct rv_ov_bar, color), STR(struct rv_ov_bar, value),
	UD_FIELD(struct rv_ov_bar, lower_is_better, UD_FIELD_BOOL),
	UD_FIELD_SUB(struct rv_ov_bar, whisker, UD_FIELD_OBJECT, &whisker_fields),
};
static const struct ud_fields ov_bar_fields = UD_FIELDS("an overview bar", ov_bar_rows);

static const struct ud_field geomean_rows[] = {
	STR(struct rv_ov_geomean, x), STR(struct rv_ov_geomean, label), INT(struct rv_ov_geomean, y),
};
static const struct ud_fields geomean_fields = UD_FIELDS("the geomean's mark", geomean_rows);

static const struct ud_field overview_rows[] = {
	INT(struct rv_overview, width),
	INT(struct rv_overview, height),
	INT(struct rv_overview, label_right),
	INT(struct rv_overview, value_x),
	INT(struct rv_overview, axis_top),
	UD_FIELD_LIST_OF(struct rv_overview, bars, nbars, &ov_bar_fields),
	STR(struct rv_overview, axis_x),
	STR(struct rv_overview, axis_bottom),
	STR(struct rv_overview, tick_y),
	STR(struct rv_overview, note),
	STR(struct rv_overview, font),
	UD_FIELD_LIST_OF(struct rv_overview, ticks, nticks, &tick_fields),
	UD_FIELD_SUB(struct rv_overview, geomean, UD_FIELD_OBJECT, &geomean_fields),
};
const struct ud_fields ud_rv_overview_fields = UD_FIELDS("the overview", overview_rows);

static const struct ud_field seg_rows[] = {
	STR(struct rv_seg, x),    STR(struct rv_seg, w),      STR(struct rv_seg, color),
	STR(struct rv_seg, text), STR(struct rv_seg, text_x), STR(struct rv_seg, text_color),
};
static const struct ud_fields seg_fields = UD_FIELDS("a bar's part", seg_rows);

static const struct ud_field stack_row_rows[] = {
	STR(struct rv_stack_row, host),    STR(struct rv_stack_row, label),  STR(struct rv_stack_row, y),
	STR(struct rv_stack_row, h),       STR(struct rv_stack_row, text_y), STR(struct rv_stack_row, total_w),
	STR(struct rv_stack_row, line),    STR(struct rv_stack_row, line_y), STR(struct rv_stack_row, branch),
	STR(struct rv_stack_row, l1d),     STR(struct rv_stack_row, other),
	UD_FIELD_LIST_OF(struct rv_stack_row, segs, nsegs, &seg_fields),
};
static const struct ud_fields stack_row_fields = UD_FIELDS("a host's stacked bar", stack_row_rows);

static const struct ud_field stack_chart_rows[] = {
	INT(struct rv_stack_chart, width),
	INT(struct rv_stack_chart, height),
	INT(struct rv_stack_chart, line_x),
	STR(struct rv_stack_chart, legend_y),
	STR(struct rv_stack_chart, label_x),
	UD_FIELD_LIST_OF(struct rv_stack_chart, rows, nrows, &stack_row_fields),
	UD_FIELD_STRINGS_OF(struct rv_stack_chart, missing, nmissing),
	UD_FIELD(struct rv_stack_chart, overshoot, UD_FIELD_BOOL),
	UD_FIELD_LIST_OF(struct rv_stack_chart, legend, nlegend, &legend_fields),
};
const struct ud_fields ud_rv_stack_chart_fields = UD_FIELDS("a stacked bar chart", stack_chart_rows);
