/*
 * redis.c - Redis served on loopback and loaded with redis-benchmark, the
 * server counted (issue 40).
 *
 * setup() starts redis-server on a free 127.0.0.1 port in the workload's
 * private directory, with persistence off (--save '' --appendonly no),
 * waits until it answers as itself (INFO names its pid), and runs a short
 * unmeasured benchmark that warms it and tells the rate, from which the
 * measured run's request count is scaled to the sample's target time.  It names the server as the
 * process to count (wl_ctx.counted_pid): the runner opens the counters on
 * its threads, user and kernel, so a diff explains the server.  run() runs
 * redis-benchmark once, uncounted; its CPU time (wait4) is recorded apart,
 * as the sub-scores "client user" and "client sys".  The score is the
 * requests per second over all the tests, each test's rate and median
 * latency a sub-score.
 *
 * The server is this child's and in its process group: teardown() kills
 * it; a failed run() exits without teardown, and the server, which dies
 * with its parent (PR_SET_PDEATHSIG), goes with it; a timeout or a Ctrl-C
 * kills the group (runner.h).  The runner removes the directory whatever
 * happened.  redis-benchmark's --csv output is read here rather than
 * through import_redis.c, which sits in a stage above this one.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "elfinfo.h"
#include "server.h"
#include "workload.h"

#define UNAVAILABLE "unavailable: install redis-server (apt-get install redis-server redis-tools; dnf install redis)"

/* Ports taken by another program between our probe and the server's bind: tries before giving up. */
#define PORT_TRIES 5
/* How long a server may take to answer PING: redis starts in milliseconds; a loaded VM takes longer. */
#define READY_TIMEOUT_S 10.0
#define READY_POLL_MS 20
/* The unmeasured warm-up's requests a test: enough for a rate, a fraction of a second even when slow. */
#define PROBE_REQUESTS 2000
/* A measured test's requests: fewer gives a rate of its start-up; more is a run of hours. */
#define REQUESTS_MIN 2000
#define REQUESTS_MAX 50000000.0
/* redis-benchmark's default: 50 connections, the load people publish. */
#define CLIENTS "50"
/* The pipelined workload's commands a round trip (-P), in the range people publish (10 to 16). */
#define PIPELINE_DEPTH "16"

struct redis_state {
	const char *pipeline;   /* -P */
	pid_t server;
	int port;
	double requests;        /* a test's, for the measured run */
	char server_bin[4096], bench_bin[4096];
};

static int redis_available(struct ud_err *why)
{
	char path[4096];
	struct ud_err err = UD_ERR_INIT;

	if (ud_which("redis-server", path, sizeof(path), &err) != 0 ||
	    ud_which("redis-benchmark", path, sizeof(path), &err) != 0)
		return ud_fail(why, UNAVAILABLE);
	return 0;
}

/* In the forked child: the server, bound to loopback only, persistence off, its log in the directory. */
static void exec_server(const struct redis_state *st, const char *dir)
{
	char port[16], log[4200];
	/* "redis-server" by name: Debian's is a link to a program that acts as what argv[0] names (redis-check-rdb) */
	char *argv[] = { "redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly",
			 "no", "--dir", (char *)dir, "--daemonize", "no", "--logfile", "", NULL };

	snprintf(port, sizeof(port), "%d", st->port);
	snprintf(log, sizeof(log), "%s/redis-server.log", dir);
	ud_exec_child(st->server_bin, argv, open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), dir);
}

/* What INFO server answers, its process_id line included, with room to spare. */
#define INFO_MAX 8192

/*
 * Whether the server on port answers, and is the one we started: another
 * program could take the port between our probe and our server's bind, and
 * answer while ours is still starting; INFO names its process.
 */
static bool answers(int port, pid_t pid)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	char want[48], *buf = calloc(1, INFO_MAX);
	size_t len = 0;
	bool ok = false;
	ssize_t k = 1;

	snprintf(want, sizeof(want), "process_id:%d\r\n", (int)pid);
	if (fd >= 0 && buf && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    write(fd, "INFO server\r\n", 13) == 13) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };

		while (!ok && k > 0 && len < INFO_MAX - 1 && poll(&pf, 1, 1000) == 1) {
			k = read(fd, buf + len, INFO_MAX - 1 - len);
			len += k > 0 ? (size_t)k : 0;
			ok = strstr(buf, want) != NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return ok;
}

