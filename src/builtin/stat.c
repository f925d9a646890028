/*
 * uarchdiff stat [options] [-- CMD [ARGS...]]
 *
 * perf stat's command: counts a command from its exec, or CPUs (-a, -C) or
 * running tasks (-p, -t) while a command runs or until Ctrl-C or
 * --timeout, and reports in perf's layouts (stat_format.h), totals or
 * intervals (-I).  As perf does, the report goes to stderr (the command
 * owns stdout) unless -o names a file; the profile document goes to
 * --profile FILE or -o FILE.json.  The counting itself is measure.h's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtins.h"
#include "host.h"
#include "launch.h"
#include "measurement.h"
#include "options.h"
#include "outfile.h"
#include "profile.h"
#include "stat_format.h"
#include "text.h"
#include "targets.h"

/* perf's limits: -I and --timeout under 10 ms are refused (builtin-stat.c). */
#define INTERVAL_MIN_MS 10
#define TIMEOUT_MIN_MS 10
/* A day: longer intervals, delays or timeouts are a slip of a digit, not a measurement. */
#define MS_MAX 86400000L

struct stat_opts {
	char *events; /* comma-joined -e arguments; NULL: the defaults */
	char *metrics; /* comma-joined -M arguments: top-down groups or buckets, counted as --topdown */
	int detailed;
	long repeat, interval, delay, timeout;
	const char *sep, *output, *profile, *cpus, *pids, *tids, *pre, *post;
	bool json, exact, hotspots, append, all_cpus, no_aggr, per_core, per_socket, per_thread, null_run, topdown, summary;
};

static struct stat_opts o;

static const struct ud_option options[] = {
	UD_LIST_OPTION('e', "event", &o.events, "EVENTS",
	  "events in perf's syntax (repeatable): generic names\n"
	  "(cycles, instructions, branches, branch-misses,\n"
	  "task-clock, page-faults, ...), raw codes rHEX,\n"
	  "tracepoints subsys:name, PMU events pmu/event=N/\n"
	  "and pmu/name/, duration_time, vendor events\n"
	  "libpfm4 knows; groups {a,b}; modifiers :u :k :h\n"
	  ":G :H :p :pp :ppp :D"),
	UD_COUNT_OPTION('d', "detailed", &o.detailed,
	  "perf's detailed events: -d L1d and LLC, -dd also\nL1i and TLBs, -ddd also L1d prefetches"),
	UD_FLAG_OPTION(0, "topdown", &o.topdown,
	  "also count this host's top-down events (see\n"
	  "'uarchdiff events') in their own groups and print\n"
	  "where the issue slots went, as perf stat --topdown"),
	UD_LIST_OPTION('M', "metrics", &o.metrics, "METRICS",
	  "perf's -M for the metrics this host's table\n"
	  "defines: TopdownL1, TopdownL2 (AMD: PipelineL1,\n"
	  "PipelineL2) or a bucket (backend_bound); counted\n"
	  "as --topdown counts them"),
	UD_LONG_OPTION('r', "repeat", &o.repeat, "N",
	  "run N times; print means and +- relative stderr", 1, UD_REPEAT_MAX),
	UD_FLAG_OPTION(0, "exact", &o.exact,
	  "run the command once per counter group, so no\n"
	  "counter is multiplexed (N groups: N runs a repeat)"),
	UD_FLAG_OPTION('a', "all-cpus", &o.all_cpus, "count every online CPU (system-wide)"),
	UD_STRING_OPTION('C', "cpu", &o.cpus, "LIST", "count these CPUs (0-3,6)"),
	UD_STRING_OPTION('p', "pid", &o.pids, "PIDS", "count these running processes, every thread"),
	UD_STRING_OPTION('t', "tid", &o.tids, "TIDS", "count these running threads"),
	UD_FLAG_OPTION('A', "no-aggr", &o.no_aggr, "with -a or -C: a row per CPU"),
	UD_FLAG_OPTION(0, "per-core", &o.per_core, "with -a or -C: a row per core"),
	UD_FLAG_OPTION(0, "per-socket", &o.per_socket, "with -a or -C: a row per socket"),
	UD_FLAG_OPTION(0, "per-thread", &o.per_thread, "with -p or -t: a row per thread"),
	UD_LONG_OPTION('I', "interval-print", &o.interval, "MS",
	  "print the counts every MS milliseconds", INTERVAL_MIN_MS, MS_MAX),
	UD_FLAG_OPTION(0, "summary", &o.summary, "with -I: the whole run's totals after the\nintervals, as perf --summary"),
	UD_LONG_OPTION('D', "delay", &o.delay, "MS", "start counting MS milliseconds after the command", 0, MS_MAX),
	UD_LONG_OPTION(0, "timeout", &o.timeout, "MS",
	  "stop after MS milliseconds (the command gets\nSIGTERM)", TIMEOUT_MIN_MS, MS_MAX),
	UD_FLAG_OPTION('n', "null", &o.null_run, "count nothing: the elapsed time only"),
	UD_STRING_OPTION('x', "field-separator", &o.sep, "SEP", "CSV output like perf stat -x"),
	UD_FLAG_OPTION('j', "json", &o.json, "perf's JSON lines: one object a counter"),
	UD_STRING_OPTION('o', "output", &o.output, "FILE",
	  "write the report to FILE, atomically; '-' is\n"
	  "stdout; FILE.json without -x or -j: the profile"),
	UD_FLAG_OPTION(0, "append", &o.append, "with -o: add to FILE instead of replacing it"),
	UD_STRING_OPTION(0, "profile", &o.profile, "FILE", "also write a uarchdiff.profile/1 profile to FILE"),
	UD_STRING_OPTION(0, "pre", &o.pre, "CMD", "run the shell command CMD before each run"),
	UD_STRING_OPTION(0, "post", &o.post, "CMD", "run the shell command CMD after each run"),
	UD_FLAG_OPTION(0, "hotspots", &o.hotspots,
	  "sample the command too, at 1000 Hz: its top user\nand kernel symbols"),
};

