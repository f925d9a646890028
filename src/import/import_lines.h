/*
 * import_lines.h - the importers' line reader: a buffer (not necessarily
 * NUL-terminated, as ud_import_buffer() receives it) handed out one line at
 * a time, NUL-terminated and numbered for error messages.
 *
 * The lowest import module: it knows nothing of formats.
 */
#ifndef UD_IMPORT_LINES_H
#define UD_IMPORT_LINES_H

#include <stddef.h>

struct lines {
	const char *text, *end, *cur;
	int lineno;        /* of the line imp_lines_next() last returned, from 1 */
	char *buf;         /* the current line, NUL-terminated, owned */
	size_t cap;
};

void imp_lines_init(struct lines *l, const char *text, size_t len);
/*
 * Next line without its newline (and without a trailing \r, for files from
 * Windows and mail); NULL at the end, and when no memory is left for a
 * longer line (what remains is then not read).  The line may be modified by the
 * caller and stays valid until the next call.  A last line without a
 * newline is a line; an empty buffer has none.
 */
char *imp_lines_next(struct lines *l);
void imp_lines_free(struct lines *l);

#endif
