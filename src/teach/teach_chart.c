/*
 * teach_chart.c - the geometry of a lab's chart in the HTML page (teach.h):
 * the measured points as a line on the lab's axes (log where a lab's axis
 * spans decades), round ticks with their units, the sorted-data reference
 * of the branch lab, and the cache lab's sysfs sizes and knees as marked
 * vertical lines, as a typed view (teach_view.h) and its field table.  The
 * template only places what it is given.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "teach_view.h"
#include "text.h"

/* As wide as the diff report's charts: the page's text column. */
#define TC_WIDTH 920
#define TC_HEIGHT 380
#define TC_LEFT 90
#define TC_RIGHT 880
/* Above the plot: a row of labels for the sysfs sizes, two for the knees (alternating, so neighbours do not overlap). */
#define TC_TOP 50
#define TC_MARK_ROW 11
#define TC_BOTTOM 310
/* Room under the plot for the tick labels, then the axis title. */
#define TC_TICK_LABEL 18
#define TC_X_TITLE 48
#define TC_DOT 3.5
/* Linear axes get about this many ticks; log axes one a decade (1-2-5) or one per 4x of a size. */
#define TC_TICKS 6
/* A log axis' ends sit this factor beyond the data, so no point lies on the frame. */
#define TC_LOG_PAD 1.25
/* More ticks than any axis draws (a log axis of sizes 4 KB to 1 TB has 15): the rest would overlap anyway. */
#define TC_TICKS_MAX 64

#define COLOR_LINE "#1f77b4"
#define COLOR_REF "#2ca02c"
#define COLOR_SYSFS "#d62728"
#define COLOR_KNEE "#ff7f0e"

enum tick_kind { TICKS_LINEAR, TICKS_DECADES, TICKS_SIZES };

struct scale {
	double lo, hi, p0, p1;
	enum tick_kind kind;
};

static double f(const struct scale *s, double v)
{
	return s->kind == TICKS_LINEAR ? v : log(v);
}

static double at(const struct scale *s, double v)
{
	return s->p0 + (f(s, v) - f(s, s->lo)) / (f(s, s->hi) - f(s, s->lo)) * (s->p1 - s->p0);
}

