/*
 * suite.h - a suite measured into a profile and saved, as `run` does it:
 * the selected workloads sampled in rounds (rounds.h) under a
 * measurement's plan (measurement.h), each result recorded into the
 * profile (scores, counters, noise, top-down, the binary, hotspots), and
 * the profile written (ud_profile_save_somewhere()).
 *
 * The stop signals (stop.h) are caught from before the first sample until
 * the profile is written: one stops the suite and what was measured is
 * saved, marked incomplete, and a second cannot cut that save short.  After
 * it SIGPIPE stays ignored, so that the pipe that stopped the run does not
 * kill it as it reports: a failed write is said, the status is 1.
 *
 * Nothing here prints: what the command says (the verdict on the counters,
 * the stop, where the profile went) comes back as data, and a workload's
 * hotspots that cannot be named as a notice.
 */
#ifndef UD_SUITE_H
#define UD_SUITE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "measurement.h"
#include "profile.h"
#include "rounds.h"
#include "workload.h"

struct ud_suite_run {
	const struct ud_measurement *m;           /* the plan, the sampler and the table (planned) */
	const struct ud_workload_def *const *defs; /* the selection (selection.h), in its order */
	size_t ndefs;
	unsigned suite;      /* UD_SUITE_*: a sample's length and a child's time limit */
	int repeat;          /* -r N: exactly N samples a workload; 0: adaptive rounds */
	bool exact;          /* one child a counter group: no multiplexing */
	const char *output;  /* where the profile goes; "-" stdout */
	bool output_new;     /* output is a default name: it must not exist yet */
	ud_rounds_progress progress; /* after each sample (rounds.h); may be NULL */
	void *progress_ctx;
	ud_notice_fn notice; /* "NAME: kept without hotspots: why"; may be NULL */
	void *notice_ctx;
};

struct ud_suite_result {
	bool failed;         /* a workload crashed, hung, failed or was interrupted */
	/*
	 * SPEC §1: a run that could open no counter at all failed, whatever it
	 * measured.  When every workload ran and none of their counters
	 * counted: the first one asked for (its name and reason; borrowed from
	 * the profile), else NULL.
	 */
	const struct ud_counter *uncounted;
	int stop_signal;     /* the signal that stopped the suite (the profile is then incomplete); 0 none */
	/*
	 * ud_profile_save_somewhere()'s 0 (written), 1 (in TMPDIR instead) or
	 * -1 (lost), saved saying where and why; not tried (left -1 with no
	 * path) when a stop came before any workload was measured.
	 */
	int save_status;
	struct ud_profile_saved saved;
};

/*
 * Measures s's workloads into p (whose host gives the cache sizes the
 * workloads size their data by) and saves it, the signals caught as above.
 * 0 with *res, or -1 with err when out of memory or a workload's top-down
 * cannot be recorded: nothing is saved then.
 */
int ud_suite_measure(const struct ud_suite_run *s, struct ud_profile *p, struct ud_suite_result *res,
		     struct ud_err *err);

/* Room for one progress text: a name, a score, units and a failure's words, each made visible. */
#define UD_SUITE_PROGRESS_MAX 4096
/*
 * What run writes to stderr after a sample (rounds.h's progress): on a
 * terminal (tty) the live line "[k/N] workload  round i  ~T s left",
 * rewritten in place ("\r\033[K" first), piped nothing; and once a workload
 * is done, its line "NAME  MEDIAN UNITS (+-CI, N samples)" or why it has
 * none, ending in a newline.  Input (names, units, failure text) is made
 * visible (text.h), never obeyed by the terminal.
 */
void ud_suite_progress_text(const struct ud_suite_item *it, bool done, const struct ud_rounds_status *st, bool tty,
			    char *buf, size_t len);

#endif
