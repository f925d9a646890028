/*
 * The pieces the import parsers share, tested on their own: the line
 * reader's edges, numbers in every locale perf prints in (and under this
 * process's locale), event-name normalizing, and the block accumulator.
 * test_import.c tests them through whole files; here a failure names the
 * piece.
 */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_names.h"
#include "import_block.h"
#include "import_event_name.h"
#include "import_lines.h"
#include "import_number.h"
#include "import_perf_command.h"
#include "testutil.h"

/* ---- lines ---- */

/* Every line of text[0..len) joined with '|', and the count. */
static int read_all(const char *text, size_t len, char *out, size_t outlen)
{
	struct lines l;
	char *line;
	int n = 0;

	out[0] = '\0';
	imp_lines_init(&l, text, len);
	while ((line = imp_lines_next(&l)) != NULL) {
		n++;
		ck_assert_int_eq(l.lineno, n);
		snprintf(out + strlen(out), outlen - strlen(out), "%s%s", n > 1 ? "|" : "", line);
	}
	imp_lines_free(&l);
	return n;
}

START_TEST(test_lines_edges)
{
	char out[256];

	ck_assert_int_eq(read_all("", 0, out, sizeof(out)), 0);
	ck_assert_int_eq(read_all("\n", 1, out, sizeof(out)), 1);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(read_all("a\nb", 3, out, sizeof(out)), 2); /* no newline at the end */
	ck_assert_str_eq(out, "a|b");
	ck_assert_int_eq(read_all("a\n\nb\n", 5, out, sizeof(out)), 3);
	ck_assert_str_eq(out, "a||b");
	ck_assert_int_eq(read_all("a\r\nb\r\n", 6, out, sizeof(out)), 2); /* Windows line ends */
	ck_assert_str_eq(out, "a|b");
	ck_assert_int_eq(read_all("a\r\r\n", 4, out, sizeof(out)), 1); /* only one \r is the line end's */
	ck_assert_str_eq(out, "a\r");
	/* The buffer need not be NUL-terminated: len is the end. */
	ck_assert_int_eq(read_all("abc\ndefgh", 6, out, sizeof(out)), 2);
	ck_assert_str_eq(out, "abc|de");
}
END_TEST

START_TEST(test_lines_long_and_modifiable)
{
	size_t big = 100000;
	char *text = malloc(big + 4);
	struct lines l;
	char *line;

	ck_assert_ptr_nonnull(text);
	memset(text, 'x', big);
	memcpy(text + big, "\nyz", 3);
	imp_lines_init(&l, text, big + 3);
	line = imp_lines_next(&l);
	ck_assert_uint_eq(strlen(line), big);
	line[0] = '\0'; /* the caller's copy: the text itself is untouched */
	ck_assert_int_eq(text[0], 'x');
	ck_assert_str_eq(imp_lines_next(&l), "yz");
	ck_assert_ptr_null(imp_lines_next(&l));
	ck_assert_ptr_null(imp_lines_next(&l));
	imp_lines_free(&l);
	free(text);
}
END_TEST

/* The word-at-a-time scan finds the first byte no paste holds, as a byte-by-byte one does, wherever it sits. */
START_TEST(test_control_byte_first)
{
	static const unsigned char mix[] = { 'a', ' ', '\n', '\t', '\r', 0x1b, 0x1f, 0x00, 0x7f, 0xe2, 0x1f, 0x20, '9' };
	char text[64];
	unsigned seed = 1;

	for (int round = 0; round < 20000; round++) {
		size_t len = (size_t)(round % 40), want = len;

		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly text, sometimes a control byte (or one beside the edges of the test) */
			text[i] = (char)(seed >> 16) % 7 ? (char)mix[(seed >> 8) % 5] : (char)mix[5 + (seed >> 4) % 8];
		}
		for (size_t i = 0; i < len && want == len; i++) {
			unsigned char c = (unsigned char)text[i];

			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b)
				want = i;
		}
		ck_assert_uint_eq(imp_control_byte(text, len), want);
	}
}
END_TEST

/* ---- numbers ---- */

static double num(const char *s, int pow10)
{
	struct ud_err err = UD_ERR_INIT;
	double v = NAN;

	ck_assert_msg(imp_parse_number_str(s, pow10, &v, &err) == 0, "%s: %s", s, err.msg);
	return v;
}

