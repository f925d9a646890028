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
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtins.h"
#include "cgroups.h"
#include "host.h"
#include "launch.h"
#include "measurement.h"
#include "options.h"
#include "outfile.h"
#include "profile.h"
#include "stat_format.h"
#include "stat_record_cmd.h"
#include "stop.h"
#include "text.h"
#include "targets.h"

/* perf's limits: -I and --timeout under 10 ms are refused (builtin-stat.c). */
#define INTERVAL_MIN_MS 10
#define TIMEOUT_MIN_MS 10
/* A day: longer intervals, delays or timeouts are a slip of a digit, not a measurement. */
#define MS_MAX 86400000L

struct stat_opts {
	struct ud_event_request events; /* -e's arguments, comma-joined (list NULL: the defaults), and --filter's */
	char *metrics; /* comma-joined -M arguments: top-down groups or buckets, counted as --topdown */
	int detailed;
	long repeat, interval, delay, timeout;
	const char *sep, *output, *profile, *cpus, *pids, *tids, *pre, *post, *control;
	bool json, exact, hotspots, append, all_cpus, no_aggr, per_core, per_socket, per_thread, null_run, topdown, summary;
	bool verbose, scale, quiet, interval_clear, csv_summary;
	long log_fd;
	bool no_inherit, sync, all_user, all_kernel;
	long interval_count, td_level; /* td_level: -1 not given */
	bool table, metric_only, big_num, big_num_asked; /* perf's --table, --metric-only, -B and --no-big-num */
	bool perf_noop; /* perf's options that change nothing here (--no-merge: nothing is merged) */
	bool per_die, per_node;
	bool group; /* -g: every counter in one group */
	const char *for_each_cgroup; /* --for-each-cgroup's names, opened once the options are read (perf's last one wins) */
	struct ud_cgroups cgroups;   /* -G's, paired with the events as each -G comes */
};

static struct stat_opts o;

/* -G: its names go with the events given so far (cgroups.h), so it is read where it stands among the -e's. */
static int parse_cgroup(const char *arg, void *dest, struct ud_err *err)
{
	struct stat_opts *so = dest;

	return ud_cgroups_pair(&so->cgroups, arg, so->events.list, err);
}

/* `stat record`'s part in the run (stat_record_cmd.h); NULL for stat itself. */
static const struct ud_stat_recorder *rec;

/* -e and --filter: parsed in the order given, as a filter belongs to the -e just before it. */
static int parse_event(const char *arg, void *dest, struct ud_err *err)
{
	return ud_event_request_add(dest, arg, err);
}

static int parse_filter(const char *arg, void *dest, struct ud_err *err)
{
	return ud_event_request_filter(dest, arg, err);
}

