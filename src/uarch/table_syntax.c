/*
 * table_syntax.c - the events/ files' line syntax (table_syntax.h), shared
 * by the event tables (uarch.c) and the list of cores without one
 * (uarch_cores.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "table_syntax.h"

int ud_ts_error(struct ud_ts_parser *p, const char *what, const char *arg)
{
	return ud_fail(p->err, "%s:%d: %s%s%s", p->path, p->line, what, arg ? ": " : "", arg ? arg : "");
}

/* A value from *s (quoted or one word) into t; 0, or -1 with p's err. */
static int read_value(struct ud_ts_parser *p, const char **s, struct ud_ts_token *t)
{
	size_t v = 0;
	bool quoted = **s == '"';

	*s += quoted;
	while (**s && (quoted ? **s != '"' : !isspace((unsigned char)**s))) {
		if (v + 1 >= sizeof(t->value))
			return ud_ts_error(p, "value too long", t->key);
		t->value[v++] = *(*s)++;
	}
	if (quoted && **s != '"')
		return ud_ts_error(p, "unterminated quoted value", t->key);
	*s += quoted;
	return v == 0 ? ud_ts_error(p, "empty value", t->key) : 0;
}

int ud_ts_tokenize(struct ud_ts_parser *p, char *line, struct ud_ts_token *tok, int *ntok)
{
	const char *s = line;

	*ntok = 0;
	for (;;) {
		struct ud_ts_token *t;
		size_t k = 0;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			return 0;
		if (*ntok == UD_TS_TOKENS)
			return ud_ts_error(p, "too many fields", NULL);
		t = &tok[(*ntok)++];
		memset(t, 0, sizeof(*t));
		while (*s && !isspace((unsigned char)*s) && *s != '=') {
			if (k + 1 >= sizeof(t->key))
				return ud_ts_error(p, "name too long", NULL);
			t->key[k++] = *s++;
		}
		if (*s != '=')
			continue;
		s++;
		t->has_value = true;
		if (read_value(p, &s, t) != 0)
			return -1;
	}
}

int ud_ts_number(struct ud_ts_parser *p, const char *key, const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 0);
	if (errno || end == s || *end || *out < 0)
		return ud_ts_error(p, "not a non-negative number", key);
	return 0;
}
