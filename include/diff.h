/*
 * diff.h - why one host scores differently from another (SPEC §5).
 *
 * For every workload both profiles hold: the speedup, split exactly into
 * path length x IPC x frequency x utilization x unexplained (the last
 * carries whatever missing counters or inconsistent inputs leave), each
 * factor's share of ln(speedup), every derived metric side by side, the CPI
 * stack (branch, L1d, other) from each host's microarchitecture penalties,
 * whether the speedup lies outside the measured noise, and a plain
 * explanation.  Then the hosts' differing environment and rule-based
 * findings with their evidence.
 *
 * The result is the uarchdiff.diff/1 JSON document itself: reports render
 * from it, `diff -f json` prints it.  No NaN or infinity ever reaches it:
 * what cannot be computed is null.
 */
#ifndef UD_DIFF_H
#define UD_DIFF_H

#include <jansson.h>

#include "error.h"
#include "profile.h"
#include "uarch.h"

#define UD_DIFF_SCHEMA "uarchdiff.diff/1"

struct ud_diff_input {
	const struct ud_profile *a, *b; /* baseline and candidate */
	const char *a_name, *b_name;    /* their files, for the report */
	const struct ud_uarch_db *db;   /* penalties for the CPI stack; may be NULL */
};

/*
 * Returns a new reference to the diff document, or NULL with err: a workload
 * with a zero or negative score, or no workload in common (the message lists
 * both sides).
 */
json_t *ud_diff(const struct ud_diff_input *in, struct ud_err *err);

#endif
