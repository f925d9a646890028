/*
 * selection.h - which workloads a run measures: a suite's, built-in and
 * spec, in registry order, or those named with -w in the user's order,
 * each checked to exist, to be runnable here and to be named once.
 */
#ifndef UD_SELECTION_H
#define UD_SELECTION_H

#include <stddef.h>

#include "error.h"
#include "spec.h"
#include "workload.h"

/* Told of each of a suite's workloads that cannot run here ("skipping NAME: why"), to say and go on. */
typedef void (*ud_skipped_fn)(void *arg, const char *why);

/*
 * The workloads of suite (UD_SUITE_* bits) when names is NULL, else of the
 * comma-separated names, among the built-ins and specs[0..nspecs).  Returns
 * the list (*n of them; the caller frees the array, the definitions are
 * the registry's and the specs'), or NULL with err on one line: an unknown
 * name (with the nearest one), one that cannot run here, a name twice, no
 * name at all, or out of memory.  skipped may be NULL.
 */
const struct ud_workload_def **ud_workloads_select(const char *names, unsigned suite, const struct ud_spec *specs,
						   size_t nspecs, size_t *n, ud_skipped_fn skipped, void *arg,
						   struct ud_err *err);

#endif
