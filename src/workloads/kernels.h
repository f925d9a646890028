/*
 * kernels.h - the small loops that the teaching labs (teach_labs.h) and the
 * teaching workloads (workloads/memory.c) time, written once so a lab and a
 * workload of the same name measure the same thing:
 *
 *  - one data-dependent branch over bytes (taken for a byte >= 128), kept a
 *    real conditional jump: no conditional move, no vector blend;
 *  - a dependent pointer chase around a random cycle through every cache
 *    line of a buffer (Sattolo's shuffle), so no load can start before the
 *    one before it has finished and no prefetcher can guess the next line;
 *  - k independent chains of dependent multiply-adds, k = 1..UD_CHAINS_MAX.
 *
 * `objdump -d` on kernels.c.o shows each as described (doc/teach.md).
 * Nothing here allocates: the callers own their buffers.
 */
#ifndef UD_KERNELS_H
#define UD_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* One pointer a cache line: the chase touches each line once a lap. */
#define UD_LINE_BYTES 64
#define UD_CHAINS_MAX 8

/* xorshift64: a fast generator for test data, state never 0. */
uint64_t ud_xorshift(uint64_t *state);

/*
 * Fills a[0..n) with bytes that are >= 128 (the branch taken) with
 * probability `share` (0..1), at random positions; share 0.5 is uniform
 * random bytes, the worst case for any predictor.
 */
void ud_bytes_random(uint8_t *a, size_t n, double share, uint64_t seed);
/* Sorts a[0..n) ascending (counting sort: linear, so setup stays quick). */
void ud_bytes_sort(uint8_t *a, size_t n);
/* The sum of the bytes >= 128, through one conditional branch a byte. */
uint64_t ud_branch_sum(const uint8_t *a, size_t n);

/*
 * Links the `lines` cache lines of buf (lines x UD_LINE_BYTES bytes, lines
 * >= 1) into one random cycle: each line's first word points to the next
 * line of the cycle.
 */
void ud_ring_link(void *buf, size_t lines, uint64_t seed);
/* Follows `steps` pointers from p; returns where it stopped.  It points into the caller's ring. */
const void *ud_ring_chase(const void *p, uint64_t steps);

/*
 * iters rounds of k (clamped to 1..UD_CHAINS_MAX) independent chains, each
 * x = x * C + i: k multiply-adds a round, each chain waiting on itself only.
 * Returns the chains mixed, for the caller to keep.
 */
uint64_t ud_chains(int k, uint64_t iters, uint64_t seed);

#endif
