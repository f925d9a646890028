/*
 * uarchdiff - why is this machine faster than that one?
 *
 * main() only dispatches to the subcommands (builtins.h); `uarchdiff help
 * CMD` is `uarchdiff CMD --help`, so each command's usage lives in one place.
 */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "error.h"
#include "options.h"
#include "text.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "profile this host: run the workloads under counters, write a profile" },
	{ "stat", cmd_stat, "count a command's events, like perf stat" },
	{ "host", cmd_host, "show host facts: CPU, caches, kernel, hypervisor, PMU, mitigations" },
	{ "diff", cmd_diff, "explain why one profile scores differently from another" },
	{ "compare", cmd_compare, "compare a fleet of profiles: groups, medians, outliers, each explained" },
	{ "import", cmd_import, "turn perf stat output or a UnixBench log into a profile" },
	{ "workloads", cmd_workloads, "list the built-in workloads and what each teaches" },
	{ "teach", cmd_teach, "run teaching labs: branch prediction, cache latency, ILP, measured here" },
	{ "events", cmd_events, "show the generic-to-vendor event mapping for a microarchitecture" },
	{ "schema", cmd_schema, "print the JSON Schema of a document uarchdiff writes" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static bool show_version;

static const struct ud_option options[] = {
	UD_FLAG_OPTION('V', "version", &show_version, "print the version"),
};

static char command_list[1024];

static const struct ud_command top = {
	.name = NULL,
	.synopsis = "uarchdiff [--version] [--help] <command> [<args>]\n"
		    "       uarchdiff help <command>",
	.description = command_list,
	.epilogue = "'uarchdiff <command> --help' (or 'uarchdiff help <command>') describes one command.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
};

static void list_commands(void)
{
	size_t used = (size_t)snprintf(command_list, sizeof(command_list), "commands:\n");

	for (size_t i = 0; i < NCOMMANDS && used < sizeof(command_list); i++)
		used += (size_t)snprintf(command_list + used, sizeof(command_list) - used, "   %-10s %s\n",
					 commands[i].name, commands[i].help);
}

static int dispatch(int argc, char **argv)
{
	const char *names[NCOMMANDS + 1], *near;

	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(argv[0], commands[i].name) == 0)
			return commands[i].fn(argc, argv);
		names[i] = commands[i].name;
	}
	names[NCOMMANDS] = "help";
	near = ud_closest(argv[0], names, NCOMMANDS + 1);
	if (near)
		ud_cmd_error(&top, "'%s' is not a command; did you mean '%s'? (see 'uarchdiff --help')", argv[0], near);
	else
		ud_cmd_error(&top, "'%s' is not a command; see 'uarchdiff --help'", argv[0]);
	return UD_EXIT_USAGE;
}

/* The command and its exit status; *name is set to the command's name once known. */
static int run_command(int argc, char **argv, const char **name)
{
	int next, status;

	list_commands();
	status = ud_options_cli(&top, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	if (show_version) {
		printf("uarchdiff %s\n", UD_VERSION);
		return ud_stdout_status(&top);
	}
	if (next >= argc) {
		ud_options_usage(&top, stderr);
		return UD_EXIT_USAGE;
	}
	if (strcmp(argv[next], "help") == 0) {
		char *help[] = { argv[next + 1], "--help", NULL };

		if (next + 1 >= argc)
			return ud_options_usage(&top, stdout), UD_EXIT_OK;
		*name = argv[next + 1];
		return dispatch(2, help);
	}
	*name = argv[next];
	return dispatch(argc - next, argv + next);
}

int main(int argc, char **argv)
{
	const char *name = NULL;
	int status;

	ud_streams_guard();
	status = run_command(argc, argv, &name);
	/* Output lost to a full disk or a closed stream is a failure, whichever command wrote it. */
	return ud_streams_status(name, status);
}
