/*
 * text.h - strings for people and terminals: trimming, numbers formatted, text made safe to show.
 */
#ifndef UD_TEXT_H
#define UD_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Writes text to out with no line wider than width characters (UTF-8
 * characters, each one column) but where a word alone is wider: a longer
 * line breaks at its last space that fits, and goes on under the start of
 * its last column where it is a table row (columns two spaces or more
 * apart, the last starting within the width's first two thirds), else at
 * the margin for a paragraph there, else under its own indentation plus two
 * (a bullet's text, a "key: value" line).
 */
void ud_text_fit(const char *text, size_t width, FILE *out);

/* Strips leading and trailing white space in place; returns the new start.  The start points into s (the caller's). */
char *ud_trim(char *s);

/*
 * The one rule for a number a person reads, in every text, Markdown and
 * HTML report: "n/a" when not finite; from 1,000 up, whole with thousands
 * grouped ("5,362", "48,746,027"), from 10^12 with an SI suffix, tera to
 * quetta ("4.87T", "1Q"); below, three significant digits in plain decimals
 * ("91.1", "0.843", "0.0000326").  Only past SI's last prefix (10^33) and
 * below 10^-18, where plain digits would be more than a person counts, an
 * exponent ("1e+40", "4.94e-324"); 0 and -0 read "0".  Returns buf.
 * buf is owned by the caller.
 */
const char *ud_format_human(double v, char *buf, size_t len);
/*
 * A ratio a person reads ("1.43" before its "x"), by the same rule: three
 * significant digits below 1,000 ("0.979", "12.3"), from there as
 * ud_format_human ("1,222", "4.87T", "1e+40").  A speedup's words
 * (ud_speedup_words) and the reports' ratio cells go through here, so one
 * ratio reads the same in both.  Returns buf (UD_NUMBER_MAX bytes suffice).
 * buf is owned by the caller.
 */
const char *ud_format_ratio(double v, char *buf, size_t len);
/* Room for any number ud_format_human or ud_format_ratio writes: "-1.8e+308", "-999,999,999,999". */
#define UD_NUMBER_MAX 32
/*
 * The one rule for a ratio in a sentence or a cell: ud_format_ratio's
 * number and its "x" ("1.33x", "1,222x", "1e+40x"), "n/a" when not finite
 * (never "infx").  No other code prints a ratio through "%.3g" and an "x"
 * (tests/structure.py), so one ratio reads the same everywhere.  Returns buf
 * (UD_RATIO_MAX bytes suffice).  buf is owned by the caller.
 */
const char *ud_format_ratio_x(double v, char *buf, size_t len);
#define UD_RATIO_MAX (UD_NUMBER_MAX + 1)
/* ud_format_ratio_x into a buffer that lives to the end of the enclosing block: a printf argument for "%s". */
#define UD_RATIO_X(v) ud_format_ratio_x((v), (char[UD_RATIO_MAX]){ "" }, UD_RATIO_MAX)

/*
 * Sentences of the length they need: a workload, event or host name is as
 * long as its user made it, so no sentence that holds one is built in a
 * fixed-size array, where it would be cut (or cut a whole table row).
 * ud_printf_new() returns printf's text in a new string: caller owns
 * (free()), NULL when out of memory.  ud_append() adds printf's text to the
 * end of *s (NULL reads ""), reallocating it: false when out of memory, *s
 * then unchanged.  ud_replace() frees *s and sets it to printf's text (NULL
 * when out of memory, and then returns false).
 */
char *ud_printf_new(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *ud_vprintf_new(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
bool ud_append(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool ud_replace(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Nanoseconds in the unit that reads best: "344 ns", "1.35 µs", "2.1 ms", "3 s"; "n/a" when not finite. */
void ud_format_ns(double ns, char *buf, size_t len);

/*
 * Text for a terminal from untrusted input (spec names, cpuinfo model names,
 * event tables, -e names, profile labels, symbol names, host names): every
 * control character but tab (C0, DEL, C1 encoded in UTF-8) and every
 * format character (Unicode's Cf: the bidirectional controls, zero-width
 * spaces and joiners, the soft hyphen, the BOM, tags) or line separator
 * (U+2028-9) written byte by byte as \xHH, so that an escape sequence is
 * shown rather than obeyed, text is never reordered on screen and no name
 * looks like another.  The one owner of that rule for every output: the report
 * escapers (template.h) and the JSON writer (json_emit.h) apply it through
 * ud_control_len().
 *
 * ud_visible() returns s itself when it needs no escaping, else buf holding
 * the escaped form (cut at a whole escape when len is short).
 * Either is borrowed: s and buf stay the caller's.
 */
const char *ud_visible(const char *s, char *buf, size_t len);
/* ud_visible()'s form of s whole, in a new string (4 bytes a byte at most) the caller frees; NULL out of memory. */
char *ud_visible_new(const char *s);
/* The bytes of the character at s that the rule above escapes, 0 when it is shown as it is (or s is at its end). */
size_t ud_control_len(const char *s);
void ud_fputs_visible(FILE *f, const char *s);

/*
 * The bytes of the UTF-8 character at s (at most n bytes there): 1 to 4,
 * or 0 where s starts no valid one (a Latin-1 byte in a pasted command
 * line, a cut sequence, an overlong form, a surrogate, past U+10FFFF).
 */
size_t ud_utf8_len(const char *s, size_t n);
/* U+FFFD, the replacement character, in UTF-8: what an invalid byte becomes. */
#define UD_UTF8_REPLACEMENT "\xef\xbf\xbd"
/* Whether s is UTF-8 throughout. */
bool ud_utf8_valid(const char *s);
/*
 * A copy of s with every byte that starts no valid UTF-8 character
 * replaced by U+FFFD, so that every document written is valid UTF-8 (the
 * caller frees it); NULL when out of memory.
 */
char *ud_utf8_valid_copy(const char *s);
/* The same for a whole report built in memory: its line breaks are kept. */
void ud_fputs_visible_lines(FILE *f, const char *text);
/* A size in KB (1024 bytes) in the unit that reads best: "48 KB", "1 MB", "1.5 MB", "32 MB"; "n/a" when not finite. */
void ud_format_kb(double kb, char *buf, size_t len);

/*
 * v through the one-double printf format fmt ("%.3g", "%.0f%%"), or "n/a"
 * when v is not finite: a value that cannot be computed never reads "nan" or
 * "inf" in a sentence.  Returns buf.
 * buf is owned by the caller; "n/a" is static.
 */
const char *ud_format_num(const char *fmt, double v, char *buf, size_t len)
	__attribute__((format(printf, 1, 0)));

/*
 * The candidate nearest to word, for "did you mean" (git's and perf's
 * habit): by edit distance with transpositions, case ignored, at most one
 * edit in three letters of word (so "sycall" finds "syscall" and "stats"
 * finds "stat", while "x" finds nothing).  Returns a borrowed candidate, or
 * NULL when none is that close or two are equally close ("zen9" is as near
 * zen1 as zen5: naming one would mislead).
 */
const char *ud_closest(const char *word, const char *const *candidates, size_t n);

/*
 * Makes s valid UTF-8 in place, as JSON needs every string to be: a byte
 * that starts no valid sequence becomes '?', and a sequence cut short at the
 * end (a fixed-size copy of a program's output) is cut off.  Text from
 * programs and error messages goes through it before it reaches a profile.
 */
void ud_utf8_sanitize(char *s);

/*
 * The length of the valid UTF-8 sequence at s, 0 if none starts there, by
 * jansson's rules: no overlong form, surrogate or code point past U+10FFFF.
 * Reads no further than the first byte that cannot continue it (a NUL ends it).
 */
size_t ud_utf8_sequence(const unsigned char *s);

#endif
