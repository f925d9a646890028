/*
 * spec.h - external workloads described by spec files (workloads/ *.spec):
 * a program to run, counted from its exec like `stat`, and a pattern that
 * extracts its score from what it prints.  Each spec becomes a workload
 * definition the runner runs like a built-in one, once a sample (the
 * program sets its own duration) instead of calibrated iterations.
 *
 * Format, one `key = value` a line, '#' comments:
 *   name = openssl-sha256          what = "one sentence"
 *   command = openssl speed -seconds 1 sha256     (${UNIXBENCH_DIR} and
 *             ${TMPDIR}, the workload's private directory, are expanded
 *             within each word: a value holding a blank stays one argument)
 *   score = POSIX extended regex; group 1 is the score; the last matching
 *           line counts
 *   units = KBps  or  units_group = 2 (the units from a group of the match)
 *   higher_is_better = yes|no      timeout = seconds
 *   suites = quick,default,full    requires = UNIXBENCH_DIR (an environment
 *           variable that must be set, else the spec is unavailable)
 *   timebase_group = 2   the group holding a timebase, as UnixBench's
 *           COUNT|total|timebase|units: when it is above 0 the value is a
 *           total over the run and the score is value / (elapsed seconds /
 *           timebase), as UnixBench's Run scores it; 0 leaves the value as is
 *   env = UB_BINDIR=${UNIXBENCH_DIR}/pgms ...   variables set for the program
 *
 * Checked at load, so that a bad spec never fails mid-run: name matches
 * [A-Za-z0-9._-]+ and is neither a built-in workload's nor another spec's;
 * a value longer than its field is refused, never cut; at most 64 arguments;
 * the score pattern has a group (units_group names one); timeout is 1 s to
 * 1 day.  The program's stdin is /dev/null; its stdout and stderr are read
 * through a pipe while it runs, at most UD_CAP_PROGRAM_OUTPUT bytes (past
 * them it is killed: nothing it prints lands in a file).  It is found
 * before it runs and executed from its directory, the workload's.
 *
 * Ownership: ud_specs_load() allocates the array; ud_specs_free() releases
 * it.  A spec's `def` points back into the spec, so the array must outlive
 * any use of the definitions.
 */
#ifndef UD_SPEC_H
#define UD_SPEC_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "workload.h"

struct ud_spec {
	char name[64], what[256], units[32], command[1024], pattern[512], requires[64], path[512];
	char env[512];             /* NAME=VALUE ... set for the program, expanded like command */
	int units_group;
	int timebase_group;        /* 0: the score is the value; else the group holding UnixBench's timebase */
	bool higher_is_better;
	double timeout_s;
	unsigned suites;
	regex_t re;
	struct ud_workload_def def;
};

/*
 * One spec from f, named path in messages ("path:line: reason"); 0, or -1
 * with err.  On success s->re is compiled: regfree() it (ud_specs_free does).
 */
int ud_spec_parse(FILE *f, const char *path, struct ud_spec *s, struct ud_err *err);
/* The same from the file at path, read under UD_CAP_SPEC (fileio.h). */
int ud_spec_parse_file(const char *path, struct ud_spec *s, struct ud_err *err);
/* Every *.spec in dir (NULL: $UARCHDIFF_WORKLOADS_DIR, else the build's workloads/). */
int ud_specs_load(const char *dir, struct ud_spec **out, size_t *n, struct ud_err *err);
void ud_specs_free(struct ud_spec *specs, size_t n);

/*
 * Whether the spec can run here: its required variable is set and its
 * command is found.  Fills why (may be NULL) with the reason, prefixed with
 * the spec's name, when not, and binary with the command's resolved path
 * when so.
 */
bool ud_spec_available(const struct ud_spec *s, struct ud_err *why, char *binary, size_t binlen);

/*
 * Extracts the score (and units) from a program's output, elapsed_s being
 * its wall time (for a timebase, see timebase_group); -1 with err when no
 * line matches, or when the last matching line's score is not a number as
 * a whole ("1234,56" is refused, never read as 1234).
 */
int ud_spec_score(const struct ud_spec *s, const char *output, double elapsed_s, double *score, char *units,
		  size_t ulen, struct ud_err *err);

#endif
