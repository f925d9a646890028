/*
 * event_id.h - one counter's identity, read from any spelling perf prints
 * or takes (SPEC §5.3): the PMU it was counted on, the event, the
 * modifiers that change what it counts, its counting mode and its class.
 *
 * perf's event grammar (tools/perf/util/parse-events.l and .y) for one
 * event: a name with modifiers ("cycles:u", "TOPDOWN.SLOTS:u",
 * "PM_RUN_CYC"), a PMU's named event ("cpu_core/cycles/u",
 * "apple_firestorm_pmu/cycles/u", "armv8_pmuv3_0/br_mis_pred/"), a PMU's
 * terms ("cpu/event=0xc9,umask=0/k"), a raw code ("r00c4:u"), a tracepoint
 * ("sched:sched_switch"), a group's braces around one name.  Nothing is
 * refused: what the grammar does not know stays a named event of class
 * other, compared by its name.
 *
 * A class comes from what the name says on any host: perf's generic names,
 * a cited table of vendors' names (Intel's, AMD's, Arm PMUv3's common
 * events, IBM POWER's PM_*), and for a raw code the architecture's
 * architected events (Intel's architectural events, AMD's core events
 * common to families 17h-1Ah, Arm's common event numbers).  The host's own
 * event table can say more (uarch.h's ud_uarch_classify_counters()).
 *
 * Plain values: no pointers but to static text.
 */
#ifndef UD_EVENT_ID_H
#define UD_EVENT_ID_H

#include <stdbool.h>
#include <stddef.h>

#include "counter_class.h"
#include "cpu_mode.h"

#define UD_EVENT_ID_PMU 48
#define UD_EVENT_ID_EVENT 128
#define UD_EVENT_ID_MODS 16

enum ud_event_kind {
	UD_EVENT_NAMED,      /* a generic name, a vendor's name, a PMU's named event */
	UD_EVENT_RAW,        /* rNNNN: a raw code of the core's PMU */
	UD_EVENT_TERMS,      /* pmu/event=0x..,umask=0x../ */
	UD_EVENT_TRACEPOINT, /* subsystem:name */
};

/* The instruction set and vendor whose architected events a raw code is read against. */
enum ud_event_arch {
	UD_ARCH_UNKNOWN,
	UD_ARCH_X86,         /* x86, vendor unknown: only what Intel and AMD agree on */
	UD_ARCH_X86_INTEL,
	UD_ARCH_X86_AMD,
	UD_ARCH_ARM,
	UD_ARCH_POWER,
	UD_ARCH_RISCV,
};

struct ud_event_id {
	char pmu[UD_EVENT_ID_PMU];       /* "cpu_core", "armv8_pmuv3_0", "cpu"; "" none printed */
	/*
	 * The event: perf's generic name where it is one (aliases and Arm
	 * PMUv3's names of the same events resolved: "cpu-cycles", "cpu_cycles"
	 * -> "cycles"), else as printed ("PM_RUN_CYC", "r00c4",
	 * "event=0xc9,umask=0" for terms, "sched:sched_switch")
	 */
	char event[UD_EVENT_ID_EVENT];
	/*
	 * The modifiers that change what is counted, as printed: privilege
	 * levels (u, k, h; none when u and k stand together without h), host or
	 * guest alone (H, G; both together are neither), I (idle excluded) and R
	 * (retire latency).  Precision, pinning, grouping and sampling letters
	 * count the same events and are dropped, so that "cycles:pp" and
	 * "cycles" are one counter.
	 */
	char mods[UD_EVENT_ID_MODS];
	enum ud_event_kind kind;
	bool generic;                    /* event is one of perf's generic names (event_names.h) */
	long long code;                  /* raw and terms: the event code (x86 event select, Arm event number); -1 unknown */
	int umask;                       /* raw and terms on x86: the unit mask; -1 none given */
	struct ud_counted_modes levels;
	enum ud_counting mode;
	enum ud_counter_class cls;
	const char *class_source;        /* static: where the class was read ("perf's generic name", a table's source) */
};

/* Reads spelling into *id (class other until classified).  Never fails. */
void ud_event_id_parse(const char *spelling, struct ud_event_id *id);

/* The architecture of a host from its facts (either may be NULL): x86 vendors by vendor_id, the rest by ISA. */
enum ud_event_arch ud_event_arch_of(const char *vendor, const char *isa);

/*
 * Sets id's class from its name, or for a raw code or terms from arch's
 * architected events (UD_ARCH_UNKNOWN: read from the PMU's name where it
 * says, armv8_* is Arm).  Leaves class other, and class_source NULL, where
 * nothing knows the event.
 */
void ud_event_id_classify(struct ud_event_id *id, enum ud_event_arch arch);

/*
 * The name a profile gives the counter, into buf: the event with its
 * modifiers ("cycles:u", "PM_RUN_CYC", "r00c4:k"), terms under their PMU
 * ("cpu/event=0xc9,umask=0/k"); with_pmu also keeps a named event's core
 * PMU ("cpu_core/cycles:u"), as a hybrid host's counters need.
 */
void ud_event_id_name(const struct ud_event_id *id, bool with_pmu, char *buf, size_t len);

/*
 * Parses and classifies in one: the class and mode of a counter named
 * name on a host of arch.  For readers of profiles that predate "class".
 */
void ud_event_classify_name(const char *name, enum ud_event_arch arch, enum ud_counter_class *cls,
			    enum ud_counting *mode);

#endif
