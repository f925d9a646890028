/* The flat JSON reader: its values, its errors, and the same verdict and values as jansson on any text. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_doc.h"
#include "kernels.h"
#include "testutil.h"

static unsigned pick(uint64_t *s, unsigned n)
{
	return (unsigned)(ud_xorshift(s) % n);
}

struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		ck_assert_ptr_nonnull(b->p);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void gen_ws(struct buf *b, uint64_t *s)
{
	static const char *ws[] = { "", "", "", " ", "\n", "\t", "\r\n  " };

	puts_(b, ws[pick(s, 7)]);
}

static void gen_number(struct buf *b, uint64_t *s)
{
	static const char *edge[] = { "9223372036854775807", "9223372036854775808", "-9223372036854775808",
				      "-9223372036854775809", "-0", "0", "-0.0", "1e400", "-1e400", "1e-400",
				      "1.7976931348623157e308", "4.9e-324", "1E5", "1e+5", "2.5e-3", "0.1" };
	char num[64];

	if (pick(s, 4) == 0) {
		puts_(b, edge[pick(s, sizeof(edge) / sizeof(*edge))]);
		return;
	}
	snprintf(num, sizeof(num), "%s%u", pick(s, 3) ? "" : "-", pick(s, 1000000));
	puts_(b, num);
	if (pick(s, 2))
		return;
	snprintf(num, sizeof(num), ".%u", pick(s, 100000));
	puts_(b, num);
	if (pick(s, 2) == 0) {
		snprintf(num, sizeof(num), "%s%s%u", pick(s, 2) ? "e" : "E", pick(s, 2) ? "-" : "+", pick(s, 40));
		puts_(b, num);
	}
}

static void gen_string(struct buf *b, uint64_t *s)
{
	static const char *piece[] = { "a", "key", " ", "\\n", "\\\"", "\\\\", "\\/", "\\b\\f\\r\\t", "\\u00e9",
				       "\\u20AC", "\\ud83d\\ude00", "\\udc00", "\\ud800", "\\ud800x", "\\u0000",
				       "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xed\xa0\x80", "\xc0\xaf",
				       "\x80", "\\x", "\\u12" };
	unsigned n = pick(s, 5);

	puts_(b, "\"");
	for (unsigned i = 0; i < n; i++)
		puts_(b, pick(s, 3) ? piece[pick(s, 3)] : piece[pick(s, sizeof(piece) / sizeof(*piece))]);
	puts_(b, "\"");
}

static void gen_value(struct buf *b, uint64_t *s, int depth);

static void gen_container(struct buf *b, uint64_t *s, int depth, int object)
{
	static const char *keys[] = { "\"a\"", "\"b\"", "\"c\"", "\"d\"", "\"e\"", "\"f\"", "\"g\"", "\"h\"", "\"i\"",
				      "\"j\"", "\"k\"", "\"l\"", "\"m\"", "\"n\"", "\"o\"", "\"p\"", "\"q\"", "\"r\"",
				      "\"s\"", "\"t\"", "\"u\"", "\"v\"", "\"w\"", "\"x\"", "\"y\"", "\"z\"", "\"\"",
				      "\"\\u0061\"" };
	unsigned n = pick(s, 4) == 0 ? 17 + pick(s, 8) : pick(s, 5), first = pick(s, 28);

	puts_(b, object ? "{" : "[");
	for (unsigned i = 0; i < n; i++) {
		gen_ws(b, s);
		if (i)
			puts_(b, ",");
		gen_ws(b, s);
		if (object) {
			/* mostly distinct keys, now and then a repeat */
			puts_(b, pick(s, 20) ? keys[(first + i) % 28] : keys[pick(s, 28)]);
			gen_ws(b, s);
			puts_(b, ":");
			gen_ws(b, s);
		}
		gen_value(b, s, depth + 1);
	}
	gen_ws(b, s);
	puts_(b, object ? "}" : "]");
}

static void gen_value(struct buf *b, uint64_t *s, int depth)
{
	static const char *lit[] = { "null", "true", "false" };
	unsigned kind = depth > 4 ? pick(s, 5) : pick(s, 7);

	if (kind < 1)
		puts_(b, lit[pick(s, 3)]);
	else if (kind < 3)
		gen_number(b, s);
	else if (kind < 5)
		gen_string(b, s);
	else
		gen_container(b, s, depth, kind == 6);
}

