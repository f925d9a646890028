/*
 * memory.c - teaching kernels for the branch predictor and the memory
 * hierarchy: the same loop over sorted and random data, and load latency by
 * a dependent pointer chase over working sets sized from this host's
 * caches.  The loops are kernels.h's, the ones `uarchdiff teach` times.
 */
#include <stdlib.h>
#include <string.h>

#include "hugebuf.h"
#include "kernels.h"
#include "workload.h"

static volatile uint64_t sink;

/* ---- branch prediction: one branch, data sorted or not ---- */

/*
 * 1 MB of data a pass: far beyond any predictor's history, so random data
 * stays unpredictable pass after pass (issue 14: a 32 KB array was learned,
 * 1.4x instead of 13x; 256 KB or more is needed).
 */
#define BRANCH_ELEMS (1u << 20)

static int branch_setup(struct wl_ctx *ctx, int sorted, struct ud_err *err)
{
	uint8_t *a = malloc(BRANCH_ELEMS);

	if (!a)
		return ud_fail(err, "out of memory");
	ud_bytes_random(a, BRANCH_ELEMS, 0.5, 0x2545F4914F6CDD1DULL);
	if (sorted)
		ud_bytes_sort(a, BRANCH_ELEMS);
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
	uint64_t sum = 0;

	(void)err;
	for (uint64_t it = 0; it < iters; it++)
		sum += ud_branch_sum(ctx->state, BRANCH_ELEMS);
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
	.teaches = "a data-dependent branch over 1 MB of sorted bytes: the predictor learns it, misses are rare",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = branch_sorted_setup, .run = branch_run, .teardown = free_state,
};

const struct ud_workload_def wl_branch_random = {
	.name = "branch-random", .units = "elem/s", .higher_is_better = true,
	.teaches = "the same branch over 1 MB of random bytes, beyond any predictor's history: half mispredicted",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = branch_random_setup, .run = branch_run, .teardown = free_state,
};

/*
 * ---- load latency: a dependent pointer chase over a working set of a chosen size ----
 *
 * A sequential sweep would measure the prefetchers, which hide the cache
 * boundaries (issue 14: sweep-l2 beat sweep-l1); a chase around one random
 * cycle through every line shows each level's latency.
 */

#define CHASE_STEPS 1024 /* loads an iteration */

struct chase {
	void *buf;
	const void *at;
};

static int chase_setup(struct wl_ctx *ctx, size_t size, struct ud_err *err)
{
	struct chase *c = malloc(sizeof(*c));
	size_t lines;

	size = size < 4096 ? 4096 : size;
	lines = size / UD_LINE_BYTES;
	if (!c || !(c->buf = ud_huge_alloc(lines * UD_LINE_BYTES))) {
		free(c);
		return ud_fail(err, "out of memory for a %zu-byte working set", size);
	}
	ud_ring_link(c->buf, lines, 0x9E3779B97F4A7C15ULL);
	c->at = c->buf;
	ctx->state = c;
	ctx->work_per_iter = CHASE_STEPS;
	return 0;
}

/* Sizes from this host's caches; the fallbacks are typical of current servers. */
static size_t or_default(size_t v, size_t fallback)
{
	return v ? v : fallback;
}

static int sweep_l1_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	return chase_setup(ctx, or_default(ctx->l1d, 32 << 10) / 2, err);
}

static int sweep_l2_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	return chase_setup(ctx, or_default(ctx->l2, 1 << 20) / 2, err);
}

static int sweep_l3_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	return chase_setup(ctx, or_default(ctx->l3, 32 << 20) / 2, err);
}

static int sweep_mem_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	size_t size = 4 * or_default(ctx->l3, 32 << 20);

	return chase_setup(ctx, size < (64u << 20) ? 64u << 20 : size, err);
}

static int pointer_chase_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	size_t size = 4 * or_default(ctx->l2, 1 << 20);

	return chase_setup(ctx, size < (8u << 20) ? 8u << 20 : size, err);
}

static int chase_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	struct chase *c = ctx->state;

	(void)err;
	for (uint64_t it = 0; it < iters; it++)
		c->at = ud_ring_chase(c->at, CHASE_STEPS);
	sink = (uint64_t)(uintptr_t)c->at;
	return 0;
}

static void chase_teardown(struct wl_ctx *ctx)
{
	struct chase *c = ctx->state;

	if (c)
		free(c->buf);
	free(c);
	ctx->state = NULL;
}

#define CHASE(var, nm, what, setupfn, suite)                                                       \
	const struct ud_workload_def var = {                                                       \
		.name = nm, .units = "loads/s", .higher_is_better = true, .teaches = what,         \
		.suites = suite, .setup = setupfn, .run = chase_run, .teardown = chase_teardown,    \
	}

CHASE(wl_sweep_l1, "sweep-l1", "dependent loads in random order over half the L1d: L1 hit latency", sweep_l1_setup,
      UD_SUITE_DEFAULT | UD_SUITE_FULL);
CHASE(wl_sweep_l2, "sweep-l2", "the same chase over half the L2: every load an L1 miss, L2 latency", sweep_l2_setup,
      UD_SUITE_DEFAULT | UD_SUITE_FULL);
CHASE(wl_sweep_l3, "sweep-l3", "the same chase over half the L3: L2 misses, L3 latency", sweep_l3_setup,
      UD_SUITE_FULL);
CHASE(wl_sweep_mem, "sweep-mem", "the same chase over four times the L3: memory latency",
      sweep_mem_setup, UD_SUITE_FULL);
CHASE(wl_chase, "pointer-chase", "dependent loads in random order over four times the L2: load latency, no overlap possible",
      pointer_chase_setup, UD_SUITE_DEFAULT | UD_SUITE_FULL);
