#include <stdarg.h>
#include <stdio.h>

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
