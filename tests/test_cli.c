/* The built binary, as a user runs it: outputs, exit statuses, bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "counting.h"
#include "profile.h"
#include "testutil.h"

/*
 * The width the tests' reports are laid out at, so that the phrases they
 * match are on one line; the width of a pipe without COLUMNS (report.h's
 * UD_REPORT_WIDTH) has its own test, test_diff_fits_the_width.
 */
#define TEST_COLUMNS "100"
#define UD_PIPED_WIDTH 80

#define UD UD_BINARY

/* Occurrences of needle in hay. */
static int occurrences(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Bad input: exactly one line on stderr containing want, and the status. */
static void expect_one_line_error(char *const argv[], int status, const char *want)
{
	struct run_result r = run_capture(argv);

	ck_assert_msg(r.status == status, "exit %d, want %d; stderr: %s", r.status, status, r.err);
	ck_assert_msg(count_lines(r.err) == 1, "want one line, got: %s", r.err);
	ck_assert_msg(strstr(r.err, want) != NULL, "'%s' lacks '%s'", r.err, want);
	ck_assert_str_eq(r.out, "");
	run_free(&r);
}

START_TEST(test_stat_profile_true)
{
	char *argv[] = { UD, "stat", "--profile", "-", "--", "true", NULL };
	struct run_result r = run_capture(argv);
	json_error_t jerr;
	json_t *root, *counters, *cycles, *insns, *tc;
	char why[256];

	ck_assert_int_eq(r.status, 0);
	/* the profile on stdout (--profile -), the report on stderr as ever */
	ck_assert_ptr_nonnull(strstr(r.err, "Performance counter stats for 'true'"));
	root = json_loads(r.out, 0, &jerr);
	ck_assert_msg(root != NULL, "%s", jerr.text);
	ck_assert_str_eq(json_string_value(json_object_get(root, "schema")), "uarchdiff.profile/1");
	counters = json_object_get(json_array_get(json_object_get(root, "workloads"), 0), "counters");
	tc = json_object_get(counters, "task-clock");
	ck_assert_str_eq(json_string_value(json_object_get(tc, "status")), "counted");
	ck_assert(json_is_number(json_object_get(tc, "value")));
	cycles = json_object_get(counters, "cycles");
	insns = json_object_get(counters, "instructions");
	if (ud_pmu_probe(why, sizeof(why)) != UD_PMU_AVAILABLE) {
		/* never a made-up 0: not_supported, null value, the reason in words */
		ck_assert_str_eq(json_string_value(json_object_get(cycles, "status")), "not_supported");
		ck_assert(json_is_null(json_object_get(cycles, "value")));
		ck_assert_str_eq(json_string_value(json_object_get(insns, "status")), "not_supported");
		ck_assert_str_eq(json_string_value(json_object_get(insns, "reason")), why);
		ck_assert(json_is_null(json_object_get(json_object_get(json_array_get(json_object_get(root, "workloads"), 0),
								       "derived"), "ipc")));
	}
	{
		/* with a profile written, run's 12 defaults, plus cycles@gN / instructions@gN where more than one group is needed */
		static const char *const defaults[] = { "cycles", "instructions", "branches", "branch-misses",
							"L1-dcache-loads", "L1-dcache-load-misses",
							"stalled-cycles-frontend", "stalled-cycles-backend", "task-clock",
							"context-switches", "cpu-migrations", "page-faults" };
		const char *key;
		json_t *v;

		for (size_t i = 0; i < 12; i++)
			ck_assert_msg(json_object_get(counters, defaults[i]) != NULL, "no %s", defaults[i]);
		json_object_foreach(counters, key, v) {
			int known = 0;

			for (size_t i = 0; i < 12; i++)
				known |= strcmp(key, defaults[i]) == 0;
			ck_assert_msg(known || strncmp(key, "cycles@g", 8) == 0 || strncmp(key, "instructions@g", 14) == 0,
				      "unexpected counter %s", key);
		}
	}
	ck_assert(json_is_string(json_object_get(json_object_get(json_object_get(root, "host"), "cpu"), "uarch")));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_array_get(json_object_get(root, "workloads"),
												   0),
								       "target"),
							   "kind")),
			 "command");
	json_decref(root);
	run_free(&r);
}
END_TEST

START_TEST(test_stat_passes_output_and_status_through)
{
	char *argv[] = { UD, "stat", "-e", "task-clock", "--", "/bin/sh", "-c", "echo hello; exit 7", NULL };
	struct run_result r = run_capture(argv);

	ck_assert_int_eq(r.status, 7);
	ck_assert_str_eq(r.out, "hello\n");
	ck_assert_ptr_nonnull(strstr(r.err, "Performance counter stats for '/bin/sh -c echo hello; exit 7'"));
	run_free(&r);
}
END_TEST

START_TEST(test_stat_profile_file)
{
	char *dir = make_tempdir(), path[4200];
	char *argv[] = { UD, "stat", "-r", "2", "-o", path, "--", UD_TESTCHILD, "pages", "500", NULL };
	struct run_result r;
	json_t *root, *w;
	json_error_t jerr;

	/* -o FILE.json without -x or -j: the profile there, the report on stderr */
	snprintf(path, sizeof(path), "%s/one.json", dir);
	r = run_capture(argv);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.err, " (2 runs):"));
	root = json_load_file(path, 0, &jerr);
	ck_assert_ptr_nonnull(root);
	w = json_array_get(json_object_get(root, "workloads"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(w, "runs")), 2);
	ck_assert_uint_eq(json_array_size(json_object_get(json_object_get(w, "score"), "samples")), 2);
	ck_assert(json_number_value(json_object_get(json_object_get(json_object_get(w, "counters"), "page-faults"),
						    "value")) >= 500);
	json_decref(root);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_stat_csv)
{
	char *argv[] = { UD, "stat", "-x", ",", "-e", "task-clock,page-faults", "--", "true", NULL };
	struct run_result r = run_capture(argv);

	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(count_lines(r.err), 2);
	ck_assert_ptr_nonnull(strstr(r.err, ",msec,task-clock,"));
	ck_assert_ptr_nonnull(strstr(r.err, ",,page-faults,"));
	run_free(&r);
}
END_TEST

/* What the host cannot count is not refused up front: a known event is listed either way, and the run goes on. */
START_TEST(test_stat_host_refusal_goes_on)
{
	char *argv[] = { UD, "stat", "-x", ",", "-e", "task-clock,cycles", "--", "true", NULL };
	struct run_result r = run_capture(argv);

	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.err, ",msec,task-clock,"));
	ck_assert_ptr_nonnull(strstr(r.err, ",,cycles,"));
	run_free(&r);
}
END_TEST

START_TEST(test_stat_bad_input)
{
	char *empty[] = { UD, "stat", "-e", "", "--", "true", NULL };
	char *nocmd[] = { UD, "stat", "-e", "task-clock", NULL };
	char *missing[] = { UD, "stat", "--", "/nonexistent/cmd", NULL };
	char *over[] = { UD, "stat", "-r", "1001", "--", "true", NULL };
	char *both[] = { UD, "stat", "-x", ",", "--json", "--", "true", NULL };
	char *unwritable[] = { UD, "stat", "-o", "/nonexistent-dir/out.txt", "--", "true", NULL };

	/* perf's statuses: 129 for bad usage, 255 for a command or an output that cannot be had */
	expect_one_line_error(empty, 129, "-e needs a non-empty argument");
	expect_one_line_error(nocmd, 129, "no command given");
	expect_one_line_error(missing, 255, "/nonexistent/cmd: command not found");
	expect_one_line_error(over, 129, "uarchdiff stat: -r needs a whole number from 0 to 1000, not '1001'");
	expect_one_line_error(both, 129, "choose one");
	expect_one_line_error(unwritable, 255, "/nonexistent-dir/out.txt: cannot write");
}
END_TEST

START_TEST(test_stat_unwritable_output_runs_nothing)
{
	char *dir = make_tempdir(), marker[4200], script[4400];
	char *argv[] = { UD, "stat", "-o", "/nonexistent-dir/out.txt", "--", "/bin/sh", "-c", script, NULL };
	struct run_result r;
	struct stat st;

	snprintf(marker, sizeof(marker), "%s/ran", dir);
	snprintf(script, sizeof(script), "touch %s", marker);
	r = run_capture(argv);
	ck_assert_int_eq(r.status, 255);
	ck_assert_int_ne(stat(marker, &st), 0);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_stat_exact_runs_once_per_group)
{
	char *dir = make_tempdir(), out[4200], log[4200], script[4400], *text;
	char *argv[] = { UD, "stat", "--exact", "-r", "2", "-o", out,
			 "-e", "task-clock,cycles,instructions,branches:u,branches:k,branch-misses:u,"
			       "branch-misses:k,L1-dcache-loads:u,L1-dcache-loads:k,L1-dcache-load-misses:u,"
			       "L1-dcache-load-misses:k,cache-references:u,cache-misses:u",
			 "--", "/bin/sh", "-c", script, NULL };
	struct run_result r;
	json_t *root, *counters, *v;
	const char *key;
	long groups = 0;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	snprintf(log, sizeof(log), "%s/runs", dir);
	snprintf(script, sizeof(script), "echo run >> %s", log);
	r = run_capture(argv);
	ck_assert_msg(r.status == 0, "%s", r.err);
	root = json_load_file(out, 0, NULL);
	ck_assert_ptr_nonnull(root);
	counters = json_object_get(json_array_get(json_object_get(root, "workloads"), 0), "counters");
	json_object_foreach(counters, key, v)
		if (json_integer_value(json_object_get(v, "group")) + 1 > groups)
			groups = (long)json_integer_value(json_object_get(v, "group")) + 1;
	/*
	 * 10 programmable events never fit one group: no table's core has more
	 * than 8 programmable counters (Sapphire Rapids without SMT fits 7 events).
	 */
	ck_assert_int_ge(groups, 2);
	text = read_text(log);
	ck_assert_int_eq(count_lines(text), 2 * groups);
	free(text);
	json_decref(root);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_host)
{
	char *json[] = { UD, "host", "--json", NULL };
	char *arm[] = { UD, "host", "--json", "--cpuinfo", UD_TEST_DATA "/cpuinfo/aws-m6g-graviton2.txt", NULL };
	char *text[] = { UD, "host", NULL };
	char *bad[] = { UD, "host", "--cpuinfo", "/nonexistent/cpuinfo", NULL };
	struct run_result r = run_capture(json);
	json_t *root;

	ck_assert_int_eq(r.status, 0);
	root = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(root);
	ck_assert(json_is_string(json_object_get(root, "kernel")));
	ck_assert(json_is_string(json_object_get(root, "pmu")));
	json_decref(root);
	run_free(&r);

	r = run_capture(arm);
	root = json_loads(r.out, 0, NULL);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(root, "cpu"), "midr_part")), 0xd0c);
	json_decref(root);
	run_free(&r);

	r = run_capture(text);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "vulnerabilities:"));
	run_free(&r);

	expect_one_line_error(bad, 2, "/nonexistent/cpuinfo");
}
END_TEST

