/*
 * topdown_expr.c - a recursive-descent evaluator of perf-style metric
 * formulas (topdown_expr.h).  Each rule evaluates as it parses: a formula
 * is short and evaluated once per workload, so no tree is built.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "topdown_expr.h"

/* Nesting deeper than any real formula: a hostile table cannot exhaust the stack. */
#define EXPR_MAX_DEPTH 64

enum tok { T_END, T_NUM, T_NAME, T_LITERAL, T_IF, T_ELSE, T_PUNCT, T_BAD };

struct expr {
	const char *s;           /* the whole formula, for messages */
	const char *p;           /* the next character */
	const struct ud_expr_env *env;
	int depth;
	int skip;                /* inside the branch an "if" did not take: no lookups, no reasons */
	char *why;
	size_t whylen;
	struct ud_err *err;
	int failed;
	/* the current token */
	enum tok tok;
	char text[UD_EXPR_NAME_MAX];
	double num;
	char punct;
};

static double fail(struct expr *x, const char *what)
{
	if (!x->failed)
		ud_fail(x->err, "formula \"%s\": %s at offset %d", x->s, what, (int)(x->p - x->s));
	x->failed = 1;
	return NAN;
}

/* The first reason a value is missing stands: it names the input a reader must look at. */
static void missing(struct expr *x, const char *fmt, const char *arg)
{
	if (x->skip || !x->why || x->why[0])
		return;
	snprintf(x->why, x->whylen, fmt, arg);
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static void lex_name(struct expr *x)
{
	size_t n = 0;

	while (name_char(*x->p) || (*x->p == '\\' && x->p[1])) {
		if (*x->p == '\\')
			x->p++;
		if (n + 1 >= sizeof(x->text)) {
			fail(x, "name too long");
			x->tok = T_BAD;
			return;
		}
		x->text[n++] = *x->p++;
	}
	x->text[n] = '\0';
	x->tok = strcmp(x->text, "if") == 0 ? T_IF : strcmp(x->text, "else") == 0 ? T_ELSE : T_NAME;
}

static void lex_number(struct expr *x)
{
	char buf[64], *end;
	size_t n = strspn(x->p, "0123456789.");

	if (x->p[n] == 'e' || x->p[n] == 'E') {
		size_t e = n + 1 + (x->p[n + 1] == '+' || x->p[n + 1] == '-');

		if (isdigit((unsigned char)x->p[e]))
			n = e + strspn(x->p + e, "0123456789");
	}
	if (n >= sizeof(buf) || strspn(x->p, ".") == n) {
		fail(x, "malformed number");
		x->tok = T_BAD;
		return;
	}
	memcpy(buf, x->p, n);
	buf[n] = '\0';
	x->num = strtod(buf, &end);
	if (end != buf + n) {
		fail(x, "malformed number");
		x->tok = T_BAD;
		return;
	}
	x->p += n;
	x->tok = T_NUM;
}

static void next(struct expr *x)
{
	while (isspace((unsigned char)*x->p))
		x->p++;
	if (!*x->p) {
		x->tok = T_END;
	} else if (isdigit((unsigned char)*x->p) || (*x->p == '.' && isdigit((unsigned char)x->p[1]))) {
		lex_number(x);
	} else if (*x->p == '#') {
		x->p++;
		lex_name(x);
		x->tok = x->tok == T_BAD ? T_BAD : T_LITERAL;
	} else if (name_char(*x->p) || *x->p == '\\') {
		lex_name(x);
	} else if (strchr("+-*/(),", *x->p)) {
		x->punct = *x->p++;
		x->tok = T_PUNCT;
	} else {
		fail(x, "unexpected character");
		x->tok = T_BAD;
	}
}

static bool at(const struct expr *x, char c)
{
	return x->tok == T_PUNCT && x->punct == c;
}

static void expect(struct expr *x, char c)
{
	char what[32];

	if (at(x, c)) {
		next(x);
		return;
	}
	snprintf(what, sizeof(what), "expected '%c'", c);
	fail(x, what);
}

static double conditional(struct expr *x);

static double name_value(struct expr *x, const char *name)
{
	char why[UD_EXPR_WHY_MAX] = "";
	double v = NAN;
	int r;

	if (x->skip && !x->env->visit_all)
		return 0;
	r = x->env->lookup(x->env->ctx, name, &v, why, sizeof(why), x->err);
	if (r < 0) {
		x->failed = 1;
		return NAN;
	}
	if (r > 0) {
		missing(x, "%s", why[0] ? why : name);
		return NAN;
	}
	return v;
}

static double literal_value(struct expr *x, const char *name)
{
	if (strcasecmp(name, "slots") != 0)
		return fail(x, "unknown literal");
	if (isnan(x->env->slots))
		missing(x, "%s", "the PMU's slots per cycle (caps/slots) were not read");
	return x->env->slots;
}

static double divide(struct expr *x, double a, double b, bool zero_is_zero)
{
	if (b == 0) {
		if (zero_is_zero)
			return 0;
		missing(x, "%s", "a divisor counted 0");
		return NAN;
	}
	return a / b;
}

/* d_ratio(a, b), min(a, b), max(a, b): the name was read, the '(' is the current token. */
static double function(struct expr *x, const char *fn)
{
	double a, b;

	if (strcmp(fn, "d_ratio") && strcmp(fn, "min") && strcmp(fn, "max"))
		return fail(x, "unknown function");
	next(x);
	a = conditional(x);
	expect(x, ',');
	b = conditional(x);
	expect(x, ')');
	if (isnan(a) || isnan(b))
		return NAN;
	if (strcmp(fn, "d_ratio") == 0)
		return divide(x, a, b, true);
	return strcmp(fn, "min") == 0 ? fmin(a, b) : fmax(a, b);
}

static double primary_inner(struct expr *x);

/* Every recursion passes here: the depth is bounded once, for parentheses, minus signs and calls alike. */
static double primary(struct expr *x)
{
	double v;

	if (x->failed)
		return NAN;
	if (++x->depth > EXPR_MAX_DEPTH)
		return fail(x, "nested too deeply");
	v = primary_inner(x);
	x->depth--;
	return v;
}

static double primary_inner(struct expr *x)
{
	char name[UD_EXPR_NAME_MAX];
	double v;

	switch (x->tok) {
	case T_NUM:
		v = x->num;
		next(x);
		return v;
	case T_LITERAL:
		snprintf(name, sizeof(name), "%s", x->text);
		next(x);
		return literal_value(x, name);
	case T_NAME:
		snprintf(name, sizeof(name), "%s", x->text);
		next(x);
		return at(x, '(') ? function(x, name) : name_value(x, name);
	case T_PUNCT:
		if (x->punct == '(') {
			next(x);
			v = conditional(x);
			expect(x, ')');
			return v;
		}
		if (x->punct == '-') {
			next(x);
			return -primary(x);
		}
		return fail(x, "expected a value");
	default:
		return fail(x, x->tok == T_END ? "formula ends early" : "expected a value");
	}
}

static double product(struct expr *x)
{
	double v = primary(x);

	while (!x->failed && (at(x, '*') || at(x, '/'))) {
		char op = x->punct;
		double r;

		next(x);
		r = primary(x);
		v = op == '*' ? v * r : isnan(v) || isnan(r) ? NAN : divide(x, v, r, false);
	}
	return v;
}

static double sum(struct expr *x)
{
	double v = product(x);

	while (!x->failed && (at(x, '+') || at(x, '-'))) {
		char op = x->punct;
		double r;

		next(x);
		r = product(x);
		v = op == '+' ? v + r : v - r;
	}
	return v;
}

/* "A if C else B", perf's (and Python's) conditional: the lowest precedence, right-associative. */
static double conditional(struct expr *x)
{
	bool had_why = x->why && x->why[0], taken;
	double a, c, b;

	a = sum(x);
	if (x->failed || x->tok != T_IF)
		return a;
	next(x);
	c = sum(x);
	if (x->tok != T_ELSE)
		return fail(x, "expected 'else'");
	next(x);
	taken = !isnan(c) && c != 0;
	/* A was read before C said it is not wanted: a reason it gave does not explain the result */
	if (!isnan(c) && !taken && !had_why && x->why)
		x->why[0] = '\0';
	/* only the branch taken is looked up: the other's inputs may rightly be absent */
	x->skip += taken;
	if (++x->depth > EXPR_MAX_DEPTH)
		return fail(x, "nested too deeply");
	b = conditional(x);
	x->depth--;
	x->skip -= taken;
	return isnan(c) ? NAN : taken ? a : b;
}

int ud_expr_eval(const char *expr, const struct ud_expr_env *env, double *out, char *why, size_t whylen,
		 struct ud_err *err)
{
	struct expr x = { .s = expr, .p = expr, .env = env, .why = why, .whylen = whylen, .err = err };

	if (why && whylen)
		why[0] = '\0';
	*out = NAN;
	next(&x);
	if (x.tok == T_END)
		return ud_fail(err, "formula \"%s\": empty", expr);
	*out = conditional(&x);
	if (!x.failed && x.tok != T_END)
		fail(&x, "unexpected text after the formula");
	if (x.failed) {
		*out = NAN;
		return -1;
	}
	return 0;
}
