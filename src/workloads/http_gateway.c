/*
 * http_gateway.c - nginx as a reverse proxy to an upstream on loopback,
 * loaded with wrk, the gateway counted (issue 40): APISIX's shape, where
 * the gateway is what is measured.
 *
 * Two nginx servers, one per role, each its own process started from a
 * configuration written into the workload's private directory: the
 * upstream answers every request with a fixed 1 KiB body (`return 200`,
 * nothing to install and next to no work), the gateway proxies to it over
 * kept-alive connections.  Each runs with `master_process off`: one process
 * that runs the event loop a worker runs, so the process the runner counts
 * (wl_ctx.counted_pid, user and kernel) is the whole gateway and none of
 * the upstream; with a master, the workers would be other processes forked
 * before the counters open.  One worker is also APISIX's published
 * benchmark ("one worker", `wrk -d 20 -c 32`, 2 threads, a 1 KB response:
 * apache/apisix docs/en/latest/benchmark.md), whose threads and connections
 * this workload takes.
 *
 * run() runs wrk once, uncounted, for the sample's target time in whole
 * seconds (wrk takes no less than a second); its CPU time (wait4) is
 * recorded apart, as "client user" and "client sys".  wrk's results come
 * from a Lua done() hook written beside the configurations, one line of
 * plain numbers: exact, where wrk's report rounds them to its units, and
 * read here because the wrk importer (import_wrk.c) sits in a stage above
 * this one.  The sub-scores take that importer's names, so a run diffs
 * against an imported wrk report.
 *
 * Both servers are this child's and in its process group: teardown() kills
 * them; a failed run() exits without teardown, and the servers, which die
 * with their parent (PR_SET_PDEATHSIG), go with it; a timeout or a Ctrl-C
 * kills the group (runner.h).  The runner removes the directory whatever
 * happened.
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

#define UNAVAILABLE "unavailable: install nginx and wrk (apt-get install nginx-light wrk; dnf install nginx wrk, " \
		    "wrk from EPEL)"

/* Where Debian and RHEL install nginx, which a user's PATH often lacks (sbin). */
#define NGINX_SBIN "/usr/sbin/nginx"
/* Ports taken by another program between our probe and the server's bind: tries before giving up. */
#define PORT_TRIES 5
/* How long a server may take to answer: nginx starts in milliseconds; a loaded VM takes longer. */
#define READY_TIMEOUT_S 10.0
#define READY_POLL_MS 20
/* APISIX's benchmark load: wrk's default 2 threads, 32 connections. */
#define THREADS "2"
#define CONNECTIONS "32"
/* The upstream's answer: APISIX's benchmark response size. */
#define BODY_BYTES 1024
/* Idle connections the gateway keeps to the upstream: at least one a client connection, so none is reopened. */
#define UPSTREAM_KEEPALIVE 64
/* A sample's length in wrk's whole seconds: at least one (its least), at most an hour. */
#define DURATION_MAX_S 3600
/* What the readiness answer is read into: headers and a pid. */
#define ANSWER_MAX 2048
/* The done() hook's line: its first word, then the numbers in the order parse_report() reads them. */
#define REPORT_TAG "uarchdiff-wrk"

enum role { UPSTREAM, GATEWAY, ROLES };

static const char *const role_name[ROLES] = { "upstream", "gateway" };

struct gateway_state {
	pid_t pid[ROLES];
	int port[ROLES];
	unsigned duration_s;
	char nginx_bin[4096], wrk_bin[4096];
	char script[4200];
};

static int find_nginx(char *path, size_t len)
{
	struct ud_err err = UD_ERR_INIT;

	return ud_which("nginx", path, len, &err) == 0 || ud_which(NGINX_SBIN, path, len, &err) == 0 ? 0 : -1;
}

static int gateway_available(struct ud_err *why)
{
	char path[4096];
	struct ud_err err = UD_ERR_INIT;

	if (find_nginx(path, sizeof(path)) != 0 || ud_which("wrk", path, sizeof(path), &err) != 0)
		return ud_fail(why, UNAVAILABLE);
	return 0;
}

