/*
 * Other vendors' metric summaries imported (issue 38), on their real
 * outputs in tests/data/foreign/ (origins in its README.md): Intel
 * PerfSpect 1.x's metric summary of SPEC CPU2017's 500.perlbench_r on Ice
 * Lake and Cascade Lake, the metrics CSV of Arm topdown-tool's README, and
 * AMD uProf's AMDuProfPcm reports of one core, idle and under sysbench, and
 * of another core whose intervals were multiplexed.
 * Values number for number as the files print them; the derived metrics
 * under their names and units, top-down buckets as the top-down record,
 * the rest kept by the tool's name; detection that takes no other
 * format's file; damaged files refused by line; the command's profile
 * diffed with itself.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "testutil.h"

#define ICX UD_TEST_DATA "/foreign/perfspect/icx-500.perlbench_r-average.csv"
#define CLX UD_TEST_DATA "/foreign/perfspect/clx-500.perlbench_r-average.csv"
#define TT UD_TEST_DATA "/foreign/topdown-tool/readme-cpu-metrics.csv"
#define PCM_IDLE UD_TEST_DATA "/foreign/uprof-pcm/idle_test-core58.csv"
#define PCM_SYSBENCH UD_TEST_DATA "/foreign/uprof-pcm/sysbench_run-core58.csv"
#define PCM_MUX UD_TEST_DATA "/foreign/uprof-pcm/test-core80.csv"

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

/* The one workload path makes, named name: a summary's metrics, never a counter. */
static const struct ud_workload *only_workload(const char *path, const char *name)
{
	import_file(path);
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_str_eq(p->workloads[0].name, name);
	ck_assert_uint_eq(p->workloads[0].ncounters, 0);
	return &p->workloads[0];
}

static int import_text(const char *text)
{
	struct ud_import_opts o = { .format = UD_FMT_AUTO };

	return ud_import_buffer(p, text, strlen(text), "t.csv", &o, &err);
}

/* The perf_metrics value named name; the test fails where there is none. */
static double metric(const struct ud_workload *w, const char *name)
{
	for (size_t i = 0; i < w->nperf_metrics; i++)
		if (strcmp(w->perf_metrics[i].name, name) == 0)
			return w->perf_metrics[i].value;
	ck_abort_msg("no metric '%s'", name);
	return NAN;
}

static bool has_metric(const struct ud_workload *w, const char *name)
{
	for (size_t i = 0; i < w->nperf_metrics; i++)
		if (strcmp(w->perf_metrics[i].name, name) == 0)
			return true;
	return false;
}

/* Runs a command that must succeed (an import), its output dropped. */
static void run_ok(char **argv)
{
	struct run_result r = run_capture(argv);

	ck_assert_msg(r.status == 0, "%s: %s", argv[1], r.err);
	run_free(&r);
}

static enum ud_import_format detect_file(const char *path)
{
	char *text = read_text(path);
	enum ud_import_format f = ud_import_detect(text, strlen(text));

	free(text);
	return f;
}

START_TEST(test_detect)
{
	ck_assert_int_eq(detect_file(ICX), UD_FMT_PERFSPECT);
	ck_assert_int_eq(detect_file(CLX), UD_FMT_PERFSPECT);
	ck_assert_int_eq(detect_file(TT), UD_FMT_TOPDOWN_TOOL);
	ck_assert_int_eq(detect_file(PCM_IDLE), UD_FMT_UPROF_PCM);
	ck_assert_int_eq(detect_file(PCM_SYSBENCH), UD_FMT_UPROF_PCM);
	/* other formats' files stay theirs */
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/perf-stat/made-up-r5.csv"), UD_FMT_PERF_CSV);
	ck_assert_int_eq(detect_file(UD_TEST_DATA "/perf-stat/made-up-r5.txt"), UD_FMT_PERF_TEXT);
	/* a header further down is not this format's: the tools write it first */
	ck_assert_int_ne(ud_import_detect("x\nmetrics,avg,p95,min,max\n", 26), UD_FMT_PERFSPECT);
}
END_TEST

