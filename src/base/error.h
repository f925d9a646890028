/*
 * error.h - how library modules report failure.
 *
 * Library modules never print and never exit: they fill a struct ud_err and
 * return -1 (or NULL).  The subcommand decides what the user sees and which
 * exit status follows.  The message is one line, already prefixed with the
 * file (and line:column) it concerns where there is one.
 *
 * The one convention: declare `struct ud_err err = UD_ERR_INIT;`, so a
 * message printed on a path that never failed reads "" rather than stack
 * garbage; a callee fills it with ud_fail(); a caller that knows more
 * context (the file name) adds it in front with ud_err_prefix().
 */
#ifndef UD_ERROR_H
#define UD_ERROR_H

/* Exit statuses of SPEC §1. */
enum {
	UD_EXIT_OK = 0,
	UD_EXIT_RUN_FAILED = 1,
	UD_EXIT_USAGE = 2,
	/*
	 * stat's, as perf's, which its users' scripts test: a bad option, argument
	 * or event is parse-options' 129 (usage_with_options(), tools/lib/subcmd);
	 * a command that cannot be started or an output that cannot be created
	 * 255 (cmd_stat() returning -1).
	 */
	UD_EXIT_PERF_USAGE = 129,
	UD_EXIT_PERF_FAILED = 255,
};

struct ud_err {
	char msg[512];
};

#define UD_ERR_INIT { .msg = "" }

/*
 * printf-style; always returns -1 so callers can `return ud_fail(...)`.
 * A message longer than msg keeps its start (the file it is about) and its
 * end (the reason) with "..." between: a long name in it gives way
 * visibly, never silently (issue 36).
 */
int ud_fail(struct ud_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Puts "PREFIX: " in front of the message already in err (printf-style
 * prefix), shortened in its middle as ud_fail's if it no longer fits.
 * Returns -1 too.
 */
int ud_err_prefix(struct ud_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
