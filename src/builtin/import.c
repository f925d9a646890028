/*
 * uarchdiff import [--format F] [--side base|head] [--label L] [--workload NAME] [--score V[,V...][:UNITS]]
 *                  [--host FILE | --cpuinfo FILE] [--uarch NAME] [--fact KEY=VALUE, repeatable] [--runs N]
 *                  -o PROFILE FILE...
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "host_import.h"
#include "import.h"
#include "host_facts.h"
#include "options.h"
#include "outfile.h"
#include "uarch.h"

struct import_args {
	struct ud_import_opts o;
	const char *label, *cpuinfo, *uarch, *host, *output;
	const char **facts; /* --fact, pointing into argv */
	size_t nfacts;
	long runs;          /* --runs; 0 none */
};

static struct import_args args;

static int parse_format(const char *arg, void *dest, struct ud_err *err)
{
	if (ud_import_format_parse(arg, dest) != 0)
		return ud_fail(err, "unknown format '%s' (auto, perf-text, perf-csv, perf-json, unixbench, perf-report, lkp, redis-benchmark, wrk, perfspect, topdown-tool)",
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
	struct import_args *a = dest;
	const char **grown = realloc(a->facts, (a->nfacts + 1) * sizeof(*grown));

	if (!grown)
		return ud_fail(err, "out of memory");
	a->facts = grown;
	a->facts[a->nfacts++] = arg;
	return 0;
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
		    "                               redis-benchmark|wrk|perfspect|topdown-tool]\n"
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
		       "Intel PerfSpect's metric summary (metric_out.average.csv) and Arm\n"
		       "topdown-tool's metrics CSV make one workload a file: a metric that is a\n"
		       "derived metric (CPI, L1d MPKI) under its name, top-down buckets as its\n"
		       "top-down record, every other metric kept by the tool's name.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
	.permute = true, /* `diff a.json b.json -f html`, as git and perf take it */
};

/* Returns UD_OPT_GO_ON with *next the first input file, else the exit status. */
static int parse_args(int argc, char **argv, int *next)
{
	int status;

	args = (struct import_args){ 0 };
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

/*
 * Without --label the host is named later, after the files: one that names
 * its host (a robot table names its commit) is heard first, and the first
 * file's name is the fallback (label_by_file).
 */
static struct ud_host *imported_host(const struct import_args *a, struct ud_err *err)
{
	struct ud_host_import o = { .label = a->label, .host_path = a->host, .cpuinfo_path = a->cpuinfo,
				    .uarch = a->uarch, .facts = a->facts, .nfacts = a->nfacts };

	return ud_host_for_import(&o, err);
}

/*
 * The first file's name as the label where neither --label nor the files
 * named the host; a --host file's own label (or none) stands, as before.
 */
static int label_by_file(const struct import_args *a, struct ud_host *h, const char *first)
{
	const char *base = strrchr(first, '/');

	return h->label || a->host ? 0 : ud_host_set_string(&h->label, base ? base + 1 : first);
}

/*
 * Imports every file into p; a --score must land on exactly one workload.
 * What the importers noticed but could take (a UnixBench table cut short)
 * is said on stderr, one line each; the profile is still written.
 */
static int import_files(struct ud_profile *p, char **files, int nfiles, size_t *firsts, struct ud_err *err)
{
	for (int i = 0; i < nfiles; i++) {
		struct ud_import_warnings warn = { 0 };
		size_t before = p->nworkloads;
		int ret = ud_import_file_warn(p, files[i], &args.o, &warn, err);

		for (size_t k = 0; k < warn.n; k++)
			fprintf(stderr, "uarchdiff import: warning: %s\n", warn.lines[k]);
		ud_import_warnings_free(&warn);
		if (ret != 0)
			return -1;
		if (args.o.nscores && p->nworkloads - before != 1)
			return ud_fail(err, "%s: --score names one workload, and the file holds %zu", files[i],
				       p->nworkloads - before);
		firsts[i] = before;
	}
	return 0;
}

/*
 * -o checked before anything is read, as ud_outfile_check() checks it, and
 * refused when it names a file read: a paste, --host or --cpuinfo.
 */
static int check_output(char **files, int nfiles, struct ud_err *err)
{
	const char **inputs = calloc((size_t)nfiles + 2, sizeof(*inputs));
	size_t n = 0;
	int ret;

	if (!inputs)
		return ud_fail(err, "out of memory");
	for (int i = 0; i < nfiles; i++)
		inputs[n++] = files[i];
	if (args.host)
		inputs[n++] = args.host;
	if (args.cpuinfo)
		inputs[n++] = args.cpuinfo;
	ret = ud_outfile_check_inputs("-o", args.output, inputs, n, err);
	free(inputs);
	return ret;
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
	struct ud_profile *p = NULL;
	struct ud_err err = UD_ERR_INIT;
	struct ud_host *host;
	int next, ret = parse_args(argc, argv, &next);

	if (ret != UD_OPT_GO_ON)
		return ret;
	args.o.runs = (int)args.runs;
	/* one set for all the files: a workload pasted in two of them is refused, naming both */
	args.o.seen = ud_import_seen_new();
	/* -o is checked before the inputs are read, and created only once they all parsed. */
	if (check_output(argv + next, argc - next, &err) != 0)
		goto fail;
	host = imported_host(&args, &err);
	p = host ? ud_profile_new(host) : NULL;
	firsts = calloc((size_t)(argc - next), sizeof(*firsts));
	if (!firsts || !args.o.seen)
		ud_fail(&err, "out of memory");
	if (!firsts || !args.o.seen || !p || import_files(p, argv + next, argc - next, firsts, &err) != 0)
		goto fail;
	ud_import_classify_by_table(p);
	if (label_by_file(&args, p->host, argv[next]) != 0) {
		ud_fail(&err, "out of memory");
		goto fail;
	}
	if (ud_profile_save(p, args.output, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		free(firsts);
		ud_profile_free(p);
		return UD_EXIT_RUN_FAILED;
	}
	say_read(p, argv + next, argc - next, firsts);
	free(firsts);
	ud_profile_free(p);
	return UD_EXIT_OK;
fail:
	ud_cmd_error(&command, "%s", err.msg);
	free(firsts);
	ud_profile_free(p);
	return UD_EXIT_USAGE;
}

int cmd_import(int argc, char **argv)
{
	int ret = import_main(argc, argv);

	free(args.o.scores);
	args.o.scores = NULL;
	ud_import_seen_free(args.o.seen);
	args.o.seen = NULL;
	free(args.facts);
	args.facts = NULL;
	return ret;
}
