/*
 * The one counting pipeline: planning, the --exact split, and folding the
 * counts of several runs into a workload's counters, both ways.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "measure.h"
#include "measurement.h"
#include "stats.h"
#include "stop.h"
#include "topdown_method.h"
#include "testutil.h"

static struct ud_count count(enum ud_count_status s, double value, const char *reason)
{
	struct ud_count c = { .status = s, .raw = (uint64_t)value, .enabled_ns = 1000, .running_ns = 500,
			      .value = s == UD_COUNTED ? value : 0 };

	snprintf(c.reason, sizeof(c.reason), "%s", reason);
	return c;
}

/* Three events: always counted; counted, then not counted, then refused; always refused. */
static void three_events(struct ud_event ev[3])
{
	ud_event_resolve("task-clock", &ev[0]);
	ud_event_resolve("page-faults", &ev[1]);
	ud_event_resolve("no-such-event-xyz", &ev[2]);
	ev[1].group = 1;
}

static void fold_three_runs(struct ud_workload *w, enum ud_fold_mode mode)
{
	struct ud_event ev[3];
	struct ud_fold f;
	struct ud_count runs[3][3] = {
		{ count(UD_COUNTED, 10, ""), count(UD_COUNTED, 5, ""), count(UD_NOT_SUPPORTED, 0, "unknown") },
		{ count(UD_COUNTED, 20, ""), count(UD_NOT_COUNTED, 0, "never scheduled"),
		  count(UD_NOT_SUPPORTED, 0, "unknown") },
		{ count(UD_COUNTED, 30, ""), count(UD_NOT_SUPPORTED, 0, "refused"), count(UD_NOT_SUPPORTED, 0, "unknown") },
	};

	three_events(ev);
	ck_assert_int_eq(ud_fold_begin(&f, w, ev, 3, 3, mode), 0);
	for (int r = 0; r < 3; r++)
		ud_fold_add(&f, runs[r]);
	ud_fold_finish(&f);
}

START_TEST(test_fold_means_with_mixed_statuses)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "w");
	const double x[] = { 10, 20, 30 };

	fold_three_runs(w, UD_FOLD_MEAN);
	ck_assert_uint_eq(w->ncounters, 3);
	ck_assert_int_eq(w->counters[0].status, UD_COUNTED);
	ck_assert_double_eq_tol(w->counters[0].value, 20, 1e-9);
	ck_assert_double_eq_tol(w->counters[0].raw_value, 20, 1e-9);
	ck_assert_double_eq_tol(w->counters[0].enabled_ns, 1000, 1e-9);
	ck_assert_double_eq_tol(w->counters[0].rel_stddev, ud_rel_stderr(x, 3), 1e-12);
	ck_assert_str_eq(w->counters[0].opened_as, "generic");
	/* The first run that missed it speaks for the counter. */
	ck_assert_int_eq(w->counters[1].status, UD_NOT_COUNTED);
	ck_assert_str_eq(w->counters[1].reason, "never scheduled");
	ck_assert(isnan(w->counters[1].value));
	ck_assert_int_eq(w->counters[1].group, 1);
	ck_assert_int_eq(w->counters[2].status, UD_NOT_SUPPORTED);
	ck_assert(isnan(w->counters[2].value) && isnan(w->counters[2].raw_value));
	ck_assert_ptr_null(w->counters[2].opened_as);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_fold_sums_keep_totals)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "w");

	fold_three_runs(w, UD_FOLD_SUM);
	ck_assert_double_eq_tol(w->counters[0].value, 60, 1e-9);
	ck_assert_double_eq_tol(w->counters[0].raw_value, 60, 1e-9);
	ck_assert_double_eq_tol(w->counters[0].running_ns, 1500, 1e-9);
	ck_assert_int_eq(w->counters[1].status, UD_NOT_COUNTED);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_fold_without_runs_counts_nothing)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "w");
	struct ud_event ev[3];
	struct ud_fold f;

	three_events(ev);
	ck_assert_int_eq(ud_fold_begin(&f, w, ev, 3, 0, UD_FOLD_SUM), 0);
	ud_fold_finish(&f);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_ne(w->counters[i].status, UD_COUNTED);
		ck_assert(isnan(w->counters[i].value) && isnan(w->counters[i].raw_value));
		ck_assert_ptr_nonnull(w->counters[i].reason);
	}
	ud_profile_free(p);
}
END_TEST