/*
 * The server started on st->port and answering: 0; 1 when it exited first
 * (the port was taken between our probe and its bind: another port may
 * do), with why in err; -1 with err otherwise.
 */
static int start_server(struct redis_state *st, const char *dir, struct ud_err *err)
{
	uint64_t deadline = ud_now_ns() + (uint64_t)(READY_TIMEOUT_S * 1e9);
	char said[256], log[4200];
	int status;
	bool taken;

	st->server = fork();
	if (st->server < 0)
		return ud_fail(err, "fork: %s", strerror(errno));
	if (st->server == 0)
		exec_server(st, dir);
	while (ud_now_ns() < deadline) {
		if (waitpid(st->server, &status, WNOHANG) == st->server) {
			st->server = 0;
			/* "bind: Address already in use", then "Failed listening on port N (TCP), aborting." */
			snprintf(log, sizeof(log), "%s/redis-server.log", dir);
			taken = ud_log_tail(log, "Address already in use", said, sizeof(said));
			ud_fail(err, "redis-server on 127.0.0.1:%d exited (status %d)%s%s", st->port, ud_exit_code(status),
				said[0] ? ": " : "", said);
			return taken ? 1 : -1;
		}
		if (answers(st->port, st->server))
			return 0;
		nanosleep(&(struct timespec){ .tv_nsec = READY_POLL_MS * 1000000L }, NULL);
	}
	return ud_fail(err, "redis-server on 127.0.0.1:%d did not answer within %.0f s", st->port, READY_TIMEOUT_S);
}

/* One test's line of --csv: "SET","16313.21","1.887","0.400","1.311",... (rps, then avg min p50 latencies). */
static int parse_csv(const char *out, struct wl_ctx *ctx, double *rate_sum_inv, size_t *ntests, struct ud_err *err)
{
	for (const char *line = out; *line; line += strcspn(line, "\n"), line += *line == '\n') {
		char test[20];
		double rps, avg, min, p50;

		if (sscanf(line, "\"%19[^\"]\",\"%lf\",\"%lf\",\"%lf\",\"%lf\"", test, &rps, &avg, &min, &p50) < 2 ||
		    strcmp(test, "test") == 0)
			continue;
		if (!(rps > 0) || !isfinite(rps))
			return ud_fail(err, "redis-benchmark: %s ran at %g requests per second", test, rps);
		*rate_sum_inv += 1 / rps;
		(*ntests)++;
		if (ctx->nsub + 2 > WL_SUBSCORES_MAX)
			continue;
		ctx->sub[ctx->nsub++] = (struct wl_subscore){ .value = rps, .units = "requests/s" };
		snprintf(ctx->sub[ctx->nsub - 1].name, sizeof(ctx->sub[0].name), "%s", test);
		ctx->sub[ctx->nsub++] = (struct wl_subscore){ .value = p50, .units = "ms" };
		snprintf(ctx->sub[ctx->nsub - 1].name, sizeof(ctx->sub[0].name), "%s latency p50", test);
	}
	return *ntests ? 0 : ud_fail(err, "redis-benchmark printed no result ('\"TEST\",\"RPS\",...')");
}

/*
 * One benchmark of requests a test: the requests per second over all its
 * tests into *rate, each test's results and the client's CPU time into
 * ctx->sub; -1 with err when it fails.
 */
