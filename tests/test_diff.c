/*
 * The diff engine on the worked example (the fixtures' E5 vs E6 fstime),
 * checked against values computed here from the raw counts, then the rules,
 * the statistics and bad input on profiles built in the test.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "diffutil.h"
#include "import.h"
#include "testutil.h"



START_TEST(test_worked_example)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", "E5", "zen4");
	struct ud_profile *b = imported(UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", "E6", "zen5");
	struct ud_err err;
	json_t *d = diff_of(a, b, &err), *w;
	/* the raw counts, as perf printed them */
	const double iA = 68912885650.0, cA = 97062243821.0, tA = 34021.81e6, eA = 45.582058193e9, sA = 397163;
	const double bA = 15035010502.0, bmA = 1649850885.0, lA = 26596574472.0, lmA = 3447196065.0;
	const double iB = 299866801007.0, cB = 111042895781.0, tB = 34068.08e6, eB = 45.112821074e9, sB = 1849374;
	const double bB = 55455789419.0, bmB = 252884979.0, lB = 142101676726.0, lmB = 1910846777.0;
	const double uA = sA * eA / 1e9, uB = sB * eB / 1e9, speedup = sB / sA;
	const double path = (iA / uA) / (iB / uB), ipc = (iB / cB) / (iA / cA), freq = (cB / tB) / (cA / tA);
	const double util = (tB / eB) / (tA / eA), unexplained = speedup / (path * ipc * freq * util);
	const double cpiA = cA / iA, cpiB = cB / iB;
	const double branch = (1000 * bmA / iA * 13 - 1000 * bmB / iB * 13) / 1000;
	const double l1d = (1000 * lmA / iA * 14 - 1000 * lmB / iB * 14) / 1000;
	double sum = 0, product = 1;

	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_str_eq(json_string_value(json_object_get(d, "schema")), "uarchdiff.diff/2");
	w = json_array_get(json_object_get(d, "workloads"), 0);
	REL(at(w, "speedup"), speedup);
	ck_assert_double_eq_tol(at(w, "speedup"), 4.66, 0.005);
	REL(at(w, "factors.path_length"), path);
	REL(at(w, "factors.ipc"), ipc);
	REL(at(w, "factors.frequency"), freq);
	REL(at(w, "factors.utilization"), util);
	REL(at(w, "factors.unexplained"), unexplained);
	ck_assert_double_eq_tol(at(w, "factors.unexplained"), 1, 1e-9); /* score x elapsed is the work: all explained */
	product = at(w, "factors.path_length") * at(w, "factors.ipc") * at(w, "factors.frequency") *
		  at(w, "factors.utilization") * at(w, "factors.unexplained");
	REL(product, speedup);
	REL(at(w, "shares.ipc"), log(ipc) / log(speedup));
	REL(at(w, "shares.frequency"), log(freq) / log(speedup));
	sum = at(w, "shares.path_length") + at(w, "shares.ipc") + at(w, "shares.frequency") + at(w, "shares.utilization") +
	      at(w, "shares.unexplained");
	ck_assert_double_eq_tol(sum, 1, 1e-9);
	/* the metrics, side by side */
	REL(at(w, "metrics.ipc.a"), iA / cA);
	REL(at(w, "metrics.ipc.b"), iB / cB);
	REL(at(w, "metrics.ipc.ratio"), ipc);
	REL(at(w, "metrics.branch_miss_rate.a"), bmA / bA);
	REL(at(w, "metrics.branch_miss_rate.b"), bmB / bB);
	REL(at(w, "metrics.branch_mpki.a"), 1000 * bmA / iA);
	REL(at(w, "metrics.l1d_miss_rate.b"), lmB / lB);
	REL(at(w, "metrics.l1d_mpki.a"), 1000 * lmA / iA);
	REL(at(w, "metrics.l1d_miss_rate.a"), lmA / lA);
	REL(at(w, "metrics.ghz.b"), cB / tB);
	REL(at(w, "metrics.cpus_utilized.a"), tA / eA);
	REL(at(w, "metrics.sys_share.a"), 24.381246 / (24.381246 + 7.321303));
	ck_assert(json_is_null(json_object_get(json_object_get(json_object_get(w, "metrics"), "backend_stall_rate"), "a")));
	/* the figures */
	ck_assert_double_eq_tol(at(w, "metrics.branch_mpki.a"), 23.9, 0.05);
	ck_assert_double_eq_tol(at(w, "metrics.branch_mpki.b"), 0.84, 0.005);
	ck_assert_double_eq_tol(at(w, "metrics.l1d_mpki.a"), 50.0, 0.05);
	ck_assert_double_eq_tol(at(w, "metrics.l1d_mpki.b"), 6.4, 0.05);
	/* the CPI stack: zen4 and zen5 penalties, parts summing to the change */
	REL(at(w, "cpi_stack.delta_cpi"), cpiA - cpiB);
	REL(at(w, "cpi_stack.branch"), branch);
	REL(at(w, "cpi_stack.l1d"), l1d);
	REL(at(w, "cpi_stack.other"), cpiA - cpiB - branch - l1d);
	ck_assert_double_eq(at(d, "cpi_penalties.a.branch_mispredict.cycles"), 13);
	ck_assert_double_eq(at(d, "cpi_penalties.a.l1d_miss.cycles"), 14);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(d, "cpi_penalties"), "b"), "uarch")),
			 "zen5");
	/* single imported runs: significance unknown, said so */
	ck_assert(json_is_null(json_object_get(w, "significant")));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(w, "significance"), "method")), "single-run");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(w, "explanation")), "IPC (0.71 -> 2.70)"));
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(w, "explanation")), "branch-misses 91.1 -> 3.03 per KB"));
	json_decref(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* ---- profiles built here ---- */


START_TEST(test_missing_counters_go_to_unexplained)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_err err;
	json_t *d, *w;

	counts(add(a, "x", 100, 1), 1e9, 2e9, 1e9, 0.1);
	/* B's VM has no PMU: task-clock only */
	put(add(b, "x", 150, 1), "task-clock", 0.5e9);
	d = diff_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = json_array_get(json_object_get(d, "workloads"), 0);
	ck_assert(json_is_null(json_object_get(json_object_get(w, "factors"), "ipc")));
	ck_assert(json_is_null(json_object_get(json_object_get(w, "factors"), "path_length")));
	ck_assert(json_is_null(json_object_get(json_object_get(w, "shares"), "frequency")));
	/* utilization 0.5 / 1: unexplained carries 1.5 / 0.5 = 3 */
	ck_assert_double_eq_tol(at(w, "factors.utilization"), 0.5, 1e-12);
	ck_assert_double_eq_tol(at(w, "factors.unexplained"), 3, 1e-12);
	ck_assert_double_eq_tol(at(w, "factors.utilization") * at(w, "factors.unexplained"), at(w, "speedup"), 1e-12);
	ck_assert_ptr_nonnull(find(json_object_get(d, "findings"), "no-hardware-counters"));
	json_decref(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_lower_is_better_and_zero_counters)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_workload *wb;
	struct ud_err err;
	json_t *d, *w;
	char *text;

	counts(add(a, "t", 2.0, 0), 1e9, 1e9, 1e9, 0);
	wb = add(b, "t", 1.0, 0);
	counts(wb, 1e9, 0, 1e9, 0); /* cycles read 0: no division by zero, no NaN */
	put(wb, "branches", 0);
	put(wb, "branch-misses", 0);
	d = diff_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = json_array_get(json_object_get(d, "workloads"), 0);
	ck_assert_double_eq(at(w, "speedup"), 2); /* seconds: lower is better */
	ck_assert(json_is_null(json_object_get(json_object_get(w, "factors"), "ipc")));
	text = json_dumps(d, 0);
	ck_assert(!has_word(text, "nan"));
	ck_assert(!has_word(text, "inf"));
	free(text);
	json_decref(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_bad_inputs)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_err err;

	add(a, "pipe", 10, 1);
	add(b, "exec", 10, 1);
	ck_assert_ptr_null(diff_of(a, b, &err));
	ck_assert_str_eq(err.msg, "no workload in common: a.json has 'pipe'; b.json has 'exec' (to compare them as one "
				  "workload, import both with the same '--workload NAME')");
	add(b, "pipe", 0, 1);
	ck_assert_ptr_null(diff_of(a, b, &err));
	ck_assert_str_eq(err.msg, "b.json: workload 'pipe': score 0: a score must be positive");
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_significance)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	const double sa[] = { 100, 101, 99, 100.5, 99.5 }, sb[] = { 110, 111, 109, 110.5, 109.5 };
	const double na[] = { 100, 101, 99, 100.5, 99.5 }, nb[] = { 100.2, 100.9, 99.1, 100.4, 99.6 };
	struct ud_err err;
	json_t *d;

	ud_score_set_samples(&add(a, "far", 1, 1)->score, sa, 5);
	ud_score_set_samples(&add(b, "far", 1, 1)->score, sb, 5);
	ud_score_set_samples(&add(a, "near", 1, 1)->score, na, 5);
	ud_score_set_samples(&add(b, "near", 1, 1)->score, nb, 5);
	d = diff_of(a, b, &err);
	ck_assert(json_is_true(json_object_get(json_array_get(json_object_get(d, "workloads"), 0), "significant")));
	ck_assert(json_is_false(json_object_get(json_array_get(json_object_get(d, "workloads"), 1), "significant")));
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(json_array_get(json_object_get(d, "workloads"), 0), "significance"), "method")),
			 "mann-whitney");
	json_decref(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_environment_and_findings)
{
	struct ud_profile *a = ud_profile_new(host_from_text(
		"{\"label\": \"old\", \"kernel\": \"5.15\", \"vulnerabilities\": {\"retbleed\": \"Mitigation: IBRS\", "
		"\"mds\": \"Not affected\"}}"));
	struct ud_profile *b = ud_profile_new(host_from_text(
		"{\"label\": \"new\", \"kernel\": \"6.8\", \"vulnerabilities\": {\"retbleed\": \"Not affected\", "
		"\"mds\": \"Not affected\"}}"));
	struct ud_workload *wa, *wb;
	struct ud_counter *c;
	struct ud_err err;
	const json_t *f, *env;
	json_t *d;

	/* kernel-heavy workloads gain 3x, compute-bound ones 1.2x */
	counts(add(a, "syscall", 100, 1), 1e9, 1e9, 1e9, 0.9);
	counts(add(b, "syscall", 300, 1), 1e9 / 3 * 3, 1e9, 1e9, 0.9);
	counts(add(a, "pipe", 100, 1), 1e9, 1e9, 1e9, 0.8);
	counts(add(b, "pipe", 290, 1), 1e9, 1e9, 1e9, 0.8);
	counts(add(a, "dhrystone", 100, 1), 1e9, 1e9, 1e9, 0.0);
	counts(add(b, "dhrystone", 120, 1), 1e9, 1e9, 1e9, 0.0);
	/* frequency carries this one: same instructions and IPC, more cycles per second */
	wa = add(a, "whetstone", 100, 1);
	counts(wa, 1e9, 1e9, 1e9, 0);
	wb = add(b, "whetstone", 110, 1);
	counts(wb, 1.1e9, 1.1e9, 1e9, 0);
	/* different binaries, different semantics, multiplexed */
	wa->build_id = strdup("aaaa");
	wb->build_id = strdup("bbbb");
	c = ud_workload_add_counter(wa, "branch-misses");
	c->status = UD_COUNTED;
	c->value = 5;
	c->semantics = strdup("retired");
	c = ud_workload_add_counter(wb, "branch-misses");
	c->status = UD_COUNTED;
	c->value = 5;
	c->semantics = strdup("speculative");
	c->running_pct = 30;
	d = diff_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	env = json_object_get(d, "environment");
	ck_assert_uint_eq(json_array_size(env), 2); /* kernel, retbleed; not the label, not mds */
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(env, 0), "field")), "kernel");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(env, 1), "field")), "vulnerabilities.retbleed");
	f = json_object_get(d, "findings");
	ck_assert_ptr_nonnull(find(f, "kernel-heavy-gained-most"));
	ck_assert_ptr_nonnull(find(f, "frequency-explains-most"));
	ck_assert_ptr_nonnull(find(f, "different-binaries"));
	ck_assert_ptr_nonnull(find(f, "semantics-differ"));
	ck_assert_ptr_nonnull(find(f, "multiplexed"));
	ck_assert_uint_gt(json_array_size(json_object_get(find(f, "kernel-heavy-gained-most"), "evidence")), 1);
	json_decref(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* ---- the typed model ---- */

START_TEST(test_model_worked_example)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", "E5", "zen4");
	struct ud_profile *b = imported(UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", "E6", "zen5");
	struct ud_err err;
	struct ud_diff *d = model_of(a, b, &err);
	const struct ud_diff_workload *w;
	double product = 1, shares = 0;

	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_uint_eq(d->nworkloads, 1);
	w = &d->workloads[0];
	for (int f = 0; f < UD_FACTOR_COUNT; f++) {
		if (isnan(w->factor[f])) /* the clock factor: task-clock is there, so frequency and utilization stand */
			continue;
		product *= w->factor[f];
		shares += w->share[f];
	}
	ck_assert(isnan(w->factor[UD_FACTOR_CLOCK]));
	REL(product, w->speedup);
	ck_assert_double_eq_tol(shares, 1, 1e-9);
	ck_assert(w->has_dominant);
	ck_assert_int_eq(w->dominant, UD_FACTOR_IPC);
	ck_assert_int_eq(w->work.basis, UD_WORK_SCORE_ELAPSED);
	ck_assert_double_eq(w->metric[UD_M_IPC].ratio, w->factor[UD_FACTOR_IPC]);
	REL(w->cpi.branch + w->cpi.l1d + w->cpi.other, w->cpi.delta);
	ck_assert_int_eq(w->sig.method, UD_SIG_SINGLE_RUN);
	ck_assert_int_eq(w->sig.significant, -1);
	ck_assert(isnan(w->sig.p));
	ck_assert_str_eq(d->host[UD_SIDE_A].label, "E5");
	ck_assert_str_eq(d->host[UD_SIDE_B].uarch->name, "zen5");
	ck_assert_ptr_nonnull(strstr(w->explanation, "IPC (0.71 -> 2.70)"));
	/* imported without host facts, kernel-heavy, 3.8x IPC on the same instructions: both plausibility rules */
	ck_assert_uint_eq(d->nfindings, 2);
	ck_assert_uint_eq(fired(d, UD_FINDING_KERNEL_HEAVY), 1);
	ck_assert_uint_eq(fired(d, UD_FINDING_IPC_BEYOND_GENERATION), 1);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * Top-down on both sides (made-up PipelineL1 rows in the E5/E6 pastes,
 * tests/data/README.md): each bucket's cycles per KB is its fraction x that
 * host's cycles per KB, worked out by hand.  Cycles per KB: E5 97,062,243,821
 * over 397,163 KBps x 45.582058193 s = 18,103,507.4 KB, 5,361.52; E6
 * 111,042,895,781 over 1,849,374 x 45.112821074 = 83,430,478 KB, 1,330.96.
 * Bad speculation 0.40 x 5,361.52 = 2,144.61 -> 0.08 x 1,330.96 = 106.48:
 * 2,038.13 of the 4,030.55 fewer cycles per KB, a share of 0.50567.
 */
START_TEST(test_model_topdown_cycles)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/made-up-e5-topdown.txt", "E5", "zen4");
	struct ud_profile *b = imported(UD_TEST_DATA "/perf-stat/made-up-e6-topdown.txt", "E6", "zen5");
	struct ud_err err;
	struct ud_diff *d = model_of(a, b, &err);
	const struct ud_diff_topdown *td;
	double shares = 0;

	ck_assert_msg(d != NULL, "%s", err.msg);
	td = &d->workloads[0].topdown;
	ck_assert_ptr_nonnull(td->a);
	ck_assert_ptr_nonnull(td->b);
	ck_assert(td->same_method);
	ck_assert_double_eq_tol(td->cycles_a, 97062243821.0 / (397163 * 45.582058193), 1e-9);
	ck_assert_double_eq_tol(td->cycles_b, 111042895781.0 / (1849374 * 45.112821074), 1e-9);
	ck_assert_double_eq_tol(td->cycles_a, 5361.52, 0.01);
	ck_assert_double_eq_tol(td->cycles_b, 1330.96, 0.01);
	ck_assert_double_eq_tol(td->cycles[UD_TD_BAD_SPECULATION].a, 2144.61, 0.01);
	ck_assert_double_eq_tol(td->cycles[UD_TD_BAD_SPECULATION].b, 106.48, 0.01);
	ck_assert_double_eq_tol(td->cycles[UD_TD_BAD_SPECULATION].share_of_change, 0.50567, 1e-5);
	/* retiring 0.18 x 5,361.52 = 965.07 -> 0.60 x 1,330.96 = 798.58 */
	ck_assert_double_eq_tol(td->cycles[UD_TD_RETIRING].a, 965.07, 0.01);
	ck_assert_double_eq_tol(td->cycles[UD_TD_RETIRING].b, 798.58, 0.01);
	/* the buckets sum to 1 on both sides: their shares (the residual's 0 with them) sum to 1 */
	for (int k = 0; k <= UD_TD_RESIDUAL; k++)
		if (td->written[k] && (k < UD_TD_LEVEL1_COUNT || k == UD_TD_RESIDUAL))
			shares += td->cycles[k].share_of_change;
	ck_assert_double_eq_tol(shares, 1, 1e-12);
	ck_assert(td->written[UD_TD_SMT_CONTENTION] && td->written[UD_TD_RESIDUAL]);
	ck_assert(!td->written[UD_TD_FETCH_LATENCY]);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * Made up: w's cycles as if perf had counted none (cycles, and the PipelineL1
 * rows' ls_not_halted_cyc), and slots at width x the cycles it had (0: none).
 */
static void cycles_to_slots(struct ud_workload *w, double width)
{
	const struct ud_counter *cycles = ud_workload_counter(w, "cycles");
	double v;

	ck_assert_ptr_nonnull(cycles);
	v = cycles->value;
	for (size_t i = 0; i < w->ncounters; i++) {
		if (w->counters[i].cls != UD_CLASS_CYCLES)
			continue;
		w->counters[i].status = UD_NOT_COUNTED;
		w->counters[i].value = NAN;
	}
	if (width > 0) {
		struct ud_counter *s = ud_workload_add_counter(w, "slots");

		ck_assert_ptr_nonnull(s);
		s->status = UD_COUNTED;
		s->value = width * v;
	}
}

/*
 * Top-down without a cycles count: slots per unit split as cycles would
 * where both sides are one core (E6's counts as if on a Zen 4, 6 slots a
 * cycle, made up); on two cores of other widths (Zen 4's 6, Zen 5's 8)
 * slots are no common unit, and without slots either the fractions alone
 * stand, with no share of a change to give.
 */
START_TEST(test_model_topdown_without_cycles)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/made-up-e5-topdown.txt", "E5", "zen4");
	struct ud_profile *b = imported(UD_TEST_DATA "/perf-stat/made-up-e6-topdown.txt", "E6", "zen4");
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_topdown *td;
	double shares = 0;

	cycles_to_slots(&a->workloads[0], 6);
	cycles_to_slots(&b->workloads[0], 6);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	td = &d->workloads[0].topdown;
	ck_assert_int_eq(td->measure, UD_TD_IN_SLOTS);
	ck_assert(isnan(td->cycles_a) && isnan(td->cycles_b));
	ck_assert_double_eq_tol(td->per_a, 6 * 5361.52, 0.1);
	ck_assert_double_eq_tol(td->per_b, 6 * 1330.96, 0.1);
	ck_assert_double_eq_tol(td->cycles[UD_TD_BAD_SPECULATION].a, 6 * 2144.61, 0.1);
	for (int k = 0; k <= UD_TD_RESIDUAL; k++)
		if (td->written[k] && (k < UD_TD_LEVEL1_COUNT || k == UD_TD_RESIDUAL))
			shares += td->cycles[k].share_of_change;
	ck_assert_double_eq_tol(shares, 1, 1e-12);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);

	a = imported(UD_TEST_DATA "/perf-stat/made-up-e5-topdown.txt", "E5", "zen4");
	b = imported(UD_TEST_DATA "/perf-stat/made-up-e6-topdown.txt", "E6", "zen5");
	cycles_to_slots(&a->workloads[0], 6);
	cycles_to_slots(&b->workloads[0], 8);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->workloads[0].topdown.measure, UD_TD_IN_FRACTION); /* 6 and 8 slots a cycle */
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);

	a = imported(UD_TEST_DATA "/perf-stat/made-up-e5-topdown.txt", "E5", "zen4");
	b = imported(UD_TEST_DATA "/perf-stat/made-up-e6-topdown.txt", "E6", "zen5");
	cycles_to_slots(&a->workloads[0], 0);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	td = &d->workloads[0].topdown;
	ck_assert_int_eq(td->measure, UD_TD_IN_FRACTION);
	ck_assert_double_eq_tol(td->cycles[UD_TD_BAD_SPECULATION].a, 0.40, 1e-9);
	ck_assert_double_eq_tol(td->cycles[UD_TD_BAD_SPECULATION].b, 0.08, 1e-9);
	ck_assert(isnan(td->cycles[UD_TD_BAD_SPECULATION].share_of_change));
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* Two methods, slots on one side and cycle accounting on the other: each side's cycles, no share of a change. */
START_TEST(test_model_topdown_methods_apart)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/made-up-e5-topdown.txt", "E5", "zen4");
	struct ud_profile *b = imported(UD_TEST_DATA "/perf-stat/made-up-e6-topdown.txt", "E6", "zen5");
	struct ud_topdown *t = &b->workloads[0].topdown[0];
	struct ud_err err;
	struct ud_diff *d;
	const struct ud_diff_topdown *td;

	/* E6 as a cycle-accounting host would give it: frontend and backend stalls only */
	ud_topdown_init(t, UD_TD_CYCLE_ACCOUNTING, UD_TD_COUNTED, NULL);
	ud_topdown_set(t, UD_TD_FRONTEND_BOUND, 0.25, NULL);
	ud_topdown_set(t, UD_TD_BACKEND_BOUND, 0.5, NULL);
	ud_topdown_finish(t, "not top-down");
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	td = &d->workloads[0].topdown;
	ck_assert(!td->same_method);
	ck_assert(td->written[UD_TD_RETIRING] && td->written[UD_TD_FRONTEND_BOUND]);
	ck_assert_double_eq_tol(td->cycles[UD_TD_FRONTEND_BOUND].b, 0.25 * td->cycles_b, 1e-9);
	ck_assert(isnan(td->cycles[UD_TD_RETIRING].b));
	for (int k = 0; k <= UD_TD_RESIDUAL; k++)
		ck_assert(isnan(td->cycles[k].share_of_change));
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_names_round_trip)
{
	for (int f = 0; f < UD_FACTOR_COUNT; f++) {
		enum ud_factor back = UD_FACTOR_COUNT;

		ck_assert_int_eq(ud_factor_from_name(ud_factor_name((enum ud_factor)f), &back), 0);
		ck_assert_int_eq(back, f);
		ck_assert_uint_gt(strlen(ud_factor_label((enum ud_factor)f)), 0);
	}
	for (int id = 0; id < UD_FINDING_COUNT; id++) {
		enum ud_finding_id back = UD_FINDING_COUNT;

		ck_assert_int_eq(ud_finding_from_name(ud_finding_name((enum ud_finding_id)id), &back), 0);
		ck_assert_int_eq(back, id);
		ck_assert_uint_gt(strlen(ud_finding_hypothesis((enum ud_finding_id)id)), 0);
	}
	for (int m = 0; m < UD_METRIC_COUNT; m++) {
		ck_assert_uint_gt(strlen(ud_metric_label((enum ud_metric)m)), 0);
		for (int n = 0; n < m; n++)
			ck_assert_str_ne(ud_metric_name((enum ud_metric)m), ud_metric_name((enum ud_metric)n));
	}
	for (int b = 0; b < UD_WORK_BASIS_COUNT; b++)
		ck_assert_ptr_nonnull(ud_work_basis_text((enum ud_work_basis)b));
	for (int m = 0; m < UD_SIG_METHOD_COUNT; m++)
		ck_assert_ptr_nonnull(ud_sig_method_name((enum ud_sig_method)m));
	ck_assert_str_eq(ud_factor_name(UD_FACTOR_PATH_LENGTH), "path_length");
	ck_assert_str_eq(ud_factor_label(UD_FACTOR_PATH_LENGTH), "path length");
	ck_assert_str_eq(ud_finding_name(UD_FINDING_KERNEL_HEAVY_GAINED_MOST), "kernel-heavy-gained-most");
	ck_assert_int_eq(ud_factor_from_name("cores", &(enum ud_factor){ 0 }), -1);
	ck_assert_int_eq(ud_finding_from_name("", &(enum ud_finding_id){ 0 }), -1);
}
END_TEST