/* A fake run: records which events each run saw, and counts each as its plan index. */
struct fake {
	int calls, firsts;
	size_t seen[4];
	int fail_on;
};

static int fake_run(void *ctx, const struct ud_event *ev, size_t n, struct ud_count *counts, bool first)
{
	struct fake *f = ctx;

	f->seen[f->calls++] = n;
	f->firsts += first;
	for (size_t i = 0; i < n; i++)
		counts[i] = count(UD_COUNTED, atof(ev[i].name + 1), "");
	return f->calls == f->fail_on ? 42 : 0;
}

static void grouped(struct ud_event ev[5])
{
	const int groups[5] = { 0, 1, -1, 1, 2 };

	for (int i = 0; i < 5; i++) {
		memset(&ev[i], 0, sizeof(ev[i]));
		snprintf(ev[i].name, sizeof(ev[i].name), "e%d", i);
		ev[i].group = groups[i];
	}
}

START_TEST(test_exact_runs_once_a_group)
{
	struct ud_event ev[5];
	struct ud_count counts[5];
	struct fake f = { 0 };

	grouped(ev);
	ck_assert_int_eq(ud_measure_unit(ev, 5, true, fake_run, &f, counts), 0);
	ck_assert_int_eq(f.calls, 3);
	ck_assert_int_eq(f.firsts, 1);
	ck_assert_uint_eq(f.seen[0], 2); /* group 0 and the ungrouped event */
	ck_assert_uint_eq(f.seen[1], 2);
	ck_assert_uint_eq(f.seen[2], 1);
	for (int i = 0; i < 5; i++)
		ck_assert_double_eq(counts[i].value, i); /* back in plan order */
	f = (struct fake){ 0 };
	ck_assert_int_eq(ud_measure_unit(ev, 5, false, fake_run, &f, counts), 0);
	ck_assert_int_eq(f.calls, 1);
	f = (struct fake){ .fail_on = 2 };
	ck_assert_int_eq(ud_measure_unit(ev, 5, true, fake_run, &f, counts), 42);
	ck_assert_int_eq(f.calls, 2);
}
END_TEST

/* Software events in three groups, counted for real: three launches a run. */
START_TEST(test_exact_command_with_software_groups)
{
	static const char *const names[] = { "task-clock", "page-faults", "context-switches" };
	char *dir = make_tempdir(), log[4200], script[4400], *text;
	char *argv[] = { "/bin/sh", "-c", script, NULL };
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "sh");
	struct ud_err err = UD_ERR_INIT;
	struct ud_event ev[3];
	struct ud_measure_stat m = { .session = { .argv = argv }, .exact = true, .runs = 2 };
	struct ud_launch_result last;

	snprintf(log, sizeof(log), "%s/runs", dir);
	snprintf(script, sizeof(script), "echo run >> %s", log);
	for (int i = 0; i < 3; i++) {
		ud_event_resolve(names[i], &ev[i]);
		ev[i].group = i;
	}
	ck_assert_int_eq(ud_measure_stat(&m, ev, 3, w, NULL, &last, &err), 0);
	ck_assert_int_eq(last.wait_status, 0);
	text = read_text(log);
	ck_assert_int_eq(count_lines(text), 6);
	ck_assert_int_eq(w->runs, 2);
	ck_assert_uint_eq(w->score.nsamples, 2);
	for (int i = 0; i < 2; i++) /* context switches may be 0 for so short a command */
		ck_assert_msg(w->counters[i].status == UD_COUNTED && w->counters[i].value > 0, "%s",
			      w->counters[i].name);
	ck_assert_int_eq(w->counters[2].group, 2);
	free(text);
	ud_profile_free(p);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_plan)
{
	struct ud_uarch_db db = { 0 };
	struct ud_err err = UD_ERR_INIT;
	const struct ud_uarch *u;
	struct ud_event *ev;
	size_t n = 0;

	ck_assert_int_eq(ud_uarch_db_load(NULL, &db, &err), 0);
	u = ud_uarch_find(&db, "generic");
	ck_assert_ptr_nonnull(u);
	ev = ud_measure_plan(u, NULL, &n, &err);
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_ge(n, ud_default_events_count);
	free(ev);
	ev = ud_measure_plan(u, "task-clock,bogus-xyz", &n, &err);
	ck_assert_uint_eq(n, 2);
	ck_assert(!ev[0].unknown && ev[1].unknown && !ev[1].resolved);
	free(ev);
	ck_assert_ptr_null(ud_measure_plan(u, "", &n, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "empty"));
	ud_uarch_db_free(&db);
	ud_events_cleanup();
}
END_TEST

