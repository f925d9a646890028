/*
 * topdown_expr.h - the formulas of the event tables' top-down methods.
 *
 * The language is the part of perf's metric expressions
 * (tools/perf/util/expr.y) that perf's pipeline and metrics files use for
 * top-down, so that a table's formula reads as the file it cites: numbers,
 * names, + - * /, parentheses, unary minus, "A if C else B" (C true when
 * not 0), d_ratio(a, b) (a / b, 0 when b is 0), min(a, b), max(a, b), and
 * the literal #slots.  A backslash takes the next character into a name, as
 * in perf: topdown\-retiring, de_no_dispatch_per_slot.no_ops_from_frontend\,cmask\=0x6.
 *
 * Portable: no counters here, only the arithmetic over values a caller
 * looks up by name (topdown.h).
 */
#ifndef UD_TOPDOWN_EXPR_H
#define UD_TOPDOWN_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* The longest name a formula may hold, escapes resolved. */
#define UD_EXPR_NAME_MAX 128
/* The longest explanation of a missing value: a counter's reason (count_status.h) with its name. */
#define UD_EXPR_WHY_MAX 512

struct ud_expr_env {
	/*
	 * The value of name: 0 with *v, or 1 when it has none, with why (one
	 * line, at most len bytes) saying why; -1 with err to fail the whole
	 * evaluation (a name the table does not declare).
	 */
	int (*lookup)(void *ctx, const char *name, double *v, char *why, size_t len, struct ud_err *err);
	void *ctx;
	double slots;      /* #slots; NAN when unknown */
	bool visit_all;    /* look up the names of both branches of an "if" too (checking a table) */
};

/*
 * Evaluates expr.  0 with *out: a number, or NAN where an input had no
 * value or a division had a zero divisor, with why (whylen bytes) saying
 * which; -1 with err for a malformed formula or a failed lookup.
 */
int ud_expr_eval(const char *expr, const struct ud_expr_env *env, double *out, char *why, size_t whylen,
		 struct ud_err *err);

#endif
