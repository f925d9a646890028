/*
 * import_number.h - numbers as perf prints them in any locale, and perf's
 * counter-value fields.
 *
 * perf formats counts with the locale of the machine it ran on (1,234,567
 * in en_US, 1.234.567 in de_DE, 1 234 567 with no-break spaces in fr_FR),
 * and a paste keeps that spelling wherever it is read.  These functions read
 * every such spelling the same way, whatever the locale of this process.
 * Errors carry no file prefix: the caller knows the file and line.
 */
#ifndef UD_IMPORT_NUMBER_H
#define UD_IMPORT_NUMBER_H

#include <stddef.h>
#include <stdint.h>

#include "count_status.h"
#include "error.h"

/* The largest count a 64-bit counter can hold, and below it what a double keeps exactly. */
#define IMPORT_EXACT_MAX 9007199254740992.0 /* 2^53 */

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
 * set; err may be NULL where the reason is not wanted).
 */
int imp_scan_decimal(const char *s, const char **end, struct decimal *d, struct ud_err *err);
/*
 * The same, where a number the marks alone leave ambiguous (12.866, 987,123:
 * one mark before three digits) takes decimal ('.' or ',') as its decimal
 * mark; 0 reads it as grouping, as imp_scan_decimal() does.
 */
int imp_scan_decimal_as(const char *s, const char **end, struct decimal *d, char decimal, struct ud_err *err);

/*
 * Votes for the decimal mark of a block of perf output, from every number
 * a line holds where its marks decide (1,234.5  0,998  85.70%  1.234.567):
 * perf prints a whole block in one locale, so these decide the ambiguous
 * ones (12.866 +- 0.212 seconds) too.
 */
struct decimal_votes {
	unsigned dot, comma;
};

void imp_decimal_votes_add(struct decimal_votes *v, const char *line);
/* '.', ',' or 0 when no number decided. */
char imp_decimal_votes_mark(const struct decimal_votes *v);
/* d x 10^pow10 as the nearest double; exact for integers below 2^53. */
double imp_decimal_value(struct decimal d, int pow10);
/*
 * A number as C's printf("%.2f") writes it (redis-benchmark, wrk): digits
 * with at most one '.', no grouping, sign or exponent, at s; *end past it.
 * 1 when read, 0 when s does not start with a digit, -1 with err when it has
 * more than IMPORT_PLAIN_DIGITS digits before the point (err names it).
 */
int imp_plain_number(const char *s, const char **end, double *value, struct ud_err *err);
/*
 * Integer digits a rate or count of these tools may have: 15 keeps every
 * such value exact in a double, and is a thousand times past a billion
 * requests a second; more is a damaged line, not a measurement.
 */
#define IMPORT_PLAIN_DIGITS 15
/* A whole string as a number x 10^pow10 (surrounding spaces allowed); -1 with err if it is not one. */
int imp_parse_number_str(const char *s, int pow10, double *value, struct ud_err *err);

/*
 * A whole number field of perf -x or -j (a metric value: "3.998" GHz is
 * 3.998, where imp_parse_number_str() would read a grouping mark) x 10^pow10:
 * its one '.' or ',' is the decimal mark.  -1 with err if it is not one.
 */
int imp_parse_field_number(const char *field, int pow10, double *value, struct ud_err *err);

/*
 * A counter value as perf writes it in CSV and JSON: "<not supported>",
 * "<not counted>", or the whole field a number (msec scaled to nanoseconds);
 * its one '.' or ',', where it has one, is the decimal mark, as perf prints
 * no grouping in these forms.
 * Returns 1 with *status and *value, 0 when the field is not a number, -1
 * with err when it is too large or malformed.
 */
int imp_parse_counter_value(const char *field, const char *unit, enum ud_count_status *status, double *value,
			struct ud_err *err);

/*
 * Whether the n bytes at s are an aggregation's name as perf stat's
 * --per-socket, --per-die, --per-core, --per-cache and --per-node print it
 * first on a row ("S0", "S0-D0", "S0-D0-C1", "S0-D0-L2-ID3", "N0"); a
 * count of its CPUs follows it.
 */
bool imp_is_aggregation_id(const char *s, size_t n);

/*
 * The length of the interval timestamp perf prints at the start of s
 * ("12.001234567": digits, '.', nine digits), 0 where s does not start
 * with one.  Asked of every row of an interval paste, text and CSV alike.
 */
size_t imp_timestamp_len(const char *s);

#endif
