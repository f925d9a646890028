/*
 * Top-down from what perf printed (SPEC §5.2 "topdown", source
 * perf-topdown-events or perf-metrics): Intel's slots and topdown-*
 * events, its tma_* metric rows in text, -x CSV and -j JSON, AMD's
 * PipelineL1 rows, a hybrid paste's two core types, and what is null
 * when a row is missing.  Inputs are written here in perf's forms, the
 * numbers made up and worked out in the comments.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import.h"
#include "testutil.h"
#include "topdown.h"

/* perf prints fractions to 0.1 percent: that is as close as a printed one and ours can agree. */
#define PRINTED 0.0005
/* Sums of a few decimal fractions, off by float rounding only. */
#define CLOSE 1e-12

static struct ud_profile *p;
static struct ud_err err;

static void setup(void)
{
	p = ud_profile_new(NULL);
}

static void teardown(void)
{
	ud_profile_free(p);
}

static void import_text(const char *text, enum ud_import_format fmt)
{
	struct ud_import_opts o = { .format = fmt };

	ck_assert_msg(ud_import_buffer(p, text, strlen(text), "t", &o, &err) == 0, "%s", err.msg);
}

static const struct ud_topdown *record(size_t w, size_t i)
{
	ck_assert_uint_gt(p->nworkloads, w);
	ck_assert_uint_gt(p->workloads[w].ntopdown, i);
	return &p->workloads[w].topdown[i];
}

static void near(const struct ud_topdown *t, int b, double want, double tolerance)
{
	ck_assert_msg(t->defined[b] && fabs(t->value[b] - want) <= tolerance, "%s = %.6f (%s), want %.6f",
		      ud_topdown_bucket_name(b), t->value[b], t->reason[b], want);
}

/*
 * Ice Lake, perf 5.x: the four metric events add up to 9.96e9 of 1e10
 * slots (the kernel's rounding of the metrics register, made large here),
 * and perf prints each over their sum: 4.2/9.96 = 42.17% -> 42.2, 0.86/9.96
 * = 8.63% -> 8.6, 1.9/9.96 = 19.08% -> 19.1, 3.0/9.96 = 30.12% -> 30.1.
 * Over slots they would be 42.0, 8.6, 19.0, 30.0: two off by more than the
 * printed 0.1%.
 */
static const char icelake_text[] =
	"\n Performance counter stats for './app':\n\n"
	"    10,000,000,000      slots\n"
	"     4,200,000,000      topdown-retiring          #     42.2% retiring\n"
	"       860,000,000      topdown-bad-spec          #      8.6% bad speculation\n"
	"     1,900,000,000      topdown-fe-bound          #     19.1% frontend bound\n"
	"     3,000,000,000      topdown-be-bound          #     30.1% backend bound\n\n"
	"       1.002345678 seconds time elapsed\n";

START_TEST(test_icelake_topdown_events)
{
	const struct ud_topdown *t;

	import_text(icelake_text, UD_FMT_AUTO);
	t = record(0, 0);
	ck_assert_int_eq(t->method, UD_TD_SLOTS);
	ck_assert_int_eq(t->source, UD_TD_PERF_TOPDOWN_EVENTS);
	ck_assert_int_eq(t->level, 1);
	/* the fractions perf printed beside them, to the 0.1% it printed */
	near(t, UD_TD_RETIRING, 0.422, PRINTED);
	near(t, UD_TD_BAD_SPECULATION, 0.086, PRINTED);
	near(t, UD_TD_FRONTEND_BOUND, 0.191, PRINTED);
	near(t, UD_TD_BACKEND_BOUND, 0.301, PRINTED);
	/* and exactly: each over the four's sum */
	near(t, UD_TD_RETIRING, 4.2 / 9.96, CLOSE);
	ck_assert(fabs(t->residual) < CLOSE);
	ck_assert_uint_eq(p->workloads[0].ntopdown, 1);
}
END_TEST

/* The same run as perf 6.x prints it with -x, and its TopdownL1 and L2 rows as perf computed them. */
static const char icelake_csv[] =
	"10000000000,,slots,1002345678,100.00,,\n"
	"4200000000,,topdown-retiring,1002345678,100.00,42.2,%  tma_retiring\n"
	"860000000,,topdown-bad-spec,1002345678,100.00,8.6,%  tma_bad_speculation\n"
	"1900000000,,topdown-fe-bound,1002345678,100.00,19.1,%  tma_frontend_bound\n"
	"3000000000,,topdown-be-bound,1002345678,100.00,30.1,%  tma_backend_bound\n"
	",1002345678,100.00,,,,TopdownL2\n"
	",,,,,12.4,%  tma_fetch_latency\n"
	",,,,,6.7,%  tma_fetch_bandwidth\n"
	",,,,,18.0,%  tma_memory_bound\n";

