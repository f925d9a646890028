/*
 * profile_json.c - the words of the profile's JSON form (SPEC §3) that its
 * writer (profile_write.c) and its reader (profile_read.c) share.  The key
 * a target's ids go under, and the words the schema enumerates.
 */

#include "profile.h"
#include "profile_json_priv.h"

/* The key a target's ids go under: CPUs, processes or threads. */
const char *ud_target_ids_key(enum ud_target_kind kind)
{
	switch (kind) {
	case UD_TARGET_SYSTEM_WIDE:
	case UD_TARGET_CPUS: return "cpus";
	case UD_TARGET_PID: return "pids";
	case UD_TARGET_TID: return "tids";
	case UD_TARGET_COMMAND: break;
	}
	return NULL;
}

const char *const ud_counter_semantics_words[] = { "retired", "speculative", "cycles", NULL };
const char *const ud_counter_opened_as_words[] = { "libpfm4", "raw", "generic", "tracepoint", "pmu", "tool", NULL };
