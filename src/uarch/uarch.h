/*
 * uarch.h - microarchitecture tables (the files in events/) and detection.
 *
 * A table maps generic event names onto the vendor events of one core, says
 * how the core is detected from /proc/cpuinfo, how many counters it has and
 * the penalties the diff's CPI model uses (events/README.md has the format).
 * The tables are data; this module only reads them.
 *
 * Ownership: a ud_uarch_db owns its tables; ud_uarch_db_free() releases
 * them.  Pointers into it stay valid until then.
 */
#ifndef UD_UARCH_H
#define UD_UARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cpuinfo.h"
#include "error.h"
#include "topdown.h"
#include "topdown_expr.h"

#define UD_UARCH_TEXT 256

struct ud_uarch_event {
	char generic[48];
	bool unavailable;                  /* the core has no such event; see reason */
	char reason[UD_UARCH_TEXT];
	char vendor[96];
	char pmu[UD_TD_PMU];               /* the core type it is for on a hybrid part; "" every core */
	bool libpfm4;                      /* vendor is libpfm4's spelling */
	unsigned code;                     /* event number (AMD: up to 12 bits) */
	int umask;                         /* AMD unit mask; -1 none */
	char semantics[16];                /* "retired", "speculative", "cycles" */
	char includes[UD_UARCH_TEXT];
	char source[UD_UARCH_TEXT];
};

/* A raw event a top-down formula reads, by the name the formula gives it. */
struct ud_td_event {
	char name[UD_EXPR_NAME_MAX];
	unsigned code;                     /* event number (AMD: up to 12 bits) */
	int umask;                         /* x86 unit mask; -1 none */
	int cmask;                         /* x86 counter mask; 0 none */
	bool inv;                          /* x86 invert the counter mask */
	bool edge;                         /* x86 count rising edges (perf's "edge") */
	char libpfm4[96];                  /* libpfm4's spelling, where it has one, for the table check; "" none */
	char source[UD_UARCH_TEXT];
};

#define UD_TD_EXPR_MAX 512

/* A formula: a bucket of level 1 or 2, or (level 0) a value the others read, as perf's total_dispatch_slots. */
struct ud_td_metric {
	char name[UD_EXPR_NAME_MAX];
	int level;
	char expr[UD_TD_EXPR_MAX];
	char source[UD_UARCH_TEXT];
};

/* How a core's slots are accounted for (events/README.md, "Top-down"). */
struct ud_td_method {
	char pmu[UD_TD_PMU];               /* the core type it is for on a hybrid part; "" every core */
	enum ud_topdown_method method;
	int level;                         /* the deepest level its formulas give */
	bool slots_from_caps;              /* #slots is the PMU's caps/slots (Arm PMMIR_EL1.SLOTS) */
	bool slots_counted;                /* the slots are an event the formulas read (Intel's slots counter) */
	double slots;                      /* #slots as a constant; NAN when from caps or unused */
	char reason[UD_UARCH_TEXT];        /* why no more than this: what none and cycle-accounting lack */
	char source[UD_UARCH_TEXT];
	struct ud_td_event *events;
	size_t nevents;
	struct ud_td_metric *metrics;
	size_t nmetrics;
};

/* A hybrid part's core types each have their own. */
#define UD_TD_METHODS_MAX 2

struct ud_model_range {
	long lo, hi;
};

struct ud_uarch {
	char name[32];
	char title[UD_UARCH_TEXT];
	char path[512];
	enum { UD_DETECT_NONE, UD_DETECT_X86, UD_DETECT_ARM } detect;
	char vendor[32];                   /* x86 vendor_id */
	long family;                       /* x86 decimal family */
	struct ud_model_range models[8];
	size_t nmodels;
	long implementer;                  /* Arm MIDR */
	long parts[8];
	size_t nparts;
	char libpfm4_pmu[48];              /* "" when libpfm4 does not know it */
	int counters_programmable, counters_fixed;
	double penalty_branch, penalty_l1d; /* cycles; NAN when unknown */
	char penalty_branch_source[UD_UARCH_TEXT], penalty_l1d_source[UD_UARCH_TEXT];
	struct ud_uarch_event *events;
	size_t nevents;
	struct ud_td_method topdown[UD_TD_METHODS_MAX];
	size_t ntopdown;                   /* 0: the table says nothing of top-down */
};

struct ud_uarch_db {
	struct ud_uarch *tables;
	size_t n;
};

/* Parses one table from f; errors read "path:line: reason".  ud_uarch_free() frees it. */
int ud_uarch_parse(FILE *f, const char *path, struct ud_uarch *u, struct ud_err *err);
/* The same from the file at path, read under UD_CAP_EVENT_TABLE (fileio.h). */
int ud_uarch_parse_file(const char *path, struct ud_uarch *u, struct ud_err *err);
void ud_uarch_free(struct ud_uarch *u);

/* Every table in dir (NULL: ud_data_dir(UD_DATA_EVENTS)); needs a "generic" one. */
int ud_uarch_db_load(const char *dir, struct ud_uarch_db *db, struct ud_err *err);
void ud_uarch_db_free(struct ud_uarch_db *db);

const struct ud_uarch *ud_uarch_find(const struct ud_uarch_db *db, const char *name);
/* The table whose detect rule matches, else "generic". */
const struct ud_uarch *ud_uarch_detect(const struct ud_uarch_db *db, const struct ud_cpu *cpu);
const struct ud_uarch_event *ud_uarch_event(const struct ud_uarch *u, const char *generic);
/*
 * The table for a CPU description: cpuinfo_path (NULL: this host's
 * /proc/cpuinfo) parsed and detected.  NULL with err when it cannot be read.
 */
const struct ud_uarch *ud_uarch_detect_file(const struct ud_uarch_db *db, const char *cpuinfo_path,
					    struct ud_err *err);
/*
 * The general-purpose counters a group plan may use on a host: the table's
 * count, less the one the NMI watchdog holds on x86 when it is on (the host
 * module reads that: ud_host_nmi_watchdog()).
 */
int ud_uarch_usable_counters(const struct ud_uarch *u, bool nmi_watchdog);
/* "zen1, zen2, ..." into buf, for messages listing the known tables. */
void ud_uarch_names(const struct ud_uarch_db *db, char *buf, size_t len);
/*
 * The table a user named (--uarch), or NULL with err: "unknown
 * microarchitecture 'zen44'; did you mean 'zen4'? (known: ...)".
 */
const struct ud_uarch *ud_uarch_named(const struct ud_uarch_db *db, const char *name, struct ud_err *err);

#endif
