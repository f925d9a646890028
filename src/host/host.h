/*
 * host.h - the facts about a host that explain differences between hosts
 * (SPEC §3 "host"): CPU identity, caches, kernel, hypervisor, PMU access,
 * speculative-execution mitigations, frequency policy.
 *
 * The facts are returned as a jansson object because they are an open
 * record: the diff compares them field by field without knowing each one.
 * A fact that cannot be read is JSON null, never a guess.
 */
#ifndef UD_HOST_H
#define UD_HOST_H

#include <jansson.h>
#include <stdbool.h>

#include "cpuinfo.h"
#include "error.h"
#include "uarch.h"

struct ud_host_opts {
	const char *cpuinfo_path; /* NULL: /proc/cpuinfo of this host */
	const char *label;        /* NULL: the hostname */
	const char *sysroot;      /* NULL or "": read /proc and /sys of this host; tests point it elsewhere */
	const struct ud_uarch_db *db; /* detects cpu.uarch; NULL leaves it null */
};

/*
 * Returns a new reference to the host object, or NULL with err set when the
 * CPU description cannot be read (a missing --cpuinfo file, say).
 */
json_t *ud_host_collect(const struct ud_host_opts *opts, struct ud_err *err);

/*
 * The host object of an imported profile: every fact null, as the source did
 * not give it, except the label and, where given, the CPU from another
 * host's cpuinfo and its microarchitecture (both may be NULL).
 */
json_t *ud_host_imported(const char *label, const struct ud_cpu *cpu, const struct ud_uarch *uarch);

/*
 * Whether the kernel's NMI watchdog is on (/proc/sys/kernel/nmi_watchdog):
 * on x86 it holds a programmable counter.  false when unreadable.
 */
bool ud_host_nmi_watchdog(void);

/* The "cpu" object for a parsed cpuinfo (new reference). */
json_t *ud_host_cpu_json(const struct ud_cpu *cpu);

#endif
