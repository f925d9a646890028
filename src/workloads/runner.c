#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fileio.h"
#include "guard.h"
#include "launch.h"
#include "measure.h"
#include "runner.h"
#include "text.h"
#include "stats.h"
#include "targets.h"

/* Calibration stops doubling once run() takes this share of the target. */
#define CALIBRATE_SHARE 0.2
#define MAX_ITERS (1ULL << 40)

/* What a child sends back: a header, then nev counts for a sample. */
struct message {
	int ok;
	struct ud_err error;
	uint64_t iters;
	double work, score;
	char units[32];
	uint64_t elapsed_ns, user_ns, sys_ns;
	struct wl_subscore sub[WL_SUBSCORES_MAX];
	size_t nsub;
};

static uint64_t cpu_ns(int who, int user)
{
	struct rusage ru;
	struct timeval tv;

	getrusage(who, &ru);
	tv = user ? ru.ru_utime : ru.ru_stime;
	return (uint64_t)tv.tv_sec * 1000000000ULL + (uint64_t)tv.tv_usec * 1000ULL;
}

/*
 * The user and kernel time of process pid and its reaped children so far
 * (/proc/PID/stat's utime and stime, in clock ticks): a counted server
 * that is not this process's, whose times getrusage() cannot see.  0 when
 * it cannot be read, so that a sample's times are then 0, never made up.
 */
static void proc_times(pid_t pid, uint64_t *user, uint64_t *sys)
{
	char path[64], buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	long tick = sysconf(_SC_CLK_TCK);
	FILE *f;
	size_t n;

	*user = *sys = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the name in parentheses may hold blanks: the fields start after its last ')' */
	p = strrchr(buf, ')');
	if (!p || tick <= 0 || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return;
	*user = (uint64_t)(ut * (1000000000ULL / (unsigned long long)tick));
	*sys = (uint64_t)(st * (1000000000ULL / (unsigned long long)tick));
}

/* CPU time of the counted work: this process and its children, or the process setup() named. */
static void work_times(pid_t counted, uint64_t *user, uint64_t *sys)
{
	if (counted > 0) {
		proc_times(counted, user, sys);
		return;
	}
	*user = cpu_ns(RUSAGE_SELF, 1) + cpu_ns(RUSAGE_CHILDREN, 1);
	*sys = cpu_ns(RUSAGE_SELF, 0) + cpu_ns(RUSAGE_CHILDREN, 0);
}

/*
 * The counters, on this process (inherited by what it forks) or on every
 * thread of the process setup() named, inherited by the threads it starts
 * after; NULL with err.
 */
static struct ud_counters *open_counters(pid_t counted, const struct ud_event *ev, size_t nev, struct ud_err *err)
{
	struct ud_count_slot *slots;
	struct ud_counters *set;
	pid_t *tids;
	size_t ntids;

	if (counted <= 0)
		return (set = ud_counters_open(ev, nev, 0, UD_COUNT_INHERIT)) ? set : (ud_fail(err, "out of memory"), NULL);
	if (ud_process_threads(&counted, 1, &tids, &ntids, err) != 0)
		return NULL;
	slots = calloc(ntids ? ntids : 1, sizeof(*slots));
	for (size_t i = 0; slots && i < ntids; i++)
		slots[i] = (struct ud_count_slot){ .pid = tids[i], .cpu = -1 };
	set = slots && ntids ? ud_counters_open_slots(ev, nev, slots, ntids, UD_COUNT_INHERIT) : NULL;
	if (!set)
		ud_fail(err, ntids ? "out of memory" : "the counted process %d has no threads", (int)counted);
	free(slots);
	free(tids);
	return set;
}

static void send_all(int fd, const void *buf, size_t n)
{
	if (ud_write_all(fd, buf, n) != 0)
		_exit(4);
}

static void child_fail(int fd, struct message *m, const char *what)
{
	m->ok = 0;
	ud_fail(&m->error, "%s", what);
	send_all(fd, m, sizeof(*m));
	_exit(3);
}

/*
 * The parent died (PR_SET_PDEATHSIG): whatever the workload started goes,
 * then this child's group with it.  The descendants first, one by one: a
 * helper that left the group with setsid() is out of kill(0)'s reach, and
 * this child, their subreaper, is the only one left to find them.
 */
static void on_parent_death(int sig)
{
	(void)sig;
	ud_kill_descendants(NULL, 0);
	kill(0, SIGKILL);
}

/*
 * In the child: the parent's signal handlers undone (its stop handler,
 * inherited by the fork, would keep a signal from ending the child), Ctrl-C
 * ignored (the parent decides what it stops), and death with the parent:
 * a SIGKILL of uarchdiff runs no cleanup, so the kernel tells the child,
 * which takes its process group with it.
 */
static void die_with_parent(pid_t parent)
{
	struct sigaction on_death = { .sa_handler = on_parent_death };

	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN)
			signal(sig, SIG_DFL);
	}
	signal(SIGINT, SIG_IGN);
	sigaction(SIGTERM, &on_death, NULL);
	/* orphans of the workload's programs (a setsid() helper whose parent exited) become ours, within reach */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent) /* it died before the line above */
		kill(0, SIGKILL);
}

