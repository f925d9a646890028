/*
 * compare.h - more than two profiles in one view (SPEC §5.1, `compare`).
 *
 * Every profile is diffed against the first (the baseline) with
 * ud_diff_build(), and the diffs are read into one table: a row per
 * workload (the baseline's in its order, then those only later profiles
 * hold, in the order they first appear), a column per profile, the cell the
 * speedup of that profile over the baseline.  Each profile's geometric mean
 * is its diff's summary.geomean_speedup, so composite scores (UnixBench's
 * index) stay out of it as they do in a diff; their rows are marked.
 *
 * Typed in the middle, JSON at the edge: ud_compare_build() computes the
 * model, compare_json.c writes the uarchdiff.compare/1 document from
 * it, with the hosts grouped by what their CPUs share (vendor and
 * microarchitecture, so instruction set), each group with the host facts
 * every candidate in it differs from the baseline in.  A number that cannot be computed (a host lacking a workload, a
 * workload the baseline lacks, no score) is NAN in the model and null in the
 * document.
 *
 * Ownership: a struct ud_compare owns its arrays and its diffs and is
 * released with ud_compare_free().  It borrows its input: the profiles, the
 * paths and the microarchitecture database must outlive it (labels and
 * workload names point into the profiles), as for a diff.
 */
#ifndef UD_COMPARE_H
#define UD_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "diff.h"
#include "error.h"
#include "profile.h"
#include "uarch.h"

#define UD_COMPARE_SCHEMA "uarchdiff.compare/1"

struct ud_compare_input {
	const struct ud_profile *const *profiles; /* n profiles; [0] is the baseline; a candidate's NULL: it did not load */
	const char *const *paths;                 /* their files, as the user named them */
	size_t n;                                 /* at least 2 */
	const struct ud_uarch_db *db;             /* penalties for the diffs' CPI stacks; may be NULL */
	const struct ud_err *load_errors;         /* n of them: why each NULL candidate did not load; NULL if none is */
};

struct ud_compare_host {
	const struct ud_profile *profile; /* borrowed */
	const char *label;                /* host.label, else the path; borrowed */
	const char *path;                 /* borrowed */
	double geomean;                   /* over its diff's workloads, composites out; 1 for the baseline; NAN when none */
	size_t ngeomean;                  /* the workloads behind it; for the baseline, its workloads less composites */
	size_t group;                     /* its environment group, an index into groups */
};

struct ud_compare_row {
	const char *workload; /* borrowed from the first profile that holds it */
	bool composite;       /* a composite score on some host: not in the geomeans */
	double *speedup;      /* nhosts values, into the compare's storage: [0] is 1 where the baseline
			       * holds the workload, [k] host k over the baseline, NAN where unknown */
	int *significant;     /* nhosts verdicts beside them (diff.h's significance: 1, 0, -1 unknown) */
};

/*
 * Hosts whose CPUs share a vendor and a microarchitecture (and so an
 * instruction set), in order of their first host; a host whose facts say
 * nothing of its CPU is a group of its own: it shares nothing known.
 * A group names what its hosts share and lists the host facts every
 * candidate in it differs from the baseline in, with the same values (the
 * same kernel, the same mitigations ...), so a reader sees which
 * differences go with which speedups.
 */
struct ud_compare_group {
	size_t *hosts;              /* owned: indices into hosts, in order */
	size_t nhosts;
	char name[96];              /* "zen4", "AuthenticAMD, microarchitecture unknown", "CPU unknown" */
	const char *vendor, *uarch; /* borrowed from the first member's facts; NULL where they do not say */
	/*
	 * Owned array of entries borrowed from the first candidate's diff:
	 * the facts every candidate in the group differs from the baseline in.
	 */
	const struct ud_env_entry **env;
	size_t nenv;
	double geomean;             /* the geometric mean of the candidates' geomeans (the baseline's 1 only alone); NAN when none */
	double min, max;            /* the members' smallest and largest geomean */
};

/*
 * A candidate left out: its file did not load, or its pair with the
 * baseline could not be diffed (no workload in common ...).
 */
struct ud_compare_skip {
	const char *path;     /* borrowed */
	struct ud_err reason; /* the loader's or the diff's, as it would have failed alone */
};

struct ud_compare {
	struct ud_compare_host *hosts; /* owned array; [0] is the baseline, then the candidates compared */
	size_t nhosts;
	struct ud_diff **diffs;        /* owned: nhosts - 1 diffs, diffs[k - 1] is hosts[0] vs hosts[k] */
	struct ud_compare_row *rows;   /* owned array */
	size_t nrows;
	double *cells;                 /* owned: nrows x nhosts, what rows[i].speedup points into */
	int *verdicts;                 /* owned: nrows x nhosts, what rows[i].significant points into */
	struct ud_compare_group *groups; /* owned array, in order of their first host */
	size_t ngroups;
	struct ud_compare_skip *skipped; /* owned array: candidates left out, in input order */
	size_t nskipped;
};

/*
 * The model, or NULL with err: fewer than two profiles, a baseline that did
 * not load, no candidate that loaded and whose pair with the baseline can
 * be diffed (the message names the first one's file, then the reason), or
 * out of memory.  A candidate that did not load or cannot be diffed while
 * others can is left out and listed in skipped, so that one bad or odd host
 * does not stop a fleet's comparison.
 */
struct ud_compare *ud_compare_build(const struct ud_compare_input *in, struct ud_err *err);
void ud_compare_free(struct ud_compare *c);

/*
 * The uarchdiff.compare/1 document (compare_json.c): as a new reference, or
 * NULL when out of memory; as text to f, 0 or -1 when out of memory or f
 * refused.
 */
json_t *ud_compare_to_json(const struct ud_compare *c);
int ud_compare_write_json(const struct ud_compare *c, FILE *f);

#endif
