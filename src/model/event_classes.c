/*
 * event_classes.c - what vendors' event names and architected event codes
 * count (event_classes.h), each row with its source.
 *
 * Names are perf's spellings: its JSON event lists print Intel's and AMD's
 * in lower case ("inst_retired.any"), the vendors' documents in upper case
 * ("INST_RETIRED.ANY"); case is ignored.  An event none of these rows names
 * keeps class other: compared by its name, never reasoned about.
 */
#include <string.h>
#include <strings.h>

#include "event_classes.h"

#define INTEL_JSON "Linux tools/perf/pmu-events/arch/x86/{skylakex,icelakex,sapphirerapids}/*.json, EventName "
#define AMD_JSON "Linux tools/perf/pmu-events/arch/x86/amdzen{1,2,3,4,5}/*.json, EventName "
#define ARM_COMMON "Arm PMUv3 common events (Arm ARM DDI 0487, 'Common event numbers'; Linux include/linux/perf/arm_pmuv3.h ARMV8_PMUV3_PERFCTR_"
#define POWER_JSON "Linux tools/perf/pmu-events/arch/powerpc/{power8,power9,power10}/*.json, EventName "
#define PERF_NAMES "perf's event names (tools/perf/util/parse-events.l, evsel.c evsel__hw_cache; arch/x86/events/intel/core.c topdown events): "

