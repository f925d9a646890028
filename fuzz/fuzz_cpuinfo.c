/* libFuzzer target over the /proc/cpuinfo parser (--cpuinfo). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpuinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct ud_cpu cpu;
	struct ud_err err;

	if (!f)
		return 0;
	if (ud_cpuinfo_parse(f, "fuzz", &cpu, &err) == 0)
		ud_cpu_free(&cpu);
	fclose(f);
	return 0;
}
