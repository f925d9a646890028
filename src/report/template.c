#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"
#include "text.h"

/*
 * The lead bytes of the characters text.h's rule escapes: C0 controls, DEL,
 * and the first bytes of C1 controls and format controls in UTF-8.  A run
 * free of them and of an escaper's special bytes is written as it is.
 */
#define CONTROL_LEADS                                                     \
	"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11" \
	"\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f\xc2\xd8\xe2"

/*
 * Writes s, replacing the bytes in special by what subst returns for them,
 * and each character a terminal would obey by its visible \xHH form
 * (text.h's one rule), itself escaped like any text.  Runs of ordinary bytes
 * go out in one fwrite: reports can be megabytes.
 */
static void escape_with(FILE *f, const char *s, const char *special, const char *stops,
			const char *(*subst)(const char *at, const char *start, char *buf))
{
	const char *start = s;
	char buf[8];

	while (*s) {
		size_t n = strcspn(s, stops), c;

		fwrite(s, 1, n, f);
		s += n;
		if (!*s)
			break;
		if (strchr(special, *s)) {
			fputs(subst(s, start, buf), f);
			s++;
		} else if ((c = ud_control_len(s)) > 0) {
			for (size_t i = 0; i < c; i++) {
				snprintf(buf, sizeof(buf), "\\x%02x", (unsigned char)s[i]);
				escape_with(f, buf, special, stops, subst);
			}
			s += c;
		} else {
			fputc(*s++, f); /* a lead byte of an ordinary character (U+00E9, U+2192) */
		}
	}
}

static const char *html_entity(const char *at, const char *start, char *buf)
{
	(void)start;
	switch (*at) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	default: (void)buf; return "&#39;";
	}
}

void ud_escape_html(FILE *f, const char *s)
{
	escape_with(f, s, "&<>\"'", "&<>\"'" CONTROL_LEADS, html_entity);
}

#define MARKDOWN_SPECIAL "<>&\n\r\\`*_{}[]#|~!"

/*
 * Markdown is read raw as often as rendered (pasted into a chat or a
 * commit), so only what a renderer would act on is escaped, by backslash,
 * never by an HTML entity that shows as "-&gt;" in the raw text:
 * '<' where it could open a tag or an autolink (a letter, '/', '!' or '?'
 * follows), '&' where it could start an entity (a letter, digit or '#'
 * follows), and '>' only where it leads a value that may start a line (a
 * quote); "77% -> 89%" and "p < 0.05" stay as they are.
 */
static const char *markdown_escape(const char *at, const char *start, char *buf)
{
	char c = *at, next = at[1];
	bool leads = strspn(start, " \t") == (size_t)(at - start);

	if (c == '\n' || c == '\r')
		return " "; /* a line break would end a table row */
	if ((c == '<' && !(isalpha((unsigned char)next) || next == '/' || next == '!' || next == '?')) ||
	    (c == '&' && !(isalnum((unsigned char)next) || next == '#')) || (c == '>' && !leads)) {
		buf[0] = c;
		buf[1] = '\0';
		return buf;
	}
	buf[0] = '\\';
	buf[1] = c;
	buf[2] = '\0';
	return buf;
}

void ud_escape_markdown(FILE *f, const char *s)
{
	escape_with(f, s, MARKDOWN_SPECIAL, MARKDOWN_SPECIAL CONTROL_LEADS, markdown_escape);
}

void ud_escape_text(FILE *f, const char *s)
{
	ud_fputs_visible(f, s); /* a terminal escape sequence in a label must not reach the terminal */
}

/*
 * Sections nested deeper than this are refused before anything is written:
 * the shipped templates nest 4 deep, and rendering recurses once a level.
 * It also bounds the context stack, one entry a level plus the root.
 */
#define MAX_NEST 32
#define NAME_MAX_LEN 128

enum tok_kind { TOK_TEXT, TOK_VAR, TOK_SECTION, TOK_INVERTED, TOK_DEFINE, TOK_PARTIAL, TOK_CLOSE };

/*
 * The template cut into tags and text once, in one pass: each section knows
 * where its close is, so rendering never scans the template again.
 */
struct tok {
	enum tok_kind kind;
	const char *text; /* TOK_TEXT: the bytes; else the tag's "{{", for line numbers */
	size_t len;       /* TOK_TEXT */
	size_t close;     /* sections and definitions: the index of their TOK_CLOSE; a partial: its definition's */
	char name[NAME_MAX_LEN];
};

