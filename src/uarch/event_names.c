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
} generic_names[] = {
	{ "cycles", "cpu-cycles" },
	{ "instructions", NULL },
	{ "branches", "branch-instructions" },
	{ "branch-misses", NULL },
	{ "cache-references", NULL },
	{ "cache-misses", NULL },
	{ "stalled-cycles-frontend", "idle-cycles-frontend" },
	{ "stalled-cycles-backend", "idle-cycles-backend" },
	{ "ref-cycles", NULL },
	{ "L1-dcache-loads", NULL },
	{ "L1-dcache-load-misses", NULL },
	{ "L1-icache-loads", NULL },
	{ "L1-icache-load-misses", NULL },
	{ "LLC-loads", NULL },
	{ "LLC-load-misses", NULL },
	{ "dTLB-loads", NULL },
	{ "dTLB-load-misses", NULL },
	{ "iTLB-loads", NULL },
	{ "iTLB-load-misses", NULL },
	{ "L1-dcache-prefetches", NULL },
	{ "L1-dcache-prefetch-misses", NULL },
	{ "task-clock", NULL },
	{ "cpu-clock", NULL },
	{ "context-switches", "cs" },
	{ "cpu-migrations", "migrations" },
	{ "page-faults", "faults" },
	{ "minor-faults", NULL },
	{ "major-faults", NULL },
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