/* What only the role's server block holds: the upstream's fixed answer, the gateway's proxying. */
static void write_role(FILE *f, enum role r)
{
	if (r == UPSTREAM) {
		fprintf(f, "    location / { default_type text/plain; return 200 \"");
		for (int i = 0; i < BODY_BYTES; i++)
			fputc('x', f);
		fprintf(f, "\"; }\n");
		return;
	}
	/* HTTP/1.1 and no Connection header: what nginx needs to keep upstream connections alive */
	fprintf(f, "    location / { proxy_pass http://upstream; proxy_http_version 1.1; "
		   "proxy_set_header Connection \"\"; }\n");
}

/*
 * The role's configuration, DIR/ROLE.conf: one process, every path in
 * dir (nginx's built-in ones are system folders), listening on loopback
 * only, and /uarchdiff-ready answering its pid, so that a server that
 * answers is known to be ours.
 */
static int write_config(const struct gateway_state *st, const char *dir, enum role r, struct ud_err *err)
{
	static const char *const temps[] = { "client_body", "proxy", "fastcgi", "uwsgi", "scgi" };
	const char *name = role_name[r];
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.conf", dir, name);
	if (!(f = fopen(path, "w")))
		return ud_fail(err, "%s: %s", path, strerror(errno));
	fprintf(f, "daemon off;\nmaster_process off;\nworker_processes 1;\npid %s/%s.pid;\nerror_log %s/%s.log warn;\n"
		   "events { worker_connections 1024; }\nhttp {\n  access_log off;\n", dir, name, dir, name);
	for (size_t i = 0; i < sizeof(temps) / sizeof(temps[0]); i++)
		fprintf(f, "  %s_temp_path %s/%s-%s;\n", temps[i], dir, name, temps[i]);
	if (r == GATEWAY)
		fprintf(f, "  upstream upstream { server 127.0.0.1:%d; keepalive %d; }\n", st->port[UPSTREAM],
			UPSTREAM_KEEPALIVE);
	fprintf(f, "  server {\n    listen 127.0.0.1:%d;\n    location = /uarchdiff-ready { return 200 \"$pid\\n\"; }\n",
		st->port[r]);
	write_role(f, r);
	fprintf(f, "  }\n}\n");
	if (ferror(f) | (fclose(f) != 0))
		return ud_fail(err, "%s: cannot write", path);
	return 0;
}

/* In the forked child: nginx in the role, its messages in DIR/ROLE.log (-e: not the system's log). */
static void exec_nginx(const struct gateway_state *st, const char *dir, enum role r)
{
	char conf[4200], log[4200];
	char *argv[] = { "nginx", "-p", (char *)dir, "-c", conf, "-e", log, NULL };

	snprintf(conf, sizeof(conf), "%s/%s.conf", dir, role_name[r]);
	snprintf(log, sizeof(log), "%s/%s.log", dir, role_name[r]);
	ud_exec_child(st->nginx_bin, argv, open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600), dir);
}

/*
 * Whether the server on port answers /uarchdiff-ready with pid, so is the
 * one we started: another program could take the port between our probe
 * and our server's bind, and answer while ours is still starting.
 */
