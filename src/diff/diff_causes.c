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
#include "sort.h"

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

		/* a metric neither side measured has nothing to compare, and no note */
		if (!ud_metric_counters((enum ud_metric)m, &num, &den) ||
		    (isnan(w->metric[m].a) && isnan(w->metric[m].b)))
			continue;
		/* per instruction, across instruction sets, is per a different unit on each side */
		if (w->counting.cross_isa && (strcmp(num, "instructions") == 0 || strcmp(den, "instructions") == 0))
			ret |= set_reason(w, (enum ud_metric)m, "%s and %s are different instruction sets: an instruction "
					  "is not one unit on both", w->counting.isa[UD_SIDE_A], w->counting.isa[UD_SIDE_B]);
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

/* What one miss of a class costs: the typical charge and the range a miss of that kind can cost. */
struct penalty {
	double typical, low, high;
	const char *source;
};

/* The two tables' penalty where they have one (their mean), else NAN. */
static double table_penalty(double pa, double pb)
{
	if (isfinite(pa) && isfinite(pb))
		return (pa + pb) / 2;
	return isfinite(pa) ? pa : pb;
}

/* The penalty of a miss class: the hosts' tables where they name one, else diff_thresholds.h's defaults. */
static struct penalty penalty_of(enum ud_counter_class cls, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	double branch = table_penalty(ua ? ua->penalty_branch : NAN, ub ? ub->penalty_branch : NAN);
	double l1d = table_penalty(ua ? ua->penalty_l1d : NAN, ub ? ub->penalty_l1d : NAN);

	switch (cls) {
	case UD_CLASS_BRANCH_MISSES:
	case UD_CLASS_RETURN_MISPREDICTS:
		return isfinite(branch) ? (struct penalty){ branch, UD_CAUSE_BRANCH_CYCLES_LOW, UD_CAUSE_BRANCH_CYCLES_HIGH,
							   "the hosts' tables" }
					: (struct penalty){ UD_PENALTY_MISPREDICT, UD_CAUSE_BRANCH_CYCLES_LOW,
							   UD_CAUSE_BRANCH_CYCLES_HIGH, "a typical mispredict" };
	case UD_CLASS_L1D_MISS:
		if (isfinite(l1d))
			return (struct penalty){ l1d, UD_CAUSE_L1D_CYCLES_LOW, UD_CAUSE_L1D_CYCLES_HIGH, "the hosts' tables" };
		/* an L1 miss that hits L2 */
		__attribute__((fallthrough));
	case UD_CLASS_L1I_MISS:
		return (struct penalty){ UD_PENALTY_L1_MISS, UD_CAUSE_L1D_CYCLES_LOW, UD_CAUSE_L1D_CYCLES_HIGH,
					 "a typical L2 hit" };
	case UD_CLASS_L2_MISS:
		return (struct penalty){ UD_PENALTY_L2_MISS, UD_CAUSE_L2_CYCLES_LOW, UD_CAUSE_L2_CYCLES_HIGH,
					 "a typical last-level hit" };
	case UD_CLASS_LLC_MISS:
		return (struct penalty){ UD_PENALTY_LLC_MISS, UD_CAUSE_LLC_CYCLES_LOW, UD_CAUSE_LLC_CYCLES_HIGH,
					 "a typical DRAM access" };
	case UD_CLASS_DTLB_MISS:
	case UD_CLASS_ITLB_MISS:
	case UD_CLASS_TLB_MISS:
		return (struct penalty){ UD_PENALTY_TLB_MISS, UD_CAUSE_TLB_CYCLES_LOW, UD_CAUSE_TLB_CYCLES_HIGH,
					 "a typical page walk" };
	default:
		/* perf's cache-misses: no level, so no charge; only the range of every level */
		return (struct penalty){ NAN, UD_CAUSE_L1D_CYCLES_LOW, UD_CAUSE_LLC_CYCLES_HIGH, NULL };
	}
}

