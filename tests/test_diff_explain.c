/*
 * Issue 20's classes of wrong explanation, each on a made-up pair whose
 * numbers are computed by hand in the comment above it: the noise a source
 * printed, a clock without task-clock, factors that pull against the
 * result, misses that are or are not a cause, events that mean different
 * things, counting modes, and work that instructions do not measure.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "diffutil.h"
#include "report.h"
#include "testutil.h"

static struct ud_profile *host(const char *uarch)
{
	return ud_profile_new(uarch ? host_from_text("{\"cpu\": {\"uarch\": \"%s\"}}", uarch) : NULL);
}

/* A workload measured by CPU time only, as a perf stat -r N paste gives it: task-clock's mean +- its relative error. */
static struct ud_workload *timed(struct ud_profile *p, double task_ms, double rel, int runs)
{
	struct ud_workload *w = ud_profile_add_workload(p, "cmd");

	put(w, "task-clock", task_ms * 1e6);
	w->counters[0].rel_stddev = rel;
	w->runs = runs;
	w->elapsed_ns = task_ms * 1e6;
	return w;
}

static bool says(const char *text, const char *part)
{
	return text && strstr(text, part) != NULL;
}

#define SAYS(text, part) ck_assert_msg(says(text, part), "no '%s' in: %s", part, text)
#define NOT_SAYS(text, part) ck_assert_msg(!says(text, part), "'%s' in: %s", part, text)

/*
 * perf stat -r 5 on both sides, task-clock 1000 ms +-0.1% against 999 ms
 * +-0.1%: Welch on ln, t = 0.707 on 8 df, p = 0.50 (scipy: 0.4998): as fast
 * as, said in the headline.  Against 700 ms +-0.6%: t = 58.6 on 4.22 df, p
 * = 2.6e-7: 1.43x faster, with its interval exp(ln(1/0.7) +- t(0.975,
 * 4.222) x 0.0060828) = exp(0.35667 +- 2.71979 x 0.0060828) = 1.40513-1.45240
 * (scipy 1.10: t.ppf(0.975, 4.222) = 2.719794).
 */
START_TEST(test_r5_within_and_outside_noise)
{
	struct ud_profile *a = host(NULL), *b = host(NULL), *c = host(NULL);
	struct ud_err err;
	struct ud_diff *d;

	timed(a, 1000, 0.001, 5);
	timed(b, 999, 0.001, 5);
	timed(c, 700, 0.006, 5);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->workloads[0].sig.method, UD_SIG_WELCH);
	ck_assert_int_eq(d->workloads[0].sig.significant, 0);
	ck_assert_double_eq_tol(d->workloads[0].sig.p, 0.4994, 1e-3);
	ck_assert(d->workloads[0].sig.lo < 1 && d->workloads[0].sig.hi > 1);
	SAYS(d->summary.headline, "B is as fast as A on the one workload compared (within the noise: 95% interval");
	SAYS(d->workloads[0].explanation, "B is as fast as A on cmd in CPU time");
	SAYS(d->workloads[0].explanation, "within the noise (Welch's t on 5 and 5 runs");
	ud_diff_free(d);
	d = model_of(a, c, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->workloads[0].sig.significant, 1);
	ck_assert_double_eq_tol(d->workloads[0].sig.p, 2.6178e-7, 1e-10);
	REL(d->workloads[0].speedup, 1000.0 / 700);
	ck_assert_double_eq_tol(d->workloads[0].sig.lo, 1.4051317645566865, 1e-9);
	ck_assert_double_eq_tol(d->workloads[0].sig.hi, 1.4524021006488894, 1e-9);
	SAYS(d->summary.headline, "B is 1.43x faster than A on the one workload compared (95% interval 1.41-1.45x)");
	ud_diff_free(d);
	/* one run on a side: single-run, noise unknown, the move stated as it is */
	c->workloads[0].runs = 1;
	d = model_of(a, c, &err);
	ck_assert_int_eq(d->workloads[0].sig.method, UD_SIG_SINGLE_RUN);
	ck_assert_int_eq(d->workloads[0].sig.significant, -1);
	SAYS(d->summary.headline, "B is 1.43x faster than A");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
	ud_profile_free(c);
}
END_TEST

