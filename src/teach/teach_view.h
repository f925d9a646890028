/*
 * teach_view.h - the teach pages' typed view (teach_view.c, teach_chart.c):
 * what report-templates/teach.{txt,html} read, as C structs built from the
 * labs' results, and the field tables the templates read them through
 * (template.h).  Every string and array of a view lives in its pool
 * (view_pool.h) and goes with it.
 */
#ifndef UD_TEACH_VIEW_H
#define UD_TEACH_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "teach.h"
#include "template.h"
#include "view_pool.h"

struct ud_tc_tick {
	const char *at, *label;
};

struct ud_tc_dot {
	const char *cx, *cy, *title;
};

/* A sysfs size or a knee: a vertical line, its label in a row above the plot. */
struct ud_tc_mark {
	const char *x, *label, *color, *label_x;
	int label_y;
};

/* The branch lab's sorted-data line across the plot. */
struct ud_tc_reference {
	const char *y, *label;
	int x1, x2;
};

struct ud_tc_plot {
	int left, right, top, bottom, w, h;
};

/* One lab's chart: SVG geometry the HTML template only places. */
struct ud_teach_chart {
	int width, height;
	struct ud_tc_plot plot;
	struct ud_tc_tick *x_ticks, *y_ticks;
	size_t nx_ticks, ny_ticks;
	int x_tick_y, y_tick_x, x_title_y, x_title_x;
	const char *x_title, *y_title, *line, *color;
	struct ud_tc_dot *dots;
	size_t ndots;
	struct ud_tc_reference *reference; /* NULL: none, or off the plot */
	struct ud_tc_mark *marks;
	size_t nmarks;
};

extern const struct ud_fields ud_teach_chart_fields;

/*
 * The chart of lab r (teach_chart.c): the points as a line, ticks with
 * units, the reference line, the cache sizes and knees as marked lines;
 * NULL for a lab with no points to draw (or out of memory: pool->oom).
 * Owned by pool.
 */
struct ud_teach_chart *ud_teach_chart(struct ud_view_pool *pool, const struct ud_lab_result *r);

#endif
