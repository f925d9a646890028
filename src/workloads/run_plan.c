/*
 * run_plan.c - what `uarchdiff run` sets up before it measures
 * (run_plan.h): the workloads, the host, the output and the counter plan.
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "outfile.h"
#include "run_plan.h"
#include "selection.h"

/* The host, the output file and the counter plan: what every workload needs. */
static int prepare(struct ud_run_plan *r, const struct ud_run_request *rq, struct ud_err *err)
{
	/* -e's list is what is counted, as stat's: the top-down groups come with the defaults */
	struct ud_measurement_opts mo = { .events = rq->events, .topdown = !rq->events, .hotspots = rq->hotspots,
					  .say_user_only = true, .without_hotspots = "measuring", .notice = rq->notice };
	struct ud_host_opts hopts = { .db = &r->m.db, .label = rq->label };
	struct ud_host *host;

	if (ud_measurement_detect(&r->m, err) != 0)
		return -1;
	if (!(host = ud_host_collect(&hopts, err)))
		return -1;
	if (!(r->p = ud_profile_new(host)))
		return ud_fail(err, "out of memory");
	r->output_default = !rq->output && !rq->json;
	r->output = rq->output ? strdup(rq->output) : rq->json ? strdup("-") : ud_profile_default_path(r->p->host);
	if (!r->output)
		return ud_fail(err, "out of memory");
	/* An unwritable profile fails now, not after a minute of measuring; nothing is created yet. */
	if ((r->output_default ? ud_outfile_check_new : ud_outfile_check)(r->output, err) != 0)
		return -1;
	return ud_measurement_plan(&r->m, &mo, err);
}

int ud_run_plan_make(struct ud_run_plan *r, const struct ud_run_request *rq, struct ud_err *err)
{
	*r = (struct ud_run_plan){ 0 };
	if (ud_specs_load(NULL, &r->specs, &r->nspecs, err) != 0 ||
	    !(r->defs = ud_workloads_select(rq->names, rq->suite, r->specs, r->nspecs, &r->ndefs, rq->notice, NULL, err)))
		return -1;
	return prepare(r, rq, err);
}

void ud_run_plan_free(struct ud_run_plan *r)
{
	ud_profile_free(r->p);
	free(r->output);
	free(r->defs);
	ud_specs_free(r->specs, r->nspecs);
	ud_measurement_free(&r->m);
}
