/*
 * teach.h - the teaching labs' results as data: which labs there are, what
 * each teaches (the words a student reads), the points one measured, the
 * verdict drawn from them, and the `uarchdiff.teach/1` document.
 *
 * Portable: nothing here measures.  teach_labs.h runs a lab and fills a
 * struct ud_lab_result with points; ud_lab_judge() turns the points into
 * the effect and the verdict, so a test can judge synthetic curves; the
 * document (ud_teach_write_json()) is what `teach -f json` prints; the text
 * and HTML pages (ud_teach_render()) read the results through a typed view.
 *
 * Ownership: a result owns its points (malloc'd) and its noise warnings;
 * ud_lab_result_free() frees them.
 */
#ifndef UD_TEACH_H
#define UD_TEACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "count_status.h"
#include "error.h"
#include "profile.h"
#include "report.h"

enum ud_lab { UD_LAB_BRANCH, UD_LAB_CACHE, UD_LAB_ILP, UD_LAB_COUNT };

/* "branch", "cache", "ilp".  Returns a static string. */
const char *ud_lab_name(enum ud_lab lab);
/* 0 and *lab set when name is a lab's, else -1. */
int ud_lab_parse(const char *name, enum ud_lab *lab);

/* The words of a lab, fixed: what a student reads before any number. */
struct ud_lab_text {
	const char *title;
	const char *explanation; /* what it demonstrates, two or three sentences */
	const char *experiment;
	const char *expected;
	const char *x_label, *x_unit;
	bool x_log;
	const char *y_label, *y_unit;
	bool y_log;
	const char *metric;      /* the effect's metric */
};
/* The lab's words: static. */
const struct ud_lab_text *ud_lab_text(enum ud_lab lab);

/* Mechanism counts of one point, per unit of work; NAN where not counted. */
struct ud_lab_point {
	double x, y;             /* in the lab's axes' units */
	double mispredicts;      /* branch mispredicts per element */
	double l1d_misses;       /* L1d misses per load */
	double ipc;              /* instructions per cycle */
};

/* Sizes of this host's caches, as sysfs gives them; 0 when unknown. */
struct ud_cache_kb {
	double l1d, l2, l3;
};

/* At most one knee a cache level and one for the TLB. */
/* The host's caches (host_facts.h, SPEC §3: cpu.caches.*_kb, read from sysfs); 0 where unknown; host may be NULL. */
struct ud_cache_kb ud_teach_caches(const struct ud_host *host);

#define UD_TEACH_KNEES_MAX 4
/*
 * A knee rises at least this much: log latency over log size of 0.5 is
 * 1.41x a doubling, far above a quiet machine's 2-5% noise between
 * neighbouring sizes and far below a cache level's step (3-4x on Zen 4).
 */
#define UD_KNEE_MIN_SLOPE 0.5

struct ud_lab_result {
	enum ud_lab lab;
	struct ud_lab_point *points;  /* owned */
	size_t npoints;
	double reference;             /* branch: sorted data's ns per element, drawn as a line; else NAN */
	enum ud_count_status counters;  /* of the hardware counters the lab reads */
	char counters_reason[UD_REASON_MAX + 80]; /* why not counted; "" when counted */
	double seconds;               /* the lab's wall time */
	char note[256];               /* what limited the experiment ("" none): memory, quick mode */
	/*
	 * How noisy the host was over the lab (SPEC §3.1's figures, warnings by
	 * noise.h's thresholds): the lowest share of a CPU its thread got at a
	 * point, steal and load over its points, the widest 95% interval of a
	 * point's repeated timings, and the fewest timings behind a point.
	 * Warnings are reported beside the verdict, which they never change.
	 * Owned (ud_lab_result_free()).
	 */
	struct ud_noise noise;
	/* cache lab */
	struct ud_cache_kb sysfs;
	double knees_kb[UD_TEACH_KNEES_MAX];
	size_t nknees;
	/* filled by ud_lab_judge() */
	double a, b, ratio;
	char a_label[48], b_label[48];
	bool shown;
	char *measured;               /* the effect in words; owned, NULL before ud_lab_judge() */
	char *why_not;                /* owned; NULL when shown */
	/*
	 * Why the lab could not run to its end ("" when it did): such a lab is a
	 * result too, not shown, with no points, beside the labs that finished.
	 */
	char failed[sizeof(((struct ud_err *)0)->msg)];
};

/* A result for lab with no points, reference NAN, counters not_counted, noise unknown. */
void ud_lab_result_init(struct ud_lab_result *r, enum ud_lab lab);
void ud_lab_result_free(struct ud_lab_result *r);

/*
 * The knees of a latency curve (x: working set in KB, ascending; y: ns per
 * load): where latency jumps most.  For each pair of neighbouring sizes the
 * slope of log latency over log size is taken; the steepest slope of at
 * least UD_KNEE_MIN_SLOPE is a knee, then the steepest of the rest that is
 * not beside a knee already taken (a neighbour is the same rise spread over
 * two steps), and so on, up to max (at most UD_TEACH_KNEES_MAX).  A rise
 * spread over several steps, as where an L2's exit and a small L3 share of a
 * VM blend, still yields a knee where it starts.  Each knee is reported as
 * the larger working set before the jump (the last that still fit),
 * ascending.  Returns how many were found.
 */
size_t ud_knees_find(const struct ud_lab_point *p, size_t n, double *knees_kb, size_t max);

/*
 * Fills the effect (a, b, ratio, labels), the verdict (shown, why_not) and
 * the measured sentence from r's points; for the cache lab, finds the knees
 * first and sets them beside r->sysfs.
 */
void ud_lab_judge(struct ud_lab_result *r);

#define UD_TEACH_SCHEMA "uarchdiff.teach/1"

/*
 * The uarchdiff.teach/1 document: host (borrowed, may be NULL: null) and
 * the labs in order, streamed as text to f (teach_json.c, through
 * json_emit.h); 0, or -1 when out of memory or f refused.
 */
int ud_teach_write_json(const struct ud_host *host, const struct ud_lab_result *labs, size_t n, FILE *f);

/*
 * Writes the labs' page in f, text or html through the templates teach.txt
 * / teach.html from dir (NULL: the installed or source templates), from a
 * typed view of host (borrowed, may be NULL) and the labs (teach_view.c);
 * UD_REPORT_MD and UD_REPORT_JSON (ud_teach_write_json's) are refused.  The
 * HTML draws a chart a lab.
 */
int ud_teach_render(const struct ud_host *host, const struct ud_lab_result *labs, size_t n, enum ud_report_format f,
		    const char *dir, FILE *out, struct ud_err *err);
struct ud_fields;
/* The field table the teach templates read the page's view through (static; a test checks the templates against it). */
const struct ud_fields *ud_teach_fields(void);

#endif