START_TEST(test_tma_rows_csv_give_the_same_object)
{
	const struct ud_topdown *events, *tma;

	import_text(icelake_text, UD_FMT_AUTO);
	import_text(icelake_csv, UD_FMT_PERF_CSV);
	events = record(0, 0);
	tma = record(1, 0);
	ck_assert_int_eq(tma->source, UD_TD_PERF_METRICS);
	ck_assert_int_eq(tma->method, UD_TD_SLOTS);
	for (int b = UD_TD_RETIRING; b <= UD_TD_BACKEND_BOUND; b++)
		near(tma, b, events->value[b], PRINTED);
	/* 42.2 + 8.6 + 19.1 + 30.1 = 100.0 */
	ck_assert(fabs(tma->residual) < CLOSE);
	ck_assert_int_eq(tma->level, 2);
	near(tma, UD_TD_FETCH_LATENCY, 0.124, CLOSE);
	near(tma, UD_TD_FETCH_BANDWIDTH, 0.067, CLOSE);
	near(tma, UD_TD_MEMORY_BOUND, 0.18, CLOSE);
	ck_assert(!tma->defined[UD_TD_CORE_BOUND]);
}
END_TEST

START_TEST(test_tma_rows_json)
{
	const struct ud_topdown *t;

	import_text("{\"counter-value\" : \"10000000000\", \"unit\" : \"\", \"event\" : \"slots\", \"event-runtime\" : "
		    "1002345678, \"pcnt-running\" : 100.00, \"metric-value\" : \"\", \"metric-unit\" : \"\"}\n"
		    "{\"metricgroup\" : \"TopdownL1\"}\n"
		    "{\"metric-value\" : \"42.2\", \"metric-unit\" : \"%  tma_retiring\"}\n"
		    "{\"metric-value\" : \"8.6\", \"metric-unit\" : \"%  tma_bad_speculation\"}\n"
		    "{\"metric-value\" : \"\", \"metric-unit\" : \"%  tma_frontend_bound\"}\n",
		    UD_FMT_PERF_JSON);
	t = record(0, 0);
	ck_assert_int_eq(t->source, UD_TD_PERF_METRICS);
	near(t, UD_TD_RETIRING, 0.422, CLOSE);
	near(t, UD_TD_BAD_SPECULATION, 0.086, CLOSE);
	/* printed without a value, and not printed at all: null, each with its reason */
	ck_assert(isnan(t->value[UD_TD_FRONTEND_BOUND]));
	ck_assert_str_eq(t->reason[UD_TD_FRONTEND_BOUND], "perf printed tma_frontend_bound without a value");
	ck_assert_str_eq(t->reason[UD_TD_BACKEND_BOUND], "perf printed no tma_backend_bound row");
	ck_assert(isnan(t->residual));
}
END_TEST

START_TEST(test_amd_pipeline_l1_text)
{
	/*
	 * perf -M PipelineL1 on a Zen 4, its metrics beside the events (the
	 * form of a public paste): 2.0 + 81.0 + 0.0 + 2.1 + 14.9 = 100.0.
	 */
	const struct ud_topdown *t;

	import_text(" Performance counter stats for './bench':\n\n"
		    "   219,730,483,625      de_src_op_disp.all               #      2.0 %  bad_speculation          (49.98%)\n"
		    "    44,116,386,583      ls_not_halted_cyc                                                       (49.98%)\n"
		    "   214,351,198,437      ex_ret_ops                       #     81.0 %  retiring                 (49.98%)\n"
		    "                 0      de_no_dispatch_per_slot.smt_contention #      0.0 %  smt_contention           (50.02%)\n"
		    "     5,543,991,665      de_no_dispatch_per_slot.no_ops_from_frontend #      2.1 %  frontend_bound           (50.02%)\n"
		    "    39,403,115,284      de_no_dispatch_per_slot.backend_stalls #     14.9 %  backend_bound            (49.98%)\n\n"
		    "       8.476620000 seconds time elapsed\n",
		    UD_FMT_AUTO);
	t = record(0, 0);
	ck_assert_int_eq(t->source, UD_TD_PERF_METRICS);
	near(t, UD_TD_RETIRING, 0.81, CLOSE);
	near(t, UD_TD_BAD_SPECULATION, 0.02, CLOSE);
	near(t, UD_TD_FRONTEND_BOUND, 0.021, CLOSE);
	near(t, UD_TD_BACKEND_BOUND, 0.149, CLOSE);
	near(t, UD_TD_SMT_CONTENTION, 0, CLOSE);
	ck_assert(fabs(t->residual) < CLOSE);
	ck_assert_int_eq(t->level, 1);
}
END_TEST

/*
 * A real paste (tests/data/real/r18, Arm's learning path, an x86 host under
 * an older perf's -M topdownl1): Intel's TopdownL1 rows as fractions,
 * "# 0.91 Backend_Bound", which is 91% of the slots, not 0.91%.
 */
