/*
 * stat_record_cmd.h - what stat's command files lend each other: stat.c
 * holds cmd_stat(), whose first word picks `stat record`
 * (stat_record_cmd.c), `stat report` (stat_report_cmd.c) or stat itself;
 * record counts through stat's own run, its options (stat_options.c) and
 * all, with these hooks beside it.
 */
#ifndef UD_STAT_RECORD_CMD_H
#define UD_STAT_RECORD_CMD_H

#include <stdbool.h>

#include "options.h"
#include "profile.h"
#include "stat_format.h"
#include "stat_run.h"

/* perf's default file for both record and report (tools/perf/util/data.c). */
#define UD_STAT_DEFAULT_RECORD "perf.data"

/* What `stat record` adds to stat's run. */
struct ud_stat_recorder {
	const struct ud_command *cmd; /* the table stat's run parses with: stat's rows, record's name and help */
	/*
	 * After parsing: takes -o's path for the record (*output then NULL:
	 * the report goes to stderr).  -1: refused (said), else 1 to print no
	 * report, 0 to print it.
	 */
	int (*begin)(void *ctx, const char **output, bool append);
	void (*interval)(void *ctx, const struct ud_stat_view *v);  /* each -I interval's view */
	/* The totals' view, whether printed, and the profile: the record written.  0, or -1 (said). */
	int (*end)(void *ctx, struct ud_profile *p, const struct ud_stat_view *totals, bool printed);
	void *ctx;
};

/* stat_options.c: stat's command (name, help, option table); borrowed. */
const struct ud_command *ud_stat_command(void);
/* stat_options.c: the options that table fills, static; borrowed. */
struct ud_stat_opts *ud_stat_options(void);
/*
 * stat_record_cmd.c: `uarchdiff stat record ARGS...`'s hooks for
 * stat.c's run; a new recorder, freed with ud_stat_recorder_free(), or
 * NULL (said).
 */
struct ud_stat_recorder *ud_stat_recorder_new(int argc, char **argv);
void ud_stat_recorder_free(struct ud_stat_recorder *recorder);
/* stat_report_cmd.c: `uarchdiff stat report`; the exit status. */
int ud_stat_report_cmd(int argc, char **argv);

#endif