static void mutate(struct buf *b, uint64_t *s)
{
	static const char alphabet[] = "{}[]:,\"\\ue0-1.+ \0\x80\xff";
	size_t at = b->len ? pick(s, (unsigned)b->len) : 0;

	switch (pick(s, 4)) {
	case 0:
		if (b->len)
			b->p[at] = alphabet[pick(s, sizeof(alphabet) - 1)];
		break;
	case 1:
		if (b->len) {
			memmove(b->p + at, b->p + at + 1, b->len - at);
			b->len--;
		}
		break;
	case 2:
		put(b, " ", 1);
		memmove(b->p + at + 1, b->p + at, b->len - at - 1);
		b->p[at] = alphabet[pick(s, sizeof(alphabet) - 1)];
		break;
	default:
		b->len = at;
		break;
	}
}

/*
 * A NUL byte after a number or true, false, null (a digit, 'e' or 'l'):
 * jansson's lexer skips it there (it takes {"a":2\0} and [true\0]); the
 * reader refuses it.
 */
static int nul_after_token(const char *text, size_t len)
{
	for (size_t i = 1; i < len; i++)
		if (text[i] == '\0' && ((text[i - 1] >= '0' && text[i - 1] <= '9') || text[i - 1] == 'e' ||
					text[i - 1] == 'l'))
			return 1;
	return 0;
}

/* jansson and the reader on the same text: both refuse it, or both read the same values. */
static int same_verdict(const char *text, size_t len)
{
	json_error_t jerr;
	json_t *want = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr), *got;
	struct ud_err err = UD_ERR_INIT;
	struct ud_jdoc *doc = ud_jdoc_parse(text, len, &err);

	if (nul_after_token(text, len)) {
		json_decref(want);
		want = NULL;
		snprintf(jerr.text, sizeof(jerr.text), "(a NUL after a number or literal: refused)");
	}

	ck_assert_msg((want != NULL) == (doc != NULL), "jansson %s, the reader %s: <%.*s>",
		      want ? "accepts" : jerr.text, doc ? "accepts" : err.msg, (int)len, text);
	if (doc) {
		got = ud_jv_to_json(ud_jdoc_root(doc));
		ck_assert_msg(json_equal(want, got), "different values for <%.*s>", (int)len, text);
		json_decref(got);
	}
	json_decref(want);
	ud_jdoc_free(doc);
	return doc != NULL;
}

START_TEST(test_agrees_with_jansson)
{
	uint64_t s = 0x9e3779b97f4a7c15u;
	struct buf b = { 0 };
	int accepted = 0, refused = 0;

	for (int i = 0; i < 20000; i++) {
		b.len = 0;
		gen_value(&b, &s, 0);
		for (int m = i % 4 == 0 ? 0 : 1 + pick(&s, 3); m > 0; m--)
			mutate(&b, &s);
		if (same_verdict(b.p, b.len))
			accepted++;
		else
			refused++;
	}
	/* the generator must reach both sides, or the agreement says little */
	ck_assert_int_gt(accepted, 2000);
	ck_assert_int_gt(refused, 2000);
	free(b.p);
}
END_TEST

static char *nested(int depth)
{
	char *t = malloc(2 * (size_t)depth + 1);

	memset(t, '[', (size_t)depth);
	memset(t + depth, ']', (size_t)depth);
	t[2 * depth] = '\0';
	return t;
}

START_TEST(test_limits_as_janssons)
{
	char *deep = nested(2048), *deeper = nested(2049), *scalar = nested(2048);
	size_t n = strlen(scalar);
	struct buf b = { 0 };

	ck_assert(same_verdict(deep, strlen(deep)));
	ck_assert(!same_verdict(deeper, strlen(deeper)));
	/* a scalar is a level too: 2,048 arrays hold no number */
	scalar = realloc(scalar, n + 2);
	memmove(scalar + n / 2 + 1, scalar + n / 2, n / 2 + 1);
	scalar[n / 2] = '1';
	ck_assert(!same_verdict(scalar, n + 1));
	scalar[0] = ' ';
	scalar[n] = ' ';
	ck_assert(same_verdict(scalar, n + 1));
	/* duplicates found by sorting in a large object, at either end */
	puts_(&b, "{\"dup\": 0");
	for (int i = 0; i < 200; i++) {
		char member[32];

		snprintf(member, sizeof(member), ", \"k%d\": %d", i, i);
		puts_(&b, member);
	}
	ck_assert(!same_verdict(b.p, b.len)); /* not closed yet */
	puts_(&b, "}");
	ck_assert(same_verdict(b.p, b.len));
	b.p[b.len - 1] = ',';
	puts_(&b, " \"dup\": 1}");
	ck_assert(!same_verdict(b.p, b.len));
	ck_assert(!same_verdict("", 0));
	ck_assert(!same_verdict("  ", 2));
	ck_assert(!same_verdict("{\"a\":1}x", 8));
	ck_assert(!same_verdict("[1]\0", 4));
	ck_assert(!same_verdict("\"a\0b\"", 5));
	ck_assert(!same_verdict("{\"a\": 2\0}", 9));
	ck_assert(!same_verdict("[true\0]", 7));
	ck_assert(!same_verdict("{\"a\": null\0}", 12));
	ck_assert(same_verdict("\"\\u0041\\ud83d\\ude00\"", 20));
	free(b.p);
	free(deep);
	free(deeper);
	free(scalar);
}
END_TEST

