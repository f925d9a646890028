/*
 * runner.h - running a workload the way a measurement should be run.
 *
 * Every calibration and every sample runs in a forked child, in its own
 * process group, so that a crash or a hang cannot take the run down: a child
 * past its timeout is killed with everything it forked, and the outcome is
 * recorded.  In the child, setup() runs first, then the counters are opened
 * on the child itself (inherited by the helpers it forks), or on every
 * thread of the process setup() named (a server, wl_ctx.counted_pid),
 * enabled around run() only, and read; teardown() follows.  Calibration doubles the
 * iterations until run() takes long enough to scale to the target time.
 * File workloads get a private directory (mkdtemp under TMPDIR, made
 * absolute) that the parent removes, whatever happened to the child, and
 * that the guard (guard.h) removes should the parent be killed.  A child
 * dies with the parent (PR_SET_PDEATHSIG), taking its process group, the
 * workload's programs, with it: a SIGKILL of uarchdiff leaves nothing
 * running past it.
 */
#ifndef UD_RUNNER_H
#define UD_RUNNER_H

#include <signal.h>
#include <stdint.h>

#include "counting.h"
#include "profile.h"
#include "sampler.h"
#include "workload.h"

struct ud_runner_opts {
	double target_s;             /* one sample's measured time */
	int samples;                 /* -r */
	double timeout_s;            /* a child's limit, calibration or sample */
	const struct ud_event *ev;   /* the counters, planned into groups */
	size_t nev;
	int exact;                   /* one child a group per sample: no multiplexing */
	size_t l1d, l2, l3;          /* this host's cache sizes; 0 unknown */
	const char *tmp_root;        /* NULL: $TMPDIR, else /tmp */
	volatile sig_atomic_t *stop; /* nonzero: stop at once (Ctrl-C) */
	const struct ud_sampler_config *sampling; /* --hotspots: sample each measured run; NULL: no */
};

enum ud_outcome { UD_OUT_OK, UD_OUT_CRASHED, UD_OUT_TIMEOUT, UD_OUT_FAILED, UD_OUT_INTERRUPTED };

struct ud_sample {
	double work;                 /* iterations x work_per_iter */
	double score;                /* the program's own score (external workloads); NAN otherwise */
	uint64_t elapsed_ns, user_ns, sys_ns;  /* of the counted process where the workload names one (wl_ctx) */
	struct ud_count *counts;     /* nev of them */
	struct wl_subscore sub[WL_SUBSCORES_MAX]; /* the partial results run() reported */
	size_t nsub;
};

struct ud_run_result {
	enum ud_outcome outcome;
	struct ud_err detail;        /* what happened, for anything but OK */
	uint64_t iters;              /* a sample's iterations, from calibration */
	char units[32];              /* the program's own units, where it reports them */
	struct ud_sample *samples;   /* those completed, even on failure */
	size_t nsamples;
	size_t cap;                  /* private: samples' room */
	char tmpdir[4096];           /* private: the workload's directory, from ud_run_begin to ud_run_end */
	int records_fd;              /* private: where sampled runs append their records, -1 when not sampled */
	uint8_t *records;            /* with sampling: the measured runs' record streams in turn (sampler.h) */
	size_t nrecords;             /* bytes */
};

/*
 * Calibrates and samples def, the outcome in *res: a crashed or hung
 * workload is an outcome, not an error, and so are a temporary directory
 * that cannot be made and running out of memory.
 * Makes this process a child subreaper (launch.h) and, after each child,
 * kills whatever it left running, setsid() helpers included.  Free with
 * ud_run_result_free().
 */
void ud_run_workload(const struct ud_workload_def *def, const struct ud_runner_opts *o, struct ud_run_result *res);
void ud_run_result_free(struct ud_run_result *res);

/*
 * The same in steps, so that a suite's samples can interleave (rounds.h):
 * ud_run_begin makes the private directory and calibrates, the outcome in
 * res (no directory: that workload failed); ud_run_sample takes one more
 * sample while the outcome is OK and returns it; ud_run_end removes the
 * directory and, when sampled, reads the records back.  Free res after.
 */
void ud_run_begin(const struct ud_workload_def *def, const struct ud_runner_opts *o, struct ud_run_result *res);
enum ud_outcome ud_run_sample(const struct ud_workload_def *def, const struct ud_runner_opts *o,
			      struct ud_run_result *res);
void ud_run_end(struct ud_run_result *res);

/* A sample's score: the program's own where it reports one, else work per second. */
double ud_sample_score(const struct ud_sample *s);

/* Fills a profile workload from a result: scores, sums, counters, outcome, sub-scores (their mean over the samples). */
int ud_run_to_workload(const struct ud_workload_def *def, const struct ud_run_result *res, const struct ud_event *ev,
		       size_t nev, struct ud_workload *w);

#endif
