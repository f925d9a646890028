/*
 * uarchdiff events [--uarch NAME | --cpuinfo FILE] [--json]: the mapping of
 * generic event names onto the vendor events of a microarchitecture, and how
 * each would be opened on this host.
 */
#include <stdio.h>
#include <stdlib.h>

#include "builtins.h"
#include "events.h"
#include "events_doc.h"
#include "options.h"
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

/* The table's strings come from data files: shown, never obeyed by the terminal; fitted to its width. */
static void print_visible(const struct ud_events_doc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	ud_events_doc_print(f, d);
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
	struct ud_events_doc doc;
	int next, status;
	struct ud_jw *jw;

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
	ud_events_doc_init(&doc, u, core, chosen);
	if (args.json) {
		jw = ud_jw_text(stdout);
		ud_events_doc_emit(jw, &doc);
		ud_jw_finish(jw, NULL);
	} else {
		print_visible(&doc);
	}
	ud_uarch_db_free(&db);
	ud_events_cleanup();
	return ud_stdout_status(&command);
}
