/*
 * guard.h - a workload's private folders are removed even when uarchdiff is
 * killed with SIGKILL.
 *
 * A SIGKILL runs no handler, so the runner cannot clean up after it.  The
 * guard is a small process forked once, in a session of its own (a signal
 * to uarchdiff's process group, as `timeout -k` sends, does not reach it),
 * that holds the read end of a pipe.  The runner tells it each folder it
 * makes and each it has removed; when the pipe closes (uarchdiff has exited,
 * however) the guard removes the folders still listed and exits.  Forked
 * children of uarchdiff must call ud_guard_forget(), so that their copy of
 * the pipe does not keep it open after uarchdiff is gone; exec closes it.
 *
 * Process-wide state, as the subreaper (launch.h) is.  Without a guard
 * (ud_guard_start() failed) the calls below do nothing, and only a SIGKILL
 * leaves the folders, as before there was one.
 */
#ifndef UD_GUARD_H
#define UD_GUARD_H

#include "error.h"

/* Starts the guard unless it runs; 0, or -1 with err (fork, pipe). */
int ud_guard_start(struct ud_err *err);
/* The folder dir (absolute) is to be removed should this process die before ud_guard_remove(dir). */
void ud_guard_add(const char *dir);
/* Removes dir and everything in it (links not followed), and the guard forgets it. */
void ud_guard_remove(const char *dir);
/* In a forked child that does not exec: closes the child's copy of the pipe. */
void ud_guard_forget(void);

#endif
