/*
 * topdown_method.c - a table's top-down formulas evaluated over counter
 * values, and checked when the table is read (topdown_method.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text.h"
#include "topdown_expr.h"
#include "raw_config.h"
#include "topdown_method.h"

/* One formula's state during an evaluation: each is evaluated once however often others read it. */
struct memo {
	int state;                         /* 0 not yet, 1 in progress (a loop if read again), 2 done */
	double value;
	char why[UD_EXPR_WHY_MAX];
};

struct eval {
	const struct ud_td_method *m;
	ud_td_values values;               /* NULL: checking, every event reads 1 */
	void *ctx;
	struct memo *memo;
	struct ud_expr_env env;
	bool *used;                        /* ud_td_level1_events(): the events read; NULL otherwise */
};

const struct ud_td_event *ud_td_event_find(const struct ud_td_method *m, const char *name)
{
	for (size_t i = 0; i < m->nevents; i++)
		if (strcasecmp(m->events[i].name, name) == 0)
			return &m->events[i];
	return NULL;
}

static int metric_index(const struct ud_td_method *m, const char *name)
{
	for (size_t i = 0; i < m->nmetrics; i++)
		if (strcasecmp(m->metrics[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int metric_value(struct eval *e, int i, double *v, char *why, size_t len, struct ud_err *err);

static int lookup(void *ctx, const char *name, double *v, char *why, size_t len, struct ud_err *err)
{
	struct eval *e = ctx;
	const struct ud_td_event *ev;
	int i = metric_index(e->m, name);

	if (i >= 0)
		return metric_value(e, i, v, why, len, err);
	ev = ud_td_event_find(e->m, name);
	if (!ev)
		return ud_fail(err, "%s: neither a topdown-event nor a topdown-metric of the table", name);
	if (!e->values) {
		*v = 1;
		return 0;
	}
	if (e->values(e->ctx, ev->name, v, why, len) != 0) {
		if (!why[0])
			snprintf(why, len, "%s was not counted", ev->name);
		return 1;
	}
	return 0;
}

static int metric_value(struct eval *e, int i, double *v, char *why, size_t len, struct ud_err *err)
{
	struct memo *mo = &e->memo[i];

	if (mo->state == 1)
		return ud_fail(err, "%s: its formula reads itself through others", e->m->metrics[i].name);
	if (mo->state == 0) {
		mo->state = 1;
		if (ud_expr_eval(e->m->metrics[i].expr, &e->env, &mo->value, mo->why, sizeof(mo->why), err) != 0)
			return ud_err_prefix(err, "%s", e->m->metrics[i].name);
		mo->state = 2;
	}
	*v = mo->value;
	if (isnan(mo->value)) {
		snprintf(why, len, "%s", mo->why);
		return 1;
	}
	return 0;
}

static int eval_init(struct eval *e, const struct ud_td_method *m, double slots, ud_td_values values, void *ctx,
		     struct ud_err *err)
{
	memset(e, 0, sizeof(*e));
	e->m = m;
	e->values = values;
	e->ctx = ctx;
	e->memo = calloc(m->nmetrics ? m->nmetrics : 1, sizeof(*e->memo));
	if (!e->memo)
		return ud_fail(err, "out of memory");
	e->env.lookup = lookup;
	e->env.ctx = e;
	e->env.slots = m->slots_from_caps ? slots : m->slots;
	e->env.visit_all = values == NULL;
	return 0;
}

int ud_topdown_compute(const struct ud_td_method *m, double slots, ud_td_values values, void *ctx,
		       struct ud_topdown *out, struct ud_err *err)
{
	struct eval e;
	int ret = 0;

	if (m->method == UD_TD_METHOD_NONE)
		return ud_fail(err, "no top-down method on this core: %s", m->reason);
	if (eval_init(&e, m, slots, values, ctx, err) != 0)
		return -1;
	ud_topdown_init(out, m->method, UD_TD_COUNTED, m->pmu);
	for (size_t i = 0; i < m->nmetrics && ret == 0; i++) {
		char why[UD_EXPR_WHY_MAX] = "";
		double v;

		if (m->metrics[i].level == 0)
			continue;
		ret = metric_value(&e, (int)i, &v, why, sizeof(why), err) < 0 ? -1 : 0;
		ud_topdown_set(out, ud_topdown_bucket_index(m->metrics[i].name), v, why);
	}
	free(e.memo);
	if (ret == 0)
		ud_topdown_finish(out, m->reason[0] ? m->reason : NULL);
	return ret;
}

/* Marks each event a formula reads: ud_td_level1_events()'s values. */
static int mark_used(void *ctx, const char *name, double *v, char *why, size_t len)
{
	struct eval *e = ctx;
	const struct ud_td_event *ev = ud_td_event_find(e->m, name);

	(void)why;
	(void)len;
	if (ev)
		e->used[ev - e->m->events] = true;
	*v = 1;
	return 0;
}

int ud_td_level1_events(const struct ud_td_method *m, bool *used, struct ud_err *err)
{
	struct eval e;
	int ret = 0;

	memset(used, 0, m->nevents * sizeof(*used));
	if (eval_init(&e, m, 8, mark_used, NULL, err) != 0)
		return -1;
	e.ctx = &e;
	e.used = used;
	/* both branches of an "if": whichever a count takes, its events must be in the group */
	e.env.visit_all = true;
	for (size_t i = 0; i < m->nmetrics && ret == 0; i++) {
		char why[UD_EXPR_WHY_MAX];
		double v;

		if (m->metrics[i].level == 1)
			ret = metric_value(&e, (int)i, &v, why, sizeof(why), err) < 0 ? -1 : 0;
	}
	free(e.memo);
	return ret;
}

/* Names a formula reads resolve, bucket names sit at their level, no name is given twice. */
static int check_names(const struct ud_td_method *m, struct ud_err *err)
{
	for (size_t i = 0; i < m->nmetrics; i++) {
		const struct ud_td_metric *x = &m->metrics[i];
		int b = ud_topdown_bucket_index(x->name);

		if (x->level == 0 && b >= 0)
			return ud_fail(err, "%s: a bucket's formula needs level=%d", x->name, ud_topdown_bucket_level(b));
		if (x->level > 0 && (b < 0 || ud_topdown_bucket_level(b) != x->level))
			return ud_fail(err, "%s: not a level-%d bucket (events/README.md lists them)", x->name, x->level);
		if (x->level > m->level)
			return ud_fail(err, "%s: level %d, deeper than the method's level %d", x->name, x->level, m->level);
		if (metric_index(m, x->name) != (int)i || ud_td_event_find(m, x->name))
			return ud_fail(err, "%s: named twice", x->name);
	}
	for (size_t i = 0; i < m->nevents; i++)
		if (ud_td_event_find(m, m->events[i].name) != &m->events[i])
			return ud_fail(err, "%s: named twice", m->events[i].name);
	return 0;
}

/* The buckets a method must give: all four for slots, a stall bucket for cycle accounting. */
static int check_buckets(const struct ud_td_method *m, struct ud_err *err)
{
	static const char *const four[] = { "retiring", "bad_speculation", "frontend_bound", "backend_bound" };
	bool deepest = false;

	for (size_t i = 0; i < m->nmetrics; i++)
		deepest = deepest || m->metrics[i].level == m->level;
	if (m->method == UD_TD_SLOTS) {
		for (size_t k = 0; k < sizeof(four) / sizeof(four[0]); k++)
			if (metric_index(m, four[k]) < 0)
				return ud_fail(err, "a slots method needs a formula for %s", four[k]);
	} else if (metric_index(m, "frontend_bound") < 0 && metric_index(m, "backend_bound") < 0) {
		return ud_fail(err, "cycle accounting needs a formula for frontend_bound or backend_bound");
	}
	if (!deepest)
		return ud_fail(err, "level %d, but no formula of that level", m->level);
	return 0;
}

int ud_topdown_method_check(const struct ud_td_method *m, struct ud_err *err)
{
	struct eval e;
	int ret = 0;

	if (m->method == UD_TD_METHOD_NONE)
		return m->nevents || m->nmetrics ? ud_fail(err, "method none has no events or formulas")
		       : m->reason[0] ? 0 : ud_fail(err, "method none needs a reason");
	if (m->method == UD_TD_CYCLE_ACCOUNTING && !m->reason[0])
		return ud_fail(err, "cycle accounting needs a reason saying what it is not");
	if (check_names(m, err) != 0 || check_buckets(m, err) != 0)
		return -1;
	/* every formula once over made-up values: its syntax, its names, no loop */
	if (eval_init(&e, m, 8, NULL, NULL, err) != 0)
		return -1;
	for (size_t i = 0; i < m->nmetrics && ret == 0; i++) {
		char why[UD_EXPR_WHY_MAX];
		double v;

		ret = metric_value(&e, (int)i, &v, why, sizeof(why), err) < 0 ? -1 : 0;
	}
	free(e.memo);
	return ret;
}

uint64_t ud_td_event_config(const struct ud_uarch *u, const struct ud_td_event *e)
{
	return ud_uarch_raw_config(u, e->code, e->umask, e->cmask, e->inv, e->edge);
}

/* perf's metric-group names, at their level; AMD's spelling beside Intel's and Arm's. */
static const struct {
	const char *name;
	int level;
} td_groups[] = {
	{ "TopdownL1", 1 }, { "TopdownL2", 2 }, { "PipelineL1", 1 }, { "PipelineL2", 2 },
};

#define TD_GROUPS (sizeof(td_groups) / sizeof(td_groups[0]))

/* The deepest level of u's slot methods: 0 where none counts slots. */
static int slots_level(const struct ud_uarch *u)
{
	int level = 0;

	for (size_t i = 0; i < u->ntopdown; i++)
		if (u->topdown[i].method == UD_TD_SLOTS && u->topdown[i].level > level)
			level = u->topdown[i].level;
	return level;
}

static bool is_bucket(const struct ud_uarch *u, const char *name)
{
	for (size_t i = 0; i < u->ntopdown; i++)
		for (size_t k = 0; k < u->topdown[i].nmetrics; k++)
			if (u->topdown[i].metrics[k].level > 0 && strcasecmp(u->topdown[i].metrics[k].name, name) == 0)
				return true;
	return false;
}

/* "unknown metric 'X'", with the closest group or bucket u knows. */
static int unknown_metric(const struct ud_uarch *u, const char *name, const char *bare, struct ud_err *err)
{
	const char *names[64], *near;
	size_t n = 0;

	for (size_t g = 0; g < TD_GROUPS; g++)
		if (td_groups[g].level <= slots_level(u))
			names[n++] = td_groups[g].name;
	for (size_t i = 0; i < u->ntopdown; i++)
		for (size_t k = 0; k < u->topdown[i].nmetrics && n < sizeof(names) / sizeof(names[0]); k++)
			if (u->topdown[i].metrics[k].level > 0)
				names[n++] = u->topdown[i].metrics[k].name;
	near = ud_closest(bare, names, n);
	if (near)
		return ud_fail(err, "unknown metric '%s' on %s (did you mean '%s'?)", name, u->name, near);
	return ud_fail(err, "unknown metric '%s' on %s: 'uarchdiff events' lists its top-down buckets", name, u->name);
}

int ud_td_metric_check(const struct ud_uarch *u, const char *name, struct ud_err *err)
{
	const char *bare = strncasecmp(name, "tma_", 4) == 0 ? name + 4 : name;

	if (!u->ntopdown || (u->ntopdown == 1 && u->topdown[0].method == UD_TD_METHOD_NONE))
		return ud_fail(err, "metric '%s': the %s table has no top-down method, so no metrics to count", name, u->name);
	if (is_bucket(u, bare))
		return 0;
	for (size_t g = 0; g < TD_GROUPS; g++) {
		if (strcasecmp(td_groups[g].name, name) != 0)
			continue;
		if (td_groups[g].level <= slots_level(u))
			return 0;
		if (!slots_level(u))
			return ud_fail(err, "metric '%s': %s has no slot top-down, only cycle accounting (%s): ask for its "
				       "buckets or --topdown", name, u->name, u->topdown[0].reason);
		return ud_fail(err, "metric '%s': %s's top-down goes to level %d", name, u->name, slots_level(u));
	}
	return unknown_metric(u, name, bare, err);
}

int ud_td_level_check(const struct ud_uarch *u, long level, struct ud_err *err)
{
	int deepest = slots_level(u);

	if (!u->ntopdown || (u->ntopdown == 1 && u->topdown[0].method == UD_TD_METHOD_NONE))
		return ud_fail(err, "--td-level %ld: the %s table has no top-down method", level, u->name);
	if (level == 0 || level <= deepest)
		return 0;
	if (!deepest)
		return ud_fail(err, "--td-level %ld: %s has no slot top-down, only cycle accounting (%s): use --topdown",
			       level, u->name, u->topdown[0].reason);
	return ud_fail(err, "--td-level %ld: %s's top-down goes to level %d", level, u->name, deepest);
}
