#include <stdlib.h>
#include <string.h>

#include <stdio.h>
#include <unistd.h>

#include "event_names.h"
#include "events.h"
#include "events_priv.h"
#include "testutil.h"
#include "text.h"

START_TEST(test_generic_and_alias)
{
	struct ud_event ev;

	ud_event_resolve("cpu-cycles", &ev);
	ck_assert(ev.resolved);
	ck_assert_str_eq(ev.name, "cycles");
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_HARDWARE);
	ck_assert_uint_eq(ev.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	ck_assert(ev.hardware);
	ck_assert_str_eq(ev.opened_as, "generic");

	ud_event_resolve("L1-dcache-load-misses", &ev);
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_HW_CACHE);
	ck_assert_uint_eq(ev.attr.config, PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
						  (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));

	ud_event_resolve("task-clock", &ev);
	ck_assert(!ev.hardware);
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_SOFTWARE);
}
END_TEST

/* The names (event_names.c, portable) and their encodings (events.c) are two tables: they must agree. */
START_TEST(test_every_generic_name_has_an_encoding)
{
	struct ud_event ev;
	const char *name;
	size_t i;

	for (i = 0; (name = ud_generic_event_name_at(i)) != NULL; i++) {
		ud_event_resolve(name, &ev);
		ck_assert_msg(ev.resolved && strcmp(ev.opened_as, "generic") == 0, "%s has no encoding", name);
		ck_assert_str_eq(ev.name, name);
		ck_assert_str_eq(ud_generic_event_name(name), name);
	}
	/* one list for names and encodings (generic_events.def): the TLB and prefetch events, once only in events.c, too */
	ck_assert_uint_eq(i, 33);
	ck_assert_str_eq(ud_generic_event_name("dTLB-load-misses"), "dTLB-load-misses");
	ck_assert_str_eq(ud_generic_event_name("L1-dcache-prefetches"), "L1-dcache-prefetches");
	ck_assert_str_eq(ud_generic_event_name("cs"), "context-switches");
	ck_assert_str_eq(ud_generic_event_name("faults"), "page-faults");
	ck_assert_str_eq(ud_generic_event_name("idle-cycles-backend"), "stalled-cycles-backend");
	ck_assert_ptr_null(ud_generic_event_name("ex_ret_brn_misp"));
}
END_TEST

/* perf's software events beyond the default ones (perf list sw), each the kernel's own encoding. */
START_TEST(test_more_software_events)
{
	static const struct {
		const char *name;
		__u64 config;
	} sw[] = {
		{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS }, { "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS },
		{ "dummy", PERF_COUNT_SW_DUMMY },                       { "bpf-output", PERF_COUNT_SW_BPF_OUTPUT },
		{ "cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES },
	};
	struct ud_event ev;

	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
		ud_event_resolve(sw[i].name, &ev);
		ck_assert_msg(ev.resolved && !ev.hardware && !ev.tool, "%s", sw[i].name);
		ck_assert_str_eq(ev.name, sw[i].name);
		ck_assert_uint_eq(ev.attr.type, PERF_TYPE_SOFTWARE);
		ck_assert_uint_eq(ev.attr.config, sw[i].config);
		ck_assert_str_eq(ev.unit, "");
	}
}
END_TEST

START_TEST(test_raw_code)
{
	struct ud_event ev;

	ud_event_resolve("r5300c0", &ev);
	ck_assert(ev.resolved);
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_RAW);
	ck_assert_uint_eq(ev.attr.config, 0x5300c0);
	ck_assert_str_eq(ev.opened_as, "raw");
}
END_TEST

START_TEST(test_unknown_is_unresolved_with_reason)
{
	struct ud_event ev;

	ud_event_resolve("no-such-event", &ev);
	ck_assert(!ev.resolved);
	ck_assert_ptr_nonnull(strstr(ev.reason, "unknown event"));
	ud_events_cleanup();
}
END_TEST

