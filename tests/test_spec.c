/*
 * External workloads from spec files: parsing, availability, score
 * extraction, and a program written for the test run end to end under the
 * runner, counted from its exec; ELF build-ids read with libelf.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfinfo.h"
#include "profile.h"
#include "runner.h"
#include "spec.h"
#include "testutil.h"

static char *dir;

static void setup(void)
{
	dir = make_tempdir();
}

static void teardown(void)
{
	rm_tree(dir);
	free(dir);
	unsetenv("UD_TEST_PROGRAM_DIR");
}

static int parse(const char *text, struct ud_spec *s, struct ud_err *err)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/t.spec", dir);
	write_text(path, text);
	return ud_spec_parse_file(path, s, err);
}

START_TEST(test_shipped_specs_load)
{
	struct ud_spec *specs;
	size_t n;
	struct ud_err err;
	int unixbench = 0, openssl = 0;

	ck_assert_msg(ud_specs_load(UD_WORKLOADS_DIR, &specs, &n, &err) == 0, "%s", err.msg);
	for (size_t i = 0; i < n; i++) {
		unixbench += strncmp(specs[i].name, "unixbench-", 10) == 0;
		openssl += strncmp(specs[i].name, "openssl-", 8) == 0;
		ck_assert_ptr_eq(specs[i].def.data, &specs[i]);
		ck_assert_str_eq(specs[i].def.name, specs[i].name);
	}
	ck_assert_int_ge(unixbench, 6);
	ck_assert_int_ge(openssl, 1);
	ud_specs_free(specs, n);
}
END_TEST

START_TEST(test_unixbench_count_lines)
{
	struct ud_spec s;
	struct ud_err err;
	double score = 0;
	char units[32];

	ck_assert_msg(parse("name = ub\ncommand = true\nscore = ^COUNT\\|([0-9.]+)\\|[0-9]+\\|([A-Za-z/]+)\n"
			    "units_group = 2\n", &s, &err) == 0, "%s", err.msg);
	/* fstime prints three; the last is the score */
	ck_assert_int_eq(ud_spec_score(&s, "Write done: 1\nCOUNT|667259|0|KBps\nTIME|2.0\nCOUNT|1094631|0|KBps\n"
					   "COUNT|397163|0|KBps\nTIME|30.0\n", 30.0, &score, units, sizeof(units), &err), 0);
	ck_assert_double_eq(score, 397163);
	ck_assert_str_eq(units, "KBps");
	ck_assert_int_eq(ud_spec_score(&s, "nothing here\n", 1, &score, units, sizeof(units), &err), -1);
	regfree(&s.re);
}
END_TEST