struct toks {
	struct tok *t;
	size_t n, cap;
};

/*
 * A value a template reads: a struct and its table (at, fields), one field
 * of a struct (at, field; str when a string), or a string element of a
 * list (str).  All zero: missing.
 */
struct val {
	const void *at;
	const struct ud_fields *fields;
	const struct ud_field *field;
	const char *str;
};

struct render {
	struct val stack[MAX_NEST + 1];
	int depth;
	ud_escape_fn esc;
	FILE *out;
	const struct tok *t;
	int partials; /* partials being rendered, one inside another: bounds a partial that uses itself */
	const char *tmpl, *name;
	struct ud_err *err;
};

/* ---- a value: a struct read through its field table ---- */

#define MEMBER(at, f, type) (*(type const *)((const char *)(at) + (f)->offset))
#define COUNT(at, f) (*(const size_t *)((const char *)(at) + (f)->count_offset))

/* Field f of the struct at at, as a value: a struct, or the field itself (its string read). */
static struct val val_field(const void *at, const struct ud_field *f)
{
	const void *p;

	switch (f->kind) {
	case UD_FIELD_STRUCT:
		return (struct val){ .at = (const char *)at + f->offset, .fields = f->sub };
	case UD_FIELD_OBJECT:
		p = MEMBER(at, f, void *);
		return p ? (struct val){ .at = p, .fields = f->sub } : (struct val){ .field = f };
	case UD_FIELD_STRING:
		return (struct val){ .at = at, .field = f, .str = MEMBER(at, f, char *) };
	default:
		return (struct val){ .at = at, .field = f };
	}
}

static const struct ud_field *field_named(const struct ud_fields *fields, const char *name)
{
	for (size_t i = 0; fields && i < fields->n; i++)
		if (strcmp(fields->field[i].name, name) == 0)
			return &fields->field[i];
	return NULL;
}

static bool val_member(const struct val *v, const char *part, struct val *out)
{
	const struct ud_field *f = v->field ? NULL : field_named(v->fields, part);

	if (f)
		*out = val_field(v->at, f);
	return f != NULL;
}

static bool val_list(const struct val *v, size_t *n)
{
	bool list = v->field && (v->field->kind == UD_FIELD_LIST || v->field->kind == UD_FIELD_STRINGS);

	*n = list && v->at ? COUNT(v->at, v->field) : 0;
	return list;
}

static bool val_truthy(const struct val *v)
{
	size_t n;

	if (val_list(v, &n))
		return n > 0;
	if (!v->field)
		return v->fields ? true : v->str && *v->str;
	switch (v->field->kind) {
	case UD_FIELD_BOOL: return MEMBER(v->at, v->field, bool);
	case UD_FIELD_INT: return true; /* a number, even 0, as mustache reads one */
	case UD_FIELD_STRING: return v->str && *v->str;
	default: return false; /* a NULL object */
	}
}

static void val_emit(FILE *out, ud_escape_fn esc, const struct val *v)
{
	if (v->str)
		esc(out, v->str);
	else if (v->field && v->field->kind == UD_FIELD_BOOL)
		fputs(MEMBER(v->at, v->field, bool) ? "true" : "false", out);
	else if (v->field && v->field->kind == UD_FIELD_INT)
		fprintf(out, "%d", MEMBER(v->at, v->field, int));
}

static struct val val_item(const struct val *v, size_t i)
{
	const char *items = MEMBER(v->at, v->field, char *);

	if (v->field->kind == UD_FIELD_STRINGS)
		return (struct val){ .str = MEMBER(v->at, v->field, char **)[i] };
	return (struct val){ .at = items + i * v->field->elem_size, .fields = v->field->sub };
}

static bool val_scope(const struct val *v)
{
	return v->fields && !v->field;
}


static int line_of(const char *start, const char *at)
{
	int line = 1;

	for (const char *p = start; p < at; p++)
		line += *p == '\n';
	return line;
}

static struct val lookup(const struct render *r, const char *name)
{
	if (strcmp(name, ".") == 0)
		return r->stack[r->depth - 1];
	for (int d = r->depth - 1; d >= 0; d--) {
		struct val v = r->stack[d];
		char part[NAME_MAX_LEN];
		const char *p = name;
		bool found = true;

		while (found && *p) {
			size_t n = strcspn(p, ".");

			snprintf(part, sizeof(part), "%.*s", (int)n, p);
			found = val_member(&v, part, &v);
			p += n + (p[n] == '.');
		}
		if (found)
			return v;
	}
	return (struct val){ 0 };
}