/* In the child: one counted run() of iters, its times, counts and results into m and counts. */
static void measure(const struct ud_workload_def *def, const struct ud_runner_opts *o, const struct ud_event *ev,
		    size_t nev, struct wl_ctx *ctx, uint64_t iters, struct ud_count *counts, int records_fd, int fd,
		    struct message *m)
{
	struct ud_counters *set;
	struct ud_sampler *smp = NULL;
	struct ud_err err = UD_ERR_INIT;
	uint64_t t0, u0, s0, u1, s1;

	/* The sampler first: its drainer must not inherit the counters. */
	if (records_fd >= 0 && !(smp = ud_sampler_open(o->sampling, ctx->counted_pid, 0, records_fd, &err)))
		child_fail(fd, m, err.msg);
	if (!(set = open_counters(ctx->counted_pid, ev, nev, &err)))
		child_fail(fd, m, err.msg);
	work_times(ctx->counted_pid, &u0, &s0);
	t0 = ud_now_ns();
	if (ud_counters_enable(set, &err) != 0 || (smp && ud_sampler_enable(smp, &err) != 0))
		child_fail(fd, m, err.msg);
	if (def->run(ctx, iters, &err) != 0)
		child_fail(fd, m, err.msg);
	if (smp)
		ud_sampler_disable(smp, &err);
	ud_counters_disable(set, &err);
	m->elapsed_ns = ud_now_ns() - t0;
	work_times(ctx->counted_pid, &u1, &s1);
	m->user_ns = u1 > u0 ? u1 - u0 : 0; /* a counted process gone before the end: its times unread, 0 */
	m->sys_ns = s1 > s0 ? s1 - s0 : 0;
	if (ud_counters_read(set, counts, &err) != 0 || (smp && ud_sampler_close(smp, &err) != 0))
		child_fail(fd, m, err.msg);
	ud_counters_close(set);
	m->iters = iters;
	m->work = (double)iters * ctx->work_per_iter;
	m->score = ctx->score;
	snprintf(m->units, sizeof(m->units), "%s", ctx->score_units);
	m->nsub = ctx->nsub < WL_SUBSCORES_MAX ? ctx->nsub : WL_SUBSCORES_MAX;
	memcpy(m->sub, ctx->sub, sizeof(m->sub));
}

