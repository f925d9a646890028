/*
 * report_view.c - the view of a diff document that the templates render:
 * every number formatted for a person, text columns aligned, speedups in
 * words ("4.66x slower", never "0.215x"), the summary table first, a
 * compact score table when neither side has counters, and per-workload
 * blocks only for the workloads that need them.
 *
 * It reads the uarchdiff.diff/1 document (the contract) by the keys of the
 * factor, metric and group tables, so no label lives here.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "report.h"
#include "report_priv.h"
#include "text.h"

/* With more workloads than this, blocks go to the ones that moved most; the table has them all. */
#define BLOCKS_MAX 8
/* The summary table's workload column, in characters; longer names end in "...". */
#define NAME_COLUMN 30

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* A count per unit: "3,807" with thousands grouped, "91.1", "0.0436". */
static void count_text(double v, char *buf, size_t len)
{
	char digits[32];
	size_t n, out = 0;

	if (!isfinite(v) || fabs(v) < 1000 || fabs(v) >= 1e15) {
		snprintf(buf, len, isfinite(v) ? "%.3g" : "n/a", v);
		return;
	}
	n = (size_t)snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	if (v < 0 && out + 1 < len)
		buf[out++] = '-';
	for (size_t i = 0; i < n && out + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = digits[i];
	}
	buf[out] = '\0';
}

/*
 * The metrics side by side; one whose events mean different things on the
 * two sides is marked "*" and its reason goes to notes (SPEC §5.2
 * "comparable": shown, never charged).
 */
static json_t *metrics_view(const json_t *metrics, json_t *notes)
{
	json_t *rows = json_array();

	for (int i = 0; i < UD_METRIC_COUNT; i++) {
		enum ud_metric id = (enum ud_metric)i;
		const json_t *m = json_object_get(metrics, ud_metric_name(id));
		json_t *a = ud_rv_metric(ud_rv_get(m, "a"), id), *b = ud_rv_metric(ud_rv_get(m, "b"), id);
		json_t *r = ud_rv_fmt("%.3gx", ud_rv_get(m, "ratio"));
		bool apart = json_is_false(json_object_get(m, "comparable"));
		char col[160], name[48];

		snprintf(name, sizeof(name), "%s%s", ud_metric_label(id), apart ? " *" : "");
		snprintf(col, sizeof(col), "%-22s %12s %12s %10s", name, json_string_value(a), json_string_value(b),
			 json_string_value(r));
		if (apart) {
			char note[768];

			snprintf(note, sizeof(note), "* %s: %s", ud_metric_label(id), str(m, "reason"));
			json_array_append_new(notes, json_string(note));
		}
		json_array_append_new(rows, json_pack("{s:s s:o s:o s:o s:s}", "name", name, "a", a, "b", b, "ratio", r,
						      "col", col));
	}
	return rows;
}

static json_t *factors_view(const json_t *w)
{
	const json_t *factors = json_object_get(w, "factors"), *shares = json_object_get(w, "shares");
	json_t *rows = json_array();

	for (int i = 0; i < UD_FACTOR_COUNT; i++) {
		const char *key = ud_factor_name((enum ud_factor)i), *label = ud_factor_label((enum ud_factor)i);
		double ratio = ud_rv_get(factors, key);
		/* rounded, then + 0.0: a share that rounds to -0 would print "-0%", a move that is not there */
		json_t *v = ud_rv_fmt("%.3gx", ratio), *s = ud_rv_fmt("%+.0f%%", round(100 * ud_rv_get(shares, key)) + 0.0);
		/* what it did to B (a share beyond +-100% reads only beside the word); nothing where it prints as 1x */
		const char *effect = strcmp(json_string_value(v), "1x") == 0 ? "" : ratio > 1 ? "helped B" : ratio < 1 ? "hurt B" : "";
		char col[128];

		if (isnan(ratio) && i != UD_FACTOR_UNEXPLAINED) { /* not counted, or stood in for by the clock factor */
			json_decref(v);
			json_decref(s);
			continue;
		}
		snprintf(col, sizeof(col), "%-14s %10s  %-9s %8s", label, json_string_value(v), effect, json_string_value(s));
		json_array_append_new(rows, json_pack("{s:s s:o s:s s:o s:s s:b}", "name", label, "value", v, "effect",
						      effect, "share", s, "col", col, "unexplained", i == UD_FACTOR_UNEXPLAINED));
	}
	return rows;
}

