/*
 * report_fleet_view.h - the fleet report's typed view: what
 * report-templates/fleet.{txt,md,html} read, as C structs built from the
 * typed fleet model (fleet.h) by report_fleet.c, report_fleet_chart.c and
 * report_fleet_split.c, and read through the field tables at the end of
 * each (template.h; ud_fleet_fields() in report.h is the root's).  Every string and array of a view lives in
 * its pool (view_pool.h) and goes with it; a NULL string or object is false
 * to the templates, an empty list too.  Counts are strings, formatted here.
 */
#ifndef UD_REPORT_FLEET_VIEW_H
#define UD_REPORT_FLEET_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "fleet.h"
#include "report_priv.h"
#include "template.h"
#include "view_pool.h"

/* A host by its label (as given: its path is beside it) and its path. */
struct fv_host {
	const char *label, *path;
};

/* A small group's host, in the groups table. */
struct fv_member {
	const char *label, *path;
	bool baseline;
};

/* A profile, a host's workload or a host's pair left out, and why (NULL: what that list has not). */
struct fv_left_out {
	const char *label, *path, *workload, *reason;
};

/* A distribution table's line for text (values on a line of its own where split; else NULL). */
struct fv_line {
	const char *line, *values;
};

struct fv_dist {
	const char *line, *values; /* as struct fv_line's */
	const char *name, *units, *n, *median, *iqr, *range, *vs_reference;
};

struct fv_group {
	const char *id, *name, *count, *geomean, *headline, *diff_error;
	bool compared;
	struct ud_rv_env_row *environment;
	size_t nenvironment;
	struct ud_rv_finding *findings;
	size_t nfindings;
	struct fv_dist *dists;
	size_t ndists;
	struct fv_line header;
	struct fv_member *members;
	size_t nmembers;
};

struct fv_split_side {
	const char *values, *more; /* more: NULL where every host is named */
	const char *nhosts, *hosts_word;
	struct fv_split_host {
		const char *label;
		bool last;
	} *hosts;
	size_t nhosts_shown;
};

struct fv_split {
	const char *id, *name, *fact, *moves, *same;
	struct fv_split_side side1, side0;
};

struct fv_splits {
	struct fv_split *list;
	size_t nlist;
	const char *rule;
};

struct fv_outlier {
	const char *rank, *label, *path, *group, *group_name, *moves, *evidence, *explanation;
};

struct fv_noisy {
	const char *label, *group, *group_name, *move, *workload, *interval, *warning;
};

struct fv_distance {
	const char *label, *geomean, *workloads, *workloads_word, *largest, *largest_workload;
};

struct fv_untested {
	const char *id, *name, *nhosts, *hosts_word, *need;
	struct fv_distance *distances;
	size_t ndistances;
};

/* A tick of a chart's log axis. */
struct fv_tick {
	const char *x, *label, *y2;
};

struct fv_box_row {
	const char *label, *y, *mid, *text_y, *lo, *hi, *box_x, *box_w, *med, *y2;
	bool held;
};

struct fv_dot {
	const char *x, *y, *label_x, *label_y, *label;
};

/* One workload's box plot: a row per group. */
struct fv_box {
	const char *name, *height, *axis_x, *bottom;
	int width;
	struct fv_box_row *rows;
	size_t nrows;
	struct fv_tick *ticks;
	size_t nticks;
	struct fv_dot *dots;
	size_t ndots;
};

struct fv_bar {
	const char *label, *y, *text_y, *x, *w, *value_x, *value, *class;
};

struct fv_group_chart {
	const char *height, *axis_x, *bottom;
	int width;
	struct fv_bar *bars;
	size_t nbars;
	struct fv_tick *ticks;
	size_t nticks;
};

struct fv_cell {
	const char *text, *class;
};

struct fv_host_row {
	const char *label, *group, *geomean, *class;
	struct fv_cell *cells;
	size_t ncells;
};

/* The text table's block of a few workloads: its header, a line per host. */
struct fv_block {
	const char *header;
	const char **lines;
	size_t nlines;
};

struct fv_all_hosts {
	const char **heads;
	size_t nheads;
	struct fv_host_row *rows;
	size_t nrows;
	struct fv_block *blocks;
	size_t nblocks;
};

struct fv_pair {
	const char *label, *path, *geomean, *headline;
	struct ud_rv_env_row *environment;
	size_t nenvironment;
	struct ud_rv_finding *findings;
	size_t nfindings;
};

struct fv_ranked {
	const char *rule, *ranking;
};

struct fv_tool {
	const char *version;
};

struct fv_fleet {
	struct fv_tool tool;
	const char *nhosts, *ngroups, *nworkloads, *group_by, *baseline, *baseline_is, *groups_word, *workloads_word;
	struct fv_ranked *ranked; /* NULL: no outlier to explain the rule of */
	struct fv_left_out *skipped, *workloads_left_out, *pairs_left_out;
	size_t nskipped, nworkloads_left_out, npairs_left_out;
	struct fv_host *incomplete;
	size_t nincomplete;
	const char *pmu_banner;
	struct fv_group *groups;
	size_t ngroup_views;
	struct fv_splits *splits; /* NULL: no group splits */
	struct fv_outlier *outliers;
	size_t noutliers_shown;
	const char *no_outliers, *noutliers, *noutlier_hosts, *more_outliers, *more_noisy;
	struct fv_noisy *noisy;
	size_t nnoisy;
	struct fv_untested *untested;
	size_t nuntested;
	struct fv_box *charts;
	size_t ncharts;
	struct fv_group_chart group_chart;
	bool composites;
	struct fv_all_hosts *all_hosts; /* NULL: without --all-hosts */
	struct fv_pair *pairs;
	size_t npairs;
};

/* The splits of f's groups (report_fleet_split.c); NULL where none splits or out of memory (pool->oom). Owned by pool. */
struct fv_splits *ud_fv_splits(struct ud_view_pool *pool, const struct ud_fleet *f);
extern const struct ud_fields ud_fv_splits_fields;

/* Workload w's box plot and the groups' bar chart (report_fleet_chart.c), into *out. */
void ud_fv_box(struct ud_view_pool *pool, const struct ud_fleet *f, size_t w, struct fv_box *out);
void ud_fv_group_chart(struct ud_view_pool *pool, const struct ud_fleet *f, struct fv_group_chart *out);
extern const struct ud_fields ud_fv_box_fields, ud_fv_group_chart_fields;

/* A value's speedup over ref on workload w: v / ref for a score, ref / v for a time (report_fleet_chart.c). */
double ud_fv_speedup_of(const struct ud_fleet_workload *w, double v, double ref);
/* The reference's value of workload w, as fleet.c compares with it. */
double ud_fv_ref_value(const struct ud_fleet *f, size_t w);
/* The heat class of a cell: "none", "same", then f1..f3 faster and s1..s3 slower by size (static string). */
const char *ud_fv_speedup_class(double s);
/* ud_rv_speedup_text's words as a string owned by pool; NULL out of memory. */
const char *ud_fv_speedup(struct ud_view_pool *pool, double s, int significant);

#endif
