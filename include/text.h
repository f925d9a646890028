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

/* A size in KB (1024 bytes) in the unit that reads best: "48 KB", "1 MB", "1.5 MB", "32 MB"; "n/a" when not finite. */
void ud_format_kb(double kb, char *buf, size_t len);

#endif
