/*
 * teach_labs.c - the three labs measured (teach_labs.h): the points of each
 * experiment, each timed as the fastest of a few calibrated runs, with the
 * hardware counters read around the same runs and the host watched around
 * each point (noise.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "clock.h"
#include "counting.h"
#include "hugebuf.h"
#include "kernels.h"
#include "noise.h"
#include "rounds.h"
#include "stats.h"
#include "teach_labs.h"
#include "text.h"

/*
 * A point's timed run: long enough that the clock's and the loop's overheads
 * vanish (10 ms), repeated 5 times: on a shared host, the more short runs, the
 * likelier one falls in a quiet moment.
 */
#define TARGET_NS 10e6
#define REPEATS 5
/* Quick mode (tests): 1 ms, once. */
#define QUICK_TARGET_NS 1e6
/* Calibration stops doubling at an eighth of the target and scales from there. */
#define CALIBRATE_PART 8

/* The branch lab's array: 1 MB of fresh data, far beyond any predictor's history (issue 14: >= 256 KB). */
#define BRANCH_BYTES (1u << 20)
#define QUICK_BRANCH_BYTES (64u << 10)
static const double branch_shares[] = { 0, 5, 10, 20, 30, 40, 50 };
/*
 * The whole sweep, sorted data included, taken this many times, each point
 * keeping its fastest: sorted data's throughput-bound loop suffers most from
 * work on the other vCPU, and rounds spread over a second give every point
 * its quiet moment (one pass: sorted data read 0.33-0.48 ns here).
 */
#define BRANCH_ROUNDS 3

/* The cache lab's sizes: 4 KB up to 4x the L3, each power of 2 and 1.5 times it. */
#define CACHE_MIN_KB 4.0
#define CACHE_L3_TIMES 4.0
#define CACHE_FALLBACK_L3_KB (32.0 * 1024) /* issue 14's hosts' L3, where sysfs says nothing */
#define CACHE_MEM_SHARE 4.0                /* at most a quarter of free memory */
#define QUICK_CACHE_MAX_KB 256.0
#define CACHE_SIZES_MAX 64
/* A chase run is a whole number of these steps. */
#define CHASE_BLOCK 4096

#define ILP_BLOCK 1024

/* Counter indices into UD_TEACH_EVENTS, in its order. */
enum { EV_CYCLES, EV_INSTRUCTIONS, EV_BRANCH_MISSES, EV_L1D_MISSES };

typedef double (*kernel_fn)(void *arg, uint64_t reps); /* runs reps blocks; returns units of work done */

struct probe {
	const struct ud_teach_opts *o;
	struct ud_counters *set;
	struct ud_count *counts, *best;
	double target_ns;
	int repeats;
	double *times;             /* the current point's timed runs, ns a unit of work (repeats of them) */
	struct ud_noise *noise;    /* the lab's, filled point by point */
	struct ud_observed seen;   /* steal and load over the lab's points */
};

static double per(const struct probe *pr, int ev, double units)
{
	if ((size_t)ev >= pr->o->nev || pr->best[ev].status != UD_COUNTED || units <= 0)
		return NAN;
	return pr->best[ev].value / units;
}

/* One timed run; returns its ns a unit of work (INFINITY when it did none). */
static double timed_run(struct probe *pr, kernel_fn fn, void *arg, uint64_t reps, double *best_ns, double *best_units)
{
	struct ud_err err = UD_ERR_INIT;
	uint64_t t0;
	double units, ns;

	/* a set with nothing opened (no PMU) fails these; its readings then say why, point by point */
	ud_counters_reset(pr->set, &err);
	ud_counters_enable(pr->set, &err);
	t0 = ud_thread_cpu_ns();
	units = fn(arg, reps);
	ns = (double)(ud_thread_cpu_ns() - t0);
	ud_counters_disable(pr->set, &err);
	if (units > 0 && ns / units < *best_ns / *best_units) {
		*best_ns = ns;
		*best_units = units;
		if (ud_counters_read(pr->set, pr->counts, &err) == 0)
			memcpy(pr->best, pr->counts, pr->o->nev * sizeof(*pr->counts));
	}
	return units > 0 ? ns / units : INFINITY;
}

/*
 * What the host did to one point, measured from wall0 and cpu0 (the
 * monotonic and the thread's CPU clock at its start): the share of a CPU
 * the thread got (below 1 only when it waited for one: it never sleeps),
 * and the spread of the point's timed runs; the lab keeps the lowest share
 * and the widest spread.
 */