static void bad_number(const char *s, const char *why)
{
	struct ud_err err = UD_ERR_INIT;
	double v;

	ck_assert_int_eq(imp_parse_number_str(s, 0, &v, &err), -1);
	ck_assert_msg(strstr(err.msg, why) != NULL, "%s: '%s' lacks '%s'", s, err.msg, why);
}

/* The spellings perf's own locales give one number. */
static void check_locale_spellings(void)
{
	ck_assert_double_eq(num("1,234,567", 0), 1234567);          /* en_US */
	ck_assert_double_eq(num("1.234.567", 0), 1234567);          /* de_DE */
	ck_assert_double_eq(num("1 234 567", 0), 1234567);          /* plain spaces, as pasted */
	ck_assert_double_eq(num("1\u00a0234\u00a0567", 0), 1234567); /* fr_FR: no-break space */
	ck_assert_double_eq(num("1\u202f234\u202f567", 0), 1234567); /* narrow no-break space */
	ck_assert_double_eq(num("1'234'567", 0), 1234567);          /* de_CH */
	ck_assert_double_eq(num("1,234.56", 0), 1234.56);
	ck_assert_double_eq(num("1.234,56", 0), 1234.56);
	ck_assert_double_eq(num("0,72", 0), 0.72);                  /* the decimal comma */
	ck_assert_double_eq(num("45.112821074", 0), 45.112821074);
	ck_assert_double_eq(num("1,234", 0), 1234);                 /* three digits after: grouping */
	ck_assert_double_eq(num("  42 ", 0), 42);
}

START_TEST(test_number_locales)
{
	check_locale_spellings();
}
END_TEST

static char votes(const char *const lines[])
{
	struct decimal_votes v = { 0 };

	for (size_t i = 0; lines[i]; i++)
		imp_decimal_votes_add(&v, lines[i]);
	return imp_decimal_votes_mark(&v);
}

static double num_as(const char *s, char mark)
{
	struct decimal d;
	const char *end;

	ck_assert_int_eq(imp_scan_decimal_as(s, &end, &d, mark, NULL), 1);
	return imp_decimal_value(d, 0);
}

/* A block's numbers decide its decimal mark; the ambiguous ones follow it. */
START_TEST(test_decimal_votes)
{
	ck_assert_int_eq(votes((const char *const[]){ "12,861.40 msec task-clock", "12.866 +- 0.212 seconds", NULL }), '.');
	ck_assert_int_eq(votes((const char *const[]){ "12.345.678,90 msec", "987,123 +- 0,311 seconds", NULL }), ',');
	ck_assert_int_eq(votes((const char *const[]){ "1,234 cycles  # 0,998 CPUs", "(85,70%)", NULL }), ',');
	ck_assert_int_eq(votes((const char *const[]){ "1834.220 task-clock", NULL }), '.');      /* 4 digits first */
	ck_assert_int_eq(votes((const char *const[]){ "12.866 L1-dcache-loads r5300c0", NULL }), 0); /* undecided */
	ck_assert_int_eq(votes((const char *const[]){ "10.0.0.1 1,2,3", NULL }), 0);              /* no number's marks */
	ck_assert_double_eq(num_as("12.866", '.'), 12.866);
	ck_assert_double_eq(num_as("12.866", ','), 12866);
	ck_assert_double_eq(num_as("987,123", ','), 987.123);
	ck_assert_double_eq(num_as("987,123", '.'), 987123);
	ck_assert_double_eq(num_as("1,234,567", ','), 1234567); /* unambiguous spellings keep their own reading */
	ck_assert_double_eq(num_as("1.234,5", '.'), 1234.5);
}
END_TEST

/* Whether imp_metric_name_new() names unit want (NULL: no metric), freeing what it made. */
static bool metric_named(const char *unit, bool any_text, const char *want)
{
	char *name;
	int r = imp_metric_name_new(unit, strlen(unit), any_text, &name);
	bool ok = want ? r == 1 && strcmp(name, want) == 0 : r == 0 && !name;

	free(name);
	return ok;
}

