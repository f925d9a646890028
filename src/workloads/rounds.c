#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "derived.h"
#include "noise.h"
#include "rounds.h"
#include "stats.h"

/* The host's steal and total CPU time so far, in clock ticks over all CPUs (the first line of /proc/stat). */
static int read_cpu_ticks(uint64_t *steal, uint64_t *total)
{
	uint64_t v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int got;

	if (!f)
		return -1;
	/* cpu  user nice system idle iowait irq softirq steal (guest time is inside user already) */
	got = fscanf(f, "cpu %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		     " %" SCNu64, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (got < 4)
		return -1;
	*steal = got == 8 ? v[7] : 0;
	*total = 0;
	for (int i = 0; i < got; i++)
		*total += v[i];
	return 0;
}

/* The 1-minute load average; NAN when unreadable. */
static double read_loadavg(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load = NAN;

	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = NAN;
		fclose(f);
	}
	return load;
}

void ud_observe_start(struct ud_observation *obs)
{
	obs->ticks_ok = read_cpu_ticks(&obs->steal0, &obs->total0) == 0;
	obs->load = read_loadavg();
	obs->start_ns = ud_now_ns();
}

void ud_observe_stop(const struct ud_observation *obs, struct ud_observed *seen)
{
	uint64_t s1, t1;

	seen->sampled_ns += (double)(ud_now_ns() - obs->start_ns);
	if (obs->ticks_ok && read_cpu_ticks(&s1, &t1) == 0 && t1 >= obs->total0 && s1 >= obs->steal0) {
		seen->steal_ticks += s1 - obs->steal0;
		seen->total_ticks += t1 - obs->total0;
	}
	if (isfinite(obs->load) && !(seen->load_max >= obs->load))
		seen->load_max = obs->load;
}

double ud_observed_steal_pct(const struct ud_observed *seen)
{
	return seen->total_ticks ? 100.0 * (double)seen->steal_ticks / (double)seen->total_ticks : NAN;
}

/* One sample of it, with what the host did meanwhile. */
static void sample_observed(struct ud_suite_item *it, const struct ud_runner_opts *o)
{
	struct ud_runner_opts mine = *o;
	struct ud_observation obs;

	mine.timeout_s = it->timeout_s;
	ud_observe_start(&obs);
	ud_run_sample(it->def, &mine, &it->res);
	ud_observe_stop(&obs, &it->seen);
}

/*
 * Whether it should take another sample under plan, its interval kept in
 * it->ci95 for the next round's order; the suite's budget is the round's
 * to judge (ud_rounds_pick).
 */
static bool wants_more(struct ud_suite_item *it, const struct ud_rounds_plan *plan)
{
	const struct ud_run_result *r = &it->res;
	double *scores;

	if (r->outcome != UD_OUT_OK)
		return false;
	if (plan->fixed > 0)
		return r->nsamples < (size_t)plan->fixed;
	if (r->nsamples < (size_t)plan->min_samples)
		return true;
	scores = malloc(r->nsamples * sizeof(*scores));
	if (!scores)
		return false;
	for (size_t i = 0; i < r->nsamples; i++)
		scores[i] = ud_sample_score(&r->samples[i]);
	it->ci95 = ud_ci95_median_rel(scores, r->nsamples);
	free(scores);
	return !(it->ci95 <= plan->target_ci95);
}

/* Fisher-Yates with rand_r: the order of one round. */
static void shuffle(size_t *order, size_t n, unsigned *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)rand_r(state) % i, t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

/*
 * Its turn in a round: calibrated first if this is its first (so the first
 * round spreads calibrations among samples too), then one sample.
 */
static void take_turn(struct ud_suite_item *it, const struct ud_runner_opts *o, const struct ud_rounds_plan *plan)
{
	if (!it->begun) {
		struct ud_runner_opts mine = *o;

		mine.timeout_s = it->timeout_s;
		it->seen = (struct ud_observed){ .load_max = NAN };
		ud_run_begin(it->def, &mine, &it->res);
		it->begun = true;
	}
	if (it->res.outcome == UD_OUT_OK)
		sample_observed(it, o);
	it->active = wants_more(it, plan);
}

/* Its samples' mean wall time, fork and setup included, in seconds: what its next one should take. */
static double sample_cost(const struct ud_suite_item *it)
{
	return it->res.nsamples ? it->seen.sampled_ns / 1e9 / (double)it->res.nsamples : 0;
}

/* Whether a's interval is wider than b's; one that could not be computed (NAN) is widest of all. */
static bool wider(const struct ud_suite_item *a, const struct ud_suite_item *b)
{
	return isnan(a->ci95) ? !isnan(b->ci95) : a->ci95 > b->ci95;
}

size_t ud_rounds_pick(const struct ud_suite_item *items, size_t n, double left_s, size_t *order, size_t *ndropped)
{
	size_t nall = 0, end, k = 0;

	/* insertion sort, widest first: a suite has tens of workloads */
	for (size_t i = 0; i < n; i++) {
		size_t at = nall;

		if (!items[i].active)
			continue;
		nall++;
		for (; at > 0 && wider(&items[i], &items[order[at - 1]]); at--)
			order[at] = order[at - 1];
		order[at] = i;
	}
	/* one that does not fit goes to the end, and never fits again: what is left only falls */
	for (end = nall; k < end;) {
		size_t i = order[k];
		double cost = sample_cost(&items[i]);

		if (cost <= left_s) {
			left_s -= cost;
			k++;
			continue;
		}
		memmove(order + k, order + k + 1, (nall - k - 1) * sizeof(*order));
		order[nall - 1] = i;
		end--;
	}
	*ndropped = nall - end;
	return end;
}

