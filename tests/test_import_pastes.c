/*
 * Importers on the perf output people actually paste (issue 11): one test
 * per class of paste that used to fail or come out wrong, each on input
 * written here by hand in perf's forms, each checking every number, the
 * running shares, the times and how many workloads came out.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "derived.h"
#include "fileio.h"
#include "import.h"
#include "testutil.h"

static struct ud_profile *p;
static struct ud_err err;
static struct ud_import_warnings warn;

static void setup(void)
{
	p = ud_profile_new(NULL);
	memset(&warn, 0, sizeof(warn));
}

static void teardown(void)
{
	ud_profile_free(p);
	ud_import_warnings_free(&warn);
}

static void reset(void)
{
	teardown();
	setup();
}

static int import_as(const char *text, size_t len, const char *name, const struct ud_import_opts *o)
{
	struct ud_import_opts none = { 0 };

	return ud_import_buffer_warn(p, text, len, name, o ? o : &none, &warn, &err);
}

#define OK(text) ck_assert_msg(import_as(text, strlen(text), "t.txt", NULL) == 0, "%s", err.msg)
#define OK_LEN(text) ck_assert_msg(import_as(text, sizeof(text) - 1, "t.txt", NULL) == 0, "%s", err.msg)

static const struct ud_workload *wl(size_t i)
{
	ck_assert_uint_gt(p->nworkloads, i);
	return &p->workloads[i];
}

static const struct ud_counter *ctr_of(size_t i, const char *name)
{
	const struct ud_counter *c = ud_workload_counter(wl(i), name);

	ck_assert_msg(c != NULL, "workload %zu: no counter %s", i, name);
	return c;
}

/* A counted counter's value and running share (NAN: none printed). */
static void counted(size_t i, const char *name, double value, double pct)
{
	const struct ud_counter *c = ctr_of(i, name);

	ck_assert_int_eq(c->status, UD_COUNTED);
	ck_assert_msg(c->value == value, "%s: %.17g, want %.17g", name, c->value, value);
	if (isnan(pct))
		ck_assert_msg(isnan(c->running_pct), "%s: running %g, want none", name, c->running_pct);
	else
		ck_assert_msg(c->running_pct == pct, "%s: running %g, want %g", name, c->running_pct, pct);
}

static void times(size_t i, double elapsed, double user, double sys)
{
	const struct ud_workload *w = wl(i);

	ck_assert_msg(isnan(elapsed) ? isnan(w->elapsed_ns) : w->elapsed_ns == elapsed, "elapsed %.17g",
		      w->elapsed_ns);
	ck_assert_msg(isnan(user) ? isnan(w->user_ns) : w->user_ns == user, "user %.17g", w->user_ns);
	ck_assert_msg(isnan(sys) ? isnan(w->sys_ns) : w->sys_ns == sys, "sys %.17g", w->sys_ns);
}

static double metric_of(size_t i, const char *name)
{
	const struct ud_workload *w = wl(i);

	for (size_t k = 0; k < w->nperf_metrics; k++)
		if (strcmp(w->perf_metrics[k].name, name) == 0)
			return w->perf_metrics[k].value;
	ck_abort_msg("no perf metric %s", name);
	return NAN;
}

/* ---- 1. perf 6.x metric rows and metric-group headers ---- */

