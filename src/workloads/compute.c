/*
 * compute.c - CPU-bound workloads: integer (Dhrystone-like), double
 * precision (Whetstone-like), instruction-level parallelism (dependent vs
 * independent chains) and a code footprint larger than the L1 i-cache.
 *
 * Results are folded into a volatile sink so the compiler cannot drop the
 * work, and inputs come from the state so it cannot fold it at compile time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

static volatile uint64_t sink_u;
static volatile double sink_d;

/* ---- integer: string, record and arithmetic work, as Dhrystone mixes it ---- */

struct record {
	int kind, value;
	char text[32];
};

struct int_state {
	struct record a, b;
	char str1[32], str2[32];
	int array[64];
	uint64_t seed;
};

static __attribute__((noinline)) int proc(struct record *r, int x)
{
	r->value = r->value * 3 + x;
	r->kind = (r->value & 7) == 3 ? 1 : 2;
	return r->value % 17;
}

static int int_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	struct int_state *s = calloc(1, sizeof(*s));

	if (!s)
		return ud_fail(err, "out of memory");
	strcpy(s->str1, "DHRYSTONE PROGRAM, 1'ST STRING");
	strcpy(s->a.text, "DHRYSTONE PROGRAM, SOME STRING");
	s->seed = 12345;
	ctx->state = s;
	return 0;
}

static int int_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	struct int_state *s = ctx->state;
	uint64_t acc = s->seed;

	(void)err;
	for (uint64_t i = 0; i < iters; i++) {
		int k = (int)(i & 63);

		s->str1[28] = (char)('A' + (i & 7));
		strcpy(s->str2, s->str1);
		acc += (uint64_t)(strcmp(s->str1, s->a.text) > 0);
		s->b = s->a;
		acc += (uint64_t)proc(&s->b, k);
		s->array[k] = (int)(acc & 0xffff);
		acc += (uint64_t)s->array[(k * 7) & 63] * 3 / 2;
		acc ^= acc << 7;
	}
	sink_u = acc;
	return 0;
}

static void free_state(struct wl_ctx *ctx)
{
	free(ctx->state);
	ctx->state = NULL;
}

const struct ud_workload_def wl_int = {
	.name = "int", .units = "lps", .higher_is_better = true,
	.teaches = "integer work as Dhrystone mixes it: string copies and compares, record copies, calls, arithmetic; "
		   "the same kind as UnixBench's dhry2reg, not its code",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = int_setup, .run = int_run, .teardown = free_state,
};

/* ---- double precision: Whetstone's modules, in miniature ---- */

struct fp_state {
	double x[4], t, t2;
};

static int fp_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	struct fp_state *s = calloc(1, sizeof(*s));

	if (!s)
		return ud_fail(err, "out of memory");
	s->x[0] = 1.0;
	s->x[1] = s->x[2] = s->x[3] = -1.0;
	s->t = 0.499975;
	s->t2 = 2.0;
	ctx->state = s;
	return 0;
}

static int fp_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	struct fp_state *s = ctx->state;
	double x[4], t = s->t, t2 = s->t2, y = 0.75, z = 1.0;

	(void)err;
	memcpy(x, s->x, sizeof(x));
	for (uint64_t i = 0; i < iters; i++) {
		/* module 2: array arithmetic */
		x[0] = (x[0] + x[1] + x[2] - x[3]) * t;
		x[1] = (x[0] + x[1] - x[2] + x[3]) * t;
		x[2] = (x[0] - x[1] + x[2] + x[3]) * t;
		x[3] = (-x[0] + x[1] + x[2] + x[3]) / t2;
		/* module 7: trigonometry */
		y = t * atan(t2 * sin(y) * cos(y) / (cos(y + z) + cos(y - z) - 1.0));
		/* module 11: standard functions */
		z = sqrt(exp(log(fabs(z) + 1e-9) / 1.5));
	}
	sink_d = x[0] + x[1] + x[2] + x[3] + y + z;
	return 0;
}

const struct ud_workload_def wl_fp = {
	.name = "fp", .units = "lps", .higher_is_better = true,
	.teaches = "double-precision arithmetic and libm functions (sin, cos, atan, sqrt, exp, log); the same kind as "
		   "UnixBench's whetstone-double, not its code",
	.suites = UD_SUITE_QUICK | UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = fp_setup, .run = fp_run, .teardown = free_state,
};

/* ---- instruction-level parallelism: the same multiplies, chained or not ---- */

static int ilp_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	(void)err;
	ctx->work_per_iter = 8; /* multiply-adds an iteration */
	return 0;
}

static int ilp_dep_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	uint64_t x = (uint64_t)(uintptr_t)ctx | 1;

	(void)err;
	for (uint64_t i = 0; i < iters; i++) {
		/* each waits for the one before: latency-bound */
		x = x * 0x9E3779B97F4A7C15ULL + i;
		x = x * 0x9E3779B97F4A7C15ULL + i;
		x = x * 0x9E3779B97F4A7C15ULL + i;
		x = x * 0x9E3779B97F4A7C15ULL + i;
		x = x * 0x9E3779B97F4A7C15ULL + i;
		x = x * 0x9E3779B97F4A7C15ULL + i;
		x = x * 0x9E3779B97F4A7C15ULL + i;
		x = x * 0x9E3779B97F4A7C15ULL + i;
	}
	sink_u = x;
	return 0;
}

