/*
 * kernel.c - workloads whose time is mostly the kernel's: pipe throughput,
 * context switches between two processes, system calls, process creation,
 * exec, and loopback TCP request/response.  Speculative-execution
 * mitigations move these more than any core change.
 *
 * Helpers (the other end of a pipe or socket, the minimal process that
 * forks or execs) are forked inside run(), after the counters are enabled,
 * so their work is counted too.
 */
#include <arpa/inet.h>
#include <sched.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "datadir.h"
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
	.teaches = "write and read 512 bytes through a pipe in one process: system-call entry and exit, copies to and "
		   "from the kernel; UnixBench's pipe loop",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = pipe_setup, .run = pipe_run, .teardown = pipe_teardown,
};

/* ---- context switches: a counter passed back and forth between two processes ---- */

/*
 * Where the two ends run decides the score on a VM: on one CPU a wake-up is
 * a switch on that CPU; across two, every wake-up is an inter-processor
 * interrupt through the hypervisor (about 190k against 21k round trips a
 * second measured here, FIELD-NOTES).  Left to the scheduler the samples
 * are bimodal, so each workload pins both ends: cpu[0] for the parent,
 * cpu[1] for the echoing child (the same CPU for context-switch).
 */
struct pinning {
	int cpu[2];
};

/* The first n CPUs this process may run on, or -1 with why when it has fewer. */
static int allowed_cpus(int *cpu, int n, struct ud_err *why)
{
	cpu_set_t set;
	int found = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return ud_fail(why, "sched_getaffinity: %s", strerror(errno));
	for (int c = 0; c < CPU_SETSIZE && found < n; c++)
		if (CPU_ISSET(c, &set))
			cpu[found++] = c;
	if (found < n)
		return ud_fail(why, "needs %d CPUs to pin its two processes to; this host lets it run on %d", n,
			       CPU_COUNT(&set));
	return 0;
}

static int pin_to(int cpu, struct ud_err *err)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return ud_fail(err, "cannot pin to CPU %d: %s", cpu, strerror(errno));
	return 0;
}

static int ctxsw_setup_on(struct wl_ctx *ctx, int ncpus, struct ud_err *err)
{
	struct pinning *pin = malloc(sizeof(*pin));

	if (!pin)
		return ud_fail(err, "out of memory");
	ctx->state = pin;
	if (allowed_cpus(pin->cpu, ncpus, err) != 0)
		return -1;
	if (ncpus == 1)
		pin->cpu[1] = pin->cpu[0];
	return pin_to(pin->cpu[0], err);
}

static int ctxsw_setup_same(struct wl_ctx *ctx, struct ud_err *err)
{
	return ctxsw_setup_on(ctx, 1, err);
}

static int ctxsw_setup_cross(struct wl_ctx *ctx, struct ud_err *err)
{
	return ctxsw_setup_on(ctx, 2, err);
}

static int cross_available(struct ud_err *why)
{
	int cpu[2];

	return allowed_cpus(cpu, 2, why);
}

static void ctxsw_teardown(struct wl_ctx *ctx)
{
	free(ctx->state);
	ctx->state = NULL;
}

/* The echoing end: each value plus one, until the parent closes. */
static void ctxsw_echo(int in, int out, int cpu)
{
	struct ud_err err = UD_ERR_INIT;
	uint64_t v;

	if (pin_to(cpu, &err) != 0)
		_exit(1);
	while (full_io(in, &v, sizeof(v), 0) == 0) {
		v++;
		if (full_io(out, &v, sizeof(v), 1) != 0)
			_exit(1);
	}
	_exit(0);
}

static int ctxsw_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	const struct pinning *pin = ctx->state;
	int to_child[2], to_parent[2], ret = 0;
	uint64_t v = 0;
	pid_t pid;

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
		close(to_child[1]);
		close(to_parent[0]);
		ctxsw_echo(to_child[0], to_parent[1], pin->cpu[1]);
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
	.teaches = "two processes pinned to one CPU pass a counter through pipes, two switches a round trip; "
		   "UnixBench's context1 loop, which leaves placement to the scheduler",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = ctxsw_setup_same, .run = ctxsw_run, .teardown = ctxsw_teardown,
};

