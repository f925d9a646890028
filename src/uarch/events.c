#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kernel's perf_event.h first: libpfm4's copy then steps aside. */
#include "cpu_mode.h"
#include "event_names.h"
#include "events.h"
#include "events_priv.h"
#include "raw_config.h"
#include "text.h"

#include <perfmon/pfmlib_perf_event.h>

struct generic_event {
	const char *name; /* canonical, as event_names.c spells it */
	__u32 type;
	__u64 config;
	bool ticks_with_work;
};

#define HW_CACHE(cache, op, result) \
	((cache) | ((op) << 8) | ((result) << 16))
#define CACHE_READ(cache, result) \
	HW_CACHE(PERF_COUNT_HW_CACHE_##cache, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_##result)
#define CACHE_PREFETCH(cache, result) \
	HW_CACHE(PERF_COUNT_HW_CACHE_##cache, PERF_COUNT_HW_CACHE_OP_PREFETCH, PERF_COUNT_HW_CACHE_RESULT_##result)

/* perf's generic names and the kernel's generic encodings behind them: the one list, generic_events.def. */
static const struct generic_event generic_events[] = {
#define X(name, alias, cls, type, config, ticks) { name, type, config, ticks },
#include "generic_events.def"
#undef X
};

const char *const ud_default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
	"L1-dcache-loads", "L1-dcache-load-misses",
	"stalled-cycles-frontend", "stalled-cycles-backend",
};
const size_t ud_default_events_count = sizeof(ud_default_events) / sizeof(ud_default_events[0]);

/* Whether the core PMU's sysfs events folder lists name: perf's pmu_have_event("cpu", name) (x86's "cpu" PMU only). */
static bool cpu_pmu_lists(const char *cpu_events, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", cpu_events, name);
	return access(path, F_OK) == 0;
}

/*
 * perf 6.1's default top-down group (tools/perf/arch/x86/util/topdown.c,
 * topdown_parse_events()): level 2 where the PMU lists topdown-heavy-ops
 * (Sapphire Rapids), else level 1 (Ice Lake, Tiger Lake).
 */
#define TOPDOWN_L1_EVENTS "{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}"
#define TOPDOWN_L2_EVENTS \
	"{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound,topdown-heavy-ops," \
	"topdown-br-mispredict,topdown-fetch-lat,topdown-mem-bound}"

char *ud_perf_default_events(const char *cpu_events, bool count_cpus)
{
	char list[512];
	const char *topdown = !cpu_pmu_lists(cpu_events, "slots")		   ? ""
			      : cpu_pmu_lists(cpu_events, "topdown-heavy-ops") ? "," TOPDOWN_L2_EVENTS
									   : "," TOPDOWN_L1_EVENTS;

	snprintf(list, sizeof(list), "%s,context-switches,cpu-migrations,page-faults,cycles%s%s,instructions,branches,"
		 "branch-misses%s", count_cpus ? "cpu-clock" : "task-clock",
		 cpu_pmu_lists(cpu_events, "stalled-cycles-frontend") ? ",stalled-cycles-frontend" : "",
		 cpu_pmu_lists(cpu_events, "stalled-cycles-backend") ? ",stalled-cycles-backend" : "", topdown);
	return strdup(list);
}

/* builtin-stat.c's three detail levels, each adding to the one before. */
static const char *const detailed_events[] = {
	"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses",
	"L1-icache-loads", "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses", "iTLB-loads", "iTLB-load-misses",
	"L1-dcache-prefetches", "L1-dcache-prefetch-misses",
};
static const size_t detailed_upto[] = { 0, 4, 10, 12 };

const char *const *ud_detailed_events(int level, size_t *n)
{
	size_t top = sizeof(detailed_upto) / sizeof(detailed_upto[0]) - 1;

	*n = detailed_upto[level < 0 ? 0 : (size_t)level > top ? top : (size_t)level];
	return detailed_events;
}

/*
 * perf's tool events (tools/perf/util/evsel.c, perf_tool_event__tool_names):
 * the wall-clock time counted over, and the command's user and system CPU
 * time from its rusage, each in ns.
 */
static const struct {
	const char *name;
	enum ud_tool_event tool;
} tool_events[] = {
	{ "duration_time", UD_TOOL_DURATION },
	{ "user_time", UD_TOOL_USER },
	{ "system_time", UD_TOOL_SYSTEM },
};

/* A nanosecond count shown in milliseconds, as perf shows task-clock and cpu-clock. */
#define NS_AS_MSEC 1e-6

/*
 * libpfm4 is opened when an event first needs it, not linked: its 41,000
 * relocations cost every start-up of uarchdiff 0.55 M instructions, half a
 * `stat -e task-clock` (issue 35).  ABI 4 is the soname of the libpfm4
 * (>= 4.13) the package depends on.  Where it cannot be opened, no event
 * is libpfm4's: tables fall back to their raw codes.
 */
#define LIBPFM_SONAME "libpfm.so.4"

static struct {
	bool tried;
	pfm_err_t (*initialize)(void);
	void (*terminate)(void);
	pfm_err_t (*get_pmu_info)(pfm_pmu_t pmu, pfm_pmu_info_t *info);
	int (*get_event_next)(int idx);
	pfm_err_t (*get_event_info)(int idx, pfm_os_t os, pfm_event_info_t *info);
	pfm_err_t (*get_os_event_encoding)(const char *name, int plm, pfm_os_t os, void *arg);
} pfm;

#ifdef UD_PFM_LINKED
/* A static build (the emulated Arm guest's) has no loader to open the library with: linked in (CMakeLists.txt). */
static bool pfm_open(void)
{
	pfm.tried = true;
	pfm.terminate = pfm_terminate;
	pfm.get_pmu_info = pfm_get_pmu_info;
	pfm.get_event_next = pfm_get_event_next;
	pfm.get_event_info = pfm_get_event_info;
	pfm.get_os_event_encoding = pfm_get_os_event_encoding;
	pfm.initialize = pfm_initialize;
	return true;
}
#else
/* The library's functions, looked up once (it stays open: resolving after ud_events_cleanup() starts it again). */
static bool pfm_open(void)
{
	void *lib;

	if (pfm.tried)
		return pfm.initialize != NULL;
	pfm.tried = true;
	if (!(lib = dlopen(LIBPFM_SONAME, RTLD_NOW | RTLD_LOCAL)))
		return false;
	pfm.terminate = (void (*)(void))dlsym(lib, "pfm_terminate");
	pfm.get_pmu_info = (pfm_err_t(*)(pfm_pmu_t, pfm_pmu_info_t *))dlsym(lib, "pfm_get_pmu_info");
	pfm.get_event_next = (int (*)(int))dlsym(lib, "pfm_get_event_next");
	pfm.get_event_info = (pfm_err_t(*)(int, pfm_os_t, pfm_event_info_t *))dlsym(lib, "pfm_get_event_info");
	pfm.get_os_event_encoding =
		(pfm_err_t(*)(const char *, int, pfm_os_t, void *))dlsym(lib, "pfm_get_os_event_encoding");
	if (pfm.terminate && pfm.get_pmu_info && pfm.get_event_next && pfm.get_event_info && pfm.get_os_event_encoding)
		pfm.initialize = (pfm_err_t(*)(void))dlsym(lib, "pfm_initialize");
	return pfm.initialize != NULL;
}
#endif

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
	ud_event_init_attr(ev, g->type, g->config);
	ev->ticks_with_work = g->ticks_with_work;
	ev->opened_as = "generic";
	if (g->type == PERF_TYPE_SOFTWARE &&
	    (g->config == PERF_COUNT_SW_TASK_CLOCK || g->config == PERF_COUNT_SW_CPU_CLOCK)) {
		snprintf(ev->unit, sizeof(ev->unit), "msec");
		ev->scale = NS_AS_MSEC;
	}
	return true;
}

