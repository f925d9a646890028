/*
 * sort.h - the one way uarchdiff sorts an array.
 *
 * qsort(NULL, 0, ...) is undefined behaviour (C11 7.22.5: its pointer must
 * be valid even for no elements), and an empty list is often a NULL array
 * here (no samples, no outliers, no counters): UBSan aborted CI runs on it
 * more than once.  Every sort in src/ goes through ud_sort, which does
 * nothing for none, so no caller has to remember (tests/structure.py).
 * bsearch has the same rule (C11 7.22.5), so lookups go through ud_bsearch.
 */
#ifndef UD_SORT_H
#define UD_SORT_H

#include <stddef.h>

/* qsort(base, n, size, cmp), and nothing when n is 0 (base may then be NULL). */
void ud_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/*
 * bsearch(key, base, n, size, cmp), and NULL when n is 0 (base may then be
 * NULL).  Returns a borrowed pointer into base, or NULL when key is absent.
 */
void *ud_bsearch(const void *key, const void *base, size_t n, size_t size,
		 int (*cmp)(const void *, const void *));

#endif
