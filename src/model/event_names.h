/*
 * event_names.h - perf's generic event names and their aliases, without the
 * kernel encodings behind them.
 *
 * Portable on purpose: the importers name the counters of a perf paste the
 * way the counting engine names what it opened ("cpu-cycles" and "cycles" are
 * one counter), on any system and without <linux/perf_event.h>.  The
 * counting engine's encodings (src/uarch/events.c) are keyed by these names.
 */
#ifndef UD_EVENT_NAMES_H
#define UD_EVENT_NAMES_H

#include <stddef.h>

#include "counter_class.h"

/*
 * The canonical generic name for name or one of its aliases ("cpu-cycles" ->
 * "cycles"), else NULL.  The name is static.
 */
const char *ud_generic_event_name(const char *name);

/* What the canonical generic name counts (other for a name that is none). */
enum ud_counter_class ud_generic_event_class(const char *name);

/* The i-th canonical generic name, NULL past the last: every one has an encoding in events.c.  The name is static. */
const char *ud_generic_event_name_at(size_t i);

/*
 * One event asked for again is counted again, its k-th counter named
 * "NAME#k" (k >= 2) so that a profile's counter names stay unique; it
 * stands for no class (event_id.h: an unknown name), the first being the
 * count of its class.  The length of NAME, the name perf prints for it
 * (strlen(name) for a name with no such suffix).
 */
size_t ud_event_repeat_base_len(const char *name);

#endif