static int bench(const struct redis_state *st, double requests, struct wl_ctx *ctx, double *rate, struct ud_err *err)
{
	char port[16], n[32], *out;
	char *argv[] = { "redis-benchmark", "-h", "127.0.0.1", "-p", port, "-c", CLIENTS, "-n", n, "-P",
			 (char *)st->pipeline, "-t", "set,get", "--csv", NULL };
	struct rusage ru;
	double inv = 0;
	size_t ntests = 0;
	int ret;

	snprintf(port, sizeof(port), "%d", st->port);
	snprintf(n, sizeof(n), "%.0f", requests);
	ctx->nsub = 0;
	if (ud_client_run("redis-benchmark", st->bench_bin, argv, &out, &ru, err) != 0)
		return -1;
	ret = parse_csv(out, ctx, &inv, &ntests, err);
	free(out);
	if (ret != 0)
		return -1;
	/* every test ran the same requests: their overall rate is the harmonic mean of theirs */
	*rate = (double)ntests / inv;
	if (ctx->nsub + 2 <= WL_SUBSCORES_MAX) {
		ctx->sub[ctx->nsub++] = (struct wl_subscore){
			.name = "client user", .units = "s",
			.value = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 };
		ctx->sub[ctx->nsub++] = (struct wl_subscore){
			.name = "client sys", .units = "s",
			.value = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6 };
	}
	return 0;
}

static int redis_setup(struct wl_ctx *ctx, const char *pipeline, struct ud_err *err)
{
	struct redis_state *st = calloc(1, sizeof(*st));
	double rate;
	int ret = 1;

	if (!st)
		return ud_fail(err, "out of memory");
	ctx->state = st;
	st->pipeline = pipeline;
	if (ud_which("redis-server", st->server_bin, sizeof(st->server_bin), err) != 0 ||
	    ud_which("redis-benchmark", st->bench_bin, sizeof(st->bench_bin), err) != 0)
		return ud_fail(err, UNAVAILABLE);
	for (int i = 0; i < PORT_TRIES && ret == 1; i++)
		ret = (st->port = ud_loopback_free_port(err)) < 0 ? -1 : start_server(st, ctx->tmpdir, err);
	if (ret != 0)
		return -1;
	ctx->counted_pid = st->server;
	if (bench(st, PROBE_REQUESTS, ctx, &rate, err) != 0)
		return -1;
	/* as many requests as the sample's time holds at the rate the warm-up saw, split over the two tests */
	st->requests = fmin(fmax(rate * ctx->target_s / 2, REQUESTS_MIN), REQUESTS_MAX);
	ctx->nsub = 0;
	return 0;
}

static int redis_setup_plain(struct wl_ctx *ctx, struct ud_err *err)
{
	return redis_setup(ctx, "1", err);
}

static int redis_setup_pipelined(struct wl_ctx *ctx, struct ud_err *err)
{
	return redis_setup(ctx, PIPELINE_DEPTH, err);
}

static int redis_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	struct redis_state *st = ctx->state;

	(void)iters;
	if (bench(st, st->requests, ctx, &ctx->score, err) != 0)
		return -1;
	snprintf(ctx->score_units, sizeof(ctx->score_units), "requests/s");
	return 0;
}

static void redis_teardown(struct wl_ctx *ctx)
{
	struct redis_state *st = ctx->state;

	if (st)
		ud_server_kill(st->server);
	free(st);
	ctx->state = NULL;
}

const struct ud_workload_def wl_redis = {
	.name = "redis", .units = "requests/s", .higher_is_better = true,
	.teaches = "a Redis server on loopback under redis-benchmark SET and GET, the server counted",
	.suites = UD_SUITE_FULL, .setup = redis_setup_plain, .run = redis_run, .teardown = redis_teardown,
	.once = true, .not_single_cpu = true, .available = redis_available, .program = "redis-server",
};

const struct ud_workload_def wl_redis_pipelined = {
	.name = "redis-pipelined", .units = "requests/s", .higher_is_better = true,
	.teaches = "a Redis server on loopback under redis-benchmark SET and GET, " PIPELINE_DEPTH
		   " commands a round trip (-P " PIPELINE_DEPTH "): more of the server's work, less of the network's",
	.suites = UD_SUITE_FULL, .setup = redis_setup_pipelined, .run = redis_run, .teardown = redis_teardown,
	.once = true, .not_single_cpu = true, .available = redis_available, .program = "redis-server",
};