/* The document comes from the model alone: change the model, the JSON follows. */
START_TEST(test_json_from_model)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_err err;
	struct ud_diff *d;
	json_t *doc, *w, *f;

	counts(add(a, "x", 100, 1), 1e9, 1e9, 1e9, 0.1);
	counts(add(b, "x", 200, 1), 1e9, 0.5e9, 1e9, 0.1);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	d->workloads[0].factor[UD_FACTOR_FREQUENCY] = NAN;
	d->workloads[0].share[UD_FACTOR_IPC] = INFINITY;
	d->workloads[0].sig.significant = 1;
	doc = ud_diff_to_json(d);
	w = json_array_get(json_object_get(doc, "workloads"), 0);
	ck_assert(json_is_null(json_object_get(json_object_get(w, "factors"), "frequency")));
	ck_assert(json_is_null(json_object_get(json_object_get(w, "shares"), "ipc")));
	ck_assert(json_is_true(json_object_get(w, "significant")));
	ck_assert(json_is_true(json_object_get(json_object_get(w, "significance"), "significant")));
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "findings")), 0);
	json_decref(doc);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
	/* a finding's "confirm" is written where the rule names one */
	a = ud_profile_new(NULL);
	b = ud_profile_new(NULL);
	put(add(a, "y", 1, 1), "task-clock", 1);
	counts(add(b, "y", 1, 1), 1e9, 1e9, 1e9, 0);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_uint_eq(d->nfindings, 1);
	d->findings[0].confirm = "uarchdiff events";
	doc = ud_diff_to_json(d);
	f = json_array_get(json_object_get(doc, "findings"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(f, "id")), "no-hardware-counters");
	ck_assert_str_eq(json_string_value(json_object_get(f, "confirm")), "uarchdiff events");
	json_decref(doc);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* ---- each rule fires on its case and not otherwise ---- */