/* The requested group of the plan's event named name, and its index through *at. */
static int group_of(const struct ud_event *ev, size_t n, const char *name, size_t *at)
{
	for (size_t i = 0; i < n; i++) {
		if (strncmp(ev[i].name, name, strlen(name)) == 0 &&
		    (ev[i].name[strlen(name)] == '\0' || ev[i].name[strlen(name)] == ':')) {
			*at = i;
			return ev[i].group;
		}
	}
	ck_abort_msg("%s is not in the plan", name);
	return -1;
}

/*
 * stat -g (issue 34): the list's events, whatever groups it wrote, and
 * -d's are one group, software ones too, with no copies of cycles; the
 * top-down groups stay their own.  Without it task-clock opens alone.
 */
START_TEST(test_plan_one_group)
{
	struct ud_uarch_db db = { 0 };
	struct ud_err err = UD_ERR_INIT;
	const struct ud_uarch *zen4;
	struct ud_event *ev;
	size_t n = 0, at, listed;
	int g;

	ck_assert_int_eq(ud_uarch_db_load(NULL, &db, &err), 0);
	zen4 = ud_uarch_find(&db, "zen4");
	ev = ud_measure_plan_topdown(zen4, "{cycles,instructions},task-clock,{branches,branch-misses}", 1, 0, true,
				     true, &n, &err);
	ck_assert_msg(ev != NULL, "%s", err.msg);
	listed = 5 + 4; /* the list's, then -d's four L1d and LLC events */
	g = group_of(ev, n, "cycles", &at);
	for (size_t i = 0; i < listed; i++)
		ck_assert_msg(ev[i].group == g && !ev[i].copy, "%s: group %d, not %d", ev[i].name, ev[i].group, g);
	ck_assert_int_ne(group_of(ev, n, "ls_not_halted_cyc", &at), g);
	ck_assert_uint_eq(n, listed + zen4->topdown[0].nevents);
	free(ev);
	ev = ud_measure_plan_topdown(zen4, "{cycles,instructions},task-clock", 0, 0, false, false, &n, &err);
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(group_of(ev, n, "task-clock", &at), -1);
	free(ev);
	ud_uarch_db_free(&db);
	ud_events_cleanup();
}
END_TEST

