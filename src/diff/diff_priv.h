/*
 * diff_priv.h - the steps of ud_diff_build() (diff.c), one file each: the
 * numbers of one workload, its explanation, the environment, the rules.
 * Each step reads what the earlier ones filled in and calls none of the
 * others, so diff.c alone knows the order.
 */
#ifndef UD_DIFF_PRIV_H
#define UD_DIFF_PRIV_H

#include <stdio.h>

#include "diff.h"

/*
 * diff_workload.c: everything numeric about w->a vs w->b (scores positive
 * where present); -1 when out of memory.
 */
/*
 * 0, or -1 with err for a score no ratio can use (0, -0, below 0): diff
 * refuses such a profile, and compare leaves it out, by the one rule.
 */
int ud_diff_check_score(const struct ud_workload *w, const char *file, struct ud_err *err);
/*
 * 0, or -1 with err when a (in fa) and b (in fb) measured one workload in
 * different units or directions, where both sides know them: KBps against
 * MBps, or a rate against a time, has no ratio that means a speedup.  diff
 * refuses such a pair, and compare leaves such a host out of that
 * workload, by the one rule.
 */
int ud_diff_check_comparable(const struct ud_workload *a, const struct ud_workload *b, const char *fa, const char *fb,
			     struct ud_err *err);
int ud_diff_workload_compute(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub);

/*
 * Parts of the workload's numbers, in their own files and called by
 * diff_workload.c in this order.  diff_significance.c: w->sig from the
 * speedup and its basis.  diff_causes.c: w->incomparable from the metrics,
 * the modes and the two tables (-1 when out of memory), then w->causes
 * from the comparable miss metrics and the work per run.
 */
void ud_diff_significance(struct ud_diff_workload *w);
/*
 * Whether counter a (A's) and b (B's, one name) moved per unit of work
 * beyond their noise: perf's "+-" on each side and the runs behind it,
 * into u->significant and u->p (left -1 and NAN where a side printed none).
 */
void ud_diff_counter_significance(const struct ud_diff_workload *w, const struct ud_counter *a,
				  const struct ud_counter *b, struct ud_per_unit *u);
/*
 * diff_domain.c: w->counting, from the two sides' counters, times and
 * tables (after the work per run); and whether a side's counted domain
 * covers too little of its CPU time to split the speedup
 * (UD_COVERAGE_SPLIT).
 */
void ud_diff_counting(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub);
bool ud_diff_domain_too_narrow(const struct ud_diff_workload *w);
/*
 * Whether a hardware counter's move per unit of work is beyond chance and
 * large enough to be worth saying (UD_MOVER_FINDING_P, _MIN_MOVE): what
 * the counters-moved-time-did-not finding and the explanation name when
 * the time did not move.
 */
bool ud_diff_mover_notable(const struct ud_per_unit *u);
/*
 * Whether w's notable movers are said at all: the time stayed within the
 * noise, and neither side was measured on a noisy host, where counters move
 * with the neighbours' load (caches, branch predictors) as much as the work.
 */
bool ud_diff_movers_speak(const struct ud_diff_workload *w);
int ud_diff_comparability(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub);
void ud_diff_causes(struct ud_diff_workload *w, const struct ud_uarch *ua, const struct ud_uarch *ub);
/*
 * diff_verdict.c: w->verdict and its reason, from the speedup, its test,
 * the samples' drift and the factors (last of the workload's numbers);
 * -1 when out of memory for the reason.
 */
int ud_diff_verdict(struct ud_diff_workload *w);
/* diff_topdown.c: w->topdown from the two sides' records and cycles per unit of work. */
void ud_diff_topdown(struct ud_diff_workload *w);

/*
 * Which privilege levels and contexts a side counted a class of event in:
 * the modes of every counted counter of that class (cycles, cycles:u and
 * cycles:k together, cycles:H), joined; false when it counted none.  The words for them into buf ("user mode only", "all
 * modes, host only").
 */
bool ud_count_modes_of(const struct ud_workload *x, enum ud_counter_class cls, struct ud_counted_modes *out);
void ud_count_modes_words(struct ud_counted_modes m, char *buf, size_t len);

/*
 * diff_hotspots.c: w->hotspots from the two sides' sampled symbols and the
 * time split computed before; -1 when out of memory.
 */
int ud_diff_hotspots_compute(struct ud_diff_workload *w);

/* diff_summary.c: d->summary from the computed workloads; -1 when out of memory. */
int ud_diff_summarize(struct ud_diff *d);

/*
 * The memory stream every workload's explanation is written through in
 * turn, opened once a diff (open_memstream(&text, &len)): a stream each
 * cost 8 KB of zeroed buffer a workload.
 */
struct ud_explain_stream {
	FILE *f;
	char *text;
	size_t len;
};

/* diff_explain.c: w->explanation, from the computed numbers, written through s; -1 when out of memory. */
int ud_diff_explain(struct ud_diff_workload *w, const char *label_a, const char *label_b, struct ud_explain_stream *s);

/* diff_env.c: d->env from the two hosts' facts; -1 when out of memory. */
int ud_diff_env_build(struct ud_diff *d);
void ud_diff_env_free(struct ud_diff *d);

/* diff_rules.c: d->findings from the rest of the model; -1 when out of memory. */
int ud_diff_rules_apply(struct ud_diff *d);
void ud_diff_findings_free(struct ud_diff *d);

#endif
