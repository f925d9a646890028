/*
 * What the miss counters can say about one workload's IPC change: first
 * whether each metric means the same on both sides (SPEC §5.2
 * "comparable"), then which misses can carry the change in cycles per unit
 * of work (SPEC §5.2 "causes").
 *
 * A metric is not comparable when the events behind its generic names are
 * known to count different things on the two cores (their tables say so),
 * when a rate exceeds 100% (its numerator and denominator are then not
 * what their names say: an Intel paste's "390% of all L1-dcache
 * accesses"), or when the two sides counted cycles and instructions in
 * different privilege levels.  Such a metric is shown but never charged.
 *
 * A cause is a comparable miss metric that moved the way the IPC change
 * needs and in the direction of the change in cycles per unit: the change
 * in cycles over the change in misses is what each miss would have to cost
 * to carry it all (the expert's one-line proof when it is a plausible
 * penalty), and with the tables' penalty, the part it does carry.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "diff_thresholds.h"

/* Fits two tables' descriptions of an event (MEANING_MAX each) and the words around them. */
#define MEANING_MAX 256
#define REASON_MAX (2 * MEANING_MAX + 96)

/* The generic events whose meaning is one across vendors: retired work and core cycles. */
static bool architectural(const char *generic)
{
	static const char *const names[] = { "cycles", "instructions", "branches", "branch-misses" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(generic, names[i]) == 0)
			return true;
	return false;
}

static bool same_vendor(const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	if (ua->detect != ub->detect)
		return false;
	return ua->detect == UD_DETECT_X86 ? strcmp(ua->vendor, ub->vendor) == 0 : ua->implementer == ub->implementer;
}

/*
 * Whether two tables' entries for one generic name count the same thing:
 * within a vendor, the same event and unit mask; across vendors, the
 * architectural events of one kind (retired or speculative), and any
 * other only where the tables describe it alike.  Unknown (a generic
 * table, an entry missing) is taken as the same: only what is known or
 * shown to differ is set apart.
 */
static bool same_meaning(const struct ud_uarch *ua, const struct ud_uarch *ub, const char *generic)
{
	const struct ud_uarch_event *ea, *eb;

	if (!ua || !ub || ua->detect == UD_DETECT_NONE || ub->detect == UD_DETECT_NONE)
		return true;
	ea = ud_uarch_event(ua, generic);
	eb = ud_uarch_event(ub, generic);
	if (!ea || !eb || ea->unavailable || eb->unavailable)
		return true;
	if (same_vendor(ua, ub))
		return ea->code == eb->code && ea->umask == eb->umask && strcmp(ea->semantics, eb->semantics) == 0;
	if (architectural(generic))
		return strcmp(ea->semantics, eb->semantics) == 0;
	return strcmp(ea->includes, eb->includes) == 0;
}

