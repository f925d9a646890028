/*
 * diff_thresholds.h - every threshold the diff decides by, in one table,
 * each with why it is where it is.  Rules, groups and headlines read these
 * names; no number that decides a finding appears anywhere else.
 */
#ifndef UD_DIFF_THRESHOLDS_H
#define UD_DIFF_THRESHOLDS_H

/* A test's p below which a speedup counts as outside the noise: the usual 5%. */
#define UD_SIG_ALPHA 0.05
/* The level of every interval the diff gives (the speedup's, the geometric mean's). */
#define UD_SIG_LEVEL 0.95
/*
 * Mann-Whitney U where both sides have at least this many samples: 4
 * against 4 is the fewest whose complete separation reaches p < 0.05
 * (2/70 = 0.029; 3 against 3 cannot go below 2/20 = 0.1), benchstat's rule
 * (golang.org/x/perf, benchmath/anone.go, AssumeNothing).  Below it, Welch's
 * t on the samples' means, which needs two a side.
 */
#define UD_SIG_MIN_RANK_SAMPLES 4

/*
 * What one miss can cost, for telling a cause from a coincidence: the
 * change in cycles per unit of work over the change in misses per unit is
 * the cost each miss would need to carry the whole change.  A mispredict
 * costs 5-40 cycles: the pipeline refill of the cores in events/ is 11-20
 * (Agner Fog, "The microarchitecture of Intel, AMD and VIA CPUs", 2024:
 * 15-20 Skylake, 11-18 Zen; Arm's Neoverse N1/V1 optimization guides:
 * 11-13), and a refetch that misses the micro-op cache adds a few more; a
 * mispredict in a kernel entry with IBPB or a retpoline costs more, which
 * the upper end allows for.
 */
#define UD_CAUSE_BRANCH_CYCLES_LOW 5.0
#define UD_CAUSE_BRANCH_CYCLES_HIGH 40.0
/*
 * An L1d miss costs 4-300 cycles: from an L2 hit whose latency the core
 * partly overlaps (L2 load-to-use is 12-17 cycles on these cores, the
 * vendors' guides) to a DRAM access at 80-100 ns at 3 GHz; misses overlap
 * each other, so the average can sit well under the L2's latency.
 */
#define UD_CAUSE_L1D_CYCLES_LOW 4.0
#define UD_CAUSE_L1D_CYCLES_HIGH 300.0
/*
 * A counter is a cause only when it carries at least a twentieth of the
 * change it is charged against: below that it is offered as a reason for
 * what it cannot pay for (6 thousand mispredicts for 300 million cycles).
 */
#define UD_CAUSE_MIN_SHARE 0.05

/*
 * What a miss costs where the host's table names no penalty, each the
 * common case of the cores in events/ (a range of what it can cost beside
 * it, the ones above for branches and L1d).  Branch and return
 * mispredicts: the 11-20 cycle refill (Agner Fog's microarchitecture
 * manual, 2024; Arm's Neoverse optimization guides), 15.  An L1d or L1i
 * miss that hits L2: the L2's 12-17 cycle load-to-use latency (the
 * vendors' optimization guides), 12.  An L2 miss that hits the last level:
 * 40-50 cycles on these cores, 40.  A last-level miss: DRAM at 80-100 ns
 * and 2.5-3.5 GHz, 250.  A TLB miss: a page walk that hits the caches,
 * 20-30 cycles, 25 (up to hundreds where it goes to memory).  A cache-miss
 * of perf's generic name has no level, so no default: only the range test
 * (the cost each would need) speaks for it.
 */
#define UD_PENALTY_MISPREDICT 15.0
#define UD_PENALTY_L1_MISS 12.0
#define UD_PENALTY_L2_MISS 40.0
#define UD_PENALTY_LLC_MISS 250.0
#define UD_PENALTY_TLB_MISS 25.0
#define UD_CAUSE_L2_CYCLES_LOW 15.0
#define UD_CAUSE_L2_CYCLES_HIGH 400.0
#define UD_CAUSE_LLC_CYCLES_LOW 80.0
#define UD_CAUSE_LLC_CYCLES_HIGH 1000.0
#define UD_CAUSE_TLB_CYCLES_LOW 8.0
#define UD_CAUSE_TLB_CYCLES_HIGH 400.0

/*
 * The counted domain must cover at least half of the CPU time for its
 * counters to split the speedup: below that the part not counted can carry
 * all of it (perf stat -e cycles:u on a benchmark that spends 98% of its
 * time in the kernel).  Its own counters' change is still reported.
 */
#define UD_COVERAGE_SPLIT 0.5

/*
 * Cycles over task-clock outside these bounds is no core clock: no core
 * in use runs below 0.4 GHz under load (the slowest P-states, a Raspberry
 * Pi Zero's 0.7 GHz ARM11) or above 6.2 GHz (Intel's fastest boost, 2024);
 * the bounds leave a margin on each side.
 * Below, the cycles cover part of the time (:u counts over a kernel-heavy
 * run read 0.02 GHz) or a VM's vCPU was halted inside task-clock.
 */
