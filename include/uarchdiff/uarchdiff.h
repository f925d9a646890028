/*
 * uarchdiff.h - the public library (libuarchdiff): load and validate
 * profiles, import a perf stat paste or a benchmark log, diff two profiles,
 * compare a fleet, and render the results as text, Markdown, HTML or JSON.
 *
 * The structs are opaque so that the model behind them can change without
 * breaking a program built against this header; only the uarchdiff_*
 * symbols are exported from the shared library (doc/library.md).
 *
 * Ownership, as jansson says it: a function returning "a new reference"
 * gives the caller an object the caller frees with the named function; a
 * "borrowed" pointer belongs to something else and lives as long as it.
 * Every function taking a struct uarchdiff_error * fills it with one line
 * when it fails (NULL there: the message is dropped).  Nothing here prints
 * or exits; a failure is a NULL or -1 return.
 *
 * Data: a diff's CPI stack reads the event tables and every report but JSON
 * reads templates.  Where a function takes data_dir, it is the folder that
 * holds events/ and report-templates/ (an installed PREFIX/share/uarchdiff);
 * NULL looks them up as the uarchdiff binary does: UARCHDIFF_EVENTS_DIR and
 * UARCHDIFF_TEMPLATES_DIR, then ../share/uarchdiff beside the running
 * program, then the source tree the library was built from.
 */
#ifndef UARCHDIFF_H
#define UARCHDIFF_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version; CMake refuses to configure when it differs from project()'s. */
#define UARCHDIFF_VERSION_MAJOR 0
#define UARCHDIFF_VERSION_MINOR 1
#define UARCHDIFF_VERSION_PATCH 0
#define UARCHDIFF_VERSION "0.1.0"

/* The version of the library linked at run time ("0.1.0"); borrowed (static storage). */
const char *uarchdiff_version(void);

/* Why a call failed: one line, NUL-terminated.  The size is part of the ABI. */
#define UARCHDIFF_ERROR_MAX 512
struct uarchdiff_error {
	char text[UARCHDIFF_ERROR_MAX];
};

/* The report formats: text as a terminal shows it (80 columns), Markdown, one HTML file, the JSON document. */
enum uarchdiff_format {
	UARCHDIFF_FORMAT_TEXT,
	UARCHDIFF_FORMAT_JSON,
	UARCHDIFF_FORMAT_MARKDOWN,
	UARCHDIFF_FORMAT_HTML,
};

struct uarchdiff_profile; /* one host's profile (uarchdiff.profile document) */
struct uarchdiff_diff;    /* why a candidate scores differently from a baseline */
struct uarchdiff_fleet;   /* many profiles grouped and compared */

/*
 * Reads and validates the profile at path (every version the binary reads;
 * a paste given where a profile goes is named as such).  Returns a new
 * reference, which the caller frees with uarchdiff_profile_free(); NULL
 * with err.
 */
struct uarchdiff_profile *uarchdiff_profile_load(const char *path, struct uarchdiff_error *err);

/*
 * Imports text (len bytes, need not be NUL-terminated) as `uarchdiff
 * import` does: a perf stat paste (text, CSV or JSON), perf report, a
 * UnixBench log and the others of doc/commands.md (import).  format names
 * one of them as -f does ("perf-text", "unixbench" ...; NULL or "auto":
 * detected); name is the file's name in messages; label names the host
 * (NULL: name).  The host carries no facts but its label: the library does
 * not read the running machine.  Returns a new reference, which the caller
 * frees with uarchdiff_profile_free(); NULL with err.
 */
struct uarchdiff_profile *uarchdiff_profile_import(const char *text, size_t len, const char *name,
						   const char *format, const char *label,
						   struct uarchdiff_error *err);

/* Writes p as its JSON document to out.  0, or -1 with err when out refused it. */
int uarchdiff_profile_write(const struct uarchdiff_profile *p, FILE *out, struct uarchdiff_error *err);

/* The host's label; borrowed from p, valid until p is freed. */
const char *uarchdiff_profile_label(const struct uarchdiff_profile *p);

/* How many workloads p holds. */
size_t uarchdiff_profile_workloads(const struct uarchdiff_profile *p);

/* Frees p; NULL is allowed. */
void uarchdiff_profile_free(struct uarchdiff_profile *p);

/*
 * The diff of candidate against baseline, named baseline_name and
 * candidate_name in the report (their files, usually), with the event
 * tables from data_dir (see above).  The diff borrows both profiles: they
 * must outlive it.  Returns a new reference, which the caller frees with
 * uarchdiff_diff_free(); NULL with err (no workload in common, a zero
 * score, units that differ ...).
 */
struct uarchdiff_diff *uarchdiff_diff_new(const struct uarchdiff_profile *baseline,
					  const struct uarchdiff_profile *candidate, const char *baseline_name,
					  const char *candidate_name, const char *data_dir,
					  struct uarchdiff_error *err);

/* Writes d to out in format f (`uarchdiff diff -f`).  0, or -1 with err. */
int uarchdiff_diff_write(const struct uarchdiff_diff *d, enum uarchdiff_format f, FILE *out,
			 struct uarchdiff_error *err);

/* Frees d; NULL is allowed.  The profiles it borrowed are the caller's still. */
void uarchdiff_diff_free(struct uarchdiff_diff *d);

/*
 * The fleet of the n profile files at paths (at least 2), as `uarchdiff
 * compare` makes it by default: hosts grouped by CPU vendor,
 * microarchitecture and online CPUs, compared with the largest group's
 * median host.  A file that does not load is left out and named in the
 * report.  The paths are copied.  Returns a new reference, which the
 * caller frees with uarchdiff_fleet_free(); NULL with err.
 */
struct uarchdiff_fleet *uarchdiff_fleet_new(const char *const *paths, size_t n, const char *data_dir,
					    struct uarchdiff_error *err);

/* Writes f to out in format fmt (`uarchdiff compare -f`).  0, or -1 with err. */
int uarchdiff_fleet_write(const struct uarchdiff_fleet *f, enum uarchdiff_format fmt, FILE *out,
			  struct uarchdiff_error *err);

/* Frees f; NULL is allowed. */
void uarchdiff_fleet_free(struct uarchdiff_fleet *f);

#ifdef __cplusplus
}
#endif

#endif
