/*
 * The diff per unit of work, user vs kernel, across workloads, and the
 * plausibility rules (issue 10, SPEC §5.1): every value computed here by
 * hand from the fixtures' raw numbers or from profiles built in the test.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diffutil.h"
#include "report.h"
#include "report_view.h"
#include "testutil.h"
#include "text.h"

static const struct ud_per_unit *per_unit(const struct ud_diff_workload *w, const char *name)
{
	for (size_t i = 0; i < w->nper_unit; i++)
		if (strcmp(w->per_unit[i].name, name) == 0)
			return &w->per_unit[i];
	return NULL;
}

static bool has_evidence(const struct ud_finding *f, const char *text)
{
	for (size_t i = 0; f && i < f->nevidence; i++)
		if (strstr(f->evidence[i], text))
			return true;
	return false;
}

START_TEST(test_worked_example_per_unit)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", "E5", "zen4");
	struct ud_profile *b = imported(UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", "E6", "zen5");
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d = model_of(a, b, &err);
	const struct ud_workload *wa = &a->workloads[0], *wb = &b->workloads[0];
	/* perf's own lines: score (KBps), elapsed, user and sys seconds */
	const double uA = 397163 * 45.582058193, uB = 1849374 * 45.112821074;
	const double userA = 7.321303e9 / uA, userB = 3.634252e9 / uB, sysA = 24.381246e9 / uA, sysB = 28.678496e9 / uB;
	const struct ud_diff_workload *w;
	size_t compared = 0;

	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	/* work per run: score x elapsed, in KB (the score is KB per second) */
	REL(w->work.a, uA);
	REL(w->work.b, uB);
	ck_assert_str_eq(w->work.unit, "KB");
	ck_assert_int_eq(w->work.basis, UD_WORK_SCORE_ELAPSED);
	/* every per-unit value: total over work, for times and each counter counted on both sides */
	REL(per_unit(w, "user_ns")->v.a, userA);
	REL(per_unit(w, "sys_ns")->v.b, sysB);
	REL(per_unit(w, "task-clock")->v.a, 34021.81e6 / uA);
	for (size_t i = 0; i < wa->ncounters; i++) {
		const char *name = wa->counters[i].name;
		const struct ud_per_unit *pu = per_unit(w, name);

		if (wa->counters[i].status != UD_COUNTED)
			continue;
		ck_assert_msg(pu != NULL, "no per-unit value for %s", name);
		REL(pu->v.a, ud_workload_value(wa, name) / uA);
		REL(pu->v.b, ud_workload_value(wb, name) / uB);
		REL(pu->v.ratio, pu->v.b / pu->v.a);
		compared++;
	}
	ck_assert_uint_eq(compared, 11); /* 13 counters, LLC-loads and LLC-load-misses not supported there */
	/* the figures: per KB 3,807 -> 3,594 instructions, 91 -> 3.0 branch misses, 1.35 -> 0.34 µs kernel */
	ck_assert_double_eq_tol(per_unit(w, "instructions")->v.a, 3807, 0.5);
	ck_assert_double_eq_tol(per_unit(w, "instructions")->v.b, 3594, 0.5);
	ck_assert_double_eq_tol(per_unit(w, "branch-misses")->v.a, 91.1, 0.05);
	ck_assert_double_eq_tol(per_unit(w, "branch-misses")->v.b, 3.03, 0.005);
	ck_assert_double_eq_tol(w->mode[UD_MODE_KERNEL].a / 1e3, 1.35, 0.005);
	ck_assert_double_eq_tol(w->mode[UD_MODE_KERNEL].b / 1e3, 0.344, 0.0005);
	/* the user/kernel split: kernel's part of the change, shares summing to 1 */
	REL(w->mode[UD_MODE_USER].a, userA);
	REL(w->mode[UD_MODE_KERNEL].share, (sysA - sysB) / ((userA + sysA) - (userB + sysB)));
	ck_assert_double_eq_tol(w->mode[UD_MODE_USER].share + w->mode[UD_MODE_KERNEL].share, 1, 1e-12);
	ck_assert(isnan(w->mode[UD_MODE_KERNEL].ipc.a)); /* no per-mode counters in these pastes */
	/* across workloads: one, kernel-heavy */
	ck_assert_int_eq(w->group, UD_GROUP_KERNEL_HEAVY);
	REL(d->summary.geomean_speedup, 1849374.0 / 397163.0);
	ck_assert_uint_eq(d->summary.group_n[UD_GROUP_KERNEL_HEAVY], 1);
	ck_assert(d->summary.counters);
	ck_assert_str_eq(d->summary.headline, "E6 is 4.66x faster than E5 on the one workload compared.");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_plausibility_rules_on_the_worked_example)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", "E5", "zen4");
	struct ud_profile *b = imported(UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", "E6", "zen5");
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d = model_of(a, b, &err);
	const struct ud_finding *ipc, *kernel;

	ck_assert_msg(d != NULL, "%s", err.msg);
	ipc = finding_of(d, UD_FINDING_IPC_BEYOND_GENERATION);
	kernel = finding_of(d, UD_FINDING_KERNEL_HEAVY);
	ck_assert(has_evidence(ipc, "IPC 0.71 -> 2.70 (3.8x) on nearly the same instructions (path length 1.06x)"));
	ck_assert(has_evidence(ipc, "instructions per KB 3807 -> 3594"));
	ck_assert(has_evidence(ipc, "branch misses per KB 91.1 -> 3.03"));
	ck_assert_ptr_nonnull(strstr(ipc->confirm, "cycles:u,instructions:u,cycles:k,instructions:k"));
	ck_assert(has_evidence(kernel, "77% -> 89% of CPU time in the kernel; E6 is 4.66x faster than E5"));
	ck_assert(has_evidence(kernel, "kernel time per KB 1.35 µs -> 344 ns, 74% of the change in CPU time per KB"));
	ck_assert(has_evidence(kernel, "E5: kernel and mitigations unknown"));
	/* host facts missing: the confirmation says how to collect them */
	ck_assert_ptr_nonnull(strstr(kernel->confirm, "uarchdiff host --json"));
	ck_assert_ptr_nonnull(strstr(kernel->confirm, "import --host"));
	ck_assert_ptr_nonnull(strstr(d->workloads[0].explanation, "beyond what a core generation brings"));
	ck_assert_ptr_nonnull(strstr(d->workloads[0].explanation, "77% -> 89% of its CPU time in the kernel"));
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* B gains through IPC alone, by ipc_gain, on hosts of these microarchitectures. */
static struct ud_diff *ipc_case(const char *ua, const char *ub, double ipc_gain, double path_gain)
{
	struct ud_profile *a = ud_profile_new(host_from_text("{\"cpu\": {\"uarch\": \"%s\"}}", ua));
	struct ud_profile *b = ud_profile_new(host_from_text("{\"cpu\": {\"uarch\": \"%s\"}}", ub));
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;

	/* 1 GHz, one CPU busy on both: the speedup is path length x IPC, nothing else */
	counts(add(a, "w", 100, 1), 1e9, 1e9, 1e9, 0.0);
	counts(add(b, "w", 100 * ipc_gain * path_gain, 1), 1e9 * ipc_gain, 1e9, 1e9, 0.0);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	/* the model borrows the profiles: keep them alive in the diff's hosts until the caller frees both */
	return d;
}

static void ipc_case_free(struct ud_diff *d)
{
	struct ud_profile *a = (struct ud_profile *)d->host[UD_SIDE_A].profile;
	struct ud_profile *b = (struct ud_profile *)d->host[UD_SIDE_B].profile;

	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}

START_TEST(test_ipc_beyond_generation_only_when_it_is)
{
	static const struct {
		const char *ua, *ub;
		double ipc, path;
		size_t fires;
	} cases[] = {
		{ "zen4", "zen5", 1.6, 1.0, 1 },          /* beyond a generation */
		{ "zen5", "zen4", 1 / 1.6, 1.0, 1 },      /* the other way too */
		{ "zen4", "zen5", 1.3, 1.0, 0 },          /* a generation's worth */
		{ "zen4", "zen5", 1.6, 1.5, 0 },          /* different instructions: path length 1.5x */
		{ "zen4", "neoverse-n1", 1.6, 1.0, 0 },   /* different instruction sets */
		{ "zen4", "no-such-core", 1.6, 1.0, 0 },  /* unknown core */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ud_diff *d = ipc_case(cases[i].ua, cases[i].ub, cases[i].ipc, cases[i].path);

		ck_assert_msg(fired(d, UD_FINDING_IPC_BEYOND_GENERATION) == cases[i].fires, "case %zu", i);
		ck_assert_int_eq(d->workloads[0].ipc_beyond_generation, cases[i].fires);
		ipc_case_free(d);
	}
}
END_TEST

/*
 * Every sentence states a ratio by the one rule (issue 36), as the reports'
 * ratio cells do: "1,500x", never "1.5e+03x"; "n/a", never "infx".
 */
START_TEST(test_sentences_take_the_ratio_rule)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 1.333, "1.33x" }, { 0.979, "0.979x" }, { 1222.4, "1,222x" }, { 4.87e15, "4.87Px" },
		{ 1e40, "1e+40x" }, { 0.00005, "0.00005x" }, { INFINITY, "n/a" }, { NAN, "n/a" },
	};
	char buf[UD_RATIO_MAX];
	struct ud_diff *d;
	const char *e;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_str_eq(ud_format_ratio_x(cases[i].v, buf, sizeof(buf)), cases[i].want);
	d = ipc_case("zen4", "zen5", 1.0, 1500);
	e = d->workloads[0].explanation;
	ck_assert_msg(strstr(e, "Path length (A needs 1,500x the instructions per unit)"), "%s", e);
	ipc_case_free(d);
	d = ipc_case("zen4", "zen5", 2000, 1.0);
	e = d->workloads[0].explanation;
	ck_assert_msg(strstr(e, " A 2,000x IPC rise on nearly the same instructions"), "%s", e);
	ck_assert(has_evidence(finding_of(d, UD_FINDING_IPC_BEYOND_GENERATION), "(2,000x) on nearly the same"));
	ck_assert_msg(!strstr(e, "e+03x"), "%s", e);
	ipc_case_free(d);
}
END_TEST