/* 0, or -1 when out of memory; the first reason found for a metric stands. */
static int set_reason(struct ud_diff_workload *w, enum ud_metric m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_reason(struct ud_diff_workload *w, enum ud_metric m, const char *fmt, ...)
{
	char buf[REASON_MAX];
	va_list ap;

	if (w->incomparable[m])
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	w->incomparable[m] = strdup(buf);
	return w->incomparable[m] ? 0 : -1;
}

/* The event behind a generic name as one table says it: "REQUESTS_TO_L2_GROUP1 (L2 requests ...) on zen4". */
static void meaning_of(const struct ud_uarch *u, const char *generic, char *buf, size_t len)
{
	const struct ud_uarch_event *e = ud_uarch_event(u, generic);

	snprintf(buf, len, "%.48s (%.160s) on %.31s", e->vendor, e->includes, u->name);
}

static int events_reason(struct ud_diff_workload *w, enum ud_metric m, const struct ud_uarch *ua,
			 const struct ud_uarch *ub, const char *generic)
{
	char ma[MEANING_MAX], mb[MEANING_MAX];

	meaning_of(ua, generic, ma, sizeof(ma));
	meaning_of(ub, generic, mb, sizeof(mb));
	return set_reason(w, m, "%.48s counts different things: %s, %s", generic, ma, mb);
}

/* A rate metric above 1 on a side, and the metrics sharing its numerator: the counters are not what they say. */
static int rate_reasons(struct ud_diff_workload *w)
{
	int ret = 0;

	for (int m = 0; m < UD_METRIC_COUNT; m++) {
		const char *num, *den;
		const struct ud_ab *v = &w->metric[m];

		if (!ud_metric_is_percent((enum ud_metric)m) || !ud_metric_counters((enum ud_metric)m, &num, &den) ||
		    !(v->a > 1 || v->b > 1))
			continue;
		for (int k = 0; k < UD_METRIC_COUNT; k++) {
			const char *kn, *kd;

			if (ud_metric_counters((enum ud_metric)k, &kn, &kd) && strcmp(kn, num) == 0)
				ret |= set_reason(w, (enum ud_metric)k,
					   "%s is %.0f%% of %s on %s: above 100%%, so the two count different things "
					   "(not the misses of those accesses)",
					   num, 100 * (v->a > 1 ? v->a : v->b), den, v->a > 1 ? "A" : "B");
		}
	}
	return ret;
}

int ud_diff_comparability(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	int ret = rate_reasons(w);

	for (int m = 0; m < UD_METRIC_COUNT; m++) {
		const char *num, *den;

		if (!ud_metric_counters((enum ud_metric)m, &num, &den))
			continue;
		if (w->modes_differ && (strcmp(den, "instructions") == 0 || strcmp(den, "cycles") == 0 ||
					strcmp(num, "cycles") == 0))
			ret |= set_reason(w, (enum ud_metric)m,
					  "cycles and instructions were counted in different privilege levels on the "
					  "two sides (see counting-modes-differ)");
		else if (!same_meaning(ua, ub, num))
			ret |= events_reason(w, (enum ud_metric)m, ua, ub, num);
		else if (!same_meaning(ua, ub, den))
			ret |= events_reason(w, (enum ud_metric)m, ua, ub, den);
	}
	return ret;
}

/* ---- causes ---- */

/* The miss metrics a cause can be, with the counter they count and the range a miss of that kind costs. */
static const struct {
	enum ud_metric metric;
	enum ud_counter_class counter;
	double low, high;
} kinds[UD_MAX_CAUSES] = {
	{ UD_M_BRANCH_MPKI, UD_CLASS_BRANCH_MISSES, UD_CAUSE_BRANCH_CYCLES_LOW, UD_CAUSE_BRANCH_CYCLES_HIGH },
	{ UD_M_L1D_MPKI, UD_CLASS_L1D_MISS, UD_CAUSE_L1D_CYCLES_LOW, UD_CAUSE_L1D_CYCLES_HIGH },
};

static double per_unit(const struct ud_workload *x, enum ud_counter_class counter, double work)
{
	double v = ud_workload_domain_value(x, counter);

	return isfinite(v) && work > 0 ? v / work : NAN;
}

/* The tables' penalty for this kind of miss: the two sides' mean, or the one side's that knows it. */
static double penalty_of(enum ud_metric m, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	double pa = ua ? (m == UD_M_BRANCH_MPKI ? ua->penalty_branch : ua->penalty_l1d) : NAN;
	double pb = ub ? (m == UD_M_BRANCH_MPKI ? ub->penalty_branch : ub->penalty_l1d) : NAN;

	if (isfinite(pa) && isfinite(pb))
		return (pa + pb) / 2;
	return isfinite(pa) ? pa : pb;
}

/* Whether the misses per instruction moved against IPC: fewer misses where IPC rose, more where it fell. */
static bool against_ipc(const struct ud_diff_workload *w, enum ud_metric m)
{
	double ipc = w->metric[UD_M_IPC].ratio, mpki = w->metric[m].ratio;

	return isfinite(ipc) && isfinite(mpki) && ((ipc > 1 && mpki < 1) || (ipc < 1 && mpki > 1));
}

static int cmp_cause(const void *x, const void *y)
{
	const struct ud_cause *a = x, *b = y;
	/* a share first (largest first), then an implied fit without a penalty */
	double ka = isfinite(a->cycles_share) ? a->cycles_share : -1, kb = isfinite(b->cycles_share) ? b->cycles_share : -1;

	return (ka < kb) - (ka > kb);
}

void ud_diff_causes(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	double ca = per_unit(w->a, UD_CLASS_CYCLES, w->work.a), cb = per_unit(w->b, UD_CLASS_CYCLES, w->work.b), dc = ca - cb;

	w->ncauses = 0;
	if (!isfinite(dc) || dc == 0)
		return;
	for (size_t k = 0; k < UD_MAX_CAUSES; k++) {
		enum ud_metric m = kinds[k].metric;
		struct ud_cause c = { .metric = m, .a = per_unit(w->a, kinds[k].counter, w->work.a),
				      .b = per_unit(w->b, kinds[k].counter, w->work.b) };
		double dn = c.a - c.b;

		if (w->incomparable[m] || !against_ipc(w, m) || !isfinite(dn) || dn == 0 || (dn > 0) != (dc > 0))
			continue;
		c.implied_cycles_per_event = dc / dn;
		c.plausible = c.implied_cycles_per_event >= kinds[k].low && c.implied_cycles_per_event <= kinds[k].high;
		c.penalty = penalty_of(m, ua, ub);
		c.cycles_share = isfinite(c.penalty) ? dn * c.penalty / dc : NAN;
		if ((isfinite(c.cycles_share) && c.cycles_share >= UD_CAUSE_MIN_SHARE) ||
		    (!isfinite(c.penalty) && c.plausible))
			w->causes[w->ncauses++] = c;
	}
	qsort(w->causes, w->ncauses, sizeof(w->causes[0]), cmp_cause);
}
