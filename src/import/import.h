/*
 * import.h - turning `perf stat` output (text, -x CSV, -j JSON), UnixBench
 * logs, the kernel test robot's comparison tables, and the server
 * benchmarks' reports (redis-benchmark, wrk) and other vendors' metric
 * summaries (Intel PerfSpect, Arm topdown-tool, AMD uProf's AMDuProfPcm) into profile workloads (SPEC §1 import, §3).
 *
 * Values are the numbers the source printed, exactly (parsed as decimals,
 * not through a float round trip); what the source did not give stays null.
 * A file that is not one of these formats, is empty, binary, truncated, or
 * holds a number too large for a 64-bit counter fails with one message naming
 * the file and line, and nothing is added to the profile.
 *
 * A perf stat paste over IMP_LINES_WINDOW (4 MiB) is streamed, its rows
 * folded into sums as they are read, so its memory does not grow with it;
 * other files are read whole (fileio.h).  One over UD_CAP_IMPORT is refused
 * with one line (a year of `perf stat -I 1000` text is well under it).
 */
#ifndef UD_IMPORT_H
#define UD_IMPORT_H

#include <stddef.h>

#include "error.h"
#include "profile.h"

enum ud_import_format {
	UD_FMT_AUTO,
	UD_FMT_PERF_TEXT,
	UD_FMT_PERF_CSV,
	UD_FMT_PERF_JSON,
	UD_FMT_UNIXBENCH,
	UD_FMT_PERF_REPORT,
	UD_FMT_LKP,
	UD_FMT_REDIS,
	UD_FMT_WRK,
	UD_FMT_PERFSPECT,
	UD_FMT_TOPDOWN_TOOL,
	UD_FMT_UPROF_PCM,
};

/*
 * Which side of a two-sided table one import takes: the kernel test
 * robot's comparison holds a parent commit (base) and a commit (head), and
 * a profile is one host state, so each side is imported on its own.
 */
enum ud_import_side { UD_IMPORT_SIDE_NONE, UD_IMPORT_SIDE_BASE, UD_IMPORT_SIDE_HEAD };

struct ud_import_opts {
	enum ud_import_format format;
	const char *workload;   /* name for the workload; NULL: the command perf names, else the file's */
	double *scores;         /* --score's values, the workload's score samples; NULL none (ud_import_scores_parse) */
	size_t nscores;
	const char *score_units; /* may be NULL */
	enum ud_import_side side; /* --side: the robot table's column to take; UD_IMPORT_SIDE_NONE for every other format */
	/*
	 * --runs N: the runs behind a block whose source does not print them (a
	 * "+-" under a cut header); 0 none stated.  A count the block prints wins.
	 */
	int runs;
	/*
	 * The blocks read so far in one import of several files
	 * (ud_import_seen_new()), so that a workload counted in two of them is
	 * refused naming both places; NULL: each file is checked on its own.
	 */
	struct ud_import_seen *seen;
};

/*
 * Where each perf stat block's command was read ("FILE:LINE"), across the
 * files of one import: two blocks of one command are two measurements of
 * one workload (two hosts' pastes, or runs counted apart), which one
 * profile cannot hold as one workload.  Returns a new set the caller frees
 * with ud_import_seen_free(); NULL when out of memory.
 */
struct ud_import_seen *ud_import_seen_new(void);
void ud_import_seen_free(struct ud_import_seen *s);

/* "base" or "head" (0), or -1 for another word. */
int ud_import_side_parse(const char *name, enum ud_import_side *out);

/*
 * --score's "V1,V2,...[:UNITS]" (one value as well): positive finite
 * numbers separated by commas, into o->scores (a new array, the caller
 * frees it), o->nscores and o->score_units (borrowed: it points into arg).
 * -1 with err, o untouched, for an empty list or item, an item that is not
 * a positive number, or an empty unit after the colon.
 */
int ud_import_scores_parse(const char *arg, struct ud_import_opts *o, struct ud_err *err);

/*
 * What an import noticed and did not fail on (a UnixBench log cut short:
 * which tests are missing), one line each, already prefixed with the file
 * and line, for the caller to print; the library never prints.
 */
struct ud_import_warnings {
	char **lines;
	size_t n;
};

void ud_import_warnings_free(struct ud_import_warnings *w);

int ud_import_format_parse(const char *name, enum ud_import_format *out);
/* What text looks like (never UD_FMT_AUTO; UD_FMT_PERF_TEXT when unsure). */
enum ud_import_format ud_import_detect(const char *text, size_t len);

/*
 * Parses text (len bytes, need not be NUL-terminated) named name in error
 * messages and appends its workloads to p.  On error p is left as it was.
 */
int ud_import_buffer(struct ud_profile *p, const char *text, size_t len, const char *name,
		     const struct ud_import_opts *o, struct ud_err *err);
int ud_import_file(struct ud_profile *p, const char *path, const struct ud_import_opts *o, struct ud_err *err);
/*
 * path did not load as a profile, for the reason in err.  Where it imports
 * (a perf stat paste, a UnixBench log ...), err becomes what the file is and
 * the command that makes a profile of it: a paste given where a profile
 * goes is the likeliest mistake, and the JSON parser's "1:2: invalid token"
 * says nothing of it.  Returns 1 when it rewrote err, 0 when it left it.
 */
int ud_import_explain_not_profile(const char *path, struct ud_err *err);
/*
 * One line of what an import of path added to p (its workloads [first,
 * end)): workloads, counters by status, runs, counted modes, and whether
 * the core is known.  Caller frees; NULL when out of memory.
 */
char *ud_import_summary(const struct ud_profile *p, size_t first, size_t end, const char *path);
/* ud_profile_load_all(), with err explained as above for the path that failed. */
int ud_import_load_profiles(char *const *paths, size_t n, struct ud_profile **out, struct ud_err *err);
/*
 * After the files: the counters no name classed (raw codes, vendors'
 * names), classed from the event table of the host's cpu.uarch where there
 * is one (uarch.h, ud_uarch_classify_counters()).  Returns how many; 0
 * where the host names no table or the tables cannot be read.
 */
int ud_import_classify_by_table(struct ud_profile *p);
/* The same, appending warnings to *warn (NULL: dropped).  On error nothing is appended. */
int ud_import_buffer_warn(struct ud_profile *p, const char *text, size_t len, const char *name,
			  const struct ud_import_opts *o, struct ud_import_warnings *warn, struct ud_err *err);
int ud_import_file_warn(struct ud_profile *p, const char *path, const struct ud_import_opts *o,
			struct ud_import_warnings *warn, struct ud_err *err);

#endif
