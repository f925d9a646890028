/*
 * error.h - how library modules report failure.
 *
 * Library modules never print and never exit: they fill a struct ud_err and
 * return -1 (or NULL).  The subcommand decides what the user sees and which
 * exit status follows.  The message is one line, already prefixed with the
 * file (and line:column) it concerns where there is one.
 */
#ifndef UD_ERROR_H
#define UD_ERROR_H

/* Exit statuses of SPEC §1. */
enum {
	UD_EXIT_OK = 0,
	UD_EXIT_RUN_FAILED = 1,
	UD_EXIT_USAGE = 2,
};

struct ud_err {
	char msg[512];
};

/* printf-style; always returns -1 so callers can `return ud_fail(...)`. */
int ud_fail(struct ud_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