/*
 * A score given as a summary (an imported block's mean elapsed time over
 * -r N runs: lower is better) is tested by Welch too; samples of 4 and more
 * a side go to Mann-Whitney, with its interval; 3 a side to Welch.
 */
START_TEST(test_score_summaries_and_samples)
{
	struct ud_profile *a = host(NULL), *b = host(NULL);
	struct ud_workload *wa = add(a, "t", 10.0, 0), *wb = add(b, "t", 8.0, 0);
	const double sa[] = { 100, 101, 99, 100.5, 99.5, 100.2 }, sb[] = { 110, 111, 109, 110.5, 109.5, 110.1 };
	struct ud_err err;
	struct ud_diff *d;

	wa->score.rel_stderr = wb->score.rel_stderr = 0.01;
	wa->score.runs = wb->score.runs = 5;
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->workloads[0].sig.method, UD_SIG_WELCH);
	ck_assert_int_eq(d->workloads[0].sig.significant, 1);
	REL(d->workloads[0].speedup, 1.25);
	/* the interval is of the speedup, A's time over B's: around 1.25, not around 0.8 */
	ck_assert(d->workloads[0].sig.lo > 1.15 && d->workloads[0].sig.hi < 1.35);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);

	a = host(NULL);
	b = host(NULL);
	ud_score_set_samples(&add(a, "s", 1, 1)->score, sa, 6);
	ud_score_set_samples(&add(b, "s", 1, 1)->score, sb, 6);
	ud_score_set_samples(&add(a, "three", 1, 1)->score, sa, 3);
	ud_score_set_samples(&add(b, "three", 1, 1)->score, sb, 3);
	d = model_of(a, b, &err);
	ck_assert_int_eq(d->workloads[0].sig.method, UD_SIG_MANN_WHITNEY);
	ck_assert_int_eq(d->workloads[0].sig.significant, 1);
	/* completely separated 6 and 6: the interval's ends are ratios of samples, around the 1.10 move */
	ck_assert(d->workloads[0].sig.lo > 1.05 && d->workloads[0].sig.hi < 1.15);
	ck_assert_int_eq(d->workloads[1].sig.method, UD_SIG_WELCH);
	/* both intervals known: the geomean has one */
	ck_assert(isfinite(d->summary.geomean_lo) && d->summary.geomean_lo > 1);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * A benchmark log with cycles, instructions and elapsed time but no
 * task-clock: A 100 lps over 10 s (1,000 loops), 3e10 cycles and 3e10
 * instructions; B 125 lps over 10 s (1,250 loops), 3.75e10 cycles and 3.75e10
 * instructions.  Path length (3e7 per loop on both) 1, IPC 1, and cycles per
 * wall-clock second 3.75e9 / 3e9 = 1.25: the clock carries it all, the
 * unexplained factor is 1.
 */
