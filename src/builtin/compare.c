/*
 * uarchdiff compare [-f text|json|md|html] [-o FILE] [--group-by FIELD[,FIELD]]
 *                   [--baseline first|median|LABEL] [--all-hosts] [--pairs] PROFILE|FOLDER|-...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "fleet.h"
#include "options.h"
#include "outfile.h"
#include "profile_find.h"
#include "report.h"
#include "uarch.h"

static struct {
	enum ud_report_format format;
	const char *output;
	char *group_by;
	const char *baseline;
	bool all_hosts, pairs;
} args;

static const struct ud_option options[] = {
	UD_REPORT_FORMAT_OPTION(&args.format, UD_FLEET_SCHEMA),
	UD_STRING_OPTION('o', "output", &args.output, "FILE", "write the report to FILE, atomically (default stdout)"),
	UD_LIST_OPTION(0, "group-by", &args.group_by, "FIELDS",
	  "group hosts by these host facts, dotted, comma-separated (default\n"
	  "cpu.vendor,cpu.uarch,cpu.online_cpus; kernel, hypervisor,\n"
	  "vulnerabilities.retbleed ...: any fact 'uarchdiff host' shows)"),
	UD_STRING_OPTION(0, "baseline", &args.baseline, "B",
	  "what the groups are compared with: median (default: the largest\n"
	  "group's median host), first (the first profile), or a host's label\n"
	  "(a label several hosts have is refused: each is named apart, LABEL (PATH))"),
	UD_FLAG_OPTION(0, "all-hosts", &args.all_hosts,
	  "add the per-host table (every host's speedups; JSON always has it)"),
	UD_FLAG_OPTION(0, "pairs", &args.pairs, "add every host's whole diff against the baseline (N diffs: large)"),
};

static const struct ud_command command = {
	.name = "compare",
	.synopsis = "uarchdiff compare " UD_REPORT_FORMAT_SYNOPSIS " [-o FILE] [--group-by FIELDS]\n"
		    "                  [--baseline median|first|LABEL] [--all-hosts] [--pairs] PROFILE|FOLDER|-...",
	.description = "Compares a fleet of profiles: hosts grouped by the facts they share\n"
		       "(CPU vendor, microarchitecture and online CPUs unless --group-by),\n"
		       "per group and workload the hosts' median, quartiles, min and max;\n"
		       "each group's median host against the baseline's, with the diff's\n"
		       "factors and findings; and the outliers, hosts outside their\n"
		       "group's median +- 5.19 MAD on a workload, each explained against\n"
		       "its group's median.  A profile that does not load is left out,\n"
		       "named on stderr and in the report (\"skipped\" in JSON).\n"
		       "A FOLDER gives the profiles under it, at any depth, in name order\n"
		       "(a fleet_out of the Ansible playbook: its HOST/profile.json; other\n"
		       "files are skipped and counted); - reads the paths, profiles or\n"
		       "folders, one a line from standard input, for fleets too large to\n"
		       "name as arguments.  A path that does not exist is an error.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
	.permute = true, /* `compare a.json b.json -f html`, as git and perf take it */
};

/* --group-by's fields, split in place at the commas; the count, or -1 for too many or an empty one. */
static long split_fields(char *list, const char **fields)
{
	long n = 0;

	for (char *s = list, *next; s; s = next) {
		next = strchr(s, ',');
		if (next)
			*next++ = '\0';
		if (!*s || n == UD_FLEET_MAX_KEYS)
			return -1;
		fields[n++] = s;
	}
	return n;
}

