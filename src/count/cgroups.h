/*
 * cgroups.h - perf stat's -G (--cgroup) and --for-each-cgroup: events
 * counted only while a task of a cgroup runs, on the CPUs that -a or -C
 * name.  perf_event_open takes the cgroup directory's descriptor as its
 * pid, with PERF_FLAG_PID_CGROUP (counting.c opens it so).
 *
 * The rules are perf 6.1's (tools/perf/util/cgroup.c):
 *  - the hierarchy is the one with the perf_event controller: a cgroup v1
 *    mount that lists it, else the cgroup2 mount (tools/lib/api/fs/
 *    cgroup.c, cgroupfs_find_mountpoint()); a name is a path under it;
 *  - -G pairs names with events by position over the whole command line:
 *    the k-th name given, counting every -G's names and empty ones
 *    ("-G a,,b"), goes with the k-th event (parse_cgroups()'s nr_cgroups),
 *    which must have been given (-e) before it; a -G with exactly one name
 *    in all goes with every event given so far ("one cgroup combine to
 *    multiple events");
 *  - --for-each-cgroup counts every event once per cgroup, cgroup by
 *    cgroup (evlist__expand_cgroup()): names given once each, an empty one
 *    the root "/"; a name with a regular expression's characters
 *    ({}[]()|*+?^$) matches every cgroup of the hierarchy whose path does,
 *    the empty one then the root, named "".
 *
 * Ownership: a struct ud_cgroups owns its names and descriptors, freed by
 * ud_cgroups_free(); the events ud_cgroups_apply() marks borrow them.
 */
#ifndef UD_CGROUPS_H
#define UD_CGROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "events.h"

struct ud_cgroup {
	char *name; /* as given, or the path under the hierarchy a pattern matched */
	int fd;     /* its directory, opened read-only */
};

struct ud_cgroups {
	const char *mounts;   /* the mount table read: NULL, /proc/mounts (tests name their own) */
	struct ud_cgroup *set; /* each cgroup opened once, in the order first named */
	size_t n;
	int *of;              /* -G: the cgroup (index into set) of the -e list's event i; -1 none */
	size_t nof;
	size_t given;         /* perf's nr_cgroups: the names -G took so far, empty ones too */
	bool each;            /* --for-each-cgroup: every event counted in each of set[0..n) */
};

/*
 * The perf_event hierarchy's mount point into buf, found as perf finds it
 * in mounts (a /proc/mounts text; NULL for this system's).  -1 with err
 * when none is mounted.
 */
int ud_cgroup_mountpoint(const char *mounts, char *buf, size_t len, struct ud_err *err);

/*
 * -G names (comma-separated) paired with the events of events (the -e
 * list so far; NULL none), each cgroup opened.  -1 with err, as perf
 * refuses it: no event given yet ("must define events before cgroups"),
 * more names than events, a cgroup that cannot be opened ("no access to
 * cgroup PATH").
 */
int ud_cgroups_pair(struct ud_cgroups *cg, const char *names, const char *events, struct ud_err *err);

/* --for-each-cgroup's names (comma-separated), each opened; -1 with err for one that cannot be, or a pattern that matches none. */
int ud_cgroups_each(struct ud_cgroups *cg, const char *names, struct ud_err *err);

/* Whether -G or --for-each-cgroup was given: perf then prints a cgroup column, empty for an event without one. */
bool ud_cgroups_used(const struct ud_cgroups *cg);

/*
 * Marks the plan's events with their cgroups: with -G, the -e list's
 * events (the plan's first, in the order given), the events of a group
 * the planner made apart where -G put them in different cgroups (the
 * kernel counts a group in one cgroup); with --for-each-cgroup,
 * the plan *ev[0..*n) repeated once per cgroup, each copy's groups its
 * own and its names numbered as repeats are ("cycles#2", event_names.h).
 * -1 with err when out of memory (the plan is then freed).
 */
int ud_cgroups_apply(const struct ud_cgroups *cg, struct ud_event **ev, size_t *n, struct ud_err *err);

void ud_cgroups_free(struct ud_cgroups *cg);

#endif
