/*
 * events_priv.h - what the three parts of event resolution share:
 * events.c (names, modifiers, suggestions), event_list.c (perf's list and
 * group syntax, the group planner) and event_sysfs.c (tracepoints from
 * tracefs, PMUs from sysfs).  Not for use outside src/uarch but by tests.
 */
#ifndef UD_EVENTS_PRIV_H
#define UD_EVENTS_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "events.h"

/* Where the kernel lists its PMUs: a directory each, with type, format/ and events/. */
#define UD_PMU_DEVICES "/sys/bus/event_source/devices"

/*
 * How long name is without perf's modifiers (cpu_mode.h's
 * ud_event_modifiers() finds them): up to the ':' before them, or through
 * the '/' that closes a PMU's terms; strlen(name) when it has none.
 */
size_t ud_event_base_len(const char *name);

/* Sets ev resolved with a fresh attr of that type and config, unit "" and scale 1. */
void ud_event_init_attr(struct ud_event *ev, __u32 type, __u64 config);

/* Marks ev unknown (the request is wrong), with reason printf-style. */
void ud_event_set_unknown(struct ud_event *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A raw code ("r" and hex digits) too wide for a perf config: refused, never cut. */
bool ud_event_raw_overflows(const char *name);

/*
 * A tracepoint "subsys:name" found in tracefs (/sys/kernel/tracing, else
 * /sys/kernel/debug/tracing): resolves ev and returns true; false (ev
 * untouched) when the name is no tracepoint there.
 */
bool ud_sysfs_tracepoint(const char *name, struct ud_event *ev);

/*
 * True, with why filled, when name has a tracepoint's shape ("subsys:name")
 * but tracefs can be read in neither place, nor mounted: the reason an
 * unresolved name gets instead of "unknown event", which would send a user
 * hunting for a typo in a name that is right.
 */
bool ud_sysfs_tracefs_unreadable(const char *name, char *why, size_t len);

/*
 * perf's PMU syntax "pmu/terms/" (no modifiers): false when name has no
 * '/'; else true with ev resolved, or unknown with the reason (no such PMU,
 * an unknown term, a value its format cannot hold).  A term is config=,
 * config1=, config2=, a term of the PMU's format/ (a value, or 1 when none
 * is given), or a name in its events/, whose terms, unit and scale it takes.
 */
bool ud_sysfs_pmu_event(const char *name, struct ud_event *ev);

/*
 * Puts value into the attr field that a sysfs format file names
 * ("config:0-7,32-35": value's low bits into bits 0-7, the next four into
 * 32-35).  Returns 0, or -1 with why filled for a malformed format or a
 * value wider than its bits.
 */
int ud_pmu_format_place(const char *format, unsigned long long value, struct perf_event_attr *attr, char *why,
			size_t len);

/* Calls fn with every sysfs name a mistyped `like` might have meant: tracepoints for "a:b", PMU events for "a/b/". */
typedef void (*ud_name_fn)(const char *name, void *ctx);
void ud_sysfs_names(const char *like, ud_name_fn fn, void *ctx);

#endif