static int fleet_write(const struct ud_fleet *f, struct ud_err *err)
{
	struct ud_outfile *out = ud_outfile_open(args.output, err);
	struct ud_fleet_gaps gaps = { 0 };
	struct ud_fleet_report r = { args.format, args.all_hosts, args.pairs, &gaps };
	int status = UD_EXIT_OK;

	if (!out)
		return UD_EXIT_USAGE;
	for (size_t i = 0; i < f->nskipped; i++)
		ud_cmd_error(&command, "warning: %s left out: %s", f->skipped[i].path, f->skipped[i].reason.msg);
	for (size_t e = 0; e < f->nexcluded; e++)
		ud_cmd_error(&command, "warning: left out of one workload: %s", f->excluded[e].reason);
	ud_report_set_width(ud_cli_width());
	if (ud_fleet_write(f, &r, NULL, ud_outfile_stream(out), err) != 0) {
		ud_outfile_abort(out);
		status = UD_EXIT_RUN_FAILED;
	} else if (ud_outfile_commit(out, err) != 0) {
		status = UD_EXIT_RUN_FAILED;
	}
	/* Said after the report, as a skipped profile is said before it: the report names them too. */
	for (size_t i = 0; i < gaps.n; i++)
		ud_cmd_error(&command, "warning: --pairs: %s left out: %s", f->hosts[gaps.v[i].host].path,
			     gaps.v[i].reason ? gaps.v[i].reason : "out of memory");
	ud_fleet_gaps_free(&gaps);
	return status;
}

/* The operands' profile files into l: files as named, folders searched, "-" a list on stdin (once). */
static int gather(char **operands, size_t n, struct ud_profile_paths *l, struct ud_err *err)
{
	bool read_stdin = false;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(operands[i], "-") != 0) {
			if (ud_profile_paths_add(l, operands[i], err) != 0)
				return -1;
		} else if (read_stdin) {
			return ud_fail(err, "- (standard input) given twice: give the list once");
		} else if (ud_profile_paths_read(l, stdin, "standard input", err) != 0) {
			return -1;
		}
		read_stdin |= strcmp(operands[i], "-") == 0;
	}
	/* too few: what the folders held is the error's own line, one line as every refusal */
	if (l->n < 2 && l->nnamed_folders)
		return ud_fail(err, "give at least two profiles: %zu found in %zu folders (%zu other files there skipped: "
			       "not profiles), %zu to compare in all", l->nfound, l->nfolders, l->nother, l->n);
	if (l->n < 2)
		return ud_fail(err, "give at least two profiles");
	if (ud_profile_paths_check_distinct(l, err) != 0)
		return -1;
	/* what the folders held, so that a fleet smaller than expected shows before its report */
	if (l->nnamed_folders)
		ud_cmd_error(&command, "%zu profiles found in %zu folders (%zu other files there skipped: not profiles), "
			     "%zu to compare in all", l->nfound, l->nfolders, l->nother, l->n);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct ud_uarch_db db = { 0 };
	struct ud_err err = UD_ERR_INIT;
	const char *fields[UD_FLEET_MAX_KEYS];
	struct ud_fleet_input in = { 0 };
	struct ud_profile_paths list = { 0 };
	struct ud_fleet *f = NULL;
	long nfields = 0;
	int next, status;

	args.format = UD_REPORT_TEXT;
	args.output = "-";
	args.group_by = NULL;
	args.baseline = NULL;
	args.all_hosts = args.pairs = false;
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	status = UD_EXIT_USAGE;
	if (args.group_by && (nfields = split_fields(args.group_by, fields)) < 0)
		ud_fail(&err, "--group-by takes 1 to %d host-fact fields, comma-separated", UD_FLEET_MAX_KEYS);
	else if (gather(argv + next, (size_t)(argc - next), &list, &err) == 0 &&
		 ud_outfile_check_inputs("-o", args.output, (const char *const *)list.paths, list.n, &err) == 0 &&
		 ud_uarch_db_load(NULL, &db, &err) == 0) {
		in = (struct ud_fleet_input){ list.paths, list.n, fields, (size_t)nfields, UD_FLEET_MEDIAN,
					      args.baseline, &db };
		if (args.baseline && strcmp(args.baseline, "first") == 0)
			in.baseline = UD_FLEET_FIRST;
		else if (args.baseline && strcmp(args.baseline, "median") != 0)
			in.baseline = UD_FLEET_LABEL;
		/* A profile that does not load is left out by name (fleet.h); the others are still compared. */
		if ((f = ud_fleet_build(&in, &err)))
			status = fleet_write(f, &err);
	}
	if (status != UD_EXIT_OK)
		ud_cmd_error(&command, "%s", err.msg);
	ud_fleet_free(f);
	ud_profile_paths_free(&list);
	ud_uarch_db_free(&db);
	free(args.group_by);
	return status;
}