static const struct ud_event_class names[] = {
	/* perf's names beyond the generic ones of generic_events.def */
	{ "L1-dcache-stores", UD_CLASS_L1D_ACCESS, PERF_NAMES "L1-dcache-stores" },
	{ "L1-dcache-store-misses", UD_CLASS_L1D_MISS, PERF_NAMES "L1-dcache-store-misses" },
	{ "LLC-stores", UD_CLASS_LLC_ACCESS, PERF_NAMES "LLC-stores" },
	{ "LLC-store-misses", UD_CLASS_LLC_MISS, PERF_NAMES "LLC-store-misses" },
	{ "LLC-prefetches", UD_CLASS_PREFETCH, PERF_NAMES "LLC-prefetches" },
	{ "LLC-prefetch-misses", UD_CLASS_PREFETCH, PERF_NAMES "LLC-prefetch-misses" },
	{ "dTLB-stores", UD_CLASS_DTLB_ACCESS, PERF_NAMES "dTLB-stores" },
	{ "dTLB-store-misses", UD_CLASS_DTLB_MISS, PERF_NAMES "dTLB-store-misses" },
	{ "branch-loads", UD_CLASS_BRANCHES, PERF_NAMES "branch-loads" },
	{ "branch-load-misses", UD_CLASS_BRANCH_MISSES, PERF_NAMES "branch-load-misses" },
	{ "slots", UD_CLASS_SLOTS, PERF_NAMES "slots (Intel's fixed counter 3)" },
	{ "topdown-*", UD_CLASS_TOPDOWN, PERF_NAMES "topdown-retiring, -bad-spec, -fe-bound, -be-bound and level 2 (slots)" },
	{ "duration_time", UD_CLASS_SOFTWARE, PERF_NAMES "duration_time (a tool event)" },
	{ "user_time", UD_CLASS_SOFTWARE, PERF_NAMES "user_time (a tool event)" },
	{ "system_time", UD_CLASS_SOFTWARE, PERF_NAMES "system_time (a tool event)" },
	/* Intel */
	{ "cpu_clk_unhalted.thread", UD_CLASS_CYCLES, INTEL_JSON "CPU_CLK_UNHALTED.THREAD" },
	{ "cpu_clk_unhalted.thread_p", UD_CLASS_CYCLES, INTEL_JSON "CPU_CLK_UNHALTED.THREAD_P" },
	{ "cpu_clk_unhalted.core", UD_CLASS_CYCLES, INTEL_JSON "CPU_CLK_UNHALTED.CORE" },
	{ "cpu_clk_unhalted.core_p", UD_CLASS_CYCLES, INTEL_JSON "CPU_CLK_UNHALTED.CORE_P" },
	{ "cpu_clk_unhalted.distributed", UD_CLASS_CYCLES, INTEL_JSON "CPU_CLK_UNHALTED.DISTRIBUTED" },
	{ "cpu_clk_unhalted.ref_tsc", UD_CLASS_REF_CYCLES, INTEL_JSON "CPU_CLK_UNHALTED.REF_TSC" },
	{ "cpu_clk_unhalted.ref_xclk", UD_CLASS_REF_CYCLES, INTEL_JSON "CPU_CLK_UNHALTED.REF_XCLK" },
	{ "inst_retired.any", UD_CLASS_INSTRUCTIONS, INTEL_JSON "INST_RETIRED.ANY" },
	{ "inst_retired.any_p", UD_CLASS_INSTRUCTIONS, INTEL_JSON "INST_RETIRED.ANY_P" },
	{ "uops_retired.slots", UD_CLASS_UOPS, INTEL_JSON "UOPS_RETIRED.SLOTS" },
	{ "uops_retired.retire_slots", UD_CLASS_UOPS, INTEL_JSON "UOPS_RETIRED.RETIRE_SLOTS" },
	{ "br_inst_retired.all_branches", UD_CLASS_BRANCHES, INTEL_JSON "BR_INST_RETIRED.ALL_BRANCHES" },
	{ "br_inst_retired.near_return", UD_CLASS_RETURNS, INTEL_JSON "BR_INST_RETIRED.NEAR_RETURN" },
	{ "br_misp_retired.all_branches", UD_CLASS_BRANCH_MISSES, INTEL_JSON "BR_MISP_RETIRED.ALL_BRANCHES" },
	{ "br_misp_retired.ret", UD_CLASS_RETURN_MISPREDICTS, INTEL_JSON "BR_MISP_RETIRED.RET" },
	{ "l1d.replacement", UD_CLASS_L1D_MISS, INTEL_JSON "L1D.REPLACEMENT" },
	{ "mem_load_retired.l1_miss", UD_CLASS_L1D_MISS, INTEL_JSON "MEM_LOAD_RETIRED.L1_MISS" },
	{ "mem_load_retired.l2_miss", UD_CLASS_L2_MISS, INTEL_JSON "MEM_LOAD_RETIRED.L2_MISS" },
	{ "mem_load_retired.l3_miss", UD_CLASS_LLC_MISS, INTEL_JSON "MEM_LOAD_RETIRED.L3_MISS" },
	{ "mem_inst_retired.all_loads", UD_CLASS_L1D_ACCESS, INTEL_JSON "MEM_INST_RETIRED.ALL_LOADS" },
	{ "l2_rqsts.miss", UD_CLASS_L2_MISS, INTEL_JSON "L2_RQSTS.MISS" },
	{ "l2_rqsts.references", UD_CLASS_L2_ACCESS, INTEL_JSON "L2_RQSTS.REFERENCES" },
	{ "longest_lat_cache.miss", UD_CLASS_LLC_MISS, INTEL_JSON "LONGEST_LAT_CACHE.MISS" },
	{ "longest_lat_cache.reference", UD_CLASS_LLC_ACCESS, INTEL_JSON "LONGEST_LAT_CACHE.REFERENCE" },
	{ "icache_64b.iftag_miss", UD_CLASS_L1I_MISS, INTEL_JSON "ICACHE_64B.IFTAG_MISS" },
	{ "frontend_retired.l1i_miss", UD_CLASS_L1I_MISS, INTEL_JSON "FRONTEND_RETIRED.L1I_MISS" },
	{ "icache_16b.ifdata_stall", UD_CLASS_STALL_FRONTEND, INTEL_JSON "ICACHE_16B.IFDATA_STALL" },
	{ "dtlb_load_misses.walk_completed", UD_CLASS_DTLB_MISS, INTEL_JSON "DTLB_LOAD_MISSES.WALK_COMPLETED" },
	{ "itlb_misses.walk_completed", UD_CLASS_ITLB_MISS, INTEL_JSON "ITLB_MISSES.WALK_COMPLETED" },
	{ "topdown.slots", UD_CLASS_SLOTS, INTEL_JSON "TOPDOWN.SLOTS" },
	{ "topdown.slots_p", UD_CLASS_SLOTS, INTEL_JSON "TOPDOWN.SLOTS_P" },
	{ "topdown.*_slots", UD_CLASS_TOPDOWN, INTEL_JSON "TOPDOWN.BACKEND_BOUND_SLOTS, .BAD_SPEC_SLOTS, .MEMORY_BOUND_SLOTS" },
	{ "idq_uops_not_delivered.core", UD_CLASS_TOPDOWN, INTEL_JSON "IDQ_UOPS_NOT_DELIVERED.CORE (frontend-bound slots)" },
	{ "idq_bubbles.core", UD_CLASS_TOPDOWN, INTEL_JSON "IDQ_BUBBLES.CORE (frontend-bound slots)" },
	{ "cycle_activity.stalls_total", UD_CLASS_STALL_BACKEND, INTEL_JSON "CYCLE_ACTIVITY.STALLS_TOTAL (execution stalls)" },
	{ "resource_stalls.any", UD_CLASS_STALL_BACKEND, INTEL_JSON "RESOURCE_STALLS.ANY" },
	{ "int_misc.recovery_cycles", UD_CLASS_STALL_OTHER, INTEL_JSON "INT_MISC.RECOVERY_CYCLES (recovery after a clear)" },
	/* AMD */
	{ "ls_not_halted_cyc", UD_CLASS_CYCLES, AMD_JSON "ls_not_halted_cyc (PMCx076)" },
	{ "ex_ret_instr", UD_CLASS_INSTRUCTIONS, AMD_JSON "ex_ret_instr (PMCx0C0)" },
	{ "ex_ret_ops", UD_CLASS_UOPS, AMD_JSON "ex_ret_ops (PMCx0C1)" },
	{ "ex_ret_brn", UD_CLASS_BRANCHES, AMD_JSON "ex_ret_brn (PMCx0C2)" },
	{ "ex_ret_brn_misp", UD_CLASS_BRANCH_MISSES, AMD_JSON "ex_ret_brn_misp (PMCx0C3)" },
	{ "ex_ret_near_ret", UD_CLASS_RETURNS, AMD_JSON "ex_ret_near_ret (PMCx0C8)" },
	{ "ex_ret_near_ret_mispred", UD_CLASS_RETURN_MISPREDICTS, AMD_JSON "ex_ret_near_ret_mispred (PMCx0C9)" },
	{ "ls_dc_accesses", UD_CLASS_L1D_ACCESS, AMD_JSON "ls_dc_accesses (PMCx040)" },
	{ "l2_cache_req_stat.ic_dc_miss_in_l2", UD_CLASS_L2_MISS, AMD_JSON "l2_cache_req_stat.ic_dc_miss_in_l2 (PMCx064)" },
	{ "ic_tag_hit_miss.instruction_cache_miss", UD_CLASS_L1I_MISS, AMD_JSON "ic_tag_hit_miss.instruction_cache_miss" },
	{ "ls_l1_d_tlb_miss.all", UD_CLASS_DTLB_MISS, AMD_JSON "ls_l1_d_tlb_miss.all (PMCx045)" },
	{ "bp_l1_tlb_miss_l2_tlb_miss", UD_CLASS_ITLB_MISS, AMD_JSON "bp_l1_tlb_miss_l2_tlb_miss (PMCx085)" },
	{ "de_no_dispatch_per_slot.*", UD_CLASS_TOPDOWN, AMD_JSON "de_no_dispatch_per_slot.* (PMCx1A0, Zen 4 and later: slots)" },
	{ "de_dis_dispatch_token_stalls*", UD_CLASS_STALL_BACKEND, AMD_JSON "de_dis_dispatch_token_stalls1/2.* (dispatch stalls for a full backend resource)" },
	{ "de_dis_uop_queue_empty_di0", UD_CLASS_STALL_FRONTEND, AMD_JSON "de_dis_uop_queue_empty_di0 (PMCx0A9)" },
	{ "ic_fetch_stall.ic_stall_any", UD_CLASS_STALL_FRONTEND, AMD_JSON "ic_fetch_stall.ic_stall_any (PMCx087)" },
	{ "ex_no_retire.*", UD_CLASS_STALL_OTHER, AMD_JSON "ex_no_retire.* (PMCx0D6: cycles with no retirement, by cause)" },
	/* Arm PMUv3 common events, as perf's Arm JSON lists name them */
	{ "cpu_cycles", UD_CLASS_CYCLES, ARM_COMMON "CPU_CYCLES, 0x11)" },
	{ "inst_retired", UD_CLASS_INSTRUCTIONS, ARM_COMMON "INST_RETIRED, 0x08)" },
	{ "op_retired", UD_CLASS_UOPS, ARM_COMMON "OP_RETIRED, 0x3A)" },
	{ "br_retired", UD_CLASS_BRANCHES, ARM_COMMON "BR_RETIRED, 0x21)" },
	{ "br_mis_pred_retired", UD_CLASS_BRANCH_MISSES, ARM_COMMON "BR_MIS_PRED_RETIRED, 0x22)" },
	{ "br_mis_pred", UD_CLASS_BRANCH_MISSES, ARM_COMMON "BR_MIS_PRED, 0x10: speculative)" },
	{ "br_return_retired", UD_CLASS_RETURNS, ARM_COMMON "BR_RETURN_RETIRED, 0x0E)" },
	{ "l1d_cache", UD_CLASS_L1D_ACCESS, ARM_COMMON "L1D_CACHE, 0x04)" },
	{ "l1d_cache_rd", UD_CLASS_L1D_ACCESS, ARM_COMMON "L1D_CACHE_RD, 0x40)" },
	{ "l1d_cache_refill", UD_CLASS_L1D_MISS, ARM_COMMON "L1D_CACHE_REFILL, 0x03)" },
	{ "l1d_cache_refill_rd", UD_CLASS_L1D_MISS, ARM_COMMON "L1D_CACHE_REFILL_RD, 0x42)" },
	{ "l1d_cache_lmiss_rd", UD_CLASS_L1D_MISS, ARM_COMMON "L1D_CACHE_LMISS_RD, 0x39)" },
	{ "l1i_cache", UD_CLASS_L1I_ACCESS, ARM_COMMON "L1I_CACHE, 0x14)" },
	{ "l1i_cache_refill", UD_CLASS_L1I_MISS, ARM_COMMON "L1I_CACHE_REFILL, 0x01)" },
	{ "l1i_cache_lmiss", UD_CLASS_L1I_MISS, ARM_COMMON "L1I_CACHE_LMISS, 0x4006)" },
	{ "l2d_cache", UD_CLASS_L2_ACCESS, ARM_COMMON "L2D_CACHE, 0x16)" },
	{ "l2d_cache_refill", UD_CLASS_L2_MISS, ARM_COMMON "L2D_CACHE_REFILL, 0x17)" },
	{ "l2d_cache_lmiss_rd", UD_CLASS_L2_MISS, ARM_COMMON "L2D_CACHE_LMISS_RD, 0x4009)" },
	{ "l3d_cache", UD_CLASS_LLC_ACCESS, ARM_COMMON "L3D_CACHE, 0x2B)" },
	{ "l3d_cache_refill", UD_CLASS_LLC_MISS, ARM_COMMON "L3D_CACHE_REFILL, 0x2A)" },
	{ "ll_cache_rd", UD_CLASS_LLC_ACCESS, ARM_COMMON "LL_CACHE_RD, 0x36)" },
	{ "ll_cache_miss_rd", UD_CLASS_LLC_MISS, ARM_COMMON "LL_CACHE_MISS_RD, 0x37)" },
	{ "l1d_tlb", UD_CLASS_DTLB_ACCESS, ARM_COMMON "L1D_TLB, 0x25)" },
	{ "l1d_tlb_refill", UD_CLASS_DTLB_MISS, ARM_COMMON "L1D_TLB_REFILL, 0x05)" },
	{ "l1i_tlb", UD_CLASS_ITLB_ACCESS, ARM_COMMON "L1I_TLB, 0x26)" },
	{ "l1i_tlb_refill", UD_CLASS_ITLB_MISS, ARM_COMMON "L1I_TLB_REFILL, 0x02)" },
	{ "l2d_tlb", UD_CLASS_TLB_ACCESS, ARM_COMMON "L2D_TLB, 0x2F)" },
	{ "l2d_tlb_refill", UD_CLASS_TLB_MISS, ARM_COMMON "L2D_TLB_REFILL, 0x2D)" },
	{ "dtlb_walk", UD_CLASS_DTLB_MISS, ARM_COMMON "DTLB_WALK, 0x34)" },
	{ "itlb_walk", UD_CLASS_ITLB_MISS, ARM_COMMON "ITLB_WALK, 0x35)" },
	{ "stall_frontend", UD_CLASS_STALL_FRONTEND, ARM_COMMON "STALL_FRONTEND, 0x23)" },
	{ "stall_backend", UD_CLASS_STALL_BACKEND, ARM_COMMON "STALL_BACKEND, 0x24)" },
	{ "stall", UD_CLASS_STALL_OTHER, ARM_COMMON "STALL, 0x3C: no operation issued)" },
	{ "stall_slot*", UD_CLASS_TOPDOWN, ARM_COMMON "STALL_SLOT, _BACKEND, _FRONTEND, 0x3F, 0x3D, 0x3E: slots)" },
	/* IBM POWER */
	{ "PM_CYC", UD_CLASS_CYCLES, POWER_JSON "PM_CYC" },
	{ "PM_RUN_CYC", UD_CLASS_CYCLES, POWER_JSON "PM_RUN_CYC (cycles while the run latch is set)" },
	{ "PM_INST_CMPL", UD_CLASS_INSTRUCTIONS, POWER_JSON "PM_INST_CMPL" },
	{ "PM_RUN_INST_CMPL", UD_CLASS_INSTRUCTIONS, POWER_JSON "PM_RUN_INST_CMPL" },
	{ "PM_BR_CMPL", UD_CLASS_BRANCHES, POWER_JSON "PM_BR_CMPL" },
	{ "PM_BR_MPRED_CMPL", UD_CLASS_BRANCH_MISSES, POWER_JSON "PM_BR_MPRED_CMPL" },
	{ "PM_LD_MISS_L1", UD_CLASS_L1D_MISS, POWER_JSON "PM_LD_MISS_L1" },
	{ "PM_LD_REF_L1", UD_CLASS_L1D_ACCESS, POWER_JSON "PM_LD_REF_L1" },
	{ "PM_L1_ICACHE_MISS", UD_CLASS_L1I_MISS, POWER_JSON "PM_L1_ICACHE_MISS" },
	{ "PM_DATA_FROM_L2MISS", UD_CLASS_L2_MISS, POWER_JSON "PM_DATA_FROM_L2MISS" },
	{ "PM_DATA_FROM_L3MISS", UD_CLASS_LLC_MISS, POWER_JSON "PM_DATA_FROM_L3MISS" },
	{ "PM_DTLB_MISS", UD_CLASS_DTLB_MISS, POWER_JSON "PM_DTLB_MISS" },
	{ "PM_ITLB_MISS", UD_CLASS_ITLB_MISS, POWER_JSON "PM_ITLB_MISS" },
	{ "PM_EXEC_STALL*", UD_CLASS_STALL_OTHER, POWER_JSON "PM_EXEC_STALL_* (POWER10: cycles the oldest instruction was executing)" },
	{ "PM_CMPL_STALL*", UD_CLASS_STALL_OTHER, POWER_JSON "PM_CMPL_STALL_* (POWER10: completion stalls)" },
	{ "PM_DISP_STALL*", UD_CLASS_STALL_OTHER, POWER_JSON "PM_DISP_STALL_* (POWER10: dispatch stalls)" },
	{ "PM_ISSUE_STALL*", UD_CLASS_STALL_OTHER, POWER_JSON "PM_ISSUE_STALL* (POWER10: issue stalls)" },
	{ "PM_CMPLU_STALL*", UD_CLASS_STALL_OTHER, POWER_JSON "PM_CMPLU_STALL_* (POWER8 and POWER9: completion stalls)" },
	{ "PM_ICT_NOSLOT*", UD_CLASS_STALL_OTHER, POWER_JSON "PM_ICT_NOSLOT_* (POWER9: cycles with no instruction to complete)" },
};

