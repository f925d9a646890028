/*
 * The tables against their sources: every AMD and Intel entry libpfm4 can
 * encode must encode to the table's code and unit mask (LIBPFM_FORCE_PMU
 * makes libpfm4 act as if on that core), every top-down event with a
 * libpfm4 spelling to the table's whole config (counter mask and edge
 * too), and every Arm entry must carry the architectural common-event
 * number of its event.  Then resolution: libpfm4 where it knows the PMU,
 * the raw code where it does not, the kernel's generic event where the
 * table is silent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's perf_event.h first: libpfm4's copy then steps aside. */
#include "events.h"
#include <perfmon/pfmlib_perf_event.h>

#include "event_id.h"
#include "profile.h"
#include "testutil.h"
#include "topdown_method.h"
#include "uarch.h"

static struct ud_uarch_db db;

static void load(void)
{
	struct ud_err err;

	ck_assert_msg(ud_uarch_db_load(UD_EVENTS_DIR, &db, &err) == 0, "%s", err.msg);
}

static void unload(void)
{
	ud_uarch_db_free(&db);
	ud_events_cleanup();
	unsetenv("LIBPFM_FORCE_PMU");
}

static void force_pmu(const char *pmu)
{
	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	ud_events_cleanup(); /* the next resolution re-initialises libpfm4 */
}

/* libpfm4's config for name on pmu (already forced), event fields only. */
static unsigned long long pfm_config(const char *pmu, const char *event, const char *table)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr attr;
	char name[256];

	memset(&arg, 0, sizeof(arg));
	memset(&attr, 0, sizeof(attr));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	snprintf(name, sizeof(name), "%s::%s", pmu, event);
	ck_assert_msg(pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg) == PFM_SUCCESS,
		      "%s: libpfm4 cannot encode %s", table, name);
	return attr.config;
}

/* The top-down events that carry libpfm4's spelling: the same config, bit for bit; how many were checked. */
static int check_topdown_events(const struct ud_uarch *u)
{
	int checked = 0;

	for (size_t m = 0; m < u->ntopdown; m++) {
		for (size_t i = 0; i < u->topdown[m].nevents; i++) {
			const struct ud_td_event *e = &u->topdown[m].events[i];
			unsigned long long want;

			if (!e->libpfm4[0])
				continue;
			want = pfm_config(u->libpfm4_pmu, e->libpfm4, u->name);
			ck_assert_msg(want == ud_td_event_config(u, e), "%s: %s: table 0x%llx, libpfm4 encodes %s as 0x%llx",
				      u->name, e->name, (unsigned long long)ud_td_event_config(u, e), e->libpfm4, want);
			checked++;
		}
	}
	return checked;
}

START_TEST(test_x86_entries_match_libpfm4)
{
	int checked_tables = 0, topdown_checked = 0;

	for (size_t t = 0; t < db.n; t++) {
		const struct ud_uarch *u = &db.tables[t];
		int checked = 0;

		if (u->detect != UD_DETECT_X86)
			continue;
		if (!u->libpfm4_pmu[0]) {
			printf("tables: %s: libpfm4 has no PMU for it; its codes are not cross-checked\n", u->name);
			continue;
		}
		force_pmu(u->libpfm4_pmu);
		ck_assert_msg(ud_libpfm4_pmu_present(u->libpfm4_pmu), "libpfm4 does not know %s", u->libpfm4_pmu);
		for (size_t i = 0; i < u->nevents; i++) {
			const struct ud_uarch_event *e = &u->events[i];
			unsigned long long config, code, umask;

			if (e->unavailable || !e->libpfm4)
				continue;
			config = pfm_config(u->libpfm4_pmu, e->vendor, u->name);
			code = (config & 0xff) | ((config >> 24) & 0xf00);
			umask = (config >> 8) & 0xff;
			ck_assert_msg(code == e->code && umask == (unsigned long long)(e->umask < 0 ? 0 : e->umask),
				      "%s: %s: table says 0x%x/0x%02x, libpfm4 encodes %s as 0x%llx/0x%02llx", u->name,
				      e->generic, e->code, e->umask, e->vendor, code, umask);
			checked++;
		}
		ck_assert_msg(checked >= 5, "%s: only %d entries checked", u->name, checked);
		topdown_checked += check_topdown_events(u);
		checked_tables++;
	}
	ck_assert_int_eq(checked_tables, 7); /* zen1-4, skylake-sp, icelake-sp, sapphire-rapids */
	/* zen1 3, zen2 2, zen3 2, zen4 12, skylake-sp 5, icelake-sp 3, sapphire-rapids 2 */
	ck_assert_int_eq(topdown_checked, 29);
}
END_TEST

