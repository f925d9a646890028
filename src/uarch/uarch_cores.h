/*
 * uarch_cores.h - the cores uarchdiff knows by name but has no event table
 * for (events/cores.list, struct ud_core in uarch.h), read into the db.
 */
#ifndef UD_UARCH_CORES_H
#define UD_UARCH_CORES_H

#include "error.h"
#include "uarch.h"

/* The file's name under the event tables' folder. */
#define UD_CORES_FILE "cores.list"

/*
 * Reads dir/cores.list into db->cores; 0 where there is no such file (a
 * folder of test tables), -1 with err "path:line: reason" for a malformed
 * line.  ud_uarch_db_free() frees them.
 */
int ud_cores_load(const char *dir, struct ud_uarch_db *db, struct ud_err *err);

#endif
