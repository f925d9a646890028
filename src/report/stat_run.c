/*
 * stat_run.c - `uarchdiff stat`'s counting run (stat_run.h): the target,
 * the plan and the profile set up from the options, the session launched
 * and counted (measurement.h, measure.h), -I's intervals and -r 0's runs
 * reported as they come, the totals reported and the profile saved.
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "error.h"
#include "host.h"
#include "launch.h"
#include "measurement.h"
#include "outfile.h"
#include "stat_run.h"
#include "stop.h"

static char *join_command(char **argv)
{
	size_t len = 1;
	char *s;

	for (char **a = argv; *a; a++)
		len += strlen(*a) + 1;
	s = calloc(len, 1);
	for (char **a = argv; s && *a; a++) {
		if (a != argv)
			strcat(s, " ");
		strcat(s, *a);
	}
	return s;
}

/* Everything a stat run holds, freed in one place. */
struct stat_run {
	struct ud_stat_opts *o;
	const struct ud_stat_hooks *h;
	struct ud_measurement meas; /* the host's table, the plan and the sampler */
	char **cmd;
	struct ud_stat_unit *units;
	struct ud_stat_target target;
	struct ud_profile *p;      /* the profile: its one workload is the whole */
	struct ud_profile *parts;  /* one workload an aggregate */
	struct ud_workload **aggr;
	struct ud_measure_stat m;  /* the session measured, each run */
	struct ud_control control; /* --control's descriptors */
	struct ud_outfile *out;    /* -o's report */
	FILE *f;                   /* where the report goes */
	FILE *log;                 /* --log-fd's stream, closed at the end */
	int intervals;
};