/* The samples it still lacks under plan: -r N's, or the first min_samples (which no budget cuts). */
static size_t owed(const struct ud_suite_item *it, const struct ud_rounds_plan *plan)
{
	size_t n = it->res.nsamples, want = (size_t)(plan->fixed > 0 ? plan->fixed : plan->min_samples);

	return it->active && n < want ? want - n : 0;
}

/* Those, at its mean sample time (target_s before its first), in seconds. */
static double owed_s(const struct ud_suite_item *it, const struct ud_rounds_plan *plan, double target_s)
{
	return (double)owed(it, plan) * (it->res.nsamples ? sample_cost(it) : target_s);
}

/* ud_rounds_status.left_s: spent_s seconds into the rounds. */
static double suite_left(const struct ud_suite_item *items, size_t n, const struct ud_rounds_plan *plan,
			 double target_s, double spent_s)
{
	double first = 0, budget = 0;
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		first += owed_s(&items[i], plan, target_s);
		any = any || items[i].active;
	}
	if (plan->fixed <= 0 && any)
		budget = plan->budget_s - spent_s;
	return budget > first ? budget : first;
}

static bool stopped(const struct ud_runner_opts *o)
{
	return o->stop && *o->stop;
}

/*
 * The next round into order[0..m), returning m: every active workload,
 * shuffled, while some lack their fixed or first samples; past those,
 * ud_rounds_pick's, and those it drops are done, their target missed (told
 * to progress with st).
 */
static size_t next_round(struct ud_suite_item *items, size_t n, const struct ud_rounds_plan *plan, double spent_s,
			 size_t *order, unsigned *state, ud_rounds_progress progress, void *ctx,
			 const struct ud_rounds_status *st)
{
	size_t m = 0, dropped;
	bool lacking = false;

	for (size_t i = 0; i < n; i++) {
		if (items[i].active)
			order[m++] = i;
		lacking = lacking || owed(&items[i], plan) > 0;
	}
	if (plan->fixed > 0 || lacking) {
		shuffle(order, m, state);
		return m;
	}
	m = ud_rounds_pick(items, n, plan->budget_s - spent_s, order, &dropped);
	for (size_t k = m; k < m + dropped; k++) {
		struct ud_suite_item *it = &items[order[k]];

		it->active = false;
		it->target_missed = true;
		if (progress)
			progress(ctx, it, true, st);
	}
	return m;
}

int ud_rounds_run(struct ud_suite_item *items, size_t n, const struct ud_runner_opts *o,
		    const struct ud_rounds_plan *plan, ud_rounds_progress progress, void *ctx, struct ud_err *err)
{
	size_t *order = calloc(n ? n : 1, sizeof(*order)), m;
	unsigned state = plan->seed;
	struct ud_rounds_status st = { .count = n };
	uint64_t t0 = ud_now_ns();

	if (!order)
		return ud_fail(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		items[i].active = true;
		items[i].ci95 = NAN;
	}
	do {
		m = next_round(items, n, plan, (double)(ud_now_ns() - t0) / 1e9, order, &state, progress, ctx, &st);
		st.round++;
		for (size_t k = 0; k < m && !stopped(o); k++) {
			struct ud_suite_item *it = &items[order[k]];

			take_turn(it, o, plan);
			st.index = order[k];
			st.left_s = suite_left(items, n, plan, o->target_s, (double)(ud_now_ns() - t0) / 1e9);
			if (progress)
				progress(ctx, it, !it->active, &st);
		}
	} while (m && !stopped(o));
	for (size_t i = 0; i < n; i++) {
		struct ud_run_result *r = &items[i].res;

		/* Stopped while it still wanted samples: what it has is kept, and its outcome says it was cut short. */
		if (items[i].begun && items[i].active && r->outcome == UD_OUT_OK && stopped(o)) {
			ud_fail(&r->detail, "interrupted after %zu samples", r->nsamples);
			r->outcome = UD_OUT_INTERRUPTED;
		}
		if (items[i].begun)
			ud_run_end(r);
	}
	free(order);
	return 0;
}

int ud_noise_measure(const struct ud_suite_item *it, const struct ud_event *ev, size_t nev, struct ud_workload *w)
{
	struct ud_noise *noise = ud_workload_noise(w);
	const struct ud_run_result *r = &it->res;
	size_t tc = nev;

	if (!noise)
		return -1;
	for (size_t i = 0; i < nev; i++)
		if (strcmp(ev[i].name, "task-clock") == 0)
			tc = i;
	for (size_t s = 0; s < r->nsamples; s++) {
		const struct ud_sample *smp = &r->samples[s];
		double task_clock = tc < nev && smp->counts[tc].status == UD_COUNTED ? smp->counts[tc].value : NAN;
		double cpus = ud_cpu_time_ns(task_clock, (double)smp->user_ns, (double)smp->sys_ns) /
			      (double)smp->elapsed_ns;

		if (isfinite(cpus) && !(noise->cpus_utilized_min <= cpus))
			noise->cpus_utilized_min = cpus;
	}
	noise->steal_pct = ud_observed_steal_pct(&it->seen);
	noise->load_avg = it->seen.load_max;
	noise->ci95_rel = w->score.ci95_rel;
	noise->samples_taken = (int)r->nsamples;
	if (ud_noise_assess(noise, !it->def->not_single_cpu) != 0)
		return -1;
	return it->target_missed && !(noise->ci95_rel <= UD_ROUNDS_TARGET_CI95)
		       ? ud_noise_target_missed(noise, UD_ROUNDS_TARGET_CI95)
		       : 0;
}
