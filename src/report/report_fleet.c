/*
 * report_fleet.c - a fleet's comparison as a report a person reads: the
 * view the fleet templates (report-templates/fleet.*) see, built from the
 * typed model (fleet.h): the groups, the outliers ranked by host, what
 * differs between the groups, per group the distribution of every
 * workload (text lines aligned here, an SVG box plot per workload for
 * HTML, outliers labelled), and on request the per-host table and every
 * host's diff against the baseline.
 *
 * The size of the report follows the groups and the outliers, not the
 * hosts: at most OUTLIER_HOSTS_SHOWN outlier hosts are listed (the JSON
 * has every one), and hosts appear one by one only with --all-hosts.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_thresholds.h"
#include "fleet.h"
#include "report.h"
#include "report_priv.h"
#include "sort.h"
#include "text.h"

/* Outlier hosts the text, Markdown and HTML list; the JSON lists them all. */
#define OUTLIER_HOSTS_SHOWN 25
/* Noisy hosts they name, one line each; the JSON lists them all. */
#define NOISY_HOSTS_SHOWN 10
/* Workloads an outlier host's line names before "and N more". */
#define OUTLIER_WORKLOADS_SHOWN 4
/* The workload column of the distribution lines: at least, at most. */
#define NAME_MIN 8
#define NAME_MAX 32
/* Per-host table: workloads per block of the text table. */
#define HOST_TABLE_BLOCK 6
/* A group of at most this many hosts lists them by name and path in the groups table. */
#define GROUP_MEMBERS_SHOWN 8
/* Outlier labels per distribution chart (the rest are dots). */
#define CHART_LABELS 8
/* Box plot geometry, in SVG user units. */
#define BOX_WIDTH 760
#define BOX_LEFT 200
#define BOX_RIGHT 700
#define BOX_ROW 26
#define BOX_TOP 26

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

