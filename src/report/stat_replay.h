/*
 * stat_replay.h - `uarchdiff stat record` and `stat report`: the report's
 * views (stat_format.h) kept in the workload's record (stat_record.h) as
 * `stat` prints them, and turned back into the same views, so that the
 * report of a record is the report `stat` printed, by the one formatter.
 *
 * The record is a uarchdiff.profile/1 document (doc/json.md), not perf's
 * perf.data: a perf.data file is refused by its magic with the way to read
 * it (perf stat report).
 */
#ifndef UD_STAT_REPLAY_H
#define UD_STAT_REPLAY_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "profile.h"
#include "stat_format.h"
#include "stat_record.h"

/* A -I interval's view, as printed, appended to r.  -1 with err out of memory. */
int ud_stat_record_keep(struct ud_stat_record *r, const struct ud_stat_view *v, struct ud_err *err);
/*
 * The totals' view (its whole the workload the record belongs to): the
 * units, the aggregates' rows, what the header and footer say, whether it
 * was printed, and the command line that recorded it (NULL: none).  -1
 * with err out of memory.
 */
int ud_stat_record_close(struct ud_stat_record *r, const struct ud_stat_view *totals, bool printed,
			 const char *invocation, struct ud_err *err);

struct ud_stat_replay {
	const char *sep;    /* -x's separator; NULL: text, or JSON lines */
	bool json;          /* -j */
	const char *header; /* the header's words ("'pipe'"); NULL: the recording command line, quoted */
};

/*
 * Prints w's record (w->stat_record, which must be there) as `stat`
 * printed it: the intervals, then the totals where they were printed, then
 * in text the hotspots.  -1 with err out of memory (nothing printed).
 */
int ud_stat_replay_print(FILE *f, const struct ud_workload *w, const struct ud_stat_replay *o, struct ud_err *err);

/*
 * Reads a record from path ("-": standard input, read whole under the
 * profile's size cap): the profile whose first workload holds a record.
 * NULL with err for perf's own perf.data (its "PERFILE2" magic), a file
 * that is no profile, or a profile without a record.  Caller frees with
 * ud_profile_free().
 */
struct ud_profile *ud_stat_record_load(const char *path, struct ud_err *err);

/*
 * Writes p atomically (outfile.h; "-": standard output) and, as perf
 * does with perf.data, first moves a non-empty regular file at path to
 * path.old (replacing that).  -1 with err.
 */
int ud_stat_record_save(const struct ud_profile *p, const char *path, struct ud_err *err);

#endif
