/*
 * kernel.c - workloads whose time is mostly the kernel's: pipe throughput,
 * context switches between two processes, system calls, process creation,
 * exec, and loopback TCP request/response.  Speculative-execution
 * mitigations move these more than any core change.
 *
 * Helpers (the other end of a pipe or socket) are forked inside run(), after
 * the counters are enabled, so their work is counted too.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

/* Reads or writes exactly n bytes; -1 on error or end of file. */
static int full_io(int fd, void *buf, size_t n, int writing)
{
	char *p = buf;

	while (n) {
		ssize_t k = writing ? write(fd, p, n) : read(fd, p, n);

		if (k <= 0) {
			if (k < 0 && errno == EINTR)
				continue;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int wait_child(pid_t pid, struct ud_err *err)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return ud_fail(err, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return ud_fail(err, "helper process failed (status 0x%x)", status);
	return 0;
}

/* ---- pipe throughput: 512 bytes written and read back, one process ---- */

struct fds {
	int fd[4];
};

static int pipe_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	struct fds *s = malloc(sizeof(*s));

	if (!s || pipe(s->fd) != 0) {
		free(s);
		return ud_fail(err, "pipe: %s", strerror(errno));
	}
	ctx->state = s;
	return 0;
}

static int pipe_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	struct fds *s = ctx->state;
	char buf[512] = { 0 };

	for (uint64_t i = 0; i < iters; i++)
		if (full_io(s->fd[1], buf, sizeof(buf), 1) || full_io(s->fd[0], buf, sizeof(buf), 0))
			return ud_fail(err, "pipe I/O: %s", strerror(errno));
	return 0;
}

static void close_fds(struct wl_ctx *ctx, int n)
{
	struct fds *s = ctx->state;

	for (int i = 0; s && i < n; i++)
		close(s->fd[i]);
	free(s);
	ctx->state = NULL;
}

static void pipe_teardown(struct wl_ctx *ctx)
{
	close_fds(ctx, 2);
}

const struct ud_workload_def wl_pipe = {
	.name = "pipe", .units = "lps", .higher_is_better = true,
	.teaches = "write and read 512 bytes through a pipe: system-call entry and exit, copies to and from the kernel",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = pipe_setup, .run = pipe_run, .teardown = pipe_teardown,
};

/* ---- context switches: a counter passed back and forth between two processes ---- */

static int ctxsw_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	int to_child[2], to_parent[2], ret = 0;
	uint64_t v = 0;
	pid_t pid;

	(void)ctx;
	if (pipe(to_child) != 0)
		return ud_fail(err, "pipe: %s", strerror(errno));
	if (pipe(to_parent) != 0) {
		close(to_child[0]);
		close(to_child[1]);
		return ud_fail(err, "pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		ret = ud_fail(err, "fork: %s", strerror(errno));
	} else if (pid == 0) {
		/* the other side: echo each value plus one until the parent closes */
		close(to_child[1]);
		close(to_parent[0]);
		while (full_io(to_child[0], &v, sizeof(v), 0) == 0) {
			v++;
			if (full_io(to_parent[1], &v, sizeof(v), 1) != 0)
				_exit(1);
		}
		_exit(0);
	}
	close(to_child[0]);
	close(to_parent[1]);
	for (uint64_t i = 0; ret == 0 && i < iters; i++)
		if (full_io(to_child[1], &v, sizeof(v), 1) || full_io(to_parent[0], &v, sizeof(v), 0))
			ret = ud_fail(err, "pipe I/O: %s", strerror(errno));
	close(to_child[1]);
	close(to_parent[0]);
	if (pid > 0 && wait_child(pid, err) != 0 && ret == 0)
		ret = -1;
	return ret;
}

const struct ud_workload_def wl_ctxsw = {
	.name = "context-switch", .units = "lps", .higher_is_better = true,
	.teaches = "two processes pass a counter through pipes: each round trip is two context switches",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.run = ctxsw_run,
};

/* ---- system call overhead: UnixBench's mix ---- */

static int syscall_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	(void)ctx;
	(void)err;
	for (uint64_t i = 0; i < iters; i++) {
		close(dup(0));
		syscall(SYS_getpid); /* not glibc's: every call enters the kernel */
		getuid();
		umask(022);
	}
	return 0;
}