/* In the child: iters = 0 calibrates, else one counted sample. */
static void child(const struct ud_workload_def *def, const struct ud_runner_opts *o, const struct ud_event *ev,
		  size_t nev, const char *tmpdir, uint64_t iters, int fd, int records_fd, pid_t parent)
{
	struct wl_ctx ctx = { .tmpdir = tmpdir, .l1d = o->l1d, .l2 = o->l2, .l3 = o->l3, .work_per_iter = 1,
			      .data = def->data, .score = NAN, .target_s = o->target_s };
	struct message m = { .ok = 1 };
	struct ud_count *counts = calloc(nev ? nev : 1, sizeof(*counts));
	struct ud_err err = UD_ERR_INIT;
	uint64_t t0;

	setpgid(0, 0); /* a timeout kills the whole group, helpers too */
	ud_guard_forget();
	die_with_parent(parent);
	if (!counts)
		child_fail(fd, &m, "out of memory");
	if (def->setup && def->setup(&ctx, &err) != 0)
		child_fail(fd, &m, err.msg);
	if (iters == 0) {
		double target_ns = o->target_s * 1e9, t;

		for (iters = 1;; iters *= 2) {
			t0 = ud_now_ns();
			if (def->run(&ctx, iters, &err) != 0)
				child_fail(fd, &m, err.msg);
			t = (double)(ud_now_ns() - t0);
			if (t >= CALIBRATE_SHARE * target_ns || iters >= MAX_ITERS)
				break;
		}
		m.iters = (uint64_t)ceil((double)iters * target_ns / (t > 0 ? t : 1));
		m.iters = m.iters ? m.iters : 1;
	} else {
		/* Unmeasured warm-up: caches, TLB, predictors and the clock settle first. */
		if (!def->once && def->run(&ctx, iters / 10 + 1, &err) != 0)
			child_fail(fd, &m, err.msg);
		measure(def, o, ev, nev, &ctx, iters, counts, records_fd, fd, &m);
	}
	if (def->teardown)
		def->teardown(&ctx);
	send_all(fd, &m, sizeof(m));
	if (iters && nev)
		send_all(fd, counts, nev * sizeof(*counts));
	_exit(0);
}

static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

static const char *signal_name(int sig)
{
	const char *s = strsignal(sig);

	return s ? s : "unknown signal";
}

/* Reads the child's message until EOF, the deadline or a stop request. */
static enum ud_outcome collect(int fd, const struct ud_runner_opts *o, char *buf, size_t want, size_t *got)
{
	uint64_t deadline = ud_now_ns() + (uint64_t)(o->timeout_s * 1e9);

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t now = ud_now_ns();
		int r;
		ssize_t k;

		if (o->stop && *o->stop)
			return UD_OUT_INTERRUPTED;
		if (now >= deadline)
			return UD_OUT_TIMEOUT;
		r = poll(&pfd, 1, (int)((deadline - now) / 1000000) + 1);
		if (r <= 0)
			continue; /* EINTR, or the deadline checked above */
		k = read(fd, buf + *got, want - *got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return UD_OUT_OK; /* EOF: the child is done or dead */
		*got += (size_t)k;
	}
}

/* What became of a reaped child, given what it sent. */
static enum ud_outcome judge(enum ud_outcome out, int status, const char *buf, size_t got, size_t want,
			     const struct ud_runner_opts *o, struct ud_err *detail)
{
	const struct message *m = (const struct message *)buf;

	if (out == UD_OUT_TIMEOUT)
		return ud_fail(detail, "timed out after %.0f s", o->timeout_s), out;
	if (out == UD_OUT_INTERRUPTED)
		return ud_fail(detail, "interrupted"), out;
	if (WIFSIGNALED(status))
		return ud_fail(detail, "crashed: signal %d (%s)", WTERMSIG(status), signal_name(WTERMSIG(status))),
		       UD_OUT_CRASHED;
	if (got >= sizeof(*m) && !m->ok) {
		*detail = m->error;
		return ud_err_prefix(detail, "failed"), UD_OUT_FAILED;
	}
	if (got != want || WEXITSTATUS(status) != 0)
		return ud_fail(detail, "failed: exit status %d, %zu of %zu bytes of results", WEXITSTATUS(status), got,
			       want),
		       UD_OUT_FAILED;
	return UD_OUT_OK;
}

/*
 * Runs one child and collects its message.  Returns the outcome; on OK,
 * *m and counts[0..nev) hold what it sent, else detail says what happened.
 */
/* The caller's own children a workload's run leaves alone; more than a test's busy loops will ever need. */
#define SPARE_CHILDREN_MAX 256