START_TEST(test_pmus_clocks_metric_names)
{
	char buf[96];

	ck_assert(imp_core_pmu_of("cpu_core/cycles/", buf, sizeof(buf)) && strcmp(buf, "cpu_core") == 0);
	ck_assert(imp_core_pmu_of("cpu_atom/instructions/u", buf, sizeof(buf)) && strcmp(buf, "cpu_atom") == 0);
	ck_assert(imp_core_pmu_of("armv8_cortex_a76/cpu_cycles/", buf, sizeof(buf)) && strcmp(buf, "armv8_cortex_a76") == 0);
	ck_assert(imp_core_pmu_of("apple_icestorm_pmu/cycles/", buf, sizeof(buf)) && strcmp(buf, "apple_icestorm_pmu") == 0);
	ck_assert(!imp_core_pmu_of("msr/tsc/", buf, sizeof(buf)));
	ck_assert(!imp_core_pmu_of("cpu/event=0x3c/", buf, sizeof(buf))); /* the PMU of a non-hybrid x86: no core type */
	ck_assert(imp_group_pmu_of("TopdownL1 (cpu_atom)", buf, sizeof(buf)) && strcmp(buf, "cpu_atom") == 0);
	ck_assert(!imp_group_pmu_of("TopdownL1", buf, sizeof(buf)));
	ck_assert(!imp_group_pmu_of("Default (85.00%)", buf, sizeof(buf)));
	ck_assert(!imp_core_pmu_of("cycles", buf, sizeof(buf)));
	ck_assert(imp_is_clock_event("task-clock:HG") && imp_is_clock_event("cpu-clock") && !imp_is_clock_event("cycles"));
	ck_assert(metric_named("%  tma_backend_bound", false, "tma_backend_bound"));
	ck_assert(metric_named("tma_retiring ", false, "tma_retiring"));
	/* perf's GHz beside cycles is kept as evidence of the clock (issue 20), named as the derived metric */
	ck_assert(metric_named("GHz ", false, "ghz"));
	ck_assert(metric_named("K/sec", false, NULL));
	ck_assert(metric_named("of all branches", false, NULL));
	ck_assert(metric_named("TopdownL1", false, NULL));
	ck_assert(metric_named("insn per cycle", true, "insn per cycle"));
	ck_assert(metric_named("  ", true, NULL));
}
END_TEST

/* Under a locale whose decimal point is ',', strtod would read 45.11 as 45: the scanner must not care. */
START_TEST(test_number_ignores_process_locale)
{
	static const char *const comma_locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "fr_FR", "C.UTF-8" };
	const char *set = NULL;

	for (size_t i = 0; i < sizeof(comma_locales) / sizeof(comma_locales[0]) && !set; i++)
		set = setlocale(LC_ALL, comma_locales[i]);
	check_locale_spellings();
	setlocale(LC_ALL, "C");
}
END_TEST

START_TEST(test_number_exact_scaling)
{
	struct decimal d;
	const char *end;

	/* task-clock printed in msec, counted in ns: 34,021.81 msec is exactly 34021810000 */
	ck_assert_double_eq(num("34,021.81", 6), 34021810000.0);
	ck_assert_double_eq(num("0.12", -2), 0.0012);
	ck_assert_int_eq(imp_scan_decimal("18446744073709551615", &end, &d, NULL), 1);
	ck_assert(d.mant == UINT64_MAX && d.frac == 0 && *end == '\0');
	ck_assert_int_eq(imp_scan_decimal("1.5 seconds", &end, &d, NULL), 1);
	ck_assert_str_eq(end, " seconds");
	ck_assert(d.mant == 15 && d.frac == 1);
	ck_assert_int_eq(imp_scan_decimal("1 23", &end, &d, NULL), 1); /* a space groups only three digits */
	ck_assert_str_eq(end, " 23");
	ck_assert_int_eq(imp_scan_decimal("cycles", &end, &d, NULL), 0);
}
END_TEST

START_TEST(test_number_bad)
{
	bad_number("18446744073709551616", "too large for a 64-bit counter");
	bad_number("12,34,567", "malformed number");
	bad_number("4x", "is not a number");
	bad_number("", "is not a number");
}
END_TEST

