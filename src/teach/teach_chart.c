/*
 * teach_chart.c - the geometry of a lab's chart in the HTML page (teach.h):
 * the measured points as a line on the lab's axes (log where a lab's axis
 * spans decades), round ticks with their units, the sorted-data reference
 * of the branch lab, and the cache lab's sysfs sizes and knees as marked
 * vertical lines.  The template only places what it is given.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_io.h"
#include "report_format.h"
#include "teach.h"
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

static json_t *tick_label(const struct scale *s, double v)
{
	char buf[32];

	if (s->kind == TICKS_SIZES)
		ud_format_kb(v, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%g", v);
	return json_string(buf);
}

static void add_tick(json_t *ticks, const struct scale *s, double v)
{
	if (v >= s->lo * (1 - 1e-9) && v <= s->hi * (1 + 1e-9))
		json_array_append_new(ticks, json_pack("{s:o s:o}", "at", ud_rv_coord(at(s, v)), "label", tick_label(s, v)));
}

static json_t *ticks(const struct scale *s)
{
	json_t *t = json_array();

	if (s->kind == TICKS_LINEAR) {
		double step = nice_step((s->hi - s->lo) / (TC_TICKS - 1));

		for (double v = s->lo; v <= s->hi + step / 2; v += step)
			add_tick(t, s, fabs(v) < step / 1e6 ? 0 : v);
	} else if (s->kind == TICKS_SIZES) {
		for (double v = pow(4, floor(log(s->lo) / log(4))); v <= s->hi; v *= 4)
			add_tick(t, s, v);
	} else {
		for (double d = pow(10, floor(log10(s->lo))); d <= s->hi; d *= 10)
			for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
				add_tick(t, s, m * d);
	}
	return t;
}

static json_t *mark(const struct scale *x, double kb, const char *what, const char *color, int row)
{
	char size[32], label[64];

	ud_format_kb(kb, size, sizeof(size));
	snprintf(label, sizeof(label), "%s %s", what, size);
	return json_pack("{s:o s:s s:s s:o s:i}", "x", ud_rv_coord(at(x, kb)), "label", label, "color", color,
			 "label_x", ud_rv_coord(at(x, kb) + 3), "label_y", TC_TOP - 3 * TC_MARK_ROW + 3 + TC_MARK_ROW * row);
}

/* The cache lab's sysfs sizes (red) and knees (orange), each a vertical line with its label. */
static json_t *marks(const json_t *lab, const struct scale *x)
{
	static const char *const levels[] = { "l1d", "l2", "l3" }, *const names[] = { "L1d", "L2", "L3" };
	json_t *m = json_array(), *knees = json_object_get(lab, "knees_kb"), *k;
	size_t i;

	for (i = 0; i < 3; i++) {
		double kb = ud_json_number_at(json_object_get(lab, "sysfs_kb"), levels[i]);

		if (kb > x->lo && kb < x->hi)
			json_array_append_new(m, mark(x, kb, names[i], COLOR_SYSFS, 0));
	}
	json_array_foreach(knees, i, k)
		if (json_number_value(k) > x->lo && json_number_value(k) < x->hi)
			json_array_append_new(m, mark(x, json_number_value(k), "knee", COLOR_KNEE, 1 + (int)(i % 2)));
	return m;
}

