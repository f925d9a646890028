/*
 * import_rows.h - the reading loop shared by the formats that print one
 * counter a line (perf stat -x CSV, -j JSON lines): the parser supplies
 * only how to read one row.
 */
#ifndef UD_IMPORT_ROWS_H
#define UD_IMPORT_ROWS_H

#include <stddef.h>

#include "error.h"
#include "import.h"
#include "import_block.h"
#include "import_lines.h"
#include "profile.h"

/*
 * Reads a row of line into a (line may be modified).  Returns 1 for a
 * counter row, 0 for a line that is not one (the program's own output), -1
 * with err set, already prefixed with name and lineno.
 */
typedef int (*import_row_fn)(struct acc *a, char *line, void *ctx, const char *name, int lineno,
			     struct ud_err *err);

/*
 * The loop: a pasted perf command line taken for its options, blank and
 * '#' lines skipped, UnixBench COUNT and TIME lines taken as scores, every
 * other line given to row(); l's lines are read to its end.  what names the rows in the "none found"
 * message.  One workload results, appended to p.
 */
int imp_rows(struct ud_profile *p, struct lines *l, const char *name, const struct ud_import_opts *o,
	     import_row_fn row, void *ctx, const char *what, struct ud_err *err);

#endif
