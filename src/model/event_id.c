/*
 * event_id.c - perf's spellings of one event read into its identity
 * (event_id.h), and the class that identity has.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "event_classes.h"
#include "event_id.h"
#include "event_names.h"

static bool ud_event_pmu_is_core(const char *pmu);

/*
 * Arm PMUv3's sysfs names for the events the kernel's generic names map
 * onto (drivers/perf/arm_pmuv3.c, armv8_pmuv3_perf_map and
 * armv8_pmuv3_perf_cache_map), printed under the PMU as
 * "armv8_pmuv3_0/cpu_cycles/": the same counters as the generic names.
 * br_mis_pred_retired and the _rd events are the retired and load-only
 * forms a table maps the generic names to on some cores (events/).
 */
static const struct {
	const char *pmu_event, *generic;
} arm_aliases[] = {
	{ "cpu_cycles", "cycles" }, { "inst_retired", "instructions" }, { "br_retired", "branches" },
	{ "br_mis_pred_retired", "branch-misses" }, { "br_mis_pred", "branch-misses" },
	{ "stall_frontend", "stalled-cycles-frontend" }, { "stall_backend", "stalled-cycles-backend" },
	{ "l1d_cache_rd", "L1-dcache-loads" }, { "l1d_cache_refill_rd", "L1-dcache-load-misses" },
	{ "l1d_cache", "L1-dcache-loads" }, { "l1d_cache_refill", "L1-dcache-load-misses" },
};

/* The modifier letters that change what a count counts (event_id.h says why the others go). */
static const char counting_mods[] = "ukhHGIR";

/* perf's modifier letters (cpu_mode.c has the list and its source). */
static bool all_modifiers(const char *s)
{
	char probe[UD_EVENT_ID_MODS + 4];

	if (!*s || strlen(s) >= UD_EVENT_ID_MODS)
		return false;
	snprintf(probe, sizeof(probe), "x:%s", s);
	return ud_event_modifiers(probe) == probe + 2;
}

/* The kept modifiers of mods into id->mods, and the levels they count. */
static void set_modifiers(struct ud_event_id *id, const char *mods)
{
	char probe[UD_EVENT_ID_MODS + 4];
	size_t n = 0;
	bool u = strchr(mods, 'u'), k = strchr(mods, 'k'), h = strchr(mods, 'h');
	bool host = strchr(mods, 'H'), guest = strchr(mods, 'G');

	for (const char *m = mods; *m && n + 1 < sizeof(id->mods); m++) {
		if (!strchr(counting_mods, *m) || strchr(id->mods, *m))
			continue;
		/* u and k together, without h, are every level a host counts; H and G together, both sides */
		if (((*m == 'u' || *m == 'k') && u && k && !h) || ((*m == 'H' || *m == 'G') && host && guest))
			continue;
		id->mods[n++] = *m;
		id->mods[n] = '\0';
	}
	snprintf(probe, sizeof(probe), "x:%s", mods);
	id->levels = ud_counted_modes_of(*mods ? probe : "x");
	id->mode = ud_counting_of(id->levels);
}

/* Strips spaces and a group's braces around one name: "{cycles}:u" -> "cycles:u". */
static void strip_group(const char *in, char *out, size_t len)
{
	const char *close;

	while (isspace((unsigned char)*in))
		in++;
	if (*in == '{' && (close = strchr(in, '}')) != NULL)
		snprintf(out, len, "%.*s%s", (int)(close - in - 1), in + 1, close + 1);
	else
		snprintf(out, len, "%s", in);
	for (size_t n = strlen(out); n && isspace((unsigned char)out[n - 1]); n--)
		out[n - 1] = '\0';
}

/* "0x1c2", "0xc9", "200": a term's number; -1 where it is none. */
static long long term_number(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 0);

	return end != s && (*end == '\0' || *end == ',') && v >= 0 ? v : -1;
}