START_TEST(test_arm_entries_use_architectural_numbers)
{
	/* ARM DDI 0487, "Common event numbers" */
	static const struct {
		const char *name;
		unsigned code;
	} arch[] = {
		{ "CPU_CYCLES", 0x11 }, { "INST_RETIRED", 0x08 }, { "BR_RETIRED", 0x21 },
		{ "BR_MIS_PRED_RETIRED", 0x22 }, { "BR_MIS_PRED", 0x10 }, { "BR_PRED", 0x12 },
		{ "L1D_CACHE", 0x04 }, { "L1D_CACHE_REFILL", 0x03 }, { "L1D_CACHE_RD", 0x40 },
		{ "L1D_CACHE_REFILL_RD", 0x42 }, { "STALL_FRONTEND", 0x23 }, { "STALL_BACKEND", 0x24 },
		{ "INST_SPEC", 0x1b }, { "OP_RETIRED", 0x3a }, { "OP_SPEC", 0x3b }, { "STALL_SLOT_BACKEND", 0x3d },
		{ "STALL_SLOT_FRONTEND", 0x3e }, { "STALL_SLOT", 0x3f },
	};
	int tables = 0;

	for (size_t t = 0; t < db.n; t++) {
		const struct ud_uarch *u = &db.tables[t];

		if (u->detect != UD_DETECT_ARM)
			continue;
		tables++;
		for (size_t i = 0; i < u->nevents; i++) {
			const struct ud_uarch_event *e = &u->events[i];
			int found = 0;

			for (size_t a = 0; a < sizeof(arch) / sizeof(arch[0]) && !found; a++) {
				if (strcmp(arch[a].name, e->vendor) != 0)
					continue;
				ck_assert_msg(arch[a].code == e->code, "%s: %s: 0x%x, architecturally 0x%x", u->name,
					      e->vendor, e->code, arch[a].code);
				found = 1;
			}
			ck_assert_msg(found, "%s: %s is not an architectural common event", u->name, e->vendor);
			ck_assert_int_eq(e->umask, -1);
		}
		for (size_t m = 0; m < u->ntopdown; m++) {
			for (size_t i = 0; i < u->topdown[m].nevents; i++) {
				const struct ud_td_event *e = &u->topdown[m].events[i];
				int found = 0;

				for (size_t a = 0; a < sizeof(arch) / sizeof(arch[0]) && !found; a++)
					found = strcmp(arch[a].name, e->name) == 0 && arch[a].code == e->code;
				ck_assert_msg(found, "%s: top-down %s 0x%x is not that architectural event", u->name,
					      e->name, e->code);
			}
		}
	}
	ck_assert_int_eq(tables, 4);
}
END_TEST

