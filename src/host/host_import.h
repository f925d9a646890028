/*
 * host_import.h - the host of an imported profile, from what the person
 * importing gave: the facts `host --json` took on that host (--host FILE),
 * its /proc/cpuinfo (--cpuinfo), its microarchitecture by name (--uarch),
 * facts stated one by one (--fact KEY=VALUE), its label.  Everything else
 * stays unknown, as the pasted text did not give it.
 */
#ifndef UD_HOST_IMPORT_H
#define UD_HOST_IMPORT_H

#include <stddef.h>

#include "cpuinfo.h"
#include "error.h"
#include "host_facts.h"
#include "uarch.h"

struct ud_host_import {
	const char *label;         /* --label; NULL: the host file's, else fallback */
	const char *fallback;      /* the label without either: the first input's file name */
	const char *host_path;     /* --host FILE; NULL none */
	const char *cpuinfo_path;  /* --cpuinfo FILE; NULL none (not with host_path) */
	const char *uarch;         /* --uarch NAME, a table's or a core's name or alias; NULL none */
	const char *const *facts;  /* --fact KEY=VALUE, in the order given */
	size_t nfacts;
};

/*
 * The host: the host file's facts, or the cpuinfo's CPU; then the named
 * microarchitecture (cpu.uarch, the ISA it implies, the vendor where none
 * is known); then each stated fact over all of them, marked stated
 * ("cpu.uarch" looked up as --uarch is, setting the ISA too).  The caller
 * frees it; NULL with err on one line for a file that cannot be read, an
 * unknown microarchitecture, a bad KEY=VALUE.
 */
struct ud_host *ud_host_for_import(const struct ud_host_import *o, struct ud_err *err);

/*
 * The CPU's identity from cpu into h (vendor, model name, family, model,
 * stepping, MIDR, microcode, ISA), and its microarchitecture where db is
 * given: the table detected, or a known core without one, whose vendor
 * stands in where cpuinfo names none.  -1 when out of memory.
 */
int ud_host_set_cpu(struct ud_host *h, const struct ud_cpu *cpu, const struct ud_uarch_db *db);


#endif
