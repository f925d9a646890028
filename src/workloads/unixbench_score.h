/*
 * unixbench_score.h - UnixBench's Run scoring of a program's COUNT line.
 *
 * In one place for the spec workloads (spec_run.c) and the importers (a COUNT
 * line inside a perf paste).
 */
#ifndef UD_UNIXBENCH_SCORE_H
#define UD_UNIXBENCH_SCORE_H

/*
 * The score of COUNT|total|timebase|units run for time_s seconds: a total
 * over the run per timebase seconds, total / (time_s / timebase); timebase
 * 0 means the program printed a rate already (fstime's KBps, whetstone's
 * MWIPS), which is the score.  NAN where no score follows: a total, a
 * timebase that is not a finite number at or above 0, or a timebase above 0
 * without a time above 0 (a total read as a rate would be wrong).
 */
double ud_unixbench_rate(double total, double timebase, double time_s);

#endif
