#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "derived.h"
#include "diff.h"
#include "fileio.h"
#include "report.h"
#include "template.h"

/* Waterfall and bar chart geometry, in SVG user units. */
#define CHART_WIDTH 640
#define CHART_LABEL_X 8
#define CHART_PLOT_LEFT 150
#define CHART_PLOT_RIGHT 560
#define CHART_ROW 28
#define CHART_BAR 20

static json_t *fmt(const char *format, double v)
{
	char buf[64];

	if (!isfinite(v))
		return json_string("n/a");
	snprintf(buf, sizeof(buf), format, v);
	return json_string(buf);
}

static json_t *coord(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.1f", v);
	return json_string(buf);
}

static double get(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *metric_value(double v, enum ud_metric m)
{
	return ud_metric_is_percent(m) ? fmt("%.2f%%", 100 * v) : fmt("%.3g", v);
}

static json_t *metrics_view(const json_t *metrics)
{
	json_t *rows = json_array();

	for (int i = 0; i < UD_METRIC_COUNT; i++) {
		enum ud_metric id = (enum ud_metric)i;
		const json_t *m = json_object_get(metrics, ud_metric_name(id));
		json_t *a = metric_value(get(m, "a"), id), *b = metric_value(get(m, "b"), id);
		json_t *r = fmt("%.3gx", get(m, "ratio"));
		char col[160];

		snprintf(col, sizeof(col), "%-22s %12s %12s %10s", ud_metric_label(id), json_string_value(a),
			 json_string_value(b), json_string_value(r));
		json_array_append_new(rows, json_pack("{s:s s:o s:o s:o s:s}", "name", ud_metric_label(id), "a", a, "b",
						      b, "ratio", r, "col", col));
	}
	return rows;
}

/* The factors as a waterfall on a log scale: each bar starts where the last ended. */
static json_t *waterfall(const json_t *factors, double speedup)
{
	json_t *bars = json_array();
	double cum = 0, maxabs = log(1.1), x0, scale;
	int row = 0;

	for (int i = 0; i < UD_FACTOR_COUNT; i++) {
		double f = get(factors, ud_factor_name((enum ud_factor)i));

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
		double f = total ? speedup : get(factors, ud_factor_name((enum ud_factor)i)), from = total ? 0 : cum, to;
		const char *label = total ? "speedup" : ud_factor_label((enum ud_factor)i);
		double y = 10 + row * CHART_ROW;

		if (!isfinite(f) || f <= 0)
			continue;
		to = from + log(f);
		if (!total)
			cum = to;
		json_array_append_new(bars, json_pack("{s:s s:o s:o s:o s:o s:o s:o s:s s:o s:o}", "label", label,
						      "x", coord(x0 + fmin(from, to) * scale), "y", coord(y),
						      "w", coord(fmax(fabs(to - from) * scale, 1)), "h", coord(CHART_BAR),
						      "text_y", coord(y + CHART_BAR * 0.7), "value_x",
						      coord(x0 + fmax(from, to) * scale + 4), "color",
						      total ? "#1f77b4" : f >= 1 ? "#2ca02c" : "#d62728", "value",
						      fmt("%.3gx", f), "label_x", coord(CHART_LABEL_X)));
		row++;
	}
	return json_pack("{s:i s:o s:o s:o s:o}", "width", CHART_WIDTH, "height", json_integer(20 + row * CHART_ROW),
			 "axis_x", coord(x0), "axis_bottom", coord(10 + row * CHART_ROW), "bars", bars);
}

/* IPC and the miss rates, A above B, each pair scaled to its larger value. */
static json_t *ab_bars(const json_t *metrics)
{
	static const enum ud_metric shown[] = { UD_M_IPC, UD_M_BRANCH_MISS_RATE, UD_M_L1D_MISS_RATE };
	json_t *rows = json_array();
	int row = 0;

	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		const json_t *m = json_object_get(metrics, ud_metric_name(shown[i]));
		double a = get(m, "a"), b = get(m, "b"), top = fmax(a, b), y = 10 + row * (2 * CHART_BAR + 14);
		double width = CHART_PLOT_RIGHT - CHART_PLOT_LEFT;

		if (!isfinite(a) || !isfinite(b) || top <= 0)
			continue;
		json_array_append_new(rows, json_pack("{s:s s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o}", "label",
						      ud_metric_label(shown[i]),
						      "label_y", coord(y + CHART_BAR * 0.7), "a_y", coord(y), "b_y",
						      coord(y + CHART_BAR + 2), "a_w", coord(fmax(width * a / top, 1)), "b_w",
						      coord(fmax(width * b / top, 1)), "a_text", metric_value(a, shown[i]),
						      "b_text", metric_value(b, shown[i]), "a_tx",
						      coord(CHART_PLOT_LEFT + fmax(width * a / top, 1) + 4), "b_tx",
						      coord(CHART_PLOT_LEFT + fmax(width * b / top, 1) + 4), "b_ty",
						      coord(y + 2 * CHART_BAR * 0.85)));
		row++;
	}
	return json_pack("{s:i s:i s:i s:o}", "width", CHART_WIDTH, "height", 10 + row * (2 * CHART_BAR + 14),
			 "left", CHART_PLOT_LEFT, "rows", rows);
}

