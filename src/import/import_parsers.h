/*
 * import_parsers.h - the four format parsers ud_import_buffer() dispatches
 * to, one file each.  Each appends its workloads to p, or fails with err
 * naming the file and line; ud_import_buffer() removes what a failed parser
 * added.
 */
#ifndef UD_IMPORT_PARSERS_H
#define UD_IMPORT_PARSERS_H

#include <stddef.h>

#include "error.h"
#include "import.h"
#include "profile.h"

int imp_perf_text(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err);
int imp_perf_csv(struct ud_profile *p, const char *text, size_t len, const char *name,
		    const struct ud_import_opts *o, struct ud_err *err);
int imp_perf_json(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err);
/*
 * perf report --stdio: the first event's table as the hotspots of the
 * workload o->workload names, else of the command with the largest share;
 * an existing workload of that name without hotspots takes them.
 */
int imp_perf_report(struct ud_profile *p, const char *text, size_t len, const char *name,
		       const struct ud_import_opts *o, struct ud_err *err);
/* A log cut short imports what it holds, marks p incomplete and says in warn which tests are missing. */
int imp_unixbench(struct ud_profile *p, const char *text, size_t len, const char *name,
		     struct ud_import_warnings *warn, struct ud_err *err);

#endif
