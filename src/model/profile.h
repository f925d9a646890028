/*
 * profile.h - the host profile (SPEC §3, schema "uarchdiff.profile/1"): the
 * one currency between the stages.  The runner, `stat` and the importers
 * produce it; the diff consumes it.
 *
 * Missing numbers are NAN in memory and null in JSON; missing strings NULL.
 * A counter carries a value only when its status is UD_COUNTED.  Derived
 * metrics are not stored in the model: they are computed from the counters
 * (derived.h) whenever a profile is written.
 *
 * Ownership: the profile owns everything reachable from it, including the
 * host's facts (host_facts.h), which it takes over.  Pointers returned by the
 * add functions stay valid until the next add on the same parent.
 */
#ifndef UD_PROFILE_H
#define UD_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "count_status.h"
#include "counter_class.h"
#include "cpu_mode.h"
#include "error.h"
#include "host_facts.h"
#include "hotspots.h"
#include "json_doc.h"
#include "json_emit.h"
#include "topdown.h"

#define UD_PROFILE_SCHEMA "uarchdiff.profile/1"

struct ud_stat_record;

struct ud_counter {
	/*
	 * The canonical name (event_id.h's ud_event_id_name()): perf's generic
	 * name where it is one, with the modifiers that change what it counts
	 * ("cycles:u"), a hybrid host's core PMU in front ("cpu_core/cycles");
	 * borrowed: ud_workload_add_counter() keeps one copy of each name for
	 * the process, shared by every counter of that name
	 */
	const char *name;
	/*
	 * What it counts and in which mode (SPEC §5.3); UD_CLASS_COUNT and
	 * UD_COUNTING_COUNT until a producer that knows the host says
	 * (ud_counter_set_identity()), read from the name when asked before
	 */
	enum ud_counter_class cls;
	enum ud_counting mode;
	enum ud_count_status status;
	char *reason;          /* why not counted (NULL if none given) */
	double value;          /* scaled; NAN unless counted */
	double raw_value;      /* as read; NAN when unknown */
	double enabled_ns;     /* NAN when unknown */
	double running_ns;
	double running_pct;    /* 100 x running/enabled where only the share is known (imports); NAN otherwise */
	/*
	 * perf stat -r N's "( +- 0.12% )" as a fraction: the standard error of
	 * the mean over the N runs relative to the mean (perf's stddev_stats()
	 * is sqrt(variance / n), rel_stddev_stats() 100 x that / mean), not the
	 * runs' own spread; NAN for one run.
	 */
	double rel_stddev;
	char *vendor_event;    /* what stands behind the generic name */
	char *semantics;       /* "retired", "speculative" */
	char *opened_as;       /* "libpfm4", "raw", "generic" */
	int group;             /* counter group; -1 = none */
	char *cgroup;          /* perf stat -G, --for-each-cgroup: counted only in this cgroup; NULL for none */
};

struct ud_score {
	double median, min, max, ci95_rel; /* NAN when absent; median NAN = no score; ci95_rel: of the median (stats.h) */
	double *samples;
	size_t nsamples;
	/*
	 * A score given as a summary rather than samples (an imported block's
	 * mean elapsed time over perf stat -r N): its standard error relative
	 * to it, a fraction, and the N runs behind it.  NAN and 0 when the
	 * samples are the measurement (the diff computes from them).
	 */
	double rel_stderr;
	int runs;
};

/*
 * The perf command line a paste showed above its block ("$ perf stat
 * --all-user -e cycles ./x"), and what it asked for that the block does not
 * print.  line NULL: none shown, and every flag false.
 */
struct ud_perf_command {
	char *line;            /* from "perf" on, as pasted */
	bool all_user;         /* --all-user: every counter counted user mode only (its name then carries :u) */
	bool all_kernel;       /* --all-kernel: kernel mode only (:k) */
	bool system_wide;      /* -a / --all-cpus: every CPU was counted, not the command alone */
};

struct ud_subscore {
	char *name;
	double value;
	char *units;
};

/* A metric perf computed and printed itself (tma_backend_bound 63.2, in percent): kept as printed. */
struct ud_perf_metric {
	char *name;
	double value;          /* NAN where perf printed the name without a value */
};

