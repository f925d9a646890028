/*
 * uarchdiff import [--format F] [--side base|head] [--label L] [--workload NAME] [--score V[,V...][:UNITS]]
 *                  [--host FILE | --cpuinfo FILE] [--uarch NAME] -o PROFILE FILE...
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "host.h"
#include "host_file.h"
#include "import.h"
#include "options.h"
#include "outfile.h"
#include "uarch.h"

struct import_args {
	struct ud_import_opts o;
	const char *label, *cpuinfo, *uarch, *host, *output;
};

static struct import_args args;

static int parse_format(const char *arg, void *dest, struct ud_err *err)
{
	if (ud_import_format_parse(arg, dest) != 0)
		return ud_fail(err, "unknown format '%s' (auto, perf-text, perf-csv, perf-json, unixbench, perf-report, lkp)",
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

static const struct ud_option options[] = {
	UD_PARSE_OPTION(0, "format", &args.o.format, "F",
	  "the input format (default: auto-detected per file)", parse_format),
	UD_PARSE_OPTION(0, "side", &args.o.side, "base|head",
	  "which side of a kernel test robot table to import:\nthe parent commit (base) or the commit (head)",
	  parse_side),
	UD_STRING_OPTION(0, "label", &args.label, "L", "the host's label (default: a robot table's commit,\nelse the first file's name)"),
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
	  "(zen4, neoverse-n1, ...: 'uarchdiff events --uarch x' lists them)"),
	UD_STRING_OPTION('o', "output", &args.output, "FILE", "the profile to write (atomically; '-' is stdout)"),
};

static const struct ud_command command = {
	.name = "import",
	.synopsis = "uarchdiff import [--format auto|perf-text|perf-csv|perf-json|unixbench|perf-report|lkp]\n"
		    "                        [--side base|head] [--label L] [--workload NAME] [--score V[,V...][:UNITS]]\n"
		    "                        [--host FILE | --cpuinfo FILE] [--uarch NAME]\n"
		    "                        -o PROFILE FILE...",
	.description = "Turns perf stat output (text as printed or pasted, -x CSV, -j JSON) and\n"
		       "UnixBench logs into a profile, so measurements from hosts you no longer have\n"
		       "can be diffed.  Several files make several workloads of one profile.  The\n"
		       "numbers are the ones the source printed; what it did not give stays null.\n"
		       "Text from 'perf report' becomes the hotspots of the workload named by\n"
		       "--workload (or of its top command), joining that workload's perf stat file.\n"
		       "A kernel test robot comparison table holds two commits: --side base or\n"
		       "--side head imports one of them (run import once for each).\n",
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
 * The facts taken on that host by 'uarchdiff host --json': kept whole, but
 * --label and --uarch still say what the user asked for.
 */
static struct ud_host *host_from_file(const struct import_args *a, const struct ud_uarch *u, struct ud_err *err)
{
	struct ud_host *host = ud_host_file_load(a->host, err);

	if (host && ((a->label && ud_host_set_string(&host->label, a->label) != 0) ||
		     (u && ud_host_set_string(&host->cpu.uarch, u->name) != 0))) {
		ud_host_free(host);
		return ud_fail(err, "out of memory"), NULL;
	}
	return host;
}

/*
 * Without --label the host is named later, after the files: one that names
 * its host (a robot table names its commit) is heard first, and the first
 * file's name is the fallback (label_by_file).
 */
static struct ud_host *imported_host(const struct import_args *a, struct ud_err *err)
{
	const char *label = a->label;
	const struct ud_uarch *u = NULL;
	struct ud_uarch_db db;
	struct ud_cpu cpu;
	struct ud_host *host = NULL;
	int has_cpu = 0;

	if (!a->cpuinfo && !a->uarch)
		return a->host ? host_from_file(a, NULL, err) : ud_host_imported(label, NULL, NULL);
	if (ud_uarch_db_load(NULL, &db, err) != 0)
		return NULL;
	if (a->cpuinfo) {
		if (ud_cpuinfo_load(a->cpuinfo, &cpu, err) != 0)
			goto out;
		has_cpu = 1;
		u = ud_uarch_detect(&db, &cpu);
	}
	if (a->uarch && !(u = ud_uarch_named(&db, a->uarch, err)))
		goto out;
	host = a->host ? host_from_file(a, u, err) : ud_host_imported(label, has_cpu ? &cpu : NULL, u);
out:
	if (has_cpu)
		ud_cpu_free(&cpu);
	ud_uarch_db_free(&db);
	return host;
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
static int import_files(struct ud_profile *p, char **files, int nfiles, struct ud_err *err)
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
	}
	return 0;
}

static int import_main(int argc, char **argv)
{
	struct ud_profile *p = NULL;
	struct ud_err err = UD_ERR_INIT;
	struct ud_host *host;
	int next, ret = parse_args(argc, argv, &next);

	if (ret != UD_OPT_GO_ON)
		return ret;
	host = imported_host(&args, &err);
	p = host ? ud_profile_new(host) : NULL;
	/* -o is checked before the inputs are read, and created only once they all parsed. */
	if (!p || ud_outfile_check(args.output, &err) != 0 || import_files(p, argv + next, argc - next, &err) != 0)
		goto fail;
	if (label_by_file(&args, p->host, argv[next]) != 0) {
		ud_fail(&err, "out of memory");
		goto fail;
	}
	if (ud_profile_save(p, args.output, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		ud_profile_free(p);
		return UD_EXIT_RUN_FAILED;
	}
	ud_profile_free(p);
	return UD_EXIT_OK;
fail:
	ud_cmd_error(&command, "%s", err.msg);
	ud_profile_free(p);
	return UD_EXIT_USAGE;
}

int cmd_import(int argc, char **argv)
{
	int ret = import_main(argc, argv);

	free(args.o.scores);
	args.o.scores = NULL;
	return ret;
}
