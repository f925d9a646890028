/*
 * host_facts.h - the host's facts typed, as a profile carries them (SPEC §3
 * "host"): CPU identity, caches, kernel, hypervisor, PMU access,
 * mitigations, frequency policy, a hybrid CPU's core PMUs.
 *
 * One table (host_facts.c) names every fact by its dotted path in the
 * profile's "host" object ("cpu.caches.l2_kb", "vulnerabilities.retbleed"):
 * the reader, the writer, the lookup by name and the walk over all facts
 * (the diff's environment, `host`'s listing, compare --group-by) go
 * through it, so no fact is read two ways.  A fact that could not be read
 * is NULL (strings), UD_HOST_UNKNOWN (integers) or -1 (smt): JSON null.
 *
 * Ownership: a host owns every string in it; ud_host_free() frees them.
 * Facts handed out (struct ud_fact) borrow the host's strings and stay
 * valid until the host changes or is freed.
 */
#ifndef UD_HOST_FACTS_H
#define UD_HOST_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "json_doc.h"
#include "json_emit.h"

/* An integer fact that could not be read: JSON null (perf_event_paranoid's -1 is a value). */
#define UD_HOST_UNKNOWN (-__LONG_LONG_MAX__ - 1) /* LLONG_MIN, without limits.h's NAME_MAX and PATH_MAX */

struct ud_host_caches {
	long long l1d_kb, l1i_kb, l2_kb, l3_kb; /* cpu0's, KB per instance as sysfs says; UD_HOST_UNKNOWN */
};

struct ud_host_cpu {
	char *isa;               /* as `uname -m` names it ("x86_64", "aarch64", "armv7", "ppc64le", "riscv64") */
	char *vendor, *model_name;
	long long family, model, stepping;                     /* x86 */
	long long midr_implementer, midr_part, midr_variant;   /* Arm */
	char *microcode;
	char *uarch;             /* the event table's name ("zen4", "generic"), or a known core's without one ("power9") */
	long long online_cpus;
	int smt;                 /* 1 active, 0 not, -1 unknown */
	struct ud_host_caches caches;
	char *source;            /* where cpuinfo was read; NULL: absent (imports) */
};

/* A vulnerabilities file and its text (NULL: unreadable). */
struct ud_host_vuln {
	char *name, *text;
};

struct ud_host {
	char *label;             /* the name in every report; read it with ud_host_label() */
	char *hostname, *collected_at;
	struct ud_host_cpu cpu;
	char *kernel, *hypervisor;
	char *pmu;               /* "available", "absent", "restricted"; NULL unknown */
	char *pmu_reason;        /* NULL: absent (imports) */
	long long perf_event_paranoid;
	bool vulnerabilities_known; /* false: the whole object is null (no folder, imports) */
	struct ud_host_vuln *vulns; /* in the order read (host.c sorts them by name) */
	size_t nvulns;
	struct {
		char *governor;
		long long min_khz, max_khz;
	} cpufreq;
	bool hybrid;             /* an import counted two or more core PMUs */
	char **core_pmus;        /* their names in the paste's order; written when there are some */
	size_t ncore_pmus;
	char **stated;           /* the dotted names of the facts a person stated (import --fact), in their order */
	size_t nstated;
};

/* A host with every fact unknown, or NULL when out of memory; caller frees (ud_host_free). */
struct ud_host *ud_host_new(void);
void ud_host_free(struct ud_host *h);
/* A deep copy (an importer's undo point), or NULL when out of memory; caller frees. */
struct ud_host *ud_host_copy(const struct ud_host *h);

/* Replaces *field (one of h's strings) with a copy of value (NULL: unknown); -1 when out of memory. */
int ud_host_set_string(char **field, const char *value);
int ud_host_add_vuln(struct ud_host *h, const char *name, const char *text);
/* Appends a core PMU unless it is there already; -1 when out of memory. */
int ud_host_add_core_pmu(struct ud_host *h, const char *pmu);
/* Marks the fact name as stated by a person, not read (once); -1 when out of memory. */
int ud_host_mark_stated(struct ud_host *h, const char *name);
/* Whether the fact name was stated (import --fact) rather than read. */
bool ud_host_stated(const struct ud_host *h, const char *name);

/*
 * The longest host label, in bytes.  The label names the host in nearly
 * every sentence of a report (a diff says it about 20 times), so one of
 * 20 MB made diff write 420 MB and use 1.8 GB; a real label is a hostname
 * (at most 64 bytes) or a person's name for a machine.  16 KiB is far above
 * either and keeps every report within a few hundred KB of label.  A longer
 * one is refused where it comes in (--label, a profile's or host file's
 * host.label), never cut: a cut label could name another host.
 */