static char *host_uarch(const char *cpuinfo)
{
	char *argv[] = { UD, "host", "--json", "--cpuinfo", (char *)cpuinfo, NULL };
	struct run_result r = run_capture(argv);
	json_t *root = json_loads(r.out, 0, NULL);
	char *u;

	ck_assert_msg(root != NULL, "%s", r.err);
	u = strdup(json_string_value(json_object_get(json_object_get(root, "cpu"), "uarch")));
	json_decref(root);
	run_free(&r);
	return u;
}

START_TEST(test_host_detects_uarch)
{
	static const struct {
		const char *file, *uarch;
	} cases[] = {
		{ UD_TEST_DATA "/cpuinfo/aws-m6g-graviton2.txt", "neoverse-n1" },
		{ UD_TEST_DATA "/cpuinfo/aws-m7g-graviton3.txt", "neoverse-v1" },
		{ UD_TEST_DATA "/cpuinfo/kvm-amd-epyc-family25-model17.txt", "zen4" },
		{ UD_TEST_DATA "/cpuinfo/archspec-xeon-8480-sapphire-rapids.txt", "sapphire-rapids" },
		{ UD_TEST_DATA "/cpuinfo/github-actions-azure-xeon-8370c-icelake-sp.txt", "icelake-sp" },
		/* cores without a table: their own name, not "generic" (issue 32) */
		{ UD_TEST_DATA "/cpuinfo/archspec-rhel8-power9.txt", "power9" },
		{ UD_TEST_DATA "/cpuinfo/archspec-sifive-u74mc.txt", "sifive-u74" },
		{ UD_TEST_DATA "/cpuinfo/pytorch-cpuinfo-raspberrypi-zero.txt", "arm1176" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *u = host_uarch(cases[i].file);

		ck_assert_str_eq(u, cases[i].uarch);
		free(u);
	}
}
END_TEST

/* SPEC §5.2: the method, level, slots and formulas in force, with their raw events and sources */
static void check_zen4_topdown(const json_t *td)
{
	const json_t *ev = json_array_get(json_object_get(td, "events"), 2), *f;

	ck_assert_str_eq(json_string_value(json_object_get(td, "method")), "slots");
	ck_assert_int_eq(json_integer_value(json_object_get(td, "level")), 2);
	ck_assert_double_eq(json_number_value(json_object_get(td, "slots")), 6);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(td, "source")), "amdzen4/pipeline.json"));
	/* the counter-mask variant: PMCx1A0 umask 1, cmask 6, AMD's extended bits */
	ck_assert_str_eq(json_string_value(json_object_get(ev, "name")),
			 "de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6");
	ck_assert_int_eq(json_integer_value(json_object_get(ev, "cmask")), 6);
	ck_assert_int_eq(json_integer_value(json_object_get(ev, "config")), 0x1060001a0LL);
	ck_assert_uint_eq(json_array_size(json_object_get(td, "formulas")), 14);
	f = json_array_get(json_object_get(td, "formulas"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(f, "name")), "frontend_bound");
	ck_assert_int_eq(json_integer_value(json_object_get(f, "level")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(f, "expr")),
			 "d_ratio(de_no_dispatch_per_slot.no_ops_from_frontend, total_dispatch_slots)");
	ck_assert(json_is_string(json_object_get(f, "source")));
}

/* A host's string fact from a profile or host document, or NULL (borrowed from root). */
static const char *cpu_fact(const json_t *root, const char *key)
{
	const json_t *host = json_object_get(root, "host") ? json_object_get(root, "host") : root;

	return json_string_value(json_object_get(json_object_get(host, "cpu"), key));
}

/* Issue 32: the ISA of this host and of others, and a core without a table named or detected. */
START_TEST(test_isa_and_cores_without_table)
{
	char *dir = make_tempdir(), out[4096];
	char *here[] = { UD, "host", "--json", NULL };
	char *power[] = { UD, "host", "--json", "--cpuinfo", UD_TEST_DATA "/cpuinfo/archspec-rhel8-power9.txt", NULL };
	char *imp[] = { UD, "import", "--uarch", "POWER9", "-o", out, UD_TEST_DATA "/perf-stat/made-up-r5.txt", NULL };
	char *genoa[] = { UD, "import", "--uarch", "Genoa", "-o", out, UD_TEST_DATA "/perf-stat/made-up-r5.txt", NULL };
	char *events[] = { UD, "events", "--uarch", "power9", NULL };
	struct utsname un;
	struct run_result r;
	json_t *root;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	ck_assert_int_eq(uname(&un), 0);
	r = run_capture(here);
	root = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(root);
	/* uname's word, armv7l read as armv7 */
	ck_assert_str_eq(cpu_fact(root, "isa"), strcmp(un.machine, "armv7l") == 0 ? "armv7" : un.machine);
	json_decref(root);
	run_free(&r);

	r = run_capture(power);
	root = json_loads(r.out, 0, NULL);
	ck_assert_msg(root != NULL, "%s", r.err);
	ck_assert_str_eq(cpu_fact(root, "isa"), "ppc64le");
	ck_assert_str_eq(cpu_fact(root, "uarch"), "power9");
	ck_assert_str_eq(cpu_fact(root, "vendor"), "IBM");
	ck_assert_str_eq(cpu_fact(root, "model_name"), "POWER9, altivec supported");
	json_decref(root);
	run_free(&r);

	r = run_capture(imp);
	ck_assert_msg(r.status == 0, "%s", r.err);
	root = json_load_file(out, 0, NULL);
	ck_assert_str_eq(cpu_fact(root, "uarch"), "power9");
	ck_assert_str_eq(cpu_fact(root, "isa"), "ppc64le");
	ck_assert_str_eq(cpu_fact(root, "vendor"), "IBM");
	json_decref(root);
	run_free(&r);

	r = run_capture(genoa);
	ck_assert_msg(r.status == 0, "%s", r.err);
	root = json_load_file(out, 0, NULL);
	ck_assert_str_eq(cpu_fact(root, "uarch"), "zen4");
	ck_assert_str_eq(cpu_fact(root, "isa"), "x86_64");
	json_decref(root);
	run_free(&r);

	r = run_capture(events);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "no event table for IBM POWER9 (power9, ppc64le): perf's generic events\n"
					    "generic: "));
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* Issue 32: stated facts go through a written profile, win over --uarch and --host, and the diff marks them. */
START_TEST(test_import_stated_facts)
{
	char *dir = make_tempdir(), a[4096], b[4096];
	char *imp_a[] = { UD, "import", "--label", "A", "--host", UD_TEST_DATA "/host/oci-e5-host.json", "--fact",
			  "cpufreq.governor=performance", "--fact", "cpu.smt=true", "--fact", "kernel=null", "-o", a,
			  UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	char *imp_b[] = { UD, "import", "--label", "B", "--uarch", "zen4", "--fact", "cpu.uarch=Turin", "--fact",
			  "cpufreq.governor=powersave", "--fact", "vulnerabilities.spec_rstack_overflow=Vulnerable: Safe RET, no microcode",
			  "--fact", "cpu.online_cpus=0x10", "-o", b, UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", NULL };
	char *diff[] = { UD, "diff", a, b, NULL };
	struct run_result r;
	json_t *root, *host, *stated;

	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(b, sizeof(b), "%s/b.json", dir);
	for (char **argv[] = { imp_a, imp_b, NULL }, ***x = argv; *x; x++) {
		r = run_capture(*x);
		ck_assert_msg(r.status == 0, "%s", r.err);
		run_free(&r);
	}
	root = json_load_file(b, 0, NULL);
	host = json_object_get(root, "host");
	/* cpu.uarch through the names: Turin is zen5, over --uarch zen4, with its ISA */
	ck_assert_str_eq(cpu_fact(root, "uarch"), "zen5");
	ck_assert_str_eq(cpu_fact(root, "isa"), "x86_64");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(host, "cpu"), "online_cpus")), 16);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(host, "vulnerabilities"), "spec_rstack_overflow")),
			 "Vulnerable: Safe RET, no microcode");
	stated = json_object_get(host, "stated");
	ck_assert_uint_eq(json_array_size(stated), 4);
	ck_assert_str_eq(json_string_value(json_array_get(stated, 0)), "cpu.uarch");
	ck_assert_str_eq(json_string_value(json_array_get(stated, 2)), "vulnerabilities.spec_rstack_overflow");
	json_decref(root);
	root = json_load_file(a, 0, NULL);
	host = json_object_get(root, "host");
	/* over the host file's facts: its kernel stated unknown, its SMT stated */
	ck_assert(json_is_null(json_object_get(host, "kernel")));
	ck_assert(json_is_true(json_object_get(json_object_get(host, "cpu"), "smt")));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(host, "cpufreq"), "governor")), "performance");
	json_decref(root);

	r = run_capture(diff);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "  cpufreq.governor\n    A: performance (stated)\n    B: powersave (stated)\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "  cpu.uarch\n    A: zen4\n    B: zen5 (stated)\n"));
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* A raw code only the host's table knows (made up): classed by --uarch zen4's table, other without one. */
START_TEST(test_import_raw_code_by_table)
{
	char *dir = make_tempdir(), in[4096], out[4096];
	char *with[] = { UD, "import", "--uarch", "zen4", "-o", out, in, NULL };
	char *without[] = { UD, "import", "-o", out, in, NULL };
	char **argvs[] = { with, without };
	const char *want[] = { "l1d-miss", "other" };

	snprintf(in, sizeof(in), "%s/raw.txt", dir);
	snprintf(out, sizeof(out), "%s/p.json", dir);
	write_text(in, " Performance counter stats for './x':\n\n     1,000,000      r0c860:u\n"
		       "    10,000,000      cycles:u\n\n       1.000000000 seconds time elapsed\n");
	for (int i = 0; i < 2; i++) {
		struct run_result r = run_capture(argvs[i]);
		json_t *root, *c;

		ck_assert_msg(r.status == 0, "%s", r.err);
		run_free(&r);
		root = json_load_file(out, 0, NULL);
		c = json_object_get(json_object_get(json_array_get(json_object_get(root, "workloads"), 0), "counters"),
				    "r0c860:u");
		ck_assert_str_eq(json_string_value(json_object_get(c, "class")), want[i]);
		ck_assert_str_eq(json_string_value(json_object_get(c, "mode")), "user");
		json_decref(root);
	}
	rm_tree(dir);
	free(dir);
}
END_TEST