static struct tok *push(struct toks *ts, enum tok_kind kind, const char *text, size_t len)
{
	if (ts->n == ts->cap) {
		struct tok *grown = realloc(ts->t, (ts->cap = ts->cap ? 2 * ts->cap : 64) * sizeof(*grown));

		if (!grown)
			return NULL;
		ts->t = grown;
	}
	ts->t[ts->n] = (struct tok){ .kind = kind, .text = text, .len = len };
	return &ts->t[ts->n++];
}

/* The tag between open ("{{") and close ("}}") as a token; its name trimmed. */
static int tag(struct toks *ts, const char *tmpl, const char *name, const char *open, const char *close,
	       struct ud_err *err)
{
	char kind = open[2];
	const char *p = open + 2 + (strchr("#^/<>", kind) != NULL && kind);
	enum tok_kind k = kind == '#'   ? TOK_SECTION
			  : kind == '^' ? TOK_INVERTED
			  : kind == '<' ? TOK_DEFINE
			  : kind == '>' ? TOK_PARTIAL
			  : kind == '/' ? TOK_CLOSE
					: TOK_VAR;
	struct tok *t;
	size_t n;

	while (isspace((unsigned char)*p))
		p++;
	n = (size_t)(close - p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n == 0 || n >= NAME_MAX_LEN)
		return ud_fail(err, "%s:%d: an empty or overlong tag", name, line_of(tmpl, open));
	t = push(ts, k, open, 0);
	if (!t)
		return ud_fail(err, "%s: out of memory", name);
	snprintf(t->name, sizeof(t->name), "%.*s", (int)n, p);
	return 0;
}

/* Matches a close to the innermost open section (open[] holds their indexes). */
static int nest(struct toks *ts, size_t *open, int *depth, const char *tmpl, const char *name, struct ud_err *err)
{
	struct tok *t = &ts->t[ts->n - 1];

	if (t->kind == TOK_SECTION || t->kind == TOK_INVERTED || t->kind == TOK_DEFINE) {
		if (*depth == MAX_NEST)
			return ud_fail(err, "%s:%d: sections nested more than %d deep", name, line_of(tmpl, t->text),
				       MAX_NEST);
		open[(*depth)++] = ts->n - 1;
	} else if (t->kind == TOK_CLOSE) {
		if (*depth == 0)
			return ud_fail(err, "%s:%d: a closing tag without its section", name, line_of(tmpl, t->text));
		if (strcmp(ts->t[open[*depth - 1]].name, t->name) != 0)
			return ud_fail(err, "%s:%d: '{{/%s}}' closes section '%s'", name, line_of(tmpl, t->text),
				       t->name, ts->t[open[*depth - 1]].name);
		ts->t[open[--*depth]].close = ts->n - 1;
	}
	return 0;
}

/*
 * The first "cc" at or after s, or NULL.  Not strstr(): sanitizers measure
 * the whole haystack on each call, which made compiling a large template
 * quadratic under ASan; strchr's checks stop at the match.
 */
static const char *find_pair(const char *s, char c)
{
	while ((s = strchr(s, c)) != NULL && s[1] != c)
		s++;
	return s;
}

/* Whether a tag of kind takes the newline after it (line_start: the tag begins its line). */
static bool takes_newline(enum tok_kind kind, bool line_start)
{
	if (kind == TOK_SECTION || kind == TOK_INVERTED || kind == TOK_DEFINE)
		return true;
	return (kind == TOK_CLOSE || kind == TOK_PARTIAL) && line_start;
}

/* Points each partial at its definition: one of that name, anywhere in the template. */
static int link_partials(struct toks *ts, const char *tmpl, const char *name, struct ud_err *err)
{
	for (size_t i = 0; i < ts->n; i++) {
		struct tok *t = &ts->t[i];
		size_t d = 0, found = 0;

		if (t->kind != TOK_PARTIAL && t->kind != TOK_DEFINE)
			continue;
		for (size_t k = 0; k < ts->n; k++) {
			if (ts->t[k].kind == TOK_DEFINE && strcmp(ts->t[k].name, t->name) == 0) {
				d = k;
				found++;
			}
		}
		if (t->kind == TOK_DEFINE && found > 1)
			return ud_fail(err, "%s:%d: partial '%s' is defined twice", name, line_of(tmpl, t->text), t->name);
		if (t->kind == TOK_PARTIAL && !found)
			return ud_fail(err, "%s:%d: partial '%s' is never defined ('{{<%s}}...{{/%s}}')", name,
				       line_of(tmpl, t->text), t->name, t->name, t->name);
		if (t->kind == TOK_PARTIAL)
			t->close = d;
	}
	return 0;
}

