/*
 * report_fleet.c - a fleet's comparison as a report a person reads: the
 * typed view the fleet templates (report-templates/fleet.*) read
 * (report_fleet_view.h), built from the typed model (fleet.h): the groups, the outliers ranked by host, what
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
#include "report_fleet_view.h"
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

/* s copied into the pool, made valid UTF-8 (view_pool.h): a label or path is as its user wrote it. */
static const char *copy(struct ud_view_pool *pool, const char *s)
{
	return ud_view_pool_printf(pool, "%s", s);
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
	ud_rv_speedup_text(ud_fv_speedup_of(&f->workloads[w], d->median, ud_fv_ref_value(f, w)), -1, cell[DC_VS], 128);
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

/* A row of the table as the text shows it: line, and values where the layout puts them on a line of their own. */
static struct fv_line dist_row(struct ud_view_pool *pool, const struct dist_layout *lay, const char *name,
			       const char *const cell[DC_COUNT], const char *units)
{
	/*
	 * Sized to what goes in, never cut: a name whole where split, else in
	 * its column; a cell padded or shortened takes at most its bytes, its
	 * column's and an ellipsis' (put_cell())
	 */
	size_t cap = strlen(name) + lay->name + strlen("…") + strlen(DIST_GAP) + strlen(units) + 1;
	char *line, *values;

	for (size_t c = 0; c < DC_COUNT; c++)
		cap += strlen(DIST_GAP) + strlen(cell[c]) + lay->col[c] + strlen("…");
	line = ud_view_pool_alloc(pool, 1, cap);
	values = lay->split ? ud_view_pool_alloc(pool, 1, cap) : NULL;
	if (!line || (lay->split && !values))
		return (struct fv_line){ 0 };
	if (lay->split)
		snprintf(line, cap, "%s", name);
	else
		put_cell(line, cap, name, lay->name, false);
	dist_values(lay, cell, units, lay->split ? values : line + strlen(line), lay->split ? cap : cap - strlen(line));
	ud_utf8_sanitize(line);
	if (values)
		ud_utf8_sanitize(values);
	return (struct fv_line){ line, values };
}

/* One workload's distribution in a group: its text row and its cells. */
static void dist_view(struct ud_view_pool *pool, const struct ud_fleet *f, const struct ud_fleet_group *g, size_t w,
		      const struct dist_layout *lay, struct fv_dist *v)
{
	char cell[DC_COUNT][128];
	const char *cells[DC_COUNT];
	/* whole in the cells, however long: put_cell() shortens it for the text line only */
	const char *name = ud_view_pool_printf(pool, "%s%s", f->workloads[w].name, f->workloads[w].composite ? " *" : "");
	const char *units = f->workloads[w].units ? copy(pool, f->workloads[w].units) : "";
	struct fv_line row;

	if (!name || !units)
		return;
	dist_cells(f, g, w, cell);
	for (size_t c = 0; c < DC_COUNT; c++)
		cells[c] = cell[c];
	row = dist_row(pool, lay, name, cells, units);
	*v = (struct fv_dist){
		.line = row.line,
		.values = row.values,
		.name = name,
		.units = units,
		.n = copy(pool, cell[DC_N]),
		.median = copy(pool, cell[DC_MEDIAN]),
		.iqr = copy(pool, cell[DC_IQR]),
		.range = copy(pool, cell[DC_RANGE]),
		.vs_reference = copy(pool, cell[DC_VS]),
	};
}

/* A small group's hosts by label and path (a large one's are in --all-hosts and the JSON). */
static void members_view(struct ud_view_pool *pool, const struct ud_fleet *f, const struct ud_fleet_group *grp,
			 struct fv_group *v)
{
	if (grp->nhosts > GROUP_MEMBERS_SHOWN || !(v->members = ud_view_pool_alloc(pool, grp->nhosts, sizeof(*v->members))))
		return;
	for (size_t i = 0; i < grp->nhosts; i++) {
		const struct ud_fleet_host *h = &f->hosts[grp->hosts[i]];

		v->members[v->nmembers++] = (struct fv_member){
			.label = ud_view_pool_printf(pool, "%.*s", (int)h->given_len, h->label),
			.path = copy(pool, h->path),
			.baseline = grp->hosts[i] == f->ref_host,
		};
	}
}

/* A diff's differing host facts and its findings, copied: a group's or a pair's diff is freed before the page renders. */
static void diff_rows(struct ud_view_pool *pool, const struct ud_diff *d, struct ud_rv_env_row **env, size_t *nenv,
		      struct ud_rv_finding **findings, size_t *nfindings)
{
	*env = ud_rv_env_rows(pool, d, true, nenv);
	*findings = ud_rv_finding_rows(pool, d, true, nfindings);
}

/* One group: its name and size, its median against the reference, the diff's headline, facts and findings. */
static void group_view(struct ud_view_pool *pool, const struct ud_fleet *f, size_t g, const struct dist_layout *lay,
		       struct fv_group *v)
{
	const struct ud_fleet_group *grp = &f->groups[g];
	struct ud_diff *d = grp->diff;

	*v = (struct fv_group){
		.id = ud_view_pool_printf(pool, "G%zu", g + 1),
		.name = copy(pool, grp->name),
		.count = ud_view_pool_printf(pool, "%zu host%s", grp->nhosts, grp->nhosts == 1 ? "" : "s"),
		.geomean = grp->reference && !f->ref_profile
				   ? "the baseline"
				   : ud_fv_speedup(pool, grp->geomean, d ? ud_rv_summary_significant(&d->summary) : -1),
		.headline = d && d->summary.headline ? copy(pool, d->summary.headline) : "",
		.diff_error = grp->diff_error,
		.compared = d != NULL,
		.header = dist_row(pool, lay, "workload", dist_heads, "units"),
		.dists = ud_view_pool_alloc(pool, f->nworkloads, sizeof(*v->dists)),
	};
	if (d)
		diff_rows(pool, d, &v->environment, &v->nenvironment, &v->findings, &v->nfindings);
	for (size_t w = 0; v->dists && w < f->nworkloads; w++)
		if (grp->dist[w].n)
			dist_view(pool, f, grp, w, lay, &v->dists[v->ndists++]);
	members_view(pool, f, grp, v);
}

static void groups_view(struct ud_view_pool *pool, const struct ud_fleet *f, struct fv_fleet *v)
{
	struct dist_layout lay;

	dist_layout(f, &lay);
	if (!(v->groups = ud_view_pool_alloc(pool, f->ngroups, sizeof(*v->groups))))
		return;
	for (size_t g = 0; g < f->ngroups; g++)
		group_view(pool, f, g, &lay, &v->groups[v->ngroup_views++]);
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
static void outlier_host_view(struct ud_view_pool *pool, const struct ud_fleet *f, const size_t (*ix)[2], size_t first,
			      size_t last, size_t rank, struct fv_outlier *v)
{
	const struct ud_fleet_outlier *o = &f->outliers[ix[first][1]];
	const struct ud_fleet_host *h = &f->hosts[o->host];

	*v = (struct fv_outlier){
		.rank = ud_view_pool_printf(pool, "%zu", rank),
		.label = copy(pool, h->label),
		.path = copy(pool, h->path),
		.group = ud_view_pool_printf(pool, "G%zu", h->group + 1),
		.group_name = copy(pool, f->groups[h->group].name),
		.moves = ud_view_pool_keep(pool, moves_text(f, ix, first, last)),
		/* %.1f of a z prints as many digits as its size: built to its length, not cut */
		.evidence = isfinite(h->evidence) ? ud_view_pool_printf(pool, "evidence z %.1f over %zu workload%s",
									h->evidence, h->evidence_workloads,
									h->evidence_workloads == 1 ? "" : "s")
						  : "no evidence z: it moved on composites alone",
		.explanation = o->explanation ? copy(pool, o->explanation) : "",
	};
}

/*
 * The outlier hosts, the one with the largest move first, each with its
 * moves and its largest move's explanation: (host, rank) pairs sorted by
 * host hold each host's outliers together, in rank order; walking the
 * ranks, a host is listed at its first.  Returns the outlier hosts' count.
 */
static size_t outliers_view(struct ud_view_pool *pool, const struct ud_fleet *f, struct fv_fleet *v)
{
	size_t(*ix)[2] = ud_view_pool_alloc(pool, f->noutliers, sizeof(*ix)), nhosts = 0;
	size_t shown = f->noutliers < OUTLIER_HOSTS_SHOWN ? f->noutliers : OUTLIER_HOSTS_SHOWN;

	if (!ix || !(v->outliers = ud_view_pool_alloc(pool, shown, sizeof(*v->outliers))))
		return 0;
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
		if (++nhosts <= OUTLIER_HOSTS_SHOWN)
			outlier_host_view(pool, f, (const size_t(*)[2])ix, first, last, nhosts,
					  &v->outliers[v->noutliers_shown++]);
	}
	return nhosts;
}

/*
 * A noisy host's line: "1.80x slower on syscall, where its own 95% interval
 * is +-60.0%", then its profile's warning there where it has one.
 */
static void noisy_view(struct ud_view_pool *pool, const struct ud_fleet *f, const struct ud_fleet_noisy *n,
		       struct fv_noisy *v)
{
	const struct ud_fleet_host *h = &f->hosts[n->host];

	*v = (struct fv_noisy){
		.label = copy(pool, h->label),
		.group = ud_view_pool_printf(pool, "G%zu", h->group + 1),
		.group_name = copy(pool, f->groups[h->group].name),
		.move = ud_fv_speedup(pool, n->ratio, -1),
		.workload = copy(pool, f->workloads[n->workload].name),
		/* %.1f of an interval prints as many digits as its size: built to its length, not cut */
		.interval = isfinite(n->interval)
				    ? ud_view_pool_printf(pool, "where its own 95%% interval is +-%.1f%%", 100 * n->interval)
				    : "where its own interval is unknown",
		.warning = n->warning ? copy(pool, n->warning) : "",
	};
}

static void noisies_view(struct ud_view_pool *pool, const struct ud_fleet *f, struct fv_fleet *v)
{
	size_t shown = f->nnoisy < NOISY_HOSTS_SHOWN ? f->nnoisy : NOISY_HOSTS_SHOWN;

	if (!(v->noisy = ud_view_pool_alloc(pool, shown, sizeof(*v->noisy))))
		return;
	for (size_t i = 0; i < shown; i++)
		noisy_view(pool, f, &f->noisy[i], &v->noisy[v->nnoisy++]);
	if (f->nnoisy > NOISY_HOSTS_SHOWN)
		v->more_noisy = ud_view_pool_printf(pool, "%zu", f->nnoisy - NOISY_HOSTS_SHOWN);
}

/* A small host's distance from the others: "2.94x slower over 8 workloads; largest 3.10x slower on int". */
static struct fv_distance distance_view(struct ud_view_pool *pool, const struct ud_fleet *f, size_t k)
{
	const struct ud_fleet_distance *d = &f->hosts[k].distance;

	return (struct fv_distance){
		.label = copy(pool, f->hosts[k].label),
		.geomean = ud_fv_speedup(pool, d->geomean, -1),
		.workloads = ud_view_pool_printf(pool, "%zu", d->nworkloads),
		.workloads_word = d->nworkloads == 1 ? "workload" : "workloads",
		.largest = ud_fv_speedup(pool, d->largest_ratio, -1),
		.largest_workload = copy(pool, f->workloads[d->largest].name),
	};
}

/* The groups too small to test: their size and the size needed, and each host's distance from the others. */
static void untested_view(struct ud_view_pool *pool, const struct ud_fleet *f, struct fv_fleet *v)
{
	if (!(v->untested = ud_view_pool_alloc(pool, f->ngroups, sizeof(*v->untested))))
		return;
	for (size_t g = 0; g < f->ngroups; g++) {
		const struct ud_fleet_group *grp = &f->groups[g];
		struct fv_untested *u = &v->untested[v->nuntested];

		if (grp->tested)
			continue;
		v->nuntested++;
		*u = (struct fv_untested){
			.id = ud_view_pool_printf(pool, "G%zu", g + 1),
			.name = copy(pool, grp->name),
			.nhosts = ud_view_pool_printf(pool, "%zu", grp->nhosts),
			.hosts_word = grp->nhosts == 1 ? "host" : "hosts",
			.need = ud_view_pool_printf(pool, "%d", UD_FLEET_MIN_PEERS),
			.distances = ud_view_pool_alloc(pool, grp->nhosts, sizeof(*u->distances)),
		};
		for (size_t i = 0; u->distances && i < grp->nhosts; i++)
			if (isfinite(f->hosts[grp->hosts[i]].distance.geomean))
				u->distances[u->ndistances++] = distance_view(pool, f, grp->hosts[i]);
	}
}

/* What "no outlier" means here: nothing tested, every group tested and quiet, or the tested ones quiet. */
static const char *no_outliers_text(struct ud_view_pool *pool, const struct ud_fleet *f)
{
	char *tested = NULL;
	size_t n = 0;
	const char *v;

	for (size_t g = 0; g < f->ngroups; g++)
		if (f->groups[g].tested && !ud_append(&tested, "%sG%zu", n++ ? ", " : "", g + 1)) {
			free(tested);
			return ud_view_pool_keep(pool, NULL);
		}
	if (!n)
		v = ud_view_pool_printf(pool, "none tested: no group has the %d hosts outliers need", UD_FLEET_MIN_PEERS);
	else if (n == f->ngroups)
		v = "none: every host is within its group's spread or its own noise on every workload";
	else
		v = ud_view_pool_printf(pool, "none in the groups tested (%s): every host is within its group's spread or "
				       "its own noise on every workload", tested);
	free(tested);
	return v;
}

/* The text table's block of workloads [from, to): a header, a line per host, every cell cut to its column. */
static void host_block(struct ud_view_pool *pool, const struct ud_fleet *f, size_t from, size_t to, struct fv_block *b)
{
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
	b->header = copy(pool, head);
	if (!(b->lines = ud_view_pool_alloc(pool, f->nhosts, sizeof(*b->lines))))
		return;
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
		b->lines[b->nlines++] = copy(pool, line);
	}
}

