/*
 * import_lines.h - the importers' line reader: a buffer (not necessarily
 * NUL-terminated, as ud_import_buffer() receives it), or a file read a
 * chunk at a time, handed out one line at a time, NUL-terminated and
 * numbered for error messages.
 *
 * A file is streamed through a fixed buffer, so an import's memory does not
 * grow with the file's size: IMP_LINES_WINDOW bytes of it are always there
 * ahead of the next line (imp_lines_ahead(), for a parser that decides
 * something from what follows), and a line longer than IMP_LINE_MAX, or a
 * byte no text holds, is refused by line number rather than held.
 *
 * The lowest import module: it knows nothing of formats.
 */
#ifndef UD_IMPORT_LINES_H
#define UD_IMPORT_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/*
 * What a streamed file shows ahead of its next line: the head a format is
 * told from, and the lines a block's decimal mark is voted on.  A file
 * that fits in it is read whole, as before streaming; 4 MiB is some 40,000
 * perf stat lines, and a UnixBench log's pages of /proc/cpuinfo before its
 * banner on a 256-CPU host are well under it.
 */
#define IMP_LINES_WINDOW ((size_t)4 << 20)
/*
 * The longest line a streamed file may hold: perf prints lines of under
 * 300 bytes, and a longer one is no paste (a 1 GB line must not be held).
 */
#define IMP_LINE_MAX ((size_t)1 << 20)

struct lines {
	const char *text, *end, *cur;
	int lineno;        /* of the line imp_lines_next() last returned, from 1 */
	char *buf;         /* the current line, NUL-terminated, owned; a streamed file's buffer */
	size_t cap;
	/* streamed: the file, the buffer's unread part [at, fill), and whether the file ended */
	int fd;            /* -1: reading text */
	size_t at, fill;
	bool eof;
	bool failed;       /* a streamed file could not be read on: err says why */
	const char *name;  /* the file, in messages */
	struct ud_err *err;
};

void imp_lines_init(struct lines *l, const char *text, size_t len);
/*
 * Streams fd (the caller closes it, after imp_lines_free()) named name
 * in messages, the first skip bytes left out (a byte order mark).  Errors
 * (unreadable, binary, a line too long) go to err, and imp_lines_next()
 * returns NULL with l->failed set.  -1 with err when out of memory.
 */
int imp_lines_open(struct lines *l, int fd, size_t skip, const char *name, struct ud_err *err);
/*
 * Next line without its newline (and without a trailing \r, for files from
 * Windows and mail); NULL at the end, and when no memory is left for a
 * longer line (what remains is then not read), or a streamed file failed
 * (l->failed).  The line may be modified by the caller and stays valid
 * until the next call.  A last line without a newline is a line; an empty
 * buffer has none.
 */
char *imp_lines_next(struct lines *l);
/*
 * The text after the last line returned, as far as it is read: a streamed
 * file's is at least IMP_LINES_WINDOW bytes where the file holds that many
 * more.  Borrowed, valid until the next imp_lines_next(); *len its length.
 */
const char *imp_lines_ahead(struct lines *l, size_t *len);
void imp_lines_free(struct lines *l);
/*
 * Where a byte that no text paste holds sits (NUL, or a control character
 * other than tab, CR, form feed, vertical tab and the ESC of terminal
 * colours); len when there is none.  Such a byte means binary data was
 * pasted in, and no value next to it can be trusted.
 */
size_t imp_control_byte(const char *text, size_t len);

#endif
