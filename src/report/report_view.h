/*
 * report_view.h - the diff report's typed view (report_view.c and the
 * charts, hotspots and top-down beside it): what report-templates/report.*
 * read, as C structs built from the typed diff model (diff.h), and the
 * field tables the templates read them through (template.h).  Every string
 * and array of a view lives in its pool (view_pool.h) or in the diff it was
 * built from, and goes with them.  Each struct holds the names its part of
 * the page reads, no more: a name a struct lacks is looked up in the
 * sections around it, as the templates expect (a chart row's "y" is its
 * row's, a tick's "axis_top" its chart's).
 */
#ifndef UD_REPORT_VIEW_H
#define UD_REPORT_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "diff.h"
#include "report_priv.h"
#include "template.h"
#include "view_pool.h"

/* ---- the charts (report_chart.c); coordinates are text, one decimal, where they are not whole ---- */

struct rv_legend {
	int x, text_x;
	const char *color, *label;
};

struct rv_tick {
	const char *x, *label;
	bool one; /* the 1x line */
};

struct rv_wf_bar {
	const char *label, *x, *y, *w, *h, *text_y, *value_x, *color, *value, *label_x;
};

struct rv_waterfall {
	int width, height, axis_top;
	struct rv_wf_bar *bars;
	size_t nbars;
	const char *axis_x, *axis_bottom, *tick_y, *legend_y;
	struct rv_tick *ticks;
	size_t nticks;
	struct rv_legend *legend;
	size_t nlegend;
};

/* A pair of bars, A above B: the metric bars' rows and the hotspots chart's. */
struct rv_ab_row {
	const char *label, *label_y, *a_y, *b_y, *a_w, *b_w, *a_text, *b_text, *a_tx, *b_tx, *b_ty;
};

struct rv_ab_tick {
	const char *x, *y, *label_y, *label;
};

struct rv_ab_bars {
	int width, left;
	const char *height, *axis_bottom, *scale;
	struct rv_ab_row *rows;
	size_t nrows;
	struct rv_ab_tick *ticks;
	size_t nticks;
	bool drawn; /* false: no metric has both sides, so no chart */
};

struct rv_hot_chart {
	int width, left;
	const char *height;
	struct rv_ab_row *rows;
	size_t nrows;
};

struct rv_whisker {
	const char *x1, *x2, *y;
};

struct rv_ov_bar {
	const char *name, *label, *x, *y, *w, *h, *text_y, *color, *value;
	bool lower_is_better;
	struct rv_whisker *whisker; /* NULL: no interval */
};

struct rv_ov_geomean {
	const char *x, *label;
	int y;
};

struct rv_overview {
	int width, height, label_right, value_x, axis_top;
	struct rv_ov_bar *bars;
	size_t nbars;
	const char *axis_x, *axis_bottom, *tick_y, *note, *font;
	struct rv_tick *ticks;
	size_t nticks;
	struct rv_ov_geomean *geomean; /* NULL: no geomean to mark */
};

/* A stacked bar's part: the CPI stack's and the top-down chart's. */
struct rv_seg {
	const char *x, *w, *color, *text, *text_x, *text_color;
};

/* One host's stacked bar; host, total_w and the parts' values are the CPI stack's (NULL in a top-down row). */
struct rv_stack_row {
	const char *host, *label, *y, *h, *text_y, *total_w, *line, *line_y, *branch, *l1d, *other;
	struct rv_seg *segs;
	size_t nsegs;
};

/* The CPI stack (missing, overshoot set) or the top-down chart: the stacked_bars partial reads both. */
struct rv_stack_chart {
	int width, height, line_x;
	const char *legend_y, *label_x;
	struct rv_stack_row *rows;
	size_t nrows;
	const char **missing;
	size_t nmissing;
	bool overshoot;
	struct rv_legend *legend;
	size_t nlegend;
};

/* ---- a workload's parts ---- */

struct rv_hot_row {
	const char *symbol, *mode, *a, *b, *a_ns, *b_ns, *col;
};

struct rv_hotspots {
	const char *title;
	struct rv_hot_row *rows;
	size_t nrows;
	struct rv_hot_chart *chart;
};

struct rv_td_row {
	const char *name, *a, *b, *share, *col;
};

struct rv_topdown {
	const char *title, *head, *share_head;
	struct rv_td_row *rows;
	size_t nrows;
	const char **sentence, **methods, **notes;
	size_t nsentence, nmethods, nnotes;
	struct rv_stack_chart *chart;
};

/* The charts' geometry from the model (report_chart.c), owned by pool; NULL where a chart has nothing to draw (or pool->oom). */
struct rv_waterfall *ud_chart_waterfall(struct ud_view_pool *pool, const double factor[UD_FACTOR_COUNT], double speedup,
					const struct ud_log_axis *ax);
