#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "runner.h"
#include "stats.h"

/* Calibration stops doubling once run() takes this share of the target. */
#define CALIBRATE_SHARE 0.2
#define MAX_ITERS (1ULL << 40)

/* What a child sends back: a header, then nev counts for a sample. */
struct message {
	int ok;
	char error[256];
	uint64_t iters;
	double work, score;
	char units[32];
	uint64_t elapsed_ns, user_ns, sys_ns;
};

static uint64_t cpu_ns(int who, int user)
{
	struct rusage ru;
	struct timeval tv;

	getrusage(who, &ru);
	tv = user ? ru.ru_utime : ru.ru_stime;
	return (uint64_t)tv.tv_sec * 1000000000ULL + (uint64_t)tv.tv_usec * 1000ULL;
}

static void send_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			_exit(4);
		p += k;
		n -= (size_t)k;
	}
}

static void child_fail(int fd, struct message *m, const char *what)
{
	m->ok = 0;
	snprintf(m->error, sizeof(m->error), "%s", what);
	send_all(fd, m, sizeof(*m));
	_exit(3);
}

/* In the child: iters = 0 calibrates, else one counted sample. */
static void child(const struct ud_workload_def *def, const struct ud_runner_opts *o, const struct ud_event *ev,
		  size_t nev, const char *tmpdir, uint64_t iters, int fd)
{
	struct wl_ctx ctx = { .tmpdir = tmpdir, .l1d = o->l1d, .l2 = o->l2, .l3 = o->l3, .work_per_iter = 1,
			      .data = def->data, .score = NAN };
	struct message m = { .ok = 1 };
	struct ud_count *counts = calloc(nev ? nev : 1, sizeof(*counts));
	struct ud_counters *set = NULL;
	struct ud_err err;
	uint64_t t0, u0, s0;

	setpgid(0, 0); /* a timeout kills the whole group, helpers too */
	signal(SIGINT, SIG_IGN); /* the parent decides what Ctrl-C stops */
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
		set = ud_counters_open(ev, nev, 0, UD_COUNT_INHERIT);
		if (!set)
			child_fail(fd, &m, "out of memory");
		u0 = cpu_ns(RUSAGE_SELF, 1) + cpu_ns(RUSAGE_CHILDREN, 1);
		s0 = cpu_ns(RUSAGE_SELF, 0) + cpu_ns(RUSAGE_CHILDREN, 0);
		t0 = ud_now_ns();
		if (ud_counters_enable(set, &err) != 0)
			child_fail(fd, &m, err.msg);
		if (def->run(&ctx, iters, &err) != 0)
			child_fail(fd, &m, err.msg);
		ud_counters_disable(set, &err);
		m.elapsed_ns = ud_now_ns() - t0;
		m.user_ns = cpu_ns(RUSAGE_SELF, 1) + cpu_ns(RUSAGE_CHILDREN, 1) - u0;
		m.sys_ns = cpu_ns(RUSAGE_SELF, 0) + cpu_ns(RUSAGE_CHILDREN, 0) - s0;
		if (ud_counters_read(set, counts, &err) != 0)
			child_fail(fd, &m, err.msg);
		m.iters = iters;
		m.work = (double)iters * ctx.work_per_iter;
		m.score = ctx.score;
		snprintf(m.units, sizeof(m.units), "%s", ctx.score_units);
	}
	if (def->teardown)
		def->teardown(&ctx);
	send_all(fd, &m, sizeof(m));
	if (iters && nev)
		send_all(fd, counts, nev * sizeof(*counts));
	_exit(0);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
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

/*
 * Runs one child and collects its message.  Returns the outcome; on OK,
 * *m and counts[0..nev) hold what it sent.
 */
static enum ud_outcome run_child(const struct ud_workload_def *def, const struct ud_runner_opts *o,
				 const struct ud_event *ev, size_t nev, const char *tmpdir, uint64_t iters,
				 struct message *m, struct ud_count *counts, char *detail, size_t dlen)
{
	size_t want = sizeof(*m) + (iters ? nev * sizeof(*counts) : 0), got = 0;
	char *buf = calloc(1, want);
	uint64_t deadline = ud_now_ns() + (uint64_t)(o->timeout_s * 1e9);
	enum ud_outcome out = UD_OUT_OK;
	int p[2], status = 0;
	pid_t pid;

