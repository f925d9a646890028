/*
 * memory.c - teaching kernels for the branch predictor and the memory
 * hierarchy: the same loop over sorted and random data, a read sweep over
 * working sets sized from this host's caches, and a dependent pointer chase.
 */
#include <stdlib.h>
#include <string.h>

#include "workload.h"

#define LINE 64

static volatile uint64_t sink;

static uint64_t xorshift(uint64_t *r)
{
	*r ^= *r << 13;
	*r ^= *r >> 7;
	*r ^= *r << 17;
	return *r;
}

/* ---- branch prediction: one branch, data sorted or not ---- */

#define BRANCH_ELEMS 32768

static int cmp_byte(const void *a, const void *b)
{
	return *(const uint8_t *)a - *(const uint8_t *)b;
}

static int branch_setup(struct wl_ctx *ctx, int sorted, struct ud_err *err)
{
	uint8_t *a = malloc(BRANCH_ELEMS);
	uint64_t r = 0x2545F4914F6CDD1DULL;

	if (!a)
		return ud_fail(err, "out of memory");
	for (size_t i = 0; i < BRANCH_ELEMS; i++)
		a[i] = (uint8_t)xorshift(&r);
	if (sorted)
		qsort(a, BRANCH_ELEMS, 1, cmp_byte);
	ctx->state = a;
	ctx->work_per_iter = BRANCH_ELEMS;
	return 0;
}

static int branch_sorted_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	return branch_setup(ctx, 1, err);
}

static int branch_random_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	return branch_setup(ctx, 0, err);
}

static int branch_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	const uint8_t *a = ctx->state;
	uint64_t sum = 0;

	(void)err;
	for (uint64_t it = 0; it < iters; it++) {
		for (size_t i = 0; i < BRANCH_ELEMS; i++) {
			if (a[i] >= 128) {
				sum += a[i];
				/* keeps the branch a branch: no conditional move, no vector blend */
				__asm__ volatile("" ::: "memory");
			}
		}
	}
	sink = sum;
	return 0;
}

static void free_state(struct wl_ctx *ctx)
{
	free(ctx->state);
	ctx->state = NULL;
}

const struct ud_workload_def wl_branch_sorted = {
	.name = "branch-sorted", .units = "elem/s", .higher_is_better = true,
	.teaches = "a data-dependent branch over sorted bytes: the predictor learns it, misses are rare",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = branch_sorted_setup, .run = branch_run, .teardown = free_state,
};

const struct ud_workload_def wl_branch_random = {
	.name = "branch-random", .units = "elem/s", .higher_is_better = true,
	.teaches = "the same branch over random bytes: half mispredicted, and the pipeline pays each time",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = branch_random_setup, .run = branch_run, .teardown = free_state,
};

/* ---- working-set sweep: one read a cache line over a buffer of a chosen size ---- */

struct sweep {
	uint8_t *buf;
	size_t size;
};

static int sweep_setup(struct wl_ctx *ctx, size_t size, struct ud_err *err)
{
	struct sweep *s = malloc(sizeof(*s));

	size = size < 4096 ? 4096 : size;
	if (!s || !(s->buf = malloc(size))) {
		free(s);
		return ud_fail(err, "out of memory for a %zu-byte working set", size);
	}
	memset(s->buf, 1, size); /* fault the pages in now, not while measured */
	s->size = size;
	ctx->state = s;
	ctx->work_per_iter = (double)(size / LINE);
	return 0;
}

/* Sizes from this host's caches; the fallbacks are typical of current servers. */
static size_t or_default(size_t v, size_t fallback)
{
	return v ? v : fallback;
}

static int sweep_l1_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	return sweep_setup(ctx, or_default(ctx->l1d, 32 << 10) / 2, err);
}

static int sweep_l2_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	return sweep_setup(ctx, or_default(ctx->l2, 1 << 20) / 2, err);
}

static int sweep_l3_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	return sweep_setup(ctx, or_default(ctx->l3, 32 << 20) / 2, err);
}

static int sweep_mem_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	size_t size = 4 * or_default(ctx->l3, 32 << 20);

	return sweep_setup(ctx, size < (64u << 20) ? 64u << 20 : size, err);
}

static int sweep_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	const struct sweep *s = ctx->state;
	uint64_t sum = 0;

	(void)err;
	for (uint64_t it = 0; it < iters; it++)
		for (size_t i = 0; i < s->size; i += LINE)
			sum += s->buf[i];
	sink = sum;
	return 0;
}

static void sweep_teardown(struct wl_ctx *ctx)
{
	struct sweep *s = ctx->state;

	if (s)
		free(s->buf);
	free(s);
	ctx->state = NULL;
}

#define SWEEP(var, nm, what, setupfn, suite)                                                       \
	const struct ud_workload_def var = {                                                       \
		.name = nm, .units = "lines/s", .higher_is_better = true, .teaches = what,         \
		.suites = suite, .setup = setupfn, .run = sweep_run, .teardown = sweep_teardown,    \
	}

SWEEP(wl_sweep_l1, "sweep-l1", "read a line at a time over half the L1d: every load hits", sweep_l1_setup,
      UD_SUITE_DEFAULT | UD_SUITE_FULL);
SWEEP(wl_sweep_l2, "sweep-l2", "the same over half the L2: past the L1d, every line is an L1 miss", sweep_l2_setup,
      UD_SUITE_DEFAULT | UD_SUITE_FULL);
SWEEP(wl_sweep_l3, "sweep-l3", "the same over half the L3: L2 misses, served by the L3", sweep_l3_setup,
      UD_SUITE_FULL);
SWEEP(wl_sweep_mem, "sweep-mem", "the same over four times the L3: memory bandwidth and the prefetchers",
      sweep_mem_setup, UD_SUITE_FULL);

/* ---- pointer chase: each load's address is the last load's value ---- */

static int chase_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	size_t size = 4 * or_default(ctx->l2, 1 << 20), n;
	uint64_t r = 0x9E3779B97F4A7C15ULL;
	size_t *next;

	size = size < (8u << 20) ? 8u << 20 : size;
	n = size / LINE;
	next = malloc(n * LINE);
	if (!next)
		return ud_fail(err, "out of memory");
	/* Sattolo's shuffle: one cycle through every line, in random order */
	for (size_t i = 0; i < n; i++)
		next[i * (LINE / sizeof(size_t))] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(xorshift(&r) % i), *a = &next[i * (LINE / sizeof(size_t))],
		       *b = &next[j * (LINE / sizeof(size_t))], t = *a;

		*a = *b;
		*b = t;
	}
	ctx->state = next;
	ctx->work_per_iter = 1024;
	return 0;
}

static int chase_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	const size_t *next = ctx->state;
	size_t p = 0;

	(void)err;
	for (uint64_t it = 0; it < iters; it++)
		for (int k = 0; k < 1024; k++)
			p = next[p * (LINE / sizeof(size_t))];
	sink = p;
	return 0;
}

const struct ud_workload_def wl_chase = {
	.name = "pointer-chase", .units = "loads/s", .higher_is_better = true,
	.teaches = "dependent loads in random order over four times the L2: load latency, no overlap possible",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = chase_setup, .run = chase_run, .teardown = free_state,
};
