/*
 * uarchdiff stat record [stat's options] [-o FILE] [-- CMD [ARGS...]]
 * uarchdiff stat report [-i FILE] [-x SEP | -j] [-o FILE]
 *                       [-A | --per-core | --per-die | --per-socket | --per-node | --per-thread]
 *
 * perf stat record / perf stat report.  record counts through stat's own
 * run (stat.c, its options and all) and keeps what it printed in a
 * uarchdiff.profile/1 document (stat_record.h), FILE (perf.data, as
 * perf's) or stdout; report prints it again through the same formatter
 * (stat_replay.h), its header naming the recording command line, or
 * 'pipe' for a record read from stdin, as perf's does.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "builtins.h"
#include "stat_record_cmd.h"
#include "stat_replay.h"

/* perf's default file for both (tools/perf/util/data.c). */
#define DEFAULT_RECORD "perf.data"
/* The most rows stat's table may grow to, with room to spare for the options another change adds. */
#define RECORD_OPTIONS_MAX 128

static const struct ud_command *stat_command;
static struct ud_option record_options[RECORD_OPTIONS_MAX];
static struct ud_command record_command = {
	.name = "stat record",
	.synopsis = "uarchdiff stat record [stat's options but --append] [-o FILE] [-- CMD [ARGS...]]",
	.description = "Counts as 'uarchdiff stat' counts, prints the report as it does (to stderr),\n"
		       "and keeps what it printed in FILE (default perf.data; '-' is stdout, and\n"
		       "then no report is printed, as perf's) for 'uarchdiff stat report'.  A\n"
		       "non-empty FILE there already is renamed FILE.old first, as perf does.\n",
	.epilogue = "The record is a uarchdiff.profile/1 document with a \"stat_record\"\n"
		    "(doc/json.md), not perf's perf.data: perf stat report cannot read it, and\n"
		    "uarchdiff stat report refuses perf's.  Exit status as 'uarchdiff stat'.\n",
	.operands = true,
	.usage_status = UD_EXIT_PERF_USAGE,
};

/* stat's rows for record: -o names the record, and --append (a report's) is left out. */
static void make_record_command(void)
{
	size_t n = 0;

	stat_command = ud_stat_command();
	for (size_t i = 0; i < stat_command->noptions && n < RECORD_OPTIONS_MAX; i++) {
		struct ud_option row = stat_command->options[i];

		if (strcmp(row.long_name, "append") == 0)
			continue;
		if (strcmp(row.long_name, "output") == 0)
			row.help = "write the record to FILE (default perf.data),\natomically; '-' is stdout";
		record_options[n++] = row;
	}
	record_command.options = record_options;
	record_command.noptions = n;
	record_command.permute = stat_command->permute;
}

struct recording {
	const char *path;
	char *invocation;            /* this command line, for the report's header */
	struct ud_stat_record *kept; /* until the profile takes it */
	struct ud_err err;
	bool failed;
};

static int begin(void *ctx, const char **output, bool append)
{
	struct recording *rc = ctx;

	if (append) {
		ud_cmd_error(&record_command, "--append adds to a report: a record is written whole");
		return -1;
	}
	rc->path = *output ? *output : DEFAULT_RECORD;
	*output = NULL;
	if (ud_outfile_check(rc->path, &rc->err) != 0) {
		ud_cmd_error(&record_command, "%s", rc->err.msg);
		return -1;
	}
	return strcmp(rc->path, "-") == 0;
}

static void interval(void *ctx, const struct ud_stat_view *v)
{
	struct recording *rc = ctx;

	if (!rc->failed && ud_stat_record_keep(rc->kept, v, &rc->err) != 0)
		rc->failed = true;
}

static int end(void *ctx, struct ud_profile *p, const struct ud_stat_view *totals, bool printed)
{
	struct recording *rc = ctx;

	if (rc->failed || ud_stat_record_close(rc->kept, totals, printed, rc->invocation, &rc->err) != 0) {
		ud_cmd_error(&record_command, "%s", rc->err.msg);
		return -1;
	}
	p->workloads[0].stat_record = rc->kept;
	rc->kept = NULL;
	if (ud_stat_record_save(p, rc->path, &rc->err) != 0) {
		ud_cmd_error(&record_command, "%s", rc->err.msg);
		return -1;
	}
	return 0;
}

/* "EXE stat record ARGS...": perf's header names its own command line by the executable's path. */
static char *invocation_of(int argc, char **argv)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t len;
	char *s;

	if (n > 0)
		exe[n] = '\0';
	else
		snprintf(exe, sizeof(exe), "uarchdiff");
	len = strlen(exe) + sizeof(" stat");
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if (!(s = malloc(len)))
		return NULL;
	snprintf(s, len, "%s stat", exe);
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static int cmd_record(int argc, char **argv)
{
	struct recording rc = { .err = UD_ERR_INIT };
	struct ud_stat_recorder hooks = { &record_command, begin, interval, end, &rc };
	int status;

	make_record_command();
	rc.invocation = invocation_of(argc, argv);
	rc.kept = ud_stat_record_new();
	if (!rc.invocation || !rc.kept) {
		ud_cmd_error(&record_command, "out of memory");
		status = UD_EXIT_RUN_FAILED;
	} else {
		status = ud_stat_count(argc, argv, &hooks);
	}
	ud_stat_record_free(rc.kept);
	free(rc.invocation);
	return status;
}

struct report_opts {
	const char *input, *sep, *output;
	bool json, no_aggr, per_core, per_socket, per_thread, per_die, per_node;
};

static struct report_opts ro;

