/*
 * report_view.c - the view of a diff that the templates render, from its
 * typed model (diff.h) as compare's is from its own: every number formatted
 * for a person, text columns aligned, speedups in words ("4.66x slower",
 * never "0.215x"), the summary table first, a compact score table when
 * neither side has counters, and per-workload blocks only for the
 * workloads that need them.
 *
 * The view is typed (report_view.h): C structs whose strings live in one
 * pool or in the diff, read by the templates through the field tables at
 * the end of this file; it is built once, rendered and freed whole.
 * Factors, metrics, groups and modes are named by their enums' tables, so
 * no label of theirs lives here.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "report.h"
#include "diff_thresholds.h"
#include "report_view.h"
#include "sort.h"
#include "text.h"

/* With more workloads than this, blocks go to the ones that moved most; the table has them all. */
#define BLOCKS_MAX 8
/*
 * The summary table's workload column, in characters, at most; longer names
 * end in "...".  It gives up room down to NAME_COLUMN_MIN when the width
 * (report.h) is narrower than the row's other columns need beside it.
 */
#define NAME_COLUMN 30
#define NAME_COLUMN_MIN 12
/* The summary row's characters besides the name: indent, speedup, dominant, kernel share, IPC and their gaps. */
#define SUMMARY_OTHER_COLUMNS 59

/*
 * The metrics side by side; one whose events mean different things on the
 * two sides is marked "*" and its reason goes to the notes (SPEC §5.2
 * "comparable": shown, never charged).
 */
static void metrics_view(struct ud_view_pool *pool, const struct ud_diff_workload *w, struct rv_workload *v)
{
	bool printed = false;

	v->metrics = ud_view_pool_alloc(pool, UD_METRIC_COUNT, sizeof(*v->metrics));
	v->metric_notes = ud_view_pool_alloc(pool, UD_METRIC_COUNT + 1, sizeof(*v->metric_notes));
	for (int i = 0; v->metrics && v->metric_notes && i < UD_METRIC_COUNT; i++) {
		enum ud_metric id = (enum ud_metric)i;
		const struct ud_ab *p = &w->printed[i];
		bool as_printed = isfinite(p->a) || isfinite(p->b);
		/* a side the counts leave without the metric shows what the source printed, marked "^" */
		struct ud_ab m = { isfinite(p->a) ? p->a : w->metric[i].a, isfinite(p->b) ? p->b : w->metric[i].b,
				   as_printed ? p->ratio : w->metric[i].ratio };
		const char *reason = w->incomparable[i], *a, *b, *r;
		char name[48];

		if (!isfinite(m.a) && !isfinite(m.b)) /* a row of n/a says nothing: the document keeps its nulls */
			continue;
		a = ud_rv_pool_metric(pool, m.a, id);
		b = ud_rv_pool_metric(pool, m.b, id);
		r = ud_rv_pool_ratio(pool, m.ratio);
		printed = printed || as_printed;
		snprintf(name, sizeof(name), "%s%s%s", ud_metric_label(id), reason ? " *" : "", as_printed ? " ^" : "");
		if (reason)
			v->metric_notes[v->nmetric_notes++] = ud_view_pool_printf(pool, "* %s: %s", ud_metric_label(id), reason);
		v->metrics[v->nmetrics++] = (struct rv_metric){ ud_view_pool_printf(pool, "%s", name), a, b, r,
								 ud_view_pool_printf(pool, "%-22s %12s %12s %10s", name, a ? a : "",
										     b ? b : "", r ? r : "") };
	}
	if (printed && v->metric_notes)
		v->metric_notes[v->nmetric_notes++] = "^ as the imported tool printed it, where the counts give none: shown, "
						      "not reasoned with";
}

static void factors_view(struct ud_view_pool *pool, const struct ud_diff_workload *w, struct rv_workload *v)
{
	if (!(v->factors = ud_view_pool_alloc(pool, UD_FACTOR_COUNT, sizeof(*v->factors))))
		return;
	for (int i = 0; i < UD_FACTOR_COUNT; i++) {
		const char *label = ud_factor_label((enum ud_factor)i), *value, *share, *effect;
		double ratio = ud_rv_known(w->factor[i]);

		if (isnan(ratio) && i != UD_FACTOR_UNEXPLAINED) /* not counted, or stood in for by the clock factor */
			continue;
		value = ud_rv_pool_ratio(pool, ratio);
		/* rounded, then + 0.0: a share that rounds to -0 would print "-0%", a move that is not there */
		share = ud_rv_pool_fmt(pool, "%+.0f%%", round(100 * w->share[i]) + 0.0);
		/* what it did to B (a share beyond +-100% reads only beside the word); nothing where it prints as 1x */
		effect = value && strcmp(value, "1x") == 0 ? "" : ratio > 1 ? "helped B" : ratio < 1 ? "hurt B" : "";
		v->factors[v->nfactors++] = (struct rv_factor){
			label, value, effect, share,
			ud_view_pool_printf(pool, "%-14s %10s  %-9s %8s", label, value ? value : "", effect, share ? share : ""),
			i == UD_FACTOR_UNEXPLAINED,
		};
	}
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

/* "outside (p = 1.5e-06)", "within (p = 0.41)", or "" where a side printed no spread */
static void noise_text(const struct ud_per_unit *u, char *buf, size_t len)
{
	if (u->significant < 0 || !isfinite(u->p))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%s (p = %.2g)", u->significant ? "outside" : "within", u->p);
}

/* Whether any row shown has a per-counter test: only then does the table get its noise column. */
static bool per_unit_tested(const struct ud_diff_workload *w)
{
	for (size_t i = 0; i < w->nper_unit; i++)
		if (w->per_unit[i].significant >= 0 && (isfinite(w->per_unit[i].v.a) || isfinite(w->per_unit[i].v.b)))
			return true;
	return false;
}

/*
 * A count per unit too small to read (cpu-migrations 0.0000026 per KB):
 * the scale of work that brings the row's larger side to 1 or more, in
 * PER_UNIT_SCALE_STEP steps up to PER_UNIT_SCALE_STEPS.  A byte unit
 * climbs its own prefixes (KB, MB, GB, 1024 apart); any other says how
 * many units ("per million lps").  *times gets the factor (1 for none).
 * Returns the row's label with its scale, a new string the caller frees;
 * NULL when out of memory.
 */
#define PER_UNIT_SCALE_STEP 1000.0
#define PER_UNIT_SCALE_STEPS 3
/* The per-unit table's name column, and the widest a long label makes it: a row of 80 columns (a longer one runs into its row). */
#define PER_UNIT_COLUMN 26
#define PER_UNIT_COLUMN_MAX 38
/* The header's "A" sits this far past the name column, over its right-aligned values. */
#define PER_UNIT_HEAD_PAD 10

static char *per_unit_scale(const char *name, const char *unit, const struct ud_ab *v, double *times)
{
	static const char *const bytes[] = { "KB", "MB", "GB", "TB" };
	static const char *const counts[] = { "", "thousand ", "million ", "billion " };
	double top = fmax(fabs(ud_rv_known(v->a)), fabs(ud_rv_known(v->b)));
	size_t byte = sizeof(bytes) / sizeof(bytes[0]), k = 0;

	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++)
		if (strcmp(unit, bytes[i]) == 0)
			byte = i;
	*times = 1;
	while (top > 0 && top * *times < 1 && k < PER_UNIT_SCALE_STEPS &&
	       (byte == sizeof(bytes) / sizeof(bytes[0]) || byte + k + 1 < sizeof(bytes) / sizeof(bytes[0]))) {
		*times *= byte < sizeof(bytes) / sizeof(bytes[0]) ? 1024 : PER_UNIT_SCALE_STEP;
		k++;
	}
	if (k == 0)
		return strdup(name);
	if (byte < sizeof(bytes) / sizeof(bytes[0]))
		return ud_printf_new("%s (per %s)", name, bytes[byte + k]);
	/* "per million loops": the unit counted many times over */
	return ud_printf_new("%s (per %s%s%s)", name, counts[k], unit, unit[0] && unit[strlen(unit) - 1] != 's' ? "s" : "");
}