/* A kernel-heavy workload gaining 4x, a compute-bound one 1.2x, a mixed one, and UnixBench's composite. */
START_TEST(test_summary_across_workloads)
{
	struct ud_profile *a = ud_profile_new(host_from_text("{\"label\": \"old\"}"));
	struct ud_profile *b = ud_profile_new(host_from_text("{\"label\": \"new\"}"));
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	json_t *doc, *groups;

	counts(add(a, "syscall", 100, 1), 1e9, 1e9, 1e9, 0.9);
	counts(add(b, "syscall", 400, 1), 1e9, 1e9, 1e9, 0.6);
	counts(add(a, "int", 100, 1), 1e9, 1e9, 1e9, 0.01);
	counts(add(b, "int", 120, 1), 1e9, 1e9, 1e9, 0.1);
	counts(add(a, "pipe", 100, 1), 1e9, 1e9, 1e9, 0.3);
	counts(add(b, "pipe", 150, 1), 1e9, 1e9, 1e9, 0.3);
	add(a, "System Benchmarks Index Score (1 copy)", 1000, 1)->composite = true;
	add(b, "System Benchmarks Index Score (1 copy)", 1500, 1)->composite = true;
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	/* the composite stays out of every mean */
	REL(d->summary.geomean_speedup, cbrt(4 * 1.2 * 1.5));
	ck_assert_uint_eq(d->summary.ngeomean, 3);
	REL(d->summary.group_geomean[UD_GROUP_KERNEL_HEAVY], 4);
	REL(d->summary.group_geomean[UD_GROUP_COMPUTE_BOUND], 1.2);
	REL(d->summary.group_geomean[UD_GROUP_MIXED], 1.5);
	ck_assert_uint_eq(d->summary.group_n[UD_GROUP_UNKNOWN], 0);
	ck_assert_msg(strstr(d->summary.headline, "new is 1.93x faster than old over 3 workloads"), "%s", d->summary.headline);
	ck_assert_ptr_nonnull(strstr(d->summary.headline, "kernel-heavy ones 4.00x faster (1) against the compute-bound ones 1.20x faster (1)"));
	ck_assert_ptr_nonnull(strstr(d->summary.headline, "kernel path"));
	/* the document: composites apart, groups with their workloads */
	doc = ud_diff_to_json(d);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(json_object_get(doc, "summary"), "composites"), 0), "name")),
			 "System Benchmarks Index Score (1 copy)");
	REL(at(json_array_get(json_object_get(json_object_get(doc, "summary"), "composites"), 0), "ratio"), 1.5);
	groups = json_object_get(json_object_get(doc, "summary"), "groups");
	ck_assert_uint_eq(json_array_size(groups), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(groups, 0), "name")), "kernel-heavy");
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(json_array_get(groups, 0), "workloads"), 0)), "syscall");
	ck_assert_uint_eq(fired(d, UD_FINDING_KERNEL_HEAVY), 1);
	ck_assert(has_evidence(finding_of(d, UD_FINDING_KERNEL_HEAVY), "geometric mean 4x over 1; compute-bound ones: 1.2x over 1"));
	json_decref(doc);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* Two perf pastes with neither elapsed time nor score: compared by CPU time, lower is better. */
