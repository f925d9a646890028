#include <stdlib.h>
#include <string.h>

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

START_TEST(test_parse_list)
{
	struct ud_event *ev;
	struct ud_err err;
	size_t n = ud_event_parse_list("cycles,instructions,page-faults", &ev, &err);

	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(ev[2].name, "page-faults");
	free(ev);
	ck_assert_uint_eq(ud_event_parse_list("", &ev, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "empty event list"));
	ck_assert_uint_eq(ud_event_parse_list("cycles,,instructions", &ev, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "empty event name"));
	ck_assert_uint_eq(ud_event_parse_list("cycles,", &ev, &err), 0);
}
END_TEST

START_TEST(test_grouping)
{
	const char *names[] = { "task-clock", "cycles", "instructions", "branches", "page-faults", "branch-misses" };
	struct ud_event ev[6];

	for (int i = 0; i < 6; i++)
		ud_event_resolve(names[i], &ev[i]);
	ud_event_group(ev, 6, 2);
	ck_assert_int_eq(ev[0].group, -1);
	ck_assert_int_eq(ev[1].group, 0);
	ck_assert_int_eq(ev[2].group, 0);
	ck_assert_int_eq(ev[3].group, 1);
	ck_assert_int_eq(ev[4].group, -1);
	ck_assert_int_eq(ev[5].group, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_generic_and_alias);
	tcase_add_test(tc, test_raw_code);
	tcase_add_test(tc, test_unknown_is_unresolved_with_reason);
	tcase_add_test(tc, test_parse_list);
	tcase_add_test(tc, test_grouping);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
