/*
 * stat_format.h - `uarchdiff stat` output in perf stat's layouts.
 *
 * Both take a workload as `stat` builds it: mean counter values with their
 * relative spread, elapsed/user/sys means, the command line, and as score
 * the elapsed seconds of every run.  Counters not counted are listed with
 * their reasons under the table in the text form, since perf's bare
 * "<not supported>" leaves a user guessing.
 */
#ifndef UD_STAT_FORMAT_H
#define UD_STAT_FORMAT_H

#include <stdio.h>

#include "profile.h"

void ud_stat_print_text(FILE *f, const struct ud_workload *w);
/* perf stat -x SEP: value,unit,event[,variance],run_time,pct_running,metric,metric_unit */
void ud_stat_print_csv(FILE *f, const struct ud_workload *w, const char *sep);

#endif
