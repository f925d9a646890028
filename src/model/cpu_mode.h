/*
 * cpu_mode.h - the privilege level CPU time or a sample belongs to, named
 * once for the profile (hotspots) and the diff (time split); and which
 * levels a counter counted, read from perf's modifiers on its name.
 */
#ifndef UD_CPU_MODE_H
#define UD_CPU_MODE_H

#include <stdbool.h>

enum ud_mode { UD_MODE_USER, UD_MODE_KERNEL, UD_MODE_COUNT };

/* "user", "kernel": the JSON key and value.  Returns a static string. */
const char *ud_mode_name(enum ud_mode m);
/* 0 with *out set, or -1 for another name. */
int ud_mode_from_name(const char *name, enum ud_mode *out);

/*
 * What a counter counted, as its name's modifiers say ("cycles:u",
 * "cpu_core/cycles:k", "cpu/event=0x3c/uk"): user and kernel both true for
 * every privilege level (no u, k or h modifier, or :uk), host and guest
 * both true unless :H or :G stands alone.  Precision (:p, :ppp), pinning
 * (:D) and the other modifiers change no mode.
 */
struct ud_counted_modes {
	bool user, kernel;
	bool host, guest;
};

struct ud_counted_modes ud_counted_modes_of(const char *counter_name);
/*
 * The privilege levels in words: "all", "user", "kernel", or "none" (a
 * :h-only count, the hypervisor's).  Returns a static string.
 */
const char *ud_counted_levels_name(struct ud_counted_modes m);
/*
 * A counter's counting mode (SPEC §5.3 "mode"), the one word for its
 * counted modes: all (every privilege level, host and guest), user,
 * kernel, or, counted in every privilege level but one context, guest or
 * host; hypervisor for a count of :h alone.  The modifiers on the counter's
 * name say the rest (a user-mode count of the host alone reads "user").
 */
enum ud_counting {
	UD_COUNTING_ALL,
	UD_COUNTING_USER,
	UD_COUNTING_KERNEL,
	UD_COUNTING_GUEST,
	UD_COUNTING_HOST,
	UD_COUNTING_HYPERVISOR,
	UD_COUNTING_COUNT
};

enum ud_counting ud_counting_of(struct ud_counted_modes m);
/* "all", "user", ...: the JSON value; and back (0, or -1 for another word).  The name is static. */
const char *ud_counting_name(enum ud_counting c);
int ud_counting_from_name(const char *name, enum ud_counting *out);

/*
 * Where perf's modifiers start in an event name (borrowed: a pointer into
 * name, past its ':' or its PMU's closing '/'), or NULL when it has none.
 */
const char *ud_event_modifiers(const char *name);

#endif
