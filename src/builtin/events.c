/*
 * uarchdiff events [--uarch NAME | --cpuinfo FILE] [--json]: the mapping of
 * generic event names onto the vendor events of a microarchitecture, and how
 * each would be opened on this host.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builtins.h"
#include "json_emit.h"
#include "counting.h"
#include "events.h"
#include "options.h"
#include "raw_config.h"
#include "text.h"
#include "topdown.h"
#include "topdown_method.h"
#include "uarch.h"

static struct {
	const char *uarch, *cpuinfo;
	bool json;
} args;

static const struct ud_option options[] = {
	UD_STRING_OPTION(0, "uarch", &args.uarch, "NAME", "a table by name (zen4, neoverse-n1, ...)"),
	UD_STRING_OPTION(0, "cpuinfo", &args.cpuinfo, "FILE", "the table detected from another host's /proc/cpuinfo"),
	UD_FLAG_OPTION(0, "json", &args.json, "print JSON"),
};

static const struct ud_command command = {
	.name = "events",
	.synopsis = "uarchdiff events [--uarch NAME | --cpuinfo FILE] [--json]",
	.description = "Shows the event table in force: for each generic event, the vendor event\n"
		       "behind it, its code and unit mask, whether it counts speculatively or at\n"
		       "retirement, what it includes, the source of the code, and how it would be\n"
		       "opened on this host (libpfm4, raw, generic or unavailable); then the\n"
		       "top-down method of the core (slots, cycle-accounting or none, and why), its\n"
		       "level, its slots, its raw events and its formulas, each with its source.\n",
	.options = UD_OPTIONS(options),
};

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

/* How the row opens here: the resolver's answer for the table's first entry, the raw code for another core type's. */
static void opening_emit(struct ud_jw *jw, const struct ud_uarch *u, const char *name, const struct ud_uarch_event *e,
			 bool first)
{
	struct ud_event ev;

	if (!first) {
		ud_jw_string(jw, "opened_as", e->unavailable ? "unavailable" : "raw");
		if (e->unavailable)
			ud_jw_string(jw, "reason", e->reason);
		else
			ud_jw_integer(jw, "config", (json_int_t)ud_uarch_raw_config(u, e->code, e->umask, 0, false, false));
		return;
	}
	ud_event_resolve_for(u, name, &ev);
	ud_jw_string(jw, "opened_as", ev.resolved ? ev.opened_as : "unavailable");
	if (ev.resolved)
		ud_jw_integer(jw, "config", (json_int_t)ev.attr.config);
	else
		ud_jw_string(jw, "reason", ev.reason);
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

/* Each generic name once, or once per core type where a hybrid table lists it for each. */
static void events_emit(struct ud_jw *jw, const struct ud_uarch *u)
{
	ud_jw_array(jw, "events");
	for (size_t i = 0; i < sizeof(hardware_names) / sizeof(hardware_names[0]); i++) {
		bool first = true;

		for (size_t k = 0; k < u->nevents; k++) {
			if (strcmp(u->events[k].generic, hardware_names[i]) != 0)
				continue;
			event_emit(jw, u, hardware_names[i], &u->events[k], first);
			first = false;
		}
		if (first)
			event_emit(jw, u, hardware_names[i], NULL, true);
	}
	ud_jw_end(jw);
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

static void table_emit(struct ud_jw *jw, const struct ud_uarch *u, const struct ud_core *core, const char *chosen_by)
{
	char pmu_reason[UD_REASON_MAX];
	enum ud_pmu_state pmu = ud_pmu_probe(pmu_reason, sizeof(pmu_reason));

	ud_jw_object(jw, NULL);
	ud_jw_string(jw, "uarch", u->name);
	ud_jw_string(jw, "title", u->title);
	ud_jw_string(jw, "table", u->path);
	ud_jw_string(jw, "chosen_by", chosen_by);
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
	ud_jw_string(jw, "pmu_here", ud_pmu_state_name(pmu));
	ud_jw_string(jw, "pmu_here_reason", pmu_reason);
	events_emit(jw, u);
	topdown_emit(jw, u);
	ud_jw_end(jw);
}

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void print_head(FILE *f, const json_t *t)
{
	const json_t *pen = json_object_get(t, "penalties");

	const json_t *core = json_object_get(t, "core");

	if (core)
		fprintf(f, "no event table for %s (%s, %s): perf's generic events\n", str(core, "title"), str(core, "name"),
			str(core, "isa"));
	fprintf(f, "%s: %s\n", str(t, "uarch"), str(t, "title"));
	if (str(t, "aliases"))
		fprintf(f, "also:       %s\n", str(t, "aliases"));
	fprintf(f, "table:      %s (%s)\n", str(t, "table"), str(t, "chosen_by"));
	fprintf(f, "counters:   %lld programmable, %lld fixed\n",
		(long long)json_integer_value(json_object_get(json_object_get(t, "counters"), "programmable")),
		(long long)json_integer_value(json_object_get(json_object_get(t, "counters"), "fixed")));
	if (json_is_string(json_object_get(t, "libpfm4_pmu")))
		fprintf(f, "libpfm4:    %s (%s on this host)\n", str(t, "libpfm4_pmu"),
			json_is_true(json_object_get(t, "libpfm4_detected_here")) ? "detected" : "not detected");
	else
		fprintf(f, "libpfm4:    no PMU for this microarchitecture\n");
	for (const char *const *k = (const char *const[]){ "branch_mispredict", "l1d_miss", NULL }; *k; k++) {
		const json_t *p = json_object_get(pen, *k);

		if (json_is_object(p))
			fprintf(f, "penalty:    %s %g cycles (%s)\n", *k, json_real_value(json_object_get(p, "cycles")),
				str(p, "source"));
	}
	fprintf(f, "PMU here:   %s: %s\n\n", str(t, "pmu_here"), str(t, "pmu_here_reason"));
}

static void print_events(FILE *f, const json_t *t)
{
	const json_t *e;
	size_t i;

	fprintf(f, "%-24s %-8s %-52s %-6s %-5s %-11s %s\n", "generic", "pmu", "vendor event", "code", "umask",
		"semantics", "opened as");
	json_array_foreach(json_object_get(t, "events"), i, e) {
		const char *vendor = str(e, "vendor_event");
		const json_t *code = json_object_get(e, "code"), *umask = json_object_get(e, "umask");
		char codes[16] = "-", umasks[16] = "-";

		if (json_is_integer(code))
			snprintf(codes, sizeof(codes), "0x%03llx", (long long)json_integer_value(code));
		if (json_is_integer(umask))
			snprintf(umasks, sizeof(umasks), "0x%02llx", (long long)json_integer_value(umask));
		fprintf(f, "%-24s %-8s %-52s %-6s %-5s %-11s %s", str(e, "generic"), str(e, "pmu") ? str(e, "pmu") : "-",
			vendor ? vendor : strcmp(str(e, "opened_as"), "generic") == 0 ? "(the kernel's generic event)" : "-",
			codes, umasks, str(e, "semantics") ? str(e, "semantics") : "-", str(e, "opened_as"));
		if (str(e, "reason"))
			fprintf(f, ": %s", str(e, "reason"));
		fputc('\n', f);
	}
}

/* One method: what it is, what it is not, then its events' configs and its formulas. */
static void print_method(FILE *f, const char *pmu, const json_t *m)
{
	const json_t *slots = json_object_get(m, "slots"), *x;
	size_t i;

	fprintf(f, "\ntop-down%s%s%s: %s", pmu ? " (" : "", pmu ? pmu : "", pmu ? ")" : "", str(m, "method"));
	if (strcmp(str(m, "method"), "none") != 0)
		fprintf(f, ", level %lld", (long long)json_integer_value(json_object_get(m, "level")));
	if (json_is_number(slots))
		fprintf(f, ", %g slots a cycle", json_number_value(slots));
	else if (json_is_string(slots))
		fprintf(f, ", slots %s", strcmp(json_string_value(slots), "caps") == 0
						 ? "from the PMU's caps/slots" : "counted by the slots event");
	fputc('\n', f);
	if (str(m, "reason"))
		fprintf(f, "  %s\n", str(m, "reason"));
	if (str(m, "source"))
		fprintf(f, "  source: %s\n", str(m, "source"));
	json_array_foreach(json_object_get(m, "events"), i, x)
		fprintf(f, "  event    %-56s config 0x%-10llx %s\n", str(x, "name"),
			(unsigned long long)json_integer_value(json_object_get(x, "config")), str(x, "source"));
	json_array_foreach(json_object_get(m, "formulas"), i, x) {
		long long level = json_integer_value(json_object_get(x, "level"));

		fprintf(f, "  formula  %-24s %-4s = %s\n", str(x, "name"), level == 1 ? "(L1)" : level == 2 ? "(L2)" : "",
			str(x, "expr"));
	}
}

static void print_text(FILE *f, const json_t *t)
{
	const json_t *per = json_object_get(t, "topdown_per_pmu"), *m;
	const char *pmu;

	print_head(f, t);
	print_events(f, t);
	if (json_is_object(json_object_get(t, "topdown")))
		print_method(f, NULL, json_object_get(t, "topdown"));
	json_object_foreach((json_t *)per, pmu, m)
		print_method(f, pmu, m);
}

/* The table's strings come from data files: shown, never obeyed by the terminal; fitted to its width. */
static void print_visible(const json_t *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	print_text(f, t);
	if (fclose(f) == 0 && text)
		ud_cli_print_fitted(text);
	free(text);
}

/* The table named by --uarch, or detected from a cpuinfo, and the core without a table it stands in for; chosen says which. */
static const struct ud_uarch *choose_table(const struct ud_uarch_db *db, const struct ud_core **core, char *chosen,
					   size_t len)
{
	struct ud_err err = UD_ERR_INIT;
	const struct ud_uarch *u;

	if (args.uarch) {
		u = ud_uarch_named(db, args.uarch, core, &err);
		if (!u) {
			ud_cmd_error(&command, "%s", err.msg);
			return NULL;
		}
		snprintf(chosen, len, "--uarch %s", args.uarch);
		return u;
	}
	u = ud_uarch_identify_file(db, args.cpuinfo, core, &err);
	if (!u)
		ud_cmd_error(&command, "%s", err.msg);
	else
		snprintf(chosen, len, "detected from %s", args.cpuinfo ? args.cpuinfo : "/proc/cpuinfo");
	return u;
}

int cmd_events(int argc, char **argv)
{
	const struct ud_core *core = NULL;
	const struct ud_uarch *u;
	char chosen[600];
	struct ud_uarch_db db;
	struct ud_err err = UD_ERR_INIT;
	int next, status;
	struct ud_jw *jw;
	json_t *t = NULL;

	args.uarch = args.cpuinfo = NULL;
	args.json = false;
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	if (args.uarch && args.cpuinfo) {
		ud_cmd_error(&command, "--uarch and --cpuinfo choose the table two ways: give one");
		return UD_EXIT_USAGE;
	}
	if (ud_uarch_db_load(NULL, &db, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	u = choose_table(&db, &core, chosen, sizeof(chosen));
	if (!u) {
		ud_uarch_db_free(&db);
		return UD_EXIT_USAGE;
	}
	/* one writer, json_emit.h: streamed for --json, a tree for the text to read */
	if (args.json) {
		jw = ud_jw_text(stdout);
		table_emit(jw, u, core, chosen);
		ud_jw_finish(jw, NULL);
	} else {
		jw = ud_jw_tree();
		table_emit(jw, u, core, chosen);
		if (ud_jw_finish(jw, &t) == 0)
			print_visible(t);
		json_decref(t);
	}
	ud_uarch_db_free(&db);
	ud_events_cleanup();
	return ud_stdout_status(&command);
}
