/*
 * events_doc.c - the events command's document (events_doc.h): the table in
 * force and how each of its generic events would open on this host, as JSON
 * and as text, both from the typed table.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "events_doc.h"
#include "raw_config.h"
#include "topdown.h"
#include "topdown_method.h"

/* Generic hardware names in display order; the table may list others too. */
static const char *const hardware_names[] = {
	"cycles", "instructions", "branches", "branch-misses", "L1-dcache-loads",
	"L1-dcache-load-misses", "stalled-cycles-frontend", "stalled-cycles-backend",
};

static void penalty_emit(struct ud_jw *jw, const char *key, double cycles, const char *source)
{
	if (isnan(cycles)) {
		ud_jw_null(jw, key);
		return;
	}
	ud_jw_object(jw, key);
	ud_jw_real(jw, "cycles", cycles);
	ud_jw_string(jw, "source", source);
	ud_jw_end(jw);
}

/* How a row opens here: the resolver's answer for the table's first entry, the raw code for another core type's. */
struct opening {
	const char *opened_as; /* "libpfm4", "raw", "generic", "unavailable" */
	bool has_config;
	uint64_t config;
	const char *reason;    /* why unavailable, else NULL */
	struct ud_event ev;    /* the resolver's answer, which reason may point into */
};

static void opening_of(const struct ud_uarch *u, const char *name, const struct ud_uarch_event *e, bool first,
		       struct opening *o)
{
	if (!first) {
		o->opened_as = e->unavailable ? "unavailable" : "raw";
		o->has_config = !e->unavailable;
		o->config = o->has_config ? ud_uarch_raw_config(u, e->code, e->umask, 0, false, false) : 0;
		o->reason = e->unavailable ? e->reason : NULL;
		return;
	}
	ud_event_resolve_for(u, name, &o->ev);
	o->opened_as = o->ev.resolved ? o->ev.opened_as : "unavailable";
	o->has_config = o->ev.resolved;
	o->config = o->ev.resolved ? o->ev.attr.config : 0;
	o->reason = o->ev.resolved ? NULL : o->ev.reason;
}

static void opening_emit(struct ud_jw *jw, const struct ud_uarch *u, const char *name, const struct ud_uarch_event *e,
			 bool first)
{
	struct opening o;

	opening_of(u, name, e, first, &o);
	ud_jw_string(jw, "opened_as", o.opened_as);
	if (o.has_config)
		ud_jw_integer(jw, "config", (json_int_t)o.config);
	else
		ud_jw_string(jw, "reason", o.reason);
}

static void umask_emit(struct ud_jw *jw, int umask)
{
	if (umask >= 0)
		ud_jw_integer(jw, "umask", umask);
	else
		ud_jw_null(jw, "umask");
}

static void event_emit(struct ud_jw *jw, const struct ud_uarch *u, const char *name, const struct ud_uarch_event *e,
		       bool first)
{
	ud_jw_object(jw, NULL);
	ud_jw_string(jw, "generic", name);
	if (e && e->pmu[0])
		ud_jw_string(jw, "pmu", e->pmu);
	if (e && !e->unavailable) {
		ud_jw_string(jw, "vendor_event", e->vendor);
		ud_jw_integer(jw, "code", e->code);
		umask_emit(jw, e->umask);
		ud_jw_string(jw, "semantics", e->semantics);
		ud_jw_string(jw, "includes", e->includes);
		ud_jw_string(jw, "source", e->source);
	} else {
		ud_jw_null(jw, "vendor_event");
		ud_jw_null(jw, "semantics");
	}
	opening_emit(jw, u, name, e, first);
	ud_jw_end(jw);
}

typedef void (*row_fn)(void *ctx, const struct ud_uarch *u, const char *name, const struct ud_uarch_event *e,
		       bool first);

/* Each generic name once, or once per core type where a hybrid table lists it for each; e NULL for a name it lacks. */
static void each_row(const struct ud_uarch *u, row_fn fn, void *ctx)
{
	for (size_t i = 0; i < sizeof(hardware_names) / sizeof(hardware_names[0]); i++) {
		bool first = true;

		for (size_t k = 0; k < u->nevents; k++) {
			if (strcmp(u->events[k].generic, hardware_names[i]) != 0)
				continue;
			fn(ctx, u, hardware_names[i], &u->events[k], first);
			first = false;
		}
		if (first)
			fn(ctx, u, hardware_names[i], NULL, true);
	}
}

static void event_row_emit(void *jw, const struct ud_uarch *u, const char *name, const struct ud_uarch_event *e,
			   bool first)
{
	event_emit(jw, u, name, e, first);
}

