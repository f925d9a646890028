/*
 * A counter's identity from every spelling perf prints (event_id.h, issue
 * 32): the spellings are those of the real pastes in ../shared/corpus/ and
 * tests/data/real/, and of the list (apple_firestorm_pmu/cycles/u,
 * cpu/event=0xc9,umask=0/k, r00c4, PM_EXEC_STALL_TLBIE, TOPDOWN.SLOTS:u).
 */
#include <string.h>

#include "event_id.h"
#include "testutil.h"

struct spelling {
	const char *printed;
	enum ud_event_arch arch;
	const char *name;       /* the profile's name for it */
	const char *cls;
	const char *mode;
};

static const struct spelling spellings[] = {
	{ "cycles", UD_ARCH_UNKNOWN, "cycles", "cycles", "all" },
	{ "cpu-cycles", UD_ARCH_UNKNOWN, "cycles", "cycles", "all" },
	{ "cycles:u", UD_ARCH_UNKNOWN, "cycles:u", "cycles", "user" },
	{ "cycles:k", UD_ARCH_UNKNOWN, "cycles:k", "cycles", "kernel" },
	{ "cycles:ppp", UD_ARCH_UNKNOWN, "cycles", "cycles", "all" },
	{ "cycles:uk", UD_ARCH_UNKNOWN, "cycles", "cycles", "all" },
	{ "cycles:HG", UD_ARCH_UNKNOWN, "cycles", "cycles", "all" },
	{ "cycles:G", UD_ARCH_UNKNOWN, "cycles:G", "cycles", "guest" },
	{ "cycles:H", UD_ARCH_UNKNOWN, "cycles:H", "cycles", "host" },
	{ "task-clock:HG", UD_ARCH_UNKNOWN, "task-clock", "software", "all" },
	{ "{cycles,instructions}", UD_ARCH_UNKNOWN, "cycles,instructions", "other", "all" },
	{ "{cycles}:u", UD_ARCH_UNKNOWN, "cycles:u", "cycles", "user" },
	/* PMU spellings: the "cyclesu" */
	{ "apple_firestorm_pmu/cycles/u", UD_ARCH_UNKNOWN, "cycles:u", "cycles", "user" },
	{ "apple_icestorm_pmu/instructions/u", UD_ARCH_UNKNOWN, "instructions:u", "instructions", "user" },
	{ "cpu_core/instructions/u", UD_ARCH_UNKNOWN, "instructions:u", "instructions", "user" },
	{ "cpu_atom/cycles/", UD_ARCH_UNKNOWN, "cycles", "cycles", "all" },
	{ "armv8_pmuv3_0/cpu_cycles/u", UD_ARCH_UNKNOWN, "cycles:u", "cycles", "user" },
	{ "armv8_pmuv3_0/br_mis_pred/", UD_ARCH_UNKNOWN, "branch-misses", "branch-misses", "all" },
	{ "armv8_pmuv3_0/l2d_cache_refill/", UD_ARCH_UNKNOWN, "l2d_cache_refill", "l2-miss", "all" },
	{ "armv8_cortex_a76/cpu_cycles:k/", UD_ARCH_UNKNOWN, "cycles:k", "cycles", "kernel" },
	{ "cpu_core/cycles:u", UD_ARCH_UNKNOWN, "cycles:u", "cycles", "user" },
	/* terms and raw codes, decoded by the host's architecture */
	{ "cpu/event=0xc9,umask=0/k", UD_ARCH_X86_AMD, "cpu/event=0xc9,umask=0/k", "return-mispredicts", "kernel" },
	{ "cpu/event=0xc9,umask=0/k", UD_ARCH_UNKNOWN, "cpu/event=0xc9,umask=0/k", "other", "kernel" },
	{ "cpu/event=0xc0,umask=0x0/u", UD_ARCH_X86, "cpu/event=0xc0,umask=0x0/u", "instructions", "user" },
	{ "r00c4", UD_ARCH_X86_INTEL, "r00c4", "branches", "all" },
	{ "r00c4", UD_ARCH_X86, "r00c4", "other", "all" },
	{ "r00c4:u", UD_ARCH_X86_INTEL, "r00c4:u", "branches", "user" },
	{ "r003c", UD_ARCH_X86_INTEL, "r003c", "cycles", "all" },
	{ "r11", UD_ARCH_ARM, "r11", "cycles", "all" },
	{ "armv8_pmuv3_0/event=0x23/", UD_ARCH_UNKNOWN, "armv8_pmuv3_0/event=0x23/", "stall-frontend", "all" },
	{ "ref-cycles", UD_ARCH_UNKNOWN, "ref-cycles", "ref-cycles", "all" },
	/* vendor names, either case */
	{ "PM_EXEC_STALL_TLBIE", UD_ARCH_UNKNOWN, "PM_EXEC_STALL_TLBIE", "stall-other", "all" },
	{ "PM_RUN_CYC", UD_ARCH_UNKNOWN, "PM_RUN_CYC", "cycles", "all" },
	{ "pm_run_inst_cmpl:u", UD_ARCH_UNKNOWN, "pm_run_inst_cmpl:u", "instructions", "user" },
	{ "TOPDOWN.SLOTS:u", UD_ARCH_UNKNOWN, "TOPDOWN.SLOTS:u", "slots", "user" },
	{ "topdown.backend_bound_slots", UD_ARCH_UNKNOWN, "topdown.backend_bound_slots", "topdown", "all" },
	{ "br_misp_retired.all_branches", UD_ARCH_UNKNOWN, "br_misp_retired.all_branches", "branch-misses", "all" },
	{ "ex_ret_near_ret_mispred:k", UD_ARCH_UNKNOWN, "ex_ret_near_ret_mispred:k", "return-mispredicts", "kernel" },
	{ "INST_RETIRED:ANY_P", UD_ARCH_UNKNOWN, "INST_RETIRED:ANY_P", "other", "all" },
	{ "slots", UD_ARCH_UNKNOWN, "slots", "slots", "all" },
	{ "topdown-be-bound:k", UD_ARCH_UNKNOWN, "topdown-be-bound:k", "topdown", "kernel" },
	{ "stalled-cycles-backend:u", UD_ARCH_UNKNOWN, "stalled-cycles-backend:u", "stall-backend", "user" },
	{ "L1-icache-load-misses", UD_ARCH_UNKNOWN, "L1-icache-load-misses", "l1i-miss", "all" },
	{ "iTLB-load-misses", UD_ARCH_UNKNOWN, "iTLB-load-misses", "itlb-miss", "all" },
	{ "L1-dcache-prefetches", UD_ARCH_UNKNOWN, "L1-dcache-prefetches", "prefetch", "all" },
	/* software, tracepoints, uncore */
	{ "sched:sched_switch", UD_ARCH_UNKNOWN, "sched:sched_switch", "software", "all" },
	{ "syscalls:sys_enter_write", UD_ARCH_UNKNOWN, "syscalls:sys_enter_write", "software", "all" },
	{ "duration_time", UD_ARCH_UNKNOWN, "duration_time", "software", "all" },
	{ "msr/tsc/", UD_ARCH_UNKNOWN, "tsc", "uncore", "all" },
	{ "power/energy-pkg/", UD_ARCH_UNKNOWN, "energy-pkg", "uncore", "all" },
	{ "uncore_imc/cas_count_read/", UD_ARCH_UNKNOWN, "cas_count_read", "uncore", "all" },
	{ "context-switches", UD_ARCH_UNKNOWN, "context-switches", "software", "all" },
	{ "cs", UD_ARCH_UNKNOWN, "context-switches", "software", "all" },
	/* unknown names stay themselves */
	{ "some_vendor_event", UD_ARCH_UNKNOWN, "some_vendor_event", "other", "all" },
	{ "cycles:h", UD_ARCH_UNKNOWN, "cycles:h", "cycles", "hypervisor" },
};