/* event=, umask= (and Arm's event= alone) from "event=0xc9,umask=0". */
static void read_terms(struct ud_event_id *id)
{
	for (const char *t = id->event; t && *t; t = strchr(t, ','), t = t ? t + 1 : NULL) {
		if (strncmp(t, "event=", 6) == 0)
			id->code = term_number(t + 6);
		else if (strncmp(t, "umask=", 6) == 0)
			id->umask = (int)term_number(t + 6);
	}
}

/* "rc4", "r00c4": the code and, on x86, the unit mask in bits 8-15 (AMD's bits 32-35 extend the event). */
static bool read_raw(struct ud_event_id *id)
{
	const char *s = id->event;
	char *end;
	unsigned long long config;

	if (s[0] != 'r' || !s[1] || strspn(s + 1, "0123456789abcdefABCDEF") != strlen(s + 1) || strlen(s + 1) > 16)
		return false;
	config = strtoull(s + 1, &end, 16);
	id->kind = UD_EVENT_RAW;
	id->code = (long long)(((config >> 24) & 0xf00) | (config & 0xff));
	id->umask = (int)((config >> 8) & 0xff);
	return true;
}

static void read_name_form(struct ud_event_id *id, const char *s);

/* A PMU's spelling, "pmu/inner/mods": 1 read, 0 not one. */
static int read_pmu_form(struct ud_event_id *id, const char *s)
{
	const char *first = strchr(s, '/'), *second = first ? strchr(first + 1, '/') : NULL, *mods;
	size_t n = first ? (size_t)(first - s) : 0;

	if (!first || n == 0 || n >= sizeof(id->pmu) || second == first + 1 || strcspn(s, "=,:") < n)
		return 0;
	/* "cpu_core/cycles:u": how a hybrid host's profile names a counter, its core PMU kept */
	if (!second) {
		char pmu[UD_EVENT_ID_PMU];

		snprintf(pmu, sizeof(pmu), "%.*s", (int)n, s);
		if (!ud_event_pmu_is_core(pmu))
			return 0;
		read_name_form(id, first + 1);
		snprintf(id->pmu, sizeof(id->pmu), "%s", pmu);
		return 1;
	}
	snprintf(id->pmu, sizeof(id->pmu), "%.*s", (int)n, s);
	snprintf(id->event, sizeof(id->event), "%.*s", (int)(second - first - 1), first + 1);
	mods = second + 1 + (second[1] == ':');
	/* an event named inside the slashes may carry its own (armv8_pmuv3_0/cpu_cycles:u/) */
	if (!strchr(id->event, '=')) {
		char *colon = strrchr(id->event, ':');

		if (colon && all_modifiers(colon + 1)) {
			char both[2 * UD_EVENT_ID_MODS];

			snprintf(both, sizeof(both), "%s%s", colon + 1, all_modifiers(mods) ? mods : "");
			*colon = '\0';
			set_modifiers(id, both);
			return 1;
		}
	}
	set_modifiers(id, all_modifiers(mods) ? mods : "");
	if (strchr(id->event, '=')) {
		id->kind = UD_EVENT_TERMS;
		read_terms(id);
	}
	return 1;
}

/* "name:mods", "sched:sched_switch", "rc4:u". */
static void read_name_form(struct ud_event_id *id, const char *s)
{
	const char *colon = strrchr(s, ':');

	if (colon && all_modifiers(colon + 1)) {
		snprintf(id->event, sizeof(id->event), "%.*s", (int)(colon - s), s);
		set_modifiers(id, colon + 1);
	} else {
		snprintf(id->event, sizeof(id->event), "%s", s);
		set_modifiers(id, "");
	}
	/*
	 * a colon left between two names is a tracepoint's subsystem:event,
	 * whose subsystem is a kernel identifier in lower case; libpfm4's
	 * "INST_RETIRED:ANY_P" is an event and its unit mask
	 */
	colon = strchr(id->event, ':');
	if (colon && colon > id->event && colon[1] && colon[1] != ':' &&
	    strspn(id->event, "abcdefghijklmnopqrstuvwxyz0123456789_") == (size_t)(colon - id->event))
		id->kind = UD_EVENT_TRACEPOINT;
	else
		read_raw(id);
}

