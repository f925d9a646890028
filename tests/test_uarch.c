/* The shipped event tables: parsing, detection from cpuinfo, bad tables. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "uarch.h"

#define EVENTS_DIR UD_EVENTS_DIR

static struct ud_uarch_db db;

static void load(void)
{
	struct ud_err err;

	ck_assert_msg(ud_uarch_db_load(EVENTS_DIR, &db, &err) == 0, "%s", err.msg);
}

static void unload(void)
{
	ud_uarch_db_free(&db);
}

static const char *detect_text(const char *text)
{
	char *dir = make_tempdir(), path[4200];
	const struct ud_uarch *u;
	struct ud_err err;

	snprintf(path, sizeof(path), "%s/cpuinfo", dir);
	write_text(path, text);
	u = ud_uarch_detect_file(&db, path, &err);
	ck_assert_msg(u != NULL, "%s", err.msg);
	rm_tree(dir);
	free(dir);
	return u->name;
}

static const char *x86(const char *vendor, int family, int model)
{
	static char text[512];

	snprintf(text, sizeof(text),
		 "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: test\n",
		 vendor, family, model);
	return text;
}

START_TEST(test_every_table_loads)
{
	static const char *const want[] = { "alderlake", "generic", "granite-rapids", "icelake-sp", "neoverse-n1",
					    "neoverse-n2", "neoverse-v1", "neoverse-v2", "sapphire-rapids", "skylake-sp",
					    "zen1", "zen2", "zen3", "zen4", "zen5" };

	ck_assert_uint_eq(db.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < db.n; i++) {
		const struct ud_uarch *u = ud_uarch_find(&db, want[i]);
		bool intel = strcmp(u ? u->vendor : "", "GenuineIntel") == 0;

		ck_assert_ptr_nonnull(u);
		ck_assert_msg(u->title[0], "%s has no title", want[i]);
		if (strcmp(want[i], "generic") == 0)
			continue;
		/* the hybrid part lists each event for both core types */
		ck_assert_uint_eq(u->nevents, strcmp(want[i], "alderlake") == 0 ? 16 : 8);
		/* Intel publishes no constant penalties (events/README.md): its tables give none */
		ck_assert_int_eq(isnan(u->penalty_branch) && isnan(u->penalty_l1d), intel);
		if (!intel) {
			ck_assert_int_eq(u->counters_programmable, 6);
			ck_assert_msg(u->penalty_branch > 0 && u->penalty_branch_source[0], "%s penalty", want[i]);
			ck_assert_msg(u->penalty_l1d > 0 && u->penalty_l1d_source[0], "%s penalty", want[i]);
		}
		for (size_t e = 0; e < u->nevents; e++)
			ck_assert_msg(u->events[e].unavailable || u->events[e].source[0], "%s %s has no source",
				      want[i], u->events[e].generic);
	}
}
END_TEST

START_TEST(test_detect_fixtures)
{
	struct ud_err err;

	ck_assert_str_eq(ud_uarch_detect_file(&db, UD_TEST_DATA "/cpuinfo/aws-m6g-graviton2.txt", &err)->name,
			 "neoverse-n1");
	ck_assert_str_eq(ud_uarch_detect_file(&db, UD_TEST_DATA "/cpuinfo/aws-m7g-graviton3.txt", &err)->name,
			 "neoverse-v1");
	ck_assert_str_eq(ud_uarch_detect_file(&db, UD_TEST_DATA "/cpuinfo/kvm-amd-epyc-family25-model17.txt",
					      &err)->name, "zen4");
	ck_assert_str_eq(ud_uarch_detect_file(&db, UD_TEST_DATA "/cpuinfo/archspec-xeon-8480-sapphire-rapids.txt",
					      &err)->name, "sapphire-rapids");
	ck_assert_str_eq(ud_uarch_detect_file(&db, UD_TEST_DATA "/cpuinfo/github-actions-azure-xeon-8370c-icelake-sp.txt",
					      &err)->name, "icelake-sp");
}
END_TEST

