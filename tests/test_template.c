#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"
#include "text.h"
#include "testutil.h"

/* A made-up view: every kind of field a template reads. */
struct made_up_row {
	const char *k;
	int n;
};

struct made_up_view {
	const char *name, *empty;
	bool yes, no;
	struct made_up_row *rows, *absent;
	size_t nrows;
	const char **list;
	size_t nlist;
	struct made_up_row inner;
};

static const struct ud_field row_rows[] = {
	UD_FIELD(struct made_up_row, k, UD_FIELD_STRING),
	UD_FIELD(struct made_up_row, n, UD_FIELD_INT),
};
static const struct ud_fields row_fields = UD_FIELDS("a row", row_rows);

static const struct ud_field view_rows[] = {
	UD_FIELD(struct made_up_view, name, UD_FIELD_STRING),
	UD_FIELD(struct made_up_view, empty, UD_FIELD_STRING),
	UD_FIELD(struct made_up_view, yes, UD_FIELD_BOOL),
	UD_FIELD(struct made_up_view, no, UD_FIELD_BOOL),
	UD_FIELD_LIST_OF(struct made_up_view, rows, nrows, &row_fields),
	UD_FIELD_SUB(struct made_up_view, absent, UD_FIELD_OBJECT, &row_fields),
	UD_FIELD_STRINGS_OF(struct made_up_view, list, nlist),
	UD_FIELD_SUB(struct made_up_view, inner, UD_FIELD_STRUCT, &row_fields),
};
static const struct ud_fields view_fields = UD_FIELDS("the view", view_rows);

/* The view most tests read: names, an escaped row, a list, a struct inside. */
static struct made_up_row rows[] = { { "a", 1 }, { "<b>", 2 } };
static const char *list[] = { "p", "q" };
static const struct made_up_view view = { .name = "pipe", .empty = "", .yes = true, .rows = rows, .nrows = 2,
					  .list = list, .nlist = 2, .inner = { "<1>", 7 } };

static char *render(const char *tmpl, const struct made_up_view *v, ud_escape_fn esc, int *ret, struct ud_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = ud_template_render(tmpl, "t.tmpl", v, &view_fields, esc, f, err);
	fclose(f);
	return buf;
}

/* tmpl's names all fields (ud_template_check), and v renders as want. */
static void expect_typed(const char *tmpl, const struct made_up_view *v, const char *want)
{
	struct ud_err err = UD_ERR_INIT;
	int ret;
	char *got;

	ck_assert_msg(ud_template_check(tmpl, "t", &view_fields, &err) == 0, "%s", err.msg);
	got = render(tmpl, v, ud_escape_html, &ret, &err);
	ck_assert_msg(ret == 0, "%s", err.msg);
	ck_assert_str_eq(got, want);
	free(got);
}

static void expect(const char *tmpl, const char *want)
{
	expect_typed(tmpl, &view, want);
}

START_TEST(test_variables_and_sections)
{
	expect("{{name}} {{inner.n}} {{yes}} [{{empty}}] [{{absent}}]", "pipe 7 true [] []");
	expect("{{inner.k}}", "&lt;1&gt;"); /* values are escaped, whoever wrote them */
	expect("{{#rows}}<{{k}}>{{/rows}}", "<a><&lt;b&gt;>");
	expect("{{#rows}}{{name}}{{/rows}}", "pipepipe"); /* outer scope seen from inside */
	expect("{{#absent}}x{{/absent}}{{^absent}}none{{/absent}}", "none");
	expect("{{#yes}}Y{{/yes}}{{^yes}}N{{/yes}}{{#no}}Z{{/no}}", "Y");
	expect("{{#list}}{{.}},{{/list}}", "p,q,");
	expect("a{{! a comment }}b", "ab");
	/* a section tag on its own line leaves no blank line */
	expect("x\n{{#list}}\n- {{.}}\n{{/list}}\ny\n", "x\n- p\n- q\ny\n");
	expect("{{#rows}}{{#list}}{{k}}{{.}}{{/list}}{{/rows}}", "apaq&lt;b&gt;p&lt;b&gt;q");
}
END_TEST