static const struct ud_option report_options[] = {
	UD_STRING_OPTION('i', "input", &ro.input, "FILE", "the record to read (default perf.data); '-' is\nstdin"),
	UD_STRING_OPTION('x', "field-separator", &ro.sep, "SEP", "CSV output like perf stat -x"),
	UD_FLAG_OPTION('j', "json", &ro.json, "perf's JSON lines: one object a counter"),
	UD_STRING_OPTION('o', "output", &ro.output, "FILE", "write the report to FILE, atomically; '-' is\nstdout"),
	UD_FLAG_OPTION('A', "no-aggr", &ro.no_aggr, "a row per CPU, where recorded so"),
	UD_FLAG_OPTION(0, "per-core", &ro.per_core, "a row per core, where recorded so"),
	UD_FLAG_OPTION(0, "per-die", &ro.per_die, "a row per die, where recorded so"),
	UD_FLAG_OPTION(0, "per-socket", &ro.per_socket, "a row per socket, where recorded so"),
	UD_FLAG_OPTION(0, "per-node", &ro.per_node, "a row per NUMA node, where recorded so"),
	UD_FLAG_OPTION(0, "per-thread", &ro.per_thread, "a row per thread, where recorded so"),
};

static const struct ud_command report_command = {
	.name = "stat report",
	.synopsis = "uarchdiff stat report [-i FILE] [-x SEP | -j] [-o FILE]\n"
		    "                             [-A | --per-core | --per-die | --per-socket | --per-node |\n"
		    "                              --per-thread]",
	.description = "Prints the report a 'uarchdiff stat record' kept, as 'uarchdiff stat'\n"
		       "printed it then (-x and -j choose the layout again), to stderr or to\n"
		       "FILE with -o.  Its header names the command line that recorded it, or\n"
		       "'pipe' for a record read from stdin, as perf stat report's does.\n",
	.epilogue = "The rows are the record's: -A, --per-core, --per-die, --per-socket,\n"
		    "--per-node and --per-thread only confirm them (another aggregation is refused: record with it).\n"
		    "perf's own perf.data is refused: read it with perf stat report.\n"
		    "\n"
		    "Exit status: 0; 2 for bad usage or a file that is no record; 1 when the\n"
		    "report could not be written.\n",
	.options = UD_OPTIONS(report_options),
};

/* The rows asked for: none (the record's) or one; -1 for several. */
static int rows_asked(enum ud_stat_rows *rows)
{
	int n = ro.no_aggr + ro.per_core + ro.per_socket + ro.per_thread + ro.per_die + ro.per_node;

	*rows = ro.no_aggr ? UD_ROWS_CPU : ro.per_core ? UD_ROWS_CORE : ro.per_socket ? UD_ROWS_SOCKET
		: ro.per_die ? UD_ROWS_DIE : ro.per_node ? UD_ROWS_NODE : UD_ROWS_THREAD;
	return n > 1 ? -1 : n;
}

/* Options that exclude each other, or ask what the record does not hold: the first in words, else NULL. */
static const char *report_conflict(const struct ud_stat_record *r, char *buf, size_t len)
{
	enum ud_stat_rows rows;
	int asked = rows_asked(&rows);

	if (ro.sep && ro.json)
		return "-x and --json are different outputs: choose one";
	if (asked < 0)
		return "-A, --per-core, --per-die, --per-socket, --per-node and --per-thread are different rows: choose one";
	if (r && asked && rows != r->rows) {
		snprintf(buf, len, "the record holds %s rows, not %s ones: record with the rows to print",
			 ud_stat_rows_name(r->rows), ud_stat_rows_name(rows));
		return buf;
	}
	return NULL;
}

static int print_report(const struct ud_profile *p)
{
	struct ud_stat_replay rp = { .sep = ro.sep, .json = ro.json,
				     .header = strcmp(ro.input, "-") == 0 ? "'pipe'" : NULL };
	struct ud_err err = UD_ERR_INIT;
	struct ud_outfile *out = NULL;
	FILE *f = stderr;

	if (ro.output && !(out = ud_outfile_open(ro.output, &err))) {
		ud_cmd_error(&report_command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	if (out)
		f = ud_outfile_stream(out);
	if (ud_stat_replay_print(f, &p->workloads[0], &rp, &err) != 0) {
		ud_cmd_error(&report_command, "%s", err.msg);
		if (out)
			ud_outfile_abort(out);
		return UD_EXIT_RUN_FAILED;
	}
	if (out && ud_outfile_commit(out, &err) != 0) {
		ud_cmd_error(&report_command, "%s", err.msg);
		return UD_EXIT_RUN_FAILED;
	}
	return UD_EXIT_OK;
}

static int cmd_report(int argc, char **argv)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *p;
	const char *why;
	char buf[160];
	int next, status;

	ro = (struct report_opts){ .input = DEFAULT_RECORD };
	status = ud_options_cli(&report_command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	if ((why = report_conflict(NULL, buf, sizeof(buf))) ||
	    (ro.output && strcmp(ro.output, ro.input) == 0 && (why = "-i and -o name the same file: give each its own")) ||
	    (ro.output && ud_outfile_check(ro.output, &err) != 0 && (why = err.msg))) {
		ud_cmd_error(&report_command, "%s", why);
		return UD_EXIT_USAGE;
	}
	if (!(p = ud_stat_record_load(ro.input, &err))) {
		ud_cmd_error(&report_command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	if ((why = report_conflict(p->workloads[0].stat_record, buf, sizeof(buf)))) {
		ud_cmd_error(&report_command, "%s", why);
		status = UD_EXIT_USAGE;
	} else {
		status = print_report(p);
	}
	ud_profile_free(p);
	return status;
}

/* perf's way: `stat record` and `stat report` are stat's first word; `stat -- record` counts a command named so. */
int cmd_stat(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "record") == 0)
		return cmd_record(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return cmd_report(argc - 1, argv + 1);
	return ud_stat_count(argc, argv, NULL);
}
