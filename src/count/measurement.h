/*
 * measurement.h - a measurement as `stat` and `run` both set it up: this
 * host's event table detected and read where the events need it, the
 * events planned (the -e list or the defaults, -d's, the top-down
 * groups), the sampler chosen where hotspots are asked for, and the
 * records it wrote turned into hotspots.
 *
 * measure.h is the pipeline's steps; this is what a command holds around
 * them, written once so that the two commands cannot drift apart.  It
 * lives with the counting engine because that is what it plans for; it
 * calls the hotspots stage only to name the samples' symbols.
 *
 * Nothing here prints: what a measurement goes on without (no sampling
 * event, a user who may count user mode only, an unknown event counted as
 * not_supported) is handed to the command's notice callback as one line,
 * for it to say as it says everything else.
 *
 * Ownership: a struct ud_measurement owns its tables, its plan and the event
 * encoder's state, all freed by ud_measurement_free().
 */
#ifndef UD_MEASUREMENT_H
#define UD_MEASUREMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "cgroups.h"
#include "error.h"
#include "events.h"
#include "hotspots.h"
#include "launch.h"
#include "measure.h"
#include "profile.h"
#include "sampler.h"
#include "uarch.h"

/* Told of what a measurement goes on without: one line, to say and carry on. */
typedef void (*ud_notice_fn)(void *ctx, const char *msg);

/* What a command asks to be counted, and how strictly. */
struct ud_measurement_opts {
	bool nothing;         /* stat -n: no event at all, the elapsed time only (the rest is not read) */
	const char *events;   /* -e's comma-joined list; NULL: the default events */
	/* stat's -e with its --filter's, whose filters the list's events take (borrowed; NULL: none) */
	const struct ud_event_request *request;
	bool one_group;       /* stat -g: the list (or the defaults) and -d's events in one group (measure.h) */
	const char *metrics;  /* stat -M: metric names the table must define; they count as topdown; NULL none */
	int detailed;         /* stat -d's level, 0 to 3 */
	bool topdown;         /* this host's top-down groups besides */
	bool td_asked;        /* stat --td-level given: td_level (perf's, 0 the deepest) must be the table's; topdown too */
	long td_level;
	char mode;            /* stat --all-user 'u', --all-kernel 'k': every event in that mode only; 0 as asked */
	bool hotspots;        /* sample too: the sampler chosen, the counter it holds kept out of the groups */
	/*
	 * An unknown event name fails the plan (stat: perf refuses a typo before
	 * anything runs); without it the name is counted not_supported and each
	 * one noticed (run: the rest of a long suite is still worth measuring).
	 */
	bool refuse_unknown;
	/* Notice once that perf_event_paranoid lets this user count user mode only (run: its profile is compared). */
	bool say_user_only;
	/* What goes on when no sampling event opens, for that notice: "counting", "measuring". */
	const char *without_hotspots;
	const struct ud_cgroups *cgroups; /* stat -G, --for-each-cgroup: the plan's events marked or repeated so; NULL none */
	ud_notice_fn notice;  /* may be NULL: nothing said */
	void *ctx;
};

struct ud_measurement {
	struct ud_uarch_db db;             /* every table, where ud_measurement_detect() loaded them; else empty */
	struct ud_uarch host;              /* this host's table alone, where a plan needed one and db was not loaded */
	const struct ud_uarch *u;          /* this host's table (borrowed from db or host); NULL while none is needed */
	struct ud_event *ev;               /* the plan, nev events; NULL before ud_measurement_plan() */
	size_t nev;
	bool topdown;                      /* the top-down groups are planned (asked for, or through -M) */
	bool sampled;                      /* hotspots are measured, with sampler */
	struct ud_sampler_config sampler;
};

/*
 * Loads every event table and detects this host's (m zeroed first): what a
 * profile's host facts name the core with.  -1 with err.  Without it, a
 * plan reads this host's table alone, and only where its events need one.
 */
int ud_measurement_detect(struct ud_measurement *m, struct ud_err *err);

/*
 * Plans o's events for this host's table, read first where they need one
 * (m zeroed first, or detected): the defaults, -d's, -M's and top-down's
 * always, a -e list's where one of its events is hardware (the table
 * encodes the generic names and holds the counters the groups fit in) or
 * unknown (the suggestions name its libpfm4 events); software events and
 * tracepoints never.  -M's names checked, the sampler chosen
 * (none opening is noticed and the plan goes on without it), the groups
 * planned around the counter it holds, and the unknown names refused or
 * noticed as o says.  -1 with err: a metric the table does not define, an
 * empty name, an unknown one under refuse_unknown ("unknown event 'cyles'
 * (did you mean 'cycles'?): nothing was run"), a --filter on an event that
 * is no tracepoint, or out of memory.
 */
int ud_measurement_plan(struct ud_measurement *m, const struct ud_measurement_opts *o, struct ud_err *err);

/*
 * Whether the kernel takes each --filter of m's plan, tried on a counter
 * opened and closed for it: -1 with err at the first one it refuses.  Apart
 * from the plan because perf tells the two failures apart: a filter without
 * a tracepoint is a usage error (129), one the kernel refuses a failure of
 * the counting's setup (255).
 */
int ud_measurement_check_filters(const struct ud_measurement *m, struct ud_err *err);

/* The sampler's configuration where hotspots are measured, else NULL (borrowed from m). */
const struct ud_sampler_config *ud_measurement_sampler(const struct ud_measurement *m);

/*
 * The hotspots of the record stream records[0..len) that m's sampler wrote,
 * its symbols named (symbols.h).  A new set the caller frees with
 * ud_hotspots_free(); NULL with err when out of memory.
 */
struct ud_hotspots *ud_measurement_hotspots(const struct ud_measurement *m, const void *records, size_t len,
					    struct ud_err *err);

/*
 * ud_measure_stat() of m's plan (ms->session's own sampling is ignored):
 * where m samples, the command is sampled from its exec as well and w
 * gets its hotspots.  Returns what ud_measure_stat() does; failing to keep
 * or name the samples is UD_LAUNCH_SYSTEM.
 */
int ud_measurement_stat(const struct ud_measurement *m, const struct ud_measure_stat *ms, struct ud_workload *w,
			struct ud_workload *const *aggr, struct ud_launch_result *last, struct ud_err *err);

/* Frees m's plan and table, and the event encoder's state that planning started. */
void ud_measurement_free(struct ud_measurement *m);

#endif