START_TEST(test_errors)
{
	struct ud_err err;
	int ret;
	char *out;

	out = render("line1\n{{#a}}never closed", &view, ud_escape_text, &ret, &err);
	ck_assert_int_eq(ret, -1);
	ck_assert_str_eq(err.msg, "t.tmpl:2: section 'a' is never closed");
	free(out);
	out = render("{{/a}}", &view, ud_escape_text, &ret, &err);
	ck_assert_str_eq(err.msg, "t.tmpl:1: a closing tag without its section");
	free(out);
	out = render("x {{ y", &view, ud_escape_text, &ret, &err);
	ck_assert_str_eq(err.msg, "t.tmpl:1: '{{' without '}}'");
	free(out);
	out = render("{{}}", &view, ud_escape_text, &ret, &err);
	ck_assert_int_eq(ret, -1);
	free(out);
	out = render("{{#a}}{{#b}}{{/a}}{{/b}}", &view, ud_escape_text, &ret, &err);
	ck_assert_str_eq(err.msg, "t.tmpl:1: '{{/a}}' closes section 'b'");
	free(out);
}
END_TEST

/*
 * Inline partials: a definition renders nothing where it stands, a use
 * renders it in the context around it (the report's two stacked-bar charts
 * share one); a missing, doubled or self-using one is refused with its line.
 */
START_TEST(test_partials)
{
	struct ud_err err;
	int ret;
	char *out;

	expect("{{<item}}[{{k}}]{{/item}}{{#rows}}{{>item}}{{/rows}}", "[a][&lt;b&gt;]");
	/* a partial's k is inner's where it is used inside inner; at the root it names nothing */
	out = render("{{#inner}}{{>item}}{{/inner}} {{>item}}{{<item}}({{k}}{{name}}){{/item}}", &view, ud_escape_html, &ret, &err);
	ck_assert_msg(ret == 0, "%s", err.msg);
	ck_assert_str_eq(out, "(&lt;1&gt;pipe) (pipe)");
	free(out);
	/* on their own lines they leave none behind, as sections do */
	expect("x\n{{<p}}\n- {{k}}\n{{/p}}\n{{#rows}}\n{{>p}}\n{{/rows}}\ny\n", "x\n- a\n- &lt;b&gt;\ny\n");
	out = render("a\n{{>nowhere}}", &view, ud_escape_text, &ret, &err);
	ck_assert_int_eq(ret, -1);
	ck_assert_str_eq(err.msg, "t.tmpl:2: partial 'nowhere' is never defined ('{{<nowhere}}...{{/nowhere}}')");
	free(out);
	out = render("{{<p}}x{{/p}}\n{{<p}}y{{/p}}", &view, ud_escape_text, &ret, &err);
	ck_assert_int_eq(ret, -1);
	ck_assert_str_eq(err.msg, "t.tmpl:1: partial 'p' is defined twice");
	free(out);
	out = render("{{<p}}x{{>p}}{{/p}}{{>p}}", &view, ud_escape_text, &ret, &err);
	ck_assert_int_eq(ret, -1);
	ck_assert_str_eq(err.msg, "t.tmpl:1: partial 'p' used inside itself (more than 32 deep)");
	free(out);
	/* a partial entering a section inside itself: the context stack stays bounded */
	out = render("{{<p}}{{#inner}}{{>p}}{{/inner}}{{/p}}{{>p}}", &view, ud_escape_text, &ret, &err);
	ck_assert_int_eq(ret, -1);
	ck_assert_msg(strstr(err.msg, "deep"), "%s", err.msg);
	free(out);
}
END_TEST

/* Issue 12: 40,000 nested sections overflowed the stack (and each level rescanned the rest). */
static char *nested(const char *open, int levels)
{
	size_t one = strlen(open) + 8, len = (size_t)levels * 2 * one + 1;
	char *t = malloc(len), *p = t;

	for (int i = 0; i < levels; i++)
		p += sprintf(p, "%s", open);
	for (int i = 0; i < levels; i++)
		p += sprintf(p, "{{/yes}}");
	return t;
}

START_TEST(test_deep_nesting_refused)
{
	const char *opens[] = { "{{#yes}}", "{{^yes}}" };
	struct ud_err err;
	int ret;

	for (size_t k = 0; k < 2; k++) {
		char *t = nested(opens[k], 40000), *out = render(t, &view, ud_escape_text, &ret, &err);

		ck_assert_int_eq(ret, -1);
		ck_assert_str_eq(err.msg, "t.tmpl:1: sections nested more than 32 deep");
		ck_assert_str_eq(out, ""); /* refused before a byte is written */
		free(out);
		free(t);
		t = nested(opens[k], 32);
		out = render(t, &view, ud_escape_text, &ret, &err);
		ck_assert_msg(ret == 0, "%s", err.msg);
		free(out);
		free(t);
	}
}
END_TEST

