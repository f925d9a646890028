/*
 * import_block.h - the accumulator the parsers fill: the rows of one block
 * of perf stat output (one "Performance counter stats" block, or one CSV or
 * JSON file), summed per event, with the block's times, command and
 * UnixBench scores, and turned into one workload of a profile at the end.
 *
 * Per-CPU rows (-a -A) and intervals (-I) print one event many times: the
 * rows add up here, once, so each parser only reads rows.  A hybrid CPU's
 * core PMUs (cpu_core/cycles/, cpu_atom/cycles/) are two events, kept apart.
 * perf's own metric rows (tma_*) are kept beside the counters.
 */
#ifndef UD_IMPORT_BLOCK_H
#define UD_IMPORT_BLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "count_status.h"
#include "error.h"
#include "import.h"
#include "profile.h"

/* Core PMU names' longest (armv8_cortex_a76, cpu_lowpower). */
#define ACC_PMU_LEN 32

struct acc_counter {
	char *name;              /* imp_event_name_new()'s, as long as it is: two long names differing at the end stay two */
	char pmu[ACC_PMU_LEN];   /* the core PMU it was printed under (cpu_core), "" none: a hybrid's core types stay apart */
	char *printed;           /* the first spelling seen, to skip normalising repeats */
	char *cgroup;            /* perf stat -G's cgroup column; NULL none (the same event in two cgroups is two counters) */
	enum ud_count_status status;
	double value;            /* sum over rows */
	int counted;             /* the rows that counted (the others printed <not counted>) */
	double pct_sum;          /* running percentages, averaged over rows */
	int pct_rows;
	double rel_stddev;       /* from "( +- x% )"; NAN if none */
	int rows;
	double sumsq;            /* of the rows' values: their spread across -I's intervals */
	/*
	 * A whole count printed again (perf -M prints an event once per metric
	 * group that reads it, each scaled from its own share of the run):
	 * another estimate of one count, so the rows are averaged, not added
	 */
	bool repeated;
};

/* One UnixBench COUNT|total|timebase|units line (unixbench_score.h). */
struct acc_score {
	double value;
	double timebase;         /* 0: value is a rate already */
	double time_s;           /* the program's TIME|seconds line after it (as Run prefers); NAN none */
	char units[32];
};

struct acc_metric {
	char *name;              /* as long as perf printed it, with its core PMU in front where it has one */
	double value;            /* NAN where perf printed no value */
};

struct acc {
	struct acc_counter *c;
	size_t n, cap;
	char *command;
	int runs;                /* from the header's "(5 runs)" */
	struct ud_perf_command perf_command; /* the pasted perf command line before the block; line NULL none */
	int perf_repeat;         /* its -r N, the runs where no header says (CSV, JSON); 0 none */
	double elapsed_ns, user_ns, sys_ns;
	double elapsed_rel_stddev; /* "+-" on the elapsed time relative to it; NAN none */
	struct acc_score *scores;
	size_t nscores;
	int last;                /* index of the counter a continuation line refers to; -1 none */
	struct acc_metric *metrics; /* perf's own metric rows, the last value of each name */
	size_t nmetrics, metrics_cap;
	bool closed;             /* its "seconds time elapsed" line was read: a counter after it starts a new block */
	/* -I N: the intervals' timestamps (seconds since the start), the last of them, and how many were read */
	double interval_s;
	int intervals;
	/* the last timestamp as printed: the rows of one interval repeat it, and equal text needs no strtod() */
	char stamp[32];
	size_t stamp_len;
	char metric_pmu[ACC_PMU_LEN]; /* the core type of the metric group being read ("TopdownL1 (cpu_core)"); "" none */
	json_t *index;           /* "p" + printed spelling, "n" + name + "/" + pmu -> index in c, "m" + metric -> in metrics */
};

void imp_acc_init(struct acc *a);
/*
 * An interval's timestamp (-I N's "1.001234567" first field, seconds since
 * the count began): rows after it belong to that interval.  The last one is
 * the block's elapsed time where it prints none, and a counter printed once
 * an interval gets its spread across the intervals as its noise.
 */
