/*
 * event_sysfs.c - events the kernel lists in files: tracepoints in tracefs, PMUs in sysfs.
 *
 * Tracepoints are events/SUBSYS/NAME/id (Documentation/trace/events.rst);
 * PMUs are /sys/bus/event_source/devices/PMU, with type, format/ and
 * events/ with their .unit and .scale
 * (Documentation/ABI/testing/sysfs-bus-event_source-devices-format and
 * -events), read the way perf reads them (tools/perf/util/pmu.c).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events.h"
#include "events_priv.h"

/* tracefs where it is mounted on its own, then where older systems have it under debugfs. */
static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/* A sysfs value: the file's first line, without its newline; -1 when unreadable or empty. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	char *ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f);
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -1;
}

/* Letters, digits, '_', '-' and '.': a name that is one path component, never ".." or "/". */
static bool plain_name(const char *s, size_t len)
{
	if (!len || (s[0] == '.'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	return true;
}

/*
 * The tracefs folder whose events/ can be read, or NULL with errno.  A
 * freshly booted system may have nothing mounted on /sys/kernel/tracing
 * until something asks: perf mounts tracefs there itself when it finds it
 * in neither place (tools/lib/api/fs/tracing_path.c, tracing_path_mount()
 * through fs__mount(): mount(2) of "tracefs" on /sys/kernel/tracing), so
 * `perf stat -e sched:sched_switch` counts where it is not yet mounted, and
 * so does this, once a process.  Without the privilege to mount, errno is
 * the first place's.
 */
static const char *tracefs_dir(void)
{
	static bool tried;
	char path[64];
	int first = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
			snprintf(path, sizeof(path), "%s/events", tracefs_dirs[i]);
			if (access(path, R_OK | X_OK) == 0)
				return tracefs_dirs[i];
			if (i == 0)
				first = errno;
		}
		if (tried || pass)
			break;
		tried = true;
		if (mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL) != 0)
			break;
	}
	errno = first;
	return NULL;
}

bool ud_sysfs_tracefs_unreadable(const char *name, char *why, size_t len)
{
	const char *colon = strchr(name, ':');

	if (!colon || strchr(colon + 1, ':') || !plain_name(name, (size_t)(colon - name)) ||
	    !plain_name(colon + 1, strlen(colon + 1)) || tracefs_dir())
		return false;
	snprintf(why, len,
		 "a tracepoint's name (subsys:name), but tracefs cannot be read (%s/events: %s; perf needs it "
		 "too: as root, 'mount -t tracefs nodev %s')",
		 tracefs_dirs[0], strerror(errno), tracefs_dirs[0]);
	return true;
}

bool ud_sysfs_tracepoint(const char *name, struct ud_event *ev)
{
	const char *colon = strchr(name, ':'), *dir;
	char path[512], id[32], *end;
	unsigned long long config;

	if (!colon || strchr(colon + 1, ':') || !plain_name(name, (size_t)(colon - name)) ||
	    !plain_name(colon + 1, strlen(colon + 1)))
		return false;
	if (!(dir = tracefs_dir()))
		return false;
	snprintf(path, sizeof(path), "%s/events/%.*s/%s/id", dir, (int)(colon - name), name, colon + 1);
	if (read_line(path, id, sizeof(id)) != 0)
		return false;
	errno = 0;
	config = strtoull(id, &end, 10);
	if (errno || *end)
		return false;
	ud_event_init_attr(ev, PERF_TYPE_TRACEPOINT, config);
	ev->opened_as = "tracepoint";
	return true;
}

static __u64 *format_field(struct perf_event_attr *attr, const char *field, size_t len)
{
	if (len == 6 && strncmp(field, "config", 6) == 0)
		return (__u64 *)&attr->config;
	if (len == 7 && strncmp(field, "config1", 7) == 0)
		return (__u64 *)&attr->config1;
	if (len == 7 && strncmp(field, "config2", 7) == 0)
		return (__u64 *)&attr->config2;
	return NULL;
}

