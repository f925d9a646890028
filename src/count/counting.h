/*
 * counting.h - the counting engine: perf_event_open counter groups.
 *
 * A ud_counters set opens one counter per struct ud_event, grouping events
 * that share ev->group under one leader so the kernel schedules them
 * together (ratios inside a group are exact even when multiplexed).  Events
 * with group -1 are opened on their own.
 *
 * Three ways to count:
 *  - a command from its exec: open on the child's pid with
 *    UD_COUNT_ENABLE_ON_EXEC | UD_COUNT_INHERIT before letting it exec (see
 *    launch.h, which does all of this);
 *  - a region inside this process: open on pid 0, then ud_counters_enable()
 *    and ud_counters_disable() around the region;
 *  - at several places at once, as perf stat -a, -C, -p and -t do: one
 *    slot (a pid and a CPU, perf_event_open's two) per CPU or per thread,
 *    every event opened at each slot, each slot's groups led there.
 *
 * Groups are read in one read() (PERF_FORMAT_GROUP) where the kernel allows
 * it; with inherit, kernels before 6.x refuse that read format, and each
 * counter is then read on its own.  Every counter ends as a struct ud_count
 * with a status and, for the ones not counted, the reason in words.
 *
 * A requested group the kernel refuses a member of is kept whole (that
 * member not counted), unless the request made it weak ({a,b}:W): then,
 * as perf does, every member of it opens on its own, at every slot.
 *
 * Ownership: ud_counters_open() returns a set that the caller closes with
 * ud_counters_close(); the events array must outlive the set.
 */
#ifndef UD_COUNTING_H
#define UD_COUNTING_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "count_status.h"
#include "error.h"
#include "events.h"

struct ud_count {
	enum ud_count_status status;
	char reason[UD_REASON_MAX]; /* why not counted; "" when counted */
	uint64_t raw;        /* what was read */
	uint64_t enabled_ns; /* PERF_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t running_ns; /* PERF_FORMAT_TOTAL_TIME_RUNNING */
	double value;        /* raw scaled by enabled/running */
};

enum {
	UD_COUNT_INHERIT = 1 << 0,        /* count the processes it forks too */
	UD_COUNT_ENABLE_ON_EXEC = 1 << 1, /* start counting at the target's exec */
};

enum ud_pmu_state { UD_PMU_AVAILABLE, UD_PMU_ABSENT, UD_PMU_RESTRICTED };

struct ud_counters;

/* Where a counter is opened: perf_event_open's pid (-1: every task) and CPU (-1: wherever the task runs). */
struct ud_count_slot {
	pid_t pid;
	int cpu;
};

/*
 * Opens every event in ev[0..n) for pid (0 = this process), disabled until
 * enabled or until exec.  Events that cannot be opened are remembered with
 * their reason and read back as UD_NOT_SUPPORTED; tool events (events.h)
 * open nothing.  Returns NULL only when out of memory.
 * The caller frees the set with ud_counters_close().
 */
struct ud_counters *ud_counters_open(const struct ud_event *ev, size_t n, pid_t pid, unsigned flags);
/* The same at each of slots[0..nslots) (nslots >= 1). */
struct ud_counters *ud_counters_open_slots(const struct ud_event *ev, size_t n, const struct ud_count_slot *slots,
					   size_t nslots, unsigned flags);
/*
 * Room for n more descriptors (counters at many slots: -a --per-thread
 * opens one an event a thread): the soft RLIMIT_NOFILE raised to the hard
 * one where it is short, as perf's rlimit__increase_nofile(); -1 with err
 * when even that is not enough.
 */
int ud_counters_make_room(size_t n, struct ud_err *err);
/*
 * Whether the kernel takes ev's --filter (ev->filter set): ev opened on
 * this process, disabled, the filter set and the counter closed, so that a
 * filter it refuses is refused before anything runs.  -1 with err then; 0
 * where it takes it, or where ev does not open at all (its counter will say
 * why).
 */