/* The per-unit key in words: times by their mode, counters by their name. */
static const char *per_unit_label(const char *key, bool *is_time)
{
	static const struct {
		const char *key, *label;
	} times[] = { { "user_ns", "user time" }, { "sys_ns", "kernel time" }, { "task-clock", "CPU time (task-clock)" } };

	*is_time = false;
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		if (strcmp(key, times[i].key) == 0) {
			*is_time = true;
			return times[i].label;
		}
	}
	return key;
}

static json_t *per_unit_view(const json_t *per_unit)
{
	json_t *rows = json_array(), *v;
	const char *key;

	json_object_foreach((json_t *)per_unit, key, v) {
		bool is_time;
		const char *label = per_unit_label(key, &is_time);
		char a[40], b[40], r[24], col[200];

		(is_time ? ud_format_ns : count_text)(ud_rv_get(v, "a"), a, sizeof(a));
		(is_time ? ud_format_ns : count_text)(ud_rv_get(v, "b"), b, sizeof(b));
		snprintf(r, sizeof(r), isfinite(ud_rv_get(v, "ratio")) ? "%.3gx" : "n/a", ud_rv_get(v, "ratio"));
		snprintf(col, sizeof(col), "%-26s %14s %14s %9s", label, a, b, r);
		json_array_append_new(rows, json_pack("{s:s s:s s:s s:s s:s}", "name", label, "a", a, "b", b, "ratio", r,
						      "col", col));
	}
	return rows;
}

/* "user 404 ns -> 43.6 ns, kernel 1.35 µs -> 344 ns; the kernel carries 74% of the change" */
static json_t *time_split_view(const json_t *split, const char *unit)
{
	const json_t *user = json_object_get(split, "user"), *kernel = json_object_get(split, "kernel");
	double share = ud_rv_get(kernel, "share");
	char ua[32], ub[32], ka[32], kb[32], line[600] = "";
	int used = 0;

	if (isfinite(ud_rv_get(user, "a")) && isfinite(ud_rv_get(user, "b"))) {
		ud_format_ns(ud_rv_get(user, "a"), ua, sizeof(ua));
		ud_format_ns(ud_rv_get(user, "b"), ub, sizeof(ub));
		ud_format_ns(ud_rv_get(kernel, "a"), ka, sizeof(ka));
		ud_format_ns(ud_rv_get(kernel, "b"), kb, sizeof(kb));
		used = snprintf(line, sizeof(line), "CPU time per %s: user %s -> %s, kernel %s -> %s", unit, ua, ub, ka, kb);
		if (share >= 0 && share <= 1)
			used += snprintf(line + used, sizeof(line) - (size_t)used, "; the kernel carries %.0f%% of the change",
					 100 * share);
		else if (isfinite(share)) /* one mode gained what the other lost: no share of a whole */
			used += snprintf(line + used, sizeof(line) - (size_t)used, "; user and kernel time moved opposite ways");
	}
	/* per-mode IPC stands on its own counters, with or without the time split */
	for (int m = 0; m < UD_MODE_COUNT && (size_t)used < sizeof(line); m++) {
		const json_t *part = json_object_get(split, ud_mode_name((enum ud_mode)m)), *ipc = json_object_get(part, "ipc");

		if (ipc)
			used += snprintf(line + used, sizeof(line) - (size_t)used, "%s%s IPC %.2f -> %.2f", used ? "; " : "",
					 ud_mode_name((enum ud_mode)m), ud_rv_get(ipc, "a"), ud_rv_get(ipc, "b"));
		if (isfinite(ud_rv_get(part, "cycles_share")) && (size_t)used < sizeof(line))
			used += snprintf(line + used, sizeof(line) - (size_t)used, " (%.0f%% of the change in cycles)",
					 100 * ud_rv_get(part, "cycles_share"));
	}
	return used ? json_string(line) : json_null();
}

