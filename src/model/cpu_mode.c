#include <string.h>

#include "cpu_mode.h"

static const char *const mode_names[UD_MODE_COUNT] = {
	[UD_MODE_USER] = "user",
	[UD_MODE_KERNEL] = "kernel",
};

const char *ud_mode_name(enum ud_mode m)
{
	return mode_names[m];
}

int ud_mode_from_name(const char *name, enum ud_mode *out)
{
	for (int m = 0; m < UD_MODE_COUNT; m++)
		if (strcmp(name, mode_names[m]) == 0)
			return *out = (enum ud_mode)m, 0;
	return -1;
}

/*
 * perf's event modifiers: tools/perf/util/parse-events.l's modifier_event
 * ([ukhpPGHSDIW]+), and the e (exclusive), b (BPF counter) and R (retire
 * latency) later perf adds.  A suffix of other letters is part of a name
 * (sched:sched_switch).
 */
static const char modifier_chars[] = "ukhpPGHSDIWebR";

static bool all_modifiers(const char *s)
{
	return *s && strspn(s, modifier_chars) == strlen(s);
}

const char *ud_event_modifiers(const char *name)
{
	const char *colon = strrchr(name, ':'), *slash = strrchr(name, '/');

	if (colon && all_modifiers(colon + 1))
		return colon + 1;
	/* "cpu/event=0x3c/u": after the slash that closes a PMU's terms, not the one of "cpu_core/cycles" */
	if (slash && slash != strchr(name, '/') && all_modifiers(slash + 1))
		return slash + 1;
	return NULL;
}

struct ud_counted_modes ud_counted_modes_of(const char *counter_name)
{
	const char *mods = ud_event_modifiers(counter_name);
	struct ud_counted_modes m = { true, true, true, true };
	bool host, guest;

	if (!mods)
		return m;
	/* perf's get_event_modifier(): naming any of u, k, h excludes the levels not named */
	if (strpbrk(mods, "ukh")) {
		m.user = strchr(mods, 'u') != NULL;
		m.kernel = strchr(mods, 'k') != NULL;
	}
	/* and naming H or G alone excludes the other side; :HG is both */
	host = strchr(mods, 'H') != NULL;
	guest = strchr(mods, 'G') != NULL;
	if (host != guest) {
		m.host = host;
		m.guest = guest;
	}
	return m;
}

const char *ud_counted_levels_name(struct ud_counted_modes m)
{
	return m.user && m.kernel ? "all" : m.user ? "user" : m.kernel ? "kernel" : "none";
}

static const char *const counting_names[UD_COUNTING_COUNT] = {
	[UD_COUNTING_ALL] = "all",
	[UD_COUNTING_USER] = "user",
	[UD_COUNTING_KERNEL] = "kernel",
	[UD_COUNTING_GUEST] = "guest",
	[UD_COUNTING_HOST] = "host",
	[UD_COUNTING_HYPERVISOR] = "hypervisor",
};

enum ud_counting ud_counting_of(struct ud_counted_modes m)
{
	if (m.user && m.kernel)
		return m.host && !m.guest ? UD_COUNTING_HOST : m.guest && !m.host ? UD_COUNTING_GUEST : UD_COUNTING_ALL;
	return m.user ? UD_COUNTING_USER : m.kernel ? UD_COUNTING_KERNEL : UD_COUNTING_HYPERVISOR;
}

const char *ud_counting_name(enum ud_counting c)
{
	return counting_names[c];
}

int ud_counting_from_name(const char *name, enum ud_counting *out)
{
	for (int c = 0; c < UD_COUNTING_COUNT; c++)
		if (strcmp(name, counting_names[c]) == 0)
			return *out = (enum ud_counting)c, 0;
	return -1;
}
