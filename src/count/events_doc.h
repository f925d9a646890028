/*
 * events_doc.h - the events command's document: the event table in force,
 * how each generic event would open on this host, and the core's top-down
 * methods, written as JSON (SPEC §5.2 "events --json") or as text from the
 * same typed table, so the text never reads the JSON back.
 */
#ifndef UD_EVENTS_DOC_H
#define UD_EVENTS_DOC_H

#include <stdio.h>

#include "counting.h"
#include "json_emit.h"
#include "uarch.h"

struct ud_events_doc {
	const struct ud_uarch *u;    /* borrowed: the table shown */
	const struct ud_core *core;  /* borrowed: the known core without a table it stands in for, or NULL */
	const char *chosen_by;       /* borrowed: "--uarch zen4", "detected from /proc/cpuinfo" */
	enum ud_pmu_state pmu;       /* this host's PMU, probed once */
	char pmu_reason[UD_REASON_MAX];
};

/* d for table u (core and chosen_by as above, all borrowed for d's life), probing this host's PMU. */
void ud_events_doc_init(struct ud_events_doc *d, const struct ud_uarch *u, const struct ud_core *core,
			const char *chosen_by);

/* d as one JSON object through w (the one writer, json_emit.h). */
void ud_events_doc_emit(struct ud_jw *w, const struct ud_events_doc *d);

/* d as text to f: the table's head, its events, then each top-down method; the caller fits it to a terminal. */
void ud_events_doc_print(FILE *f, const struct ud_events_doc *d);

#endif