static const struct ud_option options[] = {
	UD_PARSE_OPTION('e', "event", &o.events, "EVENTS",
	  "events in perf's syntax (repeatable): generic names\n"
	  "(cycles, instructions, branches, branch-misses,\n"
	  "task-clock, page-faults, ...), raw codes rHEX,\n"
	  "tracepoints subsys:name, PMU events pmu/event=N/\n"
	  "and pmu/name/, duration_time, vendor events\n"
	  "libpfm4 knows; groups {a,b}; modifiers :u :k :h\n"
	  ":G :H :p :pp :ppp :D", parse_event),
	UD_PARSE_OPTION(0, "filter", &o.events, "FILTER",
	  "a tracepoint filter for the events of the -e\n"
	  "just before it, in the kernel's syntax\n"
	  "('fd == 1 && count > 8'), as perf --filter", parse_filter),
	UD_FLAG_OPTION('g', "group", &o.group,
	  "every counter in one counter group (the -e\n"
	  "events or the defaults, and -d's), as perf -g"),
	UD_FLAG_OPTION(0, "all-user", &o.all_user,
	  "every event in user mode only, as if each had :u\n(named so)"),
	UD_FLAG_OPTION(0, "all-kernel", &o.all_kernel,
	  "every event in kernel mode only, as if each had\n:k (named so)"),
	UD_COUNT_OPTION('d', "detailed", &o.detailed,
	  "perf's detailed events: -d L1d and LLC, -dd also\nL1i and TLBs, -ddd also L1d prefetches"),
	UD_FLAG_OPTION(0, "topdown", &o.topdown,
	  "also count this host's top-down events (see\n"
	  "'uarchdiff events') in their own groups and print\n"
	  "where the issue slots went, as perf stat --topdown"),
	UD_LONG_OPTION(0, "td-level", &o.td_level, "N",
	  "--topdown at perf's level N: 1, 2 where this\n"
	  "host's table goes that deep, 0 its deepest", 0, 2),
	UD_LIST_OPTION('M', "metrics", &o.metrics, "METRICS",
	  "perf's -M for the metrics this host's table\n"
	  "defines: TopdownL1, TopdownL2 (AMD: PipelineL1,\n"
	  "PipelineL2) or a bucket (backend_bound); counted\n"
	  "as --topdown counts them"),
	UD_LONG_OPTION('r', "repeat", &o.repeat, "N",
	  "run N times; print means and +- relative stderr;\n"
	  "0: run until Ctrl-C, a report each run (perf's)", 0, UD_REPEAT_MAX),
	UD_FLAG_OPTION('S', "sync", &o.sync, "call sync() before each run (after --pre)"),
	UD_FLAG_OPTION(0, "exact", &o.exact,
	  "run the command once per counter group, so no\n"
	  "counter is multiplexed (N groups: N runs a repeat)"),
	UD_FLAG_OPTION('a', "all-cpus", &o.all_cpus, "count every online CPU (system-wide)"),
	UD_STRING_OPTION('C', "cpu", &o.cpus, "LIST", "count these CPUs (0-3,6)"),
	UD_STRING_OPTION('p', "pid", &o.pids, "PIDS", "count these running processes, every thread"),
	UD_STRING_OPTION('t', "tid", &o.tids, "TIDS", "count these running threads"),
	UD_FLAG_OPTION('i', "no-inherit", &o.no_inherit,
	  "what the command (or -p, -t's tasks) forks is\nnot counted"),
	UD_PARSE_OPTION('G', "cgroup", &o, "NAMES",
	  "with -a or -C: the events given before it (-e)\n"
	  "counted only in these cgroups, the N-th name\n"
	  "with the N-th event, one name with them all\n"
	  "(perf's pairing; an empty name: no cgroup)", parse_cgroup),
	UD_STRING_OPTION(0, "for-each-cgroup", &o.for_each_cgroup, "NAMES",
	  "with -a or -C: every event counted once in each\n"
	  "cgroup (names, or regular expressions matched\n"
	  "against every cgroup's path; empty: the root)"),
	UD_FLAG_OPTION('A', "no-aggr", &o.no_aggr, "with -a or -C: a row per CPU"),
	UD_FLAG_OPTION(0, "per-core", &o.per_core, "with -a or -C: a row per core"),
	UD_FLAG_OPTION(0, "per-die", &o.per_die, "with -a or -C: a row per die"),
	UD_FLAG_OPTION(0, "per-socket", &o.per_socket, "with -a or -C: a row per socket"),
	UD_FLAG_OPTION(0, "per-node", &o.per_node, "with -a or -C: a row per NUMA node"),
	UD_FLAG_OPTION(0, "per-thread", &o.per_thread,
	  "with -p or -t: a row per thread; with -a: every\nthread of the system that counted"),
	UD_LONG_OPTION('I', "interval-print", &o.interval, "MS",
	  "print the counts every MS milliseconds", INTERVAL_MIN_MS, MS_MAX),
	UD_LONG_OPTION(0, "interval-count", &o.interval_count, "N",
	  "with -I: stop counting after N intervals (a\ncommand is left to end, as perf)", 1, INT_MAX),
	UD_FLAG_OPTION(0, "summary", &o.summary, "with -I: the whole run's totals after the\nintervals, as perf --summary"),
	UD_LONG_OPTION('D', "delay", &o.delay, "MS",
	  "start counting MS milliseconds after the command;\n-1: not before --control's enable", -1, MS_MAX),
	UD_STRING_OPTION(0, "control", &o.control, "SPEC",
	  "obey perf's commands while counting (enable,\n"
	  "disable, enable NAME, ping, evlist, ...) from\n"
	  "fd:CTL[,ACK] (descriptors) or fifo:CTL[,ACK],\n"
	  "acknowledging each on ACK as perf"),
	UD_LONG_OPTION(0, "timeout", &o.timeout, "MS",
	  "stop after MS milliseconds (the command gets\nSIGTERM)", TIMEOUT_MIN_MS, MS_MAX),
	UD_FLAG_OPTION('n', "null", &o.null_run, "count nothing: the elapsed time only"),
	UD_STRING_OPTION('x', "field-separator", &o.sep, "SEP", "CSV output like perf stat -x"),
	UD_FLAG_OPTION('j', "json", &o.json, "perf's JSON lines: one object a counter"),
	UD_ALIAS_FLAG_OPTION(0, "json-output", &o.json),
	UD_CLEAR_OPTION(0, "no-csv-summary", &o.csv_summary,
	  "with -x, -I and --summary: the totals without\nperf's \"summary\" field"),
	UD_CLEAR_OPTION(0, "no-scale", &o.scale, "counts as read, not scaled up where multiplexed"),
	UD_ALIAS_FLAG_OPTION(0, "scale", &o.scale),
	UD_FLAG_OPTION(0, "table", &o.table, "with -r: each run's elapsed time, as perf --table"),
	UD_FLAG_OPTION(0, "metric-only", &o.metric_only,
	  "only the metrics (insn per cycle, miss ratios):\na column each, a line per row, as perf"),
	UD_FLAG_OPTION('B', "big-num", &o.big_num_asked,
	  "counts with the locale's thousands separator\n(the default in the text report; not with -x)"),
	UD_CLEAR_OPTION(0, "no-big-num", &o.big_num, "counts without thousands separators"),
	UD_FLAG_OPTION(0, "quiet", &o.quiet, "print no report (the profile is still written)"),
	UD_LONG_OPTION(0, "log-fd", &o.log_fd, "FD", "the report to file descriptor FD, not stderr", 0, INT_MAX),
	UD_FLAG_OPTION(0, "interval-clear", &o.interval_clear,
	  "with -I: clear the terminal before each interval"),
	UD_STRING_OPTION('o', "output", &o.output, "FILE",
	  "write the report to FILE, atomically; '-' is\n"
	  "stdout; FILE.json without -x or -j: the profile"),
	UD_FLAG_OPTION(0, "append", &o.append, "with -o: add to FILE instead of replacing it"),
	UD_STRING_OPTION(0, "profile", &o.profile, "FILE", "also write a uarchdiff.profile/1 profile to FILE"),
	UD_STRING_OPTION(0, "pre", &o.pre, "CMD", "run the shell command CMD before each run"),
	UD_STRING_OPTION(0, "post", &o.post, "CMD", "run the shell command CMD after each run"),
	/* perf's options with nothing to do here: accepted, so a perf user's script runs */
	UD_ALIAS_FLAG_OPTION(0, "no-merge", &o.perf_noop),
	UD_ALIAS_FLAG_OPTION(0, "hybrid-merge", &o.perf_noop),
	UD_ALIAS_FLAG_OPTION(0, "metric-no-group", &o.perf_noop),
	UD_ALIAS_FLAG_OPTION(0, "metric-no-merge", &o.perf_noop),
	UD_ALIAS_FLAG_OPTION(0, "percore-show-thread", &o.perf_noop),
	/* perf's options that need what this tool does not build, or this host lacks */
	UD_REFUSED_OPTION('T', "transaction", NULL,
	  "Intel TSX's transaction events are not built in: count them with -e (cpu/tx-start/, cpu/el-start/, "
	  "cpu/cycles-t/, cpu/cycles-ct/) where this host's cpu PMU lists them"),
	UD_REFUSED_OPTION(0, "smi-cost", NULL,
	  "Intel's SMI cost (freeze_on_smi) is not built in: count -e msr/smi/,msr/aperf/,msr/mperf/ where the msr "
	  "PMU has them"),
	UD_REFUSED_OPTION(0, "iostat", NULL,
	  "perf's iostat reads Intel Xeon IIO uncore PMUs and is not built in: count uncore events with -e "
	  "(uncore_iio_N/EVENT/)"),
	UD_REFUSED_OPTION(0, "cputype", "TYPE",
	  "hybrid core types are named per event here: -e cpu_core/cycles/ or cpu_atom/cycles/"),
	UD_REFUSED_OPTION(0, "bpf-counters", NULL,
	  "BPF counters are not built in (uarchdiff opens perf_event_open counters only): drop the option"),
	UD_REFUSED_OPTION(0, "bpf-prog", "ID",
	  "BPF programs' counters are not built in (uarchdiff opens perf_event_open counters only)"),
	UD_REFUSED_OPTION(0, "bpf-attr-map", "FILE",
	  "BPF counters are not built in (uarchdiff opens perf_event_open counters only): drop the option"),
	UD_FLAG_OPTION('v', "verbose", &o.verbose,
	  "uarchdiff's additions to perf's text: why each\n"
	  "counter was not counted, each group's own cycles\n"
	  "and instructions, getrusage's CPUs utilized"),
	UD_FLAG_OPTION(0, "hotspots", &o.hotspots,
	  "sample the command too, at 1000 Hz: its top user\nand kernel symbols"),
};

