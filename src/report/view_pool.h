/*
 * view_pool.h - where a typed view's strings and arrays live (template.h's
 * typed backend): a view is built, rendered once and freed whole, so its
 * builder allocates from one pool and never frees a part, and an
 * allocation that fails is remembered (oom) for the one check at the end.
 */
#ifndef UD_VIEW_POOL_H
#define UD_VIEW_POOL_H

#include <stdbool.h>
#include <stddef.h>

struct ud_view_pool {
	void **p;
	size_t n, cap;
	bool oom;
};

/* p (malloc'd, may be NULL) handed to pool, which frees it; returns p, or NULL when p or the pool's growth failed. */
void *ud_view_pool_keep(struct ud_view_pool *pool, void *p);
/* n zeroed elements of size, owned by pool; NULL when out of memory (pool->oom set). */
void *ud_view_pool_alloc(struct ud_view_pool *pool, size_t n, size_t size);
/* printf's text made valid UTF-8, owned by pool; NULL when out of memory. */
char *ud_view_pool_printf(struct ud_view_pool *pool, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Frees everything pool holds, and leaves it empty. */
void ud_view_pool_free(struct ud_view_pool *pool);

#endif