static json_t *cpi_view(const json_t *c)
{
	json_t *v = json_pack("{s:o s:o s:o s:o s:o s:o}", "cpi_a", ud_rv_fmt("%.3f", ud_rv_get(c, "cpi_a")), "cpi_b",
			      ud_rv_fmt("%.3f", ud_rv_get(c, "cpi_b")), "delta", ud_rv_fmt("%+.3f", ud_rv_get(c, "delta_cpi")),
			      "branch", ud_rv_fmt("%+.3f", ud_rv_get(c, "branch")), "l1d", ud_rv_fmt("%+.3f", ud_rv_get(c, "l1d")),
			      "other", ud_rv_fmt("%+.3f", ud_rv_get(c, "other")));

	json_object_set_new(v, "overshoot", json_boolean(json_is_true(json_object_get(c, "overshoot"))));
	return v;
}

/* "18,103,507 KB on A, 83,430,478 KB on B (score x elapsed ...)" */
static json_t *work_view(const json_t *work)
{
	char a[40], b[40], line[400];
	const char *unit = str(work, "unit");

	count_text(ud_rv_get(work, "a"), a, sizeof(a));
	count_text(ud_rv_get(work, "b"), b, sizeof(b));
	snprintf(line, sizeof(line), "%s %s on A, %s %s on B (%s)", a, unit, b, unit, str(work, "basis"));
	return json_string(line);
}

/* "397163 -> 1849374 KBps", or which side has no score, rather than "n/a -> n/a". */
static json_t *score_line(const json_t *w)
{
	const json_t *score = json_object_get(w, "score");
	double a = ud_rv_get(score, "a"), b = ud_rv_get(score, "b");
	const char *units = str(w, "units");
	char line[160];

	if (isfinite(a) && isfinite(b))
		snprintf(line, sizeof(line), "%.10g -> %.10g%s%s", a, b, *units ? " " : "", units);
	else if (isfinite(a) || isfinite(b))
		snprintf(line, sizeof(line), "%.10g%s%s on %s only", isfinite(a) ? a : b, *units ? " " : "", units,
			 isfinite(a) ? "A" : "B");
	else
		snprintf(line, sizeof(line), "none on either side");
	return json_string(line);
}

static json_t *dominant_label(const json_t *w)
{
	enum ud_factor f;

	if (ud_factor_from_name(str(w, "dominant"), &f) != 0)
		return json_string("n/a");
	return json_string(ud_factor_label(f));
}

static json_t *workload_view(const json_t *w, const struct ud_log_axis *axis, const json_t *pen)
{
	double speedup = ud_rv_get(w, "speedup");
	const json_t *sig = json_object_get(w, "significance"), *metrics = json_object_get(w, "metrics");
	const char *unit = str(json_object_get(w, "work"), "unit");
	char sp[48], per[64];
	json_t *v, *notes = json_array();

	ud_rv_speedup_text(speedup, ud_rv_significant(w), sp, sizeof(sp));
	snprintf(per, sizeof(per), strcmp(unit, "run") == 0 ? "per %s" : "per %s of work", unit);
	v = json_pack("{s:O s:s s:O s:o s:o s:o s:O s:O s:o s:o s:o}", "name", json_object_get(w, "name"), "speedup", sp,
		      "explanation", json_object_get(w, "explanation"), "work", work_view(json_object_get(w, "work")),
		      "factors", factors_view(w), "metrics", metrics_view(metrics, notes), "significance",
		      json_object_get(sig, "note"), "significant", json_object_get(w, "significant"), "cpi",
		      cpi_view(json_object_get(w, "cpi_stack")), "waterfall",
		      ud_chart_waterfall(json_object_get(w, "factors"), speedup, axis), "bars", ud_chart_ab_bars(metrics));
	json_object_update_new(v, json_pack("{s:s s:o s:o s:s s:b}", "per_unit_title", per, "per_unit",
					    per_unit_view(json_object_get(w, "per_unit")), "time_split",
					    time_split_view(json_object_get(w, "time_split"), unit), "units", str(w, "units"),
					    "lower_is_better", !json_is_true(json_object_get(w, "higher_is_better"))));
	json_object_set_new(v, "score_line", score_line(w));
	json_object_set_new(v, "metric_notes", notes);
	json_object_set_new(v, "cpi_chart", ud_chart_cpi_stack(metrics, pen));
	json_object_set_new(v, "hotspots", ud_rv_hotspots(w));
	/* Templates cannot test an array for emptiness without repeating it: a flag opens the table around it. */
	json_object_set_new(v, "has_per_unit", json_boolean(json_object_size(json_object_get(w, "per_unit")) > 0));
	return v;
}

