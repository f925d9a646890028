/*
 * spec_run.c - a spec's program run (spec.h): its command expanded, found,
 * run with its output read through a pipe under a cap, and its score read
 * from that output.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "elfinfo.h"
#include "fileio.h"
#include "spec.h"
#include "spec_priv.h"
#include "unixbench_score.h"

/* ${NAME} expanded from the environment, ${TMPDIR} to the workload's directory. */
static int expand(const char *in, const char *tmpdir, char *out, size_t len, struct ud_err *err)
{
	size_t o = 0;

	while (*in && o + 1 < len) {
		if (in[0] == '$' && in[1] == '{') {
			const char *close = strchr(in, '}'), *v;
			char name[64];

			if (!close || close - in - 2 >= (long)sizeof(name))
				return ud_fail(err, "bad ${...} in '%s'", in);
			snprintf(name, sizeof(name), "%.*s", (int)(close - in - 2), in + 2);
			v = strcmp(name, "TMPDIR") == 0 && tmpdir ? tmpdir : getenv(name);
			if (!v)
				return ud_fail(err, "${%s} is not set", name);
			o += (size_t)snprintf(out + o, len - o, "%s", v);
			in = close + 1;
		} else {
			out[o++] = *in++;
		}
	}
	if (o >= len || *in) {
		out[len - 1] = '\0';
		return ud_fail(err, "the command is longer than %zu characters once expanded", len - 1);
	}
	out[o] = '\0';
	return 0;
}

/*
 * cmd split on blanks into words first, each then expanded on its own into
 * buf, argv[i] pointing there (NULL-terminated, UD_SPEC_MAX_ARGS at most):
 * a value holding a blank (a TMPDIR of "/tmp/my dir") stays one argument.
 */
static int expand_words(const char *cmd, const char *tmpdir, char *buf, size_t len, char **argv, struct ud_err *err)
{
	char copy[sizeof(((struct ud_spec *)0)->command)], *save = NULL;
	size_t used = 0;
	int argc = 0;

	snprintf(copy, sizeof(copy), "%s", cmd);
	for (char *t = strtok_r(copy, " \t", &save); t && argc < UD_SPEC_MAX_ARGS; t = strtok_r(NULL, " \t", &save)) {
		if (used >= len || expand(t, tmpdir, buf + used, len - used, err) != 0)
			return used >= len ? ud_fail(err, "the command is longer than %zu characters once expanded", len - 1)
					   : -1;
		argv[argc++] = buf + used;
		used += strlen(buf + used) + 1;
	}
	argv[argc] = NULL;
	return 0;
}

bool ud_spec_available(const struct ud_spec *s, struct ud_err *why, char *binary, size_t binlen)
{
	char cmd[2048], *argv[UD_SPEC_MAX_ARGS + 1];
	struct ud_err err = UD_ERR_INIT;

	if (s->requires[0] && !getenv(s->requires)) {
		ud_fail(why, "%s: needs %s to be set", s->name, s->requires);
		return false;
	}
	if (expand_words(s->command, "/tmp", cmd, sizeof(cmd), argv, why ? why : &err) != 0) {
		ud_err_prefix(why, "%s", s->name);
		return false;
	}
	if (ud_which(argv[0], binary ? binary : cmd, binary ? binlen : sizeof(cmd), why ? why : &err) != 0) {
		ud_err_prefix(why, "%s", s->name);
		return false;
	}
	return true;
}

/* Longest group read as a number: a score of more digits than a double holds is no score. */
#define NUMBER_CHARS 64

/*
 * A captured group as a number, the whole of it (blanks around it aside):
 * "1234,56" is not 1234.  NAN when the group did not take part or is not a
 * number, its text in text (for the message) when it took part.
 */
