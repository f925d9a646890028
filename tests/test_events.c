#include <stdlib.h>
#include <string.h>

#include "event_names.h"
#include "events.h"
#include "testutil.h"

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
	ck_assert_uint_ge(i, 12);
	ck_assert_str_eq(ud_generic_event_name("cs"), "context-switches");
	ck_assert_str_eq(ud_generic_event_name("faults"), "page-faults");
	ck_assert_str_eq(ud_generic_event_name("idle-cycles-backend"), "stalled-cycles-backend");
	ck_assert_ptr_null(ud_generic_event_name("ex_ret_brn_misp"));
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

	/* :G/:H alone change nothing, as the importers read them; nor does :pp (precise sampling) to a count. */
	ud_event_resolve_for(NULL, "instructions:HG", &ev);
	ck_assert_str_eq(ev.name, "instructions");
	ck_assert(!ev.attr.exclude_user && !ev.attr.exclude_kernel);
	ud_event_resolve_for(NULL, "cycles:pp", &ev);
	ck_assert(ev.resolved);
	ck_assert_str_eq(ev.name, "cycles");
	ud_event_resolve_for(NULL, "cycles:upp", &ev);
	ck_assert_str_eq(ev.name, "cycles:u");

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

START_TEST(test_parse_list_refuses_one_counter_twice)
{
	struct ud_event *ev;
	struct ud_err err = UD_ERR_INIT;

	ck_assert_uint_eq(ud_event_parse_list("cycles,cycles:G", NULL, &ev, &err), 0);
	ck_assert_str_eq(err.msg, "'cycles:G' names the same counter as an earlier event (cycles): give it once");
	ck_assert_uint_eq(ud_event_parse_list("cpu-cycles,instructions,cycles", NULL, &ev, &err), 0);
	ck_assert_uint_eq(ud_event_parse_list("cycles:u,cycles:k,cycles", NULL, &ev, &err), 3);
	free(ev);
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

int main(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_generic_and_alias);
	tcase_add_test(tc, test_every_generic_name_has_an_encoding);
	tcase_add_test(tc, test_raw_code);
	tcase_add_test(tc, test_unknown_is_unresolved_with_reason);
	tcase_add_test(tc, test_privilege_modifiers);
	tcase_add_test(tc, test_parse_list);
	tcase_add_test(tc, test_parse_list_refuses_one_counter_twice);
	tcase_add_test(tc, test_groups_carry_cycles_and_instructions);
	tcase_add_test(tc, test_one_group_needs_no_copies);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
