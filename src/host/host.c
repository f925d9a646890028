#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "counting.h"
#include "host.h"
#include "text.h"

static char *read_trimmed(const char *sysroot, const char *path)
{
	char full[4096], buf[4096];
	size_t len;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", sysroot, path);
	f = fopen(full, "r");
	if (!f)
		return NULL;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	while (len > 0 && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	return strdup(buf);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *long_or_null(long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/* A sysfs string file as JSON (null when unreadable). */
static json_t *sys_string(const char *sysroot, const char *path)
{
	char *s = read_trimmed(sysroot, path);
	json_t *j = str_or_null(s);

	free(s);
	return j;
}

static json_t *sys_integer(const char *sysroot, const char *path)
{
	char *s = read_trimmed(sysroot, path), *end;
	json_t *j = json_null();
	long long v;

	if (s) {
		v = strtoll(s, &end, 10);
		if (end != s && *end == '\0')
			j = json_integer(v);
	}
	free(s);
	return j;
}

json_t *ud_host_cpu_json(const struct ud_cpu *cpu)
{
	return json_pack("{s:o s:o s:o s:o s:o s:o s:o s:o s:o}",
			 "vendor", str_or_null(cpu->vendor),
			 "model_name", str_or_null(cpu->model_name),
			 "family", long_or_null(cpu->family),
			 "model", long_or_null(cpu->model),
			 "stepping", long_or_null(cpu->stepping),
			 "midr_implementer", long_or_null(cpu->midr_implementer),
			 "midr_part", long_or_null(cpu->midr_part),
			 "midr_variant", long_or_null(cpu->midr_variant),
			 "microcode", str_or_null(cpu->microcode));
}

/*
 * Cache sizes of cpu0 from sysfs ("32K", "1024K", "32768K").  Sizes are per
 * instance as the kernel reports them; shared L3 is the slice cpu0 sees.
 */
static json_t *caches_json(const char *sysroot)
{
	json_t *caches = json_pack("{s:n s:n s:n s:n}", "l1d_kb", "l1i_kb", "l2_kb", "l3_kb");

	for (int i = 0; i < 16; i++) {
		char path[256], *level, *type, *size;
		const char *key = NULL;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		level = read_trimmed(sysroot, path);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		type = read_trimmed(sysroot, path);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		size = read_trimmed(sysroot, path);
		if (level && type && size) {
			if (strcmp(level, "1") == 0 && strcmp(type, "Data") == 0)
				key = "l1d_kb";
			else if (strcmp(level, "1") == 0 && strcmp(type, "Instruction") == 0)
				key = "l1i_kb";
			else if (strcmp(level, "2") == 0)
				key = "l2_kb";
			else if (strcmp(level, "3") == 0)
				key = "l3_kb";
		}
		if (key) {
			char *end;
			long long kb = strtoll(size, &end, 10);

			if (*end == 'M')
				kb *= 1024;
			if (end != size)
				json_object_set_new(caches, key, json_integer(kb));
		}
		free(level);
		free(type);
		free(size);
		if (!level)
			break;
	}
	return caches;
}

/* Every file there, sorted by name so that two hosts' profiles line up. */
static json_t *vulnerabilities_json(const char *sysroot)
{
	char dir[4096];
	struct dirent **names;
	json_t *v;
	int n;

	snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/vulnerabilities", sysroot);
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return json_null();
	v = json_object();
	for (int i = 0; i < n; i++) {
		char path[512];

		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/vulnerabilities/%s", names[i]->d_name);
			json_object_set_new(v, names[i]->d_name, sys_string(sysroot, path));
		}
		free(names[i]);
	}
	free(names);
	return v;
}

/*
 * The hypervisor's own signature from CPUID leaf 0x40000000 (x86 guests see
 * the "hypervisor" flag first), else the DMI system vendor where firmware
 * tells it; "none" only where the CPU says there is none.
 */
static json_t *hypervisor_json(const struct ud_cpu *cpu, const char *sysroot, int own_cpu)
{
	char *xen = read_trimmed(sysroot, "/sys/hypervisor/type");

	if (xen) {
		json_t *j = json_string(xen);

		free(xen);
		return j;
	}
#if defined(__x86_64__) || defined(__i386__)
	if (own_cpu && !cpu->is_arm) {
		unsigned a, b, c, d;
		char sig[13];

		if (!cpu->hypervisor_flag)
			return json_string("none");
		__cpuid(0x40000000, a, b, c, d);
		memcpy(sig, &b, 4);
		memcpy(sig + 4, &c, 4);
		memcpy(sig + 8, &d, 4);
		sig[12] = '\0';
		if (strcmp(sig, "KVMKVMKVM") == 0)
			return json_string("KVM");
		if (strcmp(sig, "Microsoft Hv") == 0)
			return json_string("Hyper-V");
		if (strcmp(sig, "VMwareVMware") == 0)
			return json_string("VMware");
		if (strcmp(sig, "XenVMMXenVMM") == 0)
			return json_string("Xen");
		if (strcmp(sig, "TCGTCGTCGTCG") == 0)
			return json_string("QEMU-TCG");
		if (sig[0] && isprint((unsigned char)sig[0]))
			return json_string(sig);
	}
#else
	(void)cpu;
	(void)own_cpu;
#endif
	return sys_string(sysroot, "/sys/class/dmi/id/sys_vendor");
}

static void set_pmu(json_t *host)
{
	char reason[UD_REASON_MAX];
	enum ud_pmu_state s = ud_pmu_probe(reason, sizeof(reason));

	json_object_set_new(host, "pmu", json_string(ud_pmu_state_name(s)));
	json_object_set_new(host, "pmu_reason", json_string(reason));
}

static json_t *smt_json(const char *sysroot, const struct ud_cpu *cpu, int own_cpu)
{
	char *s;
	json_t *j;

	if (!own_cpu)
		return cpu->siblings > 0 && cpu->cpu_cores > 0 ? json_boolean(cpu->siblings > cpu->cpu_cores)
							       : json_null();
	s = read_trimmed(sysroot, "/sys/devices/system/cpu/smt/active");
	j = s ? json_boolean(strcmp(s, "1") == 0) : json_null();
	free(s);
	return j;
}

static json_t *iso8601_now(void)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(buf);
}

/* A label as given (--label), made UTF-8 where it is not. */
static json_t *label_json(const char *label)
{
	char *copy = strdup(label);
	json_t *j;

	if (!copy)
		return NULL;
	ud_utf8_sanitize(copy);
	j = json_string(copy);
	free(copy);
	return j;
}

json_t *ud_host_collect(const struct ud_host_opts *opts, struct ud_err *err)
{
	const char *sysroot = opts->sysroot ? opts->sysroot : "";
	int own_cpu = opts->cpuinfo_path == NULL;
	char cpuinfo[4096], hostname[256];
	struct ud_cpu cpu;
	struct utsname un;
	json_t *host, *cpuj, *paranoid;
	int level;

	snprintf(cpuinfo, sizeof(cpuinfo), "%s%s", own_cpu ? sysroot : "",
		 own_cpu ? "/proc/cpuinfo" : opts->cpuinfo_path);
	if (ud_cpuinfo_load(cpuinfo, &cpu, err) != 0)
		return NULL;

	if (gethostname(hostname, sizeof(hostname)) != 0)
		hostname[0] = '\0';
	hostname[sizeof(hostname) - 1] = '\0';
	/* The kernel takes any bytes for a hostname; JSON takes UTF-8 only, and a string it refuses would drop the label. */
	ud_utf8_sanitize(hostname);
	level = ud_perf_event_paranoid();
	paranoid = level == INT_MIN ? json_null() : json_integer(level);
	if (*sysroot)
		paranoid = (json_decref(paranoid), sys_integer(sysroot, "/proc/sys/kernel/perf_event_paranoid"));

	cpuj = ud_host_cpu_json(&cpu);
	json_object_set_new(cpuj, "uarch",
			    opts->db ? json_string(ud_uarch_detect(opts->db, &cpu)->name) : json_null());
	json_object_set_new(cpuj, "online_cpus",
			    own_cpu ? json_integer(sysconf(_SC_NPROCESSORS_ONLN)) : long_or_null(cpu.processors));
	json_object_set_new(cpuj, "smt", smt_json(sysroot, &cpu, own_cpu));
	/* Another host's cpuinfo says nothing reliable about its caches. */
	json_object_set_new(cpuj, "caches", own_cpu ? caches_json(sysroot)
						    : json_pack("{s:n s:n s:n s:n}", "l1d_kb", "l1i_kb", "l2_kb", "l3_kb"));
	json_object_set_new(cpuj, "source", json_string(own_cpu ? "/proc/cpuinfo" : opts->cpuinfo_path));

	host = json_object();
	json_object_set_new(host, "label", label_json(opts->label ? opts->label : hostname));
	json_object_set_new(host, "hostname", hostname[0] ? json_string(hostname) : json_null());
	json_object_set_new(host, "collected_at", iso8601_now());
	json_object_set_new(host, "cpu", cpuj);
	json_object_set_new(host, "kernel", uname(&un) == 0 ? json_string(un.release) : json_null());
	json_object_set_new(host, "hypervisor", hypervisor_json(&cpu, sysroot, own_cpu));
	set_pmu(host);
	json_object_set_new(host, "perf_event_paranoid", paranoid);
	json_object_set_new(host, "vulnerabilities", vulnerabilities_json(sysroot));
	json_object_set_new(host, "cpufreq",
			    json_pack("{s:o s:o s:o}",
				      "governor", sys_string(sysroot, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
				      "min_khz", sys_integer(sysroot, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq"),
				      "max_khz", sys_integer(sysroot, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")));
	ud_cpu_free(&cpu);
	return host;
}

json_t *ud_host_imported(const char *label, const struct ud_cpu *cpu, const struct ud_uarch *uarch)
{
	struct ud_cpu none;
	json_t *cpuj;

	memset(&none, 0, sizeof(none));
	none.family = none.model = none.stepping = -1;
	none.midr_implementer = none.midr_part = none.midr_variant = none.midr_revision = -1;
	cpuj = ud_host_cpu_json(cpu ? cpu : &none);
	json_object_set_new(cpuj, "uarch", uarch ? json_string(uarch->name) : json_null());
	json_object_set_new(cpuj, "online_cpus", cpu ? long_or_null(cpu->processors) : json_null());
	json_object_set_new(cpuj, "smt", json_null());
	json_object_set_new(cpuj, "caches", json_pack("{s:n s:n s:n s:n}", "l1d_kb", "l1i_kb", "l2_kb", "l3_kb"));
	return json_pack("{s:s s:n s:n s:o s:n s:n s:n s:n s:n s:{s:n s:n s:n}}", "label", label, "hostname",
			 "collected_at", "cpu", cpuj, "kernel", "hypervisor", "pmu", "perf_event_paranoid",
			 "vulnerabilities", "cpufreq", "governor", "min_khz", "max_khz");
}

bool ud_host_nmi_watchdog(void)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "r");
	int on = 0;

	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 0;
		fclose(f);
	}
	return on != 0;
}
