/*
 * launch.h - run a command counted from its exec, as `perf stat CMD` does.
 *
 * The child is forked and held on a pipe while the counters are opened on
 * it (enable-on-exec, inherited by everything it forks); then it is released
 * to exec.  Counting therefore starts at the exec, not at the fork, and ends
 * when the command and its children have exited.  The command inherits
 * stdin, stdout and stderr untouched.  While it runs, SIGINT and SIGQUIT
 * are ignored here so that Ctrl-C stops the command and its counts are
 * still reported.
 */
#ifndef UD_LAUNCH_H
#define UD_LAUNCH_H

#include <stdint.h>

#include "counting.h"
#include "sampler.h"

struct ud_launch_result {
	int wait_status;     /* as from wait4() */
	uint64_t elapsed_ns; /* CLOCK_MONOTONIC, release to reaping */
	uint64_t user_ns;    /* wait4() rusage, the command and its reaped children */
	uint64_t sys_ns;
};

enum {
	UD_LAUNCH_OK = 0,
	UD_LAUNCH_EXEC_FAILED = -1, /* the command could not be executed: bad input */
	UD_LAUNCH_SYSTEM = -2,      /* fork, pipe or a counter read failed */
};

/*
 * Runs argv, counting ev[0..n) into counts[0..n).  Returns UD_LAUNCH_OK when
 * the command ran (whatever its exit status), else one of the failures above
 * with err set.
 */
int ud_launch_counted(char *const argv[], const struct ud_event *ev, size_t n, struct ud_count *counts,
		      struct ud_launch_result *res, struct ud_err *err);

/*
 * Makes this process a child subreaper (PR_SET_CHILD_SUBREAPER): a
 * descendant whose parent exits, even one that left the process group with
 * setsid(), becomes our child instead of init's, so that
 * ud_kill_descendants() can reach it.  A process-wide setting.
 */
int ud_adopt_orphans(struct ud_err *err);

/*
 * The children this process has now (at most max of them into pids), taken
 * before a workload starts so that ud_kill_descendants() spares them: the
 * caller's own helpers are not the workload's leftovers.
 */
size_t ud_children(pid_t *pids, size_t max);
/* Kills (SIGKILL) and reaps every child of this process but those in spare, and the children they orphan. */
void ud_kill_descendants(const pid_t *spare, size_t nspare);
/* Sampling the command too (stat --hotspots): its records are appended to records_fd. */
struct ud_launch_sampling {
	const struct ud_sampler_config *config;
	int records_fd;
};

/* ud_launch_counted(), sampling the command from its exec as well where s is not NULL. */
int ud_launch_sampled(char *const argv[], const struct ud_event *ev, size_t n, struct ud_count *counts,
		      const struct ud_launch_sampling *s, struct ud_launch_result *res, struct ud_err *err);

/* The exit status a shell would report for a wait status: 128+signal when killed. */
int ud_exit_status(int wait_status);

#endif
