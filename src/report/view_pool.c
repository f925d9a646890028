/*
 * view_pool.c - the allocations of one typed view (view_pool.h), freed
 * together.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "text.h"
#include "view_pool.h"

void *ud_view_pool_keep(struct ud_view_pool *pool, void *p)
{
	if (p && pool->n == pool->cap) {
		size_t cap = pool->cap ? 2 * pool->cap : 64;
		void **grown = realloc(pool->p, cap * sizeof(*grown));

		if (!grown) {
			free(p);
			p = NULL;
		} else {
			pool->p = grown;
			pool->cap = cap;
		}
	}
	if (!p)
		pool->oom = true;
	else
		pool->p[pool->n++] = p;
	return p;
}

void *ud_view_pool_alloc(struct ud_view_pool *pool, size_t n, size_t size)
{
	return ud_view_pool_keep(pool, calloc(n ? n : 1, size));
}

char *ud_view_pool_printf(struct ud_view_pool *pool, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = ud_vprintf_new(fmt, ap);
	va_end(ap);
	if (s)
		ud_utf8_sanitize(s); /* a host's label is as its user wrote it */
	return ud_view_pool_keep(pool, s);
}

void ud_view_pool_free(struct ud_view_pool *pool)
{
	for (size_t i = 0; i < pool->n; i++)
		free(pool->p[i]);
	free(pool->p);
	*pool = (struct ud_view_pool){ 0 };
}
