/*
 * spec_priv.h - what reading a spec (spec.c) and running it (spec_run.c)
 * share; private to workloads/.
 */
#ifndef UD_SPEC_PRIV_H
#define UD_SPEC_PRIV_H

#include <stdint.h>

#include "error.h"
#include "workload.h"

/* A command's words at most: refused beyond it at load, so that expanding them never cuts one. */
#define UD_SPEC_MAX_ARGS 64

/*
 * The run of a spec's workload definition (ctx->data is the spec): the
 * program once, its score into ctx; 0, or -1 with err.
 */
int ud_spec_run(struct wl_ctx *ctx, uint64_t iters, struct ud_err *err);

#endif
