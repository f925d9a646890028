/*
 * report_topdown.c - a diff workload's top-down as the reports show it:
 * each bucket's cycles per unit of work on both hosts and its share of
 * the change, the sentence that says where the cycles went, and why a
 * bucket is missing or an estimate.  Where both hosts have top-down it
 * takes the CPI stack's place (report_view.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_view.h"
#include "text.h"

/* "bad_speculation" as a person reads it: "bad speculation"; the residual as what it is. */
static void bucket_label(int b, bool cycle_accounting, char *buf, size_t len)
{
	if (b == UD_TD_RESIDUAL)
		snprintf(buf, len, "%s", cycle_accounting ? "cycles not stalled" : "slots unclaimed");
	else
		snprintf(buf, len, "%s", ud_topdown_bucket_name(b));
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

static bool cycle_accounting(const struct ud_diff_topdown *td)
{
	return (td->a && td->a->method == UD_TD_CYCLE_ACCOUNTING) || (td->b && td->b->method == UD_TD_CYCLE_ACCOUNTING);
}

/* One bucket's row: "bad speculation   2,145   106   51%", level 2 indented under its parent. */
static struct rv_td_row row(struct ud_view_pool *pool, const struct ud_diff_topdown *td, int b)
{
	const struct ud_td_cycles *c = &td->cycles[b];
	char label[64], name[72], a[40], bb[40], share[24];

	bucket_label(b, cycle_accounting(td), label, sizeof(label));
	snprintf(name, sizeof(name), "%s%s", b < UD_TD_NBUCKETS && ud_topdown_bucket_level(b) == 2 ? "  " : "", label);
	if (td->measure == UD_TD_IN_FRACTION) {
		snprintf(a, sizeof(a), isfinite(c->a) ? "%.1f%%" : "n/a", 100 * c->a);
		snprintf(bb, sizeof(bb), isfinite(c->b) ? "%.1f%%" : "n/a", 100 * c->b);
	} else {
		ud_rv_count_text(ud_rv_known(c->a), a, sizeof(a));
		ud_rv_count_text(ud_rv_known(c->b), bb, sizeof(bb));
	}
	if (td->measure == UD_TD_IN_FRACTION) /* no cost per unit to share out: the move in points is what is known */
		snprintf(share, sizeof(share), td->same_method && isfinite(c->b - c->a) ? "%+.1f pts" : "n/a",
			 100 * (c->b - c->a));
	else
		snprintf(share, sizeof(share), isfinite(c->share_of_change) ? "%.0f%%" : "n/a", 100 * c->share_of_change);
	return (struct rv_td_row){ ud_view_pool_printf(pool, "%s", name), ud_view_pool_printf(pool, "%s", a),
				   ud_view_pool_printf(pool, "%s", bb), ud_view_pool_printf(pool, "%s", share),
				   ud_view_pool_printf(pool, "%-26s %14s %14s %9s", name, a, bb, share) };
}

/* Rows in the order a reader goes down: each level-1 bucket with its level-2 ones under it, the residual last. */
static void rows(struct ud_view_pool *pool, const struct ud_diff_topdown *td, struct rv_topdown *v)
{
	if (!(v->rows = ud_view_pool_alloc(pool, UD_TD_RESIDUAL + 1, sizeof(*v->rows))))
		return;
	for (int p = 0; p < UD_TD_LEVEL1_COUNT; p++) {
		if (!td->written[p])
			continue;
		v->rows[v->nrows++] = row(pool, td, p);
		for (int b = UD_TD_LEVEL1_COUNT; b < UD_TD_NBUCKETS; b++)
			if (td->written[b] && ud_topdown_bucket_parent(b) == p)
				v->rows[v->nrows++] = row(pool, td, b);
	}
	/* the residual where some slots went unclaimed on a side: a normalised record has none */
	if (td->written[UD_TD_RESIDUAL] && (td->cycles[UD_TD_RESIDUAL].a != 0 || td->cycles[UD_TD_RESIDUAL].b != 0))
		v->rows[v->nrows++] = row(pool, td, UD_TD_RESIDUAL);
}

/* The level-1 bucket that moved most in the direction of the change; -1 when none did. */
static int largest_part(const struct ud_diff_topdown *td)
{
	int best = -1;

	for (int b = 0; b < UD_TD_LEVEL1_COUNT; b++)
		if (td->written[b] && td->cycles[b].share_of_change > 0 &&
		    (best < 0 || td->cycles[b].share_of_change > td->cycles[best].share_of_change))
			best = b;
	return best;
}

/* "E6 needs 4,031 fewer cycles per KB than E5: 2,038 of them (51%) were bad speculation.", or NULL (owned by pool) */
static const char *sentence(struct ud_view_pool *pool, const struct ud_diff *d, const struct ud_diff_topdown *td,
			    const char *unit)
{
	double change = td->per_b - td->per_a;
	int b = largest_part(td);
	char total[40], part[40], label[64];

	if (!td->same_method || td->measure == UD_TD_IN_FRACTION || !isfinite(change) || change == 0 || b < 0)
		return NULL;
	ud_rv_count_text(fabs(change), total, sizeof(total));
	ud_rv_count_text(fabs(td->cycles[b].b - td->cycles[b].a), part, sizeof(part));
	bucket_label(b, cycle_accounting(td), label, sizeof(label));
	return ud_view_pool_printf(pool, "%s needs %s %s %s per %s than %s: %s of them (%.0f%%) %s %s.",
				   d->host[UD_SIDE_B].label, total, change < 0 ? "fewer" : "more",
				   ud_td_measure_name(td->measure), unit, d->host[UD_SIDE_A].label, part,
				   100 * td->cycles[b].share_of_change, change < 0 ? "were" : "went to", label);
}

/* "A: slots, level 2 (perf's metrics)" (owned by pool) */
static const char *method_line(struct ud_view_pool *pool, const char *side, const struct ud_topdown *t)
{
	static const char *const sources[] = { [UD_TD_COUNTED] = "counted", [UD_TD_PERF_METRICS] = "perf's metrics",
					       [UD_TD_PERF_TOPDOWN_EVENTS] = "perf's topdown events" };
	char line[200];

	if (!t)
		snprintf(line, sizeof(line), "%s: no top-down record", side);
	else
		snprintf(line, sizeof(line), "%s: %s, level %d (%s)%s", side,
			 t->method == UD_TD_SLOTS ? "issue slots" : "cycle accounting: stalled cycles, not top-down",
			 t->level, sources[t->source], t->estimate[0] ? ", an estimate (multiplexed)" : "");
	return ud_view_pool_printf(pool, "%s", line);
}

/* Why each level-1 bucket a side has is null, and why a side's record is an estimate. */
static void side_notes(struct ud_view_pool *pool, struct rv_topdown *v, const char *side, const struct ud_topdown *t)
{
	char label[64];

	if (!t)
		return;
	for (int b = 0; b < UD_TD_LEVEL1_COUNT; b++) {
		if (!t->defined[b] || !isnan(t->value[b]))
			continue;
		bucket_label(b, false, label, sizeof(label));
		v->notes[v->nnotes++] = ud_view_pool_printf(pool, "%s %s n/a: %s", side, label,
							    t->reason[b][0] ? t->reason[b] : "no reason");
	}
	if (t->estimate[0])
		v->notes[v->nnotes++] = ud_view_pool_printf(pool, "%s: %s", side, t->estimate);
}

/* Whether any bucket has a value on either side. */
static bool any_value(const struct ud_diff_topdown *td)
{
	for (int b = 0; b <= UD_TD_RESIDUAL; b++)
		if (td->written[b] && (isfinite(td->cycles[b].a) || isfinite(td->cycles[b].b)))
			return true;
	return false;
}

/* At most: each side's level-1 buckets and its estimate, and the note on methods. */
#define NOTES_MAX (2 * (UD_TD_LEVEL1_COUNT + 1) + 1)

/* "cycles per KB" or "share of the slots", and the text table's head over its columns. */
static void titles(struct ud_view_pool *pool, const struct ud_diff_topdown *td, const char *unit, struct rv_topdown *v)
{
	char title[80], head[120];

	if (td->measure == UD_TD_IN_FRACTION)
		snprintf(title, sizeof(title), "share of the slots");
	else
		snprintf(title, sizeof(title), "%s per %s", ud_td_measure_name(td->measure), unit);
	snprintf(head, sizeof(head), "top-down, %s", title);
	snprintf(head + strlen(head), sizeof(head) - strlen(head), "%*s %14s %9s", (int)(41 - strlen(head)), "A", "B",
		 td->measure == UD_TD_IN_FRACTION ? "change" : "share");
	v->title = ud_view_pool_printf(pool, "%s", title);
	v->head = ud_view_pool_printf(pool, "%s", head);
	v->share_head = td->measure == UD_TD_IN_FRACTION ? "change in points" : "share of the change";
}

struct rv_topdown *ud_rv_topdown(struct ud_view_pool *pool, const struct ud_diff *d, const struct ud_diff_workload *w)
{
	const struct ud_diff_topdown *td = &w->topdown;
	const char *no_pmu[] = { d->host[UD_SIDE_A].no_pmu, d->host[UD_SIDE_B].no_pmu };
	struct rv_topdown *v;

	/*
	 * Nothing counted where the hosts have no PMU: the report's banner says
	 * why once, so no table of n/a rows repeats it per bucket and workload.
	 */
	if ((!td->a && !td->b) || (!any_value(td) && (!td->a || no_pmu[0]) && (!td->b || no_pmu[1])))
		return NULL;
	if (!(v = ud_view_pool_alloc(pool, 1, sizeof(*v))) || !(v->notes = ud_view_pool_alloc(pool, NOTES_MAX, sizeof(char *))) ||
	    !(v->methods = ud_view_pool_alloc(pool, 2, sizeof(char *))) ||
	    !(v->sentence = ud_view_pool_alloc(pool, 1, sizeof(char *))))
		return NULL;
	if (!no_pmu[0])
		side_notes(pool, v, "A", td->a);
	if (!no_pmu[1])
		side_notes(pool, v, "B", td->b);
	if (td->a && td->b && !td->same_method)
		v->notes[v->nnotes++] = "The two hosts account differently (issue slots on one, stalled cycles on the other): "
					"each is shown, the two are not subtracted.";
	titles(pool, td, w->work.unit, v);
	rows(pool, td, v);
	if ((v->sentence[0] = sentence(pool, d, td, w->work.unit)) != NULL)
		v->nsentence = 1;
	v->methods[v->nmethods++] = method_line(pool, "A", td->a);
	v->methods[v->nmethods++] = method_line(pool, "B", td->b);
	v->chart = ud_chart_topdown(pool, td, w->work.unit);
	return v;
}

static const struct ud_field row_rows[] = {
	UD_FIELD(struct rv_td_row, name, UD_FIELD_STRING), UD_FIELD(struct rv_td_row, a, UD_FIELD_STRING),
	UD_FIELD(struct rv_td_row, b, UD_FIELD_STRING),    UD_FIELD(struct rv_td_row, share, UD_FIELD_STRING),
	UD_FIELD(struct rv_td_row, col, UD_FIELD_STRING),
};
static const struct ud_fields row_fields = UD_FIELDS("a top-down row", row_rows);

static const struct ud_field topdown_rows[] = {
	UD_FIELD(struct rv_topdown, title, UD_FIELD_STRING),
	UD_FIELD(struct rv_topdown, head, UD_FIELD_STRING),
	UD_FIELD(struct rv_topdown, share_head, UD_FIELD_STRING),
	UD_FIELD_LIST_OF(struct rv_topdown, rows, nrows, &row_fields),
	UD_FIELD_STRINGS_OF(struct rv_topdown, sentence, nsentence),
	UD_FIELD_STRINGS_OF(struct rv_topdown, methods, nmethods),
	UD_FIELD_STRINGS_OF(struct rv_topdown, notes, nnotes),
	UD_FIELD_SUB(struct rv_topdown, chart, UD_FIELD_OBJECT, &ud_rv_stack_chart_fields),
};
const struct ud_fields ud_rv_topdown_fields = UD_FIELDS("a workload's top-down", topdown_rows);
