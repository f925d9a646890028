/*
 * stat_record_cmd.h - what stat.c lends `uarchdiff stat record`
 * (stat_record_cmd.c, which holds cmd_stat(): stat's first word picks
 * record, report or stat itself): record counts through stat's own run,
 * its options and all, with these hooks beside it.
 */
#ifndef UD_STAT_RECORD_CMD_H
#define UD_STAT_RECORD_CMD_H

#include <stdbool.h>

#include "options.h"
#include "profile.h"
#include "stat_format.h"

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

/* stat.c: its command (name, help, option table); borrowed. */
const struct ud_command *ud_stat_command(void);
/* stat.c: `stat` counting and reporting with recorder's hooks (NULL: none); the exit status. */
int ud_stat_count(int argc, char **argv, const struct ud_stat_recorder *recorder);

#endif