START_TEST(test_spellings)
{
	const struct spelling *s = &spellings[_i];
	struct ud_event_id id;
	char name[256];

	ud_event_id_parse(s->printed, &id);
	ud_event_id_classify(&id, s->arch);
	ud_event_id_name(&id, false, name, sizeof(name));
	ck_assert_msg(strcmp(name, s->name) == 0, "%s: name '%s', expected '%s'", s->printed, name, s->name);
	ck_assert_msg(strcmp(ud_counter_class_name(id.cls), s->cls) == 0, "%s: class %s, expected %s", s->printed,
		      ud_counter_class_name(id.cls), s->cls);
	ck_assert_msg(strcmp(ud_counting_name(id.mode), s->mode) == 0, "%s: mode %s, expected %s", s->printed,
		      ud_counting_name(id.mode), s->mode);
	/* a class is never given without saying where it comes from */
	ck_assert(id.cls == UD_CLASS_OTHER || id.class_source != NULL);
}
END_TEST

/* A hybrid host's counters keep their core PMU in the name (ud_event_id_name with_pmu). */
START_TEST(test_hybrid_name_keeps_pmu)
{
	struct ud_event_id id;
	char name[256];

	ud_event_id_parse("cpu_atom/cycles/u", &id);
	ud_event_id_name(&id, true, name, sizeof(name));
	ck_assert_str_eq(name, "cpu_atom/cycles:u");
	ud_event_id_parse(name, &id);
	ck_assert_str_eq(id.pmu, "cpu_atom");
	ck_assert_str_eq(id.event, "cycles");
	ck_assert(id.generic);
}
END_TEST

