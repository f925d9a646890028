/*
 * `uarchdiff stat record` and `stat report` (issue 34): the report of a
 * record is the report `stat record` printed in the same run, row for row
 * (names, units, values, order), in text, -x and -j, with -r and -I; the
 * header names the recording command line, or 'pipe' for stdin as perf's;
 * the old record is kept as FILE.old; and what is no record (garbage, a
 * cut record, perf's perf.data, a profile without one) is refused with
 * one line and exit 2.  Software events only: they count on any Linux host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define UD UD_BINARY
#define HEADER " Performance counter stats for "

/* text without its header line (the one line the two reports may word differently). */
static char *without_header(const char *text)
{
	char *copy = strdup(text), *line = strstr(copy, HEADER);

	ck_assert_ptr_nonnull(copy);
	if (line) {
		char *end = strchr(line, '\n');

		memmove(line, end ? end + 1 : line + strlen(line), strlen(end ? end + 1 : "") + 1);
	}
	return copy;
}

/* Records argv's options and command into dir/rec, reports it with fmt's layout; the two reports the same. */
static void same_report(const char *dir, char *const opts[], size_t nopts, const char *fmt)
{
	char path[4200], *rec[32] = { UD, "stat", "record", "-o", path }, *rep[8] = { UD, "stat", "report", "-i", path };
	size_t n = 5, m = 5;
	struct run_result live, again;
	char *a, *b;

	snprintf(path, sizeof(path), "%s/rec", dir);
	for (size_t i = 0; i < nopts && n < 31; i++)
		rec[n++] = opts[i];
	if (fmt)
		rep[m++] = (char *)fmt;
	live = run_capture(rec);
	ck_assert_msg(live.status == 0, "%s %s: exit %d: %s", opts[0], opts[1], live.status, live.err);
	again = run_capture(rep);
	ck_assert_msg(again.status == 0, "report: exit %d: %s", again.status, again.err);
	a = without_header(live.err);
	b = without_header(again.err);
	ck_assert_msg(strcmp(a, b) == 0, "%s %s: stat printed\n%s\nreport printed\n%s", opts[0], opts[1], a, b);
	ck_assert_msg(count_lines(a) > 0, "%s: nothing printed", opts[0]);
	if (!fmt || strcmp(fmt, "-j") != 0) {
		const char *h = strstr(again.err, HEADER);

		/* the header (text only; -I without --summary prints none) names the recording command line */
		ck_assert(!strstr(live.err, HEADER) == !h);
		ck_assert(!h || strstr(h, " stat record -o "));
	}
	free(a);
	free(b);
	run_free(&live);
	run_free(&again);
}

