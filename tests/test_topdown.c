/*
 * Top-down as data: the formula language, each shipped table's formulas
 * evaluated over made-up counts whose buckets are worked out by hand in the
 * comments, the record's residual and normalisation, and the record in a
 * profile, written and read back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "topdown.h"
#include "topdown_counters.h"
#include "topdown_expr.h"
#include "topdown_json.h"
#include "topdown_method.h"
#include "uarch.h"

/* Hand-computed fractions are exact in decimal; doubles hold them to about 1e-16. */
#define CLOSE 1e-12

static struct ud_uarch_db db;

static void load(void)
{
	struct ud_err err;

	ck_assert_msg(ud_uarch_db_load(UD_EVENTS_DIR, &db, &err) == 0, "%s", err.msg);
}

static void unload(void)
{
	ud_uarch_db_free(&db);
}

/* ---- the formula language ---- */

struct vars {
	const char *names[8];
	double values[8];
};

static int var_lookup(void *ctx, const char *name, double *v, char *why, size_t len, struct ud_err *err)
{
	const struct vars *vs = ctx;

	for (int i = 0; i < 8 && vs->names[i]; i++) {
		if (strcmp(vs->names[i], name) == 0) {
			*v = vs->values[i];
			return 0;
		}
	}
	if (strcmp(name, "absent") == 0) {
		snprintf(why, len, "absent was not counted");
		return 1;
	}
	return ud_fail(err, "%s: unknown", name);
}

static double eval(const char *expr, double slots, char *why)
{
	static struct vars vs = { { "a", "b", "zero", "topdown-x", "ev,cmask=0x6", NULL },
				  { 6, 3, 0, 10, 2 } };
	struct ud_expr_env env = { var_lookup, &vs, slots, false };
	struct ud_err err = UD_ERR_INIT;
	char buf[UD_EXPR_WHY_MAX];
	double v;

	ck_assert_msg(ud_expr_eval(expr, &env, &v, why ? why : buf, UD_EXPR_WHY_MAX, &err) == 0, "%s: %s", expr,
		      err.msg);
	return v;
}

static void refused(const char *expr, const char *what)
{
	static struct vars vs = { { "a", NULL }, { 1 } };
	struct ud_expr_env env = { var_lookup, &vs, 5, false };
	struct ud_err err = UD_ERR_INIT;
	char why[UD_EXPR_WHY_MAX];
	double v;

	ck_assert_int_eq(ud_expr_eval(expr, &env, &v, why, sizeof(why), &err), -1);
	ck_assert_msg(strstr(err.msg, what), "%s: '%s' lacks '%s'", expr, err.msg, what);
}

START_TEST(test_expr_arithmetic)
{
	char why[UD_EXPR_WHY_MAX];

	ck_assert_double_eq(eval("a + b * 2", NAN, NULL), 12);
	ck_assert_double_eq(eval("(a + b) * 2", NAN, NULL), 18);
	ck_assert_double_eq(eval("a - b - 1", NAN, NULL), 2);       /* left-associative */
	ck_assert_double_eq(eval("a / b / 2", NAN, NULL), 1);
	ck_assert_double_eq(eval("-a + 10", NAN, NULL), 4);
	ck_assert_double_eq(eval("1.5e2 * .5", NAN, NULL), 75);
	ck_assert_double_eq(eval("d_ratio(a, zero)", NAN, NULL), 0); /* perf's: 0 over 0 is 0 */
	ck_assert_double_eq(eval("d_ratio(a, b)", NAN, NULL), 2);
	ck_assert_double_eq(eval("max(0, b - a) + min(a, b)", NAN, NULL), 3);
	/* perf's escapes take '-', ',' and '=' into a name */
	ck_assert_double_eq(eval("topdown\\-x / 5", NAN, NULL), 2);
	ck_assert_double_eq(eval("6 * ev\\,cmask\\=0x6", NAN, NULL), 12);
	/* the literal #slots, and what its absence says */
	ck_assert_double_eq(eval("#slots * a", 5, NULL), 30);
	ck_assert(isnan(eval("#slots * a", NAN, why)));
	ck_assert_ptr_nonnull(strstr(why, "caps/slots"));
	/* a plain division by 0 has no value, and says so */
	ck_assert(isnan(eval("a / zero", NAN, why)));
	ck_assert_str_eq(why, "a divisor counted 0");
}
END_TEST

START_TEST(test_expr_conditional)
{
	char why[UD_EXPR_WHY_MAX];

	/* N2's special case: the first branch unless #slots is 5 */
	ck_assert_double_eq(eval("(a) if (#slots - 5) else (a - 1)", 8, NULL), 6);
	ck_assert_double_eq(eval("(a) if (#slots - 5) else (a - 1)", 5, NULL), 5);
	/* lowest precedence, right-associative */
	ck_assert_double_eq(eval("a + 1 if zero else b + 1", NAN, NULL), 4);
	ck_assert_double_eq(eval("1 if zero else 2 if zero else 3", NAN, NULL), 3);
	/* a branch not taken may read what was not counted, and its reason does not stand */
	ck_assert_double_eq(eval("a if b else absent", NAN, why), 6);
	ck_assert_str_eq(why, "");
	ck_assert_double_eq(eval("absent if zero else b", NAN, why), 3);
	ck_assert_str_eq(why, "");
	/* a missing input of the branch taken: null, with the reason */
	ck_assert(isnan(eval("absent + 1 if a else 0", NAN, why)));
	ck_assert_str_eq(why, "absent was not counted");
}
END_TEST

START_TEST(test_expr_refusals)
{
	char deep[400];

	refused("", "empty");
	refused("a +", "ends early");
	refused("(a", "expected ')'");
	refused("a b", "unexpected text");
	refused("a if a", "expected 'else'");
	refused("frobnicate(a, a)", "unknown function");
	refused("#cores", "unknown literal");
	refused("a $ a", "unexpected character");
	refused("nobody", "nobody: unknown");
	refused("1.2.3", "malformed number");
	memset(deep, '(', 200);
	snprintf(deep + 200, sizeof(deep) - 200, "a%s", "");
	refused(deep, "nested too deeply");
	memset(deep, '-', 300);
	snprintf(deep + 300, sizeof(deep) - 300, "a");
	refused(deep, "nested too deeply");
}
END_TEST

