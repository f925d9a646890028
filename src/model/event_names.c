/*
 * event_names.c - perf's generic event names (SPEC §2) and the aliases perf
 * accepts and prints for them.  The same list, in the same order, as the
 * kernel encodings in src/uarch/events.c.
 */
#include <stddef.h>
#include <string.h>

#include "event_names.h"

static const struct {
	const char *name;
	const char *alias; /* NULL: none */
	enum ud_counter_class cls;
} generic_names[] = {
#define X(name, alias, cls, type, config, ticks) { name, alias, cls },
#include "generic_events.def"
#undef X
};

const char *ud_generic_event_name(const char *name)
{
	for (size_t i = 0; i < sizeof(generic_names) / sizeof(generic_names[0]); i++) {
		if (strcmp(name, generic_names[i].name) == 0 ||
		    (generic_names[i].alias && strcmp(name, generic_names[i].alias) == 0))
			return generic_names[i].name;
	}
	return NULL;
}

const char *ud_generic_event_name_at(size_t i)
{
	return i < sizeof(generic_names) / sizeof(generic_names[0]) ? generic_names[i].name : NULL;
}

enum ud_counter_class ud_generic_event_class(const char *name)
{
	for (size_t i = 0; i < sizeof(generic_names) / sizeof(generic_names[0]); i++)
		if (strcmp(name, generic_names[i].name) == 0)
			return generic_names[i].cls;
	return UD_CLASS_OTHER;
}

size_t ud_event_repeat_base_len(const char *name)
{
	const char *hash = strrchr(name, '#');
	size_t digits = hash ? strspn(hash + 1, "0123456789") : 0;

	/* "#2" on: no name perf takes holds a '#', and "#0", "#1", "#01" are never given */
	if (!hash || hash == name || !digits || hash[1 + digits] || hash[1] == '0' || (digits == 1 && hash[1] == '1'))
		return strlen(name);
	return (size_t)(hash - name);
}