/*
 * Row i's label, with its scale where it has one, and that scale's factor
 * in *times: a new string the caller frees; NULL for a row not shown (known
 * on neither side, where n/a would say nothing the data has) or out of memory.
 */
static char *per_unit_row_label(const struct ud_diff_workload *w, size_t i, bool *is_time, double *times)
{
	const struct ud_ab *v = &w->per_unit[i].v;
	const char *name = per_unit_label(w->per_unit[i].name, is_time);

	*times = 1;
	if (!isfinite(v->a) && !isfinite(v->b))
		return NULL;
	return *is_time ? strdup(name) : per_unit_scale(name, w->work.unit, v, times);
}

/* The per-unit table's name column: its longest label, PER_UNIT_COLUMN to PER_UNIT_COLUMN_MAX characters. */
static int per_unit_column(const struct ud_diff_workload *w)
{
	size_t column = PER_UNIT_COLUMN;

	for (size_t i = 0; i < w->nper_unit; i++) {
		bool is_time;
		double times;
		char *label = per_unit_row_label(w, i, &is_time, &times);
		size_t n = label ? strlen(label) : 0; /* bytes, as printf pads */

		if (n > column)
			column = n < PER_UNIT_COLUMN_MAX ? n : PER_UNIT_COLUMN_MAX;
		free(label);
	}
	return (int)column;
}

/* The per-unit rows, their names in a column of column characters (per_unit_column()). */
static void per_unit_view(struct ud_view_pool *pool, const struct ud_diff_workload *w, int column, struct rv_workload *v)
{
	bool tested = per_unit_tested(w);

	if (!w->nper_unit || !(v->per_unit = ud_view_pool_alloc(pool, w->nper_unit, sizeof(*v->per_unit))))
		return;
	for (size_t i = 0; i < w->nper_unit; i++) {
		const struct ud_ab *ab = &w->per_unit[i].v;
		char a[40], b[40], r[UD_RATIO_MAX], noise[40], *label;
		double times;
		bool is_time;

		if (!(label = per_unit_row_label(w, i, &is_time, &times)))
			continue;
		(is_time ? ud_format_ns : ud_rv_count_text)(ud_rv_known(ab->a) * times, a, sizeof(a));
		(is_time ? ud_format_ns : ud_rv_count_text)(ud_rv_known(ab->b) * times, b, sizeof(b));
		ud_format_ratio_x(ab->ratio, r, sizeof(r));
		noise_text(&w->per_unit[i], noise, sizeof(noise));
		v->per_unit[v->nper_unit++] = (struct rv_per_unit){
			ud_view_pool_printf(pool, "%s", label), ud_view_pool_printf(pool, "%s", a),
			ud_view_pool_printf(pool, "%s", b), ud_view_pool_printf(pool, "%s", r),
			ud_view_pool_printf(pool, "%s", noise),
			ud_view_pool_printf(pool, "%-*s %14s %14s %9s%s%s", column, label, a, b, r, tested && noise[0] ? "  " : "",
					    tested ? noise : ""),
		};
		free(label);
	}
}

/* Why a side has no count of a counter the other counted, as a clause about that side. */
static const char *missing_why(const char *other)
{
	if (strcmp(other, "absent") == 0)
		return "did not count them";
	return strcmp(other, "not_supported") == 0 ? "could not count some of them" : "counted some without a reading";
}

/*
 * "counted on A only: L1-dcache-loads, L1-dcache-load-misses (B did not
 * count them)": the counters per_unit and the metrics leave out, named.
 */
static const char *one_sided_view(struct ud_view_pool *pool, const struct ud_diff_workload *w)
{
	char *line = NULL;
	bool ok = true;

	for (int side = UD_SIDE_A; side < UD_SIDE_COUNT && ok; side++) {
		const char *sep = "", *other = NULL;

		for (size_t i = 0; i < w->none_sided && ok; i++) {
			if (w->one_sided[i].counted != (enum ud_side)side)
				continue;
			if (!*sep)
				ok = ud_append(&line, "%scounted on %s only: ", line ? "; " : "", side == UD_SIDE_A ? "A" : "B");
			ok = ok && ud_append(&line, "%s%s", sep, w->one_sided[i].name);
			/* one reason for the list: the first that is not "absent" says more */
			if (!other || strcmp(other, "absent") == 0)
				other = w->one_sided[i].other;
			sep = ", ";
		}
		if (other && ok)
			ok = ud_append(&line, " (%s %s)", side == UD_SIDE_A ? "B" : "A", missing_why(other));
	}
	if (ok && line)
		return ud_view_pool_keep(pool, line);
	free(line);
	return NULL;
}

/*
 * A server workload's client, which it runs uncounted on the same CPUs and
 * records apart (sub-score name, seconds a sample): its time per unit of
 * work, ns; NAN where the side has no such sub-score.
 */