START_TEST(test_counters_only_compare_by_task_clock)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_workload *wa = ud_profile_add_workload(a, "w"), *wb = ud_profile_add_workload(b, "w");
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	const struct ud_diff_workload *w;
	double product = 1;

	/* B: 0.9x the instructions at 1.5x the IPC and 1.1x the clock */
	put(wa, "instructions", 3e9);
	put(wa, "cycles", 3e9);
	put(wa, "task-clock", 1.5e9);
	put(wb, "instructions", 2.7e9);
	put(wb, "cycles", 1.8e9);
	put(wb, "task-clock", 1.8e9 / (2 * 1.1));
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	ck_assert_int_eq(w->basis, UD_SPEEDUP_TASK_CLOCK);
	REL(w->speedup, 1.5e9 / (1.8e9 / 2.2));
	ck_assert(isnan(w->factor[UD_FACTOR_UTILIZATION]));
	for (int f = 0; f < UD_FACTOR_UTILIZATION; f++)
		product *= w->factor[f];
	REL(product, w->speedup); /* path length x IPC x frequency is the CPU-time ratio exactly */
	ck_assert_double_eq_tol(w->factor[UD_FACTOR_UNEXPLAINED], 1, 1e-12);
	ck_assert_str_eq(w->work.unit, "run");
	ck_assert_ptr_nonnull(strstr(w->explanation, "in CPU time (task-clock; no score on both sides, so both runs are taken to do the same work)"));
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_no_speedup_at_all_is_null_not_nan)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	json_t *doc;
	char *text;

	put(ud_profile_add_workload(a, "w"), "page-faults", 10);
	put(ud_profile_add_workload(b, "w"), "page-faults", 20);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->workloads[0].basis, UD_SPEEDUP_NONE);
	ck_assert(isnan(d->summary.geomean_speedup));
	doc = ud_diff_to_json(d);
	text = json_dumps(doc, 0);
	ck_assert(!has_word(text, "nan"));
	ck_assert(!has_word(text, "inf"));
	ck_assert_ptr_null(strstr(text, "(null)"));
	ck_assert_ptr_nonnull(strstr(text, "\"speedup\": null"));
	ck_assert_ptr_nonnull(strstr(text, "\"page-faults\": {\"a\": 10.0, \"b\": 20.0, \"ratio\": 2.0}"));
	free(text);
	json_decref(doc);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/*
 * A workload that failed on one side is said failed there, with what
 * stopped it (its program's own last words), never as "no score" on both;
 * a reason longer than any fixed buffer is kept whole.
 */