/* A failure or a notice, handed to the command in one line. */
static void say(struct stat_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct stat_run *r, const char *fmt, ...)
{
	char msg[sizeof(((struct ud_err *)0)->msg) + 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->h->say(r->h->ctx, msg);
}

/* What the measurement goes on without (no sampling event), said as every message is. */
static void notice(void *ctx, const char *msg)
{
	say(ctx, "%s", msg);
}

/*
 * perf's own defaults (cpu-clock when counting CPUs), as a -e list; a
 * profile written gets run's, which add what a diff explains with (L1d,
 * stalls).
 */
static char *perf_defaults(const struct stat_run *r)
{
	return ud_perf_default_events(UD_CPU_PMU_EVENTS,
				      ud_stat_opts_target(r->o) == UD_TARGET_SYSTEM_WIDE || ud_stat_opts_target(r->o) == UD_TARGET_CPUS);
}

/* The plan for -e (or the defaults), -d, -M and --hotspots; every unknown name refused. */
static int plan_events(struct stat_run *r)
{
	struct ud_measurement_opts mo = {
		.nothing = r->o->null_run, .request = &r->o->events, .one_group = r->o->group, .metrics = r->o->metrics,
		.detailed = r->o->detailed,
		.topdown = r->o->topdown, .hotspots = r->o->hotspots, .refuse_unknown = true, .without_hotspots = "counting",
		.notice = notice, .ctx = r, .td_asked = r->o->td_level >= 0, .td_level = r->o->td_level, .cgroups = &r->o->cgroups,
		.mode = r->o->all_user ? 'u' : r->o->all_kernel ? 'k' : 0,
	};
	struct ud_err err = UD_ERR_INIT;

	if (!r->o->events.list && !r->o->null_run && !r->o->profile && !ud_stat_output_is_profile(r->o) &&
	    !(r->o->events.list = perf_defaults(r))) {
		say(r, "out of memory");
		return -1;
	}
	mo.events = r->o->events.list;
	if (r->o->for_each_cgroup && ud_cgroups_each(&r->o->cgroups, r->o->for_each_cgroup, &err) != 0) {
		say(r, "%s", err.msg);
		return -1;
	}
	if (ud_measurement_plan(&r->meas, &mo, &err) != 0) {
		say(r, "%s", err.msg);
		return -1;
	}
	return 0;
}

static void run_free(struct stat_run *r)
{
	ud_control_close(&r->control);
	if (r->log)
		fclose(r->log);
	if (r->out)
		ud_outfile_abort(r->out);
	ud_profile_free(r->p);
	ud_profile_free(r->parts);
	free(r->aggr);
	free(r->units);
	ud_stat_target_free(&r->target);
	ud_measurement_free(&r->meas);
}

/* The workload's name for a target without a command of its own. */
static void target_name(const struct stat_run *r, char *buf, size_t len)
{
	static const char *const kinds[] = { [UD_TARGET_SYSTEM_WIDE] = "system-wide", [UD_TARGET_CPUS] = "cpus %s",
					     [UD_TARGET_PID] = "pid %s", [UD_TARGET_TID] = "tid %s" };

	snprintf(buf, len, kinds[r->target.kind], r->o->cpus ? r->o->cpus : r->o->pids ? r->o->pids : r->o->tids ? r->o->tids : "");
}

/* The profile whose one workload is the command (or the target); host facts only when a profile is written. */
static int new_profile(struct stat_run *r)
{
	struct ud_host_opts hopts = { .db = &r->meas.db };
	struct ud_err err = UD_ERR_INIT;
	bool written = r->o->profile || ud_stat_output_is_profile(r->o);
	struct ud_workload *w;
	char name[256];

	if (r->cmd)
		snprintf(name, sizeof(name), "%s", r->cmd[0]);
	else
		target_name(r, name, sizeof(name));
	r->p = ud_profile_new(written ? ud_host_collect(&hopts, &err) : NULL);
	w = r->p ? ud_profile_add_workload(r->p, name) : NULL;
	if (!w)
		return -1;
	w->command = r->cmd ? join_command(r->cmd) : NULL;
	w->units = strdup("s");
	w->higher_is_better = 0;
	w->work_units = 1;
	if (!ud_workload_set_target(w, r->target.kind, r->target.ids, r->target.nids))
		return -1;
	r->parts = ud_profile_new(NULL);
	r->aggr = calloc(r->target.naggr + 1, sizeof(*r->aggr));
	for (size_t a = 0; r->parts && r->aggr && a < r->target.naggr; a++)
		if (!ud_profile_add_workload(r->parts, r->target.aggr[a].label[0] ? r->target.aggr[a].label : "cpu"))
			return -1;
	for (size_t a = 0; r->parts && r->aggr && a < r->target.naggr; a++)
		r->aggr[a] = &r->parts->workloads[a];
	return r->parts && r->aggr ? 0 : -1;
}

/* perf's unit and scale of each planned event, in the order of the workload's counters. */
static int plan_units(struct stat_run *r)
{
	const struct ud_event *ev = r->meas.ev;

	r->units = calloc(r->meas.nev + 1, sizeof(*r->units));
	for (size_t i = 0; r->units && i < r->meas.nev; i++)
		r->units[i] = (struct ud_stat_unit){ ev[i].unit, ev[i].scale, ev[i].copy };
	return r->units ? 0 : -1;
}

/* Whether the environment leaves LC_NUMERIC the C locale's (C.UTF-8's numbers are C's), as POSIX looks it up. */
static bool c_numeric(void)
{
	const char *vars[] = { "LC_ALL", "LC_NUMERIC", "LANG" }, *name = NULL;

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]) && !(name && *name); i++)
		name = getenv(vars[i]);
	return !name || !*name || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 || strncmp(name, "C.", 2) == 0;
}

/*
 * The locale's thousands separator (LC_NUMERIC), read without setlocale():
 * the process keeps the C locale, so the profile's JSON keeps '.' decimals.
 */
static const char *thousands_sep(void)
{
	static char sep[16];
	static bool read;
	locale_t loc;

	if (read)
		return sep;
	read = true;
	/* C's separator is none: asking newlocale() was 14% of a `stat -e task-clock` (issue 35) */
	if (c_numeric())
		return sep;
	loc = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);
	if (loc != (locale_t)0) {
		snprintf(sep, sizeof(sep), "%s", nl_langinfo_l(THOUSEP, loc));
		freelocale(loc);
	}
	return sep;
}

