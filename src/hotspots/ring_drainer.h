/*
 * ring_drainer.h - a helper process that empties perf ring buffers while the
 * sampled program runs, into a file descriptor, whenever a ring is half
 * full and once more at the end.
 *
 * A process, not a thread: once a process has had a second thread, every
 * fork() it makes costs more (measured here: about 130 -> 175 us of CPU a
 * fork), which would charge fork-heavy workloads for being sampled.  It is
 * forked before the events it drains are opened, so it inherits none of
 * them and its own work is neither sampled nor counted; the events' file
 * descriptors reach it over a socket (SCM_RIGHTS).  It keeps no other
 * descriptor of its parent's.
 *
 * Ownership: ud_drainer_start() makes a drainer that ud_drainer_stop()
 * (also after a failure) reaps.
 */
#ifndef UD_RING_DRAINER_H
#define UD_RING_DRAINER_H

#include <stddef.h>
#include <sys/types.h>

#include "error.h"

struct ud_drainer {
	pid_t pid;
	int sock;
};

/* Forks the drainer, which writes what it drains to out_fd; -1 with err. */
int ud_drainer_start(struct ud_drainer *d, int out_fd, struct ud_err *err);
/* Hands it the event fds[0..n) to map (rings of pages + 1 pages each) and starts it; -1 with err. */
int ud_drainer_go(struct ud_drainer *d, const int *fds, size_t n, size_t pages, struct ud_err *err);
/* Has it drain what is left and exit, and reaps it; -1 with err when it could not map or write. */
int ud_drainer_stop(struct ud_drainer *d, struct ud_err *err);

#endif