START_TEST(test_counter_value)
{
	struct ud_err err = UD_ERR_INIT;
	enum ud_count_status st = UD_COUNTED;
	double v = -1;

	ck_assert_int_eq(imp_parse_counter_value("<not supported>", "", &st, &v, &err), 1);
	ck_assert_int_eq(st, UD_NOT_SUPPORTED);
	ck_assert_int_eq(imp_parse_counter_value("<not counted>", NULL, &st, &v, &err), 1);
	ck_assert_int_eq(st, UD_NOT_COUNTED);
	ck_assert_int_eq(imp_parse_counter_value("12.5", "msec", &st, &v, &err), 1);
	ck_assert_int_eq(st, UD_COUNTED);
	ck_assert_double_eq(v, 12500000);
	ck_assert_int_eq(imp_parse_counter_value("1.234.567", "", &st, &v, &err), 1);
	ck_assert_double_eq(v, 1234567);
	/* no grouping in -x and -j: a lone mark is the decimal one */
	ck_assert_int_eq(imp_parse_counter_value("1.234", "msec", &st, &v, &err), 1);
	ck_assert_double_eq(v, 1234000);
	ck_assert_int_eq(imp_parse_counter_value("1,234", "msec", &st, &v, &err), 1);
	ck_assert_double_eq(v, 1234000);
	ck_assert_int_eq(imp_parse_counter_value("12 apples", "", &st, &v, &err), 0);
	ck_assert_int_eq(imp_parse_counter_value("99999999999999999999", "", &st, &v, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "too large"));
}
END_TEST

/* ---- event names ---- */

static void name_is(const char *printed, const char *want)
{
	char out[128];

	imp_normalize_event(printed, out, sizeof(out));
	ck_assert_msg(strcmp(out, want) == 0, "%s -> %s, want %s", printed, out, want);
}

START_TEST(test_event_names)
{
	ck_assert_str_eq(ud_generic_event_name("cpu-cycles"), "cycles");
	ck_assert_str_eq(ud_generic_event_name("faults"), "page-faults");
	ck_assert_ptr_null(ud_generic_event_name("inst_retired.any"));
	name_is("cycles", "cycles");
	name_is("cpu-cycles", "cycles");
	name_is("cycles:HG", "cycles");               /* host and guest: what plain cycles counts */
	name_is("cycles:u", "cycles:u");              /* user only: a different count */
	name_is("cpu_core/cycles/", "cycles");        /* hybrid Intel */
	name_is("cpu_atom/branch-instructions/", "branches");
	name_is("armv8_pmuv3_0/cpu_cycles/", "cycles"); /* Arm PMUv3 names */
	name_is("armv8_pmuv3_0/br_mis_pred_retired/", "branch-misses");
	name_is("armv8_pmuv3_0/inst_retired/:u", "instructions:u");
	name_is("cpu/event=0x3c,umask=0x0/", "cpu/event=0x3c,umask=0x0/"); /* terms: as printed */
	name_is("r003c", "r003c");
	/* issue 20: :H and :G alone count one side of virtualisation and stay; together they go */
	name_is("cycles:H", "cycles:H");
	name_is("cycles:G", "cycles:G");
	name_is("cycles:uHG", "cycles:u");
	name_is("cycles:GH", "cycles");
}
END_TEST

/* The name a counter gets under --all-user / --all-kernel: the mode perf set, whatever was typed. */
static void mode_name_is(const char *name, char mode, const char *want)
{
	char out[128] = "untouched";

	ck_assert_msg(imp_counting_mode_name(name, mode, out, sizeof(out)) == (strcmp(want, name) != 0), "%s", name);
	ck_assert_msg(strcmp(strcmp(want, name) ? out : name, want) == 0, "%s -> %s, want %s", name, out, want);
}

START_TEST(test_counting_mode_names)
{
	mode_name_is("cycles", 'u', "cycles:u");
	mode_name_is("cycles:k", 'u', "cycles:u");
	mode_name_is("cycles:uk", 'k', "cycles:k");
	mode_name_is("cycles:kpp", 'u', "cycles:upp");
	mode_name_is("cycles:H", 'u', "cycles:uH");
	mode_name_is("cpu/event=0x3c/", 'u', "cpu/event=0x3c/u");
	mode_name_is("cpu/event=0x3c/k", 'u', "cpu/event=0x3c/u");
	mode_name_is("page-faults", 'k', "page-faults:k");
	/* clocks add up time in every mode: their names stay */
	mode_name_is("task-clock", 'u', "task-clock");
	mode_name_is("cpu-clock", 'k', "cpu-clock");
	mode_name_is("duration_time", 'u', "duration_time");
}
END_TEST