/*
 * How noisy the host was while a workload was measured (SPEC §3.1 "noise"),
 * and the warnings that follow from it (noise.h).  NAN where unknown.
 */
struct ud_noise {
	double cpus_utilized_min; /* the lowest of its samples' CPUs utilized */
	double steal_pct;         /* the host's steal time over its samples, % of all CPU time */
	double load_avg;          /* the highest 1-minute load average seen at its samples */
	double ci95_rel;          /* its score's interval (the median's) */
	int samples_taken;
	/* adaptive rounds stopped at its time limit (noise.h); in memory only, the document says it in warnings */
	bool budget_ran_out;
	char **warnings;          /* owned strings */
	size_t nwarnings;
};

/*
 * What a `stat` count covered (SPEC §5.2 "target"): a command counted from
 * its exec, or CPUs or running tasks, whose counts hold other work than
 * one workload's (system-wide, cpus) or miss part of it (pid, tid).
 */
enum ud_target_kind { UD_TARGET_COMMAND, UD_TARGET_SYSTEM_WIDE, UD_TARGET_CPUS, UD_TARGET_PID, UD_TARGET_TID };

struct ud_target {
	enum ud_target_kind kind;
	int *ids;    /* the CPUs (system-wide, cpus) or the process or thread ids (pid, tid); NULL for a command */
	size_t nids;
};

struct ud_workload {
	char *name;
	char *units;
	int higher_is_better;  /* 1, 0, or -1 unknown */
	char *command;         /* the counted command line, for `stat` and imports */
	struct ud_perf_command perf_command; /* imports: the perf invocation pasted with the block */
	char *binary_path;     /* the external program run, where there is one */
	char *build_id;        /* its ELF build-id (hex), to tell whether two hosts ran the same binary */
	int runs;              /* repetitions behind the counts; 0 unknown */
	/*
	 * Where runs is unknown: the fewest the source implies (2 where perf
	 * printed "+-" without the "(N runs)" header); 0 none implied
	 */
	int runs_at_least;
	bool composite;        /* a score computed from the others (UnixBench's index score), not a measurement */
	char *outcome;         /* "ok", or what stopped it ("crashed: signal 11 ..."); NULL unknown */
	struct ud_score score;
	struct ud_subscore *subscores; /* named partial results beside the score */
	size_t nsubscores;
	double work_units, elapsed_ns, user_ns, sys_ns; /* NAN when unknown */
	/* perf stat -r N's "+-" on the elapsed time relative to its mean (rel_stddev's kind); NAN for one run */
	double elapsed_rel_stddev;
	struct ud_counter *counters;
	size_t ncounters;
	struct ud_perf_metric *perf_metrics; /* SPEC §3.1 "perf_metrics"; written only when there are some */
	size_t nperf_metrics;
	struct ud_noise *noise;  /* SPEC §3.1 "noise"; NULL when not measured (imports) */
	struct ud_hotspots *hotspots; /* SPEC §3.1 "hotspots" and "sampling"; NULL when not sampled */
	struct ud_topdown *topdown; /* SPEC §5.2 "topdown": one record, or one per core type of a hybrid host */
	size_t ntopdown;
	struct ud_target *target; /* SPEC §5.2 "target"; NULL when not recorded (run, imports): the workload's own */
	struct ud_stat_record *stat_record; /* `stat record`'s report, to print again (stat_record.h); NULL otherwise */
};

struct ud_profile {
	struct ud_host *host;  /* never NULL */
	char *tool_version;    /* who wrote it */
	int incomplete;        /* the run was stopped before every workload ran */
	struct ud_workload *workloads;
	size_t nworkloads;
};

/*
 * Takes over host (NULL: every fact unknown); NULL when out of memory, host
 * then freed.  Caller frees (ud_profile_free()).
 */
struct ud_profile *ud_profile_new(struct ud_host *host);
void ud_profile_free(struct ud_profile *p);

/* A new workload owned by p (valid until the next add), NULL when out of memory. */
struct ud_workload *ud_profile_add_workload(struct ud_profile *p, const char *name);