void imp_acc_interval(struct acc *a, double seconds);
/* The same from the timestamp as printed (n bytes at text, read with strtod()), once a run of equal ones. */
void imp_acc_interval_text(struct acc *a, const char *text, size_t n);
/* Frees what a holds and leaves it initialised, ready for the next block. */
void imp_acc_free(struct acc *a);
bool imp_acc_empty(const struct acc *a);
/*
 * Adds a row of event (as printed; normalised here); status other than
 * counted ignores value.  pct and rel_stddev NAN when none.  part: the row
 * is one CPU's or one interval's part of the count (-A, -I), which the
 * rows add up to; else it is the whole count, and a repeat of it another
 * estimate of the same count.  -1 when out of memory.
 */
int imp_acc_add(struct acc *a, const char *event, enum ud_count_status status, double value, double pct,
	    double rel_stddev, bool part);
/* imp_acc_add() of a row perf printed with a cgroup column (-G, --for-each-cgroup): cgroup "" for none. */
int imp_acc_add_in(struct acc *a, const char *event, const char *cgroup, enum ud_count_status status, double value,
		   double pct, double rel_stddev, bool part);
/*
 * perf's metric name = value (NAN: printed without one); a later row of the
 * name replaces it.  Under a hybrid metric group's label the name gets its
 * core PMU ("cpu_core/tma_backend_bound"), so one core type's metrics do
 * not overwrite the other's.  -1 out of memory.
 */
int imp_acc_set_metric(struct acc *a, const char *name, double value);
/* A metric perf printed beside a counter of event: named with that counter's core PMU where it has one. */
int imp_acc_set_counter_metric(struct acc *a, const char *event, const char *metric, double value);
/* A metric group's label ("TopdownL1 (cpu_atom)") sets the core type of the metrics after it. */
void imp_acc_metric_group(struct acc *a, const char *label);
/* 0 when pct (perf's running share; NAN: not printed) is within 0..100, else -1 with err. */
int imp_check_running_pct(double pct, struct ud_err *err);
/*
 * UnixBench's result lines: "COUNT|total|timebase|units" (a score; the
 * timebase may be left out, "COUNT|value|units", for a rate) and the
 * "TIME|seconds" a program prints after one.  1 taken, 0 not one (nor a
 * TIME line without a number or a COUNT line before it), -1 a malformed
 * COUNT line (err set).
 */
int imp_acc_take_count_line(struct acc *a, const char *line, struct ud_err *err);
/*
 * A line that holds a perf stat command line (import_perf_command.h) goes
 * to the block: 1 taken, 0 not one, -1 out of memory (err set).
 */
int imp_acc_take_perf_command(struct acc *a, const char *line, struct ud_err *err);
/*
 * The workload names p holds, as a set for imp_acc_to_workload (a jansson object:
 * its hash table makes a lookup O(1)); NULL when out of memory.  The caller
 * decrefs it.  One set serves a whole file's blocks.  A new reference.
 */
json_t *imp_names_taken(const struct ud_profile *p);
/* Marks name taken in the set (0), or -1 out of memory. */
int imp_name_take(json_t *taken, const char *name);

/*
 * base, or base#K with the lowest K free in taken, marked taken: a new
 * string the caller frees, or NULL when out of memory.  The naming every
 * format's workloads share (a parser with its own accumulator calls it).
 */
char *imp_unique_name(json_t *taken, const char *base);
/* Whether a score in units is a time (s, ms, us, ...), where lower is better. */
bool imp_units_lower_is_better(const char *units);

/*
 * Appends the block to p as a workload named by o->workload, the command or
 * fallback (made unique with "#2", "#3": the lowest number free, found in
 * constant time however many blocks share the name; taken is imp_names_taken(p),
 * kept up to date here), scored by o's scores, the COUNT lines, or the
 * elapsed time, in that order.  COUNT lines are scored as UnixBench's Run
 * scores them, the last one the score and the others sub-scores; where the
 * block's N runs (-r N) printed N x k of them, each run's last is one
 * sample.  Under --all-user or --all-kernel on the pasted perf command
 * line, every counter but the clocks is named with :u or :k.  Where the block's
 * counters were printed under two or more core PMUs (a hybrid CPU), each
 * keeps its PMU in its name ("cpu_core/cycles") and the profile's host gets
 * "hybrid": true and "core_pmus"; otherwise PMU prefixes are dropped and
 * rows of one event add up.
 */
int imp_acc_to_workload(struct acc *a, struct ud_profile *p, const struct ud_import_opts *o, const char *fallback,
		    json_t *taken, struct ud_err *err);

#endif