/* icx-500's lines 2, 5, 7 and 9, as printed, the L1D MPI per kilo-instruction. */
START_TEST(test_perfspect_derived)
{
	const struct ud_workload *w;

	w = only_workload(ICX, "icx-500.perlbench_r-average");
	ck_assert_double_eq_tol(metric(w, "ghz"), 2.542890891724138, 1e-15);
	ck_assert_double_eq_tol(metric(w, "cpi"), 0.6798162372413792, 1e-15);
	ck_assert_double_eq_tol(metric(w, "ipc"), 1.4713439006896554, 1e-15);
	ck_assert_double_eq_tol(metric(w, "l1d_mpki"), 7.270351724137931, 1e-12);
	/* mapped ones are not kept twice */
	ck_assert(!has_metric(w, "CPI") && !has_metric(w, "metric_CPI"));
}
END_TEST

/* What no derived metric or bucket is: kept by PerfSpect's name, "metric_" dropped. */
START_TEST(test_perfspect_kept_by_name)
{
	const struct ud_workload *w;

	import_file(ICX);
	w = &p->workloads[0];
	ck_assert_double_eq_tol(metric(w, "kernel_CPI"), 5.807275616551723, 1e-15);
	ck_assert_double_eq_tol(metric(w, "CPU utilization %"), 100.42033346275862, 1e-12);
	ck_assert_double_eq_tol(metric(w, "memory bandwidth total (MB/sec)"), 9233.00439127724, 1e-9);
	ck_assert_double_eq_tol(metric(w, "DTLB (2nd level) 2MB large page load MPI"), 1.1034482758620691e-07, 1e-20);
	/* level 3 of the top-down tree has no bucket: kept */
	ck_assert_double_eq_tol(metric(w, "TMA_....L1_Bound(%)"), 17.311215444827585, 1e-12);
	ck_assert_double_eq_tol(metric(w, "TMA_Info_CoreIPC"), 2.942815412758621, 1e-15);
	/* 69 rows below the header, 12 of them top-down buckets */
	ck_assert_uint_eq(w->nperf_metrics, 69 - 12);
}
END_TEST

START_TEST(test_perfspect_topdown)
{
	const struct ud_topdown *t;

	import_file(ICX);
	ck_assert_uint_eq(p->workloads[0].ntopdown, 1);
	t = &p->workloads[0].topdown[0];
	ck_assert_int_eq(t->method, UD_TD_SLOTS);
	ck_assert_int_eq(t->level, 2);
	ck_assert_double_eq_tol(t->value[UD_TD_RETIRING], 0.49792783369655176, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_BAD_SPECULATION], 0.20544181066206903, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_FRONTEND_BOUND], 0.2308982708068966, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_BACKEND_BOUND], 0.0657320848413793, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_FETCH_LATENCY], 0.1586027873655172, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_BRANCH_MISPREDICTS], 0.2018319800137931, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_MEMORY_BOUND], 0.02392492430689654, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_CORE_BOUND], 0, 1e-12);
	ck_assert_double_eq_tol(t->value[UD_TD_LIGHT_OPERATIONS], 0.496671349562069, 1e-9);
}
END_TEST

/* Cascade Lake's summary names the same metrics; two files are two workloads. */
START_TEST(test_perfspect_two_hosts)
{
	import_file(CLX);
	import_file(ICX);
	ck_assert_uint_eq(p->nworkloads, 2);
	ck_assert_double_eq_tol(metric(&p->workloads[0], "ghz"), 3.021760174601225, 1e-15);
	ck_assert_double_eq_tol(metric(&p->workloads[0], "CPU utilization %"), 96.72762265938655, 1e-12);
}
END_TEST

