/*
 * uarchdiff import [--format F] [--side base|head] [--label L] [--workload NAME] [--score V[,V...][:UNITS]]
 *                  [--host FILE | --cpuinfo FILE] [--uarch NAME] [--fact KEY=VALUE, repeatable] [--runs N]
 *                  -o PROFILE FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "import_request.h"
#include "host_facts.h"
#include "options.h"

static struct ud_import_request args;

static int parse_format(const char *arg, void *dest, struct ud_err *err)
{
	if (ud_import_format_parse(arg, dest) != 0)
		return ud_fail(err, "unknown format '%s' (auto, perf-text, perf-csv, perf-json, unixbench, perf-report, lkp, redis-benchmark, wrk, perfspect, topdown-tool, uprof-pcm)",
			       arg);
	return 0;
}

static int parse_side(const char *arg, void *dest, struct ud_err *err)
{
	if (ud_import_side_parse(arg, dest) != 0)
		return ud_fail(err, "--side is base (the parent commit) or head (the commit), not '%s'", arg);
	return 0;
}

static int parse_score(const char *arg, void *dest, struct ud_err *err)
{
	struct ud_import_opts *o = dest;

	/* given twice, the last stands */
	free(o->scores);
	o->scores = NULL;
	o->nscores = 0;
	return ud_import_scores_parse(arg, o, err);
}

/* --fact is repeatable: each KEY=VALUE is kept as given, and read with the host's other facts. */
static int add_fact(const char *arg, void *dest, struct ud_err *err)
{
	return ud_import_request_fact(dest, arg, err);
}

/* --label as given, refused over UD_LABEL_MAX before any work (host_facts.h). */
static int parse_label(const char *arg, void *dest, struct ud_err *err)
{
	*(const char **)dest = arg;
	return ud_host_check_label("--label", arg, err);
}

static const struct ud_option options[] = {
	UD_PARSE_OPTION(0, "format", &args.o.format, "F",
	  "the input format (default: auto-detected per file)", parse_format),
	UD_PARSE_OPTION(0, "side", &args.o.side, "base|head",
	  "which side of a kernel test robot table to import:\nthe parent commit (base) or the commit (head)",
	  parse_side),
	UD_PARSE_OPTION(0, "label", &args.label, "L",
	  "the host's label (default: a robot table's commit,\nelse the first file's name)", parse_label),
	UD_STRING_OPTION(0, "workload", &args.o.workload, "NAME",
	  "the workload's name (one file; default: the command\nperf names, else the file's name)"),
	UD_PARSE_OPTION(0, "score", &args.o, "V[,V...][:UNITS]",
	  "the workload's score, overriding UnixBench COUNT lines\n(one file); several values are its samples (repeated\n"
	  "runs); time units (s, ms, ...) are lower-is-better", parse_score),
	UD_STRING_OPTION(0, "host", &args.host, "FILE",
	  "that host's facts: 'uarchdiff host --json' taken there\n(kernel, hypervisor, mitigations, CPU), for the diff's\n"
	  "environment and rules"),
	UD_STRING_OPTION(0, "cpuinfo", &args.cpuinfo, "FILE",
	  "that host's /proc/cpuinfo: its CPU and microarchitecture"),
	UD_STRING_OPTION(0, "uarch", &args.uarch, "NAME",
	  "that host's microarchitecture, where no cpuinfo is at hand\n"
	  "(zen4, genoa, graviton3, power9, ...: a table's name or\n"
	  "its parts', or a core without a table; 'uarchdiff events\n"
	  "--uarch x' lists them)"),
	UD_PARSE_OPTION(0, "fact", &args, "KEY=VALUE",
	  "a fact about that host, stated (repeatable): a host fact's\n"
	  "dotted name as 'uarchdiff host' shows it (cpu.isa=riscv64,\n"
	  "cpufreq.governor=performance, kernel=6.8.7); null states it\n"
	  "unknown; it wins over --host, --cpuinfo and --uarch", add_fact),
	UD_LONG_OPTION(0, "runs", &args.runs, "N",
	  "the runs behind a block whose header was cut (its +-\nsays at least two); a count the block prints wins", 2,
	  1000000),
	UD_STRING_OPTION('o', "output", &args.output, "FILE", "the profile to write (atomically; '-' is stdout)"),
};

