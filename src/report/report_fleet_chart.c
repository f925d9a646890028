/*
 * report_fleet_chart.c - the fleet report's SVG charts as geometry the
 * HTML template only places (a part of the typed view,
 * report_fleet_view.h): per workload a box plot of each group's hosts
 * against the baseline on a log axis, outliers as labelled dots, and the
 * groups' medians as bars from 1x.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fleet.h"
#include "report_fleet_view.h"
#include "report_priv.h"
#include "text.h"

/* Outlier labels per distribution chart (the rest are dots). */
#define CHART_LABELS 8
/* Box plot geometry, in SVG user units. */
#define BOX_WIDTH 760
#define BOX_LEFT 200
#define BOX_RIGHT 700
#define BOX_ROW 26
#define BOX_TOP 26
/* A group's label beside its row, in characters at most. */
#define ROW_LABEL_CHARS 28

double ud_fv_speedup_of(const struct ud_fleet_workload *w, double v, double ref)
{
	if (!isfinite(v) || !isfinite(ref) || v <= 0 || ref <= 0)
		return NAN;
	return w->higher_is_better ? v / ref : ref / v;
}

double ud_fv_ref_value(const struct ud_fleet *f, size_t w)
{
	return f->ref_host != SIZE_MAX ? f->hosts[f->ref_host].value[w] : f->groups[f->ref_group].dist[w].median;
}

const char *ud_fv_speedup_class(double s)
{
	static const char *names[2][3] = { { "f1", "f2", "f3" }, { "s1", "s2", "s3" } };
	double r;

	if (!isfinite(s) || s <= 0)
		return "none";
	r = s >= 1 ? s : 1 / s;
	if (r < 1.005)
		return "same";
	return names[s < 1][r < 1.1 ? 0 : r < 1.5 ? 1 : 2];
}

const char *ud_fv_speedup(struct ud_view_pool *pool, double s, int significant)
{
	char buf[48];

	ud_rv_speedup_text(s, significant, buf, sizeof(buf));
	return ud_view_pool_printf(pool, "%s", buf);
}

/* "G2 zen5, 64 CPUs" shortened to a row's label. */
static const char *row_label(struct ud_view_pool *pool, const struct ud_fleet *f, size_t g)
{
	char *label = ud_printf_new("G%zu %s", g + 1, f->groups[g].name);
	char *v = label ? ud_shorten_new(label, ROW_LABEL_CHARS) : NULL;

	free(label);
	return ud_view_pool_keep(pool, v);
}

/* ln of a speedup, 0 where unknown: a box plot's coordinate. */
static double log_or_0(double s)
{
	return isfinite(s) && s > 0 ? log(s) : 0;
}

/* The ticks of a chart: 1x and the powers of two inside +-maxabs (in ln). */
static struct fv_tick *ticks(struct ud_view_pool *pool, double x0, double scale, double maxabs, double bottom, size_t *n)
{
	struct fv_tick *t = ud_view_pool_alloc(pool, 13, sizeof(*t));

	*n = 0;
	for (int e = -6; t && e <= 6; e++) {
		double x = x0 + e * log(2) * scale;

		if (fabs(e * log(2)) > maxabs + 1e-9)
			continue;
		t[(*n)++] = (struct fv_tick){
			.x = ud_rv_pool_coord(pool, x),
			.label = e == 0 ? "baseline" : ud_view_pool_printf(pool, "%dx %s", 1 << abs(e), e > 0 ? "faster" : "slower"),
			.y2 = ud_rv_pool_coord(pool, bottom),
		};
	}
	return t;
}

/* The widest move of workload w's boxes and outliers from 1x, in ln; at least 2x either way. */
static double box_extent(const struct ud_fleet *f, size_t w, double ref)
{
	double maxabs = log(2);

	for (size_t g = 0; g < f->ngroups; g++) {
		const struct ud_fleet_dist *d = &f->groups[g].dist[w];

		maxabs = fmax(maxabs, fabs(log_or_0(ud_fv_speedup_of(&f->workloads[w], d->min, ref))));
		maxabs = fmax(maxabs, fabs(log_or_0(ud_fv_speedup_of(&f->workloads[w], d->max, ref))));
	}
	return fmin(maxabs, 6 * log(2));
}

/* Workload w's outliers as labelled dots on their group's row (the first CHART_LABELS labelled). */
static void box_dots(struct ud_view_pool *pool, const struct ud_fleet *f, size_t w, double ref, double x0,
		     double scale, double maxabs, struct fv_box *v)
{
	size_t n = 0;

	for (size_t i = 0; i < f->noutliers; i++)
		n += f->outliers[i].workload == w;
	if (!(v->dots = ud_view_pool_alloc(pool, n, sizeof(*v->dots))))
		return;
	for (size_t i = 0; i < f->noutliers; i++) {
		const struct ud_fleet_outlier *o = &f->outliers[i];
		double l, y = BOX_TOP + f->hosts[o->host].group * BOX_ROW + BOX_ROW / 2.0;

		if (o->workload != w)
			continue;
		l = fmax(-maxabs,
			 fmin(maxabs, log_or_0(ud_fv_speedup_of(&f->workloads[w], f->hosts[o->host].value[w], ref))));
		v->dots[v->ndots] = (struct fv_dot){
			.x = ud_rv_pool_coord(pool, x0 + l * scale),
			.y = ud_rv_pool_coord(pool, y),
			.label_y = ud_rv_pool_coord(pool, y - 6),
			.label_x = ud_rv_pool_coord(pool, x0 + l * scale + 4),
			.label = v->ndots < CHART_LABELS ? ud_view_pool_printf(pool, "%s", f->hosts[o->host].label) : "",
		};
		v->ndots++;
	}
}