/*
 * Cuts tmpl into tokens.  A section tag followed by a newline takes it (the
 * body starts on the next line), and so does a closing tag alone at the start
 * of its line: a section tag on its own line leaves no blank line behind.
 */
static int compile(struct toks *ts, const char *tmpl, const char *name, struct ud_err *err)
{
	size_t open[MAX_NEST];
	int depth = 0;
	const char *s = tmpl;

	for (;;) {
		const char *o = find_pair(s, '{'), *c;

		if (!push(ts, TOK_TEXT, s, o ? (size_t)(o - s) : strlen(s)))
			return ud_fail(err, "%s: out of memory", name);
		if (!o)
			break;
		c = find_pair(o, '}');
		if (!c)
			return ud_fail(err, "%s:%d: '{{' without '}}'", name, line_of(tmpl, o));
		s = c + 2;
		if (o[2] == '!')
			continue;
		if (tag(ts, tmpl, name, o, c, err) != 0 || nest(ts, open, &depth, tmpl, name, err) != 0)
			return -1;
		if (*s == '\n' && takes_newline(ts->t[ts->n - 1].kind, o == tmpl || o[-1] == '\n'))
			s++;
	}
	if (depth)
		return ud_fail(err, "%s:%d: section '%s' is never closed", name, line_of(tmpl, ts->t[open[depth - 1]].text),
			       ts->t[open[depth - 1]].name);
	return link_partials(ts, tmpl, name, err);
}

static int render(struct render *r, size_t from, size_t to);

/* Renders the body of the section at index i with v entered (v NULL: the same context). */
static int body(struct render *r, size_t i, const struct val *v)
{
	int ret;

	/* compile() bounded a template's nesting; partials inside sections can still stack them deeper */
	if (v && r->depth > MAX_NEST)
		return ud_fail(r->err, "%s:%d: sections nested more than %d deep through partials", r->name,
			       line_of(r->tmpl, r->t[i].text), MAX_NEST);
	if (v)
		r->stack[r->depth++] = *v;
	ret = render(r, i + 1, r->t[i].close);
	if (v)
		r->depth--;
	return ret;
}

static int section(struct render *r, size_t i)
{
	struct val v = lookup(r, r->t[i].name), item;
	size_t n;

	if (r->t[i].kind == TOK_INVERTED)
		return val_truthy(&v) ? 0 : body(r, i, NULL);
	if (!val_truthy(&v))
		return 0;
	if (val_list(&v, &n)) {
		for (size_t k = 0; k < n; k++) {
			item = val_item(&v, k);
			if (body(r, i, &item) != 0)
				return -1;
		}
		return 0;
	}
	return body(r, i, val_scope(&v) ? &v : NULL);
}

/* The body of the definition at index d, in the context where the partial stands. */
static int partial(struct render *r, size_t d)
{
	int ret;

	if (r->partials == MAX_NEST)
		return ud_fail(r->err, "%s:%d: partial '%s' used inside itself (more than %d deep)", r->name,
			       line_of(r->tmpl, r->t[d].text), r->t[d].name, MAX_NEST);
	r->partials++;
	ret = render(r, d + 1, r->t[d].close);
	r->partials--;
	return ret;
}

static int render(struct render *r, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		const struct tok *t = &r->t[i];

		if (t->kind == TOK_TEXT) {
			fwrite(t->text, 1, t->len, r->out);
		} else if (t->kind == TOK_VAR) {
			struct val v = lookup(r, t->name);

			val_emit(r->out, r->esc, &v);
		} else if (t->kind == TOK_PARTIAL) {
			if (partial(r, t->close) != 0)
				return -1;
		} else if (t->kind == TOK_DEFINE) {
			i = t->close; /* a definition renders where it is used, not where it stands */
		} else {
			if (section(r, i) != 0)
				return -1;
			i = t->close;
		}
	}
	return 0;
}