START_TEST(test_many_tags_render)
{
	/* 100,000 sibling sections and values: each rendered once, in order */
	size_t n = 100000, len = n * 25 + 1;
	char *t = malloc(len), *p = t, *out;
	struct ud_err err;
	int ret;

	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "{{#yes}}{{name}}{{/yes}}");
	out = render(t, &view, ud_escape_text, &ret, &err);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(strlen(out), 4 * n);
	free(out);
	free(t);
}
END_TEST

static char *escaped(ud_escape_fn esc, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	esc(f, s);
	fclose(f);
	return buf;
}

/* What JSON can hold: valid UTF-8 kept, a stray byte shown as '?', a sequence cut by a fixed-size copy dropped. */
START_TEST(test_utf8_sanitize)
{
	char latin1[] = "caf\xe9/s", kept[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", cut[] = "ab\xe2\x82";
	char overlong[] = "\xc0\xaf!", surrogate[] = "\xed\xa0\x80x";

	ud_utf8_sanitize(latin1);
	ck_assert_str_eq(latin1, "caf?/s");
	ud_utf8_sanitize(kept);
	ck_assert_str_eq(kept, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	ud_utf8_sanitize(cut);
	ck_assert_str_eq(cut, "ab");
	ud_utf8_sanitize(overlong);
	ck_assert_str_eq(overlong, "?" "?!");
	ud_utf8_sanitize(surrogate);
	ck_assert_str_eq(surrogate, "???x");
}
END_TEST

START_TEST(test_visible)
{
	char buf[64];

	ck_assert_str_eq(ud_visible("plain\ttab", buf, sizeof(buf)), "plain\ttab");
	ck_assert_str_eq(ud_visible("a\x1b[31mb\x7f\n", buf, sizeof(buf)), "a\\x1b[31mb\\x7f\\x0a");
	/* C1 CSI in UTF-8, which some terminals obey; other UTF-8 passes */
	ck_assert_str_eq(ud_visible("\xc2\x9b" "2J \xc3\xa9", buf, sizeof(buf)), "\\xc2\\x9b" "2J \xc3\xa9");
	/* bidirectional controls (U+202E, U+2066), ALM, a line separator: shown, never obeyed; an arrow passes */
	ck_assert_str_eq(ud_visible("a\xe2\x80\xae" "b\xe2\x81\xa6" "c\xd8\x9c" "d\xe2\x80\xa8" "\xe2\x86\x92", buf,
				    sizeof(buf)),
			 "a\\xe2\\x80\\xae" "b\\xe2\\x81\\xa6" "c\\xd8\\x9c" "d\\xe2\\x80\\xa8" "\xe2\x86\x92");
	/*
	 * every format character (Cf) too: a zero-width space, a soft hyphen, a
	 * BOM, a tag character (4 bytes): "int\u200b" never looks like "int";
	 * the letters around them (U+00AC, U+200A, U+FFFC) pass
	 */
	ck_assert_str_eq(ud_visible("int\xe2\x80\x8b" "\xc2\xad" "\xef\xbb\xbf" "\xf3\xa0\x80\x81", buf, sizeof(buf)),
			 "int\\xe2\\x80\\x8b" "\\xc2\\xad" "\\xef\\xbb\\xbf" "\\xf3\\xa0\\x80\\x81");
	ck_assert_str_eq(ud_visible("\xc2\xac\xe2\x80\x8a\xef\xbf\xbc", buf, sizeof(buf)), "\xc2\xac\xe2\x80\x8a\xef\xbf\xbc");
	ck_assert_uint_eq(ud_control_len("\xe2\x80\xaex"), 3);
	ck_assert_uint_eq(ud_control_len("\xe2\x80"), 0); /* cut short: no read past the end */
	ck_assert_uint_eq(ud_control_len(""), 0);
	/* cut at a whole escape, never inside one */
	ck_assert_str_eq(ud_visible("ab\x1b\x1b", buf, 8), "ab\\x1b");
}
END_TEST

START_TEST(test_escapes)
{
	char *h = escaped(ud_escape_html, "<script>alert('x') & \"y\"</script>");
	char *m = escaped(ud_escape_markdown, "<b>*bold* | [link](x)\nnext");
	char *t = escaped(ud_escape_text, "ok\x1b[31mred\a");

	ck_assert_str_eq(h, "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;");
	ck_assert_str_eq(m, "\\<b>\\*bold\\* \\| \\[link\\](x) next");
	ck_assert_str_eq(t, "ok\\x1b[31mred\\x07");
	free(h);
	free(m);
	free(t);
	/*
	 * Markdown escapes by backslash only what a renderer would act on: a tag, an entity, a leading quote;
	 * arrows and comparisons stay readable in the raw text (issue 39).
	 */
	m = escaped(ud_escape_markdown, "77% -> 89%, p < 0.05 & R&D, a<b>c &amp; &#62; </x> <!-- <?");
	ck_assert_str_eq(m, "77% -> 89%, p < 0.05 & R\\&D, a\\<b>c \\&amp; \\&\\#62; \\</x> \\<\\!-- \\<?");
	free(m);
	m = escaped(ud_escape_markdown, "  > quoted > not");
	ck_assert_str_eq(m, "  \\> quoted > not");
	free(m);
	/* Controls and bidirectional overrides are shown in every format, the backslash escaped where it must be. */
	h = escaped(ud_escape_html, "a\x1b[2J<\xe2\x80\xae>\xc2\x9b\t\xc3\xa9");
	m = escaped(ud_escape_markdown, "a\x1b[2J\xe2\x80\xae_\n");
	t = escaped(ud_escape_text, "x\xe2\x80\xaey");
	ck_assert_str_eq(h, "a\\x1b[2J&lt;\\xe2\\x80\\xae&gt;\\xc2\\x9b\t\xc3\xa9");
	ck_assert_str_eq(m, "a\\\\x1b\\[2J\\\\xe2\\\\x80\\\\xae\\_ ");
	ck_assert_str_eq(t, "x\\xe2\\x80\\xaey");
	free(h);
	free(m);
	free(t);
}
END_TEST

/* Truth, lists, structs, outer names, dotted names, on a view of its own. */
START_TEST(test_typed_view)
{
	struct made_up_row rows[] = { { "a", 1 }, { "<b>", 2 } };
	const char *list[] = { "p", "q" };
	struct made_up_view v = { .name = "pipe", .empty = "", .yes = true, .rows = rows, .nrows = 2, .list = list,
				  .nlist = 2, .inner = { "in", 7 } };

	expect_typed("{{name}} {{yes}} {{no}} [{{empty}}] {{inner.k}}{{inner.n}}", &v, "pipe true false [] in7");
	expect_typed("{{#rows}}<{{k}}{{n}}{{name}}>{{/rows}}", &v, "<a1pipe><&lt;b&gt;2pipe>");
	expect_typed("{{#list}}{{.}},{{/list}}{{#absent}}x{{/absent}}{{^absent}}none{{/absent}}", &v, "p,q,none");
	expect_typed("{{#empty}}x{{/empty}}{{^empty}}e{{/empty}}{{#yes}}y{{/yes}}{{#no}}n{{/no}}", &v, "ey");
	expect_typed("{{#inner}}{{k}}{{name}}{{/inner}}", &v, "inpipe");
	v.nrows = 0;
	expect_typed("{{#rows}}r{{/rows}}{{^rows}}no rows{{/rows}}", &v, "no rows");
}
END_TEST

/* A name no table in scope has fails the check, with its line; partials are checked where they are used. */
START_TEST(test_check_names)
{
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_template_check("{{name}}\n{{nmae}}", "t", &view_fields, &err), -1);
	ck_assert_str_eq(err.msg, "t:2: '{{nmae}}' is no field of the view");
	ck_assert_int_eq(ud_template_check("{{#rows}}{{inner.nope}}{{/rows}}", "t", &view_fields, &err), -1);
	ck_assert_str_eq(err.msg, "t:1: '{{inner.nope}}' is no field of a row, the view");
	ck_assert_int_eq(ud_template_check("{{#list}}{{k}}{{/list}}", "t", &view_fields, &err), -1);
	/* a partial's k is a row's where it is used inside rows, and no field at the root */
	ck_assert_int_eq(ud_template_check("{{<p}}{{k}}{{/p}}{{#rows}}{{>p}}{{/rows}}", "t", &view_fields, &err), 0);
	ck_assert_int_eq(ud_template_check("{{<p}}{{k}}{{/p}}{{>p}}", "t", &view_fields, &err), -1);
	/* a bool's or a string's section keeps the scope it stands in */
	ck_assert_int_eq(ud_template_check("{{#yes}}{{name}}{{/yes}}{{#name}}{{empty}}{{/name}}", "t", &view_fields, &err), 0);
	ck_assert_int_eq(ud_template_check("{{#rows}}", "t", &view_fields, &err), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("template");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_variables_and_sections);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_partials);
	tcase_add_test(tc, test_visible);
	tcase_add_test(tc, test_utf8_sanitize);
	tcase_add_test(tc, test_deep_nesting_refused);
	tcase_add_test(tc, test_many_tags_render);
	tcase_add_test(tc, test_escapes);
	tcase_add_test(tc, test_typed_view);
	tcase_add_test(tc, test_check_names);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
