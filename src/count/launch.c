#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "launch.h"
#include "sampler.h"
#include "targets.h"

static int ud_launch_sampled(char *const argv[], const struct ud_event *ev, size_t n, struct ud_count *counts,
		      const struct ud_launch_sampling *s, struct ud_launch_result *res, struct ud_err *err);

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ULL + (uint64_t)tv.tv_usec * 1000ULL;
}

int ud_exit_status(int wait_status)
{
	if (WIFEXITED(wait_status))
		return WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		return 128 + WTERMSIG(wait_status);
	return UD_EXIT_RUN_FAILED;
}

/*
 * The signals a session handles: what stops it, and the command's end.
 * Those a user, a terminal or a pipeline sends are here (issue 34: a
 * SIGUSR1 or SIGALRM killed stat and left the command running): the
 * command gets each, and the report prints when it ends.  One ignored when
 * the session began (nohup's SIGHUP, a service's SIGPIPE) stays ignored.
 */
static const int session_signals[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGCHLD };
#define NSESSION_SIGNALS (sizeof(session_signals) / sizeof(session_signals[0]))

/* Set by the handlers, read between waits (every session signal is blocked but inside ppoll()). */
static volatile sig_atomic_t pending_stop;

static void on_signal(int sig)
{
	if (sig != SIGCHLD)
		pending_stop = sig;
}

/* What a session changes of this process's signal state, put back when it ends. */
struct saved_signals {
	struct sigaction old[NSESSION_SIGNALS];
	bool taken[NSESSION_SIGNALS]; /* handled here: not ignored when the session began */
	sigset_t old_mask, waiting; /* waiting: the mask inside ppoll(), every session signal let through */
};

static void take_signals(struct saved_signals *sv)
{
	struct sigaction act = { .sa_handler = on_signal };
	sigset_t block;

	sigemptyset(&block);
	for (size_t i = 0; i < NSESSION_SIGNALS; i++) {
		sigaction(session_signals[i], NULL, &sv->old[i]);
		sv->taken[i] = session_signals[i] == SIGCHLD || sv->old[i].sa_handler != SIG_IGN;
		if (sv->taken[i])
			sigaddset(&block, session_signals[i]);
	}
	sigprocmask(SIG_BLOCK, &block, &sv->old_mask);
	sv->waiting = sv->old_mask;
	for (size_t i = 0; i < NSESSION_SIGNALS; i++) {
		if (!sv->taken[i])
			continue;
		sigdelset(&sv->waiting, session_signals[i]);
		sigaction(session_signals[i], &act, NULL);
	}
	pending_stop = 0;
}

static void give_back_signals(const struct saved_signals *sv)
{
	for (size_t i = 0; i < NSESSION_SIGNALS; i++)
		sigaction(session_signals[i], &sv->old[i], NULL);
	sigprocmask(SIG_SETMASK, &sv->old_mask, NULL);
}

static void child(char *const argv[], int go_fd, int err_fd, const struct saved_signals *sv)
{
	char c;
	int e;

	give_back_signals(sv);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	/* EOF instead of the byte: the parent gave up, do not run the command. */
	if (read(go_fd, &c, 1) != 1)
		_exit(127);
	close(go_fd);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(126);
	_exit(127);
}