static double client_per_unit(const struct ud_workload *x, const char *name, double work)
{
	for (size_t i = 0; x && i < x->nsubscores; i++) {
		const struct ud_subscore *s = &x->subscores[i];

		if (strcmp(s->name, name) == 0 && s->units && strcmp(s->units, "s") == 0)
			return work > 0 ? s->value * 1e9 / work : NAN;
	}
	return NAN;
}

/*
 * "; the client's, uncounted: user 3 µs -> 5 µs, kernel ...": where the
 * rest of the host's CPU went per request beside the counted server, on
 * both sides, or nothing; the length it added to line.
 */
static int client_clause(const struct ud_diff_workload *w, char *line, size_t size)
{
	double ua = client_per_unit(w->a, "client user", w->work.a), ub = client_per_unit(w->b, "client user", w->work.b);
	double ka = client_per_unit(w->a, "client sys", w->work.a), kb = client_per_unit(w->b, "client sys", w->work.b);
	char t[4][32];

	if (!isfinite(ua) || !isfinite(ub) || !isfinite(ka) || !isfinite(kb))
		return 0;
	ud_format_ns(ua, t[0], sizeof(t[0]));
	ud_format_ns(ub, t[1], sizeof(t[1]));
	ud_format_ns(ka, t[2], sizeof(t[2]));
	ud_format_ns(kb, t[3], sizeof(t[3]));
	return snprintf(line, size, "; the client's, uncounted on the same CPUs: user %s -> %s, kernel %s -> %s", t[0],
			t[1], t[2], t[3]);
}

/* "user 404 ns -> 43.6 ns, kernel 1.35 µs -> 344 ns; the kernel carries 74% of the change" */
static const char *time_split_view(struct ud_view_pool *pool, const struct ud_diff_workload *w)
{
	const struct ud_mode_part *user = &w->mode[UD_MODE_USER], *kernel = &w->mode[UD_MODE_KERNEL];
	double share = ud_rv_known(kernel->share);
	char ua[32], ub[32], ka[32], kb[32], line[600] = "";
	int used = 0;

	if (isfinite(user->a) && isfinite(user->b)) {
		ud_format_ns(user->a, ua, sizeof(ua));
		ud_format_ns(user->b, ub, sizeof(ub));
		ud_format_ns(ud_rv_known(kernel->a), ka, sizeof(ka));
		ud_format_ns(ud_rv_known(kernel->b), kb, sizeof(kb));
		used = snprintf(line, sizeof(line), "CPU time per %s: user %s -> %s, kernel %s -> %s", w->work.unit, ua, ub,
				ka, kb);
		if (share >= 0 && share <= 1)
			used += snprintf(line + used, sizeof(line) - (size_t)used, "; the kernel carries %.0f%% of the change",
					 100 * share);
		else if (isfinite(share)) /* one mode gained what the other lost: no share of a whole */
			used += snprintf(line + used, sizeof(line) - (size_t)used, "; user and kernel time moved opposite ways");
		if ((size_t)used < sizeof(line))
			used += client_clause(w, line + used, sizeof(line) - (size_t)used);
	}
	/* per-mode IPC stands on its own counters, with or without the time split */
	for (int m = 0; m < UD_MODE_COUNT && (size_t)used < sizeof(line); m++) {
		const struct ud_mode_part *part = &w->mode[m];

		if (isfinite(part->ipc.a) && isfinite(part->ipc.b))
			used += snprintf(line + used, sizeof(line) - (size_t)used, "%s%s IPC %.2f -> %.2f", used ? "; " : "",
					 ud_mode_name((enum ud_mode)m), part->ipc.a, part->ipc.b);
		if (isfinite(part->cycles_share) && (size_t)used < sizeof(line))
			used += snprintf(line + used, sizeof(line) - (size_t)used, " (%.0f%% of the change in cycles)",
					 100 * part->cycles_share);
	}
	return used ? ud_view_pool_printf(pool, "%s", line) : NULL;
}

static struct rv_cpi cpi_view(struct ud_view_pool *pool, const struct ud_cpi_stack *c)
{
	return (struct rv_cpi){
		.cpi_a = ud_rv_pool_fmt(pool, "%.3f", c->cpi_a), .cpi_b = ud_rv_pool_fmt(pool, "%.3f", c->cpi_b),
		.delta = ud_rv_pool_fmt(pool, "%+.3f", c->delta), .branch = ud_rv_pool_fmt(pool, "%+.3f", c->branch),
		.l1d = ud_rv_pool_fmt(pool, "%+.3f", c->l1d), .other = ud_rv_pool_fmt(pool, "%+.3f", c->other),
		.overshoot = c->overshoot,
		/* no CPI stack without counts, nor without a miss counted to stack: the template leaves it out */
		.known = (isfinite(c->cpi_a) || isfinite(c->cpi_b)) && (isfinite(c->branch) || isfinite(c->l1d)),
	};
}

/* "18,103,507 KB on A, 83,430,478 KB on B (score x elapsed ...)" */
/*
 * "s" where a count of a unit that is a word reads in the plural ("17,785
 * requests", "3,331,210 loops", "1 run"); a symbol ("KB") or a word that
 * ends in s as it is.
 */
static const char *plural_s(const char *unit, double n)
{
	size_t len = strlen(unit);

	if (n == 1 || !len || unit[len - 1] == 's')
		return "";
	for (const char *c = unit; *c; c++)
		if (*c < 'a' || *c > 'z')
			return "";
	return "s";
}

static const char *work_view(struct ud_view_pool *pool, const struct ud_work *work)
{
	const char *basis = ud_work_basis_text(work->basis);
	char a[40], b[40];

	ud_rv_count_text(ud_rv_known(work->a), a, sizeof(a));
	ud_rv_count_text(ud_rv_known(work->b), b, sizeof(b));
	return ud_view_pool_printf(pool, "%s %s%s on A, %s %s%s on B (%s)", a, work->unit, plural_s(work->unit, work->a), b, work->unit,
			    plural_s(work->unit, work->b), basis ? basis : "");
}

/* "397163 -> 1849374 KBps", or which side has no score, rather than "n/a -> n/a". */
static const char *score_line(struct ud_view_pool *pool, const struct ud_diff_workload *w)
{
	double a = ud_rv_known(w->a->score.median), b = ud_rv_known(w->b->score.median);
	const char *units = w->a->units ? w->a->units : "";
	char na[40], nb[40];

	ud_format_human(a, na, sizeof(na));
	ud_format_human(b, nb, sizeof(nb));
	if (isfinite(a) && isfinite(b))
		return ud_view_pool_printf(pool, "%s -> %s%s%s", na, nb, *units ? " " : "", units);
	if (isfinite(a) || isfinite(b))
		return ud_view_pool_printf(pool, "%s%s%s on %s only", isfinite(a) ? na : nb, *units ? " " : "", units,
					   isfinite(a) ? "A" : "B");
	return "none on either side";
}

