/*
 * import_topdown.h - an imported workload's top-down record (SPEC §5.2)
 * from what perf printed: Intel's tma_* metric rows, else its slots and
 * topdown-* events, else AMD's PipelineL1/L2 and Arm's TopdownL1 metric
 * rows.  Runs once a block's counters and metrics are in the workload.
 */
#ifndef UD_IMPORT_TOPDOWN_H
#define UD_IMPORT_TOPDOWN_H

#include "error.h"
#include "profile.h"

/*
 * Adds w's top-down records, one per core PMU on a hybrid paste ("cpu_core/"
 * names), none where perf printed nothing top-down.  -1 out of memory.
 */
int imp_topdown(struct ud_workload *w, struct ud_err *err);

#endif
