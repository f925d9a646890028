/*
 * cpuinfo.c - /proc/cpuinfo read into struct ud_cpu (cpuinfo.h), and the
 * ISA the text shows, as that host's `uname -m` would name it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpuinfo.h"
#include "fileio.h"
#include "text.h"

/* MIDR_EL1 implementer codes, as the Arm Architecture Reference Manual assigns them. */
static const struct {
	long code;
	const char *name;
} arm_implementers[] = {
	{ 0x41, "ARM" }, { 0x42, "Broadcom" }, { 0x43, "Cavium" }, { 0x46, "Fujitsu" },
	{ 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" }, { 0x50, "APM" }, { 0x51, "Qualcomm" },
	{ 0x61, "Apple" }, { 0x69, "Intel" }, { 0x6d, "Microsoft" }, { 0xc0, "Ampere" },
};

/* The first POWER that Linux runs little-endian: POWER8 added the mode that ppc64le needs (Power ISA 2.07). */
#define POWER_FIRST_LITTLE_ENDIAN 8

/*
 * What the ISA is read from besides the fields kept: lines whose only use
 * is to tell a 64-bit kernel from a 32-bit one, or one ISA from another.
 */
struct isa_clues {
	char arm_arch[16];       /* "CPU architecture": 8 (arm64 kernels), 7 (arm kernels on v7 and v8 cores, and on ARM1176) */
	char arm_platform[8];    /* "v7l" from "ARMv7 Processor rev 5 (v7l)": the arm kernel's elf_platform, uname -m's tail */
	char riscv[8];           /* "rv64" from "isa : rv64imafdc" */
	bool asimd;              /* arm64 kernels name Advanced SIMD "asimd" in Features, arm kernels "neon" */
	bool flags_seen, lm;     /* x86 flags, and long mode in them */
	bool x86_32_kernel;      /* "fdiv_bug": printed by CONFIG_X86_32 kernels only (arch/x86/kernel/cpu/proc.c, show_cpuinfo_misc) */
	bool s390;               /* vendor_id "IBM/S390" */
};

static long parse_long(const char *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 0); /* base 0: Arm fields are 0x-prefixed, x86 decimal */
	return (errno || end == v || *end) ? -1 : x;
}

static void set_str(char **dst, const char *v)
{
	if (!*dst && *v)
		*dst = strdup(v);
}

static void set_long(long *dst, const char *v)
{
	if (*dst < 0)
		*dst = parse_long(v);
}

static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; (p = strstr(p, word)) != NULL; p += len)
		if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
			return true;
	return false;
}

/* The "(v7l)" at the end of a 32-bit Arm kernel's processor name, into clue. */
static void arm_platform(struct isa_clues *c, const char *name)
{
	const char *open = strrchr(name, '(');

	if (open && open[1] == 'v' && isdigit((unsigned char)open[2]) && !c->arm_platform[0])
		snprintf(c->arm_platform, sizeof(c->arm_platform), "%.*s", (int)strcspn(open + 1, ")"), open + 1);
}

/* The name POWER's "cpu" line gives its core: "POWER9" of "POWER9 (raw), altivec supported". */
static void power_core(struct ud_cpu *cpu, const char *v)
{
	size_t n = strcspn(v, " ,(");

	if (!cpu->core && n && (cpu->core = malloc(n + 1)))
		snprintf(cpu->core, n + 1, "%s", v);
}

/* The lines that say which ISA the text is from; 1 when key was one. */
static int isa_line(struct ud_cpu *cpu, struct isa_clues *c, const char *key, const char *val)
{
	if (strcmp(key, "flags") == 0) {
		if (!c->flags_seen)
			cpu->hypervisor_flag = has_word(val, "hypervisor");
		c->lm |= has_word(val, "lm");
		c->flags_seen = true;
	} else if (strcmp(key, "fdiv_bug") == 0) {
		c->x86_32_kernel = true;
	} else if (strcmp(key, "Features") == 0) {
		c->asimd |= has_word(val, "asimd");
	} else if (strcmp(key, "CPU architecture") == 0) {
		if (!c->arm_arch[0])
			snprintf(c->arm_arch, sizeof(c->arm_arch), "%s", val);
	} else if (strcmp(key, "cpu") == 0) { /* POWER (and other kernels') name of the processor */
		set_str(&cpu->model_name, val);
		power_core(cpu, val);
	} else if (strcmp(key, "isa") == 0) { /* RISC-V */
		if (!c->riscv[0])
			snprintf(c->riscv, sizeof(c->riscv), "%.4s", val);
	} else if (strcmp(key, "uarch") == 0) { /* RISC-V: the core's devicetree compatible */
		set_str(&cpu->core, val);
	} else {
		return 0;
	}
	return 1;
}

/* One "key : value" line; 1 when key is a CPU field. */
static int cpu_line(struct ud_cpu *cpu, struct isa_clues *c, const char *key, const char *val)
{
	if (strcmp(key, "vendor_id") == 0) {
		set_str(&cpu->vendor, val);
		c->s390 |= strncmp(val, "IBM/S390", 8) == 0;
	} else if (strcmp(key, "model name") == 0 || strcmp(key, "Processor") == 0) {
		/* "Processor" is the name line of arm kernels before 3.8 */
		set_str(&cpu->model_name, val);
		arm_platform(c, val);
	} else if (strcmp(key, "microcode") == 0) {
		set_str(&cpu->microcode, val);
	} else if (strcmp(key, "cpu family") == 0) {
		set_long(&cpu->family, val);
	} else if (strcmp(key, "model") == 0) {
		set_long(&cpu->model, val);
	} else if (strcmp(key, "stepping") == 0) {
		set_long(&cpu->stepping, val);
	} else if (strcmp(key, "siblings") == 0) {
		set_long(&cpu->siblings, val);
	} else if (strcmp(key, "cpu cores") == 0) {
		set_long(&cpu->cpu_cores, val);
	} else if (strcmp(key, "CPU implementer") == 0) {
		set_long(&cpu->midr_implementer, val);
	} else if (strcmp(key, "CPU part") == 0) {
		set_long(&cpu->midr_part, val);
	} else if (strcmp(key, "CPU variant") == 0) {
		set_long(&cpu->midr_variant, val);
	} else if (strcmp(key, "CPU revision") == 0) {
		set_long(&cpu->midr_revision, val);
	} else {
		return isa_line(cpu, c, key, val);
	}
	return 1;
}