START_TEST(test_perf6_metric_rows_csv)
{
	OK("# started on Mon Nov 30 00:00:00 2026\n"
	   "\n"
	   "2.07,msec,task-clock,2071190,100.00,0.593,CPUs utilized\n"
	   "3,,context-switches,2071190,100.00,1.448,K/sec\n"
	   "8281920,,cycles,2071190,87.50,3.998,GHz\n"
	   "10453270,,instructions,2071190,87.50,1.26,insn per cycle\n"
	   "118331208844,,TOPDOWN.SLOTS,118331208844,100.00,18.4,%  tma_frontend_bound\n"
	   ",118331208844,100.00,,,,TopdownL1\n"
	   ",,,,,63.2,%  tma_backend_bound\n"
	   ",,,,,5.1,%  tma_bad_speculation\n"
	   ",,,,,,%  tma_heavy_operations\n"
	   ",,,,,13.3,%  tma_retiring\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 5);
	counted(0, "task-clock", 2070000, 100.0);
	counted(0, "context-switches", 3, 100.0);
	counted(0, "cycles", 8281920, 87.5);
	counted(0, "instructions", 10453270, 87.5);
	counted(0, "TOPDOWN.SLOTS", 118331208844.0, 100.0);
	times(0, NAN, NAN, NAN);
	/* perf's own metrics as printed, and the GHz beside cycles (issue 20); its other comments (CPUs utilized) are not metrics */
	ck_assert_uint_eq(wl(0)->nperf_metrics, 6);
	ck_assert_double_eq(metric_of(0, "ghz"), 3.998);
	ck_assert_double_eq(metric_of(0, "tma_frontend_bound"), 18.4);
	ck_assert_double_eq(metric_of(0, "tma_backend_bound"), 63.2);
	ck_assert_double_eq(metric_of(0, "tma_bad_speculation"), 5.1);
	ck_assert(isnan(metric_of(0, "tma_heavy_operations")));
	ck_assert_double_eq(metric_of(0, "tma_retiring"), 13.3);
}
END_TEST

START_TEST(test_perf6_metric_rows_json)
{
	json_t *j;
	struct ud_profile *back;

	OK("{\"counter-value\" : \"2.070000\", \"unit\" : \"msec\", \"event\" : \"task-clock\", \"event-runtime\" : "
	   "2071190, \"pcnt-running\" : 100.00, \"metric-value\" : \"0.593\", \"metric-unit\" : \"CPUs utilized\"}\n"
	   "{\"counter-value\" : \"8281920.000000\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : "
	   "2071190, \"pcnt-running\" : 71.50, \"metric-value\" : \"3.998\", \"metric-unit\" : \"GHz\"}\n"
	   "{\"event-runtime\" : 118331208844, \"pcnt-running\" : 100.00, \"metricgroup\" : \"TopdownL1\"}\n"
	   "{\"metric-value\" : \"63.2\", \"metric-unit\" : \"%  tma_backend_bound\"}\n"
	   "{\"metric-value\" : 5.1, \"metric-unit\" : \"%  tma_bad_speculation\"}\n"
	   "{\"metric-value\" : \"\", \"metric-unit\" : \"%  tma_frontend_bound\"}\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 2);
	counted(0, "task-clock", 2070000, 100.0);
	counted(0, "cycles", 8281920, 71.5);
	times(0, NAN, NAN, NAN);
	ck_assert_uint_eq(wl(0)->nperf_metrics, 4);
	ck_assert_double_eq(metric_of(0, "ghz"), 3.998);
	ck_assert_double_eq(metric_of(0, "tma_backend_bound"), 63.2);
	ck_assert_double_eq(metric_of(0, "tma_bad_speculation"), 5.1);
	ck_assert(isnan(metric_of(0, "tma_frontend_bound")));

	/* SPEC §3.1: "perf_metrics" in the profile, read back as written */
	j = profile_tree(p);
	ck_assert_double_eq(json_number_value(json_object_get(
				    json_object_get(json_array_get(json_object_get(j, "workloads"), 0), "perf_metrics"),
				    "tma_backend_bound")),
			    63.2);
	back = profile_from_tree(j, "back", &err);
	ck_assert_msg(back != NULL, "%s", err.msg);
	ck_assert_uint_eq(back->workloads[0].nperf_metrics, 4);
	ck_assert_double_eq(back->workloads[0].perf_metrics[1].value, 63.2);
	ck_assert(isnan(back->workloads[0].perf_metrics[3].value));
	ud_profile_free(back);
	json_decref(j);
}
END_TEST

START_TEST(test_perf6_metric_rows_text)
{
	OK(" Performance counter stats for './app':\n\n"
	   "      118,331,208,844      TOPDOWN.SLOTS                    #     63.2 %  tma_backend_bound\n"
	   "                                                       #      5.1 %  tma_bad_speculation\n"
	   "        8,281,920      cycles                           #    3.998 GHz\n"
	   "               TopdownL1                 #     13.3 %  tma_retiring             (50.00%)\n\n"
	   "       0.002071190 seconds time elapsed\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 2);
	counted(0, "TOPDOWN.SLOTS", 118331208844.0, NAN);
	counted(0, "cycles", 8281920, NAN);
	times(0, 2071190, NAN, NAN);
	ck_assert_uint_eq(wl(0)->nperf_metrics, 4);
	ck_assert_double_eq(metric_of(0, "ghz"), 3.998);
	ck_assert_double_eq(metric_of(0, "tma_retiring"), 13.3);
	ck_assert_double_eq(metric_of(0, "tma_backend_bound"), 63.2);
	ck_assert_double_eq(metric_of(0, "tma_bad_speculation"), 5.1);
}
END_TEST

/* ---- 2. hybrid CPUs: core types kept apart ---- */

static const char hybrid_text[] =
	" Performance counter stats for './bench':\n"
	"\n"
	"          1,000.00 msec task-clock                       #    1.990 CPUs utilized\n"
	"     3,000,000,000      cpu_core/cycles/                 #    3.000 GHz                      (62.50%)\n"
	"     1,000,000,000      cpu_atom/cycles/                 #    1.000 GHz                      (37.50%)\n"
	"     9,000,000,000      cpu_core/instructions/           #    3.00  insn per cycle           (62.50%)\n"
	"     1,500,000,000      cpu_atom/instructions/           #    1.50  insn per cycle           (37.50%)\n"
	"       300,000,000      cpu_core/branches/                                                 (62.50%)\n"
	"         3,000,000      cpu_core/branch-misses/          #    1.00% of all branches          (62.50%)\n"
	"     <not counted>      cpu_atom/branches/\n"
	"\n"
	"       0.502512345 seconds time elapsed\n"
	"\n"
	"       0.800000000 seconds user\n"
	"       0.200000000 seconds sys\n";

/* task_pct: perf's text prints no share for a software event, CSV prints 100.00 */
static void check_hybrid(double task_pct)
{
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 8);
	counted(0, "task-clock", 1e9, task_pct);
	counted(0, "cpu_core/cycles", 3e9, 62.5);
	counted(0, "cpu_atom/cycles", 1e9, 37.5);
	counted(0, "cpu_core/instructions", 9e9, 62.5);
	counted(0, "cpu_atom/instructions", 1.5e9, 37.5);
	counted(0, "cpu_core/branches", 3e8, 62.5);
	counted(0, "cpu_core/branch-misses", 3e6, 62.5);
	ck_assert_int_eq(ctr_of(0, "cpu_atom/branches")->status, UD_NOT_COUNTED);
	/* never one summed "cycles" */
	ck_assert_ptr_null(ud_workload_counter(wl(0), "cycles"));
	ck_assert(isnan(ud_metric(wl(0), UD_M_IPC)));
	ck_assert(p->host->hybrid);
	ck_assert_uint_eq(p->host->ncore_pmus, 2);
	ck_assert_str_eq(p->host->core_pmus[0], "cpu_core");
	ck_assert_str_eq(p->host->core_pmus[1], "cpu_atom");
}

/*
 * perf's cgroup column (-G, --for-each-cgroup; issue 34), on perf 6.1's
 * own output (tests/data/perf-stat/vm-perf61-*): each event per cgroup is
 * its own counter, the later one named NAME#2 as stat names it, carrying
 * its cgroup, in text (the column found by perf's widths), CSV (before
 * -r's variance) and JSON ("cgroup").
 */
static void import_data(const char *file)
{
	char path[512], *text;

	snprintf(path, sizeof(path), "%s/perf-stat/%s", UD_TEST_DATA, file);
	text = read_text(path);
	ck_assert_msg(text != NULL, "%s", path);
	reset();
	ck_assert_msg(import_as(text, strlen(text), file, NULL) == 0, "%s: %s", file, err.msg);
	free(text);
}

static void in_cgroup(const char *name, const char *cgroup, double value, double rel_stddev)
{
	const struct ud_counter *c = ctr_of(0, name);

	ck_assert_str_eq(c->cgroup, cgroup);
	if (!isnan(value))
		ck_assert_double_eq_tol(c->value, value, 1e-6 * value);
	if (!isnan(rel_stddev))
		ck_assert_double_eq_tol(c->rel_stddev, rel_stddev, 1e-9);
}

START_TEST(test_cgroup_column)
{
	import_data("vm-perf61-for-each-cgroup.txt");
	in_cgroup("task-clock", "udt1", 312.43e6, NAN);
	in_cgroup("context-switches", "udt1", 72, NAN);
	in_cgroup("task-clock#2", "udt2", 97.20e6, NAN);
	in_cgroup("context-switches#2", "udt2", 31, NAN);
	import_data("vm-perf61-for-each-cgroup.csv");
	in_cgroup("task-clock#2", "udt2", 135.29e6, NAN);
	in_cgroup("context-switches", "udt1", 65, NAN);
	import_data("vm-perf61-for-each-cgroup.json");
	in_cgroup("task-clock", "udt1", 273241123, NAN);
	in_cgroup("context-switches#2", "udt2", 32, NAN);
	import_data("vm-perf61-for-each-cgroup-r3.csv");
	in_cgroup("task-clock", "udt1", 183.61e6, 0.0348);
	in_cgroup("context-switches#2", "udt2", 47, 0.1092);
	import_data("vm-perf61-for-each-cgroup-r3.txt");
	in_cgroup("task-clock#2", "udt2", 162.27e6, 0.0354);
	/* -I: each cgroup's intervals add up apart */
	import_data("vm-perf61-for-each-cgroup-I100.txt");
	in_cgroup("task-clock", "udt1", 255.05e6, NAN);
	in_cgroup("task-clock#2", "udt2", 91.11e6, NAN);
	ck_assert_uint_eq(wl(0)->ncounters, 2);
	/* perf's <not counted> row is 7 columns narrower; the second cgroup stays apart even so */
	import_data("vm-perf61-G-not-counted.txt");
	in_cgroup("task-clock", "udt1", 175.82e6, NAN);
	in_cgroup("context-switches", "udt2", NAN, NAN);
	ck_assert_int_eq(ctr_of(0, "context-switches")->status, UD_NOT_COUNTED);
}
END_TEST

/* Prose whose third word sits where no cgroup column does stays prose, and an event without a cgroup keeps none. */
START_TEST(test_cgroup_column_not_prose)
{
	OK(" Performance counter stats for './x':\n\n             3      page-faults\n"
	   "             5      files copied\n\n       0.1 seconds time elapsed\n");
	ck_assert_uint_eq(wl(0)->ncounters, 1);
	ck_assert_ptr_null(ctr_of(0, "page-faults")->cgroup);
}
END_TEST

/*
 * Made-up event names of 150 bytes that differ only in their last byte
 * (issue 36): a CSV and a JSON (perf stat -j) paste each keep them two
 * counters with their whole names, where a fixed-size name once cut both
 * at 95 bytes and added them up as one.
 */
#define LONG_EVENT_LEN 150

static void long_event(char *buf, char last)
{
	memset(buf, 'e', LONG_EVENT_LEN - 1);
	memcpy(buf, "made_up_uncore/", 15);
	buf[LONG_EVENT_LEN - 1] = last;
	buf[LONG_EVENT_LEN] = '\0';
}

static void check_long_events(const char *a, const char *b)
{
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 2);
	counted(0, a, 1000, 100);
	counted(0, b, 2000, 100);
}

START_TEST(test_long_event_names)
{
	char a[LONG_EVENT_LEN + 1], b[LONG_EVENT_LEN + 1], text[1024];

	long_event(a, 'A');
	long_event(b, 'B');
	snprintf(text, sizeof(text), "1000,,%s,100,100.00,,\n2000,,%s,100,100.00,,\n", a, b);
	OK(text);
	check_long_events(a, b);
	reset();
	snprintf(text, sizeof(text),
		 "{\"counter-value\" : \"1000\", \"unit\" : \"\", \"event\" : \"%s\", \"pcnt-running\" : 100.00}\n"
		 "{\"counter-value\" : \"2000\", \"unit\" : \"\", \"event\" : \"%s\", \"pcnt-running\" : 100.00}\n",
		 a, b);
	OK(text);
	check_long_events(a, b);
}
END_TEST

START_TEST(test_hybrid_text)
{
	json_t *j, *per;

	OK(hybrid_text);
	check_hybrid(NAN);
	times(0, 502512345, 8e8, 2e8);
	/* derived metrics per core type */
	j = profile_tree(p);
	per = json_object_get(json_array_get(json_object_get(j, "workloads"), 0), "derived_per_pmu");
	ck_assert_double_eq(json_real_value(json_object_get(json_object_get(per, "cpu_core"), "ipc")), 3.0);
	ck_assert_double_eq(json_real_value(json_object_get(json_object_get(per, "cpu_atom"), "ipc")), 1.5);
	ck_assert_double_eq_tol(json_real_value(json_object_get(json_object_get(per, "cpu_core"), "branch_miss_rate")),
				0.01, 1e-15);
	ck_assert(json_is_null(json_object_get(json_object_get(per, "cpu_atom"), "branch_miss_rate")));
	/* task-clock is not per core type: no GHz per core type */
	ck_assert(json_is_null(json_object_get(json_object_get(per, "cpu_core"), "ghz")));
	ck_assert(json_is_null(json_object_get(json_object_get(
		json_array_get(json_object_get(j, "workloads"), 0), "derived"), "ipc")));
	json_decref(j);
}
END_TEST

START_TEST(test_hybrid_csv_and_json)
{
	OK("1000.00,msec,task-clock,1000000000,100.00,1.990,CPUs utilized\n"
	   "3000000000,,cpu_core/cycles/,625000000,62.50,,\n"
	   "1000000000,,cpu_atom/cycles/,375000000,37.50,,\n"
	   "9000000000,,cpu_core/instructions/,625000000,62.50,3.00,insn per cycle\n"
	   "1500000000,,cpu_atom/instructions/,375000000,37.50,1.50,insn per cycle\n"
	   "300000000,,cpu_core/branches/,625000000,62.50,,\n"
	   "3000000,,cpu_core/branch-misses/,625000000,62.50,1.00,of all branches\n"
	   "<not counted>,,cpu_atom/branches/,0,0.00,,\n");
	check_hybrid(100.0);
	times(0, NAN, NAN, NAN);
	reset();
	OK("{\"counter-value\" : \"3000000000\", \"unit\" : \"\", \"event\" : \"cpu_core/cycles/\", \"pcnt-running\" : 62.50}\n"
	   "{\"counter-value\" : \"1000000000\", \"unit\" : \"\", \"event\" : \"cpu_atom/cycles/\", \"pcnt-running\" : 37.50}\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 2);
	counted(0, "cpu_core/cycles", 3e9, 62.5);
	counted(0, "cpu_atom/cycles", 1e9, 37.5);
	ck_assert(p->host->hybrid);
}
END_TEST

/* Each core type's metric group keeps its metrics: cpu_atom's tma_backend_bound does not overwrite cpu_core's. */
static void check_hybrid_metrics(double pct)
{
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 3);
	counted(0, "cpu_core/cycles", 3e9, pct);
	counted(0, "cpu_atom/cycles", 1e9, pct);
	counted(0, "cpu_core/TOPDOWN.SLOTS", 118331208844.0, pct);
	ck_assert_uint_eq(wl(0)->nperf_metrics, 3);
	ck_assert_double_eq(metric_of(0, "cpu_core/tma_backend_bound"), 63.2);
	ck_assert_double_eq(metric_of(0, "cpu_atom/tma_backend_bound"), 41.0);
	ck_assert_double_eq(metric_of(0, "cpu_core/tma_frontend_bound"), 18.4);
}

START_TEST(test_hybrid_metrics)
{
	OK("3000000000,,cpu_core/cycles/,1,50.00,,\n"
	   "1000000000,,cpu_atom/cycles/,1,50.00,,\n"
	   ",,,,,,TopdownL1 (cpu_core)\n"
	   ",,,,,63.2,%  tma_backend_bound\n"
	   ",,,,,,TopdownL1 (cpu_atom)\n"
	   ",,,,,41.0,%  tma_backend_bound\n"
	   "118331208844,,cpu_core/TOPDOWN.SLOTS/,1,50.00,18.4,%  tma_frontend_bound\n");
	check_hybrid_metrics(50.0);
	reset();
	OK("{\"counter-value\" : \"3000000000\", \"event\" : \"cpu_core/cycles/\", \"pcnt-running\" : 50.00}\n"
	   "{\"counter-value\" : \"1000000000\", \"event\" : \"cpu_atom/cycles/\", \"pcnt-running\" : 50.00}\n"
	   "{\"metricgroup\" : \"TopdownL1 (cpu_core)\"}\n"
	   "{\"metric-value\" : \"63.2\", \"metric-unit\" : \"%  tma_backend_bound\"}\n"
	   "{\"metricgroup\" : \"TopdownL1 (cpu_atom)\"}\n"
	   "{\"metric-value\" : \"41.0\", \"metric-unit\" : \"%  tma_backend_bound\"}\n"
	   "{\"counter-value\" : \"118331208844\", \"event\" : \"cpu_core/TOPDOWN.SLOTS/\", \"pcnt-running\" : 50.00, "
	   "\"metric-value\" : \"18.4\", \"metric-unit\" : \"%  tma_frontend_bound\"}\n");
	check_hybrid_metrics(50.0);
	reset();
	OK("     3,000,000,000      cpu_core/cycles/     (50.00%)\n"
	   "     1,000,000,000      cpu_atom/cycles/     (50.00%)\n"
	   "             TopdownL1 (cpu_core)                 #     63.2 %  tma_backend_bound\n"
	   "             TopdownL1 (cpu_atom)                 #     41.0 %  tma_backend_bound\n"
	   "   118,331,208,844      cpu_core/TOPDOWN.SLOTS/      #     18.4 %  tma_frontend_bound     (50.00%)\n"
	   "\n       0.502512345 seconds time elapsed\n");
	check_hybrid_metrics(50.0);
	times(0, 502512345, NAN, NAN);
}
END_TEST

START_TEST(test_one_core_pmu_is_not_hybrid)
{
	/* one PMU's prefix says nothing about core types: generic names, as before */
	OK("7 armv8_pmuv3_0/br_mis_pred/\n11 armv8_pmuv3_0/cpu_cycles/\n9 armv8_pmuv3_0/cpu_cycles/:u\n4 branch-instructions\n"
	   "5 cpu-cycles\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 4);
	counted(0, "branch-misses", 7, NAN);
	counted(0, "cycles", 16, NAN); /* the PMU's row and the unprefixed one are one event */
	counted(0, "cycles:u", 9, NAN);
	counted(0, "branches", 4, NAN);
	ck_assert(!p->host->hybrid);
	ck_assert_uint_eq(p->host->ncore_pmus, 0);
}
END_TEST

/* ---- 3. old perf: task-clock in milliseconds without a unit ---- */

START_TEST(test_old_perf_unitless_msec)
{
	OK(" Performance counter stats for './a.out':\n"
	   "\n"
	   "       1834.220417 task-clock:HG             #    0.998 CPUs utilized          \n"
	   "               150 context-switches:HG       #    0.082 K/sec                  \n"
	   "     5,502,661,251 cycles:HG                 #    3.000 GHz                     [83.31%]\n"
	   "     7,337,661,251 instructions:HG           #    1.33  insns per cycle         [83.35%]\n"
	   "\n"
	   "       1.837868234 seconds time elapsed\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_str_eq(wl(0)->name, "./a.out");
	ck_assert_uint_eq(wl(0)->ncounters, 4);
	counted(0, "task-clock", 1834220417.0, NAN);
	counted(0, "context-switches", 150, NAN);
	counted(0, "cycles", 5502661251.0, 83.31);
	counted(0, "instructions", 7337661251.0, 83.35);
	times(0, 1837868234.0, NAN, NAN);
	reset();
	OK("0.412377,,task-clock,412377,100.00\n1200000,,cycles,412377,100.00\n0.5,,cpu-clock,500000,100.00\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 3);
	counted(0, "task-clock", 412377, 100.0);
	counted(0, "cycles", 1200000, 100.0);
	counted(0, "cpu-clock", 500000, 100.0);
	times(0, NAN, NAN, NAN);
}
END_TEST

/* ---- 4. separators decided per block ---- */

START_TEST(test_separators_per_block)
{
	OK(" Performance counter stats for 'make en' (3 runs):\n"
	   "\n"
	   "         12,861.40 msec task-clock                #    1.000 CPUs utilized            ( +-  1.65% )\n"
	   "     1,234,567,890      cycles                    #    0.096 GHz                      ( +-  0.50% )  (50.00%)\n"
	   "               123      page-faults               #    9.563 /sec\n"
	   "\n"
	   "            12.866 +- 0.212 seconds time elapsed  ( +-  1.65% )\n"
	   "\n"
	   " Performance counter stats for 'make de' (3 runs):\n"
	   "\n"
	   "     12.345.678,90 msec task-clock                #    1,000 CPUs utilized            ( +-  0,31% )\n"
	   "     1.234.567.890      cycles                    #    0,100 GHz                      ( +-  0,50% )  (75,00%)\n"
	   "\n"
	   "           987,123 +- 0,311 seconds time elapsed  ( +-  0,03% )\n"
	   "\n"
	   "       900,500000000 seconds user\n"
	   "        86,250000000 seconds sys\n");
	ck_assert_uint_eq(p->nworkloads, 2);
	ck_assert_str_eq(wl(0)->name, "make en");
	ck_assert_uint_eq(wl(0)->ncounters, 3);
	counted(0, "task-clock", 12861400000.0, NAN);
	counted(0, "cycles", 1234567890.0, 50.0);
	counted(0, "page-faults", 123, NAN);
	ck_assert_double_eq(ctr_of(0, "cycles")->rel_stddev, 0.005);
	ck_assert_double_eq(ctr_of(0, "task-clock")->rel_stddev, 0.0165);
	times(0, 12866000000.0, NAN, NAN); /* 12.866 s, not 12,866 s */
	ck_assert_double_eq(wl(0)->score.median, 12.866);
	ck_assert_int_eq(wl(0)->runs, 3);

	ck_assert_str_eq(wl(1)->name, "make de");
	ck_assert_uint_eq(wl(1)->ncounters, 2);
	counted(1, "task-clock", 12345678900000.0, NAN);
	counted(1, "cycles", 1234567890.0, 75.0);
	ck_assert_double_eq(ctr_of(1, "cycles")->rel_stddev, 0.005);
	times(1, 987123000000.0, 900500000000.0, 86250000000.0); /* 987,123 s: the decimal comma */
	ck_assert_double_eq(wl(1)->score.median, 987.123);
}
END_TEST

START_TEST(test_separators_from_comments_only)
{
	/* every value is ambiguous alone; the comments' 0,998 and 85,70 make the comma decimal, the dot grouping */
	OK("           123,456 msec task-clock      #    0,998 CPUs utilized\n"
	   "           987.654      cycles          #    8,000 GHz     (85,70%)\n"
	   "             1,234 seconds time elapsed\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	counted(0, "task-clock", 123456000, NAN);
	counted(0, "cycles", 987654, 85.7);
	times(0, 1234000000.0, NAN, NAN);
	reset();
	/* and the same spellings in an English block */
	OK("           123,456 msec task-clock      #    0.998 CPUs utilized\n"
	   "           987.654      cycles          #    8.000 GHz     (85.70%)\n"
	   "             1,234 seconds time elapsed\n");
	counted(0, "task-clock", 123456000000.0, NAN);
	counted(0, "cycles", 987.654, 85.7);
	times(0, 1234000000000.0, NAN, NAN);
	reset();
	/* shares and spreads follow the block too: 1.250% in an English block, never 1250% */
	OK("     1,000,000      cycles     ( +-  1.250% )  (99.500%)\n      1.000 seconds time elapsed\n");
	counted(0, "cycles", 1000000, 99.5);
	ck_assert_double_eq(ctr_of(0, "cycles")->rel_stddev, 0.0125);
	times(0, 1e9, NAN, NAN);
}
END_TEST

/* ---- 5. headerless multi-block pastes ---- */

static const char two_runs[] =
	"$ ./bench --size 10\n"
	"result: 42 ops\n"
	"             10.50 msec task-clock                #    0.990 CPUs utilized\n"
	"        31,500,000      cycles                    #    3.000 GHz                      (90.00%)\n"
	"       0.010606061 seconds time elapsed\n"
	"\n"
	"       0.010000000 seconds user\n"
	"       0.000500000 seconds sys\n"
	"\n"
	"$ ./bench --size 20\n"
	"result: 17 ops\n"
	"             21.00 msec task-clock                #    0.995 CPUs utilized\n"
	"        63,000,000      cycles                    #    3.000 GHz                      (95.00%)\n"
	"       0.021105528 seconds time elapsed\n"
	"\n"
	"       0.020000000 seconds user\n"
	"       0.001000000 seconds sys\n";

static void check_two_runs(void)
{
	ck_assert_uint_eq(p->nworkloads, 2);
	ck_assert_uint_eq(wl(0)->ncounters, 2);
	counted(0, "task-clock", 10500000, NAN);
	counted(0, "cycles", 31500000, 90.0);
	times(0, 10606061, 10000000, 500000);
	ck_assert_double_eq(wl(0)->score.median, 0.010606061);
	ck_assert_uint_eq(wl(1)->ncounters, 2);
	counted(1, "task-clock", 21000000, NAN);
	counted(1, "cycles", 63000000, 95.0);
	times(1, 21105528, 20000000, 1000000);
}

START_TEST(test_headerless_blocks)
{
	struct ud_import_opts o = { .workload = "bench" };

	OK(two_runs);
	check_two_runs();
	ck_assert_str_eq(wl(0)->name, "./bench --size 10"); /* the command line before each block */
	ck_assert_str_eq(wl(1)->name, "./bench --size 20");
	reset();
	ck_assert_msg(import_as(two_runs, strlen(two_runs), "t.txt", &o) == 0, "%s", err.msg);
	check_two_runs();
	ck_assert_str_eq(wl(0)->name, "bench");
	ck_assert_str_eq(wl(1)->name, "bench#2");
	reset();
	/* nothing before the blocks: the file's name, numbered */
	OK("1 cycles\n0.5 seconds time elapsed\n2 cycles\n0.25 seconds time elapsed\n3 cycles\n0.125 seconds time elapsed\n");
	ck_assert_uint_eq(p->nworkloads, 3);
	ck_assert_str_eq(wl(0)->name, "t.txt");
	ck_assert_str_eq(wl(1)->name, "t.txt#2");
	ck_assert_str_eq(wl(2)->name, "t.txt#3");
	counted(0, "cycles", 1, NAN);
	counted(1, "cycles", 2, NAN);
	counted(2, "cycles", 3, NAN);
	times(0, 5e8, NAN, NAN);
	times(1, 2.5e8, NAN, NAN);
	times(2, 1.25e8, NAN, NAN);
}
END_TEST

/* ---- 6. byte-level forms ---- */

START_TEST(test_bom_crlf)
{
	OK("\xef\xbb\xbf" "     1,000      cycles\r\n     2,000      instructions   #  2.00 insn per cycle  (99.50%)\r\n"
	   "\r\n       0.500000000 seconds time elapsed\r\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 2);
	counted(0, "cycles", 1000, NAN); /* the first line's counter is not lost to the BOM */
	counted(0, "instructions", 2000, 99.5);
	times(0, 5e8, NAN, NAN);
	reset();
	OK("\xef\xbb\xbf" "1000,,cycles,500,100.00,,\r\n2.5,msec,task-clock,2500000,100.00,,\r\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 2);
	counted(0, "cycles", 1000, 100.0);
	counted(0, "task-clock", 2500000, 100.0);
	reset();
	OK("\xef\xbb\xbf{\"counter-value\" : \"100\", \"unit\" : \"\", \"event\" : \"cycles\", \"pcnt-running\" : 100.00}\r\n");
	counted(0, "cycles", 100, 100.0);
}
END_TEST

START_TEST(test_json_trailing_commas)
{
	OK("{\"counter-value\" : \"100\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : 5, "
	   "\"pcnt-running\" : 100.00, }\n"
	   "{\"counter-value\" : \"250\", \"unit\" : \"\", \"event\" : \"instructions\", \"pcnt-running\" : 80.00,},\n"
	   "{\"metric-value\" : \"63.2\", \"metric-unit\" : \"%  tma_backend_bound\" , }\n");
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_uint_eq(wl(0)->ncounters, 2);
	counted(0, "cycles", 100, 100.0);
	counted(0, "instructions", 250, 80.0);
	ck_assert_double_eq(metric_of(0, "tma_backend_bound"), 63.2);
}
END_TEST

#define STRLEN ((size_t)-1)

static void expect_error(const char *text, size_t len, const char *want)
{
	if (len == STRLEN)
		len = strlen(text);
	ck_assert_int_eq(import_as(text, len, "bad.txt", NULL), -1);
	ck_assert_msg(strstr(err.msg, want) != NULL, "'%s' lacks '%s'", err.msg, want);
	ck_assert_msg(strchr(err.msg, '\n') == NULL, "more than one line: %s", err.msg);
	ck_assert_uint_eq(p->nworkloads, 0);
	ck_assert_uint_eq(warn.n, 0);
}

START_TEST(test_nul_and_binary_bytes)
{
	static const char nul[] = "1,000 cycles\n2,000 instr\0uctions\n0.5 seconds time elapsed\n";
	static const char ctrl[] = "1,000 cycles\n2,000 instructions\n\x01\x02\x03\x04 garbage\n";

	expect_error(nul, sizeof(nul) - 1, "bad.txt:2: byte 0x00: binary data");
	expect_error(ctrl, sizeof(ctrl) - 1, "bad.txt:3: byte 0x01: binary data");
	expect_error("1 cycles\n\x01", 10, "bad.txt:2: byte 0x01");          /* in the last, partial word */
	expect_error("12345678\x1f cycles\n", STRLEN, "bad.txt:1: byte 0x1f"); /* first byte of a word */
	expect_error("1234567\x08 cycles\n", STRLEN, "bad.txt:1: byte 0x08");  /* last byte of a word */
	expect_error("\xef\xbb\xbf", 3, "bad.txt: empty file");
	expect_error("\xff\xfe" "1\0 \0c\0", 8, "bad.txt:1: UTF-16 text: convert it to UTF-8");
	/* a failed file leaves no hybrid mark behind */
	expect_error("1 cpu_core/cycles/\n1 cpu_atom/cycles/\n1,23,4 cycles\n", strlen("1 cpu_core/cycles/\n1 cpu_atom/cycles/\n1,23,4 cycles\n"), "bad.txt:3:");
	ck_assert(!p->host->hybrid);
}
END_TEST

/* ---- 7. a UnixBench log cut mid-table ---- */

static const char ub_head[] =
	"   BYTE UNIX Benchmarks (Version 5.1.3)\n"
	"\n"
	"   System: testhost: GNU/Linux\n"
	"   OS: GNU/Linux -- 6.1.0-test -- #1 SMP\n"
	"------------------------------------------------------------------------\n"
	"Benchmark Run: Mon Nov 30 2026 00:00:00 - 00:28:00\n"
	"2 CPUs in system; running 1 parallel copy of tests\n"
	"\n"
	"Dhrystone 2 using register variables       40000000.0 lps   (10.0 s, 7 samples)\n"
	"Double-Precision Whetstone                     6000.0 MWIPS (9.9 s, 7 samples)\n"
	"Pipe Throughput                             1000000.0 lps   (10.0 s, 7 samples)\n"
	"System Call Overhead                         900000.0 lps   (10.0 s, 7 samples)\n"
	"\n"
	"System Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
	"Dhrystone 2 using register variables         116700.0   40000000.0   3427.6\n"
	"Double-Precision Whetstone                       55.0       6000.0   1090.9\n";

static void check_cut_log(const char *where)
{
	const struct ud_workload *w;
	json_t *j;

	ck_assert_uint_eq(p->nworkloads, 2);
	w = wl(0);
	ck_assert_str_eq(w->name, "Dhrystone 2 using register variables (1 copy)");
	ck_assert_double_eq(w->score.median, 3427.6);
	ck_assert_uint_eq(w->nsubscores, 2);
	ck_assert_double_eq(w->subscores[0].value, 40000000.0);
	ck_assert_double_eq(w->subscores[1].value, 116700.0);
	w = wl(1);
	ck_assert_str_eq(w->name, "Double-Precision Whetstone (1 copy)");
	ck_assert_double_eq(w->score.median, 1090.9);
	ck_assert_double_eq(w->subscores[0].value, 6000.0);
	ck_assert_str_eq(w->subscores[0].units, "MWIPS");
	ck_assert_double_eq(w->subscores[1].value, 55.0);
	times(0, NAN, NAN, NAN);
	ck_assert_int_eq(p->incomplete, 1);
	j = profile_tree(p);
	ck_assert(json_is_true(json_object_get(j, "incomplete")));
	json_decref(j);
	ck_assert_uint_eq(warn.n, 1);
	ck_assert_msg(strncmp(warn.lines[0], where, strlen(where)) == 0, "%s", warn.lines[0]);
	ck_assert_msg(strstr(warn.lines[0], "index table (1 copy) ends early"), "%s", warn.lines[0]);
	ck_assert_msg(strstr(warn.lines[0], "missing: Pipe Throughput, System Call Overhead, System Benchmarks Index Score"),
		      "%s", warn.lines[0]);
}

START_TEST(test_unixbench_cut_mid_table)
{
	char text[sizeof(ub_head) + 128];

	/* cut between two rows */
	ck_assert_msg(import_as(ub_head, strlen(ub_head), "ub.txt", NULL) == 0, "%s", err.msg);
	check_cut_log("ub.txt:16: ");
	reset();
	/* cut inside a row */
	snprintf(text, sizeof(text), "%sPipe Throughput                               12440.0    100", ub_head);
	ck_assert_msg(import_as(text, strlen(text), "ub.txt", NULL) == 0, "%s", err.msg);
	check_cut_log("ub.txt:17: ");
	reset();
	/* a whole table: no warning */
	snprintf(text, sizeof(text), "%s========\nSystem Benchmarks Index Score     1933.6\n", ub_head);
	ck_assert_msg(import_as(text, strlen(text), "ub.txt", NULL) == 0, "%s", err.msg);
	ck_assert_uint_eq(p->nworkloads, 3);
	ck_assert_int_eq(p->incomplete, 0);
	ck_assert_uint_eq(warn.n, 0);
}
END_TEST

/* ---- 8. CSV whose hardware rows are all <not supported> ---- */

START_TEST(test_csv_all_not_supported)
{
	static const char *const files[] = {
		"# started on Mon Nov 30 00:00:00 2026\n\n"
		"<not supported>,,cycles,0,100.00,,\n<not supported>,,instructions,0,100.00,,\n"
		"<not supported>,,branches,0,100.00,,\n1.52,msec,task-clock,1520000,100.00,0.672,CPUs utilized\n",
		"<not supported>;;cycles;0;100.00;;\n<not supported>;;instructions;0;100.00;;\n"
		"<not supported>;;branches;0;100.00;;\n1,52;msec;task-clock;1520000;100,00;0,672;CPUs utilized\n",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		reset();
		ck_assert_int_eq(ud_import_detect(files[i], strlen(files[i])), UD_FMT_PERF_CSV);
		OK(files[i]);
		ck_assert_uint_eq(p->nworkloads, 1);
		ck_assert_uint_eq(wl(0)->ncounters, 4);
		ck_assert_int_eq(ctr_of(0, "cycles")->status, UD_NOT_SUPPORTED);
		ck_assert_int_eq(ctr_of(0, "instructions")->status, UD_NOT_SUPPORTED);
		ck_assert_int_eq(ctr_of(0, "branches")->status, UD_NOT_SUPPORTED);
		counted(0, "task-clock", 1520000, 100.0);
		times(0, NAN, NAN, NAN);
	}
}
END_TEST

/* ---- the command line: bad input, one line, exit 2, nothing written; huge files refused ---- */

START_TEST(test_cli_bad_paste_writes_nothing)
{
	static const char nul[] = "1,000 cycles\n2,000 instr\0uctions\n";
	char *dir = make_tempdir(), in[512], out[512];
	struct run_result r;
	FILE *f;

	snprintf(in, sizeof(in), "%s/paste.txt", dir);
	snprintf(out, sizeof(out), "%s/p.json", dir);
	f = fopen(in, "wb");
	ck_assert_ptr_nonnull(f);
	fwrite(nul, 1, sizeof(nul) - 1, f);
	fclose(f);
	r = run_capture((char *const[]){ UD_BINARY, "import", "-o", out, in, NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_int_eq(count_lines(r.err), 1);
	ck_assert_msg(strstr(r.err, "paste.txt:2: byte 0x00") != NULL, "%s", r.err);
	ck_assert_int_eq(access(out, F_OK), -1);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/*
 * Two blocks of one command in one import (issue 39): two hosts' pastes in
 * one file, or the same workload in two files, were one profile with a
 * workload renamed "CMD#2", exit 0.  Refused, naming both places; blocks
 * of different commands still share a profile.
 */
static const char bench_block[] = " Performance counter stats for './bench':\n\n"
				  "     1,000      cycles\n     2,000      instructions\n\n"
				  "       0.5 seconds time elapsed\n\n";

START_TEST(test_repeated_command_refused)
{
	char two[512];
	struct ud_import_opts o = { .seen = ud_import_seen_new() };

	snprintf(two, sizeof(two), "%s%s", bench_block, bench_block);
	ck_assert_int_eq(import_as(two, strlen(two), "e6.txt", NULL), -1);
	ck_assert_msg(strstr(err.msg, "e6.txt:8: a second block of './bench' (the first at e6.txt:1)") != NULL, "%s",
		      err.msg);
	ck_assert_msg(strstr(err.msg, "import each apart") && strstr(err.msg, "perf stat -r N"), "%s", err.msg);
	ck_assert_uint_eq(p->nworkloads, 0);
	/* across files: one set of what was read serves them all */
	ck_assert_ptr_nonnull(o.seen);
	ck_assert_msg(import_as(bench_block, strlen(bench_block), "e5.txt", &o) == 0, "%s", err.msg);
	ck_assert_int_eq(import_as(bench_block, strlen(bench_block), "e6.txt", &o), -1);
	ck_assert_msg(strstr(err.msg, "e6.txt:1: a second block of './bench' (the first at e5.txt:1)") != NULL, "%s",
		      err.msg);
	ck_assert_uint_eq(p->nworkloads, 1);
	snprintf(two, sizeof(two), "%s", bench_block);
	memcpy(strstr(two, "bench"), "other", 5);
	ck_assert_msg(import_as(two, strlen(two), "e6.txt", &o) == 0, "%s", err.msg);
	ck_assert_uint_eq(p->nworkloads, 2);
	ud_import_seen_free(o.seen);
}
END_TEST

/* The CLI refuses two files of one workload, exit 2, one line, nothing written. */
START_TEST(test_cli_two_files_one_workload)
{
	char *dir = make_tempdir(), out[512], e5[512], e6[512];
	struct run_result r;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	snprintf(e5, sizeof(e5), "%s/perf-stat/oci-e5-genoa-fstime.txt", UD_TEST_DATA);
	snprintf(e6, sizeof(e6), "%s/perf-stat/oci-e6-turin-fstime.txt", UD_TEST_DATA);
	r = run_capture((char *const[]){ UD_BINARY, "import", "-o", out, e5, e6, NULL });
	ck_assert_int_eq(r.status, 2);
	ck_assert_int_eq(count_lines(r.err), 1);
	ck_assert_msg(strstr(r.err, "oci-e6-turin-fstime.txt:11: a second block of") != NULL, "%s", r.err);
	ck_assert_msg(strstr(r.err, "(the first at ") && strstr(r.err, "oci-e5-genoa-fstime.txt:11)"), "%s", r.err);
	ck_assert_int_eq(access(out, F_OK), -1);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/*
 * What is one measurement stays accepted: -r N's runs, -I's intervals, the
 * cgroup column's second counter ("task-clock#2"), redis-benchmark's runs
 * of a test, a UnixBench log's tests, several files of different commands.
 */
START_TEST(test_cli_one_measurement_accepted)
{
	static const char *const files[][3] = {
		{ "perf-stat/made-up-r5.txt" },
		{ "perf-stat/vm-perf61-for-each-cgroup-I100.txt" },
		{ "perf-stat/vm-perf61-for-each-cgroup-r3.txt" },
		{ "perf-stat/vm-perf61-for-each-cgroup.txt" },
		{ "redis-benchmark/made-up-full-7x-two-runs.txt" },
		{ "unixbench/aws-m6g-graviton2.txt" },
		{ "perf-stat/made-up-r5.txt", "perf-stat/made-up-syscall.txt", "perf-stat/made-up-r5.csv" },
	};
	char *dir = make_tempdir(), out[512], in[3][512];

	snprintf(out, sizeof(out), "%s/p.json", dir);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *argv[8] = { UD_BINARY, "import", "-o", out };
		size_t n = 4;
		struct run_result r;

		for (size_t k = 0; k < 3 && files[i][k]; k++) {
			snprintf(in[k], sizeof(in[k]), "%s/%s", UD_TEST_DATA, files[i][k]);
			argv[n++] = in[k];
		}
		r = run_capture(argv);
		ck_assert_msg(r.status == 0, "%s: %s", files[i][0], r.err);
		run_free(&r);
	}
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_huge_file_refused)
{
	char *dir = make_tempdir(), path[512];
	struct ud_import_opts o = { 0 };
	int fd;

	snprintf(path, sizeof(path), "%s/huge.txt", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	/* sparse: no disk, and refused before a byte is read */
	ck_assert_int_eq(ftruncate(fd, (off_t)UD_CAP_IMPORT + 1), 0);
	close(fd);
	ck_assert_int_eq(ud_import_file_warn(p, path, &o, &warn, &err), -1);
	ck_assert_msg(strstr(err.msg, "huge.txt: larger than the 1024 MiB limit for a file to import") != NULL, "%s", err.msg);
	ck_assert_uint_eq(p->nworkloads, 0);
	rm_tree(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("import_pastes");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_perf6_metric_rows_csv);
	tcase_add_test(tc, test_perf6_metric_rows_json);
	tcase_add_test(tc, test_perf6_metric_rows_text);
	tcase_add_test(tc, test_hybrid_text);
	tcase_add_test(tc, test_hybrid_csv_and_json);
	tcase_add_test(tc, test_hybrid_metrics);
	tcase_add_test(tc, test_one_core_pmu_is_not_hybrid);
	tcase_add_test(tc, test_old_perf_unitless_msec);
	tcase_add_test(tc, test_separators_per_block);
	tcase_add_test(tc, test_separators_from_comments_only);
	tcase_add_test(tc, test_headerless_blocks);
	tcase_add_test(tc, test_bom_crlf);
	tcase_add_test(tc, test_json_trailing_commas);
	tcase_add_test(tc, test_nul_and_binary_bytes);
	tcase_add_test(tc, test_unixbench_cut_mid_table);
	tcase_add_test(tc, test_csv_all_not_supported);
	tcase_add_test(tc, test_cli_bad_paste_writes_nothing);
	tcase_add_test(tc, test_huge_file_refused);
	tcase_add_test(tc, test_repeated_command_refused);
	tcase_add_test(tc, test_cli_two_files_one_workload);
	tcase_add_test(tc, test_cli_one_measurement_accepted);
	tcase_add_test(tc, test_cgroup_column);
	tcase_add_test(tc, test_cgroup_column_not_prose);
	tcase_add_test(tc, test_long_event_names);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