static struct ud_jdoc *parse(const char *text)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_jdoc *doc = ud_jdoc_parse(text, strlen(text), &err);

	ck_assert_msg(doc != NULL, "%s", err.msg);
	return doc;
}

START_TEST(test_values)
{
	struct ud_jdoc *doc = parse("{\"n\": null, \"i\": -42, \"r\": 2.5, \"s\": \"caf\\u00e9\\n\", \"t\": true,"
				    " \"a\": [1, [2, 3], {\"x\": 4}, 5], \"o\": {}, \"big\": 9223372036854775807}");
	struct ud_jv root = ud_jdoc_root(doc), a = ud_jv_get(root, "a"), m;
	long long sum = 0;
	size_t n = 0;

	ck_assert(ud_jv_is_object(root));
	ck_assert_uint_eq(ud_jv_size(root), 8);
	ck_assert(ud_jv_is_null(ud_jv_get(root, "n")) && ud_jv_is_missing(ud_jv_get(root, "n")));
	ck_assert(ud_jv_absent(ud_jv_get(root, "nope")) && ud_jv_is_missing(ud_jv_get(root, "nope")));
	ck_assert(ud_jv_is_integer(ud_jv_get(root, "i")));
	ck_assert_int_eq(ud_jv_integer(ud_jv_get(root, "i")), -42);
	ck_assert_double_eq(ud_jv_number(ud_jv_get(root, "i")), -42.0);
	ck_assert(ud_jv_is_number(ud_jv_get(root, "r")) && !ud_jv_is_integer(ud_jv_get(root, "r")));
	ck_assert_double_eq(ud_jv_number(ud_jv_get(root, "r")), 2.5);
	ck_assert_int_eq(ud_jv_integer(ud_jv_get(root, "r")), 0);
	ck_assert_str_eq(ud_jv_string(ud_jv_get(root, "s")), "caf\xc3\xa9\n");
	ck_assert_ptr_null(ud_jv_string(ud_jv_get(root, "i")));
	ck_assert(isnan(ud_jv_number(ud_jv_get(root, "s"))));
	ck_assert(ud_jv_is_true(ud_jv_get(root, "t")) && ud_jv_is_boolean(ud_jv_get(root, "t")));
	ck_assert_int_eq(ud_jv_integer(ud_jv_get(root, "big")), LLONG_MAX);
	/* members in order, each nested one skipped whole */
	ud_jv_foreach(a, m) {
		sum += ud_jv_integer(m);
		n++;
		ck_assert_ptr_null(ud_jv_key(m));
	}
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(sum, 6);
	ck_assert_int_eq(ud_jv_integer(ud_jv_get(ud_jv_next(ud_jv_next(ud_jv_first(a))), "x")), 4);
	ck_assert_str_eq(ud_jv_key(ud_jv_first(root)), "n");
	ck_assert(ud_jv_absent(ud_jv_first(ud_jv_get(root, "o"))));
	ck_assert_uint_eq(ud_jv_size(ud_jv_get(root, "o")), 0);
	/* lookups on what is not an object read as absent, as json_object_get() reads NULL */
	ck_assert(ud_jv_absent(ud_jv_get(a, "x")));
	ck_assert(ud_jv_absent(ud_jv_get(ud_jv_get(root, "nope"), "x")));
	ck_assert_ptr_null(ud_jv_to_json(ud_jv_get(root, "nope")));
	ud_jdoc_free(doc);
}
END_TEST