/* Arm PMUv3's name of a generic event under its PMU, else NULL. */
static const char *arm_alias(const char *event)
{
	for (size_t i = 0; i < sizeof(arm_aliases) / sizeof(arm_aliases[0]); i++)
		if (strcasecmp(event, arm_aliases[i].pmu_event) == 0)
			return arm_aliases[i].generic;
	return NULL;
}

void ud_event_id_parse(const char *spelling, struct ud_event_id *id)
{
	char s[UD_EVENT_ID_PMU + UD_EVENT_ID_EVENT + UD_EVENT_ID_MODS];
	const char *generic;

	memset(id, 0, sizeof(*id));
	id->code = -1;
	id->umask = -1;
	strip_group(spelling, s, sizeof(s));
	if (!read_pmu_form(id, s))
		read_name_form(id, s);
	if (id->kind != UD_EVENT_NAMED)
		return;
	generic = ud_generic_event_name(id->event);
	if (!generic && id->pmu[0] && strncmp(id->pmu, "armv", 4) == 0)
		generic = arm_alias(id->event);
	if (generic) {
		snprintf(id->event, sizeof(id->event), "%s", generic);
		id->generic = true;
	}
}

/* Whether pmu names a core's PMU (cpu, cpu_core, cpu_atom, armv8_pmuv3_0, apple_firestorm_pmu), not an uncore one. */
static bool ud_event_pmu_is_core(const char *pmu)
{
	static const char *const prefixes[] = { "cpu_", "armv8_", "armv9_", "apple_" };

	if (strcmp(pmu, "cpu") == 0)
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(pmu, prefixes[i], strlen(prefixes[i])) == 0 && pmu[strlen(prefixes[i])])
			return true;
	return false;
}

enum ud_event_arch ud_event_arch_of(const char *vendor, const char *isa)
{
	if (vendor && (strcmp(vendor, "GenuineIntel") == 0 || strcasecmp(vendor, "Intel") == 0))
		return UD_ARCH_X86_INTEL;
	if (vendor && (strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0 ||
		       strcasecmp(vendor, "AMD") == 0))
		return UD_ARCH_X86_AMD;
	if (!isa)
		return UD_ARCH_UNKNOWN;
	if (strcmp(isa, "x86_64") == 0 || strcmp(isa, "i686") == 0 || strcmp(isa, "i386") == 0)
		return UD_ARCH_X86;
	if (strcmp(isa, "aarch64") == 0 || strncmp(isa, "arm", 3) == 0)
		return UD_ARCH_ARM;
	if (strncmp(isa, "ppc", 3) == 0)
		return UD_ARCH_POWER;
	return strncmp(isa, "riscv", 5) == 0 ? UD_ARCH_RISCV : UD_ARCH_UNKNOWN;
}

/* What a PMU's name says of the architecture, where the host's facts said nothing. */
static enum ud_event_arch arch_of_pmu(const char *pmu)
{
	if (strncmp(pmu, "armv", 4) == 0 || strncmp(pmu, "apple_", 6) == 0)
		return UD_ARCH_ARM;
	return strncmp(pmu, "cpu_", 4) == 0 ? UD_ARCH_X86 : UD_ARCH_UNKNOWN;
}

static void set_class(struct ud_event_id *id, enum ud_counter_class cls, const char *source)
{
	id->cls = cls;
	id->class_source = source;
}

