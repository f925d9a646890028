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
#include "host_import.h"
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

/* A sysfs integer file's value, UD_HOST_UNKNOWN when unreadable or not a number. */
static long long sys_integer(const char *sysroot, const char *path)
{
	char *s = read_trimmed(sysroot, path), *end;
	long long v = UD_HOST_UNKNOWN;

	if (s) {
		long long x = strtoll(s, &end, 10);

		if (end != s && *end == '\0')
			v = x;
	}
	free(s);
	return v;
}

/* A sysfs string file into *field (NULL when unreadable). */
static int sys_string(char **field, const char *sysroot, const char *path)
{
	char *s = read_trimmed(sysroot, path);

	free(*field);
	*field = s;
	return 0;
}

static long long known(long v)
{
	return v >= 0 ? v : UD_HOST_UNKNOWN;
}

/*
 * Cache sizes of cpu0 from sysfs ("32K", "1024K", "32768K").  Sizes are per
 * instance as the kernel reports them; shared L3 is the slice cpu0 sees.
 */
static void read_caches(struct ud_host_caches *caches, const char *sysroot)
{
	for (int i = 0; i < 16; i++) {
		char path[256], *level, *type, *size;
		long long *slot = NULL;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		level = read_trimmed(sysroot, path);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		type = read_trimmed(sysroot, path);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		size = read_trimmed(sysroot, path);
		if (level && type && size) {
			if (strcmp(level, "1") == 0 && strcmp(type, "Data") == 0)
				slot = &caches->l1d_kb;
			else if (strcmp(level, "1") == 0 && strcmp(type, "Instruction") == 0)
				slot = &caches->l1i_kb;
			else if (strcmp(level, "2") == 0)
				slot = &caches->l2_kb;
			else if (strcmp(level, "3") == 0)
				slot = &caches->l3_kb;
		}
		if (slot) {
			char *end;
			long long kb = strtoll(size, &end, 10);

			if (*end == 'M')
				kb *= 1024;
			if (end != size)
				*slot = kb;
		}
		free(level);
		free(type);
		free(size);
		if (!level)
			break;
	}
}