/* Two hosts with one workload each; B gains 2x through IPC unless the case says otherwise. */
struct pair {
	struct ud_profile *a, *b;
	struct ud_workload *wa, *wb;
	struct ud_diff *d;
};

static void pair_new(struct pair *p, struct ud_host *host_a, struct ud_host *host_b)
{
	p->d = NULL;
	p->a = ud_profile_new(host_a);
	p->b = ud_profile_new(host_b);
	p->wa = add(p->a, "w", 100, 1);
	p->wb = add(p->b, "w", 200, 1);
	counts(p->wa, 1e9, 2e9, 1e9, 0.1);
	counts(p->wb, 1e9, 1e9, 1e9, 0.1);
}

static const struct ud_diff *pair_diff(struct pair *p)
{
	struct ud_err err;

	ud_diff_free(p->d);
	p->d = model_of(p->a, p->b, &err);
	ck_assert_msg(p->d != NULL, "%s", err.msg);
	return p->d;
}

static void pair_free(struct pair *p)
{
	ud_diff_free(p->d);
	ud_profile_free(p->a);
	ud_profile_free(p->b);
}

START_TEST(test_rule_frequency_explains_most)
{
	struct pair p;

	pair_new(&p, NULL, NULL);
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_FREQUENCY_EXPLAINS_MOST), 0); /* IPC carries it */
	ck_assert_uint_eq(p.d->nfindings, 0);
	/* same IPC and path length, twice the cycles in the same task-clock: all frequency */
	p.wb->counters[0].value = 2e9;
	p.wb->counters[1].value = 4e9;
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_FREQUENCY_EXPLAINS_MOST), 1);
	ck_assert_ptr_nonnull(strstr(finding_of(p.d, UD_FINDING_FREQUENCY_EXPLAINS_MOST)->evidence[0], "GHz 2 -> 4"));
	pair_free(&p);
}
END_TEST