/* A host's row of the per-host table: its geomean and each workload's speedup, with their heat classes. */
static void host_row(struct ud_view_pool *pool, const struct ud_fleet *f, size_t k, struct fv_host_row *r)
{
	*r = (struct fv_host_row){
		.label = copy(pool, f->hosts[k].label),
		.group = ud_view_pool_printf(pool, "G%zu", f->hosts[k].group + 1),
		.geomean = ud_fv_speedup(pool, f->hosts[k].geomean, -1),
		.class = ud_fv_speedup_class(f->hosts[k].geomean),
		.cells = ud_view_pool_alloc(pool, f->nworkloads, sizeof(*r->cells)),
	};
	for (size_t w = 0; r->cells && w < f->nworkloads; w++) {
		double s = ud_fleet_speedup(f, k, w);

		r->cells[r->ncells++] = (struct fv_cell){ ud_fv_speedup(pool, s, -1), ud_fv_speedup_class(s) };
	}
}

/* The per-host table, for --all-hosts: text blocks of a few workloads, and whole rows for Markdown and HTML. */
static struct fv_all_hosts *hosts_view(struct ud_view_pool *pool, const struct ud_fleet *f)
{
	struct fv_all_hosts *v = ud_view_pool_alloc(pool, 1, sizeof(*v));
	size_t nblocks = (f->nworkloads + HOST_TABLE_BLOCK - 1) / HOST_TABLE_BLOCK;

