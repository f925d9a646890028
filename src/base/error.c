#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

int ud_fail(struct ud_err *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

int ud_err_prefix(struct ud_err *err, const char *fmt, ...)
{
	char old[sizeof(err->msg)];
	size_t used;
	va_list ap;

	if (!err)
		return -1;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	used = (size_t)vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (used + 2 < sizeof(err->msg))
		snprintf(err->msg + used, sizeof(err->msg) - used, ": %s", old);
	return -1;
}