/* One row of the summary table: speedup, dominant factor, kernel share and IPC, A -> B. */
static json_t *summary_row(const json_t *w)
{
	const json_t *m = json_object_get(w, "metrics");
	const json_t *ss = json_object_get(m, "sys_share"), *ipc = json_object_get(m, "ipc");
	char sp[48], share[40] = "n/a", ipcs[40] = "n/a", name[NAME_COLUMN + 1], col[256];
	json_t *dom = dominant_label(w);
	const char *full = str(w, "name");

	ud_rv_speedup_text(ud_rv_get(w, "speedup"), ud_rv_significant(w), sp, sizeof(sp));
	if (isfinite(ud_rv_get(ss, "a")) && isfinite(ud_rv_get(ss, "b")))
		snprintf(share, sizeof(share), "%.0f%% -> %.0f%%", 100 * ud_rv_get(ss, "a"), 100 * ud_rv_get(ss, "b"));
	if (isfinite(ud_rv_get(ipc, "a")) && isfinite(ud_rv_get(ipc, "b")))
		snprintf(ipcs, sizeof(ipcs), "%.2f -> %.2f", ud_rv_get(ipc, "a"), ud_rv_get(ipc, "b"));
	snprintf(name, sizeof(name), strlen(full) > NAME_COLUMN ? "%.27s..." : "%s", full);
	snprintf(col, sizeof(col), "%-*s %-14s %-12s %-14s %s", NAME_COLUMN, name, sp, json_string_value(dom), share, ipcs);
	return json_pack("{s:s s:s s:o s:s s:s s:s s:b}", "name", full, "speedup", sp, "dominant", dom, "sys_share", share,
			 "ipc", ipcs, "col", col, "lower_is_better", json_is_false(json_object_get(w, "higher_is_better")));
}

/* UnixBench names end in "(1 copy)" / "(2 copies)": the heading its table groups by, or -1. */
static int copies_suffix(const char *name)
{
	const char *open = strrchr(name, '(');

	if (!open || !(strstr(open, " copy)") || strstr(open, " copies)")))
		return -1;
	return (int)(open - name);
}

/* The compact table when neither side has counters: rows grouped by their "(N copies)" heading. */
static json_t *score_table(const json_t *workloads)
{
	json_t *groups = json_array(), *group = NULL, *w;
	char heading[64] = "\x01"; /* matches no real heading: the first row opens a group */
	size_t i;

	json_array_foreach(workloads, i, w) {
		const char *name = str(w, "name");
		int cut = copies_suffix(name);
		char this_heading[64], sp[48], a[32], b[32], col[256];

		snprintf(this_heading, sizeof(this_heading), "%s", cut >= 0 ? name + cut : "");
		if (strcmp(this_heading, heading) != 0) {
			snprintf(heading, sizeof(heading), "%s", this_heading);
			group = json_pack("{s:s s:[]}", "heading", heading, "rows");
			json_array_append_new(groups, group);
		}
		ud_rv_speedup_text(ud_rv_get(w, "speedup"), ud_rv_significant(w), sp, sizeof(sp));
		snprintf(a, sizeof(a), "%.6g", ud_rv_get(json_object_get(w, "score"), "a"));
		snprintf(b, sizeof(b), "%.6g", ud_rv_get(json_object_get(w, "score"), "b"));
		snprintf(col, sizeof(col), "%-46.*s %10s %10s  %s", cut >= 0 ? cut - 1 : (int)strlen(name), name, a, b, sp);
		json_array_append_new(json_object_get(group, "rows"),
				      json_pack("{s:s s:s s:s s:s s:s s:b}", "name", name, "a", a, "b", b, "speedup", sp, "col", col,
						"lower_is_better", json_is_false(json_object_get(w, "higher_is_better"))));
	}
	return groups;
}