/* A measured value as a person reads it: whole above 100, three digits below; "n/a" unknown. */
static void value_text(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (fabs(v) >= 100 && fabs(v) < 1e10)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
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

static json_t *speedup_json(double s)
{
	char buf[48];

	ud_rv_speedup_text(s, -1, buf, sizeof(buf));
	return json_string(buf);
}

/* A value's speedup over ref on workload w: v / ref for a score, ref / v for a time. */
static double speedup_of(const struct ud_fleet_workload *w, double v, double ref)
{
	if (!isfinite(v) || !isfinite(ref) || v <= 0 || ref <= 0)
		return NAN;
	return w->higher_is_better ? v / ref : ref / v;
}

/* The reference's value of workload w, as fleet.c compares with it. */
static double ref_value(const struct ud_fleet *f, size_t w)
{
	return f->ref_host != SIZE_MAX ? f->hosts[f->ref_host].value[w] : f->groups[f->ref_group].dist[w].median;
}

static size_t name_width(const struct ud_fleet *f)
{
	size_t w = NAME_MIN;

	for (size_t i = 0; i < f->nworkloads; i++) {
		size_t n = columns(f->workloads[i].name) + (f->workloads[i].composite ? 2 : 0);

		w = n > w ? n : w;
	}
	return w < NAME_MAX ? w : NAME_MAX;
}

/* The distribution table's value columns, each after two spaces so that no number touches the next. */
enum { DC_N, DC_MEDIAN, DC_IQR, DC_RANGE, DC_VS, DC_COUNT };
static const char *const dist_heads[DC_COUNT] = { "hosts", "median", "middle half (IQR)", "min to max", "vs baseline" };
#define DIST_GAP "  "

/*
 * The table's layout for every group alike: each value column as wide as
 * its widest cell, and the name beside the values where the width holds
 * both (after the 4 columns of indentation), else on a line of its own with
 * the values under it (a command line as a name is common, and an 80-column
 * pipe would wrap the row mid-number).
 */
struct dist_layout {
	size_t name, col[DC_COUNT];
	bool split;
};

/* One workload's distribution in a group as its cells' texts. */
static void dist_cells(const struct ud_fleet *f, const struct ud_fleet_group *g, size_t w, char cell[DC_COUNT][128])
{
	const struct ud_fleet_dist *d = &g->dist[w];
	char a[48], b[48];

	snprintf(cell[DC_N], 128, "%zu", d->n);
	value_text(d->median, cell[DC_MEDIAN], 128);
	value_text(d->q1, a, sizeof(a));
	value_text(d->q3, b, sizeof(b));
	snprintf(cell[DC_IQR], 128, "%s to %s", a, b);
	value_text(d->min, a, sizeof(a));
	value_text(d->max, b, sizeof(b));
	snprintf(cell[DC_RANGE], 128, "%s to %s", a, b);
	ud_rv_speedup_text(speedup_of(&f->workloads[w], d->median, ref_value(f, w)), -1, cell[DC_VS], 128);
}

static void dist_layout(const struct ud_fleet *f, struct dist_layout *lay)
{
	char cell[DC_COUNT][128];
	size_t values = 0, units = 0;

	lay->name = name_width(f);
	for (size_t c = 0; c < DC_COUNT; c++)
		lay->col[c] = columns(dist_heads[c]);
	for (size_t g = 0; g < f->ngroups; g++)
		for (size_t w = 0; w < f->nworkloads; w++) {
			if (!f->groups[g].dist[w].n)
				continue;
			dist_cells(f, &f->groups[g], w, cell);
			for (size_t c = 0; c < DC_COUNT; c++)
				lay->col[c] = columns(cell[c]) > lay->col[c] ? columns(cell[c]) : lay->col[c];
		}
	for (size_t w = 0; w < f->nworkloads; w++)
		if (f->workloads[w].units && columns(f->workloads[w].units) > units)
			units = columns(f->workloads[w].units);
	for (size_t c = 0; c < DC_COUNT; c++)
		values += strlen(DIST_GAP) + lay->col[c];
	lay->split = 4 + lay->name + values + strlen(DIST_GAP) + (units > 5 ? units : 5) > ud_report_width();
}

/*
 * A row's value cells, right-aligned in their columns, then the units:
 * "  2  1849374  ...  KBps"; on a line of their own (split), without the
 * gap before the first, at the name's indentation (its right-aligned numbers stand in
 * from it).
 */
static void dist_values(const struct dist_layout *lay, const char *const cell[DC_COUNT], const char *units, char *buf,
			size_t cap)
{
	for (size_t c = 0; c < DC_COUNT; c++) {
		if (c > 0 || !lay->split)
			put_cell(buf, cap, DIST_GAP, strlen(DIST_GAP), false);
		put_cell(buf, cap, cell[c], lay->col[c], true);
	}
	snprintf(buf + strlen(buf), cap - strlen(buf), DIST_GAP "%s", units);
}

/*
 * A row of the table as the text shows it: line, and values where the
 * layout puts them on a line of their own (null otherwise).
 */
static json_t *dist_row(const struct dist_layout *lay, const char *name, const char *const cell[DC_COUNT],
			const char *units)
{
	/*
	 * Sized to what goes in, never cut: a name whole where split, else in
	 * its column; a cell padded or shortened takes at most its bytes, its
	 * column's and an ellipsis' (put_cell())
	 */
	size_t cap = strlen(name) + lay->name + strlen("…") + strlen(DIST_GAP) + strlen(units) + 1;
	char *line, *values;
	json_t *v;

	for (size_t c = 0; c < DC_COUNT; c++)
		cap += strlen(DIST_GAP) + strlen(cell[c]) + lay->col[c] + strlen("…");
	line = calloc(1, cap);
	values = calloc(1, cap);
	if (!line || !values) {
		free(line);
		free(values);
		return NULL;
	}
	if (lay->split) {
		snprintf(line, cap, "%s", name);
	} else {
		put_cell(line, cap, name, lay->name, false);
	}
	dist_values(lay, cell, units, lay->split ? values : line + strlen(line), lay->split ? cap : cap - strlen(line));
	v = json_pack("{s:s s:o}", "line", line, "values", lay->split ? json_string(values) : json_null());
	free(line);
	free(values);
	return v;
}

/* One workload's distribution in a group: its text row and its cells. */
static json_t *dist_view(const struct ud_fleet *f, const struct ud_fleet_group *g, size_t w,
			 const struct dist_layout *lay)
{
	char cell[DC_COUNT][128];
	const char *cells[DC_COUNT];
	/* whole in the cells, however long: put_cell() shortens it for the text line only */
	char *name = ud_printf_new("%s%s", f->workloads[w].name, f->workloads[w].composite ? " *" : "");
	const char *units = f->workloads[w].units ? f->workloads[w].units : "";
	json_t *v, *fields;

	if (!name)
		return NULL;
	dist_cells(f, g, w, cell);
	for (size_t c = 0; c < DC_COUNT; c++)
		cells[c] = cell[c];
	v = dist_row(lay, name, cells, units);
	fields = json_pack("{s:s s:s s:s s:s s:s s:s s:s s:b}", "name", name, "units", units, "n",
					cell[DC_N], "median", cell[DC_MEDIAN], "iqr", cell[DC_IQR], "range",
					cell[DC_RANGE], "vs_reference", cell[DC_VS], "held", g->dist[w].n > 0);
	json_object_update(v, fields);
	json_decref(fields);
	free(name);
	return v;
}

/* A small group's hosts by label and path (a large one's are in --all-hosts and the JSON). */
static json_t *members_view(const struct ud_fleet *f, const struct ud_fleet_group *grp)
{
	json_t *list = json_array();

	for (size_t i = 0; grp->nhosts <= GROUP_MEMBERS_SHOWN && i < grp->nhosts; i++) {
		const struct ud_fleet_host *h = &f->hosts[grp->hosts[i]];

		json_array_append_new(list, json_pack("{s:s# s:s s:b}", "label", h->label, h->given_len, "path", h->path,
						      "baseline",
						      grp->hosts[i] == f->ref_host));
	}
	return list;
}

/* One group: its name and size, its median against the reference, the diff's headline, facts and findings. */
static json_t *group_view(const struct ud_fleet *f, size_t g, const struct dist_layout *lay)
{
	const struct ud_fleet_group *grp = &f->groups[g];
	json_t *dists = json_array(), *v;
	char id[32], count[48], gm[64];

	snprintf(id, sizeof(id), "G%zu", g + 1);
	snprintf(count, sizeof(count), "%zu host%s", grp->nhosts, grp->nhosts == 1 ? "" : "s");
	if (grp->reference && !f->ref_profile)
		snprintf(gm, sizeof(gm), "the baseline");
	else
		ud_rv_speedup_text(grp->geomean, grp->diff ? ud_rv_summary_significant(&grp->diff->summary) : -1, gm,
				   sizeof(gm));
	for (size_t w = 0; w < f->nworkloads; w++)
		if (grp->dist[w].n)
			json_array_append_new(dists, dist_view(f, grp, w, lay));
	v = json_pack("{s:s s:s s:s s:b s:s s:s s:o s:o s:o s:b s:s s:o}", "id", id, "name", grp->name, "count", count,
		      "reference", grp->reference, "geomean", gm, "headline",
		      grp->diff && grp->diff->summary.headline ? grp->diff->summary.headline : "", "environment",
		      grp->diff ? ud_rv_environment(grp->diff) : json_array(), "findings",
		      grp->diff ? ud_rv_findings(grp->diff) : json_array(), "dists", dists, "compared", grp->diff != NULL,
		      "diff_error", grp->diff_error, "header", dist_row(lay, "workload", dist_heads, "units"));
	json_object_set_new(v, "members", members_view(f, grp));
	return v;
}

/*
 * "1.43x slower on syscall, 1.21x slower on pipe and 3 more": one host's
 * outliers ix[from, to), in rank order, as long as their workloads' names
 * make it.  A new string the caller frees; NULL when out of memory.
 */
static char *moves_text(const struct ud_fleet *f, const size_t (*ix)[2], size_t from, size_t to)
{
	char *moves = ud_printf_new("%s", "");
	bool ok = moves != NULL;

	for (size_t i = from; ok && i < to && i < from + OUTLIER_WORKLOADS_SHOWN; i++) {
		const struct ud_fleet_outlier *o = &f->outliers[ix[i][1]];
		char s[48];

		ud_rv_speedup_text(o->ratio, -1, s, sizeof(s));
		ok = ud_append(&moves, "%s%s on %s", i > from ? ", " : "", s, f->workloads[o->workload].name);
	}
	if (ok && to - from > OUTLIER_WORKLOADS_SHOWN)
		ok = ud_append(&moves, " and %zu more", to - from - OUTLIER_WORKLOADS_SHOWN);
	if (!ok) {
		free(moves);
		moves = NULL;
	}
	return moves;
}

static int by_host_then_rank(const void *x, const void *y)
{
	const size_t *a = x, *b = y;

	return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* The outlier host's line: its group, its moves, its largest move's explanation. */
static json_t *outlier_host_view(const struct ud_fleet *f, const size_t (*ix)[2], size_t first, size_t last,
				 size_t rank)
{
	const struct ud_fleet_outlier *o = &f->outliers[ix[first][1]];
	const struct ud_fleet_host *h = &f->hosts[o->host];
	char id[32], *moves = moves_text(f, ix, first, last);
	/* %.1f of a z prints as many digits as its size: built to its length, not cut */
	char *evidence = isfinite(h->evidence) ? ud_printf_new("evidence z %.1f over %zu workload%s", h->evidence,
							      h->evidence_workloads,
							      h->evidence_workloads == 1 ? "" : "s")
					       : ud_printf_new("no evidence z: it moved on composites alone");
	json_t *v = NULL;

	snprintf(id, sizeof(id), "G%zu", h->group + 1);
	if (moves && evidence)
		v = json_pack("{s:I s:s s:s s:s s:s s:s s:s s:s}", "rank", (json_int_t)rank, "label", h->label, "path",
			      h->path, "group", id, "group_name", f->groups[h->group].name, "moves", moves, "evidence",
			      evidence, "explanation", o->explanation ? o->explanation : "");
	free(moves);
	free(evidence);
	return v;
}

/*
 * The outlier hosts, the one with the largest move first, each with its
 * moves and its largest move's explanation: (host, rank) pairs sorted by
 * host hold each host's outliers together, in rank order; walking the
 * ranks, a host is listed at its first.
 */
static json_t *outliers_view(const struct ud_fleet *f, size_t *nhosts)
{
	size_t (*ix)[2] = malloc((f->noutliers ? f->noutliers : 1) * sizeof(*ix));
	json_t *list = json_array();

	*nhosts = 0;
	if (!ix)
		return list;
	for (size_t i = 0; i < f->noutliers; i++) {
		ix[i][0] = f->outliers[i].host;
		ix[i][1] = i;
	}
	ud_sort(ix, f->noutliers, sizeof(*ix), by_host_then_rank);
	for (size_t i = 0; i < f->noutliers; i++) {
		size_t key[2] = { f->outliers[i].host, i }, first, last;
		const size_t(*at)[2] = ud_bsearch(key, ix, f->noutliers, sizeof(*ix), by_host_then_rank);

		first = (size_t)(at - ix);
		if (first > 0 && ix[first - 1][0] == key[0])
			continue; /* not this host's largest move */
		for (last = first; last < f->noutliers && ix[last][0] == key[0]; last++)
			;
		if (++*nhosts <= OUTLIER_HOSTS_SHOWN)
			json_array_append_new(list, outlier_host_view(f, (const size_t(*)[2])ix, first, last, *nhosts));
	}
	free(ix);
	return list;
}

/*
 * A noisy host's line: "1.80x slower on syscall, where its own 95% interval
 * is +-60.0%", then its profile's warning there where it has one.
 */
static json_t *noisy_view(const struct ud_fleet *f, const struct ud_fleet_noisy *n)
{
	const struct ud_fleet_host *h = &f->hosts[n->host];
	char move[48], id[32];
	/* %.1f of an interval prints as many digits as its size: built to its length, not cut */
	char *interval = isfinite(n->interval)
				 ? ud_printf_new("where its own 95%% interval is +-%.1f%%", 100 * n->interval)
				 : ud_printf_new("where its own interval is unknown");
	json_t *v;

	ud_rv_speedup_text(n->ratio, -1, move, sizeof(move));
	snprintf(id, sizeof(id), "G%zu", h->group + 1);
	v = !interval ? NULL
		      : json_pack("{s:s s:s s:s s:s s:s s:s s:s}", "label", h->label, "group", id, "group_name",
				  f->groups[h->group].name, "move", move, "workload", f->workloads[n->workload].name,
				  "interval", interval, "warning", n->warning ? n->warning : "");
	free(interval);
	return v;
}

static json_t *noisies_view(const struct ud_fleet *f)
{
	json_t *list = json_array();

	for (size_t i = 0; i < f->nnoisy && i < NOISY_HOSTS_SHOWN; i++)
		json_array_append_new(list, noisy_view(f, &f->noisy[i]));
	return list;
}

/* A small host's distance from the others: "2.94x slower over 8 workloads; largest 3.10x slower on int". */
static json_t *distance_view(const struct ud_fleet *f, size_t k)
{
	const struct ud_fleet_distance *d = &f->hosts[k].distance;
	char gm[48], largest[48];

	ud_rv_speedup_text(d->geomean, -1, gm, sizeof(gm));
	ud_rv_speedup_text(d->largest_ratio, -1, largest, sizeof(largest));
	return json_pack("{s:s s:s s:I s:s s:s s:s}", "label", f->hosts[k].label, "geomean", gm, "workloads",
			 (json_int_t)d->nworkloads, "workloads_word", d->nworkloads == 1 ? "workload" : "workloads",
			 "largest", largest, "largest_workload", f->workloads[d->largest].name);
}

/* The groups too small to test: their size and the size needed, and each host's distance from the others. */
static json_t *untested_view(const struct ud_fleet *f)
{
	json_t *list = json_array();

	for (size_t g = 0; g < f->ngroups; g++) {
		const struct ud_fleet_group *grp = &f->groups[g];
		json_t *hosts;
		char id[32];

		if (grp->tested)
			continue;
		hosts = json_array();
		for (size_t i = 0; i < grp->nhosts; i++)
			if (isfinite(f->hosts[grp->hosts[i]].distance.geomean))
				json_array_append_new(hosts, distance_view(f, grp->hosts[i]));
		snprintf(id, sizeof(id), "G%zu", g + 1);
		json_array_append_new(list, json_pack("{s:s s:s s:I s:s s:I s:o}", "id", id, "name", grp->name, "nhosts",
						      (json_int_t)grp->nhosts, "hosts_word",
						      grp->nhosts == 1 ? "host" : "hosts", "need",
						      (json_int_t)UD_FLEET_MIN_PEERS, "distances", hosts));
	}
	return list;
}

/* What "no outlier" means here: nothing tested, every group tested and quiet, or the tested ones quiet. */
static json_t *no_outliers_text(const struct ud_fleet *f)
{
	char *tested = NULL;
	size_t n = 0;
	json_t *v;

	for (size_t g = 0; g < f->ngroups; g++)
		if (f->groups[g].tested && !ud_append(&tested, "%sG%zu", n++ ? ", " : "", g + 1)) {
			free(tested);
			return NULL;
		}
	if (!n)
		v = ud_rv_printf("none tested: no group has the %d hosts outliers need", UD_FLEET_MIN_PEERS);
	else if (n == f->ngroups)
		v = ud_rv_printf("none: every host is within its group's spread or its own noise on every workload");
	else
		v = ud_rv_printf("none in the groups tested (%s): every host is within its group's spread or its own noise "
				 "on every workload", tested);
	free(tested);
	return v;
}

/* The per-host table, for --all-hosts: text blocks of a few workloads, and whole rows for Markdown and HTML. */
static json_t *hosts_view(const struct ud_fleet *f)
{
	json_t *rows = json_array(), *blocks = json_array(), *heads = json_array();

	for (size_t w = 0; w < f->nworkloads; w++)
		json_array_append_new(heads, json_string(f->workloads[w].name));
	for (size_t k = 0; k < f->nhosts; k++) {
		json_t *cells = json_array();
		char group[32];

		for (size_t w = 0; w < f->nworkloads; w++) {
			double s = ud_fleet_speedup(f, k, w);

			json_array_append_new(cells, json_pack("{s:o s:s}", "text", speedup_json(s), "class", speedup_class(s)));
		}
		snprintf(group, sizeof(group), "G%zu", f->hosts[k].group + 1);
		json_array_append_new(rows, json_pack("{s:s s:s s:o s:s s:o}", "label", f->hosts[k].label, "group", group,
						      "geomean", speedup_json(f->hosts[k].geomean), "class",
						      speedup_class(f->hosts[k].geomean), "cells", cells));
	}
	for (size_t from = 0; from < f->nworkloads; from += HOST_TABLE_BLOCK) {
		size_t to = from + HOST_TABLE_BLOCK < f->nworkloads ? from + HOST_TABLE_BLOCK : f->nworkloads;
		json_t *lines = json_array();
		/*
		 * Never cut: put_cell() shortens every cell to its column, and a
		 * column of a UTF-8 document's text is at most 4 bytes, so a line
		 * is at most 4 x (24 + 6 + 14 + 16 x HOST_TABLE_BLOCK) = 560 bytes
		 */
		char head[2048] = "";

		put_cell(head, sizeof(head), "host", 24, false);
		put_cell(head, sizeof(head), "group", 6, false);
		put_cell(head, sizeof(head), "geomean", 14, true);
		for (size_t w = from; w < to; w++)
			put_cell(head, sizeof(head), f->workloads[w].name, 16, true);
		for (size_t k = 0; k < f->nhosts; k++) {
			char line[2048] = "", cell[48], group[32];

			snprintf(group, sizeof(group), "G%zu", f->hosts[k].group + 1);
			put_cell(line, sizeof(line), f->hosts[k].label, 24, false);
			put_cell(line, sizeof(line), group, 6, false);
			ud_rv_speedup_text(f->hosts[k].geomean, -1, cell, sizeof(cell));
			put_cell(line, sizeof(line), cell, 14, true);
			for (size_t w = from; w < to; w++) {
				ud_rv_speedup_text(ud_fleet_speedup(f, k, w), -1, cell, sizeof(cell));
				put_cell(line, sizeof(line), cell, 16, true);
			}
			json_array_append_new(lines, json_string(line));
		}
		json_array_append_new(blocks, json_pack("{s:s s:o}", "header", head, "lines", lines));
	}
	return json_pack("{s:o s:o s:o}", "heads", heads, "rows", rows, "blocks", blocks);
}

/*
 * --pairs: every host against the reference, each diff made, viewed and
 * freed in turn; a pair left out is named with its reason in
 * pairs_left_out, and recorded in gaps.
 */
static void pairs_view(json_t *v, const struct ud_fleet *f, struct ud_fleet_gaps *gaps)
{
	json_t *pairs = json_array(), *left = json_array();

	for (size_t k = 0; k < f->nhosts; k++) {
		struct ud_profile *p = NULL;
		struct ud_diff *d = k == f->ref_host ? NULL : ud_fleet_pair(f, k, &p, gaps);
		char words[64];

		if (d) {
			ud_speedup_words(d->summary.geomean_speedup, ud_rv_summary_significant(&d->summary), true, words,
					 sizeof(words));
			json_array_append_new(pairs, json_pack("{s:s s:s s:s s:s s:o s:o}", "label", f->hosts[k].label,
							       "path", f->hosts[k].path, "geomean", words, "headline",
							       d->summary.headline ? d->summary.headline : "",
							       "environment", ud_rv_environment(d), "findings",
							       ud_rv_findings(d)));
		}
		ud_diff_free(d);
		ud_profile_free(p);
	}
	for (size_t i = 0; i < gaps->n; i++)
		json_array_append_new(left, json_pack("{s:s s:s s:s}", "label", f->hosts[gaps->v[i].host].label, "path",
						      f->hosts[gaps->v[i].host].path, "reason",
						      gaps->v[i].reason ? gaps->v[i].reason : "out of memory"));
	json_object_set_new(v, "pairs", pairs);
	json_object_set_new(v, "pairs_left_out", left);
}

/* ln of a speedup, 0 where unknown: a box plot's coordinate. */
static double log_or_0(double s)
{
	return isfinite(s) && s > 0 ? log(s) : 0;
}

/* The ticks of a box plot: 1x and the powers of two inside +-maxabs (in ln). */
static json_t *box_ticks(double x0, double scale, double maxabs, double bottom)
{
	json_t *ticks = json_array();

	for (int e = -6; e <= 6; e++) {
		double x = x0 + e * log(2) * scale;
		char label[32];

		if (fabs(e * log(2)) > maxabs + 1e-9)
			continue;
		snprintf(label, sizeof(label), e == 0 ? "baseline" : "%dx %s", 1 << abs(e), e > 0 ? "faster" : "slower");
		json_array_append_new(ticks, json_pack("{s:o s:s s:o}", "x", ud_rv_coord(x), "label", label, "y2",
						       ud_rv_coord(bottom)));
	}
	return ticks;
}

/* The widest move of workload w's boxes and outliers from 1x, in ln; at least 2x either way. */
static double box_extent(const struct ud_fleet *f, size_t w, double ref)
{
	double maxabs = log(2);

	for (size_t g = 0; g < f->ngroups; g++) {
		const struct ud_fleet_dist *d = &f->groups[g].dist[w];

		maxabs = fmax(maxabs, fabs(log_or_0(speedup_of(&f->workloads[w], d->min, ref))));
		maxabs = fmax(maxabs, fabs(log_or_0(speedup_of(&f->workloads[w], d->max, ref))));
	}
	return fmin(maxabs, 6 * log(2));
}

/* Workload w's outliers as labelled dots on their group's row (the first CHART_LABELS labelled). */
static json_t *box_dots(const struct ud_fleet *f, size_t w, double ref, double x0, double scale, double maxabs)
{
	json_t *dots = json_array();
	size_t labelled = 0;

	for (size_t i = 0; i < f->noutliers; i++) {
		const struct ud_fleet_outlier *o = &f->outliers[i];
		double l, y = BOX_TOP + f->hosts[o->host].group * BOX_ROW + BOX_ROW / 2.0;

		if (o->workload != w)
			continue;
		l = fmax(-maxabs, fmin(maxabs, log_or_0(speedup_of(&f->workloads[w], f->hosts[o->host].value[w], ref))));
		json_array_append_new(dots, json_pack("{s:o s:o s:o s:o s:s}", "x", ud_rv_coord(x0 + l * scale), "y",
						      ud_rv_coord(y), "label_y", ud_rv_coord(y - 6), "label_x",
						      ud_rv_coord(x0 + l * scale + 4), "label",
						      labelled++ < CHART_LABELS ? f->hosts[o->host].label : ""));
	}
	return dots;
}

/* Workload w as a box plot: a row per group (whiskers min to max, box the middle half, the median), log axis. */
static json_t *box_view(const struct ud_fleet *f, size_t w)
{
	double ref = ref_value(f, w), maxabs = box_extent(f, w, ref), x0 = (BOX_LEFT + BOX_RIGHT) / 2.0;
	double scale = (BOX_RIGHT - BOX_LEFT) / 2.0 / maxabs, bottom = BOX_TOP + f->ngroups * BOX_ROW;
	json_t *rows = json_array();

	for (size_t g = 0; g < f->ngroups; g++) {
		const struct ud_fleet_dist *d = &f->groups[g].dist[w];
		const struct ud_fleet_workload *fw = &f->workloads[w];
		double a = log_or_0(speedup_of(fw, d->min, ref)), b = log_or_0(speedup_of(fw, d->max, ref));
		double c = log_or_0(speedup_of(fw, d->q1, ref)), e = log_or_0(speedup_of(fw, d->q3, ref));
		double m = log_or_0(speedup_of(fw, d->median, ref)), y = BOX_TOP + g * BOX_ROW;
		/* never cut: a group's name is under sizeof(name), "G" and a number's 20 digits fit beside it */
		char label[sizeof(f->groups[g].name) + 40];

		a = fmax(-maxabs, fmin(a, maxabs)), b = fmax(-maxabs, fmin(b, maxabs));
		snprintf(label, sizeof(label), "G%zu %s", g + 1, f->groups[g].name);
		json_array_append_new(rows, json_pack("{s:o s:o s:o s:o s:o s:o s:o s:o s:o s:o s:b}", "label",
						      ud_rv_shorten(label, 28), "y", ud_rv_coord(y + 4), "mid",
						      ud_rv_coord(y + BOX_ROW / 2.0), "text_y", ud_rv_coord(y + 17),
						      "lo", ud_rv_coord(x0 + fmin(a, b) * scale), "hi",
						      ud_rv_coord(x0 + fmax(a, b) * scale), "box_x",
						      ud_rv_coord(x0 + fmin(c, e) * scale), "box_w",
						      ud_rv_coord(fmax(fabs(e - c) * scale, 1)), "med",
						      ud_rv_coord(x0 + m * scale), "y2", ud_rv_coord(y + BOX_ROW - 4),
						      "held", d->n > 0));
	}
	return json_pack("{s:s s:i s:o s:o s:o s:o s:o s:o}", "name", f->workloads[w].name, "width", BOX_WIDTH,
			 "height", ud_rv_coord(bottom + 8), "axis_x", ud_rv_coord(x0), "bottom", ud_rv_coord(bottom),
			 "rows", rows, "ticks", box_ticks(x0, scale, maxabs, bottom), "dots",
			 box_dots(f, w, ref, x0, scale, maxabs));
}

/* Each group's median against the baseline as a bar from 1x on a log axis, faster to the right. */
static json_t *group_chart(const struct ud_fleet *f)
{
	json_t *bars = json_array();
	double maxabs = log(2), x0 = (BOX_LEFT + BOX_RIGHT) / 2.0, scale, bottom = BOX_TOP + f->ngroups * BOX_ROW;

	for (size_t g = 0; g < f->ngroups; g++)
		maxabs = fmax(maxabs, fabs(log_or_0(f->groups[g].geomean)));
	scale = (BOX_RIGHT - BOX_LEFT) / 2.0 / maxabs;
	for (size_t g = 0; g < f->ngroups; g++) {
		double l = log_or_0(f->groups[g].geomean), y = BOX_TOP + g * BOX_ROW;
		char label[sizeof(f->groups[g].name) + 40]; /* never cut, as box_view()'s */

		snprintf(label, sizeof(label), "G%zu %s", g + 1, f->groups[g].name);
		json_array_append_new(bars, json_pack("{s:o s:o s:o s:o s:o s:o s:o s:s}", "label", ud_rv_shorten(label, 28),
						      "y", ud_rv_coord(y + 4), "text_y", ud_rv_coord(y + 17), "x",
						      ud_rv_coord(x0 + fmin(l, 0) * scale), "w",
						      ud_rv_coord(fmax(fabs(l) * scale, 1)), "value_x",
						      ud_rv_coord(x0 + fmax(l, 0) * scale + 4), "value",
						      speedup_json(f->groups[g].geomean), "class",
						      speedup_class(f->groups[g].geomean)));
	}
	return json_pack("{s:i s:o s:o s:o s:o s:o}", "width", BOX_WIDTH, "height", ud_rv_coord(bottom + 8), "axis_x",
			 ud_rv_coord(x0), "bottom", ud_rv_coord(bottom), "bars", bars, "ticks",
			 box_ticks(x0, scale, maxabs, bottom));
}

static json_t *groups_view(const struct ud_fleet *f)
{
	json_t *groups = json_array();
	struct dist_layout lay;

	dist_layout(f, &lay);
	for (size_t g = 0; g < f->ngroups; g++)
		json_array_append_new(groups, group_view(f, g, &lay));
	return groups;
}

/* Hosts the banner names before "and N more". */
#define PMU_BANNER_HOSTS 5

/*
 * The banner for the hosts without hardware counts, said once: "no hardware
 * PMU on 2 of 3 hosts (a, c): ..., because REASON" (the first such host's
 * reason); null when every host counted or none has counters at all.
 */
static json_t *pmu_banner(const struct ud_fleet *f)
{
	char *where, *banner = NULL;
	size_t n = 0, named = 0;
	bool ok;
	json_t *v;

	for (size_t k = 0; k < f->nhosts; k++)
		n += f->hosts[k].no_pmu;
	if (!n)
		return json_null();
	where = n == f->nhosts ? ud_printf_new("on every host (") : ud_printf_new("on %zu of %zu hosts (", n, f->nhosts);
	ok = where != NULL;
	for (size_t k = 0; k < f->nhosts && named < PMU_BANNER_HOSTS && ok; k++)
		if (f->hosts[k].no_pmu)
			ok = ud_append(&where, "%s%s", named++ ? ", " : "", f->hosts[k].label);
	if (ok)
		ok = n > named ? ud_append(&where, " and %zu more)", n - named) : ud_append(&where, ")");
	if (ok)
		banner = ud_pmu_banner(where, f->no_pmu_reason);
	v = banner ? ud_rv_printf("%s", banner) : NULL;
	free(where);
	free(banner);
	return v;
}

/* The top of the view: the fleet's size, its grouping and its baseline. */
static json_t *head_view(const struct ud_fleet *f)
{
	/* how, ranking and rule are fixed sentences around constants, each under half its array; by is the user's */
	char how[400], ranking[512], rule[256], *by = ud_printf_new("%s", "");
	json_t *v;

	for (size_t k = 0; by && k < f->nkeys; k++)
		if (!ud_append(&by, "%s%s", k ? ", " : "", f->keys[k])) {
			free(by);
			by = NULL;
		}
	if (!by)
		return NULL;
	if (f->baseline == UD_FLEET_MEDIAN)
		snprintf(how, sizeof(how), "the largest group's median host");
	else
		snprintf(how, sizeof(how), "%s", f->baseline == UD_FLEET_FIRST ? "the first profile" : "the host named");
	ud_fleet_ranking_text(ranking, sizeof(ranking));
	snprintf(rule, sizeof(rule), "an outlier moved beyond its group's median +- %.2f MAD and %.0f%% on a workload, and "
		 "beyond its own 95%% interval there, in a group of at least %d hosts", UD_FLEET_OUTLIER_MADS,
		 100 * (UD_FLEET_OUTLIER_MIN_MOVE - 1), UD_FLEET_MIN_PEERS);
	v = json_pack("{s:{s:s} s:I s:I s:I s:s s:s s:s s:s s:s}", "tool", "version", UD_VERSION, "nhosts",
		      (json_int_t)f->nhosts, "ngroups", (json_int_t)f->ngroups, "nworkloads", (json_int_t)f->nworkloads,
		      "group_by", by, "baseline", f->ref_label, "baseline_is", how, "groups_word",
		      f->ngroups == 1 ? "group" : "groups", "workloads_word", f->nworkloads == 1 ? "workload" : "workloads");
	free(by);
	if (!v)
		return NULL;
	/* the rule and the ranking where there is something ranked: a report of small groups has none to explain */
	json_object_set_new(v, "ranked", f->noutliers ? json_pack("{s:s s:s}", "rule", rule, "ranking", ranking)
						      : json_null());
	return v;
}

/* The hosts left out of one workload (fleet.h), each with its reason. */
static json_t *workloads_left_out(const struct ud_fleet *f)
{
	json_t *a = json_array();

	for (size_t e = 0; e < f->nexcluded; e++)
		json_array_append_new(a, json_pack("{s:s s:s s:s s:s}", "label", f->hosts[f->excluded[e].host].label,
						   "path", f->hosts[f->excluded[e].host].path, "workload",
						   f->workloads[f->excluded[e].workload].name, "reason",
						   f->excluded[e].reason));
	return a;
}

/*
 * The view the fleet templates see (new reference, report_fleet.c), or
 * NULL when out of memory; with gaps (made by ud_fleet_gaps_init()) every
 * host's diff against the reference, a host that cannot be read again or
 * diffed named in pairs_left_out and recorded in gaps.
 */
static json_t *ud_fleet_view(const struct ud_fleet *f, bool all_hosts, struct ud_fleet_gaps *gaps)
{
	json_t *v = head_view(f), *skipped = json_array(), *charts = json_array(), *incomplete = json_array();
	size_t nhosts;
	bool composites = false;

	for (size_t i = 0; i < f->nskipped; i++)
		json_array_append_new(skipped, json_pack("{s:s s:s}", "path", f->skipped[i].path, "reason",
							 f->skipped[i].reason.msg));
	for (size_t k = 0; k < f->nhosts; k++)
		if (f->hosts[k].incomplete)
			json_array_append_new(incomplete, json_pack("{s:s# s:s}", "label", f->hosts[k].label,
								    f->hosts[k].given_len, "path", f->hosts[k].path));
	json_object_set_new(v, "incomplete", incomplete);
	json_object_set_new(v, "workloads_left_out", workloads_left_out(f));
	json_object_set_new(v, "pmu_banner", pmu_banner(f));
	for (size_t w = 0; w < f->nworkloads; w++) {
		json_array_append_new(charts, box_view(f, w));
		composites = composites || f->workloads[w].composite;
	}
	json_object_set_new(v, "skipped", skipped);
	json_object_set_new(v, "groups", groups_view(f));
	json_object_set_new(v, "splits", ud_fleet_splits_view(f));
	json_object_set_new(v, "outliers", outliers_view(f, &nhosts));
	json_object_set_new(v, "no_outliers", no_outliers_text(f));
	json_object_set_new(v, "noisy", noisies_view(f));
	if (f->nnoisy > NOISY_HOSTS_SHOWN)
		json_object_set_new(v, "more_noisy", json_integer((json_int_t)(f->nnoisy - NOISY_HOSTS_SHOWN)));
	json_object_set_new(v, "untested", untested_view(f));
	json_object_set_new(v, "noutliers", json_integer((json_int_t)f->noutliers));
	json_object_set_new(v, "noutlier_hosts", json_integer((json_int_t)nhosts));
	if (nhosts > OUTLIER_HOSTS_SHOWN)
		json_object_set_new(v, "more_outliers", json_integer((json_int_t)(nhosts - OUTLIER_HOSTS_SHOWN)));
	json_object_set_new(v, "charts", charts);
	json_object_set_new(v, "group_chart", group_chart(f));
	json_object_set_new(v, "composites", json_boolean(composites));
	if (all_hosts)
		json_object_set_new(v, "all_hosts", hosts_view(f));
	if (gaps)
		pairs_view(v, f, gaps);
	return v;
}

int ud_fleet_write(const struct ud_fleet *f, const struct ud_fleet_report *r, const char *dir, FILE *out,
		   struct ud_err *err)
{
	struct ud_fleet_gaps own, *gaps = r->gaps ? r->gaps : &own;
	json_t *view = NULL;
	int ret;

	/* Made before anything is written: a pair left out then costs nothing half way. */
	if (r->pairs && ud_fleet_gaps_init(gaps, f, err) != 0)
		return -1;
	if (r->format == UD_REPORT_JSON)
		ret = ud_fleet_write_json(f, r->pairs ? gaps : NULL, out, err);
	else if (!(view = ud_fleet_view(f, r->all_hosts, r->pairs ? gaps : NULL)))
		ret = ud_fail(err, "out of memory");
	else
		ret = ud_report_render(view, "fleet", r->format, dir, out, err);
	json_decref(view);
	if (r->pairs && gaps == &own)
		ud_fleet_gaps_free(&own);
	return ret;
}
