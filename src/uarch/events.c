#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's perf_event.h first: libpfm4's copy then steps aside. */
#include "event_names.h"
#include "events.h"
#include "raw_config.h"

#include <perfmon/pfmlib_perf_event.h>

struct generic_event {
	const char *name; /* canonical, as event_names.c spells it */
	__u32 type;
	__u64 config;
	bool ticks_with_work;
};

#define HW_CACHE(cache, op, result) \
	((cache) | ((op) << 8) | ((result) << 16))

/* perf's generic names and the kernel's generic encodings behind them. */
static const struct generic_event generic_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, true },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, false },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, false },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, false },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, false },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, false },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, true },
	{ "L1-dcache-loads", PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS), true },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), false },
	{ "L1-icache-load-misses", PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_L1I, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), false },
	{ "LLC-loads", PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS), false },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), false },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, true },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, true },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, false },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, false },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, false },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, false },
};

const char *const ud_default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
	"L1-dcache-loads", "L1-dcache-load-misses",
	"stalled-cycles-frontend", "stalled-cycles-backend",
};
const size_t ud_default_events_count = sizeof(ud_default_events) / sizeof(ud_default_events[0]);

/*
 * libpfm4 keeps its tables in library-global state; we track init and the
 * last PMU asked about, since every event of a plan asks about the same one
 * and the answer walks all of libpfm4's PMUs.  ud_events_cleanup() resets both.
 */
static bool pfm_ready;
static struct {
	char pmu[64];
	bool present;
} pfm_last;

static void init_attr(struct ud_event *ev, __u32 type, __u64 config)
{
	memset(&ev->attr, 0, sizeof(ev->attr));
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = type;
	ev->attr.config = config;
	ev->resolved = true;
	ev->hardware = type != PERF_TYPE_SOFTWARE;
}

/* Aliases ("cpu-cycles") are event_names.c's to know; the encodings are keyed by the canonical name. */
static const struct generic_event *find_generic(const char *name)
{
	const char *canonical = ud_generic_event_name(name);

	for (size_t i = 0; canonical && i < sizeof(generic_events) / sizeof(generic_events[0]); i++)
		if (strcmp(canonical, generic_events[i].name) == 0)
			return &generic_events[i];
	return NULL;
}

static bool resolve_generic(const char *name, struct ud_event *ev)
{
	const struct generic_event *g = find_generic(name);

	if (!g)
		return false;
	/* Report under the canonical name so profiles compare across hosts. */
	snprintf(ev->name, sizeof(ev->name), "%s", g->name);
	init_attr(ev, g->type, g->config);
	ev->ticks_with_work = g->ticks_with_work;
	ev->opened_as = "generic";
	return true;
}

/* "r" and hex digits only: a raw code, whether or not it fits. */
static bool looks_raw(const char *name)
{
	return name[0] == 'r' && name[1] && name[1 + strspn(name + 1, "0123456789abcdefABCDEF")] == '\0';
}

/* A raw code wider than a perf config (64 bits) is refused, never cut. */
static bool raw_overflows(const char *name)
{
	errno = 0;
	return looks_raw(name) && strtoull(name + 1, NULL, 16) == ULLONG_MAX && errno == ERANGE;
}

static bool resolve_raw(const char *name, struct ud_event *ev)
{
	char *end;
	unsigned long long code;

	if (!looks_raw(name) || raw_overflows(name))
		return false;
	code = strtoull(name + 1, &end, 16);
	if (*end)
		return false;
	init_attr(ev, PERF_TYPE_RAW, code);
	ev->opened_as = "raw";
	return true;
}

static bool pfm_init(void)
{
	if (!pfm_ready && pfm_initialize() == PFM_SUCCESS)
		pfm_ready = true;
	return pfm_ready;
}

static bool pmu_present(const char *pmu)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && info.name && strcmp(info.name, pmu) == 0)
			return info.is_present;
	}
	return false;
}

bool ud_libpfm4_pmu_present(const char *pmu)
{
	if (!pmu[0] || !pfm_init())
		return false;
	if (strcmp(pfm_last.pmu, pmu) != 0) {
		snprintf(pfm_last.pmu, sizeof(pfm_last.pmu), "%s", pmu);
		pfm_last.present = pmu_present(pmu);
	}
	return pfm_last.present;
}

