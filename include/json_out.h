/*
 * json_out.h - writing a JSON document to a stream, the one way uarchdiff
 * does it: jansson's json_dumpf() calls fwrite() once per token, which
 * costs more than the formatting on multi-megabyte diffs; this buffers.
 */
#ifndef UD_JSON_OUT_H
#define UD_JSON_OUT_H

#include <jansson.h>
#include <stdio.h>

/* Writes j with jansson's flags, then a newline; 0, or -1 when the stream refused. */
int ud_json_write(const json_t *j, size_t flags, FILE *f);

#endif
