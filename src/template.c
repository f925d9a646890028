#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "template.h"
#include "text.h"

#define MAX_DEPTH 32

/*
 * Writes s, replacing the bytes in special by what subst returns for them.
 * Runs of ordinary bytes go out in one fwrite: reports can be megabytes.
 */
static void escape_with(FILE *f, const char *s, const char *special, const char *(*subst)(char c, char *buf))
{
	char buf[8];

	while (*s) {
		size_t n = strcspn(s, special);

		fwrite(s, 1, n, f);
		s += n;
		if (*s)
			fputs(subst(*s++, buf), f);
	}
}

static const char *html_entity(char c, char *buf)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	default: (void)buf; return "&#39;";
	}
}

void ud_escape_html(FILE *f, const char *s)
{
	escape_with(f, s, "&<>\"'", html_entity);
}

static const char *markdown_escape(char c, char *buf)
{
	if (c == '<' || c == '>' || c == '&')
		return c == '<' ? "&lt;" : c == '>' ? "&gt;" : "&amp;"; /* no raw HTML */
	if (c == '\n' || c == '\r')
		return " "; /* a line break would end a table row */
	buf[0] = '\\';
	buf[1] = c;
	buf[2] = '\0';
	return buf;
}

void ud_escape_markdown(FILE *f, const char *s)
{
	escape_with(f, s, "<>&\n\r\\`*_{}[]#|~!", markdown_escape);
}

void ud_escape_text(FILE *f, const char *s)
{
	ud_fputs_visible(f, s); /* a terminal escape sequence in a label must not reach the terminal */
}

struct render {
	const char *name;
	const json_t *stack[MAX_DEPTH];
	int depth;
	ud_escape_fn esc;
	FILE *out;
	struct ud_err *err;
	const char *start; /* the template, for line numbers */
};

static int line_of(const struct render *r, const char *at)
{
	int line = 1;

	for (const char *p = r->start; p < at; p++)
		line += *p == '\n';
	return line;
}

static const json_t *lookup(const struct render *r, const char *name)
{
	if (strcmp(name, ".") == 0)
		return r->stack[r->depth - 1];
	for (int d = r->depth - 1; d >= 0; d--) {
		const json_t *v = r->stack[d];
		char part[128];
		const char *p = name;

		while (v && *p) {
			size_t n = strcspn(p, ".");

			snprintf(part, sizeof(part), "%.*s", (int)n, p);
			v = json_is_object(v) ? json_object_get(v, part) : NULL;
			p += n + (p[n] == '.');
		}
		if (v)
			return v;
	}
	return NULL;
}

static bool truthy(const json_t *v)
{
	if (!v || json_is_null(v) || json_is_false(v))
		return false;
	if (json_is_array(v))
		return json_array_size(v) > 0;
	if (json_is_string(v))
		return json_string_length(v) > 0;
	return true;
}

static void emit(const struct render *r, const json_t *v)
{
	char buf[64];

	if (json_is_string(v)) {
		r->esc(r->out, json_string_value(v));
	} else if (json_is_integer(v)) {
		fprintf(r->out, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		snprintf(buf, sizeof(buf), "%g", json_real_value(v));
		fputs(buf, r->out);
	} else if (json_is_boolean(v)) {
		fputs(json_is_true(v) ? "true" : "false", r->out);
	}
}

/* Finds the {{/name}} closing the section opened just before s, honouring nesting. */
static const char *section_end(const char *s, const char *name, const char **after)
{
	int nest = 1;
	size_t n = strlen(name);

	while ((s = strstr(s, "{{")) != NULL) {
		const char *t = s + 2;

		if ((*t == '#' || *t == '^') && strncmp(t + 1, name, n) == 0 && strncmp(t + 1 + n, "}}", 2) == 0)
			nest++;
		if (*t == '/' && strncmp(t + 1, name, n) == 0 && strncmp(t + 1 + n, "}}", 2) == 0 && --nest == 0) {
			*after = t + 3 + n;
			return s;
		}
		s = t;
	}
	return NULL;
}

static int render(struct render *r, const char *s, const char *end);

static int section(struct render *r, char kind, const char *name, const char *body, const char *body_end)
{
	const json_t *v = lookup(r, name);
	size_t i;
	const json_t *item;

	if (kind == '^')
		return truthy(v) ? 0 : render(r, body, body_end);
	if (!truthy(v))
		return 0;
	if (r->depth == MAX_DEPTH)
		return ud_fail(r->err, "%s:%d: sections nested too deep", r->name, line_of(r, body));
	if (json_is_array(v)) {
		json_array_foreach(v, i, item) {
			int ret;

			r->stack[r->depth++] = item;
			ret = render(r, body, body_end);
			r->depth--;
			if (ret)
				return ret;
		}
		return 0;
	}
	if (json_is_object(v)) {
		int ret;

		r->stack[r->depth++] = v;
		ret = render(r, body, body_end);
		r->depth--;
		return ret;
	}
	return render(r, body, body_end);
}

static int render(struct render *r, const char *s, const char *end)
{
	while (s < end) {
		const char *open = strstr(s, "{{"), *close;
		char name[128];
		char kind;
		size_t n;

		if (!open || open >= end) {
			fwrite(s, 1, (size_t)(end - s), r->out);
			return 0;
		}
		fwrite(s, 1, (size_t)(open - s), r->out);
		close = strstr(open, "}}");
		if (!close || close >= end)
			return ud_fail(r->err, "%s:%d: '{{' without '}}'", r->name, line_of(r, open));
		kind = open[2];
		s = close + 2;
		if (kind == '!')
			continue;
		if (kind == '/')
			return ud_fail(r->err, "%s:%d: a closing tag without its section", r->name, line_of(r, open));
		{
			const char *p = open + 2 + (kind == '#' || kind == '^');

			while (isspace((unsigned char)*p))
				p++;
			n = (size_t)(close - p);
			while (n && isspace((unsigned char)p[n - 1]))
				n--;
			if (n == 0 || n >= sizeof(name))
				return ud_fail(r->err, "%s:%d: an empty or overlong tag", r->name, line_of(r, open));
			snprintf(name, sizeof(name), "%.*s", (int)n, p);
		}
		if (kind == '#' || kind == '^') {
			const char *after, *body_end = section_end(s, name, &after);
			int ret;

			if (!body_end || body_end > end)
				return ud_fail(r->err, "%s:%d: section '%s' is never closed", r->name, line_of(r, open), name);
			/* A section tag alone on its line leaves no blank line behind. */
			if (*s == '\n')
				s++;
			ret = section(r, kind, name, s, body_end);
			if (ret)
				return ret;
			s = after;
			if (*s == '\n' && (body_end == r->start || body_end[-1] == '\n'))
				s++;
			continue;
		}
		emit(r, lookup(r, name));
	}
	return 0;
}

int ud_template_render(const char *tmpl, const char *name, const json_t *ctx, ud_escape_fn esc, FILE *out,
		       struct ud_err *err)
{
	struct render r = { .name = name, .depth = 1, .esc = esc, .out = out, .err = err, .start = tmpl };

	r.stack[0] = ctx;
	return render(&r, tmpl, tmpl + strlen(tmpl));
}