/* UnixBench's Run: COUNT|total|timebase|units is total / (elapsed / timebase); timebase 0 is the score itself. */
START_TEST(test_unixbench_timebase)
{
	struct ud_spec s;
	struct ud_err err;
	double score = 0;
	char units[32];

	ck_assert_msg(parse("name = ub\ncommand = true\nscore = ^COUNT\\|([0-9.]+)\\|([0-9]+)\\|([A-Za-z/]+)\n"
			    "units_group = 3\ntimebase_group = 2\n", &s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ud_spec_score(&s, "COUNT|20000000|1|lps\n", 2.0, &score, units, sizeof(units), &err), 0);
	ck_assert_double_eq_tol(score, 1e7, 1e-3);
	ck_assert_str_eq(units, "lps");
	/* a timebase of 60: a count per minute */
	ck_assert_int_eq(ud_spec_score(&s, "COUNT|300|60|lpm\n", 30.0, &score, units, sizeof(units), &err), 0);
	ck_assert_double_eq_tol(score, 600, 1e-9);
	ck_assert_int_eq(ud_spec_score(&s, "COUNT|5133.2|0|MWIPS\n", 10.0, &score, units, sizeof(units), &err), 0);
	ck_assert_double_eq(score, 5133.2);
	regfree(&s.re);
	ck_assert_int_eq(parse("name = x\ncommand = true\nunits = s\nscore = (1)\ntimebase_group = 0\n", &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.spec:5: timebase_group must be 1-9"));
}
END_TEST

/*
 * A stand-in for a UnixBench program, run by the runner: it sleeps a known
 * time and prints a known total, so the score must be that total over its
 * elapsed time; it fails unless the spec's environment reached it.
 */
START_TEST(test_unixbench_stand_in)
{
	const char *names[] = { "task-clock" };
	struct ud_event ev[1];
	struct ud_runner_opts o = { .target_s = 0.1, .samples = 2, .timeout_s = 300, .ev = ev, .nev = 1, .tmp_root = dir };
	struct ud_run_result r;
	struct ud_spec s;
	struct ud_err err;
	char prog[4200];

	snprintf(prog, sizeof(prog), "%s/stand-in", dir);
	write_text(prog, "#!/bin/sh\n[ \"$UB_BINDIR\" = \"$UD_TEST_PROGRAM_DIR/pgms\" ] || exit 3\n"
			 "[ -d \"$UB_TMPDIR\" ] || exit 4\nsleep 0.5\necho 'COUNT|9|0|lps' >&2\necho 'COUNT|1000|1|lps' >&2\n");
	chmod(prog, 0755);
	setenv("UD_TEST_PROGRAM_DIR", dir, 1);
	ck_assert_int_eq(parse("name = stand-in\ncommand = ${UD_TEST_PROGRAM_DIR}/stand-in\n"
			       "score = ^COUNT\\|([0-9.]+)\\|([0-9]+)\\|([A-Za-z/]+)\nunits_group = 3\ntimebase_group = 2\n"
			       "env = UB_BINDIR=${UD_TEST_PROGRAM_DIR}/pgms UB_TMPDIR=${TMPDIR}\n", &s, &err), 0);
	ud_event_resolve(names[0], &ev[0]);
	ud_run_workload(&s.def, &o, &r);
	ck_assert_msg(r.outcome == UD_OUT_OK, "%s", r.detail.msg);
	ck_assert_uint_eq(r.nsamples, 2);
	for (size_t i = 0; i < r.nsamples; i++) {
		/*
		 * The total over the program's wall time, never the total itself.  That time
		 * (fork to reaping) is at least its 0.5 s sleep and at most the sample's own
		 * elapsed time, which holds it: bounds from the run itself, since how far
		 * past 0.5 s a shell's start-up goes depends on the load (0.67 s with two busy
		 * loops a core here, which a fixed bound of 1500 a second failed).
		 */
		ck_assert_double_le(r.samples[i].score, 1000 / 0.5);
		ck_assert_double_ge(r.samples[i].score, 1000 / (r.samples[i].elapsed_ns / 1e9));
	}
	ud_run_result_free(&r);
	regfree(&s.re);
}
END_TEST

/*
 * A program printing its units in Latin-1 (not UTF-8, which JSON needs):
 * the workload is kept, units shown with '?', and its profile can be
 * written; before, the workload vanished from the saved profile.
 */
START_TEST(test_units_not_utf8_keep_the_workload)
{
	const char *names[] = { "task-clock" };
	struct ud_event ev[1];
	struct ud_runner_opts o = { .target_s = 0.1, .samples = 1, .timeout_s = 300, .ev = ev, .nev = 1, .tmp_root = dir };
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w;
	struct ud_run_result r;
	struct ud_spec s;
	struct ud_err err;
	char prog[4200], spec[5000];
	json_t *doc;

	snprintf(prog, sizeof(prog), "%s/latin1", dir);
	write_text(prog, "#!/bin/sh\nprintf 'score 5 caf\\351/s\\n'\n");
	chmod(prog, 0755);
	snprintf(spec, sizeof(spec), "name = latin1\ncommand = %s\nscore = score ([0-9]+) ([^ ]+)\nunits_group = 2\n", prog);
	ck_assert_int_eq(parse(spec, &s, &err), 0);
	ud_event_resolve(names[0], &ev[0]);
	ud_run_workload(&s.def, &o, &r);
	ck_assert_msg(r.outcome == UD_OUT_OK, "%s", r.detail.msg);
	w = ud_profile_add_workload(p, "latin1");
	ck_assert_int_eq(ud_run_to_workload(&s.def, &r, ev, 1, w), 0);
	ck_assert_str_eq(w->units, "caf?/s");
	doc = profile_tree(p);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "workloads")), 1);
	json_decref(doc);
	ud_profile_free(p);
	ud_run_result_free(&r);
	regfree(&s.re);
}
END_TEST