/* One walk finds what a lookup a key finds: present, absent, null, nested, on a non-object. */
START_TEST(test_pick_as_get)
{
	static const char *const keys[] = { "value", "nope", "n", "o", "v", "" };
	struct ud_jdoc *doc = parse("{\"v\": 1, \"value\": 2, \"n\": null, \"o\": {\"value\": 3}, \"\": 4, \"va\": 5}");
	struct ud_jv root = ud_jdoc_root(doc), got[6];
	const struct ud_jv not_objects[] = { ud_jv_get(root, "v"), ud_jv_get(ud_jv_get(root, "o"), "nope"),
					     ud_jv_first(ud_jv_get(root, "o")) };

	ud_jv_pick(root, keys, 6, got);
	for (size_t k = 0; k < 6; k++) {
		ck_assert_int_eq(ud_jv_type(got[k]), ud_jv_type(ud_jv_get(root, keys[k])));
		ck_assert_int_eq(ud_jv_integer(got[k]), ud_jv_integer(ud_jv_get(root, keys[k])));
	}
	ck_assert_int_eq(ud_jv_integer(got[0]), 2);
	ck_assert(ud_jv_absent(got[1]) && ud_jv_is_null(got[2]) && ud_jv_is_object(got[3]));
	ck_assert_int_eq(ud_jv_integer(got[4]), 1);
	ck_assert_int_eq(ud_jv_integer(got[5]), 4);
	for (size_t i = 0; i < 3; i++) {
		ud_jv_pick(not_objects[i], keys, 6, got);
		for (size_t k = 0; k < 6; k++)
			ck_assert(ud_jv_absent(got[k]));
	}
	ud_jdoc_free(doc);
}
END_TEST

/*
 * A string's plain run is read 8 bytes a step: whatever ends it (the quote,
 * an escape, a raw non-ASCII letter, a control character) at every place
 * in and around a step, and the text's end right after it.
 */
START_TEST(test_string_steps)
{
	static const char *const enders[][2] = {
		{ "\"", "" }, { "\\n\"", "\n" }, { "\\\"\"", "\"" }, { "\xc3\xa9\"", "\xc3\xa9" }, { "\\u00e9\"", "\xc3\xa9" },
	};
	char text[64], want[64];
	struct ud_err err = UD_ERR_INIT;

	for (size_t at = 0; at < 20; at++)
		for (size_t e = 0; e < sizeof(enders) / sizeof(enders[0]); e++) {
			struct ud_jdoc *doc;

			memset(want, 'a', at);
			snprintf(want + at, sizeof(want) - at, "%s", enders[e][1]);
			snprintf(text, sizeof(text), "\"%.*s%s", (int)at, want, enders[e][0]);
			doc = parse(text);
			ck_assert_str_eq(ud_jv_string(ud_jdoc_root(doc)), want);
			ud_jdoc_free(doc);
			text[strlen(text) - 1] = '\x01'; /* a control character where the quote was */
			ck_assert_ptr_null(ud_jdoc_parse(text, strlen(text), &err));
			text[strlen(text) - 1] = '\0'; /* the text ends in the string */
			ck_assert_ptr_null(ud_jdoc_parse(text, strlen(text), &err));
		}
}
END_TEST

/*
 * Generated numbers, their digits read as their grammar is checked: the
 * same double as strtod() and the same integer as strtoll(), around 2^53
 * digits, long fractions and exponents past the exact powers of ten.
 */
START_TEST(test_generated_numbers_as_strtod)
{
	uint64_t s = 0x2545f4914f6cdd1du;
	char text[96];

	for (int i = 0; i < 50000; i++) {
		size_t len = 0;
		int whole = 1 + (int)(pick(&s, 20)), frac = (int)pick(&s, 24) - 4, exp = (int)pick(&s, 60) - 30;
		bool with_exp = pick(&s, 3) == 0;
		struct ud_err err = UD_ERR_INIT;
		struct ud_jdoc *doc;

		if (frac <= 0 && !with_exp && whole > 18)
			whole = 18; /* an integer fits 64 bits */
		if (pick(&s, 2))
			text[len++] = '-';
		text[len++] = (char)('1' + pick(&s, 9));
		for (int k = 1; k < whole; k++)
			text[len++] = (char)('0' + pick(&s, 10));
		if (frac > 0)
			text[len++] = '.';
		for (int k = 0; k < frac; k++)
			text[len++] = (char)('0' + pick(&s, 10));
		if (with_exp)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "e%+d", exp);
		text[len] = '\0';
		doc = ud_jdoc_parse(text, len, &err);
		ck_assert_msg(doc != NULL, "%s: %s", text, err.msg);
		if (ud_jv_is_integer(ud_jdoc_root(doc))) {
			ck_assert_msg(ud_jv_integer(ud_jdoc_root(doc)) == strtoll(text, NULL, 10), "%s", text);
		} else {
			double want = strtod(text, NULL), got = ud_jv_number(ud_jdoc_root(doc));

			ck_assert_msg(memcmp(&want, &got, sizeof(got)) == 0, "%s: %.17g, strtod %.17g", text, got, want);
		}
		ud_jdoc_free(doc);
	}
}
END_TEST

