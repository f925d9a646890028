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

/*
 * This host's table alone (stat's start-up, issue 35) is the one detection
 * picks among them all, parsed whole, every other file read only to its
 * detect line.
 */
START_TEST(test_detected_table_alone)
{
	static const char *const files[] = { "aws-m6g-graviton2.txt", "aws-m7g-graviton3.txt",
					     "kvm-amd-epyc-family25-model17.txt", "archspec-xeon-8480-sapphire-rapids.txt",
					     "pytorch-cpuinfo-raspberrypi2.txt" };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[512];
		struct ud_uarch u;
		struct ud_err err = UD_ERR_INIT;
		size_t before = ud_uarch_files_read();
		const struct ud_uarch *want;

		snprintf(path, sizeof(path), "%s/cpuinfo/%s", UD_TEST_DATA, files[i]);
		want = ud_uarch_detect_file(&db, path, &err);
		ck_assert_msg(ud_uarch_load_detected(EVENTS_DIR, path, &u, &err) == 0, "%s", err.msg);
		ck_assert_str_eq(u.name, want->name);
		ck_assert_uint_eq(u.nevents, want->nevents);
		ck_assert_uint_eq(u.ntopdown, want->ntopdown);
		ck_assert_uint_eq(ud_uarch_files_read() - before, db.n + 1);
		ud_uarch_free(&u);
	}
}
END_TEST

