/*
 * json_doc.c - a JSON text into one array of values (json_doc.h).
 *
 * One pass, no recursion: a container's members follow it in the array,
 * each linked to the next, so a lookup walks the members and skips their
 * subtrees in one step.  Strings are decoded in place in the document's
 * copy of the text (a decoded string is never longer than its quoted form)
 * and NUL-terminated there.  The rules, and where they differ from the RFC,
 * are jansson's, so that a profile reads the same as it did through
 * json_loadb().
 */
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_doc.h"
#include "sort.h"
#include "text.h"

/* jansson's JSON_PARSER_MAX_DEPTH: deeper nesting is refused, as json_loadb() refuses it. */
#define UD_JDOC_MAX_DEPTH 2048

/* Objects with more members than this find duplicate keys by sorting, not pairwise. */
#define UD_JDOC_PAIRWISE_MAX 16

#define NO_KEY UINT32_MAX

/* The NUL after the text, and 7 more bytes for plain8() to read from the NUL on. */
#define TEXT_PAD 8

struct node {
	uint8_t type;	/* enum ud_jtype */
	uint32_t key;	/* offset of the member's key in the text, NO_KEY for the root and array members */
	uint32_t next;	/* the next member of the same container; 0 for none (the root is never a member) */
	union {
		double real;
		long long integer;
		uint32_t str;	/* offset of the decoded string in the text */
		uint32_t count; /* members of an array or object */
	} u;
};

struct ud_jdoc {
	char *text; /* the copy: decoded strings, NUL-terminated */
	struct node *nodes;
	uint32_t n, cap;
};

/* An open container while its members are read. */
struct frame {
	uint32_t node, last, count;
};

struct parser {
	struct ud_jdoc *doc;
	const char *orig; /* the caller's text, unchanged, for line and column */
	char *p, *end;
	struct ud_err *err;
	size_t depth;
	struct frame stack[UD_JDOC_MAX_DEPTH];
};

enum { DONE, OPENED, FAILED };

__attribute__((format(printf, 2, 3))) static int fail(struct parser *ps, const char *fmt, ...)
{
	size_t off = (size_t)(ps->p - ps->doc->text), line = 1, col = 1;
	char what[256];
	va_list ap;

	for (size_t i = 0; i < off; i++, col++) {
		if (ps->orig[i] == '\n') {
			line++;
			col = 0;
		}
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (ps->p == ps->end)
		ud_fail(ps->err, "%zu:%zu: %s (at the end of the text)", line, col, what);
	else
		ud_fail(ps->err, "%zu:%zu: %s", line, col, what);
	return FAILED;
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t')
		ps->p++;
	/* a NUL inside the text is not white space, nor anything else JSON allows */
}

/* A new value at the end of the array, linked as the next member of the open container. */
static struct node *add_node(struct parser *ps, enum ud_jtype type, uint32_t key)
{
	struct ud_jdoc *d = ps->doc;
	struct node *nd;

	if (d->n == d->cap) {
		uint32_t cap = d->cap > UINT32_MAX / 2 ? UINT32_MAX : d->cap * 2;
		struct node *nodes = cap > d->cap ? realloc(d->nodes, (size_t)cap * sizeof(*nodes)) : NULL;

		if (!nodes)
			return NULL;
		d->nodes = nodes;
		d->cap = cap;
	}
	if (ps->depth) {
		struct frame *top = &ps->stack[ps->depth - 1];

		if (top->last)
			d->nodes[top->last].next = d->n;
		top->last = d->n;
		top->count++;
	}
	nd = &d->nodes[d->n++];
	*nd = (struct node){ .type = (uint8_t)type, .key = key, .next = 0 };
	return nd;
}

static int hex4(const char *s, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		unsigned digit = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			       : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			       : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;

		if (digit == 16)
			return -1;
		*out = *out << 4 | digit;
	}
	return 0;
}

static char *put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		*out++ = (char)cp;
	} else if (cp < 0x800) {
		*out++ = (char)(0xc0 | cp >> 6);
		*out++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*out++ = (char)(0xe0 | cp >> 12);
		*out++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*out++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*out++ = (char)(0xf0 | cp >> 18);
		*out++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*out++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*out++ = (char)(0x80 | (cp & 0x3f));
	}
	return out;
}

