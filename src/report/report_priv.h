/*
 * report_priv.h - what the report's files share: numbers formatted for a
 * person (report_format.c: never "nan", "inf" or "(null)", a missing value
 * reads "n/a"), the rows the diff's and compare's views list alike, and
 * the log axis the charts (report_chart.c) share.  The diff's typed view
 * and charts (report_view.h) read the typed model (diff.h); a number it
 * could not compute (NAN, or one that overflowed) reads as unknown, as the
 * document's null does.
 */
#ifndef UD_REPORT_PRIV_H
#define UD_REPORT_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "derived.h"
#include "diff.h"
#include "report_format.h"
#include "uarch.h"

struct ud_view_pool;
struct ud_fields;

/* A host fact the two sides differ in, each side as the reports show it: "6.8.0", "yes", "0xd0c", "5 (stated)". */
struct ud_rv_env_row {
	const char *field, *a, *b;
};

/* A finding as the diff report lists it: confirm NULL where no rule names a check. */
struct ud_rv_finding {
	const char *id, *hypothesis, *confirm;
	char **evidence; /* borrowed from the diff, or in the view's pool */
	size_t nevidence;
};

/*
 * Every host fact a diff's two sides differ in, *n of them (owned by pool;
 * NULL when none or pool->oom).  own: every text copied into pool, for a
 * diff freed before the page renders (compare's groups and pairs); else
 * the fact's name is borrowed from d.
 */
struct ud_rv_env_row *ud_rv_env_rows(struct ud_view_pool *pool, const struct ud_diff *d, bool own, size_t *n);
/* A diff's findings, *n of them (owned by pool; their texts copied into pool when own, else borrowed from d;
 * NULL when none or pool->oom). */
struct ud_rv_finding *ud_rv_finding_rows(struct ud_view_pool *pool, const struct ud_diff *d, bool own, size_t *n);
/* The tables the report templates read those rows through. */
extern const struct ud_fields ud_rv_env_fields, ud_rv_finding_fields;

/* printf of v, or "n/a" when v is not finite (owned by pool, or static). */
const char *ud_rv_pool_fmt(struct ud_view_pool *pool, const char *format, double v);
/* A ratio with its "x" ("0.979x"), "n/a" when not finite (owned by pool). */
const char *ud_rv_pool_ratio(struct ud_view_pool *pool, double v);
/* A metric as its table says: "10.97%" or "0.71" (owned by pool, or static). */
const char *ud_rv_pool_metric(struct ud_view_pool *pool, double v, enum ud_metric m);
/* An SVG coordinate, one decimal (owned by pool). */
const char *ud_rv_pool_coord(struct ud_view_pool *pool, double v);
/* s in at most max_chars characters, as ud_shorten_new (owned by pool). */
const char *ud_rv_pool_shorten(struct ud_view_pool *pool, const char *s, size_t max_chars);
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
/* s in at most max_chars characters, its middle replaced by "…" when longer: a new string (caller frees); NULL when out of memory. */
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

#endif
