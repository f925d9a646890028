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
#include "json_io.h"
#include "counting.h"
#include "events.h"
#include "options.h"
#include "text.h"
#include "uarch.h"

static struct {
	const char *uarch, *cpuinfo;
	bool json;
} args;

static const struct ud_option options[] = {
	{ 0, "uarch", UD_OPT_STRING, &args.uarch, "NAME", "a table by name (zen4, neoverse-n1, ...)", 0, 0, NULL },
	{ 0, "cpuinfo", UD_OPT_STRING, &args.cpuinfo, "FILE", "the table detected from another host's /proc/cpuinfo", 0,
	  0, NULL },
	{ 0, "json", UD_OPT_FLAG, &args.json, NULL, "print JSON", 0, 0, NULL },
};

static const struct ud_command command = {
	.name = "events",
	.synopsis = "uarchdiff events [--uarch NAME | --cpuinfo FILE] [--json]",
	.description = "Shows the event table in force: for each generic event, the vendor event\n"
		       "behind it, its code and unit mask, whether it counts speculatively or at\n"
		       "retirement, what it includes, the source of the code, and how it would be\n"
		       "opened on this host (libpfm4, raw, generic or unavailable).\n",
	.options = UD_OPTIONS(options),
};

/* Generic hardware names in display order; the table may list others too. */
static const char *const hardware_names[] = {
	"cycles", "instructions", "branches", "branch-misses", "L1-dcache-loads",
	"L1-dcache-load-misses", "stalled-cycles-frontend", "stalled-cycles-backend",
};

static json_t *penalty_json(double cycles, const char *source)
{
	if (isnan(cycles))
		return json_null();
	return json_pack("{s:f s:s}", "cycles", cycles, "source", source);
}

static json_t *event_json(const struct ud_uarch *u, const char *name)
{
	const struct ud_uarch_event *e = ud_uarch_event(u, name);
	struct ud_event ev;
	json_t *j = json_pack("{s:s}", "generic", name);

	ud_event_resolve_for(u, name, &ev);
	if (e && !e->unavailable) {
		json_object_set_new(j, "vendor_event", json_string(e->vendor));
		json_object_set_new(j, "code", json_integer(e->code));
		json_object_set_new(j, "umask", e->umask >= 0 ? json_integer(e->umask) : json_null());
		json_object_set_new(j, "semantics", json_string(e->semantics));
		json_object_set_new(j, "includes", json_string(e->includes));
		json_object_set_new(j, "source", json_string(e->source));
	} else {
		json_object_set_new(j, "vendor_event", json_null());
		json_object_set_new(j, "semantics", json_null());
	}
	json_object_set_new(j, "opened_as", json_string(ev.resolved ? ev.opened_as : "unavailable"));
	if (ev.resolved)
		json_object_set_new(j, "config", json_integer((json_int_t)ev.attr.config));
	else
		json_object_set_new(j, "reason", json_string(ev.reason));
	return j;
}

static json_t *table_json(const struct ud_uarch *u, const char *chosen_by)
{
	char pmu_reason[UD_REASON_MAX];
	enum ud_pmu_state pmu = ud_pmu_probe(pmu_reason, sizeof(pmu_reason));
	json_t *events = json_array();

	for (size_t i = 0; i < sizeof(hardware_names) / sizeof(hardware_names[0]); i++)
		json_array_append_new(events, event_json(u, hardware_names[i]));
	return json_pack("{s:s s:s s:s s:s s:{s:i s:i} s:o s:b s:{s:o s:o} s:s s:s s:o}",
			 "uarch", u->name, "title", u->title, "table", u->path, "chosen_by", chosen_by,
			 "counters", "programmable", u->counters_programmable, "fixed", u->counters_fixed,
			 "libpfm4_pmu", u->libpfm4_pmu[0] ? json_string(u->libpfm4_pmu) : json_null(),
			 "libpfm4_detected_here", ud_libpfm4_pmu_present(u->libpfm4_pmu),
			 "penalties",
			 "branch_mispredict", penalty_json(u->penalty_branch, u->penalty_branch_source),
			 "l1d_miss", penalty_json(u->penalty_l1d, u->penalty_l1d_source),
			 "pmu_here", ud_pmu_state_name(pmu), "pmu_here_reason", pmu_reason, "events", events);
}