START_TEST(test_resolution_paths)
{
	const struct ud_uarch *zen4 = ud_uarch_find(&db, "zen4"), *n1 = ud_uarch_find(&db, "neoverse-n1");
	struct ud_event ev;

	/*
	 * libpfm4 does not detect this PMU here: the raw code, same config.
	 * (First: libpfm4 keeps a PMU it once detected active after pfm_terminate.)
	 */
	force_pmu("amd64_fam17h_zen2");
	ud_event_resolve_for(zen4, "L1-dcache-load-misses", &ev);
	ck_assert_str_eq(ev.opened_as, "raw");
	ck_assert_uint_eq(ev.attr.config, 0xc860);

	/* libpfm4 knows and detects the PMU: its encoding */
	force_pmu("amd64_fam19h_zen4");
	ud_event_resolve_for(zen4, "branch-misses", &ev);
	ck_assert(ev.resolved);
	ck_assert_str_eq(ev.opened_as, "libpfm4");
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_RAW);
	ck_assert_uint_eq(ev.attr.config, 0xc3);
	ck_assert_str_eq(ev.vendor_event, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED");
	ck_assert_str_eq(ev.semantics, "retired");
	ck_assert_str_eq(ev.name, "branch-misses");
	ud_event_resolve_for(zen4, "L1-dcache-load-misses", &ev);
	ck_assert_uint_eq(ev.attr.config, 0xc860);

	/* an entry libpfm4 does not name: the raw code */
	ud_event_resolve_for(zen4, "L1-dcache-loads", &ev);
	ck_assert_str_eq(ev.opened_as, "raw");
	ck_assert_uint_eq(ev.attr.config, 0x40);

	/* Arm: the raw event number, and the retired mispredict event, not the kernel's 0x10 */
	ud_event_resolve_for(n1, "branch-misses", &ev);
	ck_assert_str_eq(ev.opened_as, "raw");
	ck_assert_uint_eq(ev.attr.config, 0x22);

	/* the table says the core has none */
	ud_event_resolve_for(zen4, "stalled-cycles-backend", &ev);
	ck_assert(!ev.resolved);
	ck_assert_ptr_nonnull(strstr(ev.reason, "not available on zen4"));

	/* the generic table is silent: the kernel's generic event */
	ud_event_resolve_for(ud_uarch_find(&db, "generic"), "cycles", &ev);
	ck_assert_str_eq(ev.opened_as, "generic");
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_HARDWARE);
	ck_assert_str_eq(ev.vendor_event, "");

	/* software events never go through the table */
	ud_event_resolve_for(zen4, "task-clock", &ev);
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_SOFTWARE);
}
END_TEST

/*
 * What only the host's table knows (made-up counters): on Zen 4 the raw
 * code and the terms of PMCx060 umask 0xc8 are its L1-dcache-load-misses,
 * in the mode they were counted, and libpfm4's name of PMCx0C3 its
 * branch-misses; on Neoverse N1 none of them is anything; a class a name
 * already gave stays, and an unlisted code stays other.
 */
START_TEST(test_table_classes_raw_and_vendor_names)
{
	const struct ud_uarch *zen4 = ud_uarch_find(&db, "zen4"), *n1 = ud_uarch_find(&db, "neoverse-n1");
	static const char *const names[] = { "r0c860", "cpu/event=0x60,umask=0xc8/k",
					     "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED:u", "cycles", "r1234" };
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "w");

	ck_assert_ptr_nonnull(zen4);
	ck_assert_ptr_nonnull(n1);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct ud_counter *c = ud_workload_add_counter(w, names[i]);
		enum ud_counter_class cls;
		enum ud_counting mode;

		ud_event_classify_name(names[i], UD_ARCH_UNKNOWN, &cls, &mode);
		ud_counter_set_identity(c, cls, mode);
		ck_assert_int_eq(c->cls, i == 3 ? UD_CLASS_CYCLES : UD_CLASS_OTHER);
	}
	ck_assert_uint_eq(ud_uarch_classify_counters(n1, w), 0);
	ck_assert_uint_eq(ud_uarch_classify_counters(NULL, w), 0);
	ck_assert_uint_eq(ud_uarch_classify_counters(zen4, w), 3);
	ck_assert_int_eq(w->counters[0].cls, UD_CLASS_L1D_MISS);
	ck_assert_int_eq(w->counters[1].cls, UD_CLASS_L1D_MISS);
	ck_assert_int_eq(w->counters[1].mode, UD_COUNTING_KERNEL);
	ck_assert_int_eq(w->counters[2].cls, UD_CLASS_BRANCH_MISSES);
	ck_assert_int_eq(w->counters[2].mode, UD_COUNTING_USER);
	ck_assert_int_eq(w->counters[3].cls, UD_CLASS_CYCLES);
	ck_assert_int_eq(w->counters[4].cls, UD_CLASS_OTHER);
	ud_profile_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tables");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, load, unload);
	tcase_add_test(tc, test_x86_entries_match_libpfm4);
	tcase_add_test(tc, test_arm_entries_use_architectural_numbers);
	tcase_add_test(tc, test_resolution_paths);
	tcase_add_test(tc, test_table_classes_raw_and_vendor_names);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