/* "r" and hex digits only: a raw code, whether or not it fits. */
static bool looks_raw(const char *name)
{
	return name[0] == 'r' && name[1] && name[1 + strspn(name + 1, "0123456789abcdefABCDEF")] == '\0';
}

bool ud_event_raw_overflows(const char *name)
{
	errno = 0;
	return looks_raw(name) && strtoull(name + 1, NULL, 16) == ULLONG_MAX && errno == ERANGE;
}

static bool resolve_raw(const char *name, struct ud_event *ev)
{
	char *end;
	unsigned long long code;

	if (!looks_raw(name) || ud_event_raw_overflows(name))
		return false;
	code = strtoull(name + 1, &end, 16);
	if (*end)
		return false;
	ud_event_init_attr(ev, PERF_TYPE_RAW, code);
	ev->opened_as = "raw";
	return true;
}

static bool resolve_tool(const char *name, struct ud_event *ev)
{
	for (size_t i = 0; i < sizeof(tool_events) / sizeof(tool_events[0]); i++) {
		if (strcmp(name, tool_events[i].name) != 0)
			continue;
		ud_event_init_attr(ev, PERF_TYPE_SOFTWARE, 0);
		ev->hardware = false;
		ev->tool = tool_events[i].tool;
		ev->opened_as = "tool";
		snprintf(ev->unit, sizeof(ev->unit), "ns");
		return true;
	}
	return false;
}