static const struct ud_command command = {
	.name = "stat",
	.synopsis = "uarchdiff stat [-e EVENTS] [-d] [-r N] [-a | -C LIST | -p PIDS | -t TIDS]\n"
		    "                      [-A | --per-core | --per-socket | --per-thread] [-I MS [--summary]] [-D MS]\n"
		    "                      [--timeout MS] [-n] [-x SEP | -j] [-o FILE [--append]] [--profile FILE]\n"
		    "                      [--pre CMD] [--post CMD] [--exact] [--hotspots] [--topdown] [-M METRICS]\n"
		    "                      [-- CMD [ARGS...]]",
	.description = "Runs CMD and counts its events from its exec, including every process it\n"
		       "forks; or counts CPUs (-a, -C) or running processes and threads (-p, -t),\n"
		       "while CMD runs, or until Ctrl-C or --timeout when no CMD is given.  The\n"
		       "command's stdin, stdout and stderr are its own.  The report goes to stderr,\n"
		       "or to FILE with -o.  Every event is resolved before anything runs.\n",
	.epilogue = "Generic names open as the detected microarchitecture's vendor events (see\n"
		    "'uarchdiff events'); hardware events are split into groups that fit the\n"
		    "core's counters, each carrying cycles and instructions; {a,b} groups are\n"
		    "kept as asked.\n"
		    "\n"
		    "Exit status: the command's (0 when --timeout ended it, as perf's); without\n"
		    "a command 0, or 128+N when signal N ended counting; 2 for bad usage, an\n"
		    "unknown event or a command that cannot run; 1 when the report could not be\n"
		    "written or a --pre or --post command failed.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
};

static enum ud_target_kind target_kind(void)
{
	return o.all_cpus ? UD_TARGET_SYSTEM_WIDE
	       : o.cpus   ? UD_TARGET_CPUS
	       : o.pids   ? UD_TARGET_PID
	       : o.tids   ? UD_TARGET_TID
			  : UD_TARGET_COMMAND;
}