static const struct ud_command command = {
	.name = "import",
	.synopsis = "uarchdiff import [--format auto|perf-text|perf-csv|perf-json|unixbench|perf-report|lkp|\n"
		    "                               redis-benchmark|wrk|perfspect|topdown-tool|uprof-pcm]\n"
		    "                        [--side base|head] [--label L] [--workload NAME] [--score V[,V...][:UNITS]]\n"
		    "                        [--host FILE | --cpuinfo FILE] [--uarch NAME] [--fact KEY=VALUE]... [--runs N]\n"
		    "                        -o PROFILE FILE...",
	.description = "Turns perf stat output (text as printed or pasted, -x CSV, -j JSON) and\n"
		       "UnixBench logs into a profile, so measurements from hosts you no longer have\n"
		       "can be diffed.  Several files make several workloads of one profile.  The\n"
		       "numbers are the ones the source printed; what it did not give stays null.\n"
		       "Text from 'perf report' becomes the hotspots of the workload named by\n"
		       "--workload (or of its top command), joining that workload's perf stat file.\n"
		       "A kernel test robot comparison table holds two commits: --side base or\n"
		       "--side head imports one of them (run import once for each).\n"
		       "redis-benchmark output (-q or full) makes a workload a test (redis-SET),\n"
		       "and wrk's report one workload (wrk), both in requests a second.\n"
		       "Intel PerfSpect's metric summary (metric_out.average.csv), Arm\n"
		       "topdown-tool's metrics CSV and AMD uProf's AMDuProfPcm CSV report (one\n"
		       "core's, -c core=N) make one workload a file: a metric that is a\n"
		       "derived metric (CPI, L1d MPKI) under its name, top-down buckets as its\n"
		       "top-down record, every other metric kept by the tool's name.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
	.permute = true, /* `diff a.json b.json -f html`, as git and perf take it */
};

/* What the importers noticed but could take, said on stderr; the profile is still written. */
static void warn(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "uarchdiff import: warning: %s\n", line);
}

/* Returns UD_OPT_GO_ON with *next the first input file, else the exit status. */

static int parse_args(int argc, char **argv, int *next)
{
	int status;

	args = (struct ud_import_request){ .warn = warn };
	status = ud_options_cli(&command, argc, argv, next);
	if (status != UD_OPT_GO_ON)
		return status;
	if (!args.output)
		ud_cmd_error(&command, "no output profile: give -o PROFILE");
	else if (*next >= argc)
		ud_cmd_error(&command, "no input file given");
	else if ((args.o.workload || args.o.nscores) && argc - *next > 1)
		ud_cmd_error(&command, "--workload and --score name one workload: give one file");
	else if (args.host && args.cpuinfo)
		ud_cmd_error(&command, "--host already gives that host's CPU: drop --cpuinfo");
	else
		return UD_OPT_GO_ON;
	return UD_EXIT_USAGE;
}

/* What each file added, one line on stderr, so that a user sees the paste was understood (and how). */
static void say_read(const struct ud_profile *p, char **files, int nfiles, const size_t *firsts)
{
	for (int i = 0; i < nfiles; i++) {
		size_t end = i + 1 < nfiles ? firsts[i + 1] : p->nworkloads;
		char *line = ud_import_summary(p, firsts[i], end, files[i]);

		if (line)
			fprintf(stderr, "uarchdiff import: %s\n", line);
		free(line);
	}
	/* news, not an error: a closed stderr (2>&-) must not fail an import that saved its profile */
	clearerr(stderr);
}

static int import_main(int argc, char **argv)
{
	size_t *firsts = NULL;
	struct ud_profile *p;
	struct ud_err err = UD_ERR_INIT;
	int next, ret = parse_args(argc, argv, &next);

	if (ret != UD_OPT_GO_ON)
		return ret;
	if (!(p = ud_import_request_run(&args, argv + next, argc - next, &firsts, &err))) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	if (ud_profile_save(p, args.output, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		ret = UD_EXIT_RUN_FAILED;
	} else {
		say_read(p, argv + next, argc - next, firsts);
		ret = UD_EXIT_OK;
	}
	free(firsts);
	ud_profile_free(p);
	return ret;
}

int cmd_import(int argc, char **argv)
{
	int ret = import_main(argc, argv);

	ud_import_request_free(&args);
	return ret;
}
