/*
 * events.h - turning event names into perf_event_attr encodings.
 *
 * A name is resolved, in order, as: one of perf's generic names (SPEC §2),
 * which map onto the kernel's generic hardware and software events; a raw
 * code "rHEX"; or a vendor event that libpfm4 can encode for this host's PMU
 * (e.g. "ex_ret_brn_misp", "INST_RETIRED:ANY_P").  A name none of these knows
 * still yields a struct ud_event, marked unresolved with the reason, so that
 * the run goes on and the counter is reported `not_supported`.
 *
 * The ud_event is a plain value: no pointers, nothing to free.
 */
#ifndef UD_EVENTS_H
#define UD_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

#define UD_EVENT_NAME_MAX 96

struct ud_event {
	char name[UD_EVENT_NAME_MAX];         /* what the user asked for */
	struct perf_event_attr attr;          /* type, config, config1 */
	bool resolved;                        /* false: attr is unused, see reason */
	bool hardware;                        /* needs the CPU's PMU */
	/*
	 * Work of any kind retires instructions and takes cycles: a reading of
	 * 0 for such an event over milliseconds of running means the counter
	 * is not really counting (hypervisors that accept and ignore it).
	 */
	bool ticks_with_work;
	const char *opened_as;                /* "generic", "raw", "libpfm4"; NULL if unresolved */
	char vendor_event[UD_EVENT_NAME_MAX]; /* libpfm4's fully qualified name, or "" */
	char reason[160];                     /* why it is unresolved */
	int group;                            /* counter group; -1 = on its own */
};

/* The events `uarchdiff stat` counts when -e is not given. */
extern const char *const ud_default_events[];
extern const size_t ud_default_events_count;

/* Resolves one name into *ev (group -1).  Never fails: see ev->resolved. */
void ud_event_resolve(const char *name, struct ud_event *ev);

/*
 * Parses a comma-separated list ("cycles,instructions") into a new array
 * that the caller frees with free().  Returns the count, or 0 with err set
 * for an empty list or an empty name in it.
 */
size_t ud_event_parse_list(const char *list, struct ud_event **out, struct ud_err *err);

/*
 * Assigns hardware events to groups of at most max_per_group members in
 * order, so that events counted together are scheduled together; software
 * events stay on their own (they never multiplex).
 */
void ud_event_group(struct ud_event *ev, size_t n, int max_per_group);

/* Releases libpfm4's tables; resolving afterwards re-initialises them. */
void ud_events_cleanup(void);

#endif