/* Group g's row of workload w's box plot: whiskers min to max, box the middle half, the median. */
static void box_row(struct ud_view_pool *pool, const struct ud_fleet *f, size_t w, size_t g, double ref, double x0,
		    double scale, double maxabs, struct fv_box_row *row)
{
	const struct ud_fleet_dist *d = &f->groups[g].dist[w];
	const struct ud_fleet_workload *fw = &f->workloads[w];
	double a = log_or_0(ud_fv_speedup_of(fw, d->min, ref)), b = log_or_0(ud_fv_speedup_of(fw, d->max, ref));
	double c = log_or_0(ud_fv_speedup_of(fw, d->q1, ref)), e = log_or_0(ud_fv_speedup_of(fw, d->q3, ref));
	double m = log_or_0(ud_fv_speedup_of(fw, d->median, ref)), y = BOX_TOP + g * BOX_ROW;

	a = fmax(-maxabs, fmin(a, maxabs)), b = fmax(-maxabs, fmin(b, maxabs));
	*row = (struct fv_box_row){
		.label = row_label(pool, f, g),
		.y = ud_rv_pool_coord(pool, y + 4),
		.mid = ud_rv_pool_coord(pool, y + BOX_ROW / 2.0),
		.text_y = ud_rv_pool_coord(pool, y + 17),
		.lo = ud_rv_pool_coord(pool, x0 + fmin(a, b) * scale),
		.hi = ud_rv_pool_coord(pool, x0 + fmax(a, b) * scale),
		.box_x = ud_rv_pool_coord(pool, x0 + fmin(c, e) * scale),
		.box_w = ud_rv_pool_coord(pool, fmax(fabs(e - c) * scale, 1)),
		.med = ud_rv_pool_coord(pool, x0 + m * scale),
		.y2 = ud_rv_pool_coord(pool, y + BOX_ROW - 4),
		.held = d->n > 0,
	};
}

void ud_fv_box(struct ud_view_pool *pool, const struct ud_fleet *f, size_t w, struct fv_box *v)
{
	double ref = ud_fv_ref_value(f, w), maxabs = box_extent(f, w, ref), x0 = (BOX_LEFT + BOX_RIGHT) / 2.0;
	double scale = (BOX_RIGHT - BOX_LEFT) / 2.0 / maxabs, bottom = BOX_TOP + f->ngroups * BOX_ROW;

	*v = (struct fv_box){
		.name = ud_view_pool_printf(pool, "%s", f->workloads[w].name),
		.width = BOX_WIDTH,
		.height = ud_rv_pool_coord(pool, bottom + 8),
		.axis_x = ud_rv_pool_coord(pool, x0),
		.bottom = ud_rv_pool_coord(pool, bottom),
		.rows = ud_view_pool_alloc(pool, f->ngroups, sizeof(*v->rows)),
	};
	for (size_t g = 0; v->rows && g < f->ngroups; g++)
		box_row(pool, f, w, g, ref, x0, scale, maxabs, &v->rows[v->nrows++]);
	v->ticks = ticks(pool, x0, scale, maxabs, bottom, &v->nticks);
	box_dots(pool, f, w, ref, x0, scale, maxabs, v);
}

void ud_fv_group_chart(struct ud_view_pool *pool, const struct ud_fleet *f, struct fv_group_chart *v)
{
	double maxabs = log(2), x0 = (BOX_LEFT + BOX_RIGHT) / 2.0, scale, bottom = BOX_TOP + f->ngroups * BOX_ROW;

	for (size_t g = 0; g < f->ngroups; g++)
		maxabs = fmax(maxabs, fabs(log_or_0(f->groups[g].geomean)));
	scale = (BOX_RIGHT - BOX_LEFT) / 2.0 / maxabs;
	*v = (struct fv_group_chart){
		.width = BOX_WIDTH,
		.height = ud_rv_pool_coord(pool, bottom + 8),
		.axis_x = ud_rv_pool_coord(pool, x0),
		.bottom = ud_rv_pool_coord(pool, bottom),
		.bars = ud_view_pool_alloc(pool, f->ngroups, sizeof(*v->bars)),
	};
	for (size_t g = 0; v->bars && g < f->ngroups; g++) {
		double l = log_or_0(f->groups[g].geomean), y = BOX_TOP + g * BOX_ROW;

		v->bars[v->nbars++] = (struct fv_bar){
			.label = row_label(pool, f, g),
			.y = ud_rv_pool_coord(pool, y + 4),
			.text_y = ud_rv_pool_coord(pool, y + 17),
			.x = ud_rv_pool_coord(pool, x0 + fmin(l, 0) * scale),
			.w = ud_rv_pool_coord(pool, fmax(fabs(l) * scale, 1)),
			.value_x = ud_rv_pool_coord(pool, x0 + fmax(l, 0) * scale + 4),
			.value = ud_fv_speedup(pool, f->groups[g].geomean, -1),
			.class = ud_fv_speedup_class(f->groups[g].geomean),
		};
	}
	v->ticks = ticks(pool, x0, scale, maxabs, bottom, &v->nticks);
}