static const char *error_of(const char *text)
{
	static struct ud_err err;

	ck_assert_ptr_null(ud_jdoc_parse(text, strlen(text), &err));
	return err.msg;
}

START_TEST(test_errors_say_where)
{
	ck_assert_str_eq(error_of("{\n  \"a\": 1,\n  \"a\": 2\n}"), "3:3: duplicate object key \"a\"");
	ck_assert_str_eq(error_of("[1,\n 2,,]"), "2:4: invalid token");
	ck_assert_str_eq(error_of("{\"a\" 1}"), "1:6: ':' is expected after a key");
	ck_assert_str_eq(error_of("[1 2]"), "1:4: ',' or ']' is expected");
	ck_assert_str_eq(error_of("{\"a\": [1"), "1:9: ',' or ']' is expected (at the end of the text)");
	ck_assert_str_eq(error_of("\"abc"), "1:5: a string is not closed (at the end of the text)");
	ck_assert_str_eq(error_of("[99999999999999999999]"), "1:2: an integer too large for 64 bits");
	ck_assert_str_eq(error_of("[1e999]"), "1:2: a real number too large for a double");
	ck_assert_str_eq(error_of("\"\\u0000\""), "1:4: \\u0000 is not allowed in a string");
	ck_assert_str_eq(error_of("{} {}"), "1:4: the text goes on after the value");
	ck_assert_str_eq(error_of("[01]"), "1:3: ',' or ']' is expected");
	ck_assert_str_eq(error_of(""), "1:1: a value is missing (at the end of the text)");
}
END_TEST

/* Numbers read without strtod() (json_doc.c's fast path) and those at its edges, which fall back: bit for bit strtod()'s. */
START_TEST(test_numbers_as_strtod)
{
	static const char *const reals[] = {
		"0.1", "-0.0", "1000.123", "0.000000000000000000000001", "1e22", "1e23", "-1.5e-22", "123.456e-30",
		"9007199254740992.0", "9007199254740993.0", "9007199254740993e-3", "0.30000000000000004", "1E+2",
		"4.9e-324", "1.7976931348623157e308", "12345678901234567890.5", "1e0000000000000000000000001",
	};
	static const char *const integers[] = { "0", "-0", "9007199254740993", "-9223372036854775808",
						"9223372036854775807", "123456789012345678" };

	for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++) {
		struct ud_err err = UD_ERR_INIT;
		struct ud_jdoc *doc = ud_jdoc_parse(reals[i], strlen(reals[i]), &err);
		double want = strtod(reals[i], NULL), got;

		ck_assert_ptr_nonnull(doc);
		got = ud_jv_number(ud_jdoc_root(doc));
		ck_assert_msg(memcmp(&want, &got, sizeof(got)) == 0, "%s: %.17g, strtod %.17g", reals[i], got, want);
		ud_jdoc_free(doc);
	}
	for (size_t i = 0; i < sizeof(integers) / sizeof(integers[0]); i++) {
		struct ud_err err = UD_ERR_INIT;
		struct ud_jdoc *doc = ud_jdoc_parse(integers[i], strlen(integers[i]), &err);

		ck_assert_ptr_nonnull(doc);
		ck_assert(ud_jv_integer(ud_jdoc_root(doc)) == strtoll(integers[i], NULL, 10));
		ud_jdoc_free(doc);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("json_doc");
	TCase *t = tcase_create("core");

	tcase_add_test(t, test_values);
	tcase_add_test(t, test_pick_as_get);
	tcase_add_test(t, test_string_steps);
	tcase_add_test(t, test_errors_say_where);
	tcase_add_test(t, test_numbers_as_strtod);
	tcase_add_test(t, test_generated_numbers_as_strtod);
	tcase_add_test(t, test_limits_as_janssons);
	tcase_add_test(t, test_agrees_with_jansson);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