static enum ud_outcome run_child(const struct ud_workload_def *def, const struct ud_runner_opts *o,
				 const struct ud_event *ev, size_t nev, const char *tmpdir, uint64_t iters, int records_fd,
				 struct message *m, struct ud_count *counts, struct ud_err *detail)
{
	size_t want = sizeof(*m) + (iters ? nev * sizeof(*counts) : 0), got = 0;
	char *buf = calloc(1, want);
	enum ud_outcome out;
	int p[2], status = 0;
	/* Children we had before this one (a caller's helpers) are not its leftovers. */
	pid_t pid, self = getpid(), spare[SPARE_CHILDREN_MAX];
	size_t nspare = ud_children(spare, SPARE_CHILDREN_MAX);

	if (!buf || pipe2(p, O_CLOEXEC) != 0) {
		free(buf);
		return ud_fail(detail, "cannot start: %s", strerror(errno)), UD_OUT_FAILED;
	}
	pid = fork();
	if (pid < 0) {
		ud_fail(detail, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		free(buf);
		return UD_OUT_FAILED;
	}
	if (pid == 0) {
		close(p[0]);
		child(def, o, ev, nev, tmpdir, iters, p[1], records_fd, self);
	}
	setpgid(pid, pid); /* also here: no race with an early kill */
	close(p[1]);
	out = collect(p[0], o, buf, want, &got);
	close(p[0]);
	if (out != UD_OUT_OK)
		kill_group(pid);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	ud_kill_descendants(spare, nspare); /* helpers that left the group with setsid(), adopted as orphans */
	out = judge(out, status, buf, got, want, o, detail);
	if (out == UD_OUT_OK) {
		memcpy(m, buf, sizeof(*m));
		if (iters && nev)
			memcpy(counts, buf + sizeof(*m), nev * sizeof(*counts));
	}
	free(buf);
	return out;
}

/* One sample's child, as ud_measure_unit() runs it: once, or once a group with --exact. */
struct sample_run {
	const struct ud_workload_def *def;
	const struct ud_runner_opts *o;
	const char *tmpdir;
	uint64_t iters;
	int records_fd;       /* where sampled runs append their records; -1: not sampled */
	struct message first; /* the first group's message: its times stand for the sample */
	struct ud_err *detail;
};

static int sample_one(void *ctx, const struct ud_event *ev, size_t n, struct ud_count *counts, bool first)
{
	struct sample_run *sr = ctx;
	struct message m;
	enum ud_outcome out = run_child(sr->def, sr->o, ev, n, sr->tmpdir, sr->iters, sr->records_fd, &m, counts,
						sr->detail);

	if (out == UD_OUT_OK && first)
		sr->first = m;
	return (int)out;
}

static enum ud_outcome run_sample(struct sample_run *sr, struct ud_sample *smp)
{
	const struct ud_runner_opts *o = sr->o;
	/* Where this sample's records start: a sample that is not kept takes its records with it. */
	off_t records_at = sr->records_fd >= 0 ? lseek(sr->records_fd, 0, SEEK_END) : -1;
	int ret;