static int cmp_moved(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a < b) - (a > b); /* descending */
}

/* The workloads that get a block: all of them, or with many, the BLOCKS_MAX that moved most (borrowed). */
static json_t *block_workloads(const json_t *workloads)
{
	size_t n = json_array_size(workloads), i;
	double *moved = malloc((n + 1) * sizeof(double)), cutoff = -1;
	json_t *out = json_array(), *w;

	for (i = 0; moved && i < n; i++)
		moved[i] = fabs(log(ud_rv_get(json_array_get(workloads, i), "speedup")));
	for (i = 0; moved && i < n; i++)
		moved[i] = isfinite(moved[i]) ? moved[i] : 0;
	if (moved && n > BLOCKS_MAX) {
		qsort(moved, n, sizeof(double), cmp_moved);
		cutoff = moved[BLOCKS_MAX - 1];
	}
	json_array_foreach(workloads, i, w) {
		double m = fabs(log(ud_rv_get(w, "speedup")));

		if (n <= BLOCKS_MAX || (isfinite(m) ? m : 0) >= cutoff)
			json_array_append(out, w);
		if (json_array_size(out) == BLOCKS_MAX)
			break;
	}
	free(moved);
	return out;
}

/* The per-workload blocks, their waterfalls on one axis fitted to all of them. */
static json_t *blocks(const json_t *workloads, const json_t *pen, size_t *shown)
{
	json_t *chosen = block_workloads(workloads), *out = json_array(), *w;
	struct ud_log_axis axis;
	double lo = 0, hi = 0;
	size_t i;

	json_array_foreach(chosen, i, w)
		ud_chart_waterfall_extent(json_object_get(w, "factors"), ud_rv_get(w, "speedup"), &lo, &hi);
	ud_chart_waterfall_axis(&axis, lo, hi);
	json_array_foreach(chosen, i, w)
		json_array_append_new(out, workload_view(w, &axis, pen));
	json_decref(chosen);
	*shown = json_array_size(out);
	return out;
}

static json_t *summary_view(const json_t *summary)
{
	json_t *groups = json_array(), *composites = json_array(), *g;
	char sp[48], line[128];
	size_t i;

	json_array_foreach(json_object_get(summary, "groups"), i, g) {
		ud_rv_speedup_text(ud_rv_get(g, "geomean_speedup"), -1, sp, sizeof(sp));
		snprintf(line, sizeof(line), "%s (%zu): %s", str(g, "name"), json_array_size(json_object_get(g, "workloads")),
			 sp);
		json_array_append_new(groups, json_pack("{s:s}", "line", line));
	}
	json_array_foreach(json_object_get(summary, "composites"), i, g) {
		ud_rv_speedup_text(ud_rv_get(g, "ratio"), -1, sp, sizeof(sp));
		snprintf(line, sizeof(line), "%.6g -> %.6g (%s)", ud_rv_get(g, "a"), ud_rv_get(g, "b"), sp);
		json_array_append_new(composites, json_pack("{s:s s:s}", "name", str(g, "name"), "line", line));
	}
	ud_rv_speedup_text(ud_rv_get(summary, "geomean_speedup"), ud_rv_summary_significant(summary), sp, sizeof(sp));
	snprintf(line, sizeof(line), "%s over %lld workloads", sp,
		 (long long)json_integer_value(json_object_get(summary, "workloads")));
	return json_pack("{s:O s:s s:o s:o s:b}", "headline", json_object_get(summary, "headline"), "geomean", line,
			 "groups", groups, "composites", composites, "counters",
			 json_is_true(json_object_get(summary, "counters")));
}

