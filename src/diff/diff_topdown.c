/*
 * diff_topdown.c - a workload's top-down buckets on both hosts in cycles
 * per unit of work, and each one's part of the change (diff.h, struct
 * ud_diff_topdown).
 *
 * A bucket's fraction of the slots times the host's cycles per unit is
 * the cycles per unit that went there (slots are a fixed number a cycle),
 * so the buckets' changes add up to the change in cycles per unit, the
 * residual with them.
 */
#include <math.h>
#include <string.h>

#include "diff_priv.h"

/* The one record a side has; NULL without one, or with one per core type (a hybrid host: not compared). */
static const struct ud_topdown *record_of(const struct ud_workload *x)
{
	return x->ntopdown == 1 && !x->topdown[0].pmu[0] ? &x->topdown[0] : NULL;
}

static double cycles_per_unit(const struct ud_workload *x, double work)
{
	double v = ud_workload_domain_value(x, UD_CLASS_CYCLES);

	return isfinite(v) && work > 0 ? v / work : NAN;
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
	td->cycles_a = cycles_per_unit(w->a, w->work.a);
	td->cycles_b = cycles_per_unit(w->b, w->work.b);
	td->same_method = td->a && td->b && td->a->method == td->b->method;
	change = td->cycles_b - td->cycles_a;
	for (int b = 0; b <= UD_TD_RESIDUAL; b++) {
		struct ud_td_cycles *c = &td->cycles[b];

		td->written[b] = td->same_method ? has(td->a, b) && has(td->b, b) : has(td->a, b) || has(td->b, b);
		c->a = fraction(td->a, b) * td->cycles_a;
		c->b = fraction(td->b, b) * td->cycles_b;
		/* + 0.0: a bucket that did not move has share 0, not -0 */
		c->share_of_change = td->same_method && change != 0 ? (c->b - c->a) / change + 0.0 : NAN;
	}
}