START_TEST(test_plan_topdown)
{
	struct ud_uarch_db db = { 0 };
	struct ud_err err = UD_ERR_INIT;
	const struct ud_uarch *zen4, *icx, *adl;
	struct ud_event *ev;
	size_t n = 0, at, first;
	int g1, g2, reserved;

	ck_assert_int_eq(ud_uarch_db_load(NULL, &db, &err), 0);
	zen4 = ud_uarch_find(&db, "zen4");
	ev = ud_measure_plan_topdown(zen4, "cycles,instructions", 0, 0, true, false, &n, &err);
	ck_assert_msg(ev != NULL, "%s", err.msg);
	/* the two asked for, then the table's twelve, none twice */
	ck_assert_uint_eq(n, 2 + zen4->topdown[0].nevents);
	/* level 1's six events in one group of their own; level 2's six in another */
	g1 = group_of(ev, n, "ls_not_halted_cyc", &first);
	ck_assert_int_ge(g1, 1);
	for (size_t i = 0, members = 0; i < n; i++)
		ck_assert_uint_le(members += ev[i].group == g1, 6);
	ck_assert_int_eq(group_of(ev, n, "ex_ret_ops", &at), g1);
	ck_assert_int_eq(group_of(ev, n, "de_src_op_disp.all", &at), g1);
	ck_assert_int_eq(group_of(ev, n, "de_no_dispatch_per_slot.smt_contention", &at), g1);
	g2 = group_of(ev, n, "ex_ret_brn_misp", &at);
	ck_assert_int_ne(g2, g1);
	ck_assert_int_eq(group_of(ev, n, "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6", &at), g2);
	/* opened by the table's raw code: event 0x1a0 umask 0x01 cmask 6, AMD's extended event bits */
	ck_assert_str_eq(ev[at].opened_as, "raw");
	ck_assert_uint_eq(ev[at].attr.config, 0x1060001a0ULL);
	ck_assert_int_eq(group_of(ev, n, "cycles", &at), 0);
	free(ev);

	/*
	 * Five counters free (the NMI watchdog holding one of six, or a sampler):
	 * the six level-1 events could never be scheduled together, so they are
	 * planned freely and count multiplexed; level 2's six too.
	 */
	reserved = ud_uarch_usable_counters(zen4, ud_measure_nmi_watchdog()) - 5;
	ck_assert_int_ge(reserved, 0);
	ev = ud_measure_plan_topdown(zen4, "cycles,instructions", 0, reserved, true, false, &n, &err);
	ck_assert_ptr_nonnull(ev);
	group_of(ev, n, "ls_not_halted_cyc", &at);
	ck_assert_int_eq(ev[at].request_group, -1);
	ck_assert_int_ge(ev[at].group, 0);
	group_of(ev, n, "ex_ret_brn_misp", &at);
	ck_assert_int_eq(ev[at].request_group, -1);
	free(ev);

	/*
	 * Ice Lake: the slots counter leads its group, as the kernel requires of
	 * the topdown-* metrics; they and slots are fixed-counter events, so the
	 * group needs two general counters of the three left beside a sampler
	 */
	icx = ud_uarch_find(&db, "icelake-sp");
	reserved = ud_uarch_usable_counters(icx, ud_measure_nmi_watchdog()) - 3;
	ck_assert_int_ge(reserved, 0);
	ev = ud_measure_plan_topdown(icx, "cycles", 0, reserved, true, false, &n, &err);
	ck_assert_ptr_nonnull(ev);
	g1 = group_of(ev, n, "slots", &first);
	for (size_t i = 0; i < first; i++)
		ck_assert_int_ne(ev[i].group, g1);
	ck_assert_int_eq(group_of(ev, n, "topdown-be-bound", &at), g1);
	ck_assert_int_ge(ev[at].request_group, 0);
	ck_assert_uint_eq(ev[at].attr.config, 0x8300);
	free(ev);

	/* a hybrid part's core types each on their own PMU, by name: refused where that PMU is absent */
	adl = ud_uarch_find(&db, "alderlake");
	ev = ud_measure_plan_topdown(adl, "task-clock", 0, 0, true, false, &n, &err);
	ck_assert_ptr_nonnull(ev);
	g1 = group_of(ev, n, "topdown-retiring", &at);
	g2 = group_of(ev, n, "TOPDOWN_RETIRING.ALL", &at);
	ck_assert_int_ne(g1, g2);
	free(ev);
	ud_uarch_db_free(&db);
	ud_events_cleanup();
}
END_TEST

/*
 * `stat --topdown` on this host: the detected table's events counted in
 * their groups and the buckets from them.  Where no hardware PMU counts
 * (virtual machines), every level-1 bucket is null with the counter's
 * reason, never 0%; where one counts, each is a fraction or null with why.
 */
START_TEST(test_stat_topdown_here)
{
	char *argv[] = { "/bin/true", NULL };
	struct ud_measure_stat m = { .session = { .argv = argv }, .runs = 1 };
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "true");
	struct ud_uarch_db db = { 0 };
	struct ud_err err = UD_ERR_INIT;
	struct ud_launch_result last;
	const struct ud_topdown *t;
	struct ud_event *ev;
	size_t n = 0;
	bool counted = false;

	ck_assert_int_eq(ud_uarch_db_load(NULL, &db, &err), 0);
	m.topdown = ud_uarch_detect_file(&db, NULL, &err);
	ck_assert_ptr_nonnull(m.topdown);
	ev = ud_measure_plan_topdown(m.topdown, "task-clock", 0, 0, true, false, &n, &err);
	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(ud_measure_stat(&m, ev, n, w, NULL, &last, &err), UD_LAUNCH_OK);
	if (!m.topdown->ntopdown || m.topdown->topdown[0].method == UD_TD_METHOD_NONE) {
		printf("SKIPPED: stat --topdown here: %s has no top-down method\n", m.topdown->name);
		ck_assert_uint_eq(w->ntopdown, 0);
	} else {
		ck_assert_uint_eq(w->ntopdown, m.topdown->ntopdown);
		for (size_t i = 1; i < w->ncounters; i++)
			counted = counted || w->counters[i].status == UD_COUNTED;
		t = &w->topdown[0];
		for (int b = 0; b <= UD_TD_BACKEND_BOUND; b++) {
			if (!t->defined[b])
				continue;
			if (!counted)
				ck_assert_msg(isnan(t->value[b]) && strstr(t->reason[b], "not_supported"), "%s: %g (%s)",
					      ud_topdown_bucket_name(b), t->value[b], t->reason[b]);
			else
				ck_assert(isnan(t->value[b]) ? t->reason[b][0] != '\0'
							     : t->value[b] >= 0 && t->value[b] <= 1);
		}
	}
	free(ev);
	ud_profile_free(p);
	ud_uarch_db_free(&db);
	ud_events_cleanup();
}
END_TEST

