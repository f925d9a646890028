/*
 * control.h: perf stat's --control words and descriptors (issue 34), on a
 * pipe this test writes: each command split at a newline or a NUL, its
 * argument or malformation as perf's get_cmd_arg() sees it, a line longer
 * than perf's buffer cut there, perf's ack ("ack\n" and its NUL) for the
 * commands perf acknowledges only, and the specs refused.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"
#include "testutil.h"

static void send(int fd, const char *bytes, size_t len)
{
	ck_assert_int_eq(write(fd, bytes, len), (ssize_t)len);
}

START_TEST(test_words_and_acks)
{
	int ctl[2], ack[2];
	char spec[64], got[64];
	struct ud_control c;
	struct ud_control_cmd cmd;
	struct ud_err err = UD_ERR_INIT;
	static const char words[] = "disable\nenable cycles\0ping\nenablex\nsnapshot\nbogus\nena";

	ck_assert_int_eq(pipe(ctl), 0);
	ck_assert_int_eq(pipe(ack), 0);
	snprintf(spec, sizeof(spec), "fd:%d,%d", ctl[0], ack[1]);
	ck_assert_int_eq(ud_control_open(spec, &c, &err), 0);
	send(ctl[1], words, sizeof(words) - 1);
	ud_control_fill(&c);
	ck_assert(ud_control_take(&c, &cmd) && cmd.verb == UD_CONTROL_DISABLE && strcmp(cmd.arg, "") == 0);
	ck_assert(ud_control_take(&c, &cmd) && cmd.verb == UD_CONTROL_ENABLE && strcmp(cmd.arg, "cycles") == 0);
	ck_assert(ud_control_take(&c, &cmd) && cmd.verb == UD_CONTROL_PING);
	ud_control_ack(&c, cmd.verb);
	ck_assert(ud_control_take(&c, &cmd) && cmd.verb == UD_CONTROL_ENABLE && cmd.arg == NULL);
	ck_assert(ud_control_take(&c, &cmd) && cmd.verb == UD_CONTROL_SNAPSHOT);
	ud_control_ack(&c, cmd.verb);
	ck_assert(ud_control_take(&c, &cmd) && cmd.verb == UD_CONTROL_UNKNOWN);
	ud_control_ack(&c, cmd.verb);
	/* "ena" waits for the rest of its line */
	ck_assert(!ud_control_take(&c, &cmd));
	send(ctl[1], "ble\n", 4);
	ud_control_fill(&c);
	ck_assert(ud_control_take(&c, &cmd) && cmd.verb == UD_CONTROL_ENABLE && strcmp(cmd.arg, "") == 0);
	/* ping's ack only: snapshot and unknown words are not acknowledged, as in perf */
	close(ack[1]);
	ck_assert_int_eq(read(ack[0], got, sizeof(got)), 5);
	ck_assert_mem_eq(got, "ack\n", 5);
	ud_control_close(&c);
	close(ctl[1]);
	close(ctl[0]);
	close(ack[0]);
}
END_TEST

/* perf reads 63 bytes a command at most: the rest is the next one. */
START_TEST(test_long_line_cut)
{
	int ctl[2];
	char spec[32], line[100];
	struct ud_control c;
	struct ud_control_cmd cmd;
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(pipe(ctl), 0);
	snprintf(spec, sizeof(spec), "fd:%d", ctl[0]);
	ck_assert_int_eq(ud_control_open(spec, &c, &err), 0);
	memset(line, 'x', sizeof(line));
	memcpy(line, "enable ", 7);
	line[sizeof(line) - 1] = '\n';
	send(ctl[1], line, sizeof(line));
	ud_control_fill(&c);
	ck_assert(ud_control_take(&c, &cmd) && cmd.verb == UD_CONTROL_ENABLE);
	ck_assert_uint_eq(strlen(cmd.arg), UD_CONTROL_LINE_MAX - 1 - 7);
	ck_assert(ud_control_take(&c, &cmd) && cmd.verb == UD_CONTROL_UNKNOWN);
	ck_assert(!ud_control_take(&c, &cmd));
	/* the writer gone: the end, nothing more to take */
	close(ctl[1]);
	ud_control_fill(&c);
	ck_assert(c.done);
	ud_control_close(&c);
	close(ctl[0]);
}
END_TEST

START_TEST(test_specs)
{
	char *dir = make_tempdir(), spec[4200], fifo[4150];
	struct ud_control c;
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_control_open("pipe:3", &c, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "fd:CTL-FD[,ACK-FD] or fifo:CTL-FIFO[,ACK-FIFO]"));
	ck_assert_int_eq(ud_control_open("fd:9999", &c, &err), -1);
	ck_assert_int_eq(ud_control_open("fd:0,", &c, &err), -1);
	ck_assert_int_eq(ud_control_open("fd:0x", &c, &err), -1);
	ck_assert_int_eq(ud_control_open("fifo:", &c, &err), -1);
	/* a FIFO with no writer yet opens (read-write, as perf's), and closes */
	snprintf(fifo, sizeof(fifo), "%s/ctl", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	snprintf(spec, sizeof(spec), "fifo:%s", fifo);
	ck_assert_int_eq(ud_control_open(spec, &c, &err), 0);
	ck_assert(c.own_fd && c.fd >= 0 && c.ack == -1);
	ud_control_close(&c);
	rm_tree(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("control");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_words_and_acks);
	tcase_add_test(tc, test_long_line_cut);
	tcase_add_test(tc, test_specs);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
