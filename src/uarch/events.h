/*
 * events.h - turning event names into perf_event_attr encodings.
 *
 * A name is resolved, in order, as: one of perf's generic names (SPEC §2),
 * which map onto the kernel's generic hardware and software events; a raw
 * code "rHEX"; perf's tool events duration_time, user_time and system_time
 * (the elapsed time, and the command's CPU time from its rusage: counted
 * by no kernel counter); a tracepoint "subsys:name" from tracefs; perf's PMU
 * syntax "pmu/term=value,.../" or a PMU's named event "msr/tsc/", from
 * /sys/bus/event_source/devices; or a vendor event that libpfm4 can encode
 * for this host's PMU (e.g. "ex_ret_brn_misp", "INST_RETIRED:ANY_P").  Each
 * may carry perf's modifiers (":u", "/u" after a PMU's terms): those that
 * change what a count counts are kept, the others refused with the reason,
 * none dropped.  A name none of these knows still yields a struct ud_event,
 * marked unknown with the reason, so that a caller decides: `stat` refuses it
 * before anything runs (ud_event_suggest() names the closest known names),
 * `run` reports it `not_supported`.
 *
 * The ud_event is a plain value: no pointers but to static strings and the
 * filter it borrows, nothing to free.
 */
#ifndef UD_EVENTS_H
#define UD_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "count_status.h"
#include "error.h"
#include "event_names.h"
#include "uarch.h"

#define UD_EVENT_NAME_MAX 96

/*
 * perf's tool events (tools/perf/util/evsel.c, perf_tool_event): no kernel
 * counter; whoever counts fills them in (counting.h ud_counts_set_tools()).
 * 0 is none, so that `if (ev->tool)` reads as "a tool event".
 */
enum ud_tool_event {
	UD_TOOL_NONE = 0,
	UD_TOOL_DURATION, /* duration_time: the time counted over */
	UD_TOOL_USER,     /* user_time: the command's user CPU time (its rusage) */
	UD_TOOL_SYSTEM,   /* system_time: its system CPU time */
};

struct ud_event {
	char name[UD_EVENT_NAME_MAX];         /* what the user asked for, modifiers in perf's order */
	struct perf_event_attr attr;          /* type, config, config1, config2, modifiers' bits */
	bool resolved;                        /* false: attr is unused, see reason */
	bool hardware;                        /* needs the CPU's PMU: planned into its counter groups */
	/*
	 * Work of any kind retires instructions and takes cycles: a reading of
	 * 0 for such an event over milliseconds of running means the counter
	 * is not really counting (hypervisors that accept and ignore it).
	 */
	bool ticks_with_work;
	enum ud_tool_event tool;              /* a tool event: nothing is opened for it */
	/*
	 * The request's group is weak ({a,b}:W): where the kernel refuses one
	 * of its members in the group, the whole group is opened apart, each
	 * member on its own, as perf falls back (builtin-stat.c).
	 */
	bool weak_group;
	const char *opened_as;                /* "generic", "raw", "libpfm4", "tracepoint", "pmu", "tool"; NULL if unresolved */
	char vendor_event[UD_EVENT_NAME_MAX]; /* the vendor event behind the name, or "" */
	char semantics[16];                   /* "retired", "speculative", "cycles", or "" */
	char unit[16];                        /* perf's unit column: "msec", "ns", a sysfs event's unit; "" none */
	double scale;                         /* a count times scale is what perf prints in that unit */
	bool unknown;                         /* the request is wrong (no such name, modifier or term): a typo, not a refusal by the host */
	char reason[UD_REASON_MAX];           /* why it is unresolved */
	int group;                            /* counter group; -1 = on its own */
	/*
	 * The group the request asked for, in perf's {a,b} syntax on -e: kept
	 * whole by the planner, never split or carrying copies, and its members
	 * never opened apart when the kernel refuses one (unless it is weak,
	 * above).  -1: planned freely.
	 * A metric's events join a list the same way, as one requested group.
	 */
	int request_group;
	/*
	 * A later group's own copy of cycles or instructions ("cycles@g1"), so
	 * that each group's ratios are measured together: uarchdiff's row, not
	 * one perf prints.
	 */
	bool copy;
	/*
	 * stat --filter's tracepoint filter, set on the counter once it is open
	 * (PERF_EVENT_IOC_SET_FILTER); NULL: none.  Borrowed from the
	 * struct ud_event_request the plan came from, which outlives it.
	 */
	const char *filter;
	/*
	 * perf stat's -G and --for-each-cgroup: counted only while a task of
	 * this cgroup runs (perf_event_open's PERF_FLAG_PID_CGROUP, pid the
	 * cgroup directory's descriptor cgroup_fd), named as given; NULL for
	 * none.  Borrowed from the count stage's ud_cgroups, which outlives the
	 * plan.
	 */
	const char *cgroup;
	int cgroup_fd;
};