/* IPC and the miss rates of metric[], A above B, "drawn" false where none has both (owned by pool). */
struct rv_ab_bars *ud_chart_ab_bars(struct ud_view_pool *pool, const struct ud_ab metric[UD_METRIC_COUNT]);
/* Each sampled symbol's share of samples, A above B, the largest share the full width (owned by pool). */
struct rv_hot_chart *ud_chart_hotspots(struct ud_view_pool *pool, const struct ud_hotspot_move *moves, size_t n);
/* Every workload's speedup centred at 1x, composites left out (owned by pool; NULL when none has a speedup). */
struct rv_overview *ud_chart_overview(struct ud_view_pool *pool, const struct ud_diff *d);
/* Each host's CPI as a stacked bar: branch, L1d, the rest (owned by pool; NULL without a CPI). */
struct rv_stack_chart *ud_chart_cpi_stack(struct ud_view_pool *pool, const struct ud_ab metric[UD_METRIC_COUNT],
					  const struct ud_diff *d);
/* Each host's cycles per unit by top-down level-1 bucket, for the hosts with a record (owned by pool). */
struct rv_stack_chart *ud_chart_topdown(struct ud_view_pool *pool, const struct ud_diff_topdown *td, const char *unit);
/* report_hotspots.c: a diff workload's hotspots (owned by pool); NULL when the diff has none. */
struct rv_hotspots *ud_rv_hotspots(struct ud_view_pool *pool, const struct ud_diff_workload *w);
/* report_topdown.c: a diff workload's top-down (owned by pool); NULL where neither side has a record. */
struct rv_topdown *ud_rv_topdown(struct ud_view_pool *pool, const struct ud_diff *d, const struct ud_diff_workload *w);

extern const struct ud_fields ud_rv_waterfall_fields, ud_rv_ab_bars_fields, ud_rv_hot_chart_fields,
	ud_rv_overview_fields, ud_rv_stack_chart_fields, ud_rv_hotspots_fields, ud_rv_topdown_fields;

/* ---- the page ---- */

struct rv_factor {
	const char *name, *value, *effect, *share, *col;
	bool unexplained;
};

struct rv_metric {
	const char *name, *a, *b, *ratio, *col;
};

struct rv_per_unit {
	const char *name, *a, *b, *ratio, *noise, *col;
};

struct rv_cpi {
	const char *cpi_a, *cpi_b, *delta, *branch, *l1d, *other;
	bool overshoot, known;
};

struct rv_workload {
	const char *name, *anchor, *speedup, *explanation, *significance, *per_unit_title, *per_unit_head, *units,
		*score_line, *work, *per_unit_noise_head, *one_sided, *time_split;
	bool lower_is_better, has_metrics, show_cpi, has_per_unit, per_unit_noise;
	struct rv_factor *factors;
	struct rv_metric *metrics;
	struct rv_per_unit *per_unit;
	const char **metric_notes;
	size_t nfactors, nmetrics, nper_unit, nmetric_notes;
	struct rv_cpi cpi;
	struct rv_waterfall *waterfall;
	struct rv_ab_bars *bars;
	struct rv_stack_chart *cpi_chart;
	struct rv_topdown *topdown;
	struct rv_hotspots *hotspots;
};

struct rv_summary_row {
	const char *name, *speedup, *dominant, *sys_share, *ipc, *col;
	bool lower_is_better;
};

struct rv_score_row {
	const char *name, *a, *b, *speedup, *col;
	bool lower_is_better;
};

/* The score table's rows under one "(N copies)" heading ("" for the names without one). */
struct rv_score_group {
	const char *heading;
	struct rv_score_row *rows;
	size_t nrows;
};

struct rv_line {
	const char *line;
};

struct rv_composite {
	const char *name, *line;
};

struct rv_summary {
	const char *headline, *geomean;
	struct rv_line *groups;
	struct rv_composite *composites;
	size_t ngroups, ncomposites;
	bool counters;
};

struct rv_host {
	const char *label, *file;
};

struct rv_tool {
	const char *name, *version;
};

/* Templates cannot test a list for emptiness without repeating it: these open the lists around them. */
struct rv_has {
	bool dominant, ipc, composites, groups, blocks, environment, findings;
};

struct rv_report {
	struct rv_tool tool;
	struct rv_host baseline, candidate;
	const char **only_in_baseline, **only_in_candidate;
	size_t nonly_in_baseline, nonly_in_candidate;
	struct ud_rv_env_row *environment;
	struct ud_rv_finding *findings;
	size_t nenvironment, nfindings;
	const char *pen_a, *pen_b, *rows_head, *pmu_banner, *uarch_note, *blocks_note, *noise_legend;
	struct rv_summary summary;
	struct rv_summary_row *rows;
	size_t nrows;
	struct rv_workload *workloads;
	size_t nworkloads;
	bool score_only;
	struct rv_score_group *score_table;
	size_t nscore_table;
	struct rv_overview *overview;
	struct rv_has has;
};

/*
 * The view report.{txt,md,html} render, built from d into *v (its parts
 * owned by pool, or borrowed from d): 0, or -1 when out of memory.
 */
int ud_report_view(struct ud_view_pool *pool, const struct ud_diff *d, struct rv_report *v);
/* The field table the report templates read an rv_report through (static). */
const struct ud_fields *ud_report_fields(void);

#endif
