/*
 * Server benchmarks' reports imported (issue 40): redis-benchmark's -q and
 * full forms and wrk's report, on the real outputs in tests/data/
 * (redis-benchmark/, wrk/: origins in tests/data/README.md) number for
 * number; the two Redis fixtures' diff, which must not claim a move it has
 * no spread to judge; detection that steals no other format; damaged input
 * refused by line.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "testutil.h"

static struct ud_profile *p;
static struct ud_err err;

static void setup(void)
{
	p = ud_profile_new(NULL);
	err = (struct ud_err)UD_ERR_INIT;
}

static void teardown(void)
{
	ud_profile_free(p);
}

static void import_file(const char *path)
{
	struct ud_import_opts o = { .format = UD_FMT_AUTO };

	ck_assert_msg(ud_import_file(p, path, &o, &err) == 0, "%s: %s", path, err.msg);
}

static int import_text(const char *text)
{
	struct ud_import_opts o = { .format = UD_FMT_AUTO };

	return ud_import_buffer(p, text, strlen(text), "t.txt", &o, &err);
}

static const struct ud_workload *workload(const char *name)
{
	for (size_t i = 0; i < p->nworkloads; i++)
		if (strcmp(p->workloads[i].name, name) == 0)
			return &p->workloads[i];
	ck_abort_msg("no workload '%s'", name);
	return NULL;
}

static double sub(const struct ud_workload *w, const char *name)
{
	for (size_t i = 0; i < w->nsubscores; i++)
		if (strcmp(w->subscores[i].name, name) == 0)
			return w->subscores[i].value;
	return NAN;
}

static void is_rate(const struct ud_workload *w, double median, size_t samples)
{
	ck_assert_str_eq(w->units, "requests/s");
	ck_assert_int_eq(w->higher_is_better, 1);
	ck_assert_uint_eq(w->score.nsamples, samples);
	ck_assert_double_eq_tol(w->score.median, median, 1e-6);
	ck_assert_uint_eq(w->ncounters, 0);
}

static enum ud_import_format detect_file(const char *path)
{
	char *text = read_text(path);
	enum ud_import_format f = ud_import_detect(text, strlen(text));

	free(text);
	return f;
}

START_TEST(test_redis_quiet_fixtures)
{
	import_file(UD_TEST_DATA "/redis-benchmark/aws-m5-large-P10.txt");
	ck_assert_uint_eq(p->nworkloads, 18);
	is_rate(workload("redis-SET"), 395256.91, 1);
	is_rate(workload("redis-HSET"), 121921.48, 1);
	is_rate(workload("redis-LRANGE_500 (first 450 elements)"), 19213.03, 1);
	is_rate(workload("redis-MSET (10 keys)"), 173190.16, 1);
	ck_assert_str_eq(workload("redis-SET")->command, "redis-benchmark -h xxxx -n 500000 -r 10000 -P 10 -q");
	ck_assert_uint_eq(workload("redis-SET")->nsubscores, 0);
	/* the other one's command line is pasted after a shell prompt */
	ud_profile_free(p);
	p = ud_profile_new(NULL);
	import_file(UD_TEST_DATA "/redis-benchmark/aws-m6g-large-P10.txt");
	ck_assert_uint_eq(p->nworkloads, 18);
	is_rate(workload("redis-HSET"), 267094.03, 1);
	ck_assert_str_eq(workload("redis-GET")->command, "redis-benchmark -h xxxx -n 500000 -r 10000 -P 10 -q");
}
END_TEST