/* Issue 32: a bad --fact is refused on one line naming it, exit 2, nothing written. */
START_TEST(test_import_bad_facts)
{
	static const char *const cases[][2] = {
		{ "kernel", "--fact needs KEY=VALUE" },
		{ "kernel.release=6.8.7", "--fact kernel.release=6.8.7: unknown host fact 'kernel.release'; did you mean 'kernel'?" },
		{ "cpu.online_cpus=many", "cpu.online_cpus needs a whole number, not 'many'" },
		{ "cpu.smt=maybe", "cpu.smt needs true or false, not 'maybe'" },
		{ "cpu.uarch=zen99", "--fact cpu.uarch=zen99: unknown microarchitecture 'zen99'" },
		{ "cpu=x86", "'cpu' is a group of facts" },
	};
	char *dir = make_tempdir(), out[4096];

	snprintf(out, sizeof(out), "%s/p.json", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { UD, "import", "--fact", (char *)cases[i][0], "-o", out,
				 UD_TEST_DATA "/perf-stat/made-up-r5.txt", NULL };

		expect_one_line_error(argv, 2, cases[i][1]);
		ck_assert_int_ne(access(out, F_OK), 0);
	}
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_events_command)
{
	char *zen4[] = { UD, "events", "--uarch", "zen4", "--json", NULL };
	char *n1[] = { UD, "events", "--cpuinfo", UD_TEST_DATA "/cpuinfo/aws-m6g-graviton2.txt", NULL };
	char *unknown[] = { UD, "events", "--uarch", "zen9", NULL };
	char *adl[] = { UD, "events", "--uarch", "alderlake", "--json", NULL };
	char *both[] = { UD, "events", "--uarch", "zen4", "--cpuinfo", "x", NULL };
	char *nocpu[] = { UD, "events", "--cpuinfo", "/dev/null", NULL };
	struct run_result r = run_capture(zen4);
	json_t *root, *e;
	size_t i;

	ck_assert_int_eq(r.status, 0);
	root = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(json_string_value(json_object_get(root, "uarch")), "zen4");
	json_array_foreach(json_object_get(root, "events"), i, e) {
		const char *g = json_string_value(json_object_get(e, "generic"));

		if (strcmp(g, "branch-misses") == 0) {
			ck_assert_str_eq(json_string_value(json_object_get(e, "vendor_event")),
					 "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED");
			ck_assert_int_eq(json_integer_value(json_object_get(e, "code")), 0xc3);
			ck_assert_str_eq(json_string_value(json_object_get(e, "semantics")), "retired");
			ck_assert(json_is_string(json_object_get(e, "source")));
		}
		if (strcmp(g, "stalled-cycles-backend") == 0)
			ck_assert_str_eq(json_string_value(json_object_get(e, "opened_as")), "unavailable");
	}
	check_zen4_topdown(json_object_get(root, "topdown"));
	json_decref(root);
	run_free(&r);

	r = run_capture(n1);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "neoverse-n1"));
	ck_assert_ptr_nonnull(strstr(r.out, "BR_MIS_PRED_RETIRED"));
	/* N1's method, and that it is not top-down */
	ck_assert_ptr_nonnull(strstr(r.out, "top-down: cycle-accounting, level 1"));
	ck_assert_ptr_nonnull(strstr(r.out, "which is not top-down"));
	ck_assert_ptr_nonnull(strstr(r.out, "formula  frontend_bound           (L1) = STALL_FRONTEND / CPU_CYCLES"));
	run_free(&r);

	r = run_capture(adl);
	ck_assert_int_eq(r.status, 0);
	root = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(root);
	/* a hybrid part: a method per core type, the E-cores' from their own events */
	ck_assert(json_is_null(json_object_get(root, "topdown")));
	e = json_object_get(json_object_get(root, "topdown_per_pmu"), "cpu_atom");
	ck_assert_double_eq(json_number_value(json_object_get(e, "slots")), 5);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(json_object_get(root, "topdown_per_pmu"),
									     "cpu_core"), "level")), 2);
	ck_assert_uint_eq(json_array_size(json_object_get(root, "events")), 16);
	json_decref(root);
	run_free(&r);

	/* zen9 is as near zen1 as zen5: no name is suggested, they are listed */
	expect_one_line_error(unknown, 2, "unknown microarchitecture 'zen9'; known: alderlake, generic, granite-rapids");
	expect_one_line_error(both, 2, "give one");
	expect_one_line_error(nocpu, 2, "/dev/null: a character device, not a cpuinfo file");
}
END_TEST

START_TEST(test_malformed_table_is_reported)
{
	char *dir = make_tempdir(), path[4200];
	char *argv[] = { UD, "events", NULL };

	snprintf(path, sizeof(path), "%s/generic", dir);
	write_text(path, "uarch generic\ndetect none\ncounters programmable=4\nevent cycles code=zz\n");
	setenv("UARCHDIFF_EVENTS_DIR", dir, 1);
	expect_one_line_error(argv, 2, "/generic:4: not a non-negative number: code");
	unsetenv("UARCHDIFF_EVENTS_DIR");
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_import_command)
{
	char *dir = make_tempdir(), out[4200], bad[4200], *before;
	char *argv[] = { UD, "import", "--label", "E5", "--cpuinfo",
			 UD_TEST_DATA "/cpuinfo/kvm-amd-epyc-family25-model17.txt", "-o", out,
			 UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", UD_TEST_DATA "/unixbench/aws-m6g-graviton2.txt",
			 NULL };
	char *badrun[] = { UD, "import", "-o", out, UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", bad, NULL };
	char *noout[] = { UD, "import", bad, NULL };
	char *format[] = { UD, "import", "--format", "xml", "-o", out, bad, NULL };
	char *score2[] = { UD, "import", "--score", "5", "-o", out, bad, bad, NULL };
	struct run_result r;
	struct ud_err err;
	struct ud_profile *p;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	snprintf(bad, sizeof(bad), "%s/bad.txt", dir);
	r = run_capture(argv);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	p = ud_profile_load(out, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	ck_assert_uint_eq(p->nworkloads, 27);
	ck_assert_str_eq(p->host->label, "E5");
	ck_assert_str_eq(p->host->cpu.uarch, "zen4");
	ck_assert_ptr_null(p->host->hypervisor); /* not this host's: unknown */
	ud_profile_free(p);

	/* a bad second file: one line naming file and line, and the old profile stands */
	write_text(bad, "Performance counter stats for 'x':\n12,345\n");
	before = read_text(out);
	expect_one_line_error(badrun, 2, "bad.txt:2: a counter value without an event name");
	{
		char *after = read_text(out);

		ck_assert_str_eq(before, after);
		free(after);
	}
	free(before);
	expect_one_line_error(noout, 2, "give -o PROFILE");
	expect_one_line_error(format, 2, "unknown format 'xml'");
	expect_one_line_error(score2, 2, "give one file");
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_import_writes_nothing_on_error)
{
	char *dir = make_tempdir(), out[4200], bad[4200];
	char *argv[] = { UD, "import", "-o", out, bad, NULL };
	struct stat st;

	snprintf(out, sizeof(out), "%s/new.json", dir);
	snprintf(bad, sizeof(bad), "%s/empty.txt", dir);
	write_text(bad, "");
	expect_one_line_error(argv, 2, "empty.txt: empty file");
	ck_assert_int_ne(stat(out, &st), 0);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* Host facts taken on each host, attached at import: the diff compares them and the mitigation rule reads them. */
START_TEST(test_import_host_facts)
{
	char *dir = make_tempdir(), e5[4096], e6[4096], out[4096], bad[4096];
	char *imp5[] = { UD, "import", "--host", UD_TEST_DATA "/host/oci-e5-host.json", "--label", "E5", "--uarch", "zen4",
			 "-o", e5, UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	char *imp6[] = { UD, "import", "--host", UD_TEST_DATA "/host/oci-e6-host.json", "--uarch", "zen5", "-o", e6,
			 UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", NULL };
	char *diff[] = { UD, "diff", "-f", "json", "-o", out, e5, e6, NULL };
	char *missing[] = { UD, "import", "--host", "/nonexistent/h.json", "-o", out, e5, NULL };
	char *not_json[] = { UD, "import", "--host", bad, "-o", out, UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	char *not_host[] = { UD, "import", "--host", e5, "-o", out, UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	char *both[] = { UD, "import", "--host", e5, "--cpuinfo", e5, "-o", out, e5, NULL };
	struct run_result r;
	json_t *doc, *env, *e, *f;
	size_t i;
	int srso = 0, mitigations = 0;

	snprintf(e5, sizeof(e5), "%s/e5.json", dir);
	snprintf(e6, sizeof(e6), "%s/e6.json", dir);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	for (char **argv[] = { imp5, imp6, diff, NULL }, ***a = argv; *a; a++) {
		r = run_capture(*a);
		ck_assert_msg(r.status == 0, "%s", r.err);
		run_free(&r);
	}
	doc = json_load_file(out, 0, NULL);
	env = json_object_get(doc, "environment");
	json_array_foreach(env, i, e)
		srso += strcmp(json_string_value(json_object_get(e, "field")), "vulnerabilities.spec_rstack_overflow") == 0;
	json_array_foreach(json_object_get(doc, "findings"), i, f)
		mitigations += strcmp(json_string_value(json_object_get(f, "id")), "mitigations-differ") == 0;
	ck_assert_int_eq(srso, 1);
	ck_assert_int_eq(mitigations, 1);
	/* --label overrides the file's; without it the file's own label stands */
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "baseline"), "label")), "E5");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "candidate"), "label")), "oci-e6");
	json_decref(doc);
	/* e5.json is a profile: its host object would do, so strip it to a workload-less non-host */
	write_text(bad, "{\"host\": ");
	write_text(e5, "{\"workloads\": []}");
	unlink(out);
	expect_one_line_error(missing, 2, "/nonexistent/h.json: No such file or directory");
	expect_one_line_error(not_json, 2, "bad.json:1:");
	expect_one_line_error(not_host, 2, "e5.json: not a host object: no \"cpu\"");
	expect_one_line_error(both, 2, "--host already gives that host's CPU");
	ck_assert_int_ne(access(out, F_OK), 0); /* nothing written */
	rm_tree(dir);
	free(dir);
}
END_TEST