/*
 * The longest names taken in, in bytes, as a host label has its own
 * (UD_LABEL_MAX): a workload's or an event's name is repeated in nearly
 * every sentence of a report, so one of megabytes makes reports of
 * gigabytes.  One cap for every name, 16 KiB as a host label's: perf's
 * longest event spellings (a PMU prefix, a dozen terms and modifiers:
 * "cpu_core/event=0xd1,umask=0x20,cmask=1,inv,edge,name=.../ukpp") reach
 * about 250 bytes, 64 times less; a workload name is often a whole
 * command line (perf's "Performance counter stats for 'CMD'"), and one of
 * many paths is long, and a longer one can be named (import --workload
 * NAME).  A longer name is refused where it comes in
 * (import, a profile read), never cut: a cut name could name another.
 */
#define UD_WORKLOAD_NAME_MAX 16384
#define UD_COUNTER_NAME_MAX 16384

/*
 * What a counter's semantics and opened_as may say (NULL-terminated): the
 * event tables' and the resolver's words, and schemas/profile.schema.json's
 * enums; the reader keeps no other (tests/test_schemas.c holds them equal).
 */
extern const char *const ud_counter_semantics_words[];
extern const char *const ud_counter_opened_as_words[];

/*
 * 0, or -1 with err naming the first name over its cap among p's workloads
 * from index from on (a workload's, a sub-score's: UD_WORKLOAD_NAME_MAX; a
 * counter's, a perf metric's: UD_COUNTER_NAME_MAX): "workloads[2].counters:
 * an event name of 5000 bytes: ...".  *name (may be NULL) is set to it,
 * borrowed from p, so that an importer can say on which line it came.
 */
int ud_profile_check_names(const struct ud_profile *p, size_t from, const char **name, struct ud_err *err);
/*
 * A workload outside a profile's list (stat_record.h's rows): w set up as
 * ud_profile_add_workload() sets one up, 0 or -1 out of memory; what it
 * owns is freed with the profile's stat records (stat_record.h).
 */
int ud_workload_init(struct ud_workload *w, const char *name);
struct ud_counter *ud_workload_add_counter(struct ud_workload *w, const char *name);
int ud_workload_add_subscore(struct ud_workload *w, const char *name, double value, const char *units);
/*
 * Appends perf's metric name = value.  The caller keeps the names unique (an
 * import block keeps the last value of each, a profile's JSON object cannot
 * repeat a key): checking here cost a scan of every metric per metric.
 */
int ud_workload_add_perf_metric(struct ud_workload *w, const char *name, double value);
/* The value of the perf metric called name (as kept: "ghz", "cpi", "tma_retiring"), NAN where w has none. */
double ud_workload_perf_metric(const struct ud_workload *w, const char *name);
/*
 * Appends a top-down record of method m from source s for the core PMU pmu
 * ("" or NULL: the whole host; a hybrid host's records name theirs), or
 * NULL when out of memory.  Borrowed: valid until the next add.
 */
struct ud_topdown *ud_workload_add_topdown(struct ud_workload *w, enum ud_topdown_method m,
					   enum ud_topdown_source s, const char *pmu);
/* The workload's noise record, made (all unknown, no warnings) on first use; NULL when out of memory. */
struct ud_noise *ud_workload_noise(struct ud_workload *w);
int ud_noise_add_warning(struct ud_noise *n, const char *text);
/* n with every figure unknown (NAN) and no warnings. */
void ud_noise_init(struct ud_noise *n);
/* Frees n's warnings (n itself is the caller's) and leaves none. */
void ud_noise_clear(struct ud_noise *n);
/*
 * Records what w's counts covered, the ids copied (none for a command).
 * Returns the workload's target (owned by it), or NULL out of memory.
 */
struct ud_target *ud_workload_set_target(struct ud_workload *w, enum ud_target_kind kind, const int *ids, size_t n);
/* "command", "system-wide", "cpus", "pid", "tid"; and back (0, or -1 for another word). */
const char *ud_target_kind_name(enum ud_target_kind kind);
int ud_target_kind_parse(const char *s, enum ud_target_kind *kind);
/*
 * Whether w's counts are its own work, whole: no target recorded, or a
 * command counted from its exec.  A system-wide or CPU count holds other
 * tasks' work, an attached one misses what ran before it: neither is one
 * workload's path length (the diff's to say).
 */
