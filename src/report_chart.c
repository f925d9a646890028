/*
 * report_chart.c - the geometry of the HTML report's inline SVG charts: a
 * waterfall of the factors on a log scale, and A-vs-B bars for IPC and the
 * miss rates.  Coordinates are computed here so the template only places
 * what it is given.
 */
#include <math.h>
#include <stdbool.h>

#include "derived.h"
#include "diff.h"
#include "report_priv.h"

/* Waterfall and bar chart geometry, in SVG user units. */
#define CHART_WIDTH 640
#define CHART_LABEL_X 8
#define CHART_PLOT_LEFT 150
#define CHART_PLOT_RIGHT 560
#define CHART_ROW 28
#define CHART_BAR 20

/* The factors as a waterfall on a log scale: each bar starts where the last ended. */
json_t *ud_chart_waterfall(const json_t *factors, double speedup)
{
	json_t *bars = json_array();
	double cum = 0, maxabs = log(1.1), x0, scale;
	int row = 0;

	for (int i = 0; i < UD_FACTOR_COUNT; i++) {
		double f = ud_rv_get(factors, ud_factor_name((enum ud_factor)i));

		if (isfinite(f) && f > 0) {
			cum += log(f);
			maxabs = fmax(maxabs, fabs(cum));
		}
	}
	maxabs = fmax(maxabs, fabs(log(speedup)));
	x0 = (CHART_PLOT_LEFT + CHART_PLOT_RIGHT) / 2.0;
	scale = (CHART_PLOT_RIGHT - CHART_PLOT_LEFT) / 2.0 / maxabs;
	cum = 0;
	/* The factors, then the speedup they multiply to as the last bar. */
	for (int i = 0; i <= UD_FACTOR_COUNT; i++) {
		bool total = i == UD_FACTOR_COUNT;
		double f = total ? speedup : ud_rv_get(factors, ud_factor_name((enum ud_factor)i)), from = total ? 0 : cum, to;
		const char *label = total ? "speedup" : ud_factor_label((enum ud_factor)i);
		double y = 10 + row * CHART_ROW;

		if (!isfinite(f) || f <= 0)
			continue;
		to = from + log(f);
		if (!total)
			cum = to;
		json_array_append_new(bars, json_pack("{s:s s:o s:o s:o s:o s:o s:o s:s s:o s:o}", "label", label,
						      "x", ud_rv_coord(x0 + fmin(from, to) * scale), "y", ud_rv_coord(y),
						      "w", ud_rv_coord(fmax(fabs(to - from) * scale, 1)), "h", ud_rv_coord(CHART_BAR),
						      "text_y", ud_rv_coord(y + CHART_BAR * 0.7), "value_x",
						      ud_rv_coord(x0 + fmax(from, to) * scale + 4), "color",
						      total ? "#1f77b4" : f >= 1 ? "#2ca02c" : "#d62728", "value",
						      ud_rv_fmt("%.3gx", f), "label_x", ud_rv_coord(CHART_LABEL_X)));
		row++;
	}
	return json_pack("{s:i s:o s:o s:o s:o}", "width", CHART_WIDTH, "height", json_integer(20 + row * CHART_ROW),
			 "axis_x", ud_rv_coord(x0), "axis_bottom", ud_rv_coord(10 + row * CHART_ROW), "bars", bars);
}

/* IPC and the miss rates, A above B, each pair scaled to its larger value. */
json_t *ud_chart_ab_bars(const json_t *metrics)
{
	static const enum ud_metric shown[] = { UD_M_IPC, UD_M_BRANCH_MISS_RATE, UD_M_L1D_MISS_RATE };
	json_t *rows = json_array();
	int row = 0;

	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		const json_t *m = json_object_get(metrics, ud_metric_name(shown[i]));
		double a = ud_rv_get(m, "a"), b = ud_rv_get(m, "b"), top = fmax(a, b), y = 10 + row * (2 * CHART_BAR + 14);
		double width = CHART_PLOT_RIGHT - CHART_PLOT_LEFT;

		if (!isfinite(a) || !isfinite(b) || top <= 0)
			continue;
		json_array_append_new(rows, json_pack("{s:s s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o}", "label",
						      ud_metric_label(shown[i]),
						      "label_y", ud_rv_coord(y + CHART_BAR * 0.7), "a_y", ud_rv_coord(y), "b_y",
						      ud_rv_coord(y + CHART_BAR + 2), "a_w", ud_rv_coord(fmax(width * a / top, 1)), "b_w",
						      ud_rv_coord(fmax(width * b / top, 1)), "a_text", ud_rv_metric(a, shown[i]),
						      "b_text", ud_rv_metric(b, shown[i]), "a_tx",
						      ud_rv_coord(CHART_PLOT_LEFT + fmax(width * a / top, 1) + 4), "b_tx",
						      ud_rv_coord(CHART_PLOT_LEFT + fmax(width * b / top, 1) + 4), "b_ty",
						      ud_rv_coord(y + 2 * CHART_BAR * 0.85)));
		row++;
	}
	return json_pack("{s:i s:i s:i s:o}", "width", CHART_WIDTH, "height", 10 + row * (2 * CHART_BAR + 14),
			 "left", CHART_PLOT_LEFT, "rows", rows);
}
