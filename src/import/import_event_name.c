/*
 * import_event_name.c - perf's many spellings of one event reduced to the
 * name the profile uses (import_event_name.h, through the model's reading
 * of perf's event grammar, event_id.h), so a Graviton paste, a hybrid Intel
 * paste, an Asahi paste and uarchdiff's own counts compare counter by
 * counter.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cpu_mode.h"
#include "event_id.h"
#include "import_event_name.h"

void imp_normalize_event(const char *in, char *out, size_t len)
{
	struct ud_event_id id;

	ud_event_id_parse(in, &id);
	ud_event_id_name(&id, false, out, len);
}

/* A name ud_event_id_name() writes: the event, its PMU and terms around it, a colon and the modifiers. */
#define EVENT_NAME_MAX (UD_EVENT_ID_PMU + UD_EVENT_ID_EVENT + UD_EVENT_ID_MODS + 4)

char *imp_event_name_new(const char *in)
{
	char name[EVENT_NAME_MAX];

	if (strlen(in) >= UD_EVENT_ID_EVENT)
		return strdup(in);
	imp_normalize_event(in, name, sizeof(name));
	return strdup(name);
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
	/* room for any name normalising writes, as imp_event_name_new(): a cut one could read as a clock */
	char name[EVENT_NAME_MAX];

	/*
	 * Asked of every row of a long file: the cheap test first, "-clock"
	 * found through strchr() to each 'k', which other event names mostly
	 * lack, rather than strstr() on every row
	 */
	const char *k = strchr(in, 'k');

	while (k && !(k - in >= 5 && memcmp(k - 5, "-cloc", 5) == 0))
		k = strchr(k + 1, 'k');
	/* a spelling past the grammar's field is kept as printed (imp_event_name_new()), never a clock's */
	if (!k || strlen(in) >= UD_EVENT_ID_EVENT)
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

/*
 * A metric's name: one with an underscore, or perf's top-down bucket
 * without one (PipelineL1's and Arm's "retiring", older Intel TopdownL1's
 * "Retiring").
 */
static bool metric_word(const char *s)
{
	return identifier_with_underscore(s) || strcasecmp(s, "retiring") == 0;
}

/* The name in s (a copy of the unit, trimmed, NUL-ended), moved to its start: 1, or 0 when it names none. */
static int metric_in(char *s, bool any_text)
{
	const char *e;

	/*
	 * perf's "# 2.853 GHz" on the cycles line, cycles per task-clock second:
	 * kept as evidence of the clock, named as the derived metric it matches
	 */
	if (strcmp(s, "GHz") == 0) {
		strcpy(s, "ghz");
		return 1;
	}
	if (metric_word(s))
		return 1;
	/* "%  tma_backend_bound": a unit, then the name */
	e = s + strcspn(s, " \t");
	while (isspace((unsigned char)*e))
		e++;
	if (*e && (metric_word(e) || (any_text && *s == '%'))) {
		memmove(s, e, strlen(e) + 1);
		return 1;
	}
	return any_text;
}

int imp_metric_name_new(const char *unit, size_t len, bool any_text, char **name)
{
	char *buf, *s, *e;

	*name = NULL;
	/* as long as perf printed it: two long names differing at their end stay two metrics */
	if (!(buf = strndup(unit, len)))
		return -1;
	s = buf;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	while (isspace((unsigned char)*s))
		s++;
	if (!*s || !metric_in(s, any_text)) {
		free(buf);
		return 0;
	}
	memmove(buf, s, strlen(s) + 1);
	*name = buf;
	return 1;
}