/* A line whose timebase group is missing is no score; the total of such a line is not a rate. */
START_TEST(test_timebase_missing_is_no_score)
{
	struct ud_spec s;
	struct ud_err err;
	double score = 0;
	char units[32];

	ck_assert_int_eq(parse("name = x\ncommand = true\nunits = lps\nscore = ^COUNT\\|([0-9.]+)\\|?([0-9]*)\n"
			       "timebase_group = 2\n", &s, &err), 0);
	ck_assert_int_eq(ud_spec_score(&s, "COUNT|1000|\n", 2.0, &score, units, sizeof(units), &err), -1);
	ck_assert_int_eq(ud_spec_score(&s, "COUNT|1000|1\n", 2.0, &score, units, sizeof(units), &err), 0);
	ck_assert_double_eq(score, 500);
	regfree(&s.re);
}
END_TEST

/* Groups nested past what the size guard can count are refused, not undercounted into gigabytes. */
START_TEST(test_deep_groups_refused)
{
	char spec[1024] = "name = x\ncommand = true\nunits = s\nscore = ";
	struct ud_spec s;
	struct ud_err err;

	for (int i = 0; i < 40; i++)
		strcat(spec, "(");
	strcat(spec, "a");
	for (int i = 0; i < 32; i++)
		strcat(spec, ")");
	for (int i = 0; i < 8; i++)
		strcat(spec, "){9}");
	strcat(spec, "\n");
	ck_assert_int_eq(parse(spec, &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "too costly to compile"));
}
END_TEST