/* "\uXXXX" at ps->p (after the backslash's 'u'), a surrogate pair as one code point, written at out. */
static int unicode_escape(struct parser *ps, char **out)
{
	unsigned cp, low;

	if (hex4(ps->p, &cp) != 0)
		return fail(ps, "invalid escape: \\u needs four hexadecimal digits");
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(ps, "invalid Unicode: a low surrogate \\u%04X without a high one", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->p[4] != '\\' || ps->p[5] != 'u' || hex4(ps->p + 6, &low) != 0 || low < 0xdc00 || low > 0xdfff)
			return fail(ps, "invalid Unicode: a high surrogate \\u%04X without a low one", cp);
		cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
		ps->p += 6;
	}
	if (cp == 0)
		return fail(ps, "\\u0000 is not allowed in a string");
	ps->p += 4;
	*out = put_utf8(*out, cp);
	return DONE;
}

static int escape(struct parser *ps, char **out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit = *ps->p ? strchr(from, *ps->p) : NULL;

	if (*ps->p == 'u') {
		ps->p++;
		return unicode_escape(ps, out);
	}
	if (!hit)
		return fail(ps, "invalid escape");
	*(*out)++ = to[hit - from];
	ps->p++;
	return DONE;
}

#define BYTES(b) (0x0101010101010101ull * (b))

/*
 * The bytes of the 8 at p that end a string's plain run (a quote, a
 * backslash, a control character, non-ASCII), each flagged by its top bit
 * (Bit Twiddling Hacks' "has a byte less than n"): 0 when none does.  A
 * borrow can flag a byte after a flagged one, never one before: the first
 * flag is exact.  The text's padding (TEXT_PAD) lets a step read past a
 * string's end up to the NUL.
 */
static uint64_t enders8(const char *p)
{
	uint64_t x, special;

	memcpy(&x, p, sizeof(x));
	special = ((x - BYTES(0x20)) & ~x) | x;			      /* below 0x20, or 0x80 and up */
	special |= ((x ^ BYTES('"')) - BYTES(1)) & ~(x ^ BYTES('"'));	      /* a quote */
	special |= ((x ^ BYTES('\\')) - BYTES(1)) & ~(x ^ BYTES('\\')); /* a backslash */
	return special & BYTES(0x80);
}

/* The first byte at or after p that ends a string's plain run, 8 bytes a step. */
static char *plain_end(char *p)
{
	uint64_t m;

	while (!(m = enders8(p)))
		p += 8;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the first byte in memory is the word's lowest */
	return p + __builtin_ctzll(m) / 8;
#else
	(void)m;
	while ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x80 && *p != '"' && *p != '\\')
		p++;
	return p;
#endif
}

