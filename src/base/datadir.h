/*
 * datadir.h - where uarchdiff finds its data: event tables, report
 * templates, workload specs and the published JSON Schemas.
 *
 * In this order: the kind's environment variable (UARCHDIFF_EVENTS_DIR,
 * UARCHDIFF_TEMPLATES_DIR, UARCHDIFF_WORKLOADS_DIR, UARCHDIFF_SCHEMAS_DIR,
 * UARCHDIFF_HELPERS_DIR)
 * when set and not empty; then PREFIX/share/uarchdiff/<kind> (helpers:
 * PREFIX/libexec/uarchdiff) where PREFIX is the folder above the one
 * holding the running binary (an installed tree, wherever it was installed
 * or moved), whenever PREFIX/share/uarchdiff exists; else the source tree
 * the build came from (helpers: the build folder), so that build/uarchdiff
 * runs uninstalled.
 */
#ifndef UD_DATADIR_H
#define UD_DATADIR_H

#include <stddef.h>

enum ud_data_kind {
	UD_DATA_EVENTS,
	UD_DATA_TEMPLATES,
	UD_DATA_WORKLOADS,
	UD_DATA_SCHEMAS,     /* the documents' JSON Schemas (schemas.h) */
	UD_DATA_HELPERS,     /* programs the workloads exec (uarchdiff-spawn) */
};

/*
 * Writes the folder for kind into buf (len bytes) and returns buf.  Looked
 * up afresh on every call, so a test may change the environment between
 * calls; nothing is cached.  buf is the caller's (borrowed for the call).
 */
const char *ud_data_dir(enum ud_data_kind kind, char *buf, size_t len);

#endif