static double group_number(const char *line, const regmatch_t *g, char *text, size_t len)
{
	char num[NUMBER_CHARS + 2], *end;
	size_t n;
	double v;

	text[0] = '\0';
	if (g->rm_so < 0)
		return NAN;
	n = (size_t)(g->rm_eo - g->rm_so);
	snprintf(text, len, "%.*s", (int)n, line + g->rm_so);
	if (n > NUMBER_CHARS)
		return NAN;
	snprintf(num, sizeof(num), "%.*s", (int)n, line + g->rm_so);
	v = strtod(num, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	return end != num && !*end && isfinite(v) ? v : NAN;
}

int ud_spec_score(const struct ud_spec *s, const char *output, double elapsed_s, double *score, char *units,
		  size_t ulen, struct ud_err *err)
{
	regmatch_t m[10];
	int found = -1;
	char text[128], base[128];
	bool refused = false;

	for (const char *p = output; regexec(&s->re, p, 10, m, p == output ? 0 : REG_NOTBOL) == 0;) {
		double timebase = s->timebase_group ? group_number(p, &m[s->timebase_group], base, sizeof(base)) : 0;
		double value = group_number(p, &m[1], text, sizeof(text));
		/* A line whose timebase is missing is no score: its total read as a rate would be wrong. */
		double rate = ud_unixbench_rate(value, timebase, elapsed_s);

		/* A score group that took part but is no whole number is refused, never read in part. */
		refused = isnan(value) && text[0];
		if (refused)
			ud_fail(err, "%s: its score '%s' is not a number", s->name, text);
		if (isfinite(rate)) {
			*score = rate;
			if (s->units_group && m[s->units_group].rm_so >= 0)
				snprintf(units, ulen, "%.*s", (int)(m[s->units_group].rm_eo - m[s->units_group].rm_so),
					 p + m[s->units_group].rm_so);
			else
				snprintf(units, ulen, "%s", s->units);
			found = 0;
		}
		p += m[0].rm_eo > 0 ? m[0].rm_eo : 1;
		if (!*p)
			break;
	}
	if (refused) /* the last matching line's, whatever came before it */
		return -1;
	if (found != 0)
		ud_fail(err, "%s: no line of its output matches the score pattern", s->name);
	return found;
}

/* In the forked child: stdin from /dev/null, the spec's environment, output to fd, its directory, the program. */
static void exec_program(const char *binary, char **argv, char **envs, int fd, const char *tmpdir)
{
	int devnull = open("/dev/null", O_RDONLY);

	/* Never uarchdiff's stdin: a program that reads it would wait on the user's terminal. */
	if (devnull < 0 || dup2(devnull, STDIN_FILENO) < 0)
		_exit(126);
	for (int i = 0; envs[i]; i++)
		if (strchr(envs[i], '=') && putenv(envs[i]) != 0)
			_exit(126);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO); /* UnixBench programs print their COUNT lines on stderr */
	if (chdir(tmpdir) != 0)
		_exit(126);
	/* The program as found before the chdir: a relative name or PATH entry would now point elsewhere. */
	execv(binary, argv);
	_exit(127);
}

/* Without a pidfd (kernels before 5.3), how often the reader looks whether the program has exited. */
#define EXIT_POLL_MS 100

struct output {
	char *buf;
	size_t len, cap;
	pid_t pid;
	int status;
	bool reaped;
};

/* More of the program's output; the bytes read, 0 at the end, -1 with errno (ENOMEM, EAGAIN). */
static ssize_t read_more(struct output *o, int fd)
{
	ssize_t k;

	if (o->cap - o->len < 4096) {
		size_t cap = o->cap ? 2 * o->cap : 65536;
		char *grown = realloc(o->buf, cap);

		if (!grown)
			return errno = ENOMEM, -1;
		o->buf = grown;
		o->cap = cap;
	}
	while ((k = read(fd, o->buf + o->len, o->cap - o->len - 1)) < 0 && errno == EINTR)
		;
	if (k > 0)
		o->len += (size_t)k;
	return k;
}

/* Whether the program has exited: its pidfd readable, or (no pidfd) reaped now. */
static bool has_exited(struct output *o, int pidfd, const struct pollfd *pf)
{
	if (pidfd >= 0)
		return pf[1].revents & POLLIN;
	if (waitpid(o->pid, &o->status, WNOHANG) == o->pid)
		o->reaped = true;
	return o->reaped;
}

/*
 * The program's output, read from fd while it runs and capped while it is
 * written (UD_CAP_PROGRAM_OUTPUT): past the cap it is killed, and nothing of
 * it ever lands in a file.  Reading ends at the end of the output, or once
 * the program has exited and what it wrote is read (a helper it left may
 * hold the pipe open).  0 with o->buf NUL-terminated, or -1 with err.
 */
static int collect_output(struct output *o, int fd, const char *name, struct ud_err *err)
{
	int pidfd = (int)syscall(SYS_pidfd_open, o->pid, 0), ret = 0;
	bool exited = false;

	for (;;) {
		struct pollfd pf[2] = { { .fd = fd, .events = POLLIN }, { .fd = pidfd, .events = POLLIN } };
		int r = poll(pf, pidfd >= 0 ? 2 : 1, exited ? 0 : pidfd >= 0 ? -1 : EXIT_POLL_MS);
		ssize_t k;

		if (r < 0 && errno == EINTR)
			continue;
		if (r > 0 && pf[0].revents) {
			if ((k = read_more(o, fd)) == 0)
				break;
			if (k < 0 && errno == ENOMEM) {
				ret = ud_fail(err, "%s: out of memory for its output", name);
				break;
			}
			if (o->len > UD_CAP_PROGRAM_OUTPUT) {
				ret = ud_fail(err, "%s: its output passed the %zu MiB limit: stopped", name,
					      UD_CAP_PROGRAM_OUTPUT >> 20);
				break;
			}
			continue;
		}
		if (exited)
			break;
		exited = has_exited(o, pidfd, pf);
	}
	if (ret != 0 && !o->reaped)
		kill(o->pid, SIGKILL);
	if (pidfd >= 0)
		close(pidfd);
	while (!o->reaped && waitpid(o->pid, &o->status, 0) < 0 && errno == EINTR)
		;
	o->reaped = true;
	if (o->buf) {
		/* A NUL is no text: read as a line break, so that the lines after it still count (regexec stops at one). */
		for (char *z = memchr(o->buf, '\0', o->len); z; z = memchr(z, '\0', o->len - (size_t)(z - o->buf)))
			*z = '\n';
		o->buf[o->len] = '\0';
	}
	return ret;
}

