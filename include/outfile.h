/*
 * outfile.h - output files that are never left half-written.
 *
 * A regular file (or a path that does not exist yet) is written to a
 * temporary file in the same directory and renamed over the target on commit,
 * so a reader sees the old file or the whole new one.  "-" is standard output.
 * A path that exists and is not a regular file (/dev/null, a FIFO, a
 * terminal) is opened and written directly: renaming over it would replace
 * the device node.
 *
 * Opening is done before any work starts so that an unwritable path fails
 * fast.  Ownership: the caller owns the ud_outfile and must end it with
 * exactly one of ud_outfile_commit() or ud_outfile_abort(), which free it.
 */
#ifndef UD_OUTFILE_H
#define UD_OUTFILE_H

#include <stdio.h>

#include "error.h"

struct ud_outfile;

struct ud_outfile *ud_outfile_open(const char *path, struct ud_err *err);
FILE *ud_outfile_stream(struct ud_outfile *out);
/* Flushes, renames into place; returns 0 or -1 with err (and removes the temp). */
int ud_outfile_commit(struct ud_outfile *out, struct ud_err *err);
/* Discards everything written; the target is left as it was. */
void ud_outfile_abort(struct ud_outfile *out);

#endif
