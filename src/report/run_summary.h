/*
 * run_summary.h - what `run` prints once a suite is measured: the summary
 * table (score, units, interval, samples, the counter columns some
 * workload has a value for, the outcome), one line a noisy workload under
 * the legend of its causes, and with --hotspots each workload's top symbol.
 *
 * Written to the stream it is given, as report.h's views are; banners and
 * the legend fit width columns (text.h ud_text_fit()).  Names, units and
 * symbols are input: shown, never obeyed by the terminal.
 */
#ifndef UD_RUN_SUMMARY_H
#define UD_RUN_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "profile.h"

/*
 * Whether a workload's noise line checks its CPUs utilized: a workload that
 * keeps one CPU busy, as the registry (the Linux part) says.
 */
typedef bool (*ud_keeps_one_cpu_fn)(const char *workload);

/* The no-PMU banner where hardware counts are missing, the table and the noise lines of p. */
void ud_run_summary_print(FILE *f, const struct ud_profile *p, size_t width, ud_keeps_one_cpu_fn one_cpu);
/* With --hotspots: where each workload spent most of its time; nothing where none was sampled. */
void ud_run_top_symbols_print(FILE *f, const struct ud_profile *p);

#endif
