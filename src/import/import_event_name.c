/*
 * import_event_name.c - perf's many spellings of one event reduced to the
 * name the profile uses (import_event_name.h), so a Graviton paste, a hybrid
 * Intel paste and uarchdiff's own counts compare counter by counter.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cpu_mode.h"
#include "event_names.h"
#include "import_event_name.h"

static const struct {
	const char *pmu_event;
	const char *generic;
} vendor_aliases[] = {
	/* Arm PMUv3 spellings under armv8_pmuv3_N/.../ */
	{ "cpu_cycles", "cycles" }, { "inst_retired", "instructions" }, { "br_retired", "branches" },
	{ "br_mis_pred_retired", "branch-misses" }, { "br_mis_pred", "branch-misses" },
	{ "stall_frontend", "stalled-cycles-frontend" }, { "stall_backend", "stalled-cycles-backend" },
	{ "l1d_cache_rd", "L1-dcache-loads" }, { "l1d_cache_refill_rd", "L1-dcache-load-misses" },
	{ "l1d_cache", "L1-dcache-loads" }, { "l1d_cache_refill", "L1-dcache-load-misses" },
};

/*
 * Removes H and G where both stand in mods: host and guest together is what
 * perf counts with neither since it stopped setting exclude_guest by
 * default (Namhyung Kim's "perf tools: Don't set attr.exclude_guest by
 * default", 2024; before, an unmodified event counted the host alone, as :H
 * does), and on a host that runs no guest they are one count.  H or G alone
 * restricts the count to one side and stays.
 */
static void drop_host_and_guest(char *mods)
{
	char *w = mods;

	if (!strchr(mods, 'H') || !strchr(mods, 'G'))
		return;
	for (const char *r = mods; *r; r++)
		if (*r != 'H' && *r != 'G')
			*w++ = *r;
	*w = '\0';
}

void imp_normalize_event(const char *in, char *out, size_t len)
{
	char name[128], *mods = NULL, *first, *second;
	const char *generic;

	snprintf(name, sizeof(name), "%s", in);
	/* cpu_core/cycles/, armv8_pmuv3_0/cpu_cycles/:u: the event inside the PMU's slashes */
	first = strchr(name, '/');
	second = first ? strchr(first + 1, '/') : NULL;
	if (second && second > first + 1 && !memchr(first + 1, '=', (size_t)(second - first - 1))) {
		char inner[128];

		snprintf(inner, sizeof(inner), "%.*s%s", (int)(second - first - 1), first + 1, second + 1);
		snprintf(name, sizeof(name), "%s", inner);
		for (size_t i = 0; i < sizeof(vendor_aliases) / sizeof(vendor_aliases[0]); i++) {
			size_t n = strlen(vendor_aliases[i].pmu_event);

			if (strncmp(name, vendor_aliases[i].pmu_event, n) == 0 && (name[n] == '\0' || name[n] == ':')) {
				snprintf(inner, sizeof(inner), "%s%s", vendor_aliases[i].generic, name + n);
				snprintf(name, sizeof(name), "%s", inner);
				break;
			}
		}
	}
	mods = strchr(name, ':');
	if (mods) {
		*mods++ = '\0';
		drop_host_and_guest(mods);
		if (!*mods)
			mods = NULL;
	}
	generic = ud_generic_event_name(name);
	snprintf(out, len, "%s%s%s", generic ? generic : name, mods ? ":" : "", mods ? mods : "");
}

/*
 * The PMU names of core types: Intel's cpu_core, cpu_atom (cpu_lowpower),
 * Arm's armv8_cortex_a76, armv8_pmuv3_0, Apple's (Asahi) apple_firestorm_pmu.
 */
static bool core_pmu_name(const char *s, size_t n)
{
	static const char *const core_prefixes[] = { "cpu_", "armv8_", "armv9_", "apple_" };

	for (size_t i = 0; i < sizeof(core_prefixes) / sizeof(core_prefixes[0]); i++) {
		size_t k = strlen(core_prefixes[i]);

		if (n > k && strncmp(s, core_prefixes[i], k) == 0)
			return true;
	}
	return false;
}