START_TEST(test_rule_different_binaries)
{
	struct pair p;

	pair_new(&p, NULL, NULL);
	p.wa->build_id = strdup("aaaa");
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_DIFFERENT_BINARIES), 0); /* unknown on B */
	p.wb->build_id = strdup("aaaa");
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_DIFFERENT_BINARIES), 0);
	p.wb->build_id[0] = 'b';
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_DIFFERENT_BINARIES), 1);
	ck_assert_str_eq(finding_of(p.d, UD_FINDING_DIFFERENT_BINARIES)->evidence[0], "w: build-id aaaa (?) vs baaa (?)");
	pair_free(&p);
}
END_TEST

/* A speedup measured on a noisy side says so: a finding per workload, with each side's warnings. */
START_TEST(test_rule_noisy_measurement)
{
	struct pair p;
	json_t *j;
	char *text;

	pair_new(&p, NULL, NULL);
	ud_workload_noise(p.wa)->samples_taken = 6;
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_NOISY_MEASUREMENT), 0); /* measured, quiet */
	ud_noise_add_warning(ud_workload_noise(p.wb), "ran at 0.48 CPUs utilized (below 0.90): something else held its CPU");
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_NOISY_MEASUREMENT), 1);
	ck_assert_ptr_nonnull(strstr(finding_of(p.d, UD_FINDING_NOISY_MEASUREMENT)->evidence[0],
				     "w on B ("));
	ck_assert_ptr_nonnull(strstr(finding_of(p.d, UD_FINDING_NOISY_MEASUREMENT)->evidence[0],
				     "): ran at 0.48 CPUs utilized"));
	/* two causes of one side: one line, together */
	ud_noise_add_warning(ud_workload_noise(p.wb), "95% interval 16.6% (above 5%): the samples disagree");
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_NOISY_MEASUREMENT), 1);
	ck_assert_uint_eq(finding_of(p.d, UD_FINDING_NOISY_MEASUREMENT)->nevidence, 1);
	ck_assert_ptr_nonnull(strstr(finding_of(p.d, UD_FINDING_NOISY_MEASUREMENT)->evidence[0],
				     "something else held its CPU; 95% interval 16.6%"));
	j = ud_diff_to_json(p.d);
	text = json_dumps(j, 0);
	ck_assert_ptr_nonnull(strstr(text, "noisy-measurement"));
	free(text);
	json_decref(j);
	pair_free(&p);
}
END_TEST