/* ---- each table's formulas over made-up counts ---- */

struct counts {
	const char *const *names;
	const double *values;
	size_t n;
};

static int count_lookup(void *ctx, const char *name, double *v, char *why, size_t len)
{
	const struct counts *c = ctx;

	for (size_t i = 0; i < c->n; i++) {
		if (strcmp(c->names[i], name) == 0) {
			*v = c->values[i];
			return 0;
		}
	}
	snprintf(why, len, "%s was not counted", name);
	return 1;
}

static const struct ud_td_method *method_of(const char *uarch, const char *pmu)
{
	const struct ud_uarch *u = ud_uarch_find(&db, uarch);

	ck_assert_ptr_nonnull(u);
	for (size_t i = 0; i < u->ntopdown; i++)
		if (strcmp(u->topdown[i].pmu, pmu) == 0)
			return &u->topdown[i];
	ck_abort_msg("%s has no top-down method for pmu '%s'", uarch, pmu);
	return NULL;
}

static struct ud_topdown compute(const char *uarch, const char *pmu, double slots, const char *const *names,
				 const double *values, size_t n)
{
	struct counts c = { names, values, n };
	struct ud_topdown t;
	struct ud_err err = UD_ERR_INIT;

	ck_assert_msg(ud_topdown_compute(method_of(uarch, pmu), slots, count_lookup, &c, &t, &err) == 0, "%s: %s",
		      uarch, err.msg);
	return t;
}

#define COMPUTE(uarch, pmu, slots, names, values) \
	compute(uarch, pmu, slots, names, values, sizeof(values) / sizeof(values[0]))

static void bucket(const struct ud_topdown *t, int b, double want)
{
	ck_assert_msg(t->defined[b], "%s not defined", ud_topdown_bucket_name(b));
	ck_assert_msg(fabs(t->value[b] - want) < CLOSE, "%s = %.15g, want %.15g (%s)", ud_topdown_bucket_name(b),
		      t->value[b], want, t->reason[b]);
}

static void level1(const struct ud_topdown *t, double ret, double bad, double fe, double be, double residual)
{
	bucket(t, UD_TD_RETIRING, ret);
	bucket(t, UD_TD_BAD_SPECULATION, bad);
	bucket(t, UD_TD_FRONTEND_BOUND, fe);
	bucket(t, UD_TD_BACKEND_BOUND, be);
	ck_assert_msg(fabs(t->residual - residual) < CLOSE, "residual %.15g, want %.15g", t->residual, residual);
}

static const char *const zen_names[] = {
	"ls_not_halted_cyc", "de_no_dispatch_per_slot.no_ops_from_frontend",
	"de_no_dispatch_per_slot.backend_stalls", "de_no_dispatch_per_slot.smt_contention",
	"ex_ret_ops", "de_src_op_disp.all", "ex_ret_brn_misp", "resyncs_or_nc_redirects",
	"ex_no_retire.load_not_complete", "ex_no_retire.not_complete", "ex_ret_ucode_ops",
	"de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6",
};

START_TEST(test_zen4)
{
	/*
	 * 1e6 cycles, 6 slots each: 6e6 slots.  frontend 0.6e6/6e6 = 0.1,
	 * backend 1.8e6/6e6 = 0.3, SMT 0.3e6/6e6 = 0.05, retiring 2.7e6/6e6 =
	 * 0.45, bad speculation (3.0e6 - 2.7e6)/6e6 = 0.05: 0.95 in all, a
	 * residual of 0.05.  Level 2: latency 6 x 60,000 / 6e6 = 0.06 and
	 * bandwidth (0.6e6 - 0.36e6)/6e6 = 0.04; mispredicts 0.05 x 30k/40k =
	 * 0.0375, restarts 0.0125; memory 0.3 x 400k/500k = 0.24, CPU 0.06;
	 * microcode 0.45 x 270k/2.7e6 = 0.045, fastpath 0.405.
	 */
	static const double v[] = { 1e6, 6e5, 1.8e6, 3e5, 2.7e6, 3e6, 30000, 10000, 400000, 500000, 270000, 60000 };
	struct ud_topdown t = COMPUTE("zen4", "", NAN, zen_names, v);

	ck_assert_int_eq(t.method, UD_TD_SLOTS);
	ck_assert_int_eq(t.source, UD_TD_COUNTED);
	ck_assert_int_eq(t.level, 2);
	level1(&t, 0.45, 0.05, 0.1, 0.3, 0.05);
	bucket(&t, UD_TD_SMT_CONTENTION, 0.05);
	ck_assert(fabs(t.raw_sum - 0.95) < CLOSE);
	bucket(&t, UD_TD_FETCH_LATENCY, 0.06);
	bucket(&t, UD_TD_FETCH_BANDWIDTH, 0.04);
	bucket(&t, UD_TD_BRANCH_MISPREDICTS, 0.0375);
	bucket(&t, UD_TD_MACHINE_CLEARS, 0.0125);
	bucket(&t, UD_TD_MEMORY_BOUND, 0.24);
	bucket(&t, UD_TD_CORE_BOUND, 0.06);
	bucket(&t, UD_TD_MICROCODE, 0.045);
	bucket(&t, UD_TD_FASTPATH, 0.405);
	ck_assert(!t.defined[UD_TD_HEAVY_OPERATIONS]);
}
END_TEST

static const char *const zen5_names[] = {
	"ls_not_halted_cyc", "de_no_dispatch_per_slot.no_ops_from_frontend",
	"de_no_dispatch_per_slot.backend_stalls", "de_no_dispatch_per_slot.smt_contention",
	"ex_ret_ops", "de_src_op_disp.all", "ex_ret_brn_misp", "bp_redirects.resync",
	"ex_no_retire.load_not_complete", "ex_no_retire.not_complete", "ex_ret_ucode_ops",
	"de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x8",
};