static void td_event_emit(struct ud_jw *jw, const struct ud_uarch *u, const struct ud_td_event *e)
{
	ud_jw_object(jw, NULL);
	ud_jw_string(jw, "name", e->name);
	ud_jw_integer(jw, "code", e->code);
	umask_emit(jw, e->umask);
	if (e->cmask)
		ud_jw_integer(jw, "cmask", e->cmask);
	if (e->inv)
		ud_jw_bool(jw, "inv", true);
	if (e->edge)
		ud_jw_bool(jw, "edge", true);
	ud_jw_integer(jw, "config", (json_int_t)ud_td_event_config(u, e));
	if (e->libpfm4[0])
		ud_jw_string(jw, "libpfm4", e->libpfm4);
	ud_jw_string(jw, "source", e->source);
	ud_jw_end(jw);
}

/* SPEC §5.2 "events --json": the method, level, slots and formulas, with their raw events and sources. */
static void method_emit(struct ud_jw *jw, const char *key, const struct ud_uarch *u, const struct ud_td_method *m)
{
	ud_jw_object(jw, key);
	ud_jw_string(jw, "method", ud_topdown_method_name(m->method));
	ud_jw_integer(jw, "level", m->level);
	if (m->slots_from_caps || m->slots_counted)
		ud_jw_string(jw, "slots", m->slots_from_caps ? "caps" : "counted");
	else
		ud_jw_real(jw, "slots", m->slots);
	ud_jw_string(jw, "reason", m->reason[0] ? m->reason : NULL);
	ud_jw_string(jw, "source", m->source[0] ? m->source : NULL);
	ud_jw_array(jw, "events");
	for (size_t i = 0; i < m->nevents; i++)
		td_event_emit(jw, u, &m->events[i]);
	ud_jw_end(jw);
	ud_jw_array(jw, "formulas");
	for (size_t i = 0; i < m->nmetrics; i++) {
		ud_jw_object(jw, NULL);
		ud_jw_string(jw, "name", m->metrics[i].name);
		ud_jw_integer(jw, "level", m->metrics[i].level);
		ud_jw_string(jw, "expr", m->metrics[i].expr);
		ud_jw_string(jw, "source", m->metrics[i].source);
		ud_jw_end(jw);
	}
	ud_jw_end(jw);
	ud_jw_end(jw);
}

/* "topdown" for one method; "topdown_per_pmu" {PMU: method} for a hybrid part's, as in profiles. */
static void topdown_emit(struct ud_jw *jw, const struct ud_uarch *u)
{
	if (u->ntopdown == 1 && !u->topdown[0].pmu[0]) {
		method_emit(jw, "topdown", u, &u->topdown[0]);
		return;
	}
	ud_jw_null(jw, "topdown");
	if (!u->ntopdown)
		return;
	ud_jw_object(jw, "topdown_per_pmu");
	for (size_t i = 0; i < u->ntopdown; i++)
		method_emit(jw, u->topdown[i].pmu, u, &u->topdown[i]);
	ud_jw_end(jw);
}

/* A known core without a table, named or detected: what it is, and that the generic table stands in. */
static void core_emit(struct ud_jw *jw, const struct ud_core *c)
{
	if (!c)
		return;
	ud_jw_object(jw, "core");
	ud_jw_string(jw, "name", c->name);
	ud_jw_string(jw, "title", c->title);
	ud_jw_string(jw, "isa", c->isa);
	ud_jw_string(jw, "vendor", c->vendor[0] ? c->vendor : NULL);
	ud_jw_string(jw, "source", c->source);
	ud_jw_end(jw);
}

void ud_events_doc_init(struct ud_events_doc *d, const struct ud_uarch *u, const struct ud_core *core,
			const char *chosen_by)
{
	d->u = u;
	d->core = core;
	d->chosen_by = chosen_by;
	d->pmu = ud_pmu_probe(d->pmu_reason, sizeof(d->pmu_reason));
}

void ud_events_doc_emit(struct ud_jw *jw, const struct ud_events_doc *d)
{
	const struct ud_uarch *u = d->u;
	const struct ud_core *core = d->core;

	ud_jw_object(jw, NULL);
	ud_jw_string(jw, "uarch", u->name);
	ud_jw_string(jw, "title", u->title);
	ud_jw_string(jw, "table", u->path);
	ud_jw_string(jw, "chosen_by", d->chosen_by);
	core_emit(jw, core);
	ud_jw_string(jw, "isa", core ? core->isa : u->isa[0] ? u->isa : NULL);
	ud_jw_string(jw, "aliases", u->aliases[0] ? u->aliases : NULL);
	ud_jw_object(jw, "counters");
	ud_jw_integer(jw, "programmable", u->counters_programmable);
	ud_jw_integer(jw, "fixed", u->counters_fixed);
	ud_jw_end(jw);
	ud_jw_string(jw, "libpfm4_pmu", u->libpfm4_pmu[0] ? u->libpfm4_pmu : NULL);
	ud_jw_bool(jw, "libpfm4_detected_here", ud_libpfm4_pmu_present(u->libpfm4_pmu));
	ud_jw_object(jw, "penalties");
	penalty_emit(jw, "branch_mispredict", u->penalty_branch, u->penalty_branch_source);
	penalty_emit(jw, "l1d_miss", u->penalty_l1d, u->penalty_l1d_source);
	ud_jw_end(jw);
	ud_jw_string(jw, "pmu_here", ud_pmu_state_name(d->pmu));
	ud_jw_string(jw, "pmu_here_reason", d->pmu_reason);
	ud_jw_array(jw, "events");
	each_row(u, event_row_emit, jw);
	ud_jw_end(jw);
	topdown_emit(jw, u);
	ud_jw_end(jw);
}