START_TEST(test_rule_semantics_differ)
{
	struct pair p;

	pair_new(&p, NULL, NULL);
	p.wa->counters[0].semantics = strdup("retired");
	p.wb->counters[0].semantics = strdup("retired");
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_SEMANTICS_DIFFER), 0);
	p.wb->counters[0].semantics[0] = 'x';
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_SEMANTICS_DIFFER), 1);
	ck_assert_str_eq(finding_of(p.d, UD_FINDING_SEMANTICS_DIFFER)->evidence[0],
			 "w, instructions: ? (retired) on A, ? (xetired) on B");
	pair_free(&p);
}
END_TEST

START_TEST(test_rule_multiplexed)
{
	struct pair p;

	pair_new(&p, NULL, NULL);
	p.wb->counters[1].running_pct = 50; /* half the time is not under half */
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_MULTIPLEXED), 0);
	p.wb->counters[1].running_pct = 49.5;
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_MULTIPLEXED), 1);
	ck_assert_str_eq(finding_of(p.d, UD_FINDING_MULTIPLEXED)->evidence[0],
			 "w, B (B): counted only part of the time: cycles 49.5%");
	p.wa->counters[1].enabled_ns = 100;
	p.wa->counters[1].running_ns = 10;
	p.wa->counters[0].enabled_ns = 100;
	p.wa->counters[0].running_ns = 20;
	/* one finding for the workload, a line per side listing its counters */
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_MULTIPLEXED), 1);
	ck_assert_uint_eq(finding_of(p.d, UD_FINDING_MULTIPLEXED)->nevidence, 2);
	ck_assert_str_eq(finding_of(p.d, UD_FINDING_MULTIPLEXED)->evidence[0],
			 "w, A (A): counted only part of the time: instructions 20.0%, cycles 10.0%");
	pair_free(&p);
	/* swapping A and B finds the same */
	pair_new(&p, NULL, NULL);
	p.wa->counters[1].running_pct = 49.5;
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_MULTIPLEXED), 1);
	ck_assert_str_eq(finding_of(p.d, UD_FINDING_MULTIPLEXED)->evidence[0],
			 "w, A (A): counted only part of the time: cycles 49.5%");
	pair_free(&p);
}
END_TEST

