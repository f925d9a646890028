/*
 * kernels.c - the loops the teaching labs and workloads time (kernels.h).
 *
 * Each is written against what an optimizing compiler would do to it: the
 * branch's taken side holds an empty asm with a memory clobber, which GCC
 * and clang cannot if-convert into a conditional move or a vector blend;
 * the chase's next address is the value just loaded; the chains are kept
 * in separate registers by unrolling over a constant k.
 */
#include <string.h>

#include "kernels.h"

/* Golden-ratio multiplier: odd, so a chain never collapses to 0 (same as the ilp workloads). */
#define CHAIN_MUL 0x9E3779B97F4A7C15ULL
/* The branch's threshold: half of the byte values take it. */
#define BRANCH_THRESHOLD 128

uint64_t ud_xorshift(uint64_t *r)
{
	*r ^= *r << 13;
	*r ^= *r >> 7;
	*r ^= *r << 17;
	return *r;
}

void ud_bytes_random(uint8_t *a, size_t n, double share, uint64_t seed)
{
	uint64_t r = seed | 1;
	/* share as a 32-bit threshold, so one draw decides taken and the value */
	uint64_t cut = (uint64_t)(share * 4294967296.0);

	for (size_t i = 0; i < n; i++) {
		uint64_t x = ud_xorshift(&r);
		uint8_t low = (uint8_t)(x & (BRANCH_THRESHOLD - 1));

		a[i] = (x >> 32) < cut ? (uint8_t)(BRANCH_THRESHOLD + low) : low;
	}
}

void ud_bytes_sort(uint8_t *a, size_t n)
{
	size_t count[256] = { 0 }, at = 0;

	for (size_t i = 0; i < n; i++)
		count[a[i]]++;
	for (int v = 0; v < 256; v++) {
		memset(a + at, v, count[v]);
		at += count[v];
	}
}

uint64_t ud_branch_sum(const uint8_t *a, size_t n)
{
	uint64_t sum = 0;

	/* unrolled: the loop's own branch, taken every element otherwise, would bound the predictable cases */
#pragma GCC unroll 8
	for (size_t i = 0; i < n; i++) {
		if (a[i] >= BRANCH_THRESHOLD) {
			sum += a[i];
			__asm__ volatile("" ::: "memory");
		}
	}
	return sum;
}

static unsigned char *line_at(void *buf, size_t i)
{
	return (unsigned char *)buf + i * UD_LINE_BYTES;
}

void ud_ring_link(void *buf, size_t lines, uint64_t seed)
{
	uint64_t r = seed | 1;

	/* Sattolo's shuffle of the identity: one cycle through every line */
	for (size_t i = 0; i < lines; i++)
		memcpy(line_at(buf, i), &i, sizeof(i));
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = (size_t)(ud_xorshift(&r) % i), a, b;

		memcpy(&a, line_at(buf, i), sizeof(a));
		memcpy(&b, line_at(buf, j), sizeof(b));
		memcpy(line_at(buf, i), &b, sizeof(b));
		memcpy(line_at(buf, j), &a, sizeof(a));
	}
	/* the indices as addresses: the chase then does nothing but load */
	for (size_t i = 0; i < lines; i++) {
		size_t next;
		void *p;

		memcpy(&next, line_at(buf, i), sizeof(next));
		p = line_at(buf, next);
		memcpy(line_at(buf, i), &p, sizeof(p));
	}
}

const void *ud_ring_chase(const void *p, uint64_t steps)
{
	for (uint64_t s = 0; s < steps; s++)
		p = *(const void *const *)p;
	return p;
}

static inline __attribute__((always_inline)) uint64_t chains_k(int k, uint64_t iters, uint64_t seed)
{
	uint64_t x[UD_CHAINS_MAX], mix = 0;

#pragma GCC unroll 8
	for (int c = 0; c < k; c++)
		x[c] = seed + 2 * (uint64_t)c + 1;
	for (uint64_t i = 0; i < iters; i++) {
#pragma GCC unroll 8
		for (int c = 0; c < k; c++)
			x[c] = x[c] * CHAIN_MUL + i;
	}
#pragma GCC unroll 8
	for (int c = 0; c < k; c++)
		mix ^= x[c];
	return mix;
}

uint64_t ud_chains(int k, uint64_t iters, uint64_t seed)
{
	switch (k < 1 ? 1 : k > UD_CHAINS_MAX ? UD_CHAINS_MAX : k) {
	case 1: return chains_k(1, iters, seed);
	case 2: return chains_k(2, iters, seed);
	case 3: return chains_k(3, iters, seed);
	case 4: return chains_k(4, iters, seed);
	case 5: return chains_k(5, iters, seed);
	case 6: return chains_k(6, iters, seed);
	case 7: return chains_k(7, iters, seed);
	default: return chains_k(8, iters, seed);
	}
}