/* 1, 2 or 5 times a power of ten, the smallest at least raw. */
static double nice_step(double raw)
{
	double p = pow(10, floor(log10(raw))), m = raw / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void fit(struct scale *s, double lo, double hi)
{
	if (s->kind == TICKS_LINEAR) {
		double step = nice_step(fmax(hi - lo, 1e-9) / (TC_TICKS - 1));

		s->lo = floor(lo / step) * step;
		s->hi = ceil(hi / step) * step;
		if (s->hi <= s->lo)
			s->hi = s->lo + step;
		return;
	}
	s->lo = lo / TC_LOG_PAD;
	s->hi = hi * TC_LOG_PAD;
}

static const char *coord(struct ud_view_pool *pool, double v)
{
	return ud_view_pool_printf(pool, "%.1f", v);
}

static const char *tick_label(struct ud_view_pool *pool, const struct scale *s, double v)
{
	char buf[32];

	if (s->kind == TICKS_SIZES)
		ud_format_kb(v, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%g", v);
	return ud_view_pool_printf(pool, "%s", buf);
}

static void add_tick(double *v, size_t *n, const struct scale *s, double at_v)
{
	if (at_v >= s->lo * (1 - 1e-9) && at_v <= s->hi * (1 + 1e-9) && *n < TC_TICKS_MAX)
		v[(*n)++] = at_v;
}

/* The axis' round values: 1-2-5 steps, one a 4x of a size, or 1, 2 and 5 a decade. */
static size_t tick_values(const struct scale *s, double *v)
{
	size_t n = 0;

	if (s->kind == TICKS_LINEAR) {
		double step = nice_step((s->hi - s->lo) / (TC_TICKS - 1));

		for (double x = s->lo; x <= s->hi + step / 2; x += step)
			add_tick(v, &n, s, fabs(x) < step / 1e6 ? 0 : x);
	} else if (s->kind == TICKS_SIZES) {
		for (double x = pow(4, floor(log(s->lo) / log(4))); x <= s->hi; x *= 4)
			add_tick(v, &n, s, x);
	} else {
		for (double d = pow(10, floor(log10(s->lo))); d <= s->hi; d *= 10)
			for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
				add_tick(v, &n, s, m * d);
	}
	return n;
}

static struct ud_tc_tick *ticks(struct ud_view_pool *pool, const struct scale *s, size_t *n)
{
	double v[TC_TICKS_MAX];
	struct ud_tc_tick *t;

	*n = tick_values(s, v);
	t = ud_view_pool_alloc(pool, *n, sizeof(*t));
	for (size_t i = 0; t && i < *n; i++)
		t[i] = (struct ud_tc_tick){ coord(pool, at(s, v[i])), tick_label(pool, s, v[i]) };
	return t;
}

static void mark(struct ud_view_pool *pool, struct ud_tc_mark *m, const struct scale *x, double kb, const char *what,
		 const char *color, int row)
{
	char size[32];

	ud_format_kb(kb, size, sizeof(size));
	*m = (struct ud_tc_mark){ coord(pool, at(x, kb)), ud_view_pool_printf(pool, "%s %s", what, size), color,
				  coord(pool, at(x, kb) + 3), TC_TOP - 3 * TC_MARK_ROW + 3 + TC_MARK_ROW * row };
}

/* The cache lab's sysfs sizes (red) and knees (orange), each a vertical line with its label; none for the others. */
static struct ud_tc_mark *marks(struct ud_view_pool *pool, const struct ud_lab_result *r, const struct scale *x,
				size_t *n)
{
	static const char *const names[] = { "L1d", "L2", "L3" };
	const double levels[] = { r->sysfs.l1d, r->sysfs.l2, r->sysfs.l3 };
	struct ud_tc_mark *m = ud_view_pool_alloc(pool, 3 + r->nknees, sizeof(*m));

	*n = 0;
	if (!m || r->lab != UD_LAB_CACHE)
		return m;
	for (size_t i = 0; i < 3; i++)
		if (levels[i] > 0 && levels[i] > x->lo && levels[i] < x->hi)
			mark(pool, &m[(*n)++], x, levels[i], names[i], COLOR_SYSFS, 0);
	for (size_t i = 0; i < r->nknees; i++)
		if (r->knees_kb[i] > x->lo && r->knees_kb[i] < x->hi)
			mark(pool, &m[(*n)++], x, r->knees_kb[i], "knee", COLOR_KNEE, 1 + (int)(i % 2));
	return m;
}

static void extent(const struct ud_lab_result *r, bool y, double *lo, double *hi)
{
	for (size_t i = 0; i < r->npoints; i++) {
		double v = y ? r->points[i].y : r->points[i].x;

		if (isfinite(v)) {
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	}
}

/* The points as a polyline, and each as a dot titled with its values. */
static void plot_line(struct ud_view_pool *pool, const struct ud_lab_result *r, const struct scale *x,
		      const struct scale *y, struct ud_teach_chart *c)
{
	const struct ud_lab_text *t = ud_lab_text(r->lab);
	const char *xu = t->x_unit, *yu = t->y_unit;
	char line[8192] = "", title[96], xs[32];
	size_t used = 0;

	c->dots = ud_view_pool_alloc(pool, r->npoints, sizeof(*c->dots));
	for (size_t i = 0; c->dots && i < r->npoints; i++) {
		double px = r->points[i].x, py = r->points[i].y;

		if (!isfinite(px) || !isfinite(py) || (y->kind != TICKS_LINEAR && py <= 0))
			continue;
		if (x->kind == TICKS_SIZES)
			ud_format_kb(px, xs, sizeof(xs));
		else
			snprintf(xs, sizeof(xs), "%g%s%s", px, *xu && strcmp(xu, "%") ? " " : "", xu ? xu : "");
		snprintf(title, sizeof(title), "%s: %.3g %s", xs, py, yu ? yu : "");
		if (used < sizeof(line))
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%.1f,%.1f", used ? " " : "", at(x, px),
						 at(y, py));
		c->dots[c->ndots++] = (struct ud_tc_dot){ coord(pool, at(x, px)), coord(pool, at(y, py)),
							  ud_view_pool_printf(pool, "%s", title) };
	}
	c->line = ud_view_pool_printf(pool, "%s", line);
}

static const char *axis_title(struct ud_view_pool *pool, const char *label, const char *unit)
{
	return ud_view_pool_printf(pool, "%s%s%s%s", label ? label : "", unit && *unit ? " (" : "", unit ? unit : "",
			    unit && *unit ? ")" : "");
}

static struct ud_tc_reference *reference(struct ud_view_pool *pool, const struct ud_lab_result *r, const struct scale *y)
{
	double v = r->reference;
	struct ud_tc_reference *ref;

	if (!isfinite(v) || v < y->lo || v > y->hi || !(ref = ud_view_pool_alloc(pool, 1, sizeof(*ref))))
		return NULL;
	*ref = (struct ud_tc_reference){ coord(pool, at(y, v)), ud_view_pool_printf(pool, "sorted: %.3g", v), TC_LEFT, TC_RIGHT };
	return ref;
}

struct ud_teach_chart *ud_teach_chart(struct ud_view_pool *pool, const struct ud_lab_result *r)
{
	const struct ud_lab_text *t = ud_lab_text(r->lab);
	struct scale x = { .p0 = TC_LEFT, .p1 = TC_RIGHT, .kind = t->x_log ? TICKS_SIZES : TICKS_LINEAR };
	struct scale y = { .p0 = TC_BOTTOM, .p1 = TC_TOP, .kind = t->y_log ? TICKS_DECADES : TICKS_LINEAR };
	double xlo = INFINITY, xhi = -INFINITY, ylo = t->y_log ? INFINITY : 0, yhi = -INFINITY;
	struct ud_teach_chart *c;

	extent(r, false, &xlo, &xhi);
	extent(r, true, &ylo, &yhi);
	if (!isfinite(xlo) || !isfinite(ylo) || (t->x_log && xlo <= 0) || (t->y_log && ylo <= 0))
		return NULL;
	yhi = fmax(yhi, isfinite(r->reference) && r->reference > 0 ? r->reference : yhi);
	fit(&x, xlo, xhi);
	fit(&y, ylo, yhi);
	if (!(c = ud_view_pool_alloc(pool, 1, sizeof(*c))))
		return NULL;
	*c = (struct ud_teach_chart){
		.width = TC_WIDTH, .height = TC_HEIGHT,
		.plot = { TC_LEFT, TC_RIGHT, TC_TOP, TC_BOTTOM, TC_RIGHT - TC_LEFT, TC_BOTTOM - TC_TOP },
		.x_tick_y = TC_BOTTOM + TC_TICK_LABEL, .y_tick_x = TC_LEFT - 6,
		.x_title_y = TC_BOTTOM + TC_X_TITLE, .x_title_x = (TC_LEFT + TC_RIGHT) / 2,
		.x_title = axis_title(pool, t->x_label, t->x_unit), .y_title = axis_title(pool, t->y_label, t->y_unit),
		.color = COLOR_LINE,
	};
	c->x_ticks = ticks(pool, &x, &c->nx_ticks);
	c->y_ticks = ticks(pool, &y, &c->ny_ticks);
	plot_line(pool, r, &x, &y, c);
	c->reference = reference(pool, r, &y);
	c->marks = marks(pool, r, &x, &c->nmarks);
	return c;
}

/* ---- what teach.html reads of a chart ---- */

static const struct ud_field tick_rows[] = {
	UD_FIELD(struct ud_tc_tick, at, UD_FIELD_STRING),
	UD_FIELD(struct ud_tc_tick, label, UD_FIELD_STRING),
};
static const struct ud_fields tick_fields = UD_FIELDS("a chart's tick", tick_rows);

static const struct ud_field dot_rows[] = {
	UD_FIELD(struct ud_tc_dot, cx, UD_FIELD_STRING),
	UD_FIELD(struct ud_tc_dot, cy, UD_FIELD_STRING),
	UD_FIELD(struct ud_tc_dot, title, UD_FIELD_STRING),
};
static const struct ud_fields dot_fields = UD_FIELDS("a chart's dot", dot_rows);

static const struct ud_field mark_rows[] = {
	UD_FIELD(struct ud_tc_mark, x, UD_FIELD_STRING),
	UD_FIELD(struct ud_tc_mark, label, UD_FIELD_STRING),
	UD_FIELD(struct ud_tc_mark, color, UD_FIELD_STRING),
	UD_FIELD(struct ud_tc_mark, label_x, UD_FIELD_STRING),
	UD_FIELD(struct ud_tc_mark, label_y, UD_FIELD_INT),
};
static const struct ud_fields mark_fields = UD_FIELDS("a chart's mark", mark_rows);

static const struct ud_field reference_rows[] = {
	UD_FIELD(struct ud_tc_reference, y, UD_FIELD_STRING),
	UD_FIELD(struct ud_tc_reference, label, UD_FIELD_STRING),
	UD_FIELD(struct ud_tc_reference, x1, UD_FIELD_INT),
	UD_FIELD(struct ud_tc_reference, x2, UD_FIELD_INT),
};
static const struct ud_fields reference_fields = UD_FIELDS("a chart's reference", reference_rows);

static const struct ud_field plot_rows[] = {
	UD_FIELD(struct ud_tc_plot, left, UD_FIELD_INT),  UD_FIELD(struct ud_tc_plot, right, UD_FIELD_INT),
	UD_FIELD(struct ud_tc_plot, top, UD_FIELD_INT),   UD_FIELD(struct ud_tc_plot, bottom, UD_FIELD_INT),
	UD_FIELD(struct ud_tc_plot, w, UD_FIELD_INT),     UD_FIELD(struct ud_tc_plot, h, UD_FIELD_INT),
};
static const struct ud_fields plot_fields = UD_FIELDS("a chart's plot", plot_rows);

static const struct ud_field chart_rows[] = {
	UD_FIELD(struct ud_teach_chart, width, UD_FIELD_INT),
	UD_FIELD(struct ud_teach_chart, height, UD_FIELD_INT),
	UD_FIELD_SUB(struct ud_teach_chart, plot, UD_FIELD_STRUCT, &plot_fields),
	UD_FIELD_LIST_OF(struct ud_teach_chart, x_ticks, nx_ticks, &tick_fields),
	UD_FIELD_LIST_OF(struct ud_teach_chart, y_ticks, ny_ticks, &tick_fields),
	UD_FIELD(struct ud_teach_chart, x_tick_y, UD_FIELD_INT),
	UD_FIELD(struct ud_teach_chart, y_tick_x, UD_FIELD_INT),
	UD_FIELD(struct ud_teach_chart, x_title_y, UD_FIELD_INT),
	UD_FIELD(struct ud_teach_chart, x_title_x, UD_FIELD_INT),
	UD_FIELD(struct ud_teach_chart, x_title, UD_FIELD_STRING),
	UD_FIELD(struct ud_teach_chart, y_title, UD_FIELD_STRING),
	UD_FIELD(struct ud_teach_chart, line, UD_FIELD_STRING),
	UD_FIELD(struct ud_teach_chart, color, UD_FIELD_STRING),
	UD_FIELD_LIST_OF(struct ud_teach_chart, dots, ndots, &dot_fields),
	UD_FIELD_SUB(struct ud_teach_chart, reference, UD_FIELD_OBJECT, &reference_fields),
	UD_FIELD_LIST_OF(struct ud_teach_chart, marks, nmarks, &mark_fields),
};
const struct ud_fields ud_teach_chart_fields = UD_FIELDS("a lab's chart", chart_rows);
