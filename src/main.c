/*
 * uarchdiff - why is this machine faster than that one?
 *
 * main() only dispatches to the subcommands (builtins.h).
 */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "error.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "profile this host: run the workloads under counters, write a profile" },
	{ "stat", cmd_stat, "count a command's events, like perf stat" },
	{ "host", cmd_host, "show host facts: CPU, caches, kernel, hypervisor, PMU, mitigations" },
	{ "diff", cmd_diff, "explain why one profile scores differently from another" },
	{ "import", cmd_import, "turn perf stat output or a UnixBench log into a profile" },
	{ "workloads", cmd_workloads, "list the built-in workloads and what each teaches" },
	{ "events", cmd_events, "show the generic-to-vendor event mapping for a microarchitecture" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: uarchdiff [--version] [--help] <command> [<args>]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'uarchdiff <command> --help' describes one command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return UD_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return UD_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("uarchdiff %s\n", UD_VERSION);
		return UD_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "uarchdiff: '%s' is not a command; see 'uarchdiff --help'\n", argv[1]);
	return UD_EXIT_USAGE;
}
