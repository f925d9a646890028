#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch.h"
#include "measure.h"
#include "stats.h"
#include "topdown_counters.h"

static void ud_fold_abort(struct ud_fold *f);

/*
 * The core PMU's slots a cycle where a PMU gives them: Arm's PMMIR_EL1.SLOTS
 * as the kernel's armv8_pmuv3 driver shows it (caps/slots, Linux 5.18 and
 * later); NAN where none does.
 */
static double caps_slots(void)
{
	const char *root = "/sys/bus/event_source/devices";
	DIR *d = opendir(root);
	struct dirent *de;
	double slots = NAN;

	while (d && isnan(slots) && (de = readdir(d))) {
		char path[512];
		unsigned long v;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/caps/slots", root, de->d_name);
		f = fopen(path, "r");
		if (f && fscanf(f, "%lx", &v) == 1 && v > 0)
			slots = (double)v;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return slots;
}

int ud_measure_topdown(const struct ud_uarch *u, struct ud_workload *w, struct ud_err *err)
{
	bool caps = false;

	for (size_t k = 0; k < u->ntopdown; k++)
		caps = caps || u->topdown[k].slots_from_caps;
	return ud_topdown_from_counters(u, caps ? caps_slots() : NAN, w, err);
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
		c->cgroup = ev[i].cgroup ? strdup(ev[i].cgroup) : NULL;
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

/* Frees what the fold held, leaving the counters as they are. */
static void ud_fold_abort(struct ud_fold *f)
{
	free(f->values);
	f->values = NULL;
}

/* One run's session: what ud_measure_unit() calls, once or once a group. */
struct stat_run {
	const struct ud_measure_stat *m;
	struct ud_launch_result first;
	struct ud_count *slots; /* the last session's counts per slot (n x nslots), for the aggregates */
	size_t *whole;          /* every slot into aggregate 0: the whole */
	struct ud_err *err;
};

/*
 * What a session's tool events read: its time, and the command's rusage
 * where one ran (wait4(), as perf reads it: whatever the target, -a with a
 * command included); without one there is no rusage to read.
 */
static struct ud_tool_times session_times(const struct ud_launch_result *r)
{
	return (struct ud_tool_times){
		.elapsed_ns = r->elapsed_ns, .user_ns = r->user_ns, .sys_ns = r->sys_ns,
		.no_rusage = r->ran_command ? NULL : "no command was run: user_time and system_time are a command's CPU "
						     "time, from its rusage",
	};
}

static int launch_one(void *ctx, const struct ud_event *ev, size_t n, struct ud_count *counts, bool first)
{
	struct stat_run *sr = ctx;
	const struct ud_session *s = &sr->m->session;
	struct ud_launch_result r;
	struct ud_tool_times t;
	int ret = ud_launch_session(s, ev, n, s->slots ? sr->slots : counts, &r, sr->err);

	if (ret != UD_LAUNCH_OK)
		return ret;
	if (s->slots) {
		ud_counts_aggregate(sr->slots, n, s->nslots, sr->whole, 1, counts);
		ud_counts_flag_untrusted(ev, counts, n);
	}
	t = session_times(&r);
	ud_counts_set_tools(ev, counts, n, &t);
	if (first)
		sr->first = r;
	return ret;
}

/* A --pre or --post command, through the shell as perf runs it; fails when it does not exit 0. */
static int hook(const char *what, const char *cmd, struct ud_err *err)
{
	int status;

	if (!cmd)
		return 0;
	fflush(NULL);
	status = system(cmd);
	if (status == -1)
		return ud_fail(err, "%s '%s': %s", what, cmd, strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return ud_fail(err, "%s '%s' failed (exit status %d): stopped before the next run", what, cmd,
			       ud_exit_status(status));
	return 0;
}

/* The per-aggregate folds of one run: each aggregate's counts out of the slots'. */
static void fold_aggregates(struct stat_run *sr, struct ud_fold *folds, const struct ud_event *ev, size_t n,
			    struct ud_count *acounts, struct ud_count *one)
{
	const struct ud_measure_stat *m = sr->m;
	struct ud_tool_times t = session_times(&sr->first);

	ud_counts_aggregate(sr->slots, n, m->session.nslots, m->aggr_of, m->naggr, acounts);
	for (size_t a = 0; a < m->naggr; a++) {
		for (size_t i = 0; i < n; i++)
			one[i] = acounts[i * m->naggr + a];
		ud_counts_flag_untrusted(ev, one, n);
		/* the command's rusage is not split by CPU, core or thread: each row reads the whole's, as its time */
		ud_counts_set_tools(ev, one, n, &t);
		ud_fold_add(&folds[a], one);
	}
}

/*
 * The runs that counted, moved to the front of elapsed: a run that ended
 * before -D's delay was over counted nothing and lasted 0 s, which no score
 * can be (the profile would fail to load), so it is no sample of the score.
 */
static size_t counted_runs(double *elapsed, size_t runs)
{
	size_t counted = 0;

	for (size_t i = 0; i < runs; i++)
		if (elapsed[i] > 0)
			elapsed[counted++] = elapsed[i];
	return counted;
}

/* The whole's times, once every run is folded; with no run counted there is no score. */
static void set_times(struct ud_workload *w, const double *elapsed, size_t counted, size_t runs, double user,
		      double sys)
{
	w->runs = (int)runs;
	if (counted) {
		ud_score_set_samples(&w->score, elapsed, counted);
		w->elapsed_ns = ud_mean(elapsed, counted) * 1e9;
	}
	w->user_ns = user / (double)runs;
	w->sys_ns = sys / (double)runs;
}

/* The memory a stat measurement works in. */
struct stat_mem {
	struct ud_count *counts, *slots, *acounts, *one;
	double *elapsed;
	size_t *whole;
	struct ud_fold fold, *folds;
};

static int stat_mem_get(struct stat_mem *sm, const struct ud_measure_stat *m, size_t n)
{
	size_t nslots = m->session.slots ? m->session.nslots : 1;

	sm->counts = calloc(n + 1, sizeof(*sm->counts));
	sm->slots = calloc(n * nslots + 1, sizeof(*sm->slots));
	sm->acounts = calloc(n * m->naggr + 1, sizeof(*sm->acounts));
	sm->one = calloc(n + 1, sizeof(*sm->one));
	sm->elapsed = calloc(m->runs + 1, sizeof(*sm->elapsed));
	sm->whole = calloc(nslots, sizeof(*sm->whole));
	sm->folds = calloc(m->naggr + 1, sizeof(*sm->folds));
	return sm->counts && sm->slots && sm->acounts && sm->one && sm->elapsed && sm->whole && sm->folds ? 0 : -1;
}

static void stat_mem_put(struct stat_mem *sm, size_t naggr)
{
	ud_fold_abort(&sm->fold);
	for (size_t a = 0; sm->folds && a < naggr; a++)
		ud_fold_abort(&sm->folds[a]);
	free(sm->counts);
	free(sm->slots);
	free(sm->acounts);
	free(sm->one);
	free(sm->elapsed);
	free(sm->whole);
	free(sm->folds);
}

static int begin_folds(struct stat_mem *sm, const struct ud_measure_stat *m, const struct ud_event *ev, size_t n,
		       struct ud_workload *w, struct ud_workload *const *aggr)
{
	if (ud_fold_begin(&sm->fold, w, ev, n, m->runs, UD_FOLD_MEAN) != 0)
		return -1;
	for (size_t a = 0; a < m->naggr; a++)
		if (ud_fold_begin(&sm->folds[a], aggr[a], ev, n, m->runs, UD_FOLD_MEAN) != 0)
			return -1;
	return 0;
}

/* One run: --pre, -S's sync(), the session (once, or once a group with exact), --post. */
static int one_run(struct stat_run *sr, const struct ud_event *ev, size_t n, struct stat_mem *sm)
{
	int ret;

	if (hook("--pre", sr->m->pre, sr->err) != 0)
		return UD_LAUNCH_SYSTEM;
	if (sr->m->sync)
		sync();
	ret = ud_measure_unit(ev, n, sr->m->exact, launch_one, sr, sm->counts);
	if (ret == UD_MEASURE_NO_MEMORY) {
		ud_fail(sr->err, "out of memory");
		ret = UD_LAUNCH_SYSTEM;
	}
	if (ret == UD_LAUNCH_OK && hook("--post", sr->m->post, sr->err) != 0)
		ret = UD_LAUNCH_SYSTEM;
	return ret;
}

/* The whole's and each aggregate's top-down records, where m asks for them. */
static int stat_topdown(const struct ud_measure_stat *m, struct ud_workload *w, struct ud_workload *const *aggr,
			struct ud_err *err)
{
	if (!m->topdown)
		return 0;
	if (ud_measure_topdown(m->topdown, w, err) != 0)
		return -1;
	for (size_t a = 0; a < m->naggr; a++)
		if (ud_measure_topdown(m->topdown, aggr[a], err) != 0)
			return -1;
	return 0;
}

int ud_measure_stat(const struct ud_measure_stat *m, const struct ud_event *ev, size_t n, struct ud_workload *w,
		    struct ud_workload *const *aggr, struct ud_launch_result *last, struct ud_err *err)
{
	struct stat_run sr = { .m = m, .err = err };
	struct stat_mem sm = { 0 };
	double user = 0, sys = 0;
	size_t done = 0;
	int ret = UD_LAUNCH_OK;

	if (stat_mem_get(&sm, m, n) != 0 || begin_folds(&sm, m, ev, n, w, aggr) != 0) {
		ret = UD_LAUNCH_SYSTEM;
		ud_fail(err, "out of memory");
	}
	sr.slots = sm.slots;
	sr.whole = sm.whole;
	while (ret == UD_LAUNCH_OK && done < m->runs) {
		ret = one_run(&sr, ev, n, &sm);
		if (ret != UD_LAUNCH_OK)
			break;
		ud_fold_add(&sm.fold, sm.counts);
		if (m->naggr)
			fold_aggregates(&sr, sm.folds, ev, n, sm.acounts, sm.one);
		sm.elapsed[done++] = (double)sr.first.elapsed_ns / 1e9;
		user += (double)sr.first.user_ns;
		sys += (double)sr.first.sys_ns;
		*last = sr.first;
		if (sr.first.stop_signal)
			break;
	}
	if (ret == UD_LAUNCH_OK) {
		size_t counted = counted_runs(sm.elapsed, done);

		ud_fold_finish(&sm.fold);
		set_times(w, sm.elapsed, counted, done, user, sys);
		for (size_t a = 0; a < m->naggr; a++) {
			ud_fold_finish(&sm.folds[a]);
			set_times(aggr[a], sm.elapsed, counted, done, user, sys);
		}
		if (stat_topdown(m, w, aggr, err) != 0)
			ret = UD_LAUNCH_SYSTEM;
	}
	stat_mem_put(&sm, m->naggr);
	return ret;
}

/* One reading's counts as w's counters, over length_ns. */
static int workload_from(struct ud_workload *w, const struct ud_event *ev, struct ud_count *counts, size_t n,
			 uint64_t length_ns)
{
	struct ud_tool_times t = {
		.elapsed_ns = length_ns,
		.no_rusage = "a command's CPU time (its rusage) is known once it has ended, not at each interval "
			     "(--summary prints it)",
	};
	struct ud_fold fold;

	ud_counts_flag_untrusted(ev, counts, n);
	ud_counts_set_tools(ev, counts, n, &t);
	if (ud_fold_begin(&fold, w, ev, n, 1, UD_FOLD_MEAN) != 0)
		return -1;
	ud_fold_add(&fold, counts);
	ud_fold_finish(&fold);
	w->runs = 1;
	w->elapsed_ns = (double)length_ns;
	return 0;
}

int ud_measure_interval(const struct ud_measure_stat *m, const struct ud_event *ev, size_t n,
			const struct ud_count *deltas, uint64_t length_ns, struct ud_workload *w,
			struct ud_workload *const *aggr)
{
	size_t nslots = m->session.slots ? m->session.nslots : 1;
	struct ud_count *counts = calloc(n * (m->naggr + 1) + 1, sizeof(*counts)), *one = calloc(n + 1, sizeof(*one));
	size_t *whole = calloc(nslots, sizeof(*whole));
	int ret = counts && one && whole ? 0 : -1;

	if (ret == 0) {
		ud_counts_aggregate(deltas, n, nslots, whole, 1, counts);
		ret = workload_from(w, ev, counts, n, length_ns);
	}
	if (ret == 0 && m->naggr)
		ud_counts_aggregate(deltas, n, nslots, m->aggr_of, m->naggr, counts);
	for (size_t a = 0; ret == 0 && a < m->naggr; a++) {
		for (size_t i = 0; i < n; i++)
			one[i] = counts[i * m->naggr + a];
		ret = workload_from(aggr[a], ev, one, n, length_ns);
	}
	free(counts);
	free(one);
	free(whole);
	return ret;
}