static int ilp_indep_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	uint64_t a = (uint64_t)(uintptr_t)ctx | 1, b = a + 2, c = a + 4, d = a + 6;

	(void)err;
	for (uint64_t i = 0; i < iters; i++) {
		/* four chains side by side: throughput-bound */
		a = a * 0x9E3779B97F4A7C15ULL + i;
		b = b * 0x9E3779B97F4A7C15ULL + i;
		c = c * 0x9E3779B97F4A7C15ULL + i;
		d = d * 0x9E3779B97F4A7C15ULL + i;
		a = a * 0x9E3779B97F4A7C15ULL + i;
		b = b * 0x9E3779B97F4A7C15ULL + i;
		c = c * 0x9E3779B97F4A7C15ULL + i;
		d = d * 0x9E3779B97F4A7C15ULL + i;
	}
	sink_u = a ^ b ^ c ^ d;
	return 0;
}

const struct ud_workload_def wl_ilp_dep = {
	.name = "ilp-dependent", .units = "ops/s", .higher_is_better = true,
	.teaches = "one chain of dependent multiply-adds: each waits for the last, so IPC is bounded by latency; "
		   "no UnixBench counterpart",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = ilp_setup, .run = ilp_dep_run,
};

const struct ud_workload_def wl_ilp_indep = {
	.name = "ilp-independent", .units = "ops/s", .higher_is_better = true,
	.teaches = "the same multiply-adds in four independent chains: the core overlaps them, IPC rises; no UnixBench "
		   "counterpart",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = ilp_setup, .run = ilp_indep_run,
};

/* ---- frontend: 512 distinct functions, called in a shuffled order ---- */

#define FN(n)                                                                            \
	static __attribute__((noinline)) uint64_t f##n(uint64_t x)                       \
	{                                                                                \
		x ^= (uint64_t)n * 0x9E3779B97F4A7C15ULL;                                \
		x = x * ((uint64_t)n | 1) + (uint64_t)n;                                 \
		x ^= x >> (n % 13 + 1);                                                  \
		x += (x << (n % 7 + 1)) ^ (uint64_t)(n * 31);                            \
		return x ^ (x >> (n % 11 + 3));                                          \
	}
#define FN8(p) FN(p##0) FN(p##1) FN(p##2) FN(p##3) FN(p##4) FN(p##5) FN(p##6) FN(p##7)
#define FN64(p) FN8(p##0) FN8(p##1) FN8(p##2) FN8(p##3) FN8(p##4) FN8(p##5) FN8(p##6) FN8(p##7)
FN64(10) FN64(11) FN64(12) FN64(13) FN64(14) FN64(15) FN64(16) FN64(17)
#define FP(n) f##n,
#define FP8(p) FP(p##0) FP(p##1) FP(p##2) FP(p##3) FP(p##4) FP(p##5) FP(p##6) FP(p##7)
#define FP64(p) FP8(p##0) FP8(p##1) FP8(p##2) FP8(p##3) FP8(p##4) FP8(p##5) FP8(p##6) FP8(p##7)

static uint64_t (*const functions[512])(uint64_t) = {
	FP64(10) FP64(11) FP64(12) FP64(13) FP64(14) FP64(15) FP64(16) FP64(17)
};

static int frontend_setup(struct wl_ctx *ctx, struct ud_err *err)
{
	uint16_t *order = malloc(512 * sizeof(*order));
	uint64_t r = 88172645463325252ULL;

	if (!order)
		return ud_fail(err, "out of memory");
	for (int i = 0; i < 512; i++)
		order[i] = (uint16_t)i;
	for (int i = 511; i > 0; i--) {
		int j;
		uint16_t t;

		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		j = (int)(r % (uint64_t)(i + 1));
		t = order[i], order[i] = order[j], order[j] = t;
	}
	ctx->state = order;
	ctx->work_per_iter = 512;
	return 0;
}

static int frontend_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err)
{
	const uint16_t *order = ctx->state;
	uint64_t x = 1;

	(void)err;
	for (uint64_t i = 0; i < iters; i++)
		for (int k = 0; k < 512; k++)
			x = functions[order[k]](x);
	sink_u = x;
	return 0;
}

const struct ud_workload_def wl_frontend = {
	.name = "frontend", .units = "calls/s", .higher_is_better = true,
	.teaches = "512 distinct functions called in a shuffled order: more code than the L1 i-cache holds; no UnixBench "
		   "counterpart",
	.suites = UD_SUITE_DEFAULT | UD_SUITE_FULL,
	.setup = frontend_setup, .run = frontend_run, .teardown = free_state,
};
