/*
 * workload.h - the built-in workloads (the files in workloads/) and their registry.
 *
 * A workload is a definition: setup() prepares everything that must not be
 * measured (buffers, files, data), run() does `iters` iterations of the
 * measured work and nothing else, teardown() releases what setup() made.
 * The runner (runner.h) calls them in a forked child, with the counters
 * enabled around run() only.  Each iteration is work_per_iter units of the
 * score's units (a KB copied, a loop, a round trip), so the score is work per
 * second and `work_units` in the profile is exact.
 *
 * State lives in the ctx the runner passes, never in globals, so a test can
 * run the same workload twice in one process.
 */
#ifndef UD_WORKLOAD_H
#define UD_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

/* The most partial results one run() reports: a server workload's tests, their latencies, the client's cost. */
#define WL_SUBSCORES_MAX 16

struct wl_subscore {
	char name[32];
	double value;
	char units[16];
};

struct wl_ctx {
	const char *tmpdir;       /* a private directory, removed by the runner */
	size_t l1d, l2, l3;       /* cache sizes in bytes; 0 when unknown */
	double work_per_iter;     /* set by setup(); 1 if left alone */
	void *state;              /* setup()'s, for run() and teardown() */
	const void *data;         /* the definition's data (an external workload's spec) */
	double score;             /* set by run() when the program reports its own score; else NAN */
	char score_units[32];
	double target_s;          /* one sample's measured time: what a program that sets its own length aims at */
	/*
	 * Set by setup() to count another process (every thread of it, and what
	 * it starts) instead of the workload's own: a server, whose client the
	 * workload runs uncounted.  0: the workload itself.
	 */
	pid_t counted_pid;
	struct wl_subscore sub[WL_SUBSCORES_MAX]; /* set by run(): partial results beside the score */
	size_t nsub;
};

enum {
	UD_SUITE_QUICK = 1 << 0,
	UD_SUITE_DEFAULT = 1 << 1,
	UD_SUITE_FULL = 1 << 2,
};

struct ud_workload_def {
	const char *name;
	const char *units;        /* of the score: work per second */
	bool higher_is_better;
	const char *teaches;      /* one sentence: what it exercises */
	unsigned suites;          /* UD_SUITE_* it belongs to */
	int (*setup)(struct wl_ctx *ctx, struct ud_err *err);       /* may be NULL */
	int (*run)(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err);
	void (*teardown)(struct wl_ctx *ctx);                       /* may be NULL */
	const void *data;         /* passed as ctx->data */
	bool once;                /* one run() a sample, not calibrated (external programs) */
	/*
	 * Its work does not keep exactly one CPU busy (waits on wake-ups across
	 * CPUs, sleeps, an external program of unknown shape): no warning when
	 * it runs below one CPU utilized (noise.h).
	 */
	bool not_single_cpu;
	/* The program it runs and counts, found on PATH (a server): the profile's binary; NULL: uarchdiff's own work. */
	const char *program;
	/* May be NULL (always).  Whether this host can run it; -1 with why (a reason, no name) when not. */
	int (*available)(struct ud_err *why);
};

/* Every built-in workload, in display order.  The row is static. */
const struct ud_workload_def *const *ud_workloads_all(size_t *n);
const struct ud_workload_def *ud_workload_find(const char *name);
int ud_suite_parse(const char *name, unsigned *suite);

/* The definitions, one file a family in workloads/. */
extern const struct ud_workload_def wl_int, wl_fp, wl_ilp_dep, wl_ilp_indep, wl_frontend;
extern const struct ud_workload_def wl_pipe, wl_ctxsw, wl_ctxsw_cross, wl_syscall, wl_spawn, wl_exec, wl_tcp;
extern const struct ud_workload_def wl_fcopy256, wl_fcopy1k, wl_fcopy4k;
extern const struct ud_workload_def wl_branch_sorted, wl_branch_random, wl_sweep_l1, wl_sweep_l2, wl_sweep_l3,
	wl_sweep_mem, wl_chase;
extern const struct ud_workload_def wl_redis, wl_redis_pipelined, wl_http_gateway;

#endif
