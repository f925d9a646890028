/*
 * json_schema.h - a published schema whole: the schema with every schema
 * it refers to by file name folded into it, so that a validator given it
 * alone (no folder, no base URI) resolves every "$ref".
 *
 * The files refer to each other by name ("diff.schema.json#/properties/tool"),
 * which resolves only against their folder.  The bundle puts each schema
 * referred to, directly or through another, under the root's "$defs" by
 * its file name ("$defs": {"diff.schema.json": {...}}) and rewrites every
 * "$ref" to point inside the one document ("#/$defs/diff.schema.json/
 * properties/tool"), its own "#/..." references too; a folded schema keeps
 * everything but its "$schema".  No "$id" is needed, so validators that
 * know only JSON pointers within one document take it as well.
 */
#ifndef UD_JSON_SCHEMA_H
#define UD_JSON_SCHEMA_H

#include <jansson.h>

#include "error.h"
#include "schemas.h"

/* New reference: s bundled as above; NULL with err when a file does not read or names no schema of uarchdiff's. */
json_t *ud_schema_bundle(const struct ud_schema *s, struct ud_err *err);

#endif
