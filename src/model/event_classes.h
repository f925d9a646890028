/*
 * event_classes.h - the cited tables behind event_id.c's classes: vendors'
 * event names, and each architecture's architected event codes.  Data
 * only; event_id.h is the face.
 */
#ifndef UD_EVENT_CLASSES_H
#define UD_EVENT_CLASSES_H

#include <stdbool.h>

#include "counter_class.h"
#include "event_id.h"

struct ud_event_class {
	const char *pattern;          /* a name, case ignored; a trailing '*' matches any rest */
	enum ud_counter_class cls;
	const char *source;
};

/* The row of a vendor's event name (exact names before patterns), or NULL.  The row is static. */
const struct ud_event_class *ud_event_class_by_name(const char *name);

/*
 * The row of a raw event code (and x86 unit mask; -1 none given) on arch,
 * or NULL.  On x86 with the vendor unknown, a code only where Intel's and
 * AMD's rows agree.  The row is static.
 */
const struct ud_event_class *ud_event_class_by_code(enum ud_event_arch arch, long long code, int umask);

/* perf's software PMUs (software, tracepoint, breakpoint, kprobe, uprobe): their counters are software's. */
bool ud_event_pmu_is_software(const char *pmu);

#endif