/* A pasted perf command line, read as perf's option parser reads it. */
START_TEST(test_perf_command_lines)
{
	static const struct {
		const char *line, *from;
		bool all_user, all_kernel, system_wide;
		int repeat;
	} cases[] = {
		{ "$ perf stat --all-user -e cycles,instructions ./x", "perf stat --all-user", true, false, false, 0 },
		{ "# perf stat -a -r 5 sleep 1", "perf stat -a", false, false, true, 5 },
		{ "[opc@e5 ~]$ sudo perf stat -d \"$BINDIR/fstime\" -c -t 30", "perf stat -d", false, false, false, 0 },
		{ "perf stat --repeat=7 --all-kernel ./x", "perf stat --repeat=7", false, true, false, 7 },
		{ "% /usr/bin/perf stat -ar3 ./x", "/usr/bin/perf stat -ar3", false, false, true, 3 },
		{ "$ perf stat --repeat 4 -x, -e cycles ./x --all-user", "perf stat --repeat 4", false, false, false, 4 },
		/* the counted command's own options are not perf's */
		{ "$ perf stat ./bench -a -r 9", "perf stat ./bench", false, false, false, 0 },
		{ "$ perf stat -e cycles -- ./bench --all-user", "perf stat -e", false, false, false, 0 },
		{ "> $ perf stat -r 0 ./x", "perf stat -r 0", false, false, false, 0 }, /* perf refuses 0 runs */
		{ "$ /opt/perfstat/perf stat -a ./x", "/opt/perfstat/perf stat -a", false, false, true, 0 },
	};
	static const char *const not_one[] = {
		"We ran perf stat -a on both hosts:", "perfstat -a", "perf status", " Performance counter stats for 'x':",
		"$ ./perf-stat-wrapper -a", "",
	};
	struct ud_perf_command c;
	int repeat;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(imp_has_perf_command(cases[i].line), "%s", cases[i].line);
		ck_assert_msg(imp_perf_command_of(cases[i].line, &c, &repeat), "%s", cases[i].line);
		ck_assert_msg(strncmp(c.line, cases[i].from, strlen(cases[i].from)) == 0, "%s: '%s'", cases[i].line, c.line);
		ck_assert_msg(c.all_user == cases[i].all_user && c.all_kernel == cases[i].all_kernel &&
				      c.system_wide == cases[i].system_wide && repeat == cases[i].repeat,
			      "%s: user %d kernel %d system %d repeat %d", cases[i].line, c.all_user, c.all_kernel,
			      c.system_wide, repeat);
		free(c.line);
	}
	for (size_t i = 0; i < sizeof(not_one) / sizeof(not_one[0]); i++) {
		ck_assert_msg(!imp_has_perf_command(not_one[i]), "%s", not_one[i]);
		ck_assert_msg(!imp_perf_command_of(not_one[i], &c, &repeat), "%s", not_one[i]);
	}
}
END_TEST

/* ---- the block accumulator ---- */

