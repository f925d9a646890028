/*
 * The counting engine with software events, which count for real on any
 * Linux host: groups, group reads, region enable/disable, scaling math, and
 * honest statuses for what cannot be counted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "counting.h"
#include "testutil.h"

/*
 * Software events always open together, so a group the kernel refuses is
 * made here: ud-refuse-group.c, linked in, stands for libc's syscall() and
 * refuses the software event UD_REFUSE_IN_GROUP names as a group member.
 */
#define REFUSE_EMULATION_FAULTS "8" /* PERF_COUNT_SW_EMULATION_FAULTS */
extern int ud_refuse_last_group_fd[16];
#define last_group_fd ud_refuse_last_group_fd

static void resolve_all(struct ud_event *ev, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ud_event_resolve(names[i], &ev[i]);
}

static void touch_fresh_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert(p != MAP_FAILED);
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	munmap((void *)p, (size_t)(n * page));
}

START_TEST(test_scale_math)
{
	struct ud_count c;

	ud_count_scale(&c, 1000, 200, 100);
	ck_assert_int_eq(c.status, UD_COUNTED);
	ck_assert_double_eq_tol(c.value, 2000, 1e-9);
	ck_assert_uint_eq(c.raw, 1000);
	ck_assert_uint_eq(c.enabled_ns, 200);
	ck_assert_uint_eq(c.running_ns, 100);

	ud_count_scale(&c, 1000, 100, 100);
	ck_assert_double_eq(c.value, 1000);

	/* never on a counter: not counted, no invented value */
	ud_count_scale(&c, 0, 500, 0);
	ck_assert_int_eq(c.status, UD_NOT_COUNTED);
	ck_assert_ptr_nonnull(strstr(c.reason, "never scheduled"));
}
END_TEST

START_TEST(test_region_counts_only_the_region)
{
	const char *names[] = { "page-faults", "task-clock" };
	struct ud_event ev[2];
	struct ud_count out[2];
	struct ud_err err;
	struct ud_counters *set;

	resolve_all(ev, names, 2);
	set = ud_counters_open(ev, 2, 0, 0);
	ck_assert_uint_eq(ud_counters_opened(set), 2);
	touch_fresh_pages(300); /* disabled: must not count */
	ck_assert_int_eq(ud_counters_enable(set, &err), 0);
	touch_fresh_pages(200);
	ck_assert_int_eq(ud_counters_disable(set, &err), 0);
	touch_fresh_pages(300); /* disabled again */
	ck_assert_int_eq(ud_counters_read(set, out, &err), 0);
	ck_assert_int_eq(out[0].status, UD_COUNTED);
	ck_assert_double_ge(out[0].value, 200);
	ck_assert_double_lt(out[0].value, 500);
	ck_assert_int_eq(out[1].status, UD_COUNTED);
	ck_assert_double_gt(out[1].value, 0);
	ud_counters_close(set);
}
END_TEST

/* Faults taken on user-space stores are user-mode events: ":u" counts them, ":k" does not. */
START_TEST(test_modifiers_split_user_and_kernel)
{
	struct ud_event ev[2];
	struct ud_count out[2];
	struct ud_err err = UD_ERR_INIT;
	struct ud_counters *set;

	ud_event_resolve_for(NULL, "page-faults:u", &ev[0]);
	ud_event_resolve_for(NULL, "page-faults:k", &ev[1]);
	set = ud_counters_open(ev, 2, 0, 0);
	ck_assert_uint_eq(ud_counters_opened(set), 2);
	ck_assert_int_eq(ud_counters_enable(set, &err), 0);
	touch_fresh_pages(400);
	ck_assert_int_eq(ud_counters_disable(set, &err), 0);
	ck_assert_int_eq(ud_counters_read(set, out, &err), 0);
	ck_assert_int_eq(out[0].status, UD_COUNTED);
	ck_assert_double_ge(out[0].value, 400);
	ck_assert_double_lt(out[1].value, 400);
	ud_counters_close(set);
}
END_TEST

