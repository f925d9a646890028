/*
 * report_priv.h - what the report's files share: numbers formatted for a
 * person (report_format.c: never "nan", "inf" or "(null)", a missing value
 * reads "n/a"), and the charts' geometry (report_chart.c) that the view
 * (report_view.c) puts beside each workload.
 */
#ifndef UD_REPORT_PRIV_H
#define UD_REPORT_PRIV_H

#include <jansson.h>

#include "derived.h"

/* printf of v, or "n/a" when v is not finite (new reference). */
json_t *ud_rv_fmt(const char *format, double v);
/* An SVG coordinate, one decimal. */
json_t *ud_rv_coord(double v);
/* The number under key, NAN when absent or not a number. */
double ud_rv_get(const json_t *o, const char *key);
/* A metric as its table says: "10.97%" or "0.71". */
json_t *ud_rv_metric(double v, enum ud_metric m);

/* The factors as a waterfall of bars on a log scale, and the speedup they multiply to. */
json_t *ud_chart_waterfall(const json_t *factors, double speedup);
/* IPC and the miss rates, A above B, each pair scaled to its larger value. */
json_t *ud_chart_ab_bars(const json_t *metrics);

#endif