START_TEST(test_report_is_what_stat_printed)
{
	char *text[] = { "-r", "2", "-e", "task-clock,page-faults", "--", "true" };
	char *csv[] = { "-x,", "-e", "task-clock,page-faults,cpu-migrations", "--", "true" };
	char *json[] = { "-j", "-e", "task-clock,page-faults", "--", "true" };
	char *iv[] = { "-I", "50", "-e", "task-clock,page-faults", "--", "sleep", "0.12" };
	char *ivs[] = { "-I", "50", "--summary", "-x;", "-e", "task-clock", "--", "sleep", "0.12" };
	char *deflt[] = { "--", "true" };
	char *dir = make_tempdir();

	same_report(dir, text, 6, NULL);
	same_report(dir, csv, 5, "-x,");
	same_report(dir, json, 5, "-j");
	same_report(dir, iv, 7, NULL);
	same_report(dir, ivs, 9, "-x;");
	same_report(dir, deflt, 2, NULL);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* perf's own test: `perf stat record -o - true | perf stat report -i -` heads the report 'pipe'. */
START_TEST(test_pipe)
{
	char *argv[] = { "/bin/sh", "-c",
			 UD " stat record -o - -e task-clock true 2>rec.err | " UD " stat report -i - 2>&1; cat rec.err",
			 NULL };
	char *dir = make_tempdir(), *cwd = getcwd(NULL, 0);
	struct run_result r;

	ck_assert_int_eq(chdir(dir), 0);
	r = run_capture(argv);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	ck_assert_msg(strstr(r.out, "\n" HEADER "'pipe':\n"), "%s", r.out);
	ck_assert_msg(strstr(r.out, " msec task-clock "), "%s", r.out);
	/* the record went down the pipe, and no report beside it, as perf's */
	ck_assert_msg(!strstr(strstr(r.out, HEADER) + 1, HEADER), "%s", r.out);
	ck_assert_int_eq(count_entries(dir), 1);
	run_free(&r);
	rm_tree(dir);
	free(dir);
	free(cwd);
}
END_TEST

/* perf.data by default, and the one there before kept as perf.data.old (perf's check_backup()). */
START_TEST(test_default_file_and_old)
{
	char *argv[] = { "/bin/sh", "-c",
			 UD " stat record -e task-clock -- true 2>/dev/null && cp perf.data first && "
			 UD " stat record -e page-faults -- true 2>/dev/null && cmp first perf.data.old && "
			 UD " stat report 2>&1",
			 NULL };
	char *dir = make_tempdir(), *cwd = getcwd(NULL, 0);
	struct run_result r;

	ck_assert_int_eq(chdir(dir), 0);
	r = run_capture(argv);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
	ck_assert_msg(strstr(r.out, " page-faults ") && !strstr(r.out, "task-clock"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "stat record -e page-faults -- true':"), "%s", r.out);
	run_free(&r);
	rm_tree(dir);
	free(dir);
	free(cwd);
}
END_TEST

/* What is no record: refused with one line naming why, exit 2, nothing printed on stdout. */
START_TEST(test_refused_inputs)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "PERFILE2\x68\0\0\0\0\0\0\0", "perf.data from perf record/stat record: read it with perf stat report" },
		{ "garbage\n", "not a uarchdiff profile" },
		{ "{\"schema\": \"uarchdiff.profile/1\", \"host\": {}, \"workloads\": [{\"name\": \"w\"}]}",
		  "a profile without a stat record" },
		{ "{\"schema\": \"uarchdiff.profile/1\", \"host\": {}, \"workloads\": [{\"name\": \"w\", \"counters\": "
		  "{\"task-clock\": {\"status\": \"counted\", \"value\": 1}}, \"stat_record\": {\"rows\": \"whole\", "
		  "\"columns\": []}}]}",
		  "columns: expected an array of one unit a counter" },
	};
	char *dir = make_tempdir(), path[4200], cut[4200];
	char *rec[] = { UD, "stat", "record", "-o", cut, "-e", "task-clock", "--", "true", NULL };
	char *argv[] = { UD, "stat", "report", "-i", path, NULL };
	struct run_result r;

	snprintf(path, sizeof(path), "%s/in", dir);
	snprintf(cut, sizeof(cut), "%s/cut", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f = fopen(path, "w");

		ck_assert_ptr_nonnull(f);
		fwrite(bad[i].text, 1, i == 0 ? 16 : strlen(bad[i].text), f);
		fclose(f);
		r = run_capture(argv);
		ck_assert_msg(r.status == 2 && count_lines(r.err) == 1 && strstr(r.err, bad[i].want), "%zu: exit %d: %s",
			      i, r.status, r.err);
		ck_assert_str_eq(r.out, "");
		run_free(&r);
	}
	r = run_capture(rec);
	ck_assert_int_eq(r.status, 0);
	run_free(&r);
	ck_assert_int_eq(truncate(cut, 300), 0);
	snprintf(path, sizeof(path), "%s", cut);
	r = run_capture(argv);
	ck_assert_msg(r.status == 2 && count_lines(r.err) == 1, "a cut record: exit %d: %s", r.status, r.err);
	run_free(&r);
	rm_tree(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stat_record");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_report_is_what_stat_printed);
	tcase_add_test(tc, test_pipe);
	tcase_add_test(tc, test_default_file_and_old);
	tcase_add_test(tc, test_refused_inputs);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