	smp->counts = calloc(o->nev ? o->nev : 1, sizeof(*smp->counts));
	ret = smp->counts ? ud_measure_unit(o->ev, o->nev, o->exact, sample_one, sr, smp->counts)
			  : UD_MEASURE_NO_MEMORY;
	if (ret == UD_MEASURE_NO_MEMORY) {
		ud_fail(sr->detail, "out of memory");
		ret = UD_OUT_FAILED;
	}
	if (ret != UD_OUT_OK) {
		free(smp->counts);
		smp->counts = NULL;
		if (records_at >= 0 && ftruncate(sr->records_fd, records_at) == 0)
			lseek(sr->records_fd, records_at, SEEK_SET);
		return (enum ud_outcome)ret;
	}
	smp->work = sr->first.work;
	smp->score = sr->first.score;
	smp->elapsed_ns = sr->first.elapsed_ns;
	smp->user_ns = sr->first.user_ns;
	smp->sys_ns = sr->first.sys_ns;
	smp->nsub = sr->first.nsub;
	memcpy(smp->sub, sr->first.sub, sizeof(smp->sub));
	return UD_OUT_OK;
}

/*
 * The workload's private directory under root (NULL: $TMPDIR, else /tmp),
 * made absolute: a workload runs its programs inside it, where a relative
 * name would point somewhere else.  0, or -1 with detail.
 */
static int make_tmpdir(const char *root, const char *name, char *dir, size_t len, struct ud_err *detail)
{
	char cwd[4096];
	const char *base = root && *root ? root : "/tmp";
	bool relative = base[0] != '/';

	if (relative && !getcwd(cwd, sizeof(cwd)))
		return ud_fail(detail, "failed: %s: cannot make a temporary directory: %s", base, strerror(errno));
	if ((size_t)snprintf(dir, len, "%s%s%s/uarchdiff-%s-XXXXXX", relative ? cwd : "", relative ? "/" : "", base,
			     name) >= len)
		return ud_fail(detail, "failed: %s: cannot make a temporary directory: %s", base, strerror(ENAMETOOLONG));
	/* This workload fails; the others may still run. */
	if (!mkdtemp(dir)) {
		ud_fail(detail, "failed: %s: cannot make a temporary directory: %s", dir, strerror(errno));
		dir[0] = '\0';
		return -1;
	}
	ud_guard_add(dir);
	return 0;
}

void ud_run_begin(const struct ud_workload_def *def, const struct ud_runner_opts *o, struct ud_run_result *res)
{
	struct ud_err no_guard = UD_ERR_INIT;
	struct message m;

	memset(res, 0, sizeof(*res));
	res->records_fd = -1;
	if (ud_adopt_orphans(&res->detail) != 0) {
		res->outcome = UD_OUT_FAILED;
		return;
	}
	/* Without the guard only a SIGKILL would leave the directory, as it did before there was one. */
	ud_guard_start(&no_guard);
	if (make_tmpdir(o->tmp_root ? o->tmp_root : getenv("TMPDIR"), def->name, res->tmpdir, sizeof(res->tmpdir),
			&res->detail) != 0) {
		res->tmpdir[0] = '\0';
		res->outcome = UD_OUT_FAILED;
		return;
	}
	/* A sampled workload's children append their records here, read back by ud_run_end. */
	if (o->sampling && (res->records_fd = ud_records_fd_new(&res->detail)) < 0) {
		res->outcome = UD_OUT_FAILED;
		return;
	}
	/* A program that sets its own duration runs once a sample, uncalibrated. */
	res->outcome = def->once ? UD_OUT_OK : run_child(def, o, NULL, 0, res->tmpdir, 0, -1, &m, NULL, &res->detail);
	res->iters = def->once ? 1 : res->outcome == UD_OUT_OK ? m.iters : 0;
}

enum ud_outcome ud_run_sample(const struct ud_workload_def *def, const struct ud_runner_opts *o,
			      struct ud_run_result *res)
{
	struct sample_run sr = { .def = def, .o = o, .tmpdir = res->tmpdir, .iters = res->iters,
				 .records_fd = res->records_fd, .detail = &res->detail };