int ud_template_render(const char *tmpl, const char *name, const void *data, const struct ud_fields *fields,
		       ud_escape_fn esc, FILE *out, struct ud_err *err)
{
	struct toks ts = { 0 };
	struct render r = { .depth = 1, .esc = esc, .out = out, .tmpl = tmpl, .name = name, .err = err };
	int ret = compile(&ts, tmpl, name, err);

	r.stack[0] = (struct val){ .at = data, .fields = fields };
	r.t = ts.t;
	if (ret == 0)
		ret = render(&r, 0, ts.n);
	free(ts.t);
	return ret;
}

/* ---- the names a template uses, against the field tables in scope ---- */

struct check {
	const struct ud_fields *scope[MAX_NEST + 1]; /* NULL: a string of a list, which has only {{.}} */
	int depth, partials;
	const struct tok *t;
	const char *tmpl, *name;
	struct ud_err *err;
};

/* The field name resolves to in fields: each dotted part a field of the sub table before it; NULL if none. */
static const struct ud_field *resolve_at(const struct ud_fields *fields, const char *name)
{
	const struct ud_field *f = NULL;
	char part[NAME_MAX_LEN];

	while (*name) {
		size_t n = strcspn(name, ".");

		snprintf(part, sizeof(part), "%.*s", (int)n, name);
		if (f && f->kind != UD_FIELD_STRUCT && f->kind != UD_FIELD_OBJECT)
			return NULL;
		if (!(f = field_named(f ? f->sub : fields, part)))
			return NULL;
		name += n + (name[n] == '.');
	}
	return f;
}

/* The field the token at i names, from the innermost scope outwards; fails the check where none has it. */
static int check_name(struct check *c, size_t i, const struct ud_field **out)
{
	char scopes[256] = "";
	size_t used = 0;

	*out = NULL;
	if (strcmp(c->t[i].name, ".") == 0)
		return 0;
	for (int d = c->depth - 1; d >= 0; d--) {
		if ((*out = resolve_at(c->scope[d], c->t[i].name)) != NULL)
			return 0;
		if (c->scope[d] && used < sizeof(scopes))
			used += (size_t)snprintf(scopes + used, sizeof(scopes) - used, "%s%s", used ? ", " : "",
						 c->scope[d]->name);
	}
	return ud_fail(c->err, "%s:%d: '{{%s}}' is no field of %s", c->name, line_of(c->tmpl, c->t[i].text), c->t[i].name,
		       used ? scopes : "a list's strings");
}

static int check_range(struct check *c, size_t from, size_t to);

/* A section's body in the scope it enters: a list's element, a struct; the same scope for the rest. */
static int check_section(struct check *c, size_t i)
{
	const struct ud_field *f;
	bool enters;
	int ret;

	if (check_name(c, i, &f) != 0)
		return -1;
	enters = f && c->t[i].kind == TOK_SECTION && f->kind != UD_FIELD_STRING && f->kind != UD_FIELD_BOOL &&
		 f->kind != UD_FIELD_INT;
	if (enters)
		c->scope[c->depth++] = f->sub; /* a list of strings: NULL */
	ret = check_range(c, i + 1, c->t[i].close);
	if (enters)
		c->depth--;
	return ret;
}

static int check_range(struct check *c, size_t from, size_t to)
{
	const struct ud_field *f;

	for (size_t i = from; i < to; i++) {
		const struct tok *t = &c->t[i];

		if (t->kind == TOK_VAR && check_name(c, i, &f) != 0)
			return -1;
		if (t->kind == TOK_PARTIAL) {
			if (c->partials == MAX_NEST)
				return ud_fail(c->err, "%s: partial '%s' used inside itself", c->name, t->name);
			c->partials++;
			if (check_range(c, t->close + 1, c->t[t->close].close) != 0)
				return -1;
			c->partials--;
		}
		if (t->kind == TOK_SECTION || t->kind == TOK_INVERTED) {
			if (check_section(c, i) != 0)
				return -1;
			i = t->close;
		} else if (t->kind == TOK_DEFINE) {
			i = t->close; /* checked where it is used, in the scope there */
		}
	}
	return 0;
}

int ud_template_check(const char *tmpl, const char *name, const struct ud_fields *fields, struct ud_err *err)
{
	struct toks ts = { 0 };
	struct check c = { .depth = 1, .tmpl = tmpl, .name = name, .err = err };
	int ret = compile(&ts, tmpl, name, err);

	c.scope[0] = fields;
	c.t = ts.t;
	if (ret == 0)
		ret = check_range(&c, 0, ts.n);
	free(ts.t);
	return ret;
}