static bool pfm_init(void)
{
	if (!pfm_ready && pfm_open() && pfm.initialize() == PFM_SUCCESS)
		pfm_ready = true;
	return pfm_ready;
}

/* libpfm4's index of the named PMU, or -1. */
static int pfm_pmu_index(const char *pmu, bool *present)
{
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm.get_pmu_info(p, &info) == PFM_SUCCESS && info.name && strcmp(info.name, pmu) == 0) {
			*present = info.is_present;
			return info.first_event;
		}
	}
	*present = false;
	return -1;
}

bool ud_libpfm4_pmu_present(const char *pmu)
{
	if (!pmu[0] || !pfm_init())
		return false;
	if (strcmp(pfm_last.pmu, pmu) != 0) {
		snprintf(pfm_last.pmu, sizeof(pfm_last.pmu), "%s", pmu);
		pfm_pmu_index(pmu, &pfm_last.present);
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
	ret = pfm.get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS) {
		free(fstr);
		return false;
	}
	ud_event_init_attr(ev, attr.type, attr.config);
	ev->attr.config1 = attr.config1;
	ev->attr.config2 = attr.config2;
	ev->opened_as = "libpfm4";
	snprintf(ev->vendor_event, sizeof(ev->vendor_event), "%s", fstr ? fstr : name);
	free(fstr);
	return true;
}

void ud_event_resolve(const char *name, struct ud_event *ev)
{
	char why[UD_REASON_MAX];

	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	ev->group = ev->request_group = -1;
	ev->scale = 1;
	if (resolve_generic(name, ev) || resolve_raw(name, ev) || resolve_tool(name, ev) ||
	    ud_sysfs_tracepoint(name, ev) || ud_sysfs_pmu_event(name, ev) || resolve_pfm(name, ev))
		return;
	if (ud_sysfs_tracefs_unreadable(name, why, sizeof(why))) {
		ud_event_set_unknown(ev, "%s", why);
		return;
	}
	ud_event_set_unknown(ev, "unknown event: not a generic name, a raw code (rHEX), a tool event (duration_time, "
				 "user_time, system_time), a tracepoint (subsys:name), a PMU event (pmu/.../) or an "
				 "event libpfm4 knows for this CPU");
}

size_t ud_event_base_len(const char *name)
{
	const char *mods = ud_event_modifiers(name);

	if (!mods)
		return strlen(name);
	return (size_t)(mods - name) - (mods[-1] == ':');
}

/*
 * perf's modifiers that change a count or how it is opened
 * (tools/perf/Documentation/perf-list.txt, "EVENT MODIFIERS").
 */
struct modifiers {
	bool u, k, h, guest, host, pinned, non_idle, exclusive, weak;
	int precise;
};

/* perf's modifiers a count has no use for, each with why (parse-events.c, get_event_modifier()). */
static const struct {
	char letter;
	const char *why;
} refused_modifiers[] = {
	{ 'S', "modifier S reads a group's counts at each sample of its leader: nothing to a count, which samples "
	       "nothing" },
	{ 'P', "modifier P asks for the highest precise level a sampling event opens with: give p, pp or ppp" },
	{ 'b', "modifier b counts through perf's BPF programs (perf stat --bpf-counters): not supported" },
	{ 'R', "modifier R samples retire latency: nothing to a count" },
};

