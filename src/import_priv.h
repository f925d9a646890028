/*
 * import_priv.h - what the import parsers share: the line reader, the number
 * scanner, event-name normalisation, and the accumulator that sums per-CPU
 * and interval rows into one workload.  Internal to src/import*.c.
 */
#ifndef UD_IMPORT_PRIV_H
#define UD_IMPORT_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "import.h"

/* The largest count a 64-bit counter can hold, and below it what a double keeps exactly. */
#define IMPORT_EXACT_MAX 9007199254740992.0 /* 2^53 */

/* ---- lines ---- */

struct lines {
	const char *text, *end, *cur;
	int lineno;
	char *buf;         /* the current line, NUL-terminated, owned */
	size_t cap;
};

void lines_init(struct lines *l, const char *text, size_t len);
/* Next line without its newline (and without a trailing \r); NULL at the end. */
char *lines_next(struct lines *l);
void lines_free(struct lines *l);

/* ---- numbers ---- */

/* A printed decimal: mant x 10^-frac, kept exact until scaled. */
struct decimal {
	uint64_t mant;
	int frac;
};

/*
 * Scans a number as perf prints it in any locale at s: thousands separators
 * ',', '.', ' ', '\'' and the UTF-8 no-break spaces, and one decimal
 * separator ('.' or ','), told apart by position and group lengths.  Sets
 * *end past it.  Returns 1 when a number was read, 0 when s does not start
 * with one, -1 when it is too large for a 64-bit counter or malformed (err
 * set, without a file prefix).
 */
int scan_decimal(const char *s, const char **end, struct decimal *d, struct ud_err *err);
/* d x 10^pow10 as the nearest double; exact for integers below 2^53. */
double decimal_value(struct decimal d, int pow10);
/* A whole string as a number x 10^pow10 (surrounding spaces allowed); -1 with err if it is not one. */
int parse_number_str(const char *s, int pow10, double *value, struct ud_err *err);

/*
 * A counter value as perf writes it in CSV and JSON: "<not supported>",
 * "<not counted>", or the whole field a number (msec scaled to nanoseconds).
 * Returns 1 with *status and *value, 0 when the field is not a number, -1
 * with err (no file prefix) when it is too large or malformed.
 */
int parse_counter_value(const char *field, const char *unit, enum ud_count_status *status, double *value,
			struct ud_err *err);

/* ---- event names ---- */

/*
 * perf's spelling of an event as a generic name where it means the same:
 * aliases (cpu-cycles), PMU prefixes (cpu_core/cycles/, armv8_pmuv3_0/cpu_cycles/),
 * host/guest modifiers (:HG).  Modifiers that change the meaning (:u, :k)
 * stay.  Writes into out.
 */
void normalize_event(const char *in, char *out, size_t len);

/* ---- the accumulator ---- */

struct acc_counter {
	char name[96];
	char printed[96];        /* the first spelling seen, to skip normalising repeats */
	enum ud_count_status status;
	double value;            /* sum over rows */
	double pct_sum;          /* running percentages, averaged over rows */
	int pct_rows;
	double rel_stddev;       /* from "( +- x% )"; NAN if none */
	int rows;
};

struct acc_score {
	double value;
	char units[32];
};

struct acc {
	struct acc_counter *c;
	size_t n, cap;
	char *command;
	int runs;
	double elapsed_ns, user_ns, sys_ns;
	struct acc_score *scores;
	size_t nscores;
	int last;                /* index of the counter a continuation line refers to; -1 none */
};

void acc_init(struct acc *a);
void acc_free(struct acc *a);
bool acc_empty(const struct acc *a);
/* Adds a row; status other than counted ignores value.  pct NAN when none. */
int acc_add(struct acc *a, const char *event, enum ud_count_status status, double value, double pct,
	    double rel_stddev);
int acc_add_score(struct acc *a, double value, const char *units);
/* "COUNT|value|...|units": UnixBench's result line.  1 taken, 0 not one, -1 malformed. */
int acc_take_count_line(struct acc *a, const char *line, struct ud_err *err);
/* Appends the workload to p, named by o->workload, the command or fallback. */
int acc_to_workload(struct acc *a, struct ud_profile *p, const struct ud_import_opts *o, const char *fallback,
		    struct ud_err *err);

/*
 * The loop of a one-row-a-line format (CSV, JSON lines): blank and '#'
 * lines skipped, UnixBench COUNT lines taken as scores, every other line
 * given to row(), which returns 1 for a counter row, 0 for a line that is
 * not one (program output), -1 with err set.  what names the rows in the
 * "none found" message.  One workload results.
 */
typedef int (*import_row_fn)(struct acc *a, char *line, void *ctx, const char *name, int lineno,
			     struct ud_err *err);
int import_rows(struct ud_profile *p, const char *text, size_t len, const char *name,
		const struct ud_import_opts *o, import_row_fn row, void *ctx, const char *what, struct ud_err *err);

/* ---- the parsers ---- */

int import_perf_text(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err);
int import_perf_csv(struct ud_profile *p, const char *text, size_t len, const char *name,
		    const struct ud_import_opts *o, struct ud_err *err);
int import_perf_json(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err);
int import_unixbench(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err);

#endif