/* --pre and --post around each run, in order; a failing --pre stops before the command runs. */
START_TEST(test_pre_and_post_hooks)
{
	char *dir = make_tempdir(), log[4200], cmd[4400], pre[4400], post[4400], *text;
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	struct ud_measure_stat m = { .session = { .argv = argv }, .runs = 2, .pre = pre, .post = post };
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "sh");
	struct ud_err err = UD_ERR_INIT;
	struct ud_launch_result last;
	struct ud_event ev;

	snprintf(log, sizeof(log), "%s/log", dir);
	snprintf(cmd, sizeof(cmd), "echo run >> %s", log);
	snprintf(pre, sizeof(pre), "echo pre >> %s", log);
	snprintf(post, sizeof(post), "echo post >> %s", log);
	ud_event_resolve("task-clock", &ev);
	ck_assert_int_eq(ud_measure_stat(&m, &ev, 1, w, NULL, &last, &err), UD_LAUNCH_OK);
	text = read_text(log);
	ck_assert_str_eq(text, "pre\nrun\npost\npre\nrun\npost\n");
	free(text);
	ud_profile_free(p);
	p = ud_profile_new(NULL);
	w = ud_profile_add_workload(p, "sh");
	unlink(log);
	snprintf(pre, sizeof(pre), "exit 3");
	ck_assert_int_eq(ud_measure_stat(&m, &ev, 1, w, NULL, &last, &err), UD_LAUNCH_SYSTEM);
	ck_assert_str_eq(err.msg, "--pre 'exit 3' failed (exit status 3): stopped before the next run");
	ck_assert_int_ne(access(log, F_OK), 0);
	ud_profile_free(p);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* One interval's per-slot deltas: the whole and each aggregate, over the interval's length. */
START_TEST(test_interval_workloads)
{
	static const struct ud_count_slot slots[3] = { { -1, 0 }, { -1, 1 }, { -1, 2 } };
	static const size_t of[3] = { 0, 1, 1 };
	struct ud_measure_stat m = { .session = { .slots = slots, .nslots = 3 }, .aggr_of = of, .naggr = 2 };
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *aggr[2];
	struct ud_event ev[2];
	struct ud_count d[6];

	ud_profile_add_workload(p, "whole");
	ud_profile_add_workload(p, "a0");
	ud_profile_add_workload(p, "a1");
	aggr[0] = &p->workloads[1];
	aggr[1] = &p->workloads[2];
	ud_event_resolve("task-clock", &ev[0]);
	ud_event_resolve("duration_time", &ev[1]);
	for (int s = 0; s < 3; s++) {
		ud_count_scale(&d[s], 1000000 * (uint64_t)(s + 1), 1000000, 1000000);
		memset(&d[3 + s], 0, sizeof(d[3 + s]));
		d[3 + s].status = UD_NOT_COUNTED;
	}
	ck_assert_int_eq(ud_measure_interval(&m, ev, 2, d, 100000000, &p->workloads[0], aggr), 0);
	ck_assert_double_eq(p->workloads[0].counters[0].value, 6e6);
	ck_assert_double_eq(p->workloads[0].elapsed_ns, 1e8);
	ck_assert_double_eq(p->workloads[0].counters[1].value, 1e8);
	ck_assert_double_eq(aggr[0]->counters[0].value, 1e6);
	ck_assert_double_eq(aggr[1]->counters[0].value, 5e6);
	ck_assert_double_eq(aggr[1]->counters[1].value, 1e8);
	ud_profile_free(p);
}
END_TEST

