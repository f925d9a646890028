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
 *
 * A template reads a typed view: a C struct read through its field table
 * (struct ud_fields): each name a template may use, its kind and where it
 * lies in the struct.  A view's names are checked against the template by
 * ud_template_check() in a test, before any page renders, so a misspelt
 * name fails the test instead of rendering nothing.
 */
#ifndef UD_TEMPLATE_H
#define UD_TEMPLATE_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

/* Writes s to f escaped for the output format. */
typedef void (*ud_escape_fn)(FILE *f, const char *s);

void ud_escape_html(FILE *f, const char *s);
void ud_escape_markdown(FILE *f, const char *s);
/* Plain text: control characters (a terminal's escape sequences) shown as \xHH (text.h's ud_visible). */
void ud_escape_text(FILE *f, const char *s);

enum ud_field_kind {
	UD_FIELD_STRING,  /* const char * (NULL: missing, false) */
	UD_FIELD_BOOL,    /* bool */
	UD_FIELD_INT,     /* int: SVG geometry in whole units */
	UD_FIELD_STRUCT,  /* a struct embedded at offset, read through sub */
	UD_FIELD_OBJECT,  /* a pointer to a struct read through sub (NULL: false) */
	UD_FIELD_LIST,    /* a pointer to count_offset's size_t structs of elem_size, each read through sub */
	UD_FIELD_STRINGS, /* a char ** of count_offset's size_t strings: {{.}} is each */
};

struct ud_fields;

struct ud_field {
	const char *name;
	enum ud_field_kind kind;
	size_t offset, count_offset, elem_size;
	const struct ud_fields *sub;
};

/* The names a typed view answers to: name says whose (in a test's message). */
struct ud_fields {
	const char *name;
	const struct ud_field *field;
	size_t n;
};

/* Table rows for member M of struct T (its kind K), and the lists' and sub-structs' forms. */
#define UD_FIELD(T, M, K) { #M, K, offsetof(T, M), 0, 0, NULL }
#define UD_FIELD_SUB(T, M, K, SUB) { #M, K, offsetof(T, M), 0, 0, SUB }
#define UD_FIELD_LIST_OF(T, M, N, SUB) { #M, UD_FIELD_LIST, offsetof(T, M), offsetof(T, N), sizeof(*((T *)0)->M), SUB }
#define UD_FIELD_STRINGS_OF(T, M, N) { #M, UD_FIELD_STRINGS, offsetof(T, M), offsetof(T, N), 0, NULL }
#define UD_FIELDS(NAME, ROWS) { NAME, ROWS, sizeof(ROWS) / sizeof(ROWS[0]) }

/* Renders tmpl with the view data (borrowed) read through fields; errors read "name:line: reason". */
int ud_template_render(const char *tmpl, const char *name, const void *data, const struct ud_fields *fields,
		       ud_escape_fn esc, FILE *out, struct ud_err *err);
/*
 * Every name tmpl uses, against the field tables in scope where it stands
 * (fields at the root, a section's sub table inside it, partials where they
 * are used): 0, or -1 with "name:line: '{{x}}' is no field of ..." for the
 * first name no table in scope has, or the template's syntax error.
 */
int ud_template_check(const char *tmpl, const char *name, const struct ud_fields *fields, struct ud_err *err);

#endif
