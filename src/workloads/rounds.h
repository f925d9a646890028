/*
 * rounds.h - a suite's samples, taken in interleaved rounds until they agree.
 *
 * (A "sample" here is one measured run of a workload, the profile's
 * score.samples; perf's statistical sampling is sampler.h's.)
 *
 * The samples are taken in rounds, each round every workload still
 * taking samples runs once (calibrated at its first turn), so that slow
 * drift of the host (thermal, frequency, neighbours) lands inside every
 * workload's interval instead of between workloads.  With a fixed count
 * (-r N) each workload gets exactly N, every round shuffled.  Otherwise
 * (adaptive) the first min_samples rounds, shuffled, take every workload;
 * after them a round takes only the workloads whose 95% interval of the
 * median (ud_ci95_median_rel) is still above the target, the widest first,
 * and each only while its next sample (its samples' mean time) fits in what
 * is left of the suite's time budget: one that does not fit is done, its
 * target missed, and the suite ends when none is left.  samples_taken says
 * how many each took.
 *
 * While each sample runs, the host's steal time (/proc/stat) and load
 * average (/proc/loadavg) are read, so that ud_noise_measure() can say how
 * noisy the host was for that workload (noise.h).
 *
 * Ownership: the caller owns items and their results (ud_run_result_free).
 */
#ifndef UD_ROUNDS_H
#define UD_ROUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"
#include "runner.h"

/* The adaptive defaults: the goal of a 2% interval, from the fewest samples that can show it. */
#define UD_ROUNDS_TARGET_CI95 0.02
#define UD_ROUNDS_MIN_SAMPLES 6 /* the fewest whose order statistics cover the median at 95% */
/*
 * The suite's time budget, calibrations and samples, as a multiple of its
 * six samples' measured time (workloads x UD_ROUNDS_MIN_SAMPLES x a
 * sample's target time): 1.8 gives the default suite (20 x 6 x 0.25 s =
 * 30 s) 54 s, which with start-up and the save keeps `run` within the
 * minute issue 35 asks for; quick (8 x 6 x 0.15 s) gets 13 s and full
 * (22 x 6 x 0.5 s) 119 s, and a selection of workloads its share.  Six
 * samples of a quiet host's default suite take about 40 s of it (a sample
 * is its target plus the warm-up's tenth plus fork and setup), so the rest
 * goes to the workloads still above 2%.
 */
#define UD_ROUNDS_BUDGET_FACTOR 1.8

struct ud_rounds_plan {
	int fixed;            /* > 0: exactly this many samples a workload (-r N); 0: adaptive */
	double target_ci95;   /* adaptive: stop once the median's relative 95% interval is within this */
	int min_samples;      /* adaptive: at least this many */
	double budget_s;      /* adaptive: the wall time the rounds may take, calibrations included, past min_samples */
	unsigned seed;        /* the shuffle's */
};

/* What the host did while one workload's samples ran. */
struct ud_observed {
	uint64_t steal_ticks, total_ticks; /* /proc/stat, all CPUs, summed over its samples */
	double load_max;                   /* the highest 1-minute load average at its samples; NAN unknown */
	double sampled_ns;                 /* wall time spent in its samples */
};

/*
 * Watching the host around any piece of work (what teach's experiments
 * can use too): start before, stop after, and seen accumulates.  A seen
 * starts as { .load_max = NAN }.
 */
struct ud_observation {
	uint64_t steal0, total0, start_ns;
	double load;
	bool ticks_ok;
};
void ud_observe_start(struct ud_observation *obs);
void ud_observe_stop(const struct ud_observation *obs, struct ud_observed *seen);
/* The host's steal time over what seen watched, % of all CPU time; NAN when /proc/stat said nothing. */
double ud_observed_steal_pct(const struct ud_observed *seen);

struct ud_suite_item {
	const struct ud_workload_def *def;
	double timeout_s;            /* a child's limit for this workload */
	struct ud_run_result res;
	struct ud_observed seen;
	bool begun;                  /* calibrated (its result to be freed), at its first turn */
	bool active;                 /* still taking samples */
	bool target_missed;          /* adaptive rounds stopped on the suite's time budget, not on its target */
	double ci95;                 /* its median's relative 95% interval after its last sample; NAN before */
};

/* Where a suite stands after a sample: for a live line "[k/N] workload  round i  ~Ts left". */
struct ud_rounds_status {
	size_t index, count; /* the workload's place in the suite (from 0) and the suite's size */
	size_t round;        /* the round under way, from 1: every workload still active takes a turn a round */
	/*
	 * Seconds the suite may still take: what is left of its time budget,
	 * or of the first six rounds where those take longer (each active
	 * workload's missing samples at its mean sample time; a bound that
	 * only falls, and on a quiet host most workloads stop at their sixth
	 * sample, well inside it), or with -r N the samples each lacks at its
	 * mean sample time.  Process start-up and the save come on top.
	 */
	double left_s;
};

/* Called after each sample and once when a workload is done (done true). */
typedef void (*ud_rounds_progress)(void *ctx, const struct ud_suite_item *it, bool done,
				     const struct ud_rounds_status *st);

/*
 * An adaptive round past the first min_samples: the active items[0..n)
 * (those still above the target), widest interval first, into order[0..m)
 * while each next sample, at its mean sample time, fits in left_s seconds;
 * those that do not fit into order[m..m + *ndropped).  Returns m.  order
 * has room for n.
 */
size_t ud_rounds_pick(const struct ud_suite_item *items, size_t n, double left_s, size_t *order, size_t *ndropped);

/*
 * Calibrates and samples items[0..n) under o (its timeout_s replaced by
 * each item's) as plan says, until each is done, failed, or o->stop is
 * set; an item not begun when it stopped was never run.  A workload that
 * fails (its temporary directory too) stops taking samples; the others go on.  0,
 * or -1 with err when out of memory.
 */
int ud_rounds_run(struct ud_suite_item *items, size_t n, const struct ud_runner_opts *o,
		    const struct ud_rounds_plan *plan, ud_rounds_progress progress, void *ctx, struct ud_err *err);

/*
 * Fills w's noise (SPEC §3.1) from an item sampled under counters ev[0..nev)
 * and adds its warnings (noise.h); the CPUs-utilized check applies unless
 * the workload says it runs below one CPU.  -1 when out of memory.
 */
int ud_noise_measure(const struct ud_suite_item *it, const struct ud_event *ev, size_t nev, struct ud_workload *w);

#endif
