/*
 * Two writers behind one set of calls.  The text writer keeps, per open
 * container, whether it has a member yet (for the comma and the closing
 * line); the tree writer keeps the open containers themselves.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_emit.h"
#include "json_number.h"
#include "text.h"

/* Large enough that one token rarely straddles two flushes. */
#define TEXT_BUFFER 65536
#define INDENT 2

enum writer_kind { WRITER_TEXT, WRITER_TREE };

struct ud_jw {
	enum writer_kind kind;
	bool failed, done;
	size_t depth, cap;
	/* text: per level, whether it has a member yet (bit 0) and is an object (bit 1) */
	unsigned char *level;
	/* tree: the open containers, and the finished document */
	json_t **open, *root;
	FILE *f;
	size_t used;
	char *buf;
};

#define LEVEL_HAS_MEMBER 1u
#define LEVEL_OBJECT 2u

static struct ud_jw *writer_new(enum writer_kind kind)
{
	struct ud_jw *w = calloc(1, sizeof(*w));

	if (w)
		w->kind = kind;
	return w;
}

struct ud_jw *ud_jw_text(FILE *f)
{
	struct ud_jw *w = writer_new(WRITER_TEXT);

	if (w && !(w->buf = malloc(TEXT_BUFFER))) {
		free(w);
		return NULL;
	}
	if (w)
		w->f = f;
	return w;
}

struct ud_jw *ud_jw_tree(void)
{
	return writer_new(WRITER_TREE);
}

static void flush(struct ud_jw *w)
{
	if (w->used && fwrite(w->buf, 1, w->used, w->f) != w->used)
		w->failed = true;
	w->used = 0;
}

static void put(struct ud_jw *w, const char *s, size_t n)
{
	if (n > TEXT_BUFFER - w->used)
		flush(w);
	if (n > TEXT_BUFFER) {
		if (fwrite(s, 1, n, w->f) != n)
			w->failed = true;
		return;
	}
	memcpy(w->buf + w->used, s, n);
	w->used += n;
}

/*
 * Room for n (at most TEXT_BUFFER) bytes at the end of the buffer, flushed
 * first where they would not fit: a token short enough is written in place,
 * without a memcpy call per piece.
 */
static char *reserve(struct ud_jw *w, size_t n)
{
	if (n > TEXT_BUFFER - w->used)
		flush(w);
	return w->buf + w->used;
}

static void put_c(struct ud_jw *w, char c)
{
	if (w->used == TEXT_BUFFER)
		flush(w);
	w->buf[w->used++] = c;
}

static void put_indent(struct ud_jw *w, size_t depth)
{
	static const char spaces[] = "                                ";
	size_t width = depth * INDENT;

	if (width < sizeof(spaces)) {
		char *p = reserve(w, 1 + width);

		p[0] = '\n';
		memcpy(p + 1, spaces, width);
		w->used += 1 + width;
		return;
	}
	put_c(w, '\n');
	for (size_t n = width; n;) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		put(w, spaces, k);
		n -= k;
	}
}

/* Writes the escape of c, a byte below 0x20, a quote or a backslash. */
static void put_escape(struct ud_jw *w, unsigned char c)
{
	static const char hex[] = "0123456789ABCDEF";
	char esc[6] = { '\\', 0 };
	size_t k = 2;

	switch (c) {
	case '"': esc[1] = '"'; break;
	case '\\': esc[1] = '\\'; break;
	case '\b': esc[1] = 'b'; break;
	case '\f': esc[1] = 'f'; break;
	case '\n': esc[1] = 'n'; break;
	case '\r': esc[1] = 'r'; break;
	case '\t': esc[1] = 't'; break;
	default:
		memcpy(esc + 1, "u00", 3);
		esc[4] = hex[c >> 4];
		esc[5] = hex[c & 15];
		k = 6;
	}
	put(w, esc, k);
}