/* The reason a letter is refused, into why; always -1. */
static int refuse_modifier(char letter, char *why, size_t len)
{
	for (size_t i = 0; i < sizeof(refused_modifiers) / sizeof(refused_modifiers[0]); i++) {
		if (refused_modifiers[i].letter == letter) {
			snprintf(why, len, "%s", refused_modifiers[i].why);
			return -1;
		}
	}
	snprintf(why, len, "modifier '%c' is not one a count takes (u k h I G H p pp ppp D e W)", letter);
	return -1;
}

/* Reads mods into m; 0, or -1 with the reason in why for a letter that means nothing to a count. */
static int parse_modifiers(const char *mods, struct modifiers *m, char *why, size_t len)
{
	memset(m, 0, sizeof(*m));
	for (const char *c = mods; *c; c++) {
		switch (*c) {
		case 'u': m->u = true; break;
		case 'k': m->k = true; break;
		case 'h': m->h = true; break;
		case 'I': m->non_idle = true; break;
		case 'G': m->guest = true; break;
		case 'H': m->host = true; break;
		case 'D': m->pinned = true; break;
		case 'e': m->exclusive = true; break;
		case 'W': m->weak = true; break;
		case 'p':
			if (++m->precise > 3) {
				snprintf(why, len, "precision goes up to ppp (precise_ip 3)");
				return -1;
			}
			break;
		default:
			return refuse_modifier(*c, why, len);
		}
	}
	return 0;
}

/*
 * Applies m to ev as perf does: naming any of u, k, h counts those levels
 * only; I counts only while the CPU is not idle (exclude_idle); G alone
 * counts a guest's part (exclude_host), H alone the host's (exclude_guest),
 * both together everything; p.. asks for precise_ip; D pins the event (its
 * group, when it leads one) on the PMU, e has it (its group) alone there;
 * W makes its requested group weak.  The name keeps what changes the count
 * or its scheduling, in the order u k h I G H p D e ("cycles:ku" reads
 * "cycles:uk"; "cycles:HG", the default, "cycles"); W, which changes
 * neither, is not kept, as perf prints a weak group's members.
 */
static void apply_modifiers(struct ud_event *ev, const struct modifiers *m, bool pmu_style)
{
	char suffix[16];
	size_t k = 0, len;

	if (m->u || m->k || m->h) {
		ev->attr.exclude_user = !m->u;
		ev->attr.exclude_kernel = !m->k;
		ev->attr.exclude_hv = !m->h;
	}
	ev->attr.exclude_idle = m->non_idle;
	ev->attr.exclude_host = m->guest && !m->host;
	ev->attr.exclude_guest = m->host && !m->guest;
	ev->attr.precise_ip = (unsigned)m->precise;
	ev->attr.pinned = m->pinned;
	ev->attr.exclusive = m->exclusive;
	ev->weak_group = m->weak;
	if (m->u)
		suffix[k++] = 'u';
	if (m->k)
		suffix[k++] = 'k';
	if (m->h)
		suffix[k++] = 'h';
	if (m->non_idle)
		suffix[k++] = 'I';
	if (m->guest != m->host)
		suffix[k++] = m->guest ? 'G' : 'H';
	for (int p = 0; p < m->precise; p++)
		suffix[k++] = 'p';
	if (m->pinned)
		suffix[k++] = 'D';
	if (m->exclusive)
		suffix[k++] = 'e';
	suffix[k] = '\0';
	len = strlen(ev->name);
	if (k)
		snprintf(ev->name + len, sizeof(ev->name) - len, "%s%s", pmu_style ? "" : ":", suffix);
}

void ud_event_force_mode(struct ud_event *ev, bool kernel)
{
	const char *mods = ud_event_modifiers(ev->name);
	size_t base = ud_event_base_len(ev->name), k = 0;
	char rest[UD_EVENT_NAME_MAX];

	if (ev->tool || base + 3 > sizeof(ev->name))
		return;
	for (const char *c = mods; c && *c; c++)
		if (*c != 'u' && *c != 'k' && *c != 'h')
			rest[k++] = *c;
	rest[k] = '\0';
	ev->attr.exclude_user = kernel;
	ev->attr.exclude_kernel = !kernel;
	ev->attr.exclude_hv = 1;
	/* u and k come first in perf's modifier order, so the letter leads what else the name had */
	snprintf(ev->name + base, sizeof(ev->name) - base, "%s%c%s", base && ev->name[base - 1] == '/' ? "" : ":",
		 kernel ? 'k' : 'u', rest);
}