#define INTEL_SDM "Intel SDM Vol. 3B, 'Pre-defined architectural performance events' (event select, umask): "
#define AMD_PPR "AMD PPR for families 17h and 19h, core performance events (Linux amd pmu-events JSON): "

struct code_row {
	enum ud_event_arch arch;
	long long code;
	int umask;                    /* -1: any */
	struct ud_event_class row;
};

static const struct code_row codes[] = {
	{ UD_ARCH_X86_INTEL, 0x3c, 0x00, { "0x3c/0x00", UD_CLASS_CYCLES, INTEL_SDM "UnHalted Core Cycles" } },
	{ UD_ARCH_X86_INTEL, 0xc0, 0x00, { "0xc0/0x00", UD_CLASS_INSTRUCTIONS, INTEL_SDM "Instructions Retired" } },
	{ UD_ARCH_X86_INTEL, 0x3c, 0x01, { "0x3c/0x01", UD_CLASS_REF_CYCLES, INTEL_SDM "UnHalted Reference Cycles" } },
	{ UD_ARCH_X86_INTEL, 0x2e, 0x4f, { "0x2e/0x4f", UD_CLASS_LLC_ACCESS, INTEL_SDM "LLC Reference" } },
	{ UD_ARCH_X86_INTEL, 0x2e, 0x41, { "0x2e/0x41", UD_CLASS_LLC_MISS, INTEL_SDM "LLC Misses" } },
	{ UD_ARCH_X86_INTEL, 0xc4, 0x00, { "0xc4/0x00", UD_CLASS_BRANCHES, INTEL_SDM "Branch Instruction Retired" } },
	{ UD_ARCH_X86_INTEL, 0xc5, 0x00, { "0xc5/0x00", UD_CLASS_BRANCH_MISSES, INTEL_SDM "Branch Misses Retired" } },
	{ UD_ARCH_X86_INTEL, 0xa4, 0x01, { "0xa4/0x01", UD_CLASS_SLOTS, INTEL_SDM "Topdown Slots" } },
	{ UD_ARCH_X86_AMD, 0x76, -1, { "0x76", UD_CLASS_CYCLES, AMD_PPR "PMCx076 cycles not in halt" } },
	{ UD_ARCH_X86_AMD, 0xc0, -1, { "0xc0", UD_CLASS_INSTRUCTIONS, AMD_PPR "PMCx0C0 retired instructions" } },
	{ UD_ARCH_X86_AMD, 0xc1, -1, { "0xc1", UD_CLASS_UOPS, AMD_PPR "PMCx0C1 retired ops" } },
	{ UD_ARCH_X86_AMD, 0xc2, -1, { "0xc2", UD_CLASS_BRANCHES, AMD_PPR "PMCx0C2 retired branch instructions" } },
	{ UD_ARCH_X86_AMD, 0xc3, -1, { "0xc3", UD_CLASS_BRANCH_MISSES, AMD_PPR "PMCx0C3 retired branch instructions mispredicted" } },
	{ UD_ARCH_X86_AMD, 0xc8, -1, { "0xc8", UD_CLASS_RETURNS, AMD_PPR "PMCx0C8 retired near returns" } },
	{ UD_ARCH_X86_AMD, 0xc9, -1, { "0xc9", UD_CLASS_RETURN_MISPREDICTS, AMD_PPR "PMCx0C9 retired near returns mispredicted" } },
	{ UD_ARCH_X86_AMD, 0x40, -1, { "0x40", UD_CLASS_L1D_ACCESS, AMD_PPR "PMCx040 data cache accesses" } },
	{ UD_ARCH_ARM, 0x01, -1, { "0x01", UD_CLASS_L1I_MISS, ARM_COMMON "L1I_CACHE_REFILL, 0x01)" } },
	{ UD_ARCH_ARM, 0x02, -1, { "0x02", UD_CLASS_ITLB_MISS, ARM_COMMON "L1I_TLB_REFILL, 0x02)" } },
	{ UD_ARCH_ARM, 0x03, -1, { "0x03", UD_CLASS_L1D_MISS, ARM_COMMON "L1D_CACHE_REFILL, 0x03)" } },
	{ UD_ARCH_ARM, 0x04, -1, { "0x04", UD_CLASS_L1D_ACCESS, ARM_COMMON "L1D_CACHE, 0x04)" } },
	{ UD_ARCH_ARM, 0x05, -1, { "0x05", UD_CLASS_DTLB_MISS, ARM_COMMON "L1D_TLB_REFILL, 0x05)" } },
	{ UD_ARCH_ARM, 0x08, -1, { "0x08", UD_CLASS_INSTRUCTIONS, ARM_COMMON "INST_RETIRED, 0x08)" } },
	{ UD_ARCH_ARM, 0x0e, -1, { "0x0e", UD_CLASS_RETURNS, ARM_COMMON "BR_RETURN_RETIRED, 0x0E)" } },
	{ UD_ARCH_ARM, 0x10, -1, { "0x10", UD_CLASS_BRANCH_MISSES, ARM_COMMON "BR_MIS_PRED, 0x10: speculative)" } },
	{ UD_ARCH_ARM, 0x11, -1, { "0x11", UD_CLASS_CYCLES, ARM_COMMON "CPU_CYCLES, 0x11)" } },
	{ UD_ARCH_ARM, 0x14, -1, { "0x14", UD_CLASS_L1I_ACCESS, ARM_COMMON "L1I_CACHE, 0x14)" } },
	{ UD_ARCH_ARM, 0x16, -1, { "0x16", UD_CLASS_L2_ACCESS, ARM_COMMON "L2D_CACHE, 0x16)" } },
	{ UD_ARCH_ARM, 0x17, -1, { "0x17", UD_CLASS_L2_MISS, ARM_COMMON "L2D_CACHE_REFILL, 0x17)" } },
	{ UD_ARCH_ARM, 0x21, -1, { "0x21", UD_CLASS_BRANCHES, ARM_COMMON "BR_RETIRED, 0x21)" } },
	{ UD_ARCH_ARM, 0x22, -1, { "0x22", UD_CLASS_BRANCH_MISSES, ARM_COMMON "BR_MIS_PRED_RETIRED, 0x22)" } },
	{ UD_ARCH_ARM, 0x23, -1, { "0x23", UD_CLASS_STALL_FRONTEND, ARM_COMMON "STALL_FRONTEND, 0x23)" } },
	{ UD_ARCH_ARM, 0x24, -1, { "0x24", UD_CLASS_STALL_BACKEND, ARM_COMMON "STALL_BACKEND, 0x24)" } },
	{ UD_ARCH_ARM, 0x25, -1, { "0x25", UD_CLASS_DTLB_ACCESS, ARM_COMMON "L1D_TLB, 0x25)" } },
	{ UD_ARCH_ARM, 0x26, -1, { "0x26", UD_CLASS_ITLB_ACCESS, ARM_COMMON "L1I_TLB, 0x26)" } },
	{ UD_ARCH_ARM, 0x2a, -1, { "0x2a", UD_CLASS_LLC_MISS, ARM_COMMON "L3D_CACHE_REFILL, 0x2A)" } },
	{ UD_ARCH_ARM, 0x2b, -1, { "0x2b", UD_CLASS_LLC_ACCESS, ARM_COMMON "L3D_CACHE, 0x2B)" } },
	{ UD_ARCH_ARM, 0x2d, -1, { "0x2d", UD_CLASS_TLB_MISS, ARM_COMMON "L2D_TLB_REFILL, 0x2D)" } },
	{ UD_ARCH_ARM, 0x2f, -1, { "0x2f", UD_CLASS_TLB_ACCESS, ARM_COMMON "L2D_TLB, 0x2F)" } },
	{ UD_ARCH_ARM, 0x34, -1, { "0x34", UD_CLASS_DTLB_MISS, ARM_COMMON "DTLB_WALK, 0x34)" } },
	{ UD_ARCH_ARM, 0x35, -1, { "0x35", UD_CLASS_ITLB_MISS, ARM_COMMON "ITLB_WALK, 0x35)" } },
	{ UD_ARCH_ARM, 0x36, -1, { "0x36", UD_CLASS_LLC_ACCESS, ARM_COMMON "LL_CACHE_RD, 0x36)" } },
	{ UD_ARCH_ARM, 0x37, -1, { "0x37", UD_CLASS_LLC_MISS, ARM_COMMON "LL_CACHE_MISS_RD, 0x37)" } },
	{ UD_ARCH_ARM, 0x3a, -1, { "0x3a", UD_CLASS_UOPS, ARM_COMMON "OP_RETIRED, 0x3A)" } },
	{ UD_ARCH_ARM, 0x3c, -1, { "0x3c", UD_CLASS_STALL_OTHER, ARM_COMMON "STALL, 0x3C)" } },
	{ UD_ARCH_ARM, 0x3d, -1, { "0x3d", UD_CLASS_TOPDOWN, ARM_COMMON "STALL_SLOT_BACKEND, 0x3D)" } },
	{ UD_ARCH_ARM, 0x3e, -1, { "0x3e", UD_CLASS_TOPDOWN, ARM_COMMON "STALL_SLOT_FRONTEND, 0x3E)" } },
	{ UD_ARCH_ARM, 0x3f, -1, { "0x3f", UD_CLASS_TOPDOWN, ARM_COMMON "STALL_SLOT, 0x3F)" } },
};

