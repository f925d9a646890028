/*
 * template.h - a minimal template renderer for the reports (a subset of
 * mustache): {{name}} inserts a value, escaped for the output format;
 * {{#name}}...{{/name}} repeats for each element of an array, enters an
 * object, or shows once for a true value; {{^name}}...{{/name}} shows when the
 * value is false, null, missing or empty; {{.}} is the current element;
 * {{! ... }} is a comment; {{<name}}...{{/name}} defines a partial, which
 * renders nothing where it stands, and {{>name}} renders it there, in the
 * context around it (one definition a name, anywhere in the template: the
 * report's two stacked-bar charts share one).  Names may be dotted (a.b.c) and are looked up
 * from the innermost section outwards.  There is no unescaped form: every
 * string is escaped, whoever wrote it.
 */
#ifndef UD_TEMPLATE_H
#define UD_TEMPLATE_H

#include <jansson.h>
#include <stdio.h>

#include "error.h"

/* Writes s to f escaped for the output format. */
typedef void (*ud_escape_fn)(FILE *f, const char *s);

void ud_escape_html(FILE *f, const char *s);
void ud_escape_markdown(FILE *f, const char *s);
/* Plain text: control characters (a terminal's escape sequences) shown as \xHH (text.h's ud_visible). */
void ud_escape_text(FILE *f, const char *s);

/* Renders tmpl with ctx; errors read "name:line: reason". */
int ud_template_render(const char *tmpl, const char *name, const json_t *ctx, ud_escape_fn esc, FILE *out,
		       struct ud_err *err);

#endif
