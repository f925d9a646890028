/*
 * fileio.h - reading a whole file into memory, the one way uarchdiff does it.
 *
 * Profiles, templates, perf pastes and logs are parsed from one buffer: the
 * parsers (jansson's json_loadb, the importers' line readers) want the text
 * in one piece, and reading it in large blocks costs far less than a stdio
 * call per character.
 */
#ifndef UD_FILEIO_H
#define UD_FILEIO_H

#include <stddef.h>

#include "error.h"

/*
 * Reads path whole.  Returns a NUL-terminated buffer the caller frees, its
 * length (without the NUL) in *len (may be NULL); NULL with err set to
 * "PATH: reason" when it cannot.  Binary data is kept as is: the buffer may
 * hold NULs before the end.
 */
char *ud_read_file(const char *path, size_t *len, struct ud_err *err);

/* Writes all of buf to fd, again after EINTR and short writes; 0, or the errno of the failure. */
int ud_write_all(int fd, const void *buf, size_t n);

#endif
