/* The JSON writer: shortest round-trip reals, jansson's text, and one document whichever writer it feeds. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_emit.h"
#include "json_io.h"
#include "json_number.h"
#include "kernels.h"
#include "testutil.h"

static const char *fmt(double v)
{
	static char buf[UD_JSON_DOUBLE_MAX];
	size_t n = ud_json_format_double(v, buf);

	ck_assert_uint_eq(n, strlen(buf));
	return buf;
}

START_TEST(test_known_forms)
{
	ck_assert_str_eq(fmt(0.0), "0.0");
	ck_assert_str_eq(fmt(-0.0), "-0.0");
	ck_assert_str_eq(fmt(1.0), "1.0");
	ck_assert_str_eq(fmt(100.0), "100.0");
	ck_assert_str_eq(fmt(0.1), "0.1");
	ck_assert_str_eq(fmt(2.5), "2.5");
	ck_assert_str_eq(fmt(-85.7), "-85.7");
	ck_assert_str_eq(fmt(1e-5), "0.00001");
	ck_assert_str_eq(fmt(1e-6), "1e-06");
	ck_assert_str_eq(fmt(1.5e-7), "1.5e-07");
	ck_assert_str_eq(fmt(1e16), "10000000000000000.0");
	ck_assert_str_eq(fmt(1e17), "1e+17");
	ck_assert_str_eq(fmt(0.9243490339030578), "0.9243490339030578"); /* "%.17g": 0.92434903390305778 */
	ck_assert_str_eq(fmt(5e-324), "5e-324");
	ck_assert_str_eq(fmt(DBL_MAX), "1.7976931348623157e+308");
	ck_assert_str_eq(fmt(1e40), "1e+40"); /* issue 36: whole, never cut at a buffer */
	ck_assert_str_eq(fmt(1e-40), "1e-40");
	ck_assert_str_eq(fmt(-DBL_MAX), "-1.7976931348623157e+308");
	ck_assert_str_eq(fmt(NAN), "null");
	ck_assert_str_eq(fmt(-INFINITY), "null");
}
END_TEST

/* Every finite double reads back as itself, in at most 17 digits: random bit patterns and everyday ratios. */
START_TEST(test_round_trip)
{
	uint64_t s = 88172645463325252u;

	for (int i = 0; i < 200000; i++) {
		uint64_t bits = ud_xorshift(&s);
		double v, back;
		const char *t;
		int digits = 0, started = 0;

		if (i % 2)
			memcpy(&v, &bits, sizeof(v));
		else
			v = (double)(bits >> 11) * 0x1p-53 * pow(10, (int)(ud_xorshift(&s) % 40) - 20);
		if (!isfinite(v))
			continue;
		t = fmt(v);
		back = strtod(t, NULL);
		ck_assert_msg(memcmp(&back, &v, sizeof(v)) == 0, "%a written as %s", v, t);
		ck_assert_msg(strchr(t, '.') || strchr(t, 'e'), "%s would read back as an integer", t);
		for (const char *c = t; *c && *c != 'e'; c++) {
			started |= *c >= '1' && *c <= '9';
			digits += started && *c >= '0' && *c <= '9';
		}
		digits -= strstr(t, ".0") && t[strlen(t) - 1] == '0' && !strchr(t, 'e'); /* "3.0": a mark, not a digit */
		ck_assert_msg(digits <= 17, "%s: %d significant digits", t, digits);
	}
}
END_TEST