/* A character a terminal would obey that is not below 0x20, n bytes of UTF-8 at s, as its \uXXXX escape. */
static void put_unicode_escape(struct ud_jw *w, const unsigned char *s, size_t n)
{
	unsigned cp = n == 1 ? s[0] : n == 2 ? s[0] & 0x1fu : n == 3 ? s[0] & 0x0fu : s[0] & 0x07u;
	char esc[16];

	for (size_t i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3fu);
	/* past the BMP (the tag characters), JSON's escape is a UTF-16 surrogate pair */
	if (cp >= 0x10000)
		snprintf(esc, sizeof(esc), "\\u%04X\\u%04X", 0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
	else
		snprintf(esc, sizeof(esc), "\\u%04X", cp);
	put(w, esc, strlen(esc));
}

/*
 * jansson's escapes (the two that must be, the short control escapes,
 * \u00XX for the other controls), and \uXXXX for the characters text.h's
 * rule escapes beyond them (DEL, C1, the format characters and the line
 * separators): the same string to a JSON reader, nothing a terminal obeys.
 * A byte that starts no UTF-8 character (a Latin-1 paste) is written as
 * U+FFFD: a document with it would be refused by every JSON reader,
 * uarchdiff's own included.
 */
/*
 * The bytes a JSON string holds as they are and a terminal shows as
 * themselves: printable ASCII but '"' and '\\' (a table: one load a byte,
 * where the comparisons were most of a key's cost).  NUL is not plain, so a
 * scan stops at a C string's end.
 */
static const unsigned char plain_byte[256] = {
	[0x20] =
	/* 0x20 */ 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x30 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x40 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x50 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	/* 0x60 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x70 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
};

/* The length of the plain bytes s[0..n) starts with. */
static size_t plain_prefix(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && plain_byte[(unsigned char)s[i]])
		i++;
	return i;
}

static void put_string(struct ud_jw *w, const char *s, size_t n)
{
	size_t run = 0;

	/* most strings (every key, most names) are plain: quoted in place */
	if (n + 2 <= TEXT_BUFFER && plain_prefix(s, n) == n) {
		char *p = reserve(w, n + 2);

		p[0] = '"';
		memcpy(p + 1, s, n);
		p[n + 1] = '"';
		w->used += n + 2;
		return;
	}
	put_c(w, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t k;

		if (c < 0x20 || c == '"' || c == '\\') {
			put(w, s + run, i - run);
			put_escape(w, c);
			run = i + 1;
		} else if (c >= 0x7f && (k = ud_control_len(s + i)) > 0) {
			put(w, s + run, i - run);
			put_unicode_escape(w, (const unsigned char *)s + i, k);
			i += k - 1;
			run = i + 1;
		} else if (c >= 0x80 && (k = ud_utf8_len(s + i, n - i)) == 0) {
			put(w, s + run, i - run);
			put(w, UD_UTF8_REPLACEMENT, 3);
			run = i + 1;
		} else if (c >= 0x80) {
			i += k - 1;
		}
	}
	put(w, s + run, n - run);
	put_c(w, '"');
}

/* Before a member of the innermost container: the comma, its line, its key. */
static bool text_member(struct ud_jw *w, const char *key)
{
	unsigned char *lv;

	if (w->depth == 0) {
		if (w->done || key)
			return false;
		w->done = true;
		return true;
	}
	lv = &w->level[w->depth - 1];
	if (!(*lv & LEVEL_OBJECT) != !key)
		return false;
	if (*lv & LEVEL_HAS_MEMBER)
		put_c(w, ',');
	*lv |= LEVEL_HAS_MEMBER;
	put_indent(w, w->depth);
	if (key) {
		size_t n = 0;

		/* the plain bytes and the length in one pass */
		while (plain_byte[(unsigned char)key[n]])
			n++;
		if (!key[n] && n + 4 <= TEXT_BUFFER) {
			char *p = reserve(w, n + 4);

			p[0] = '"';
			memcpy(p + 1, key, n);
			memcpy(p + 1 + n, "\": ", 3);
			w->used += n + 4;
		} else {
			n += strlen(key + n);
			put_string(w, key, n);
			put(w, ": ", 2);
		}
	}
	return true;
}

static bool grow(struct ud_jw *w)
{
	size_t cap = w->cap ? 2 * w->cap : 16;
	void *p;

	if (w->depth < w->cap)
		return true;
	if (w->kind == WRITER_TEXT) {
		if (!(p = realloc(w->level, cap)))
			return false;
		w->level = p;
	} else {
		if (!(p = realloc(w->open, cap * sizeof(*w->open))))
			return false;
		w->open = p;
	}
	w->cap = cap;
	return true;
}

/* Adds v (stolen) to the innermost container, or makes it the document. */
static bool tree_add(struct ud_jw *w, const char *key, json_t *v)
{
	json_t *top;

	if (!v)
		return false;
	if (w->depth == 0) {
		if (w->root || key) {
			json_decref(v);
			return false;
		}
		w->root = v;
		return true;
	}
	top = w->open[w->depth - 1];
	if (json_is_object(top) != (key != NULL)) { /* a member needs its name, an element has none */
		json_decref(v);
		return false;
	}
	if (key && !ud_utf8_valid(key)) {
		/* a key jansson would refuse: not UTF-8 (a pasted event or workload name), made so */
		char *valid = ud_utf8_valid_copy(key);
		bool ok = valid && json_object_set_new(top, valid, v) == 0;

		if (!valid)
			json_decref(v);
		free(valid);
		return ok;
	}
	return key ? json_object_set_new(top, key, v) == 0 : json_array_append_new(top, v) == 0;
}

static void open_container(struct ud_jw *w, const char *key, bool object)
{
	if (!w || w->failed)
		return;
	if (!grow(w)) {
		w->failed = true;
		return;
	}
	if (w->kind == WRITER_TEXT) {
		if (!text_member(w, key)) {
			w->failed = true;
			return;
		}
		put_c(w, object ? '{' : '[');
		w->level[w->depth++] = object ? LEVEL_OBJECT : 0;
		return;
	}
	json_t *c = object ? json_object() : json_array();

	if (!tree_add(w, key, c)) {
		w->failed = true;
		return;
	}
	w->open[w->depth++] = c;
}

void ud_jw_object(struct ud_jw *w, const char *key)
{
	open_container(w, key, true);
}

void ud_jw_array(struct ud_jw *w, const char *key)
{
	open_container(w, key, false);
}

void ud_jw_end(struct ud_jw *w)
{
	if (!w || w->failed)
		return;
	if (w->depth == 0) {
		w->failed = true;
		return;
	}
	w->depth--;
	if (w->kind == WRITER_TREE)
		return;
	if (w->level[w->depth] & LEVEL_HAS_MEMBER)
		put_indent(w, w->depth);
	put_c(w, w->level[w->depth] & LEVEL_OBJECT ? '}' : ']');
}

static void add(struct ud_jw *w, const char *key, json_t *v)
{
	if (!tree_add(w, key, v))
		w->failed = true;
}

/* For the text writer: the member's comma, line and key written, or the writer failed. */
static bool text_ready(struct ud_jw *w, const char *key)
{
	if (text_member(w, key))
		return true;
	w->failed = true;
	return false;
}

void ud_jw_number(struct ud_jw *w, const char *key, double v)
{
	/* beyond 2^53 a double no longer holds every integer: written as the real it is (NaN, infinities: null) */
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		ud_jw_integer(w, key, (json_int_t)v);
	else
		ud_jw_real(w, key, v);
}

void ud_jw_null(struct ud_jw *w, const char *key)
{
	if (!w || w->failed)
		return;
	if (w->kind == WRITER_TREE)
		add(w, key, json_null());
	else if (text_ready(w, key))
		put(w, "null", 4);
}

void ud_jw_bool(struct ud_jw *w, const char *key, bool v)
{
	if (!w || w->failed)
		return;
	if (w->kind == WRITER_TREE)
		add(w, key, json_boolean(v));
	else if (text_ready(w, key))
		put(w, v ? "true" : "false", v ? 4 : 5);
}

void ud_jw_real(struct ud_jw *w, const char *key, double v)
{
	if (!w || w->failed)
		return;
	/*
	 * -0 is written 0.0: ud_jw_number() writes a -0 figure as the integer 0,
	 * so a ratio of it (sys_share of sys_ns -0) said -0.0 once and 0.0 after
	 * a re-read; no figure of a document means anything by the sign of a zero.
	 */
	if (v == 0)
		v = 0.0;
	if (w->kind == WRITER_TREE)
		add(w, key, isfinite(v) ? json_real(v) : json_null());
	else if (text_ready(w, key))
		w->used += ud_json_format_double(v, reserve(w, UD_JSON_DOUBLE_MAX));
}

void ud_jw_integer(struct ud_jw *w, const char *key, json_int_t v)
{
	char text[24];

	if (!w || w->failed)
		return;
	if (w->kind == WRITER_TREE)
		add(w, key, json_integer(v));
	else if (text_ready(w, key))
		put(w, text, (size_t)snprintf(text, sizeof(text), "%" JSON_INTEGER_FORMAT, v));
}

/* A jansson string of s, its bytes that are not UTF-8 made U+FFFD (jansson refuses them); NULL out of memory. */
static json_t *tree_string(const char *s)
{
	json_t *j = json_string(s);
	char *valid;

	if (j || !(valid = ud_utf8_valid_copy(s)))
		return j;
	j = json_string(valid);
	free(valid);
	return j;
}

void ud_jw_string(struct ud_jw *w, const char *key, const char *s)
{
	if (!s) {
		ud_jw_null(w, key);
		return;
	}
	if (!w || w->failed)
		return;
	if (w->kind == WRITER_TREE)
		add(w, key, tree_string(s));
	else if (text_ready(w, key))
		put_string(w, s, strlen(s));
}

/* The text of a tree, member by member, in jansson's order (insertion order). */
static void text_value(struct ud_jw *w, const char *key, const json_t *v)
{
	const char *k;
	json_t *m;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		ud_jw_object(w, key);
		json_object_foreach((json_t *)v, k, m)
			text_value(w, k, m);
		ud_jw_end(w);
		break;
	case JSON_ARRAY:
		ud_jw_array(w, key);
		json_array_foreach(v, i, m)
			text_value(w, NULL, m);
		ud_jw_end(w);
		break;
	case JSON_STRING:
		if (text_ready(w, key))
			put_string(w, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		ud_jw_integer(w, key, json_integer_value(v));
		break;
	case JSON_REAL:
		ud_jw_real(w, key, json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		ud_jw_bool(w, key, json_is_true(v));
		break;
	case JSON_NULL:
		ud_jw_null(w, key);
		break;
	}
}

void ud_jw_value(struct ud_jw *w, const char *key, const json_t *v)
{
	if (!v) {
		ud_jw_null(w, key);
		return;
	}
	if (!w || w->failed)
		return;
	if (w->kind == WRITER_TREE)
		add(w, key, json_incref((json_t *)v));
	else
		text_value(w, key, v);
}

int ud_jw_finish(struct ud_jw *w, json_t **tree)
{
	bool ok;

	if (!w) {
		if (tree)
			*tree = NULL;
		return -1;
	}
	ok = !w->failed && w->depth == 0 && (w->kind == WRITER_TEXT ? w->done : w->root != NULL);
	if (w->kind == WRITER_TEXT) {
		put_c(w, '\n');
		flush(w);
		ok = ok && !w->failed && fflush(w->f) == 0;
	} else if (tree) {
		*tree = ok ? w->root : NULL;
		if (!ok)
			json_decref(w->root);
	} else {
		json_decref(w->root);
	}
	free(w->level);
	free(w->open);
	free(w->buf);
	free(w);
	return ok ? 0 : -1;
}