#define UD_LABEL_MAX 16384

/* 0, or -1 with err "WHAT: N bytes: a host label is at most ..." when label is longer than UD_LABEL_MAX. */
int ud_host_check_label(const char *what, const char *label, struct ud_err *err);

/*
 * The host's name in reports: its label unless that is NULL or empty, then
 * fallback (the profile's file).  Borrowed.  The one reader of the label:
 * diff and compare once disagreed on an empty one.
 */
const char *ud_host_label(const struct ud_host *h, const char *fallback);

enum ud_host_cache { UD_CACHE_L1D, UD_CACHE_L1I, UD_CACHE_L2, UD_CACHE_L3 };
/*
 * A cache's size in bytes, 0 when unknown.  The one reader of the sizes:
 * a zero or negative KB (a hand-edited or corrupt profile) is unknown, not
 * a huge size_t.
 */
size_t ud_host_cache_bytes(const struct ud_host *h, enum ud_host_cache which);

enum ud_fact_type {
	UD_FACT_ABSENT,    /* no such fact, or one this host does not write (pmu_reason of an import) */
	UD_FACT_NULL,      /* known to the schema, not read */
	UD_FACT_GROUP,     /* an object of facts ("cpu", "cpu.caches", "vulnerabilities") */
	UD_FACT_STRING,
	UD_FACT_INTEGER,
	UD_FACT_BOOLEAN,
	UD_FACT_LIST,      /* a list of strings (core_pmus) */
};

/* One fact's value; strings borrowed from the host. */
struct ud_fact {
	enum ud_fact_type type;
	const char *string;
	long long integer;
	bool boolean;
	char *const *list;
	size_t nlist;
};

/*
 * The fact at a dotted path ("kernel", "cpu.caches.l2_kb", "vulnerabilities.mds"); UD_FACT_ABSENT if none.
 * "stated" is no fact but what is said of the others (ud_host_stated()): absent here and in the walk.
 */
struct ud_fact ud_host_fact(const struct ud_host *h, const char *name);
/*
 * Calls fn for every fact in the order the host object is written, groups
 * before their members, until fn returns non-zero (returned).
 */
int ud_host_each_fact(const struct ud_host *h, int (*fn)(const char *name, const struct ud_fact *v, void *arg),
		      void *arg);
/* Same type and value (two NULLs or two ABSENTs are equal). */
bool ud_fact_equal(const struct ud_fact *a, const struct ud_fact *b);
/*
 * The value as one line: a string as it is, a number in decimal, true or
 * false, a list as JSON (["cpu_core","cpu_atom"]), "unknown" for null or
 * absent.  Returns buf, or the host's own string.
 * Either is borrowed: buf is the caller's, the string v's.
 */
const char *ud_fact_text(const struct ud_fact *v, char *buf, size_t len);

/* The most a fact's dotted name may hold, for the buffers that take one from a person. */
#define UD_FACT_NAME_MAX 128

/*
 * KEY=VALUE as a person states a fact (import --fact): KEY into key (up to
 * UD_FACT_NAME_MAX), *value pointing into arg after the '=', or NULL for
 * "null" (stated unknown).  -1 with err "--fact needs KEY=VALUE, not 'X'".
 */
int ud_fact_statement_split(const char *arg, char *key, const char **value, struct ud_err *err);
/*
 * Sets the fact key of h from the text value (NULL: unknown), typed by the
 * fact's row: a string as it is, an integer in decimal or 0x hex, true,
 * false, yes or no for a yes/no fact, any text for vulnerabilities.NAME.
 * Does not mark it stated.  -1 with err on one line for an unknown key
 * (with the nearest name: "unknown host fact 'kernel.release'; did you
 * mean 'kernel'?"), a group, a fact no one states (cpu.source), or a value
 * of the wrong type ("cpu.online_cpus needs a whole number, not 'many'").
 */
int ud_host_set_fact(struct ud_host *h, const char *key, const char *value, struct ud_err *err);

/*
 * Reads the host object v (every field type-checked; an absent one is
 * unknown); name prefixes err ("NAME: host.cpu.family: expected an integer
 * or null").  Caller frees.  The one reader of host facts from JSON.
 */
struct ud_host *ud_host_read(struct ud_jv v, const char *name, struct ud_err *err);
/* The host as member key of what is open in jw (NULL key: an array's element or the document). */
void ud_host_emit(struct ud_jw *jw, const char *key, const struct ud_host *h);
/* One fact as member key (null for null or absent). */
void ud_fact_emit(struct ud_jw *jw, const char *key, const struct ud_fact *v);

#endif