/* A command counted on every CPU (stat -a -A -- CMD): each CPU an aggregate, the whole their sum. */
START_TEST(test_command_on_cpus)
{
	static const struct ud_count_slot slots[2] = { { -1, 0 }, { -1, 1 } };
	static const size_t of[2] = { 0, 1 };
	char *argv[] = { "/bin/sleep", "0.05", NULL };
	struct ud_measure_stat m = { .session = { .argv = argv, .slots = slots, .nslots = 2 }, .runs = 1,
				     .aggr_of = of, .naggr = 2 };
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *aggr[2];
	struct ud_err err = UD_ERR_INIT;
	struct ud_launch_result last;
	struct ud_event ev;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "per-CPU aggregates not checked: one CPU\n");
		ud_profile_free(p);
		return;
	}
	ud_profile_add_workload(p, "whole");
	ud_profile_add_workload(p, "cpu0");
	ud_profile_add_workload(p, "cpu1");
	aggr[0] = &p->workloads[1];
	aggr[1] = &p->workloads[2];
	ud_event_resolve("cpu-clock", &ev);
	ck_assert_int_eq(ud_measure_stat(&m, &ev, 1, &p->workloads[0], aggr, &last, &err), UD_LAUNCH_OK);
	if (p->workloads[0].counters[0].status == UD_NOT_SUPPORTED) {
		fprintf(stderr, "per-CPU aggregates not checked: %s\n", p->workloads[0].counters[0].reason);
	} else {
		/* each CPU's clock ran the whole 50 ms and more; the whole is their sum */
		ck_assert_double_ge(aggr[0]->counters[0].value, 50e6);
		ck_assert_double_eq(p->workloads[0].counters[0].value,
				    aggr[0]->counters[0].value + aggr[1]->counters[0].value);
		ck_assert_double_eq(aggr[1]->elapsed_ns, p->workloads[0].elapsed_ns);
	}
	ck_assert(last.ran_command);
	ud_profile_free(p);
}
END_TEST

/* The stop signals, the library's since run is thin: caught while held, given back after, named as kill -l does. */
/* The notices a measurement hands its command, collected. */
struct notices {
	char msg[4][1024];
	size_t n;
};

static void collect(void *ctx, const char *msg)
{
	struct notices *ns = ctx;

	if (ns->n < 4)
		snprintf(ns->msg[ns->n], sizeof(ns->msg[0]), "%s", msg);
	ns->n++;
}

/* run's plan counts an unknown name as not_supported and says so; stat's refuses it: one flag. */
START_TEST(test_measurement_unknown_events)
{
	struct ud_measurement_opts mo = { .events = "task-clock,cyles", .notice = collect };
	struct ud_measurement m = { 0 };
	struct ud_err err = UD_ERR_INIT;
	struct notices ns = { 0 };

	mo.ctx = &ns;
	ck_assert_int_eq(ud_measurement_detect(&m, &err), 0);
	ck_assert_int_eq(ud_measurement_plan(&m, &mo, &err), 0);
	ck_assert_uint_eq(m.nev, 2);
	ck_assert(m.ev[1].unknown);
	ck_assert_uint_eq(ns.n, 1);
	ck_assert_str_eq(ns.msg[0], "unknown event 'cyles' (did you mean 'cycles'?): counted as not_supported");
	ck_assert_ptr_null(ud_measurement_sampler(&m));
	ud_measurement_free(&m);

	memset(&m, 0, sizeof(m));
	ns.n = 0;
	mo.events = "cyles,instrctions";
	mo.refuse_unknown = true;
	ck_assert_int_eq(ud_measurement_detect(&m, &err), 0);
	ck_assert_int_eq(ud_measurement_plan(&m, &mo, &err), -1);
	ck_assert_uint_eq(ns.n, 0);
	ck_assert_str_eq(err.msg, "unknown event 'cyles' (did you mean 'cycles'?) (and 1 more unknown events): "
				  "nothing was run");
	ud_measurement_free(&m);
}
END_TEST

