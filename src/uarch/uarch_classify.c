/*
 * uarch_classify.c - what a counter counts, from the host's own event table
 * where nothing else knew (uarch.h, ud_uarch_classify_counters()).  A raw
 * code ("r0c4", "cpu/event=0x60,umask=0xc8/k") or a vendor's event name
 * ("L1D.REPLACEMENT") that the table lists behind a generic name counts
 * what that generic name does on this core, as the table's cited source
 * says.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "event_id.h"
#include "profile.h"
#include "uarch.h"

/* The vendor's name as libpfm4 spells it ("L1D:REPLACEMENT") against perf's ("l1d.replacement"): one. */
static bool same_vendor_name(const char *table, const char *printed)
{
	for (; *table && *printed; table++, printed++) {
		char t = *table == ':' ? '.' : (char)tolower((unsigned char)*table);
		char p = *printed == ':' ? '.' : (char)tolower((unsigned char)*printed);

		if (t != p)
			return false;
	}
	return *table == *printed;
}

/* The table's event behind the counter's spelling; NULL where the table lists none. */
static const struct ud_uarch_event *listed(const struct ud_uarch *u, const struct ud_event_id *id)
{
	for (size_t i = 0; i < u->nevents; i++) {
		const struct ud_uarch_event *e = &u->events[i];

		if (e->unavailable || !e->generic[0])
			continue;
		if ((id->kind == UD_EVENT_RAW || id->kind == UD_EVENT_TERMS) && id->code >= 0 &&
		    (long long)e->code == id->code && (e->umask < 0 ? id->umask <= 0 : e->umask == id->umask))
			return e;
		if (id->kind == UD_EVENT_NAMED && e->vendor[0] && same_vendor_name(e->vendor, id->event))
			return e;
	}
	return NULL;
}

size_t ud_uarch_classify_counters(const struct ud_uarch *u, struct ud_workload *w)
{
	size_t n = 0;

	for (size_t i = 0; u && i < w->ncounters; i++) {
		struct ud_counter *c = &w->counters[i];
		const struct ud_uarch_event *e;
		struct ud_event_id id;
		enum ud_counter_class cls;
		enum ud_counting mode;

		if (c->cls != UD_CLASS_OTHER)
			continue;
		ud_event_id_parse(c->name, &id);
		/* a counter mask, inversion or edge counts cycles or edges of the event, not the event */
		if (id.kind == UD_EVENT_TERMS && (strstr(id.event, "cmask") || strstr(id.event, "inv") ||
						  strstr(id.event, "edge")))
			continue;
		if (!(e = listed(u, &id)))
			continue;
		ud_event_classify_name(e->generic, UD_ARCH_UNKNOWN, &cls, &mode);
		if (cls == UD_CLASS_OTHER)
			continue;
		ud_counter_set_identity(c, cls, c->mode);
		n++;
	}
	return n;
}
