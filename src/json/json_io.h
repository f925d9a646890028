/*
 * json_io.h - JSON documents in and out of files, the one way uarchdiff
 * does it.  In: the file read whole and parsed in place (jansson's stream
 * reader costs a call a byte), duplicate keys refused, errors with
 * line:column.  Out: through json_emit.h's text writer (buffered, reals
 * in their shortest form), so a document written from a tree and one
 * streamed by its module read the same.
 */
#ifndef UD_JSON_IO_H
#define UD_JSON_IO_H

#include <jansson.h>
#include <stdio.h>

#include "error.h"


/* Writes j indented by two, keys in order, then a newline; 0, or -1 when out of memory or the stream refused. */
int ud_json_write(const json_t *j, FILE *f);

#endif
