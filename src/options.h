/*
 * options.h - the subcommands' option parsing, table-driven as git's
 * parse-options: each command describes its options once, and the same
 * table parses them (getopt_long underneath), checks their ranges, and
 * prints the usage, so limits, wording and help cannot drift apart.
 *
 * Errors read "uarchdiff CMD: ..." on one line, exit status 2, an unknown
 * long option with the nearest known one ("did you mean '--label'?").
 * Parsing stops at the first operand ('+' semantics), so `stat -- CMD -x`
 * leaves the command's own options alone, unless the command takes options
 * anywhere (permute: `diff a.json b.json -f html`, as git and perf
 * accept); "--" ends the options either way.  -h/--help is added to every
 * table.
 *
 * This is the command layer: ud_options_parse() prints nothing (tests call
 * it), ud_options_cli() prints usage and errors for the builtins.
 *
 * Tables are written with the row macros below (UD_FLAG_OPTION ...), never
 * as bare initialisers, because the rows are type-checked: each macro puts
 * its destination through _Generic with the one pointer type its kind
 * writes, so `&args.count` (an int *) given to UD_LONG_OPTION (which
 * writes a long) does not compile ("'_Generic' selector of type 'int *' is
 * not compatible with any association").  _Generic, not the conditional
 * `1 ? (dest) : (long *)0`: gcc 12 and clang 14 only warn about that one's
 * pointer mismatch, an error only under -Werror.  tests/options-typecheck.sh
 * (ctest options_typecheck) proves the refusal for every kind.
 */
#ifndef UD_OPTIONS_H
#define UD_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

/* The one limit on repetitions (-r) for every command that repeats. */
#define UD_REPEAT_MAX 1000

enum ud_opt_kind {
	UD_OPT_FLAG,   /* dest: bool *, set to true */
	UD_OPT_STRING, /* dest: const char **, pointing into argv */
	UD_OPT_LONG,   /* dest: long *, a whole number in [min, max] */
	UD_OPT_LIST,   /* dest: char **, repeatable: the arguments joined by ','; the caller frees */
	UD_OPT_PARSE,  /* dest: whatever parse() fills; parse() words its own error */
	UD_OPT_COUNT,  /* dest: int *, one more each time it is given ("-d -d", "-dd") */
	UD_OPT_CLEAR,  /* dest: bool *, set to false: a flag's "--no-" form (perf's --no-big-num, --no-scale) */
	/*
	 * Another tool's option this command understands and will not do: given
	 * (with or without an argument), parsing fails with help as the reason
	 * ("--iostat: needs Intel Xeon's IIO uncore PMUs ..."), not "unknown
	 * option", so that a perf user learns why and what to use instead.
	 */
	UD_OPT_REFUSED,
};

struct ud_option {
	char short_name;      /* 0: long only */
	const char *long_name;
	enum ud_opt_kind kind;
	void *dest;
	const char *arg_name; /* "N", "FILE" in the usage; NULL for flags */
	const char *help;     /* may span lines with '\n'; NULL: left out of --help (an alias, a refusal's row) */
	long min, max;        /* UD_OPT_LONG's range */
	int (*parse)(const char *arg, void *dest, struct ud_err *err);
	const char *refusal;  /* UD_OPT_REFUSED's reason */
};

struct ud_command {
	const char *name;        /* "stat"; NULL for uarchdiff itself */
	const char *synopsis;    /* after "usage: ", may span lines */
	const char *description; /* before the options; NULL for none */
	const char *epilogue;    /* after them; NULL for none */
	const struct ud_option *options;
	size_t noptions;
	bool operands;           /* whether it takes arguments beyond its options */
	bool permute;            /* options may come after operands (every command but one that runs a command line) */
	int usage_status;        /* the exit status of bad usage; 0: UD_EXIT_USAGE (stat: perf's 129) */
};

/*
 * dest when it is a pointer of exactly type, else a compile error: the rows'
 * check, for a parse() whose destination's type is known where the row is
 * written (UD_REPORT_FORMAT_OPTION, report.h).
 */
#define UD_OPTION_DEST(dest, type) _Generic((dest), type: (dest))

/* The fields every kind has, named; the kinds' macros below add their own. */
#define UD_OPTION_ROW_(s, l, k, d, a, h) \
	.short_name = (s), .long_name = (l), .kind = (k), .dest = (d), .arg_name = (a), .help = (h)

/* The rows: s the short name (0: long only), l the long one, arg the usage's "N", "FILE". */
#define UD_FLAG_OPTION(s, l, dest, help) \
	{ UD_OPTION_ROW_(s, l, UD_OPT_FLAG, UD_OPTION_DEST(dest, bool *), NULL, help) }
#define UD_COUNT_OPTION(s, l, dest, help) \
	{ UD_OPTION_ROW_(s, l, UD_OPT_COUNT, UD_OPTION_DEST(dest, int *), NULL, help) }
