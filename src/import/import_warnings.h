/*
 * import_warnings.h - how a parser hands back what it did not fail on
 * (struct ud_import_warnings, import.h): the library never prints, the
 * builtin does.
 */
#ifndef UD_IMPORT_WARNINGS_H
#define UD_IMPORT_WARNINGS_H

#include "import.h"

/* Appends one printf-formatted line to w (NULL: dropped).  -1 when out of memory. */
int imp_warn(struct ud_import_warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
