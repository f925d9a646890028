/*
 * cpuinfo.h - the CPU as /proc/cpuinfo describes it (x86, Arm, IBM POWER,
 * RISC-V, s390x).
 *
 * Fields a file does not give stay unknown: NULL strings, -1 numbers.  x86
 * family and model are printed in decimal by the kernel (25 = 0x19); Arm's
 * MIDR fields in hex.  A field is taken from the first line that gives it,
 * so the identity is the first processor's (heterogeneous big.LITTLE
 * systems are not modelled), and lines after the blocks (old Arm kernels'
 * Features and CPU implementer, POWER's platform) count too; processors
 * are counted over the whole file.
 *
 * Ownership: ud_cpu_free() releases the strings; the struct itself is the
 * caller's.  isa is static.
 */
#ifndef UD_CPUINFO_H
#define UD_CPUINFO_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

struct ud_cpu {
	char *vendor;        /* vendor_id, the Arm implementer's name, "IBM" for POWER */
	char *model_name;    /* "model name"; POWER's cpu line; RISC-V's uarch line */
	char *core;          /* the core as the kernel names it: POWER's "POWER9", RISC-V's "sifive,u74-mc"; NULL elsewhere */
	char *microcode;
	const char *isa;     /* as `uname -m` names it on that host ("x86_64", "aarch64", "armv7", "ppc64le", "riscv64"); NULL unknown */
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

/* The implementer's name for an Arm MIDR implementer code ("ARM" for 0x41); NULL for one not in the table.  Static. */
const char *ud_arm_implementer_name(long code);
/*
 * The ISA as profiles name it for `uname -m`'s machine: the 32-bit Arm
 * names without their byte order ("armv7l" is "armv7"), any other as it
 * is.  Returns a static string or machine itself.
 */
const char *ud_isa_of_machine(const char *machine);

#endif