bool ud_workload_counts_own_work(const struct ud_workload *w);
/* Whether w counted a hardware event: any counter of a core PMU's class, in any mode. */
bool ud_workload_counted_hardware(const struct ud_workload *w);
/* Removes and frees the last workload (an importer undoing a failed file). */
void ud_profile_drop_last_workload(struct ud_profile *p);
const struct ud_counter *ud_workload_counter(const struct ud_workload *w, const char *name);
/* Sets what c counts and in which mode, as a producer that knows the host read it. */
void ud_counter_set_identity(struct ud_counter *c, enum ud_counter_class cls, enum ud_counting mode);
/* What c counts: as set, else read from its name (any host: perf's generic names and the vendors' tables). */
enum ud_counter_class ud_counter_class_of(const struct ud_counter *c);
/* c's counting mode: as set, else read from its name's modifiers. */
enum ud_counting ud_counter_mode_of(const struct ud_counter *c);
/*
 * Whether c is one core type's on a hybrid host ("cpu_core/cycles"): the
 * host's totals leave it out, as IPC never mixes core types.
 */
bool ud_counter_is_per_pmu(const struct ud_counter *c);
/* 100 x running/enabled from the times, or the stored share; NAN when unknown. */
double ud_counter_running_pct(const struct ud_counter *c);
/* The counter's value when counted, else NAN. */
double ud_workload_value(const struct ud_workload *w, const char *name);

/*
 * The count of class cls in counting mode m: a counted counter of that
 * class and mode (the first, in w's order), or for UD_COUNTING_ALL the sum
 * of a user-mode and a kernel-mode one where no counter counted all modes
 * (perf without privilege prints cycles:u beside cycles:k); NAN where none.
 * A hybrid host's per-core-type counters are not the whole's
 * (ud_counter_is_per_pmu()).
 */
double ud_workload_class_value(const struct ud_workload *w, enum ud_counter_class cls, enum ud_counting m);
/*
 * The counting domain of w's cycles and instructions: the first of all,
 * user, kernel, host and guest in which both were counted; else the first
 * in which one of them was; UD_COUNTING_COUNT where neither was counted.
 * Everything derived from cycles and instructions (IPC, path length, the
 * clock) lives in this domain: an --all-kernel paste's IPC is the kernel's.
 */
enum ud_counting ud_workload_domain(const struct ud_workload *w);
/*
 * w's task-clock counter, whatever modifiers it was opened with
 * (task-clock:u at perf_event_paranoid 2): a clock adds up time in every
 * mode (kernel/events/core.c's task_clock_event_update()), so its name's
 * modifiers change nothing.  NULL where w has none; borrowed.
 */
const struct ud_counter *ud_workload_task_clock(const struct ud_workload *w);
/* Its value when counted (ns), else NAN. */
double ud_workload_task_clock_ns(const struct ud_workload *w);
/* ud_workload_class_value() in w's domain (NAN where w has none). */
double ud_workload_domain_value(const struct ud_workload *w, enum ud_counter_class cls);

/*
 * Why p has no hardware counts, when it holds counters but none of a core
 * PMU's counted, in any class and mode (a host without a PMU, or one that
 * refused every hardware event): the host's pmu_reason without its "no hardware PMU on
 * this host: " lead, else the first refusal's ("cycles: perf printed <not
 * supported>"), else a sentence, written into buf and returned.  NULL when
 * p counted a hardware event (cycles:k alone, a raw code, PM_RUN_CYC) or holds no counter at all (a score-only
 * import, which says so itself).  Borrowed from p.
 */
#define UD_NO_PMU_REASON_MAX 512
const char *ud_profile_no_pmu_reason(const struct ud_profile *p, char *buf, size_t len);
/*
 * The one banner run, diff, compare and teach print when hardware counts
 * are missing: "no hardware PMU WHERE: times and software counters only,
 * because REASON; to count cycles and misses: ...", as long as WHERE's host
 * labels make it.  Caller owns (free()); NULL when out of memory.
 */
char *ud_pmu_banner(const char *where, const char *reason);
/* Copies samples and fills median, min, max and ci95_rel from them. */
int ud_score_set_samples(struct ud_score *s, const double *samples, size_t n);