START_TEST(test_privilege_modifiers)
{
	struct ud_event ev;

	ud_event_resolve_for(NULL, "cpu-cycles:u", &ev);
	ck_assert(ev.resolved);
	ck_assert_str_eq(ev.name, "cycles:u");
	ck_assert_uint_eq(ev.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	ck_assert(!ev.attr.exclude_user && ev.attr.exclude_kernel && ev.attr.exclude_hv);

	ud_event_resolve_for(NULL, "page-faults:k", &ev);
	ck_assert_str_eq(ev.name, "page-faults:k");
	ck_assert(ev.attr.exclude_user && !ev.attr.exclude_kernel);

	ud_event_resolve_for(NULL, "r5300c0:ku", &ev);
	ck_assert_str_eq(ev.name, "r5300c0:uk");
	ck_assert_uint_eq(ev.attr.config, 0x5300c0);
	ck_assert(!ev.attr.exclude_user && !ev.attr.exclude_kernel && ev.attr.exclude_hv);

	/* H and G together count both sides, perf's default: nothing to name */
	ud_event_resolve_for(NULL, "instructions:HG", &ev);
	ck_assert_str_eq(ev.name, "instructions");
	ck_assert(!ev.attr.exclude_user && !ev.attr.exclude_kernel && !ev.attr.exclude_host && !ev.attr.exclude_guest);
	/* each alone is kept: the guest's part (exclude_host) or the host's (exclude_guest) */
	ud_event_resolve_for(NULL, "cycles:G", &ev);
	ck_assert_str_eq(ev.name, "cycles:G");
	ck_assert(ev.attr.exclude_host && !ev.attr.exclude_guest);
	ud_event_resolve_for(NULL, "cycles:H", &ev);
	ck_assert(!ev.attr.exclude_host && ev.attr.exclude_guest);
	/* precision and pinning are kept, never dropped from the name (issue 22: cycles:ppp read as cycles) */
	ud_event_resolve_for(NULL, "cycles:ppp", &ev);
	ck_assert(ev.resolved);
	ck_assert_str_eq(ev.name, "cycles:ppp");
	ck_assert_uint_eq(ev.attr.precise_ip, 3);
	ud_event_resolve_for(NULL, "cycles:pku", &ev);
	ck_assert_str_eq(ev.name, "cycles:ukp");
	ck_assert_uint_eq(ev.attr.precise_ip, 1);
	ud_event_resolve_for(NULL, "task-clock:D", &ev);
	ck_assert_str_eq(ev.name, "task-clock:D");
	ck_assert(ev.attr.pinned);
	/* what means nothing to a count is refused with the reason, as a wrong request */
	ud_event_resolve_for(NULL, "cycles:S", &ev);
	ck_assert(!ev.resolved && ev.unknown);
	ck_assert_str_eq(ev.name, "cycles:S");
	ck_assert_ptr_nonnull(strstr(ev.reason, "modifier S"));
	ud_event_resolve_for(NULL, "cycles:pppp", &ev);
	ck_assert(ev.unknown);
	ck_assert_ptr_nonnull(strstr(ev.reason, "ppp"));
	/* W makes a group weak and changes no count: not in the name, as perf prints a weak group's members */
	ud_event_resolve_for(NULL, "cycles:uW", &ev);
	ck_assert(ev.resolved && ev.weak_group);
	ck_assert_str_eq(ev.name, "cycles:u");
	/* I counts only while not idle, e has the event alone on the PMU: both kept */
	ud_event_resolve_for(NULL, "task-clock:eI", &ev);
	ck_assert(ev.resolved && ev.attr.exclude_idle && ev.attr.exclusive && !ev.weak_group);
	ck_assert_str_eq(ev.name, "task-clock:Ie");
	/* perf's letters a count has no use for: refused, each with its reason */
	ud_event_resolve_for(NULL, "cycles:P", &ev);
	ck_assert(ev.unknown);
	ck_assert_ptr_nonnull(strstr(ev.reason, "give p, pp or ppp"));
	ud_event_resolve_for(NULL, "cycles:b", &ev);
	ck_assert(ev.unknown);
	ck_assert_ptr_nonnull(strstr(ev.reason, "bpf-counters"));
	/* a tool event takes no modifier but a weak group's W */
	ud_event_resolve_for(NULL, "duration_time:k", &ev);
	ck_assert(ev.unknown);
	ck_assert_str_eq(ev.reason, "duration_time is a tool event, no kernel counter: it takes no modifier");
	ud_event_resolve_for(NULL, "user_time:W", &ev);
	ck_assert(ev.resolved && ev.tool == UD_TOOL_USER);
	ck_assert_str_eq(ev.name, "user_time");

	/* Not modifiers: a libpfm4-style qualifier stays part of the name. */
	ud_event_resolve_for(NULL, "no-such:event", &ev);
	ck_assert(!ev.resolved);
	ck_assert_str_eq(ev.name, "no-such:event");
	ud_event_resolve_for(NULL, "no-such:u", &ev);
	ck_assert(!ev.resolved);
	ck_assert_str_eq(ev.name, "no-such:u");
	ud_events_cleanup();
}
END_TEST

/* One counter asked for again is counted again, as perf counts it: NAME#k for its k-th copy, in order. */
START_TEST(test_parse_list_counts_one_counter_again)
{
	struct ud_event *ev;
	struct ud_err err = UD_ERR_INIT;
	char name[2 * UD_EVENT_NAME_MAX + 8];

	ck_assert_uint_eq(ud_event_parse_list("cycles,cycles:HG", NULL, &ev, &err), 2);
	ck_assert_str_eq(ev[0].name, "cycles");
	ck_assert_str_eq(ev[1].name, "cycles#2");
	ck_assert_uint_eq(ev[1].attr.config, ev[0].attr.config);
	free(ev);
	/* perf's own test: {cycles,cycles,...} ten times, one group; an alias is the same counter */
	ck_assert_uint_eq(ud_event_parse_list("{task-clock,task-clock,task-clock},cpu-cycles,instructions,cycles", NULL,
					      &ev, &err), 6);
	ck_assert_str_eq(ev[0].name, "task-clock");
	ck_assert_str_eq(ev[1].name, "task-clock#2");
	ck_assert_str_eq(ev[2].name, "task-clock#3");
	ck_assert(ev[0].request_group == 0 && ev[2].request_group == 0);
	ck_assert_str_eq(ev[3].name, "cycles");
	ck_assert_str_eq(ev[5].name, "cycles#2");
	free(ev);
	/* different modifiers are different counters */
	ck_assert_uint_eq(ud_event_parse_list("cycles:u,cycles:k,cycles", NULL, &ev, &err), 3);
	ck_assert_str_eq(ev[2].name, "cycles");
	free(ev);
	/* a weak group: every member weak, named as perf prints them */
	ck_assert_uint_eq(ud_event_parse_list("{task-clock,page-faults}:W,minor-faults", NULL, &ev, &err), 3);
	ck_assert(ev[0].weak_group && ev[1].weak_group && !ev[2].weak_group);
	ck_assert_str_eq(ev[1].name, "page-faults");
	ck_assert_int_eq(ev[1].request_group, 0);
	free(ev);
	/* a name with no room for its #k is refused, not cut */
	snprintf(name, sizeof(name), "r%0*d,r%0*d", UD_EVENT_NAME_MAX - 2, 1, UD_EVENT_NAME_MAX - 2, 1);
	ck_assert_uint_eq(ud_event_parse_list(name, NULL, &ev, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "too long to count again"));
	ud_events_cleanup();
}
END_TEST

START_TEST(test_parse_list)
{
	struct ud_event *ev;
	struct ud_err err;
	size_t n = ud_event_parse_list("cycles,instructions,page-faults", NULL, &ev, &err);

	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(ev[2].name, "page-faults");
	free(ev);
	ck_assert_uint_eq(ud_event_parse_list("", NULL, &ev, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "empty event list"));
	ck_assert_uint_eq(ud_event_parse_list("cycles,,instructions", NULL, &ev, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "empty event name"));
	ck_assert_uint_eq(ud_event_parse_list("cycles,", NULL, &ev, &err), 0);
}
END_TEST

static struct ud_event *plan(const char *const *names, size_t n, int programmable, int fixed, size_t *out_n)
{
	struct ud_event ev[16];

	for (size_t i = 0; i < n; i++)
		ud_event_resolve(names[i], &ev[i]);
	return ud_event_plan_groups(ev, n, programmable, fixed, out_n);
}

START_TEST(test_groups_carry_cycles_and_instructions)
{
	const char *names[] = { "task-clock", "cycles", "instructions", "branches", "branch-misses",
				"L1-dcache-loads", "L1-dcache-load-misses", "stalled-cycles-frontend",
				"stalled-cycles-backend", "page-faults" };
	size_t n;
	/* AMD Zen: 6 general counters, no fixed ones: 4 others fit beside the two anchors */
	struct ud_event *ev = plan(names, 10, 6, 0, &n);

	ck_assert_uint_eq(n, 12);
	ck_assert_int_eq(ev[0].group, -1); /* software */
	ck_assert_int_eq(ev[9].group, -1);
	ck_assert_int_eq(ev[1].group, 0);
	ck_assert_int_eq(ev[2].group, 0);
	for (int i = 3; i <= 6; i++)
		ck_assert_int_eq(ev[i].group, 0);
	ck_assert_int_eq(ev[7].group, 1);
	ck_assert_int_eq(ev[8].group, 1);
	ck_assert_str_eq(ev[10].name, "cycles@g1");
	ck_assert_int_eq(ev[10].group, 1);
	ck_assert_str_eq(ev[11].name, "instructions@g1");
	ck_assert_uint_eq(ev[11].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	ck_assert_int_eq(ud_event_group_count(ev, n), 2);
	free(ev);

	/* Arm: the cycle counter is fixed, so 5 others fit */
	ev = plan(names, 10, 6, 1, &n);
	ck_assert_uint_eq(n, 12);
	ck_assert_int_eq(ev[7].group, 0);
	ck_assert_int_eq(ev[8].group, 1);
	free(ev);

	/* Intel-like: both anchors on fixed counters, 4 general ones for the 6 others */
	ev = plan(names, 10, 4, 3, &n);
	ck_assert_int_eq(ud_event_group_count(ev, n), 2);
	free(ev);
}
END_TEST

START_TEST(test_one_group_needs_no_copies)
{
	const char *names[] = { "cycles", "instructions", "branches" };
	const char *no_anchor[] = { "branches", "branch-misses", "L1-dcache-loads" };
	size_t n;
	struct ud_event *ev = plan(names, 3, 6, 0, &n);

	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(ud_event_group_count(ev, n), 1);
	free(ev);
	/* without cycles and instructions requested, none are added */
	ev = plan(no_anchor, 3, 2, 0, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(ev[0].group, 0);
	ck_assert_int_eq(ev[1].group, 0);
	ck_assert_int_eq(ev[2].group, 1);
	free(ev);
}
END_TEST

START_TEST(test_group_syntax)
{
	struct ud_event *ev;
	struct ud_err err = UD_ERR_INIT;
	size_t n = ud_event_parse_list("{cycles:k,instructions}:u,task-clock,{page-faults,cs}", NULL, &ev, &err);

	ck_assert_msg(n == 5, "%s", err.msg);
	ck_assert_str_eq(ev[0].name, "cycles:uk"); /* the group's modifiers join the member's own */
	ck_assert_str_eq(ev[1].name, "instructions:u");
	ck_assert(ev[1].attr.exclude_kernel && !ev[1].attr.exclude_user);
	ck_assert_str_eq(ev[3].name, "page-faults");
	ck_assert_str_eq(ev[4].name, "context-switches");
	ck_assert_int_eq(ev[0].request_group, 0);
	ck_assert_int_eq(ev[1].request_group, 0);
	ck_assert_int_eq(ev[2].request_group, -1);
	ck_assert_int_eq(ev[3].request_group, 1);
	ck_assert_int_eq(ev[4].request_group, 1);
	free(ev);
	/* a PMU's terms hold commas that do not split the list */
	n = ud_event_parse_list("software/config=3,config1=0/,task-clock", NULL, &ev, &err);
	ck_assert_msg(n == 2, "%s", err.msg);
	ck_assert_str_eq(ev[0].name, "software/config=3,config1=0/");
	ck_assert(ev[0].resolved && !ev[0].hardware);
	ck_assert_uint_eq(ev[0].attr.type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(ev[0].attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	free(ev);
}
END_TEST

START_TEST(test_malformed_groups)
{
	static const struct {
		const char *list, *want;
	} bad[] = {
		{ "{cycles,instructions", "no '}' closes the '{'" },
		{ "cycles}", "'}' without its '{'" },
		{ "{cycles,{instructions}}", "groups do not nest" },
		{ "cycles{instructions}", "groups do not nest" },
		{ "{}", "empty event name" },
		{ "{cycles,}", "empty event name" },
		{ "{cycles}x", "'x' after its '}'" },
		{ "{cycles}:", "needs modifiers" },
		{ "software/config=1", "terms end with '/'" },
	};
	struct ud_event *ev;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ud_err err = UD_ERR_INIT;

		ck_assert_uint_eq(ud_event_parse_list(bad[i].list, NULL, &ev, &err), 0);
		ck_assert_msg(strstr(err.msg, bad[i].want), "'%s': %s", bad[i].list, err.msg);
		ck_assert_ptr_null(ev);
	}
}
END_TEST

START_TEST(test_requested_groups_are_kept)
{
	struct ud_event *ev, *planned;
	struct ud_err err = UD_ERR_INIT;
	size_t n = ud_event_parse_list("cycles,instructions,branches,branch-misses,{cycles:u,instructions:u},"
				       "{task-clock,page-faults}",
				       NULL, &ev, &err);

	ck_assert_msg(n == 8, "%s", err.msg);
	/* two general counters: branches and branch-misses need two planned groups, each with its anchors */
	planned = ud_event_plan_groups(ev, n, 2, 0, &n);
	ck_assert_uint_eq(n, 10);
	ck_assert_int_eq(planned[2].group, 0);
	ck_assert_int_eq(planned[3].group, 1);
	ck_assert_str_eq(planned[8].name, "cycles@g1");
	/* the requested groups come after, whole, with no copies, software ones too */
	ck_assert_int_eq(planned[4].group, 2);
	ck_assert_int_eq(planned[5].group, 2);
	ck_assert_int_eq(planned[6].group, 3);
	ck_assert_int_eq(planned[7].group, 3);
	ck_assert_int_eq(ud_event_group_count(planned, n), 4);
	free(planned);
	free(ev);
}
END_TEST

START_TEST(test_units_and_tool_event)
{
	struct ud_event ev;

	ud_event_resolve("task-clock", &ev);
	ck_assert_str_eq(ev.unit, "msec");
	ck_assert_double_eq(ev.scale, 1e-6);
	ud_event_resolve("page-faults", &ev);
	ck_assert_str_eq(ev.unit, "");
	ck_assert_double_eq(ev.scale, 1);
	ud_event_resolve("duration_time", &ev);
	ck_assert(ev.resolved && ev.tool == UD_TOOL_DURATION && !ev.hardware);
	ck_assert_str_eq(ev.opened_as, "tool");
	ck_assert_str_eq(ev.unit, "ns");
	/* perf's other tool events: the command's CPU times, in ns */
	ud_event_resolve("user_time", &ev);
	ck_assert(ev.resolved && ev.tool == UD_TOOL_USER);
	ck_assert_str_eq(ev.unit, "ns");
	ud_event_resolve("system_time", &ev);
	ck_assert(ev.resolved && ev.tool == UD_TOOL_SYSTEM);
	ck_assert_str_eq(ev.opened_as, "tool");
}
END_TEST

START_TEST(test_detailed_levels)
{
	size_t n[4];
	const char *const *names = ud_detailed_events(3, &n[3]);

	for (int level = 0; level < 3; level++)
		ud_detailed_events(level, &n[level]);
	/* perf's -d adds 4, -dd 6 more, -ddd 2 more (builtin-stat.c) */
	ck_assert_uint_eq(n[0], 0);
	ck_assert_uint_eq(n[1], 4);
	ck_assert_uint_eq(n[2], 10);
	ck_assert_uint_eq(n[3], 12);
	ck_assert_str_eq(names[2], "LLC-loads");
	ck_assert_str_eq(names[11], "L1-dcache-prefetch-misses");
	for (size_t i = 0; i < n[3]; i++) {
		struct ud_event ev;

		ud_event_resolve(names[i], &ev);
		ck_assert_msg(ev.resolved && ev.attr.type == PERF_TYPE_HW_CACHE, "%s", names[i]);
	}
}
END_TEST

/* Makes PATH/NAME, an empty file: a made-up sysfs event. */
static void touch(const char *dir, const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
}

/*
 * perf 6.1's default events by what the cpu PMU lists (a made-up events
 * folder): the stall events where listed, Intel's top-down group where
 * slots is, at level 2 where topdown-heavy-ops is too (arch/x86/util/topdown.c).
 */
START_TEST(test_perf_defaults_by_pmu)
{
	char dir[] = "/tmp/ud-cpu-events-XXXXXX", *list;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	list = ud_perf_default_events(dir, false);
	ck_assert_str_eq(list, "task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"
			       "branch-misses");
	free(list);
	touch(dir, "stalled-cycles-frontend");
	touch(dir, "slots");
	list = ud_perf_default_events(dir, true);
	ck_assert_str_eq(list, "cpu-clock,context-switches,cpu-migrations,page-faults,cycles,stalled-cycles-frontend,"
			       "instructions,branches,branch-misses,"
			       "{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}");
	free(list);
	touch(dir, "topdown-heavy-ops");
	list = ud_perf_default_events(dir, false);
	ck_assert_ptr_nonnull(strstr(list, ",branch-misses,{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,"
					   "topdown-be-bound,topdown-heavy-ops,topdown-br-mispredict,"
					   "topdown-fetch-lat,topdown-mem-bound}"));
	free(list);
	for (size_t i = 0; i < 3; i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", dir,
			 (const char *[]){ "stalled-cycles-frontend", "slots", "topdown-heavy-ops" }[i]);
		ck_assert_int_eq(unlink(path), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_format_place)
{
	struct perf_event_attr attr;
	char why[256];

	memset(&attr, 0, sizeof(attr));
	/* the value's low 8 bits into 0-7, the next 4 into 32-35 */
	ck_assert_int_eq(ud_pmu_format_place("config:0-7,32-35", 0x5ab, &attr, why, sizeof(why)), 0);
	ck_assert_uint_eq(attr.config, 0xabULL | (0x5ULL << 32));
	ck_assert_int_eq(ud_pmu_format_place("config1:0-15", 0xbeef, &attr, why, sizeof(why)), 0);
	ck_assert_uint_eq(attr.config1, 0xbeef);
	ck_assert_int_eq(ud_pmu_format_place("config2:3", 1, &attr, why, sizeof(why)), 0);
	ck_assert_uint_eq(attr.config2, 8);
	ck_assert_int_eq(ud_pmu_format_place("config:0-7,32-35", 0x1000, &attr, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "does not fit in its 12 bits"));
	ck_assert_int_eq(ud_pmu_format_place("config:", 1, &attr, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "malformed"));
	ck_assert_int_eq(ud_pmu_format_place("config:9-3", 1, &attr, why, sizeof(why)), -1);
	ck_assert_int_eq(ud_pmu_format_place("config:0-64", 1, &attr, why, sizeof(why)), -1);
	ck_assert_int_eq(ud_pmu_format_place("bogus:0-3", 1, &attr, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "no config field"));
	/* a 64-bit field takes any value */
	ck_assert_int_eq(ud_pmu_format_place("config:0-63", ~0ULL, &attr, why, sizeof(why)), 0);
	ck_assert_uint_eq(attr.config, ~0ULL);
}
END_TEST

/* The kernel's own software PMU, which every Linux has in sysfs. */
START_TEST(test_pmu_syntax)
{
	struct ud_event ev;

	ud_event_resolve_for(NULL, "software/config=2/", &ev);
	ck_assert_msg(ev.resolved, "%s", ev.reason);
	ck_assert_str_eq(ev.opened_as, "pmu");
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(ev.attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	ud_event_resolve_for(NULL, "software/config=2/u", &ev);
	ck_assert_str_eq(ev.name, "software/config=2/u");
	ck_assert(ev.attr.exclude_kernel && !ev.attr.exclude_user);
	ud_event_resolve_for(NULL, "software/bogus=1/", &ev);
	ck_assert(ev.unknown);
	ck_assert_ptr_nonnull(strstr(ev.reason, "unknown term 'bogus' for PMU 'software'"));
	ud_event_resolve_for(NULL, "no-such-pmu/event=1/", &ev);
	ck_assert(ev.unknown);
	ck_assert_ptr_nonnull(strstr(ev.reason, "no PMU 'no-such-pmu'"));
	ck_assert_ptr_nonnull(strstr(ev.reason, "software"));
	ud_event_resolve_for(NULL, "software/config=0x1ffffffffffffffff/", &ev);
	ck_assert(ev.unknown);
	ud_event_resolve_for(NULL, "../software/config=1/", &ev);
	ck_assert(ev.unknown);
	if (access("/sys/bus/event_source/devices/msr/events/tsc", R_OK) == 0) {
		/* a named event: its terms come from events/tsc */
		ud_event_resolve_for(NULL, "msr/tsc/", &ev);
		ck_assert_msg(ev.resolved, "%s", ev.reason);
		ck_assert(!ev.hardware);
		ck_assert_uint_eq(ev.attr.config, 0);
	} else {
		fprintf(stderr, "msr/tsc/ not checked: no msr PMU on this host\n");
	}
}
END_TEST

static bool tracefs_id(const char *event, unsigned long long *id)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < 2; i++) {
		char path[256];
		FILE *f;

		snprintf(path, sizeof(path), "%s/events/%s/id", dirs[i], event);
		if ((f = fopen(path, "r"))) {
			bool ok = fscanf(f, "%llu", id) == 1;

			fclose(f);
			return ok;
		}
	}
	return false;
}

/*
 * stat's -e and --filter in order (issue 34, perf's parse_filter()): a
 * filter takes every event of the -e before it, a second one for the same
 * -e joins it, and only tracepoints take one.
 */
START_TEST(test_filter_request)
{
	struct ud_event_request r = { 0 };
	struct ud_err err = UD_ERR_INIT;
	struct ud_event ev[4] = { { .resolved = true, .opened_as = "tracepoint" },
				  { .resolved = true, .opened_as = "tracepoint" },
				  { .resolved = true, .opened_as = "tracepoint" },
				  { .resolved = true, .opened_as = "generic" } };

	ck_assert_int_eq(ud_event_request_filter(&r, "fd == 1", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "--filter option should follow a -e tracepoint"));
	ck_assert_int_eq(ud_event_request_add(&r, "a:b", &err), 0);
	ck_assert_int_eq(ud_event_request_add(&r, "{c:d,e:f}", &err), 0);
	ck_assert_int_eq(ud_event_request_filter(&r, "fd == 1", &err), 0);
	ck_assert_int_eq(ud_event_request_filter(&r, "count > 2", &err), 0);
	ck_assert_str_eq(r.list, "a:b,{c:d,e:f}");
	ck_assert_int_eq(ud_event_request_apply_filters(&r, ev, 3, &err), 0);
	ck_assert_ptr_null(ev[0].filter);
	ck_assert_str_eq(ev[1].filter, "(fd == 1) && (count > 2)");
	ck_assert_str_eq(ev[2].filter, ev[1].filter);
	ck_assert_int_eq(ud_event_request_add(&r, "task-clock", &err), 0);
	ck_assert_int_eq(ud_event_request_filter(&r, "fd == 2", &err), 0);
	snprintf(ev[3].name, sizeof(ev[3].name), "task-clock");
	ck_assert_int_eq(ud_event_request_apply_filters(&r, ev, 4, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "--filter 'fd == 2': 'task-clock' is not a tracepoint"));
	ck_assert_int_eq(ud_event_request_add(&r, "{x", &err), -1);
	ud_event_request_free(&r);
	ck_assert_ptr_null(r.list);
}
END_TEST

START_TEST(test_tracepoint)
{
	unsigned long long id;
	struct ud_event ev;

	if (!tracefs_id("sched/sched_switch", &id)) {
		fprintf(stderr, "tracepoints not checked: tracefs is not readable here\n");
		return;
	}
	ud_event_resolve_for(NULL, "sched:sched_switch", &ev);
	ck_assert_msg(ev.resolved, "%s", ev.reason);
	ck_assert_str_eq(ev.opened_as, "tracepoint");
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_TRACEPOINT);
	ck_assert_uint_eq(ev.attr.config, id);
	ck_assert(!ev.hardware);
	ud_event_resolve_for(NULL, "sched:sched_switch:k", &ev);
	ck_assert_str_eq(ev.name, "sched:sched_switch:k");
	ck_assert(ev.attr.exclude_user);
	ud_event_resolve_for(NULL, "sched:no_such_tracepoint", &ev);
	ck_assert(ev.unknown);
	ud_event_resolve_for(NULL, "..:sched_switch", &ev);
	ck_assert(ev.unknown);
}
END_TEST

START_TEST(test_suggestions)
{
	char buf[256];
	unsigned long long id;

	ck_assert(ud_event_suggest("cyles", NULL, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "'cycles'");
	ck_assert(ud_event_suggest("cylces", NULL, buf, sizeof(buf))); /* a swap is one edit */
	ck_assert_str_eq(buf, "'cycles'");
	ck_assert(ud_event_suggest("instrctions", NULL, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "'instructions'");
	ck_assert(ud_event_suggest("page-fault", NULL, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "'page-faults'");
	ck_assert(ud_event_suggest("duration-time", NULL, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "'duration_time'");
	/* nothing near: no guess */
	ck_assert(!ud_event_suggest("zqxjkv", NULL, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "");
	if (tracefs_id("sched/sched_switch", &id)) {
		ck_assert(ud_event_suggest("sched:sched_swich", NULL, buf, sizeof(buf)));
		ck_assert_str_eq(buf, "'sched:sched_switch'");
	}
	ud_events_cleanup();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_generic_and_alias);
	tcase_add_test(tc, test_every_generic_name_has_an_encoding);
	tcase_add_test(tc, test_more_software_events);
	tcase_add_test(tc, test_raw_code);
	tcase_add_test(tc, test_unknown_is_unresolved_with_reason);
	tcase_add_test(tc, test_privilege_modifiers);
	tcase_add_test(tc, test_parse_list);
	tcase_add_test(tc, test_parse_list_counts_one_counter_again);
	tcase_add_test(tc, test_groups_carry_cycles_and_instructions);
	tcase_add_test(tc, test_one_group_needs_no_copies);
	tcase_add_test(tc, test_group_syntax);
	tcase_add_test(tc, test_malformed_groups);
	tcase_add_test(tc, test_requested_groups_are_kept);
	tcase_add_test(tc, test_units_and_tool_event);
	tcase_add_test(tc, test_detailed_levels);
	tcase_add_test(tc, test_perf_defaults_by_pmu);
	tcase_add_test(tc, test_format_place);
	tcase_add_test(tc, test_pmu_syntax);
	tcase_add_test(tc, test_tracepoint);
	tcase_add_test(tc, test_filter_request);
	tcase_add_test(tc, test_suggestions);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
