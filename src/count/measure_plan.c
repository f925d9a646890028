/*
 * measure_plan.c - the counter groups a measurement opens (measure.h): the
 * events asked for or the defaults, -d's detailed events and the top-down
 * groups added, counted in user space only where the kernel's share is not
 * allowed, and fitted into the counters this host can use.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_mode.h"
#include "measure.h"
#include "topdown_method.h"

struct ud_event *ud_measure_plan(const struct ud_uarch *u, const char *list, size_t *n, struct ud_err *err)
{
	return ud_measure_plan_topdown(u, list, 0, 0, false, false, n, err);
}

struct ud_event *ud_measure_plan_reserving(const struct ud_uarch *u, const char *list, int reserved, size_t *n,
					   struct ud_err *err)
{
	return ud_measure_plan_topdown(u, list, 0, reserved, false, false, n, err);
}

/* The defaults resolved, as a list of n events the caller frees. */
static struct ud_event *default_events(const struct ud_uarch *u, size_t *n, struct ud_err *err)
{
	struct ud_event *ev = calloc(ud_default_events_count, sizeof(*ev));

	if (!ev)
		return ud_fail(err, "out of memory"), NULL;
	for (size_t i = 0; i < ud_default_events_count; i++)
		ud_event_resolve_for(u, ud_default_events[i], &ev[i]);
	*n = ud_default_events_count;
	return ev;
}

/* Appends -d's events to ev[0..*n), but those already there. */
static struct ud_event *add_detailed(const struct ud_uarch *u, struct ud_event *ev, size_t *n, int level,
				     struct ud_err *err)
{
	size_t extra;
	const char *const *names = ud_detailed_events(level, &extra);
	struct ud_event *grown = realloc(ev, (*n + extra + 1) * sizeof(*ev));

	if (!grown) {
		free(ev);
		return ud_fail(err, "out of memory"), NULL;
	}
	for (size_t i = 0; i < extra; i++) {
		bool have = false;

		ud_event_resolve_for(u, names[i], &grown[*n]);
		for (size_t j = 0; j < *n && !have; j++)
			have = strcmp(grown[j].name, grown[*n].name) == 0;
		*n += !have;
	}
	return grown;
}

/* The spelling that opens e: its raw code on the core's PMU, or on a hybrid core type's PMU by name. */
static void topdown_spec(const struct ud_uarch *u, const struct ud_td_method *m, const struct ud_td_event *e,
			 char *buf, size_t len)
{
	uint64_t config = ud_td_event_config(u, e);

	if (m->pmu[0])
		snprintf(buf, len, "%s/config=0x%" PRIx64 "/", m->pmu, config);
	else
		snprintf(buf, len, "r%" PRIx64, config);
}

/* The request-group number after every one ev[0..n) uses. */
static int next_request_group(const struct ud_event *ev, size_t n)
{
	int next = 0;

	for (size_t i = 0; i < n; i++)
		if (ev[i].request_group >= next)
			next = ev[i].request_group + 1;
	return next;
}

/* Whether ev[0..n) already counts an event named name (the user asked for it by the table's name). */
static bool listed(const struct ud_event *ev, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(ev[i].name, name) == 0)
			return true;
	return false;
}

/*
 * A requested group that needs more general-purpose counters than are free
 * could never be scheduled (Zen's six level-1 events where the NMI
 * watchdog holds one of six counters): its events are planned freely
 * instead, as perf's --metric-no-group counts a metric, so they count,
 * multiplexed, and the record says it is an estimate.  Event code 0 is
 * Intel's encoding of the fixed counters' pseudo-events (slots and the
 * topdown-* metrics, arch/x86/events/intel/core.c): no general counter.
 */
static void ungroup_what_cannot_fit(const struct ud_td_method *m, struct ud_event *ev, size_t from, size_t n,
				    int first, int usable)
{
	int need[2] = { 0, 0 };

	for (size_t i = from; i < n; i++) {
		const struct ud_td_event *e = ud_td_event_find(m, ev[i].name);

		need[ev[i].request_group - first] += e && e->code != 0;
	}
	for (size_t i = from; i < n; i++)
		if (need[ev[i].request_group - first] > usable)
			ev[i].request_group = -1;
}

/*
 * Appends m's events to ev[0..*n) (room for them is there) as two requested
 * groups: those the level-1 formulas read, together as perf counts a
 * metric's events, so that every bucket of a slots method is a ratio inside
 * one group; and those only level 2 reads (each planned freely where it
 * cannot fit the usable counters).  Each is named as the table names it,
 * the name its formulas read.
 */