static const struct ud_command command = {
	.name = "stat",
	.synopsis = "uarchdiff stat [-e EVENTS [--filter FILTER]] [-g] [-d] [-r N] [-a | -C LIST | -p PIDS | -t TIDS]\n"
		    "                      [-A | --per-core | --per-die | --per-socket | --per-node | --per-thread]\n"
		    "                      [-I MS [--summary]] [-D MS] [--control SPEC]\n"
		    "                      [--timeout MS] [-n] [-x SEP | -j] [-o FILE [--append]] [--profile FILE]\n"
		    "                      [--pre CMD] [--post CMD] [--exact] [-v] [--hotspots] [--topdown] [-M METRICS]\n"
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
		    "Without -e, perf's default events for this host; -v adds what uarchdiff\n"
		    "knows beyond perf's text.\n"
		    "\n"
		    "perf's --json-output (-j), --scale and, with nothing to do here, --no-merge,\n"
		    "--hybrid-merge, --metric-no-group, --metric-no-merge and\n"
		    "--percore-show-thread are accepted; -T, --smi-cost, --iostat, --cputype and\n"
		    "the BPF options are refused with their reason and what to use instead\n"
		    "(doc/perf-stat-options.md lists every option of perf stat).\n"
		    "\n"
		    "Exit status, perf's: the command's (0 when --timeout ended it); without a\n"
		    "command 0, or 128+N when signal N ended counting, as with -r 0; 129 for\n"
		    "bad usage or an unknown event; 255 for a command that cannot run or an\n"
		    "output that cannot be created; 1 when the report could not be written or\n"
		    "a --pre or --post command failed.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
	.usage_status = UD_EXIT_PERF_USAGE,
};