static bool matches(const char *pattern, const char *name)
{
	const char *star = strchr(pattern, '*');

	if (!star)
		return strcasecmp(pattern, name) == 0;
	/* "topdown.*_slots": the text before the star begins the name, the text after it ends it */
	size_t head = (size_t)(star - pattern), tail = strlen(star + 1), n = strlen(name);

	return n >= head + tail && strncasecmp(pattern, name, head) == 0 && strcasecmp(star + 1, name + n - tail) == 0;
}

const struct ud_event_class *ud_event_class_by_name(const char *name)
{
	const struct ud_event_class *pattern = NULL;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strchr(names[i].pattern, '*') && strcasecmp(names[i].pattern, name) == 0)
			return &names[i];
		if (!pattern && strchr(names[i].pattern, '*') && matches(names[i].pattern, name))
			pattern = &names[i];
	}
	return pattern;
}

static const struct ud_event_class *code_of(enum ud_event_arch arch, long long code, int umask)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].arch == arch && codes[i].code == code &&
		    (codes[i].umask < 0 || codes[i].umask == (umask < 0 ? 0 : umask)))
			return &codes[i].row;
	return NULL;
}

const struct ud_event_class *ud_event_class_by_code(enum ud_event_arch arch, long long code, int umask)
{
	const struct ud_event_class *intel, *amd;

	if (arch != UD_ARCH_X86)
		return code_of(arch, code, umask);
	/* a raw code on an x86 host of unknown vendor: only where the two vendors' events agree */
	intel = code_of(UD_ARCH_X86_INTEL, code, umask);
	amd = code_of(UD_ARCH_X86_AMD, code, umask);
	return intel && amd && intel->cls == amd->cls ? intel : NULL;
}

bool ud_event_pmu_is_software(const char *pmu)
{
	static const char *const software[] = { "software", "tracepoint", "breakpoint", "kprobe", "uprobe", "tool" };

	for (size_t i = 0; i < sizeof(software) / sizeof(software[0]); i++)
		if (strcmp(pmu, software[i]) == 0)
			return true;
	return false;
}