START_TEST(test_zen5_normalised)
{
	/*
	 * 1e6 cycles x 8 slots = 8e6.  frontend 0.8e6/8e6 = 0.1, backend
	 * 2.4e6/8e6 = 0.3, SMT 0, retiring 4.8e6/8e6 = 0.6, bad speculation
	 * counted in ops (5.6e6 - 4.8e6)/8e6 = 0.1: 1.1 in all.  Normalised:
	 * each over 1.1, residual 0.  Level 2 scales with its parent: latency
	 * 8 x 40,000 / 8e6 = 0.04 -> 0.04/1.1; mispredicts 0.1 x 3/4 = 0.075 ->
	 * 0.075/1.1.
	 */
	static const double v[] = { 1e6, 8e5, 2.4e6, 0, 4.8e6, 5.6e6, 30000, 10000, 400000, 500000, 0, 40000 };
	struct ud_topdown t = COMPUTE("zen5", "", NAN, zen5_names, v);

	level1(&t, 0.6 / 1.1, 0.1 / 1.1, 0.1 / 1.1, 0.3 / 1.1, 0);
	ck_assert(fabs(t.raw_sum - 1.1) < CLOSE);
	bucket(&t, UD_TD_SMT_CONTENTION, 0);
	bucket(&t, UD_TD_FETCH_LATENCY, 0.04 / 1.1);
	bucket(&t, UD_TD_FETCH_BANDWIDTH, 0.06 / 1.1);
	bucket(&t, UD_TD_BRANCH_MISPREDICTS, 0.075 / 1.1);
	bucket(&t, UD_TD_MACHINE_CLEARS, 0.025 / 1.1);
}
END_TEST

START_TEST(test_zen5_residual)
{
	/*
	 * The same slots; retiring 4.0e6/8e6 = 0.5 and bad speculation
	 * (4.32e6 - 4.0e6)/8e6 = 0.04 with frontend 0.1, backend 0.3, SMT 0.02:
	 * 0.96, so 0.04 of the slots no bucket claims is the residual.
	 */
	static const double v[] = { 1e6, 8e5, 2.4e6, 1.6e5, 4e6, 4.32e6, 30000, 10000, 400000, 500000, 0, 40000 };
	struct ud_topdown t = COMPUTE("zen5", "", NAN, zen5_names, v);

	level1(&t, 0.5, 0.04, 0.1, 0.3, 0.04);
	bucket(&t, UD_TD_SMT_CONTENTION, 0.02);
}
END_TEST

static const char *const arm_names[] = { "CPU_CYCLES", "STALL_SLOT", "STALL_SLOT_FRONTEND", "STALL_SLOT_BACKEND",
					 "OP_RETIRED", "OP_SPEC", "BR_MIS_PRED" };

START_TEST(test_neoverse_v1)
{
	/*
	 * 1e6 cycles x 8 slots (caps/slots) = 8e6.  frontend 1.6e6/8e6 - 4 x
	 * 10,000 / 1e6 = 0.2 - 0.04 = 0.16; 1 - 4e6/8e6 = 0.5 of the slots
	 * issued; retired/speculative ops 3.6e6/4e6 = 0.9: bad speculation 0.1
	 * x 0.5 + 0.04 = 0.09, retiring 0.9 x 0.5 = 0.45; backend 2.4e6/8e6 =
	 * 0.3.  Sum 1: no residual.
	 */
	static const double v[] = { 1e6, 4e6, 1.6e6, 2.4e6, 3.6e6, 4e6, 10000 };
	struct ud_topdown t = COMPUTE("neoverse-v1", "", 8, arm_names, v);

	level1(&t, 0.45, 0.09, 0.16, 0.3, 0);
	ck_assert_int_eq(t.level, 1);
}
END_TEST

START_TEST(test_neoverse_n2_v2)
{
	/*
	 * N2, 5 slots: one slot a cycle leaves the stall counts first.
	 * frontend (1.5e6 - 1e6)/5e6 = 0.1; issued 1 - (3e6 - 1e6)/5e6 = 0.6;
	 * op ratio 3e6/4e6 = 0.75: bad speculation 0.25 x 0.6 = 0.15, retiring
	 * 0.45; backend 1.5e6/5e6 = 0.3.  Sum 1.
	 */
	static const double v[] = { 1e6, 3e6, 1.5e6, 1.5e6, 3e6, 4e6 };
	struct ud_topdown n2 = COMPUTE("neoverse-n2", "", 5, arm_names, v), v2;

	level1(&n2, 0.45, 0.15, 0.1, 0.3, 0);
	/*
	 * The same counts with 8 slots (V2's file takes the other branch):
	 * frontend 1.5e6/8e6 = 0.1875; issued 1 - 3e6/8e6 = 0.625; bad
	 * speculation 0.25 x 0.625 = 0.15625, retiring 0.46875, backend
	 * 0.1875: 1 again, as STALL_SLOT is the frontend's and backend's sum.
	 */
	v2 = COMPUTE("neoverse-v2", "", 8, arm_names, v);
	level1(&v2, 0.46875, 0.15625, 0.1875, 0.1875, 0);
}
END_TEST

START_TEST(test_caps_slots_unread)
{
	static const double v[] = { 1e6, 3e6, 1.5e6, 1.5e6, 3e6, 4e6 };
	struct ud_topdown t = COMPUTE("neoverse-n2", "", NAN, arm_names, v);

	ck_assert(isnan(t.value[UD_TD_FRONTEND_BOUND]));
	ck_assert_ptr_nonnull(strstr(t.reason[UD_TD_FRONTEND_BOUND], "caps/slots"));
	ck_assert(isnan(t.residual));
	ck_assert_str_eq(t.residual_reason, "retiring is null");
}
END_TEST

START_TEST(test_neoverse_n1_cycle_accounting)
{
	/* 250,000 and 400,000 stalled cycles of 1e6: 0.25 and 0.4; 0.35 of the cycles issued something */
	static const char *const names[] = { "CPU_CYCLES", "STALL_FRONTEND", "STALL_BACKEND" };
	static const double v[] = { 1e6, 250000, 400000 };
	struct ud_topdown t = COMPUTE("neoverse-n1", "", NAN, names, v);

	ck_assert_int_eq(t.method, UD_TD_CYCLE_ACCOUNTING);
	bucket(&t, UD_TD_FRONTEND_BOUND, 0.25);
	bucket(&t, UD_TD_BACKEND_BOUND, 0.4);
	ck_assert(fabs(t.residual - 0.35) < CLOSE);
	/* no retiring or bad speculation: null, and the output says it is not top-down */
	ck_assert(!t.defined[UD_TD_RETIRING] && isnan(t.value[UD_TD_RETIRING]));
	ck_assert_ptr_nonnull(strstr(t.reason[UD_TD_RETIRING], "not top-down"));
	ck_assert_ptr_nonnull(strstr(t.reason[UD_TD_BAD_SPECULATION], "not top-down"));
}
END_TEST

