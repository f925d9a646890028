/*
 * json_io.h - JSON documents in and out of files, the one way uarchdiff
 * does it.  In: the file read whole and parsed in place (jansson's stream
 * reader costs a call a byte), duplicate keys refused, errors with
 * line:column.  Out: jansson's json_dumpf() calls fwrite() once per token,
 * which costs more than the formatting on multi-megabyte diffs; this buffers.
 */
#ifndef UD_JSON_IO_H
#define UD_JSON_IO_H

#include <jansson.h>
#include <stdio.h>

#include "error.h"

/* A new reference to the document in path, or NULL with err "path:line:column: reason". */
json_t *ud_json_load_file(const char *path, struct ud_err *err);

/* Writes j with jansson's flags, then a newline; 0, or -1 when the stream refused. */
int ud_json_write(const json_t *j, size_t flags, FILE *f);

/*
 * v as a JSON number for a profile: integral values (counts, nanoseconds)
 * as integers so that they read back exactly, NAN and infinities as null.
 */
json_t *ud_json_number(double v);

#endif