/* Every file there, sorted by name so that two hosts' profiles line up. */
static int read_vulnerabilities(struct ud_host *h, const char *sysroot)
{
	char dir[4096];
	struct dirent **names;
	int n, ret = 0;

	snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/vulnerabilities", sysroot);
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return 0;
	h->vulnerabilities_known = true;
	for (int i = 0; i < n; i++) {
		char path[512], *text;

		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/vulnerabilities/%s", names[i]->d_name);
			text = read_trimmed(sysroot, path);
			ret |= ud_host_add_vuln(h, names[i]->d_name, text);
			free(text);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

#if defined(__x86_64__) || defined(__i386__)
/* CPUID leaf 0x40000000's signature by its hypervisor's name, or NULL. */
static const char *cpuid_hypervisor(char sig[13])
{
	static const char *const known_sigs[][2] = {
		{ "KVMKVMKVM", "KVM" }, { "Microsoft Hv", "Hyper-V" }, { "VMwareVMware", "VMware" },
		{ "XenVMMXenVMM", "Xen" }, { "TCGTCGTCGTCG", "QEMU-TCG" },
	};
	unsigned a, b, c, d;

	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (size_t i = 0; i < sizeof(known_sigs) / sizeof(known_sigs[0]); i++)
		if (strcmp(sig, known_sigs[i][0]) == 0)
			return known_sigs[i][1];
	return sig[0] && isprint((unsigned char)sig[0]) ? sig : NULL;
}
#endif

/*
 * The hypervisor's own signature from CPUID leaf 0x40000000 (x86 guests see
 * the "hypervisor" flag first), else the DMI system vendor where firmware
 * tells it; "none" only where the CPU says there is none.
 */
static int read_hypervisor(struct ud_host *h, const struct ud_cpu *cpu, const char *sysroot, int own_cpu)
{
	char *xen = read_trimmed(sysroot, "/sys/hypervisor/type");

	if (xen) {
		free(h->hypervisor);
		h->hypervisor = xen;
		return 0;
	}
#if defined(__x86_64__) || defined(__i386__)
	if (own_cpu && !cpu->is_arm) {
		char sig[13];
		const char *name;

		if (!cpu->hypervisor_flag)
			return ud_host_set_string(&h->hypervisor, "none");
		if ((name = cpuid_hypervisor(sig)))
			return ud_host_set_string(&h->hypervisor, name);
	}
#else
	(void)cpu;
	(void)own_cpu;
#endif
	return sys_string(&h->hypervisor, sysroot, "/sys/class/dmi/id/sys_vendor");
}

static int read_pmu(struct ud_host *h)
{
	char reason[UD_REASON_MAX];
	enum ud_pmu_state s = ud_pmu_probe(reason, sizeof(reason));

	return ud_host_set_string(&h->pmu, ud_pmu_state_name(s)) | ud_host_set_string(&h->pmu_reason, reason);
}

static int read_smt(const char *sysroot, const struct ud_cpu *cpu, int own_cpu)
{
	char *s;
	int smt;

	if (!own_cpu)
		return cpu->siblings > 0 && cpu->cpu_cores > 0 ? cpu->siblings > cpu->cpu_cores : -1;
	s = read_trimmed(sysroot, "/sys/devices/system/cpu/smt/active");
	smt = s ? strcmp(s, "1") == 0 : -1;
	free(s);
	return smt;
}

static int set_now(char **field)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return ud_host_set_string(field, buf);
}

/* A label as given (--label), made UTF-8 where it is not. */
static int set_label(struct ud_host *h, const char *label)
{
	if (ud_host_set_string(&h->label, label) != 0)
		return -1;
	ud_utf8_sanitize(h->label);
	return 0;
}

/* The kernel, the hypervisor, the PMU and the policies: what is read beside the CPU. */
static int read_system(struct ud_host *h, const struct ud_cpu *cpu, const char *sysroot, int own_cpu)
{
	struct utsname un;
	int level = ud_perf_event_paranoid(), ret;

	h->perf_event_paranoid = *sysroot ? sys_integer(sysroot, "/proc/sys/kernel/perf_event_paranoid")
			       : level == INT_MIN ? UD_HOST_UNKNOWN : level;
	ret = ud_host_set_string(&h->kernel, uname(&un) == 0 ? un.release : NULL);
	ret |= read_hypervisor(h, cpu, sysroot, own_cpu) | read_pmu(h) | read_vulnerabilities(h, sysroot);
	ret |= sys_string(&h->cpufreq.governor, sysroot, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	h->cpufreq.min_khz = sys_integer(sysroot, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq");
	h->cpufreq.max_khz = sys_integer(sysroot, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
	return ret;
}

static int fill(struct ud_host *h, const struct ud_host_opts *opts, const struct ud_cpu *cpu, const char *sysroot)
{
	int own_cpu = opts->cpuinfo_path == NULL, ret;
	char hostname[256];
	struct utsname un;

	if (gethostname(hostname, sizeof(hostname)) != 0)
		hostname[0] = '\0';
	hostname[sizeof(hostname) - 1] = '\0';
	/* The kernel takes any bytes for a hostname; JSON takes UTF-8 only, and a string it refuses would drop the label. */
	ud_utf8_sanitize(hostname);
	ret = set_label(h, opts->label ? opts->label : hostname);
	ret |= ud_host_set_string(&h->hostname, hostname[0] ? hostname : NULL) | set_now(&h->collected_at);
	ret |= ud_host_set_cpu(h, cpu, opts->db);
	/* this host's ISA is the kernel's word for it; another's, what its cpuinfo shows */
	if (own_cpu)
		ret |= ud_host_set_string(&h->cpu.isa, uname(&un) == 0 ? ud_isa_of_machine(un.machine) : NULL);
	h->cpu.online_cpus = own_cpu ? sysconf(_SC_NPROCESSORS_ONLN) : known(cpu->processors);
	h->cpu.smt = read_smt(sysroot, cpu, own_cpu);
	/* Another host's cpuinfo says nothing reliable about its caches. */
	if (own_cpu)
		read_caches(&h->cpu.caches, sysroot);
	ret |= ud_host_set_string(&h->cpu.source, own_cpu ? "/proc/cpuinfo" : opts->cpuinfo_path);
	return ret | read_system(h, cpu, sysroot, own_cpu);
}

struct ud_host *ud_host_collect(const struct ud_host_opts *opts, struct ud_err *err)
{
	const char *sysroot = opts->sysroot ? opts->sysroot : "";
	int own_cpu = opts->cpuinfo_path == NULL;
	char cpuinfo[4096];
	struct ud_cpu cpu;
	struct ud_host *h;

	snprintf(cpuinfo, sizeof(cpuinfo), "%s%s", own_cpu ? sysroot : "",
		 own_cpu ? "/proc/cpuinfo" : opts->cpuinfo_path);
	if (ud_cpuinfo_load(cpuinfo, &cpu, err) != 0)
		return NULL;
	h = ud_host_new();
	if (!h || fill(h, opts, &cpu, sysroot) != 0) {
		ud_host_free(h);
		h = NULL;
		ud_fail(err, "out of memory");
	}
	ud_cpu_free(&cpu);
	return h;
}