START_TEST(test_stall_not_counted_is_null)
{
	/* QEMU's emulated N1 opens the stall events and reads them as missing: null with the reason, never 0% */
	static const char *const names[] = { "CPU_CYCLES" };
	static const double v[] = { 1e6 };
	struct ud_topdown t = COMPUTE("neoverse-n1", "", NAN, names, v);

	ck_assert(isnan(t.value[UD_TD_FRONTEND_BOUND]));
	ck_assert_str_eq(t.reason[UD_TD_FRONTEND_BOUND], "STALL_FRONTEND was not counted");
	ck_assert_str_eq(t.reason[UD_TD_BACKEND_BOUND], "STALL_BACKEND was not counted");
}
END_TEST

/* ---- from a workload's counters, as run and stat --topdown leave them (topdown_counters.h) ---- */

static void add_counter(struct ud_workload *w, const char *name, enum ud_count_status s, double value,
			double running_share, const char *reason)
{
	struct ud_counter *c = ud_workload_add_counter(w, name);

	ck_assert_ptr_nonnull(c);
	c->status = s;
	c->value = s == UD_COUNTED ? value : NAN;
	c->raw_value = s == UD_NOT_SUPPORTED ? NAN : value * running_share;
	c->enabled_ns = s == UD_NOT_SUPPORTED ? NAN : 4e6;
	c->running_ns = s == UD_NOT_SUPPORTED ? NAN : 4e6 * running_share;
	c->reason = reason ? strdup(reason) : NULL;
}

static const struct ud_topdown *from_counters(struct ud_workload *w, const char *uarch)
{
	struct ud_err err = UD_ERR_INIT;

	ck_assert_msg(ud_topdown_from_counters(ud_uarch_find(&db, uarch), NAN, w, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(w->ntopdown, 1);
	return &w->topdown[0];
}

#define QEMU_ZERO "read 0 over 4.0 ms of running: the hypervisor accepts hardware events without counting them"

START_TEST(test_counted_n1_under_qemu)
{
	/*
	 * The emulated N1: CPU_CYCLES counts, STALL_FRONTEND reads 0 and the
	 * zero-reading rule (counting.h) made it not_counted; STALL_BACKEND
	 * counted 1e6 of 4e6 cycles: 0.25.  Names carry the :u that counting
	 * as an ordinary user adds.
	 */
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "int");
	const struct ud_topdown *t;

	add_counter(w, "cycles", UD_COUNTED, 4e6, 1, NULL);
	add_counter(w, "CPU_CYCLES:u", UD_COUNTED, 4e6, 1, NULL);
	add_counter(w, "STALL_FRONTEND:u", UD_NOT_COUNTED, 0, 1, QEMU_ZERO);
	add_counter(w, "STALL_BACKEND:u", UD_COUNTED, 1e6, 1, NULL);
	t = from_counters(w, "neoverse-n1");
	ck_assert_int_eq(t->method, UD_TD_CYCLE_ACCOUNTING);
	ck_assert_int_eq(t->source, UD_TD_COUNTED);
	ck_assert(isnan(t->value[UD_TD_FRONTEND_BOUND]));
	ck_assert_str_eq(t->reason[UD_TD_FRONTEND_BOUND], "STALL_FRONTEND not_counted: " QEMU_ZERO);
	bucket(t, UD_TD_BACKEND_BOUND, 0.25);
	ck_assert(isnan(t->residual));
	ck_assert_str_eq(t->estimate, "");
	ck_assert_ptr_nonnull(strstr(t->reason[UD_TD_RETIRING], "not top-down"));
	ud_profile_free(p);
}
END_TEST

START_TEST(test_counted_refused_and_unplanned)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "int"), *none;
	struct ud_err err = UD_ERR_INIT;
	const struct ud_topdown *t;

	add_counter(w, "CPU_CYCLES", UD_NOT_SUPPORTED, 0, 1, "no hardware PMU on this host");
	add_counter(w, "STALL_FRONTEND", UD_NOT_SUPPORTED, 0, 1, "no hardware PMU on this host");
	t = from_counters(w, "neoverse-n1");
	ck_assert_str_eq(t->reason[UD_TD_FRONTEND_BOUND], "STALL_FRONTEND not_supported: no hardware PMU on this host");
	/* STALL_BACKEND was never planned: its own words */
	ck_assert_str_eq(t->reason[UD_TD_BACKEND_BOUND], "STALL_BACKEND was not in the counting plan");
	/* a workload counted without the top-down events (stat without --topdown) gets no record */
	none = ud_profile_add_workload(p, "none");
	add_counter(none, "cycles", UD_COUNTED, 4e6, 1, NULL);
	ck_assert_int_eq(ud_topdown_from_counters(ud_uarch_find(&db, "neoverse-n1"), NAN, none, &err), 0);
	ck_assert_uint_eq(none->ntopdown, 0);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_counted_multiplexed_is_an_estimate)
{
	/* test_zen4's counts, the level-2 group (the last six events) on its counters half the time */
	static const double v[] = { 1e6, 6e5, 1.8e6, 3e5, 2.7e6, 3e6, 30000, 10000, 400000, 500000, 270000, 60000 };
	static const char *const zen4_names[] = {
		"ls_not_halted_cyc", "de_no_dispatch_per_slot.no_ops_from_frontend",
		"de_no_dispatch_per_slot.backend_stalls", "de_no_dispatch_per_slot.smt_contention",
		"ex_ret_ops", "de_src_op_disp.all", "ex_ret_brn_misp", "resyncs_or_nc_redirects",
		"ex_no_retire.load_not_complete", "ex_no_retire.not_complete", "ex_ret_ucode_ops",
		"de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6",
	};
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "int");
	const struct ud_topdown *t;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		add_counter(w, zen4_names[i], UD_COUNTED, v[i], i < 6 ? 1 : 0.5, NULL);
	t = from_counters(w, "zen4");
	level1(t, 0.45, 0.05, 0.1, 0.3, 0.05);
	bucket(t, UD_TD_MEMORY_BOUND, 0.24);
	ck_assert_str_eq(t->estimate, "multiplexed: its events counted 50.0% of the time they were enabled, so each "
				      "count is scaled from part of the run");
	ud_profile_free(p);
}
END_TEST

