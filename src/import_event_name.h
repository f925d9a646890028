/*
 * import_event_name.h - the name a counter of a perf paste gets in the
 * profile.
 */
#ifndef UD_IMPORT_EVENT_NAME_H
#define UD_IMPORT_EVENT_NAME_H

#include <stddef.h>

/*
 * perf's spelling of an event as a generic name where it means the same:
 * aliases (cpu-cycles), PMU prefixes (cpu_core/cycles/, armv8_pmuv3_0/cpu_cycles/),
 * host/guest modifiers (:HG).  Modifiers that change the meaning (:u, :k)
 * stay; an event with terms (cpu/event=0x3c/) stays as printed.  Writes
 * into out.
 */
void normalize_event(const char *in, char *out, size_t len);

#endif