static void point_noise(struct probe *pr, const struct ud_observation *obs, uint64_t wall0, uint64_t cpu0)
{
	double wall = (double)(ud_now_ns() - wall0), cpus = (double)(ud_thread_cpu_ns() - cpu0) / wall;
	double ci = ud_ci95_median_rel(pr->times, (size_t)pr->repeats);

	ud_observe_stop(obs, &pr->seen);
	if (wall > 0 && !(pr->noise->cpus_utilized_min <= cpus))
		pr->noise->cpus_utilized_min = cpus;
	if (isfinite(ci) && !(pr->noise->ci95_rel >= ci))
		pr->noise->ci95_rel = ci;
}

/* Times fn at a calibrated repetition count; fills pt's y (ns a unit) and counts. */
static void measure(struct probe *pr, kernel_fn fn, void *arg, struct ud_lab_point *pt)
{
	uint64_t reps = 1, t0, wall0, cpu0;
	double ns = 0, best_ns = INFINITY, best_units = 1;
	struct ud_observation obs;

	ud_observe_start(&obs);
	wall0 = ud_now_ns();
	cpu0 = ud_thread_cpu_ns();
	for (;;) {
		t0 = ud_thread_cpu_ns();
		fn(arg, reps);
		ns = (double)(ud_thread_cpu_ns() - t0);
		if (ns >= pr->target_ns / CALIBRATE_PART || reps >= (1ULL << 40))
			break;
		reps *= 2;
	}
	reps = (uint64_t)fmax(1, (double)reps * pr->target_ns / fmax(ns, 1));
	for (size_t i = 0; i < pr->o->nev; i++)
		pr->best[i] = (struct ud_count){ .status = UD_NOT_COUNTED };
	for (int i = 0; i < pr->repeats; i++)
		pr->times[i] = timed_run(pr, fn, arg, reps, &best_ns, &best_units);
	point_noise(pr, &obs, wall0, cpu0);
	pt->y = best_ns / best_units;
	pt->ipc = per(pr, EV_INSTRUCTIONS, best_units) / per(pr, EV_CYCLES, best_units);
	pt->mispredicts = per(pr, EV_BRANCH_MISSES, best_units);
	pt->l1d_misses = per(pr, EV_L1D_MISSES, best_units);
}

/* The lab's counter status: counted when every counter was, else the first one's reason. */
static void counters_status(const struct probe *pr, struct ud_lab_result *r)
{
	r->counters = pr->o->nev ? UD_COUNTED : UD_NOT_SUPPORTED;
	snprintf(r->counters_reason, sizeof(r->counters_reason), "%s", pr->o->nev ? "" : "no counters planned");
	for (size_t i = 0; i < pr->o->nev; i++) {
		if (pr->best[i].status != UD_COUNTED) {
			r->counters = pr->best[i].status;
			snprintf(r->counters_reason, sizeof(r->counters_reason), "%.64s: %s", pr->o->ev[i].name,
				 pr->best[i].reason[0] ? pr->best[i].reason : "not counted");
			return;
		}
	}
}

static void progress(const struct ud_teach_opts *o, enum ud_lab lab, size_t step, size_t steps)
{
	if (o->progress)
		o->progress(o->progress_arg, lab, step, steps);
}

/* ---- branch: one branch over sorted data and over a share of taken branches at random ---- */

struct branch_arg {
	const uint8_t *a;
	size_t n;
	uint64_t sink;
};

static double branch_kernel(void *arg, uint64_t reps)
{
	struct branch_arg *b = arg;

	for (uint64_t i = 0; i < reps; i++)
		b->sink += ud_branch_sum(b->a, b->n);
	return (double)reps * (double)b->n;
}

/* Keeps the faster of *best and a new measurement of the same point. */
static void measure_min(struct probe *pr, kernel_fn fn, void *arg, struct ud_lab_point *best, bool first)
{
	struct ud_lab_point pt;

	measure(pr, fn, arg, &pt);
	if (first || pt.y < best->y)
		*best = pt;
}

