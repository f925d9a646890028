/*
 * run_plan.h - what `uarchdiff run` sets up before it measures: the
 * workloads chosen (built-ins and spec files), this host's facts in a new
 * profile, the output checked before a minute of measuring, and the
 * counter plan every workload is counted with (measurement.h).
 */
#ifndef UD_RUN_PLAN_H
#define UD_RUN_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "measurement.h"
#include "profile.h"
#include "spec.h"
#include "workload.h"

/* What the options asked; the strings borrowed. */
struct ud_run_request {
	const char *names;  /* -w's comma-separated workloads; NULL: the suite's */
	unsigned suite;     /* UD_SUITE_* bits (suite.h) */
	const char *events; /* -e's comma-joined list; NULL: the defaults and the top-down groups */
	const char *output; /* -o; NULL: stdout with json, else a new file named after the host */
	const char *label;  /* the host's label; NULL: its hostname */
	bool json, hotspots;
	/* what the plan goes on without (a suite's workload that cannot run here, no sampling event), to say */
	ud_notice_fn notice;
};

/* Everything one `run` holds between measuring and writing. */
struct ud_run_plan {
	struct ud_measurement m;           /* the host's table (its top-down methods counted), the plan, the sampler */
	struct ud_spec *specs;
	size_t nspecs;
	const struct ud_workload_def **defs; /* the workloads chosen, in order (owned array, borrowed definitions) */
	size_t ndefs;
	struct ud_profile *p;
	char *output;
	bool output_default;               /* output is a name the user did not give: it must not exist */
};

/*
 * Sets up r (zeroed first) as rq asks: the workloads, the host, the output
 * file and the counter plan.  0, or -1 with err (an unknown workload, an
 * unwritable output, an unknown event: bad usage or input); r is freed
 * with ud_run_plan_free() either way.
 */
int ud_run_plan_make(struct ud_run_plan *r, const struct ud_run_request *rq, struct ud_err *err);

void ud_run_plan_free(struct ud_run_plan *r);

#endif