	if (!v || !(v->heads = ud_view_pool_alloc(pool, f->nworkloads, sizeof(*v->heads))) ||
	    !(v->rows = ud_view_pool_alloc(pool, f->nhosts, sizeof(*v->rows))) ||
	    !(v->blocks = ud_view_pool_alloc(pool, nblocks, sizeof(*v->blocks))))
		return v;
	for (size_t w = 0; w < f->nworkloads; w++)
		v->heads[v->nheads++] = copy(pool, f->workloads[w].name);
	for (size_t k = 0; k < f->nhosts; k++)
		host_row(pool, f, k, &v->rows[v->nrows++]);
	for (size_t from = 0; from < f->nworkloads; from += HOST_TABLE_BLOCK)
		host_block(pool, f, from, from + HOST_TABLE_BLOCK < f->nworkloads ? from + HOST_TABLE_BLOCK : f->nworkloads,
			   &v->blocks[v->nblocks++]);
	return v;
}

/*
 * --pairs: every host against the reference, each diff made, viewed and
 * freed in turn; a pair left out is named with its reason in
 * pairs_left_out, and recorded in gaps.
 */
static void pairs_view(struct ud_view_pool *pool, const struct ud_fleet *f, struct ud_fleet_gaps *gaps,
		       struct fv_fleet *v)
{
	if (!(v->pairs = ud_view_pool_alloc(pool, f->nhosts, sizeof(*v->pairs))))
		return;
	for (size_t k = 0; k < f->nhosts; k++) {
		struct ud_profile *p = NULL;
		struct ud_diff *d = k == f->ref_host ? NULL : ud_fleet_pair(f, k, &p, gaps);
		struct fv_pair *pair = &v->pairs[v->npairs];
		char words[64];

		if (d) {
			v->npairs++;
			ud_speedup_words(d->summary.geomean_speedup, ud_rv_summary_significant(&d->summary), true, words,
					 sizeof(words));
			*pair = (struct fv_pair){
				.label = copy(pool, f->hosts[k].label),
				.path = copy(pool, f->hosts[k].path),
				.geomean = copy(pool, words),
				.headline = d->summary.headline ? copy(pool, d->summary.headline) : "",
			};
			diff_rows(pool, d, &pair->environment, &pair->nenvironment, &pair->findings, &pair->nfindings);
		}
		ud_diff_free(d);
		ud_profile_free(p);
	}
	if (!(v->pairs_left_out = ud_view_pool_alloc(pool, gaps->n, sizeof(*v->pairs_left_out))))
		return;
	for (size_t i = 0; i < gaps->n; i++)
		v->pairs_left_out[v->npairs_left_out++] = (struct fv_left_out){
			.label = copy(pool, f->hosts[gaps->v[i].host].label),
			.path = copy(pool, f->hosts[gaps->v[i].host].path),
			.reason = gaps->v[i].reason ? copy(pool, gaps->v[i].reason) : "out of memory",
		};
}