int ud_counting_check_filter(const struct ud_event *ev, struct ud_err *err);
/* How many counters the kernel accepted, over every slot. */
size_t ud_counters_opened(const struct ud_counters *set);
int ud_counters_enable(struct ud_counters *set, struct ud_err *err);
int ud_counters_disable(struct ud_counters *set, struct ud_err *err);
int ud_counters_reset(struct ud_counters *set, struct ud_err *err);
/*
 * Event i alone on or off at every slot, perf's `enable NAME` (--control):
 * no PERF_IOC_FLAG_GROUP, so a member switched on counts only while its
 * leader does too, as in perf.
 */
int ud_counters_switch_event(struct ud_counters *set, size_t i, bool on, struct ud_err *err);
/* Fills out[0..n), one per event in the order given, each summed over the slots as perf aggregates. */
int ud_counters_read(struct ud_counters *set, struct ud_count *out, struct ud_err *err);
/* Fills out[i * nslots + s] with event i at slot s. */
int ud_counters_read_slots(struct ud_counters *set, struct ud_count *out, struct ud_err *err);
void ud_counters_close(struct ud_counters *set);

/* Sets c's times, raw value, scaled value and status from one reading. */
void ud_count_scale(struct ud_count *c, uint64_t raw, uint64_t enabled_ns, uint64_t running_ns);

/*
 * Sums per-slot counts (in[i * nslots + s]) into aggregates (out[i * naggr
 * + a]), slot s into aggregate of[s], as perf does for a core, a socket or
 * the whole: raw values and times added, then scaled.  An aggregate is
 * counted where any of its slots counted; else it takes the first slot's
 * status and reason.
 */
void ud_counts_aggregate(const struct ud_count *in, size_t n, size_t nslots, const size_t *of, size_t naggr,
			 struct ud_count *out);
/* What was counted between two readings of one set, as perf's -I prints it: raw values and times subtracted, then scaled. */
void ud_counts_delta(const struct ud_count *now, const struct ud_count *before, size_t n, struct ud_count *out);
/* What perf's tool events read (events.h enum ud_tool_event), in ns. */
struct ud_tool_times {
	uint64_t elapsed_ns;   /* duration_time: the time counted over */
	uint64_t user_ns;      /* user_time: the command's user CPU time, wait4()'s rusage (it and its reaped children) */
	uint64_t sys_ns;       /* system_time: its system CPU time */
	const char *no_rusage; /* why user_time and system_time are not counted (no command, or not yet ended); NULL: they are */
};

/* Every tool event of ev[0..n) becomes what t says. */
void ud_counts_set_tools(const struct ud_event *ev, struct ud_count *out, size_t n, const struct ud_tool_times *t);

/*
 * Some hypervisors accept hardware events and never count them (rr#3510): a
 * 0 over a millisecond or more of running, for an event that any work
 * advances (cycles, instructions), gives it away.  Then every hardware
 * counter of the set that read 0 becomes UD_NOT_COUNTED with that reason.
 * ud_counters_read() applies it to each set it reads; applied again to the
 * readings of several sets merged (one run per group, --exact), the zeros it
 * flagged in one set give away the zeros of the others.
 */
void ud_counts_flag_untrusted(const struct ud_event *ev, struct ud_count *out, size_t n);

/*
 * Whether this process can count hardware events: opens and closes one
 * instructions counter.  Fills reason (may be NULL) with words for a user.
 * Returns a static string.
 */
enum ud_pmu_state ud_pmu_probe(char *reason, size_t len);
const char *ud_pmu_state_name(enum ud_pmu_state s);

/* /proc/sys/kernel/perf_event_paranoid, or INT_MIN when unreadable. */
int ud_perf_event_paranoid(void);

/*
 * Whether this process may count user mode only: a task-clock counting
 * the kernel too is refused (EACCES, EPERM) while one excluding it opens,
 * as for an ordinary user at perf_event_paranoid=2, Debian's default.
 * Probed once per process.
 */
bool ud_counting_user_only(void);

#endif
