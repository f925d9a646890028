/*
 * hotspots.h - where a workload's time went, by symbol (SPEC §3.1): the
 * top symbols by samples with an "[other]" row so that the shares sum to 1,
 * and how they were sampled (event, rate, samples, what was lost, whether
 * kernel addresses could be named, the sampled files' build-ids).
 *
 * The sampler (symbols.h) and the perf report importer fill one; the
 * profile's JSON carries it as the workload's "hotspots" and "sampling".
 *
 * Ownership: a struct ud_hotspots owns its strings and arrays; the workload
 * holding it frees it with ud_hotspots_free().
 */
#ifndef UD_HOTSPOTS_H
#define UD_HOTSPOTS_H

#include <stddef.h>

#include "cpu_mode.h"
#include "error.h"
#include "json_doc.h"
#include "json_emit.h"

/*
 * Rows a profile keeps: enough to name every symbol above about 1% in the
 * workloads measured here (the syscall workload's 20th symbol held 0.4%),
 * few enough to read.
 */
#define UD_HOTSPOTS_TOP 20
#define UD_HOTSPOT_OTHER "[other]"
#define UD_HOTSPOT_UNKNOWN "[unknown]"

struct ud_hotspot {
	char *symbol;
	char *dso;           /* the file ("/usr/lib/.../libc.so.6", "[kernel.kallsyms]"); NULL for [other] */
	enum ud_mode mode;   /* UD_MODE_COUNT for [other], which mixes both */
	double share;        /* of all samples */
	double samples;      /* NAN where the source gave only shares */
};

struct ud_sampled_dso {
	char *path;
	char *build_id;      /* hex; NULL when the file has none or could not be read */
};

struct ud_sampling {
	char *event;         /* "cpu-clock", "cycles" */
	double frequency_hz; /* NAN unknown */
	double samples;      /* NAN unknown */
	double lost;         /* records the kernel dropped; NAN unknown */
	double truncated;    /* record streams cut inside a record (a run killed while writing); NAN unknown */
	char *kernel_symbols; /* "kallsyms", or why kernel addresses stay unnamed; NULL unknown */
	struct ud_sampled_dso *dsos;
	size_t ndsos;
};

struct ud_hotspots {
	struct ud_sampling sampling;
	struct ud_hotspot *rows; /* by share, descending; [other] last */
	size_t nrows;
	size_t cap;
};

/* An empty set, sampling numbers NAN; NULL when out of memory.  Caller frees (ud_hotspots_free()). */
struct ud_hotspots *ud_hotspots_new(void);
void ud_hotspots_free(struct ud_hotspots *h);

/* Adds share and samples to the row (symbol, dso, mode), made when new (dso may be NULL); -1 when out of memory. */
int ud_hotspots_add(struct ud_hotspots *h, const char *symbol, const char *dso, enum ud_mode mode, double share,
		    double samples);
/* Records a sampled file and its build-id (may be NULL); -1 when out of memory. */
int ud_hotspots_add_dso(struct ud_hotspots *h, const char *path, const char *build_id);
/*
 * Sorts the rows by share and keeps the top UD_HOTSPOTS_TOP; the rest, and
 * whatever share no row carries (a report cut at a threshold), become one
 * [other] row last, so the shares sum to 1.  -1 when out of memory.
 */
int ud_hotspots_finish(struct ud_hotspots *h);
/* The row with the largest share that is not [other]; NULL when none.  Borrowed from h. */
const struct ud_hotspot *ud_hotspots_top(const struct ud_hotspots *h);

/* Writes the members "hotspots" and "sampling" into the workload object open in jw. */
void ud_hotspots_emit(struct ud_jw *jw, const struct ud_hotspots *h);
/*
 * Reads "hotspots" and "sampling" from the workload object w into *out
 * (NULL when w has neither).  -1 with err (where: "workloads[3]") for a
 * malformed one.
 */
int ud_hotspots_from_doc(struct ud_jv w, const char *where, struct ud_hotspots **out, struct ud_err *err);

#endif