/* Hosts the banner names before "and N more". */
#define PMU_BANNER_HOSTS 5

/*
 * The banner for the hosts without hardware counts, said once: "no hardware
 * PMU on 2 of 3 hosts (a, c): ..., because REASON" (the first such host's
 * reason); NULL when every host counted or none has counters at all.
 */
static const char *pmu_banner(struct ud_view_pool *pool, const struct ud_fleet *f)
{
	char *where, *banner = NULL;
	const char *v = NULL;
	size_t n = 0, named = 0;
	bool ok;

	for (size_t k = 0; k < f->nhosts; k++)
		n += f->hosts[k].no_pmu;
	if (!n)
		return NULL;
	where = n == f->nhosts ? ud_printf_new("on every host (") : ud_printf_new("on %zu of %zu hosts (", n, f->nhosts);
	ok = where != NULL;
	for (size_t k = 0; k < f->nhosts && named < PMU_BANNER_HOSTS && ok; k++)
		if (f->hosts[k].no_pmu)
			ok = ud_append(&where, "%s%s", named++ ? ", " : "", f->hosts[k].label);
	if (ok)
		ok = n > named ? ud_append(&where, " and %zu more)", n - named) : ud_append(&where, ")");
	if (ok)
		banner = ud_pmu_banner(where, f->no_pmu_reason);
	v = banner ? copy(pool, banner) : ud_view_pool_keep(pool, NULL);
	free(where);
	free(banner);
	return v;
}

