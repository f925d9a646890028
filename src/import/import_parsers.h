/*
 * import_parsers.h - the format parsers ud_import_buffer() dispatches to,
 * one file each.  Each appends its workloads to p, or fails with err
 * naming the file and line; ud_import_buffer() removes what a failed parser
 * added.
 */
#ifndef UD_IMPORT_PARSERS_H
#define UD_IMPORT_PARSERS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "error.h"
#include "import.h"
#include "import_lines.h"
#include "profile.h"

/* ud_import_seen: each block's command -> "FILE:LINE" of its header (strings) */
struct ud_import_seen {
	json_t *at;
};

/*
 * The perf stat formats read their lines from l (a buffer's or a streamed
 * file's, import_lines.h), each folded into its block's sums as it is read:
 * an interval file of any length costs the memory of one interval.
 */
int imp_perf_text(struct ud_profile *p, struct lines *l, const char *name, const struct ud_import_opts *o,
		  struct ud_err *err);
int imp_perf_csv(struct ud_profile *p, struct lines *l, const char *name, const struct ud_import_opts *o,
		 struct ud_err *err);
int imp_perf_json(struct ud_profile *p, struct lines *l, const char *name, const struct ud_import_opts *o,
		  struct ud_err *err);
/*
 * perf report --stdio: the first event's table as the hotspots of the
 * workload o->workload names, else of the command with the largest share;
 * an existing workload of that name without hotspots takes them.
 */
int imp_perf_report(struct ud_profile *p, const char *text, size_t len, const char *name,
		       const struct ud_import_opts *o, struct ud_err *err);
/* A log cut short imports what it holds, marks p incomplete and says in warn which tests are missing. */
int imp_unixbench(struct ud_profile *p, const char *text, size_t len, const char *name,
		     struct ud_import_warnings *warn, struct ud_err *err);

/*
 * The kernel test robot's comparison table: o->side's column of each table
 * as a workload, the host facts the mail states where p's host lacks them;
 * no side is refused with what to add.  A table without the CPU count
 * says in warn that its system-wide counts cannot be marked so.
 */
int imp_lkp(struct ud_profile *p, const char *text, size_t len, const char *name, const struct ud_import_opts *o,
	    struct ud_import_warnings *warn, struct ud_err *err);
/*
 * redis-benchmark's -q and full output: one workload a test ("redis-SET"),
 * a test printed again another sample of it (import_redis.c).
 */
int imp_redis(struct ud_profile *p, const char *text, size_t len, const char *name, const struct ud_import_opts *o,
	      struct ud_err *err);
/* Whether text holds a redis-benchmark result line or block. */
bool imp_redis_detect(const char *text, size_t len);
/* wrk's report: one workload ("wrk"), its runs of one target the samples (import_wrk.c). */
int imp_wrk(struct ud_profile *p, const char *text, size_t len, const char *name, const struct ud_import_opts *o,
	    struct ud_err *err);
/* Whether text holds a wrk report ("Running ... test @", "Requests/sec:"). */
bool imp_wrk_detect(const char *text, size_t len);
/*
 * Other vendors' metric summaries (import_foreign.c): Intel PerfSpect 1.x's
 * (metrics,avg,p95,min,max), Arm topdown-tool's metrics CSV and AMD uProf's
 * AMDuProfPcm CSV report (one core's, its intervals averaged), one
 * workload a file; metrics that are SPEC §4's derived metrics under their
 * names, top-down buckets as its top-down record, the rest by their names.
 */
int imp_perfspect(struct ud_profile *p, const char *text, size_t len, const char *name,
		  const struct ud_import_opts *o, struct ud_err *err);
int imp_topdown_tool(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err);
/* A report with intervals whose IPC and CPI were not counted says so in warn (NULL: dropped). */
int imp_uprof_pcm(struct ud_profile *p, const char *text, size_t len, const char *name,
		  const struct ud_import_opts *o, struct ud_import_warnings *warn, struct ud_err *err);
/* Whether text's first line is that tool's header (AMDuProfPcm's: a line among its first lines). */
bool imp_perfspect_detect(const char *text, size_t len);
bool imp_topdown_tool_detect(const char *text, size_t len);
bool imp_uprof_pcm_detect(const char *text, size_t len);
/* Whether text holds a robot table's header line ("%stddev %change %stddev", or its "fail:runs" block's). */
bool imp_lkp_detect(const char *text, size_t len);

#endif