static const char *dominant_label(const struct ud_diff_workload *w)
{
	return w->has_dominant ? ud_factor_label(w->dominant) : "n/a";
}

/* The block's parts from the numbers: factors, metrics, per unit, time split, CPI and charts. */
static void workload_numbers(struct ud_view_pool *pool, const struct ud_diff *d, const struct ud_diff_workload *w,
			     int column, const struct ud_log_axis *axis, struct rv_workload *v)
{
	v->work = work_view(pool, &w->work);
	factors_view(pool, w, v);
	metrics_view(pool, w, v);
	v->has_metrics = v->nmetrics > 0;
	v->cpi = cpi_view(pool, &w->cpi);
	v->waterfall = ud_chart_waterfall(pool, w->factor, w->speedup, axis);
	v->bars = ud_chart_ab_bars(pool, w->metric);
	v->cpi_chart = ud_chart_cpi_stack(pool, w->metric, d);
	/* top-down on both hosts takes the CPI stack's place: it measures where the cycles went */
	v->topdown = ud_rv_topdown(pool, d, w);
	v->show_cpi = !w->topdown.a || !w->topdown.b;
	per_unit_view(pool, w, column, v);
	/* Templates cannot test an array for emptiness without repeating it: a flag opens the table around it. */
	v->has_per_unit = v->nper_unit > 0;
	v->per_unit_noise = per_unit_tested(w);
	/* each counter's own test, at the level the score's uses: not corrected for the many rows */
	v->per_unit_noise_head = ud_view_pool_printf(pool, "noise (each at p < %g)", UD_SIG_ALPHA);
	v->one_sided = one_sided_view(pool, w);
	v->time_split = time_split_view(pool, w);
	v->hotspots = ud_rv_hotspots(pool, w);
}

static void workload_view(struct ud_view_pool *pool, const struct ud_diff *d, const struct ud_diff_workload *w,
			  const struct ud_log_axis *axis, struct rv_workload *v)
{
	int column = per_unit_column(w);
	char sp[48], per[64];

	workload_numbers(pool, d, w, column, axis, v);
	ud_rv_speedup_text(w->speedup, w->sig.significant, sp, sizeof(sp));
	snprintf(per, sizeof(per), strcmp(w->work.unit, "run") == 0 ? "per %s" : "per %s of work", w->work.unit);
	v->name = w->a->name;
	v->speedup = ud_view_pool_printf(pool, "%s", sp);
	v->explanation = w->explanation;
	v->significance = w->sig.note;
	v->per_unit_title = ud_view_pool_printf(pool, "%s", per);
	/* the text table's header over its columns, which the longest label widens */
	v->per_unit_head = ud_view_pool_printf(pool, "%-*s%s", column + PER_UNIT_HEAD_PAD, per, "A              B     ratio");
	v->units = w->a->units ? w->a->units : "";
	v->lower_is_better = !w->a->higher_is_better;
	v->score_line = score_line(pool, w);
}

/*
 * The summary table's name column: the name padded to column characters,
 * a longer one cut to its first column - 3 and "...".
 * Characters, not bytes: a cut inside one would make the row invalid UTF-8,
 * which no JSON string holds, and the row would be lost.
 */
static void name_cell(const char *full, size_t column, char *buf, size_t len)
{
	size_t chars = 0, cut = 0, n, used;

	for (const char *p = full; *p; p += n, chars++) {
		n = ud_utf8_sequence((const unsigned char *)p);
		n = n ? n : 1; /* profiles hold valid UTF-8: a stray byte only counts as one */
		if (chars == column - 3)
			cut = (size_t)(p - full);
	}
	if (chars > column)
		snprintf(buf, len, "%.*s...", (int)cut, full);
	else
		snprintf(buf, len, "%s", full);
	used = strlen(buf);
	for (size_t c = chars > column ? column : chars; c < column && used + 1 < len; c++)
		buf[used++] = ' ';
	buf[used] = '\0';
}

/* The name column the width leaves (report.h's ud_report_width), NAME_COLUMN_MIN to NAME_COLUMN. */
static size_t name_column(void)
{
	size_t width = ud_report_width();
	size_t room = width > SUMMARY_OTHER_COLUMNS + NAME_COLUMN_MIN ? width - SUMMARY_OTHER_COLUMNS : NAME_COLUMN_MIN;

	return room < NAME_COLUMN ? room : NAME_COLUMN;
}

/* Drops the padding a left-out last column leaves. */
static void trim_right(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
}

/* The summary table's optional columns: shown only where some row has a value. */
struct summary_cols {
	bool dominant, ipc;
};

/* One row of the summary table: speedup, dominant factor, kernel share and IPC, A -> B. */
static struct rv_summary_row summary_row(struct ud_view_pool *pool, const struct ud_diff_workload *w,
					const struct summary_cols *cols)
{
	const struct ud_ab *ss = &w->metric[UD_M_SYS_SHARE], *ipc = &w->metric[UD_M_IPC];
	/* the name column holds NAME_COLUMN characters of up to 4 bytes */
	char sp[48], share[40] = "n/a", ipcs[40] = "n/a", name[4 * NAME_COLUMN + 1], col[256 + 4 * NAME_COLUMN];
	const char *full = w->a->name, *dom = dominant_label(w);

	ud_rv_speedup_text(w->speedup, w->sig.significant, sp, sizeof(sp));
	if (isfinite(ss->a) && isfinite(ss->b))
		snprintf(share, sizeof(share), "%.0f%% -> %.0f%%", 100 * ss->a, 100 * ss->b);
	if (isfinite(ipc->a) && isfinite(ipc->b))
		snprintf(ipcs, sizeof(ipcs), "%.2f -> %.2f", ipc->a, ipc->b);
	name_cell(full, name_column(), name, sizeof(name));
	snprintf(col, sizeof(col), "%s %-15s %-*s%s%-14s %s", name, sp, cols->dominant ? 12 : 0, cols->dominant ? dom : "",
		 cols->dominant ? " " : "", share, cols->ipc ? ipcs : "");
	trim_right(col);
	return (struct rv_summary_row){ full,
					ud_view_pool_printf(pool, "%s", sp),
					dom,
					ud_view_pool_printf(pool, "%s", share),
					ud_view_pool_printf(pool, "%s", ipcs),
					ud_view_pool_printf(pool, "%s", col),
					!w->a->higher_is_better };
}

