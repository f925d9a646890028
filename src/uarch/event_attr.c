/*
 * event_attr.c - the two ways every resolver leaves a struct ud_event:
 * resolved with a fresh encoding, or unknown with the reason.  Below
 * events.c and event_sysfs.c, which both resolve, so neither calls the other
 * back.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "events_priv.h"

void ud_event_init_attr(struct ud_event *ev, __u32 type, __u64 config)
{
	memset(&ev->attr, 0, sizeof(ev->attr));
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = type;
	ev->attr.config = config;
	ev->resolved = true;
	ev->hardware = type != PERF_TYPE_SOFTWARE && type != PERF_TYPE_TRACEPOINT;
	ev->unit[0] = '\0';
	ev->scale = 1;
}

void ud_event_set_unknown(struct ud_event *ev, const char *fmt, ...)
{
	va_list ap;

	ev->resolved = false;
	ev->unknown = true;
	ev->opened_as = NULL;
	va_start(ap, fmt);
	vsnprintf(ev->reason, sizeof(ev->reason), fmt, ap);
	va_end(ap);
}
