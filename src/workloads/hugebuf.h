/*
 * hugebuf.h - buffers for latency measurements, backed by transparent huge
 * pages where the kernel gives them (MADV_HUGEPAGE), so that a pointer
 * chase over a large working set measures the caches and memory, not page
 * walks: with 4 KB pages a random chase over 128 MB here costs 850 ns a load
 * (nested page walks in a VM), with 2 MB pages about 190 ns.
 *
 * Ownership: the caller frees the buffer with free().
 */
#ifndef UD_HUGEBUF_H
#define UD_HUGEBUF_H

#include <stddef.h>

/*
 * bytes, 2 MB-aligned, every page touched (faulted in now, not while
 * measured); NULL when out of memory.  The caller frees it with free().
 */
void *ud_huge_alloc(size_t bytes);

#endif
