/*
 * text.h - small string helpers shared by the parsers.
 */
#ifndef UD_TEXT_H
#define UD_TEXT_H

#include <stddef.h>

/* Strips leading and trailing white space in place; returns the new start. */
char *ud_trim(char *s);

/* Nanoseconds in the unit that reads best: "344 ns", "1.35 µs", "2.1 ms", "3 s"; "n/a" when not finite. */
void ud_format_ns(double ns, char *buf, size_t len);

/*
 * v through the one-double printf format fmt ("%.3g", "%.0f%%"), or "n/a"
 * when v is not finite: a value that cannot be computed never reads "nan" or
 * "inf" in a sentence.  Returns buf.
 */
const char *ud_format_num(const char *fmt, double v, char *buf, size_t len)
	__attribute__((format(printf, 1, 0)));

#endif