START_TEST(test_detect_amd_generations)
{
	ck_assert_str_eq(detect_text(x86("AuthenticAMD", 23, 1)), "zen1");   /* Naples */
	ck_assert_str_eq(detect_text(x86("AuthenticAMD", 23, 49)), "zen2");  /* Rome, 0x31 */
	ck_assert_str_eq(detect_text(x86("AuthenticAMD", 25, 1)), "zen3");   /* Milan */
	ck_assert_str_eq(detect_text(x86("AuthenticAMD", 25, 33)), "zen3");  /* Vermeer, 0x21 */
	ck_assert_str_eq(detect_text(x86("AuthenticAMD", 25, 17)), "zen4");  /* Genoa, 0x11 */
	ck_assert_str_eq(detect_text(x86("AuthenticAMD", 25, 160)), "zen4"); /* Bergamo, 0xa0 */
	ck_assert_str_eq(detect_text(x86("AuthenticAMD", 26, 2)), "zen5");   /* Turin */
	ck_assert_str_eq(detect_text(x86("AuthenticAMD", 26, 17)), "zen5");  /* Turin dense, 0x11 */
}
END_TEST

START_TEST(test_detect_intel_parts)
{
	/* perf's mapfile (tools/perf/pmu-events/arch/x86/mapfile.csv) models, in decimal as /proc/cpuinfo prints them */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 85)), "skylake-sp");       /* 0x55, Cascade Lake too */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 106)), "icelake-sp");      /* 0x6a */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 108)), "icelake-sp");      /* 0x6c, Ice Lake-D */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 143)), "sapphire-rapids"); /* 0x8f */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 207)), "sapphire-rapids"); /* 0xcf, Emerald Rapids */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 173)), "granite-rapids");  /* 0xad */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 174)), "granite-rapids");  /* 0xae */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 151)), "alderlake");       /* 0x97 */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 154)), "alderlake");       /* 0x9a */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 183)), "alderlake");       /* 0xb7, Raptor Lake */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 186)), "alderlake");       /* 0xba */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 191)), "alderlake");       /* 0xbf */
}
END_TEST

START_TEST(test_others_get_generic)
{
	/* Intel family 6 model 167 (Rocket Lake, this VM's): no table */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 6, 167)), "generic");
	/* Skylake-SP's model number in another family is not Skylake-SP */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 15, 85)), "generic");
	/* Intel with AMD's family number: the vendor decides */
	ck_assert_str_eq(detect_text(x86("GenuineIntel", 25, 17)), "generic");
	ck_assert_str_eq(detect_text(x86("HygonGenuine", 24, 1)), "generic");
	ck_assert_str_eq(detect_text(x86("AuthenticAMD", 21, 2)), "generic"); /* Bulldozer */
	/* an Arm core with no table: Cortex-A72 */
	ck_assert_str_eq(detect_text("processor : 0\nCPU implementer : 0x41\nCPU part : 0xd08\n"), "generic");
	/* another implementer with N1's part number is not an N1 */
	ck_assert_str_eq(detect_text("processor : 0\nCPU implementer : 0x51\nCPU part : 0xd0c\n"), "generic");
}
END_TEST

START_TEST(test_semantics_differ_between_cores)
{
	/* Retired on both once the tables pick the retired Arm event; the kernel's generic differs */
	const struct ud_uarch_event *n1 = ud_uarch_event(ud_uarch_find(&db, "neoverse-n1"), "branch-misses");
	const struct ud_uarch_event *z4 = ud_uarch_event(ud_uarch_find(&db, "zen4"), "branch-misses");
	const struct ud_uarch_event *z4fe = ud_uarch_event(ud_uarch_find(&db, "zen4"), "stalled-cycles-backend");

	ck_assert_str_eq(n1->semantics, "retired");
	ck_assert_uint_eq(n1->code, 0x22);
	ck_assert_str_eq(z4->semantics, "retired");
	ck_assert(z4fe->unavailable);
	ck_assert_str_eq(ud_uarch_event(ud_uarch_find(&db, "zen4"), "L1-dcache-loads")->semantics, "speculative");
	ck_assert_ptr_null(ud_uarch_event(ud_uarch_find(&db, "generic"), "cycles"));
}
END_TEST