static const struct ud_field tick_rows[] = {
	UD_FIELD(struct fv_tick, x, UD_FIELD_STRING),
	UD_FIELD(struct fv_tick, label, UD_FIELD_STRING),
	UD_FIELD(struct fv_tick, y2, UD_FIELD_STRING),
};
static const struct ud_fields tick_fields = UD_FIELDS("a chart's tick", tick_rows);

static const struct ud_field box_row_rows[] = {
	UD_FIELD(struct fv_box_row, label, UD_FIELD_STRING), UD_FIELD(struct fv_box_row, y, UD_FIELD_STRING),
	UD_FIELD(struct fv_box_row, mid, UD_FIELD_STRING),   UD_FIELD(struct fv_box_row, text_y, UD_FIELD_STRING),
	UD_FIELD(struct fv_box_row, lo, UD_FIELD_STRING),    UD_FIELD(struct fv_box_row, hi, UD_FIELD_STRING),
	UD_FIELD(struct fv_box_row, box_x, UD_FIELD_STRING), UD_FIELD(struct fv_box_row, box_w, UD_FIELD_STRING),
	UD_FIELD(struct fv_box_row, med, UD_FIELD_STRING),   UD_FIELD(struct fv_box_row, y2, UD_FIELD_STRING),
	UD_FIELD(struct fv_box_row, held, UD_FIELD_BOOL),
};
static const struct ud_fields box_row_fields = UD_FIELDS("a box plot's row", box_row_rows);

static const struct ud_field dot_rows[] = {
	UD_FIELD(struct fv_dot, x, UD_FIELD_STRING),       UD_FIELD(struct fv_dot, y, UD_FIELD_STRING),
	UD_FIELD(struct fv_dot, label_x, UD_FIELD_STRING), UD_FIELD(struct fv_dot, label_y, UD_FIELD_STRING),
	UD_FIELD(struct fv_dot, label, UD_FIELD_STRING),
};
static const struct ud_fields dot_fields = UD_FIELDS("an outlier's dot", dot_rows);

static const struct ud_field box_rows[] = {
	UD_FIELD(struct fv_box, name, UD_FIELD_STRING),
	UD_FIELD(struct fv_box, width, UD_FIELD_INT),
	UD_FIELD(struct fv_box, height, UD_FIELD_STRING),
	UD_FIELD(struct fv_box, axis_x, UD_FIELD_STRING),
	UD_FIELD(struct fv_box, bottom, UD_FIELD_STRING),
	UD_FIELD_LIST_OF(struct fv_box, rows, nrows, &box_row_fields),
	UD_FIELD_LIST_OF(struct fv_box, ticks, nticks, &tick_fields),
	UD_FIELD_LIST_OF(struct fv_box, dots, ndots, &dot_fields),
};
const struct ud_fields ud_fv_box_fields = UD_FIELDS("a workload's box plot", box_rows);

static const struct ud_field bar_rows[] = {
	UD_FIELD(struct fv_bar, label, UD_FIELD_STRING), UD_FIELD(struct fv_bar, y, UD_FIELD_STRING),
	UD_FIELD(struct fv_bar, text_y, UD_FIELD_STRING), UD_FIELD(struct fv_bar, x, UD_FIELD_STRING),
	UD_FIELD(struct fv_bar, w, UD_FIELD_STRING), UD_FIELD(struct fv_bar, value_x, UD_FIELD_STRING),
	UD_FIELD(struct fv_bar, value, UD_FIELD_STRING), UD_FIELD(struct fv_bar, class, UD_FIELD_STRING),
};
static const struct ud_fields bar_fields = UD_FIELDS("a group's bar", bar_rows);

static const struct ud_field group_chart_rows[] = {
	UD_FIELD(struct fv_group_chart, width, UD_FIELD_INT),
	UD_FIELD(struct fv_group_chart, height, UD_FIELD_STRING),
	UD_FIELD(struct fv_group_chart, axis_x, UD_FIELD_STRING),
	UD_FIELD(struct fv_group_chart, bottom, UD_FIELD_STRING),
	UD_FIELD_LIST_OF(struct fv_group_chart, bars, nbars, &bar_fields),
	UD_FIELD_LIST_OF(struct fv_group_chart, ticks, nticks, &tick_fields),
};
const struct ud_fields ud_fv_group_chart_fields = UD_FIELDS("the groups' chart", group_chart_rows);
