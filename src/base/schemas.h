/*
 * schemas.h - the published JSON Schemas of the documents uarchdiff writes,
 * and where each file is.
 *
 * One draft 2020-12 file a document (schemas/NAME.schema.json), found like
 * the other data (datadir.h's UD_DATA_SCHEMAS: installed under
 * share/uarchdiff/schemas).  The schemas are the documents' contract: the
 * tests validate every document the tool writes against them
 * (tests/schemas.sh) and hold their enums to the C name tables
 * (tests/test_schemas.c).
 */
#ifndef UD_SCHEMAS_H
#define UD_SCHEMAS_H

#include <stddef.h>

#include "error.h"

struct ud_schema {
	const char *name;     /* what `uarchdiff schema NAME` takes: "profile" */
	const char *file;     /* its file in the schemas folder: "profile.schema.json" */
	const char *document; /* what it describes: the document's "schema" value, or the command that prints it */
};

/* Every schema, in the order `schema --list` prints them; *n set to their number. Static. */
const struct ud_schema *ud_schemas(size_t *n);
/*
 * The schema called name (static), or NULL with err naming the nearest
 * known name and saying where the list is.
 */
const struct ud_schema *ud_schema_named(const char *name, struct ud_err *err);
/* Writes the schema file's path into buf (len bytes) and returns buf. */
const char *ud_schema_path(const struct ud_schema *s, char *buf, size_t len);
/*
 * The schema file's text, read whole (fileio.h's checks and cap), NUL
 * terminated, its length in *len (may be NULL): owned by the caller, who
 * frees it; NULL with err naming the file (and the line and column of a
 * control byte, which JSON text never holds).
 */
char *ud_schema_read(const struct ud_schema *s, size_t *len, struct ud_err *err);

#endif
