/*
 * report_compare.c - the comparison of N profiles as a report: the view the
 * compare templates (report-templates/compare.*) see, built from the typed
 * model (compare.h), and the output formats.
 *
 * Templates cannot format numbers, so every speedup is already in words
 * ("1.25x faster", "1.25x slower", never "0.8x"; "—" where a host lacks the
 * workload), the text and Markdown tables are cut into blocks of a few
 * hosts so a fleet stays readable, and the HTML overview (hosts x
 * workloads, a heat class per cell) and its geomean chart are laid out here.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report.h"
#include "report_priv.h"
#include "text.h"

/* Hosts per block of the text and Markdown tables. */
#define HOSTS_PER_BLOCK 5
/* Display columns of one speedup cell in the text table ("12.3x slower"). */
#define CELL_WIDTH 14
/* A column head of CELL_WIDTH code points, each up to 4 bytes of UTF-8, and its NUL. */
#define HEAD_BYTES (4 * CELL_WIDTH + 1)
/* The workload column of the text table: at least, at most. */
#define NAME_MIN 8
#define NAME_MAX 40
/* Geomean chart geometry, in SVG user units. */
#define CHART_WIDTH 720
#define CHART_LEFT 220
#define CHART_RIGHT 620
#define CHART_ROW 18
#define CHART_BAR 13
#define CHART_TOP 24

/* "1.25x faster", "1.25x slower", "~ 1.02x" (within the noise), "—" for none; sig as diff.h's. */
static void speedup_text(double s, int sig, char *buf, size_t len)
{
	double m;

	if (ud_speedup_direction(s, sig, &m) == UD_DIR_NONE)
		snprintf(buf, len, "—");
	else
		ud_speedup_words(s, sig, false, buf, len);
}

/* The heat class of a cell: "none", "same", then f1..f3 faster and s1..s3 slower by size. */
static const char *speedup_class(double s)
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