/* Cascade Lake's metric file names level 1 "TMAM_" ("TMAM_Backend_bound(%)"): the same four buckets. */
START_TEST(test_perfspect_tmam_level1)
{
	const struct ud_topdown *t;

	import_file(CLX);
	ck_assert_uint_eq(p->workloads[0].ntopdown, 1);
	t = &p->workloads[0].topdown[0];
	ck_assert_int_eq(t->level, 1);
	/* the four sum to 100.17%: each is kept as its share of that sum, the sum beside them */
	ck_assert_double_eq_tol(t->value[UD_TD_RETIRING] * t->raw_sum, 0.5309104189092021, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_BAD_SPECULATION] * t->raw_sum, 0.05514896469263805, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_FRONTEND_BOUND] * t->raw_sum, 0.333838857026994, 1e-9);
	ck_assert_double_eq_tol(t->value[UD_TD_BACKEND_BOUND] * t->raw_sum, 0.08178703425214724, 1e-9);
	ck_assert(has_metric(&p->workloads[0], "TMAM_Info_CoreIPC"));
}
END_TEST

/*
 * Two hosts' summaries of one benchmark, without a counter between them:
 * the diff still sets their top-down buckets side by side (a fleet
 * measured with PerfSpect is compared by what PerfSpect measured).
 */
START_TEST(test_two_hosts_diff_topdown)
{
	char *dir = make_tempdir(), a[512], b[512];
	char *ia[] = { UD_BINARY, "import", "--workload", "perlbench", "--label", "CLX", "-o", a, CLX, NULL };
	char *ib[] = { UD_BINARY, "import", "--workload", "perlbench", "--label", "ICX", "-o", b, ICX, NULL };
	char *dif[] = { UD_BINARY, "diff", a, b, NULL, NULL, NULL };
	struct run_result r;

	snprintf(a, sizeof(a), "%s/clx.json", dir);
	snprintf(b, sizeof(b), "%s/icx.json", dir);
	run_ok(ia);
	run_ok(ib);
	r = run_capture(dif);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "bad speculation") && strstr(r.out, "5.5%") && strstr(r.out, "20.5%"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "+15.0 pts") != NULL, "%s", r.out);
	/* the CPI and GHz PerfSpect printed, side by side and marked: IPC is 1/CPI (1/0.893 = 1.12) */
	ck_assert_msg(strstr(r.out, "IPC ^                          1.12         1.47") &&
			      strstr(r.out, "GHz ^                          3.02         2.54") &&
			      strstr(r.out, "^ as the imported tool printed it"),
		      "%s", r.out);
	run_free(&r);
	dif[2] = "-f";
	dif[3] = "json";
	dif[4] = a;
	dif[5] = b;
	r = run_capture(dif);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\"printed\": {"), "%s", r.err);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* README.CPU.md's two rows: level-1 buckets in percent; the two it does not print null, with why. */
START_TEST(test_topdown_tool)
{
	const struct ud_workload *w;
	const struct ud_topdown *t;

	import_file(TT);
	w = &p->workloads[0];
	ck_assert_str_eq(w->name, "readme-cpu-metrics");
	ck_assert_uint_eq(w->nperf_metrics, 0);
	ck_assert_uint_eq(w->ntopdown, 1);
	t = &w->topdown[0];
	ck_assert_double_eq_tol(t->value[UD_TD_RETIRING], 0.1702, 1e-12);
	ck_assert_double_eq_tol(t->value[UD_TD_FRONTEND_BOUND], 0.3711, 1e-12);
	ck_assert(t->defined[UD_TD_BACKEND_BOUND] && isnan(t->value[UD_TD_BACKEND_BOUND]));
	ck_assert_str_eq(t->reason[UD_TD_BACKEND_BOUND], "topdown-tool printed no backend_bound row");
	ck_assert(isnan(t->residual));
}
END_TEST

/*
 * Made-up rows in the README's layout: intervals averaged, a metric of two
 * groups counted once an interval, stage 2's ratios under the derived
 * metrics' names, and the units they take.
 */
