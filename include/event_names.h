/*
 * event_names.h - perf's generic event names and their aliases.
 *
 * Portable knowledge: which names are generic (SPEC §2) and what each alias
 * ("cpu-cycles", "cs", "faults") stands for.  How the kernel encodes them
 * is the Linux part's job (events.h).  The importers need only this.
 */
#ifndef UD_EVENT_NAMES_H
#define UD_EVENT_NAMES_H

#include <stddef.h>

/* The canonical generic name for name or one of its aliases ("cpu-cycles"), else NULL. */
const char *ud_event_generic_name(const char *name);

/* The i-th canonical generic name, NULL past the last: every one has an encoding in events.c. */
const char *ud_event_generic_name_at(size_t i);

#endif
