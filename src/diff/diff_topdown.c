/*
 * diff_topdown.c - a workload's top-down buckets on both hosts in cycles
 * per unit of work, and each one's part of the change (diff.h, struct
 * ud_diff_topdown).
 *
 * A bucket's fraction of the slots times the host's cycles per unit is
 * the cycles per unit that went there (slots are a fixed number a cycle),
 * so the buckets' changes add up to the change in cycles per unit, the
 * residual with them.  Without cycles, slots per unit split the same way;
 * without either, the fractions are all the record says.
 */
#include <math.h>
#include <string.h>

#include "diff_priv.h"

/* The one record a side has; NULL without one, or with one per core type (a hybrid host: not compared). */
static const struct ud_topdown *record_of(const struct ud_workload *x)
{
	return x->ntopdown == 1 && !x->topdown[0].pmu[0] ? &x->topdown[0] : NULL;
}

static double per_unit(const struct ud_workload *x, enum ud_counter_class cls, double work)
{
	double v = ud_workload_domain_value(x, cls);

	return isfinite(v) && work > 0 ? v / work : NAN;
}

const char *ud_td_measure_name(enum ud_td_measure m)
{
	static const char *const names[] = { [UD_TD_IN_CYCLES] = "cycles", [UD_TD_IN_SLOTS] = "slots",
					     [UD_TD_IN_FRACTION] = "fraction" };

	return names[m];
}

/* Known on every side that has a record: a side without one needs no measure. */
static bool known(const struct ud_diff_topdown *td, double a, double b)
{
	return (!td->a || isfinite(a)) && (!td->b || isfinite(b));
}

/*
 * Whether slots per unit compare across the two sides: one side only, or
 * both on one core (a 6-wide and an 8-wide core's slots are not one unit:
 * fewer cycles can be more slots).
 */
static bool slots_compare(const struct ud_diff_topdown *td, const struct ud_diff_workload *w)
{
	const char *ua = w->host[UD_SIDE_A] ? w->host[UD_SIDE_A]->cpu.uarch : NULL;
	const char *ub = w->host[UD_SIDE_B] ? w->host[UD_SIDE_B]->cpu.uarch : NULL;

	return !td->a || !td->b || (ua && ub && strcmp(ua, ub) == 0);
}

/* Cycles where every side with a record has them, else slots on one core, else the fractions themselves. */
static void choose_measure(struct ud_diff_topdown *td, const struct ud_diff_workload *w)
{
	double sa = per_unit(w->a, UD_CLASS_SLOTS, w->work.a), sb = per_unit(w->b, UD_CLASS_SLOTS, w->work.b);

	if (known(td, td->cycles_a, td->cycles_b)) {
		td->measure = UD_TD_IN_CYCLES;
		td->per_a = td->cycles_a;
		td->per_b = td->cycles_b;
	} else if (known(td, sa, sb) && slots_compare(td, w)) {
		td->measure = UD_TD_IN_SLOTS;
		td->per_a = sa;
		td->per_b = sb;
	} else {
		td->measure = UD_TD_IN_FRACTION;
		td->per_a = td->per_b = 1;
	}
}

/* A bucket's fraction in t, the residual at UD_TD_RESIDUAL; NAN where t lacks it. */
static double fraction(const struct ud_topdown *t, int b)
{
	if (!t)
		return NAN;
	return b == UD_TD_RESIDUAL ? t->residual : t->defined[b] ? t->value[b] : NAN;
}

static bool has(const struct ud_topdown *t, int b)
{
	return t && (b == UD_TD_RESIDUAL || t->defined[b]);
}

void ud_diff_topdown(struct ud_diff_workload *w)
{
	struct ud_diff_topdown *td = &w->topdown;
	double change;

	memset(td, 0, sizeof(*td));
	td->a = record_of(w->a);
	td->b = record_of(w->b);
	td->cycles_a = per_unit(w->a, UD_CLASS_CYCLES, w->work.a);
	td->cycles_b = per_unit(w->b, UD_CLASS_CYCLES, w->work.b);
	choose_measure(td, w);
	td->same_method = td->a && td->b && td->a->method == td->b->method;
	/* fractions sum to one on each side: their change is no change in the work's cost */
	change = td->measure == UD_TD_IN_FRACTION ? 0 : td->per_b - td->per_a;
	for (int b = 0; b <= UD_TD_RESIDUAL; b++) {
		struct ud_td_cycles *c = &td->cycles[b];

		td->written[b] = td->same_method ? has(td->a, b) && has(td->b, b) : has(td->a, b) || has(td->b, b);
		c->a = fraction(td->a, b) * td->per_a;
		c->b = fraction(td->b, b) * td->per_b;
		/* + 0.0: a bucket that did not move has share 0, not -0 */
		c->share_of_change = td->same_method && isfinite(change) && change != 0 ? (c->b - c->a) / change + 0.0 : NAN;
	}
}
