/*
 * stat_record.h - what `uarchdiff stat record` keeps beside a workload's
 * counts so that `uarchdiff stat report` prints the report again as
 * `stat` printed it (SPEC §5.2 "stat_record"): perf's unit column of each
 * counter, the rows per aggregate (-A, --per-core, --per-die,
 * --per-socket, --per-node, --per-thread), every -I interval, and what the header and footer said.
 *
 * The workload itself holds the totals (counters, runs, elapsed, user and
 * sys times, top-down, hotspots); a part or an interval holds its own
 * counters, in the workload's order, and the time they were counted over.
 * Its JSON form is profile_write.c's and profile_read.c's, as the rest of
 * the profile's; the report's view of it is stat_replay.h's (stage report).
 *
 * Ownership: a record owns everything reachable from it; ud_stat_record_free()
 * frees it.  Pointers returned by the add functions stay valid until the
 * next add on the same parent.
 */
#ifndef UD_STAT_RECORD_H
#define UD_STAT_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "profile.h"

/* How the rows were aggregated: perf's AGGR_GLOBAL, AGGR_NONE (-A), AGGR_CORE, AGGR_SOCKET, AGGR_THREAD, AGGR_DIE, AGGR_NODE. */
enum ud_stat_rows { UD_ROWS_WHOLE, UD_ROWS_CPU, UD_ROWS_CORE, UD_ROWS_SOCKET, UD_ROWS_THREAD, UD_ROWS_DIE, UD_ROWS_NODE };

/* perf's unit column of a counter and the factor that turns its count into it ("msec", 1e-6). */
struct ud_stat_column {
	char *unit; /* "" where perf prints none */
	double scale;
	bool extra; /* uarchdiff's own row (a group's copy of cycles): printed verbose only */
};

/* One aggregate's rows: a CPU, a core, a socket or a thread. */
struct ud_stat_part {
	char *label;          /* the core, die, socket or node id ("S0-D0-C1", "N0"), the thread's comm; NULL per CPU */
	int number;           /* the CPU, the CPUs folded into the aggregate, or the thread id */
	struct ud_workload w; /* its counters in the workload's order, and the time they cover */
};

/* One -I interval: the whole's counts over it, and each aggregate's. */
struct ud_stat_interval {
	double at_s;          /* its time stamp: seconds since counting started */
	struct ud_workload w;
	struct ud_stat_part *parts;
	size_t nparts;
};

struct ud_stat_record {
	char *invocation;     /* the command line that recorded it: the header's words in a report from a file, as perf's */
	char *target;         /* the header's words for CPUs or tasks ("'system wide'"); NULL: the command */
	enum ud_stat_rows rows;
	bool rusage;          /* the command's user and sys times were printed (a command stat ran) */
	bool rusage_cpus;     /* and getrusage's CPUs utilized where it differs (not after -D) */
	bool null_run;        /* -n: the elapsed time only */
	bool totals;          /* the totals were printed: always but after -I without --summary */
	bool summary;         /* they follow intervals (perf --summary's marker in -x output) */
	bool verbose;         /* stat -v's additions were printed */
	struct ud_stat_column *columns; /* one per counter of the workload */
	size_t ncolumns;
	struct ud_stat_part *parts;     /* the totals' aggregates; none for UD_ROWS_WHOLE */
	size_t nparts;
	struct ud_stat_interval *intervals;
	size_t nintervals;
};

/* An empty record (whole rows, nothing printed); NULL out of memory.  Caller frees with ud_stat_record_free(). */
struct ud_stat_record *ud_stat_record_new(void);
void ud_stat_record_free(struct ud_stat_record *r);

/*
 * "whole", "cpu", "core", "socket", "thread", "die", "node"; and back (0, or
 * -1 for another word).  Returns a static string.
 */
const char *ud_stat_rows_name(enum ud_stat_rows rows);
int ud_stat_rows_parse(const char *s, enum ud_stat_rows *rows);

/* Appends a column; -1 out of memory. */
int ud_stat_record_add_column(struct ud_stat_record *r, const char *unit, double scale, bool extra);
/* Appends an aggregate to *parts (n of them), its workload empty; NULL out of memory.  Borrowed. */
struct ud_stat_part *ud_stat_parts_add(struct ud_stat_part **parts, size_t *n, const char *label, int number);
/* Appends an interval stamped at_s, its workload empty; NULL out of memory.  Borrowed. */
struct ud_stat_interval *ud_stat_record_add_interval(struct ud_stat_record *r, double at_s);
/*
 * Copies src's counters (every field) and its elapsed, user and sys times
 * and runs into dst, which holds none yet.  -1 out of memory.
 */
int ud_stat_copy_counts(struct ud_workload *dst, const struct ud_workload *src);

#endif