/* The view of the whole (and its aggregates) that the report prints. */
static struct ud_stat_view view_of(const struct stat_run *r, const struct ud_workload *whole,
				   struct ud_workload *const *aggr, struct ud_stat_slot *slots)
{
	static const enum ud_stat_aggr kinds[] = { [UD_AGGR_WHOLE] = UD_STAT_WHOLE, [UD_AGGR_CPU] = UD_STAT_PER_CPU,
						   [UD_AGGR_CORE] = UD_STAT_PER_CORE,
						   [UD_AGGR_SOCKET] = UD_STAT_PER_SOCKET,
						   [UD_AGGR_THREAD] = UD_STAT_PER_THREAD,
						   [UD_AGGR_DIE] = UD_STAT_PER_DIE, [UD_AGGR_NODE] = UD_STAT_PER_NODE };
	struct ud_stat_view v = {
		.whole = whole, .units = r->units, .aggr = kinds[ud_stat_opts_aggr(r->o)], .slots = slots,
		.nslots = r->target.naggr, .target = r->target.words[0] ? r->target.words : NULL,
		/* perf's -r 0 prints no user and sys times */
		.rusage = r->target.kind == UD_TARGET_COMMAND && r->o->repeat != 0,
		.rusage_cpus = r->target.kind == UD_TARGET_COMMAND && !r->o->delay && r->o->verbose,
		.null_run = r->o->null_run, .interval_s = NAN, .verbose = r->o->verbose && !r->o->json && !r->o->sep,
		.no_scale = !r->o->scale, .no_csv_summary = !r->o->csv_summary, .all_threads = r->target.all_threads,
		.table = r->o->table, .metric_only = r->o->metric_only,
		.thousands_sep = r->o->big_num && !r->o->sep && !r->o->json ? thousands_sep() : NULL,
		.cgroups = ud_cgroups_used(&r->o->cgroups),
	};

	for (size_t a = 0; a < r->target.naggr; a++)
		slots[a] = (struct ud_stat_slot){ aggr[a], r->target.aggr[a].label, r->target.aggr[a].number };
	return v;
}

static void print_view(const struct stat_run *r, const struct ud_stat_view *v)
{
	if (r->o->quiet)
		return;
	if (r->o->json)
		ud_stat_print_json(r->f, v);
	else if (r->o->sep)
		ud_stat_print_csv(r->f, v, r->o->sep);
	else
		ud_stat_print_text(r->f, v);
}

/* -I: one interval's counts, printed as they come. */
static void on_interval(void *ctx, const struct ud_count *deltas, uint64_t at_ns, uint64_t length_ns)
{
	struct stat_run *r = ctx;
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload **aggr = calloc(r->target.naggr + 1, sizeof(*aggr));
	struct ud_stat_slot *slots = calloc(r->target.naggr + 1, sizeof(*slots));
	struct ud_workload *w = p ? ud_profile_add_workload(p, r->p->workloads[0].name) : NULL;
	struct ud_stat_view v;
	struct ud_err ferr = UD_ERR_INIT;
	bool ok = w && aggr && slots;

	for (size_t a = 0; ok && a < r->target.naggr; a++)
		ok = ud_profile_add_workload(p, "part") != NULL;
	for (size_t a = 0; ok && a < r->target.naggr; a++)
		aggr[a] = &p->workloads[a + 1];
	if (ok && ud_measure_interval(&r->m, r->meas.ev, r->meas.nev, deltas, length_ns, &p->workloads[0], aggr) == 0) {
		v = view_of(r, &p->workloads[0], aggr, slots);
		v.interval_s = (double)at_ns / 1e9;
		v.interval_index = r->intervals++;
		/* perf's CONSOLE_CLEAR, and the header again on the cleared screen */
		if (r->o->interval_clear && !r->o->quiet) {
			fputs("\033[H\033[2J", r->f);
			v.interval_index = 0;
		}
		print_view(r, &v);
		if (r->h->interval)
			r->h->interval(r->h->ctx, &v);
		fflush(r->f);
		/* an interval reaches an --append file as it comes: a reader following it sees each */
		if (r->out && ud_outfile_flush(r->out, &ferr) != 0)
			say(r, "%s", ferr.msg);
	}
	ud_profile_free(p);
	free(aggr);
	free(slots);
}