static json_t *factors_view(const json_t *w)
{
	const json_t *factors = json_object_get(w, "factors"), *shares = json_object_get(w, "shares");
	json_t *rows = json_array();

	for (int i = 0; i < UD_FACTOR_COUNT; i++) {
		const char *key = ud_factor_name((enum ud_factor)i), *label = ud_factor_label((enum ud_factor)i);
		json_t *v = fmt("%.3gx", get(factors, key)), *s = fmt("%+.0f%%", 100 * get(shares, key));
		char col[128];

		snprintf(col, sizeof(col), "%-14s %10s %8s", label, json_string_value(v), json_string_value(s));
		json_array_append_new(rows, json_pack("{s:s s:o s:o s:s}", "name", label, "value", v, "share", s, "col",
						      col));
	}
	return rows;
}

static json_t *penalty_text(const json_t *p)
{
	const json_t *b = json_object_get(p, "branch_mispredict"), *l = json_object_get(p, "l1d_miss");
	const char *u = json_string_value(json_object_get(p, "uarch"));
	char buf[768];

	if (!json_is_object(b) || !json_is_object(l))
		snprintf(buf, sizeof(buf), "%s: no penalties known, so its share stays in 'other'", u ? u : "unknown core");
	else
		snprintf(buf, sizeof(buf), "%s: branch mispredict %g cycles (%s); L1d miss %g cycles (%s)", u,
			 get(b, "cycles"), json_string_value(json_object_get(b, "source")), get(l, "cycles"),
			 json_string_value(json_object_get(l, "source")));
	return json_string(buf);
}

static json_t *cpi_view(const json_t *c)
{
	return json_pack("{s:o s:o s:o s:o s:o s:o}", "cpi_a", fmt("%.3f", get(c, "cpi_a")), "cpi_b",
			 fmt("%.3f", get(c, "cpi_b")), "delta", fmt("%+.3f", get(c, "delta_cpi")), "branch",
			 fmt("%+.3f", get(c, "branch")), "l1d", fmt("%+.3f", get(c, "l1d")), "other",
			 fmt("%+.3f", get(c, "other")));
}

static json_t *workload_view(const json_t *w)
{
	double speedup = get(w, "speedup");
	const json_t *sig = json_object_get(w, "significance");
	json_t *v;

	v = json_pack("{s:O s:o s:O s:O s:o s:o s:O s:O s:o s:o s:o}", "name", json_object_get(w, "name"), "speedup",
		      fmt("%.3gx", speedup), "explanation", json_object_get(w, "explanation"), "work_basis",
		      json_object_get(w, "work_basis"), "factors", factors_view(w), "metrics",
		      metrics_view(json_object_get(w, "metrics")), "significance", json_object_get(sig, "note"),
		      "significant", json_object_get(w, "significant"), "cpi", cpi_view(json_object_get(w, "cpi_stack")),
		      "waterfall", waterfall(json_object_get(w, "factors"), speedup), "bars",
		      ab_bars(json_object_get(w, "metrics")));
	json_object_set_new(v, "units", json_is_string(json_object_get(w, "units")) ? json_incref(json_object_get(w, "units"))
										       : json_string(""));
	json_object_set_new(v, "score_a", fmt("%.10g", get(json_object_get(w, "score"), "a")));
	json_object_set_new(v, "score_b", fmt("%.10g", get(json_object_get(w, "score"), "b")));
	return v;
}

