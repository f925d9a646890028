/*
 * counter_class.h - what a counter counts, whatever its name (SPEC §5.3
 * "class"): the one vocabulary in which the profile, the importers and the
 * diff speak of cycles, misses and stalls, so that `cycles`, `cpu_cycles`,
 * `PM_RUN_CYC`, `r003c` and `cpu_clk_unhalted.thread` are all cycles.
 *
 * The classes SPEC §5.3 lists, and these finer ones: ref-cycles (cycles at
 * a fixed reference rate, not the core's clock), uops (retired
 * micro-operations), returns (retired returns, the base of
 * return-mispredicts), l1i-access, l2-access, the d-side and i-side halves
 * of tlb-access and tlb-miss (dtlb-*, itlb-*: a data or an instruction
 * page walk stalls different halves of the pipeline), cache-access and
 * cache-miss (perf's cache-references and cache-misses, whose level is the
 * core's choice: the last level on Intel, L2 on AMD, L1d on Arm), prefetch,
 * and uncore (counters outside the cores: memory controllers, energy,
 * msr/tsc, which say nothing of a core's PMU).
 */
#ifndef UD_COUNTER_CLASS_H
#define UD_COUNTER_CLASS_H

#include <stdbool.h>

enum ud_counter_class {
	UD_CLASS_OTHER,            /* not known: compared and shown, never reasoned about */
	UD_CLASS_CYCLES,
	UD_CLASS_REF_CYCLES,
	UD_CLASS_INSTRUCTIONS,
	UD_CLASS_UOPS,
	UD_CLASS_BRANCHES,
	UD_CLASS_BRANCH_MISSES,
	UD_CLASS_RETURNS,
	UD_CLASS_RETURN_MISPREDICTS,
	UD_CLASS_L1D_ACCESS,
	UD_CLASS_L1D_MISS,
	UD_CLASS_L1I_ACCESS,
	UD_CLASS_L1I_MISS,
	UD_CLASS_L2_ACCESS,
	UD_CLASS_L2_MISS,
	UD_CLASS_LLC_ACCESS,
	UD_CLASS_LLC_MISS,
	UD_CLASS_CACHE_ACCESS,
	UD_CLASS_CACHE_MISS,
	UD_CLASS_PREFETCH,
	UD_CLASS_TLB_ACCESS,
	UD_CLASS_TLB_MISS,
	UD_CLASS_DTLB_ACCESS,
	UD_CLASS_DTLB_MISS,
	UD_CLASS_ITLB_ACCESS,
	UD_CLASS_ITLB_MISS,
	UD_CLASS_STALL_FRONTEND,   /* cycles (or slots) the frontend delivered nothing */
	UD_CLASS_STALL_BACKEND,    /* cycles the backend could take nothing */
	UD_CLASS_STALL_OTHER,      /* a named stall (PM_EXEC_STALL_TLBIE): its name says which */
	UD_CLASS_SLOTS,            /* the pipeline's issue slots (Intel slots, TOPDOWN.SLOTS) */
	UD_CLASS_TOPDOWN,          /* one top-down bucket in slots (topdown-be-bound) */
	UD_CLASS_SOFTWARE,         /* the kernel's software events, perf's tool events, tracepoints */
	UD_CLASS_UNCORE,
	UD_CLASS_COUNT
};

/* The JSON value ("l1d-miss"), and back (0, or -1 for a name no class has).  The name is static. */
const char *ud_counter_class_name(enum ud_counter_class c);
int ud_counter_class_from_name(const char *name, enum ud_counter_class *out);

/*
 * Whether a counter of class c was counted by a core's PMU: a counted one
 * is evidence that the host has one.  Unknown events count as evidence (a
 * raw code or a vendor event that counted is hardware); software events
 * and uncore counters do not.
 */
bool ud_counter_class_is_core(enum ud_counter_class c);

/* Whether c counts misses or mispredicts: events a penalty in cycles is charged for. */
bool ud_counter_class_is_miss(enum ud_counter_class c);

/* Whether c counts cycles (or slots) in which something stalled: already in the unit of time. */
bool ud_counter_class_is_stall(enum ud_counter_class c);

#endif