#define UD_GHZ_PLAUSIBLE_LOW 0.2
#define UD_GHZ_PLAUSIBLE_HIGH 7.0
/* The slowest clock a core runs work at (above): what bounds how much of task-clock a mode's cycles can cover. */
#define UD_GHZ_SLOWEST 0.4

/*
 * Below a twentieth of a CPU over the measured time the workload waited
 * (sleep 10 ran at 0.04%): its elapsed time measures the wait, not work,
 * and gets no speed verdict.
 */
#define UD_MIN_UTILIZATION 0.05
/*
 * A single run shorter than this is mostly process start-up and the
 * scheduler's 4 ms tick: no speed verdict from one such run each (perf
 * stat -r N's mean and spread still decide).
 */
#define UD_MIN_SINGLE_RUN_NS 10e6
/*
 * getrusage's user and sys times are sampled at the scheduler's tick (4 ms
 * at HZ=250, 10 at HZ=100): under 5 ticks of them they are not a split of
 * CPU time (a 350 us echo read 100% kernel, then 0%).
 */
#define UD_MIN_RUSAGE_NS 20e6

/* A test's p between this and UD_SIG_ALPHA is weak evidence, said so: 1 in 20 tests of no change gets there. */
#define UD_SIG_WEAK 0.01

/*
 * Below 0.1 instructions per cycle (ten cycles or more each) instructions
 * are not the unit of work: one `rep stosb` zeroing a page does kilobytes
 * (IPC 0.06 was kernel page zeroing, issue 20), or the core waits on one
 * thing nearly all the time.  Then path length x IPC splits the speedup
 * arbitrarily (a kernel that turns a loop into one string instruction
 * moves work from path length to IPC): cycles and time per unit of work
 * compare what was done.
 */
#define UD_LOW_IPC 0.1

/*
 * Kernel-heavy: the kernel takes at least half of the CPU time on either
 * host, so the score measures the system-call path as much as the core.
 */
#define UD_KERNEL_HEAVY_SYS_SHARE 0.5
/*
 * Compute-bound: the kernel takes at most a tenth on both hosts (timer
 * ticks and page faults alone cost a few percent), so the score is the
 * core's and the compiler's.
 */
#define UD_COMPUTE_BOUND_SYS_SHARE 0.1

/*
 * One core generation brings roughly 1.1-1.2x IPC on the same code (AMD
 * claimed +13% Zen 3 -> Zen 4 and +16% Zen 4 -> Zen 5; Arm +50% N1 -> V1
 * on its own best case).  1.5x on the same instructions is beyond what a
 * core alone explains.
 */
#define UD_IPC_BEYOND_GENERATION 1.5
/* "The same instructions": path length within 0.8-1.25x (compiler and library noise). */
#define UD_PATH_LENGTH_SAME_LOW 0.8
#define UD_PATH_LENGTH_SAME_HIGH 1.25

/*
 * Below a 1% move a speedup is not split into factor shares: ln(speedup)
 * nears 0 and every share blows up (+996% / -996% for 1000 -> 1001), though
 * run-to-run noise alone moves benchmarks by more.  A move the rank test
 * finds insignificant is not split either.
 */
#define UD_SHARE_MIN_MOVE 0.01

/*
 * A factor beside the dominant one is named in the explanation when it
 * moved ln(speedup) by at least a tenth, either way: smaller ones change
 * nothing a reader would act on (the factors table lists them all).
 */
#define UD_FACTOR_MENTION_SHARE 0.1

/*
 * What a new core generation brings in IPC on the same code, as the
 * evidence states it: roughly 1.1-1.2x (AMD's +13% Zen 3 -> Zen 4, +16%
 * Zen 4 -> Zen 5).
 */
#define UD_GENERATION_IPC_LOW 1.1
#define UD_GENERATION_IPC_HIGH 1.2

/*
 * A kernel-heavy workload is worth a finding only when it moved: 10% is
 * about the run-to-run spread of UnixBench's system-call tests on a VM.
 */
#define UD_KERNEL_HEAVY_MIN_MOVE 1.1

/*
 * A kernel-crossing cost: on a workload the kernel takes half of, user
 * AND kernel time per unit of work both moved by the IPC a core generation
 * cannot explain (UD_IPC_BEYOND_GENERATION), the same way.  A faster core
 * speeds up both, but not each by 1.5x or more; state thrown away at every
 * entry and exit (IBPB, SRSO's safe RET, buffer clearing, VM exits) slows
 * both, as the worked example's E5 shows (8-9x per operation, both).
 */
#define UD_CROSSING_BOTH_MOVED UD_IPC_BEYOND_GENERATION

/* "Most" of a speedup: at least half of ln(speedup). */
#define UD_FREQUENCY_MOST_SHARE 0.5

/* perf's own warning line: a counter scheduled under half the time is an estimate. */
#define UD_MULTIPLEXED_RUNNING_PCT 50.0

/*
 * How much larger the kernel's share of CPU time must be, on average, among
 * the workloads at or above the median speedup than among the rest (0.2 =
 * 20 points) before the gain is laid at the kernel's door rather than noise
 * in which workloads happened to gain.
 */