/*
 * import says in one line what it read: a user-mode paste (made up here)
 * with a refused counter, on a core it was not told; with --uarch the core
 * is known and that part goes.
 */
START_TEST(test_import_says_what_it_read)
{
	char *dir = make_tempdir(), paste[4096], out[4096];
	char *plain[] = { UD, "import", "-o", out, paste, NULL };
	char *told[] = { UD, "import", "--uarch", "zen4", "-o", out, paste, NULL };
	struct run_result r;

	snprintf(paste, sizeof(paste), "%s/u.txt", dir);
	snprintf(out, sizeof(out), "%s/u.json", dir);
	write_text(paste, " Performance counter stats for './a' (3 runs):\n\n"
			  "          1,000.00 msec task-clock:u    #    1.000 CPUs utilized   ( +-  0.50% )\n"
			  "     2,000,000,000      cycles:u        #    2.000 GHz             ( +-  0.50% )\n"
			  "   <not supported>      instructions:u\n\n"
			  "       1.001 +- 0.005 seconds time elapsed  ( +-  0.50% )\n");
	r = run_capture(plain);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "u.txt: 1 workload, 3 counters (2 counted, 1 not supported), 3 runs; counted in "
				    "user mode; core unknown: --uarch NAME") && count_lines(r.err) == 1, "%s", r.err);
	run_free(&r);
	r = run_capture(told);
	ck_assert_msg(r.status == 0 && strstr(r.err, "3 runs; counted in user mode\n") && !strstr(r.err, "core unknown"),
		      "%s", r.err);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/*
 * A diff where one core is unknown says so once, naming the side and the
 * option that names it; with both cores told, or nothing but top-down
 * shares counted, not at all.  The OCI E5 and E6 pastes and the PerfSpect
 * summaries (tests/data/perf-stat/, tests/data/foreign/: their origins there).
 */
START_TEST(test_diff_names_an_unknown_core)
{
	char *dir = make_tempdir(), a[4096], b[4096];
	char *e5[] = { UD, "import", "--label", "E5", "-o", a, UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	char *e5z[] = { UD, "import", "--label", "E5", "--uarch", "zen4", "-o", a,
			UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	char *e6[] = { UD, "import", "--label", "E6", "--uarch", "zen5", "-o", b,
		       UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", NULL };
	char *clx[] = { UD, "import", "--workload", "perlbench", "-o", a,
			UD_TEST_DATA "/foreign/perfspect/clx-500.perlbench_r-average.csv", NULL };
	char *icx[] = { UD, "import", "--workload", "perlbench", "-o", b,
			UD_TEST_DATA "/foreign/perfspect/icx-500.perlbench_r-average.csv", NULL };
	char *diff_txt[] = { UD, "diff", a, b, NULL }, *diff_md[] = { UD, "diff", "-f", "md", a, b, NULL };
	struct run_result r;

	snprintf(a, sizeof(a), "%s/e5.json", dir);
	snprintf(b, sizeof(b), "%s/e6.json", dir);
	r = run_capture(e5);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	r = run_capture(e6);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	r = run_capture(diff_txt);
	ck_assert_msg(r.status == 0 && occurrences(r.out, "core unknown") == 1 &&
			      strstr(r.out, "core unknown on A (E5)") && strstr(r.out, "--uarch NAME"),
		      "%s", r.out);
	run_free(&r);
	r = run_capture(diff_md);
	ck_assert_msg(r.status == 0 && occurrences(r.out, "core unknown on A (E5)") == 1, "%s", r.out);
	run_free(&r);
	r = run_capture(e5z);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	r = run_capture(diff_txt);
	ck_assert_msg(r.status == 0 && !strstr(r.out, "core unknown"), "%s", r.out);
	run_free(&r);
	/* top-down shares alone (PerfSpect's summaries) charge no miss: nothing to say */
	for (char **argv = clx; argv; argv = argv == clx ? icx : NULL) {
		r = run_capture(argv);
		ck_assert_msg(r.status == 0, "%s", r.err);
		run_free(&r);
	}
	r = run_capture(diff_txt);
	ck_assert_msg(r.status == 0 && strstr(r.out, "bad speculation") && !strstr(r.out, "core unknown"), "%s", r.out);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* A UnixBench log cut mid-table: imported, marked incomplete, and the user told which rows are missing. */
START_TEST(test_import_warns_on_a_cut_log)
{
	char *dir = make_tempdir(), log[4096], out[4096];
	char *argv[] = { UD, "import", "-o", out, log, NULL };
	struct run_result r;
	char *profile;

	snprintf(log, sizeof(log), "%s/ub.txt", dir);
	snprintf(out, sizeof(out), "%s/ub.json", dir);
	write_text(log, "BYTE UNIX Benchmarks (Version 5.1.3)\n"
			"Benchmark Run: Mon Jan 01 2024 00:00:00 - 00:10:00\n"
			"2 CPUs in system; running 1 parallel copy of tests\n\n"
			"System Benchmarks Index Values               BASELINE       RESULT    INDEX\n"
			"Dhrystone 2 using register variables         116700.0   39721394.2   3403.7\n");
	r = run_capture(argv);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq(count_lines(r.err), 2);
	ck_assert_ptr_nonnull(strstr(r.err, "uarchdiff import: warning: "));
	ck_assert_ptr_nonnull(strstr(r.err, "missing: System Benchmarks Index Score"));
	ck_assert_ptr_nonnull(strstr(r.err, "ub.txt: 1 workload, 0 counters, runs not stated\n"));
	run_free(&r);
	profile = read_text(out);
	ck_assert_ptr_nonnull(strstr(profile, "\"incomplete\": true"));
	free(profile);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* Two UnixBench logs, no counters: one compact table, the geometric mean and the index ratios, under 80 lines. */
START_TEST(test_score_only_diff_is_compact)
{
	char *dir = make_tempdir(), g2[4096], g3[4096];
	char *imp2[] = { UD, "import", "--cpuinfo", UD_TEST_DATA "/cpuinfo/aws-m6g-graviton2.txt", "--label", "G2", "-o", g2,
			 UD_TEST_DATA "/unixbench/aws-m6g-graviton2.txt", NULL };
	char *imp3[] = { UD, "import", "--cpuinfo", UD_TEST_DATA "/cpuinfo/aws-m7g-graviton3.txt", "--label", "G3", "-o", g3,
			 UD_TEST_DATA "/unixbench/aws-m7g-graviton3.txt", NULL };
	char *diff[] = { UD, "diff", g2, g3, NULL };
	char *compare[] = { UD, "compare", g2, g3, NULL };
	struct run_result r;

	snprintf(g2, sizeof(g2), "%s/g2.json", dir);
	snprintf(g3, sizeof(g3), "%s/g3.json", dir);
	for (char **argv[] = { imp2, imp3, diff, NULL }, ***a = argv; *a; a++) {
		r = run_capture(*a);
		ck_assert_msg(r.status == 0, "%s", r.err);
		if (*a != diff)
			run_free(&r);
	}
	ck_assert_msg(count_lines(r.out) < 80, "%d lines", count_lines(r.out));
	/* UnixBench prints no run's spread: the move is stated, and left unverified (issue 40) */
	ck_assert_ptr_nonnull(strstr(r.out, "G3 is 1.09x faster than G2 over 24 workloads (geometric mean; unverified: no"));
	ck_assert_ptr_nonnull(strstr(r.out, "System Benchmarks Index Score (1 copy): 1,173 -> 1,304 (1.11x faster)"));
	ck_assert_ptr_nonnull(strstr(r.out, "System Benchmarks Index Score (2 copies): 2,142 -> 2,289 (1.07x faster)"));
	ck_assert_ptr_nonnull(strstr(r.out, "  (2 copies)\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "  Dhrystone 2 using register variables                3,405      4,284  1.26x faster, "
					    "unverified\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "Neither profile has counters"));
	ck_assert_ptr_null(strstr(r.out, "n/a"));
	ck_assert_ptr_null(strstr(r.out, "do not explain"));
	ck_assert_ptr_nonnull(strstr(r.out, "A: 0xd0c")); /* MIDR part in hex, as host prints it */
	run_free(&r);
	r = run_capture(compare); /* compare shows host facts the same way */
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "0xd0c") && strstr(r.out, "0xd40") && !strstr(r.out, "3340"), "%s", r.out);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* Two perf pastes with a header but neither elapsed time nor score: compared by CPU time, not refused. */
START_TEST(test_counters_only_pastes_compare)
{
	char *dir = make_tempdir(), ta[4096], tb[4096], pa[4096], pb[4096], out[4096];
	char *imp_a[] = { UD, "import", "--label", "old", "-o", pa, ta, NULL };
	char *imp_b[] = { UD, "import", "--label", "new", "-o", pb, tb, NULL };
	char *diff[] = { UD, "diff", "-f", "json", "-o", out, pa, pb, NULL };
	struct run_result r;
	json_t *doc, *w;

	snprintf(ta, sizeof(ta), "%s/a.txt", dir);
	snprintf(tb, sizeof(tb), "%s/b.txt", dir);
	snprintf(pa, sizeof(pa), "%s/a.json", dir);
	snprintf(pb, sizeof(pb), "%s/b.json", dir);
	snprintf(out, sizeof(out), "%s/d.json", dir);
	write_text(ta, " Performance counter stats for './bench':\n\n"
		       "          1,500.00 msec task-clock\n     3,000,000,000      cycles\n     3,000,000,000      instructions\n");
	write_text(tb, " Performance counter stats for './bench':\n\n"
		       "            750.00 msec task-clock\n     1,800,000,000      cycles\n     2,700,000,000      instructions\n");
	for (char **argv[] = { imp_a, imp_b, diff, NULL }, ***a = argv; *a; a++) {
		r = run_capture(*a);
		ck_assert_msg(r.status == 0, "%s", r.err);
		run_free(&r);
	}
	doc = json_load_file(out, 0, NULL);
	w = json_array_get(json_object_get(doc, "workloads"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(w, "speedup_basis")), "task-clock");
	ck_assert_double_eq_tol(json_real_value(json_object_get(w, "speedup")), 2, 1e-12);
	ck_assert_double_eq_tol(json_real_value(json_object_get(json_object_get(json_object_get(w, "per_unit"), "instructions"), "ratio")), 0.9, 1e-12);
	json_decref(doc);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* run -e counts the events asked for, perf's privilege modifiers included, under their own names. */
START_TEST(test_run_events_with_modifiers)
{
	char *argv[] = { UD, "run", "-w", "syscall", "-r", "1", "-e", "page-faults:u,task-clock,no-such-event", "--json",
			 NULL };
	struct run_result r = run_capture(argv);
	json_t *doc, *counters;

	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "uarchdiff run: unknown event 'no-such-event': counted as not_supported"));
	doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	counters = json_object_get(json_array_get(json_object_get(doc, "workloads"), 0), "counters");
	ck_assert_uint_eq(json_object_size(counters), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(counters, "page-faults:u"), "status")),
			 "counted");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(counters, "task-clock"), "status")), "counted");
	json_decref(doc);
	run_free(&r);
}
END_TEST