static bool answers(int port, pid_t pid)
{
	static const char ask[] = "GET /uarchdiff-ready HTTP/1.0\r\n\r\n";
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	char want[48], buf[ANSWER_MAX];
	size_t len = 0;
	bool ok = false;
	ssize_t k = 1;

	buf[0] = '\0';
	snprintf(want, sizeof(want), "\r\n\r\n%d\n", (int)pid);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    write(fd, ask, sizeof(ask) - 1) == (ssize_t)(sizeof(ask) - 1)) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };

		while (!ok && k > 0 && len < sizeof(buf) - 1 && poll(&pf, 1, 1000) == 1) {
			k = read(fd, buf + len, sizeof(buf) - 1 - len);
			len += k > 0 ? (size_t)k : 0;
			buf[len] = '\0';
			ok = strstr(buf, want) != NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * The role's server started on its port and answering: 0; 1 when it
 * exited first (the port was taken between our probe and its bind:
 * another port may do), with why in err; -1 with err otherwise.
 */
static int start_role(struct gateway_state *st, const char *dir, enum role r, struct ud_err *err)
{
	uint64_t deadline = ud_now_ns() + (uint64_t)(READY_TIMEOUT_S * 1e9);
	char said[256], log[4200];
	int status;
	bool taken;

	if ((st->port[r] = ud_loopback_free_port(err)) < 0 || write_config(st, dir, r, err) != 0)
		return -1;
	if ((st->pid[r] = fork()) < 0)
		return ud_fail(err, "fork: %s", strerror(errno));
	if (st->pid[r] == 0)
		exec_nginx(st, dir, r);
	while (ud_now_ns() < deadline) {
		if (waitpid(st->pid[r], &status, WNOHANG) == st->pid[r]) {
			st->pid[r] = 0;
			snprintf(log, sizeof(log), "%s/%s.log", dir, role_name[r]);
			/* "bind() to 127.0.0.1:N failed (98: Address already in use)" */
			taken = ud_log_tail(log, "Address already in use", said, sizeof(said));
			ud_fail(err, "nginx (%s) on 127.0.0.1:%d exited (status %d)%s%s", role_name[r], st->port[r],
				ud_exit_code(status), said[0] ? ": " : "", said);
			return taken ? 1 : -1;
		}
		if (answers(st->port[r], st->pid[r]))
			return 0;
		nanosleep(&(struct timespec){ .tv_nsec = READY_POLL_MS * 1000000L }, NULL);
	}
	return ud_fail(err, "nginx (%s) on 127.0.0.1:%d did not answer within %.0f s", role_name[r], st->port[r],
		       READY_TIMEOUT_S);
}

/*
 * wrk's done() hook: requests, microseconds, the errors (connect, read,
 * write, status, timeout), then latency mean, p50, p75, p90, p99 and max
 * in microseconds, as plain numbers on one line.
 */
static int write_script(struct gateway_state *st, const char *dir, struct ud_err *err)
{
	FILE *f;

	snprintf(st->script, sizeof(st->script), "%s/report.lua", dir);
	if (!(f = fopen(st->script, "w")))
		return ud_fail(err, "%s: %s", st->script, strerror(errno));
	fprintf(f, "done = function(s, lat, req)\n"
		   "  local e = s.errors\n"
		   "  io.write(string.format(\"" REPORT_TAG " %%d %%d %%d %%d %%d %%d %%d %%.3f %%.3f %%.3f %%.3f "
		   "%%.3f %%.3f\\n\",\n"
		   "    s.requests, s.duration, e.connect, e.read, e.write, e.status, e.timeout, lat.mean,\n"
		   "    lat:percentile(50), lat:percentile(75), lat:percentile(90), lat:percentile(99), lat.max))\n"
		   "end\n");
	if (ferror(f) | (fclose(f) != 0))
		return ud_fail(err, "%s: cannot write", st->script);
	return 0;
}

static void add_sub(struct wl_ctx *ctx, const char *name, double value, const char *units)
{
	if (ctx->nsub >= WL_SUBSCORES_MAX)
		return;
	ctx->sub[ctx->nsub] = (struct wl_subscore){ .value = value };
	snprintf(ctx->sub[ctx->nsub].name, sizeof(ctx->sub[0].name), "%s", name);
	snprintf(ctx->sub[ctx->nsub].units, sizeof(ctx->sub[0].units), "%s", units);
	ctx->nsub++;
}

/*
 * The done() hook's line in out: the requests per second into *rate, the
 * latencies (in ms, as the importer gives them), the requests and socket
 * errors into ctx->sub.  A response other than 2xx or 3xx fails the run:
 * its rate would be of errors, not of proxying (the gateway's log says why).
 */
static int parse_report(const char *out, const char *dir, struct wl_ctx *ctx, double *rate, struct ud_err *err)
{
	static const char *const lat_name[] = { "latency avg", "latency p50", "latency p75", "latency p90",
						"latency p99", "latency max" };
	const char *line = strstr(out, REPORT_TAG " ");
	double req, us, conn, rd, wr, status, tmo, lat[6];
	char log[4200], said[256];

	if (!line || sscanf(line + sizeof(REPORT_TAG), "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &req,
			    &us, &conn, &rd, &wr, &status, &tmo, &lat[0], &lat[1], &lat[2], &lat[3], &lat[4],
			    &lat[5]) != 13)
		return ud_fail(err, "wrk printed no result (its done() hook's line): %.200s", out);
	if (status > 0) {
		snprintf(log, sizeof(log), "%s/%s.log", dir, role_name[GATEWAY]);
		ud_log_tail(log, "", said, sizeof(said));
		return ud_fail(err, "the gateway answered %.0f of %.0f requests with a status other than 2xx or 3xx%s%s",
			       status, req, said[0] ? ": " : "", said);
	}
	if (!(req > 0) || !(us > 0))
		return ud_fail(err, "wrk made no request in %.0f us (socket errors: %.0f)", us, conn + rd + wr + tmo);
	*rate = req / (us / 1e6);
	for (size_t i = 0; i < sizeof(lat_name) / sizeof(lat_name[0]); i++)
		add_sub(ctx, lat_name[i], lat[i] / 1e3, "ms");
	add_sub(ctx, "requests", req, "");
	add_sub(ctx, "socket errors", conn + rd + wr + tmo, "");
	return 0;
}

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* One wrk run: the requests per second into *rate, its results and CPU time into ctx->sub; -1 with err. */
static int bench(const struct gateway_state *st, const char *dir, struct wl_ctx *ctx, double *rate,
		 struct ud_err *err)
{
	char url[64], duration[32], *out;
	char *argv[] = { "wrk", "-t", THREADS, "-c", CONNECTIONS, "-d", duration, "-s", (char *)st->script, url, NULL };
	struct rusage ru;
	int ret;

	snprintf(url, sizeof(url), "http://127.0.0.1:%d/", st->port[GATEWAY]);
	snprintf(duration, sizeof(duration), "%us", st->duration_s);
	ctx->nsub = 0;
	if (ud_client_run("wrk", st->wrk_bin, argv, &out, &ru, err) != 0)
		return -1;
	ret = parse_report(out, dir, ctx, rate, err);
	free(out);
	if (ret != 0)
		return -1;
	add_sub(ctx, "client user", seconds(ru.ru_utime), "s");
	add_sub(ctx, "client sys", seconds(ru.ru_stime), "s");
	return 0;
}

static int gateway_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	struct gateway_state *st = calloc(1, sizeof(*st));
	int ret;

	if (!st)
		return ud_fail(err, "out of memory");
	ctx->state = st;
	if (find_nginx(st->nginx_bin, sizeof(st->nginx_bin)) != 0 ||
	    ud_which("wrk", st->wrk_bin, sizeof(st->wrk_bin), err) != 0)
		return ud_fail(err, UNAVAILABLE);
	if (write_script(st, ctx->tmpdir, err) != 0)
		return -1;
	/* the upstream first: the gateway's configuration names its port */
	for (enum role r = UPSTREAM; r < ROLES; r++) {
		ret = 1;
		for (int i = 0; i < PORT_TRIES && ret == 1; i++)
			ret = start_role(st, ctx->tmpdir, r, err);
		if (ret != 0)
			return -1;
	}
	ctx->counted_pid = st->pid[GATEWAY];
	/* wrk runs for a time, not a count: the sample's, in the whole seconds wrk takes */
	st->duration_s = (unsigned)fmin(fmax(round(ctx->target_s), 1), DURATION_MAX_S);
	return 0;
}

static int gateway_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	(void)iters;
	if (bench(ctx->state, ctx->tmpdir, ctx, &ctx->score, err) != 0)
		return -1;
	snprintf(ctx->score_units, sizeof(ctx->score_units), "requests/s");
	return 0;
}

static void gateway_teardown(struct wl_ctx *ctx)
{
	struct gateway_state *st = ctx->state;

	for (enum role r = UPSTREAM; st && r < ROLES; r++)
		ud_server_kill(st->pid[r]);
	free(st);
	ctx->state = NULL;
}

const struct ud_workload_def wl_http_gateway = {
	.name = "http-gateway", .units = "requests/s", .higher_is_better = true,
	.teaches = "nginx proxying to an upstream on loopback under wrk (" THREADS " threads, " CONNECTIONS
		   " connections, 1 KiB answers), the gateway counted",
	.suites = UD_SUITE_FULL, .setup = gateway_setup, .run = gateway_run, .teardown = gateway_teardown,
	.once = true, .not_single_cpu = true, .available = gateway_available, .program = "nginx",
};