const struct ud_workload_def wl_syscall = {
	.name = "syscall", .units = "lps", .higher_is_better = true,
	.teaches = "dup, close, getpid, getuid, umask: the bare cost of entering and leaving the kernel",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.run = syscall_run,
};

/* ---- process creation and exec ---- */

static int spawn_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	(void)ctx;
	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return ud_fail(err, "fork: %s", strerror(errno));
		if (pid == 0)
			_exit(0);
		if (wait_child(pid, err) != 0)
			return -1;
	}
	return 0;
}

const struct ud_workload_def wl_spawn = {
	.name = "spawn", .units = "lps", .higher_is_better = true,
	.teaches = "fork a child that exits at once and reap it: page-table copies, scheduling, teardown",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.run = spawn_run,
};

static const char true_path[] = "/bin/true";

static int exec_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	(void)ctx;
	if (access(true_path, X_OK) != 0)
		return ud_fail(err, "%s: %s", true_path, strerror(errno));
	return 0;
}

static int exec_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	(void)ctx;
	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return ud_fail(err, "fork: %s", strerror(errno));
		if (pid == 0) {
			execl(true_path, true_path, (char *)NULL);
			_exit(127);
		}
		if (wait_child(pid, err) != 0)
			return -1;
	}
	return 0;
}

const struct ud_workload_def wl_exec = {
	.name = "exec", .units = "lps", .higher_is_better = true,
	.teaches = "fork and exec /bin/true: loading a program, dynamic linking, process teardown",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = exec_setup, .run = exec_run,
};

/* ---- loopback TCP request/response: the shape of an API gateway or Redis ---- */

#define TCP_MESSAGE 64

static int tcp_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(addr);
	struct fds *s = malloc(sizeof(*s));

	if (!s)
		return ud_fail(err, "out of memory");
	s->fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (s->fd[0] < 0 || bind(s->fd[0], (struct sockaddr *)&addr, sizeof(addr)) != 0 || listen(s->fd[0], 1) != 0 ||
	    getsockname(s->fd[0], (struct sockaddr *)&addr, &len) != 0) {
		ud_fail(err, "loopback listen: %s", strerror(errno));
		if (s->fd[0] >= 0)
			close(s->fd[0]);
		free(s);
		return -1;
	}
	s->fd[1] = ntohs(addr.sin_port);
	ctx->state = s;
	return 0;
}

static int tcp_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	struct fds *s = ctx->state;
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				    .sin_port = htons((uint16_t)s->fd[1]) };
	char msg[TCP_MESSAGE] = { 0 };
	int one = 1, fd, ret = 0;
	pid_t pid = fork();

	if (pid < 0)
		return ud_fail(err, "fork: %s", strerror(errno));
	if (pid == 0) {
		/* the server: echo each request until the client closes */
		int c = accept(s->fd[0], NULL, NULL);

		if (c < 0)
			_exit(1);
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		while (full_io(c, msg, sizeof(msg), 0) == 0)
			if (full_io(c, msg, sizeof(msg), 1) != 0)
				_exit(1);
		_exit(0);
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		ud_fail(err, "loopback connect: %s", strerror(errno));
		kill(pid, SIGKILL);
		ret = -1;
	}
	if (ret == 0)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (uint64_t i = 0; ret == 0 && i < iters; i++) {
		if (full_io(fd, msg, sizeof(msg), 1) || full_io(fd, msg, sizeof(msg), 0)) {
			ret = ud_fail(err, "loopback I/O: %s", strerror(errno));
			kill(pid, SIGKILL);
		}
	}
	if (fd >= 0)
		close(fd);
	if (ret != 0) {
		waitpid(pid, NULL, 0);
		return ret;
	}
	return wait_child(pid, err);
}

static void tcp_teardown(struct wl_ctx *ctx)
{
	close_fds(ctx, 1);
}

const struct ud_workload_def wl_tcp = {
	.name = "tcp-rr", .units = "req/s", .higher_is_better = true,
	.teaches = "64-byte requests and replies over loopback TCP: the socket stack and wake-ups behind RPC servers",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = tcp_setup, .run = tcp_run, .teardown = tcp_teardown,
};
