/*
 * stat_options.c - `uarchdiff stat`'s option table and help: perf stat's
 * options, those with nothing to do here accepted, those that need what
 * this tool does not build refused with their reason (stat.c parses with
 * it; stat_run.h's struct ud_stat_opts is what it fills).
 */
#include <limits.h>
#include <stddef.h>

#include "builtins.h"
#include "options.h"
#include "stat_record_cmd.h"
#include "stat_run.h"

/* perf's limits: -I and --timeout under 10 ms are refused (builtin-stat.c). */
#define INTERVAL_MIN_MS 10
#define TIMEOUT_MIN_MS 10
/* A day: longer intervals, delays or timeouts are a slip of a digit, not a measurement. */
#define MS_MAX 86400000L

static struct ud_stat_opts o;

/* -G: its names go with the events given so far (cgroups.h), so it is read where it stands among the -e's. */
static int parse_cgroup(const char *arg, void *dest, struct ud_err *err)
{
	struct ud_stat_opts *so = dest;

	return ud_cgroups_pair(&so->cgroups, arg, so->events.list, err);
}

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

const struct ud_command *ud_stat_command(void)
{
	return &command;
}

struct ud_stat_opts *ud_stat_options(void)
{
	return &o;
}