static void level1_group(const char *uarch, const char *const *want, size_t nwant)
{
	const struct ud_td_method *m = method_of(uarch, "");
	bool used[64];
	struct ud_err err = UD_ERR_INIT;
	size_t n = 0;

	ck_assert_uint_le(m->nevents, 64);
	ck_assert_msg(ud_td_level1_events(m, used, &err) == 0, "%s", err.msg);
	for (size_t i = 0; i < m->nevents; i++) {
		bool listed = false;

		for (size_t k = 0; k < nwant; k++)
			listed = listed || strcmp(want[k], m->events[i].name) == 0;
		ck_assert_msg(used[i] == listed, "%s: %s %s", uarch, m->events[i].name, used[i] ? "read" : "not read");
		n += used[i];
	}
	ck_assert_uint_eq(n, nwant);
}

START_TEST(test_level1_groups)
{
	/* perf's PipelineL1 group: six events, total_dispatch_slots read through its formula */
	static const char *const zen4[] = { "ls_not_halted_cyc", "de_no_dispatch_per_slot.no_ops_from_frontend",
					    "de_no_dispatch_per_slot.backend_stalls",
					    "de_no_dispatch_per_slot.smt_contention", "de_src_op_disp.all", "ex_ret_ops" };
	static const char *const n1[] = { "CPU_CYCLES", "STALL_FRONTEND", "STALL_BACKEND" };
	/* the slots counter and the four metrics, and the two corrections TMA adds */
	static const char *const icx[] = { "slots", "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
					   "topdown-be-bound", "INT_MISC.UOP_DROPPING",
					   "INT_MISC.RECOVERY_CYCLES,cmask=1,edge" };

	level1_group("zen4", zen4, 6);
	level1_group("neoverse-n1", n1, 3);
	level1_group("icelake-sp", icx, 7);
}
END_TEST

