#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "elfinfo.h"
#include "noise.h"
#include "runner.h"
#include "spec.h"
#include "stats.h"
#include "stop.h"
#include "suite.h"
#include "text.h"

/* Each suite's sample length and per-child time limit. */
static const struct {
	unsigned suite;
	double target_s, timeout_s;
} suite_timing[] = {
	{ UD_SUITE_QUICK, 0.15, 10 },
	{ UD_SUITE_DEFAULT, 0.25, 20 },
	{ UD_SUITE_FULL, 0.5, 60 },
};

/* The runner's options for s on p's host; the child's limit into *timeout (20 s for no named suite). */
static struct ud_runner_opts runner_opts(const struct ud_suite_run *s, const struct ud_profile *p, double *timeout)
{
	struct ud_runner_opts ro = {
		.ev = s->m->ev, .nev = s->m->nev, .exact = s->exact, .sampling = ud_measurement_sampler(s->m),
		.l1d = ud_host_cache_bytes(p->host, UD_CACHE_L1D), .l2 = ud_host_cache_bytes(p->host, UD_CACHE_L2),
		.l3 = ud_host_cache_bytes(p->host, UD_CACHE_L3),
	};

	*timeout = 20;
	for (size_t i = 0; i < sizeof(suite_timing) / sizeof(suite_timing[0]); i++) {
		if (suite_timing[i].suite == s->suite) {
			ro.target_s = suite_timing[i].target_s;
			*timeout = suite_timing[i].timeout_s;
		}
	}
	return ro;
}

/*
 * Which binary did the work, so a diff can tell whether both hosts ran the
 * same one: the program for an external workload or the one a built-in
 * runs and counts (redis-server), uarchdiff itself else.
 */
static void record_binary(const struct ud_workload_def *d, struct ud_workload *w)
{
	char path[4096], id[128];
	struct ud_err err = UD_ERR_INIT;
	int found;

	if (d->data)
		found = ud_spec_available(d->data, NULL, path, sizeof(path));
	else if (d->program)
		found = ud_which(d->program, path, sizeof(path), &err) == 0;
	else
		found = realpath("/proc/self/exe", path) != NULL;
	if (!found)
		return;
	w->binary_path = strdup(path);
	if (ud_elf_build_id(path, id, sizeof(id), &err) == 0)
		w->build_id = strdup(id);
}

/*
 * A suite item's result into the profile: scores, counters, the binary, the
 * noise and, with --hotspots, its symbols.  Called once every workload has
 * run: loading symbols grows this process, and every workload child (a fork
 * of it) would pay for that at each of its own forks.
 */
static int record(const struct ud_suite_run *s, struct ud_profile *p, const struct ud_suite_item *it,
		  struct ud_err *err)
{
	const struct ud_measurement *m = s->m;
	struct ud_workload *w = ud_profile_add_workload(p, it->def->name);
	struct ud_err why = UD_ERR_INIT;
	char msg[1024];

	if (!w || ud_run_to_workload(it->def, &it->res, m->ev, m->nev, w) != 0 ||
	    ud_noise_measure(it, m->ev, m->nev, w) != 0)
		return ud_fail(err, "out of memory");
	if (ud_measure_topdown(m->u, w, err) != 0)
		return -1;
	record_binary(it->def, w);
	/* Symbols that cannot be named cost this workload its hotspots, never the run its measurements. */
	if (m->sampled && !(w->hotspots = ud_measurement_hotspots(m, it->res.records, it->res.nrecords, &why)) &&
	    s->notice) {
		snprintf(msg, sizeof(msg), "%s: kept without hotspots: %s", it->def->name, why.msg);
		s->notice(s->notice_ctx, msg);
	}
	return 0;
}

/* The first counter of p's workloads when none of them counted, else NULL (nothing to say). */
static const struct ud_counter *uncounted(const struct ud_profile *p)
{
	const struct ud_counter *first = NULL;

	for (size_t i = 0; i < p->nworkloads; i++) {
		for (size_t k = 0; k < p->workloads[i].ncounters; k++) {
			const struct ud_counter *c = &p->workloads[i].counters[k];

			if (c->status == UD_COUNTED)
				return NULL;
			first = first ? first : c;
		}
	}
	return first;
}

/* Every workload, samples interleaved (rounds.h), recorded into p; 0, or -1 with err. */
static int measure_all(const struct ud_suite_run *s, struct ud_profile *p, volatile sig_atomic_t *stop,
		       struct ud_suite_result *res, struct ud_err *err)
{
	struct ud_suite_item *items = calloc(s->ndefs ? s->ndefs : 1, sizeof(*items));
	double timeout;
	struct ud_runner_opts ro = runner_opts(s, p, &timeout);
	struct ud_rounds_plan plan = { .fixed = s->repeat, .target_ci95 = UD_ROUNDS_TARGET_CI95,
				       .min_samples = UD_ROUNDS_MIN_SAMPLES,
				       .budget_s = UD_ROUNDS_BUDGET_FACTOR * (double)s->ndefs * UD_ROUNDS_MIN_SAMPLES *
						   ro.target_s,
				       .seed = (unsigned)time(NULL) ^ (unsigned)getpid() };
	int rc;