/* --- text, from the same typed table */

static void print_head(FILE *f, const struct ud_events_doc *d)
{
	const struct ud_uarch *u = d->u;

	if (d->core)
		fprintf(f, "no event table for %s (%s, %s): perf's generic events\n", d->core->title, d->core->name,
			d->core->isa);
	fprintf(f, "%s: %s\n", u->name, u->title);
	if (u->aliases[0])
		fprintf(f, "also:       %s\n", u->aliases);
	fprintf(f, "table:      %s (%s)\n", u->path, d->chosen_by);
	fprintf(f, "counters:   %lld programmable, %lld fixed\n", (long long)u->counters_programmable,
		(long long)u->counters_fixed);
	if (u->libpfm4_pmu[0])
		fprintf(f, "libpfm4:    %s (%s on this host)\n", u->libpfm4_pmu,
			ud_libpfm4_pmu_present(u->libpfm4_pmu) ? "detected" : "not detected");
	else
		fprintf(f, "libpfm4:    no PMU for this microarchitecture\n");
	if (!isnan(u->penalty_branch))
		fprintf(f, "penalty:    branch_mispredict %g cycles (%s)\n", u->penalty_branch, u->penalty_branch_source);
	if (!isnan(u->penalty_l1d))
		fprintf(f, "penalty:    l1d_miss %g cycles (%s)\n", u->penalty_l1d, u->penalty_l1d_source);
	fprintf(f, "PMU here:   %s: %s\n\n", ud_pmu_state_name(d->pmu), d->pmu_reason);
}

static void print_row(void *ctx, const struct ud_uarch *u, const char *name, const struct ud_uarch_event *e,
		      bool first)
{
	FILE *f = ctx;
	bool entry = e && !e->unavailable;
	char codes[16] = "-", umasks[16] = "-";
	struct opening o;

	opening_of(u, name, e, first, &o);
	if (entry)
		snprintf(codes, sizeof(codes), "0x%03llx", (long long)e->code);
	if (entry && e->umask >= 0)
		snprintf(umasks, sizeof(umasks), "0x%02llx", (long long)e->umask);
	fprintf(f, "%-24s %-8s %-52s %-6s %-5s %-11s %s", name, e && e->pmu[0] ? e->pmu : "-",
		entry ? e->vendor : strcmp(o.opened_as, "generic") == 0 ? "(the kernel's generic event)" : "-", codes,
		umasks, entry ? e->semantics : "-", o.opened_as);
	if (o.reason)
		fprintf(f, ": %s", o.reason);
	fputc('\n', f);
}

/* One method: what it is, what it is not, then its events' configs and its formulas. */
static void print_method(FILE *f, const struct ud_uarch *u, const char *pmu, const struct ud_td_method *m)
{
	const char *method = ud_topdown_method_name(m->method);

	fprintf(f, "\ntop-down%s%s%s: %s", pmu ? " (" : "", pmu ? pmu : "", pmu ? ")" : "", method);
	if (strcmp(method, "none") != 0)
		fprintf(f, ", level %d", m->level);
	if (m->slots_from_caps || m->slots_counted)
		fprintf(f, ", slots %s", m->slots_from_caps ? "from the PMU's caps/slots" : "counted by the slots event");
	else if (!isnan(m->slots))
		fprintf(f, ", %g slots a cycle", m->slots);
	fputc('\n', f);
	if (m->reason[0])
		fprintf(f, "  %s\n", m->reason);
	if (m->source[0])
		fprintf(f, "  source: %s\n", m->source);
	for (size_t i = 0; i < m->nevents; i++)
		fprintf(f, "  event    %-56s config 0x%-10llx %s\n", m->events[i].name,
			(unsigned long long)ud_td_event_config(u, &m->events[i]), m->events[i].source);
	for (size_t i = 0; i < m->nmetrics; i++) {
		int level = m->metrics[i].level;

		fprintf(f, "  formula  %-24s %-4s = %s\n", m->metrics[i].name,
			level == 1 ? "(L1)" : level == 2 ? "(L2)" : "", m->metrics[i].expr);
	}
}

void ud_events_doc_print(FILE *f, const struct ud_events_doc *d)
{
	const struct ud_uarch *u = d->u;

	print_head(f, d);
	fprintf(f, "%-24s %-8s %-52s %-6s %-5s %-11s %s\n", "generic", "pmu", "vendor event", "code", "umask",
		"semantics", "opened as");
	each_row(u, print_row, f);
	for (size_t i = 0; i < u->ntopdown; i++)
		print_method(f, u, u->topdown[i].pmu[0] ? u->topdown[i].pmu : NULL, &u->topdown[i]);
}
