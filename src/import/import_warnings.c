/*
 * import_warnings.c - the list of warning lines an import returns
 * (import_warnings.h, import.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "import_warnings.h"

int imp_warn(struct ud_import_warnings *w, const char *fmt, ...)
{
	char **grown, *line;
	va_list ap;
	int n;

	if (!w)
		return 0;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	grown = realloc(w->lines, (w->n + 1) * sizeof(*grown));
	if (!grown) {
		free(line);
		return -1;
	}
	w->lines = grown;
	w->lines[w->n++] = line;
	return 0;
}

void ud_import_warnings_free(struct ud_import_warnings *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->lines[i]);
	free(w->lines);
	w->lines = NULL;
	w->n = 0;
}