/* Display columns of UTF-8 s (code points; the labels' scripts are assumed narrow). */
static size_t columns(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* The byte length of the first cols code points of s. */
static size_t prefix_bytes(const char *s, size_t cols)
{
	size_t n = 0;

	for (size_t c = 0; s[n]; n++) {
		if (((unsigned char)s[n] & 0xC0) != 0x80 && c++ == cols)
			break;
	}
	return n;
}

/*
 * Appends s to buf padded to width columns (on the left when right is
 * true); a longer s keeps its head and its tail around "…", since names
 * differ at the end as often as at the start ("... (1 copy)", "... (2 copies)").
 */
static void put_cell(char *buf, size_t cap, const char *s, size_t width, bool right)
{
	size_t used = strlen(buf), cols = columns(s);

	if (cols > width) {
		size_t tail = (width - 1) / 2, head = width - 1 - tail;
		const char *t = s + prefix_bytes(s, cols - tail);

		snprintf(buf + used, cap - used, "%.*s…%s", (int)prefix_bytes(s, head), s, t);
		return;
	}
	snprintf(buf + used, cap - used, "%*s%s%*s", right ? (int)(width - cols) : 0, "", s,
		 right ? 0 : (int)(width - cols), "");
}

static json_t *speedup_json(double s, int sig)
{
	char buf[48];

	speedup_text(s, sig, buf, sizeof(buf));
	return json_string(buf);
}

static size_t name_width(const struct ud_compare *c)
{
	size_t w = NAME_MIN;

	for (size_t i = 0; i < c->nrows; i++) {
		size_t n = columns(c->rows[i].workload) + (c->rows[i].composite ? 2 : 0);

		w = n > w ? n : w;
	}
	return w < NAME_MAX ? w : NAME_MAX;
}

/* Where a label may be cut between words: after a separator. */
static bool separator(char ch)
{
	return ch == ' ' || ch == '-' || ch == '_' || ch == '/' || ch == '(' || ch == ',' || ch == ':';
}

/*
 * What the hosts' labels share at their start (up to a separator) and, when
 * it starts with a separator, at their end: the bytes a column head can
 * drop and still tell them apart ("Intel Xeon Platinum 8375C" and "...
 * 8488C" -> "8375C", "8488C").
 */
static void common_ends(const struct ud_compare *c, size_t *head, size_t *tail)
{
	const char *first = c->hosts[0].label;
	size_t h = strlen(first), t = strlen(first);

	for (size_t k = 1; k < c->nhosts; k++) {
		const char *l = c->hosts[k].label;
		size_t n = strlen(l), i = 0, j = 0;

		while (i < h && i < n && l[i] == first[i])
			i++;
		while (j < t && j < n && j < strlen(first) && l[n - 1 - j] == first[strlen(first) - 1 - j])
			j++;
		h = i;
		t = j;
	}
	while (h > 0 && !separator(first[h - 1]))
		h--;
	while (t > 0 && !separator(first[strlen(first) - t]))
		t--;
	*head = c->nhosts > 1 ? h : 0;
	*tail = c->nhosts > 1 ? t : 0;
}

/*
 * Each host's column head, "#2 8488C": its label less what every label
 * shares, cut to the column.  Where that leaves one empty, or cutting
 * makes two alike, every head is the number alone: the hosts list above
 * the table names each in full.
 */
static void host_heads(const struct ud_compare *c, char (*heads)[HEAD_BYTES])
{
	size_t head, tail;
	bool distinct = true;

	common_ends(c, &head, &tail);
	for (size_t k = 0; k < c->nhosts; k++) {
		const char *l = c->hosts[k].label;
		size_t n = strlen(l), keep = n > head + tail ? n - head - tail : 0;
		char tag[600];

		snprintf(tag, sizeof(tag), "#%zu %.*s", k + 1, (int)keep, l + head);
		heads[k][0] = '\0';
		if (columns(tag) > CELL_WIDTH) /* cut at the end, where the shared part was already taken off */
			snprintf(heads[k], sizeof(heads[k]), "%.*s…", (int)prefix_bytes(tag, CELL_WIDTH - 1), tag);
		else
			snprintf(heads[k], sizeof(heads[k]), "%.*s", (int)prefix_bytes(tag, CELL_WIDTH), tag);
		distinct = distinct && keep > 0;
		for (size_t j = 0; j < k && distinct; j++)
			distinct = strcmp(strchr(heads[j], ' '), strchr(heads[k], ' ')) != 0;
	}
	for (size_t k = 0; k < c->nhosts && !distinct; k++)
		snprintf(heads[k], sizeof(heads[k]), "#%zu", k + 1);
}

/* One line of a text block: the name, then hosts [from, to) of values and their verdicts (NULL: unknown). */
static json_t *text_line(const char *name, const double *v, const int *sig, size_t from, size_t to, size_t nw)
{
	char line[1024] = "", cell[48];

	put_cell(line, sizeof(line), name, nw, false);
	for (size_t k = from; k < to; k++) {
		speedup_text(v[k], sig ? sig[k] : -1, cell, sizeof(cell));
		put_cell(line, sizeof(line), "", 2, false);
		put_cell(line, sizeof(line), cell, CELL_WIDTH, true);
	}
	return json_string(line);
}

/* Hosts [from, to) as a block: a text header and lines, and Markdown's heads and cells. */
static json_t *block_view(const struct ud_compare *c, const double *g, size_t from, size_t to, size_t nw,
			  char (*tags)[HEAD_BYTES])
{
	char head[1024] = "";
	json_t *rows = json_array(), *heads = json_array(), *gm = json_array();

	put_cell(head, sizeof(head), "workload", nw, false);
	for (size_t k = from; k < to; k++) {
		put_cell(head, sizeof(head), "", 2, false);
		put_cell(head, sizeof(head), tags[k], CELL_WIDTH, true);
		json_array_append_new(heads, json_string(tags[k]));
		json_array_append_new(gm, speedup_json(g[k], -1));
	}
	for (size_t i = 0; i < c->nrows; i++) {
		const struct ud_compare_row *r = &c->rows[i];
		char name[300];
		json_t *cells = json_array();

		snprintf(name, sizeof(name), "%s%s", r->workload, r->composite ? " *" : "");
		for (size_t k = from; k < to; k++)
			json_array_append_new(cells, speedup_json(r->speedup[k], r->significant[k]));
		json_array_append_new(rows, json_pack("{s:o s:s s:o}", "col",
						      text_line(name, r->speedup, r->significant, from, to, nw),
						      "name", name, "cells", cells));
	}
	return json_pack("{s:s s:o s:o s:o s:o}", "header", head, "rows", rows, "heads", heads, "geomean_col",
			 text_line("geomean", g, NULL, from, to, nw), "geomeans", gm);
}

static json_t *blocks_view(const struct ud_compare *c)
{
	json_t *blocks = json_array();
	size_t nw = name_width(c);
	double *g = malloc(c->nhosts * sizeof(*g));
	char (*tags)[HEAD_BYTES] = malloc(c->nhosts * sizeof(*tags));

	if (!g || !tags) {
		free(g);
		free(tags);
		json_decref(blocks);
		return NULL;
	}
	host_heads(c, tags);
	for (size_t k = 0; k < c->nhosts; k++)
		g[k] = c->hosts[k].geomean;
	for (size_t from = 0; from < c->nhosts; from += HOSTS_PER_BLOCK)
		json_array_append_new(blocks, block_view(c, g, from,
							 from + HOSTS_PER_BLOCK < c->nhosts ? from + HOSTS_PER_BLOCK : c->nhosts,
							 nw, tags));
	free(g);
	free(tags);
	return blocks;
}

/* "1.25x faster than BASELINE" over n workloads. */
static json_t *geomean_words(const struct ud_compare *c, size_t k)
{
	char words[64], buf[600];

	if (!isfinite(c->hosts[k].geomean))
		return json_string("no geometric mean: no workload with a speedup");
	ud_speedup_words(c->hosts[k].geomean, -1, true, words, sizeof(words));
	snprintf(buf, sizeof(buf), "%s %s (geometric mean over %zu workload%s)", words, c->hosts[0].label,
		 c->hosts[k].ngeomean, c->hosts[k].ngeomean == 1 ? "" : "s");
	return json_string(buf);
}

/* One candidate against the baseline: the summary, environment and findings of its diff. */
static json_t *pair_view(const struct ud_compare *c, size_t k)
{
	const struct ud_diff *d = c->diffs[k - 1];
	json_t *env = ud_rv_environment(d);
	char anchor[32];

	snprintf(anchor, sizeof(anchor), "host-%zu", k + 1);
	return json_pack("{s:I s:s s:s s:s s:o s:s s:o s:o s:b s:I s:o s:o}", "index", (json_int_t)(k + 1), "label",
			 c->hosts[k].label, "path", c->hosts[k].path, "anchor", anchor, "geomean", geomean_words(c, k),
			 "headline", d->summary.headline ? d->summary.headline : "", "environment", env, "findings",
			 ud_rv_findings(d), "has_findings", d->nfindings > 0, "nfindings", (json_int_t)d->nfindings,
			 "only_a", ud_rv_names(d->host[UD_SIDE_A].only, d->host[UD_SIDE_A].nonly), "only_b",
			 ud_rv_names(d->host[UD_SIDE_B].only, d->host[UD_SIDE_B].nonly));
}

/* One host as a row of the HTML overview: a cell per workload, its geomean, its environment group. */
static json_t *host_view(const struct ud_compare *c, size_t k)
{
	json_t *cells = json_array();
	char anchor[32], group[32];

	for (size_t i = 0; i < c->nrows; i++)
		json_array_append_new(cells, json_pack("{s:o s:s}", "text",
						       speedup_json(c->rows[i].speedup[k], c->rows[i].significant[k]),
						       "class", speedup_class(c->rows[i].speedup[k])));
	snprintf(anchor, sizeof(anchor), "host-%zu", k + 1);
	snprintf(group, sizeof(group), "G%zu", c->hosts[k].group + 1);
	return json_pack("{s:I s:s s:s s:s s:b s:o s:o s:s s:o s:s}", "index", (json_int_t)(k + 1), "label",
			 c->hosts[k].label, "path", c->hosts[k].path, "anchor", anchor, "baseline", k == 0, "cells",
			 cells, "geomean", speedup_json(c->hosts[k].geomean, -1), "class", speedup_class(c->hosts[k].geomean),
			 "geomean_words", k ? geomean_words(c, k) : json_string("baseline"), "group", group);
}

/* "host-02, host-05 and host-07" with their numbers. */
static json_t *members_view(const struct ud_compare *c, const struct ud_compare_group *g)
{
	json_t *list = json_array();

	for (size_t i = 0; i < g->nhosts; i++) {
		size_t k = g->hosts[i];
		char anchor[32];

		snprintf(anchor, sizeof(anchor), "host-%zu", k + 1);
		json_array_append_new(list, json_pack("{s:I s:s s:s s:b s:b s:o}", "index", (json_int_t)(k + 1),
						      "label", c->hosts[k].label, "anchor", anchor, "baseline", k == 0,
						      "last", i + 1 == g->nhosts, "geomean", speedup_json(c->hosts[k].geomean, -1)));
	}
	return list;
}

/* The hosts grouped by what their CPUs share, each group's geomean and range and the facts all its candidates differ in. */
static json_t *groups_view(const struct ud_compare *c)
{
	json_t *groups = json_array();

	for (size_t g = 0; g < c->ngroups; g++) {
		const struct ud_compare_group *grp = &c->groups[g];
		json_t *env = json_array();
		char id[32], anchor[48], range[128], lo[48], hi[48], count[32];

		snprintf(id, sizeof(id), "G%zu", g + 1);
		snprintf(anchor, sizeof(anchor), "group-%s", id);
		snprintf(count, sizeof(count), "%zu host%s", grp->nhosts, grp->nhosts == 1 ? "" : "s");
		for (size_t i = 0; i < grp->nenv; i++)
			json_array_append_new(env, ud_rv_env_entry(grp->env[i]));
		speedup_text(grp->min, -1, lo, sizeof(lo));
		speedup_text(grp->max, -1, hi, sizeof(hi));
		if (grp->nhosts > 1 && isfinite(grp->min) && strcmp(lo, hi) != 0)
			snprintf(range, sizeof(range), "%s to %s", lo, hi);
		else
			range[0] = 0;
		json_array_append_new(groups, json_pack("{s:s s:s s:s s:s s:o s:o s:o s:s s:b}", "id", id, "name",
							grp->name, "anchor", anchor, "count", count, "hosts",
							members_view(c, grp), "environment", env, "geomean",
							speedup_json(grp->geomean, -1), "range", range, "has_range",
							range[0] != 0));
	}
	return groups;
}

static json_t *coord(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.1f", v);
	return json_string(buf);
}

/* The ticks of the geomean chart: 1x and the powers of two inside +-maxabs (in ln). */
static json_t *chart_ticks(double x0, double scale, double maxabs, double bottom)
{
	json_t *ticks = json_array();

	for (int e = -6; e <= 6; e++) {
		double x = x0 + e * log(2) * scale;
		char label[32];

		if (fabs(e * log(2)) > maxabs + 1e-9)
			continue;
		if (e == 0)
			snprintf(label, sizeof(label), "1x");
		else
			snprintf(label, sizeof(label), "%dx %s", 1 << abs(e), e > 0 ? "faster" : "slower");
		json_array_append_new(ticks, json_pack("{s:o s:s s:o}", "x", coord(x), "label", label, "y2", coord(bottom)));
	}
	return ticks;
}

/* Each host's geomean as a bar from 1x on a log axis, faster to the right. */
static json_t *chart_view(const struct ud_compare *c)
{
	json_t *bars = json_array();
	double maxabs = log(2), x0 = (CHART_LEFT + CHART_RIGHT) / 2.0, scale, bottom;

	for (size_t k = 0; k < c->nhosts; k++)
		if (isfinite(c->hosts[k].geomean) && c->hosts[k].geomean > 0)
			maxabs = fmax(maxabs, fabs(log(c->hosts[k].geomean)));
	scale = (CHART_RIGHT - CHART_LEFT) / 2.0 / maxabs;
	for (size_t k = 0; k < c->nhosts; k++) {
		double g = c->hosts[k].geomean, l = isfinite(g) && g > 0 ? log(g) : 0, y = CHART_TOP + k * CHART_ROW;

		json_array_append_new(bars, json_pack("{s:s s:o s:o s:o s:o s:o s:o s:s}", "label", c->hosts[k].label, "y",
						      coord(y), "text_y", coord(y + CHART_BAR * 0.8), "x",
						      coord(x0 + fmin(l, 0) * scale), "w", coord(fmax(fabs(l) * scale, 1)),
						      "value_x", coord(fmin(x0 + fmax(l, 0) * scale + 4, CHART_RIGHT + 4)),
						      "value", speedup_json(g, -1), "class", speedup_class(g)));
	}
	bottom = CHART_TOP + c->nhosts * CHART_ROW;
	return json_pack("{s:i s:o s:o s:o s:o s:i s:o}", "width", CHART_WIDTH, "height", coord(bottom + 8), "axis_x",
			 coord(x0), "bottom", coord(bottom), "bars", bars, "label_x", 8, "ticks",
			 chart_ticks(x0, scale, maxabs, bottom));
}

/*
 * The banner for the hosts without hardware counts, said once: "no hardware
 * PMU on 2 of 3 hosts (#1 a, #3 c): ..., because REASON" (the first host's
 * reason); null when every host counted or none has counters at all.
 */
static json_t *pmu_banner(const struct ud_compare *c)
{
	const char *reason = NULL;
	char where[1200], banner[UD_PMU_BANNER_MAX + 1200], first[UD_NO_PMU_REASON_MAX], buf[UD_NO_PMU_REASON_MAX];
	size_t n = 0, used = 0;

	for (size_t k = 0; k < c->nhosts; k++)
		n += ud_profile_no_pmu_reason(c->hosts[k].profile, buf, sizeof(buf)) != NULL;
	if (!n)
		return json_null();
	used = (size_t)snprintf(where, sizeof(where), "on %zu of %zu hosts (", n, c->nhosts);
	for (size_t k = 0; k < c->nhosts && used < sizeof(where); k++) {
		const char *r = ud_profile_no_pmu_reason(c->hosts[k].profile, buf, sizeof(buf));

		if (!r)
			continue;
		used += (size_t)snprintf(where + used, sizeof(where) - used, "%s#%zu %s", reason ? ", " : "", k + 1,
					 c->hosts[k].label);
		if (!reason)
			reason = strcpy(first, r);
	}
	if (used < sizeof(where))
		snprintf(where + used, sizeof(where) - used, ")");
	ud_pmu_banner(where, reason, banner, sizeof(banner));
	ud_utf8_sanitize(banner); /* a label cut inside a character would lose the banner */
	return json_string(banner);
}

json_t *ud_compare_view(const struct ud_compare *c)
{
	json_t *hosts = json_array(), *pairs = json_array(), *workloads = json_array(), *skipped = json_array(), *v;
	bool composites = false;

	for (size_t i = 0; i < c->nskipped; i++)
		json_array_append_new(skipped, json_pack("{s:s s:s}", "path", c->skipped[i].path, "reason",
							 c->skipped[i].reason.msg));
	for (size_t k = 0; k < c->nhosts; k++) {
		json_array_append_new(hosts, host_view(c, k));
		if (k > 0)
			json_array_append_new(pairs, pair_view(c, k));
	}
	for (size_t i = 0; i < c->nrows; i++) {
		json_array_append_new(workloads, json_pack("{s:s s:b}", "name", c->rows[i].workload, "composite",
							   c->rows[i].composite));
		composites = composites || c->rows[i].composite;
	}
	v = json_pack("{s:{s:s} s:{s:s s:s} s:I s:I s:o s:o s:o s:o s:o s:b s:o s:I}", "tool", "version", UD_VERSION,
		      "baseline", "label", c->hosts[0].label, "path", c->hosts[0].path, "nhosts", (json_int_t)c->nhosts,
		      "nworkloads", (json_int_t)c->nrows, "hosts", hosts, "pairs", pairs, "workloads", workloads,
		      "blocks", blocks_view(c), "chart", chart_view(c), "composites", composites, "groups",
		      groups_view(c), "ngroups", (json_int_t)c->ngroups);
	json_object_set_new(v, "skipped", skipped);
	json_object_set_new(v, "pmu_banner", pmu_banner(c));
	return v;
}

int ud_compare_write(const struct ud_compare *c, enum ud_report_format f, const char *dir, FILE *out,
		     struct ud_err *err)
{
	json_t *doc;
	int ret;

	if (f == UD_REPORT_JSON)
		return ud_compare_write_json(c, out) == 0 ? 0 : ud_fail(err, "cannot write the JSON report");
	if (!(doc = ud_compare_view(c)))
		return ud_fail(err, "out of memory");
	ret = ud_report_render(doc, "compare", f, dir, out, err);
	json_decref(doc);
	return ret;
}