static enum ud_target_kind target_kind(void)
{
	/* -C with -a counts those CPUs, as perf's -a -C */
	return o.cpus       ? UD_TARGET_CPUS
	       : o.all_cpus ? UD_TARGET_SYSTEM_WIDE
	       : o.pids   ? UD_TARGET_PID
	       : o.tids   ? UD_TARGET_TID
			  : UD_TARGET_COMMAND;
}

static enum ud_aggr_mode aggr_mode(void)
{
	return o.no_aggr ? UD_AGGR_CPU : o.per_core ? UD_AGGR_CORE : o.per_socket ? UD_AGGR_SOCKET
					     : o.per_thread ? UD_AGGR_THREAD : o.per_die ? UD_AGGR_DIE
					     : o.per_node ? UD_AGGR_NODE : UD_AGGR_WHOLE;
}

static bool output_is_profile(void);

/* Options that exclude each other, or need another: the first conflict in words, else NULL. */
static const char *conflict(bool has_command)
{
	if ((o.all_cpus || o.cpus) + !!o.pids + !!o.tids > 1)
		return "-a or -C, -p and -t are different targets: choose one";
	if (o.no_aggr + o.per_core + o.per_socket + o.per_thread + o.per_die + o.per_node > 1)
		return "-A, --per-core, --per-die, --per-socket, --per-node and --per-thread are different rows: choose one";
	if (o.sep && o.json)
		return "-x and --json are different outputs: choose one";
	if (o.table && o.repeat < 2)
		return "--table is only supported with -r";
	if (o.big_num_asked && o.sep)
		return "-B option not supported with -x";
	if (!has_command && target_kind() == UD_TARGET_COMMAND)
		return "no command given (uarchdiff stat [options] -- CMD [ARGS...], or -a, -C, -p, -t)";
	if (o.repeat != 1 && (!has_command || o.interval))
		return "-r repeats a command: it needs one, and no -I";
	if (o.repeat == 0 && (o.profile || rec || output_is_profile()))
		return "-r 0 reports each run until stopped: no profile (--profile, -o FILE.json) nor stat record";
	if (o.exact && (target_kind() != UD_TARGET_COMMAND || o.interval || o.delay))
		return "--exact reruns the command a group at a time: not with -a, -C, -p, -t, -I or -D";
	if (o.hotspots && (target_kind() != UD_TARGET_COMMAND || o.delay))
		return "--hotspots samples the command from its exec: not with -a, -C, -p, -t or -D";
	if (o.cgroups.given && o.for_each_cgroup)
		return "--cgroup and --for-each-cgroup cannot be used together";
	if ((o.cgroups.given || o.for_each_cgroup) && !(o.all_cpus || o.cpus))
		return "both cgroup and no-aggregation modes only available in system-wide mode (-G and "
		       "--for-each-cgroup need -a or -C)";
	if ((o.cgroups.given || o.for_each_cgroup) && o.per_thread)
		return "-G and --for-each-cgroup count cgroups at CPUs: not with --per-thread";
	if (o.interval_count && !o.interval)
		return "--interval-count counts -I's intervals: give -I (as perf)";
	if (o.all_user && o.all_kernel)
		return "--all-user and --all-kernel are different modes: choose one";
	if (o.interval && o.timeout)
		return "--timeout is not supported with -I (as in perf)";
	if (o.log_fd >= 0 && o.output)
		return "--log-fd and -o are both where the report goes: choose one (as perf)";
	if (o.append && (!o.output || strcmp(o.output, "-") == 0))
		return "--append adds to the file -o names: give one";
	if (o.null_run && (o.events.list || o.detailed || o.interval || o.exact || o.hotspots || o.topdown || o.metrics ||
			   o.td_level >= 0))
		return "-n counts nothing: not with -e, -d, -I, --exact, --hotspots, --topdown, --td-level or -M";
	return NULL;
}

