/*
 * topdown_json.h - a workload's top-down records in the profile's JSON
 * (SPEC §5.2): "topdown" for a host's one record, "topdown_per_pmu":
 * {PMU: record} for a hybrid host's core types.  A record:
 *
 *   {"method": "slots" | "cycle-accounting", "level": 1 | 2,
 *    "source": "counted" | "perf-metrics" | "perf-topdown-events",
 *    "retiring", "bad_speculation", "frontend_bound", "backend_bound",
 *    ["smt_contention"], "residual", "raw_sum", ["level2": {bucket: ..}],
 *    ["estimate": why the counts were scaled], ["reasons": {bucket or "residual": why it is null}]}
 *
 * fractions 0..1 or null.
 */
#ifndef UD_TOPDOWN_JSON_H
#define UD_TOPDOWN_JSON_H

#include "error.h"
#include "json_doc.h"
#include "json_emit.h"
#include "profile.h"
#include "topdown.h"

/* One record as member key of what is open in jw. */
void ud_topdown_emit(struct ud_jw *jw, const char *key, const struct ud_topdown *t);
/* The workload's records, as "topdown" or "topdown_per_pmu"; nothing when it has none. */
void ud_topdown_emit_workload(struct ud_jw *jw, const struct ud_workload *w);
/*
 * Reads workload object j's "topdown" or "topdown_per_pmu" into w, every
 * field checked: 0, or -1 with err "WHERE.topdown.KEY: what".
 */
int ud_topdown_from_doc(struct ud_jv j, const char *where, struct ud_workload *w, struct ud_err *err);

#endif