static json_t *environment_view(const json_t *env)
{
	json_t *rows = json_array(), *e;
	size_t i;

	json_array_foreach(env, i, e) {
		const char *field = str(e, "field");

		json_array_append_new(rows, json_pack("{s:s s:o s:o}", "field", field, "a",
						      ud_rv_fact(field, json_object_get(e, "a")), "b",
						      ud_rv_fact(field, json_object_get(e, "b"))));
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
		snprintf(buf, sizeof(buf), "%s: branch mispredict %g cycles (%s); L1d miss %g cycles (%s)", u ? u : "unknown core",
			 ud_rv_get(b, "cycles"), str(b, "source"), ud_rv_get(l, "cycles"), str(l, "source"));
	return json_string(buf);
}

/* Templates cannot test an array for emptiness without repeating it: these flags open the lists around them. */
static json_t *has_flags(const json_t *view, const json_t *diff)
{
	const json_t *summary = json_object_get(diff, "summary");

	return json_pack("{s:b s:b s:b s:b s:b}", "composites", json_array_size(json_object_get(summary, "composites")) > 0,
			 "groups", json_array_size(json_object_get(summary, "groups")) > 0, "blocks",
			 json_array_size(json_object_get(view, "workloads")) > 0, "environment",
			 json_array_size(json_object_get(diff, "environment")) > 0, "findings",
			 json_array_size(json_object_get(diff, "findings")) > 0);
}

json_t *ud_report_view(const json_t *diff)
{
	const json_t *workloads = json_object_get(diff, "workloads"), *summary = json_object_get(diff, "summary");
	const json_t *pen = json_object_get(diff, "cpi_penalties"), *w;
	bool counters = json_is_true(json_object_get(summary, "counters"));
	json_t *rows = json_array(), *view, *detail = counters ? NULL : json_array();
	size_t i, shown = 0;
	char note[160] = "";
	bool within_noise = false;

	json_array_foreach(workloads, i, w) {
		json_array_append_new(rows, summary_row(w));
		within_noise = within_noise || ud_rv_significant(w) == 0;
	}
	if (counters)
		detail = blocks(workloads, pen, &shown);
	if (shown < json_array_size(workloads) && counters)
		snprintf(note, sizeof(note), "Detail for the %zu of %zu workloads that moved most; every workload is in -f json.",
			 shown, json_array_size(workloads));
	view = json_pack("{s:O s:O s:O s:o s:o s:o s:b s:o s:s}", "tool", json_object_get(diff, "tool"), "baseline",
			 json_object_get(diff, "baseline"), "candidate", json_object_get(diff, "candidate"), "summary",
			 summary_view(summary), "rows", rows, "workloads", detail, "score_only", !counters, "score_table",
			 counters ? json_array() : score_table(workloads), "blocks_note", note);
	json_object_update_new(view, json_pack("{s:o s:O s:O s:O s:o s:o}", "environment",
					       environment_view(json_object_get(diff, "environment")), "findings",
					       json_object_get(diff, "findings"), "only_in_baseline",
					       json_object_get(diff, "only_in_baseline"), "only_in_candidate",
					       json_object_get(diff, "only_in_candidate"), "pen_a",
					       penalty_text(json_object_get(pen, "a")), "pen_b", penalty_text(json_object_get(pen, "b"))));
	json_object_set_new(view, "overview", ud_chart_overview(workloads, ud_rv_get(summary, "geomean_speedup")));
	json_object_set_new(view, "has", has_flags(view, diff));
	/* benchstat's mark needs its legend wherever it appears */
	json_object_set_new(view, "noise_legend",
			    within_noise ? json_string("~: within the noise (a test found no change at p < 0.05)")
					 : json_null());
	return view;
}
