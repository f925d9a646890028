/*
 * uarchdiff stat record [stat's options] [-o FILE] [-- CMD [ARGS...]]
 *
 * perf stat record.  It counts through stat's own run (stat.c, its options
 * and all) and keeps what it printed in a uarchdiff.profile/1 document
 * (stat_record.h), FILE (perf.data, as perf's) or stdout, for `stat
 * report` (stat_report_cmd.c) to print again.
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
	struct ud_stat_recorder hooks; /* stat's run calls these, with this recording as their ctx */
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
	rc->path = *output ? *output : UD_STAT_DEFAULT_RECORD;
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

struct ud_stat_recorder *ud_stat_recorder_new(int argc, char **argv)
{
	struct recording *rc = calloc(1, sizeof(*rc));

	make_record_command();
	if (rc) {
		rc->hooks = (struct ud_stat_recorder){ &record_command, begin, interval, end, rc };
		rc->err = (struct ud_err)UD_ERR_INIT;
		rc->invocation = invocation_of(argc, argv);
		rc->kept = ud_stat_record_new();
	}
	if (!rc || !rc->invocation || !rc->kept) {
		ud_cmd_error(&record_command, "out of memory");
		ud_stat_recorder_free(rc ? &rc->hooks : NULL);
		return NULL;
	}
	return &rc->hooks;
}

void ud_stat_recorder_free(struct ud_stat_recorder *hooks)
{
	struct recording *rc = hooks ? hooks->ctx : NULL;

	if (!rc)
		return;
	ud_stat_record_free(rc->kept);
	free(rc->invocation);
	free(rc);
}