START_TEST(test_older_intel_fractions)
{
	struct ud_import_opts o = { .format = UD_FMT_AUTO };
	const struct ud_topdown *t;

	ck_assert_msg(ud_import_file(p, UD_TEST_DATA "/real/r18-arm-learning-path-x86-vs-neoverse-v3-fpdiv-topdown/"
					 "a-intel-perf-M-topdownl1.txt", &o, &err) == 0, "%s", err.msg);
	t = record(0, 0);
	ck_assert_int_eq(t->source, UD_TD_PERF_METRICS);
	near(t, UD_TD_BACKEND_BOUND, 0.91, CLOSE);
	near(t, UD_TD_RETIRING, 0.09, CLOSE);
	near(t, UD_TD_BAD_SPECULATION, 0, CLOSE);
	near(t, UD_TD_FRONTEND_BOUND, 0, CLOSE);
}
END_TEST

START_TEST(test_hybrid_core_types_apart)
{
	const struct ud_topdown *core, *atom;

	import_text(" Performance counter stats for './bench':\n\n"
		    "     3,000,000,000      cpu_core/cycles/\n"
		    "     1,000,000,000      cpu_atom/cycles/\n"
		    "               TopdownL1 (cpu_core)                 #     63.2 %  tma_backend_bound\n"
		    "                                                    #      5.1 %  tma_bad_speculation\n"
		    "                                                    #     18.4 %  tma_frontend_bound\n"
		    "                                                    #     13.3 %  tma_retiring\n"
		    "               TopdownL1 (cpu_atom)                 #     40.0 %  tma_backend_bound\n"
		    "                                                    #     10.0 %  tma_bad_speculation\n"
		    "                                                    #     20.0 %  tma_frontend_bound\n"
		    "                                                    #     30.0 %  tma_retiring\n\n"
		    "       0.502512345 seconds time elapsed\n",
		    UD_FMT_AUTO);
	ck_assert_uint_eq(p->workloads[0].ntopdown, 2);
	core = record(0, 0);
	atom = record(0, 1);
	ck_assert_str_eq(core->pmu, "cpu_core");
	ck_assert_str_eq(atom->pmu, "cpu_atom");
	near(core, UD_TD_BACKEND_BOUND, 0.632, CLOSE);
	near(atom, UD_TD_BACKEND_BOUND, 0.4, CLOSE);
	near(atom, UD_TD_RETIRING, 0.3, CLOSE);
}
END_TEST

START_TEST(test_missing_topdown_event)
{
	const struct ud_topdown *t;

	import_text("10000000000,,slots,1,100.00,,\n"
		    "4200000000,,topdown-retiring,1,100.00,,\n"
		    "860000000,,topdown-bad-spec,1,100.00,,\n"
		    "<not counted>,,topdown-fe-bound,0,0.00,,\n",
		    UD_FMT_PERF_CSV);
	t = record(0, 0);
	/* without all four there is no sum to divide by: every bucket null, and why */
	for (int b = UD_TD_RETIRING; b <= UD_TD_BACKEND_BOUND; b++)
		ck_assert(isnan(t->value[b]));
	ck_assert_str_eq(t->reason[UD_TD_RETIRING], "topdown-fe-bound perf printed <not counted>");
}
END_TEST

START_TEST(test_no_topdown_no_record)
{
	import_text(" Performance counter stats for 'true':\n\n"
		    "         1,234,567      cycles\n"
		    "         1,000,000      instructions              #    0.81  insn per cycle\n\n"
		    "       0.001234567 seconds time elapsed\n",
		    UD_FMT_AUTO);
	ck_assert_uint_eq(p->workloads[0].ntopdown, 0);
}
END_TEST

START_TEST(test_written_and_read_back)
{
	struct ud_profile *back;
	json_t *j, *td;

	import_text(icelake_text, UD_FMT_AUTO);
	j = profile_tree(p);
	td = json_object_get(json_array_get(json_object_get(j, "workloads"), 0), "topdown");
	ck_assert_str_eq(json_string_value(json_object_get(td, "source")), "perf-topdown-events");
	ck_assert(fabs(json_real_value(json_object_get(td, "retiring")) - 4.2 / 9.96) < CLOSE);
	back = profile_from_tree(j, "back", &err);
	ck_assert_msg(back != NULL, "%s", err.msg);
	ck_assert_uint_eq(back->workloads[0].ntopdown, 1);
	ck_assert_int_eq(back->workloads[0].topdown[0].source, UD_TD_PERF_TOPDOWN_EVENTS);
	ck_assert(fabs(back->workloads[0].topdown[0].value[UD_TD_BACKEND_BOUND] - 3.0 / 9.96) < CLOSE);
	ud_profile_free(back);
	json_decref(j);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("imp_topdown");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_icelake_topdown_events);
	tcase_add_test(tc, test_tma_rows_csv_give_the_same_object);
	tcase_add_test(tc, test_tma_rows_json);
	tcase_add_test(tc, test_amd_pipeline_l1_text);
	tcase_add_test(tc, test_older_intel_fractions);
	tcase_add_test(tc, test_hybrid_core_types_apart);
	tcase_add_test(tc, test_missing_topdown_event);
	tcase_add_test(tc, test_no_topdown_no_record);
	tcase_add_test(tc, test_written_and_read_back);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