/* A table that is not the host's is read to its detect line: a fault there fails as a whole load does, later not. */
START_TEST(test_detected_table_errors)
{
	char *dir = make_tempdir(), path[4200];
	struct ud_uarch u;
	struct ud_err err;

	ck_assert_int_eq(ud_uarch_load_detected("/nonexistent/events", NULL, &u, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/events: cannot read the event tables"));
	snprintf(path, sizeof(path), "%s/zen9", dir);
	write_text(path, "uarch zen9\ndetect none\ncounters programmable=6\nbogus\n");
	ck_assert_int_eq(ud_uarch_load_detected(dir, NULL, &u, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no \"generic\" table"));
	snprintf(path, sizeof(path), "%s/generic", dir);
	write_text(path, "uarch generic\ndetect none\ncounters programmable=4\n");
	ck_assert_msg(ud_uarch_load_detected(dir, NULL, &u, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(u.name, "generic");
	ck_assert_int_eq(u.counters_programmable, 4);
	ud_uarch_free(&u);
	snprintf(path, sizeof(path), "%s/zen9", dir);
	write_text(path, "uarch zen9\ndetect x86 vendor=AuthenticAMD\n");
	ck_assert_int_eq(ud_uarch_load_detected(dir, NULL, &u, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/zen9:2: detect x86 needs vendor, family and models"));
	write_text(path, "# no name\ndetect none\n");
	ck_assert_int_eq(ud_uarch_load_detected(dir, NULL, &u, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/zen9: a table needs uarch, detect and counters lines"));
	rm_tree(dir);
	free(dir);
}
END_TEST

/* The parts the README's table of tables names, by the names people call them, each to its one table. */
START_TEST(test_aliases_name_their_table)
{
	static const char *const cases[][2] = {
		{ "Naples", "zen1" }, { "Rome", "zen2" }, { "Milan", "zen3" }, { "Genoa", "zen4" },
		{ "Bergamo", "zen4" }, { "Siena", "zen4" }, { "EPYC 9004", "zen4" }, { "Turin", "zen5" },
		{ "Skylake-SP", "skylake-sp" }, { "Cascade Lake", "skylake-sp" }, { "Cooper Lake", "skylake-sp" },
		{ "Ice Lake", "icelake-sp" }, { "Ice Lake-SP", "icelake-sp" }, { "Sapphire Rapids", "sapphire-rapids" },
		{ "Emerald Rapids", "sapphire-rapids" }, { "Granite Rapids", "granite-rapids" },
		{ "Alder Lake", "alderlake" }, { "Raptor Lake", "alderlake" }, { "Graviton2", "neoverse-n1" },
		{ "Altra", "neoverse-n1" }, { "Graviton3", "neoverse-v1" }, { "Graviton4", "neoverse-v2" },
		{ "Grace", "neoverse-v2" }, { "Yitian 710", "neoverse-n2" }, { "Cobalt 100", "neoverse-n2" },
		/* without case or punctuation, and the tables' own names */
		{ "genoa", "zen4" }, { "GENOA", "zen4" }, { "cascade-lake", "skylake-sp" }, { "cascadelake", "skylake-sp" },
		{ "graviton 3", "neoverse-v1" }, { "Neoverse N1", "neoverse-n1" }, { "zen4", "zen4" }, { "ZEN-4", "zen4" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ud_core *core = (const struct ud_core *)1;
		struct ud_err err = UD_ERR_INIT;
		const struct ud_uarch *u = ud_uarch_named(&db, cases[i][0], &core, &err);

		ck_assert_msg(u && strcmp(u->name, cases[i][1]) == 0, "%s: %s, want %s (%s)", cases[i][0],
			      u ? u->name : "none", cases[i][1], err.msg);
		ck_assert_ptr_null(core);
	}
}
END_TEST

/* Every alias every table and core lists finds that table or core, and each gives an ISA. */
START_TEST(test_every_alias_resolves)
{
	size_t n = 0;

	for (size_t i = 0; i < db.n + db.ncores; i++) {
		bool is_table = i < db.n;
		const char *aliases = is_table ? db.tables[i].aliases : db.cores[i - db.n].aliases;
		const char *want = is_table ? db.tables[i].name : db.cores[i - db.n].name;
		char list[UD_UARCH_TEXT];

		ck_assert_msg(!is_table || strcmp(want, "generic") == 0 || db.tables[i].isa[0], "%s has no isa line", want);
		ck_assert_msg(!is_table || strcmp(want, "generic") == 0 || db.tables[i].aliases_source[0],
			      "%s's aliases have no source", want);
		snprintf(list, sizeof(list), "%s", aliases);
		for (char *save = NULL, *a = strtok_r(list, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
			const struct ud_core *core;
			struct ud_err err = UD_ERR_INIT;
			const struct ud_uarch *u = ud_uarch_named(&db, a, &core, &err);

			ck_assert_msg(u != NULL, "%s: %s", a, err.msg);
			ck_assert_msg(strcmp(ud_uarch_id(u, core), want) == 0, "'%s' found %s, not %s", a,
				      ud_uarch_id(u, core), want);
			n++;
		}
	}
	ck_assert_uint_gt(n, 100);
}
END_TEST

/* A core without a table: the generic table in force, the core's name, ISA and vendor recorded. */
START_TEST(test_core_without_table)
{
	static const char *const cases[][4] = {
		{ "power9", "power9", "ppc64le", "IBM" }, { "POWER10", "power10", "ppc64le", "IBM" },
		{ "Apple M1 Icestorm", "m1-icestorm", "aarch64", "Apple" }, { "firestorm", "m1-firestorm", "aarch64", "Apple" },
		{ "sifive u74", "sifive-u74", "riscv64", "SiFive" }, { "VisionFive 2", "sifive-u74", "riscv64", "SiFive" },
		{ "Cortex-A53", "cortex-a53", "aarch64", "ARM" }, { "ARM11", "arm1176", "armv6", "ARM" },
		{ "Haswell", "haswell", "x86_64", "GenuineIntel" }, { "Skylake", "skylake", "x86_64", "GenuineIntel" },
		{ "Pentium M", "pentium-m", "i686", "GenuineIntel" }, { "Piledriver", "piledriver", "x86_64", "AuthenticAMD" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ud_core *core;
		struct ud_err err = UD_ERR_INIT;
		const struct ud_uarch *u = ud_uarch_named(&db, cases[i][0], &core, &err);

		ck_assert_msg(u && strcmp(u->name, "generic") == 0, "%s: %s", cases[i][0], u ? u->name : err.msg);
		ck_assert_msg(core && strcmp(core->name, cases[i][1]) == 0, "%s: core %s", cases[i][0],
			      core ? core->name : "none");
		ck_assert_str_eq(core->isa, cases[i][2]);
		ck_assert_str_eq(core->vendor, cases[i][3]);
		ck_assert_str_eq(ud_uarch_id(u, core), cases[i][1]);
		ck_assert(core->source[0] && core->title[0]);
	}
	/* "Skylake" is the client core; "Skylake-SP" the server table */
	ck_assert_str_eq(ud_uarch_named(&db, "Skylake-SP", NULL, &(struct ud_err){ 0 })->name, "skylake-sp");
}
END_TEST

/* Neither a table nor a core: refused, with the nearest name or alias as it is spelt. */
START_TEST(test_unknown_names_suggest)
{
	static const char *const cases[][2] = {
		{ "zen44", "did you mean 'zen4'?" }, { "genao", "did you mean 'Genoa'?" },
		{ "cascadlake", "did you mean 'Cascade Lake'?" }, { "power99", "did you mean 'power9'?" },
		{ "zen99", "unknown microarchitecture 'zen99'; known: alderlake" }, { "---", "known: " },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ud_err err = UD_ERR_INIT;

		ck_assert_ptr_null(ud_uarch_named(&db, cases[i][0], NULL, &err));
		ck_assert_msg(strstr(err.msg, cases[i][1]) != NULL, "%s: %s", cases[i][0], err.msg);
		ck_assert_ptr_nonnull(strstr(err.msg, "cores without a table"));
	}
}
END_TEST

static const char *core_of_file(const char *file)
{
	char path[512];
	const struct ud_core *core;
	const struct ud_uarch *u;
	struct ud_err err;

	snprintf(path, sizeof(path), "%s/cpuinfo/%s", UD_TEST_DATA, file);
	u = ud_uarch_identify_file(&db, path, &core, &err);
	ck_assert_msg(u != NULL, "%s", err.msg);
	return ud_uarch_id(u, core);
}

static const char *core_of_text(const char *text)
{
	char *dir = make_tempdir(), path[4200];
	const struct ud_core *core;
	const struct ud_uarch *u;
	struct ud_err err;
	static char id[64];

	snprintf(path, sizeof(path), "%s/cpuinfo", dir);
	write_text(path, text);
	u = ud_uarch_identify_file(&db, path, &core, &err);
	ck_assert_msg(u != NULL, "%s", err.msg);
	snprintf(id, sizeof(id), "%s", ud_uarch_id(u, core));
	rm_tree(dir);
	free(dir);
	return id;
}

/* The real cpuinfo texts of cores without a table are recognised; those with one keep it. */
START_TEST(test_detect_cores_without_table)
{
	ck_assert_str_eq(core_of_file("archspec-rhel8-power9.txt"), "power9");
	ck_assert_str_eq(core_of_file("archspec-power10.txt"), "power10");
	ck_assert_str_eq(core_of_file("archspec-sifive-u74mc.txt"), "sifive-u74");
	ck_assert_str_eq(core_of_file("archspec-asahi-m1.txt"), "m1-icestorm");
	ck_assert_str_eq(core_of_file("pytorch-cpuinfo-raspberrypi2.txt"), "cortex-a7");
	ck_assert_str_eq(core_of_file("pytorch-cpuinfo-raspberrypi-zero.txt"), "arm1176");
	ck_assert_str_eq(core_of_file("aws-m6g-graviton2.txt"), "neoverse-n1");
	ck_assert_str_eq(core_of_file("archspec-xeon-8480-sapphire-rapids.txt"), "sapphire-rapids");
	/* family 15h: Piledriver's model 02h lies in Bulldozer's range and is Piledriver's */
	ck_assert_str_eq(core_of_text(x86("AuthenticAMD", 21, 2)), "piledriver");
	ck_assert_str_eq(core_of_text(x86("AuthenticAMD", 21, 1)), "bulldozer");
	ck_assert_str_eq(core_of_text(x86("GenuineIntel", 6, 0x3f)), "haswell");
	/* a core the list does not know stays generic */
	ck_assert_str_eq(core_of_text(x86("GenuineIntel", 6, 0x1a)), "generic");
}
END_TEST

/* cores.list is data like the tables: a malformed line or a name two entries share fails the load, named. */
START_TEST(test_cores_list_errors)
{
	char *dir = make_tempdir(), path[4200];
	struct ud_uarch_db other;
	struct ud_err err;

	snprintf(path, sizeof(path), "%s/generic", dir);
	write_text(path, "uarch generic\ndetect none\ncounters programmable=4\n");
	snprintf(path, sizeof(path), "%s/zen4", dir);
	write_text(path, "uarch zen4\ndetect none\ncounters programmable=4\naliases names=\"Genoa\" source=s\n");
	ck_assert_int_eq(ud_uarch_db_load(dir, &other, &err), 0);
	ck_assert_uint_eq(other.ncores, 0); /* no cores.list: none */
	ud_uarch_db_free(&other);
	snprintf(path, sizeof(path), "%s/cores.list", dir);
	write_text(path, "# c\ncore p9 isa=ppc64le title=T source=s\ncore x title=T source=s\n");
	ck_assert_int_eq(ud_uarch_db_load(dir, &other, &err), -1);
	ck_assert_msg(strstr(err.msg, "cores.list:3: a core needs title, isa and source: x") != NULL, "%s", err.msg);
	write_text(path, "core p9 isa=ppc64le title=T source=s midr=0x41\n");
	ck_assert_int_eq(ud_uarch_db_load(dir, &other, &err), -1);
	ck_assert_msg(strstr(err.msg, "cores.list:1: midr needs IMPLEMENTER:PART") != NULL, "%s", err.msg);
	write_text(path, "core genoa-ish isa=x86_64 title=T aliases=\"GENOA\" source=s\n");
	ck_assert_int_eq(ud_uarch_db_load(dir, &other, &err), -1);
	ck_assert_msg(strstr(err.msg, "the name 'GENOA' stands for both zen4 and genoa-ish") != NULL, "%s", err.msg);
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
	tcase_add_test(tc, test_detected_table_alone);
	tcase_add_test(tc, test_detected_table_errors);
	tcase_add_test(tc, test_aliases_name_their_table);
	tcase_add_test(tc, test_every_alias_resolves);
	tcase_add_test(tc, test_core_without_table);
	tcase_add_test(tc, test_unknown_names_suggest);
	tcase_add_test(tc, test_detect_cores_without_table);
	tcase_add_test(tc, test_cores_list_errors);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