/*
 * A plan reads this host's event table only where its events need one
 * (issue 35): software and tool events none, a hardware one the host's.
 */
START_TEST(test_measurement_reads_tables_when_needed)
{
	struct ud_measurement_opts mo = { .events = "task-clock,{context-switches,page-faults},duration_time" };
	struct ud_measurement m = { 0 };
	struct ud_err err = UD_ERR_INIT;
	size_t before = ud_uarch_files_read();
	struct ud_uarch_db db;
	const struct ud_uarch *host;

	ck_assert_msg(ud_measurement_plan(&m, &mo, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(m.nev, 4);
	ck_assert_ptr_null(m.u);
	ck_assert_uint_eq(ud_uarch_files_read(), before);
	ud_measurement_free(&m);

	ck_assert_int_eq(ud_uarch_db_load(NULL, &db, &err), 0);
	ck_assert_ptr_nonnull(host = ud_uarch_detect_file(&db, NULL, &err));
	memset(&m, 0, sizeof(m));
	mo.events = "task-clock,cycles";
	before = ud_uarch_files_read();
	ck_assert_msg(ud_measurement_plan(&m, &mo, &err) == 0, "%s", err.msg);
	ck_assert_ptr_nonnull(m.u);
	ck_assert_str_eq(m.u->name, host->name);
	/* every table's header, then the host's whole */
	ck_assert_uint_eq(ud_uarch_files_read() - before, db.n + 1);
	ud_measurement_free(&m);
	ud_uarch_db_free(&db);
}
END_TEST

/* -n plans nothing, and an unknown -M name is refused before any event is planned. */
START_TEST(test_measurement_nothing_and_metrics)
{
	struct ud_measurement_opts mo = { .nothing = true, .events = "bogus" };
	struct ud_measurement m = { 0 };
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_measurement_detect(&m, &err), 0);
	ck_assert_int_eq(ud_measurement_plan(&m, &mo, &err), 0);
	ck_assert_ptr_nonnull(m.ev);
	ck_assert_uint_eq(m.nev, 0);
	free(m.ev);
	m.ev = NULL;
	mo = (struct ud_measurement_opts){ .metrics = "NoSuchMetricXyz" };
	ck_assert_int_eq(ud_measurement_plan(&m, &mo, &err), -1);
	ck_assert_ptr_null(m.ev);
	ck_assert(!m.topdown);
	ud_measurement_free(&m);
}
END_TEST

START_TEST(test_stop_signals)
{
	struct ud_stop stop;
	struct sigaction now;
	volatile sig_atomic_t *flag = ud_stop_catch(&stop);
	char name[32];

	ck_assert_int_eq(*flag, 0);
	raise(SIGUSR1);
	ck_assert_int_eq(*flag, SIGUSR1);
	raise(SIGRTMIN + 3);
	ck_assert_int_eq(*flag, SIGRTMIN + 3);
	ud_stop_release(&stop);
	sigaction(SIGUSR1, NULL, &now);
	ck_assert(now.sa_handler == SIG_DFL);
	ud_signal_name(SIGTERM, name, sizeof(name));
	ck_assert_str_eq(name, "SIGTERM");
	ud_signal_name(SIGRTMIN + 3, name, sizeof(name));
	ck_assert_str_eq(name, "SIGRTMIN+3");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("measure");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_stop_signals);
	tcase_add_test(tc, test_fold_means_with_mixed_statuses);
	tcase_add_test(tc, test_fold_sums_keep_totals);
	tcase_add_test(tc, test_fold_without_runs_counts_nothing);
	tcase_add_test(tc, test_exact_runs_once_a_group);
	tcase_add_test(tc, test_exact_command_with_software_groups);
	tcase_add_test(tc, test_plan);
	tcase_add_test(tc, test_plan_topdown);
	tcase_add_test(tc, test_plan_one_group);
	tcase_add_test(tc, test_measurement_unknown_events);
	tcase_add_test(tc, test_measurement_reads_tables_when_needed);
	tcase_add_test(tc, test_measurement_nothing_and_metrics);
	tcase_add_test(tc, test_stat_topdown_here);
	tcase_add_test(tc, test_pre_and_post_hooks);
	tcase_add_test(tc, test_interval_workloads);
	tcase_add_test(tc, test_command_on_cpus);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