/* The top of the view: the fleet's size, its grouping and its baseline. */
static void head_view(struct ud_view_pool *pool, const struct ud_fleet *f, struct fv_fleet *v)
{
	/* ranking and rule are fixed sentences around constants, each under half its array; by is the user's */
	char ranking[512], rule[256], *by = ud_printf_new("%s", "");

	for (size_t k = 0; by && k < f->nkeys; k++)
		if (!ud_append(&by, "%s%s", k ? ", " : "", f->keys[k])) {
			free(by);
			by = NULL;
		}
	v->tool.version = UD_VERSION;
	v->nhosts = ud_view_pool_printf(pool, "%zu", f->nhosts);
	v->ngroups = ud_view_pool_printf(pool, "%zu", f->ngroups);
	v->nworkloads = ud_view_pool_printf(pool, "%zu", f->nworkloads);
	v->group_by = ud_view_pool_keep(pool, by);
	v->baseline = copy(pool, f->ref_label);
	v->baseline_is = f->baseline == UD_FLEET_MEDIAN ? "the largest group's median host"
			 : f->baseline == UD_FLEET_FIRST ? "the first profile"
							 : "the host named";
	v->groups_word = f->ngroups == 1 ? "group" : "groups";
	v->workloads_word = f->nworkloads == 1 ? "workload" : "workloads";
	/* the rule and the ranking where there is something ranked: a report of small groups has none to explain */
	if (!f->noutliers || !(v->ranked = ud_view_pool_alloc(pool, 1, sizeof(*v->ranked))))
		return;
	ud_fleet_ranking_text(ranking, sizeof(ranking));
	snprintf(rule, sizeof(rule), "an outlier moved beyond its group's median +- %.2f MAD and %.0f%% on a workload, and "
		 "beyond its own 95%% interval there, in a group of at least %d hosts", UD_FLEET_OUTLIER_MADS,
		 100 * (UD_FLEET_OUTLIER_MIN_MOVE - 1), UD_FLEET_MIN_PEERS);
	v->ranked->rule = copy(pool, rule);
	v->ranked->ranking = copy(pool, ranking);
}

