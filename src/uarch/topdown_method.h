/*
 * topdown_method.h - a table's top-down method (uarch.h's struct
 * ud_td_method, read from events/) applied to counter values.
 *
 * The counting engine and the tests give the values of the raw events the
 * formulas read, by the names the table gives them; out comes a
 * struct ud_topdown (topdown.h) with level 1 and 2, the residual, and a
 * null with its reason for each bucket whose events were not counted.
 * Portable: the arithmetic only, no counters opened here.
 */
#ifndef UD_TOPDOWN_METHOD_H
#define UD_TOPDOWN_METHOD_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "topdown.h"
#include "uarch.h"

/*
 * The value of raw event name (as the table's topdown-event line names
 * it): 0 with *v, or 1 when it was not counted, with why (len bytes)
 * saying so.
 */
typedef int (*ud_td_values)(void *ctx, const char *name, double *v, char *why, size_t len);

/*
 * Fills *out from m's formulas over the values; slots is #slots where the
 * method reads it from the PMU's caps/slots (NAN: not read), ignored where
 * the table gives a constant.  -1 with err for a method that has nothing to
 * compute (method none) or a formula that fails.
 */
int ud_topdown_compute(const struct ud_td_method *m, double slots, ud_td_values values, void *ctx,
		       struct ud_topdown *out, struct ud_err *err);

/*
 * A method as a table must give it: its formulas well formed, reading only
 * events and formulas it declares, without a loop; the four level-1 buckets
 * for slots, a frontend or backend one for cycle accounting; bucket names
 * from topdown.h's vocabulary at their level.  -1 with err naming the fault.
 */
int ud_topdown_method_check(const struct ud_td_method *m, struct ud_err *err);

/*
 * Which of m's events its level-1 formulas read, directly or through a
 * formula without a level (Zen's total_dispatch_slots): used[0..m->nevents).
 * These are the events a slots method needs counted together, in one group,
 * as perf counts a metric's events.  -1 with err for a formula that fails.
 */
int ud_td_level1_events(const struct ud_td_method *m, bool *used, struct ud_err *err);

/*
 * Whether -M may ask name of u (perf's stat -M, case-insensitive): the
 * metric groups TopdownL1 and, where the method goes that deep, TopdownL2
 * (AMD's PipelineL1, PipelineL2) on a core that counts slots, and any
 * bucket a method's formulas give (backend_bound, or tma_backend_bound as
 * perf's Intel tables spell it), whatever the method.  0, or -1 with err
 * saying why: no method on this table, a slot group asked of a core with
 * only cycle accounting, or an unknown name with the closest known one.
 */
int ud_td_metric_check(const struct ud_uarch *u, const char *name, struct ud_err *err);

/*
 * Whether u defines perf's top-down level (stat --td-level): 0 (perf's
 * "the deepest there is") wherever a method is, 1 and 2 where a slot
 * method goes that deep, as ud_td_metric_check() takes TopdownL1 and
 * TopdownL2.  0, or -1 with err saying why, in one line.
 */
int ud_td_level_check(const struct ud_uarch *u, long level, struct ud_err *err);
/* The event by the name a formula gives it (case-insensitive, as perf), or NULL.  Borrowed from the method. */
const struct ud_td_event *ud_td_event_find(const struct ud_td_method *m, const char *name);

/* The raw perf config of event e on u's PMU (ud_uarch_raw_config()). */
uint64_t ud_td_event_config(const struct ud_uarch *u, const struct ud_td_event *e);

#endif