START_TEST(test_clock_without_task_clock)
{
	struct ud_profile *a = host("zen4"), *b = host("zen4");
	struct ud_workload *wa = add(a, "bench", 100, 1), *wb = add(b, "bench", 125, 1);
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_workload *w;

	put(wa, "cycles", 3e10);
	put(wa, "instructions", 3e10);
	put(wb, "cycles", 3.75e10);
	put(wb, "instructions", 3.75e10);
	wa->elapsed_ns = wb->elapsed_ns = 10e9;
	ud_workload_add_perf_metric(wa, "ghz", 3.0);
	ud_workload_add_perf_metric(wb, "ghz", 3.75);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	REL(w->factor[UD_FACTOR_CLOCK], 1.25);
	REL(w->factor[UD_FACTOR_PATH_LENGTH], 1);
	REL(w->factor[UD_FACTOR_IPC], 1);
	REL(w->factor[UD_FACTOR_UNEXPLAINED], 1);
	ck_assert(isnan(w->factor[UD_FACTOR_FREQUENCY]) && isnan(w->factor[UD_FACTOR_UTILIZATION]));
	ck_assert_int_eq(w->dominant, UD_FACTOR_CLOCK);
	SAYS(w->explanation, "The clock (B runs 1.25x the cycles per second");
	SAYS(w->explanation, "; perf printed 3 -> 3.75 GHz)"); /* perf's own figure kept as evidence */
	NOT_SAYS(w->explanation, "do not explain");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * B is 1.12x slower although its IPC is 1.75x A's.  Scores 112 and 100 loops
 * a second over 1 s; A 1.12e9 instructions and cycles (IPC 1) in 1 s of
 * task-clock, B 1.25e9 instructions (1.25x the 1e7 a loop) in 7.142857e8
 * cycles (IPC 1.75), 1 s.  Factors: path length 0.8, IPC 1.75, frequency
 * 0.714 / 1.12 = 0.6378, utilization 1: product 0.8929 = 100 / 112.  Shares
 * of ln(0.8929) = -0.1133: frequency +397%, path length +197%, IPC -494%.
 */
START_TEST(test_factor_against_the_result)
{
	struct ud_profile *a = host("zen4"), *b = host("zen4");
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_workload *w;

	counts(add(a, "w", 112, 1), 1.12e9, 1.12e9, 1e9, 0);
	counts(add(b, "w", 100, 1), 1.25e9, 1.25e9 / 1.75, 1e9, 0);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	REL(w->factor[UD_FACTOR_IPC], 1.75);
	REL(w->factor[UD_FACTOR_PATH_LENGTH], 0.8);
	ck_assert_double_eq_tol(w->share[UD_FACTOR_IPC], log(1.75) / log(100.0 / 112), 1e-9);
	ck_assert_double_lt(w->share[UD_FACTOR_IPC], -4);
	/* the dominant factor has the result's sign: not IPC, whose |share| is the largest */
	ck_assert_int_eq(w->dominant, UD_FACTOR_FREQUENCY);
	SAYS(w->explanation, "B is 1.12x slower than A on w (one run each: unverified). Clock frequency (1.12 -> 0.714 GHz) and path length (B "
			     "needs 1.25x the instructions per unit) made B slower; IPC (1.00 -> 1.75) pulled the other "
			     "way.");
	NOT_SAYS(w->explanation, "-494%");
	NOT_SAYS(w->explanation, "carries");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * The facts that bear on a factor, named beside it (made up): the same
 * pair as above with the hosts' governors apart, beside the clock; and a
 * kernel crossing (user and kernel time per unit both 5x: 2 s at 70% in
 * the kernel against 0.4 s) beside the mitigations and kernels that differ.
 */
START_TEST(test_environment_beside_its_factor)
{
	struct ud_profile *a = ud_profile_new(host_from_text("{\"cpu\": {\"uarch\": \"zen4\"}, \"kernel\": \"6.1.0\", "
							     "\"cpufreq\": {\"governor\": \"powersave\"}, "
							     "\"vulnerabilities\": {\"spec_rstack_overflow\": "
							     "\"Mitigation: Safe RET\"}}"));
	struct ud_profile *b = ud_profile_new(host_from_text("{\"cpu\": {\"uarch\": \"zen4\"}, \"kernel\": \"6.1.0\", "
							     "\"cpufreq\": {\"governor\": \"performance\"}, "
							     "\"vulnerabilities\": {\"spec_rstack_overflow\": "
							     "\"Vulnerable\"}}"));
	struct ud_err err;
	struct ud_diff *d;

	counts(add(a, "w", 112, 1), 1.12e9, 1.12e9, 1e9, 0);
	counts(add(b, "w", 100, 1), 1.25e9, 1.25e9 / 1.75, 1e9, 0);
	counts(add(a, "k", 1000 / 2.0, 1), 1e9, 2e9, 2e9, 0.7);
	counts(add(b, "k", 1000 / 0.4, 1), 1e9, 4e8, 4e8, 0.7);
	a->workloads[1].elapsed_ns = 2e9;
	b->workloads[1].elapsed_ns = 4e8;
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	SAYS(d->workloads[0].explanation, "Clock frequency (1.12 -> 0.714 GHz; the hosts differ: cpufreq.governor "
					  "powersave on A, performance on B)");
	NOT_SAYS(d->workloads[0].explanation, "spec_rstack_overflow");
	ck_assert(d->workloads[1].crossing);
	SAYS(d->workloads[1].explanation, "The hosts differ there: vulnerabilities.spec_rstack_overflow Mitigation: "
					  "Safe RET on A, Vulnerable on B.");
	NOT_SAYS(d->workloads[1].explanation, "kernel 6.1.0");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * Work fixed at 1,000 units a side; A 1.5e9 cycles in 1.5 s, B 1.2e9 in
 * 1.2 s (1 GHz, 1 CPU both), 1e9 instructions each: IPC 0.667 -> 0.833,
 * speedup 1.25.  Cycles per unit fell 1.5e6 -> 1.2e6 (3e5).
 */
static void ipc_pair(struct ud_profile *a, struct ud_profile *b)
{
	struct ud_workload *wa = add(a, "w", 1000 / 1.5, 1), *wb = add(b, "w", 1000 / 1.2, 1);

	counts(wa, 1e9, 1.5e9, 1.5e9, 0);
	counts(wb, 1e9, 1.2e9, 1.2e9, 0);
	wa->elapsed_ns = 1.5e9;
	wb->elapsed_ns = 1.2e9;
	wa->work_units = wb->work_units = 1000;
}

/*
 * Only branch-misses moved: 2e7 -> 5e6, 2e4 -> 5e3 a unit.  The 3e5 fewer
 * cycles a unit over 1.5e4 fewer mispredicts = 20 cycles a mispredict,
 * within 5-40: the mispredicts can carry it, and at Zen 4's 13 cycles they
 * carry 1.5e4 x 13 / 3e5 = 65%.
 */
START_TEST(test_branch_misses_carry_it)
{
	struct ud_profile *a = host("zen4"), *b = host("zen4");
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_workload *w;

	ipc_pair(a, b);
	put(&a->workloads[0], "branch-misses", 2e7);
	put(&b->workloads[0], "branch-misses", 5e6);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	ck_assert_uint_eq(w->ncauses, 1);
	ck_assert_str_eq(w->causes[0].counter, "branch-misses");
	ck_assert_int_eq(w->causes[0].cls, UD_CLASS_BRANCH_MISSES);
	REL(w->causes[0].implied, 20);
	REL(w->causes[0].penalty, 13);
	REL(w->causes[0].cycles_share, 0.65);
	SAYS(w->explanation, "branch-misses 20,000 -> 5,000 per unit (65% of what IPC changed) behind it");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * L1d misses rose on the faster side (1e4 -> 3e4 a unit): not a cause.
 * Branch misses moved the right way but barely: 6e6 -> 5.994e6 is 6 fewer
 * a unit, 6 x 13 / 3e5 = 0.03% of the cycles (implied 5e4 cycles a miss):
 * not a cause either.  The explanation says no counted miss explains it.
 */
START_TEST(test_misses_that_are_not_causes)
{
	struct ud_profile *a = host("zen4"), *b = host("zen4");
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_workload *w;

	ipc_pair(a, b);
	put(&a->workloads[0], "L1-dcache-load-misses", 1e7);
	put(&b->workloads[0], "L1-dcache-load-misses", 3e7);
	put(&a->workloads[0], "branch-misses", 6e6);
	put(&b->workloads[0], "branch-misses", 5.994e6);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	ck_assert_uint_eq(w->ncauses, 0);
	SAYS(w->explanation, "no counted miss or stall moved enough, the right way, to explain it");
	NOT_SAYS(w->explanation, "L1d MPKI");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * An Intel-style paste printing L1-dcache-load-misses at 390% of
 * L1-dcache-loads (3.9e8 of 1e8) against an AMD Zen 4 one at 40%: the rate
 * above 100% shows the counters are not a miss and its access, so both L1d
 * metrics are not comparable, the CPI stack does not charge them and they
 * are no cause; a semantics-differ finding says why.
 */
START_TEST(test_rate_above_100_is_not_comparable)
{
	struct ud_profile *a = host(NULL), *b = host("zen4");
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_workload *w;

	ipc_pair(a, b);
	put(&a->workloads[0], "L1-dcache-loads", 1e8);
	put(&a->workloads[0], "L1-dcache-load-misses", 3.9e8);
	put(&b->workloads[0], "L1-dcache-loads", 1e8);
	put(&b->workloads[0], "L1-dcache-load-misses", 4e7);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	ck_assert_ptr_nonnull(w->incomparable[UD_M_L1D_MISS_RATE]);
	ck_assert_ptr_nonnull(w->incomparable[UD_M_L1D_MPKI]);
	SAYS(w->incomparable[UD_M_L1D_MISS_RATE], "L1-dcache-load-misses is 390% of L1-dcache-loads on A");
	ck_assert_ptr_null(w->incomparable[UD_M_IPC]);
	ck_assert(isnan(w->cpi.l1d));
	ck_assert_uint_eq(w->ncauses, 0);
	ck_assert_uint_eq(fired(d, UD_FINDING_SEMANTICS_DIFFER), 1);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * The tables say the generic L1d miss event counts different things on Zen
 * 4 (L2 requests from loads and stores) and Ice Lake-SP (line replacements,
 * prefetches included): not comparable.  Branch misses are retired on both:
 * comparable.
 */
START_TEST(test_tables_tell_meanings_apart)
{
	struct ud_profile *a = host("zen4"), *b = host("icelake-sp");
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_workload *w;

	ipc_pair(a, b);
	put(&a->workloads[0], "L1-dcache-load-misses", 1e7);
	put(&b->workloads[0], "L1-dcache-load-misses", 5e6);
	put(&a->workloads[0], "branch-misses", 1e7);
	put(&b->workloads[0], "branch-misses", 5e6);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	ck_assert_ptr_nonnull(w->incomparable[UD_M_L1D_MPKI]);
	SAYS(w->incomparable[UD_M_L1D_MPKI], "on zen4");
	SAYS(w->incomparable[UD_M_L1D_MPKI], "on icelake-sp");
	ck_assert_ptr_null(w->incomparable[UD_M_BRANCH_MPKI]);
	ck_assert(isnan(w->cpi.l1d)); /* and branch stays n/a too: Ice Lake-SP's table gives no penalties */
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * Zen 4 against Neoverse N1: an x86 instruction and an Arm one are not the
 * same unit, so no per-instruction figure compares, branch misses per kilo
 * instruction included, whatever the tables say of the events.
 */
START_TEST(test_instruction_sets_make_per_instruction_incomparable)
{
	struct ud_profile *a = host("zen4"), *b = host("neoverse-n1");
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_workload *w;

	ipc_pair(a, b);
	put(&a->workloads[0], "branch-misses", 1e7);
	put(&b->workloads[0], "branch-misses", 5e6);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	ck_assert_ptr_nonnull(w->incomparable[UD_M_BRANCH_MPKI]);
	SAYS(w->incomparable[UD_M_BRANCH_MPKI], "different instruction sets");
	ck_assert_ptr_nonnull(w->incomparable[UD_M_IPC]);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * A counted cycles:u and instructions:u (perf without privilege), B all
 * modes.  With no user and sys times to say how much of A's time user mode
 * is, the two are compared as the same work, approximately (issue 33: a
 * user-space loop's :u counts are nearly all of it), and a
 * counting-modes-differ finding names both sides' modes.  Where A's times
 * say user mode is a fifth of its CPU time, the counters cannot split the
 * speedup: no factor that reads them, the unexplained factor carries it.
 */
START_TEST(test_counting_modes_differ)
{
	struct ud_profile *a = host("zen4"), *b = host("zen4");
	struct ud_workload *wa = add(a, "w", 100, 1), *wb = add(b, "w", 120, 1);
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_workload *w;
	const struct ud_finding *f;

	put(wa, "cycles:u", 1e9);
	put(wa, "instructions:u", 1e9);
	put(wa, "task-clock", 1e9);
	counts(wb, 1.2e9, 1.1e9, 1e9, 0.3);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	ck_assert(w->modes_differ);
	ck_assert(w->counting.approximate);
	ck_assert(isfinite(w->factor[UD_FACTOR_PATH_LENGTH]) && isfinite(w->factor[UD_FACTOR_IPC]));
	ck_assert_ptr_nonnull(w->incomparable[UD_M_IPC]);
	f = finding_of(d, UD_FINDING_COUNTING_MODES_DIFFER);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->evidence[0], "w: cycles counted in user mode only on A (A), in all modes on B (B)");
	ud_diff_free(d);
	wa->user_ns = 0.2e9;
	wa->sys_ns = 0.8e9;
	d = model_of(a, b, &err);
	w = &d->workloads[0];
	ck_assert(isnan(w->factor[UD_FACTOR_PATH_LENGTH]) && isnan(w->factor[UD_FACTOR_IPC]));
	ck_assert_ptr_nonnull(w->factor_notes[UD_FACTOR_IPC]);
	REL(w->factor[UD_FACTOR_UNEXPLAINED], 1.2);
	SAYS(w->explanation, "The counters counted user mode on A and all on B; that is 20% of A's CPU time: too little");
	/* the same the other way round */
	ud_diff_free(d);
	d = model_of(b, a, &err);
	ck_assert_uint_eq(fired(d, UD_FINDING_COUNTING_MODES_DIFFER), 1);
	ud_diff_free(d);
	ud_profile_free(a);
	/* host-only counts (perf's :H, exclude_guest) against all contexts differ too; :u with :k is all modes */
	a = host("zen4");
	wa = add(a, "w", 100, 1);
	put(wa, "cycles:H", 1e9);
	put(wa, "instructions:H", 1e9);
	put(wa, "task-clock", 1e9);
	d = model_of(a, b, &err);
	f = finding_of(d, UD_FINDING_COUNTING_MODES_DIFFER);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->evidence[0], "w: cycles counted in all modes, host only on A (A), in all modes on B (B)");
	ud_diff_free(d);
	ud_profile_free(a);
	a = host("zen4");
	wa = add(a, "w", 100, 1);
	put(wa, "cycles:u", 8e8);
	put(wa, "cycles:k", 2e8);
	put(wa, "instructions:u", 8e8);
	put(wa, "instructions:k", 2e8);
	put(wa, "task-clock", 1e9);
	d = model_of(a, b, &err);
	ck_assert_uint_eq(fired(d, UD_FINDING_COUNTING_MODES_DIFFER), 0);
	ck_assert(!d->workloads[0].modes_differ);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * IPC 0.06 (kernel page zeroing with rep stosb): 6e7 instructions in 1e9
 * cycles against 8e7 in 8e8: a low-ipc-work finding with cycles and CPU
 * time per unit, and the explanation says instructions are not the unit.
 */
START_TEST(test_low_ipc_work)
{
	struct ud_profile *a = host("zen4"), *b = host("zen4");
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_finding *f;

	counts(add(a, "zero", 100, 1), 6e7, 1e9, 1e9, 0.9);
	counts(add(b, "zero", 125, 1), 8e7, 8e8, 8e8, 0.9);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert(d->workloads[0].low_ipc);
	f = finding_of(d, UD_FINDING_LOW_IPC_WORK);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->evidence[0], "zero: IPC 0.06 on A, 0.1 on B (below 0.1: 10 cycles or more an instruction)");
	SAYS(f->evidence[1], "zero: cycles per unit");
	SAYS(d->workloads[0].explanation, "At IPC 0.06 -> 0.10 instructions are not the unit of work");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* d's text report; the caller frees it. */
static char *text_of(const struct ud_diff *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct ud_err err;

	ck_assert_msg(ud_report_write(d, UD_REPORT_TEXT, UD_TEMPLATES_DIR, out, &err) == 0, "%s", err.msg);
	fclose(out);
	return buf;
}

/*
 * The same through the importer: made-up perf stat -r 5 pastes, the score
 * each block's mean elapsed time (lower is better) with perf's +-.  3.1590
 * +- 0.0190 s against 3.1550 +- 0.0180 s: t = 0.1528 on 7.978 df, p = 0.882
 * (scipy 1.10): within the noise.  Against 2.5100 +- 0.0150 s: 1.2586x, t =
 * 27.12 on 8.0 df, p = 3.7e-9, interval 1.2342-1.2834.
 */
START_TEST(test_imported_r5_pairs)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/made-up-r5.txt", "A", "zen4");
	struct ud_profile *same = imported(UD_TEST_DATA "/perf-stat/made-up-r5-same.txt", "B", "zen4");
	struct ud_profile *faster = imported(UD_TEST_DATA "/perf-stat/made-up-r5-faster.txt", "C", "zen4");
	struct ud_err err;
	struct ud_diff *d = model_of(a, same, &err);
	char *text;

	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->workloads[0].sig.method, UD_SIG_WELCH);
	ck_assert_int_eq(d->workloads[0].sig.significant, 0);
	ck_assert_double_eq_tol(d->workloads[0].sig.p, 0.8823214767780747, 1e-9);
	SAYS(d->summary.headline, "B is as fast as A on the one workload compared (within the noise: 95% interval");
	/* the group's line is marked like its one workload, not printed as a plain "1.001x faster" */
	text = text_of(d);
	SAYS(text, "(1): ~ ");
	free(text);
	ud_diff_free(d);
	d = model_of(a, faster, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->workloads[0].sig.significant, 1);
	REL(d->workloads[0].speedup, 3.159 / 2.51);
	ck_assert_double_eq_tol(d->workloads[0].sig.p, 3.679586310669384e-09, 1e-12);
	ck_assert_double_eq_tol(d->workloads[0].sig.lo, 1.2341971384403045, 1e-9);
	ck_assert_double_eq_tol(d->workloads[0].sig.hi, 1.2834154813245313, 1e-9);
	SAYS(d->summary.headline, "C is 1.26x faster than A on the one workload compared (95% interval 1.23-1.28x)");
	/* the same instructions in fewer cycles: IPC carries it */
	ck_assert_int_eq(d->workloads[0].dominant, UD_FACTOR_IPC);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(same);
	ud_profile_free(faster);
}
END_TEST

/*
 * UnixBench's syscall under perf stat on two hosts (made-up, one run
 * each): COUNT|4100000|1|lps and COUNT|6150000|1|lps over 10 s are 410,000
 * and 615,000 loops a second, 1.5x, with 4.1 M and 6.15 M loops of work a
 * run; kernel time per loop 8.198 s / 4.1 M = 2.00 us against 8.79865 s /
 * 6.15 M = 1.43 us.  Kernel-heavy (82% and 88% of the CPU time), no
 * hardware counter: those findings, and one run a side.
 */
START_TEST(test_syscall_pair)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/made-up-syscall.txt", "E5", "zen4");
	struct ud_profile *b = imported(UD_TEST_DATA "/perf-stat/made-up-syscall-faster.txt", "E6", "zen5");
	struct ud_err err;
	struct ud_diff *d = model_of(a, b, &err);
	const struct ud_diff_workload *w;

	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	REL(w->speedup, 1.5);
	ck_assert_int_eq(w->work.basis, UD_WORK_UNITS);
	REL(w->work.a, 4.1e6);
	ck_assert_str_eq(w->work.unit, "loop");
	ck_assert_double_eq_tol(w->mode[UD_MODE_KERNEL].a, 8.19812e9 / 4.1e6, 1e-6);
	ck_assert_int_eq(w->sig.method, UD_SIG_SINGLE_RUN);
	ck_assert_uint_eq(fired(d, UD_FINDING_KERNEL_HEAVY), 1);
	ck_assert_uint_eq(fired(d, UD_FINDING_NO_HARDWARE_COUNTERS), 1);
	SAYS(w->explanation, "E6 is 1.50x faster than E5 on");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* A UnixBench log's "(10.0 s, 7 samples)": several runs, no spread: no-spread, not single-run. */
START_TEST(test_unixbench_runs_without_spread)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/unixbench/aws-m6g-graviton2.txt", "G2", "neoverse-n1");
	struct ud_profile *b = imported(UD_TEST_DATA "/unixbench/aws-m7g-graviton3.txt", "G3", "neoverse-v1");
	struct ud_err err;
	struct ud_diff *d = model_of(a, b, &err);

	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->workloads[0].sig.method, UD_SIG_NO_SPREAD);
	ck_assert_int_eq(d->workloads[0].sig.significant, -1);
	SAYS(d->workloads[0].sig.note, "7 and 7 runs, but neither source printed their spread: the noise is unknown");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * uarchdiff stat -a on one side (issue 22): the count holds the whole
 * system's work, so its instructions are not the workload's path length.
 * The same for a pasted perf stat -a.
 */
START_TEST(test_system_wide_is_not_path_length)
{
	struct ud_profile *a = host("zen4"), *b = host("zen4");
	struct ud_workload *wa = add(a, "w", 100, 1), *wb = add(b, "w", 120, 1);
	struct ud_err err;
	struct ud_diff *d;

	counts(wa, 1e9, 1e9, 1e9, 0.1);
	counts(wb, 1.1e9, 0.9e9, 1e9, 0.1);
	ck_assert_ptr_nonnull(ud_workload_set_target(wb, UD_TARGET_SYSTEM_WIDE, (const int[]){ 0, 1 }, 2));
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert(d->workloads[0].foreign_counts);
	ck_assert(isnan(d->workloads[0].factor[UD_FACTOR_PATH_LENGTH]));
	SAYS(d->workloads[0].explanation, "A side's counts are not the workload's own (system-wide");
	ud_diff_free(d);
	ud_profile_free(b);
	b = host("zen4");
	wb = add(b, "w", 120, 1);
	counts(wb, 1.1e9, 0.9e9, 1e9, 0.1);
	wb->perf_command.system_wide = true;
	d = model_of(a, b, &err);
	ck_assert(isnan(d->workloads[0].factor[UD_FACTOR_PATH_LENGTH]));
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diff_explain");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, diffutil_load, diffutil_unload);
	tcase_add_test(tc, test_r5_within_and_outside_noise);
	tcase_add_test(tc, test_score_summaries_and_samples);
	tcase_add_test(tc, test_clock_without_task_clock);
	tcase_add_test(tc, test_factor_against_the_result);
	tcase_add_test(tc, test_environment_beside_its_factor);
	tcase_add_test(tc, test_branch_misses_carry_it);
	tcase_add_test(tc, test_misses_that_are_not_causes);
	tcase_add_test(tc, test_rate_above_100_is_not_comparable);
	tcase_add_test(tc, test_tables_tell_meanings_apart);
	tcase_add_test(tc, test_instruction_sets_make_per_instruction_incomparable);
	tcase_add_test(tc, test_counting_modes_differ);
	tcase_add_test(tc, test_low_ipc_work);
	tcase_add_test(tc, test_imported_r5_pairs);
	tcase_add_test(tc, test_syscall_pair);
	tcase_add_test(tc, test_unixbench_runs_without_spread);
	tcase_add_test(tc, test_system_wide_is_not_path_length);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