#define UD_KERNEL_HEAVY_MARGIN 0.2

/*
 * The headline calls kernel-heavy and compute-bound workloads apart when
 * their geometric-mean speedups differ by this factor or more: a gap that
 * large is not the same cause acting on both.
 */
#define UD_GROUP_GAP 1.5

/*
 * A kernel symbol sampled on one host only is worth a finding when it
 * carries more than a tenth of that host's CPU time (issue 15): a
 * mitigation thunk run on every return shows at that size, while timer and
 * scheduler symbols stay at a few percent.
 */
#define UD_KERNEL_SYMBOL_ONE_HOST_SHARE 0.1

/*
 * A fleet's outlier: a host whose result on a workload lies further from
 * its group's median than this many median absolute deviations (of
 * ln(result / median), so that slower and faster weigh alike).  Iglewicz
 * and Hoaglin's modified z-score, 0.6745 (x - median) / MAD > 3.5 ("How to
 * Detect and Handle Outliers", ASQC 1993), is 3.5 / 0.6745 = 5.19 MADs: a
 * normal spread puts about one host in 2,000 past it, and the median and
 * the MAD do not move with the outliers themselves as a mean and a
 * standard deviation would.
 */
#define UD_FLEET_OUTLIER_MADS 5.19
/*
 * Nor is a host an outlier for less than a 10% move, however tight its
 * peers: about the run-to-run spread of UnixBench's system-call tests on a
 * VM (UD_KERNEL_HEAVY_MIN_MOVE's), which hosts of one configuration that
 * measured within a hair of each other would otherwise turn into outliers.
 */
#define UD_FLEET_OUTLIER_MIN_MOVE 1.1
/*
 * Outliers are sought only in groups of at least this many hosts with the
 * workload: below it the median and the MAD are one or two hosts' own
 * numbers, and a host would be an outlier against itself.
 */
#define UD_FLEET_MIN_PEERS 5
/*
 * The modified z-score UD_FLEET_OUTLIER_MADS stands for: a host's move on a
 * workload counts this many of its group's robust standard deviations at
 * the outlier limit, so limit / 3.5 is the group's spread as one standard
 * deviation when moves are combined over workloads.
 */
#define UD_FLEET_OUTLIER_Z 3.5
/*
 * One workload's share of a host's evidence stops at this z: twice the
 * outlier limit's 3.5 is beyond doubt on that workload by itself, and more
 * standard deviations say how far the host moved, not how sure the move
 * is.  Capped so, one workload's spike cannot outrank a host that moved on
 * every workload (issue 38: a host 1.33x slower on all eight workloads was
 * not listed under 25 one-workload spikes).
 */
#define UD_FLEET_EVIDENCE_Z_CAP 7.0

/*
 * A group's hosts are tested for a split by a host fact (fleet_split.c)
 * only into sides of at least this many hosts each: each side's hosts are
 * then judged for outliers against their own side, which needs
 * UD_FLEET_MIN_PEERS, and a rank test of fewer hosts a side cannot pass
 * the bound below (5 against 5 at best p = 0.008).
 */
#define UD_FLEET_SPLIT_MIN_SIDE UD_FLEET_MIN_PEERS
/*
 * Nor is a fact with more values than this in one group tested: every
 * two-way parting of its values is (2^(n-1) - 1 of them), and a fact that
 * differs on nearly every host (a build of its own) is a host's detail,
 * not a configuration its peers share.
 */
#define UD_FLEET_SPLIT_MAX_VALUES 6
/*
 * The chance a group is reported split by a fact that makes no difference:
 * divided by the number of tests made in the group (every parting of every
 * fact on every workload; Bonferroni, since the facts overlap and their
 * tests are not independent), so that testing more facts does not find
 * more splits by chance.  A false split sends its owner after a whole side
 * of healthy hosts, hence one in a thousand rather than one in twenty.
 */
#define UD_FLEET_SPLIT_ALPHA 0.001
/*
 * A workload moved between the sides only when their medians are at least
 * this far apart: the outliers' minimum move (UD_FLEET_OUTLIER_MIN_MOVE,
 * the run-to-run spread of a VM's system-call tests), below which a side's
 * hosts would not have been outliers either.
 */
#define UD_FLEET_SPLIT_MIN_MOVE UD_FLEET_OUTLIER_MIN_MOVE
/*
 * And only when the difference is consistent: at least this share of the
 * pairs of hosts across the sides ordered as the medians are (the rank
 * test's U over n0 x n1).  In a large fleet a rank test alone passes for a
 * fact barely related to the speed; nine pairs in ten is a side slower
 * host by host, not on average.
 */
#define UD_FLEET_SPLIT_MIN_CONSISTENCY 0.9

/*
 * A counter that moved while the time did not is a finding (issue 33:
 * "the patch removes work, the time does not show it") only when its move
 * is beyond chance across the whole per-unit table: a paste holds about
 * ten counters, so one test's 0.05 over ten (Bonferroni), and a move of at
 * least 1%, below which a tested change is too small to act on.
 */
#define UD_MOVER_FINDING_P 0.005
#define UD_MOVER_FINDING_MIN_MOVE 0.01

#endif