static enum ud_aggr_mode aggr_mode(void)
{
	return o.no_aggr ? UD_AGGR_CPU : o.per_core ? UD_AGGR_CORE : o.per_socket ? UD_AGGR_SOCKET
					     : o.per_thread ? UD_AGGR_THREAD : UD_AGGR_WHOLE;
}

/* Options that exclude each other, or need another: the first conflict in words, else NULL. */
static const char *conflict(bool has_command)
{
	if (o.all_cpus + !!o.cpus + !!o.pids + !!o.tids > 1)
		return "-a, -C, -p and -t are different targets: choose one";
	if (o.no_aggr + o.per_core + o.per_socket + o.per_thread > 1)
		return "-A, --per-core, --per-socket and --per-thread are different rows: choose one";
	if (o.sep && o.json)
		return "-x and --json are different outputs: choose one";
	if (!has_command && target_kind() == UD_TARGET_COMMAND)
		return "no command given (uarchdiff stat [options] -- CMD [ARGS...], or -a, -C, -p, -t)";
	if (o.repeat > 1 && (!has_command || o.interval))
		return "-r repeats a command: it needs one, and no -I";
	if (o.exact && (target_kind() != UD_TARGET_COMMAND || o.interval || o.delay))
		return "--exact reruns the command a group at a time: not with -a, -C, -p, -t, -I or -D";
	if (o.hotspots && (target_kind() != UD_TARGET_COMMAND || o.delay))
		return "--hotspots samples the command from its exec: not with -a, -C, -p, -t or -D";
	if (o.interval && o.timeout)
		return "--timeout is not supported with -I (as in perf)";
	if (o.append && (!o.output || strcmp(o.output, "-") == 0))
		return "--append adds to the file -o names: give one";
	if (o.null_run && (o.events || o.detailed || o.interval || o.exact || o.hotspots || o.topdown || o.metrics))
		return "-n counts nothing: not with -e, -d, -I, --exact, --hotspots, --topdown or -M";
	return NULL;
}

/* Returns UD_OPT_GO_ON with *cmd the command to run (NULL: none), else the exit status. */
static int parse_args(int argc, char **argv, char ***cmd)
{
	const char *why;
	int next, status;

	o = (struct stat_opts){ .repeat = 1 };
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	why = conflict(next < argc);
	if (why) {
		ud_cmd_error(&command, "%s", why);
		return UD_EXIT_USAGE;
	}
	*cmd = next < argc ? argv + next : NULL;
	return UD_OPT_GO_ON;
}

/* -o FILE.json without -x or -j: the profile goes there, the report to stderr. */
static bool output_is_profile(void)
{
	size_t len = o.output ? strlen(o.output) : 0;

	return !o.sep && !o.json && !o.profile && len > 5 && strcmp(o.output + len - 5, ".json") == 0;
}

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
	struct ud_measurement meas; /* the host's table, the plan and the sampler */
	char **cmd;
	struct ud_stat_unit *units;
	struct ud_stat_target target;
	struct ud_profile *p;      /* the profile: its one workload is the whole */
	struct ud_profile *parts;  /* one workload an aggregate */
	struct ud_workload **aggr;
	struct ud_measure_stat m;  /* the session measured, each run */
	struct ud_outfile *out;    /* -o's report */
	FILE *f;                   /* where the report goes */
	int intervals;
};

/* What the measurement goes on without (no sampling event), said as every message is. */
static void notice(void *ctx, const char *msg)
{
	(void)ctx;
	ud_cmd_error(&command, "%s", msg);
}