/* Redis's own documentation: the full form before 6.2 (the rate a line of its own), and -q of a command's own title. */
START_TEST(test_redis_doc_forms)
{
	const struct ud_workload *w;
	char *text = read_text(UD_TEST_DATA "/redis-benchmark/redis-doc-quiet-examples.txt");
	char *fourth = text;

	import_file(UD_TEST_DATA "/redis-benchmark/redis-doc-full-set-r100000.txt");
	w = workload("redis-SET");
	is_rate(w, 72144.87, 1);
	ck_assert_double_eq(sub(w, "requests"), 1000000);
	ck_assert_double_eq(sub(w, "elapsed"), 13.86);
	ck_assert_double_eq(sub(w, "parallel clients"), 50);
	ck_assert_double_eq(sub(w, "payload"), 3);
	ck_assert(isnan(sub(w, "latency p50"))); /* this form prints 1 ms buckets, not percentiles */
	/* its first two examples: one command, a title of its own after it */
	ud_profile_free(p);
	p = ud_profile_new(NULL);
	for (int i = 0; i < 5; i++)
		fourth = strchr(fourth, '\n') + 1;
	ck_assert_msg(ud_import_buffer(p, text, (size_t)(fourth - text), "doc.txt",
				       &(struct ud_import_opts){ .format = UD_FMT_AUTO }, &err) == 0, "%s", err.msg);
	is_rate(workload("redis-LPUSH"), 79239.30, 1);
	is_rate(workload("redis-script load redis.call('set','foo','bar')"), 69881.20, 1);
	ck_assert_str_eq(workload("redis-script load redis.call('set','foo','bar')")->command,
			 "redis-benchmark -n 100000 -q script load \"redis.call('set','foo','bar')\"");
	/* the whole page runs SET again under -P 16: another measurement, refused by line */
	ud_profile_free(p);
	p = ud_profile_new(NULL);
	ck_assert_int_ne(ud_import_buffer(p, text, strlen(text), "doc.txt", &(struct ud_import_opts){ 0 }, &err), 0);
	ck_assert_str_eq(err.msg, "doc.txt:7: 'SET' again under another command line than its first run's: import each "
				  "command's output on its own");
	ck_assert_uint_eq(p->nworkloads, 0);
	free(text);
}
END_TEST

/* 7.x's full form with its '\r' progress redraws, two runs a test: samples, sub-scores their mean. */
START_TEST(test_redis_full_runs)
{
	const struct ud_workload *w;

	import_file(UD_TEST_DATA "/redis-benchmark/made-up-full-7x-two-runs.txt");
	ck_assert_uint_eq(p->nworkloads, 2);
	w = workload("redis-SET");
	is_rate(w, (140845.07 + 136986.30) / 2, 2);
	ck_assert_double_eq(w->score.samples[0], 140845.07);
	ck_assert_double_eq_tol(sub(w, "latency p99"), (0.351 + 0.367) / 2, 1e-12);
	ck_assert_double_eq_tol(sub(w, "latency avg"), (0.187 + 0.192) / 2, 1e-12);
	ck_assert_str_eq(w->command, "redis-benchmark -t set,get -n 100000");
	is_rate(workload("redis-GET"), (144927.54 + 147058.83) / 2, 2);
}
END_TEST

START_TEST(test_redis_quiet_p50_and_progress)
{
	/* 6.2's -q: ", p50=" and the progress line redrawn before it, as a captured file keeps them */
	ck_assert_msg(import_text("SET: rps=101234.0 (overall: 99876.5) avg_msec=0.250 (overall: 0.251)\r"
				  "                                                     \r"
				  "SET: 100000.00 requests per second, p50=0.247 msec\n"
				  "GET: 105263.16 requests per second, p50=0.239 msec\n") == 0, "%s", err.msg);
	ck_assert_double_eq(sub(workload("redis-SET"), "latency p50"), 0.247);
	is_rate(workload("redis-GET"), 105263.16, 1);
	ck_assert(workload("redis-GET")->command == NULL);
}
END_TEST

START_TEST(test_wrk_reports)
{
	const struct ud_workload *w;

	import_file(UD_TEST_DATA "/wrk/rousan-hyper-macbook-i7-2020.txt");
	w = workload("wrk");
	is_rate(w, 112557.51, 1);
	ck_assert_str_eq(w->command, "wrk 8s test @ http://127.0.0.1:8082, 4 threads and 200 connections");
	ck_assert_double_eq_tol(sub(w, "latency avg"), 1.77, 1e-12);
	ck_assert_double_eq_tol(sub(w, "latency stdev"), 0.18606, 1e-12);
	ck_assert_double_eq_tol(sub(w, "latency p99"), 2.41, 1e-12);
	ck_assert_double_eq_tol(sub(w, "thread requests/s avg"), 28290, 1e-6);
	ck_assert_double_eq_tol(sub(w, "transfer"), 9.45 * 1048576, 1e-3);
	ck_assert_double_eq(sub(w, "requests"), 900610);
	ck_assert_double_eq(sub(w, "elapsed"), 8);
	ck_assert_double_eq(sub(w, "socket errors"), 31);
	/* wrk's README: no --latency, GB read */
	ud_profile_free(p);
	p = ud_profile_new(NULL);
	import_file(UD_TEST_DATA "/wrk/wg-wrk-readme-sample.txt");
	w = workload("wrk");
	is_rate(w, 748868.53, 1);
	ck_assert(isnan(sub(w, "latency p50")));
	ck_assert_double_eq_tol(sub(w, "latency avg"), 0.63591, 1e-12);
	ck_assert_double_eq_tol(sub(w, "transfer"), 606.33 * 1048576, 1e-3);
}
END_TEST

