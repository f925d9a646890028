/*
 * teach_labs.h - running the teaching labs on this host: each times its
 * kernels (kernels.h) at a series of points and, where the host has a PMU,
 * counts what explains the time (mispredicts per element, L1d misses per
 * load, IPC) in this process around the timed region (counting.h).  A
 * counter the host cannot count is left NAN and the lab says why: nothing
 * is estimated in its place.
 *
 * Each point is timed at a calibrated repetition count several times and
 * the fastest kept, on the thread's CPU clock: interference from other
 * processes only adds time, and time spent waiting for a CPU is not
 * counted at all.  Around each point the host is watched as `run` watches
 * a sample (rounds.h): the share of a CPU the thread got, steal time,
 * load average, and the spread of the point's timed runs make the lab's
 * noise record and its warnings (noise.h).
 *
 * Ownership: the result's points are the caller's (ud_lab_result_free()).
 */
#ifndef UD_TEACH_LABS_H
#define UD_TEACH_LABS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "events.h"
#include "teach.h"

/* The counters a lab reads, planned by the caller (measure.h's ud_measure_plan()). */
#define UD_TEACH_EVENTS "cycles,instructions,branch-misses,L1-dcache-load-misses"

struct ud_teach_opts {
	struct ud_cache_kb caches;      /* this host's, from sysfs (KB; 0 unknown) */
	double mem_avail_kb;            /* free memory (0 unknown): the cache lab uses at most a quarter */
	bool quick;                     /* tiny sizes and timings: proves the labs run, shows nothing */
	unsigned fail_labs;             /* for tests only: these labs (1 << lab) fail as out of memory would */
	const struct ud_event *ev;      /* UD_TEACH_EVENTS, planned */
	size_t nev;
	/* called before each point; may be NULL */
	void (*progress)(void *arg, enum ud_lab lab, size_t step, size_t steps);
	void *progress_arg;
};

/*
 * Runs lab and fills r (initialized here) with its points, counters' status,
 * wall time and noise, then judges it (ud_lab_judge()).  Returns 0, or -1 with err
 * when out of memory: then r is the failed lab (r->failed the reason, no
 * points, not shown), to be reported beside the others.
 */
int ud_teach_run(enum ud_lab lab, const struct ud_teach_opts *o, struct ud_lab_result *r, struct ud_err *err);

/* MemAvailable from /proc/meminfo in KB (sysinfo()'s free RAM where absent), 0 when neither answers. */
double ud_teach_mem_available_kb(void);

#endif