/* The metric that says whether a class's counter means one thing on both sides, or UD_METRIC_COUNT. */
static enum ud_metric metric_of(enum ud_counter_class cls)
{
	return cls == UD_CLASS_BRANCH_MISSES ? UD_M_BRANCH_MPKI : cls == UD_CLASS_L1D_MISS ? UD_M_L1D_MPKI : UD_METRIC_COUNT;
}

/*
 * Whether c carries enough to be named: its cycles go the way the whole
 * change in cycles per unit went (a miss that rose on the faster side is
 * no cause, whatever it did to IPC), and at least UD_CAUSE_MIN_SHARE of
 * what it is charged against.  A change under 1% can have its cause (a
 * return-stack fix that saves 0.7%): the share, not the size, decides.
 */
static bool worth_crediting(const struct ud_diff_workload *w, const struct ud_cause *c)
{
	double change = w->counting.cycles[UD_SIDE_A] - w->counting.cycles[UD_SIDE_B];

	return c->cycles * change > 0 && c->cycles_share >= UD_CAUSE_MIN_SHARE;
}

static int cmp_cause(const void *x, const void *y)
{
	const struct ud_cause *a = x, *b = y;

	return (a->cycles_share < b->cycles_share) - (a->cycles_share > b->cycles_share);
}

/* Keeps the UD_MAX_CAUSES largest: a new one takes the smallest's place when it carries more. */
static void add_cause(struct ud_diff_workload *w, const struct ud_cause *c)
{
	if (w->ncauses < UD_MAX_CAUSES) {
		w->causes[w->ncauses++] = *c;
		return;
	}
	ud_sort(w->causes, w->ncauses, sizeof(w->causes[0]), cmp_cause);
	if (c->cycles_share > w->causes[w->ncauses - 1].cycles_share)
		w->causes[w->ncauses - 1] = *c;
}

/* Slots per cycle on a side, from its slots counter of the domain's mode; NAN without one. */
static double slots_per_cycle(const struct ud_workload *x, enum ud_counting mode)
{
	return ud_workload_class_value(x, UD_CLASS_SLOTS, mode) / ud_workload_class_value(x, UD_CLASS_CYCLES, mode);
}

/* A stall counter's cycles per unit on both sides: in cycles already, or in slots over slots per cycle. */
static bool stall_cycles(const struct ud_diff_workload *w, const struct ud_per_unit *u, double *a, double *b)
{
	enum ud_counting da = w->counting.domain[UD_SIDE_A], db = w->counting.domain[UD_SIDE_B];

	*a = u->v.a;
	*b = u->v.b;
	if (u->cls == UD_CLASS_TOPDOWN) {
		*a /= slots_per_cycle(w->a, da);
		*b /= slots_per_cycle(w->b, db);
	}
	return isfinite(*a) && isfinite(*b) && (ud_counter_class_is_stall(u->cls) || u->cls == UD_CLASS_TOPDOWN);
}

static void stall_cause(struct ud_diff_workload *w, const struct ud_per_unit *u, double change)
{
	struct ud_cause c = { .counter = u->name, .cls = u->cls, .kind = UD_CAUSE_STALL, .penalty = NAN,
			      .implied = NAN, .a = u->v.a, .b = u->v.b, .symptom = w->crossing };
	double a, b;

	if (!stall_cycles(w, u, &a, &b) || !((a - b) * change > 0))
		return;
	c.cycles = a - b;
	c.cycles_share = fmin(c.cycles / change, 1);
	if (!worth_crediting(w, &c))
		return;
	snprintf(c.evidence, sizeof(c.evidence),
		 "%s: %.3g -> %.3g cycles per %s (%.0f%% -> %.0f%% of the cycles), %.0f%% of the change in cycles",
		 u->name, a, b, w->work.unit, 100 * a / w->counting.cycles[UD_SIDE_A],
		 100 * b / w->counting.cycles[UD_SIDE_B], 100 * c.cycles_share);
	add_cause(w, &c);
}