/* The string whose opening quote is at ps->p, decoded in place; *off: where it starts in the text. */
static int parse_string(struct parser *ps, uint32_t *off)
{
	char *out, *p = ps->p + 1;

	*off = (uint32_t)(p - ps->doc->text);
	/*
	 * until its first escape or non-ASCII byte the decoded string is the
	 * text itself: nothing to copy, and 8 bytes a step (a fleet's profiles
	 * are a few million names and words)
	 */
	ps->p = out = plain_end(p);
	for (;;) {
		unsigned char c = (unsigned char)*ps->p;
		size_t n;

		if (c == '"') {
			*out = '\0';
			ps->p++;
			return DONE;
		}
		if (c == '\\') {
			ps->p++;
			if (escape(ps, &out) != DONE)
				return FAILED;
		} else if (c < 0x20) {
			return ps->p == ps->end ? fail(ps, "a string is not closed")
						: fail(ps, "control character 0x%x in a string", c);
		} else if (c < 0x80) {
			*out++ = *ps->p++;
		} else if ((n = ud_utf8_sequence((const unsigned char *)ps->p)) != 0) {
			memmove(out, ps->p, n);
			out += n;
			ps->p += n;
		} else {
			return fail(ps, "invalid UTF-8 in a string");
		}
	}
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* JSON's '.' whatever the process's locale says. */
static double strtod_c(const char *s)
{
	pthread_once(&c_locale_once, make_c_locale);
	return c_locale ? strtod_l(s, NULL, c_locale) : strtod(s, NULL);
}

/*
 * Exactly representable integers: a significand up to 2^53 and powers of
 * ten up to 10^22 (5^22 < 2^53), so that one multiplication or division
 * of the two is the correctly rounded value strtod() would give (Clinger's
 * fast path, as in RapidJSON and fast_float).
 */
#define EXACT_SIGNIFICAND (1ull << 53)
#define EXACT_POW10 22

static const double exact_pow10[EXACT_POW10 + 1] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * A number's digits as its grammar is checked, in the same pass: a
 * fleet's profiles are mostly numbers, and the C library's conversions
 * were a tenth of compare's time, a second walk of the digits a twentieth
 * (issue 38).
 */
struct number {
	unsigned long long m; /* the digits, the point ignored, while exact */
	int scale;	      /* m's power of ten: minus the digits after the point, plus the exponent */
	int exp;	      /* the exponent, while exact */
	bool exact;	      /* m, scale and exp hold the number: neither strtoll() nor strtod() is needed */
};

/* The digits at ps->p into n (after the point: each one lowers the scale); whether there was one. */
static bool digits(struct parser *ps, struct number *n, bool fraction)
{
	char *p = ps->p;
	unsigned long long m = n->m;
	int scale = n->scale;
	bool exact = n->exact;

	/* in locals: a store through n could be a byte of the text for all the compiler knows */
	for (; *p >= '0' && *p <= '9'; p++) {
		/* a digit more than 2^53 holds: strtod()'s rounding, not ours */
		if (m >= EXACT_SIGNIFICAND)
			exact = false;
		if (exact) {
			m = m * 10 + (unsigned)(*p - '0');
			scale -= fraction;
		}
	}
	*n = (struct number){ m, scale, n->exp, exact };
	if (p == ps->p)
		return false;
	ps->p = p;
	return true;
}

/* The exponent's digits at ps->p into n; whether there was one. */
static bool exponent_digits(struct parser *ps, struct number *n)
{
	char *p = ps->p;

	for (; *p >= '0' && *p <= '9'; p++)
		if (n->exact && (n->exp = n->exp * 10 + (*p - '0')) > 2 * EXACT_POW10)
			n->exact = false;
	if (p == ps->p)
		return false;
	ps->p = p;
	return true;
}

/*
 * n's value into nd as strtoll() or strtod() reads it, where n is exact:
 * 1 done, 0 where they must.
 */
static int exact_number(const struct number *n, bool neg, bool real, bool exp_neg, struct node *nd)
{
	int scale = n->scale + (exp_neg ? -n->exp : n->exp);

	if (!n->exact)
		return 0;
	if (!real) {
		/* below 2^54: no 64-bit overflow, the same as strtoll() */
		nd->type = UD_JINTEGER;
		nd->u.integer = neg ? -(long long)n->m : (long long)n->m;
		return 1;
	}
	/* an x87's wider intermediate would round twice */
	if (FLT_EVAL_METHOD != 0 || n->m > EXACT_SIGNIFICAND || scale < -EXACT_POW10 || scale > EXACT_POW10)
		return 0;
	nd->type = UD_JREAL;
	nd->u.real = scale < 0 ? (double)n->m / exact_pow10[-scale] : (double)n->m * exact_pow10[scale];
	if (neg)
		nd->u.real = -nd->u.real;
	return 1;
}

/* RFC 8259's number grammar checked here, so strtoll() and strtod() see only what it allows. */
static int parse_number(struct parser *ps, struct node *nd)
{
	char *start = ps->p;
	struct number n = { .exact = true };
	bool neg = *ps->p == '-', real = false, exp_neg = false;

	ps->p += neg;
	if (*ps->p == '0')
		ps->p++;
	else if (!digits(ps, &n, false))
		return fail(ps, "invalid number");
	if (*ps->p == '.') {
		ps->p++;
		real = true;
		if (!digits(ps, &n, true))
			return fail(ps, "invalid number: digits must follow '.'");
	}
	if (*ps->p == 'e' || *ps->p == 'E') {
		ps->p++;
		real = true;
		exp_neg = *ps->p == '-';
		if (*ps->p == '+' || *ps->p == '-')
			ps->p++;
		if (!exponent_digits(ps, &n))
			return fail(ps, "invalid number: digits must follow the exponent");
	}
	if (exact_number(&n, neg, real, exp_neg, nd))
		return DONE;
	errno = 0;
	if (!real) {
		nd->type = UD_JINTEGER;
		nd->u.integer = strtoll(start, NULL, 10);
		if (errno == ERANGE)
			return (ps->p = start, fail(ps, "an integer too large for 64 bits"));
	} else {
		nd->type = UD_JREAL;
		nd->u.real = strtod_c(start);
		if (errno == ERANGE && isinf(nd->u.real))
			return (ps->p = start, fail(ps, "a real number too large for a double"));
	}
	return DONE;
}

static int literal(struct parser *ps, struct node *nd, const char *word, enum ud_jtype type)
{
	size_t n = strlen(word);

	if (strncmp(ps->p, word, n) != 0)
		return fail(ps, "invalid token");
	nd->type = (uint8_t)type;
	ps->p += n;
	return DONE;
}

/* The value at ps->p, a member of the open container under key: DONE, or OPENED for an array or object. */
static int parse_value(struct parser *ps, uint32_t key)
{
	struct node *nd = add_node(ps, UD_JNULL, key);
	char c = *ps->p;

	if (!nd)
		return fail(ps, "out of memory");
	/* jansson counts every value, a scalar too, against its depth */
	if (ps->depth == UD_JDOC_MAX_DEPTH)
		return fail(ps, "nested deeper than %d", UD_JDOC_MAX_DEPTH);
	switch (c) {
	case '{':
	case '[':
		nd->type = c == '{' ? UD_JOBJECT : UD_JARRAY;
		ps->stack[ps->depth++] = (struct frame){ ps->doc->n - 1, 0, 0 };
		ps->p++;
		return OPENED;
	case '"':
		nd->type = UD_JSTRING;
		return parse_string(ps, &nd->u.str);
	case 't':
		return literal(ps, nd, "true", UD_JTRUE);
	case 'f':
		return literal(ps, nd, "false", UD_JFALSE);
	case 'n':
		return literal(ps, nd, "null", UD_JNULL);
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return parse_number(ps, nd);
		return fail(ps, ps->p == ps->end ? "a value is missing" : "invalid token");
	}
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The second of two equal keys of the object at node o (pointing into the
 * text, so the error can name its place), NULL if none, or with *oom set
 * when the check could not run.
 */
static const char *duplicate_key(const struct ud_jdoc *d, uint32_t o, int *oom)
{
	const char *dup = NULL, **keys;
	uint32_t n = d->nodes[o].u.count, k = 0;

	if (n <= UD_JDOC_PAIRWISE_MAX) {
		for (uint32_t a = o + 1; a && !dup; a = d->nodes[a].next) {
			const char *ka = d->text + d->nodes[a].key;

			/* most keys differ in their first byte: no call for them */
			for (uint32_t b = d->nodes[a].next; b && !dup; b = d->nodes[b].next)
				if (d->text[d->nodes[b].key] == ka[0] && strcmp(ka, d->text + d->nodes[b].key) == 0)
					dup = d->text + d->nodes[b].key;
		}
		return dup;
	}
	keys = malloc(n * sizeof(*keys));
	if (!keys)
		return (*oom = 1, NULL);
	for (uint32_t m = o + 1; m; m = d->nodes[m].next)
		keys[k++] = d->text + d->nodes[m].key;
	ud_sort(keys, n, sizeof(*keys), key_cmp);
	for (uint32_t i = 1; i < n && !dup; i++)
		if (strcmp(keys[i - 1], keys[i]) == 0)
			dup = keys[i - 1] > keys[i] ? keys[i - 1] : keys[i];
	free(keys);
	return dup;
}

/* The closing bracket at ps->p ends the open container. */
static int close_container(struct parser *ps)
{
	struct frame f = ps->stack[--ps->depth];
	struct node *nd = &ps->doc->nodes[f.node];
	const char *dup;
	int oom = 0;

	nd->u.count = f.count;
	ps->p++;
	if (nd->type == UD_JOBJECT && f.count > 1 && (dup = duplicate_key(ps->doc, f.node, &oom)) != NULL) {
		ps->p = (char *)dup - 1; /* its opening quote */
		return fail(ps, "duplicate object key \"%s\"", dup);
	}
	return oom ? fail(ps, "out of memory") : DONE;
}

/* The next member of the open container: its key first if it is an object's. */
static int parse_member(struct parser *ps)
{
	uint32_t key = NO_KEY;

	if (ps->doc->nodes[ps->stack[ps->depth - 1].node].type == UD_JOBJECT) {
		if (*ps->p != '"')
			return fail(ps, "a string key is expected");
		if (parse_string(ps, &key) != DONE)
			return FAILED;
		skip_ws(ps);
		if (*ps->p != ':')
			return fail(ps, "':' is expected after a key");
		ps->p++;
		skip_ws(ps);
	}
	return parse_value(ps, key);
}

static int parse_document(struct parser *ps)
{
	int status;

	skip_ws(ps);
	for (status = parse_value(ps, NO_KEY); status != FAILED && ps->depth;) {
		char closer = ps->doc->nodes[ps->stack[ps->depth - 1].node].type == UD_JOBJECT ? '}' : ']';

		skip_ws(ps);
		if (*ps->p == closer) {
			status = close_container(ps);
			continue;
		}
		if (status == DONE) {
			if (*ps->p != ',')
				return fail(ps, "',' or '%c' is expected", closer);
			ps->p++;
			skip_ws(ps);
		}
		status = parse_member(ps);
	}
	if (status == FAILED)
		return -1;
	skip_ws(ps);
	return ps->p == ps->end ? 0 : (fail(ps, "the text goes on after the value"), -1);
}

struct ud_jdoc *ud_jdoc_parse(const char *text, size_t len, struct ud_err *err)
{
	struct ud_jdoc *d = calloc(1, sizeof(*d));
	struct parser *ps = malloc(sizeof(*ps));

	if (len >= NO_KEY) {
		ud_fail(err, "a JSON text of %zu bytes is more than this reader takes", len);
		goto fail;
	}
	if (!d || !ps || !(d->text = malloc(len + TEXT_PAD)))
		goto oom;
	if (len)
		memcpy(d->text, text, len);
	memset(d->text + len, 0, TEXT_PAD);
	d->cap = (uint32_t)(len / 16 + 16);
	if (!(d->nodes = malloc(d->cap * sizeof(*d->nodes))))
		goto oom;
	/* field by field: a compound literal would zero the 24 KB stack, a tenth of a small profile's parse */
	ps->doc = d;
	ps->orig = text;
	ps->p = d->text;
	ps->end = d->text + len;
	ps->err = err;
	ps->depth = 0;
	if (parse_document(ps) != 0)
		goto fail;
	free(ps);
	return d;
oom:
	ud_fail(err, "out of memory");
fail:
	free(ps);
	ud_jdoc_free(d);
	return NULL;
}

void ud_jdoc_free(struct ud_jdoc *doc)
{
	if (!doc)
		return;
	free(doc->text);
	free(doc->nodes);
	free(doc);
}

struct ud_jv ud_jdoc_root(const struct ud_jdoc *doc)
{
	return (struct ud_jv){ doc, 0 };
}

static const struct node *node_of(struct ud_jv v)
{
	return v.doc ? &v.doc->nodes[v.i] : NULL;
}

enum ud_jtype ud_jv_type(struct ud_jv v)
{
	return v.doc ? (enum ud_jtype)v.doc->nodes[v.i].type : UD_JABSENT;
}

struct ud_jv ud_jv_first(struct ud_jv c)
{
	const struct node *nd = node_of(c);

	if (!nd || (nd->type != UD_JARRAY && nd->type != UD_JOBJECT) || nd->u.count == 0)
		return (struct ud_jv){ NULL, 0 };
	return (struct ud_jv){ c.doc, c.i + 1 };
}

struct ud_jv ud_jv_next(struct ud_jv m)
{
	const struct node *nd = node_of(m);

	return nd && nd->next ? (struct ud_jv){ m.doc, nd->next } : (struct ud_jv){ NULL, 0 };
}

struct ud_jv ud_jv_get(struct ud_jv obj, const char *key)
{
	const struct node *nodes;

	if (!obj.doc || obj.doc->nodes[obj.i].type != UD_JOBJECT || obj.doc->nodes[obj.i].u.count == 0)
		return (struct ud_jv){ NULL, 0 };
	/*
	 * the members walked by index, not value by value: a profile asks for
	 * every key of every counter, most of them absent, so most keys are
	 * told apart by their first two bytes without a call (issue 38)
	 */
	nodes = obj.doc->nodes;
	for (uint32_t i = obj.i + 1;; i = nodes[i].next) {
		const char *k = obj.doc->text + nodes[i].key;

		if (k[0] == key[0] && (!key[0] || k[1] == key[1]) && strcmp(k, key) == 0)
			return (struct ud_jv){ obj.doc, i };
		if (!nodes[i].next)
			return (struct ud_jv){ NULL, 0 };
	}
}

void ud_jv_pick(struct ud_jv obj, const char *const *keys, size_t n, struct ud_jv *out)
{
	const struct node *nodes;
	size_t next = 0;

	for (size_t k = 0; k < n; k++)
		out[k] = (struct ud_jv){ NULL, 0 };
	if (!obj.doc || obj.doc->nodes[obj.i].type != UD_JOBJECT || obj.doc->nodes[obj.i].u.count == 0)
		return;
	nodes = obj.doc->nodes;
	for (uint32_t i = obj.i + 1;; i = nodes[i].next) {
		const char *key = obj.doc->text + nodes[i].key;

		/*
		 * from the key after the last one found, round: where keys[] is in
		 * the order the writer wrote, each member is found at the first or
		 * second try (a document's keys are unique: a slot is filled once)
		 */
		for (size_t t = 0, k = next; t < n; t++, k = k + 1 < n ? k + 1 : 0)
			if (keys[k][0] == key[0] && strcmp(keys[k], key) == 0) {
				out[k] = (struct ud_jv){ obj.doc, i };
				next = k + 1 < n ? k + 1 : 0;
				break;
			}
		if (!nodes[i].next)
			return;
	}
}

const char *ud_jv_key(struct ud_jv m)
{
	const struct node *nd = node_of(m);

	return nd && nd->key != NO_KEY ? m.doc->text + nd->key : NULL;
}

const char *ud_jv_string(struct ud_jv v)
{
	const struct node *nd = node_of(v);

	return nd && nd->type == UD_JSTRING ? v.doc->text + nd->u.str : NULL;
}

double ud_jv_number(struct ud_jv v)
{
	const struct node *nd = node_of(v);

	if (!nd)
		return NAN;
	return nd->type == UD_JINTEGER ? (double)nd->u.integer : nd->type == UD_JREAL ? nd->u.real : NAN;
}

long long ud_jv_integer(struct ud_jv v)
{
	const struct node *nd = node_of(v);

	return nd && nd->type == UD_JINTEGER ? nd->u.integer : 0;
}

size_t ud_jv_size(struct ud_jv v)
{
	const struct node *nd = node_of(v);

	return nd && (nd->type == UD_JARRAY || nd->type == UD_JOBJECT) ? nd->u.count : 0;
}

static json_t *container_to_json(struct ud_jv v)
{
	int object = ud_jv_is_object(v);
	json_t *c = object ? json_object() : json_array();
	struct ud_jv m;

	if (!c)
		return NULL;
	ud_jv_foreach(v, m) {
		json_t *child = ud_jv_to_json(m);
		int ret = object ? json_object_set_new_nocheck(c, ud_jv_key(m), child) : json_array_append_new(c, child);

		if (ret != 0) {
			json_decref(c);
			return NULL;
		}
	}
	return c;
}

json_t *ud_jv_to_json(struct ud_jv v)
{
	switch (ud_jv_type(v)) {
	case UD_JNULL:
		return json_null();
	case UD_JTRUE:
		return json_true();
	case UD_JFALSE:
		return json_false();
	case UD_JINTEGER:
		return json_integer(ud_jv_integer(v));
	case UD_JREAL:
		return json_real(ud_jv_number(v));
	case UD_JSTRING:
		return json_string_nocheck(ud_jv_string(v));
	case UD_JARRAY:
	case UD_JOBJECT:
		return container_to_json(v);
	case UD_JABSENT:
		break;
	}
	return NULL;
}
