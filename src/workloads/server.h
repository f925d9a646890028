/*
 * server.h - what the server workloads (redis.c, http_gateway.c) share: a
 * free loopback port, the load client run to its end, why a server
 * stopped, a server stopped.
 */
#ifndef UD_SERVER_H
#define UD_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "error.h"

/* A port free on 127.0.0.1 now, as the kernel picks one for port 0; -1 with err. */
int ud_loopback_free_port(struct ud_err *err);

/* What a client prints (redis-benchmark --csv, wrk's report), with room to spare; past it the rest is dropped. */
#define UD_CLIENT_OUTPUT_MAX 65536

/*
 * Runs the load client bin (argv, named name in messages) to its end, its
 * standard input /dev/null, its standard output and error read into *out (a
 * new buffer the caller frees, NUL-terminated, the first
 * UD_CLIENT_OUTPUT_MAX - 1 bytes kept) and its CPU time into *ru.  It dies
 * with this process.  0 when it exited 0; -1 with err when it could not
 * run or failed, saying how and with the start of what it printed (*out
 * then NULL).
 */
int ud_client_run(const char *name, const char *bin, char *const argv[], char **out, struct rusage *ru,
		  struct ud_err *err);

/*
 * Kills and reaps a server this process started (pid > 0), at once: the
 * server workloads keep nothing (no persistence, fixed answers), so SIGKILL
 * loses nothing and cannot be caught and ignored.
 */
void ud_server_kill(pid_t pid);

/*
 * In a forked child: bin with argv, standard input /dev/null, standard
 * output and error on out, in dir where dir is not NULL; it dies with this
 * process whatever ends it, a SIGKILL included.  Never returns (126 when
 * the set-up fails, 127 when bin cannot be run).
 */
_Noreturn void ud_exec_child(const char *bin, char *const argv[], int out, const char *dir);

/* A child's wait status as one number: its exit code, or 128 + the signal that ended it. */
int ud_exit_code(int status);

/*
 * The last line of a server's log at path, where it says why it stopped
 * ("" when there is none), into buf; whether the log's end holds what.
 */
bool ud_log_tail(const char *path, const char *what, char *buf, size_t len);

#endif