START_TEST(test_failed_side_says_why)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_workload *wb = ud_profile_add_workload(b, "lic");
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	char why[2100];

	add(a, "lic", 100, 1)->outcome = strdup("ok");
	memset(why, 'x', 2000);
	strcpy(why + 2000, " license server unreachable");
	wb->outcome = ud_printf_new("failed: ./lic exited with status 3: %s", why);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->workloads[0].verdict, UD_VERDICT_NO_CLAIM);
	ck_assert_str_eq(d->workloads[0].verdict_reason + strlen(d->workloads[0].verdict_reason) - 27,
			 " license server unreachable");
	ck_assert_msg(strncmp(d->workloads[0].verdict_reason, "B failed: ./lic exited with status 3: xxx", 41) == 0, "%s",
		      d->workloads[0].verdict_reason);
	ck_assert_ptr_nonnull(strstr(d->workloads[0].explanation, "No speed verdict on lic: B failed: ./lic exited"));
	ud_diff_free(d);
	/* no failure said, a score on one side only: which side measured nothing */
	free(wb->outcome);
	wb->outcome = NULL;
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_str_eq(d->workloads[0].verdict_reason, "B has no score and no CPU time: nothing measured its work, so "
							 "A's score has nothing to be compared with");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* A host against itself: nothing changed, so no share of a change and no nan anywhere. */