START_TEST(test_malformed_specs)
{
	struct ud_spec s;
	struct ud_err err;

	ck_assert_int_eq(parse("name = x\njust words\n", &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.spec:2: expected key = value"));
	ck_assert_int_eq(parse("name = x\ncolour = blue\n", &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.spec:2: unknown key 'colour'"));
	ck_assert_int_eq(parse("name = x\nsuites = tiny\n", &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.spec:2: unknown suite 'tiny'"));
	ck_assert_int_eq(parse("name = x\ncommand = true\n", &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "needs name, command, score and units"));
	ck_assert_int_eq(parse("name = x\ncommand = true\nunits = s\nscore = ([0-9\n", &s, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "score pattern"));
}
END_TEST

/*
 * Found by fuzz/fuzz_spec.c: "^C+++...+" took regcomp past 2 GB (a repeat of
 * a repeat is copied once per repetition).  Refused before compiling; as many
 * plain repeats as a real pattern holds still compile.
 */
START_TEST(test_exploding_pattern_refused)
{
	static const char *const bad[] = {
		"^C++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++OUNT\\)|([(A-Za-z/]+)",
		"((a{99}){99}){99}([0-9]+)",
		"(((((((((((((((x+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+([0-9]+)",
		"([0-9]+){1,100000}",
	};
	char text[512];
	struct ud_spec s;
	struct ud_err err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "name = x\ncommand = true\nunits = s\nscore = %s\n", bad[i]);
		ck_assert_int_eq(parse(text, &s, &err), -1);
		ck_assert_msg(strstr(err.msg, "t.spec: score pattern too costly to compile") != NULL, "%s: %s", bad[i],
			      err.msg);
	}
	ck_assert_int_eq(parse("name = x\ncommand = true\nunits = s\n"
			       "score = ^a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y+z+ *[[:space:]]{1,8}([0-9.]+)$\n",
			       &s, &err),
			 0);
	regfree(&s.re);
}
END_TEST

START_TEST(test_availability)
{
	struct ud_spec s;
	struct ud_err err = UD_ERR_INIT, why = UD_ERR_INIT;
	char bin[4096];

	ck_assert_int_eq(parse("name = x\ncommand = no-such-program-xyz --fast\nscore = (1)\nunits = s\n", &s, &err), 0);
	ck_assert(!ud_spec_available(&s, &why, bin, sizeof(bin)));
	ck_assert_str_eq(why.msg, "x: no-such-program-xyz: command not found");
	regfree(&s.re);
	ck_assert_int_eq(parse("name = y\ncommand = ${UD_TEST_PROGRAM_DIR}/p\nscore = (1)\nunits = s\n"
			       "requires = UD_TEST_PROGRAM_DIR\n", &s, &err), 0);
	ck_assert(!ud_spec_available(&s, &why, NULL, 0));
	ck_assert_str_eq(why.msg, "y: needs UD_TEST_PROGRAM_DIR to be set");
	regfree(&s.re);
}
END_TEST

START_TEST(test_program_end_to_end)
{
	const char *names[] = { "task-clock", "page-faults" };
	struct ud_event ev[2];
	struct ud_runner_opts o = { .target_s = 0.1, .samples = 2, .timeout_s = 300, .ev = ev, .nev = 2, .tmp_root = dir };
	struct ud_run_result r;
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w;
	struct ud_spec s;
	struct ud_err err;
	char prog[4200], path[4200];

	/* a UnixBench-like program: it does known work and prints COUNT lines */
	snprintf(prog, sizeof(prog), "%s/p", dir);
	write_text(prog, "#!/bin/sh\n" UD_TESTCHILD " pages 3000\necho COUNT\\|41\\|0\\|lps\necho COUNT\\|42\\|0\\|lps\n");
	chmod(prog, 0755);
	setenv("UD_TEST_PROGRAM_DIR", dir, 1);
	snprintf(path, sizeof(path), "%s/t.spec", dir);
	ck_assert_int_eq(parse("name = fake\ncommand = ${UD_TEST_PROGRAM_DIR}/p\n"
			       "score = ^COUNT\\|([0-9.]+)\\|[0-9]+\\|([A-Za-z/]+)\nunits_group = 2\n"
			       "requires = UD_TEST_PROGRAM_DIR\n", &s, &err), 0);
	for (int i = 0; i < 2; i++)
		ud_event_resolve(names[i], &ev[i]);
	ud_run_workload(&s.def, &o, &r);
	ck_assert_msg(r.outcome == UD_OUT_OK, "%s", r.detail.msg);
	ck_assert_uint_eq(r.nsamples, 2);
	ck_assert_uint_eq(r.iters, 1); /* not calibrated: the program sets its own length */
	/* counted from exec, the page faults of its own child included */
	ck_assert_double_ge(r.samples[0].counts[1].value, 3000);
	w = ud_profile_add_workload(p, "fake");
	ck_assert_int_eq(ud_run_to_workload(&s.def, &r, ev, 2, w), 0);
	ck_assert_double_eq(w->score.median, 42);
	ck_assert_str_eq(w->units, "lps");
	ck_assert(isnan(w->work_units));
	ud_run_result_free(&r);
	ud_profile_free(p);
	regfree(&s.re);
}
END_TEST

/* A score group that is a number only in part is refused with its text, never read as the part. */
START_TEST(test_partial_number_refused)
{
	struct ud_spec s;
	struct ud_err err = UD_ERR_INIT;
	double score = 0;
	char units[32];

	ck_assert_int_eq(parse("name = x\ncommand = true\nunits = ops\nscore = ^score ([0-9.,]+)\n", &s, &err), 0);
	ck_assert_int_eq(ud_spec_score(&s, "score 1234,56\n", 1, &score, units, sizeof(units), &err), -1);
	ck_assert_str_eq(err.msg, "x: its score '1234,56' is not a number");
	/* the last matching line counts: a good one before it does not stand in */
	ck_assert_int_eq(ud_spec_score(&s, "score 7\nscore 1.5.2\n", 1, &score, units, sizeof(units), &err), -1);
	ck_assert_int_eq(ud_spec_score(&s, "score 1,5\nscore 1234.5\n", 1, &score, units, sizeof(units), &err), 0);
	ck_assert_double_eq(score, 1234.5);
	ck_assert_int_eq(ud_spec_score(&s, "nothing\n", 1, &score, units, sizeof(units), &err), -1);
	ck_assert_str_eq(err.msg, "x: no line of its output matches the score pattern");
	regfree(&s.re);
}
END_TEST

/* Runs spec text under the runner in tmp_root, one sample; the outcome and its detail in r. */
static void run_spec(const char *text, const char *tmp_root, struct ud_run_result *r)
{
	struct ud_runner_opts o = { .target_s = 0.1, .samples = 1, .timeout_s = 300, .tmp_root = tmp_root };
	struct ud_spec s;
	struct ud_err err;

	ck_assert_msg(parse(text, &s, &err) == 0, "%s", err.msg);
	ud_run_workload(&s.def, &o, r);
	regfree(&s.re);
}

/* ${TMPDIR} holding a blank is one argument; a relative TMPDIR is made absolute before the program runs in it. */
START_TEST(test_tmpdir_one_word_absolute)
{
	char prog[4200], spaced[4200], spec[8600], *cwd = getcwd(NULL, 0);
	struct ud_run_result r;

	snprintf(prog, sizeof(prog), "%s/argc", dir);
	/* one argument, a folder that exists from inside the folder the program runs in */
	write_text(prog, "#!/bin/sh\n[ $# -eq 1 ] && [ -d \"$1\" ] && case $1 in /*) echo score 1;; esac\n");
	chmod(prog, 0755);
	snprintf(spaced, sizeof(spaced), "%s/my tmp", dir);
	ck_assert_int_eq(mkdir(spaced, 0700), 0);
	snprintf(spec, sizeof(spec), "name = argc\ncommand = %s ${TMPDIR}\nscore = ^score ([0-9]+)$\nunits = x\n", prog);
	run_spec(spec, spaced, &r);
	ck_assert_msg(r.outcome == UD_OUT_OK, "%s", r.detail.msg);
	ud_run_result_free(&r);
	ck_assert_int_eq(chdir(dir), 0);
	run_spec(spec, "my tmp", &r);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_msg(r.outcome == UD_OUT_OK, "%s", r.detail.msg);
	ud_run_result_free(&r);
	free(cwd);
}
END_TEST

/* A program killed by a signal is said so, by the signal's name; one that prints without end is stopped at the cap. */
START_TEST(test_program_ends_said)
{
	char prog[4200], spec[4400];
	struct ud_run_result r;

	snprintf(prog, sizeof(prog), "%s/segv", dir);
	write_text(prog, "#!/bin/sh\nkill -SEGV $$\n");
	chmod(prog, 0755);
	snprintf(spec, sizeof(spec), "name = segv\ncommand = %s\nscore = ^score ([0-9]+)$\nunits = x\n", prog);
	run_spec(spec, dir, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_FAILED);
	ck_assert_msg(strstr(r.detail.msg, "segv was killed by signal 11 (SIGSEGV)") != NULL, "%s", r.detail.msg);
	ud_run_result_free(&r);
	run_spec("name = chatty\ncommand = yes\nscore = ^score ([0-9]+)$\nunits = x\n", dir, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_FAILED);
	/* stopped at the cap, not at the timeout: the message says which (no bound on the time, which load moves) */
	ck_assert_msg(strstr(r.detail.msg, "chatty: its output passed the 64 MiB limit: stopped") != NULL, "%s",
		      r.detail.msg);
	ck_assert_int_eq(count_entries(dir), 2); /* the program and the spec: nothing it printed is left here */
	ud_run_result_free(&r);
}
END_TEST

/*
 * A program that fails says why in its own last line, and that line is in
 * its outcome after the exit status; a long one keeps its end, marked.
 */
START_TEST(test_program_failure_says_why)
{
	char prog[4200], spec[4400], want[300];
	struct ud_run_result r;

	snprintf(prog, sizeof(prog), "%s/lic", dir);
	write_text(prog, "#!/bin/sh\necho starting\necho 'license server unreachable  ' >&2\necho\nexit 3\n");
	chmod(prog, 0755);
	snprintf(spec, sizeof(spec), "name = lic\ncommand = %s\nscore = ^score ([0-9]+)$\nunits = x\n", prog);
	run_spec(spec, dir, &r);
	ck_assert_int_eq(r.outcome, UD_OUT_FAILED);
	ck_assert_msg(strstr(r.detail.msg, "lic exited with status 3: license server unreachable") != NULL, "%s",
		      r.detail.msg);
	ud_run_result_free(&r);
	write_text(prog, "#!/bin/sh\nprintf 'x%.0s' $(seq 300); echo ' the end'; exit 4\n");
	run_spec(spec, dir, &r);
	snprintf(want, sizeof(want), "lic exited with status 4: ...%.192s the end", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	ck_assert_msg(strstr(r.detail.msg, want) != NULL, "%s", r.detail.msg);
	ud_run_result_free(&r);
	/* silent: the status alone */
	write_text(prog, "#!/bin/sh\nexit 5\n");
	run_spec(spec, dir, &r);
	ck_assert_msg(strstr(r.detail.msg, "lic exited with status 5") != NULL && !strstr(r.detail.msg, "status 5:"), "%s",
		      r.detail.msg);
	ud_run_result_free(&r);
}
END_TEST

/* Output holding a NUL: the lines after it still count (a NUL reads as a line break). */
START_TEST(test_program_output_with_nul)
{
	char prog[4200], spec[4400];
	struct ud_run_result r;

	snprintf(prog, sizeof(prog), "%s/nul", dir);
	write_text(prog, "#!/bin/sh\nprintf 'bin\\000ary\\nscore 9\\n'\n");
	chmod(prog, 0755);
	snprintf(spec, sizeof(spec), "name = nul\ncommand = %s\nscore = ^score ([0-9]+)$\nunits = x\n", prog);
	run_spec(spec, dir, &r);
	ck_assert_msg(r.outcome == UD_OUT_OK, "%s", r.detail.msg);
	ck_assert_double_eq(r.samples[0].score, 9);
	ud_run_result_free(&r);
}
END_TEST

START_TEST(test_build_id)
{
	char id[128], path[4096];
	struct ud_err err;

	/* the test binary itself: gcc on Debian links a SHA-1 build-id */
	ck_assert_int_eq(ud_which("/proc/self/exe", path, sizeof(path), &err), 0);
	ck_assert_msg(ud_elf_build_id(path, id, sizeof(id), &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(strlen(id), 40);
	ck_assert_uint_eq(strspn(id, "0123456789abcdef"), 40);
	ck_assert_int_eq(ud_elf_build_id(UD_TEST_DATA "/README.md", id, sizeof(id), &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "not an ELF file"));
	ck_assert_int_eq(ud_which("sh", path, sizeof(path), &err), 0);
	ck_assert_int_eq(path[0], '/');
}
END_TEST

int main(void)
{
	Suite *s = suite_create("spec");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_shipped_specs_load);
	tcase_add_test(tc, test_unixbench_count_lines);
	tcase_add_test(tc, test_unixbench_timebase);
	tcase_add_test(tc, test_unixbench_stand_in);
	tcase_add_test(tc, test_malformed_specs);
	tcase_add_test(tc, test_units_not_utf8_keep_the_workload);
	tcase_add_test(tc, test_timebase_missing_is_no_score);
	tcase_add_test(tc, test_deep_groups_refused);
	tcase_add_test(tc, test_exploding_pattern_refused);
	tcase_add_test(tc, test_availability);
	tcase_add_test(tc, test_program_end_to_end);
	tcase_add_test(tc, test_build_id);
	tcase_add_test(tc, test_partial_number_refused);
	tcase_add_test(tc, test_tmpdir_one_word_absolute);
	tcase_add_test(tc, test_program_ends_said);
	tcase_add_test(tc, test_program_failure_says_why);
	tcase_add_test(tc, test_program_output_with_nul);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
