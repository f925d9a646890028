/*
 * The diff on real comparisons, held to what an expert concludes from each
 * (issue 33; tests/data/real/, each folder's expert.md): the verdict, the
 * significance, the dominant factor with its sign, the counters credited
 * and a "must not say" list, through the commands a user runs (import,
 * then diff -f json and -f text).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define REAL UD_TEST_DATA "/real/"
#define MAX_ARGS 12

static char *dir;

static void setup(void)
{
	dir = make_tempdir();
}

static void teardown(void)
{
	rm_tree(dir);
	free(dir);
}

/* Imports one side: `import --workload w ARGS... -o DIR/out FILE`; the test fails where it does not import. */
static void import_side(const char *out, const char *file, const char *const *args)
{
	char *argv[MAX_ARGS + 8], path[1024];
	struct run_result r;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, out);
	argv[n++] = UD_BINARY;
	argv[n++] = "import";
	argv[n++] = "--workload";
	argv[n++] = "w";
	for (size_t i = 0; args && args[i] && n < MAX_ARGS + 4; i++)
		argv[n++] = (char *)args[i];
	argv[n++] = "-o";
	argv[n++] = path;
	argv[n++] = (char *)file;
	argv[n] = NULL;
	r = run_capture(argv);
	ck_assert_msg(r.status == 0, "import %s: %s", file, r.err);
	run_free(&r);
}

/* `diff -f FORMAT a.json b.json` at 100 columns, its output (the caller frees it). */
static char *diff_output(const char *format)
{
	char a[1024], b[1024];
	char *argv[] = { "/usr/bin/env", "COLUMNS=100", UD_BINARY, "diff", "-f", (char *)format, a, b, NULL };
	struct run_result r;
	char *out;

	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(b, sizeof(b), "%s/b.json", dir);
	r = run_capture(argv);
	ck_assert_msg(r.status == 0, "diff: %s", r.err);
	out = r.out;
	r.out = NULL;
	run_free(&r);
	return out;
}

struct expert {
	const char *a, *b;              /* the two pastes, under tests/data/real/ */
	const char *const *args_a, *const *args_b; /* import options beside --workload w */
	const char *verdict;
	int significant;                /* 1, 0, -1 unknown (null) */
	const char *dominant;           /* the factor with the result's sign; NULL: none, or any */
	const char *cause;              /* a counter credited; NULL: none may be */
	const char *domain;             /* counting.domain */
	bool cross_isa;
	const char *const *must_say;    /* in the text report */
	const char *const *must_not;    /* nowhere in the text report */
};

static const json_t *workload_of(const json_t *doc)
{
	return json_array_get(json_object_get(doc, "workloads"), 0);
}

static void check_document(const struct expert *e, const json_t *w)
{
	const json_t *sig = json_object_get(w, "significant"), *causes = json_object_get(w, "causes");
	const char *dominant = json_string_value(json_object_get(w, "dominant"));

	ck_assert_str_eq(json_string_value(json_object_get(w, "verdict")), e->verdict);
	ck_assert_int_eq(json_is_null(sig) ? -1 : json_is_true(sig), e->significant);
	if (e->dominant)
		ck_assert_msg(dominant && strcmp(dominant, e->dominant) == 0, "%s: dominant %s, want %s", e->a,
			      dominant ? dominant : "none", e->dominant);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(w, "counting"), "domain")), e->domain);
	ck_assert(json_is_true(json_object_get(json_object_get(w, "counting"), "cross_isa")) == e->cross_isa);
	if (!e->cause) {
		ck_assert_msg(json_array_size(causes) == 0, "%s: %zu causes credited", e->a, json_array_size(causes));
		return;
	}
	ck_assert_msg(json_array_size(causes) > 0, "%s: no cause, want %s", e->a, e->cause);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(causes, 0), "counter")), e->cause);
}

/* What the explanation must say (it is one line in the document), and what no part of the report may. */
static void check_text(const struct expert *e, const char *explanation, const char *text)
{
	for (size_t i = 0; e->must_say && e->must_say[i]; i++)
		ck_assert_msg(strstr(explanation, e->must_say[i]) || strstr(text, e->must_say[i]),
			      "%s: does not say '%s': %.600s", e->a, e->must_say[i], explanation);
	for (size_t i = 0; e->must_not && e->must_not[i]; i++) {
		const char *at = strstr(text, e->must_not[i]);

		ck_assert_msg(!at, "%s: says '%s': ...%.200s", e->a, e->must_not[i], at ? at : "");
	}
}