START_TEST(test_rule_no_hardware_counters)
{
	struct pair p;

	pair_new(&p, host_from_text("{\"label\": \"vm\", \"pmu\": \"none\"}"), NULL);
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_NO_HARDWARE_COUNTERS), 0);
	p.wa->counters[0].status = UD_NOT_SUPPORTED; /* A's instructions, no longer counted */
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_NO_HARDWARE_COUNTERS), 1);
	ck_assert_str_eq(finding_of(p.d, UD_FINDING_NO_HARDWARE_COUNTERS)->evidence[0],
			 "vm: no workload has a counted 'instructions'; pmu: none");
	pair_free(&p);
}
END_TEST

/* Three workloads, one host differing in a mitigation: which of the two mitigation rules fires. */
static void mitigation_case(struct pair *p, const char *a_vuln, double kernel_gain, double compute_gain)
{
	pair_new(p, host_from_text("{\"kernel\": \"5.15\", \"vulnerabilities\": {\"retbleed\": \"%s\"}}", a_vuln),
		 host_from_text("{\"kernel\": \"6.8\", \"vulnerabilities\": {\"retbleed\": \"Not affected\"}}"));
	counts(add(p->a, "syscall", 100, 1), 1e9, 1e9, 1e9, 0.9);
	counts(add(p->b, "syscall", 100 * kernel_gain, 1), 1e9, 1e9, 1e9, 0.9);
	counts(add(p->a, "dhrystone", 100, 1), 1e9, 1e9, 1e9, 0.0);
	counts(add(p->b, "dhrystone", 100 * compute_gain, 1), 1e9, 1e9, 1e9, 0.0);
}