/* UnixBench names end in "(1 copy)" / "(2 copies)": the heading its table groups by, or -1. */
static int copies_suffix(const char *name)
{
	const char *open = strrchr(name, '(');

	if (!open || !(strstr(open, " copy)") || strstr(open, " copies)")))
		return -1;
	return (int)(open - name);
}

/* One row of the score table, its name cut before the heading it is grouped under (cut < 0: none). */
static struct rv_score_row score_row(struct ud_view_pool *pool, const struct ud_diff_workload *w, int cut)
{
	const char *name = w->a->name;
	char sp[48], a[32], b[32];

	ud_rv_speedup_text(w->speedup, w->sig.significant, sp, sizeof(sp));
	/*
	 * Score-only rows have no section of their own to say the noise is
	 * unknown (one run, or runs without their spread): the cell says it,
	 * so a table of single runs claims no move (issue 40).
	 */
	if (w->sig.significant < 0 && (w->verdict == UD_VERDICT_FASTER || w->verdict == UD_VERDICT_SLOWER))
		snprintf(sp + strlen(sp), sizeof(sp) - strlen(sp), ", unverified");
	ud_format_human(w->a->score.median, a, sizeof(a));
	ud_format_human(w->b->score.median, b, sizeof(b));
	return (struct rv_score_row){
		name, ud_view_pool_printf(pool, "%s", a), ud_view_pool_printf(pool, "%s", b), ud_view_pool_printf(pool, "%s", sp),
		ud_view_pool_printf(pool, "%-46.*s %10s %10s  %s", cut >= 0 ? cut - 1 : (int)strlen(name), name, a, b, sp),
		!w->a->higher_is_better,
	};
}

/* The compact table when neither side has counters: rows grouped by their "(N copies)" heading. */
static void score_table(struct ud_view_pool *pool, const struct ud_diff *d, struct rv_report *v)
{
	struct rv_score_group *g = NULL;
	struct rv_score_row *rows = d->nworkloads ? ud_view_pool_alloc(pool, d->nworkloads, sizeof(*rows)) : NULL;

	/* the groups' rows lie one after another in rows[], in the diff's order */
	if (!rows || !(v->score_table = ud_view_pool_alloc(pool, d->nworkloads, sizeof(*v->score_table))))
		return;
	for (size_t i = 0; i < d->nworkloads; i++) {
		const char *name = d->workloads[i].a->name;
		int cut = copies_suffix(name);
		const char *heading = cut >= 0 ? name + cut : "";

		if (!g || strcmp(heading, g->heading) != 0) {
			g = &v->score_table[v->nscore_table++];
			g->heading = ud_view_pool_printf(pool, "%s", heading);
			g->rows = &rows[i];
			if (!g->heading)
				return;
		}
		g->rows[g->nrows++] = score_row(pool, &d->workloads[i], cut);
	}
}

/* How far a workload moved either way, |ln speedup|; 0 without a speedup. */
static double moved(const struct ud_diff_workload *w)
{
	double m = fabs(log(w->speedup));

	return isfinite(m) ? m : 0;
}

static int cmp_moved(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a < b) - (a > b); /* descending */
}

/*
 * The workloads that get a block, into chosen (room for BLOCKS_MAX, borrowed
 * from d): all of them, or with many, the BLOCKS_MAX that moved most, in
 * the diff's order.  Returns how many.
 */
static size_t block_workloads(const struct ud_diff *d, const struct ud_diff_workload *chosen[BLOCKS_MAX])
{
	size_t n = d->nworkloads, k = 0;
	double *by = n > BLOCKS_MAX ? malloc(n * sizeof(double)) : NULL, cutoff = -1;

	if (by) {
		for (size_t i = 0; i < n; i++)
			by[i] = moved(&d->workloads[i]);
		ud_sort(by, n, sizeof(double), cmp_moved);
		cutoff = by[BLOCKS_MAX - 1];
		free(by);
	}
	for (size_t i = 0; i < n && k < BLOCKS_MAX; i++)
		if (n <= BLOCKS_MAX || moved(&d->workloads[i]) >= cutoff)
			chosen[k++] = &d->workloads[i];
	return k;
}

/*
 * A link to a workload's section must survive the next report of the same
 * workloads, so its id comes from the name, not its place: "workload", then
 * the name's runs of letters and digits in lower case, each after a '-', cut
 * at ANCHOR_SLUG_MAX (a command line can be hundreds of characters); a name
 * that slugs like one before it gets "-2", "-3" (used holds the ids given).
 */
#define ANCHOR_SLUG_MAX 48

/* Whether id is one of the n ids given before it. */
static bool anchor_used(const struct rv_workload *done, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (done[i].anchor && strcmp(done[i].anchor, id) == 0)
			return true;
	return false;
}

static const char *anchor(struct ud_view_pool *pool, const char *name, const struct rv_workload *done, size_t ndone)
{
	char id[sizeof("workload") + ANCHOR_SLUG_MAX + 24] = "workload";
	size_t n = strlen(id), base;
	bool dash = true; /* "workload-" before the first run */

	for (const char *p = name; *p && n < sizeof("workload") - 1 + ANCHOR_SLUG_MAX; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) {
			if (dash)
				id[n++] = '-';
			id[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
			dash = false;
		} else {
			dash = true;
		}
	}
	id[n] = '\0';
	base = n;
	for (int k = 2; anchor_used(done, ndone, id); k++)
		snprintf(id + base, sizeof(id) - base, "-%d", k);
	return ud_view_pool_printf(pool, "%s", id);
}

/* The per-workload blocks, their waterfalls on one axis fitted to all of them, each with its section's id. */
static void blocks(struct ud_view_pool *pool, const struct ud_diff *d, struct rv_report *v)
{
	const struct ud_diff_workload *chosen[BLOCKS_MAX];
	size_t n = block_workloads(d, chosen);
	struct ud_log_axis axis;
	double lo = 0, hi = 0;

	if (!n || !(v->workloads = ud_view_pool_alloc(pool, n, sizeof(*v->workloads))))
		return;
	for (size_t i = 0; i < n; i++)
		ud_chart_waterfall_extent(chosen[i]->factor, chosen[i]->speedup, &lo, &hi);
	ud_chart_waterfall_axis(&axis, lo, hi);
	for (size_t i = 0; i < n; i++) {
		workload_view(pool, d, chosen[i], &axis, &v->workloads[i]);
		v->workloads[i].anchor = anchor(pool, chosen[i]->a->name, v->workloads, i);
		v->nworkloads++;
	}
}

