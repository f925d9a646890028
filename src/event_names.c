#include <stddef.h>
#include <string.h>

#include "event_names.h"

/* perf's generic names and the aliases perf accepts for them. */
static const struct {
	const char *name;
	const char *alias;
} names[] = {
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
	{ "L1-icache-load-misses", NULL },
	{ "LLC-loads", NULL },
	{ "LLC-load-misses", NULL },
	{ "task-clock", NULL },
	{ "cpu-clock", NULL },
	{ "context-switches", "cs" },
	{ "cpu-migrations", "migrations" },
	{ "page-faults", "faults" },
	{ "minor-faults", NULL },
	{ "major-faults", NULL },
};

const char *ud_event_generic_name(const char *name)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0 || (names[i].alias && strcmp(name, names[i].alias) == 0))
			return names[i].name;
	return NULL;
}

const char *ud_event_generic_name_at(size_t i)
{
	return i < sizeof(names) / sizeof(names[0]) ? names[i].name : NULL;
}
