/*
 * counter_class.c - the names of the counter classes (counter_class.h),
 * the one table of them.
 */
#include <string.h>

#include "counter_class.h"

static const struct {
	const char *name;
	bool core, miss, stall;
} classes[UD_CLASS_COUNT] = {
	[UD_CLASS_OTHER] = { "other", true, false, false },
	[UD_CLASS_CYCLES] = { "cycles", true, false, false },
	[UD_CLASS_REF_CYCLES] = { "ref-cycles", true, false, false },
	[UD_CLASS_INSTRUCTIONS] = { "instructions", true, false, false },
	[UD_CLASS_UOPS] = { "uops", true, false, false },
	[UD_CLASS_BRANCHES] = { "branches", true, false, false },
	[UD_CLASS_BRANCH_MISSES] = { "branch-misses", true, true, false },
	[UD_CLASS_RETURNS] = { "returns", true, false, false },
	[UD_CLASS_RETURN_MISPREDICTS] = { "return-mispredicts", true, true, false },
	[UD_CLASS_L1D_ACCESS] = { "l1d-access", true, false, false },
	[UD_CLASS_L1D_MISS] = { "l1d-miss", true, true, false },
	[UD_CLASS_L1I_ACCESS] = { "l1i-access", true, false, false },
	[UD_CLASS_L1I_MISS] = { "l1i-miss", true, true, false },
	[UD_CLASS_L2_ACCESS] = { "l2-access", true, false, false },
	[UD_CLASS_L2_MISS] = { "l2-miss", true, true, false },
	[UD_CLASS_LLC_ACCESS] = { "llc-access", true, false, false },
	[UD_CLASS_LLC_MISS] = { "llc-miss", true, true, false },
	[UD_CLASS_CACHE_ACCESS] = { "cache-access", true, false, false },
	[UD_CLASS_CACHE_MISS] = { "cache-miss", true, true, false },
	[UD_CLASS_PREFETCH] = { "prefetch", true, false, false },
	[UD_CLASS_TLB_ACCESS] = { "tlb-access", true, false, false },
	[UD_CLASS_TLB_MISS] = { "tlb-miss", true, true, false },
	[UD_CLASS_DTLB_ACCESS] = { "dtlb-access", true, false, false },
	[UD_CLASS_DTLB_MISS] = { "dtlb-miss", true, true, false },
	[UD_CLASS_ITLB_ACCESS] = { "itlb-access", true, false, false },
	[UD_CLASS_ITLB_MISS] = { "itlb-miss", true, true, false },
	[UD_CLASS_STALL_FRONTEND] = { "stall-frontend", true, false, true },
	[UD_CLASS_STALL_BACKEND] = { "stall-backend", true, false, true },
	[UD_CLASS_STALL_OTHER] = { "stall-other", true, false, true },
	[UD_CLASS_SLOTS] = { "slots", true, false, false },
	[UD_CLASS_TOPDOWN] = { "topdown", true, false, false },
	[UD_CLASS_SOFTWARE] = { "software", false, false, false },
	[UD_CLASS_UNCORE] = { "uncore", false, false, false },
};

const char *ud_counter_class_name(enum ud_counter_class c)
{
	return classes[c].name;
}

int ud_counter_class_from_name(const char *name, enum ud_counter_class *out)
{
	for (int c = 0; c < UD_CLASS_COUNT; c++)
		if (strcmp(name, classes[c].name) == 0)
			return *out = (enum ud_counter_class)c, 0;
	return -1;
}

bool ud_counter_class_is_core(enum ud_counter_class c)
{
	return classes[c].core;
}

bool ud_counter_class_is_miss(enum ud_counter_class c)
{
	return classes[c].miss;
}

bool ud_counter_class_is_stall(enum ud_counter_class c)
{
	return classes[c].stall;
}