static const char *const intel_names[] = {
	"slots", "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
	"INT_MISC.UOP_DROPPING", "INT_MISC.RECOVERY_CYCLES,cmask=1,edge", "topdown-heavy-ops",
	"topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};

START_TEST(test_icelake_sp)
{
	/*
	 * 1e7 slots; the four metrics 4e6, 1e6, 2e6, 3e6 (sum 1e7).  frontend
	 * 2e6/1e7 - 1e5/1e7 = 0.19; backend 3e6/1e7 + 5 x 20,000 / 1e7 = 0.31;
	 * retiring 0.4; bad speculation the remainder, 1 - 0.9 = 0.1.
	 */
	static const double v[] = { 1e7, 4e6, 1e6, 2e6, 3e6, 1e5, 20000 };
	struct ud_topdown t = COMPUTE("icelake-sp", "", NAN, intel_names, v);

	level1(&t, 0.4, 0.1, 0.19, 0.31, 0);
	ck_assert_int_eq(t.level, 1);
}
END_TEST

START_TEST(test_sapphire_rapids_level2)
{
	/*
	 * As Ice Lake without the clears term: frontend 0.2 - 0.01 = 0.19,
	 * backend 0.3, retiring 0.4, bad speculation 0.11.  Level 2: heavy
	 * 1e6/1e7 = 0.1, light 0.3; mispredicts 8e5/1e7 = 0.08, clears 0.03;
	 * latency 1.2e6/1e7 - 0.01 = 0.11, bandwidth 0.08; memory 0.2, core 0.1.
	 */
	static const double v[] = { 1e7, 4e6, 1e6, 2e6, 3e6, 1e5, 0, 1e6, 8e5, 1.2e6, 2e6 };
	struct ud_topdown t = COMPUTE("sapphire-rapids", "", NAN, intel_names, v);

	level1(&t, 0.4, 0.11, 0.19, 0.3, 0);
	bucket(&t, UD_TD_HEAVY_OPERATIONS, 0.1);
	bucket(&t, UD_TD_LIGHT_OPERATIONS, 0.3);
	bucket(&t, UD_TD_BRANCH_MISPREDICTS, 0.08);
	bucket(&t, UD_TD_MACHINE_CLEARS, 0.03);
	bucket(&t, UD_TD_FETCH_LATENCY, 0.11);
	bucket(&t, UD_TD_FETCH_BANDWIDTH, 0.08);
	bucket(&t, UD_TD_MEMORY_BOUND, 0.2);
	bucket(&t, UD_TD_CORE_BOUND, 0.1);
}
END_TEST

START_TEST(test_skylake_sp)
{
	/*
	 * 1e6 cycles x 4 = 4e6 slots.  frontend 0.8e6/4e6 = 0.2; bad
	 * speculation (2.2e6 - 2e6 + 4 x 50,000)/4e6 = 0.1; retiring 2e6/4e6 =
	 * 0.5; backend 1 - 0.8 = 0.2.
	 */
	static const char *const names[] = { "CPU_CLK_UNHALTED.THREAD", "IDQ_UOPS_NOT_DELIVERED.CORE",
					      "UOPS_ISSUED.ANY", "UOPS_RETIRED.RETIRE_SLOTS",
					      "INT_MISC.RECOVERY_CYCLES" };
	static const double v[] = { 1e6, 8e5, 2.2e6, 2e6, 50000 };
	struct ud_topdown t = COMPUTE("skylake-sp", "", NAN, names, v);

	level1(&t, 0.5, 0.1, 0.2, 0.2, 0);
}
END_TEST

START_TEST(test_alderlake_core_types)
{
	/* E-cores: 1e6 cycles x 5 slots; retiring 0.4, frontend 0.2, backend 0.3, the rest (0.5e6/5e6) 0.1 */
	static const char *const names[] = { "CPU_CLK_UNHALTED.CORE", "TOPDOWN_RETIRING.ALL", "TOPDOWN_FE_BOUND.ALL",
					      "TOPDOWN_BE_BOUND.ALL" };
	static const double v[] = { 1e6, 2e6, 1e6, 1.5e6 };
	struct ud_topdown atom = COMPUTE("alderlake", "cpu_atom", NAN, names, v);

	level1(&atom, 0.4, 0.1, 0.2, 0.3, 0);
	ck_assert_str_eq(atom.pmu, "cpu_atom");
	ck_assert_int_eq(method_of("alderlake", "cpu_core")->level, 2);
	ck_assert_ptr_nonnull(ud_td_event_find(method_of("alderlake", "cpu_core"), "topdown-mem-bound"));
}
END_TEST

START_TEST(test_every_table_says_its_method)
{
	static const struct {
		const char *uarch;
		enum ud_topdown_method method;
		int level;
	} want[] = {
		{ "generic", UD_TD_METHOD_NONE, 1 },          { "zen1", UD_TD_CYCLE_ACCOUNTING, 1 },
		{ "zen2", UD_TD_CYCLE_ACCOUNTING, 1 },        { "zen3", UD_TD_CYCLE_ACCOUNTING, 1 },
		{ "zen4", UD_TD_SLOTS, 2 },                   { "zen5", UD_TD_SLOTS, 2 },
		{ "neoverse-n1", UD_TD_CYCLE_ACCOUNTING, 1 }, { "neoverse-v1", UD_TD_SLOTS, 1 },
		{ "neoverse-n2", UD_TD_SLOTS, 1 },            { "neoverse-v2", UD_TD_SLOTS, 1 },
		{ "skylake-sp", UD_TD_SLOTS, 1 },             { "icelake-sp", UD_TD_SLOTS, 1 },
		{ "sapphire-rapids", UD_TD_SLOTS, 2 },        { "granite-rapids", UD_TD_SLOTS, 2 },
		{ "alderlake", UD_TD_SLOTS, 2 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ud_uarch *u = ud_uarch_find(&db, want[i].uarch);

		ck_assert_msg(u && u->ntopdown >= 1, "%s has no topdown line", want[i].uarch);
		ck_assert_int_eq(u->topdown[0].method, want[i].method);
		ck_assert_int_eq(u->topdown[0].level, want[i].level);
		ck_assert_msg(u->topdown[0].method == UD_TD_SLOTS || u->topdown[0].reason[0], "%s: why not slots?",
			      want[i].uarch);
		for (size_t m = 0; m < u->topdown[0].nmetrics; m++)
			ck_assert_msg(u->topdown[0].metrics[m].source[0], "%s: a formula without a source",
				      want[i].uarch);
		for (size_t e = 0; e < u->topdown[0].nevents; e++)
			ck_assert_msg(u->topdown[0].events[e].source[0], "%s: an event without a source",
				      want[i].uarch);
	}
}
END_TEST

START_TEST(test_event_configs)
{
	const struct ud_uarch *z4 = ud_uarch_find(&db, "zen4"), *icx = ud_uarch_find(&db, "icelake-sp");

	/* PMCx1A0 umask 1 with counter mask 6: the low event byte, the umask, cmask at 24, the extended bits at 32 */
	ck_assert_uint_eq(ud_td_event_config(z4, ud_td_event_find(&z4->topdown[0],
				"de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6")), 0x1060001a0ULL);
	/* INT_MISC.CLEARS_COUNT: edge at bit 18 */
	ck_assert_uint_eq(ud_td_event_config(icx, ud_td_event_find(&icx->topdown[0],
				"INT_MISC.RECOVERY_CYCLES,cmask=1,edge")), 0x104010dULL);
	/* the kernel's pseudo-encodings for the metrics register */
	ck_assert_uint_eq(ud_td_event_config(icx, ud_td_event_find(&icx->topdown[0], "topdown-retiring")), 0x8000);
	ck_assert_uint_eq(ud_td_event_config(icx, ud_td_event_find(&icx->topdown[0], "slots")), 0x400);
	/* Arm: the event number */
	ck_assert_uint_eq(ud_td_event_config(ud_uarch_find(&db, "neoverse-v1"),
					     ud_td_event_find(method_of("neoverse-v1", ""), "stall_slot")), 0x3f);
}
END_TEST

/* -M's names: perf's groups where the core counts slots, at its depth; a method's buckets; nothing else. */
static void metric_is(const char *uarch, const char *name, const char *refusal)
{
	struct ud_err err = UD_ERR_INIT;
	int rc = ud_td_metric_check(ud_uarch_find(&db, uarch), name, &err);

	if (!refusal) {
		ck_assert_msg(rc == 0, "%s: -M %s refused: %s", uarch, name, err.msg);
		return;
	}
	ck_assert_msg(rc == -1, "%s: -M %s taken", uarch, name);
	ck_assert_msg(strstr(err.msg, refusal), "%s: -M %s: '%s' lacks '%s'", uarch, name, err.msg, refusal);
}

START_TEST(test_metric_names)
{
	metric_is("zen4", "PipelineL1", NULL);
	metric_is("zen4", "pipelinel2", NULL);
	metric_is("zen4", "TopdownL1", NULL);
	metric_is("zen4", "backend_bound", NULL);
	metric_is("zen4", "tma_frontend_bound", NULL);
	metric_is("zen4", "backend_bond", "did you mean 'backend_bound'?");
	metric_is("zen4", "TopdownL3", "unknown metric 'TopdownL3' on zen4");
	metric_is("icelake-sp", "TopdownL1", NULL);
	metric_is("icelake-sp", "tma_retiring", NULL);
	metric_is("icelake-sp", "TopdownL2", "icelake-sp's top-down goes to level 1");
	metric_is("neoverse-n1", "frontend_bound", NULL);
	metric_is("neoverse-n1", "TopdownL1", "no slot top-down, only cycle accounting");
	metric_is("neoverse-n1", "retiring", "unknown metric 'retiring' on neoverse-n1");
	metric_is("generic", "TopdownL1", "the generic table has no top-down method");
}
END_TEST

/* ---- bad tables ---- */

static void bad_table(const char *topdown, const char *what)
{
	char text[4096];
	FILE *f;
	struct ud_uarch u;
	struct ud_err err = UD_ERR_INIT;

	snprintf(text, sizeof(text), "uarch x\ndetect none\ncounters programmable=4\n%s", topdown);
	f = fmemopen(text, strlen(text), "r");
	ck_assert_int_eq(ud_uarch_parse(f, "t", &u, &err), -1);
	fclose(f);
	ck_assert_msg(strstr(err.msg, what), "'%s' lacks '%s'", err.msg, what);
}

START_TEST(test_bad_tables)
{
	static const char slots[] = "topdown method=slots slots=4 source=s\n";
	static const char four[] = "topdown-event name=e code=1 source=s\n"
				   "topdown-metric name=retiring level=1 expr=e source=s\n"
				   "topdown-metric name=bad_speculation level=1 expr=e source=s\n"
				   "topdown-metric name=frontend_bound level=1 expr=e source=s\n";
	char t[2048];

	bad_table("topdown-event name=e code=1 source=s\n", "a topdown line must come first");
	bad_table("topdown method=quick source=s\n", "method must be slots, cycle-accounting or none");
	bad_table("topdown level=1 source=s\n", "topdown needs method=");
	bad_table("topdown method=slots source=s\n", "needs slots=N, slots=caps or slots=counted");
	bad_table("topdown method=none\n", "method none needs a reason");
	bad_table("topdown method=cycle-accounting source=s\n"
		  "topdown-event name=c code=1 source=s\ntopdown-metric name=frontend_bound level=1 expr=c source=s\n",
		  "cycle accounting needs a reason");
	snprintf(t, sizeof(t), "%s%s", slots, four);
	bad_table(t, "a slots method needs a formula for backend_bound");
	snprintf(t, sizeof(t), "%s%stopdown-metric name=backend_bound level=1 expr=\"e +\" source=s\n", slots, four);
	bad_table(t, "formula \"e +\": formula ends early");
	snprintf(t, sizeof(t), "%s%stopdown-metric name=backend_bound level=1 expr=nobody source=s\n", slots, four);
	bad_table(t, "nobody: neither a topdown-event nor a topdown-metric");
	snprintf(t, sizeof(t), "%s%stopdown-metric name=backend_bound level=1 expr=loop source=s\n"
		 "topdown-metric name=loop expr=backend_bound source=s\n", slots, four);
	bad_table(t, "its formula reads itself");
	snprintf(t, sizeof(t), "%s%stopdown-metric name=backend_bound level=2 expr=e source=s\n", slots, four);
	bad_table(t, "backend_bound: not a level-2 bucket");
	snprintf(t, sizeof(t), "%s%stopdown-metric name=backend_bound level=1 expr=e source=s\n"
		 "topdown-metric name=fast level=2 expr=e source=s\n", slots, four);
	bad_table(t, "fast: not a level-2 bucket");
	snprintf(t, sizeof(t), "%s%stopdown-metric name=backend_bound level=1 expr=e source=s\n"
		 "topdown-event name=E code=2 source=s\n", slots, four);
	bad_table(t, "named twice");
	bad_table("topdown method=none reason=r\ntopdown method=none reason=r\n", "names each one's pmu=");
	bad_table("topdown method=slots slots=4 source=s\ntopdown-event name=e source=s\n",
		  "topdown-event needs name, code and source");
	bad_table("topdown method=slots slots=4 source=s\ntopdown-metric name=m expr=e\n",
		  "topdown-metric needs name, expr and source");
}
END_TEST

/* ---- the record ---- */

START_TEST(test_finish_clamps_and_normalises)
{
	struct ud_topdown t;

	ud_topdown_init(&t, UD_TD_SLOTS, UD_TD_COUNTED, NULL);
	ud_topdown_set(&t, UD_TD_RETIRING, 0.6, NULL);
	ud_topdown_set(&t, UD_TD_BAD_SPECULATION, 0.2, NULL);
	ud_topdown_set(&t, UD_TD_FRONTEND_BOUND, -0.05, NULL); /* V1's subtraction gone below 0 */
	ud_topdown_set(&t, UD_TD_BACKEND_BOUND, 0.4, NULL);
	ud_topdown_set(&t, UD_TD_MEMORY_BOUND, 0.3, NULL);
	ud_topdown_finish(&t, NULL);
	/* 0.6 + 0.2 + 0 + 0.4 = 1.2: each over 1.2, level 2 too */
	ck_assert_double_eq(t.value[UD_TD_FRONTEND_BOUND], 0);
	ck_assert(fabs(t.raw_sum - 1.2) < CLOSE);
	ck_assert(fabs(t.value[UD_TD_RETIRING] - 0.5) < CLOSE);
	ck_assert(fabs(t.value[UD_TD_MEMORY_BOUND] - 0.25) < CLOSE);
	ck_assert_double_eq(t.residual, 0);
	ck_assert_int_eq(t.level, 2);
}
END_TEST

START_TEST(test_profile_round_trip)
{
	static const double v[] = { 1e6, 6e5, 1.8e6, 3e5, 2.7e6, 3e6, 30000, 10000, 400000, 500000, 270000, 60000 };
	struct ud_profile *p = ud_profile_new(NULL), *back;
	struct ud_workload *w = ud_profile_add_workload(p, "w");
	struct ud_topdown *t = ud_workload_add_topdown(w, UD_TD_SLOTS, UD_TD_COUNTED, NULL), *n1;
	struct ud_err err = UD_ERR_INIT;
	static const char *const n1_names[] = { "CPU_CYCLES" };
	static const double n1_v[] = { 1e6 };
	json_t *j, *td;

	*t = COMPUTE("zen4", "", NAN, zen_names, v);
	w = ud_profile_add_workload(p, "n1");
	n1 = ud_workload_add_topdown(w, UD_TD_SLOTS, UD_TD_COUNTED, NULL);
	*n1 = COMPUTE("neoverse-n1", "", NAN, n1_names, n1_v);
	j = profile_tree(p);
	td = json_object_get(json_array_get(json_object_get(j, "workloads"), 0), "topdown");
	ck_assert_str_eq(json_string_value(json_object_get(td, "method")), "slots");
	ck_assert_str_eq(json_string_value(json_object_get(td, "source")), "counted");
	ck_assert_int_eq(json_integer_value(json_object_get(td, "level")), 2);
	ck_assert(fabs(json_real_value(json_object_get(td, "retiring")) - 0.45) < CLOSE);
	ck_assert(fabs(json_real_value(json_object_get(json_object_get(td, "level2"), "memory_bound")) - 0.24) < CLOSE);
	ck_assert(json_is_real(json_object_get(td, "smt_contention")));
	/* the cycle-accounting record: nulls with their reasons */
	td = json_object_get(json_array_get(json_object_get(j, "workloads"), 1), "topdown");
	ck_assert_str_eq(json_string_value(json_object_get(td, "method")), "cycle-accounting");
	ck_assert(json_is_null(json_object_get(td, "frontend_bound")));
	ck_assert(json_is_null(json_object_get(td, "residual")));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(td, "reasons"), "frontend_bound")),
			 "STALL_FRONTEND was not counted");
	ck_assert_ptr_null(json_object_get(td, "smt_contention"));

	back = profile_from_tree(j, "back", &err);
	ck_assert_msg(back != NULL, "%s", err.msg);
	ck_assert_uint_eq(back->workloads[0].ntopdown, 1);
	t = &back->workloads[0].topdown[0];
	ck_assert_int_eq(t->level, 2);
	ck_assert(fabs(t->value[UD_TD_MICROCODE] - 0.045) < CLOSE);
	ck_assert(fabs(t->residual - 0.05) < CLOSE);
	t = &back->workloads[1].topdown[0];
	ck_assert_int_eq(t->method, UD_TD_CYCLE_ACCOUNTING);
	ck_assert_str_eq(t->reason[UD_TD_BACKEND_BOUND], "STALL_BACKEND was not counted");
	ud_profile_free(back);
	json_decref(j);
	ud_profile_free(p);
}
END_TEST

