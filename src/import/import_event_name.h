/*
 * import_event_name.h - the name a counter of a perf paste gets in the
 * profile.
 */
#ifndef UD_IMPORT_EVENT_NAME_H
#define UD_IMPORT_EVENT_NAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The profile's name for a counter perf printed as in (event_id.h's
 * canonical name): perf's generic name where it is one, whatever the
 * spelling (cpu-cycles, apple_firestorm_pmu/cycles/u -> cycles:u,
 * armv8_pmuv3_0/cpu_cycles/), with the modifiers that change what is
 * counted (:u, :k, :H or :G alone) and without those that do not
 * (:ppp, host and guest together); terms and raw codes as printed, a
 * vendor's name as printed.  The core PMU is dropped (imp_core_pmu_of()
 * keeps it apart).  Writes into out.
 */
void imp_normalize_event(const char *in, char *out, size_t len);
/*
 * imp_normalize_event()'s name in a new string of its own length (the
 * caller frees it; NULL when out of memory), so that two long names that
 * differ only at their ends stay two counters.  A spelling too long for the
 * event grammar's fields (event_id.h's UD_EVENT_ID_EVENT) is kept as
 * printed: no generic or vendor name, the only ones normalising renames,
 * is that long, and cut it would merge with another.
 */
char *imp_event_name_new(const char *in);

/*
 * The core PMU an event was printed under (cpu_core/cycles/ -> "cpu_core",
 * armv8_cortex_a76/cpu_cycles/ -> "armv8_cortex_a76"), into pmu; false for
 * none or a PMU that is not a core's (msr/tsc/, uncore_imc/...).  Two
 * such PMUs in one block are a hybrid CPU's two core types.
 */
bool imp_core_pmu_of(const char *in, char *pmu, size_t len);

/*
 * The core PMU a metric group's label names on a hybrid CPU ("TopdownL1
 * (cpu_core)" -> "cpu_core"), into pmu; false when it names none.
 */
bool imp_group_pmu_of(const char *label, char *pmu, size_t len);

/* task-clock and cpu-clock, which perf prints in milliseconds even where it names no unit (old perf). */
bool imp_is_clock_event(const char *in);

/*
 * The profile name of a counter counted under perf stat --all-user (mode
 * 'u') or --all-kernel ('k'), into out: perf sets exclude_kernel or
 * exclude_user on every counter after naming it, overriding the modifiers
 * typed, so the printed name does not say it; here the name does
 * ("cycles" -> "cycles:u", "cycles:kpp" -> "cycles:upp").  Clocks keep
 * their name, as they count time in every mode.  False (out untouched)
 * where the name stays as it is.
 */
bool imp_counting_mode_name(const char *name, char mode, char *out, size_t len);

/*
 * The metric perf names in a metric unit field ("%  tma_backend_bound" ->
 * "tma_backend_bound") of the len bytes at unit, whole, into *name: a
 * new string the caller frees (1).  A name is one identifier with an
 * underscore after an optional unit; with any_text the whole text names it
 * ("insn per cycle"), as on perf's metric-only rows; perf's "GHz" beside
 * cycles is "ghz".  0 (*name NULL) when the text names no metric (perf's
 * other comments on a counter: "insn per cycle", "of all branches"), -1
 * out of memory.
 */
int imp_metric_name_new(const char *unit, size_t len, bool any_text, char **name);

#endif