/* "killed by signal 11 (SIGSEGV)", "exited with status 2": what became of the program. */
static void describe_status(int status, char *buf, size_t len)
{
	const char *abbrev = WIFSIGNALED(status) ? sigabbrev_np(WTERMSIG(status)) : NULL;

	if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s%s)", WTERMSIG(status), abbrev ? "SIG" : "",
			 abbrev ? abbrev : "real-time");
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

/*
 * The most a failed program's own last line adds to its outcome: enough for
 * "license server unreachable" or a path and errno, short of the error
 * message's room, so the exit status before it is never what gets cut.
 */
#define LAST_LINE_MAX 200

/*
 * ": license server unreachable": the last line of the program's output
 * that is not blank, which is where a failing program says why; "" when
 * it said nothing.  A longer line keeps its end, marked "...".
 */
static void last_line(const char *out, size_t len, char *buf, size_t blen)
{
	size_t end = len, start;

	while (end > 0 && isspace((unsigned char)out[end - 1]))
		end--;
	start = end;
	while (start > 0 && out[start - 1] != '\n')
		start--;
	while (start < end && isspace((unsigned char)out[start]))
		start++;
	buf[0] = '\0';
	if (start == end)
		return;
	if (end - start > LAST_LINE_MAX)
		snprintf(buf, blen, ": ...%.*s", LAST_LINE_MAX, out + end - LAST_LINE_MAX);
	else
		snprintf(buf, blen, ": %.*s", (int)(end - start), out + start);
}

/* Forks the program with its output on a pipe, returns its output (o->buf) and wait status; 0, or -1 with err. */
static int run_program(const struct ud_spec *s, const char *binary, char **argv, char **envs, const char *tmpdir,
		       struct output *o, struct ud_err *err)
{
	int p[2], ret;

	if (pipe2(p, O_CLOEXEC) != 0)
		return ud_fail(err, "%s: pipe: %s", s->name, strerror(errno));
	o->pid = fork();
	if (o->pid < 0) {
		close(p[0]);
		close(p[1]);
		return ud_fail(err, "fork: %s", strerror(errno));
	}
	if (o->pid == 0) {
		close(p[0]);
		exec_program(binary, argv, envs, p[1], tmpdir);
	}
	close(p[1]);
	ret = collect_output(o, p[0], s->name, err);
	close(p[0]);
	return ret;
}

/*
 * Runs the program once; the runner's counters, inherited, count it from its
 * exec.  Its wall time, from fork to reaping, is the elapsed time UnixBench's
 * Run divides a COUNT total by.
 */
int ud_spec_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	const struct ud_spec *s = ctx->data;
	char cmd[2048], envbuf[2048], binary[4096], how[64], said[LAST_LINE_MAX + 8];
	char *argv[UD_SPEC_MAX_ARGS + 1], *envs[UD_SPEC_MAX_ARGS + 1];
	struct output o = { 0 };
	uint64_t t0, elapsed;
	int ret;

	(void)iters;
	if (expand_words(s->command, ctx->tmpdir, cmd, sizeof(cmd), argv, err) != 0 ||
	    expand_words(s->env, ctx->tmpdir, envbuf, sizeof(envbuf), envs, err) != 0)
		return -1;
	if (ud_which(argv[0], binary, sizeof(binary), err) != 0)
		return ud_err_prefix(err, "%s", s->name);
	t0 = ud_now_ns();
	ret = run_program(s, binary, argv, envs, ctx->tmpdir, &o, err);
	elapsed = ud_now_ns() - t0;
	if (ret == 0 && (!WIFEXITED(o.status) || WEXITSTATUS(o.status) != 0)) {
		describe_status(o.status, how, sizeof(how));
		last_line(o.buf ? o.buf : "", o.len, said, sizeof(said));
		ret = ud_fail(err, "%s %s%s", argv[0], how, said);
	}
	if (ret == 0)
		ret = ud_spec_score(s, o.buf ? o.buf : "", (double)elapsed / 1e9, &ctx->score, ctx->score_units,
				    sizeof(ctx->score_units), err);
	free(o.buf);
	if (ret != 0)
		return -1;
	/* A ratio of scores needs both positive: 0 or -5 is a broken benchmark, not a result. */
	if (!(ctx->score > 0))
		return ud_fail(err, "%s: its output gives the score %g: a score must be positive", s->name, ctx->score);
	return 0;
}