START_TEST(test_block_sums_rows)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_import_opts o = { 0 };
	struct ud_err err = UD_ERR_INIT;
	const struct ud_counter *c;
	json_t *taken;
	struct acc a;

	imp_acc_init(&a);
	ck_assert(imp_acc_empty(&a));
	/* Per-CPU rows under two spellings of one event, one CPU not counting. */
	ck_assert_int_eq(imp_acc_add(&a, "cycles", UD_COUNTED, 100, 50, NAN, true), 0);
	ck_assert_int_eq(imp_acc_add(&a, "cpu-cycles", UD_COUNTED, 300, 100, NAN, true), 0);
	ck_assert_int_eq(imp_acc_add(&a, "cycles", UD_NOT_COUNTED, 0, NAN, NAN, true), 0);
	ck_assert_int_eq(imp_acc_add(&a, "LLC-loads", UD_NOT_SUPPORTED, 0, NAN, NAN, true), 0);
	ck_assert_uint_eq(a.n, 2);
	ck_assert_int_eq(imp_acc_take_count_line(&a, "COUNT|1.5|0|lps", &err), 1);
	ck_assert_int_eq(imp_acc_take_count_line(&a, "COUNT|2,5|0|lps", &err), 1);
	ck_assert_int_eq(imp_acc_take_count_line(&a, "hello", &err), 0);
	ck_assert_int_eq(imp_acc_take_count_line(&a, "COUNT|x|1|lps", &err), -1);
	taken = imp_names_taken(p);
	ck_assert_int_eq(imp_acc_to_workload(&a, p, &o, "file.txt", taken, &err), 0);
	ck_assert_int_eq(imp_acc_to_workload(&a, p, &o, "file.txt", taken, &err), 0); /* the same name twice */
	imp_acc_free(&a);
	json_decref(taken);

	ck_assert_uint_eq(p->nworkloads, 2);
	ck_assert_str_eq(p->workloads[0].name, "file.txt");
	ck_assert_str_eq(p->workloads[1].name, "file.txt#2");
	c = ud_workload_counter(&p->workloads[0], "cycles");
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->status, UD_COUNTED);
	ck_assert_double_eq(c->value, 400);
	ck_assert_double_eq(c->running_pct, 75);
	ck_assert_int_eq(ud_workload_counter(&p->workloads[0], "LLC-loads")->status, UD_NOT_SUPPORTED);
	ck_assert_double_eq(p->workloads[0].score.median, 2.5); /* the last COUNT line is the score */
	ck_assert_str_eq(p->workloads[0].units, "lps");
	ck_assert(p->workloads[0].higher_is_better);
	ck_assert(isnan(p->workloads[0].work_units)); /* a rate (timebase 0) tells no total */
	ud_profile_free(p);
}
END_TEST

/* Issue 20 item 7: a COUNT line with a timebase is a total, scored over a time; without one it is no score. */
START_TEST(test_count_totals)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_import_opts o = { 0 };
	struct ud_err err = UD_ERR_INIT;
	json_t *taken = imp_names_taken(p);
	struct acc a;

	imp_acc_init(&a);
	ck_assert_int_eq(imp_acc_take_count_line(&a, "TIME|2.0", &err), 0); /* no COUNT line before it: not taken */
	/* program output is never grouped: whetstone's %.3f is a decimal, not thousands */
	ck_assert_int_eq(imp_acc_take_count_line(&a, "COUNT|984.123|0|MWIPS", &err), 1);
	ck_assert_double_eq(a.scores[0].value, 984.123);
	ck_assert_int_eq(imp_acc_take_count_line(&a, "TIME|10.123", &err), 1);
	ck_assert_double_eq(a.scores[0].time_s, 10.123);
	imp_acc_free(&a);
	ck_assert_int_eq(imp_acc_take_count_line(&a, "COUNT|4100000|1|lps", &err), 1);
	ck_assert_int_eq(imp_acc_take_count_line(&a, "COUNT|300|x|lpm", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "timebase 'x'"));
	ck_assert_int_eq(imp_acc_to_workload(&a, p, &o, "no-time.txt", taken, &err), 0);
	/* no elapsed time, no TIME line: the total stays the work, the rate unknown (never the total as a rate) */
	ck_assert(isnan(p->workloads[0].score.median));
	ck_assert_double_eq(p->workloads[0].work_units, 4100000);
	ck_assert_str_eq(p->workloads[0].units, "lps");
	imp_acc_free(&a);

	/* the program's TIME line is the time Run divides by, before the elapsed time: 300 per 60 s over 30 s */
	ck_assert_int_eq(imp_acc_take_count_line(&a, "COUNT|300|60|lpm", &err), 1);
	ck_assert_int_eq(imp_acc_take_count_line(&a, "TIME|30.0", &err), 1);
	a.elapsed_ns = 45e9;
	ck_assert_int_eq(imp_acc_to_workload(&a, p, &o, "time.txt", taken, &err), 0);
	ck_assert_double_eq(p->workloads[1].score.median, 600);
	ck_assert_double_eq(p->workloads[1].work_units, 300);
	imp_acc_free(&a);
	json_decref(taken);
	ud_profile_free(p);
}
END_TEST

