/*
 * unixbench_score.c - UnixBench's Run scoring of a COUNT line
 * (unixbench_score.h), as its combinePassResults sub does
 * (github.com/kdlucas/byte-unixbench, UnixBench/Run):
 *
 *     if ($timebase > 0 && $time > 0) { $sum += $count / ($time / $timebase); }
 *     else { $sum += $count; }
 *
 * with $time the program's own TIME| line where it printed one, else the
 * pass's elapsed time.  Run always has a time it measured; a paste may not,
 * and there the total is no score rather than Run's fallback to the count.
 */
#include <math.h>

#include "unixbench_score.h"

double ud_unixbench_rate(double total, double timebase, double time_s)
{
	if (!isfinite(total) || !isfinite(timebase) || timebase < 0)
		return NAN;
	if (timebase == 0)
		return total;
	return time_s > 0 && isfinite(time_s) ? total / (time_s / timebase) : NAN;
}