static void check_case(const struct expert *e)
{
	char fa[512], fb[512], *json, *text;
	json_error_t jerr;
	json_t *doc;

	snprintf(fa, sizeof(fa), REAL "%s", e->a);
	snprintf(fb, sizeof(fb), REAL "%s", e->b);
	import_side("a.json", fa, e->args_a);
	import_side("b.json", fb, e->args_b);
	json = diff_output("json");
	doc = json_loads(json, 0, &jerr);
	ck_assert_msg(doc != NULL, "%s", jerr.text);
	check_document(e, workload_of(doc));
	text = diff_output("text");
	check_text(e, json_string_value(json_object_get(workload_of(doc), "explanation")), text);
	json_decref(doc);
	free(json);
	free(text);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
/* Said of every real case: none is from a host without a PMU, and no number is "nan". */
#define NEVER "no hardware PMU", " nan", "-nan"

/* Xeon 4216 vs EPYC 7302 (c01): the clock, not "unexplained"; one run each. */
START_TEST(test_c01_clock)
{
	check_case(&(struct expert){
		"c01-madgraph-xeon4216-vs-epyc7302/hostA.txt", "c01-madgraph-xeon4216-vs-epyc7302/hostB.txt",
		ARGS("--uarch", "cascadelake", "--score", "1.318427e6:events/s"),
		ARGS("--uarch", "rome", "--score", "1.790062e6:events/s"), "faster", -1, "clock", NULL, "all", false,
		ARGS("unverified", "perf printed 2.672 -> 3.271 GHz"),
		ARGS(NEVER, "The counters do not explain", "L1d MPKI") });
}
END_TEST

/* POWER9 (:u) vs Xeon 4216 (c02): other ISAs; cycles per event and the clock, never IPC or path length. */
START_TEST(test_c02_other_isa)
{
	check_case(&(struct expert){
		"c02-madgraph-power9-vs-xeon4216/hostA.txt", "c02-madgraph-power9-vs-xeon4216/hostB.txt",
		ARGS("--uarch", "power9", "--score", "1.419728e6:events/s"),
		ARGS("--uarch", "cascadelake", "--score", "1.301076e6:events/s"), "slower", -1, "clock", NULL, "mixed", true,
		ARGS("different instruction sets", "cycles per event"),
		ARGS(NEVER, "IPC (", "path length (", "the score does not follow") });
}
END_TEST

/* Xeon 4216 vs Ice Lake 8360Y (c03, :u on B, four runs on B): compared, approximately, IPC up. */
START_TEST(test_c03_user_side_compared)
{
	check_case(&(struct expert){
		"c03-madgraph-xeon4216-vs-icelake8360y/hostA.txt", "c03-madgraph-xeon4216-vs-icelake8360y/hostB.txt",
		ARGS("--uarch", "cascadelake", "--score", "1.318427e6:events/s"),
		ARGS("--uarch", "icelake", "--score", "1.492740e6,1.502616e6,1.523001e6,1.628911e6:events/s"), "faster",
		-1, NULL, NULL, "mixed", false, ARGS("IPC (2.52 -> 2.69)", "approximately"),
		ARGS(NEVER, "not computed") });
}
END_TEST

/* Xeon 4216 vs EPYC 7A53 (c04): the whole gap is the clock; IPC the same. */
START_TEST(test_c04_clock)
{
	check_case(&(struct expert){
		"c04-madgraph-xeon4216-vs-epyc7a53/hostA.txt", "c04-madgraph-xeon4216-vs-epyc7a53/hostB.txt",
		ARGS("--uarch", "cascadelake", "--score", "1.261679e6:events/s"),
		ARGS("--uarch", "milan", "--score", "1.428368e6:events/s"), "faster", -1, "clock", NULL, "mixed", false,
		ARGS("perf printed 3.083 -> 3.382 GHz"), ARGS(NEVER, "The counters do not explain", "L1d") });
}
END_TEST

/* --all-kernel, Ice Lake-X vs Milan (c05, c06): significant, kernel mode, cycles per unit; 45x branch misses no cause. */
START_TEST(test_c05_c06_all_kernel)
{
	static const char *const dirs[] = { "c05-lkml-icelakex-vs-milan-clear-page-erms",
					    "c06-lkml-icelakex-vs-milan-clear-pages-erms" };

	for (size_t i = 0; i < 2; i++) {
		char a[256], b[256];

		snprintf(a, sizeof(a), "%s/hostA.txt", dirs[i]);
		snprintf(b, sizeof(b), "%s/hostB.txt", dirs[i]);
		check_case(&(struct expert){ a, b, ARGS("--uarch", "icelake-sp"), ARGS("--uarch", "milan"), "faster", 1,
					     "cycles", NULL, "kernel", false,
					     ARGS("kernel mode only", "instructions are not the unit of work"),
					     ARGS(NEVER, "Path length (") });
	}
}
END_TEST

/* The schedstat patch (c07): the header's run count cut, "+-" still two runs; shorter path; misses no cause. */
START_TEST(test_c07_headerless_runs)
{
	check_case(&(struct expert){ "c07-lkml-schedstat-seqprintf-before-after/hostA.txt",
				     "c07-lkml-schedstat-seqprintf-before-after/hostB.txt", NULL, NULL, "faster", 1,
				     "path_length", "stalled-cycles-frontend", "all", false,
				     ARGS("at least 2 and at least 2 runs"),
				     ARGS(NEVER, "one run", "branch-misses 25") });
}
END_TEST

/* memcg local_lock on and off (c08): the same, within the noise, with the test named. */
START_TEST(test_c08_null_result)
{
	check_case(&(struct expert){ "c08-lkml-memcg-locallock-kernelbuild-on-off/hostA.txt",
				     "c08-lkml-memcg-locallock-kernelbuild-on-off/hostB.txt", NULL, NULL, "same", 0, NULL,
				     NULL, "all", false, ARGS("as fast as", "Welch's t on 5 and 5 runs"),
				     ARGS(NEVER, "x faster than", "x slower than") });
}
END_TEST

/* POWER9's return-stack fix (c09): under 1%, unverified, and the one counter that moved carries it. */
START_TEST(test_c09_branch_misses_under_one_percent)
{
	check_case(&(struct expert){ "c09-linuxppc-power9-signal-trampoline-before-after/hostA.txt",
				     "c09-linuxppc-power9-signal-trampoline-before-after/hostB.txt", ARGS("--uarch", "power9"),
				     ARGS("--uarch", "power9"), "faster", -1, NULL, "branch-misses", "all", false,
				     ARGS("unverified", "branch-misses 59,468,979 -> 39,786,942"), ARGS(NEVER) });
}
END_TEST

/* PTI on a Pentium M (c10): slower, significant; no miss carries 320M more cycles. */
START_TEST(test_c10_no_miss_cause)
{
	check_case(&(struct expert){ "c10-lkml-pentiumM-x86_32-pti-patchset-baseline-vs-patched/hostA.txt",
				     "c10-lkml-pentiumM-x86_32-pti-patchset-baseline-vs-patched/hostB.txt",
				     ARGS("--uarch", "pentium-m"), ARGS("--uarch", "pentium-m"), "slower", 1, NULL, NULL, "all",
				     false, ARGS("no counted miss or stall moved enough"), ARGS(NEVER) });
}
END_TEST

/* The worked example (c11): the kernel-crossing cost named before any miss, the misses as its symptoms. */
START_TEST(test_c11_crossing_before_misses)
{
	char *json;
	const char *text;
	json_t *doc;

	check_case(&(struct expert){ "c11-oci-e5-genoa-vs-e6-turin-unixbench/oci-e5-genoa-fstime.txt",
				     "c11-oci-e5-genoa-vs-e6-turin-unixbench/oci-e6-turin-fstime.txt",
				     ARGS("--uarch", "zen4"), ARGS("--uarch", "zen5"), "faster", -1, "ipc", "stalled-cycles-frontend", "all", false,
				     ARGS("a cost paid at every kernel crossing", "symptoms"), ARGS(NEVER) });
	json = diff_output("json");
	doc = json_loads(json, 0, NULL);
	text = json_string_value(json_object_get(workload_of(doc), "explanation"));
	ck_assert(strstr(text, "kernel crossing") && strstr(text, "L1-dcache-load-misses") &&
		  strstr(text, "kernel crossing") < strstr(text, "L1-dcache-load-misses"));
	json_decref(doc);
	free(json);
}
END_TEST

/* :u counts on a kernel-bound pipe benchmark (r05): within the noise, and 0.02 GHz of user cycles split nothing. */
START_TEST(test_r05_user_counts_cover_little)
{
	check_case(&(struct expert){ "r05-lkml-cpufreq-consolidate-3900x-pipe-user-only/a-before.txt",
				     "r05-lkml-cpufreq-consolidate-3900x-pipe-user-only/b-after.txt", NULL, NULL, "same", 0,
				     NULL, NULL, "user", false, ARGS("too little to split the speedup"),
				     ARGS(NEVER, "GHz", "IPC (") });
}
END_TEST

/* One ftrace_ops (r15): elapsed fell with the CPU time unchanged: more CPU, not less work. */
START_TEST(test_r15_waiting_removed)
{
	check_case(&(struct expert){ "r15-bpf-single-ftrace-ops-attach-sleep-not-cycles/a-current.txt",
				     "r15-bpf-single-ftrace-ops-attach-sleep-not-cycles/b-single-ftrace-ops.txt", NULL, NULL,
				     "faster", -1, "utilization", NULL, "all", false, ARGS("got more CPU"),
				     ARGS(NEVER, "IPC (") });
}
END_TEST

/* POWER10's tlbie ceiling (r10, -I 1000, three intervals of its rate each): the TLBIE stall carries it. */
START_TEST(test_r10_stall_counter_cause)
{
	check_case(&(struct expert){ "r10-linuxppc-power10-tlbie-ceiling-interval-raw/a-ceiling-34.txt",
				     "r10-linuxppc-power10-tlbie-ceiling-interval-raw/b-ceiling-32.txt",
				     ARGS("--score", "176,181,180:ops/s"), ARGS("--score", "318,313,322:ops/s"), "faster", 1,
				     NULL, "PM_EXEC_STALL", "all", false, ARGS("PM_EXEC_STALL_TLBIE"), ARGS(NEVER) });
}
END_TEST

/* The Apple M1's echo (r04): a 0.35 ms single run each gets no verdict, and the Apple PMU is a PMU. */
START_TEST(test_r04_too_short)
{
	check_case(&(struct expert){ "r04-asahi-m1-firestorm-vs-icestorm-echo/a-firestorm-core4.txt",
				     "r04-asahi-m1-firestorm-vs-icestorm-echo/b-icestorm-core0.txt", NULL, NULL, "no-claim",
				     -1, NULL, NULL, "user", false, ARGS("No speed verdict"),
				     ARGS(NEVER, "x faster than", "x slower than") });
}
END_TEST

/*
 * One x86 host under perf --topdown and under an older perf's -M topdownl1
 * (r18): no cycles on A, so the buckets are shown as shares of the slots,
 * both sides read as percentages (0.91 Backend_Bound is 91%), never n/a.
 */
START_TEST(test_r18_topdown_without_cycles)
{
	check_case(&(struct expert){ "r18-arm-learning-path-x86-vs-neoverse-v3-fpdiv-topdown/a-intel-perf-topdown.txt",
				     "r18-arm-learning-path-x86-vs-neoverse-v3-fpdiv-topdown/a-intel-perf-M-topdownl1.txt",
				     NULL, NULL, "faster", -1, NULL, NULL, "none", false,
				     ARGS("unverified", "top-down, share of the slots", "81.6%", "91.0%", "+9.4 pts"),
				     ARGS(NEVER, "0.9%", "n/a       n/a", "metric       ") });
}
END_TEST

/*
 * The LMB lookup patch (r23): instructions -2.1% and branches -2.4% far
 * outside their +-0.2%, the time within the noise: "same", and the counters
 * that moved said as a finding; branch misses (3.1007e9 vs 3.1002e9) never.
 */
START_TEST(test_r23_counters_moved_time_did_not)
{
	check_case(&(struct expert){ "r23-power-lpar-hotplug-mem-lmb-lookup-multiplexed-stalls/a-unpatched.txt",
				     "r23-power-lpar-hotplug-mem-lmb-lookup-multiplexed-stalls/b-patched.txt", NULL, NULL,
				     "same", 0, NULL, NULL, "all", false,
				     ARGS("Its counters did move: instructions 0.979x, branches 0.976x",
					  "Counters moved outside their noise while the time did not"),
				     ARGS(NEVER, "x faster than", "branch-misses per", "branch-misses 1") });
}
END_TEST

/* `diff -f json A B` of one A/A pair under tests/data/aa/ (the caller frees the document). */
static json_t *aa_diff(const char *pair)
{
	char a[512], b[512];
	char *argv[] = { UD_BINARY, "diff", "-f", "json", a, b, NULL };
	struct run_result r;
	json_t *doc;

	snprintf(a, sizeof(a), UD_TEST_DATA "/aa/%s-A.json", pair);
	snprintf(b, sizeof(b), UD_TEST_DATA "/aa/%s-B.json", pair);
	r = run_capture(argv);
	ck_assert_msg(r.status == 0, "%s", r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	run_free(&r);
	return doc;
}

/*
 * One host profiled twice (tests/data/aa/, real): never a headline
 * speedup; each workload the same, or faster only as "got more CPU" (the
 * loaded pair) or "measured on a noisy host" (spawn's 0.55x, p = 0.0022).
 */
START_TEST(test_same_host_twice)
{
	static const struct {
		const char *pair, *headline;
	} want[] = {
		{ "p02-loaded-a", "is not the work's: 2 within the noise, 3 carried by more CPU on one side" },
		{ "p05-quiet", "B is as fast as A over 5 workloads (geometric mean; every workload within its own noise)." },
		{ "p13-quiet", "is not the work's: 4 within the noise, 1 measured on a noisy host" },
	};

	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		json_t *doc = aa_diff(want[k].pair), *w;
		const char *headline = json_string_value(json_object_get(json_object_get(doc, "summary"), "headline"));
		size_t i;

		ck_assert_msg(strstr(headline, want[k].headline), "%s: %s", want[k].pair, headline);
		ck_assert_msg(!strstr(headline, "x faster than") && !strstr(headline, "x slower than"), "%s", headline);
		json_array_foreach(json_object_get(doc, "workloads"), i, w) {
			const char *verdict = json_string_value(json_object_get(w, "verdict"));
			const char *reason = json_string_value(json_object_get(w, "verdict_reason"));

			ck_assert_msg(strcmp(verdict, "same") == 0 || strstr(reason, "got more CPU") ||
					      strstr(reason, "measured on a noisy host"),
				      "%s %s: %s, %s", want[k].pair, json_string_value(json_object_get(w, "name")), verdict,
				      reason);
		}
		json_decref(doc);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diff_real");
	TCase *tc = tcase_create("experts");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_c01_clock);
	tcase_add_test(tc, test_c02_other_isa);
	tcase_add_test(tc, test_c03_user_side_compared);
	tcase_add_test(tc, test_c04_clock);
	tcase_add_test(tc, test_c05_c06_all_kernel);
	tcase_add_test(tc, test_c07_headerless_runs);
	tcase_add_test(tc, test_c08_null_result);
	tcase_add_test(tc, test_c09_branch_misses_under_one_percent);
	tcase_add_test(tc, test_c10_no_miss_cause);
	tcase_add_test(tc, test_c11_crossing_before_misses);
	tcase_add_test(tc, test_r05_user_counts_cover_little);
	tcase_add_test(tc, test_r15_waiting_removed);
	tcase_add_test(tc, test_r10_stall_counter_cause);
	tcase_add_test(tc, test_r04_too_short);
	tcase_add_test(tc, test_r18_topdown_without_cycles);
	tcase_add_test(tc, test_r23_counters_moved_time_did_not);
	tcase_add_test(tc, test_same_host_twice);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
