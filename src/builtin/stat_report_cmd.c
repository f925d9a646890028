/*
 * uarchdiff stat report [-i FILE] [-x SEP | -j] [-o FILE]
 *                       [-A | --per-core | --per-die | --per-socket | --per-node | --per-thread]
 *
 * perf stat report.  It prints what `stat record` (stat_record_cmd.c) kept
 * again through stat's formatter (stat_replay.h), its header naming the
 * recording command line, or 'pipe' for a record read from stdin, as
 * perf's does.
 */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "outfile.h"
#include "stat_record_cmd.h"
#include "stat_replay.h"

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

int ud_stat_report_cmd(int argc, char **argv)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *p;
	const char *why;
	char buf[160];
	int next, status;

	ro = (struct report_opts){ .input = UD_STAT_DEFAULT_RECORD };
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