/* Every class and mode name reads back; no two share a name. */
START_TEST(test_names_round_trip)
{
	for (int c = 0; c < UD_CLASS_COUNT; c++) {
		enum ud_counter_class back;

		ck_assert_int_eq(ud_counter_class_from_name(ud_counter_class_name((enum ud_counter_class)c), &back), 0);
		ck_assert_int_eq(back, c);
	}
	for (int m = 0; m < UD_COUNTING_COUNT; m++) {
		enum ud_counting back;

		ck_assert_int_eq(ud_counting_from_name(ud_counting_name((enum ud_counting)m), &back), 0);
		ck_assert_int_eq(back, m);
	}
	ck_assert_int_eq(ud_event_arch_of("AuthenticAMD", NULL), UD_ARCH_X86_AMD);
	ck_assert_int_eq(ud_event_arch_of(NULL, "ppc64le"), UD_ARCH_POWER);
	ck_assert_int_eq(ud_event_arch_of(NULL, "aarch64"), UD_ARCH_ARM);
	ck_assert_int_eq(ud_event_arch_of(NULL, NULL), UD_ARCH_UNKNOWN);
}
END_TEST

/* Hostile spellings: long, empty, odd bytes; parsing never overruns and keeps a name. */
START_TEST(test_hostile_spellings)
{
	static const char *const odd[] = { "", "/", "//", "a//b", "cpu/", "cpu//u", "r", "rz", "r00000000000000000000c4",
					   ":", "::", "x:", "{", "}", "{}", "cpu/event=/", "cpu/event=0xzz,umask=-1/",
					   "\xff\xfe", "cycles:uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu" };
	char longname[600];
	struct ud_event_id id;
	char name[256];

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		ud_event_id_parse(odd[i], &id);
		ud_event_id_classify(&id, UD_ARCH_X86);
		ud_event_id_name(&id, true, name, sizeof(name));
	}
	ud_event_id_parse(longname, &id);
	ud_event_id_classify(&id, UD_ARCH_UNKNOWN);
	ck_assert_int_eq(id.cls, UD_CLASS_OTHER);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("event_id");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_spellings, 0, (int)(sizeof(spellings) / sizeof(spellings[0])));
	tcase_add_test(tc, test_hybrid_name_keeps_pmu);
	tcase_add_test(tc, test_names_round_trip);
	tcase_add_test(tc, test_hostile_spellings);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