#define UD_STRING_OPTION(s, l, dest, arg, help) \
	{ UD_OPTION_ROW_(s, l, UD_OPT_STRING, UD_OPTION_DEST(dest, const char **), arg, help) }
#define UD_LIST_OPTION(s, l, dest, arg, help) \
	{ UD_OPTION_ROW_(s, l, UD_OPT_LIST, UD_OPTION_DEST(dest, char **), arg, help) }
#define UD_CLEAR_OPTION(s, l, dest, help) \
	{ UD_OPTION_ROW_(s, l, UD_OPT_CLEAR, UD_OPTION_DEST(dest, bool *), NULL, help) }
/* Not in --help: another spelling of a flag the table lists (perf's --json-output for -j). */
#define UD_ALIAS_FLAG_OPTION(s, l, dest) \
	{ UD_OPTION_ROW_(s, l, UD_OPT_FLAG, UD_OPTION_DEST(dest, bool *), NULL, NULL) }
/* Refused with why; arg: the argument it takes ("N"), NULL for one it may take or not (--iostat[=X]). */
#define UD_REFUSED_OPTION(s, l, arg, why) \
	{ UD_OPTION_ROW_(s, l, UD_OPT_REFUSED, NULL, arg, NULL), .refusal = (why) }
/* A whole number in [lo, hi]. */
#define UD_LONG_OPTION(s, l, dest, arg, help, lo, hi) \
	{ UD_OPTION_ROW_(s, l, UD_OPT_LONG, UD_OPTION_DEST(dest, long *), arg, help), .min = (lo), .max = (hi) }
/* dest stays void *: its type is parse()'s to know; fn is held to parse's type. */
#define UD_PARSE_OPTION(s, l, dest, arg, help, fn)           \
	{ UD_OPTION_ROW_(s, l, UD_OPT_PARSE, (dest), arg, help), \
	  .parse = _Generic((fn), int (*)(const char *, void *, struct ud_err *): (fn)) }

#define UD_OPTIONS(cmd_options) (cmd_options), (sizeof(cmd_options) / sizeof((cmd_options)[0]))

enum ud_opt_result { UD_OPT_OK, UD_OPT_HELP, UD_OPT_ERROR };

/*
 * Parses argv[1..argc) (argv[0] is the command's name) into the table's
 * destinations.  On UD_OPT_OK, *next is the index of the first operand (argc
 * when none); UD_OPT_ERROR fills err with the message, without the
 * "uarchdiff CMD: " prefix.  Resets getopt's state, so it can run again.
 */
enum ud_opt_result ud_options_parse(const struct ud_command *cmd, int argc, char **argv, int *next,
				    struct ud_err *err);

/* The usage, description, options and epilogue, as --help prints them. */
void ud_options_usage(const struct ud_command *cmd, FILE *f);

/*
 * For builtins: parses, prints the usage on stdout for --help or the error
 * on stderr.  Returns UD_OPT_GO_ON to carry on, else the exit status to
 * return (UD_EXIT_OK after --help, the command's usage status after an error).
 */
#define UD_OPT_GO_ON (-1)
int ud_options_cli(const struct ud_command *cmd, int argc, char **argv, int *next);

/* Flushes stdout: UD_EXIT_OK, or UD_EXIT_RUN_FAILED with the failure reported (a full disk, a closed pipe). */
int ud_stdout_status(const struct ud_command *cmd);

/*
 * Before any command: a standard stream that is closed (`2>&-`) is opened
 * read-only on /dev/null, so that no file the command opens takes its
 * number and receives its messages, and writing to it still fails (EBADF)
 * as it would have.
 */
void ud_streams_guard(void);
/*
 * After the command named name (NULL: uarchdiff itself), the exit status
 * given the streams: stdout flushed, and a write to stdout or stderr that
 * failed (a full disk, a closed stream) turns UD_EXIT_OK into
 * UD_EXIT_RUN_FAILED, stdout's reported on one line unless
 * ud_stdout_status() did, stderr's silently (it is what failed).
 */
int ud_streams_status(const char *name, int status);

/* Prints "uarchdiff CMD: message" on stderr: the one form of a command's error. */
void ud_cmd_error(const struct ud_command *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * The width text output fits: COLUMNS where it is a positive whole number,
 * else the terminal's (TIOCGWINSZ) where stdout is one, else
 * UD_REPORT_WIDTH (report.h): what a pipe or a file gets.
 */
size_t ud_cli_width(void);
/*
 * A listing (workloads, events, host) as a terminal reads it: its control
 * characters shown (text.h's rule), its lines fitted to ud_cli_width() by
 * ud_text_fit(), so that a long description or fact wraps under its column
 * rather than past the edge.  Text was built in memory (open_memstream).
 */
void ud_cli_print_fitted(const char *text);

#endif