static bool resolve_pfm(const char *name, struct ud_event *ev)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr attr;
	char *fstr = NULL;
	int ret;

	if (!pfm_init())
		return false;
	memset(&arg, 0, sizeof(arg));
	memset(&attr, 0, sizeof(attr));
	arg.attr = &attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	/* PLM3|PLM0: user and kernel, as perf counts by default. */
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS) {
		free(fstr);
		return false;
	}
	init_attr(ev, attr.type, attr.config);
	ev->attr.config1 = attr.config1;
	ev->attr.config2 = attr.config2;
	ev->opened_as = "libpfm4";
	snprintf(ev->vendor_event, sizeof(ev->vendor_event), "%s", fstr ? fstr : name);
	free(fstr);
	return true;
}

void ud_event_resolve(const char *name, struct ud_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	ev->group = -1;
	if (resolve_generic(name, ev) || resolve_raw(name, ev) || resolve_pfm(name, ev))
		return;
	ev->resolved = false;
	ev->unknown = true;
	snprintf(ev->reason, sizeof(ev->reason),
		 "unknown event: not a generic name, a raw code (rHEX) or an event libpfm4 knows for this CPU");
}

/*
 * perf's privilege-level modifiers, as in "cycles:u": the letters after the
 * last ':' when all of them are u (user), k (kernel), h (hypervisor), G and
 * H (guest, host: what a counter in this process counts anyway) or p
 * (precise sampling, "cycles:pp": nothing to a count).
 * Returns the length of the name without them.
 */
static size_t modifier_start(const char *name)
{
	const char *colon = strrchr(name, ':');

	if (!colon || colon == name || !colon[1] || colon[-1] == ':' || strspn(colon + 1, "ukhGHp") != strlen(colon + 1))
		return strlen(name);
	return (size_t)(colon - name);
}

/*
 * Counts only the privilege levels named, perf's way: naming any of u, k, h
 * excludes the others.  The counter keeps its modifier in its name
 * ("cycles:u"), so user and kernel counts stand beside each other in a
 * profile as perf prints them; G, H and p alone change nothing and are dropped.
 */
static void apply_modifiers(struct ud_event *ev, const char *mods)
{
	bool u = strchr(mods, 'u'), k = strchr(mods, 'k'), h = strchr(mods, 'h');
	size_t len = strlen(ev->name);

	if (!u && !k && !h)
		return;
	ev->attr.exclude_user = !u;
	ev->attr.exclude_kernel = !k;
	ev->attr.exclude_hv = !h;
	snprintf(ev->name + len, sizeof(ev->name) - len, ":%s%s%s", u ? "u" : "", k ? "k" : "", h ? "h" : "");
}

static void resolve_base_for(const struct ud_uarch *u, const char *name, struct ud_event *ev);

void ud_event_resolve_for(const struct ud_uarch *u, const char *name, struct ud_event *ev)
{
	size_t base_len = modifier_start(name);
	char base[UD_EVENT_NAME_MAX];

	if (name[base_len] == '\0' || base_len >= sizeof(base)) {
		resolve_base_for(u, name, ev);
		return;
	}
	memcpy(base, name, base_len);
	base[base_len] = '\0';
	resolve_base_for(u, base, ev);
	if (ev->resolved)
		apply_modifiers(ev, name + base_len + 1);
	else
		snprintf(ev->name, sizeof(ev->name), "%s", name);
}

static void resolve_base_for(const struct ud_uarch *u, const char *name, struct ud_event *ev)
{
	const struct ud_uarch_event *e;
	char qualified[2 * UD_EVENT_NAME_MAX];
	struct ud_event generic;

	ud_event_resolve(name, ev);
	if (!u || !ev->resolved || !ev->hardware || strcmp(ev->opened_as, "generic") != 0)
		return;
	e = ud_uarch_event(u, ev->name);
	if (!e)
		return;
	generic = *ev;
	if (e->unavailable) {
		ev->resolved = false;
		snprintf(ev->reason, sizeof(ev->reason), "not available on %s: %s", u->name, e->reason);
		return;
	}
	snprintf(qualified, sizeof(qualified), "%s::%s", u->libpfm4_pmu, e->vendor);
	if (!(e->libpfm4 && ud_libpfm4_pmu_present(u->libpfm4_pmu) && resolve_pfm(qualified, ev))) {
		init_attr(ev, PERF_TYPE_RAW, ud_uarch_raw_config(u, e->code, e->umask, 0, false, false));
		ev->opened_as = "raw";
	}
	/* What the name means here comes from the table, whichever way it opens. */
	snprintf(ev->name, sizeof(ev->name), "%s", generic.name);
	ev->ticks_with_work = generic.ticks_with_work;
	ev->group = -1;
	snprintf(ev->vendor_event, sizeof(ev->vendor_event), "%s", e->vendor);
	snprintf(ev->semantics, sizeof(ev->semantics), "%s", e->semantics);
}