static char *text_of(void (*emit)(struct ud_jw *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ud_jw *w = ud_jw_text(f);

	emit(w);
	ck_assert_int_eq(ud_jw_finish(w, NULL), 0);
	fclose(f);
	return buf;
}

static json_t *tree_of(void (*emit)(struct ud_jw *))
{
	struct ud_jw *w = ud_jw_tree();
	json_t *doc;

	emit(w);
	ck_assert_int_eq(ud_jw_finish(w, &doc), 0);
	ck_assert_ptr_nonnull(doc);
	return doc;
}

/* Every kind of value, escapes and UTF-8, empty and nested containers, a tree taken in. */
static void emit_all(struct ud_jw *w)
{
	json_t *host = json_pack("{s:s s:[i,b,n] s:{}}", "kernel", "6.1 \"lts\"", "list", 7, 1, "empty");

	ud_jw_object(w, NULL);
	ud_jw_string(w, "plain", "ünïcode → fine");
	ud_jw_string(w, "escapes", "q\" b\\ \b\f\n\r\t \x01\x1f /");
	ud_jw_string(w, "none", NULL);
	ud_jw_integer(w, "big", INT64_MIN);
	ud_jw_bool(w, "yes", true);
	ud_jw_bool(w, "no", false);
	ud_jw_null(w, "nothing");
	ud_jw_array(w, "empty_array");
	ud_jw_end(w);
	ud_jw_object(w, "empty_object");
	ud_jw_end(w);
	ud_jw_array(w, "nested");
	ud_jw_array(w, NULL);
	ud_jw_string(w, NULL, "x");
	ud_jw_end(w);
	ud_jw_object(w, NULL);
	ud_jw_integer(w, "k", 1);
	ud_jw_end(w);
	ud_jw_end(w);
	ud_jw_value(w, "host", host);
	ud_jw_value(w, "missing", NULL);
	ud_jw_end(w);
	json_decref(host);
}

/* Without reals the text is jansson's own JSON_INDENT(2) text, byte for byte. */
START_TEST(test_text_is_janssons)
{
	char *text = text_of(emit_all), *theirs;
	json_t *tree = tree_of(emit_all);

	theirs = json_dumps(tree, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	ck_assert_ptr_nonnull(theirs);
	ck_assert_uint_eq(strlen(text), strlen(theirs) + 1);
	ck_assert(strncmp(text, theirs, strlen(theirs)) == 0);
	ck_assert_int_eq(text[strlen(theirs)], '\n');
	free(theirs);
	free(text);
	json_decref(tree);
}
END_TEST

static void emit_terminal_controls(struct ud_jw *w)
{
	/*
	 * DEL, C1 CSI, right-to-left override, LRI, line separator, ALM, around
	 * text that stays as it is; a zero-width space, a soft hyphen and a tag
	 * character (past the BMP: a surrogate pair)
	 */
	ud_jw_string(w, NULL,
		     "a\x7f" "b\xc2\x9b" "c\xe2\x80\xae" "d\xe2\x81\xa6" "e\xe2\x80\xa8" "f\xd8\x9c" "g \xc3\xa9\xe2\x86\x92"
		     "\xe2\x80\x8b" "\xc2\xad" "\xf3\xa0\x80\x81");
}

/* What a terminal would obey is a \u escape, and reads back as the same string. */
START_TEST(test_terminal_controls_escaped)
{
	char *text = text_of(emit_terminal_controls);
	json_t *back;
	json_error_t e;

	ck_assert_str_eq(text, "\"a\\u007Fb\\u009Bc\\u202Ed\\u2066e\\u2028f\\u061Cg \xc3\xa9\xe2\x86\x92\\u200B\\u00AD"
			       "\\uDB40\\uDC01\"\n");
	back = json_loads(text, JSON_DECODE_ANY, &e);
	ck_assert_msg(back != NULL, "%s", e.text);
	ck_assert_str_eq(json_string_value(back),
			 "a\x7f" "b\xc2\x9b" "c\xe2\x80\xae" "d\xe2\x81\xa6" "e\xe2\x80\xa8" "f\xd8\x9c" "g \xc3\xa9\xe2\x86\x92"
			 "\xe2\x80\x8b" "\xc2\xad" "\xf3\xa0\x80\x81");
	json_decref(back);
	free(text);
}
END_TEST

static void emit_reals(struct ud_jw *w)
{
	ud_jw_array(w, NULL);
	ud_jw_real(w, NULL, 1.0 / 3);
	ud_jw_real(w, NULL, 3.0);
	ud_jw_real(w, NULL, -1e-300);
	ud_jw_real(w, NULL, NAN);
	ud_jw_real(w, NULL, INFINITY);
	ud_jw_end(w);
}

/* The text reads back as the tree, reals to the bit; NaN and infinities are null in both. */
START_TEST(test_text_reads_back_as_tree)
{
	char *text = text_of(emit_reals);
	json_t *tree = tree_of(emit_reals), *back;
	json_error_t e;

	back = json_loads(text, 0, &e);
	ck_assert_msg(back != NULL, "%s", e.text);
	ck_assert(json_equal(back, tree));
	ck_assert(json_is_null(json_array_get(tree, 3)) && json_is_null(json_array_get(tree, 4)));
	ck_assert(json_real_value(json_array_get(back, 0)) == 1.0 / 3);
	ck_assert(json_is_real(json_array_get(back, 1)));
	json_decref(back);
	json_decref(tree);
	free(text);
}
END_TEST

static void emit_key_in_array(struct ud_jw *w)
{
	ud_jw_array(w, NULL);
	ud_jw_integer(w, "k", 1);
	ud_jw_end(w);
}

static void emit_no_key_in_object(struct ud_jw *w)
{
	ud_jw_object(w, NULL);
	ud_jw_integer(w, NULL, 1);
	ud_jw_end(w);
}

static void emit_left_open(struct ud_jw *w)
{
	ud_jw_object(w, NULL);
}

static void emit_two_documents(struct ud_jw *w)
{
	ud_jw_integer(w, NULL, 1);
	ud_jw_integer(w, NULL, 2);
}

static void emit_end_too_many(struct ud_jw *w)
{
	ud_jw_array(w, NULL);
	ud_jw_end(w);
	ud_jw_end(w);
}

/* A call out of place fails the document in both writers, and later calls do no harm. */
START_TEST(test_misuse_fails)
{
	void (*bad[])(struct ud_jw *) = { emit_key_in_array, emit_no_key_in_object, emit_left_open,
					  emit_two_documents, emit_end_too_many };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f = fopen("/dev/null", "w");
		struct ud_jw *t = ud_jw_text(f), *w = ud_jw_tree();
		json_t *doc = json_true();

		bad[i](t);
		bad[i](w);
		ck_assert_msg(ud_jw_finish(t, NULL) == -1, "case %zu (text)", i);
		ck_assert_msg(ud_jw_finish(w, &doc) == -1 && doc == NULL, "case %zu (tree)", i);
		fclose(f);
	}
	ck_assert_int_eq(ud_jw_finish(NULL, NULL), -1);
	ud_jw_integer(NULL, NULL, 1); /* a writer that could not be made takes calls */
}
END_TEST

/* A stream that refuses the bytes fails the write, however late it refuses. */
START_TEST(test_full_device)
{
	FILE *f = fopen("/dev/full", "w");
	json_t *big = json_array();

	if (!f)
		return; /* no /dev/full in this sandbox: nothing to check */
	for (int i = 0; i < 20000; i++)
		json_array_append_new(big, json_real(i / 7.0));
	ck_assert_int_eq(ud_json_write(big, f), -1);
	fclose(f);
	json_decref(big);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("json_emit");
	TCase *t = tcase_create("core");

	tcase_add_test(t, test_known_forms);
	tcase_add_test(t, test_round_trip);
	tcase_add_test(t, test_text_is_janssons);
	tcase_add_test(t, test_text_reads_back_as_tree);
	tcase_add_test(t, test_terminal_controls_escaped);
	tcase_add_test(t, test_misuse_fails);
	tcase_add_test(t, test_full_device);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