/*
 * A tool event counts no privilege level or CPU: it takes only W, as a
 * member of a weak group ({duration_time,task-clock}:W), where it has
 * nothing to open apart.
 */
static int tool_modifiers(const struct ud_event *ev, const char *mods, char *why, size_t len)
{
	if (strspn(mods, "W") == strlen(mods))
		return 0;
	snprintf(why, len, "%s is a tool event, no kernel counter: it takes no modifier", ev->name);
	return -1;
}

static void resolve_base_for(const struct ud_uarch *u, const char *name, struct ud_event *ev);

void ud_event_resolve_for(const struct ud_uarch *u, const char *name, struct ud_event *ev)
{
	size_t base_len = ud_event_base_len(name);
	const char *mods = name + base_len;
	bool pmu_style = base_len > 0 && name[base_len - 1] == '/';
	char base[UD_EVENT_NAME_MAX], why[UD_REASON_MAX];
	struct modifiers m;

	if (!*mods || base_len >= sizeof(base)) {
		resolve_base_for(u, name, ev);
		return;
	}
	memcpy(base, name, base_len);
	base[base_len] = '\0';
	resolve_base_for(u, base, ev);
	mods += *mods == ':';
	if (!ev->resolved) {
		snprintf(ev->name, sizeof(ev->name), "%s", name);
		return;
	}
	if (parse_modifiers(mods, &m, why, sizeof(why)) != 0 ||
	    (ev->tool && tool_modifiers(ev, mods, why, sizeof(why)) != 0)) {
		snprintf(ev->name, sizeof(ev->name), "%s", name);
		ud_event_set_unknown(ev, "%s", why);
		return;
	}
	apply_modifiers(ev, &m, pmu_style);
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
		ud_event_init_attr(ev, PERF_TYPE_RAW, ud_uarch_raw_config(u, e->code, e->umask, 0, false, false));
		ev->opened_as = "raw";
	}
	/* What the name means here comes from the table, whichever way it opens. */
	snprintf(ev->name, sizeof(ev->name), "%s", generic.name);
	ev->ticks_with_work = generic.ticks_with_work;
	ev->group = ev->request_group = -1;
	snprintf(ev->vendor_event, sizeof(ev->vendor_event), "%s", e->vendor);
	snprintf(ev->semantics, sizeof(ev->semantics), "%s", e->semantics);
}

/* The names a mistyped one is held against, gathered for text.h's ud_closest(). */
struct names {
	char **v;
	size_t n, cap;
};

static void add_name(const char *name, void *ctx)
{
	struct names *l = ctx;
	char *copy;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		char **grown = realloc(l->v, cap * sizeof(*grown));

		if (!grown)
			return;
		l->v = grown;
		l->cap = cap;
	}
	if ((copy = strdup(name)))
		l->v[l->n++] = copy;
}

/* libpfm4's events of the PMU it detected for u. */
static void pfm_names(const struct ud_uarch *u, struct names *l)
{
	bool present;
	int idx;

	if (!u || !u->libpfm4_pmu[0] || !pfm_init())
		return;
	for (idx = pfm_pmu_index(u->libpfm4_pmu, &present); present && idx >= 0; idx = pfm.get_event_next(idx)) {
		pfm_event_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm.get_event_info(idx, PFM_OS_NONE, &info) == PFM_SUCCESS && info.name)
			add_name(info.name, l);
	}
}

bool ud_event_suggest(const char *name, const struct ud_uarch *u, char *buf, size_t len)
{
	struct names l = { 0 };
	const char *g, *best;

	for (size_t i = 0; (g = ud_generic_event_name_at(i)) != NULL; i++)
		add_name(g, &l);
	for (size_t i = 0; i < sizeof(tool_events) / sizeof(tool_events[0]); i++)
		add_name(tool_events[i].name, &l);
	ud_sysfs_names(name, add_name, &l);
	pfm_names(u, &l);
	best = ud_closest(name, (const char *const *)l.v, l.n);
	if (best)
		snprintf(buf, len, "'%s'", best);
	else
		buf[0] = '\0';
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i]);
	free(l.v);
	return best != NULL;
}

void ud_events_cleanup(void)
{
	if (pfm_ready)
		pfm.terminate();
	pfm_ready = false;
	pfm_last.pmu[0] = '\0';
}