START_TEST(test_topdown_tool_made_up_intervals)
{
	const struct ud_workload *w;

	ck_assert_msg(import_text("time,group,stage,level,metric,value,units\n"
				  "1.0,Topdown_L1,1,1,Retiring,20,%\n"
				  "1.0,Branch_Effectiveness,2,,Branch MPKI,2.0,misses per 1,000 instructions\n") != 0,
		      "an unquoted unit with a comma is more fields: refused");
	ck_assert_msg(strstr(err.msg, "t.csv:3:") != NULL, "%s", err.msg);
	ck_assert_int_ne(import_text("time,group,stage,level,metric,value,units\n1.0,G,2,,\"Branch MPKI,2.0,u\n"), 0);
	ck_assert_msg(strstr(err.msg, "t.csv:2:") != NULL, "%s", err.msg);
	ck_assert_int_eq(import_text("time,group,stage,level,metric,value,units\n"
				     "1.0,Topdown_L1,1,1,Retiring,20,%\n"
				     "1.0,Branch_Effectiveness,2,,Branch Misprediction Ratio,0.011,per branch\n"
				     "1.0,Branch_Effectiveness,2,,Branch MPKI,1.821,\"misses per 1,000 instructions\"\n"
				     "1.0,Cycle_Accounting,2,,Backend Stalled Cycles,40,%\n"
				     "1.0,Other_Group,2,,Backend Stalled Cycles,40,%\n"
				     "2.0,Topdown_L1,1,1,Retiring,30,%\n"
				     "2.0,Cycle_Accounting,2,,Backend Stalled Cycles,60,%\n"
				     "2.0,Misc,2,,Something New,,units\n"),
			 0);
	w = &p->workloads[0];
	ck_assert_double_eq_tol(w->topdown[0].value[UD_TD_RETIRING], 0.25, 1e-12);
	ck_assert_double_eq_tol(metric(w, "branch_miss_rate"), 0.011, 1e-12);
	ck_assert_double_eq_tol(metric(w, "branch_mpki"), 1.821, 1e-12);
	ck_assert_double_eq_tol(metric(w, "backend_stall_rate"), 0.5, 1e-12);
	ck_assert(isnan(metric(w, "Something New")));
}
END_TEST

/*
 * sysbench_run-core58's 60 intervals averaged, the sums of its columns
 * over 60: IPC, CPI, the clock in MHz as GHz, the misprediction ratio and
 * the L1d fills per thousand instructions under the derived metrics' names;
 * the rest by AMDuProfPcm's; no counter, no top-down record.
 */
START_TEST(test_uprof_pcm)
{
	const struct ud_workload *w;

	w = only_workload(PCM_SYSBENCH, "sysbench_run-core58");
	ck_assert_uint_eq(w->ntopdown, 0);
	ck_assert_uint_eq(w->nperf_metrics, 32);
	ck_assert_double_eq_tol(metric(w, "ipc"), 92.81 / 60, 1e-9);
	ck_assert_double_eq_tol(metric(w, "cpi"), 38.91 / 60, 1e-9);
	ck_assert_double_eq_tol(metric(w, "ghz"), 223182.23 / 60 / 1000, 1e-9);
	ck_assert_double_eq_tol(metric(w, "branch_miss_rate"), 0, 1e-12);
	ck_assert_double_eq_tol(metric(w, "l1d_mpki"), 0.10 / 60, 1e-9);
	ck_assert_double_eq_tol(metric(w, "Utilization (%)"), 6000.77 / 60, 1e-9);
	ck_assert_double_eq_tol(metric(w, "L3 Miss %"), 1233.81 / 60, 1e-9);
	ck_assert_double_eq_tol(metric(w, "Ave L3 Miss Latency"), 67253.07 / 60, 1e-9);
	ck_assert(!has_metric(w, "IPC (Sys + User)") && !has_metric(w, "Eff Freq"));
	/* the idle core's: another file, another workload */
	import_file(PCM_IDLE);
	ck_assert_uint_eq(p->nworkloads, 2);
	ck_assert_double_eq_tol(metric(&p->workloads[1], "ipc"), 32.48 / 60, 1e-9);
	ck_assert_double_eq_tol(metric(&p->workloads[1], "branch_miss_rate"), 2.27 / 60, 1e-9);
	ck_assert_double_eq_tol(metric(&p->workloads[1], "l1d_mpki"), 1550.11 / 60, 1e-9);
}
END_TEST

