/*
 * uarch.h - microarchitecture tables (the files in events/) and detection.
 *
 * A table maps generic event names onto the vendor events of one core, says
 * how the core is detected from /proc/cpuinfo, how many counters it has and
 * the penalties the diff's CPI model uses (events/README.md has the format).
 * The tables are data; this module only reads them.  Beside them,
 * events/cores.list names the cores uarchdiff knows but has no table for
 * (struct ud_core): a host on one records the core and its ISA, and is
 * counted with the generic table.  A table or core is found by its name or
 * any of its aliases ("Genoa", "Cascade Lake", "Graviton3"), without case
 * or punctuation.
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

struct ud_workload;

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

/* The ISA's name as profiles write it (cpu.isa: "x86_64", "ppc64le"), and the most its buffer holds. */
#define UD_ISA_MAX 16

struct ud_uarch {
	char name[32];
	char title[UD_UARCH_TEXT];
	char isa[UD_ISA_MAX];              /* "x86_64", "aarch64"; "" for generic */
	char aliases[UD_UARCH_TEXT];       /* other names of its parts, comma-separated ("Genoa, Bergamo"); "" none */
	char aliases_source[UD_UARCH_TEXT];
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

/*
 * A core uarchdiff knows by name but has no event table for (one line of
 * events/cores.list): what a profile records of a host on it, and how its
 * cpuinfo shows it.
 */
struct ud_core {
	char name[32];                     /* what cpu.uarch records ("power9") */
	char title[UD_UARCH_TEXT];         /* "IBM POWER9" */
	char isa[UD_ISA_MAX];              /* the ISA a host on it runs as a rule ("ppc64le") */
	char vendor[32];                   /* as cpuinfo names it ("IBM", "Apple", "GenuineIntel"); "" unknown */
	char aliases[UD_UARCH_TEXT];       /* comma-separated; "" none */
	char source[UD_UARCH_TEXT];
	char cpu_names[UD_UARCH_TEXT];     /* the kernel's names for it (cpuinfo.h's core), space-separated; "" none */
	long implementer;                  /* Arm MIDR implementer; -1 not Arm */
	long parts[8];
	size_t nparts;
	char x86_vendor[32];               /* x86 vendor_id; "" not x86 */
	long family;                       /* x86 decimal family */
	struct ud_model_range models[8];
	size_t nmodels;
};

struct ud_uarch_db {
	struct ud_uarch *tables;
	size_t n;
	struct ud_core *cores;             /* events/cores.list, in its order; none where the file is absent */
	size_t ncores;
};

/* Parses one table from f; errors read "path:line: reason".  ud_uarch_free() frees it. */
int ud_uarch_parse(FILE *f, const char *path, struct ud_uarch *u, struct ud_err *err);
/* The same from the file at path, read under UD_CAP_EVENT_TABLE (fileio.h). */
int ud_uarch_parse_file(const char *path, struct ud_uarch *u, struct ud_err *err);
void ud_uarch_free(struct ud_uarch *u);

/*
 * Every table in dir (NULL: ud_data_dir(UD_DATA_EVENTS)), which needs a
 * "generic" one, and its cores.list where there is one.  Fails, naming the
 * file, on a malformed line or a name or alias that two entries share.
 */
int ud_uarch_db_load(const char *dir, struct ud_uarch_db *db, struct ud_err *err);
void ud_uarch_db_free(struct ud_uarch_db *db);

/*
 * This host's table alone, as ud_uarch_db_load() then ud_uarch_detect_file()
 * find it, without parsing the others: each table in dir (NULL:
 * ud_data_dir(UD_DATA_EVENTS)) is read to its uarch and detect lines, and
 * the one matching the CPU of cpuinfo_path (NULL: /proc/cpuinfo), else
 * "generic", is parsed into u (freed with ud_uarch_free()).  The others'
 * lines after their detect line and their names' uniqueness go unchecked.
 */
int ud_uarch_load_detected(const char *dir, const char *cpuinfo_path, struct ud_uarch *u, struct ud_err *err);
/* How many table files this process has opened (whole or to their detect line): what a command read, for tests. */
size_t ud_uarch_files_read(void);

/* Borrowed from db. */
const struct ud_uarch *ud_uarch_find(const struct ud_uarch_db *db, const char *name);
/* The table whose detect rule matches, else "generic".  Borrowed from db. */
const struct ud_uarch *ud_uarch_detect(const struct ud_uarch_db *db, const struct ud_cpu *cpu);
/* The known core without a table that cpu is (borrowed from db), or NULL. */
const struct ud_core *ud_core_detect(const struct ud_uarch_db *db, const struct ud_cpu *cpu);
/*
 * The vendor a table's parts are, as cpuinfo names it: the x86 vendor_id of
 * its detect rule, the Arm implementer's name; NULL for generic.  Static
 * or borrowed from u.
 */
const char *ud_uarch_vendor(const struct ud_uarch *u);
const struct ud_uarch_event *ud_uarch_event(const struct ud_uarch *u, const char *generic);
/*
 * Classes w's counters of class other from u's table (NULL: none): a raw
 * code or a vendor's name the table lists behind a generic name takes that
 * name's class, in the counter's own mode.  Returns how many it classed.
 */
size_t ud_uarch_classify_counters(const struct ud_uarch *u, struct ud_workload *w);
/*
 * The table for a CPU description: cpuinfo_path (NULL: this host's
 * /proc/cpuinfo) parsed and detected.  NULL with err when it cannot be read.
 */
const struct ud_uarch *ud_uarch_detect_file(const struct ud_uarch_db *db, const char *cpuinfo_path,
					    struct ud_err *err);
/* The same (borrowed from db), and *core the known core without a table the CPU is (borrowed from db), or NULL. */
const struct ud_uarch *ud_uarch_identify_file(const struct ud_uarch_db *db, const char *cpuinfo_path,
					      const struct ud_core **core, struct ud_err *err);
/*
 * The general-purpose counters a group plan may use on a host: the table's
 * count, less the one the NMI watchdog holds on x86 when it is on (the
 * planner reads that: measure.h's ud_measure_nmi_watchdog()).
 */
int ud_uarch_usable_counters(const struct ud_uarch *u, bool nmi_watchdog);
/*
 * What a name a person gave (--uarch, --fact cpu.uarch=) stands for, by
 * name or alias, without case or punctuation ("Genoa", "cascade-lake"):
 * the table in force (borrowed from db), which is "generic" for a known
 * core without a table, then *core (when core is not NULL) that core, or
 * NULL.  NULL with err for a name that is neither: "unknown
 * microarchitecture 'genao'; did you mean 'Genoa'? (known: ...)".
 */
const struct ud_uarch *ud_uarch_named(const struct ud_uarch_db *db, const char *name, const struct ud_core **core,
				      struct ud_err *err);
/* The name a host on u, or on core where not NULL, records as cpu.uarch ("zen4", "power9").  Borrowed. */
const char *ud_uarch_id(const struct ud_uarch *u, const struct ud_core *core);
/* Fails, naming path, where two of db's tables and cores share a name or alias (ignoring case and punctuation). */
int ud_uarch_names_check(const struct ud_uarch_db *db, const char *path, struct ud_err *err);

#endif
