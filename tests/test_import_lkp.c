/*
 * The kernel test robot's comparison tables (issue 32), on the real mails
 * in tests/data/lkp (tests/data/README.md says where each is from) and one
 * made-up edge case: both sides import, each with its score and noise, its
 * counters and theirs, cycles derived where the table has none and marked
 * so, the host facts the mail states, and the diff of the two sides gives
 * the change the mail states.  And what is refused: no --side, --side on
 * another format, a table cut short, a malformed value, three commits.
 * Long prose facts and names are kept whole, never cut (issue 36).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diffutil.h"
#include "fileio.h"
#include "import.h"
#include "testutil.h"
#include "text.h"

#define POLL2 UD_TEST_DATA "/lkp/will-it-scale-poll2-077ab1260a.txt"
#define FILEBENCH UD_TEST_DATA "/lkp/filebench-randomwrite-b55102826d.txt"
#define AIM9 UD_TEST_DATA "/lkp/aim9-udp_test-e9669a00bb.txt"
#define MADE_UP UD_TEST_DATA "/lkp/made-up-fail-runs.txt"

static struct ud_err err;

/* One side of a table file, into a profile of an empty host; the test fails on error. */
static struct ud_profile *side_of(const char *path, enum ud_import_side side)
{
	struct ud_import_opts o = { .side = side };
	struct ud_profile *p = ud_profile_new(NULL);