static int branch_lab(struct probe *pr, struct ud_lab_result *r, struct ud_err *err)
{
	size_t n = pr->o->quick ? QUICK_BRANCH_BYTES : BRANCH_BYTES, nshares = sizeof(branch_shares) / sizeof(branch_shares[0]);
	int rounds = pr->o->quick ? 1 : BRANCH_ROUNDS;
	uint8_t *a = malloc(n * (nshares + 1));
	struct branch_arg arg = { a, n, 0 };
	struct ud_lab_point sorted;

	r->points = calloc(nshares, sizeof(*r->points));
	if (!a || !r->points) {
		free(a);
		return ud_fail(err, "out of memory for the branch lab");
	}
	/* the sorted array first, then one a share */
	ud_bytes_random(a, n, 0.5, 0x2545F4914F6CDD1DULL);
	ud_bytes_sort(a, n);
	for (size_t i = 0; i < nshares; i++)
		ud_bytes_random(a + (i + 1) * n, n, branch_shares[i] / 100, 0x9E3779B97F4A7C15ULL + i);
	for (int round = 0; round < rounds; round++) {
		progress(pr->o, r->lab, (size_t)round, (size_t)rounds);
		arg.a = a;
		measure_min(pr, branch_kernel, &arg, &sorted, round == 0);
		for (size_t i = 0; i < nshares; i++) {
			arg.a = a + (i + 1) * n;
			measure_min(pr, branch_kernel, &arg, &r->points[i], round == 0);
		}
	}
	r->reference = sorted.y;
	for (size_t i = 0; i < nshares; i++) {
		r->points[i].x = branch_shares[i];
		r->points[i].l1d_misses = NAN;
	}
	r->npoints = nshares;
	free(a);
	return 0;
}

/* ---- cache: a dependent pointer chase over working sets from 4 KB to 4x the L3 ---- */

struct chase_arg {
	const void *p;
};

static double chase_kernel(void *arg, uint64_t reps)
{
	struct chase_arg *c = arg;

	c->p = ud_ring_chase(c->p, reps * CHASE_BLOCK);
	return (double)reps * CHASE_BLOCK;
}

/* The largest working set: 4x the L3, at most a quarter of free memory; says so in r->note when capped. */
static double cache_max_kb(const struct ud_teach_opts *o, struct ud_lab_result *r)
{
	double want = CACHE_L3_TIMES * (o->caches.l3 > 0 ? o->caches.l3 : CACHE_FALLBACK_L3_KB);
	char kb[32];

	if (o->quick) {
		snprintf(r->note, sizeof(r->note), "quick mode: working sets up to 256 KB, 1 ms a point; nothing is shown");
		return QUICK_CACHE_MAX_KB;
	}
	if (o->mem_avail_kb > 0 && want > o->mem_avail_kb / CACHE_MEM_SHARE) {
		want = o->mem_avail_kb / CACHE_MEM_SHARE;
		ud_format_kb(want, kb, sizeof(kb));
		snprintf(r->note, sizeof(r->note), "working sets capped at %s, a quarter of the free memory", kb);
	}
	return want;
}

static size_t cache_sizes(double max_kb, double *kb)
{
	size_t n = 0;

	for (double s = CACHE_MIN_KB; s <= max_kb && n + 2 <= CACHE_SIZES_MAX; s *= 2) {
		kb[n++] = s;
		if (1.5 * s <= max_kb)
			kb[n++] = 1.5 * s;
	}
	return n;
}

static int cache_lab(struct probe *pr, struct ud_lab_result *r, struct ud_err *err)
{
	double kb[CACHE_SIZES_MAX];
	size_t n = cache_sizes(cache_max_kb(pr->o, r), kb);
	void *buf = n ? ud_huge_alloc((size_t)(kb[n - 1] * 1024)) : NULL;
	struct chase_arg arg;

	r->sysfs = pr->o->caches;
	r->points = calloc(n ? n : 1, sizeof(*r->points));
	if (!buf || !r->points) {
		free(buf);
		return ud_fail(err, "out of memory for the cache lab's %.0f KB", n ? kb[n - 1] : 0);
	}
	for (size_t i = 0; i < n; i++) {
		size_t lines = (size_t)(kb[i] * 1024) / UD_LINE_BYTES;

		progress(pr->o, r->lab, i, n);
		ud_ring_link(buf, lines, 0x9E3779B97F4A7C15ULL + i);
		arg.p = ud_ring_chase(buf, lines); /* one lap: the set in whatever caches hold it */
		measure(pr, chase_kernel, &arg, &r->points[i]);
		r->points[i].x = kb[i];
		r->points[i].mispredicts = NAN;
		r->npoints++;
	}
	free(buf);
	return 0;
}

/* ---- ilp: 1 to 8 independent chains of dependent multiply-adds ---- */

struct chains_arg {
	int k;
	uint64_t sink;
};

static double chains_kernel(void *arg, uint64_t reps)
{
	struct chains_arg *c = arg;

	c->sink += ud_chains(c->k, reps * ILP_BLOCK, c->sink);
	return (double)reps * ILP_BLOCK * c->k;
}

