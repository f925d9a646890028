/*
 * launch.h - run a command counted from its exec, as `perf stat CMD` does,
 * and perf stat's other sessions: CPUs (-a, -C) or running tasks (-p, -t)
 * counted while a command runs or until stopped.
 *
 * The child is forked and held on a pipe while the counters are opened on
 * it (enable-on-exec, inherited by everything it forks); then it is released
 * to exec.  Counting therefore starts at the exec, not at the fork, and ends
 * when the command and its children have exited.  The command inherits
 * stdin, stdout and stderr untouched.  While it runs, SIGINT and SIGQUIT
 * are left to it (Ctrl-C reaches the whole foreground process group), so
 * that Ctrl-C stops the command and its counts are still reported; SIGTERM
 * and SIGHUP sent here are passed on to it.  Without a command, any of the
 * four ends counting, and the counts are read before returning: nothing is
 * lost to the signal, which the caller learns (ud_launch_result.stop_signal).
 */
#ifndef UD_LAUNCH_H
#define UD_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include "control.h"
#include "counting.h"
#include "sampler.h"

/* Sampling the command too (stat --hotspots): its records are appended to records_fd. */
struct ud_launch_sampling {
	const struct ud_sampler_config *config;
	int records_fd;
};

struct ud_launch_result {
	int wait_status;     /* as from wait4() */
	uint64_t elapsed_ns; /* CLOCK_MONOTONIC, release to reaping (or to the stop) */
	uint64_t user_ns;    /* wait4() rusage, the command and its reaped children */
	uint64_t sys_ns;
	bool ran_command;    /* there was a command: wait_status and the rusage times are its */
	bool timed_out;      /* the timeout ended counting (and SIGTERMed the command) */
	int stop_signal;     /* the signal that ended counting, or was passed on to the command; 0 none */
	int interrupt;       /* SIGINT or SIGQUIT seen while the command ran (left to it, as the terminal sends it too); 0 none */
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
/*
 * Kills (SIGKILL) and reaps every child of this process but those in spare,
 * and the children they orphan; async-signal-safe, so a runner child may
 * call it from the handler of its parent's death.
 */
void ud_kill_descendants(const pid_t *spare, size_t nspare);

/*
 * Called at every interval of a session with what each slot counted since
 * the one before (deltas[i * nslots + s]), at ns since counting began, over
 * length_ns.  Tool events (duration_time, user_time, system_time) are left for it to fill in.
 */
typedef void (*ud_interval_fn)(void *ctx, const struct ud_count *deltas, uint64_t at_ns, uint64_t length_ns);

/* One perf stat session: what is counted, and for how long. */
struct ud_session {
	char *const *argv;                 /* the command to run; NULL: none, count until stopped */
	const struct ud_count_slot *slots; /* where to count; NULL: the command, from its exec, with all it forks */
	size_t nslots;
	bool tasks;                        /* the slots are tasks: inherit into what they fork; with no command, counting ends once all have exited */
	uint64_t delay_ns;                 /* -D: counting starts this long after the command does */
	bool start_disabled;               /* -D -1: nothing counts until control's "enable" */
	/*
	 * --control: its commands obeyed while counting, as perf stat's: the
	 * counter groups switched off and on (ioctl on the leaders, so that
	 * time enabled stops too), one event alone by its name, and with -I an
	 * interval at each switch.  NULL none; borrowed.
	 */
	struct ud_control *control;
	void (*on_control)(void *ctx, const char *msg); /* perf's words for what a command did ("Events disabled"); NULL none */
	uint64_t timeout_ns;               /* --timeout: ends counting (SIGTERM to the command) this long after; 0 none */
	uint64_t interval_ns;              /* -I: on_interval this often; 0 none */
	/*
	 * --interval-count: counting ends after this many intervals (0: no
	 * limit), as perf's: a command is left to end and waited for, no
	 * signal sent (perf 6.1 kills only for --timeout); without one, the
	 * session ends there.
	 */
	unsigned long interval_count;
	bool no_inherit;                   /* -i: what the command or the tasks fork is not counted */
	ud_interval_fn on_interval;
	void (*on_fork)(void *ctx, pid_t pid); /* told the command's pid once forked, before the counters open; NULL none */
	void *ctx;
	const struct ud_launch_sampling *sampling; /* the command target only; NULL none */
};

/*
 * Runs a session, counting ev[0..n) into counts[i * nslots + s] (n of them
 * for the command target), tool events left for the caller.  Returns as
 * ud_launch_counted().
 */
int ud_launch_session(const struct ud_session *s, const struct ud_event *ev, size_t n, struct ud_count *counts,
		      struct ud_launch_result *res, struct ud_err *err);

/* The exit status a shell would report for a wait status: 128+signal when killed. */
int ud_exit_status(int wait_status);

#endif
