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
	if (!*dst)
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

int ud_cpuinfo_parse(FILE *f, const char *name, struct ud_cpu *cpu, struct ud_err *err)
{
	char *line = NULL;
	size_t cap = 0;
	int blocks = 0, fields = 0;

	memset(cpu, 0, sizeof(*cpu));
	cpu->family = cpu->model = cpu->stepping = -1;
	cpu->midr_implementer = cpu->midr_part = cpu->midr_variant = cpu->midr_revision = -1;
	cpu->siblings = cpu->cpu_cores = -1;

	while (getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':'), *key, *val;

		if (!colon)
			continue;
		*colon = '\0';
		key = ud_trim(line);
		val = ud_trim(colon + 1);
		if (strcmp(key, "processor") == 0) {
			cpu->processors++;
			blocks++;
			continue;
		}
		/* Identity comes from the first processor only. */
		if (blocks > 1)
			continue;
		fields++;
		if (strcmp(key, "vendor_id") == 0)
			set_str(&cpu->vendor, val);
		else if (strcmp(key, "model name") == 0)
			set_str(&cpu->model_name, val);
		else if (strcmp(key, "microcode") == 0)
			set_str(&cpu->microcode, val);
		else if (strcmp(key, "cpu family") == 0)
			set_long(&cpu->family, val);
		else if (strcmp(key, "model") == 0)
			set_long(&cpu->model, val);
		else if (strcmp(key, "stepping") == 0)
			set_long(&cpu->stepping, val);
		else if (strcmp(key, "siblings") == 0)
			set_long(&cpu->siblings, val);
		else if (strcmp(key, "cpu cores") == 0)
			set_long(&cpu->cpu_cores, val);
		else if (strcmp(key, "flags") == 0)
			cpu->hypervisor_flag = has_word(val, "hypervisor");
		else if (strcmp(key, "CPU implementer") == 0)
			set_long(&cpu->midr_implementer, val);
		else if (strcmp(key, "CPU part") == 0)
			set_long(&cpu->midr_part, val);
		else if (strcmp(key, "CPU variant") == 0)
			set_long(&cpu->midr_variant, val);
		else if (strcmp(key, "CPU revision") == 0)
			set_long(&cpu->midr_revision, val);
		else
			fields--;
	}
	free(line);

	cpu->is_arm = cpu->midr_implementer >= 0;
	for (size_t i = 0; cpu->is_arm && i < sizeof(arm_implementers) / sizeof(arm_implementers[0]); i++)
		if (arm_implementers[i].code == cpu->midr_implementer)
			set_str(&cpu->vendor, arm_implementers[i].name);
	if (!cpu->vendor && cpu->family < 0 && !cpu->is_arm) {
		ud_cpu_free(cpu);
		return ud_fail(err, "%s: no CPU fields (vendor_id, cpu family, CPU implementer): not a /proc/cpuinfo",
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
	free(cpu->microcode);
	cpu->vendor = cpu->model_name = cpu->microcode = NULL;
}