/*
 * Where the report goes: -o's file, else stderr.  Opened before counting
 * with -I (intervals are written as they come), after it otherwise, as
 * every command opens its output once the work is done (a FIFO's reader
 * waits for the whole).
 */
static int open_report(struct stat_run *r)
{
	struct ud_err err = UD_ERR_INIT;
	time_t now = time(NULL);

	if (r->out || r->log)
		return 0; /* opened for the intervals */
	r->f = r->h->report;
	if (r->o->log_fd >= 0) {
		/* perf's --log-fd: the report to a descriptor the caller opened (a dup: theirs stays open) */
		int fd = fcntl((int)r->o->log_fd, F_DUPFD_CLOEXEC, 3);

		r->log = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!r->log) {
			say(r, "--log-fd %ld: %s", r->o->log_fd, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		r->f = r->log;
		return 0;
	}
	if (!r->o->output || ud_stat_output_is_profile(r->o))
		return 0;
	/* --append adds to the file in O_APPEND writes: perf's way, which concurrent writers keep whole */
	r->out = r->o->append ? ud_outfile_append(r->o->output, &err) : ud_outfile_open(r->o->output, &err);
	if (!r->out) {
		say(r, "%s", err.msg);
		return -1;
	}
	r->f = ud_outfile_stream(r->out);
	/* perf's first line in a file: when the count started (ctime's own newline, then a blank line). */
	if (strcmp(r->o->output, "-") != 0)
		fprintf(r->f, "# started on %s\n", ctime(&now));
	return 0;
}

/* The totals (after -I's intervals only where asked, as perf) and the hotspots; stat record's part too. */
static int print_totals(struct stat_run *r)
{
	struct ud_workload *w = &r->p->workloads[0];
	struct ud_stat_slot *slots = calloc(r->target.naggr + 1, sizeof(*slots));
	struct ud_stat_view v;
	int ret = 0;

	if (!slots)
		return say(r, "out of memory"), -1;
	v = view_of(r, w, r->aggr, slots);
	v.summary = r->o->interval > 0;
	if (r->o->interval == 0 || r->o->summary)
		print_view(r, &v);
	if (!r->o->json && !r->o->sep && !r->o->quiet)
		ud_stat_print_hotspots(r->f, w->hotspots);
	if (r->h->end && r->h->end(r->h->ctx, r->p, &v, r->o->interval == 0 || r->o->summary) != 0)
		ret = -1;
	free(slots);
	return ret;
}

/* The report's stream written out: --log-fd's flushed, -o's file committed. */
static int close_report(struct stat_run *r)
{
	struct ud_err err = UD_ERR_INIT;
	int ret = 0;

	if (r->log && (fflush(r->log) != 0 || ferror(r->log))) {
		say(r, "--log-fd %ld: write failed: %s", r->o->log_fd, strerror(errno ? errno : EIO));
		ret = -1;
	}
	if (r->out && ud_outfile_commit(r->out, &err) != 0) {
		say(r, "%s", err.msg);
		ret = -1;
	}
	r->out = NULL;
	return ret;
}

static int write_report(struct stat_run *r)
{
	struct ud_err err = UD_ERR_INIT;
	int ret;

	if (open_report(r) != 0)
		return -1;
	ret = print_totals(r);
	if (close_report(r) != 0)
		ret = -1;
	if (ret == 0 && (r->o->profile || ud_stat_output_is_profile(r->o)) &&
	    ud_profile_save(r->p, r->o->profile ? r->o->profile : r->o->output, &err) != 0) {
		say(r, "%s", err.msg);
		ret = -1;
	}
	return ret;
}

/* Fails early on an unusable -o or --profile, before anything runs; opens nothing (a FIFO's reader would see EOF). */
static int check_outputs(struct stat_run *r)
{
	struct ud_err err = UD_ERR_INIT;
	int ret = r->o->output && r->o->profile ? ud_outfile_check_apart("-o", r->o->output, "--profile", r->o->profile, &err)
		: r->o->output		? ud_outfile_check(r->o->output, &err)
		: r->o->profile		? ud_outfile_check(r->o->profile, &err)
					: 0;

	if (ret != 0) {
		say(r, "%s", err.msg);
		return -1;
	}
	return 0;
}

/* -a --per-thread: the command, forked after the threads were listed, counted in its own row. */
static void on_fork(void *ctx, pid_t pid)
{
	struct stat_run *r = ctx;

	ud_stat_target_set_command(&r->target, pid);
}

/* What a --control command or -D did, for the command to print. */
static void on_control(void *ctx, const char *msg)
{
	struct stat_run *r = ctx;

	r->h->control(r->h->ctx, msg);
}

/* The session: what launch.h runs each time. */
static void plan_session(struct stat_run *r)
{
	r->m = (struct ud_measure_stat){
		.session = { .argv = r->cmd, .slots = r->target.slots, .nslots = r->target.nslots,
			     .tasks = r->target.tasks, .delay_ns = r->o->delay > 0 ? (uint64_t)r->o->delay * 1000000ULL : 0,
			     .start_disabled = r->o->delay < 0, .control = r->o->control ? &r->control : NULL,
			     .on_control = on_control,
			     .timeout_ns = (uint64_t)r->o->timeout * 1000000ULL,
			     .interval_ns = (uint64_t)r->o->interval * 1000000ULL,
			     .on_interval = r->o->interval ? on_interval : NULL,
			     .on_fork = r->target.command_slot ? on_fork : NULL, .ctx = r,
			     .interval_count = (unsigned long)r->o->interval_count, .no_inherit = r->o->no_inherit },
		/* -r 0 counts a run at a time, each reported as it ends */
		.exact = r->o->exact, .sync = r->o->sync, .runs = r->o->repeat ? (size_t)r->o->repeat : 1, .pre = r->o->pre, .post = r->o->post,
		.aggr_of = r->target.aggr_of, .naggr = r->target.naggr, .topdown = r->meas.topdown ? r->meas.u : NULL,
	};
}

/* The exit status of a measured session, as perf's: the command's, or the stopping signal's. */
static int session_status(const struct ud_launch_result *last)
{
	if (last->ran_command)
		return last->timed_out ? UD_EXIT_OK : ud_exit_status(last->wait_status);
	return last->stop_signal ? 128 + last->stop_signal : UD_EXIT_OK;
}

/* Counts the session's runs into the profile: UD_EXIT_OK, else the exit status of the failure. */
static int count_runs(struct stat_run *r, struct ud_launch_result *last)
{
	struct ud_err err = UD_ERR_INIT;
	int ret = ud_measurement_stat(&r->meas, &r->m, &r->p->workloads[0], r->aggr, last, &err);

	if (ret == UD_LAUNCH_OK)
		return UD_EXIT_OK;
	say(r, "%s", err.msg);
	return ret == UD_LAUNCH_EXEC_FAILED ? UD_EXIT_PERF_FAILED : UD_EXIT_RUN_FAILED;
}

/* A fresh profile for -r 0's next run. */
static int renew_profile(struct stat_run *r)
{
	ud_profile_free(r->p);
	ud_profile_free(r->parts);
	free(r->aggr);
	r->p = r->parts = NULL;
	r->aggr = NULL;
	if (new_profile(r) == 0)
		return 0;
	say(r, "out of memory");
	return -1;
}

/*
 * -r 0: run after run, each reported as it ends into the one report, until
 * a stop signal: Ctrl-C (which the command gets too) ends the series after
 * that run, reported as well (perf dies there, without it), and the exit
 * status says the signal, as perf's death by it does.
 */
static int measure_forever(struct stat_run *r)
{
	struct ud_launch_result last = { 0 };
	struct ud_stop stop;
	volatile sig_atomic_t *stopped;
	int ret = UD_EXIT_OK, sig = 0;

	if (open_report(r) != 0)
		return UD_EXIT_PERF_FAILED;
	plan_session(r);
	stopped = ud_stop_catch(&stop);
	while (ret == UD_EXIT_OK && !sig) {
		ret = count_runs(r, &last);
		if (ret == UD_EXIT_OK && print_totals(r) != 0)
			ret = UD_EXIT_RUN_FAILED;
		fflush(r->f);
		sig = *stopped ? *stopped : last.interrupt ? last.interrupt : last.stop_signal;
		if (ret == UD_EXIT_OK && !sig && renew_profile(r) != 0)
			ret = UD_EXIT_RUN_FAILED;
	}
	ud_stop_release(&stop);
	if (close_report(r) != 0 && ret == UD_EXIT_OK)
		ret = UD_EXIT_RUN_FAILED;
	return ret != UD_EXIT_OK ? ret : 128 + sig;
}

/* Counts and reports; returns the exit status. */
static int measure(struct stat_run *r)
{
	struct ud_launch_result last = { 0 };
	int ret;

	if (r->o->repeat == 0)
		return measure_forever(r);
	if (r->o->interval && open_report(r) != 0)
		return UD_EXIT_PERF_FAILED;
	plan_session(r);
	ret = count_runs(r, &last);
	if (ret != UD_EXIT_OK)
		return ret;
	if (write_report(r) != 0)
		return UD_EXIT_RUN_FAILED;
	return session_status(&last);
}

/* Everything before counting; UD_EXIT_OK, else the exit status. */
static int setup(struct stat_run *r)
{
	struct ud_err err = UD_ERR_INIT;

	/* a profile's host facts detect the core among every table; a report reads what its events need, in the plan */
	if (((r->o->profile || ud_stat_output_is_profile(r->o)) && ud_measurement_detect(&r->meas, &err) != 0) ||
	    ud_stat_target_make(ud_stat_opts_target(r->o), r->o->cpus ? r->o->cpus : r->o->pids ? r->o->pids : r->o->tids, ud_stat_opts_aggr(r->o), &r->target,
				&err) != 0 ||
	    (r->target.all_threads && r->cmd && ud_stat_target_add_command(&r->target, r->cmd[0], &err) != 0)) {
		say(r, "%s", err.msg);
		return UD_EXIT_PERF_USAGE;
	}
	if (plan_events(r) != 0)
		return UD_EXIT_PERF_USAGE;
	if (ud_measurement_check_filters(&r->meas, &err) != 0) {
		say(r, "%s", err.msg);
		return UD_EXIT_PERF_FAILED;
	}
	if (check_outputs(r) != 0)
		return UD_EXIT_PERF_FAILED;
	if (r->o->control && ud_control_open(r->o->control, &r->control, &err) != 0) {
		say(r, "%s", err.msg);
		return UD_EXIT_PERF_USAGE;
	}
	if (plan_units(r) != 0 || new_profile(r) != 0) {
		say(r, "out of memory");
		return UD_EXIT_RUN_FAILED;
	}
	return UD_EXIT_OK;
}

int ud_stat_run(struct ud_stat_opts *o, char **cmd, const struct ud_stat_hooks *h)
{
	struct stat_run r = { .o = o, .h = h, .cmd = cmd, .control = { .fd = -1, .ack = -1 } };
	int status = setup(&r);

	if (status == UD_EXIT_OK)
		status = measure(&r);
	run_free(&r);
	return status;
}
