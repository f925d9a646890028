/*
 * import_lines.c - the importers' line reader (import_lines.h).  One buffer
 * grown to the longest line, so a file of a million interval rows costs one
 * allocation, not one per line.
 */
#include <stdlib.h>
#include <string.h>

#include "import_lines.h"

void imp_lines_init(struct lines *l, const char *text, size_t len)
{
	memset(l, 0, sizeof(*l));
	l->text = l->cur = text;
	l->end = text + len;
}

char *imp_lines_next(struct lines *l)
{
	const char *nl;
	size_t n;

	if (l->cur >= l->end)
		return NULL;
	nl = memchr(l->cur, '\n', (size_t)(l->end - l->cur));
	n = (size_t)((nl ? nl : l->end) - l->cur);
	if (n + 1 > l->cap) {
		char *grown = realloc(l->buf, n + 1);

		if (!grown)
			return NULL;
		l->buf = grown;
		l->cap = n + 1;
	}
	memcpy(l->buf, l->cur, n);
	if (n && l->buf[n - 1] == '\r')
		n--;
	l->buf[n] = '\0';
	l->cur = nl ? nl + 1 : l->end;
	l->lineno++;
	return l->buf;
}

void imp_lines_free(struct lines *l)
{
	free(l->buf);
	l->buf = NULL;
}