static void expect_table_error(const char *text, const char *want_line, const char *want)
{
	char *dir = make_tempdir(), path[4200], expect[4400];
	struct ud_uarch u;
	struct ud_err err;

	snprintf(path, sizeof(path), "%s/broken", dir);
	write_text(path, text);
	ck_assert_int_eq(ud_uarch_parse_file(path, &u, &err), -1);
	snprintf(expect, sizeof(expect), "%s%s%s", path, want_line, want);
	ck_assert_msg(strstr(err.msg, expect) != NULL, "'%s' lacks '%s'", err.msg, expect);
	rm_tree(dir);
	free(dir);
}

START_TEST(test_malformed_tables)
{
	const char *head = "uarch x\ndetect none\ncounters programmable=4\n";
	char text[1024];

	expect_table_error("uarch x\nfrobnicate 3\n", ":2: ", "unknown directive: frobnicate");
	snprintf(text, sizeof(text), "%sevent cycles vendor=X code=0x76 semantics=sometimes source=s\n", head);
	expect_table_error(text, ":4: ", "semantics must be retired, speculative or cycles");
	snprintf(text, sizeof(text), "%sevent cycles vendor=X semantics=cycles source=s\n", head);
	expect_table_error(text, ":4: ", "event needs vendor, code, semantics and source");
	snprintf(text, sizeof(text), "%sevent cycles vendor=X code=0x1000 semantics=cycles source=s\n", head);
	expect_table_error(text, ":4: ", "event code above 0xfff");
	snprintf(text, sizeof(text), "%sevent cycles vendor=\"X code=1\n", head);
	expect_table_error(text, ":4: ", "unterminated quoted value");
	snprintf(text, sizeof(text), "%sevent cycles unavailable\n", head);
	expect_table_error(text, ":4: ", "an unavailable event needs a reason");
	snprintf(text, sizeof(text), "%sevent cycles unavailable reason=r\nevent cycles unavailable reason=r\n", head);
	expect_table_error(text, ":5: ", "event listed twice");
	expect_table_error("uarch x\ndetect x86 vendor=AuthenticAMD family=25\ncounters programmable=6\n", ":2: ",
			   "detect x86 needs vendor, family and models");
	expect_table_error("uarch x\ndetect x86 vendor=AuthenticAMD family=25 models=0x20-0x10\n", ":2: ",
			   "model range ends before it starts");
	expect_table_error("uarch x\ncounters programmable=6\n", ": ", "a table needs uarch, detect and counters");
	expect_table_error("uarch x\ndetect none\ncounters programmable=0\n", ":3: ", "counters needs programmable=N with N >= 1");
}
END_TEST

START_TEST(test_db_errors)
{
	char *dir = make_tempdir(), path[4200];
	struct ud_uarch_db other;
	struct ud_err err;

	ck_assert_int_eq(ud_uarch_db_load("/nonexistent/events", &other, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/events: cannot read the event tables"));
	snprintf(path, sizeof(path), "%s/zen9", dir);
	write_text(path, "uarch zen9\ndetect none\ncounters programmable=6\n");
	ck_assert_int_eq(ud_uarch_db_load(dir, &other, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no \"generic\" table"));
	snprintf(path, sizeof(path), "%s/generic", dir);
	write_text(path, "uarch generic\ndetect none\ncounters programmable=4\nbogus\n");
	ck_assert_int_eq(ud_uarch_db_load(dir, &other, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/generic:4: unknown directive: bogus"));
	rm_tree(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("uarch");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, load, unload);
	tcase_add_test(tc, test_every_table_loads);
	tcase_add_test(tc, test_detect_fixtures);
	tcase_add_test(tc, test_detect_amd_generations);
	tcase_add_test(tc, test_detect_intel_parts);
	tcase_add_test(tc, test_others_get_generic);
	tcase_add_test(tc, test_semantics_differ_between_cores);
	tcase_add_test(tc, test_malformed_tables);
	tcase_add_test(tc, test_db_errors);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