/* Issue 12's sibling: 20,000 distinct events in one block took 20 s (each row scanned every counter); metrics too. */
START_TEST(test_block_many_events)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_import_opts o = { 0 };
	struct ud_err err = UD_ERR_INIT;
	json_t *taken = imp_names_taken(p);
	char ev[32];
	struct acc a;

	imp_acc_init(&a);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 20000; i++) {
			snprintf(ev, sizeof(ev), "ev%d", i);
			ck_assert_int_eq(imp_acc_add(&a, ev, UD_COUNTED, i, NAN, NAN, true), 0);
		}
	}
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 20000; i++) {
			snprintf(ev, sizeof(ev), "metric%d", i);
			ck_assert_int_eq(imp_acc_set_metric(&a, ev, round * 100 + i), 0); /* perf repeats them: the last stands */
		}
	}
	ck_assert_uint_eq(a.nmetrics, 20000);
	ck_assert_int_eq(imp_acc_add(&a, "cpu-cycles", UD_COUNTED, 1, NAN, NAN, true), 0);
	ck_assert_int_eq(imp_acc_add(&a, "cycles", UD_COUNTED, 2, NAN, NAN, true), 0); /* another spelling of the same event */
	ck_assert_uint_eq(a.n, 20001);
	ck_assert_int_eq(imp_acc_to_workload(&a, p, &o, "many", taken, &err), 0);
	ck_assert_uint_eq(p->workloads[0].ncounters, 20001);
	ck_assert_double_eq(ud_workload_value(&p->workloads[0], "ev19999"), 2 * 19999);
	ck_assert_double_eq(ud_workload_value(&p->workloads[0], "cycles"), 3);
	ck_assert_uint_eq(p->workloads[0].nperf_metrics, 20000);
	ck_assert_str_eq(p->workloads[0].perf_metrics[19999].name, "metric19999");
	ck_assert_double_eq(p->workloads[0].perf_metrics[19999].value, 100 + 19999);
	imp_acc_free(&a);
	json_decref(taken);
	ud_profile_free(p);
}
END_TEST

/* Issue 12: 5,000 blocks of one command took 67 s (every candidate scanned every name). */
START_TEST(test_unique_names_many_blocks)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_import_opts o = { 0 };
	struct ud_err err = UD_ERR_INIT;
	json_t *taken;
	char want[64];
	struct acc a;

	/* names already taken, some in the numbered form, before this file's blocks */
	ud_profile_add_workload(p, "cmd");
	ud_profile_add_workload(p, "cmd#3");
	taken = imp_names_taken(p);
	for (int i = 0; i < 20000; i++) {
		imp_acc_init(&a);
		ck_assert_int_eq(imp_acc_add(&a, "cycles", UD_COUNTED, 1, NAN, NAN, true), 0);
		ck_assert_int_eq(imp_acc_to_workload(&a, p, &o, "cmd", taken, &err), 0);
		imp_acc_free(&a);
	}
	json_decref(taken);
	ck_assert_uint_eq(p->nworkloads, 20002);
	/* the lowest free number each time: 2, then 4 (3 was taken), 5, ... */
	ck_assert_str_eq(p->workloads[2].name, "cmd#2");
	ck_assert_str_eq(p->workloads[3].name, "cmd#4");
	snprintf(want, sizeof(want), "cmd#%d", 20002);
	ck_assert_str_eq(p->workloads[20001].name, want);
	taken = json_object();
	for (size_t i = 0; i < p->nworkloads; i++) {
		ck_assert_ptr_null(json_object_get(taken, p->workloads[i].name)); /* all distinct */
		json_object_set_new(taken, p->workloads[i].name, json_true());
	}
	json_decref(taken);
	ud_profile_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("import_shared");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_lines_edges);
	tcase_add_test(tc, test_lines_long_and_modifiable);
	tcase_add_test(tc, test_control_byte_first);
	tcase_add_test(tc, test_number_locales);
	tcase_add_test(tc, test_decimal_votes);
	tcase_add_test(tc, test_pmus_clocks_metric_names);
	tcase_add_test(tc, test_number_ignores_process_locale);
	tcase_add_test(tc, test_number_exact_scaling);
	tcase_add_test(tc, test_number_bad);
	tcase_add_test(tc, test_counter_value);
	tcase_add_test(tc, test_event_names);
	tcase_add_test(tc, test_counting_mode_names);
	tcase_add_test(tc, test_perf_command_lines);
	tcase_add_test(tc, test_block_sums_rows);
	tcase_add_test(tc, test_count_totals);
	tcase_add_test(tc, test_unique_names_many_blocks);
	tcase_add_test(tc, test_block_many_events);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