/* Returns UD_OPT_GO_ON with *cmd the command to run (NULL: none), else the exit status. */
static int parse_args(int argc, char **argv, char ***cmd)
{
	const char *why;
	int next, status;

	o = (struct stat_opts){ .repeat = 1, .scale = true, .csv_summary = true, .log_fd = -1, .td_level = -1, .big_num = true };
	status = ud_options_cli(rec ? rec->cmd : &command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	why = conflict(next < argc);
	if (why) {
		ud_cmd_error(&command, "%s", why);
		return UD_EXIT_PERF_USAGE;
	}
	*cmd = next < argc ? argv + next : NULL;
	if (rec) {
		/* -o names the record: the report goes to stderr */
		status = rec->begin(rec->ctx, &o.output, o.append);
		if (status < 0)
			return UD_EXIT_PERF_USAGE;
		/* `stat record -o -` writes the record where the report would go: perf prints nothing then */
		o.quiet |= status > 0;
	}
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
	struct ud_control control; /* --control's descriptors */
	struct ud_outfile *out;    /* -o's report */
	FILE *f;                   /* where the report goes */
	FILE *log;                 /* --log-fd's stream, closed at the end */
	int intervals;
};

/* What the measurement goes on without (no sampling event), said as every message is. */
static void notice(void *ctx, const char *msg)
{
	(void)ctx;
	ud_cmd_error(&command, "%s", msg);
}

/*
 * perf's own defaults (cpu-clock when counting CPUs), as a -e list; a
 * profile written gets run's, which add what a diff explains with (L1d,
 * stalls).
 */
static char *perf_defaults(void)
{
	return ud_perf_default_events(UD_CPU_PMU_EVENTS,
				      target_kind() == UD_TARGET_SYSTEM_WIDE || target_kind() == UD_TARGET_CPUS);
}

/* The plan for -e (or the defaults), -d, -M and --hotspots; every unknown name refused. */
static int plan_events(struct stat_run *r)
{
	struct ud_measurement_opts mo = {
		.nothing = o.null_run, .request = &o.events, .one_group = o.group, .metrics = o.metrics,
		.detailed = o.detailed,
		.topdown = o.topdown, .hotspots = o.hotspots, .refuse_unknown = true, .without_hotspots = "counting",
		.notice = notice, .td_asked = o.td_level >= 0, .td_level = o.td_level, .cgroups = &o.cgroups,
		.mode = o.all_user ? 'u' : o.all_kernel ? 'k' : 0,
	};
	struct ud_err err = UD_ERR_INIT;

	if (!o.events.list && !o.null_run && !o.profile && !output_is_profile() &&
	    !(o.events.list = perf_defaults())) {
		ud_cmd_error(&command, "out of memory");
		return -1;
	}
	mo.events = o.events.list;
	if (o.for_each_cgroup && ud_cgroups_each(&o.cgroups, o.for_each_cgroup, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return -1;
	}
	if (ud_measurement_plan(&r->meas, &mo, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
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
	ud_event_request_free(&o.events);
	ud_cgroups_free(&o.cgroups);
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
		.whole = whole, .units = r->units, .aggr = kinds[aggr_mode()], .slots = slots,
		.nslots = r->target.naggr, .target = r->target.words[0] ? r->target.words : NULL,
		/* perf's -r 0 prints no user and sys times */
		.rusage = r->target.kind == UD_TARGET_COMMAND && o.repeat != 0,
		.rusage_cpus = r->target.kind == UD_TARGET_COMMAND && !o.delay && o.verbose,
		.null_run = o.null_run, .interval_s = NAN, .verbose = o.verbose && !o.json && !o.sep,
		.no_scale = !o.scale, .no_csv_summary = !o.csv_summary, .all_threads = r->target.all_threads,
		.table = o.table, .metric_only = o.metric_only,
		.thousands_sep = o.big_num && !o.sep && !o.json ? thousands_sep() : NULL,
		.cgroups = ud_cgroups_used(&o.cgroups),
	};

	for (size_t a = 0; a < r->target.naggr; a++)
		slots[a] = (struct ud_stat_slot){ aggr[a], r->target.aggr[a].label, r->target.aggr[a].number };
	return v;
}

static void print_view(FILE *f, const struct ud_stat_view *v)
{
	if (o.quiet)
		return;
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
		/* perf's CONSOLE_CLEAR, and the header again on the cleared screen */
		if (o.interval_clear && !o.quiet) {
			fputs("\033[H\033[2J", r->f);
			v.interval_index = 0;
		}
		print_view(r->f, &v);
		if (rec)
			rec->interval(rec->ctx, &v);
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

	if (r->out || r->log)
		return 0; /* opened for the intervals */
	r->f = stderr;
	if (o.log_fd >= 0) {
		/* perf's --log-fd: the report to a descriptor the caller opened (a dup: theirs stays open) */
		int fd = fcntl((int)o.log_fd, F_DUPFD_CLOEXEC, 3);

		r->log = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!r->log) {
			ud_cmd_error(&command, "--log-fd %ld: %s", o.log_fd, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		r->f = r->log;
		return 0;
	}
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

/* The totals (after -I's intervals only where asked, as perf) and the hotspots; stat record's part too. */
static int print_totals(struct stat_run *r)
{
	struct ud_workload *w = &r->p->workloads[0];
	struct ud_stat_slot *slots = calloc(r->target.naggr + 1, sizeof(*slots));
	struct ud_stat_view v;
	int ret = 0;

	if (!slots)
		return ud_cmd_error(&command, "out of memory"), -1;
	v = view_of(r, w, r->aggr, slots);
	v.summary = o.interval > 0;
	if (o.interval == 0 || o.summary)
		print_view(r->f, &v);
	if (!o.json && !o.sep && !o.quiet)
		ud_stat_print_hotspots(r->f, w->hotspots);
	if (rec && rec->end(rec->ctx, r->p, &v, o.interval == 0 || o.summary) != 0)
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
		ud_cmd_error(&command, "--log-fd %ld: write failed: %s", o.log_fd, strerror(errno ? errno : EIO));
		ret = -1;
	}
	if (r->out && ud_outfile_commit(r->out, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
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

/* -a --per-thread: the command, forked after the threads were listed, counted in its own row. */
static void on_fork(void *ctx, pid_t pid)
{
	struct stat_run *r = ctx;

	ud_stat_target_set_command(&r->target, pid);
}

/* What a --control command or -D did, in perf's words: on stderr, as perf's pr_info(). */
static void on_control(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "%s\n", msg);
}

/* The session: what launch.h runs each time. */
static void plan_session(struct stat_run *r)
{
	r->m = (struct ud_measure_stat){
		.session = { .argv = r->cmd, .slots = r->target.slots, .nslots = r->target.nslots,
			     .tasks = r->target.tasks, .delay_ns = o.delay > 0 ? (uint64_t)o.delay * 1000000ULL : 0,
			     .start_disabled = o.delay < 0, .control = o.control ? &r->control : NULL,
			     .on_control = on_control,
			     .timeout_ns = (uint64_t)o.timeout * 1000000ULL,
			     .interval_ns = (uint64_t)o.interval * 1000000ULL,
			     .on_interval = o.interval ? on_interval : NULL,
			     .on_fork = r->target.command_slot ? on_fork : NULL, .ctx = r,
			     .interval_count = (unsigned long)o.interval_count, .no_inherit = o.no_inherit },
		/* -r 0 counts a run at a time, each reported as it ends */
		.exact = o.exact, .sync = o.sync, .runs = o.repeat ? (size_t)o.repeat : 1, .pre = o.pre, .post = o.post,
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
	ud_cmd_error(&command, "%s", err.msg);
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
	ud_cmd_error(&command, "out of memory");
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

	if (o.repeat == 0)
		return measure_forever(r);
	if (o.interval && open_report(r) != 0)
		return UD_EXIT_PERF_FAILED;
	plan_session(r);
	ret = count_runs(r, &last);
	if (ret != UD_EXIT_OK)
		return ret;
	if (write_report(r) != 0)
		return UD_EXIT_RUN_FAILED;
	return session_status(&last);
}

/* Everything before counting; UD_OPT_GO_ON, else the exit status. */
static int setup(struct stat_run *r)
{
	struct ud_err err = UD_ERR_INIT;

	/* a profile's host facts detect the core among every table; a report reads what its events need, in the plan */
	if (((o.profile || output_is_profile()) && ud_measurement_detect(&r->meas, &err) != 0) ||
	    ud_stat_target_make(target_kind(), o.cpus ? o.cpus : o.pids ? o.pids : o.tids, aggr_mode(), &r->target,
				&err) != 0 ||
	    (r->target.all_threads && r->cmd && ud_stat_target_add_command(&r->target, r->cmd[0], &err) != 0)) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_PERF_USAGE;
	}
	if (plan_events(r) != 0)
		return UD_EXIT_PERF_USAGE;
	if (ud_measurement_check_filters(&r->meas, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_PERF_FAILED;
	}
	if (check_outputs() != 0)
		return UD_EXIT_PERF_FAILED;
	if (o.control && ud_control_open(o.control, &r->control, &err) != 0) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_PERF_USAGE;
	}
	if (plan_units(r) != 0 || new_profile(r) != 0) {
		ud_cmd_error(&command, "out of memory");
		return UD_EXIT_RUN_FAILED;
	}
	return UD_OPT_GO_ON;
}

const struct ud_command *ud_stat_command(void)
{
	return &command;
}

int ud_stat_count(int argc, char **argv, const struct ud_stat_recorder *recorder)
{
	struct stat_run r = { .control = { .fd = -1, .ack = -1 } };
	int status;

	rec = recorder;
	status = parse_args(argc, argv, &r.cmd);

	if (status == UD_OPT_GO_ON)
		status = setup(&r);
	if (status == UD_OPT_GO_ON)
		status = measure(&r);
	run_free(&r);
	return status;
}