static void bad_record(const char *topdown, const char *what)
{
	char text[2048];
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *p;

	snprintf(text, sizeof(text),
		 "{\"schema\": \"uarchdiff.profile/1\", \"host\": {}, \"workloads\": [{\"name\": \"w\", %s}]}", topdown);
	p = ud_profile_parse(text, strlen(text), "bad.json", &err);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(err.msg, what), "'%s' lacks '%s'", err.msg, what);
	ck_assert_msg(strncmp(err.msg, "bad.json: workloads[0].topdown", 30) == 0, "%s", err.msg);
}

START_TEST(test_profile_refuses_bad_records)
{
	static const char ok_rest[] = "\"retiring\": 0.4, \"bad_speculation\": 0.1, \"frontend_bound\": 0.2, "
				      "\"backend_bound\": 0.3, \"residual\": 0, \"raw_sum\": 1";
	char t[1024];

	snprintf(t, sizeof(t), "\"topdown\": {\"method\": \"fast\", \"level\": 1, \"source\": \"counted\", %s}", ok_rest);
	bad_record(t, "method: expected \"slots\" or \"cycle-accounting\"");
	snprintf(t, sizeof(t), "\"topdown\": {\"method\": \"slots\", \"level\": 3, \"source\": \"counted\", %s}", ok_rest);
	bad_record(t, "level: expected 1 or 2");
	snprintf(t, sizeof(t), "\"topdown\": {\"method\": \"slots\", \"level\": 1, \"source\": \"guess\", %s}", ok_rest);
	bad_record(t, "source: expected");
	bad_record("\"topdown\": {\"method\": \"slots\", \"level\": 1, \"source\": \"counted\", \"retiring\": 1.4, "
		   "\"bad_speculation\": 0, \"frontend_bound\": 0, \"backend_bound\": 0, \"residual\": 0, \"raw_sum\": 1}",
		   "retiring: expected a fraction from 0 to 1");
	bad_record("\"topdown\": {\"method\": \"slots\", \"level\": 1, \"source\": \"counted\", \"retiring\": 0.4}",
		   "bad_speculation: expected a fraction");
	snprintf(t, sizeof(t), "\"topdown\": {\"method\": \"slots\", \"level\": 2, \"source\": \"counted\", %s, "
		 "\"level2\": {\"retiring\": 0.1}}", ok_rest);
	bad_record(t, "level2.retiring: not a level-2 bucket");
	snprintf(t, sizeof(t), "\"topdown\": {\"method\": \"slots\", \"level\": 1, \"source\": \"counted\", %s, "
		 "\"reasons\": {\"speed\": \"x\"}}", ok_rest);
	bad_record(t, "reasons.speed: expected a string");
	snprintf(t, sizeof(t), "\"topdown_per_pmu\": {\"\": {\"method\": \"slots\", \"level\": 1, \"source\": "
		 "\"counted\", %s}}", ok_rest);
	bad_record(t, "a core PMU's name must be");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topdown");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, load, unload);
	tcase_add_test(tc, test_expr_arithmetic);
	tcase_add_test(tc, test_expr_conditional);
	tcase_add_test(tc, test_expr_refusals);
	tcase_add_test(tc, test_zen4);
	tcase_add_test(tc, test_zen5_normalised);
	tcase_add_test(tc, test_zen5_residual);
	tcase_add_test(tc, test_neoverse_v1);
	tcase_add_test(tc, test_neoverse_n2_v2);
	tcase_add_test(tc, test_caps_slots_unread);
	tcase_add_test(tc, test_neoverse_n1_cycle_accounting);
	tcase_add_test(tc, test_stall_not_counted_is_null);
	tcase_add_test(tc, test_counted_n1_under_qemu);
	tcase_add_test(tc, test_counted_refused_and_unplanned);
	tcase_add_test(tc, test_counted_multiplexed_is_an_estimate);
	tcase_add_test(tc, test_level1_groups);
	tcase_add_test(tc, test_icelake_sp);
	tcase_add_test(tc, test_sapphire_rapids_level2);
	tcase_add_test(tc, test_skylake_sp);
	tcase_add_test(tc, test_alderlake_core_types);
	tcase_add_test(tc, test_every_table_says_its_method);
	tcase_add_test(tc, test_event_configs);
	tcase_add_test(tc, test_metric_names);
	tcase_add_test(tc, test_bad_tables);
	tcase_add_test(tc, test_finish_clamps_and_normalises);
	tcase_add_test(tc, test_profile_round_trip);
	tcase_add_test(tc, test_profile_refuses_bad_records);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