size_t ud_event_parse_list(const char *list, const struct ud_uarch *u, struct ud_event **out,
			   struct ud_err *err)
{
	size_t n = 1, i = 0;
	char *copy, *save = NULL, *tok;
	struct ud_event *ev;

	*out = NULL;
	for (const char *p = list; *p; p++)
		n += *p == ',';
	if (!*list) {
		ud_fail(err, "empty event list");
		return 0;
	}
	for (const char *p = list; *p; p++) {
		if (*p == ',' && (p == list || p[1] == ',' || p[1] == '\0')) {
			ud_fail(err, "empty event name in list '%s'", list);
			return 0;
		}
	}
	copy = strdup(list);
	ev = calloc(n, sizeof(*ev));
	if (!copy || !ev) {
		free(copy);
		free(ev);
		ud_fail(err, "out of memory");
		return 0;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (raw_overflows(tok)) {
			ud_fail(err, "'%s': a raw event code must fit in 64 bits", tok);
			free(copy);
			free(ev);
			return 0;
		}
		ud_event_resolve_for(u, tok, &ev[i]);
		/* "cycles,cycles:G" or "cycles,cpu-cycles": one counter under one name, twice, would collide in a profile */
		for (size_t k = 0; k < i; k++) {
			if (strcmp(ev[k].name, ev[i].name) == 0) {
				ud_fail(err, "'%s' names the same counter as an earlier event (%s): give it once", tok,
					ev[k].name);
				free(copy);
				free(ev);
				return 0;
			}
		}
		i++;
	}
	free(copy);
	*out = ev;
	return i;
}

static bool is_anchor(const struct ud_event *ev)
{
	return ev->resolved && ev->hardware &&
	       (strcmp(ev->name, "cycles") == 0 || strcmp(ev->name, "instructions") == 0);
}

struct ud_event *ud_event_plan_groups(const struct ud_event *ev, size_t n, int programmable, int fixed,
				      size_t *out_n)
{
	size_t anchors = 0, others = 0, cap, groups, k;
	struct ud_event *out;
	int slots;

	for (size_t i = 0; i < n; i++) {
		if (is_anchor(&ev[i]))
			anchors++;
		else if (ev[i].resolved && ev[i].hardware)
			others++;
	}
	/* Fixed counters host the anchors first; the rest share the general ones. */
	slots = programmable - (anchors > (size_t)fixed ? (int)(anchors - (size_t)fixed) : 0);
	if (slots < 1)
		slots = 1;
	groups = others ? (others + (size_t)slots - 1) / (size_t)slots : (anchors ? 1 : 0);
	cap = n + (groups > 1 ? (groups - 1) * anchors : 0);
	out = calloc(cap ? cap : 1, sizeof(*out));
	if (!out)
		return NULL;
	memcpy(out, ev, n * sizeof(*ev));
	k = 0;
	for (size_t i = 0; i < n; i++) {
		out[i].group = -1;
		if (is_anchor(&out[i]))
			out[i].group = 0;
		else if (out[i].resolved && out[i].hardware)
			out[i].group = (int)(k++ / (size_t)slots);
	}
	k = n;
	for (size_t g = 1; g < groups; g++) {
		for (size_t i = 0; i < n; i++) {
			if (!is_anchor(&ev[i]))
				continue;
			out[k] = ev[i];
			snprintf(out[k].name, sizeof(out[k].name), "%s@g%zu", ev[i].name, g);
			out[k++].group = (int)g;
		}
	}
	*out_n = k;
	return out;
}

int ud_event_group_count(const struct ud_event *ev, size_t n)
{
	int max = -1;

	for (size_t i = 0; i < n; i++)
		if (ev[i].group > max)
			max = ev[i].group;
	return max + 1;
}

void ud_events_cleanup(void)
{
	if (pfm_ready)
		pfm_terminate();
	pfm_ready = false;
	pfm_last.pmu[0] = '\0';
}