	if (!items)
		return ud_fail(err, "out of memory");
	ro.stop = stop;
	for (size_t i = 0; i < s->ndefs; i++) {
		const struct ud_workload_def *d = s->defs[i];

		items[i].def = d;
		items[i].timeout_s = d->data ? ((const struct ud_spec *)d->data)->timeout_s : timeout;
	}
	rc = ud_rounds_run(items, s->ndefs, &ro, &plan, s->progress, s->progress_ctx, err);
	for (size_t i = 0; rc == 0 && i < s->ndefs; i++) {
		/* stopped by Ctrl-C: what was measured is kept, what was not begun is not a result */
		if (!items[i].begun || (items[i].res.outcome == UD_OUT_INTERRUPTED && !items[i].res.nsamples))
			continue;
		rc = record(s, p, &items[i], err);
		res->failed = res->failed || items[i].res.outcome != UD_OUT_OK;
	}
	for (size_t i = 0; i < s->ndefs; i++)
		ud_run_result_free(&items[i].res);
	free(items);
	if (rc == 0 && !res->failed)
		res->uncounted = uncounted(p);
	return rc;
}

int ud_suite_measure(const struct ud_suite_run *s, struct ud_profile *p, struct ud_suite_result *res,
		     struct ud_err *err)
{
	struct ud_stop stop;
	volatile sig_atomic_t *stopped = ud_stop_catch(&stop);
	int rc;

	*res = (struct ud_suite_result){ .save_status = -1 };
	rc = measure_all(s, p, stopped, res, err);
	if (rc == 0 && *stopped) {
		res->stop_signal = *stopped;
		p->incomplete = 1;
	}
	/* nothing measured before a stop replaces no file */
	if (rc == 0 && (!res->stop_signal || p->nworkloads > 0))
		res->save_status = ud_profile_save_somewhere(p, s->output, s->output_new, &res->saved);
	ud_stop_release(&stop);
	/* The pipe that stopped the run must not kill it now: a write that fails is said, the status is 1. */
	signal(SIGPIPE, SIG_IGN);
	return rc;
}

/* "~40 s left", "~2 min left": the live line's estimate, as coarse as it is. */
static void left_text(double s, char *buf, size_t len)
{
	if (s < 90)
		snprintf(buf, len, "~%.0f s left", ceil(s));
	else
		snprintf(buf, len, "~%.0f min left", ceil(s / 60));
}

/* A done workload's line: its median, units and interval, or why it has none. */
static void done_text(const struct ud_suite_item *it, const char *name, char *buf, size_t len)
{
	const struct ud_run_result *r = &it->res;
	/* Units and a program's failure text are input: shown, never obeyed by the terminal. */
	char ubuf[128], dbuf[2048], ci[32], med[40];
	const char *units = ud_visible(r->units[0] ? r->units : it->def->units, ubuf, sizeof(ubuf));
	const char *detail = ud_visible(r->detail.msg, dbuf, sizeof(dbuf));
	double *scores = calloc(r->nsamples ? r->nsamples : 1, sizeof(*scores));

	for (size_t i = 0; scores && i < r->nsamples; i++)
		scores[i] = ud_sample_score(&r->samples[i]);
	if (scores && r->nsamples) {
		/* one sample has no interval: "n/a", never "nan%" */
		ud_format_num("%.1f%%", 100 * ud_ci95_median_rel(scores, r->nsamples), ci, sizeof(ci));
		ud_format_human(ud_median(scores, r->nsamples), med, sizeof(med));
		snprintf(buf, len, "%-20s %s %s (+-%s, %zu samples)%s%s\n", name, med, units, ci, r->nsamples,
			 r->outcome == UD_OUT_OK ? "" : ": ", r->outcome == UD_OUT_OK ? "" : detail);
	} else {
		snprintf(buf, len, "%-20s %s\n", name, r->outcome == UD_OUT_OK ? "no samples" : detail);
	}
	free(scores);
}

void ud_suite_progress_text(const struct ud_suite_item *it, bool done, const struct ud_rounds_status *st, bool tty,
			    char *buf, size_t len)
{
	/* a spec's name is input too */
	char nbuf[256], left[32];
	const char *name = ud_visible(it->def->name, nbuf, sizeof(nbuf));
	/* on a terminal the live line is cleared first, and rewritten in place */
	size_t used = (size_t)snprintf(buf, len, "%s", tty ? "\r\033[K" : "");

	if (used >= len)
		return;
	if (done) {
		done_text(it, name, buf + used, len - used);
	} else if (tty) {
		left_text(st->left_s, left, sizeof(left));
		snprintf(buf + used, len - used, "[%zu/%zu] %s  round %zu  %s", st->index + 1, st->count, name, st->round,
			 left);
	}
}