/* Other formats stay theirs; a perf stat of the benchmark is a perf paste. */
START_TEST(test_detection)
{
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/redis-benchmark/aws-m5-large-P10.txt"), UD_FMT_REDIS);
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/redis-benchmark/redis-doc-full-set-r100000.txt"), UD_FMT_REDIS);
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/redis-benchmark/made-up-full-7x-two-runs.txt"), UD_FMT_REDIS);
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/wrk/rousan-hyper-i7-12t-2021.txt"), UD_FMT_WRK);
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/wrk/wg-wrk-readme-sample.txt"), UD_FMT_WRK);
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/unixbench/aws-m6g-graviton2.txt"), UD_FMT_UNIXBENCH);
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt"), UD_FMT_PERF_TEXT);
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/perf-report/vm-syscall-cpu-clock.txt"), UD_FMT_PERF_REPORT);
	{
		static const char counted[] = "SET: 100000.00 requests per second\n\n"
					      " Performance counter stats for 'redis-benchmark -t set -q':\n\n"
					      "          1,234.56 msec task-clock\n";

		ck_assert_int_eq(ud_import_detect(counted, strlen(counted)), UD_FMT_PERF_TEXT);
	}
}
END_TEST

/* Damaged reports: refused with the line, nothing added. */
START_TEST(test_refused_by_line)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "SET: 100000.00 requests per second\nGET: 1052", "t.txt:2: a rate needs 'N requests per second' (line cut short?)" },
		{ "SET: 1234567890123456789.00 requests per second\n", "t.txt:1: number '1234567890123456789' is too large (more than 15 digits)" },
		{ "SET: 0.00 requests per second\n", "t.txt:1: 0 requests per second: nothing was measured to compare" },
		{ "SET: 100.00 requests per second, p50=\n", "t.txt:1: ', p50=' needs 'N msec' (line cut short?)" },
		{ "====== SET ======\n  100000 requests completed in 0.71 seconds\n  50 parallel clients\n",
		  "t.txt:1: '====== SET ======' has no 'requests per second' line (output cut short?)" },
		{ "====== SET ======\nSummary:\n  throughput summary: 1.00 requests per second\n  latency summary (msec):\n"
		  "          avg       min       p50       p95       p99       max\n        0.187     0.056\n",
		  "t.txt:6: the latency summary needs 6 values (avg min p50 p95 p99 max)" },
		{ "Running 8s test @ http://h\n  1 threads and 1 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
		  "    Latency   1.0ms\n",
		  "t.txt:4: a value with wrk's units expected at '' (line cut short?)" },
		{ "Running 8s test @ http://h\n  Latency Distribution\n     50%    1.74ms\n     75%\n",
		  "t.txt:4: a latency percentile needs 'P% TIME' (line cut short?)" },
		{ "Running 8s test @ http://h\n  Latency Distribution\n     50%    1.74\n",
		  "t.txt:3: a value with wrk's units expected at '1.74' (line cut short?)" },
		{ "Running 8s test @ http://h\n  900610 requests in 8.00s, 75.58MB read\nTransfer/sec:      9.45MB\n",
		  "t.txt:1: the wrk run has no 'Requests/sec:' line (output cut short?)" },
		{ "Running 8s test @ http://h\nRequests/sec: 99999999999999999999\nTransfer/sec: 1MB\n",
		  "t.txt:2: number '99999999999999999999' is too large (more than 15 digits)" },
		{ "Running 8s test @ http://h\nRequests/sec: 1.00\nTransfer/sec: 1MB\nRunning 8s test @ http://other\n"
		  "Requests/sec: 2.00\nTransfer/sec: 1MB\n",
		  "t.txt:4: a wrk run of another target than the first ('8s test @ http://other', not '8s test @ http://h'): "
		  "import each target's output on its own" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = (struct ud_err)UD_ERR_INIT;
		ck_assert_msg(import_text(bad[i].text) != 0, "case %zu imported", i);
		ck_assert_msg(strcmp(err.msg, bad[i].msg) == 0, "case %zu: '%s', want '%s'", i, err.msg, bad[i].msg);
		ck_assert_uint_eq(p->nworkloads, 0);
	}
}
END_TEST