/*
 * A counter one side counted and the other did not is said, not dropped:
 * the E6 paste without its -d rows (made up from the real one here) leaves
 * the L1d counters on E5's side only, and text and JSON name them.
 */
START_TEST(test_diff_says_one_sided_counters)
{
	char *dir = make_tempdir(), e5[4200], e6[4200], paste[4200], *text, *line, *cut;
	char *imp5[] = { UD, "import", "--uarch", "zen4", "-o", e5, UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	char *imp6[] = { UD, "import", "--uarch", "zen5", "-o", e6, paste, NULL };
	char *diff_text[] = { UD, "diff", e5, e6, NULL };
	char *diff_json[] = { UD, "diff", "-f", "json", e5, e6, NULL };
	struct run_result r;

	snprintf(e5, sizeof(e5), "%s/e5.json", dir);
	snprintf(e6, sizeof(e6), "%s/e6.json", dir);
	snprintf(paste, sizeof(paste), "%s/e6-without-d.txt", dir);
	text = read_text(UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt");
	/* each L1-dcache row cut out whole */
	while ((line = strstr(text, "L1-dcache"))) {
		while (line > text && line[-1] != '\n')
			line--;
		cut = strchr(line, '\n');
		memmove(line, cut + 1, strlen(cut + 1) + 1);
	}
	write_text(paste, text);
	free(text);
	for (char **argv[] = { imp5, imp6, NULL }, ***a = argv; *a; a++) {
		r = run_capture(*a);
		ck_assert_msg(r.status == 0, "%s", r.err);
		run_free(&r);
	}
	r = run_capture(diff_text);
	ck_assert_msg(r.status == 0 && strstr(r.out, "counted on A only: L1-dcache-loads, L1-dcache-load-misses (B did "
						  "not count them)"), "%s%s", r.out, r.err);
	run_free(&r);
	r = run_capture(diff_json);
	ck_assert_msg(r.status == 0 && strstr(r.out, "\"one_sided\": [") &&
		      strstr(r.out, "\"name\": \"L1-dcache-loads\",\n          \"counted\": \"a\",\n          \"other\": \"absent\""),
		      "%s", r.out);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_diff_command)
{
	char *dir = make_tempdir(), e5[4200], e6[4200], out[4200], bad[4200], newer[4200], other[4200];
	char *imp5[] = { UD, "import", "--label", "E5", "--uarch", "zen4", "-o", e5,
			 UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	char *imp6[] = { UD, "import", "--label", "E6", "--uarch", "zen5", "-o", e6,
			 UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", NULL };
	char *impub[] = { UD, "import", "-o", other, UD_TEST_DATA "/unixbench/aws-m6g-graviton2.txt", NULL };
	char *text[] = { UD, "diff", e5, e6, NULL };
	char *json[] = { UD, "diff", "-f", "json", "-o", out, e5, e6, NULL };
	char *missing[] = { UD, "diff", e5, "/nonexistent/p.json", NULL };
	char *malformed[] = { UD, "diff", "-o", out, e5, bad, NULL };
	char *newer_schema[] = { UD, "diff", e5, newer, NULL };
	char *nothing_common[] = { UD, "diff", e5, other, NULL };
	char *one[] = { UD, "diff", e5, NULL };
	char *format[] = { UD, "diff", "-f", "pdf", e5, e6, NULL };
	struct run_result r;
	json_t *doc;
	char *before;

	snprintf(e5, sizeof(e5), "%s/e5.json", dir);
	snprintf(e6, sizeof(e6), "%s/e6.json", dir);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	snprintf(newer, sizeof(newer), "%s/newer.json", dir);
	snprintf(other, sizeof(other), "%s/ub.json", dir);
	for (char **argv[] = { imp5, imp6, impub, NULL }, ***a = argv; *a; a++) {
		r = run_capture(*a);
		ck_assert_msg(r.status == 0, "%s", r.err);
		run_free(&r);
	}
	r = run_capture(text);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "E6 is 4.66x faster than E5"));
	run_free(&r);
	r = run_capture(json);
	ck_assert_int_eq(r.status, 0);
	doc = json_load_file(out, 0, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "schema")), "uarchdiff.diff/2");
	json_decref(doc);
	run_free(&r);

	write_text(bad, "{\n  \"schema\": \"uarchdiff.profile/1\",\n  oops\n}\n");
	write_text(newer, "{\"schema\": \"uarchdiff.profile/2\", \"host\": {}, \"workloads\": []}");
	before = read_text(out);
	expect_one_line_error(missing, 2, "/nonexistent/p.json: No such file or directory");
	expect_one_line_error(malformed, 2, "bad.json:3:");
	{
		char *after = read_text(out); /* a failed diff leaves -o as it was */

		ck_assert_str_eq(before, after);
		free(after);
	}
	free(before);
	expect_one_line_error(newer_schema, 2, "schema uarchdiff.profile/2 is not uarchdiff.profile/1");
	expect_one_line_error(nothing_common, 2, "no workload in common");
	expect_one_line_error(one, 2, "give two profiles");
	expect_one_line_error(format, 2, "unknown format 'pdf'");
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_run_command)
{
	char *dir = make_tempdir(), out[4200];
	char *argv[] = { UD, "run", "-w", "syscall,int", "-r", "2", "--label", "here", "-o", out, NULL };
	char *unknown[] = { UD, "run", "-w", "int,frobnicate", NULL };
	char *zero[] = { UD, "run", "-r", "0", NULL };
	char *suite[] = { UD, "run", "--suite", "huge", NULL };
	char *unwritable[] = { UD, "run", "-w", "int", "-o", "/nonexistent-dir/p.json", NULL };
	char *list[] = { UD, "workloads", NULL };
	struct run_result r;
	struct ud_profile *p;
	struct ud_err err;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	r = run_capture(argv);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "syscall"));
	ck_assert_ptr_nonnull(strstr(r.out, "outcome")); /* the summary's table */
	ck_assert_ptr_null(strstr(r.out, "noise warnings")); /* noise goes on one line a workload, under a legend */
	ck_assert_ptr_nonnull(strstr(r.err, "2 samples)")); /* the progress line of a workload done */
	run_free(&r);
	p = ud_profile_load(out, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	ck_assert_uint_eq(p->nworkloads, 2);
	ck_assert_str_eq(p->workloads[0].name, "syscall"); /* the order asked for */
	for (size_t i = 0; i < 2; i++) {
		const struct ud_workload *w = &p->workloads[i];

		ck_assert_str_eq(w->outcome, "ok");
		ck_assert_uint_eq(w->score.nsamples, 2);
		/* -r 2 is a fixed count; the noise record says so and carries the figures */
		ck_assert_ptr_nonnull(w->noise);
		ck_assert_int_eq(w->noise->samples_taken, 2);
		ck_assert(isfinite(w->noise->cpus_utilized_min));
		ck_assert_double_gt(w->score.median, 0);
		ck_assert_int_eq(ud_workload_counter(w, "task-clock")->status, UD_COUNTED);
		ck_assert_ptr_nonnull(p->host->cpu.uarch);
	}
	ck_assert_str_eq(p->host->label, "here");
	ud_profile_free(p);

	expect_one_line_error(unknown, 2, "unknown workload 'frobnicate'; 'uarchdiff workloads' lists them");
	{
		char *ub[] = { UD, "run", "-w", "unixbench-dhry2reg", NULL };
		char *any[] = { UD, "run", "-w", "int", NULL };
		char spec[4200];

		unsetenv("UNIXBENCH_DIR");
		expect_one_line_error(ub, 2, "unixbench-dhry2reg: needs UNIXBENCH_DIR to be set");
		snprintf(spec, sizeof(spec), "%s/broken.spec", dir);
		write_text(spec, "name = broken\ncommand = true\nscore\n");
		setenv("UARCHDIFF_WORKLOADS_DIR", dir, 1);
		expect_one_line_error(any, 2, "broken.spec:3: expected key = value");
		unsetenv("UARCHDIFF_WORKLOADS_DIR");
		unlink(spec);
	}
	expect_one_line_error(zero, 2, "uarchdiff run: -r needs a whole number from 1 to 1000, not '0'");
	expect_one_line_error(suite, 2, "unknown suite 'huge'");
	expect_one_line_error(unwritable, 2, "/nonexistent-dir/p.json: cannot write");
	r = run_capture(list);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "pointer-chase"));
	ck_assert_int_ge(count_lines(r.out), 21);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* Lines in path, 0 when it is not there yet. */
static int lines_in(const char *path)
{
	char *text = read_text(path);
	int n = text ? count_lines(text) : 0;

	free(text);
	return n;
}

/*
 * A spec workload "mark" in dir whose program appends a line to marks each
 * time it starts, then takes a second: a test waits on marks to signal a run
 * that is surely mid-measurement, however slow the host.
 */
