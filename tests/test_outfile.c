#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>

#include "outfile.h"
#include "testutil.h"

START_TEST(test_commit_replaces_atomically)
{
	char *dir = make_tempdir(), path[4200], *text;
	struct ud_err err;
	struct ud_outfile *o;

	snprintf(path, sizeof(path), "%s/p.json", dir);
	write_text(path, "old");
	o = ud_outfile_open(path, &err);
	ck_assert_ptr_nonnull(o);
	fputs("new", ud_outfile_stream(o));
	/* until commit the old content stands */
	text = read_text(path);
	ck_assert_str_eq(text, "old");
	free(text);
	ck_assert_int_eq(ud_outfile_commit(o, &err), 0);
	text = read_text(path);
	ck_assert_str_eq(text, "new");
	free(text);
	ck_assert_int_eq(count_entries(dir), 1); /* no temporary left */
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_abort_leaves_nothing)
{
	char *dir = make_tempdir(), path[4200];
	struct ud_err err;
	struct ud_outfile *o;
	struct stat st;

	snprintf(path, sizeof(path), "%s/p.json", dir);
	o = ud_outfile_open(path, &err);
	fputs("half", ud_outfile_stream(o));
	ud_outfile_abort(o);
	ck_assert_int_ne(stat(path, &st), 0);
	ck_assert_int_eq(count_entries(dir), 0);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_device_written_in_place)
{
	struct ud_err err;
	struct ud_outfile *o = ud_outfile_open("/dev/null", &err);
	struct stat st;

	ck_assert_ptr_nonnull(o);
	fputs("x", ud_outfile_stream(o));
	ck_assert_int_eq(ud_outfile_commit(o, &err), 0);
	ck_assert_int_eq(stat("/dev/null", &st), 0);
	ck_assert(S_ISCHR(st.st_mode)); /* still the device, not a file renamed over it */
}
END_TEST

START_TEST(test_unwritable_paths)
{
	struct ud_err err;
	char *dir = make_tempdir();

	ck_assert_ptr_null(ud_outfile_open("/nonexistent-dir/p.json", &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent-dir/p.json: cannot write"));
	ck_assert_ptr_null(ud_outfile_open(dir, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "is a directory"));
	rm_tree(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_commit_replaces_atomically);
	tcase_add_test(tc, test_abort_leaves_nothing);
	tcase_add_test(tc, test_device_written_in_place);
	tcase_add_test(tc, test_unwritable_paths);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
