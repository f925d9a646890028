/*
 * stat_format.h - `uarchdiff stat` output in perf stat's layouts: its text,
 * -x SEP (CSV) and -j (JSON lines), for the whole or per CPU (-A), core,
 * socket or thread, and per interval (-I), as perf 6.1 prints them
 * (tools/perf/util/stat-display.c; the column widths as Debian's
 * linux-perf 6.1 prints them, checked by tests/perf-parity.sh).
 *
 * Each row set is a workload as `stat` builds it: counter values (means
 * over runs, with their relative spread), and the elapsed time they were
 * counted over, which "CPUs utilized" divides task-clock by (SPEC §4).
 * Counters not counted are listed with their reasons under the table in the
 * verbose text form, since perf's bare "<not supported>" leaves a user
 * guessing; by default the text is perf's, row for row.
 */
#ifndef UD_STAT_FORMAT_H
#define UD_STAT_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "profile.h"

/* How rows are aggregated: perf's AGGR_GLOBAL, AGGR_NONE (-A), AGGR_CORE, AGGR_SOCKET, AGGR_THREAD, AGGR_DIE, AGGR_NODE. */
enum ud_stat_aggr {
	UD_STAT_WHOLE, UD_STAT_PER_CPU, UD_STAT_PER_CORE, UD_STAT_PER_SOCKET, UD_STAT_PER_THREAD, UD_STAT_PER_DIE,
	UD_STAT_PER_NODE
};

/* One aggregate's rows: a CPU, a core ("S0-D0-C1"), a die ("S0-D0"), a socket ("S0"), a node ("N0") or a thread. */
struct ud_stat_slot {
	const struct ud_workload *w; /* its counters, in the whole's order, and the time they cover */
	const char *label;           /* the core, die, socket or node id, or the thread's comm; unused per CPU */
	int number;                  /* the CPU, the CPUs folded into the aggregate, or the thread id */
};

/* perf's unit column and the factor that turns a count into it ("msec", 1e-6). */
struct ud_stat_unit {
	const char *unit;
	double scale;
	bool extra; /* uarchdiff's own row (a group's copy of cycles): printed only when the view is verbose */
};

struct ud_stat_view {
	const struct ud_workload *whole;   /* the whole: header, times, runs, reasons; its rows when not split */
	const struct ud_stat_unit *units;  /* one per counter of the whole */
	enum ud_stat_aggr aggr;
	const struct ud_stat_slot *slots;  /* the rows per aggregate, nslots of them; unused for UD_STAT_WHOLE */
	size_t nslots;
	/*
	 * Per thread, each event's rows are perf's: highest count first
	 * (sort_aggr_thread()); with every thread of the system (-a), the
	 * threads that counted 0 are left out, as perf leaves them.
	 */
	bool all_threads;
	const char *target;                /* the header's words: "'system wide'", "'CPU(s) 0-1'", "process id '7'"; NULL: the command */
	bool rusage;                       /* the command's user and sys times (perf prints them for a command it ran) */
	bool rusage_cpus;                  /* and getrusage's CPUs utilized where it differs from task-clock's (not after -D) */
	bool null_run;                     /* -n: no counters, the time only */
	double interval_s;                 /* -I: this interval's time stamp; NAN for the totals */
	int interval_index;                /* which interval, from 0: perf repeats the text header every 26 */
	bool summary;                      /* the totals after intervals (perf's --summary) */
	/*
	 * uarchdiff's additions to perf's text: the extra rows and why each
	 * counter was not counted (stat -v).  Never in -x or -j, which scripts
	 * read row by row.
	 */
	bool verbose;
	bool no_scale;                     /* perf's --no-scale: counts as read, not scaled up for multiplexing */
	bool no_csv_summary;               /* perf's --no-csv-summary: the totals after -I in -x without "summary" */
	bool table;                        /* perf's --table: each run's elapsed time before the final one (-r) */
	bool metric_only;                  /* perf's --metric-only: a column per metric, a line per row */
	/*
	 * perf's -B (--big-num): the text counts' whole digits grouped with
	 * this (the locale's LC_NUMERIC thousands separator); NULL or "": not
	 * grouped.  Never in -x or -j.  The decimal point stays '.'.
	 */
	const char *thousands_sep;
	/*
	 * perf stat -G or --for-each-cgroup was given: every row has the
	 * counter's cgroup after its name (text, -x, -j's "cgroup"), empty for
	 * a counter without one.
	 */
	bool cgroups;
};

void ud_stat_print_text(FILE *f, const struct ud_stat_view *v);
/* perf stat -x SEP: [time,][aggregate,]value,unit,event[,variance],run_time,pct_running,metric,metric_unit */
void ud_stat_print_csv(FILE *f, const struct ud_stat_view *v, const char *sep);
/* perf stat -j: one object a line, "counter-value", "unit", "event", ..., "metric-unit" */
void ud_stat_print_json(FILE *f, const struct ud_stat_view *v);
/* --hotspots under the text report: the sampled symbols as perf report lists them; nothing for NULL. */
void ud_stat_print_hotspots(FILE *f, const struct ud_hotspots *h);

#endif