START_TEST(test_group_read_of_software_group)
{
	const char *names[] = { "task-clock", "page-faults", "context-switches" };
	struct ud_event ev[3];
	struct ud_count out[3];
	struct ud_err err;
	struct ud_counters *set;

	resolve_all(ev, names, 3);
	for (int i = 0; i < 3; i++)
		ev[i].group = 0; /* one group: read with PERF_FORMAT_GROUP */
	set = ud_counters_open(ev, 3, 0, 0);
	ck_assert_uint_eq(ud_counters_opened(set), 3);
	ud_counters_enable(set, &err);
	touch_fresh_pages(100);
	ud_counters_disable(set, &err);
	ck_assert_int_eq(ud_counters_read(set, out, &err), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(out[i].status, UD_COUNTED);
	ck_assert_double_ge(out[1].value, 100);
	/* one group, one schedule: the members share the leader's times */
	ck_assert_uint_eq(out[0].enabled_ns, out[1].enabled_ns);
	ck_assert_uint_eq(out[1].running_ns, out[2].running_ns);

	/* reset zeroes the whole group */
	ck_assert_int_eq(ud_counters_reset(set, &err), 0);
	ck_assert_int_eq(ud_counters_read(set, out, &err), 0);
	ck_assert_double_eq(out[1].value, 0);
	ud_counters_close(set);
}
END_TEST

START_TEST(test_unknown_event_is_not_supported_with_reason)
{
	const char *names[] = { "task-clock", "definitely-not-an-event" };
	struct ud_event ev[2];
	struct ud_count out[2];
	struct ud_err err;
	struct ud_counters *set;

	resolve_all(ev, names, 2);
	set = ud_counters_open(ev, 2, 0, 0);
	ud_counters_enable(set, &err);
	ud_counters_disable(set, &err);
	ck_assert_int_eq(ud_counters_read(set, out, &err), 0);
	ck_assert_int_eq(out[1].status, UD_NOT_SUPPORTED);
	ck_assert_ptr_nonnull(strstr(out[1].reason, "unknown event"));
	ck_assert_uint_eq(out[1].raw, 0);
	ud_counters_close(set);
	ud_events_cleanup();
}
END_TEST

START_TEST(test_hardware_refusal_is_explained)
{
	const char *names[] = { "instructions" };
	struct ud_event ev[1];
	struct ud_count out[1];
	struct ud_err err;
	struct ud_counters *set;
	char why[256];
	enum ud_pmu_state pmu = ud_pmu_probe(why, sizeof(why));

	resolve_all(ev, names, 1);
	set = ud_counters_open(ev, 1, 0, 0);
	ck_assert_int_eq(ud_counters_read(set, out, &err), 0);
	if (pmu == UD_PMU_AVAILABLE) {
		ck_assert_int_ne(out[0].status, UD_NOT_SUPPORTED);
	} else {
		/* the same words the probe gives: no PMU, or the paranoid level */
		ck_assert_int_eq(out[0].status, UD_NOT_SUPPORTED);
		ck_assert_str_eq(out[0].reason, why);
		ck_assert_ptr_nonnull(strstr(why, pmu == UD_PMU_ABSENT ? "no hardware PMU" : "perf_event_paranoid"));
	}
	ud_counters_close(set);
}
END_TEST

START_TEST(test_zero_reads_over_real_work_are_not_trusted)
{
	const char *names[] = { "cycles", "instructions", "branch-misses", "task-clock" };
	struct ud_event ev[4];
	struct ud_count out[4];

	resolve_all(ev, names, 4);
	ud_count_scale(&out[0], 0, 5000000, 5000000);     /* cycles: 0 over 5 ms */
	ud_count_scale(&out[1], 12345, 5000000, 5000000); /* instructions did count */
	ud_count_scale(&out[2], 0, 5000000, 5000000);     /* misses: 0 too */
	ud_count_scale(&out[3], 5000000, 5000000, 5000000);
	ud_counts_flag_untrusted(ev, out, 4);
	ck_assert_int_eq(out[0].status, UD_NOT_COUNTED);
	ck_assert_ptr_nonnull(strstr(out[0].reason, "hypervisor"));
	ck_assert_int_eq(out[1].status, UD_COUNTED);
	ck_assert_int_eq(out[2].status, UD_NOT_COUNTED);
	ck_assert_int_eq(out[3].status, UD_COUNTED); /* software: never flagged */

	/* a 0 over a few microseconds may be honest */
	ud_count_scale(&out[0], 0, 2000, 2000);
	ud_count_scale(&out[2], 0, 2000, 2000);
	ud_count_scale(&out[1], 5, 2000, 2000);
	ud_counts_flag_untrusted(ev, out, 3);
	ck_assert_int_eq(out[0].status, UD_COUNTED);
	ck_assert_int_eq(out[2].status, UD_COUNTED);

	/* branch-misses alone at 0 is plausible: no flag without cycles/instructions at 0 */
	ud_count_scale(&out[0], 900000, 5000000, 5000000);
	ud_count_scale(&out[1], 800000, 5000000, 5000000);
	ud_count_scale(&out[2], 0, 5000000, 5000000);
	ud_counts_flag_untrusted(ev, out, 3);
	ck_assert_int_eq(out[2].status, UD_COUNTED);
}
END_TEST

/*
 * --exact reads each group in a run of its own: a later group without
 * cycles-like events keeps its zeros until the readings are merged and the
 * rule is applied again (measured in QEMU's Neoverse N1: STALL_BACKEND
 * alone in group 1 stayed a counted 0).
 */
START_TEST(test_zero_rule_holds_across_merged_runs)
{
	const char *names[] = { "branches", "instructions", "stalled-cycles-backend", "instructions" };
	struct ud_event ev[4];
	struct ud_count out[4];

	resolve_all(ev, names, 4);
	/* run of group 0: branches read 0 beside counting instructions */
	ud_count_scale(&out[0], 0, 5000000, 5000000);
	ud_count_scale(&out[1], 400000, 5000000, 5000000);
	ud_counts_flag_untrusted(ev, out, 2);
	ck_assert_int_eq(out[0].status, UD_NOT_COUNTED);
	/* run of group 1: only a stall event at 0, no evidence of its own */
	ud_count_scale(&out[2], 0, 5000000, 5000000);
	ud_count_scale(&out[3], 400000, 5000000, 5000000);
	ud_counts_flag_untrusted(ev + 2, out + 2, 2);
	ck_assert_int_eq(out[2].status, UD_COUNTED);
	/* merged: group 0's flagged zero gives group 1's away */
	ud_counts_flag_untrusted(ev, out, 4);
	ck_assert_int_eq(out[0].status, UD_NOT_COUNTED);
	ck_assert_int_eq(out[2].status, UD_NOT_COUNTED);
	ck_assert_ptr_nonnull(strstr(out[2].reason, "read 0 over 5.0 ms"));
	ck_assert_int_eq(out[1].status, UD_COUNTED);
	ck_assert_int_eq(out[3].status, UD_COUNTED);

	/* a counter that never ran is no evidence */
	ud_count_scale(&out[0], 0, 5000000, 0);
	ud_count_scale(&out[2], 0, 5000000, 5000000);
	ud_counts_flag_untrusted(ev, out, 4);
	ck_assert_int_eq(out[2].status, UD_COUNTED);
}
END_TEST

START_TEST(test_status_names_round_trip)
{
	enum ud_count_status s;

	for (int i = UD_NOT_SUPPORTED; i <= UD_COUNTED; i++) {
		ck_assert_int_eq(ud_count_status_parse(ud_count_status_name((enum ud_count_status)i), &s), 0);
		ck_assert_int_eq(s, i);
	}
	ck_assert_int_eq(ud_count_status_parse("zero", &s), -1);
}
END_TEST

/* perf's aggregation: raw values and times summed over the slots, then scaled once. */
START_TEST(test_aggregate_sums_then_scales)
{
	struct ud_count in[6], out[4];
	const size_t of[3] = { 0, 1, 1 };

	memset(in, 0, sizeof(in));
	/* event 0 at three slots: counted 100 of 200 ns, 50 of 100, 50 of 100 */
	ud_count_scale(&in[0], 1000, 200, 100);
	ud_count_scale(&in[1], 10, 100, 50);
	ud_count_scale(&in[2], 30, 100, 50);
	/* event 1: refused at every slot */
	for (int i = 3; i < 6; i++) {
		in[i].status = UD_NOT_SUPPORTED;
		snprintf(in[i].reason, sizeof(in[i].reason), "refused");
	}
	ud_counts_aggregate(in, 2, 3, of, 2, out);
	ck_assert_int_eq(out[0].status, UD_COUNTED);
	ck_assert_double_eq(out[0].value, 2000);
	ck_assert_uint_eq(out[1].raw, 40);
	ck_assert_uint_eq(out[1].enabled_ns, 200);
	ck_assert_uint_eq(out[1].running_ns, 100);
	ck_assert_double_eq(out[1].value, 80); /* (10 + 30) x 200 / 100 */
	ck_assert_int_eq(out[2].status, UD_NOT_SUPPORTED);
	ck_assert_str_eq(out[3].reason, "refused");
}
END_TEST

START_TEST(test_delta_and_duration)
{
	const char *names[] = { "task-clock", "duration_time", "user_time", "system_time" };
	struct ud_event ev[4];
	struct ud_count before[4], now[4], d[4];
	struct ud_tool_times t = { .elapsed_ns = 123456789, .user_ns = 4000000, .sys_ns = 0 };

	resolve_all(ev, names, 4);
	memset(before, 0, sizeof(before));
	memset(now, 0, sizeof(now));
	ud_count_scale(&before[0], 300, 1000, 1000);
	ud_count_scale(&now[0], 700, 3000, 2000);
	now[1].status = UD_NOT_COUNTED;
	ud_counts_delta(now, before, 2, d);
	/* 400 more over 2000 ns enabled, 1000 running: scaled to 800 */
	ck_assert_uint_eq(d[0].raw, 400);
	ck_assert_double_eq(d[0].value, 800);
	ck_assert_int_eq(d[1].status, UD_NOT_COUNTED);
	ud_counts_set_tools(ev, d, 4, &t);
	ck_assert_int_eq(d[1].status, UD_COUNTED);
	ck_assert_double_eq(d[1].value, 123456789);
	ck_assert_uint_eq(d[0].raw, 400); /* only the tool events take the times */
	/* the command's rusage: its user time, and a system time of 0 ns, rusage's ticks, is a count of 0 */
	ck_assert_int_eq(d[2].status, UD_COUNTED);
	ck_assert_double_eq(d[2].value, 4000000);
	ck_assert_int_eq(d[3].status, UD_COUNTED);
	ck_assert_double_eq(d[3].value, 0);
	/* no rusage to read (no command, or an interval): not counted, with the reason */
	t.no_rusage = "no command";
	ud_counts_set_tools(ev, d, 4, &t);
	ck_assert_int_eq(d[2].status, UD_NOT_COUNTED);
	ck_assert_str_eq(d[3].reason, "no command");
	ck_assert_int_eq(d[1].status, UD_COUNTED);
	/* a counter with no run between two readings: not counted in that interval */
	ud_counts_delta(now, now, 1, d);
	ck_assert_int_eq(d[0].status, UD_NOT_COUNTED);
}
END_TEST

/* Counts list's events at two slots of this process, the groups planned; fills out, returns the counters opened. */
static size_t count_list(const char *list, struct ud_count *out, size_t n)
{
	struct ud_count_slot slots[2] = { { 0, -1 }, { 0, -1 } };
	struct ud_err err = UD_ERR_INIT;
	struct ud_event *asked, *ev;
	struct ud_counters *set;
	size_t planned, opened;

	ck_assert_uint_eq(ud_event_parse_list(list, NULL, &asked, &err), n);
	ev = ud_event_plan_groups(asked, n, 4, 3, &planned);
	ck_assert_uint_eq(planned, n);
	set = ud_counters_open_slots(ev, n, slots, 2, 0);
	opened = ud_counters_opened(set);
	ck_assert_int_eq(ud_counters_enable(set, &err), 0);
	touch_fresh_pages(100);
	ck_assert_int_eq(ud_counters_disable(set, &err), 0);
	ck_assert_int_eq(ud_counters_read(set, out, &err), 0);
	ud_counters_close(set);
	free(ev);
	free(asked);
	return opened;
}

/*
 * {a,b,c}: a member the kernel refuses in the group is not counted, the
 * group kept whole; {a,b,c}:W falls back as perf does: every member opens
 * on its own, at every slot, and all count.
 */
START_TEST(test_weak_group_opens_apart)
{
	struct ud_count out[3];

	setenv("UD_REFUSE_IN_GROUP", REFUSE_EMULATION_FAULTS, 1);
	ck_assert_uint_eq(count_list("{task-clock,emulation-faults,page-faults}", out, 3), 4);
	ck_assert_int_eq(out[0].status, UD_COUNTED);
	ck_assert_int_eq(out[1].status, UD_NOT_SUPPORTED);
	ck_assert_ptr_nonnull(strstr(out[1].reason, "Invalid argument"));
	ck_assert_int_eq(out[2].status, UD_COUNTED);
	ck_assert_int_ge(last_group_fd[PERF_COUNT_SW_PAGE_FAULTS], 0); /* page-faults stayed in the group */

	ck_assert_uint_eq(count_list("{task-clock,emulation-faults,page-faults}:W", out, 3), 6);
	for (int i = 0; i < 3; i++)
		ck_assert_msg(out[i].status == UD_COUNTED, "member %d: %s", i, out[i].reason);
	ck_assert_double_ge(out[2].value, 200); /* 100 pages at each of two slots */
	ck_assert_int_eq(last_group_fd[PERF_COUNT_SW_EMULATION_FAULTS], -1);
	ck_assert_int_eq(last_group_fd[PERF_COUNT_SW_PAGE_FAULTS], -1); /* the whole group apart, not the one member */

	/* a weak group the kernel takes whole stays a group */
	unsetenv("UD_REFUSE_IN_GROUP");
	ck_assert_uint_eq(count_list("{task-clock,emulation-faults,page-faults}:W", out, 3), 6);
	ck_assert_int_ge(last_group_fd[PERF_COUNT_SW_PAGE_FAULTS], 0);
	ck_assert_int_eq(out[1].status, UD_COUNTED);
	ud_events_cleanup();
}
END_TEST

/* Each CPU a slot, as stat -a opens them; skipped where CPU-wide counting is not allowed. */
START_TEST(test_slots_per_cpu)
{
	const char *names[] = { "cpu-clock", "page-faults" };
	struct ud_count_slot slots[2] = { { -1, 0 }, { -1, 1 } };
	struct ud_event ev[2];
	struct ud_count per[4], whole[2];
	struct ud_err err = UD_ERR_INIT;
	struct ud_counters *set;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	resolve_all(ev, names, 2);
	set = ud_counters_open_slots(ev, 2, slots, cpus >= 2 ? 2 : 1, 0);
	if (ud_counters_opened(set) == 0) {
		fprintf(stderr, "per-CPU slots not checked: CPU-wide counting is not allowed here\n");
		ud_counters_close(set);
		return;
	}
	ck_assert_uint_eq(ud_counters_opened(set), cpus >= 2 ? 4 : 2);
	ck_assert_int_eq(ud_counters_enable(set, &err), 0);
	usleep(20000);
	ck_assert_int_eq(ud_counters_disable(set, &err), 0);
	ck_assert_int_eq(ud_counters_read_slots(set, per, &err), 0);
	ck_assert_int_eq(ud_counters_read(set, whole, &err), 0);
	/* cpu-clock of a CPU counts its wall time: each at least the 20 ms slept, the whole their sum */
	ck_assert_double_ge(per[0].value, 20e6);
	if (cpus >= 2)
		ck_assert_double_eq(whole[0].value, per[0].value + per[1].value);
	ud_counters_close(set);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("counting");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_scale_math);
	tcase_add_test(tc, test_region_counts_only_the_region);
	tcase_add_test(tc, test_group_read_of_software_group);
	tcase_add_test(tc, test_unknown_event_is_not_supported_with_reason);
	tcase_add_test(tc, test_hardware_refusal_is_explained);
	tcase_add_test(tc, test_zero_reads_over_real_work_are_not_trusted);
	tcase_add_test(tc, test_zero_rule_holds_across_merged_runs);
	tcase_add_test(tc, test_status_names_round_trip);
	tcase_add_test(tc, test_modifiers_split_user_and_kernel);
	tcase_add_test(tc, test_aggregate_sums_then_scales);
	tcase_add_test(tc, test_delta_and_duration);
	tcase_add_test(tc, test_slots_per_cpu);
	tcase_add_test(tc, test_weak_group_opens_apart);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
