/*
 * diffutil.h - what the diff tests share: the event tables loaded once per
 * test, profiles imported from the fixtures or built workload by workload,
 * the model and the document of a diff, and lookups into both.
 */
#ifndef UD_DIFFUTIL_H
#define UD_DIFFUTIL_H

#include <check.h>
#include <math.h>

#include "diff.h"
#include "uarch.h"

/* The relative agreement the tests ask of values computed two ways. */
#define REL(x, want) ck_assert_msg(fabs((x) / (want) - 1) < 1e-9, "%s = %.12g, want %.12g", #x, (double)(x), (double)(want))

extern struct ud_uarch_db diffutil_db;
/* A Check fixture: loads and frees diffutil_db. */
void diffutil_load(void);
void diffutil_unload(void);

/* A fixture file imported under a host of this label and microarchitecture. */
struct ud_profile *imported(const char *file, const char *label, const char *uarch);
/* The model (files named a.json, b.json), or NULL with err. */
struct ud_diff *model_of(const struct ud_profile *a, const struct ud_profile *b, struct ud_err *err);
/* The document, as `diff -f json` writes it. */
json_t *diff_of(const struct ud_profile *a, const struct ud_profile *b, struct ud_err *err);
/* The number at a dotted path ("factors.ipc"); fails the test when it is not one. */
double at(const json_t *o, const char *path);

/* A workload with one score sample and 1 s elapsed. */
struct ud_workload *add(struct ud_profile *p, const char *name, double score, int hib);
/* A counted counter. */
void put(struct ud_workload *w, const char *name, double v);
/* instructions, cycles, task-clock, and user/sys times split by sys_share. */
void counts(struct ud_workload *w, double insns, double cycles, double task_ns, double sys_share);

const json_t *find(const json_t *findings, const char *id);
size_t fired(const struct ud_diff *d, enum ud_finding_id id);
const struct ud_finding *finding_of(const struct ud_diff *d, enum ud_finding_id id);

#endif
