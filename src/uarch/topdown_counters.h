/*
 * topdown_counters.h - a workload's top-down records from its counters:
 * each top-down method of the table in force evaluated (topdown_method.h)
 * over the counters the counting plan gave its events, a counter that was
 * not counted turned into its buckets' reason, and counts scaled from part
 * of the run (multiplexed) marked as an estimate.
 *
 * Portable: the counters are values in a profile workload, however they
 * were counted (measure.h plans and counts them on Linux).
 */
#ifndef UD_TOPDOWN_COUNTERS_H
#define UD_TOPDOWN_COUNTERS_H

#include "error.h"
#include "profile.h"
#include "uarch.h"


/*
 * Appends to w one record (source counted) per top-down method of u whose
 * events the plan counted (any of them among w's counters; a method none
 * of whose events was planned is left out).  slots is the PMU's caps/slots
 * where a method reads it (NAN: not read).  Returns 0, or -1 with err when
 * out of memory or a formula fails.
 */
int ud_topdown_from_counters(const struct ud_uarch *u, double slots, struct ud_workload *w, struct ud_err *err);

#endif