/* wrk2's distribution (made-up rows in its layout): "50.000%" rows read, the ones past 99% left. */
START_TEST(test_wrk2_percentiles)
{
	ck_assert_msg(import_text("Running 30s test @ http://h/\n  Latency Distribution (HdrHistogram - Recorded Latency)\n"
				  " 50.000%    1.19ms\n 99.000%    2.73ms\n 99.900%    4.13ms\n100.000%    6.37ms\n\n"
				  "  Detailed Percentile spectrum:\n       0.143     0.000000            1         1.00\n"
				  "Requests/sec:   1999.77\nTransfer/sec:    271.29KB\n") == 0, "%s", err.msg);
	ck_assert_double_eq(sub(workload("wrk"), "latency p50"), 1.19);
	ck_assert_double_eq(sub(workload("wrk"), "latency p99"), 2.73);
	ck_assert(isnan(sub(workload("wrk"), "latency p90")));
}
END_TEST

/* Two runs of one target in a file are samples of one workload. */
START_TEST(test_wrk_runs_are_samples)
{
	ck_assert_msg(import_text("Running 8s test @ http://h\nRequests/sec: 100.00\nTransfer/sec: 1.00KB\n"
				  "Running 8s test @ http://h\nRequests/sec: 110.00\nTransfer/sec: 3.00KB\n") == 0,
		      "%s", err.msg);
	is_rate(workload("wrk"), 105, 2);
	ck_assert_double_eq(sub(workload("wrk"), "transfer"), 2048);
}
END_TEST

/* The published pair's diff through the commands a user runs: single runs, so no move is claimed. */
START_TEST(test_redis_fixtures_diff_claims_nothing)
{
	char *dir = make_tempdir(), a[1024], b[1024];
	char *imp_a[] = { UD_BINARY, "import", "-o", a, UD_TEST_DATA "/redis-benchmark/aws-m5-large-P10.txt", NULL };
	char *imp_b[] = { UD_BINARY, "import", "-o", b, UD_TEST_DATA "/redis-benchmark/aws-m6g-large-P10.txt", NULL };
	char *text[] = { "/usr/bin/env", "COLUMNS=100", UD_BINARY, "diff", a, b, NULL };
	char *json[] = { UD_BINARY, "diff", "-f", "json", a, b, NULL };
	struct run_result r;
	json_t *doc, *w;
	size_t i;

	snprintf(a, sizeof(a), "%s/m5.json", dir);
	snprintf(b, sizeof(b), "%s/m6g.json", dir);
	r = run_capture(imp_a);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	r = run_capture(imp_b);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	r = run_capture(json);
	ck_assert_msg(r.status == 0, "%s", r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert(doc != NULL);
	json_array_foreach(json_object_get(doc, "workloads"), i, w) {
		/* HSET's 2.19x included: one run each, nothing to judge it by */
		ck_assert(json_is_null(json_object_get(w, "significant")));
		ck_assert_str_eq(json_string_value(json_object_get(w, "verdict_reason")), "one run each: unverified");
	}
	ck_assert_uint_eq(i, 18);
	json_decref(doc);
	run_free(&r);
	r = run_capture(text);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "unverified: no workload has runs with a spread to judge the noise by"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "redis-HSET                                        121,921    267,094  2.19x faster, "
				    "unverified"), "%s", r.out);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("import_server");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_redis_quiet_fixtures);
	tcase_add_test(tc, test_redis_doc_forms);
	tcase_add_test(tc, test_redis_full_runs);
	tcase_add_test(tc, test_redis_quiet_p50_and_progress);
	tcase_add_test(tc, test_wrk_reports);
	tcase_add_test(tc, test_detection);
	tcase_add_test(tc, test_refused_by_line);
	tcase_add_test(tc, test_wrk_runs_are_samples);
	tcase_add_test(tc, test_wrk2_percentiles);
	tcase_add_test(tc, test_redis_fixtures_diff_claims_nothing);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