int ud_pmu_format_place(const char *format, unsigned long long value, struct perf_event_attr *attr, char *why,
			size_t len)
{
	const char *colon = strchr(format, ':'), *p;
	__u64 *field = colon ? format_field(attr, format, (size_t)(colon - format)) : NULL, placed = 0;
	unsigned width = 0;

	if (!field) {
		snprintf(why, len, "format '%s' names no config field this kernel interface has", format);
		return -1;
	}
	for (p = colon + 1; *p;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p || lo > 63)
			break;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (hi < lo || hi > 63)
			break;
		for (unsigned long b = lo; b <= hi; b++, width++)
			if (width < 64 && (value >> width) & 1)
				placed |= 1ULL << b;
		p = end + (*end == ',');
		if (*end && *end != ',')
			break;
	}
	if (*p || !width) {
		snprintf(why, len, "malformed format '%s'", format);
		return -1;
	}
	if (width < 64 && value >> width) {
		snprintf(why, len, "0x%llx does not fit in its %u bits (%s)", value, width, format);
		return -1;
	}
	*field |= placed;
	return 0;
}

/* The entries of dir joined by ", " into buf, but the .unit, .scale and other files beside events. */
static void list_dir(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t used = 0;

	buf[0] = '\0';
	while (d && (e = readdir(d)) && used + 1 < len) {
		if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", e->d_name);
	}
	if (d)
		closedir(d);
}

static void unknown_term(struct ud_event *ev, const char *dir, const char *pmu, const char *term, size_t len)
{
	char path[512], formats[256], events[512];

	snprintf(path, sizeof(path), "%s/format", dir);
	list_dir(path, formats, sizeof(formats));
	snprintf(path, sizeof(path), "%s/events", dir);
	list_dir(path, events, sizeof(events));
	ud_event_set_unknown(ev, "unknown term '%.*s' for PMU '%s' (terms: config, config1, config2%s%s; events: %s)",
			     (int)len, term, pmu, formats[0] ? ", " : "", formats, events[0] ? events : "none");
}

static int apply_terms(struct ud_event *ev, const char *dir, const char *pmu, const char *terms, int depth);

/* A named event of the PMU: its terms, and its unit and scale where sysfs gives them. */
static int apply_alias(struct ud_event *ev, const char *dir, const char *pmu, const char *alias, size_t len)
{
	char path[512], text[512], extra[64];

	snprintf(path, sizeof(path), "%s/events/%.*s", dir, (int)len, alias);
	if (read_line(path, text, sizeof(text)) != 0)
		return 1; /* no such event: the caller says what the PMU has */
	snprintf(path, sizeof(path), "%s/events/%.*s.unit", dir, (int)len, alias);
	if (read_line(path, extra, sizeof(extra)) == 0)
		snprintf(ev->unit, sizeof(ev->unit), "%.*s", (int)sizeof(ev->unit) - 1, extra);
	snprintf(path, sizeof(path), "%s/events/%.*s.scale", dir, (int)len, alias);
	if (read_line(path, extra, sizeof(extra)) == 0)
		ev->scale = strtod(extra, NULL);
	return apply_terms(ev, dir, pmu, text, 1);
}

/* One "term" or "term=value"; 0 applied, -1 with ev unknown. */
static int apply_term(struct ud_event *ev, const char *dir, const char *pmu, const char *term, size_t len, int depth)
{
	const char *eq = memchr(term, '=', len);
	size_t key = eq ? (size_t)(eq - term) : len;
	char path[512], format[128], why[UD_REASON_MAX], value[32], *end;
	unsigned long long v = 1;
	__u64 *direct = format_field(&ev->attr, term, key);

	if (eq) {
		snprintf(value, sizeof(value), "%.*s", (int)(len - key - 1), eq + 1);
		errno = 0;
		v = strtoull(value, &end, 0);
		if (errno || end == value || *end) {
			ud_event_set_unknown(ev, "'%.*s' for PMU '%s': the value is not a number that fits in 64 bits", (int)len, term, pmu);
			return -1;
		}
	}
	if (!plain_name(term, key)) {
		unknown_term(ev, dir, pmu, term, key);
		return -1;
	}
	if (direct && eq) {
		*direct = v;
		return 0;
	}
	snprintf(path, sizeof(path), "%s/format/%.*s", dir, (int)key, term);
	if (read_line(path, format, sizeof(format)) == 0) {
		if (ud_pmu_format_place(format, v, &ev->attr, why, sizeof(why)) == 0)
			return 0;
		ud_event_set_unknown(ev, "'%.*s' for PMU '%s': %s", (int)len, term, pmu, why);
		return -1;
	}
	if (!eq && depth == 0) {
		int ret = apply_alias(ev, dir, pmu, term, key);

		if (ret <= 0)
			return ret;
	}
	unknown_term(ev, dir, pmu, term, key);
	return -1;
}