START_TEST(test_rule_mitigations)
{
	struct pair p;

	/* the kernel-heavy workload gained most: 0.9 vs a mean of 0.1 below the median */
	mitigation_case(&p, "Mitigation: IBRS", 3, 1.2);
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_KERNEL_HEAVY_GAINED_MOST), 1);
	ck_assert_uint_eq(fired(p.d, UD_FINDING_MITIGATIONS_DIFFER), 0);
	/* the diff's rules come first, in the table's order: kernel-heavy, then this one */
	ck_assert_int_eq(p.d->findings[0].id, UD_FINDING_KERNEL_HEAVY);
	ck_assert_int_eq(p.d->findings[1].id, UD_FINDING_KERNEL_HEAVY_GAINED_MOST);
	ck_assert_str_eq(p.d->findings[1].evidence[0], "kernel: 5.15 | 6.8");
	ck_assert_str_eq(p.d->findings[1].evidence[1], "vulnerabilities.retbleed: Mitigation: IBRS | Not affected");
	ck_assert_str_eq(p.d->findings[1].evidence[3], "syscall: speedup 3x, 90% of CPU time in the kernel");
	pair_free(&p);
	/* the compute-bound one gained most: mitigations differ, nothing more */
	mitigation_case(&p, "Mitigation: IBRS", 1.1, 3);
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_KERNEL_HEAVY_GAINED_MOST), 0);
	ck_assert_uint_eq(fired(p.d, UD_FINDING_MITIGATIONS_DIFFER), 1);
	pair_free(&p);
	/* only the kernel differs: neither */
	mitigation_case(&p, "Not affected", 3, 1.2);
	ck_assert_uint_eq(fired(pair_diff(&p), UD_FINDING_KERNEL_HEAVY_GAINED_MOST), 0);
	ck_assert_uint_eq(fired(p.d, UD_FINDING_MITIGATIONS_DIFFER), 0);
	ck_assert_uint_eq(p.d->nenv, 1);
	ck_assert_str_eq(p.d->env[0].field, "kernel");
	pair_free(&p);
}
END_TEST