/*
 * The 32-bit Arm ISA from the kernel's own words: the platform in the
 * processor's name first ("(v6l)": ARM1176's kernels say "CPU architecture:
 * 7" too), then the architecture line.
 */
static const char *arm32_isa(const struct isa_clues *c)
{
	char v = c->arm_platform[0] ? c->arm_platform[1] : c->arm_arch[0];

	return v == '7' ? "armv7" : v == '6' ? "armv6" : v == '5' ? "armv5" : NULL;
}

/*
 * The ISA: what `uname -m` says on that host, as far as its cpuinfo shows
 * it.  POWER's text does not say the byte order: POWER8 and later are
 * taken as little-endian, the only order RHEL, SLES and Ubuntu build for
 * them ("--fact cpu.isa=ppc64" states a big-endian one), earlier POWER as
 * big-endian, the only order they ran.
 */
static const char *isa_of(const struct ud_cpu *cpu, const struct isa_clues *c)
{
	if (c->s390)
		return "s390x";
	if (c->riscv[0])
		return strcmp(c->riscv, "rv64") == 0 ? "riscv64" : strcmp(c->riscv, "rv32") == 0 ? "riscv32" : NULL;
	if (cpu->is_arm)
		return strcmp(c->arm_arch, "8") == 0 || strcmp(c->arm_arch, "AArch64") == 0 || c->asimd ? "aarch64"
												 : arm32_isa(c);
	if (cpu->core && strncmp(cpu->core, "POWER", 5) == 0 && isdigit((unsigned char)cpu->core[5]))
		return atoi(cpu->core + 5) >= POWER_FIRST_LITTLE_ENDIAN ? "ppc64le" : "ppc64";
	if (cpu->family >= 0 && c->flags_seen)
		return c->lm && !c->x86_32_kernel ? "x86_64" : "i686";
	return NULL;
}

int ud_cpuinfo_parse(FILE *f, const char *name, struct ud_cpu *cpu, struct ud_err *err)
{
	struct isa_clues clues = { 0 };
	char *line = NULL;
	size_t cap = 0;

	memset(cpu, 0, sizeof(*cpu));
	cpu->family = cpu->model = cpu->stepping = -1;
	cpu->midr_implementer = cpu->midr_part = cpu->midr_variant = cpu->midr_revision = -1;
	cpu->siblings = cpu->cpu_cores = -1;

	while (getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		if (strcmp(ud_trim(line), "processor") == 0)
			cpu->processors++;
		else
			cpu_line(cpu, &clues, ud_trim(line), ud_trim(colon + 1));
	}
	free(line);

	cpu->is_arm = cpu->midr_implementer >= 0;
	if (cpu->is_arm && ud_arm_implementer_name(cpu->midr_implementer))
		set_str(&cpu->vendor, ud_arm_implementer_name(cpu->midr_implementer));
	if (cpu->core && strncmp(cpu->core, "POWER", 5) == 0)
		set_str(&cpu->vendor, "IBM");
	/* RISC-V names its core in the uarch line and nothing else */
	if (clues.riscv[0] && cpu->core)
		set_str(&cpu->model_name, cpu->core);
	cpu->isa = isa_of(cpu, &clues);
	if (!cpu->vendor && cpu->family < 0 && !cpu->is_arm && !cpu->core && !clues.riscv[0]) {
		ud_cpu_free(cpu);
		return ud_fail(err, "%s: no CPU fields (vendor_id, cpu family, CPU implementer, cpu, isa): not a /proc/cpuinfo",
			       name);
	}
	return 0;
}

int ud_cpuinfo_load(const char *path, struct ud_cpu *cpu, struct ud_err *err)
{
	char *buf;
	FILE *f = ud_open_input(path, UD_INPUT_CPUINFO, &buf, err);
	int ret;

	if (!f)
		return -1;
	ret = ud_cpuinfo_parse(f, path, cpu, err);
	fclose(f);
	free(buf);
	return ret;
}

void ud_cpu_free(struct ud_cpu *cpu)
{
	free(cpu->vendor);
	free(cpu->model_name);
	free(cpu->core);
	free(cpu->microcode);
	cpu->vendor = cpu->model_name = cpu->core = cpu->microcode = NULL;
	cpu->isa = NULL;
}

const char *ud_arm_implementer_name(long code)
{
	for (size_t i = 0; i < sizeof(arm_implementers) / sizeof(arm_implementers[0]); i++)
		if (arm_implementers[i].code == code)
			return arm_implementers[i].name;
	return NULL;
}

const char *ud_isa_of_machine(const char *machine)
{
	/* arm kernels append the byte order to the architecture (arch/arm/kernel/setup.c, ENDIANNESS) */
	static const char *const arm32[][2] = {
		{ "armv7l", "armv7" }, { "armv6l", "armv6" }, { "armv5tel", "armv5" }, { "armv5tejl", "armv5" },
	};

	for (size_t i = 0; i < sizeof(arm32) / sizeof(arm32[0]); i++)
		if (strcmp(machine, arm32[i][0]) == 0)
			return arm32[i][1];
	return machine;
}
