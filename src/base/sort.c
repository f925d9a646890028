#include <stdlib.h>

#include "sort.h"

void ud_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n == 0)
		return;
	qsort(base, n, size, cmp);
}

void *ud_bsearch(const void *key, const void *base, size_t n, size_t size,
		 int (*cmp)(const void *, const void *))
{
	if (n == 0)
		return NULL;
	return bsearch(key, base, n, size, cmp);
}
