#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

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

/* --append: each flush and the commit add to the end; the file is never replaced; a new path is created. */
START_TEST(test_append_adds_at_each_flush)
{
	char *dir = make_tempdir(), path[4200], fresh[4200], *text;
	struct ud_err err;
	struct ud_outfile *o;
	struct stat before, after;

	snprintf(path, sizeof(path), "%s/r.txt", dir);
	snprintf(fresh, sizeof(fresh), "%s/new.txt", dir);
	write_text(path, "old\n");
	ck_assert_int_eq(stat(path, &before), 0);
	o = ud_outfile_append(path, &err);
	ck_assert_ptr_nonnull(o);
	fputs("one\n", ud_outfile_stream(o));
	ck_assert_int_eq(ud_outfile_flush(o, &err), 0);
	text = read_text(path);
	ck_assert_str_eq(text, "old\none\n"); /* there at the flush, not only at commit */
	free(text);
	fputs("two\n", ud_outfile_stream(o));
	ck_assert_int_eq(ud_outfile_commit(o, &err), 0);
	text = read_text(path);
	ck_assert_str_eq(text, "old\none\ntwo\n");
	free(text);
	ck_assert_int_eq(stat(path, &after), 0);
	ck_assert_uint_eq(before.st_ino, after.st_ino); /* added to, not replaced */
	o = ud_outfile_append(fresh, &err);
	ck_assert_ptr_nonnull(o);
	fputs("x", ud_outfile_stream(o));
	ck_assert_int_eq(ud_outfile_commit(o, &err), 0);
	text = read_text(fresh);
	ck_assert_str_eq(text, "x");
	free(text);
	ck_assert_int_eq(count_entries(dir), 2);
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

START_TEST(test_existing_mode_kept)
{
	char *dir = make_tempdir(), path[4200];
	struct ud_err err;
	struct ud_outfile *o;
	struct stat st;

	snprintf(path, sizeof(path), "%s/p.json", dir);
	write_text(path, "old");
	chmod(path, 0600);
	o = ud_outfile_open(path, &err);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(ud_outfile_commit(o, &err), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_read_only_refused)
{
	char *dir = make_tempdir(), path[4200], *text;
	struct ud_err err;

	snprintf(path, sizeof(path), "%s/p.json", dir);
	write_text(path, "keep");
	chmod(path, 0444);
	ck_assert_int_ne(ud_outfile_check(path, &err), 0);
	ck_assert_ptr_null(ud_outfile_open(path, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "p.json: read-only file: not replaced"));
	text = read_text(path);
	ck_assert_str_eq(text, "keep");
	free(text);
	ck_assert_int_eq(count_entries(dir), 1);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_symlink_written_through)
{
	char *dir = make_tempdir(), target[4200], link[4200], *text;
	struct ud_err err;
	struct ud_outfile *o;
	struct stat st;

	snprintf(target, sizeof(target), "%s/target.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	write_text(target, "old");
	ck_assert_int_eq(symlink("target.json", link), 0);
	o = ud_outfile_open(link, &err);
	ck_assert_ptr_nonnull(o);
	fputs("new", ud_outfile_stream(o));
	ck_assert_int_eq(ud_outfile_commit(o, &err), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	text = read_text(target);
	ck_assert_str_eq(text, "new");
	free(text);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* A name nobody chose is never an existing file: refused at open, and at commit when it appeared meanwhile. */
START_TEST(test_create_replaces_nothing)
{
	char *dir = make_tempdir(), path[4200], *text;
	struct ud_err err;
	struct ud_outfile *o;

	snprintf(path, sizeof(path), "%s/p.json", dir);
	ck_assert_int_eq(ud_outfile_check_new(path, &err), 0);
	o = ud_outfile_create(path, &err);
	ck_assert_ptr_nonnull(o);
	fputs("first", ud_outfile_stream(o));
	write_text(path, "someone else's"); /* appeared between open and commit */
	ck_assert_int_eq(ud_outfile_commit(o, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "p.json: exists already: not replaced"));
	text = read_text(path);
	ck_assert_str_eq(text, "someone else's");
	free(text);
	ck_assert_int_eq(count_entries(dir), 1); /* no temporary left */
	ck_assert_int_eq(ud_outfile_check_new(path, &err), -1);
	ck_assert_ptr_null(ud_outfile_create(path, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "exists already"));
	rm_tree(dir);
	free(dir);
}
END_TEST

/* Links through folders and back, chains of links, a name as long as a file name may be. */
START_TEST(test_paths_walked)
{
	char *dir = make_tempdir(), path[4200], name[300], *text;
	struct ud_err err;
	struct ud_outfile *o;

	snprintf(path, sizeof(path), "%s/sub", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sub/../sub/./link2", dir);
	ck_assert_int_eq(symlink("link1", path), 0);
	snprintf(path, sizeof(path), "%s/sub/link1", dir);
	ck_assert_int_eq(symlink("../real.json", path), 0);
	snprintf(path, sizeof(path), "%s//sub/link2", dir);
	ck_assert_ptr_null(ud_outfile_open(path, &err)); /* a chain that ends nowhere is a link to nothing */
	ck_assert_ptr_nonnull(strstr(err.msg, "a symbolic link to a file that does not exist"));
	snprintf(path, sizeof(path), "%s/real.json", dir);
	write_text(path, "old");
	snprintf(path, sizeof(path), "%s/sub/link2", dir);
	o = ud_outfile_open(path, &err);
	ck_assert_msg(o != NULL, "%s", err.msg);
	fputs("new", ud_outfile_stream(o));
	ck_assert_int_eq(ud_outfile_commit(o, &err), 0);
	snprintf(path, sizeof(path), "%s/real.json", dir);
	text = read_text(path);
	ck_assert_str_eq(text, "new");
	free(text);
	memset(name, 'n', 255);
	name[255] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	o = ud_outfile_open(path, &err);
	ck_assert_msg(o != NULL, "%s", err.msg);
	ck_assert_msg(ud_outfile_commit(o, &err) == 0, "%s", err.msg);
	snprintf(path, sizeof(path), "%s/real.json/x", dir);
	ck_assert_int_eq(ud_outfile_check(path, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "Not a directory"));
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_check_opens_nothing)
{
	char *dir = make_tempdir(), fifo[4200], path[4200];
	struct ud_err err;
	int reader;
	char c;

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(path, sizeof(path), "%s/new.json", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	reader = open(fifo, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(reader, 0);
	ck_assert_int_eq(ud_outfile_check(fifo, &err), 0);
	/* no writer came and went: the reader has seen nothing, not even EOF after a writer */
	ck_assert_int_eq(read(reader, &c, 1), 0);
	ck_assert_int_eq(ud_outfile_check(path, &err), 0);
	ck_assert_int_eq(count_entries(dir), 1); /* the FIFO only: nothing created */
	close(reader);
	ck_assert_int_ne(ud_outfile_check("", &err), 0);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_fifo_without_reader_refused)
{
	char *dir = make_tempdir(), fifo[4200];
	struct ud_err err;

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_ptr_null(ud_outfile_open(fifo, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "fifo: cannot write: a FIFO with no reader"));
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_death_before_commit_leaves_nothing)
{
	char *dir = make_tempdir(), path[4200];
	struct ud_err err;
	pid_t pid;
	int status;

	snprintf(path, sizeof(path), "%s/p.json", dir);
	pid = fork();
	if (pid == 0) {
		struct ud_outfile *o = ud_outfile_open(path, &err);

		fputs("half a report", ud_outfile_stream(o));
		_exit(o ? 3 : 4); /* dies as a crash would: no commit, no abort, no cleanup */
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(WEXITSTATUS(status), 3);
	ck_assert_int_eq(count_entries(dir), 0);
	rm_tree(dir);
	free(dir);
}
END_TEST

/* A uid other than ours and the test folder's (root's when run as root): "nobody" on most systems. */
#define OTHER_UID 65534

/* path owned by OTHER_UID: only root can give a file away. */
static void give_away(const char *path)
{
	ck_assert_int_eq(lchown(path, OTHER_UID, OTHER_UID), 0);
}

/*
 * In a sticky world-writable folder another user's FIFO or file is not
 * written (it would receive the report, or pass its 0666 to it), ours is;
 * elsewhere another user's file is replaced, with no more than a new file's
 * mode.  An append whose file was planted after the check is refused too.
 */
START_TEST(test_others_files_in_sticky_folder)
{
	char *dir = make_tempdir(), sticky[4000], path[4200];
	struct ud_err err;
	struct ud_outfile *o;
	struct stat st;

	if (geteuid() != 0) {
		printf("SKIPPED: other users' files: needs root to plant them\n");
		rm_tree(dir);
		free(dir);
		return;
	}
	umask(022);
	snprintf(sticky, sizeof(sticky), "%s/tmp", dir);
	ck_assert_int_eq(mkdir(sticky, 0777), 0);
	ck_assert_int_eq(chmod(sticky, 01777), 0);
	snprintf(path, sizeof(path), "%s/fifo", sticky);
	ck_assert_int_eq(mkfifo(path, 0666), 0);
	give_away(path);
	ck_assert_int_eq(ud_outfile_check(path, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "a FIFO owned by uid 65534 in a sticky world-writable folder"));
	ck_assert_ptr_nonnull(strstr(err.msg, "pick another path"));
	snprintf(path, sizeof(path), "%s/r.json", sticky);
	write_text(path, "theirs");
	ck_assert_int_eq(chmod(path, 0666), 0);
	give_away(path);
	ck_assert_ptr_null(ud_outfile_open(path, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "a file owned by uid 65534 in a sticky"));
	ck_assert_int_eq(lchown(path, 0, 0), 0); /* ours: replaced, keeping its mode */
	o = ud_outfile_open(path, &err);
	ck_assert_msg(o != NULL, "%s", err.msg);
	ck_assert_int_eq(ud_outfile_commit(o, &err), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0666);
	snprintf(path, sizeof(path), "%s/theirs.json", dir); /* not sticky: replaced, but not world-writable */
	write_text(path, "theirs");
	ck_assert_int_eq(chmod(path, 0666), 0);
	give_away(path);
	o = ud_outfile_open(path, &err);
	ck_assert_msg(o != NULL, "%s", err.msg);
	ck_assert_int_eq(ud_outfile_commit(o, &err), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0644);
	snprintf(path, sizeof(path), "%s/late.txt", sticky);
	o = ud_outfile_append(path, &err);
	ck_assert_msg(o != NULL, "%s", err.msg);
	write_text(path, "planted after the check");
	give_away(path);
	fputs("report", ud_outfile_stream(o));
	ck_assert_int_eq(ud_outfile_flush(o, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "a file owned by uid 65534"));
	ud_outfile_abort(o);
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
	tcase_add_test(tc, test_append_adds_at_each_flush);
	tcase_add_test(tc, test_device_written_in_place);
	tcase_add_test(tc, test_unwritable_paths);
	tcase_add_test(tc, test_existing_mode_kept);
	tcase_add_test(tc, test_read_only_refused);
	tcase_add_test(tc, test_symlink_written_through);
	tcase_add_test(tc, test_check_opens_nothing);
	tcase_add_test(tc, test_create_replaces_nothing);
	tcase_add_test(tc, test_paths_walked);
	tcase_add_test(tc, test_fifo_without_reader_refused);
	tcase_add_test(tc, test_death_before_commit_leaves_nothing);
	tcase_add_test(tc, test_others_files_in_sticky_folder);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
