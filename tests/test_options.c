/* The table-driven option parser: kinds, ranges, errors in one form, usage from the table. */
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "testutil.h"

static struct {
	bool flag;
	const char *str;
	long n;
	char *list;
	int parsed;
} v;

static int parse_even(const char *arg, void *dest, struct ud_err *err)
{
	int x = atoi(arg);

	if (x % 2)
		return ud_fail(err, "--even wants an even number, not '%s'", arg);
	*(int *)dest = x;
	return 0;
}

static const struct ud_option options[] = {
	UD_FLAG_OPTION('j', "json", &v.flag, "a flag"),
	UD_STRING_OPTION('o', "output", &v.str, "FILE", "a string\nover two lines"),
	UD_LONG_OPTION('r', "repeat", &v.n, "N", "a number", 1, UD_REPEAT_MAX),
	UD_LIST_OPTION('e', "event", &v.list, "EVENTS", "a list"),
	UD_PARSE_OPTION(0, "even", &v.parsed, "K", "parsed by a callback", parse_even),
	UD_CLEAR_OPTION(0, "no-json", &v.flag, "the flag's negation"),
	UD_ALIAS_FLAG_OPTION(0, "json-output", &v.flag),
	UD_REFUSED_OPTION(0, "iostat", NULL, "needs what this host lacks; use -e"),
	UD_REFUSED_OPTION('T', "transaction", NULL, "needs TSX"),
	UD_REFUSED_OPTION(0, "bpf-prog", "ID", "needs BPF"),
};

static const struct ud_command cmd = {
	.name = "t", .synopsis = "uarchdiff t [options] ARGS", .description = "Tests.\n",
	.options = UD_OPTIONS(options), .operands = true,
};

static enum ud_opt_result parse(char **argv, int *next, struct ud_err *err)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	free(v.list);
	memset(&v, 0, sizeof(v));
	*err = (struct ud_err)UD_ERR_INIT;
	return ud_options_parse(&cmd, argc, argv, next, err);
}

START_TEST(test_every_kind)
{
	char *argv[] = { "t", "-j", "--output", "f.json", "-r", "7", "-e", "a,b", "--event=c", "--even", "4", "--",
			 "cmd", "-x", NULL };
	struct ud_err err;
	int next = 0;

	ck_assert_int_eq(parse(argv, &next, &err), UD_OPT_OK);
	ck_assert(v.flag);
	ck_assert_str_eq(v.str, "f.json");
	ck_assert_int_eq(v.n, 7);
	ck_assert_str_eq(v.list, "a,b,c");
	ck_assert_int_eq(v.parsed, 4);
	ck_assert_int_eq(next, 12);
	ck_assert_str_eq(argv[next], "cmd");
}
END_TEST

/* perf's spellings: a flag's "--no-" form, a hidden alias, and options refused with their reason */
START_TEST(test_clear_alias_and_refusals)
{
	char *clear[] = { "t", "-j", "--no-json", NULL };
	char *alias[] = { "t", "--json-output", NULL };
	char *bare[] = { "t", "--iostat", NULL };
	char *valued[] = { "t", "--iostat=mode", NULL };
	char *shortr[] = { "t", "-T", NULL };
	char *arg[] = { "t", "--bpf-prog", "7", "cmd", NULL };
	char *out = NULL;
	size_t len = 0;
	FILE *f;
	struct ud_err err;
	int next;

	ck_assert_int_eq(parse(clear, &next, &err), UD_OPT_OK);
	ck_assert(!v.flag);
	ck_assert_int_eq(parse(alias, &next, &err), UD_OPT_OK);
	ck_assert(v.flag);
	ck_assert_int_eq(parse(bare, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "--iostat: needs what this host lacks; use -e");
	ck_assert_int_eq(parse(valued, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "--iostat: needs what this host lacks; use -e");
	ck_assert_int_eq(parse(shortr, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "-T: needs TSX");
	ck_assert_int_eq(parse(arg, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "--bpf-prog: needs BPF");
	/* the alias and the refusals are not in --help; the negation is */
	f = open_memstream(&out, &len);
	ud_options_usage(&cmd, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "--no-json"));
	ck_assert_ptr_null(strstr(out, "json-output"));
	ck_assert_ptr_null(strstr(out, "iostat"));
	free(out);
}
END_TEST

START_TEST(test_stops_at_the_first_operand)
{
	char *argv[] = { "t", "-j", "sh", "-r", "x", NULL };
	struct ud_err err;
	int next = 0;

	ck_assert_int_eq(parse(argv, &next, &err), UD_OPT_OK);
	ck_assert_int_eq(next, 2);
	ck_assert_int_eq(v.n, 0);
}
END_TEST

START_TEST(test_errors_in_one_form)
{
	char *range[] = { "t", "-r", "1001", NULL };
	char *word[] = { "t", "--repeat", "x", NULL };
	char *missing[] = { "t", "-r", NULL };
	char *unknown[] = { "t", "--frobnicate", NULL };
	char *unknown_short[] = { "t", "-jq", NULL };
	char *callback[] = { "t", "--even", "3", NULL };
	struct ud_err err;
	int next;

	ck_assert_int_eq(parse(range, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "-r needs a whole number from 1 to 1000, not '1001'");
	ck_assert_int_eq(parse(word, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "-r needs a whole number from 1 to 1000, not 'x'");
	ck_assert_int_eq(parse(missing, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "-r needs an argument (N)");
	ck_assert_int_eq(parse(unknown, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "unknown option '--frobnicate'; see 'uarchdiff t --help'");
	ck_assert_int_eq(parse(unknown_short, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "unknown option '-q'; see 'uarchdiff t --help'");
	ck_assert_int_eq(parse(callback, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "--even wants an even number, not '3'");
}
END_TEST

START_TEST(test_operands_refused_where_none_are_taken)
{
	static const struct ud_command none = { .name = "n", .synopsis = "uarchdiff n" };
	char *argv[] = { "n", "extra", NULL };
	struct ud_err err = UD_ERR_INIT;
	int next;

	ck_assert_int_eq(ud_options_parse(&none, 2, argv, &next, &err), UD_OPT_ERROR);
	ck_assert_str_eq(err.msg, "unexpected argument 'extra'");
}
END_TEST

START_TEST(test_help_and_usage)
{
	char *argv[] = { "t", "-j", "--help", NULL };
	char *text = NULL;
	size_t len = 0;
	struct ud_err err;
	FILE *f;
	int next;

	ck_assert_int_eq(parse(argv, &next, &err), UD_OPT_HELP);
	f = open_memstream(&text, &len);
	ud_options_usage(&cmd, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "usage: uarchdiff t [options] ARGS\n\nTests.\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n    -r, --repeat N       a number\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n        --even K         parsed by a callback\n"));
	ck_assert_ptr_nonnull(strstr(text, "a string\n                         over two lines\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n    -h, --help           show this help\n"));
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_every_kind);
	tcase_add_test(tc, test_stops_at_the_first_operand);
	tcase_add_test(tc, test_errors_in_one_form);
	tcase_add_test(tc, test_clear_alias_and_refusals);
	tcase_add_test(tc, test_operands_refused_where_none_are_taken);
	tcase_add_test(tc, test_help_and_usage);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