static int ilp_lab(struct probe *pr, struct ud_lab_result *r, struct ud_err *err)
{
	struct chains_arg arg = { 0, 1 };

	r->points = calloc(UD_CHAINS_MAX, sizeof(*r->points));
	if (!r->points)
		return ud_fail(err, "out of memory");
	for (int k = 1; k <= UD_CHAINS_MAX; k++) {
		struct ud_lab_point *pt = &r->points[k - 1];

		progress(pr->o, r->lab, (size_t)k - 1, UD_CHAINS_MAX);
		arg.k = k;
		measure(pr, chains_kernel, &arg, pt);
		/* time per multiply-add turned into multiply-adds per ns: throughput reads upwards */
		pt->y = 1 / pt->y;
		pt->x = k;
		pt->mispredicts = pt->l1d_misses = NAN;
		r->npoints++;
	}
	return 0;
}

/* r as a lab that could not run to its end: no points (a partial curve would be judged as a whole one), not shown. */
static void lab_failed(struct ud_lab_result *r, const struct ud_err *err)
{
	free(r->points);
	r->points = NULL;
	r->npoints = 0;
	r->nknees = 0;
	r->reference = r->a = r->b = r->ratio = NAN;
	r->shown = false;
	snprintf(r->failed, sizeof(r->failed), "%s", err->msg);
	ud_replace(&r->measured, "Not measured: the lab could not run to its end.");
	ud_replace(&r->why_not, "the lab failed: %s", err->msg);
}

/* The lab itself, or its failure on purpose where a test asked for one (UARCHDIFF_TEACH_FAIL). */
static int run_lab(enum ud_lab lab, struct probe *pr, struct ud_lab_result *r, struct ud_err *err)
{
	static int (*const labs[UD_LAB_COUNT])(struct probe *, struct ud_lab_result *, struct ud_err *) = {
		[UD_LAB_BRANCH] = branch_lab, [UD_LAB_CACHE] = cache_lab, [UD_LAB_ILP] = ilp_lab,
	};

	if (pr->o->fail_labs & (1u << lab))
		return ud_fail(err, "out of memory for the %s lab (made to fail by UARCHDIFF_TEACH_FAIL, a test's knob)",
			       ud_lab_name(lab));
	return labs[lab](pr, r, err);
}

int ud_teach_run(enum ud_lab lab, const struct ud_teach_opts *o, struct ud_lab_result *r, struct ud_err *err)
{
	struct probe pr = { .o = o, .target_ns = o->quick ? QUICK_TARGET_NS : TARGET_NS, .repeats = o->quick ? 1 : REPEATS,
			    .noise = &r->noise, .seen = { .load_max = NAN } };
	uint64_t t0 = ud_now_ns();
	int ret = -1;

	ud_lab_result_init(r, lab);
	pr.counts = calloc(o->nev + 1, sizeof(*pr.counts));
	pr.best = calloc(o->nev + 1, sizeof(*pr.best));
	pr.times = calloc((size_t)pr.repeats, sizeof(*pr.times));
	pr.set = pr.counts && pr.best && pr.times ? ud_counters_open(o->ev, o->nev, 0, 0) : NULL;
	if (!pr.set) {
		ud_fail(err, "out of memory");
	} else if (run_lab(lab, &pr, r, err) == 0) {
		if (o->quick && !r->note[0])
			snprintf(r->note, sizeof(r->note), "quick mode: tiny sizes, 1 ms a point; nothing is shown");
		counters_status(&pr, r);
		r->seconds = (double)(ud_now_ns() - t0) / 1e9;
		ud_lab_judge(r);
		r->noise.steal_pct = ud_observed_steal_pct(&pr.seen);
		r->noise.load_avg = pr.seen.load_max;
		r->noise.samples_taken = pr.repeats;
		/* a lab is one thread kept busy: below 0.9 of a CPU it shared one */
		ret = ud_noise_assess(&r->noise, true) == 0 ? 0 : ud_fail(err, "out of memory");
	}
	if (ret != 0) {
		lab_failed(r, err);
		r->seconds = (double)(ud_now_ns() - t0) / 1e9;
	}
	ud_counters_close(pr.set);
	free(pr.counts);
	free(pr.best);
	free(pr.times);
	return ret;
}

double ud_teach_mem_available_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	double kb = 0;
	struct sysinfo si;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (kb <= 0 && sysinfo(&si) == 0)
		kb = (double)si.freeram * si.mem_unit / 1024;
	return kb;
}