	if (!buf || pipe2(p, O_CLOEXEC) != 0) {
		free(buf);
		snprintf(detail, dlen, "cannot start: %s", strerror(errno));
		return UD_OUT_FAILED;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(detail, dlen, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		free(buf);
		return UD_OUT_FAILED;
	}
	if (pid == 0) {
		close(p[0]);
		child(def, o, ev, nev, tmpdir, iters, p[1]);
	}
	setpgid(pid, pid); /* also here: no race with an early kill */
	close(p[1]);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		uint64_t now = ud_now_ns();
		int r;
		ssize_t k;

		if (o->stop && *o->stop) {
			out = UD_OUT_INTERRUPTED;
			break;
		}
		if (now >= deadline) {
			out = UD_OUT_TIMEOUT;
			break;
		}
		r = poll(&pfd, 1, (int)((deadline - now) / 1000000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		k = read(p[0], buf + got, want - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break; /* EOF: the child is done or dead */
		got += (size_t)k;
	}
	close(p[0]);
	if (out != UD_OUT_OK)
		kill_group(pid);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (out == UD_OUT_TIMEOUT) {
		snprintf(detail, dlen, "timed out after %.0f s", o->timeout_s);
	} else if (out == UD_OUT_INTERRUPTED) {
		snprintf(detail, dlen, "interrupted");
	} else if (WIFSIGNALED(status)) {
		out = UD_OUT_CRASHED;
		snprintf(detail, dlen, "crashed: signal %d (%s)", WTERMSIG(status), signal_name(WTERMSIG(status)));
	} else if (got >= sizeof(*m) && !((struct message *)buf)->ok) {
		out = UD_OUT_FAILED;
		snprintf(detail, dlen, "failed: %s", ((struct message *)buf)->error);
	} else if (got != want || WEXITSTATUS(status) != 0) {
		out = UD_OUT_FAILED;
		snprintf(detail, dlen, "failed: exit status %d, %zu of %zu bytes of results", WEXITSTATUS(status), got, want);
	} else {
		memcpy(m, buf, sizeof(*m));
		if (iters && nev)
			memcpy(counts, buf + sizeof(*m), nev * sizeof(*counts));
	}
	free(buf);
	return out;
}

/* --exact: the sample once a counter group, the first run's times standing for it. */
static enum ud_outcome run_exact(const struct ud_workload_def *def, const struct ud_runner_opts *o,
				 const char *tmpdir, uint64_t iters, struct message *m, struct ud_count *counts,
				 char *detail, size_t dlen)
{
	int groups = ud_event_group_count(o->ev, o->nev);
	struct ud_event *sub = calloc(o->nev ? o->nev : 1, sizeof(*sub));
	struct ud_count *part = calloc(o->nev ? o->nev : 1, sizeof(*part));
	size_t *index = calloc(o->nev ? o->nev : 1, sizeof(*index));
	enum ud_outcome out = UD_OUT_OK;

	if (!sub || !part || !index) {
		snprintf(detail, dlen, "out of memory");
		out = UD_OUT_FAILED;
	}
	for (int g = 0; out == UD_OUT_OK && g < (groups ? groups : 1); g++) {
		struct message mg;
		size_t k = 0;

		for (size_t i = 0; i < o->nev; i++) {
			if (o->ev[i].group == g || (g == 0 && o->ev[i].group < 0)) {
				sub[k] = o->ev[i];
				index[k++] = i;
			}
		}
		out = run_child(def, o, sub, k, tmpdir, iters, &mg, part, detail, dlen);
		for (size_t j = 0; out == UD_OUT_OK && j < k; j++)
			counts[index[j]] = part[j];
		if (g == 0)
			*m = mg;
	}
	free(sub);
	free(part);
	free(index);
	return out;
}

int ud_run_workload(const struct ud_workload_def *def, const struct ud_runner_opts *o, struct ud_run_result *res,
		    struct ud_err *err)
{
	const char *root = o->tmp_root ? o->tmp_root : getenv("TMPDIR");
	char tmpdir[4096];
	struct message m;

	memset(res, 0, sizeof(*res));
	snprintf(tmpdir, sizeof(tmpdir), "%s/uarchdiff-%s-XXXXXX", root && *root ? root : "/tmp", def->name);
	if (!mkdtemp(tmpdir))
		return ud_fail(err, "%s: cannot make a temporary directory: %s", tmpdir, strerror(errno));
	res->samples = calloc((size_t)o->samples, sizeof(*res->samples));
	if (!res->samples) {
		rmdir(tmpdir);
		return ud_fail(err, "out of memory");
	}
	/* A program that sets its own duration runs once a sample, uncalibrated. */
	res->outcome = def->once ? UD_OUT_OK
				 : run_child(def, o, NULL, 0, tmpdir, 0, &m, NULL, res->detail, sizeof(res->detail));
	res->iters = def->once ? 1 : res->outcome == UD_OUT_OK ? m.iters : 0;
	for (int s = 0; res->outcome == UD_OUT_OK && s < o->samples; s++) {
		struct ud_sample *smp = &res->samples[res->nsamples];

		smp->counts = calloc(o->nev ? o->nev : 1, sizeof(*smp->counts));
		if (!smp->counts) {
			res->outcome = UD_OUT_FAILED;
			snprintf(res->detail, sizeof(res->detail), "out of memory");
			break;
		}
		res->outcome = o->exact ? run_exact(def, o, tmpdir, res->iters, &m, smp->counts, res->detail,
						    sizeof(res->detail))
					: run_child(def, o, o->ev, o->nev, tmpdir, res->iters, &m, smp->counts,
						    res->detail, sizeof(res->detail));
		if (res->outcome != UD_OUT_OK) {
			free(smp->counts);
			smp->counts = NULL;
			break;
		}
		smp->work = m.work;
		smp->score = m.score;
		snprintf(res->units, sizeof(res->units), "%s", m.units);
		smp->elapsed_ns = m.elapsed_ns;
		smp->user_ns = m.user_ns;
		smp->sys_ns = m.sys_ns;
		res->nsamples++;
	}
	/* Whatever the children did, their files go. */
	nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

void ud_run_result_free(struct ud_run_result *res)
{
	for (size_t i = 0; i < res->nsamples; i++)
		free(res->samples[i].counts);
	free(res->samples);
	res->samples = NULL;
	res->nsamples = 0;
}

const char *ud_outcome_name(enum ud_outcome o)
{
	switch (o) {
	case UD_OUT_OK: return "ok";
	case UD_OUT_CRASHED: return "crashed";
	case UD_OUT_TIMEOUT: return "timeout";
	case UD_OUT_INTERRUPTED: return "interrupted";
	case UD_OUT_FAILED: break;
	}
	return "failed";
}

int ud_run_to_workload(const struct ud_workload_def *def, const struct ud_run_result *res, const struct ud_event *ev,
		       size_t nev, struct ud_workload *w)
{
	double *scores = calloc(res->nsamples ? res->nsamples : 1, sizeof(double));
	double work = 0, elapsed = 0, user = 0, sys = 0;

	if (!scores)
		return -1;
	w->units = strdup(res->units[0] ? res->units : def->units);
	w->higher_is_better = def->higher_is_better;
	w->runs = (int)res->nsamples;
	w->outcome = strdup(res->outcome == UD_OUT_OK ? "ok" : res->detail);
	for (size_t s = 0; s < res->nsamples; s++) {
		const struct ud_sample *smp = &res->samples[s];

		/* The program's own score where it reports one, else work per second. */
		scores[s] = isfinite(smp->score) ? smp->score : smp->work / ((double)smp->elapsed_ns / 1e9);
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
	for (size_t i = 0; i < nev; i++) {
		struct ud_counter *c = ud_workload_add_counter(w, ev[i].name);

		if (!c)
			return -1;
		c->status = res->nsamples ? UD_COUNTED : UD_NOT_COUNTED;
		c->value = c->raw_value = c->enabled_ns = c->running_ns = 0;
		for (size_t s = 0; s < res->nsamples; s++) {
			const struct ud_count *k = &res->samples[s].counts[i];

			if (k->status != UD_COUNTED && c->status == UD_COUNTED) {
				c->status = k->status;
				c->reason = strdup(k->reason);
			}
			c->value += k->value;
			c->raw_value += (double)k->raw;
			c->enabled_ns += (double)k->enabled_ns;
			c->running_ns += (double)k->running_ns;
		}
		if (!res->nsamples)
			c->reason = strdup("the workload produced no sample");
		if (c->status != UD_COUNTED)
			c->value = NAN;
		if (c->status == UD_NOT_SUPPORTED)
			c->raw_value = c->enabled_ns = c->running_ns = NAN;
		c->opened_as = ev[i].opened_as && c->status != UD_NOT_SUPPORTED ? strdup(ev[i].opened_as) : NULL;
		c->vendor_event = ev[i].vendor_event[0] ? strdup(ev[i].vendor_event) : NULL;
		c->semantics = ev[i].semantics[0] ? strdup(ev[i].semantics) : NULL;
		c->group = ev[i].group;
	}
	return 0;
}