	ck_assert_ptr_nonnull(p);
	ck_assert_msg(ud_import_file(p, path, &o, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(p->nworkloads, 1);
	return p;
}

/* The error importing text (with side) gives, which must name what. */
static void refused(const char *text, enum ud_import_side side, const char *what)
{
	struct ud_import_opts o = { .side = side };
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_err e = UD_ERR_INIT;

	ck_assert_int_ne(ud_import_buffer(p, text, strlen(text), "t.txt", &o, &e), 0);
	ck_assert_msg(strstr(e.msg, what), "'%s' lacks '%s'", e.msg, what);
	ck_assert_uint_eq(p->nworkloads, 0);
	ud_profile_free(p);
}

static char *file_text(const char *path)
{
	size_t len;
	char *t = ud_read_file(path, UD_INPUT_IMPORT, &len, &err);

	ck_assert_msg(t != NULL, "%s", err.msg);
	return t;
}

static const struct ud_counter *counter(const struct ud_profile *p, const char *name)
{
	const struct ud_counter *c = ud_workload_counter(&p->workloads[0], name);

	ck_assert_msg(c && c->status == UD_COUNTED, "no counted %s", name);
	return c;
}

static double metric(const struct ud_workload *w, const char *name)
{
	for (size_t i = 0; i < w->nperf_metrics; i++)
		if (strcmp(w->perf_metrics[i].name, name) == 0)
			return w->perf_metrics[i].value;
	ck_abort_msg("no perf metric %s", name);
	return NAN;
}

START_TEST(test_detected)
{
	const char *files[] = { POLL2, FILEBENCH, AIM9, MADE_UP };
	char *perf = file_text(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt");

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *t = file_text(files[i]);

		ck_assert_int_eq(ud_import_detect(t, strlen(t)), UD_FMT_LKP);
		free(t);
	}
	ck_assert_int_ne(ud_import_detect(perf, strlen(perf)), UD_FMT_LKP);
	free(perf);
}
END_TEST

/* filebench: a regression, with cycles counted; the parent's side. */
START_TEST(test_filebench_base)
{
	struct ud_profile *p = side_of(FILEBENCH, UD_IMPORT_SIDE_BASE);
	const struct ud_workload *w = &p->workloads[0];

	ck_assert_str_eq(w->name, "filebench/randomwrite.f");
	ck_assert_str_eq(w->units, "sum_operations/s");
	/* "a 12.4% regression" of a score that fell: higher is better */
	ck_assert_int_eq(w->higher_is_better, 1);
	ck_assert(w->score.median == 102425);
	/* no "±" on the row, and the run count unknown: the 2% bound, at n = 2 */
	ck_assert(w->score.rel_stderr == 0.02);
	ck_assert_int_eq(w->score.runs, 0);
	ck_assert(w->elapsed_ns == 1e9);
	/* the ps family: 1.182e+10 cycles a second, counted, not derived */
	ck_assert(counter(p, "cycles")->value == 1.182e10);
	ck_assert_ptr_null(counter(p, "cycles")->reason);
	ck_assert(counter(p, "instructions")->value == 3.749e9);
	ck_assert(counter(p, "branches")->value == 7.538e8);
	ck_assert(counter(p, "cache-misses")->value == 12385908);
	/* "17574 ±  3%": below 4%, a bound kept as is with the runs unknown */
	ck_assert(fabs(counter(p, "context-switches")->rel_stddev - 0.04) < 1e-15);
	ck_assert(metric(w, "perf-stat.overall.cpi") == 3.15);
	ck_assert(metric(w, "perf-stat.i.cpu-cycles") == 1.189e10);
	/* the test's other rows are sub-scores; iostat and the rest are not kept */
	ck_assert_uint_eq(w->nsubscores, 5);
	ck_assert_str_eq(w->subscores[0].name, "filebench.sum_bytes_mb/s");
	ck_assert(w->subscores[0].value == 800.20);
	ck_assert_ptr_null(ud_workload_counter(w, "iostat.cpu.system"));
	/* the host the mail describes */
	ck_assert_str_eq(p->host->label, "e3a9ac4e86 (\"mm: add vmstat for kernel_file pages\")");
	ck_assert_str_eq(p->host->cpu.model_name, "Intel(R) Xeon(R) Platinum 9242 CPU @ 2.30GHz (Cascade Lake)");
	ck_assert_int_eq(p->host->cpu.online_cpus, 192);
	ck_assert_str_eq(p->host->cpufreq.governor, "performance");
	/* perf stat -a: the machine's counts */
	ck_assert_ptr_nonnull(w->target);
	ck_assert_int_eq(w->target->kind, UD_TARGET_SYSTEM_WIDE);
	ck_assert_uint_eq(w->target->nids, 192);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_filebench_head)
{
	struct ud_profile *p = side_of(FILEBENCH, UD_IMPORT_SIDE_HEAD);
	const struct ud_workload *w = &p->workloads[0];

	ck_assert(w->score.median == 89741);
	ck_assert(counter(p, "cycles")->value == 1.228e10);
	ck_assert(counter(p, "instructions")->value == 4.29e9);
	ck_assert_str_eq(p->host->label, "b55102826d (\"btrfs: set AS_KERNEL_FILE on the btree_inode\")");
	ck_assert(w->score.rel_stderr == 0.02);
	ud_profile_free(p);
}
END_TEST

/* A side without a "±" on any row may have had one run: no spread is claimed for it. */
START_TEST(test_one_run_side)
{
	static const char t[] = "         %stddev     %change         %stddev\n"
				"             \\          |                \\\n"
				"    234495 ±  3%      +1.9%     238859        will-it-scale.per_process_ops\n";
	struct ud_import_opts o = { .side = UD_IMPORT_SIDE_HEAD };
	struct ud_profile *p = ud_profile_new(NULL);

	ck_assert_msg(ud_import_buffer(p, t, sizeof(t) - 1, "t.txt", &o, &err) == 0, "%s", err.msg);
	ck_assert(p->workloads[0].score.median == 238859);
	ck_assert(isnan(p->workloads[0].score.rel_stderr));
	ck_assert_str_eq(p->workloads[0].name, "will-it-scale");
	ud_profile_free(p);
	p = ud_profile_new(NULL);
	o.side = UD_IMPORT_SIDE_BASE;
	ck_assert_msg(ud_import_buffer(p, t, sizeof(t) - 1, "t.txt", &o, &err) == 0, "%s", err.msg);
	ck_assert(fabs(p->workloads[0].score.rel_stderr - 0.04) < 1e-15);
	ud_profile_free(p);
}
END_TEST

/* will-it-scale poll2 and aim9 print instructions and CPI but no cycles: derived, and said so. */
START_TEST(test_cycles_derived)
{
	struct { const char *path; double instructions, cpi; } cases[] = {
		{ POLL2, 2.575e11, 1.08 }, { AIM9, 2.837e9, 1.48 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ud_profile *p = side_of(cases[i].path, UD_IMPORT_SIDE_BASE);
		const struct ud_counter *c = counter(p, "cycles");

		ck_assert(counter(p, "instructions")->value == cases[i].instructions);
		REL(c->value, cases[i].instructions * cases[i].cpi);
		ck_assert_ptr_nonnull(c->reason);
		ck_assert_msg(strstr(c->reason, "derived") && strstr(c->reason, "perf-stat.overall.cpi"), "%s", c->reason);
		ud_profile_free(p);
	}
}
END_TEST

START_TEST(test_poll2_facts)
{
	struct ud_profile *p = side_of(POLL2, UD_IMPORT_SIDE_HEAD);
	const struct ud_workload *w = &p->workloads[0];

	ck_assert_str_eq(w->name, "will-it-scale/poll2");
	ck_assert_str_eq(w->units, "per_process_ops");
	ck_assert_int_eq(w->higher_is_better, 1);
	ck_assert(w->score.median == 238859);
	ck_assert_str_eq(p->host->label,
			 "077ab1260a (\"dcache: back inline names with a struct-wrapped array of unsigned long\")");
	/* "104 threads 2 sockets (Skylake)": the codename is all the mail says of the CPU */
	ck_assert_str_eq(p->host->cpu.model_name, "Skylake");
	ck_assert_int_eq(p->host->cpu.online_cpus, 104);
	/* perf-profile, sched_debug and perf-sched rows are none of the profile's */
	ck_assert_uint_eq(w->ncounters, 4);
	for (size_t i = 0; i < w->nperf_metrics; i++)
		ck_assert_msg(strncmp(w->perf_metrics[i].name, "perf-stat.", 10) == 0, "%s", w->perf_metrics[i].name);
	ud_profile_free(p);
}
END_TEST

/* The speedup the diff computes from the two sides is the change the mail states, to its rounding. */
START_TEST(test_diff_gives_the_mails_change)
{
	struct { const char *path; double change_pct; } cases[] = {
		{ FILEBENCH, -12.4 }, { POLL2, 1.9 }, { AIM9, 2.7 }, { MADE_UP, 10.0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ud_profile *a = side_of(cases[i].path, UD_IMPORT_SIDE_BASE);
		struct ud_profile *b = side_of(cases[i].path, UD_IMPORT_SIDE_HEAD);
		struct ud_diff *d = model_of(a, b, &err);

		ck_assert_msg(d != NULL, "%s", err.msg);
		ck_assert_uint_eq(d->nworkloads, 1);
		ck_assert_msg(fabs(100 * (d->workloads[0].speedup - 1) - cases[i].change_pct) < 0.05, "%s: %g",
			      cases[i].path, d->workloads[0].speedup);
		ud_diff_free(d);
		ud_profile_free(a);
		ud_profile_free(b);
	}
}
END_TEST

/* The made-up edge case: runs from the fail:runs block, times from mpstat, task-clock, path length. */
START_TEST(test_runs_and_times)
{
	struct ud_profile *p = side_of(MADE_UP, UD_IMPORT_SIDE_BASE);
	const struct ud_workload *w = &p->workloads[0];

	ck_assert_int_eq(w->runs, 5);
	ck_assert_int_eq(w->score.runs, 5);
	/* "± 5%" over 5 runs: at most 6% as a population deviation, 6% / sqrt(4) as a standard error */
	ck_assert(fabs(w->score.rel_stderr - 0.03) < 1e-15);
	ck_assert(w->user_ns == 30.0 / 100 * 8 * 1e9);
	ck_assert(w->sys_ns == (60.0 + 2.0) / 100 * 8 * 1e9);
	ck_assert(counter(p, "task-clock")->value == 8000 * 1e6);
	/* ps, not i: one family */
	ck_assert(counter(p, "cycles")->value == 1.6e10);
	ck_assert(metric(w, "perf-stat.overall.path-length") == 10000);
	ck_assert_str_eq(p->host->cpufreq.governor, "powersave");
	ck_assert_str_eq(p->host->cpu.model_name, "Intel(R) Core(TM) i7-0000 CPU @ 1.00GHz (Made-up Lake)");
	/* a row the profile has no place for is passed over, never an error */
	for (size_t i = 0; i < w->nsubscores; i++)
		ck_assert_msg(!strstr(w->subscores[i].name, "unknown_row"), "%s", w->subscores[i].name);
	ck_assert_uint_eq(w->nsubscores, 2);
	ud_profile_free(p);
	p = side_of(MADE_UP, UD_IMPORT_SIDE_HEAD);
	ck_assert_int_eq(p->workloads[0].runs, 4);
	ck_assert(fabs(p->workloads[0].score.rel_stderr - 0.02 / sqrt(3)) < 1e-15);
	ud_profile_free(p);
}
END_TEST

/* text with every from replaced by to, in a new string. */
static char *replaced(const char *text, const char *from, const char *to)
{
	size_t n = 0, fl = strlen(from), tl = strlen(to);
	char *out, *o;

	for (const char *at = strstr(text, from); at; at = strstr(at + fl, from))
		n++;
	o = out = malloc(strlen(text) + n * tl + 1);
	ck_assert_ptr_nonnull(out);
	for (const char *at; (at = strstr(text, from)) != NULL; text = at + fl) {
		memcpy(o, text, (size_t)(at - text));
		o += at - text;
		memcpy(o, to, tl);
		o += tl;
	}
	strcpy(o, text);
	return out;
}

/*
 * The made-up edge case with its prose and one row grown past every buffer
 * the importer once had (issue 36): a 700-byte commit subject, a 200-byte
 * test, governor and perf-stat metric name, a 600-byte CPU model.  Each is
 * kept whole: a cut one would name another commit, test or counter.
 */
START_TEST(test_long_facts_whole)
{
	char subject[701], test[201], governor[201], lake[601], row[201], *t0 = file_text(MADE_UP), *t[5], *label;
	struct ud_import_opts o = { .side = UD_IMPORT_SIDE_HEAD };
	struct ud_profile *p = ud_profile_new(NULL);
	const struct ud_workload *w;

	memset(subject, 's', 700);
	memcpy(subject, "made-up: ", 9);
	subject[700] = '\0';
	memset(test, 't', 200);
	memcpy(test, "madeup-", 7);
	test[200] = '\0';
	memset(governor, 'g', 200);
	memcpy(governor, "powersave-", 10);
	governor[200] = '\0';
	memset(lake, 'l', 600);
	memcpy(lake, "Made-up Lake", 12);
	lake[600] = '\0';
	memset(row, 'r', 200);
	memcpy(row, "perf-stat.overall.made-up-", 26);
	row[200] = '\0';
	t[0] = replaced(t0, "made-up: an edge case for uarchdiff's importer tests", subject);
	t[1] = replaced(t[0], "madeup1", test);
	t[2] = replaced(t[1], "powersave", governor);
	t[3] = replaced(t[2], "Made-up Lake", lake);
	t[4] = replaced(t[3], "perf-stat.overall.path-length", row);
	ck_assert_msg(ud_import_buffer(p, t[4], strlen(t[4]), "t.txt", &o, &err) == 0, "%s", err.msg);
	w = &p->workloads[0];
	label = ud_printf_new("1111111111 (\"%s\")", subject);
	ck_assert_str_eq(p->host->label, label);
	ck_assert_str_eq(p->host->cpufreq.governor, governor);
	ck_assert(strstr(p->host->cpu.model_name, lake) && strlen(p->host->cpu.model_name) > 600);
	ck_assert(strcmp(w->name, "will-it-scale/") > 0 && strcmp(w->name + strlen("will-it-scale/"), test) == 0);
	ck_assert(metric(w, row) == 10909);
	free(label);
	for (int i = 0; i < 5; i++)
		free(t[i]);
	free(t0);
	ud_profile_free(p);
}
END_TEST

/* Pasted as a mail reply quotes it ("> "), in the robot's ISO-8859-1 ("±" one byte): the same profile. */
START_TEST(test_quoted_latin1)
{
	char *t = file_text(POLL2), *q = malloc(3 * strlen(t) + 1), *o = q;
	struct ud_import_opts opts = { .side = UD_IMPORT_SIDE_BASE };
	struct ud_profile *p = ud_profile_new(NULL), *want = side_of(POLL2, UD_IMPORT_SIDE_BASE);

	o += sprintf(o, "> ");
	for (const char *s = t; *s; s++) {
		if (strncmp(s, "\xc2\xb1", 2) == 0) {
			*o++ = '\xb1';
			s++;
		} else {
			*o++ = *s;
			if (*s == '\n' && s[1])
				o += sprintf(o, "> ");
		}
	}
	*o = '\0';
	ck_assert_int_eq(ud_import_detect(q, strlen(q)), UD_FMT_LKP);
	ck_assert_msg(ud_import_buffer(p, q, strlen(q), "q.txt", &opts, &err) == 0, "%s", err.msg);
	ck_assert(p->workloads[0].score.median == want->workloads[0].score.median);
	ck_assert(counter(p, "cycles")->value == counter(want, "cycles")->value);
	ck_assert_str_eq(p->host->label, want->host->label);
	ud_profile_free(p);
	ud_profile_free(want);
	free(q);
	free(t);
}
END_TEST

/* What the user gave wins over what the mail says: --label, --score, --workload. */
START_TEST(test_user_given_wins)
{
	struct ud_host *h = ud_host_new();
	double score = 5;
	struct ud_import_opts o = { .side = UD_IMPORT_SIDE_HEAD, .workload = "poll", .scores = &score, .nscores = 1 };
	struct ud_profile *p;

	ck_assert_int_eq(ud_host_set_string(&h->label, "mine"), 0);
	p = ud_profile_new(h);
	ck_assert_msg(ud_import_file(p, POLL2, &o, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(p->host->label, "mine");
	ck_assert_str_eq(p->workloads[0].name, "poll");
	ck_assert(p->workloads[0].score.median == 5);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_refusals)
{
	char *t = file_text(AIM9), *cut;
	char *perf = file_text(UD_TEST_DATA "/perf-stat/oci-e5-genoa-fstime.txt");
	struct ud_import_opts o = { .side = UD_IMPORT_SIDE_BASE };
	struct ud_profile *p = ud_profile_new(NULL);

	refused(t, UD_IMPORT_SIDE_NONE, "t.txt:38: a kernel test robot table holds two sides: add --side base");
	ck_assert_int_ne(ud_import_buffer(p, perf, strlen(perf), "perf.txt", &o, &err), 0);
	ck_assert_msg(strstr(err.msg, "perf.txt: --side takes a side of a kernel test robot table, and this is perf-text"),
		      "%s", err.msg);
	/* cut inside a row: the row has no name */
	cut = strstr(t, "302449        aim9.udp_test.ops_per_sec");
	cut[strlen("302449        ")] = '\0';
	refused(t, UD_IMPORT_SIDE_BASE, "t.txt:41: the row has no name (cut short?)");
	/* cut after the header: no row at all */
	cut = strstr(t, "    294621");
	*cut = '\0';
	refused(t, UD_IMPORT_SIDE_BASE, "t.txt:40: the table ends before its first row (cut short?)");
	refused("         %stddev     %change         %stddev\n             \\          |                \\\n"
		"  1.2.3e+10           +1.9%   24841387        will-it-scale.workload\n",
		UD_IMPORT_SIDE_HEAD, "t.txt:3: '1.2.3e+10' is not a number");
	refused("         %stddev     %change         %stddev     %change         %stddev\n"
		"      1.00            +1.0%       1.01            +2.0%       1.02        x.y\n",
		UD_IMPORT_SIDE_HEAD, "t.txt:1: the table compares 3 commits");
	ud_profile_free(p);
	free(perf);
	free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("import_lkp");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, diffutil_load, diffutil_unload);
	tcase_add_test(tc, test_detected);
	tcase_add_test(tc, test_filebench_base);
	tcase_add_test(tc, test_filebench_head);
	tcase_add_test(tc, test_one_run_side);
	tcase_add_test(tc, test_cycles_derived);
	tcase_add_test(tc, test_poll2_facts);
	tcase_add_test(tc, test_diff_gives_the_mails_change);
	tcase_add_test(tc, test_runs_and_times);
	tcase_add_test(tc, test_long_facts_whole);
	tcase_add_test(tc, test_quoted_latin1);
	tcase_add_test(tc, test_user_given_wins);
	tcase_add_test(tc, test_refusals);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