static void write_mark_spec(const char *dir, const char *marks)
{
	char script[4200], spec[4200], text[9000];

	snprintf(script, sizeof(script), "%s/mark.sh", dir);
	snprintf(spec, sizeof(spec), "%s/mark.spec", dir);
	write_text(script, "#!/bin/sh\necho run >>\"$1\"\nsleep 1\necho score 1\n");
	chmod(script, 0755);
	snprintf(text, sizeof(text), "name = mark\ncommand = %s %s\nscore = ^score ([0-9]+)$\nunits = x\n", script,
		 marks);
	write_text(spec, text);
}

/*
 * `run -w WORKLOADS -r RUNS -o out` with the mark spec of dir, its output
 * silenced (SIGHUP ignored from its start where ignore_hup), sent sig once
 * marks holds `started` lines (2 minutes at most); its wait status.
 */
static int run_signalled(const char *dir, const char *out, const char *marks, const char *workloads, const char *runs,
			 size_t started, int sig, bool ignore_hup)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		if (ignore_hup)
			signal(SIGHUP, SIG_IGN);
		setenv("UARCHDIFF_WORKLOADS_DIR", dir, 1);
		execl(UD, UD, "run", "-w", workloads, "-r", runs, "-o", out, (char *)NULL);
		_exit(126);
	}
	for (int i = 0; i < 1200 && (size_t)lines_in(marks) < started; i++)
		usleep(100000);
	kill(pid, sig);
	waitpid(pid, &status, 0);
	return status;
}

/*
 * Ctrl-C keeps what was measured.  Rounds are shuffled, so the signal waits
 * for a spec that marks each of its runs to start its second: by then the
 * first round, int's sample included, is over, however slow the host.
 */
START_TEST(test_run_interrupted_saves_incomplete)
{
	char *dir = make_tempdir(), out[4200], marks[4200];
	struct ud_profile *p;
	struct ud_err err;
	int status;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	snprintf(marks, sizeof(marks), "%s/marks", dir);
	write_mark_spec(dir, marks);
	status = run_signalled(dir, out, marks, "int,mark", "20", 2, SIGINT, false);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 1);
	p = ud_profile_load(out, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	ck_assert(p->incomplete);
	/* what was measured is kept; the rest of the samples were not taken */
	ck_assert_uint_eq(p->nworkloads, 2);
	for (size_t i = 0; i < p->nworkloads; i++) {
		ck_assert_int_ge(p->workloads[i].runs, 1);
		ck_assert_int_lt(p->workloads[i].runs, 20);
		/* cut short, whether or not it was mid-sample: never "ok" with fewer runs than asked */
		ck_assert_msg(strncmp(p->workloads[i].outcome, "interrupted", 11) == 0, "%s: %s", p->workloads[i].name,
			      p->workloads[i].outcome);
	}
	ud_profile_free(p);
	rm_tree(dir);
	free(dir);
}
END_TEST

/*
 * `nohup uarchdiff run &`: a SIGHUP that was ignored when run started stays
 * ignored (issue 36: run replaced the disposition and stopped on logout).
 * The hangup is sent once the first of two samples has started.
 */
START_TEST(test_run_keeps_ignored_hangup)
{
	char *dir = make_tempdir(), out[4200], marks[4200];
	struct ud_profile *p;
	struct ud_err err;
	int status;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	snprintf(marks, sizeof(marks), "%s/marks", dir);
	write_mark_spec(dir, marks);
	status = run_signalled(dir, out, marks, "mark", "2", 1, SIGHUP, true);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	p = ud_profile_load(out, &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	ck_assert(!p->incomplete);
	ck_assert_uint_eq(p->nworkloads, 1);
	ck_assert_int_eq(p->workloads[0].runs, 2);
	ud_profile_free(p);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_top_level)
{
	char *version[] = { UD, "--version", NULL };
	char *help[] = { UD, "--help", NULL };
	char *stat_help[] = { UD, "stat", "--help", NULL };
	char *unknown[] = { UD, "frobnicate", NULL };
	struct run_result r = run_capture(version);

	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "uarchdiff "));
	run_free(&r);
	r = run_capture(help);
	ck_assert_ptr_nonnull(strstr(r.out, "stat"));
	run_free(&r);
	r = run_capture(stat_help);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "usage: uarchdiff stat"));
	run_free(&r);
	expect_one_line_error(unknown, 2, "'frobnicate' is not a command");
}
END_TEST

START_TEST(test_version_and_help_forms)
{
	char *v[] = { UD, "-V", NULL };
	char *help_cmd[] = { UD, "help", "diff", NULL };
	char *cmd_help[] = { UD, "diff", "--help", NULL };
	char *help[] = { UD, "help", NULL };
	struct run_result a = run_capture(v), b;

	ck_assert_int_eq(a.status, 0);
	ck_assert_ptr_nonnull(strstr(a.out, "uarchdiff "));
	run_free(&a);
	a = run_capture(help_cmd);
	b = run_capture(cmd_help);
	ck_assert_int_eq(a.status, 0);
	ck_assert_str_eq(a.out, b.out);
	ck_assert_ptr_nonnull(strstr(a.out, "    -f, --format F"));
	run_free(&a);
	run_free(&b);
	a = run_capture(help);
	ck_assert_int_eq(a.status, 0);
	ck_assert_ptr_nonnull(strstr(a.out, "usage: uarchdiff"));
	run_free(&a);
}
END_TEST

/* Every command words a bad option the same way, on one line, exit 2. */
START_TEST(test_unknown_option_everywhere)
{
	static const char *const cmds[] = { "run", "stat", "host", "diff", "import", "workloads", "events", "teach" };

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *argv[] = { UD, (char *)cmds[i], "--frobnicate", NULL };
		char want[128];

		snprintf(want, sizeof(want), "uarchdiff %s: unknown option '--frobnicate'; see 'uarchdiff %s --help'",
			 cmds[i], cmds[i]);
		/* stat's is perf's: parse-options' 129 */
		expect_one_line_error(argv, strcmp(cmds[i], "stat") == 0 ? 129 : 2, want);
	}
}
END_TEST

/* --help lists each long option the way the man page's check reads them. */
START_TEST(test_help_lists_long_options)
{
	char *argv[] = { UD, "stat", "--help", NULL };
	struct run_result r = run_capture(argv);

	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "\n    -r, --repeat N "));
	ck_assert_ptr_nonnull(strstr(r.out, "\n        --exact "));
	ck_assert_ptr_nonnull(strstr(r.out, "\n    -x, --field-separator SEP "));
	run_free(&r);
}
END_TEST

/*
 * Issue 23's list of mistakes a new user makes, each answered on one line
 * with what the file is and what to run, or the nearest name; nothing
 * written, exit 2.  And options after operands are taken, as git and perf
 * take them.
 */
/*
 * The first line of text holding two words "n/a" and no number after its
 * first word (a row with neither side's value), or NULL.  A row whose
 * speedup is known and whose kernel share is not (a few rusage ticks) has
 * a value.
 */
static char *row_of_unknowns(const char *text)
{
	static char line[1024];

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		const char *rest;

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		rest = line + strspn(line, " ");
		rest += strcspn(rest, " ");
		if (occurrences(line, " n/a") >= 2 && !strpbrk(rest, "0123456789"))
			return line;
		p += n + (p[n] != '\0');
	}
	return NULL;
}

/*
 * Two profiles made by 'run' on the development VM, which has no PMU
 * (tests/data/pmu-less), before top-down and (the quick suite) with its
 * top-down records: the reports say so once, with how to get one, and
 * show only what was measured, no top-down table of n/a; the document
 * keeps every field, null.
 */
static const char *const pmu_less_pairs[][2] = {
	{ UD_TEST_DATA "/pmu-less/vm-a.json", UD_TEST_DATA "/pmu-less/vm-b.json" },
	{ UD_TEST_DATA "/pmu-less/vm-quick-a.json", UD_TEST_DATA "/pmu-less/vm-quick-b.json" },
};

START_TEST(test_pmu_less_reports)
{
	char *pa = (char *)pmu_less_pairs[_i][0], *pb = (char *)pmu_less_pairs[_i][1];
	char *text[] = { UD, "diff", pa, pb, NULL };
	char *md[] = { UD, "diff", "-f", "md", pa, pb, NULL };
	char *html[] = { UD, "diff", "-f", "html", pa, pb, NULL };
	char *json[] = { UD, "diff", "-f", "json", pa, pb, NULL };
	char *cmp[] = { UD, "compare", pa, pb, NULL };
	struct run_result r;
	json_t *doc, *w;
	char *bad;

	setenv("COLUMNS", "1000", 1); /* the banner's sentence on one line, to match it whole */
	r = run_capture(text);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq(occurrences(r.out, "no hardware PMU"), 1);
	ck_assert_ptr_nonnull(strstr(r.out, "no hardware PMU on either host (A: vm-"));
	ck_assert_ptr_nonnull(strstr(r.out, "): times and software counters only, because the kernel has no CPU PMU "
					    "driver"));
	ck_assert_ptr_null(strstr(r.out, "top-down")); /* nothing of it counted: no table of n/a rows */
	ck_assert_ptr_nonnull(strstr(r.out, "QEMU/KVM '-cpu host,pmu=on'"));
	bad = row_of_unknowns(r.out);
	ck_assert_msg(bad == NULL, "a row of n/a: %s", bad);
	ck_assert_ptr_null(strstr(r.out, "CPI stack")); /* no CPI stack without counts */
	ck_assert_ptr_null(strstr(r.out, "IPC A -> B"));
	run_free(&r);
	for (char **argv[] = { md, html, cmp, NULL }, ***a = argv; *a; a++) {
		r = run_capture(*a);
		ck_assert_msg(r.status == 0, "%s", r.err);
		ck_assert_msg(occurrences(r.out, "no hardware PMU") == 1, "%s: banner %d times", (*a)[2],
			      occurrences(r.out, "no hardware PMU"));
		ck_assert_ptr_null(strstr(r.out, "CPI stack"));
		ck_assert_msg(a == argv + 2 || !strstr(r.out, "top-down"), "%s: a top-down table of n/a", (*a)[2]);
		run_free(&r);
	}
	r = run_capture(json); /* the document keeps every field: null, where the hardware count is missing */
	ck_assert_int_eq(r.status, 0);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	w = json_array_get(json_object_get(doc, "workloads"), 0);
	ck_assert_ptr_nonnull(w);
	ck_assert_msg(strstr(r.out, "\"ipc\"") != NULL, "the document lost its ipc field");
	json_decref(doc);
	run_free(&r);
	setenv("COLUMNS", TEST_COLUMNS, 1);
}
END_TEST

