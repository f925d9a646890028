/*
 * uarchdiff stat [options] [-- CMD [ARGS...]]
 *
 * perf stat's command: counts a command from its exec, or CPUs (-a, -C) or
 * running tasks (-p, -t) while a command runs or until Ctrl-C or
 * --timeout, and reports in perf's layouts (stat_format.h), totals or
 * intervals (-I).  As perf does, the report goes to stderr (the command
 * owns stdout) unless -o names a file; the profile document goes to
 * --profile FILE or -o FILE.json.  The counting run is stat_run.h's; the option
 * table stat_options.c's.
 */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "options.h"
#include "stat_record_cmd.h"
#include "stat_run.h"

/* Returns UD_OPT_GO_ON with *cmd the command to run (NULL: none), else the exit status. */
static int parse_args(int argc, char **argv, const struct ud_stat_recorder *rec, struct ud_stat_opts *o, char ***cmd)
{
	const struct ud_command *command = ud_stat_command();
	const char *why;
	int next, status;

	ud_stat_opts_init(o);
	status = ud_options_cli(rec ? rec->cmd : command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	why = ud_stat_opts_conflict(o, next < argc, rec != NULL);
	if (why) {
		ud_cmd_error(command, "%s", why);
		return UD_EXIT_PERF_USAGE;
	}
	*cmd = next < argc ? argv + next : NULL;
	if (rec) {
		/* -o names the record: the report goes to stderr */
		status = rec->begin(rec->ctx, &o->output, o->append);
		if (status < 0)
			return UD_EXIT_PERF_USAGE;
		/* `stat record -o -` writes the record where the report would go: perf prints nothing then */
		o->quiet |= status > 0;
	}
	return UD_OPT_GO_ON;
}

/* The run's failures and notices, said as every message is. */
static void say(void *ctx, const char *msg)
{
	(void)ctx;
	ud_cmd_error(ud_stat_command(), "%s", msg);
}

/* What a --control command or -D did, in perf's words: on stderr, as perf's pr_info(). */
static void say_control(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s\n", msg);
}

/* `stat` counting and reporting with rec's hooks (NULL: none); the exit status. */
static int stat_count(int argc, char **argv, const struct ud_stat_recorder *rec)
{
	struct ud_stat_opts *o = ud_stat_options();
	struct ud_stat_hooks hooks = { .report = stderr, .say = say, .control = say_control };
	char **cmd = NULL;
	int status = parse_args(argc, argv, rec, o, &cmd);

	if (rec) {
		hooks.interval = rec->interval;
		hooks.end = rec->end;
		hooks.ctx = rec->ctx;
	}
	if (status == UD_OPT_GO_ON)
		status = ud_stat_run(o, cmd, &hooks);
	ud_stat_opts_free(o);
	return status;
}

/* `stat record`: stat's run, its record kept beside the report. */
static int stat_record(int argc, char **argv)
{
	struct ud_stat_recorder *rec = ud_stat_recorder_new(argc, argv);
	int status = rec ? stat_count(argc, argv, rec) : UD_EXIT_RUN_FAILED;

	ud_stat_recorder_free(rec);
	return status;
}

/* perf's way: `stat record` and `stat report` are stat's first word; `stat -- record` counts a command named so. */
int cmd_stat(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "record") == 0)
		return stat_record(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return ud_stat_report_cmd(argc - 1, argv + 1);
	return stat_count(argc, argv, NULL);
}