/* The events a profile counts when none are named (run, and stat --profile's analysis). */
extern const char *const ud_default_events[];
extern const size_t ud_default_events_count;

/*
 * perf stat's own defaults on this host, as a -e list the caller frees:
 * tools/perf/builtin-stat.c add_default_attributes() (perf 6.1):
 * task-clock (cpu-clock when counting CPUs), context-switches,
 * cpu-migrations, page-faults, cycles, stalled-cycles-frontend and -backend
 * only where the "cpu" PMU lists them, then instructions, branches,
 * branch-misses, and Intel's top-down group where it lists slots.
 * cpu_events: that PMU's events folder, UD_CPU_PMU_EVENTS on a live host.
 * NULL when out of memory.
 */
char *ud_perf_default_events(const char *cpu_events, bool count_cpus);

/* Where perf's pmu_have_event("cpu", NAME) looks for NAME. */
#define UD_CPU_PMU_EVENTS "/sys/bus/event_source/devices/cpu/events"

/*
 * perf stat's -d, -d -d and -d -d -d (tools/perf/builtin-stat.c,
 * add_default_attributes(): detailed_attrs, very_detailed_attrs,
 * very_very_detailed_attrs): the events level 1..3 adds, in perf's order,
 * into *n (0 for level 0).
 */
const char *const *ud_detailed_events(int level, size_t *n);

/* Resolves one name into *ev (group -1).  Never fails: see ev->resolved. */
void ud_event_resolve(const char *name, struct ud_event *ev);

/*
 * Resolves a name on a host of microarchitecture u (NULL: as above).  For a
 * generic name the table lists: libpfm4's encoding of the vendor event where
 * libpfm4 knows and detected this PMU, else the table's raw code; a name
 * the table marks unavailable is unresolved with the table's reason.  Names
 * the table does not list resolve as above (the kernel's generic events).
 */
void ud_event_resolve_for(const struct ud_uarch *u, const char *name, struct ud_event *ev);

/* Whether libpfm4 detected the named PMU on this host. */
bool ud_libpfm4_pmu_present(const char *pmu);

/*
 * The known name closest to an unknown one (text.h's ud_closest()), into
 * buf as "'cycles'": among the generic names, the tool events, tracepoints,
 * PMUs' named events, and libpfm4's events for u's PMU.  Returns false, buf
 * "", when none is near enough to be what was meant, or two are as near.
 */
bool ud_event_suggest(const char *name, const struct ud_uarch *u, char *buf, size_t len);

/*
 * Parses an event list in perf's syntax, "cycles,{instructions,branches}:u,
 * msr/tsc/,sched:sched_switch", and resolves each name for u (may be NULL)
 * into a new array that the caller frees with free().  A group's modifiers
 * join each member's own.  Returns the count, or 0 with err set for an empty
 * list, an empty name, a malformed group (unbalanced, nested or empty braces,
 * text after the closing one), an unclosed PMU term list, or a name too long.
 * A counter named again ("cycles,cpu-cycles", "{a,a}") is counted again,
 * each time under its own name: "cycles", "cycles#2" (event_names.h).
 * Unknown names are in the array, marked unknown.
 */