/* Whether every row of the table under head has "n/a" in its column col (words split at spaces). */
static bool column_all_unknown(const char *table, size_t col)
{
	bool rows = false;

	for (const char *p = table; *p && *p != '\n';) {
		size_t n = strcspn(p, "\n"), k = 0;
		char line[1024], *save, *word;

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		for (word = strtok_r(line, " ", &save); word && k < col; word = strtok_r(NULL, " ", &save))
			k++;
		if (!word || strcmp(word, "n/a") != 0)
			return false;
		rows = true;
		p += n + (p[n] != '\0');
	}
	return rows;
}

/* run's summary: no column of "n/a" (on a host without a PMU, the counter columns go, after one banner). */
START_TEST(test_run_summary_has_no_empty_column)
{
	char *dir = make_tempdir(), out[4200], why[256];
	char *argv[] = { UD, "run", "-w", "syscall,int", "-r", "2", "-o", out, NULL };
	struct run_result r;
	const char *head, *rows;
	size_t columns = 0;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	r = run_capture(argv);
	ck_assert_msg(r.status == 0, "%s", r.err);
	head = strstr(r.out, "workload ");
	ck_assert_ptr_nonnull(head);
	rows = strchr(head, '\n') + 1;
	for (const char *p = head; *p && *p != '\n'; p++)
		columns += (p == head || p[-1] == ' ') && *p != ' ';
	/* the last heading, noise, holds words with spaces: every column before it */
	for (size_t c = 0; c + 1 < columns; c++)
		ck_assert_msg(!column_all_unknown(rows, c), "column %zu is all 'n/a':\n%s", c, r.out);
	if (ud_pmu_probe(why, sizeof(why)) == UD_PMU_ABSENT) {
		ck_assert_int_eq(occurrences(r.out, "no hardware PMU here: times and software counters only"), 1);
		ck_assert_ptr_null(strstr(r.out, "IPC"));
	}
	run_free(&r);
	{
		/* beside busy loops (a fifth of a CPU each, measured 0.15-0.4): noise said once, a line a workload */
		long nbusy;
		int *busy = busy_loops_start(4, &nbusy);
		const char *legend;

		r = run_capture(argv);
		busy_loops_stop(busy, nbusy);
		ck_assert_msg(r.status == 0, "%s", r.err);
		ck_assert_int_eq(occurrences(r.out, "noisy (interval: the median's 95% interval, above 5%; CPUs: CPUs "
						    "utilized, below 0.90;"), 1);
		legend = strstr(r.out, "noisy (");
		/*
		 * Which workload the loops disturbed is the scheduler's choice (a
		 * run beside other load saw only int): at least one, each once.
		 */
		ck_assert_int_le(occurrences(legend, "\n  syscall "), 1);
		ck_assert_int_le(occurrences(legend, "\n  int "), 1);
		ck_assert_int_ge(occurrences(legend, "\n  syscall ") + occurrences(legend, "\n  int "), 1);
		ck_assert_ptr_null(strstr(r.out, "below 0.9)"));
		run_free(&r);
	}
	rm_tree(dir);
	free(dir);
}
END_TEST

/* teach on a host without a PMU: the banner once, no column of n/a. */
START_TEST(test_teach_without_pmu)
{
	char *argv[] = { UD, "teach", "branch", NULL };
	char why[256];
	struct run_result r;
	char *bad;

	if (ud_pmu_probe(why, sizeof(why)) != UD_PMU_ABSENT) {
		printf("SKIPPED: this host has a PMU (%s): the banner is for hosts without one\n", why);
		return;
	}
	setenv("UARCHDIFF_TEACH_QUICK", "1", 1);
	r = run_capture(argv);
	unsetenv("UARCHDIFF_TEACH_QUICK");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq(occurrences(r.out, "no hardware PMU here"), 1);
	ck_assert_ptr_null(strstr(r.out, "mispredicts/elem"));
	ck_assert_ptr_null(strstr(r.out, "Hardware counters:"));
	bad = row_of_unknowns(r.out);
	ck_assert_msg(bad == NULL, "a row of n/a: %s", bad);
	run_free(&r);
}
END_TEST

/* Characters (UTF-8 lead bytes) in s[0..n). */
static size_t chars_in(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The first line of text wider than width that is not one unbreakable token under its indent, or NULL. */
static char *line_too_wide(const char *text, size_t width)
{
	static char line[4096];

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n"), indent = strspn(p, " ");

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		if (chars_in(p, n) > width && memchr(p + indent, ' ', n - indent))
			return line;
		p += n + (p[n] != '\0');
	}
	return NULL;
}

/*
 * The worked example (the E5/E6 pastes) fits the terminal: COLUMNS=80 and
 * 120, and 100 piped without COLUMNS; no line wider but an unbreakable token.
 */
START_TEST(test_diff_fits_the_width)
{
	char *dir = make_tempdir(), e5[4200], e6[4200];
	char *imp5[] = { UD, "import", "--label", "OCI E5 (Genoa)", "--uarch", "zen4", "-o", e5,
			 UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt", NULL };
	char *imp6[] = { UD, "import", "--label", "OCI E6 (Turin)", "--uarch", "zen5", "-o", e6,
			 UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt", NULL };
	char *diff[] = { UD, "diff", e5, e6, NULL };
	char *workloads[] = { UD, "workloads", NULL }, *host[] = { UD, "host", NULL };
	char *compare[] = { UD, "compare", e5, e6, NULL };
	static const char *const widths[] = { "80", "120", NULL };
	struct run_result r;
	char *bad;

	snprintf(e5, sizeof(e5), "%s/e5.json", dir);
	snprintf(e6, sizeof(e6), "%s/e6.json", dir);
	for (char **argv[] = { imp5, imp6, NULL }, ***a = argv; *a; a++) {
		r = run_capture(*a);
		ck_assert_msg(r.status == 0, "%s", r.err);
		run_free(&r);
	}
	for (size_t i = 0; i <= 2; i++) {
		size_t width = widths[i] ? (size_t)atoi(widths[i]) : UD_PIPED_WIDTH;

		if (widths[i])
			setenv("COLUMNS", widths[i], 1);
		else
			unsetenv("COLUMNS");
		r = run_capture(diff);
		ck_assert_msg(r.status == 0, "%s", r.err);
		bad = line_too_wide(r.out, width);
		ck_assert_msg(bad == NULL, "COLUMNS=%s: a line of %zu characters: %s", widths[i] ? widths[i] : "(unset)",
			      bad ? chars_in(bad, strlen(bad)) : 0, bad);
		/* one rule for numbers: no exponent beside grouped thousands */
		ck_assert_ptr_null(strstr(r.out, "e-05"));
		ck_assert_ptr_nonnull(strstr(r.out, "score: 397,163 -> 1,849,374 KBps"));
		/* a per-unit count too small to read at its unit reads at the scale that holds it (issue 39) */
		ck_assert_ptr_nonnull(strstr(r.out, "context-switches (per GB)"));
		ck_assert_ptr_null(strstr(r.out, "0.0000326"));
		run_free(&r);
	}
	/* piped, no COLUMNS: the listings fit 80 columns too, a long description wrapped under its column */
	for (char **argv[] = { workloads, host, compare, NULL }, ***a = argv; *a; a++) {
		r = run_capture(*a);
		ck_assert_msg(r.status == 0, "%s", r.err);
		bad = line_too_wide(r.out, UD_PIPED_WIDTH);
		ck_assert_msg(bad == NULL, "%s: a line of %zu characters: %s", (*a)[1], bad ? chars_in(bad, strlen(bad)) : 0,
			      bad);
		run_free(&r);
	}
	setenv("COLUMNS", TEST_COLUMNS, 1);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* An unknown event in run: the nearest known name, as stat gives it; the run goes on without it. */
START_TEST(test_run_event_did_you_mean)
{
	char *dir = make_tempdir(), out[4200];
	char *argv[] = { UD, "run", "-w", "syscall", "-r", "1", "-e", "cyles,task-clock", "-o", out, NULL };
	struct run_result r;

	snprintf(out, sizeof(out), "%s/p.json", dir);
	r = run_capture(argv);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "uarchdiff run: unknown event 'cyles' (did you mean 'cycles'?): counted as "
				    "not_supported") != NULL, "%s", r.err);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_errors_point_at_the_fix)
{
	char *dir = make_tempdir(), a[4096], b[4096], pd[4096], d[4096], out[4096], c[4096];
	char *imp_a[] = { UD, "import", "--workload", "fstime", "-o", a, UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt",
			  NULL };
	char *imp_c[] = { UD, "import", "-o", c, UD_TEST_DATA "/perf-stat/made-up-r5.txt", NULL };
	char *imp_b[] = { UD, "import", "--workload", "fstime", "-o", b, UD_TEST_DATA "/perf-stat/oci-e6-turin-fstime.txt",
			  NULL };
	char *stats[] = { UD, "stats", NULL };
	char *sycall[] = { UD, "run", "-w", "sycall", NULL };
	char *readme[] = { UD, "diff", UD_TEST_DATA "/README.md", a, NULL };
	char *perfdata[] = { UD, "import", "-o", out, pd, NULL };
	char *profile[] = { UD, "import", "-o", out, a, NULL };
	char *document[] = { UD, "import", "-o", out, d, NULL };
	char *names[] = { UD, "diff", a, c, NULL };
	char *zen44[] = { UD, "events", "--uarch", "zen44", NULL };
	char *htm[] = { UD, "diff", "-f", "htm", a, b, NULL };
	char *labl[] = { UD, "import", "--labl", "x", "-o", out, a, NULL };
	char *late[] = { UD, "diff", a, b, "-f", "md", NULL };
	struct run_result r;

	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(b, sizeof(b), "%s/b.json", dir);
	snprintf(c, sizeof(c), "%s/c.json", dir);
	snprintf(pd, sizeof(pd), "%s/perf.data", dir);
	snprintf(d, sizeof(d), "%s/d.json", dir);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	for (char **argv[] = { imp_a, imp_b, imp_c }, ***p = argv; p < argv + 3; p++) {
		r = run_capture(*p);
		ck_assert_msg(r.status == 0, "%s", r.err);
		run_free(&r);
	}
	write_text(d, "{\n  \"schema\": \"uarchdiff.diff/1\",\n  \"workloads\": []\n}\n");
	expect_one_line_error(stats, 2, "'stats' is not a command; did you mean 'stat'?");
	expect_one_line_error(sycall, 2, "unknown workload 'sycall'; did you mean 'syscall'?");
	expect_one_line_error(readme, 2, "README.md: not a uarchdiff profile: it is not JSON; profiles come from "
					 "'uarchdiff run -o FILE'");
	expect_one_line_error(profile, 2, "a.json: already a uarchdiff profile: give it to 'uarchdiff diff' or 'compare'");
	expect_one_line_error(document, 2, "d.json: a uarchdiff document (a diff, compare or teach report)");
	expect_one_line_error(names, 2, "(to compare them as one workload, import both with the same '--workload NAME')");
	expect_one_line_error(zen44, 2, "unknown microarchitecture 'zen44'; did you mean 'zen4'?");
	expect_one_line_error(htm, 2, "unknown format 'htm'; did you mean 'html'?");
	expect_one_line_error(labl, 2, "unknown option '--labl'; did you mean '--label'?");
	/* perf.data's header: its magic, then a 64-bit size with NUL bytes (tools/perf/util/header.h) */
	FILE *f = fopen(pd, "wb");

	ck_assert_ptr_nonnull(f);
	fwrite("PERFILE2\x68\0\0\0\0\0\0\0", 1, 16, f);
	fclose(f);
	r = run_capture(perfdata);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "perf.data") && strstr(r.err, "perf report --stdio -i"), "%s", r.err);
	run_free(&r);
	ck_assert_int_eq(access(out, F_OK), -1); /* nothing written by any of them */
	r = run_capture(late);
	ck_assert_msg(r.status == 0 && strstr(r.out, "# Why ") && strstr(r.out, "| fstime |"), "%d %s", r.status, r.err);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST


