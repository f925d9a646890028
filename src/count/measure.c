#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "launch.h"
#include "measure.h"
#include "stats.h"

struct ud_event *ud_measure_plan(const struct ud_uarch *u, const char *list, size_t *n, struct ud_err *err)
{
	return ud_measure_plan_reserving(u, list, 0, n, err);
}

struct ud_event *ud_measure_plan_reserving(const struct ud_uarch *u, const char *list, int reserved, size_t *n,
					   struct ud_err *err)
{
	struct ud_event *ev, *planned;
	int usable;

	if (!list) {
		ev = calloc(ud_default_events_count, sizeof(*ev));
		if (!ev)
			return ud_fail(err, "out of memory"), NULL;
		for (size_t i = 0; i < ud_default_events_count; i++)
			ud_event_resolve_for(u, ud_default_events[i], &ev[i]);
		*n = ud_default_events_count;
	} else {
		*n = ud_event_parse_list(list, u, &ev, err);
		if (!*n)
			return NULL;
	}
	usable = ud_uarch_usable_counters(u, ud_host_nmi_watchdog()) - reserved;
	planned = ud_event_plan_groups(ev, *n, usable > 1 ? usable : 1, u->counters_fixed, n);
	free(ev);
	if (!planned)
		ud_fail(err, "out of memory");
	return planned;
}

int ud_measure_unit(const struct ud_event *ev, size_t n, bool exact, ud_measure_run_fn run, void *ctx,
		    struct ud_count *counts)
{
	int groups = exact ? ud_event_group_count(ev, n) : 0;
	struct ud_event *sub;
	struct ud_count *part;
	size_t *index;
	int ret = 0;

	if (groups <= 1)
		return run(ctx, ev, n, counts, true);
	sub = calloc(n, sizeof(*sub));
	part = calloc(n, sizeof(*part));
	index = calloc(n, sizeof(*index));
	if (!sub || !part || !index)
		ret = UD_MEASURE_NO_MEMORY;
	for (int g = 0; g < groups && ret == 0; g++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++) {
			if (ev[i].group == g || (g == 0 && ev[i].group < 0)) {
				sub[k] = ev[i];
				index[k++] = i;
			}
		}
		ret = run(ctx, sub, k, part, g == 0);
		for (size_t j = 0; j < k && ret == 0; j++)
			counts[index[j]] = part[j];
	}
	/*
	 * Each group's run judged its zeros alone, and a group without cycles
	 * or instructions has no evidence that the PMU counts at all: judge
	 * the merged readings again (found under QEMU's Neoverse N1 PMU).
	 */
	if (ret == 0)
		ud_counts_flag_untrusted(ev, counts, n);
	free(sub);
	free(part);
	free(index);
	return ret;
}

int ud_fold_begin(struct ud_fold *f, struct ud_workload *w, const struct ud_event *ev, size_t n, size_t runs,
		  enum ud_fold_mode mode)
{
	*f = (struct ud_fold){ .w = w, .first = w->ncounters, .n = n, .runs = runs, .mode = mode };
	f->values = calloc(n * runs > 0 ? n * runs : 1, sizeof(*f->values));
	if (!f->values)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct ud_counter *c = ud_workload_add_counter(w, ev[i].name);

		if (!c) {
			ud_fold_abort(f);
			return -1;
		}
		c->status = UD_COUNTED;
		c->raw_value = c->enabled_ns = c->running_ns = 0;
		c->opened_as = ev[i].opened_as ? strdup(ev[i].opened_as) : NULL;
		c->vendor_event = ev[i].vendor_event[0] ? strdup(ev[i].vendor_event) : NULL;
		c->semantics = ev[i].semantics[0] ? strdup(ev[i].semantics) : NULL;
		c->group = ev[i].group;
	}
	return 0;
}

void ud_fold_add(struct ud_fold *f, const struct ud_count *counts)
{
	if (f->done >= f->runs)
		return;
	for (size_t i = 0; i < f->n; i++) {
		struct ud_counter *c = &f->w->counters[f->first + i];
		const struct ud_count *k = &counts[i];

		f->values[i * f->runs + f->done] = k->value;
		if (k->status != UD_COUNTED && c->status == UD_COUNTED) {
			c->status = k->status;
			c->reason = strdup(k->reason);
		}
		c->raw_value += (double)k->raw;
		c->enabled_ns += (double)k->enabled_ns;
		c->running_ns += (double)k->running_ns;
	}
	f->done++;
}

