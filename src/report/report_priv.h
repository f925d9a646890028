/*
 * report_priv.h - what the report's files share: numbers formatted for a
 * person (report_format.c: never "nan", "inf" or "(null)", a missing value
 * reads "n/a"), and the charts' geometry (report_chart.c) that the view
 * (report_view.c) puts beside each workload.  The diff's view and charts
 * read the typed model (diff.h); a number it could not compute (NAN, or
 * one that overflowed) reads as unknown, as the document's null does.
 */
#ifndef UD_REPORT_PRIV_H
#define UD_REPORT_PRIV_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "derived.h"
#include "diff.h"
#include "report_format.h"
#include "uarch.h"

/* A metric as its table says: "10.97%" or "0.71".  A new reference. */
json_t *ud_rv_metric(double v, enum ud_metric m);
/* Every host fact a diff's two sides differ in, as {field, a, b} rows of ud_rv_env_side_text (new reference). */
json_t *ud_rv_environment(const struct ud_diff *d);
/* One side of the diff's host fact d->env[i] as the reports show it: "6.8.0", "yes", "0xd0c", "5 (stated)". */
void ud_rv_env_side_text(const struct ud_diff *d, size_t i, enum ud_side side, char *buf, size_t len);
/* n names as an array of strings: the workloads only one side holds (new reference). */
json_t *ud_rv_names(const char **names, size_t n);
/*
 * A diff's findings as the diff and compare reports list them: [{id,
 * hypothesis, evidence: [...], confirm (null where no rule names a check)}]
 * (new reference).
 */
json_t *ud_rv_findings(const struct ud_diff *d);
/*
 * "4.66x faster", "1.25x slower", "~ 1.02x" (within the noise), "n/a": the
 * speedup without its object (ud_speedup_words), significant the test's
 * verdict (1, 0, -1 unknown); "n/a" too for a speedup that is not finite.
 */
void ud_rv_speedup_text(double s, int significant, char *buf, size_t len);
/* The summary's verdict from its geomean's 95% interval: 1 when it excludes 1, 0 when not, -1 without one. */
int ud_rv_summary_significant(const struct ud_diff_summary *s);
/*
 * A host's CPI penalties in cycles, both or neither: false (and NAN in
 * both) without a table or where it lacks either.
 */
bool ud_rv_penalties(const struct ud_uarch *u, double *branch, double *l1d);
/* s in at most max_chars characters, its middle replaced by "…" when longer (new reference). */
json_t *ud_rv_shorten(const char *s, size_t max_chars);
/* The same as a new string (caller frees); NULL when out of memory. */
char *ud_shorten_new(const char *s, size_t max_chars);

/*
 * A log axis of ratios: ln(ratio) from lo to hi drawn from x = left to
 * right.  Its ends sit on ticks of one "ladder" of round ratios chosen for
 * the data's range, so every chart drawn on it reads the same way.
 */
struct ud_log_axis {
	double lo, hi;
	double left, right;
};


/* Widens [*lo, *hi] to hold one workload's waterfall: each running product of factor[] and the speedup. */
void ud_chart_waterfall_extent(const double factor[UD_FACTOR_COUNT], double speedup, double *lo, double *hi);
/* The axis every waterfall of the report is drawn on, fitted to lo..hi from ud_chart_waterfall_extent. */
void ud_chart_waterfall_axis(struct ud_log_axis *ax, double lo, double hi);
/* The factors as a waterfall of bars on the shared axis, and the speedup they multiply to (new reference). */
json_t *ud_chart_waterfall(const double factor[UD_FACTOR_COUNT], double speedup, const struct ud_log_axis *ax);
/* IPC and the miss rates of metric[], A above B, each pair scaled to its larger value, "drawn" false where none has both (new reference). */
json_t *ud_chart_ab_bars(const struct ud_ab metric[UD_METRIC_COUNT]);
/* Each sampled symbol's share of samples, A above B, the largest share the full width (new reference). */
json_t *ud_chart_hotspots(const struct ud_hotspot_move *moves, size_t n);
/*
 * report_hotspots.c: a diff workload's hotspots as the reports show them,
 * {title, rows: [{symbol, mode, a, b, a_ns, b_ns, col}], chart} (new
 * reference); null when the diff has none.
 */
json_t *ud_rv_hotspots(const struct ud_diff_workload *w);
/*
 * One bar per workload's speedup on a log axis centred at 1x, composites
 * left out, the summary's geomean marked (new reference; null when no
 * workload has a speedup).
 */
json_t *ud_chart_overview(const struct ud_diff *d);
/*
 * Each host's CPI as a stacked bar from metric[] and the hosts' penalties
 * (d->host[].uarch): branch part, L1d part, the rest (new reference; null
 * without a CPI).
 */
json_t *ud_chart_cpi_stack(const struct ud_ab metric[UD_METRIC_COUNT], const struct ud_diff *d);
/*
 * Each host's cycles per unit of work as a stacked bar of its top-down
 * level-1 buckets and residual, on one scale (each bar its fractions of the
 * width where a side's cycles are unknown), for the hosts with a record (new
 * reference).
 */
json_t *ud_chart_topdown(const struct ud_diff_topdown *td, const char *unit);
/*
 * report_topdown.c: a diff workload's top-down as the reports show it,
 * {title, head, rows: [{name, a, b, share, col}], sentence: [] or [one],
 * methods, notes, chart} (new reference); null where neither side has a
 * record.
 */
json_t *ud_rv_topdown(const struct ud_diff *d, const struct ud_diff_workload *w);

#endif