/*
 * test-core80's intervals alternate: in 30 of its 60 AMDuProfPcm did not
 * count IPC's group and printed IPC and CPI 0.00.  Those are left out (IPC
 * 19.07 over the 30 others, not over 60), and the import says so.
 */
START_TEST(test_uprof_pcm_multiplexed)
{
	struct ud_import_opts o = { .format = UD_FMT_AUTO };
	struct ud_import_warnings warn = { 0 };
	const struct ud_workload *w;

	ck_assert_msg(ud_import_file_warn(p, PCM_MUX, &o, &warn, &err) == 0, "%s", err.msg);
	w = &p->workloads[0];
	ck_assert_double_eq_tol(metric(w, "ipc"), 19.07 / 30, 1e-9);
	ck_assert_double_eq_tol(metric(w, "cpi"), 60.19 / 30, 1e-9);
	/* what cannot be told from a count of none stays as printed: over all 60 */
	ck_assert_double_eq_tol(metric(w, "L3 Miss %"), 343.78 / 60, 1e-9);
	ck_assert_uint_eq(warn.n, 1);
	ck_assert_msg(strstr(warn.lines[0], "test-core80.csv: 30 of 60 intervals print IPC and CPI 0") != NULL, "%s",
		      warn.lines[0]);
	ud_import_warnings_free(&warn);
	/* the sysbench core's every interval was counted: nothing to say */
	ck_assert_int_eq(ud_import_file_warn(p, PCM_SYSBENCH, &o, &warn, &err), 0);
	ck_assert_uint_eq(warn.n, 0);
}
END_TEST

/*
 * Made-up text around the real header: AMDuProfPcm opens its report with
 * lines of its own (the sample's source cut 47), so lines before the
 * header are passed over; a name in two columns (two cores' report), a row
 * of another width and a header without a row are refused by line.
 */
START_TEST(test_uprof_pcm_made_up)
{
	char *real = read_text(PCM_SYSBENCH), *text = malloc(strlen(real) + 64);

	sprintf(text, "Made-up opening line\nCORE METRICS,,\n\n%s", real);
	ck_assert_int_eq(ud_import_detect(text, strlen(text)), UD_FMT_UPROF_PCM);
	ck_assert_msg(import_text(text) == 0, "%s", err.msg);
	ck_assert_double_eq_tol(metric(&p->workloads[0], "ipc"), 92.81 / 60, 1e-9);
	free(text);
	free(real);
	ck_assert_int_ne(import_text("Core-0,,Core-1,,\nIPC (Sys + User),L3 Miss %,IPC (Sys + User),L3 Miss %,\n"
				     "1.0,2.0,1.0,2.0,\n"),
			 0);
	ck_assert_msg(strstr(err.msg, "t.csv:2: 'IPC (Sys + User)' heads columns 1 and 3") != NULL, "%s", err.msg);
	ck_assert_int_ne(import_text("Core-0,,\nIPC (Sys + User),L3 Miss %,\n1.0,2.0,\n1.0,\n"), 0);
	ck_assert_msg(strstr(err.msg, "t.csv:4: 2 fields where AMDuProfPcm's header (line 2) has 3") != NULL, "%s",
		      err.msg);
	ck_assert_int_ne(import_text("Core-0,,\nIPC (Sys + User),L3 Miss %,\n1.0,high,\n"), 0);
	ck_assert_msg(strstr(err.msg, "t.csv:3") != NULL, "%s", err.msg);
	ck_assert_int_ne(import_text("Core-0,,\nIPC (Sys + User),L3 Miss %,\n"), 0);
	ck_assert_msg(strstr(err.msg, "header without a row") != NULL, "%s", err.msg);
	/* one name is not a header: a line of prose may hold it */
	ck_assert_int_ne(ud_import_detect("IPC (Sys + User),is what uProf calls it\n", 40), UD_FMT_UPROF_PCM);
	ck_assert_uint_eq(p->nworkloads, 1);
}
END_TEST

/*
 * The command on the idle and the busy core, imported as one workload of
 * two profiles: the diff's JSON carries what AMDuProfPcm printed, IPC 0.54
 * against 1.55, the clock 1.73 GHz against 3.72.
 */
