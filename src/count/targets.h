/*
 * targets.h - what perf stat's -a, -C, -p and -t name: the online CPUs and
 * where each sits (socket, die, core, from sysfs topology), and the
 * threads of running processes (/proc).  Lists are perf's: "0-3,6" for
 * CPUs, "1234,1240" for processes or threads.
 *
 * Ownership: the arrays returned are the caller's to free().
 */
#ifndef UD_TARGETS_H
#define UD_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "counting.h"
#include "error.h"
#include "profile.h"


/*
 * Where a CPU sits (Documentation/ABI/stable/sysfs-devices-system-cpu,
 * topology/; the NUMA node whose node/nodeM/cpulist holds it); 0 where
 * sysfs does not say, as perf's cpu__get_node() and die_id's absence.
 */
struct ud_cpu_place {
	int socket, die, core, node;
};

/* The threads of processes pids[0..n) (/proc/PID/task), process by process. */
int ud_process_threads(const pid_t *pids, size_t n, pid_t **tids, size_t *ntids, struct ud_err *err);
/* Whether a process or thread still runs: /proc/TID there, and not a zombie. */
bool ud_task_alive(pid_t tid);

/* How perf stat folds its slots for printing: the whole, per CPU (-A), core, socket, thread, die or NUMA node. */
enum ud_aggr_mode { UD_AGGR_WHOLE, UD_AGGR_CPU, UD_AGGR_CORE, UD_AGGR_SOCKET, UD_AGGR_THREAD, UD_AGGR_DIE, UD_AGGR_NODE };

/*
 * One aggregate's name as perf prints it: "S0-D0-C1", "S0-D0", "S0" or
 * "N0" with its CPU count, a thread's comm with its id.
 */
struct ud_aggregate {
	char label[64];
	int number; /* the CPU (per CPU), the CPUs in it (core, die, socket, node), the thread id */
};

/* What a stat session counts, ready for launch.h and the report. */
struct ud_stat_target {
	enum ud_target_kind kind;
	int *ids;                   /* the CPUs, or the process or thread ids as given; NULL for a command */
	size_t nids;
	struct ud_count_slot *slots; /* one per CPU or thread; NULL for a command alone */
	size_t nslots;
	bool tasks;                 /* the slots are threads */
	bool all_threads;           /* every thread of the system (-a --per-thread): perf leaves out rows that count 0 */
	size_t command_slot;        /* the slot that counts the command (-a --per-thread), plus one; 0 none */
	size_t *aggr_of;            /* slot -> aggregate; NULL for the whole */
	struct ud_aggregate *aggr;
	size_t naggr;
	char words[192];            /* perf's header: "'system wide'", "'CPU(s) 0-1'", "process id '7'"; "" for a command */
};

/*
 * The slots and aggregates of a target: kind with its list (-C's CPUs,
 * -p's processes, -t's threads; NULL otherwise), folded as mode asks.
 * Per CPU, core, die, socket and node need CPUs; per thread needs tasks,
 * or -a, which counts every thread running now (/proc/PID/task/TID), as
 * perf's thread map of all tasks: -1 with err otherwise, or for a list
 * that names what is not there.
 */
int ud_stat_target_make(enum ud_target_kind kind, const char *list, enum ud_aggr_mode mode, struct ud_stat_target *t,
			struct ud_err *err);
/*
 * -a --per-thread with a command: a slot and row for the command (path,
 * as run), which is forked after the threads are listed; its row is named
 * as exec names the task.  Its thread id is set once forked
 * (ud_stat_target_set_command).
 */
int ud_stat_target_add_command(struct ud_stat_target *t, const char *path, struct ud_err *err);
void ud_stat_target_set_command(struct ud_stat_target *t, pid_t pid);
void ud_stat_target_free(struct ud_stat_target *t);

#endif
