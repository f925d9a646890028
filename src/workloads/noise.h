/*
 * noise.h - when a measurement cannot be trusted, and saying so.
 *
 * A profile's numbers are only as good as the host was quiet: another
 * process on the workload's CPU, a hypervisor giving the vCPU to others
 * (steal time), or samples that disagree.  ud_noise_assess() turns a
 * workload's noise figures (profile.h, struct ud_noise) into warnings by
 * the thresholds below; `run` and `teach` record them, the summary table
 * shows them and `diff` carries them into every format.
 */
#ifndef UD_NOISE_H
#define UD_NOISE_H

#include <stdbool.h>

#include "profile.h"

/*
 * A workload that keeps one CPU busy by itself reads about 1.0 CPUs
 * utilized on a quiet host (0.97-1.0 measured here for the CPU-bound and
 * system-call workloads); below 0.9 something else held its CPU.
 */
#define UD_NOISE_MIN_CPUS 0.9
/* Steal above 2% of the host's CPU time: the hypervisor ran other guests on these vCPUs (a quiet guest shows ~0). */
#define UD_NOISE_MAX_STEAL_PCT 2.0
/* A 95% interval of the median above 5%: wider than most effects worth explaining (the goal is 2%). */
#define UD_NOISE_MAX_CI95_REL 0.05

/*
 * Adds to n->warnings one sentence for each threshold n's figures cross;
 * the CPUs-utilized check only where single_threaded (a workload whose
 * work is meant to keep one CPU busy).  Unknown (NAN) figures warn of
 * nothing.  -1 when out of memory.
 */
int ud_noise_assess(struct ud_noise *n, bool single_threaded);
/*
 * The same checks as short tags ("interval 16.6%, 0.48 CPUs, steal 3.1%"),
 * at the precision the sentences print, or "-" when none is crossed.
 */
void ud_noise_tags(const struct ud_noise *n, bool single_threaded, char *buf, size_t len);
/* The tags and, where the adaptive rounds' time ran out, "budget ran out after N samples": one line's causes. */
void ud_noise_causes(const struct ud_noise *n, bool single_threaded, char *buf, size_t len);
/* The legend of those causes, one line. */
#define UD_NOISE_LEGEND                                                                                            \
	"noisy (interval: the median's 95% interval, above 5%; CPUs: CPUs utilized, below 0.90; steal: above 2% of " \
	"CPU time; budget: sampling stopped at its time limit):"
/*
 * Adds the warning of a workload whose adaptive rounds ran out of time
 * before its interval reached target (a fraction): its interval is wider
 * than asked, even where it stays under UD_NOISE_MAX_CI95_REL.  Where the
 * interval already warned, the two become one sentence.  0, or -1 when out
 * of memory.
 */
int ud_noise_target_missed(struct ud_noise *n, double target);

#endif