/*
 * A miss class: its misses per instruction times B's instructions per unit
 * is what it moved at B's path length, each charged its penalty, against
 * the part of the change IPC made (across instruction sets, where
 * instructions are no common unit, per unit of work against all of it).
 */
static void miss_cause(struct ud_diff_workload *w, const struct ud_per_unit *u, const struct ud_uarch *ua,
		       const struct ud_uarch *ub, double base)
{
	const double *ins = w->counting.instructions;
	struct penalty p = penalty_of(u->cls, ua, ub);
	bool per_instruction = isfinite(w->ipc_cycles);
	double moved = per_instruction ? ins[UD_SIDE_B] * (u->v.a / ins[UD_SIDE_A] - u->v.b / ins[UD_SIDE_B])
				       : u->v.a - u->v.b;
	struct ud_cause c = { .counter = u->name, .cls = u->cls, .kind = UD_CAUSE_MISS, .a = u->v.a, .b = u->v.b,
			      .penalty = p.typical, .penalty_source = p.source, .symptom = w->crossing };

	if (!isfinite(moved) || !(moved * base > 0))
		return;
	c.implied = base / moved;
	/* with no typical charge (cache-misses), a cost within every level's range carries it all */
	c.cycles = isfinite(p.typical) ? moved * p.typical : c.implied <= p.high ? base : moved * p.high;
	c.cycles_share = fmin(c.cycles / base, 1);
	if (!worth_crediting(w, &c))
		return;
	snprintf(c.evidence, sizeof(c.evidence),
		 "%s: %.3g -> %.3g per %s; %.3g cycles a miss would carry all of the %s; at %.3g (%s), %.0f%%%s%s",
		 u->name, u->v.a, u->v.b, w->work.unit, c.implied,
		 per_instruction ? "change IPC made" : "change in cycles", isfinite(p.typical) ? p.typical : p.high,
		 p.source ? p.source : "the dearest miss of any level", 100 * c.cycles_share,
		 c.cycles / base > 1 ? " (more than all: misses overlap)" : "",
		 c.symptom ? "; a symptom of state lost at each kernel crossing, not a cause of its own" : "");
	add_cause(w, &c);
}

/* Whether u's counter may be credited: counted in the domain compared, comparable, and not within its noise. */
static bool creditable(const struct ud_diff_workload *w, const struct ud_per_unit *u)
{
	enum ud_metric m = metric_of(u->cls);

	return u->mode == w->counting.domain[UD_SIDE_A] && u->mode == w->counting.domain[UD_SIDE_B] &&
	       u->significant != 0 && !(m != UD_METRIC_COUNT && w->incomparable[m]);
}

void ud_diff_causes(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub)
{
	const double *cyc = w->counting.cycles, *ins = w->counting.instructions;
	double change = cyc[UD_SIDE_A] - cyc[UD_SIDE_B];

	w->ncauses = 0;
	/* the part of the change IPC made, at B's path length: what misses per instruction can explain */
	w->ipc_cycles = w->counting.cross_isa ? NAN : ins[UD_SIDE_B] * (cyc[UD_SIDE_A] / ins[UD_SIDE_A] -
									cyc[UD_SIDE_B] / ins[UD_SIDE_B]);
	/* a move within the noise has no cause to find */
	if (!isfinite(change) || change == 0 || ud_diff_domain_too_narrow(w) || w->sig.significant == 0)
		return;
	for (size_t i = 0; i < w->nper_unit; i++) {
		const struct ud_per_unit *u = &w->per_unit[i];

		if (!creditable(w, u))
			continue;
		if (ud_counter_class_is_miss(u->cls))
			miss_cause(w, u, ua, ub, isfinite(w->ipc_cycles) ? w->ipc_cycles : change);
		else
			stall_cause(w, u, change);
	}
	ud_sort(w->causes, w->ncauses, sizeof(w->causes[0]), cmp_cause);
}