const struct ud_workload_def wl_ctxsw_cross = {
	.name = "context-switch-cross", .units = "lps", .higher_is_better = true,
	.teaches = "the same round trips with the two processes pinned to two CPUs: each wake-up is a cross-CPU "
		   "interrupt (through the hypervisor on a VM); UnixBench's context1 when the scheduler splits it",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = ctxsw_setup_cross, .run = ctxsw_run, .teardown = ctxsw_teardown, .available = cross_available,
	.not_single_cpu = true, /* each end waits for a wake-up from the other CPU */
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
	.teaches = "dup, close, getpid, getuid, umask: the bare cost of entering and leaving the kernel; UnixBench's "
		   "syscall loop (its default mix)",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.run = syscall_run,
};

/* ---- process creation and exec, from a minimal process ---- */

/*
 * Fork copies the forking process, so forking from the runner (its
 * libraries, buffers, 50-odd mappings) measured the runner: 5,200 forks a
 * second against 7,700 from a small process (FIELD-NOTES).  Both workloads
 * exec the helper uarchdiff-spawn (workloads/spawn-helper.c), libc only, to
 * do the loop; its own start, one fork and exec a sample, is counted too.
 */
struct helper {
	char path[4096];
};

static int helper_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	struct helper *h = malloc(sizeof(*h));
	char dir[4096];

	if (!h)
		return ud_fail(err, "out of memory");
	snprintf(h->path, sizeof(h->path), "%s/uarchdiff-spawn", ud_data_dir(UD_DATA_HELPERS, dir, sizeof(dir)));
	ctx->state = h;
	if (access(h->path, X_OK) != 0)
		return ud_fail(err, "%s: %s (the helper is installed beside uarchdiff; UARCHDIFF_HELPERS_DIR "
				    "points elsewhere)", h->path, strerror(errno));
	return 0;
}

static int helper_run(struct wl_ctx *ctx, const char *mode, uint64_t iters, struct ud_err *err)
{
	const struct helper *h = ctx->state;
	char n[32];
	pid_t pid;

	snprintf(n, sizeof(n), "%llu", (unsigned long long)iters);
	pid = fork();
	if (pid < 0)
		return ud_fail(err, "fork: %s", strerror(errno));
	if (pid == 0) {
		execl(h->path, h->path, mode, n, (char *)NULL);
		_exit(127);
	}
	return wait_child(pid, err);
}

static int spawn_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	return helper_run(ctx, "fork", iters, err);
}

static int exec_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	return helper_run(ctx, "exec", iters, err);
}

static void helper_teardown(struct wl_ctx *ctx)
{
	free(ctx->state);
	ctx->state = NULL;
}

const struct ud_workload_def wl_spawn = {
	.name = "spawn", .units = "lps", .higher_is_better = true,
	.teaches = "a small process forks a child that exits at once and reaps it: page-table copies, scheduling, "
		   "teardown; UnixBench's spawn loop",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = helper_setup, .run = spawn_run, .teardown = helper_teardown,
};

const struct ud_workload_def wl_exec = {
	.name = "exec", .units = "lps", .higher_is_better = true,
	.teaches = "a small program execs itself in a chain, no fork: loading a program, dynamic linking, "
		   "replacing an address space; UnixBench's execl loop",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = helper_setup, .run = exec_run, .teardown = helper_teardown,
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
	.teaches = "64-byte requests and replies over loopback TCP: the socket stack and wake-ups behind RPC servers; "
		   "no UnixBench counterpart",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = tcp_setup, .run = tcp_run, .teardown = tcp_teardown,
	.not_single_cpu = true, /* client and server, unpinned: across two CPUs each waits on the other's wake-up */
};
