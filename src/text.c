#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

char *ud_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

#define NS_PER_US 1e3
#define NS_PER_MS 1e6
#define NS_PER_S 1e9

void ud_format_ns(double ns, char *buf, size_t len)
{
	if (!isfinite(ns))
		snprintf(buf, len, "n/a");
	else if (fabs(ns) < NS_PER_US)
		snprintf(buf, len, "%.3g ns", ns);
	else if (fabs(ns) < NS_PER_MS)
		snprintf(buf, len, "%.3g µs", ns / NS_PER_US);
	else if (fabs(ns) < NS_PER_S)
		snprintf(buf, len, "%.3g ms", ns / NS_PER_MS);
	else
		snprintf(buf, len, "%.3g s", ns / NS_PER_S);
}

const char *ud_format_num(const char *fmt, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, fmt, v);
	return buf;
}