/* "kernel-heavy (3): 1.25x faster" for each group that has workloads in the summary. */
/*
 * A group's mean has no interval of its own: it is within the noise when
 * every workload in it is, outside when every one is, and unmarked otherwise
 * (a '~' on a mean of moved and unmoved workloads would hide the moves).
 */
static int group_significant(const struct ud_diff *d, enum ud_group g)
{
	bool any_in = false, any_out = false, any_unknown = false;

	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_diff_workload *w = &d->workloads[i];

		if (w->group != g || !ud_diff_in_summary(d, w))
			continue;
		any_in |= w->sig.significant == 0;
		any_out |= w->sig.significant == 1;
		any_unknown |= w->sig.significant < 0;
	}
	if (any_unknown || any_in == any_out)
		return -1;
	return any_out;
}

static void groups_view(struct ud_view_pool *pool, const struct ud_diff *d, struct rv_summary *v)
{
	char sp[48];

	if (!(v->groups = ud_view_pool_alloc(pool, UD_GROUP_COUNT, sizeof(*v->groups))))
		return;
	for (int g = 0; g < UD_GROUP_COUNT; g++) {
		size_t n = 0;

		for (size_t i = 0; i < d->nworkloads; i++)
			n += d->workloads[i].group == (enum ud_group)g && ud_diff_in_summary(d, &d->workloads[i]);
		if (!n)
			continue;
		ud_rv_speedup_text(d->summary.group_geomean[g], group_significant(d, (enum ud_group)g), sp, sizeof(sp));
		v->groups[v->ngroups++].line = ud_view_pool_printf(pool, "%s (%zu): %s", ud_group_name((enum ud_group)g), n, sp);
	}
}

/* The composite scores (UnixBench's index), kept out of the means: "1234 -> 2345 (1.90x faster)". */
static void composites_view(struct ud_view_pool *pool, const struct ud_diff *d, struct rv_summary *v)
{
	char sp[48], a[40], b[40];

	if (!d->nworkloads || !(v->composites = ud_view_pool_alloc(pool, d->nworkloads, sizeof(*v->composites))))
		return;
	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_diff_workload *w = &d->workloads[i];

		if (!w->composite)
			continue;
		ud_rv_speedup_text(w->speedup, -1, sp, sizeof(sp));
		v->composites[v->ncomposites++] = (struct rv_composite){
			w->a->name, ud_view_pool_printf(pool, "%s -> %s (%s)", ud_format_human(w->a->score.median, a, sizeof(a)),
							ud_format_human(w->b->score.median, b, sizeof(b)), sp),
		};
	}
}

/* The summary's lines. */
static void summary_view(struct ud_view_pool *pool, const struct ud_diff *d, struct rv_summary *v)
{
	const struct ud_diff_summary *s = &d->summary;
	char sp[48];

	groups_view(pool, d, v);
	composites_view(pool, d, v);
	ud_rv_speedup_text(s->geomean_speedup, ud_rv_summary_significant(s), sp, sizeof(sp));
	v->headline = s->headline;
	v->geomean = ud_view_pool_printf(pool, "%s over %zu workloads", sp, s->ngeomean);
	v->counters = s->counters;
}

/* "zen4: branch mispredict 14 cycles (...); L1d miss ..." (owned by pool) */
static const char *penalty_text(struct ud_view_pool *pool, const struct ud_uarch *u)
{
	const char *name = u ? u->name : "unknown core";
	double branch, l1d;

	if (!ud_rv_penalties(u, &branch, &l1d))
		return ud_view_pool_printf(pool, "%s: no penalties known, so its share stays in 'other'", name);
	return ud_view_pool_printf(pool, "%s: branch mispredict %g cycles (%s); L1d miss %g cycles (%s)", name, branch,
				   u->penalty_branch_source, l1d, u->penalty_l1d_source);
}

/* The summary table's head, with the columns its rows have ("" before the first head: the name column). */
static const char *rows_head(struct ud_view_pool *pool, const struct summary_cols *cols)
{
	char head[160];

	snprintf(head, sizeof(head), "%-*s %-15s %s%-14s %s", (int)name_column(), "workload", "speedup",
		 cols->dominant ? "dominant     " : "", "kernel share", cols->ipc ? "IPC A -> B" : "");
	trim_right(head);
	return ud_view_pool_printf(pool, "%s", head);
}

/* The summary table, every workload a row; "~" marks need their legend. */
static void rows_view(struct ud_view_pool *pool, const struct ud_diff *d, bool *within_noise, struct summary_cols *cols,
		      struct rv_report *v)
{
	*within_noise = false;
	*cols = (struct summary_cols){ false, false };
	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_ab *ipc = &d->workloads[i].metric[UD_M_IPC];

		cols->dominant = cols->dominant || d->workloads[i].has_dominant;
		cols->ipc = cols->ipc || (isfinite(ipc->a) && isfinite(ipc->b));
	}
	if (!d->nworkloads || !(v->rows = ud_view_pool_alloc(pool, d->nworkloads, sizeof(*v->rows))))
		return;
	for (size_t i = 0; i < d->nworkloads; i++) {
		v->rows[v->nrows++] = summary_row(pool, &d->workloads[i], cols);
		*within_noise = *within_noise || d->workloads[i].sig.significant == 0;
	}
}

/* The parts beside the workloads: hosts, environment, findings, penalties. */
static void hosts_view(struct ud_view_pool *pool, const struct ud_diff *d, struct rv_report *v)
{
	const struct ud_diff_host *a = &d->host[UD_SIDE_A], *b = &d->host[UD_SIDE_B];

	v->tool = (struct rv_tool){ "uarchdiff", UD_VERSION };
	v->baseline = (struct rv_host){ a->label, a->file };
	v->candidate = (struct rv_host){ b->label, b->file };
	v->only_in_baseline = a->only;
	v->nonly_in_baseline = a->nonly;
	v->only_in_candidate = b->only;
	v->nonly_in_candidate = b->nonly;
	v->environment = ud_rv_env_rows(pool, d, false, &v->nenvironment);
	v->findings = ud_rv_finding_rows(pool, d, false, &v->nfindings);
	v->pen_a = penalty_text(pool, a->uarch);
	v->pen_b = penalty_text(pool, b->uarch);
}

/*
 * The banner for the sides without hardware counts, said once: "no hardware
 * PMU on A (x) and B (y): ..., because REASON" (both reasons where they
 * differ); NULL when both sides counted, or neither has counters at all.
 */
