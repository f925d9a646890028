/*
 * topdown_counters.c - top-down records from a workload's counters
 * (topdown_counters.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "count_status.h"
#include "topdown_counters.h"
#include "topdown_method.h"

/* What the formulas' values are read from, and the least share of its time any counter they read ran. */
struct from_counters {
	const struct ud_workload *w;
	double running_share;
};

/*
 * The counter of w standing for top-down event name: the counter of that
 * name, or of that name with the modifiers counting added (":u" where only
 * user mode may be counted).  Borrowed; NULL when w has none.
 */
static const struct ud_counter *ud_td_counter(const struct ud_workload *w, const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < w->ncounters; i++) {
		const char *c = w->counters[i].name;

		if (strncmp(c, name, len) == 0 && (c[len] == '\0' || (c[len] == ':' && strchr(c + len + 1, ':') == NULL)))
			return &w->counters[i];
	}
	return NULL;
}

static int counter_value(void *ctx, const char *name, double *v, char *why, size_t len)
{
	struct from_counters *fc = ctx;
	const struct ud_counter *c = ud_td_counter(fc->w, name);

	if (!c) {
		snprintf(why, len, "%s was not in the counting plan", name);
		return 1;
	}
	if (c->status != UD_COUNTED || isnan(c->value)) {
		/* the counter's own words: not_supported (refused) or not_counted (opened, no count) */
		snprintf(why, len, "%s %s: %s", name, ud_count_status_name(c->status),
			 c->reason ? c->reason : "no reason recorded");
		return 1;
	}
	if (c->enabled_ns > 0 && c->running_ns < c->enabled_ns && c->running_ns / c->enabled_ns < fc->running_share)
		fc->running_share = c->running_ns / c->enabled_ns;
	*v = c->value;
	return 0;
}

/* Whether the plan counted any of m's events for w. */
static bool planned(const struct ud_td_method *m, const struct ud_workload *w)
{
	for (size_t i = 0; i < m->nevents; i++)
		if (ud_td_counter(w, m->events[i].name))
			return true;
	return false;
}

int ud_topdown_from_counters(const struct ud_uarch *u, double slots, struct ud_workload *w, struct ud_err *err)
{
	for (size_t k = 0; k < u->ntopdown; k++) {
		const struct ud_td_method *m = &u->topdown[k];
		struct from_counters fc = { .w = w, .running_share = 1 };
		struct ud_topdown t, *out;

		if (m->method == UD_TD_METHOD_NONE || !planned(m, w))
			continue;
		if (ud_topdown_compute(m, slots, counter_value, &fc, &t, err) != 0)
			return -1;
		if (fc.running_share < 1)
			snprintf(t.estimate, sizeof(t.estimate),
				 "multiplexed: its events counted %.1f%% of the time they were enabled, so each "
				 "count is scaled from part of the run",
				 100 * fc.running_share);
		out = ud_workload_add_topdown(w, t.method, t.source, t.pmu);
		if (!out)
			return ud_fail(err, "out of memory");
		*out = t;
	}
	return 0;
}