/* The profiles left out, the hosts left out of one workload (fleet.h) and the incomplete runs, each with its reason. */
static void left_out_view(struct ud_view_pool *pool, const struct ud_fleet *f, struct fv_fleet *v)
{
	size_t n = 0;

	for (size_t k = 0; k < f->nhosts; k++)
		n += f->hosts[k].incomplete;
	v->skipped = ud_view_pool_alloc(pool, f->nskipped, sizeof(*v->skipped));
	v->workloads_left_out = ud_view_pool_alloc(pool, f->nexcluded, sizeof(*v->workloads_left_out));
	v->incomplete = ud_view_pool_alloc(pool, n, sizeof(*v->incomplete));
	if (pool->oom)
		return;
	for (size_t i = 0; i < f->nskipped; i++)
		v->skipped[v->nskipped++] = (struct fv_left_out){ .path = copy(pool, f->skipped[i].path),
								  .reason = copy(pool, f->skipped[i].reason.msg) };
	for (size_t e = 0; e < f->nexcluded; e++)
		v->workloads_left_out[v->nworkloads_left_out++] = (struct fv_left_out){
			.label = copy(pool, f->hosts[f->excluded[e].host].label),
			.path = copy(pool, f->hosts[f->excluded[e].host].path),
			.workload = copy(pool, f->workloads[f->excluded[e].workload].name),
			.reason = copy(pool, f->excluded[e].reason),
		};
	for (size_t k = 0; k < f->nhosts; k++)
		if (f->hosts[k].incomplete)
			v->incomplete[v->nincomplete++] = (struct fv_host){
				.label = ud_view_pool_printf(pool, "%.*s", (int)f->hosts[k].given_len, f->hosts[k].label),
				.path = copy(pool, f->hosts[k].path),
			};
}

/*
 * The view the fleet templates read, into v (its strings and arrays owned
 * by pool; pool->oom when one could not be made); with gaps (made by
 * ud_fleet_gaps_init()) every host's diff against the reference, a host
 * that cannot be read again or diffed named in pairs_left_out and recorded
 * in gaps.
 */
static void fleet_view(struct ud_view_pool *pool, const struct ud_fleet *f, bool all_hosts, struct ud_fleet_gaps *gaps,
		       struct fv_fleet *v)
{
	size_t nhosts;

	*v = (struct fv_fleet){ .pmu_banner = pmu_banner(pool, f) };
	head_view(pool, f, v);
	left_out_view(pool, f, v);
	if ((v->charts = ud_view_pool_alloc(pool, f->nworkloads, sizeof(*v->charts))) != NULL)
		for (size_t w = 0; w < f->nworkloads; w++) {
			ud_fv_box(pool, f, w, &v->charts[v->ncharts++]);
			v->composites = v->composites || f->workloads[w].composite;
		}
	groups_view(pool, f, v);
	v->splits = ud_fv_splits(pool, f);
	nhosts = outliers_view(pool, f, v);
	v->no_outliers = no_outliers_text(pool, f);
	noisies_view(pool, f, v);
	untested_view(pool, f, v);
	v->noutliers = ud_view_pool_printf(pool, "%zu", f->noutliers);
	v->noutlier_hosts = ud_view_pool_printf(pool, "%zu", nhosts);
	if (nhosts > OUTLIER_HOSTS_SHOWN)
		v->more_outliers = ud_view_pool_printf(pool, "%zu", nhosts - OUTLIER_HOSTS_SHOWN);
	ud_fv_group_chart(pool, f, &v->group_chart);
	if (all_hosts)
		v->all_hosts = hosts_view(pool, f);
	if (gaps)
		pairs_view(pool, f, gaps, v);
}

/* ---- what fleet.txt, fleet.md and fleet.html read ---- */

#define STR(T, M) UD_FIELD(T, M, UD_FIELD_STRING)


static const struct ud_field host_rows[] = { STR(struct fv_host, label), STR(struct fv_host, path) };
static const struct ud_fields host_fields = UD_FIELDS("an incomplete host", host_rows);

static const struct ud_field member_rows[] = {
	STR(struct fv_member, label),
	STR(struct fv_member, path),
	UD_FIELD(struct fv_member, baseline, UD_FIELD_BOOL),
};
static const struct ud_fields member_fields = UD_FIELDS("a group's host", member_rows);

static const struct ud_field left_out_rows[] = {
	STR(struct fv_left_out, label),
	STR(struct fv_left_out, path),
	STR(struct fv_left_out, workload),
	STR(struct fv_left_out, reason),
};
static const struct ud_fields left_out_fields = UD_FIELDS("a thing left out", left_out_rows);

static const struct ud_field line_rows[] = { STR(struct fv_line, line), STR(struct fv_line, values) };
static const struct ud_fields line_fields = UD_FIELDS("a table's text line", line_rows);