static void print_text(FILE *f, const json_t *t)
{
	const json_t *pen = json_object_get(t, "penalties"), *e;
	size_t i;

	fprintf(f, "%s: %s\n", json_string_value(json_object_get(t, "uarch")), json_string_value(json_object_get(t, "title")));
	fprintf(f, "table:      %s (%s)\n", json_string_value(json_object_get(t, "table")),
	       json_string_value(json_object_get(t, "chosen_by")));
	fprintf(f, "counters:   %lld programmable, %lld fixed\n",
	       (long long)json_integer_value(json_object_get(json_object_get(t, "counters"), "programmable")),
	       (long long)json_integer_value(json_object_get(json_object_get(t, "counters"), "fixed")));
	if (json_is_string(json_object_get(t, "libpfm4_pmu")))
		fprintf(f, "libpfm4:    %s (%s on this host)\n", json_string_value(json_object_get(t, "libpfm4_pmu")),
		       json_is_true(json_object_get(t, "libpfm4_detected_here")) ? "detected" : "not detected");
	else
		fprintf(f, "libpfm4:    no PMU for this microarchitecture\n");
	for (const char *const *k = (const char *const[]){ "branch_mispredict", "l1d_miss", NULL }; *k; k++) {
		const json_t *p = json_object_get(pen, *k);

		if (json_is_object(p))
			fprintf(f, "penalty:    %s %g cycles (%s)\n", *k, json_real_value(json_object_get(p, "cycles")),
			       json_string_value(json_object_get(p, "source")));
	}
	fprintf(f, "PMU here:   %s: %s\n\n", json_string_value(json_object_get(t, "pmu_here")),
	       json_string_value(json_object_get(t, "pmu_here_reason")));
	fprintf(f, "%-24s %-52s %-6s %-5s %-11s %s\n", "generic", "vendor event", "code", "umask", "semantics",
	       "opened as");
	json_array_foreach(json_object_get(t, "events"), i, e) {
		const char *vendor = json_string_value(json_object_get(e, "vendor_event"));
		const json_t *code = json_object_get(e, "code"), *umask = json_object_get(e, "umask");
		char codes[16] = "-", umasks[16] = "-";

		if (json_is_integer(code))
			snprintf(codes, sizeof(codes), "0x%03llx", (long long)json_integer_value(code));
		if (json_is_integer(umask))
			snprintf(umasks, sizeof(umasks), "0x%02llx", (long long)json_integer_value(umask));
		fprintf(f, "%-24s %-52s %-6s %-5s %-11s %s", json_string_value(json_object_get(e, "generic")),
		       vendor ? vendor : strcmp(json_string_value(json_object_get(e, "opened_as")), "generic") == 0
					 ? "(the kernel's generic event)" : "-",
		       codes, umasks,
		       json_is_string(json_object_get(e, "semantics")) ? json_string_value(json_object_get(e, "semantics")) : "-",
		       json_string_value(json_object_get(e, "opened_as")));
		if (json_is_string(json_object_get(e, "reason")))
			fprintf(f, ": %s", json_string_value(json_object_get(e, "reason")));
		fputc('\n', f);
	}
}

/* The table's strings come from data files: shown, never obeyed by the terminal. */
static void print_visible(const json_t *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	print_text(f, t);
	fclose(f);
	ud_fputs_visible_lines(stdout, text);
	free(text);
}

/* The table named by --uarch, or detected from a cpuinfo; chosen says which. */
static const struct ud_uarch *choose_table(const struct ud_uarch_db *db, char *chosen, size_t len)
{
	struct ud_err err = UD_ERR_INIT;
	const struct ud_uarch *u;

	if (args.uarch) {
		u = ud_uarch_named(db, args.uarch, &err);
		if (!u) {
			ud_cmd_error(&command, "%s", err.msg);
			return NULL;
		}
		snprintf(chosen, len, "--uarch %s", args.uarch);
		return u;
	}
	u = ud_uarch_detect_file(db, args.cpuinfo, &err);
	if (!u)
		ud_cmd_error(&command, "%s", err.msg);
	else
		snprintf(chosen, len, "detected from %s", args.cpuinfo ? args.cpuinfo : "/proc/cpuinfo");
	return u;
}

int cmd_events(int argc, char **argv)
{
	const struct ud_uarch *u;
	char chosen[600];
	struct ud_uarch_db db;
	struct ud_err err = UD_ERR_INIT;
	int next, status;
	json_t *t;

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
	u = choose_table(&db, chosen, sizeof(chosen));
	if (!u) {
		ud_uarch_db_free(&db);
		return UD_EXIT_USAGE;
	}
	t = table_json(u, chosen);
	if (args.json) {
		ud_json_write(t, stdout);
	} else {
		print_visible(t);
	}
	json_decref(t);
	ud_uarch_db_free(&db);
	ud_events_cleanup();
	return ud_stdout_status(&command);
}