/*
 * The JSON form, as ud_profile_dump() writes it, as the document of jw (one
 * writer, json_emit.h: text streamed to a file, or a tree).  On a hybrid
 * host (host.core_pmus, e.g. ["cpu_core", "cpu_atom"]) a workload's
 * counters named "PMU/event" also get "derived_per_pmu": {PMU: {derived
 * metrics of that core type's counters alone}}, so IPC never mixes core
 * types.  The caller finishes jw (ud_jw_finish(): a tree writer hands
 * over the tree, a text writer reports whether every write went through).
 */
void ud_profile_emit(struct ud_jw *jw, const struct ud_profile *p);
/*
 * A noise record as SPEC §3.1's "noise" object (unknown figures null), as
 * profiles and teach labs carry it, written as member key of what is open
 * in jw (json_emit.h).
 */
void ud_noise_emit(struct ud_jw *jw, const char *key, const struct ud_noise *n);
/*
 * Reads the JSON form in text[0..len) (json_doc.h's reader: no jansson tree
 * but the host's), every field checked; name prefixes error messages,
 * "name:line:column: reason" for malformed JSON.
 * Caller frees (ud_profile_free()).
 */
struct ud_profile *ud_profile_parse(const char *text, size_t len, const char *name, struct ud_err *err);

/* Writes atomically (outfile.h); "-" is stdout. */
int ud_profile_save(const struct ud_profile *p, const char *path, struct ud_err *err);
/* Where ud_profile_save_somewhere() put a profile. */
struct ud_profile_saved {
	const char *path;     /* the file written: the one asked for (borrowed) or fallback; NULL: none */
	char fallback[4200];  /* the TMPDIR file tried when the one asked for failed */
	struct ud_err err;    /* why the one asked for failed; "" when it did not */
	struct ud_err why;    /* why the fallback failed too */
};
/*
 * Saves p at path (ud_profile_save_new() where fresh), and where that fails
 * (a full disk, a file-size limit, a folder gone) in a new file of TMPDIR,
 * else /tmp: uarchdiff-profile-XXXXXX.json, so that a long measurement is
 * not lost to its output.  0 when path took it, 1 when the fallback did,
 * -1 when neither did; s says where and why (its path points at path or
 * into s).
 */
int ud_profile_save_somewhere(const struct ud_profile *p, const char *path, bool fresh, struct ud_profile_saved *s);
int ud_profile_dump(const struct ud_profile *p, FILE *f);
/*
 * run's default name for the profile of host: HOSTNAME-YYYYMMDD-HHMMSS.json
 * (the hostname made safe as a file name: "host" where there is none), or
 * with -2, -3 ... where that file exists, so that a default name replaces
 * nothing.  Caller frees; NULL when out of memory.
 */
char *ud_profile_default_path(const struct ud_host *host);
/* ud_profile_parse() of the file at path, read under the profile's size cap (fileio.h). */
struct ud_profile *ud_profile_load(const char *path, struct ud_err *err);
/*
 * Loads paths[0..n) into out[0..n), on as many threads as there are CPUs
 * (parsing dominates a diff of large profiles).  0 with every profile
 * loaded, the caller freeing each; or -1 with err from the first path in
 * order that failed, and every out[i] NULL (nothing to free).
 */
int ud_profile_load_all(char *const *paths, size_t n, struct ud_profile **out, struct ud_err *err);
/*
 * The same, keeping every profile that loads: out[i] is the profile (the
 * caller frees it) or NULL with errs[i] saying why, so that one bad file
 * among many can be left out by name.  Returns how many failed.
 */
long ud_profile_load_each(char *const *paths, size_t n, struct ud_profile **out, struct ud_err *errs);

/*
 * Called once per path with its profile, which the callback owns (it frees
 * it or keeps it), or with NULL and why it did not load; calls come one at
 * a time, in no set order (i says which path).  0 to go on, -1 to stop.
 */
typedef int (*ud_profile_fold_fn)(void *ctx, size_t i, struct ud_profile *p, const struct ud_err *err);
/*
 * Loads paths[0..n) on as many threads as there are CPUs and hands each
 * profile to fold as soon as it is parsed, so that a caller that keeps a
 * digest of each holds one profile per thread at a time, not n.  0, or -1
 * when a fold returned -1 (paths not yet taken are then not loaded).
 */
int ud_profile_load_fold(char *const *paths, size_t n, ud_profile_fold_fn fold, void *ctx);

#endif