static int add_method(const struct ud_uarch *u, const struct ud_td_method *m, int usable, struct ud_event *ev,
		      size_t *n, struct ud_err *err)
{
	int first = next_request_group(ev, *n);
	size_t from = *n;
	bool *level1 = calloc(m->nevents + 1, sizeof(*level1));
	char spec[UD_EVENT_NAME_MAX + 32];

	if (!level1)
		return ud_fail(err, "out of memory");
	if (ud_td_level1_events(m, level1, err) != 0) {
		free(level1);
		return ud_err_prefix(err, "%s top-down", u->name);
	}
	for (size_t i = 0; i < m->nevents; i++) {
		const struct ud_td_event *e = &m->events[i];
		struct ud_event *x = &ev[*n];

		if (strlen(e->name) >= sizeof(x->name)) {
			free(level1);
			return ud_fail(err, "%s: top-down event name '%s' is longer than %d bytes", u->name, e->name,
				       UD_EVENT_NAME_MAX - 1);
		}
		if (listed(ev, *n, e->name))
			continue;
		topdown_spec(u, m, e, spec, sizeof(spec));
		ud_event_resolve_for(u, spec, x);
		snprintf(x->name, sizeof(x->name), "%s", e->name);
		snprintf(x->vendor_event, sizeof(x->vendor_event), "%s", e->libpfm4[0] ? e->libpfm4 : e->name);
		x->request_group = first + (level1[i] ? 0 : 1);
		(*n)++;
	}
	free(level1);
	ungroup_what_cannot_fit(m, ev, from, *n, first, usable);
	return 0;
}

/* Appends the events of u's top-down methods (topdown_counters.h reads them back by name). */
static struct ud_event *add_topdown(const struct ud_uarch *u, int usable, struct ud_event *ev, size_t *n,
				    struct ud_err *err)
{
	size_t extra = 0;
	struct ud_event *grown;

	for (size_t k = 0; k < u->ntopdown; k++)
		extra += u->topdown[k].nevents;
	grown = realloc(ev, (*n + extra + 1) * sizeof(*ev));
	if (!grown) {
		free(ev);
		return ud_fail(err, "out of memory"), NULL;
	}
	for (size_t k = 0; k < u->ntopdown; k++) {
		if (u->topdown[k].method != UD_TD_METHOD_NONE &&
		    add_method(u, &u->topdown[k], usable, grown, n, err) != 0) {
			free(grown);
			return NULL;
		}
	}
	return grown;
}

/*
 * Where this process may count user mode only (counting.h), the events that
 * would count the kernel too are counted in user mode and named with :u, as
 * perf stat does (tools/perf/util/evsel.c, evsel__fallback(): exclude_kernel
 * and exclude_hv set, "u" appended to the modifiers), so that no count
 * claims the kernel's share.  An event asked for in kernel mode (:k) keeps
 * its refusal and reason; a tracepoint, which fires in the kernel, too.
 */
static void count_what_is_allowed(struct ud_event *ev, size_t n)
{
	if (!ud_counting_user_only())
		return;
	for (size_t i = 0; i < n; i++) {
		struct ud_event *e = &ev[i];
		size_t len = strlen(e->name);
		const char *mods = ud_event_modifiers(e->name);

		if (!e->resolved || e->tool || e->attr.exclude_kernel || e->attr.exclude_user ||
		    (e->opened_as && strcmp(e->opened_as, "tracepoint") == 0) || len + 3 > sizeof(e->name))
			continue;
		e->attr.exclude_kernel = 1;
		e->attr.exclude_hv = 1;
		/* "cycles" -> "cycles:u", "cycles:p" -> "cycles:pu", "cpu/event=0x3c/" -> "cpu/event=0x3c/u" */
		snprintf(e->name + len, sizeof(e->name) - len, "%su", mods || e->name[len - 1] == '/' ? "" : ":");
	}
}

bool ud_measure_nmi_watchdog(void)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "r");
	int on = 0;

	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 0;
		fclose(f);
	}
	return on != 0;
}

struct ud_event *ud_measure_plan_topdown(const struct ud_uarch *u, const char *list, int detailed, int reserved,
					 bool topdown, bool one_group, size_t *n, struct ud_err *err)
{
	struct ud_event *ev, *planned;
	/* no table: no hardware event, so nothing to fit into counters */
	int usable = u ? ud_uarch_usable_counters(u, ud_measure_nmi_watchdog()) - reserved : 1;

	if (!list) {
		ev = default_events(u, n, err);
	} else {
		*n = ud_event_parse_list(list, u, &ev, err);
		if (!*n)
			ev = NULL;
	}
	if (ev && detailed > 0)
		ev = add_detailed(u, ev, n, detailed, err);
	/* the top-down groups added next are numbered after this one */
	for (size_t i = 0; ev && one_group && i < *n; i++)
		ev[i].request_group = 0;
	if (ev && topdown)
		ev = add_topdown(u, usable, ev, n, err);
	if (!ev)
		return NULL;
	count_what_is_allowed(ev, *n);
	planned = ud_event_plan_groups(ev, *n, usable > 1 ? usable : 1, u ? u->counters_fixed : 0, n);
	free(ev);
	if (!planned)
		ud_fail(err, "out of memory");
	return planned;
}