static const char *pmu_banner(struct ud_view_pool *pool, const struct ud_diff *d)
{
	const struct ud_diff_host *a = &d->host[UD_SIDE_A], *b = &d->host[UD_SIDE_B];
	char *where, *reason, *banner = NULL;
	const char *v;

	if (!a->no_pmu && !b->no_pmu)
		return NULL;
	if (a->no_pmu && b->no_pmu)
		where = ud_printf_new("on either host (A: %s, B: %s)", a->label, b->label);
	else
		where = ud_printf_new("on %s (%s)", a->no_pmu ? "A" : "B", a->no_pmu ? a->label : b->label);
	if (a->no_pmu && b->no_pmu && strcmp(a->no_pmu, b->no_pmu) != 0)
		reason = ud_printf_new("on A %s, and on B %s", a->no_pmu, b->no_pmu);
	else
		reason = ud_printf_new("%s", a->no_pmu ? a->no_pmu : b->no_pmu);
	if (where && reason)
		banner = ud_pmu_banner(where, reason);
	v = banner ? ud_view_pool_printf(pool, "%s", banner) : NULL;
	free(where);
	free(reason);
	free(banner);
	return v;
}

/*
 * An unknown core, said once: the diff then charges misses a typical cost
 * and cannot tell whether an event means the same on both cores, so the
 * reader is told which side and the option that names the core; NULL when
 * both cores are known or no hardware event was counted (nothing to
 * charge: top-down shares or software counters alone).
 */
static const char *uarch_note(struct ud_view_pool *pool, const struct ud_diff *d)
{
	const struct ud_diff_host *a = &d->host[UD_SIDE_A], *b = &d->host[UD_SIDE_B];
	bool hardware = false;
	char *where;
	const char *v;

	for (size_t i = 0; i < d->nworkloads && !hardware; i++)
		hardware = ud_workload_counted_hardware(d->workloads[i].a) || ud_workload_counted_hardware(d->workloads[i].b);
	if ((a->uarch && b->uarch) || !hardware)
		return NULL;
	if (!a->uarch && !b->uarch)
		where = ud_printf_new("on both hosts");
	else
		where = ud_printf_new("on %s (%s)", a->uarch ? "B" : "A", a->uarch ? b->label : a->label);
	v = where ? ud_view_pool_printf(pool, "core unknown %s: misses are charged typical costs (%g cycles a mispredict, %g an L1 "
				 "miss) and each event is taken to mean the same on both cores; import with --uarch NAME or "
				 "--cpuinfo FILE to name a core ('uarchdiff events --uarch x' lists them)",
				 where, UD_PENALTY_MISPREDICT, UD_PENALTY_L1_MISS)
		  : NULL;
	free(where);
	return v;
}

int ud_report_view(struct ud_view_pool *pool, const struct ud_diff *d, struct rv_report *v)
{
	bool counters = d->summary.counters, within_noise;
	struct summary_cols cols;

	*v = (struct rv_report){ 0 };
	hosts_view(pool, d, v);
	if (counters)
		blocks(pool, d, v);
	if (counters && v->nworkloads < d->nworkloads)
		v->blocks_note = ud_view_pool_printf(pool, "Detail for the %zu of %zu workloads that moved most; every "
						     "workload is in -f json.", v->nworkloads, d->nworkloads);
	summary_view(pool, d, &v->summary);
	rows_view(pool, d, &within_noise, &cols, v);
	v->rows_head = rows_head(pool, &cols);
	v->pmu_banner = counters ? pmu_banner(pool, d) : NULL;
	v->uarch_note = counters ? uarch_note(pool, d) : NULL;
	v->score_only = !counters;
	if (!counters)
		score_table(pool, d, v);
	v->overview = ud_chart_overview(pool, d);
	v->has = (struct rv_has){ cols.dominant, cols.ipc, v->summary.ncomposites > 0, v->summary.ngroups > 0,
				  v->nworkloads > 0, d->nenv > 0, d->nfindings > 0 };
	/* benchstat's mark needs its legend wherever it appears */
	v->noise_legend = within_noise ? "~: within the noise (a test found no change at p < 0.05)" : NULL;
	return pool->oom ? -1 : 0;
}

/* ---- what report.txt, report.md and report.html read ---- */

#define STR(T, M) UD_FIELD(T, M, UD_FIELD_STRING)
#define BOOL(T, M) UD_FIELD(T, M, UD_FIELD_BOOL)

static const struct ud_field factor_rows[] = {
	STR(struct rv_factor, name),  STR(struct rv_factor, value), STR(struct rv_factor, effect),
	STR(struct rv_factor, share), STR(struct rv_factor, col),   BOOL(struct rv_factor, unexplained),
};
static const struct ud_fields factor_fields = UD_FIELDS("a factor", factor_rows);

static const struct ud_field metric_rows[] = {
	STR(struct rv_metric, name), STR(struct rv_metric, a),   STR(struct rv_metric, b),
	STR(struct rv_metric, ratio), STR(struct rv_metric, col),
};
static const struct ud_fields metric_fields = UD_FIELDS("a metric", metric_rows);

static const struct ud_field per_unit_rows[] = {
	STR(struct rv_per_unit, name),  STR(struct rv_per_unit, a),     STR(struct rv_per_unit, b),
	STR(struct rv_per_unit, ratio), STR(struct rv_per_unit, noise), STR(struct rv_per_unit, col),
};
static const struct ud_fields per_unit_fields = UD_FIELDS("a per-unit row", per_unit_rows);

static const struct ud_field cpi_rows[] = {
	STR(struct rv_cpi, cpi_a), STR(struct rv_cpi, cpi_b), STR(struct rv_cpi, delta),      STR(struct rv_cpi, branch),
	STR(struct rv_cpi, l1d),   STR(struct rv_cpi, other), BOOL(struct rv_cpi, overshoot), BOOL(struct rv_cpi, known),
};
static const struct ud_fields cpi_fields = UD_FIELDS("the CPI stack", cpi_rows);

