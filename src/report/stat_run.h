/*
 * stat_run.h - `uarchdiff stat`'s counting run: its options typed, the
 * counters set up from them, the command launched and counted (once, -r N
 * times, or run after run with -r 0), -I's intervals reported as they
 * come, and the totals reported in perf's layouts (stat_format.h) and kept
 * as a profile.  The command (builtin/stat.c) parses the options into
 * struct ud_stat_opts and prints what the run says through the hooks; the
 * counting itself is measure.h's.
 *
 * A report stream is library output here: -o's file (outfile.h), --log-fd's
 * descriptor, or the stream the command lends (its stderr, as perf's).
 */
#ifndef UD_STAT_RUN_H
#define UD_STAT_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "cgroups.h"
#include "events.h"
#include "profile.h"
#include "stat_format.h"
#include "targets.h"

/* stat's options, as its option table fills them (ud_stat_opts_init() first). */
struct ud_stat_opts {
	struct ud_event_request events; /* -e's arguments, comma-joined (list NULL: the defaults), and --filter's */
	char *metrics; /* comma-joined -M arguments: top-down groups or buckets, counted as --topdown */
	int detailed;
	long repeat, interval, delay, timeout;
	const char *sep, *output, *profile, *cpus, *pids, *tids, *pre, *post, *control;
	bool json, exact, hotspots, append, all_cpus, no_aggr, per_core, per_socket, per_thread, null_run, topdown, summary;
	bool verbose, scale, quiet, interval_clear, csv_summary;
	long log_fd;
	bool no_inherit, sync, all_user, all_kernel;
	long interval_count, td_level; /* td_level: -1 not given */
	bool table, metric_only, big_num, big_num_asked; /* perf's --table, --metric-only, -B and --no-big-num */
	bool perf_noop; /* perf's options that change nothing here (--no-merge: nothing is merged) */
	bool per_die, per_node;
	bool group; /* -g: every counter in one group */
	const char *for_each_cgroup; /* --for-each-cgroup's names, opened once the options are read (perf's last one wins) */
	struct ud_cgroups cgroups;   /* -G's, paired with the events as each -G comes */
};

/* The defaults, before the options are read: one run, scaled counts, perf's summary field and big numbers. */
void ud_stat_opts_init(struct ud_stat_opts *o);

/*
 * Options that exclude each other, or need another, given whether a command
 * was given and whether `stat record` keeps the run: the first conflict in
 * perf's words or uarchdiff's (a static string), else NULL.
 */
const char *ud_stat_opts_conflict(const struct ud_stat_opts *o, bool has_command, bool recording);

/* -o FILE.json without -x or -j: the profile goes there, the report to stderr. */
bool ud_stat_output_is_profile(const struct ud_stat_opts *o);

/* The target o names: -C (with -a too, as perf's -a -C), -a, -p, -t, else the command. */
enum ud_target_kind ud_stat_opts_target(const struct ud_stat_opts *o);

/* The rows o asks for: -A, --per-core, --per-socket, --per-thread, --per-die, --per-node, else the whole. */
enum ud_aggr_mode ud_stat_opts_aggr(const struct ud_stat_opts *o);

/* Frees what parsing and the run allocated in o (-e's list, -G's cgroups). */
void ud_stat_opts_free(struct ud_stat_opts *o);

/* What the command lends the run. */
struct ud_stat_hooks {
	FILE *report; /* where the report goes without -o or --log-fd: the command's stderr, as perf's */
	/* a failure, or a notice the run goes on after, for the command to print in its one error form */
	void (*say)(void *ctx, const char *msg);
	void (*control)(void *ctx, const char *msg); /* what a --control command or -D did, in perf's words */
	/* `stat record`'s: each -I interval's view (NULL: none) */
	void (*interval)(void *ctx, const struct ud_stat_view *v);
	/* `stat record`'s: the totals' view, whether printed, and the profile; 0, or -1 (said); NULL: none */
	int (*end)(void *ctx, struct ud_profile *p, const struct ud_stat_view *totals, bool printed);
	void *ctx;
};

/*
 * Counts cmd (NULL: o's target alone) as o asks and reports it, each
 * failure said through h->say: the exit status, perf's (UD_EXIT_*,
 * error.h): the command's, or the stopping signal's; UD_EXIT_PERF_USAGE
 * for an unknown event or a bad target, UD_EXIT_PERF_FAILED for a command
 * that cannot run or an output that cannot be created, UD_EXIT_RUN_FAILED
 * when the report or profile could not be written.  o's -e list gets the
 * defaults where none was given.
 */
int ud_stat_run(struct ud_stat_opts *o, char **cmd, const struct ud_stat_hooks *h);

#endif