/* The plan for -e (or the defaults), -d, -M and --hotspots; every unknown name refused. */
static int plan_events(struct stat_run *r)
{
	struct ud_measurement_opts mo = {
		.nothing = o.null_run, .events = o.events, .metrics = o.metrics, .detailed = o.detailed,
		.topdown = o.topdown, .hotspots = o.hotspots, .refuse_unknown = true, .without_hotspots = "counting",
		.notice = notice,
	};
	struct ud_err err = UD_ERR_INIT;

	if (ud_measurement_plan(&r->meas, &mo, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return -1;
	}
	return 0;
}

static void run_free(struct stat_run *r)
{
	if (r->out)
		ud_outfile_abort(r->out);
	ud_profile_free(r->p);
	ud_profile_free(r->parts);
	free(r->aggr);
	free(r->units);
	ud_stat_target_free(&r->target);
	ud_measurement_free(&r->meas);
	free(o.events);
}

/* The workload's name for a target without a command of its own. */
static void target_name(const struct stat_run *r, char *buf, size_t len)
{
	static const char *const kinds[] = { [UD_TARGET_SYSTEM_WIDE] = "system-wide", [UD_TARGET_CPUS] = "cpus %s",
					     [UD_TARGET_PID] = "pid %s", [UD_TARGET_TID] = "tid %s" };

	snprintf(buf, len, kinds[r->target.kind], o.cpus ? o.cpus : o.pids ? o.pids : o.tids ? o.tids : "");
}

/* The profile whose one workload is the command (or the target); host facts only when a profile is written. */
static int new_profile(struct stat_run *r)
{
	struct ud_host_opts hopts = { .db = &r->meas.db };
	struct ud_err err = UD_ERR_INIT;
	bool written = o.profile || output_is_profile();
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
		r->units[i] = (struct ud_stat_unit){ ev[i].unit, ev[i].scale };
	return r->units ? 0 : -1;
}

/* The view of the whole (and its aggregates) that the report prints. */
static struct ud_stat_view view_of(const struct stat_run *r, const struct ud_workload *whole,
				   struct ud_workload *const *aggr, struct ud_stat_slot *slots)
{
	static const enum ud_stat_aggr kinds[] = { [UD_AGGR_WHOLE] = UD_STAT_WHOLE, [UD_AGGR_CPU] = UD_STAT_PER_CPU,
						   [UD_AGGR_CORE] = UD_STAT_PER_CORE,
						   [UD_AGGR_SOCKET] = UD_STAT_PER_SOCKET,
						   [UD_AGGR_THREAD] = UD_STAT_PER_THREAD };
	struct ud_stat_view v = {
		.whole = whole, .units = r->units, .aggr = kinds[aggr_mode()], .slots = slots,
		.nslots = r->target.naggr, .target = r->target.words[0] ? r->target.words : NULL,
		.rusage = r->target.kind == UD_TARGET_COMMAND, .rusage_cpus = r->target.kind == UD_TARGET_COMMAND && !o.delay,
		.null_run = o.null_run, .interval_s = NAN,
	};

	for (size_t a = 0; a < r->target.naggr; a++)
		slots[a] = (struct ud_stat_slot){ aggr[a], r->target.aggr[a].label, r->target.aggr[a].number };
	return v;
}

static void print_view(FILE *f, const struct ud_stat_view *v)
{
	if (o.json)
		ud_stat_print_json(f, v);
	else if (o.sep)
		ud_stat_print_csv(f, v, o.sep);
	else
		ud_stat_print_text(f, v);
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
		print_view(r->f, &v);
		fflush(r->f);
		/* an interval reaches an --append file as it comes: a reader following it sees each */
		if (r->out && ud_outfile_flush(r->out, &ferr) != 0)
			ud_cmd_error(&command, "%s", ferr.msg);
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

	if (r->out)
		return 0; /* opened for the intervals */
	r->f = stderr;
	if (!o.output || output_is_profile())
		return 0;
	/* --append adds to the file in O_APPEND writes: perf's way, which concurrent writers keep whole */
	r->out = o.append ? ud_outfile_append(o.output, &err) : ud_outfile_open(o.output, &err);
	if (!r->out) {
		ud_cmd_error(&command, "%s", err.msg);
		return -1;
	}
	r->f = ud_outfile_stream(r->out);
	/* perf's first line in a file: when the count started (ctime's own newline, then a blank line). */
	if (strcmp(o.output, "-") != 0)
		fprintf(r->f, "# started on %s\n", ctime(&now));
	return 0;
}

static int write_report(struct stat_run *r)
{
	struct ud_workload *w = &r->p->workloads[0];
	struct ud_stat_slot *slots = calloc(r->target.naggr + 1, sizeof(*slots));
	struct ud_err err = UD_ERR_INIT;
	struct ud_stat_view v;
	int ret = 0;

	if (!slots)
		return ud_cmd_error(&command, "out of memory"), -1;
	if (open_report(r) != 0) {
		free(slots);
		return -1;
	}
	v = view_of(r, w, r->aggr, slots);
	v.summary = o.interval > 0;
	/* after -I's intervals, the totals only where asked, as perf prints them */
	if (o.interval == 0 || o.summary)
		print_view(r->f, &v);
	if (!o.json && !o.sep)
		ud_stat_print_hotspots(r->f, w->hotspots);
	free(slots);
	if (r->out && ud_outfile_commit(r->out, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		ret = -1;
	}
	r->out = NULL;
	if (ret == 0 && (o.profile || output_is_profile()) &&
	    ud_profile_save(r->p, o.profile ? o.profile : o.output, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		ret = -1;
	}
	return ret;
}

/* Fails early on an unusable -o or --profile, before anything runs; opens nothing (a FIFO's reader would see EOF). */
static int check_outputs(void)
{
	struct ud_err err = UD_ERR_INIT;

	int ret = o.output && o.profile ? ud_outfile_check_apart("-o", o.output, "--profile", o.profile, &err)
		: o.output		? ud_outfile_check(o.output, &err)
		: o.profile		? ud_outfile_check(o.profile, &err)
					: 0;

	if (ret != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return -1;
	}
	return 0;
}

/* The session: what launch.h runs each time. */
static void plan_session(struct stat_run *r)
{
	r->m = (struct ud_measure_stat){
		.session = { .argv = r->cmd, .slots = r->target.slots, .nslots = r->target.nslots,
			     .tasks = r->target.tasks, .delay_ns = (uint64_t)o.delay * 1000000ULL,
			     .timeout_ns = (uint64_t)o.timeout * 1000000ULL,
			     .interval_ns = (uint64_t)o.interval * 1000000ULL,
			     .on_interval = o.interval ? on_interval : NULL, .ctx = r },
		.exact = o.exact, .runs = (size_t)o.repeat, .pre = o.pre, .post = o.post,
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

/* Counts and reports; returns the exit status. */
static int measure(struct stat_run *r)
{
	struct ud_launch_result last = { 0 };
	struct ud_err err = UD_ERR_INIT;
	int ret;

	if (o.interval && open_report(r) != 0)
		return UD_EXIT_USAGE;
	plan_session(r);
	ret = ud_measurement_stat(&r->meas, &r->m, &r->p->workloads[0], r->aggr, &last, &err);
	if (ret != UD_LAUNCH_OK) {
		ud_cmd_error(&command, "%s", err.msg);
		return ret == UD_LAUNCH_EXEC_FAILED ? UD_EXIT_USAGE : UD_EXIT_RUN_FAILED;
	}
	if (write_report(r) != 0)
		return UD_EXIT_RUN_FAILED;
	return session_status(&last);
}

/* Everything before counting; UD_OPT_GO_ON, else the exit status. */
static int setup(struct stat_run *r)
{
	struct ud_err err = UD_ERR_INIT;

	if (ud_measurement_detect(&r->meas, &err) != 0 ||
	    ud_stat_target_make(target_kind(), o.cpus ? o.cpus : o.pids ? o.pids : o.tids, aggr_mode(), &r->target,
				&err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	if (plan_events(r) != 0 || check_outputs() != 0)
		return UD_EXIT_USAGE;
	if (plan_units(r) != 0 || new_profile(r) != 0) {
		ud_cmd_error(&command, "out of memory");
		return UD_EXIT_RUN_FAILED;
	}
	return UD_OPT_GO_ON;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_run r = { 0 };
	int status = parse_args(argc, argv, &r.cmd);

	if (status == UD_OPT_GO_ON)
		status = setup(&r);
	if (status == UD_OPT_GO_ON)
		status = measure(&r);
	run_free(&r);
	return status;
}
