/*
 * cpuinfo.h - the CPU as /proc/cpuinfo describes it (x86 or Arm).
 *
 * Fields a file does not give stay unknown: NULL strings, -1 numbers.  x86
 * family and model are printed in decimal by the kernel (25 = 0x19); Arm's
 * MIDR fields in hex.  Only the first processor's block is read for the
 * identity (heterogeneous big.LITTLE systems are not modelled); processors
 * are counted over the whole file.
 *
 * Ownership: ud_cpu_free() releases the strings; the struct itself is the
 * caller's.
 */
#ifndef UD_CPUINFO_H
#define UD_CPUINFO_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

struct ud_cpu {
	char *vendor;        /* vendor_id, or the Arm implementer's name */
	char *model_name;
	char *microcode;
	long family, model, stepping;
	long midr_implementer, midr_part, midr_variant, midr_revision;
	long processors;     /* "processor" entries */
	long siblings, cpu_cores;
	bool hypervisor_flag; /* x86 "hypervisor" in flags */
	bool is_arm;
};

/* Returns 0, or -1 with err "NAME: ..." when the text holds no CPU fields. */
int ud_cpuinfo_parse(FILE *f, const char *name, struct ud_cpu *cpu, struct ud_err *err);
int ud_cpuinfo_load(const char *path, struct ud_cpu *cpu, struct ud_err *err);
void ud_cpu_free(struct ud_cpu *cpu);

#endif
