/*
 * hugebuf.c - huge-page-backed buffers for latency measurements (hugebuf.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hugebuf.h"

/* x86-64's and arm64's (4 KB granule) transparent huge page. */
#define HUGE_PAGE (2u << 20)

void *ud_huge_alloc(size_t bytes)
{
	void *buf = NULL;

	if (posix_memalign(&buf, HUGE_PAGE, bytes ? bytes : 1) != 0)
		return NULL;
	madvise(buf, bytes, MADV_HUGEPAGE); /* a hint: where refused, 4 KB pages still work */
	memset(buf, 0, bytes);
	return buf;
}
