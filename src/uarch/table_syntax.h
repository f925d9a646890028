/*
 * table_syntax.h - the line syntax of the data files in events/ (the event
 * tables and the list of cores without one): a directive, then words and
 * key=value fields, a "quoted value" where it holds spaces, '#' a comment
 * to the end of the line.  Errors read "path:line: reason".
 */
#ifndef UD_TABLE_SYNTAX_H
#define UD_TABLE_SYNTAX_H

#include <stdbool.h>

#include "error.h"

/* The most words and fields one line may hold. */
#define UD_TS_TOKENS 16
#define UD_TS_VALUE 256

struct ud_ts_token {
	char key[32];
	char value[UD_TS_VALUE];
	bool has_value;
};

/* Where a file is being read, for its errors. */
struct ud_ts_parser {
	const char *path;
	int line;
	struct ud_err *err;
};

/* Fails p's err with "path:line: what: arg" (arg NULL: without it); returns -1. */
int ud_ts_error(struct ud_ts_parser *p, const char *what, const char *arg);
/* Splits "word key=value key=\"quoted value\"" into tok (UD_TS_TOKENS of them); 0, or -1 with p's err. */
int ud_ts_tokenize(struct ud_ts_parser *p, char *s, struct ud_ts_token *tok, int *ntok);
/* A non-negative number in C's notation (0x1f, 31) into *out; 0, or -1 naming key. */
int ud_ts_number(struct ud_ts_parser *p, const char *key, const char *s, long *out);

#endif