static const struct ud_field workload_rows[] = {
	STR(struct rv_workload, name),
	STR(struct rv_workload, anchor),
	STR(struct rv_workload, speedup),
	STR(struct rv_workload, explanation),
	STR(struct rv_workload, significance),
	STR(struct rv_workload, per_unit_title),
	STR(struct rv_workload, per_unit_head),
	STR(struct rv_workload, units),
	STR(struct rv_workload, score_line),
	STR(struct rv_workload, work),
	STR(struct rv_workload, per_unit_noise_head),
	STR(struct rv_workload, one_sided),
	STR(struct rv_workload, time_split),
	BOOL(struct rv_workload, lower_is_better),
	BOOL(struct rv_workload, has_metrics),
	BOOL(struct rv_workload, show_cpi),
	BOOL(struct rv_workload, has_per_unit),
	BOOL(struct rv_workload, per_unit_noise),
	UD_FIELD_LIST_OF(struct rv_workload, factors, nfactors, &factor_fields),
	UD_FIELD_LIST_OF(struct rv_workload, metrics, nmetrics, &metric_fields),
	UD_FIELD_LIST_OF(struct rv_workload, per_unit, nper_unit, &per_unit_fields),
	UD_FIELD_STRINGS_OF(struct rv_workload, metric_notes, nmetric_notes),
	UD_FIELD_SUB(struct rv_workload, cpi, UD_FIELD_STRUCT, &cpi_fields),
	UD_FIELD_SUB(struct rv_workload, waterfall, UD_FIELD_OBJECT, &ud_rv_waterfall_fields),
	UD_FIELD_SUB(struct rv_workload, bars, UD_FIELD_OBJECT, &ud_rv_ab_bars_fields),
	UD_FIELD_SUB(struct rv_workload, cpi_chart, UD_FIELD_OBJECT, &ud_rv_stack_chart_fields),
	UD_FIELD_SUB(struct rv_workload, topdown, UD_FIELD_OBJECT, &ud_rv_topdown_fields),
	UD_FIELD_SUB(struct rv_workload, hotspots, UD_FIELD_OBJECT, &ud_rv_hotspots_fields),
};
static const struct ud_fields workload_fields = UD_FIELDS("a workload", workload_rows);

static const struct ud_field summary_row_rows[] = {
	STR(struct rv_summary_row, name),      STR(struct rv_summary_row, speedup), STR(struct rv_summary_row, dominant),
	STR(struct rv_summary_row, sys_share), STR(struct rv_summary_row, ipc),     STR(struct rv_summary_row, col),
	BOOL(struct rv_summary_row, lower_is_better),
};
static const struct ud_fields summary_row_fields = UD_FIELDS("a summary row", summary_row_rows);

static const struct ud_field score_row_rows[] = {
	STR(struct rv_score_row, name),    STR(struct rv_score_row, a),   STR(struct rv_score_row, b),
	STR(struct rv_score_row, speedup), STR(struct rv_score_row, col), BOOL(struct rv_score_row, lower_is_better),
};
static const struct ud_fields score_row_fields = UD_FIELDS("a score row", score_row_rows);

static const struct ud_field score_group_rows[] = {
	STR(struct rv_score_group, heading),
	UD_FIELD_LIST_OF(struct rv_score_group, rows, nrows, &score_row_fields),
};
static const struct ud_fields score_group_fields = UD_FIELDS("a score group", score_group_rows);

static const struct ud_field line_rows[] = { STR(struct rv_line, line) };
static const struct ud_fields line_fields = UD_FIELDS("a group's line", line_rows);

static const struct ud_field composite_rows[] = { STR(struct rv_composite, name), STR(struct rv_composite, line) };
static const struct ud_fields composite_fields = UD_FIELDS("a composite score", composite_rows);

static const struct ud_field summary_rows[] = {
	STR(struct rv_summary, headline),
	STR(struct rv_summary, geomean),
	UD_FIELD_LIST_OF(struct rv_summary, groups, ngroups, &line_fields),
	UD_FIELD_LIST_OF(struct rv_summary, composites, ncomposites, &composite_fields),
	BOOL(struct rv_summary, counters),
};
static const struct ud_fields summary_fields = UD_FIELDS("the summary", summary_rows);

static const struct ud_field host_rows[] = { STR(struct rv_host, label), STR(struct rv_host, file) };
static const struct ud_fields host_fields = UD_FIELDS("a host", host_rows);

static const struct ud_field tool_rows[] = { STR(struct rv_tool, name), STR(struct rv_tool, version) };
static const struct ud_fields tool_fields = UD_FIELDS("the tool", tool_rows);

static const struct ud_field has_rows[] = {
	BOOL(struct rv_has, dominant), BOOL(struct rv_has, ipc),         BOOL(struct rv_has, composites),
	BOOL(struct rv_has, groups),   BOOL(struct rv_has, blocks),      BOOL(struct rv_has, environment),
	BOOL(struct rv_has, findings),
};
static const struct ud_fields has_fields = UD_FIELDS("the report's flags", has_rows);

static const struct ud_field report_rows[] = {
	UD_FIELD_SUB(struct rv_report, tool, UD_FIELD_STRUCT, &tool_fields),
	UD_FIELD_SUB(struct rv_report, baseline, UD_FIELD_STRUCT, &host_fields),
	UD_FIELD_SUB(struct rv_report, candidate, UD_FIELD_STRUCT, &host_fields),
	UD_FIELD_STRINGS_OF(struct rv_report, only_in_baseline, nonly_in_baseline),
	UD_FIELD_STRINGS_OF(struct rv_report, only_in_candidate, nonly_in_candidate),
	UD_FIELD_LIST_OF(struct rv_report, environment, nenvironment, &ud_rv_env_fields),
	UD_FIELD_LIST_OF(struct rv_report, findings, nfindings, &ud_rv_finding_fields),
	STR(struct rv_report, pen_a),
	STR(struct rv_report, pen_b),
	STR(struct rv_report, rows_head),
	STR(struct rv_report, pmu_banner),
	STR(struct rv_report, uarch_note),
	STR(struct rv_report, blocks_note),
	STR(struct rv_report, noise_legend),
	UD_FIELD_SUB(struct rv_report, summary, UD_FIELD_STRUCT, &summary_fields),
	UD_FIELD_LIST_OF(struct rv_report, rows, nrows, &summary_row_fields),
	UD_FIELD_LIST_OF(struct rv_report, workloads, nworkloads, &workload_fields),
	BOOL(struct rv_report, score_only),
	UD_FIELD_LIST_OF(struct rv_report, score_table, nscore_table, &score_group_fields),
	UD_FIELD_SUB(struct rv_report, overview, UD_FIELD_OBJECT, &ud_rv_overview_fields),
	UD_FIELD_SUB(struct rv_report, has, UD_FIELD_STRUCT, &has_fields),
};
static const struct ud_fields report_fields = UD_FIELDS("the diff report", report_rows);

const struct ud_fields *ud_report_fields(void)
{
	return &report_fields;
}