	if (res->outcome != UD_OUT_OK)
		return res->outcome;
	if (res->nsamples == res->cap) {
		size_t cap = res->cap ? 2 * res->cap : 8;
		struct ud_sample *grown = realloc(res->samples, cap * sizeof(*grown));

		if (!grown) {
			ud_fail(&res->detail, "out of memory");
			return res->outcome = UD_OUT_FAILED;
		}
		res->samples = grown;
		res->cap = cap;
	}
	res->outcome = run_sample(&sr, &res->samples[res->nsamples]);
	if (res->outcome == UD_OUT_OK) {
		snprintf(res->units, sizeof(res->units), "%s", sr.first.units);
		res->nsamples++;
	}
	return res->outcome;
}

void ud_run_end(struct ud_run_result *res)
{
	/* Whatever the children did, their files go. */
	if (res->tmpdir[0]) {
		ud_guard_remove(res->tmpdir);
	}
	res->tmpdir[0] = '\0';
	if (res->records_fd >= 0) {
		struct ud_err err = UD_ERR_INIT;

		if (ud_records_fd_read(res->records_fd, &res->records, &res->nrecords, &err) != 0) {
			ud_fail(&res->detail, "failed: cannot read the sampled records: %s", err.msg);
			res->outcome = UD_OUT_FAILED;
		}
		close(res->records_fd);
		res->records_fd = -1;
	}
}

void ud_run_workload(const struct ud_workload_def *def, const struct ud_runner_opts *o, struct ud_run_result *res)
{
	ud_run_begin(def, o, res);
	for (int s = 0; s < o->samples && ud_run_sample(def, o, res) == UD_OUT_OK; s++)
		;
	ud_run_end(res);
}

void ud_run_result_free(struct ud_run_result *res)
{
	for (size_t i = 0; i < res->nsamples; i++)
		free(res->samples[i].counts);
	free(res->samples);
	res->samples = NULL;
	free(res->records);
	res->records = NULL;
	res->nrecords = 0;
	res->nsamples = 0;
}

double ud_sample_score(const struct ud_sample *s)
{
	return isfinite(s->score) ? s->score : s->work / ((double)s->elapsed_ns / 1e9);
}

/* Each sub-score the first sample reported, as the mean of the samples that reported it under its name. */
static int add_subscores(const struct ud_run_result *res, struct ud_workload *w)
{
	if (!res->nsamples)
		return 0;
	for (size_t k = 0; k < res->samples[0].nsub; k++) {
		const struct wl_subscore *first = &res->samples[0].sub[k];
		double sum = 0;
		size_t n = 0;

		for (size_t s = 0; s < res->nsamples; s++) {
			const struct ud_sample *smp = &res->samples[s];

			if (k < smp->nsub && strcmp(smp->sub[k].name, first->name) == 0 && isfinite(smp->sub[k].value)) {
				sum += smp->sub[k].value;
				n++;
			}
		}
		if (n && ud_workload_add_subscore(w, first->name, sum / (double)n, first->units[0] ? first->units : NULL))
			return -1;
	}
	return 0;
}

int ud_run_to_workload(const struct ud_workload_def *def, const struct ud_run_result *res, const struct ud_event *ev,
		       size_t nev, struct ud_workload *w)
{
	double *scores = calloc(res->nsamples ? res->nsamples : 1, sizeof(double));
	double work = 0, elapsed = 0, user = 0, sys = 0;
	struct ud_fold fold;

	if (!scores)
		return -1;
	w->units = strdup(res->units[0] ? res->units : def->units);
	w->higher_is_better = def->higher_is_better;
	w->runs = (int)res->nsamples;
	w->outcome = strdup(res->outcome == UD_OUT_OK ? "ok" : res->detail.msg);
	/* A program's units and a message cut to its buffer may not be UTF-8, which JSON cannot hold. */
	if (w->units)
		ud_utf8_sanitize(w->units);
	if (w->outcome)
		ud_utf8_sanitize(w->outcome);
	for (size_t s = 0; s < res->nsamples; s++) {
		const struct ud_sample *smp = &res->samples[s];

		scores[s] = ud_sample_score(smp);
		work += smp->work;
		elapsed += (double)smp->elapsed_ns;
		user += (double)smp->user_ns;
		sys += (double)smp->sys_ns;
	}
	if (res->nsamples) {
		/* Counts and times are the samples' totals, so ratios between them are exact. */
		ud_score_set_samples(&w->score, scores, res->nsamples);
		/* An external program's work is only what its score implies: left unknown. */
		w->work_units = def->once ? NAN : work;
		w->elapsed_ns = elapsed;
		w->user_ns = user;
		w->sys_ns = sys;
	}
	free(scores);
	if (add_subscores(res, w) != 0)
		return -1;
	if (ud_fold_begin(&fold, w, ev, nev, res->nsamples, UD_FOLD_SUM) != 0)
		return -1;
	for (size_t s = 0; s < res->nsamples; s++)
		ud_fold_add(&fold, res->samples[s].counts);
	ud_fold_finish(&fold);
	return 0;
}