void ud_event_id_classify(struct ud_event_id *id, enum ud_event_arch arch)
{
	const struct ud_event_class *row;

	set_class(id, UD_CLASS_OTHER, NULL);
	if (arch == UD_ARCH_UNKNOWN)
		arch = arch_of_pmu(id->pmu);
	if (id->kind == UD_EVENT_TRACEPOINT)
		set_class(id, UD_CLASS_SOFTWARE, "a tracepoint: the kernel's software event");
	else if (id->pmu[0] && !ud_event_pmu_is_core(id->pmu))
		set_class(id, ud_event_pmu_is_software(id->pmu) ? UD_CLASS_SOFTWARE : UD_CLASS_UNCORE,
			  "counted outside the cores (not a core PMU)");
	else if (id->generic)
		set_class(id, ud_generic_event_class(id->event), "perf's generic name");
	else if (id->kind == UD_EVENT_NAMED && (row = ud_event_class_by_name(id->event)) != NULL)
		set_class(id, row->cls, row->source);
	else if (id->code >= 0 && (row = ud_event_class_by_code(arch, id->code, id->umask)) != NULL)
		set_class(id, row->cls, row->source);
}

void ud_event_id_name(const struct ud_event_id *id, bool with_pmu, char *buf, size_t len)
{
	bool mods = id->mods[0] != '\0';

	if (id->kind == UD_EVENT_TERMS)
		snprintf(buf, len, "%s/%s/%s", id->pmu, id->event, id->mods);
	else
		snprintf(buf, len, "%s%s%s%s%s", with_pmu && id->pmu[0] ? id->pmu : "", with_pmu && id->pmu[0] ? "/" : "",
			 id->event, mods ? ":" : "", id->mods);
}

/*
 * The last classifications, per thread, by a hash of the name: a fleet's
 * profiles name the same few counters over and over (100,000 hosts x 20
 * workloads x 11 counters), and parsing and classifying each name again
 * was a fifth of compare's time (issue 38).  The result depends on nothing
 * but the name and arch (the tables are constant), so a hit is exact.
 * CLASSIFY_MEMO slots hold a profile's usual counters with room; a name
 * longer than a slot's is classified every time.  A name looks in
 * CLASSIFY_MEMO_WAYS slots from its hash's: with one, two of a profile's
 * 11 names sharing a slot (likelier than not in 64) evicted each other on
 * every workload, and a sixth of the lookups missed.
 */
#define CLASSIFY_MEMO 64
#define CLASSIFY_MEMO_WAYS 4
#define CLASSIFY_MEMO_NAME 64

struct classify_memo {
	char name[CLASSIFY_MEMO_NAME]; /* "" unused */
	enum ud_event_arch arch;
	enum ud_counter_class cls;
	enum ud_counting mode;
};

static _Thread_local struct classify_memo classify_memo[CLASSIFY_MEMO];

void ud_event_classify_name(const char *name, enum ud_event_arch arch, enum ud_counter_class *cls,
			    enum ud_counting *mode)
{
	struct ud_event_id id;
	struct classify_memo *m = NULL;
	size_t len = strlen(name), h = 5381;

	if (len > 0 && len < CLASSIFY_MEMO_NAME) {
		for (const unsigned char *c = (const unsigned char *)name; *c; c++)
			h = h * 33 + *c;
		for (size_t way = 0; way < CLASSIFY_MEMO_WAYS; way++) {
			struct classify_memo *slot = &classify_memo[(h + (size_t)arch + way) % CLASSIFY_MEMO];

			if (slot->arch == arch && strcmp(slot->name, name) == 0) {
				*cls = slot->cls;
				*mode = slot->mode;
				return;
			}
			/* an empty slot is taken first; when all are full, the first one is replaced */
			if (!m || (m->name[0] && !slot->name[0]))
				m = slot;
		}
	}
	ud_event_id_parse(name, &id);
	ud_event_id_classify(&id, arch);
	*cls = id.cls;
	*mode = id.mode;
	if (m) {
		memcpy(m->name, name, len + 1);
		m->arch = arch;
		m->cls = id.cls;
		m->mode = id.mode;
	}
}
