/*
 * host.h - the facts about a host that explain differences between hosts
 * (SPEC §3 "host"): CPU identity, caches, kernel, hypervisor, PMU access,
 * speculative-execution mitigations, frequency policy.
 *
 * The facts are the typed host of host_facts.h; a fact that cannot be read
 * is unknown (JSON null), never a guess.
 */
#ifndef UD_HOST_H
#define UD_HOST_H

#include <stdbool.h>

#include "cpuinfo.h"
#include "error.h"
#include "host_facts.h"
#include "uarch.h"

struct ud_host_opts {
	const char *cpuinfo_path; /* NULL: /proc/cpuinfo of this host */
	const char *label;        /* NULL: the hostname */
	const char *sysroot;      /* NULL or "": read /proc and /sys of this host; tests point it elsewhere */
	const struct ud_uarch_db *db; /* detects cpu.uarch; NULL leaves it null */
};

/*
 * This host's facts (the caller frees them, ud_host_free()), or NULL with
 * err set when the CPU description cannot be read (a missing --cpuinfo
 * file, say) or out of memory.
 */
struct ud_host *ud_host_collect(const struct ud_host_opts *opts, struct ud_err *err);

#endif