START_TEST(test_uprof_pcm_diff)
{
	char *dir = make_tempdir(), a[512], b[512];
	char *ia[] = { UD_BINARY, "import", "--workload", "core58", "-o", a, PCM_IDLE, NULL };
	char *ib[] = { UD_BINARY, "import", "--workload", "core58", "-o", b, PCM_SYSBENCH, NULL };
	char *dif[] = { UD_BINARY, "diff", "-f", "json", a, b, NULL };
	struct run_result r;

	snprintf(a, sizeof(a), "%s/idle.json", dir);
	snprintf(b, sizeof(b), "%s/sysbench.json", dir);
	run_ok(ia);
	run_ok(ib);
	r = run_capture(dif);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "\"printed\": {") && strstr(r.out, "\"a\": 0.5413333333333331") &&
			      strstr(r.out, "\"b\": 1.5468333333333324") && strstr(r.out, "\"a\": 1.7338026666666673") &&
			      strstr(r.out, "\"b\": 3.7197038333333343"),
		      "%s", r.out);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* A summary has no score: --score gives it one, a time lower-is-better. */
START_TEST(test_score)
{
	struct ud_import_opts o = { .format = UD_FMT_AUTO };
	const struct ud_workload *w;

	ck_assert_int_eq(ud_import_scores_parse("5.1,5.3:s", &o, &err), 0);
	ck_assert_msg(ud_import_file(p, CLX, &o, &err) == 0, "%s", err.msg);
	w = &p->workloads[0];
	ck_assert_uint_eq(w->score.nsamples, 2);
	ck_assert_str_eq(w->units, "s");
	ck_assert_int_eq(w->higher_is_better, 0);
	free(o.scores);
}
END_TEST

START_TEST(test_refusals)
{
	ck_assert_int_ne(import_text("metrics,avg,p95,min,max\n"), 0);
	ck_assert_msg(strstr(err.msg, "without a metric row") != NULL, "%s", err.msg);
	ck_assert_int_ne(import_text("metrics,avg,p95,min,max\nmetric_CPI,0.5,0.6\n"), 0);
	ck_assert_msg(strstr(err.msg, "t.csv:2: 3 fields") != NULL, "%s", err.msg);
	ck_assert_int_ne(import_text("metrics,avg,p95,min,max\nmetric_CPI,zero,1,1,1\n"), 0);
	ck_assert_msg(strstr(err.msg, "t.csv:2") != NULL, "%s", err.msg);
	/* a failed file adds nothing */
	ck_assert_uint_eq(p->nworkloads, 0);
}
END_TEST

/* The command: import auto-detects, writes a profile, and the profile diffs with itself. */
START_TEST(test_command_and_diff)
{
	char *dir = make_tempdir(), out[512];
	char *imp[] = { UD_BINARY, "import", "-o", out, ICX, NULL };
	char *dif[] = { UD_BINARY, "diff", out, out, NULL };
	struct run_result r;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	run_ok(imp);
	r = run_capture(dif);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "icx-500.perlbench_r-average") != NULL, "%s", r.out);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("import_foreign");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_detect);
	tcase_add_test(tc, test_perfspect_derived);
	tcase_add_test(tc, test_perfspect_kept_by_name);
	tcase_add_test(tc, test_perfspect_topdown);
	tcase_add_test(tc, test_perfspect_two_hosts);
	tcase_add_test(tc, test_perfspect_tmam_level1);
	tcase_add_test(tc, test_two_hosts_diff_topdown);
	tcase_add_test(tc, test_topdown_tool);
	tcase_add_test(tc, test_topdown_tool_made_up_intervals);
	tcase_add_test(tc, test_uprof_pcm);
	tcase_add_test(tc, test_uprof_pcm_multiplexed);
	tcase_add_test(tc, test_uprof_pcm_made_up);
	tcase_add_test(tc, test_uprof_pcm_diff);
	tcase_add_test(tc, test_score);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_command_and_diff);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