/*
 * One command's run: refused with exit 2 and one line naming -o and the
 * input, before anything ran, and the input left byte for byte as it was.
 */
static void expect_input_kept(char *const argv[], const char *input, const char *want)
{
	char *before = read_text(input), *after;

	expect_one_line_error(argv, 2, want);
	after = read_text(input);
	ck_assert_str_eq(after, before);
	free(before);
	free(after);
}

/* -o naming a file the command reads never replaces it, however the path spells it (issue 36). */
START_TEST(test_output_never_replaces_an_input)
{
	char *dir = make_tempdir(), a[4096], b[4096], paste[4096], host[4096], o[4096], sub[4096], sym[4096],
	     hard[4096], newp[4096], newo[4096];
	char *imp_a[] = { UD, "import", "--label", "A", "-o", a, UD_TEST_DATA "/perf-stat/made-up-r5.txt", NULL };
	char *imp_b[] = { UD, "import", "--label", "B", "-o", b, UD_TEST_DATA "/perf-stat/made-up-r5-faster.txt", NULL };
	char *diff[] = { UD, "diff", "-f", "json", "-o", o, a, b, NULL };
	char *compare[] = { UD, "compare", "-f", "json", "-o", o, a, b, NULL };
	char *imp_paste[] = { UD, "import", "-o", o, paste, NULL };
	char *imp_host[] = { UD, "import", "--host", host, "-o", o, paste, NULL };
	char *imp_new[] = { UD, "import", "-o", newo, newp, NULL };
	char *spellings[] = { "%s/b.json", "%s/./b.json", "%s//b.json", "%s/sub/../b.json", "%s/link.json",
			      "%s/hard.json" };
	struct run_result r;
	char *text;

	struct {
		char *buf;
		const char *name;
	} paths[] = { { a, "a.json" }, { b, "b.json" }, { paste, "paste.txt" }, { host, "h.json" },
		      { sub, "sub" }, { sym, "link.json" }, { hard, "hard.json" } };

	for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++)
		snprintf(paths[i].buf, 4096, "%s/%s", dir, paths[i].name);
	r = run_capture(imp_a);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	r = run_capture(imp_b);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_int_eq(symlink("b.json", sym), 0);
	ck_assert_int_eq(link(b, hard), 0);
	for (size_t i = 0; i < sizeof(spellings) / sizeof(*spellings); i++) {
		snprintf(o, sizeof(o), spellings[i], dir);
		expect_input_kept(diff, b, "is the input");
		expect_input_kept(compare, b, "is the input");
	}
	snprintf(o, sizeof(o), "%s/b.json", dir);
	expect_input_kept(diff, b, "-o "); /* the message names -o's path and the input's */
	expect_one_line_error(diff, 2, b);
	text = read_text(UD_TEST_DATA "/perf-stat/made-up-r5.txt");
	write_text(paste, text);
	free(text);
	snprintf(o, sizeof(o), "%s/./paste.txt", dir);
	expect_input_kept(imp_paste, paste, "is the input");
	text = read_text(UD_TEST_DATA "/host/oci-e5-host.json");
	write_text(host, text);
	free(text);
	snprintf(o, sizeof(o), "%s/sub/../h.json", dir);
	expect_input_kept(imp_host, host, "is the input");
	/* a path that does not exist yet is one with another naming the same folder and name */
	snprintf(newp, sizeof(newp), "%s/new.txt", dir);
	snprintf(newo, sizeof(newo), "%s//new.txt", dir);
	expect_one_line_error(imp_new, 2, "is the input");
	/* another file in the same folder is written as ever */
	snprintf(o, sizeof(o), "%s/out.json", dir);
	r = run_capture(diff);
	ck_assert_msg(r.status == 0, "%s", r.err);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST


/* A lab that fails (out of memory) is reported as failed; the labs that finished stand, the exit is 1 (issue 36). */
START_TEST(test_teach_failed_lab_keeps_the_others)
{
	char *dir = make_tempdir(), out[4096];
	char *argv[] = { UD, "teach", "branch", "cache", "ilp", "-f", "json", "-o", out, NULL };
	struct run_result r;
	json_t *doc, *labs;

	snprintf(out, sizeof(out), "%s/teach.json", dir);
	setenv("UARCHDIFF_TEACH_QUICK", "1", 1);
	setenv("UARCHDIFF_TEACH_FAIL", "cache", 1);
	r = run_capture(argv);
	unsetenv("UARCHDIFF_TEACH_FAIL");
	unsetenv("UARCHDIFF_TEACH_QUICK");
	ck_assert_msg(r.status == 1, "exit %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "the cache lab failed: out of memory for the cache lab"), "%s", r.err);
	doc = json_load_file(out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	labs = json_object_get(doc, "labs");
	ck_assert_int_eq(json_array_size(labs), 3);
	for (size_t i = 0; i < 3; i++) {
		json_t *lab = json_array_get(labs, i);
		const char *failed = json_string_value(json_object_get(lab, "failed"));

		if (i == 1) {
			ck_assert_msg(failed && strstr(failed, "out of memory"), "cache: %s", failed ? failed : "null");
			ck_assert(json_is_false(json_object_get(lab, "shown")));
			ck_assert_int_eq(json_array_size(json_object_get(lab, "points")), 0);
			ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(lab, "why_not")), "the lab failed"));
		} else {
			ck_assert(json_is_null(json_object_get(lab, "failed")));
			ck_assert_int_gt(json_array_size(json_object_get(lab, "points")), 0); /* the finished labs' results */
		}
	}
	json_decref(doc);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("core");

	setenv("COLUMNS", TEST_COLUMNS, 1);

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_stat_profile_true);
	tcase_add_test(tc, test_stat_passes_output_and_status_through);
	tcase_add_test(tc, test_stat_profile_file);
	tcase_add_test(tc, test_stat_csv);
	tcase_add_test(tc, test_stat_host_refusal_goes_on);
	tcase_add_test(tc, test_stat_bad_input);
	tcase_add_test(tc, test_stat_unwritable_output_runs_nothing);
	tcase_add_test(tc, test_stat_exact_runs_once_per_group);
	tcase_add_test(tc, test_host);
	tcase_add_test(tc, test_host_detects_uarch);
	tcase_add_test(tc, test_events_command);
	tcase_add_test(tc, test_malformed_table_is_reported);
	tcase_add_test(tc, test_import_command);
	tcase_add_test(tc, test_import_writes_nothing_on_error);
	tcase_add_test(tc, test_diff_says_one_sided_counters);
	tcase_add_test(tc, test_diff_command);
	tcase_add_test(tc, test_run_command);
	tcase_add_test(tc, test_run_interrupted_saves_incomplete);
	tcase_add_test(tc, test_run_keeps_ignored_hangup);
	tcase_add_test(tc, test_top_level);
	tcase_add_test(tc, test_version_and_help_forms);
	tcase_add_test(tc, test_unknown_option_everywhere);
	tcase_add_test(tc, test_help_lists_long_options);
	tcase_add_test(tc, test_import_host_facts);
	tcase_add_test(tc, test_isa_and_cores_without_table);
	tcase_add_test(tc, test_import_stated_facts);
	tcase_add_test(tc, test_import_raw_code_by_table);
	tcase_add_test(tc, test_import_bad_facts);
	tcase_add_test(tc, test_import_says_what_it_read);
	tcase_add_test(tc, test_diff_names_an_unknown_core);
	tcase_add_test(tc, test_import_warns_on_a_cut_log);
	tcase_add_test(tc, test_score_only_diff_is_compact);
	tcase_add_test(tc, test_counters_only_pastes_compare);
	tcase_add_test(tc, test_run_events_with_modifiers);
	tcase_add_test(tc, test_errors_point_at_the_fix);
	tcase_add_loop_test(tc, test_pmu_less_reports, 0, sizeof(pmu_less_pairs) / sizeof(pmu_less_pairs[0]));
	tcase_add_test(tc, test_run_event_did_you_mean);
	tcase_add_test(tc, test_diff_fits_the_width);
	tcase_add_test(tc, test_run_summary_has_no_empty_column);
	tcase_add_test(tc, test_teach_without_pmu);
	tcase_add_test(tc, test_output_never_replaces_an_input);
	tcase_add_test(tc, test_teach_failed_lab_keeps_the_others);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