static int apply_terms(struct ud_event *ev, const char *dir, const char *pmu, const char *terms, int depth)
{
	for (const char *t = terms; *t;) {
		size_t len = strcspn(t, ",");

		if (!len || apply_term(ev, dir, pmu, t, len, depth) != 0) {
			if (!len)
				ud_event_set_unknown(ev, "PMU '%s': an empty term in '%s'", pmu, terms);
			return -1;
		}
		t += len + (t[len] == ',');
	}
	return 0;
}

/*
 * The CPU's own counters, planned into groups: perf's core PMU (the raw
 * type, "cpu" on x86) or one whose sysfs lists the CPUs it serves (Arm's
 * armv8_pmuv3_N, x86 hybrid cpu_core and cpu_atom; uncore PMUs have a
 * cpumask instead).
 */
static bool core_pmu(const char *dir, __u32 type)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/cpus", dir);
	return type == PERF_TYPE_RAW || access(path, F_OK) == 0;
}

bool ud_sysfs_pmu_event(const char *name, struct ud_event *ev)
{
	const char *slash = strchr(name, '/');
	size_t len = strlen(name), plen = slash ? (size_t)(slash - name) : 0;
	char dir[512], pmu[128], type[32], terms[UD_EVENT_NAME_MAX], pmus[512];

	if (!slash)
		return false;
	snprintf(pmu, sizeof(pmu), "%.*s", (int)plen, name);
	if (!plain_name(name, plen) || len < plen + 2 || name[len - 1] != '/') {
		ud_event_set_unknown(ev, "a PMU event reads pmu/term=value,.../ or pmu/name/");
		return true;
	}
	snprintf(dir, sizeof(dir), "%s/%s", UD_PMU_DEVICES, pmu);
	snprintf(terms, sizeof(terms), "%.*s", (int)(len - plen - 2), slash + 1);
	if (!terms[0]) {
		ud_event_set_unknown(ev, "PMU '%s': no terms between the slashes", pmu);
		return true;
	}
	{
		char path[576];

		snprintf(path, sizeof(path), "%s/type", dir);
		if (read_line(path, type, sizeof(type)) != 0) {
			list_dir(UD_PMU_DEVICES, pmus, sizeof(pmus));
			ud_event_set_unknown(ev, "no PMU '%s' in %s (there: %s)", pmu, UD_PMU_DEVICES, pmus);
			return true;
		}
	}
	ud_event_init_attr(ev, (__u32)strtoul(type, NULL, 10), 0);
	ev->opened_as = "pmu";
	if (apply_terms(ev, dir, pmu, terms, 0) == 0)
		ev->hardware = core_pmu(dir, ev->attr.type);
	return true;
}

struct names_walk {
	ud_name_fn fn;
	void *ctx;
};

/* Every "subsys:name" in tracefs. */
static void tracepoint_names(const struct names_walk *w)
{
	const char *dir = tracefs_dir();
	char path[512], name[2 * 256 + 2];
	DIR *top, *sub;
	struct dirent *s, *e;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/events", dir);
	if (!(top = opendir(path)))
		return;
	while ((s = readdir(top))) {
		snprintf(path, sizeof(path), "%s/events/%s", dir, s->d_name);
		if (s->d_name[0] == '.' || !(sub = opendir(path)))
			continue;
		while ((e = readdir(sub))) {
			if (e->d_name[0] == '.' || strcmp(e->d_name, "enable") == 0 || strcmp(e->d_name, "filter") == 0)
				continue;
			snprintf(name, sizeof(name), "%s:%s", s->d_name, e->d_name);
			w->fn(name, w->ctx);
		}
		closedir(sub);
	}
	closedir(top);
}

/* Every "pmu/name/" a PMU lists in its events/. */
static void pmu_names(const struct names_walk *w)
{
	DIR *top = opendir(UD_PMU_DEVICES), *ev;
	struct dirent *p, *e;

	while (top && (p = readdir(top))) {
		char path[512], name[2 * 256 + 3];

		snprintf(path, sizeof(path), "%s/%s/events", UD_PMU_DEVICES, p->d_name);
		if (p->d_name[0] == '.' || !(ev = opendir(path)))
			continue;
		while ((e = readdir(ev))) {
			if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
				continue;
			snprintf(name, sizeof(name), "%s/%s/", p->d_name, e->d_name);
			w->fn(name, w->ctx);
		}
		closedir(ev);
	}
	if (top)
		closedir(top);
}

void ud_sysfs_names(const char *like, ud_name_fn fn, void *ctx)
{
	struct names_walk w = { fn, ctx };

	if (strchr(like, '/'))
		pmu_names(&w);
	else if (strchr(like, ':'))
		tracepoint_names(&w);
}