START_TEST(test_identical_hosts_say_no_nan)
{
	struct ud_profile *a = imported(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", "E5", "zen4");
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d = model_of(a, a, &err);
	json_t *doc;
	char *text;

	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_uint_eq(fired(d, UD_FINDING_KERNEL_HEAVY), 0); /* nothing moved: nothing to lay at the kernel's door */
	doc = ud_diff_to_json(d);
	text = json_dumps(doc, 0);
	ck_assert_msg(!has_word(text, "nan") && !has_word(text, "inf") && !strstr(text, "(null)"), "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "E5 is as fast as E5"));
	free(text);
	json_decref(doc);
	ud_diff_free(d);
	ud_profile_free(a);
}
END_TEST

START_TEST(test_slower_reads_slower)
{
	char buf[48];
	struct ud_diff *d = ipc_case("zen4", "zen4", 1 / 4.66, 1.0);

	ud_speedup_words(1 / 4.66, -1, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4.66x slower than");
	ud_speedup_words(2, -1, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2.00x faster than");
	/* "as fast as" comes from a test, never from rounding: unknown noise keeps the move, with the digit that shows it */
	ud_speedup_words(0.9987, -1, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1.001x slower than");
	ud_speedup_words(0.9987, 0, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "as fast as");
	ud_speedup_words(0.9987, 0, false, buf, sizeof(buf)); /* benchstat's mark, and never a ratio below 1 */
	ck_assert_str_eq(buf, "~ 1.001x slower");
	ud_speedup_words(1.3, 0, false, buf, sizeof(buf)); /* a large move within large noise */
	ck_assert_str_eq(buf, "~ 1.30x faster");
	ud_speedup_words(1.3, 1, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1.30x faster");
	ud_speedup_words(1, -1, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "as fast as");
	ud_speedup_words(1 / 12.34, -1, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "12.3x slower");
	ud_speedup_words(1500, -1, false, buf, sizeof(buf)); /* not "1.5e+03x": the rule for numbers, grouped */
	ck_assert_str_eq(buf, "1,500x faster");
	/* never every digit of a huge ratio cut at a buffer (issue 36): an SI suffix, past quetta an exponent */
	ud_speedup_words(4.87e15, -1, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4.87Px faster");
	ud_speedup_words(1e40, -1, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1e+40x faster");
	ud_speedup_words(1e-40, -1, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1e+40x slower than");
	ud_speedup_words(DBL_MAX, -1, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1.8e+308x faster");
	ud_speedup_words(4.9e-324, -1, false, buf, sizeof(buf)); /* a denormal: 1 / it is infinite, no ratio */
	ck_assert_str_eq(buf, "n/a");
	/* the same ratio, the same digits: the speedup's words and the report's ratio cell */
	{
		char cell[UD_NUMBER_MAX];

		ud_speedup_words(1222.4, -1, false, buf, sizeof(buf));
		ck_assert_str_eq(buf, "1,222x faster");
		ck_assert_str_eq(ud_format_ratio(1222.4, cell, sizeof(cell)), "1,222");
	}
	ud_speedup_words(NAN, -1, true, buf, sizeof(buf));
	ck_assert_str_eq(buf, "not comparable with");
	ud_speedup_words(0, -1, false, buf, sizeof(buf));
	ck_assert_str_eq(buf, "n/a");
	ck_assert_ptr_nonnull(strstr(d->workloads[0].explanation, "B is 4.66x slower than A on w ("));
	ck_assert_msg(!strstr(d->workloads[0].explanation, "0.215"), "%s", d->workloads[0].explanation);
	ck_assert_msg(!strstr(d->workloads[0].explanation, "nan"), "%s", d->workloads[0].explanation);
	ck_assert_ptr_nonnull(strstr(d->workloads[0].explanation, "(no miss or stall counters on both sides to say why)"));
	ck_assert_ptr_nonnull(strstr(d->workloads[0].explanation, "A 4.66x IPC drop"));
	ipc_case_free(d);
}
END_TEST

/* cycles:u/:k and instructions:u/:k counted on both sides: IPC per mode. */
START_TEST(test_time_split_with_per_mode_counters)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_workload *wa = add(a, "w", 100, 1), *wb = add(b, "w", 200, 1);
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	const struct ud_diff_workload *w;

	counts(wa, 2e9, 2e9, 1e9, 0.75);
	counts(wb, 2e9, 1e9, 0.5e9, 0.5);
	put(wa, "cycles:u", 0.5e9);
	put(wa, "instructions:u", 1e9);
	put(wa, "cycles:k", 1.5e9);
	put(wa, "instructions:k", 1e9);
	put(wb, "cycles:u", 0.5e9);
	put(wb, "instructions:u", 1e9);
	put(wb, "cycles:k", 0.5e9);
	put(wb, "instructions:k", 1e9);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	/* work per run = score x 1 s: user 0.25 s / 100 vs 0.25 s / 200, kernel 0.75 s / 100 vs 0.25 s / 200 */
	REL(w->mode[UD_MODE_USER].a, 0.25e9 / 100);
	REL(w->mode[UD_MODE_KERNEL].b, 0.25e9 / 200);
	REL(w->mode[UD_MODE_KERNEL].share, (7.5e6 - 1.25e6) / ((2.5e6 + 7.5e6) - (1.25e6 + 1.25e6)));
	ck_assert_double_eq_tol(w->mode[UD_MODE_USER].share + w->mode[UD_MODE_KERNEL].share, 1, 1e-12);
	REL(w->mode[UD_MODE_USER].ipc.ratio, 1);
	REL(w->mode[UD_MODE_KERNEL].ipc.a, 1 / 1.5);
	REL(w->mode[UD_MODE_KERNEL].ipc.ratio, 3);
	/* cycles per unit: user 5e6 -> 2.5e6, kernel 15e6 -> 2.5e6: the kernel carries 12.5 of the 15 saved */
	REL(w->mode[UD_MODE_KERNEL].cycles_share, 12.5 / 15);
	REL(w->mode[UD_MODE_USER].cycles_share, 2.5 / 15);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* The CPI stack's parts are upper bounds: when they add up past ΔCPI, say so. */
START_TEST(test_cpi_overshoot_is_marked)
{
	struct ud_profile *a = ud_profile_new(host_from_text("{\"cpu\": {\"uarch\": \"zen4\"}}"));
	struct ud_profile *b = ud_profile_new(host_from_text("{\"cpu\": {\"uarch\": \"zen4\"}}"));
	struct ud_workload *wa = add(a, "w", 100, 1), *wb = add(b, "w", 110, 1);
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;

	/* CPI 1.1 -> 1.0, but 10 fewer branch misses per 1000 instructions at 13 cycles each would be 0.13 */
	counts(wa, 1e9, 1.1e9, 1e9, 0);
	counts(wb, 1e9, 1.0e9, 1e9, 0);
	put(wa, "branch-misses", 10e6);
	put(wb, "branch-misses", 0);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert(d->workloads[0].cpi.other < 0);
	ck_assert(d->workloads[0].cpi.overshoot);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* Review findings: each a case that printed nonsense before. */
START_TEST(test_small_moves_are_not_split)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;

	counts(add(a, "w", 1000, 1), 1e9, 1.5e9, 0.5e9, 0);
	counts(add(b, "w", 1001, 1), 1e9, 1.515e9, 0.5e9, 0); /* 0.1% faster, GHz +1%: shares would be +-996% */
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert(!d->workloads[0].has_dominant);
	for (int f = 0; f < UD_FACTOR_COUNT; f++)
		ck_assert(isnan(d->workloads[0].share[f]));
	ck_assert_uint_eq(fired(d, UD_FINDING_FREQUENCY_EXPLAINS_MOST), 0);
	/* one run a side: the noise is unknown, so the move is stated, not rounded away */
	ck_assert_msg(strstr(d->workloads[0].explanation, "B is 1.001x faster than A on w (one run each: unverified). The move "
							 "is too small (under 1%) to split into factors."),
		      "%s", d->workloads[0].explanation);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_kernel_time_that_rose_reads_rose)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;

	counts(add(a, "w", 100, 1), 1e9, 1e9, 1e9, 0.8);
	counts(add(b, "w", 50, 1), 1e9, 1e9, 1e9, 0.8); /* half the work in the same time: kernel time per unit doubles */
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_msg(strstr(d->workloads[0].explanation, "where time per unit rose 8 ms -> 16 ms (80% of the change)"),
		      "%s", d->workloads[0].explanation);
	ck_assert_msg(strstr(d->workloads[0].explanation, "B is 2.00x slower than A"), "%s", d->workloads[0].explanation);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* A score speedup and a CPU-time speedup do not average: the means take the scores'. */
START_TEST(test_means_take_one_basis)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;

	counts(add(a, "scored", 100, 1), 1e9, 1e9, 1e9, 0);
	counts(add(b, "scored", 300, 1), 1e9, 1e9, 1e9, 0);
	put(ud_profile_add_workload(a, "pasted"), "task-clock", 1e9);
	put(ud_profile_add_workload(b, "pasted"), "task-clock", 3e9);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(d->summary.basis, UD_SPEEDUP_SCORE);
	ck_assert_uint_eq(d->summary.ngeomean, 1);
	REL(d->summary.geomean_speedup, 3);
	ck_assert_msg(strstr(d->summary.headline, "B is 3.00x faster than A on the one workload compared."), "%s",
		      d->summary.headline);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_only_composites_in_common)
{
	struct ud_profile *a = ud_profile_new(host_from_text("{\"label\": \"G2\"}"));
	struct ud_profile *b = ud_profile_new(host_from_text("{\"label\": \"G3\"}"));
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;

	add(a, "System Benchmarks Index Score (1 copy)", 1000, 1)->composite = true;
	add(b, "System Benchmarks Index Score (1 copy)", 1500, 1)->composite = true;
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_str_eq(d->summary.headline, "G2 and G3 have only composite scores in common: see them below. No "
					      "counters on either side: the scores say how much, not why.");
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

START_TEST(test_units_or_direction_differ_is_refused)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_err err = UD_ERR_INIT;
	struct ud_workload *wa = add(a, "copy", 100, 1), *wb = add(b, "copy", 200, 1);

	wa->units = strdup("KBps");
	wb->units = strdup("MBps");
	ck_assert_ptr_null(model_of(a, b, &err));
	ck_assert_str_eq(err.msg, "workload 'copy': units differ (KBps in a.json, MBps in b.json): not comparable");
	free(wb->units);
	wb->units = strdup("KBps");
	wb->higher_is_better = 0;
	ck_assert_ptr_null(model_of(a, b, &err));
	ck_assert_str_eq(err.msg, "workload 'copy': higher is better in a.json, lower in b.json: not comparable");
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* A robot table's score per_process_ops counts operations: the unit of work is an operation, not "per_process_o". */
START_TEST(test_operations_are_the_unit)
{
	static const char *const units[] = { "per_process_ops", "ops", "ops_per_sec" };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
		struct ud_workload *wa = add(a, "w", 100, 1), *wb = add(b, "w", 110, 1);
		struct ud_err err = UD_ERR_INIT;
		struct ud_diff *d;

		wa->units = strdup(units[i]);
		wb->units = strdup(units[i]);
		d = model_of(a, b, &err);
		ck_assert_msg(d != NULL, "%s", err.msg);
		ck_assert_str_eq(d->workloads[0].work.unit, "operation");
		ud_diff_free(d);
		ud_profile_free(a);
		ud_profile_free(b);
	}
}
END_TEST

/* perf without privilege prints cycles:u and instructions:u: they are the counts, in user mode. */
START_TEST(test_user_mode_counters_stand_in)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_workload *wa = add(a, "w", 100, 1), *wb = add(b, "w", 200, 1);
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;

	put(wa, "cycles:u", 2e9);
	put(wa, "instructions:u", 2e9);
	put(wb, "cycles:u", 1e9);
	put(wb, "instructions:u", 2e9);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	REL(d->workloads[0].factor[UD_FACTOR_IPC], 2);
	ck_assert(d->workloads[0].user_mode_only);
	ck_assert_uint_eq(fired(d, UD_FINDING_NO_HARDWARE_COUNTERS), 0);
	ck_assert_ptr_nonnull(strstr(d->workloads[0].explanation, "The counters counted user mode only"));
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* The report's view: per-mode IPC without a user/sys split, "per run", no "-0%" share. */
START_TEST(test_view_of_per_mode_counters)
{
	struct ud_profile *a = ud_profile_new(NULL), *b = ud_profile_new(NULL);
	struct ud_workload *wa = ud_profile_add_workload(a, "w"), *wb = ud_profile_add_workload(b, "w");
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	struct ud_view_pool pool = { 0 };
	struct rv_report view;
	const struct rv_workload *w;

	put(wa, "task-clock", 2e9);
	put(wb, "task-clock", 1e9);
	put(wa, "cycles:u", 2e9);
	put(wa, "instructions:u", 2e9);
	put(wb, "cycles:u", 1e9);
	put(wb, "instructions:u", 2e9);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_int_eq(ud_report_view(&pool, d, &view), 0);
	ck_assert_uint_eq(view.nworkloads, 1);
	w = &view.workloads[0];
	ck_assert_str_eq(w->time_split, "user IPC 1.00 -> 2.00");
	ck_assert_str_eq(w->per_unit_title, "per run");
	for (size_t i = 0; i < w->nfactors; i++)
		ck_assert_ptr_null(strstr(w->factors[i].col, "-0%"));
	ud_view_pool_free(&pool);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* A host the importer marked hybrid: the diff says so, once, naming its core types. */
START_TEST(test_hybrid_host_is_said)
{
	struct ud_profile *a = ud_profile_new(
		host_from_text("{\"label\": \"laptop\", \"hybrid\": true, \"core_pmus\": [\"cpu_core\", \"cpu_atom\"]}"));
	struct ud_profile *b = ud_profile_new(host_from_text("{\"label\": \"server\"}"));
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;

	counts(add(a, "w", 100, 1), 1e9, 1e9, 1e9, 0);
	counts(add(b, "w", 200, 1), 1e9, 1e9, 1e9, 0);
	d = model_of(a, b, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_uint_eq(fired(d, UD_FINDING_HYBRID_CPU), 1);
	ck_assert_str_eq(finding_of(d, UD_FINDING_HYBRID_CPU)->evidence[0],
			 "laptop: hybrid CPU (cpu_core, cpu_atom): counters kept per core type, IPC per core type in "
			 "derived_per_pmu");
	ck_assert_uint_eq(finding_of(d, UD_FINDING_HYBRID_CPU)->nevidence, 1);
	ud_diff_free(d);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diff_units");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, diffutil_load, diffutil_unload);
	tcase_add_test(tc, test_worked_example_per_unit);
	tcase_add_test(tc, test_plausibility_rules_on_the_worked_example);
	tcase_add_test(tc, test_ipc_beyond_generation_only_when_it_is);
	tcase_add_test(tc, test_sentences_take_the_ratio_rule);
	tcase_add_test(tc, test_summary_across_workloads);
	tcase_add_test(tc, test_counters_only_compare_by_task_clock);
	tcase_add_test(tc, test_no_speedup_at_all_is_null_not_nan);
	tcase_add_test(tc, test_failed_side_says_why);
	tcase_add_test(tc, test_identical_hosts_say_no_nan);
	tcase_add_test(tc, test_slower_reads_slower);
	tcase_add_test(tc, test_time_split_with_per_mode_counters);
	tcase_add_test(tc, test_cpi_overshoot_is_marked);
	tcase_add_test(tc, test_small_moves_are_not_split);
	tcase_add_test(tc, test_kernel_time_that_rose_reads_rose);
	tcase_add_test(tc, test_means_take_one_basis);
	tcase_add_test(tc, test_only_composites_in_common);
	tcase_add_test(tc, test_units_or_direction_differ_is_refused);
	tcase_add_test(tc, test_user_mode_counters_stand_in);
	tcase_add_test(tc, test_operations_are_the_unit);
	tcase_add_test(tc, test_view_of_per_mode_counters);
	tcase_add_test(tc, test_hybrid_host_is_said);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