static const struct ud_field dist_rows[] = {
	STR(struct fv_dist, line),   STR(struct fv_dist, values),       STR(struct fv_dist, name),
	STR(struct fv_dist, units),  STR(struct fv_dist, n),            STR(struct fv_dist, median),
	STR(struct fv_dist, iqr),    STR(struct fv_dist, range),        STR(struct fv_dist, vs_reference),
};
static const struct ud_fields dist_fields = UD_FIELDS("a workload's distribution", dist_rows);

static const struct ud_field group_rows[] = {
	STR(struct fv_group, id),
	STR(struct fv_group, name),
	STR(struct fv_group, count),
	STR(struct fv_group, geomean),
	STR(struct fv_group, headline),
	STR(struct fv_group, diff_error),
	UD_FIELD(struct fv_group, compared, UD_FIELD_BOOL),
	UD_FIELD_LIST_OF(struct fv_group, environment, nenvironment, &ud_rv_env_fields),
	UD_FIELD_LIST_OF(struct fv_group, findings, nfindings, &ud_rv_finding_fields),
	UD_FIELD_LIST_OF(struct fv_group, dists, ndists, &dist_fields),
	UD_FIELD_SUB(struct fv_group, header, UD_FIELD_STRUCT, &line_fields),
	UD_FIELD_LIST_OF(struct fv_group, members, nmembers, &member_fields),
};
static const struct ud_fields group_fields = UD_FIELDS("a group", group_rows);

static const struct ud_field outlier_rows[] = {
	STR(struct fv_outlier, rank),       STR(struct fv_outlier, label), STR(struct fv_outlier, path),
	STR(struct fv_outlier, group),      STR(struct fv_outlier, group_name), STR(struct fv_outlier, moves),
	STR(struct fv_outlier, evidence),   STR(struct fv_outlier, explanation),
};
static const struct ud_fields outlier_fields = UD_FIELDS("an outlier host", outlier_rows);

static const struct ud_field noisy_rows[] = {
	STR(struct fv_noisy, label),    STR(struct fv_noisy, group),    STR(struct fv_noisy, group_name),
	STR(struct fv_noisy, move),     STR(struct fv_noisy, workload), STR(struct fv_noisy, interval),
	STR(struct fv_noisy, warning),
};
static const struct ud_fields noisy_fields = UD_FIELDS("a noisy host", noisy_rows);

static const struct ud_field distance_rows[] = {
	STR(struct fv_distance, label),          STR(struct fv_distance, geomean), STR(struct fv_distance, workloads),
	STR(struct fv_distance, workloads_word), STR(struct fv_distance, largest), STR(struct fv_distance, largest_workload),
};
static const struct ud_fields distance_fields = UD_FIELDS("an untested host", distance_rows);

static const struct ud_field untested_rows[] = {
	STR(struct fv_untested, id),         STR(struct fv_untested, name), STR(struct fv_untested, nhosts),
	STR(struct fv_untested, hosts_word), STR(struct fv_untested, need),
	UD_FIELD_LIST_OF(struct fv_untested, distances, ndistances, &distance_fields),
};
static const struct ud_fields untested_fields = UD_FIELDS("an untested group", untested_rows);

static const struct ud_field cell_rows[] = { STR(struct fv_cell, text), STR(struct fv_cell, class) };
static const struct ud_fields cell_fields = UD_FIELDS("a host's cell", cell_rows);

static const struct ud_field host_row_rows[] = {
	STR(struct fv_host_row, label),
	STR(struct fv_host_row, group),
	STR(struct fv_host_row, geomean),
	STR(struct fv_host_row, class),
	UD_FIELD_LIST_OF(struct fv_host_row, cells, ncells, &cell_fields),
};
static const struct ud_fields host_row_fields = UD_FIELDS("a host's row", host_row_rows);

static const struct ud_field block_rows[] = {
	STR(struct fv_block, header),
	UD_FIELD_STRINGS_OF(struct fv_block, lines, nlines),
};
static const struct ud_fields block_fields = UD_FIELDS("a block of the host table", block_rows);

static const struct ud_field all_hosts_rows[] = {
	UD_FIELD_STRINGS_OF(struct fv_all_hosts, heads, nheads),
	UD_FIELD_LIST_OF(struct fv_all_hosts, rows, nrows, &host_row_fields),
	UD_FIELD_LIST_OF(struct fv_all_hosts, blocks, nblocks, &block_fields),
};
static const struct ud_fields all_hosts_fields = UD_FIELDS("the host table", all_hosts_rows);