bool imp_core_pmu_of(const char *in, char *pmu, size_t len)
{
	size_t n = strcspn(in, "/");

	if (!in[n] || n == 0 || n >= len || strchr(in + n + 1, '/') == NULL || !core_pmu_name(in, n))
		return false;
	snprintf(pmu, len, "%.*s", (int)n, in);
	return true;
}

bool imp_group_pmu_of(const char *label, char *pmu, size_t len)
{
	const char *open = strrchr(label, '('), *close = open ? strchr(open, ')') : NULL;
	size_t n = close ? (size_t)(close - open - 1) : 0;

	if (!close || n == 0 || n >= len || !core_pmu_name(open + 1, n) || strcspn(open + 1, " /") < n)
		return false;
	snprintf(pmu, len, "%.*s", (int)n, open + 1);
	return true;
}

bool imp_is_clock_event(const char *in)
{
	char name[128];

	/* Asked of every row of a long file: the cheap test first. */
	if (!strstr(in, "-clock"))
		return false;
	imp_normalize_event(in, name, sizeof(name));
	return strcmp(name, "task-clock") == 0 || strcmp(name, "cpu-clock") == 0;
}

/* The tool and software clocks: they add up time, which no privilege filter applies to (kernel/events/core.c's task_clock_event_update() and cpu_clock_event_update() add every delta). */
static bool counts_time(const char *name)
{
	return imp_is_clock_event(name) || strcmp(name, "duration_time") == 0 || strcmp(name, "user_time") == 0 ||
	       strcmp(name, "system_time") == 0;
}

bool imp_counting_mode_name(const char *name, char mode, char *out, size_t len)
{
	const char *mods = ud_event_modifiers(name);
	size_t base = mods ? (size_t)(mods - name) : strlen(name);
	char kept[32];
	size_t n = 0;

	if (counts_time(name))
		return false;
	/* the levels typed give way to the one perf set; precision, pinning, host or guest stay */
	for (const char *m = mods; m && *m && n + 1 < sizeof(kept); m++)
		if (*m != 'u' && *m != 'k')
			kept[n++] = *m;
	kept[n] = '\0';
	if (mods)
		snprintf(out, len, "%.*s%c%s", (int)base, name, mode, kept);
	else
		snprintf(out, len, "%s%s%c", name, base && name[base - 1] == '/' ? "" : ":", mode);
	return true;
}

static bool identifier_with_underscore(const char *s)
{
	if (!isalpha((unsigned char)*s) || !strchr(s, '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

/* A metric's name: one with an underscore, or perf's top-down bucket without one (PipelineL1's and Arm's "retiring"). */
static bool metric_word(const char *s)
{
	return identifier_with_underscore(s) || strcmp(s, "retiring") == 0;
}

bool imp_metric_name_of(const char *unit, bool any_text, char *name, size_t len)
{
	char buf[128], *s = buf, *e;

	snprintf(buf, sizeof(buf), "%s", unit);
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	/*
	 * perf's "# 2.853 GHz" on the cycles line, cycles per task-clock second:
	 * kept as evidence of the clock, named as the derived metric it matches
	 */
	if (strcmp(s, "GHz") == 0) {
		snprintf(name, len, "ghz");
		return true;
	}
	if (metric_word(s)) {
		snprintf(name, len, "%s", s);
		return true;
	}
	/* "%  tma_backend_bound": a unit, then the name */
	e = s + strcspn(s, " \t");
	while (isspace((unsigned char)*e))
		e++;
	if (*e && metric_word(e)) {
		snprintf(name, len, "%s", e);
		return true;
	}
	if (!any_text)
		return false;
	snprintf(name, len, "%s", *s == '%' && *e ? e : s);
	return true;
}