size_t ud_event_parse_list(const char *list, const struct ud_uarch *u, struct ud_event **out,
			   struct ud_err *err);
/*
 * How many events a list names, as ud_event_parse_list() would return
 * them, without resolving any (no table needed: perf stat's -G pairs
 * names with the events given before it, while the options are read).
 * 0 with err for a list it would refuse.
 */
size_t ud_event_list_length(const char *list, struct ud_err *err);

/*
 * perf stat's -e and --filter as they come on the command line, in order
 * (tools/perf/util/parse-events.c, parse_filter()): a filter belongs to
 * every event of the -e argument just before it, and another one for the
 * same argument joins it as "(first) && (second)".  Which events those are
 * is known once they are resolved: ud_event_request_apply_filters().
 */
struct ud_event_filter {
	size_t first, end; /* the list's events it filters, [first, end) in list order */
	char *text;        /* owned by the request */
};

struct ud_event_request {
	char *list;          /* the -e arguments comma-joined; NULL: none given (owned) */
	size_t nevents;      /* the names in list */
	size_t last_first;   /* where the last -e argument's names start */
	struct ud_event_filter *filters; /* owned */
	size_t nfilters;
};

/* Adds one -e argument; -1 with err for a malformed one (as ud_event_parse_list() words it). */
int ud_event_request_add(struct ud_event_request *r, const char *arg, struct ud_err *err);

/* Adds a --filter for the last -e argument's events; -1 with err when no -e came before it. */
int ud_event_request_filter(struct ud_event_request *r, const char *filter, struct ud_err *err);

/*
 * Sets each filter on its events, ev[0..n) being r's list in order (a plan
 * of it: ud_event_plan_groups() keeps the input first).  -1 with err where
 * one of those events is not a tracepoint: perf filters only tracepoints
 * (and HW tracers' addresses, which are not built here).
 */
int ud_event_request_apply_filters(const struct ud_event_request *r, struct ud_event *ev, size_t n, struct ud_err *err);

/* Frees what r holds and zeroes it. */
void ud_event_request_free(struct ud_event_request *r);

/*
 * Plans counter groups for ev[0..n): hardware events are split into groups
 * that fit the core's counters (programmable general-purpose ones, and fixed
 * ones that only cycles and instructions can use), so that a whole group can
 * always be scheduled.  Where cycles and instructions are requested and
 * more than one group is needed, every later group carries its own copies
 * of them, named "cycles@gN" and "instructions@gN", so that ratios inside a
 * group are exact and the drift between groups shows.  Software and
 * unresolved events get group -1.  Requested groups (ev->request_group) are
 * numbered after the planned ones, each kept as it was asked for.  Returns
 * a new array of *out_n events (the input in order, then the copies) that
 * the caller frees, or NULL.
 */
struct ud_event *ud_event_plan_groups(const struct ud_event *ev, size_t n, int programmable, int fixed,
				      size_t *out_n);

/*
 * Counts ev in user mode only (kernel: kernel mode only), whatever its own
 * u, k, h said, as perf stat's --all-user (--all-kernel) overrides them
 * (exclude_kernel and exclude_hv, or exclude_user, as :u or :k sets them),
 * and names it so: "cycles" -> "cycles:u", "cycles:kp" -> "cycles:up",
 * "cpu/event=0x3c/" -> "cpu/event=0x3c/u".  A tool event, which counts no
 * privilege level, is left as it is; so is a name with no room for the letter.
 */
void ud_event_force_mode(struct ud_event *ev, bool kernel);

/* The group count of a plan: 1 + the highest group number (0 when none). */
int ud_event_group_count(const struct ud_event *ev, size_t n);

/* Releases libpfm4's tables; resolving afterwards re-initialises them. */
void ud_events_cleanup(void);

#endif