static const struct ud_field pair_rows[] = {
	STR(struct fv_pair, label),
	STR(struct fv_pair, path),
	STR(struct fv_pair, geomean),
	STR(struct fv_pair, headline),
	UD_FIELD_LIST_OF(struct fv_pair, environment, nenvironment, &ud_rv_env_fields),
	UD_FIELD_LIST_OF(struct fv_pair, findings, nfindings, &ud_rv_finding_fields),
};
static const struct ud_fields pair_fields = UD_FIELDS("a host's pair", pair_rows);

static const struct ud_field ranked_rows[] = { STR(struct fv_ranked, rule), STR(struct fv_ranked, ranking) };
static const struct ud_fields ranked_fields = UD_FIELDS("the ranking", ranked_rows);

static const struct ud_field tool_rows[] = { STR(struct fv_tool, version) };
static const struct ud_fields tool_fields = UD_FIELDS("the tool", tool_rows);

static const struct ud_field fleet_rows[] = {
	UD_FIELD_SUB(struct fv_fleet, tool, UD_FIELD_STRUCT, &tool_fields),
	STR(struct fv_fleet, nhosts),
	STR(struct fv_fleet, ngroups),
	STR(struct fv_fleet, nworkloads),
	STR(struct fv_fleet, group_by),
	STR(struct fv_fleet, baseline),
	STR(struct fv_fleet, baseline_is),
	STR(struct fv_fleet, groups_word),
	STR(struct fv_fleet, workloads_word),
	UD_FIELD_SUB(struct fv_fleet, ranked, UD_FIELD_OBJECT, &ranked_fields),
	UD_FIELD_LIST_OF(struct fv_fleet, skipped, nskipped, &left_out_fields),
	UD_FIELD_LIST_OF(struct fv_fleet, workloads_left_out, nworkloads_left_out, &left_out_fields),
	UD_FIELD_LIST_OF(struct fv_fleet, pairs_left_out, npairs_left_out, &left_out_fields),
	UD_FIELD_LIST_OF(struct fv_fleet, incomplete, nincomplete, &host_fields),
	STR(struct fv_fleet, pmu_banner),
	UD_FIELD_LIST_OF(struct fv_fleet, groups, ngroup_views, &group_fields),
	UD_FIELD_SUB(struct fv_fleet, splits, UD_FIELD_OBJECT, &ud_fv_splits_fields),
	UD_FIELD_LIST_OF(struct fv_fleet, outliers, noutliers_shown, &outlier_fields),
	STR(struct fv_fleet, no_outliers),
	STR(struct fv_fleet, noutliers),
	STR(struct fv_fleet, noutlier_hosts),
	STR(struct fv_fleet, more_outliers),
	STR(struct fv_fleet, more_noisy),
	UD_FIELD_LIST_OF(struct fv_fleet, noisy, nnoisy, &noisy_fields),
	UD_FIELD_LIST_OF(struct fv_fleet, untested, nuntested, &untested_fields),
	UD_FIELD_LIST_OF(struct fv_fleet, charts, ncharts, &ud_fv_box_fields),
	UD_FIELD_SUB(struct fv_fleet, group_chart, UD_FIELD_STRUCT, &ud_fv_group_chart_fields),
	UD_FIELD(struct fv_fleet, composites, UD_FIELD_BOOL),
	UD_FIELD_SUB(struct fv_fleet, all_hosts, UD_FIELD_OBJECT, &all_hosts_fields),
	UD_FIELD_LIST_OF(struct fv_fleet, pairs, npairs, &pair_fields),
};
static const struct ud_fields fleet_fields = UD_FIELDS("the fleet report", fleet_rows);

const struct ud_fields *ud_fleet_fields(void)
{
	return &fleet_fields;
}

int ud_fleet_write(const struct ud_fleet *f, const struct ud_fleet_report *r, const char *dir, FILE *out,
		   struct ud_err *err)
{
	struct ud_fleet_gaps own, *gaps = r->gaps ? r->gaps : &own;
	struct ud_view_pool pool = { 0 };
	struct fv_fleet view;
	int ret;

	/* Made before anything is written: a pair left out then costs nothing half way. */
	if (r->pairs && ud_fleet_gaps_init(gaps, f, err) != 0)
		return -1;
	if (r->format == UD_REPORT_JSON) {
		ret = ud_fleet_write_json(f, r->pairs ? gaps : NULL, out, err);
	} else {
		fleet_view(&pool, f, r->all_hosts, r->pairs ? gaps : NULL, &view);
		ret = pool.oom ? ud_fail(err, "out of memory")
			       : ud_report_render_typed(&view, &fleet_fields, "fleet", r->format, dir, out, err);
	}
	ud_view_pool_free(&pool);
	if (r->pairs && gaps == &own)
		ud_fleet_gaps_free(&own);
	return ret;
}