static json_t *as_text(const json_t *v)
{
	char buf[64];

	if (json_is_string(v))
		return json_incref((json_t *)v);
	if (json_is_boolean(v))
		return json_string(json_is_true(v) ? "yes" : "no");
	if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
	else if (json_is_number(v))
		snprintf(buf, sizeof(buf), "%g", json_number_value(v));
	else
		snprintf(buf, sizeof(buf), "null");
	return json_string(buf);
}

json_t *ud_report_view(const json_t *diff)
{
	json_t *workloads = json_array(), *env = json_array(), *w;
	size_t i;

	json_array_foreach(json_object_get(diff, "workloads"), i, w)
		json_array_append_new(workloads, workload_view(w));
	json_array_foreach(json_object_get(diff, "environment"), i, w)
		json_array_append_new(env, json_pack("{s:O s:o s:o}", "field", json_object_get(w, "field"), "a",
						     as_text(json_object_get(w, "a")), "b", as_text(json_object_get(w, "b"))));
	return json_pack("{s:O s:O s:O s:o s:o s:O s:O s:O s:o s:o}", "tool", json_object_get(diff, "tool"), "baseline",
			 json_object_get(diff, "baseline"), "candidate", json_object_get(diff, "candidate"), "workloads",
			 workloads, "environment", env, "findings", json_object_get(diff, "findings"), "only_in_baseline",
			 json_object_get(diff, "only_in_baseline"), "only_in_candidate",
			 json_object_get(diff, "only_in_candidate"), "pen_a",
			 penalty_text(json_object_get(json_object_get(diff, "cpi_penalties"), "a")), "pen_b",
			 penalty_text(json_object_get(json_object_get(diff, "cpi_penalties"), "b")));
}

int ud_report_format_parse(const char *name, enum ud_report_format *out)
{
	static const char *const names[] = { "text", "json", "md", "html" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i]) == 0) {
			*out = (enum ud_report_format)i;
			return 0;
		}
	}
	return -1;
}


int ud_report_write(const json_t *diff, enum ud_report_format f, const char *dir, FILE *out, struct ud_err *err)
{
	static const struct {
		const char *file;
		ud_escape_fn esc;
	} kinds[] = {
		[UD_REPORT_TEXT] = { "report.txt", ud_escape_text },
		[UD_REPORT_MD] = { "report.md", ud_escape_markdown },
		[UD_REPORT_HTML] = { "report.html", ud_escape_html },
	};
	char path[4096], dirbuf[4096], *tmpl;
	json_t *view;
	int ret;

	if (f == UD_REPORT_JSON) {
		ret = json_dumpf(diff, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
		return ret == 0 && fputc('\n', out) != EOF ? 0 : ud_fail(err, "cannot write the JSON report");
	}
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ud_data_dir(UD_DATA_TEMPLATES, dirbuf, sizeof(dirbuf)),
		 kinds[f].file);
	tmpl = ud_read_file(path, NULL, err);
	if (!tmpl)
		return -1;
	view = ud_report_view(diff);
	ret = ud_template_render(tmpl, path, view, kinds[f].esc, out, err);
	json_decref(view);
	free(tmpl);
	return ret;
}

int ud_report_render(const json_t *view, const char *stem, enum ud_report_format f, const char *dir, FILE *out,
		     struct ud_err *err)
{
	static const struct {
		const char *ext;
		ud_escape_fn esc;
	} kinds[] = {
		[UD_REPORT_TEXT] = { "txt", ud_escape_text },
		[UD_REPORT_MD] = { "md", ud_escape_markdown },
		[UD_REPORT_HTML] = { "html", ud_escape_html },
	};
	char path[4096], dirbuf[4096], *tmpl;
	int ret;

	if (f != UD_REPORT_TEXT && f != UD_REPORT_MD && f != UD_REPORT_HTML)
		return ud_fail(err, "no template for this format");
	snprintf(path, sizeof(path), "%s/%s.%s", dir ? dir : ud_data_dir(UD_DATA_TEMPLATES, dirbuf, sizeof(dirbuf)),
		 stem, kinds[f].ext);
	tmpl = ud_read_file(path, NULL, err);
	if (!tmpl)
		return -1;
	ret = ud_template_render(tmpl, path, view, kinds[f].esc, out, err);
	free(tmpl);
	return ret;
}