/* Counters pair by name whatever their order, once each (a sort, not a scan per counter: issue 12's sibling). */
START_TEST(test_counters_pair_by_name)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_workload *wa = add(a, "w", 100, 1), *wb = add(b, "w", 200, 1);
	struct ud_err err;
	struct ud_diff *d;
	char name[32];

	wa->work_units = wb->work_units = 1;
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "ev%d", i);
		put(wa, name, i + 1);
		snprintf(name, sizeof(name), "ev%d", 2999 - i);
		put(wb, name, 2.0 * (3000 - i)); /* B holds them in the opposite order, each twice A's */
	}
	put(wa, "only-a", 5);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_ptr_null(d->workloads[0].counter_b[3000]); /* only-a */
	ck_assert_str_eq(d->workloads[0].counter_b[17]->name, "ev17");
	for (size_t i = 0; i < d->workloads[0].nper_unit; i++) {
		const struct ud_per_unit *u = &d->workloads[0].per_unit[i];

		if (strncmp(u->name, "ev", 2) == 0)
			REL(u->v.ratio, 2);
	}
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, diffutil_load, diffutil_unload);
	tcase_add_test(tc, test_worked_example);
	tcase_add_test(tc, test_counters_pair_by_name);
	tcase_add_test(tc, test_missing_counters_go_to_unexplained);
	tcase_add_test(tc, test_lower_is_better_and_zero_counters);
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_significance);
	tcase_add_test(tc, test_environment_and_findings);
	tcase_add_test(tc, test_model_worked_example);
	tcase_add_test(tc, test_model_topdown_cycles);
	tcase_add_test(tc, test_model_topdown_methods_apart);
	tcase_add_test(tc, test_model_topdown_without_cycles);
	tcase_add_test(tc, test_names_round_trip);
	tcase_add_test(tc, test_json_from_model);
	tcase_add_test(tc, test_rule_frequency_explains_most);
	tcase_add_test(tc, test_rule_different_binaries);
	tcase_add_test(tc, test_rule_noisy_measurement);
	tcase_add_test(tc, test_rule_semantics_differ);
	tcase_add_test(tc, test_rule_multiplexed);
	tcase_add_test(tc, test_rule_no_hardware_counters);
	tcase_add_test(tc, test_rule_mitigations);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