/* A quantity summed over the runs, as the fold's mode wants it: mean or total. */
static double combine(const struct ud_fold *f, double total)
{
	return f->mode == UD_FOLD_MEAN ? total / (double)f->done : total;
}

static void finish_counter(const struct ud_fold *f, struct ud_counter *c, const double *x)
{
	double total = 0;

	if (!f->done) {
		c->status = UD_NOT_COUNTED;
		free(c->reason);
		c->reason = strdup("nothing was measured: no run completed");
	}
	if (c->status == UD_NOT_SUPPORTED) {
		/* Refused: it was never opened, as anything. */
		free(c->opened_as);
		c->opened_as = NULL;
	}
	if (c->status == UD_NOT_SUPPORTED || !f->done) {
		c->value = c->raw_value = c->enabled_ns = c->running_ns = NAN;
		return;
	}
	/* Opened but not counted keeps its times: they show why (never scheduled). */
	c->raw_value = combine(f, c->raw_value);
	c->enabled_ns = combine(f, c->enabled_ns);
	c->running_ns = combine(f, c->running_ns);
	if (c->status != UD_COUNTED) {
		c->value = NAN;
		return;
	}
	for (size_t r = 0; r < f->done; r++)
		total += x[r];
	c->value = combine(f, total);
	/* The relative spread of a total over equal samples is that of their mean. */
	c->rel_stddev = ud_rel_stderr(x, f->done);
}

void ud_fold_finish(struct ud_fold *f)
{
	for (size_t i = 0; i < f->n; i++)
		finish_counter(f, &f->w->counters[f->first + i], &f->values[i * f->runs]);
	ud_fold_abort(f);
}

void ud_fold_abort(struct ud_fold *f)
{
	free(f->values);
	f->values = NULL;
}

/* One launch of the command: what ud_measure_unit() calls, once or once a group. */
struct command_run {
	char *const *argv;
	const struct ud_launch_sampling *sampling;
	struct ud_launch_result first;
	struct ud_err *err;
};

static int launch_one(void *ctx, const struct ud_event *ev, size_t n, struct ud_count *counts, bool first)
{
	struct command_run *cr = ctx;
	struct ud_launch_result r;
	int ret = ud_launch_sampled(cr->argv, ev, n, counts, cr->sampling, &r, cr->err);

	if (ret == UD_LAUNCH_OK && first)
		cr->first = r;
	return ret;
}

int ud_measure_command(char *const argv[], const struct ud_event *ev, size_t n, bool exact, size_t runs,
		       const struct ud_launch_sampling *sampling, struct ud_workload *w, int *wait_status,
		       struct ud_err *err)
{
	struct command_run cr = { .argv = argv, .sampling = sampling, .err = err };
	struct ud_count *counts = calloc(n ? n : 1, sizeof(*counts));
	double *elapsed = calloc(runs ? runs : 1, sizeof(*elapsed)), user = 0, sys = 0;
	struct ud_fold fold = { 0 };
	int ret = UD_LAUNCH_OK;

	if (!counts || !elapsed || ud_fold_begin(&fold, w, ev, n, runs, UD_FOLD_MEAN) != 0) {
		ret = UD_LAUNCH_SYSTEM;
		ud_fail(err, "out of memory");
	}
	for (size_t r = 0; r < runs && ret == UD_LAUNCH_OK; r++) {
		ret = ud_measure_unit(ev, n, exact, launch_one, &cr, counts);
		if (ret == UD_MEASURE_NO_MEMORY) {
			ret = UD_LAUNCH_SYSTEM;
			ud_fail(err, "out of memory");
		}
		if (ret != UD_LAUNCH_OK)
			break;
		ud_fold_add(&fold, counts);
		elapsed[r] = (double)cr.first.elapsed_ns / 1e9;
		user += (double)cr.first.user_ns;
		sys += (double)cr.first.sys_ns;
		*wait_status = cr.first.wait_status;
	}
	if (ret == UD_LAUNCH_OK) {
		ud_fold_finish(&fold);
		w->runs = (int)runs;
		ud_score_set_samples(&w->score, elapsed, runs);
		w->elapsed_ns = ud_mean(elapsed, runs) * 1e9;
		w->user_ns = user / (double)runs;
		w->sys_ns = sys / (double)runs;
	}
	ud_fold_abort(&fold);
	free(counts);
	free(elapsed);
	return ret;
}