static void extent(const json_t *points, const char *key, double *lo, double *hi)
{
	const json_t *p;
	size_t i;

	json_array_foreach(points, i, p) {
		double v = ud_json_number_at(p, key);

		if (isfinite(v)) {
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	}
}

static json_t *plot_line(const json_t *lab, const struct scale *x, const struct scale *y, json_t **dots)
{
	const json_t *axes = json_object_get(lab, "axes"), *p;
	const char *xu = json_string_value(json_object_get(json_object_get(axes, "x"), "unit"));
	const char *yu = json_string_value(json_object_get(json_object_get(axes, "y"), "unit"));
	char line[8192] = "", title[96], xs[32];
	size_t i, used = 0;

	*dots = json_array();
	json_array_foreach(json_object_get(lab, "points"), i, p) {
		double px = ud_json_number_at(p, "x"), py = ud_json_number_at(p, "y");

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
		json_array_append_new(*dots, json_pack("{s:o s:o s:s}", "cx", ud_rv_coord(at(x, px)), "cy",
						      ud_rv_coord(at(y, py)), "title", title));
	}
	return json_string(line);
}

static json_t *axis_title(const json_t *axis)
{
	const char *label = json_string_value(json_object_get(axis, "label"));
	const char *unit = json_string_value(json_object_get(axis, "unit"));
	char buf[160];

	snprintf(buf, sizeof(buf), "%s%s%s%s", label ? label : "", unit && *unit ? " (" : "", unit ? unit : "",
		 unit && *unit ? ")" : "");
	return json_string(buf);
}

static json_t *reference(const json_t *lab, const struct scale *y)
{
	const json_t *ref = json_object_get(lab, "reference");
	double v = ud_json_number_at(ref, "y");
	char label[96];

	if (!isfinite(v) || v < y->lo || v > y->hi)
		return json_null();
	snprintf(label, sizeof(label), "%s: %.3g", json_string_value(json_object_get(ref, "label")), v);
	return json_pack("{s:o s:s s:i s:i}", "y", ud_rv_coord(at(y, v)), "label", label, "x1", TC_LEFT, "x2", TC_RIGHT);
}

json_t *ud_teach_chart(const json_t *lab)
{
	const json_t *axes = json_object_get(lab, "axes"), *points = json_object_get(lab, "points");
	bool xlog = json_is_true(json_object_get(json_object_get(axes, "x"), "log"));
	bool ylog = json_is_true(json_object_get(json_object_get(axes, "y"), "log"));
	struct scale x = { .p0 = TC_LEFT, .p1 = TC_RIGHT, .kind = xlog ? TICKS_SIZES : TICKS_LINEAR };
	struct scale y = { .p0 = TC_BOTTOM, .p1 = TC_TOP, .kind = ylog ? TICKS_DECADES : TICKS_LINEAR };
	double xlo = INFINITY, xhi = -INFINITY, ylo = ylog ? INFINITY : 0, yhi = -INFINITY;
	double ref = ud_json_number_at(json_object_get(lab, "reference"), "y");
	json_t *dots, *line;

	extent(points, "x", &xlo, &xhi);
	extent(points, "y", &ylo, &yhi);
	if (!isfinite(xlo) || !isfinite(ylo) || (xlog && xlo <= 0) || (ylog && ylo <= 0))
		return json_null();
	yhi = fmax(yhi, ref > 0 ? ref : yhi);
	fit(&x, xlo, xhi);
	fit(&y, ylo, yhi);
	line = plot_line(lab, &x, &y, &dots);
	return json_pack("{s:i s:i s:{s:i s:i s:i s:i s:i s:i} s:o s:o s:i s:i s:o s:o s:i s:i s:o s:o s:o s:o s:s}", "width",
			 TC_WIDTH, "height", TC_HEIGHT, "plot", "left", TC_LEFT, "right", TC_RIGHT, "top", TC_TOP, "bottom",
			 TC_BOTTOM, "w", TC_RIGHT - TC_LEFT, "h", TC_BOTTOM - TC_TOP, "x_ticks", ticks(&x), "y_ticks", ticks(&y), "x_tick_y", TC_BOTTOM + TC_TICK_LABEL,
			 "y_tick_x", TC_LEFT - 6, "x_title", axis_title(json_object_get(axes, "x")), "y_title",
			 axis_title(json_object_get(axes, "y")), "x_title_y", TC_BOTTOM + TC_X_TITLE, "x_title_x",
			 (TC_LEFT + TC_RIGHT) / 2, "line", line, "dots", dots, "reference", reference(lab, &y), "marks",
			 marks(lab, &x), "color", COLOR_LINE);
}
