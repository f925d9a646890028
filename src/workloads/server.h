/*
 * server.h - what the server workloads (redis.c, http_gateway.c) share: a
 * free loopback port, a client's output read to its end, why a server
 * stopped, a server stopped.
 */
#ifndef UD_SERVER_H
#define UD_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"

/* A port free on 127.0.0.1 now, as the kernel picks one for port 0; -1 with err. */
int ud_loopback_free_port(struct ud_err *err);

/* Reads fd until its writer closes it, keeping the first cap - 1 bytes in out, NUL-terminated. */
void ud_read_capped(int fd, char *out, size_t cap);

/*
 * Kills and reaps a server this process started (pid > 0), at once: the
 * server workloads keep nothing (no persistence, fixed answers), so SIGKILL
 * loses nothing and cannot be caught and ignored.
 */
void ud_server_kill(pid_t pid);

/* A child's wait status as one number: its exit code, or 128 + the signal that ended it. */
int ud_exit_code(int status);

/*
 * The last line of a server's log at path, where it says why it stopped
 * ("" when there is none), into buf; whether the log's end holds what.
 */
bool ud_log_tail(const char *path, const char *what, char *buf, size_t len);

#endif