/* exec's EACCES for a directory reads as a permission problem: say what it is. */
static bool is_directory(const char *path)
{
	struct stat st;

	return strchr(path, '/') && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int ud_launch_counted(char *const argv[], const struct ud_event *ev, size_t n, struct ud_count *counts,
		      struct ud_launch_result *res, struct ud_err *err)
{
	return ud_launch_sampled(argv, ev, n, counts, NULL, res, err);
}

/* ud_launch_counted(), sampling the command from its exec as well where s is not NULL. */
static int ud_launch_sampled(char *const argv[], const struct ud_event *ev, size_t n, struct ud_count *counts,
		      const struct ud_launch_sampling *s, struct ud_launch_result *res, struct ud_err *err)
{
	struct ud_session session = { .argv = argv, .sampling = s };

	return ud_launch_session(&session, ev, n, counts, res, err);
}

/* A session while it runs. */
struct session_run {
	const struct ud_session *s;
	const struct ud_event *ev;
	size_t n, nslots;
	struct ud_counters *set;
	struct ud_sampler *smp;
	pid_t pid;          /* the command; -1 none */
	int go, ep;         /* its release and exec-error pipes */
	bool reaped, enabled, timed_out;
	bool intervals_done; /* --interval-count's intervals are printed: no more ticks, nor a last one */
	unsigned long ticks;
	struct rusage ru;
	uint64_t start, enable_at, next_tick, last_tick;
	uint64_t since; /* when counting started: perf's elapsed time and interval stamps run from there, after -D */
	struct ud_count *now, *before, *delta; /* n x nslots each, for intervals */
	uint64_t next_check; /* when to look again whether the slots' tasks still run */
	struct saved_signals sv;
};

/* Forks the command, held until released through r->go. */
static int fork_held(struct session_run *r, struct ud_err *err)
{
	int go[2], ep[2];

	if (pipe2(go, O_CLOEXEC) != 0)
		return ud_fail(err, "pipe: %s", strerror(errno));
	if (pipe2(ep, O_CLOEXEC) != 0) {
		close(go[0]);
		close(go[1]);
		return ud_fail(err, "pipe: %s", strerror(errno));
	}
	r->pid = fork();
	if (r->pid < 0) {
		ud_fail(err, "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return -1;
	}
	if (r->pid == 0) {
		close(go[1]);
		close(ep[0]);
		child(r->s->argv, go[0], ep[1], &r->sv);
	}
	close(go[0]);
	close(ep[1]);
	r->go = go[1];
	r->ep = ep[0];
	if (r->s->on_fork)
		r->s->on_fork(r->s->ctx, r->pid);
	return 0;
}

/* Opens the counters (and the sampler) where the session counts. */
static int open_counters(struct session_run *r, struct ud_err *err)
{
	const struct ud_session *s = r->s;
	unsigned inherit = s->no_inherit ? 0 : UD_COUNT_INHERIT;
	unsigned flags = inherit | (s->delay_ns || s->start_disabled ? 0 : UD_COUNT_ENABLE_ON_EXEC);

	if (s->slots && ud_counters_make_room(r->n * s->nslots, err) != 0)
		return -1;
	if (s->slots)
		r->set = ud_counters_open_slots(r->ev, r->n, s->slots, s->nslots, s->tasks ? inherit : 0);
	else
		r->set = ud_counters_open(r->ev, r->n, r->pid, flags);
	if (!r->set)
		return ud_fail(err, "out of memory");
	if (s->sampling && r->pid > 0 &&
	    !(r->smp = ud_sampler_open(s->sampling->config, r->pid, UD_SAMPLER_ENABLE_ON_EXEC, s->sampling->records_fd, err)))
		return -1;
	r->now = calloc(r->n * r->nslots + 1, sizeof(*r->now));
	r->before = calloc(r->n * r->nslots + 1, sizeof(*r->before));
	r->delta = calloc(r->n * r->nslots + 1, sizeof(*r->delta));
	if (!r->now || !r->before || !r->delta)
		return ud_fail(err, "out of memory");
	return 0;
}

/* Tells the caller what a control command (or -D -1) did, in perf's words. */
static void say(const struct session_run *r, const char *msg)
{
	if (r->s->on_control)
		r->s->on_control(r->s->ctx, msg);
}

/*
 * Counting starts: at the command's exec (enable-on-exec), else now or
 * after the delay.  With -D -1 the session starts now (its elapsed time and
 * intervals run, as perf's) with every counter off until control's enable.
 */
static int start_counting(struct session_run *r, struct ud_err *err)
{
	bool off = r->s->delay_ns || r->s->start_disabled;
	bool on_exec = !r->s->slots && r->pid > 0 && !off;

	r->start = r->since = ud_now_ns();
	r->enable_at = r->start + r->s->delay_ns;
	r->enabled = !r->s->delay_ns;
	/* perf 6.1 says both, -D MS's as -D -1's, on stderr (pr_info) */
	if (off)
		say(r, "Events disabled");
	if (!off && !on_exec && ud_counters_enable(r->set, err) != 0)
		return -1;
	r->last_tick = r->start;
	r->next_tick = r->enable_at + r->s->interval_ns;
	return 0;
}

/* Releases the command to exec; UD_LAUNCH_EXEC_FAILED when it could not. */
static int release(struct session_run *r, struct ud_err *err)
{
	int exec_errno = 0;
	ssize_t got;

	if (r->pid <= 0)
		return UD_LAUNCH_OK;
	if (write(r->go, "g", 1) != 1)
		exec_errno = errno;
	close(r->go);
	r->go = -1;
	got = read(r->ep, &exec_errno, sizeof(exec_errno));
	close(r->ep);
	r->ep = -1;
	if (got != (ssize_t)sizeof(exec_errno))
		return UD_LAUNCH_OK;
	ud_fail(err, "%s: %s", r->s->argv[0],
		exec_errno == ENOENT ? "command not found"
		: is_directory(r->s->argv[0]) ? "a directory, not a program" : strerror(exec_errno));
	return UD_LAUNCH_EXEC_FAILED;
}

static void reap(struct session_run *r, struct ud_launch_result *res)
{
	if (r->pid > 0 && !r->reaped && wait4(r->pid, &res->wait_status, WNOHANG, &r->ru) == r->pid)
		r->reaped = true;
}

/* One interval: what each slot counted since the last one, to the caller. */
static int tick(struct session_run *r, uint64_t t, struct ud_err *err)
{
	size_t total = r->n * r->nslots;

	if (ud_counters_read_slots(r->set, r->now, err) != 0)
		return -1;
	ud_counts_delta(r->now, r->before, total, r->delta);
	r->s->on_interval(r->s->ctx, r->delta, t - r->since, t - r->last_tick);
	memcpy(r->before, r->now, total * sizeof(*r->now));
	r->last_tick = t;
	r->intervals_done = r->s->interval_count && ++r->ticks >= r->s->interval_count;
	return 0;
}

/*
 * How soon a count of attached tasks notices that they have all exited:
 * perf looks once a second (or an interval); a tenth of that ends a -p of
 * a short task close to its exit, at a /proc read a slot each time.
 */
#define TASK_CHECK_NS 100000000ULL

/* Whether any slot's task still runs. */
static bool tasks_alive(const struct session_run *r)
{
	for (size_t i = 0; i < r->s->nslots; i++)
		if (ud_task_alive(r->s->slots[i].pid))
			return true;
	return false;
}

/* The soonest of the next tick, the delay's end, the timeout and the tasks' check: how long ppoll() may wait. */
static bool next_wake(const struct session_run *r, uint64_t t, struct timespec *ts)
{
	uint64_t wake = UINT64_MAX;

	if (!r->enabled)
		wake = r->enable_at;
	if (r->s->interval_ns && r->enabled && !r->intervals_done && r->next_tick < wake)
		wake = r->next_tick;
	if (r->s->timeout_ns && !r->timed_out && r->start + r->s->timeout_ns < wake)
		wake = r->start + r->s->timeout_ns;
	if (r->s->tasks && r->pid <= 0 && r->next_check < wake)
		wake = r->next_check;
	if (wake == UINT64_MAX)
		return false;
	wake = wake > t ? wake - t : 0;
	ts->tv_sec = (time_t)(wake / 1000000000ULL);
	ts->tv_nsec = (long)(wake % 1000000000ULL);
	return true;
}

/* Sleeps until the next thing to do, a signal, or a control command; reads what the control descriptor holds. */
static void wait_once(struct session_run *r, uint64_t t)
{
	struct timespec ts;
	bool timed = next_wake(r, t, &ts);
	struct ud_control *c = r->s->control;
	/* ppoll() skips a negative descriptor: without control, or after its end, it waits as before */
	struct pollfd pfd = { .fd = c && !c->done ? c->fd : -1, .events = POLLIN };

	if (ppoll(&pfd, 1, timed ? &ts : NULL, &r->sv.waiting) > 0 && pfd.revents)
		ud_control_fill(c);
}

/* Counting begins, after the delay or at control's first "enable": perf's elapsed time and intervals run from here. */
static int begin_counting(struct session_run *r, uint64_t t, struct ud_err *err)
{
	if (ud_counters_enable(r->set, err) != 0)
		return -1;
	r->enabled = true;
	r->since = r->last_tick = t;
	r->next_tick = t + r->s->interval_ns;
	return 0;
}

/* Control's "enable NAME" or "disable NAME": that event alone, found by the name perf prints. */
static int switch_event(struct session_run *r, const char *name, bool on, struct ud_err *err)
{
	char msg[UD_CONTROL_LINE_MAX + 64];
	size_t i = 0;

	while (i < r->n && strcmp(r->ev[i].name, name) != 0)
		i++;
	if (i == r->n) {
		snprintf(msg, sizeof(msg), "failed: can't find '%s' event", name);
	} else {
		if (ud_counters_switch_event(r->set, i, on, err) != 0)
			return -1;
		snprintf(msg, sizeof(msg), "Event %s %s", r->ev[i].name, on ? "enabled" : "disabled");
	}
	say(r, msg);
	return 0;
}

/*
 * Control's "enable" and "disable": every group, at its leader.  Before
 * counting has begun, "enable" begins it and "disable" cancels -D's delay.
 * With -I an interval is printed at each switch, as perf's process_interval().
 */
static int switch_counting(struct session_run *r, const struct ud_control_cmd *cmd, uint64_t t, struct ud_err *err)
{
	bool on = cmd->verb == UD_CONTROL_ENABLE;
	bool was = r->enabled;
	int ret = 0;

	if (!cmd->arg) {
		say(r, "failed: wrong command");
		return 0;
	}
	if (cmd->arg[0])
		return switch_event(r, cmd->arg, on, err);
	if (was)
		ret = on ? ud_counters_enable(r->set, err) : ud_counters_disable(r->set, err);
	else if (on)
		ret = begin_counting(r, t, err);
	else
		r->enable_at = UINT64_MAX;
	if (ret != 0)
		return -1;
	say(r, on ? "Events enabled" : "Events disabled");
	return was && r->s->interval_ns && !r->intervals_done ? tick(r, t, err) : 0;
}

/* Control's "evlist": the events' names, one a message, as perf lists them without -v. */
static void list_events(const struct session_run *r, const struct ud_control_cmd *cmd)
{
	if (!cmd->arg || (cmd->arg[0] && strcmp(cmd->arg, "-v") != 0 && strcmp(cmd->arg, "-g") != 0 &&
			  strcmp(cmd->arg, "-F") != 0)) {
		say(r, "failed: wrong command");
		return;
	}
	for (size_t i = 0; i < r->n; i++)
		say(r, r->ev[i].name);
}

/* The control commands read so far, each done and acknowledged as perf stat does. */
static int obey(struct session_run *r, uint64_t t, struct ud_err *err)
{
	struct ud_control_cmd cmd;

	while (r->s->control && ud_control_take(r->s->control, &cmd)) {
		if ((cmd.verb == UD_CONTROL_ENABLE || cmd.verb == UD_CONTROL_DISABLE) &&
		    switch_counting(r, &cmd, t, err) != 0)
			return -1;
		if (cmd.verb == UD_CONTROL_EVLIST)
			list_events(r, &cmd);
		ud_control_ack(r->s->control, cmd.verb);
	}
	return 0;
}

/* Whether counting is over: the command reaped, else a stop signal, the tasks gone, or the timeout. */
static bool over(struct session_run *r, uint64_t t, struct ud_launch_result *res)
{
	bool timeout = r->s->timeout_ns && t >= r->start + r->s->timeout_ns;

	if (r->pid > 0) {
		/*
		 * Each signal passed on as it comes (a command may live through
		 * SIGUSR1 and end at the SIGTERM after it); the terminal sends INT
		 * and QUIT to the command itself; a closed pipe is ours, not its:
		 * TERM.  Only those that end a session end -r's series.
		 */
		if (pending_stop == SIGINT || pending_stop == SIGQUIT)
			res->interrupt = pending_stop;
		if (pending_stop && pending_stop != SIGINT && pending_stop != SIGQUIT) {
			kill(r->pid, pending_stop == SIGPIPE ? SIGTERM : pending_stop);
			if (pending_stop == SIGTERM || pending_stop == SIGHUP || pending_stop == SIGPIPE)
				res->stop_signal = pending_stop;
			pending_stop = 0; /* every session signal is blocked outside ppoll(): none is lost here */
		}
		if (timeout && !r->timed_out) {
			kill(r->pid, SIGTERM);
			r->timed_out = res->timed_out = true;
		}
		return r->reaped;
	}
	res->stop_signal = pending_stop;
	res->timed_out = timeout;
	if (pending_stop || timeout || r->intervals_done)
		return true;
	if (!r->s->tasks || t < r->next_check)
		return false;
	r->next_check = t + TASK_CHECK_NS;
	return !tasks_alive(r);
}

static int wait_loop(struct session_run *r, struct ud_launch_result *res, struct ud_err *err)
{
	for (;;) {
		uint64_t t = ud_now_ns();
		bool ticking = !r->intervals_done;

		reap(r, res);
		if (over(r, t, res))
			return 0;
		if (obey(r, t, err) != 0)
			return -1;
		if (!r->enabled && t >= r->enable_at) {
			if (begin_counting(r, t, err) != 0)
				return -1;
			say(r, "Events enabled");
		}
		if (r->s->interval_ns && r->enabled && !r->intervals_done && t >= r->next_tick) {
			if (tick(r, t, err) != 0)
				return -1;
			/* From this read, as perf does: an interval is never shorter than asked, however late the wake-up. */
			r->next_tick = t + r->s->interval_ns;
		}
		/* the last interval printed (at its time or at a control switch): over() says whether that was the end, before any wait */
		if (ticking && r->intervals_done)
			continue;
		wait_once(r, t);
	}
}

/* The counts at the end: the last interval's too, then the totals into counts. */
static int finish(struct session_run *r, struct ud_count *counts, struct ud_launch_result *res, struct ud_err *err)
{
	uint64_t end = ud_now_ns();

	res->elapsed_ns = r->enabled ? end - r->since : 0;
	res->user_ns = tv_ns(r->ru.ru_utime);
	res->sys_ns = tv_ns(r->ru.ru_stime);
	if (r->s->interval_ns && r->enabled && !r->intervals_done && end > r->last_tick && tick(r, end, err) != 0)
		return -1;
	if (r->s->interval_ns && r->enabled) {
		memcpy(counts, r->now, r->n * r->nslots * sizeof(*counts));
		return 0;
	}
	return ud_counters_read_slots(r->set, counts, err);
}

/* Closes what is open; a child never released sees EOF and exits without running. */
static void end_session(struct session_run *r, struct ud_launch_result *res)
{
	if (r->go >= 0)
		close(r->go);
	if (r->ep >= 0)
		close(r->ep);
	while (r->pid > 0 && !r->reaped && wait4(r->pid, &res->wait_status, 0, &r->ru) < 0 && errno == EINTR)
		;
	ud_counters_close(r->set);
	free(r->now);
	free(r->before);
	free(r->delta);
	give_back_signals(&r->sv);
}

int ud_launch_session(const struct ud_session *s, const struct ud_event *ev, size_t n, struct ud_count *counts,
		      struct ud_launch_result *res, struct ud_err *err)
{
	struct session_run r = { .s = s, .ev = ev, .n = n, .nslots = s->slots ? s->nslots : 1, .pid = -1,
				 .go = -1, .ep = -1 };
	struct ud_err serr = UD_ERR_INIT;
	int ret = UD_LAUNCH_SYSTEM;

	memset(res, 0, sizeof(*res));
	take_signals(&r.sv);
	if ((s->argv && fork_held(&r, err) != 0) || open_counters(&r, err) != 0 || start_counting(&r, err) != 0)
		goto out;
	res->ran_command = r.pid > 0;
	ret = release(&r, err);
	if (ret == UD_LAUNCH_OK && (wait_loop(&r, res, err) != 0 || finish(&r, counts, res, err) != 0))
		ret = UD_LAUNCH_SYSTEM;
out:
	if (r.smp && ud_sampler_close(r.smp, &serr) != 0 && ret == UD_LAUNCH_OK) {
		*err = serr;
		ret = UD_LAUNCH_SYSTEM;
	}
	end_session(&r, res);
	return ret;
}

int ud_adopt_orphans(struct ud_err *err)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
		return ud_fail(err, "cannot become a child subreaper: %s", strerror(errno));
	return 0;
}

/*
 * The scan below runs in a signal handler too (a runner child whose parent
 * died takes its descendants with it), so it uses only what is safe there:
 * open, read, getdents64 and close, on the stack, no stdio and no malloc.
 */

/* A decimal number at *p, moving *p past it; -1 when there is none. */
static long read_decimal(const char **p)
{
	long v = -1;

	for (; **p >= '0' && **p <= '9'; (*p)++)
		v = (v < 0 ? 0 : v * 10) + (**p - '0');
	return v;
}

/* Whether /proc/PID/stat names parent as its parent. */
static bool child_of(const char *pid, pid_t parent)
{
	char path[64] = "/proc/", buf[512];
	const char *p = NULL;
	size_t len = strlen(path), n = strlen(pid);
	ssize_t got;
	int fd;

	if (len + n + sizeof("/stat") > sizeof(path))
		return false;
	memcpy(path + len, pid, n);
	memcpy(path + len + n, "/stat", sizeof("/stat"));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return false;
	buf[got] = '\0';
	/* "pid (comm) state ppid": comm may hold spaces and parentheses, so read after the last ')'. */
	for (const char *q = buf; *q; q++)
		if (*q == ')')
			p = q;
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return false;
	p += 4;
	return read_decimal(&p) == parent;
}

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Up to max children of this process into pids, but those in spare, killed first when kill_them; returns how many. */
static size_t scan_children(pid_t *pids, size_t max, const pid_t *spare, size_t nspare, bool kill_them)
{
	char buf[4096];
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t found = 0;
	long got;

	if (fd < 0)
		return 0;
	while (found < max && (got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < got && found < max;) {
			const struct linux_dirent64 *e = (const void *)(buf + off);
			const char *name = e->d_name;
			pid_t pid = (pid_t)read_decimal(&name);
			bool spared = false;

			off += e->d_reclen;
			if (pid <= 0 || *name || !child_of(e->d_name, getpid()))
				continue;
			for (size_t i = 0; i < nspare && !spared; i++)
				spared = spare[i] == pid;
			if (spared)
				continue;
			if (kill_them)
				kill(pid, SIGKILL);
			pids[found++] = pid;
		}
	close(fd);
	return found;
}

size_t ud_children(pid_t *pids, size_t max)
{
	return scan_children(pids, max, NULL, 0, false);
}

void ud_kill_descendants(const pid_t *spare, size_t nspare)
{
	pid_t pids[256];
	size_t n;

	/* Killing a child orphans its own children, which a subreaper adopts: repeat until none is left. */
	while ((n = scan_children(pids, sizeof(pids) / sizeof(pids[0]), spare, nspare, true)) > 0)
		for (size_t i = 0; i < n; i++)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
}
