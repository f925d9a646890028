/* perf stat's layouts, from a workload built by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat_format.h"
#include "testutil.h"

static struct ud_profile *example(int runs)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "fstime");
	struct ud_counter *c;
	const double samples[] = { 45.5, 45.6, 45.7 };

	w->command = strdup("fstime -c");
	w->runs = runs;
	ud_score_set_samples(&w->score, samples, (size_t)runs);
	w->elapsed_ns = 45.6e9;
	w->user_ns = 7.3e9;
	w->sys_ns = 24.4e9;
	c = ud_workload_add_counter(w, "task-clock");
	c->status = UD_COUNTED;
	c->value = 34021.81e6;
	c->enabled_ns = c->running_ns = 34021.81e6;
	c = ud_workload_add_counter(w, "cycles");
	c->status = UD_COUNTED;
	c->value = 97062243821;
	c->enabled_ns = 1000;
	c->running_ns = 857;
	if (runs > 1)
		c->rel_stddev = 0.0012;
	c = ud_workload_add_counter(w, "instructions");
	c->status = UD_COUNTED;
	c->value = 68912885650;
	c = ud_workload_add_counter(w, "branch-misses");
	c->status = UD_NOT_SUPPORTED;
	c->reason = strdup("no hardware PMU on this host");
	c = ud_workload_add_counter(w, "branches");
	c->status = UD_NOT_SUPPORTED;
	c->reason = strdup("no hardware PMU on this host");
	c = ud_workload_add_counter(w, "L1-dcache-loads");
	c->status = UD_NOT_COUNTED;
	c->reason = strdup("never scheduled");
	return p;
}

/* The example's units: task-clock in msec, as events.c gives it. */
static const struct ud_stat_unit units[] = { { "msec", 1e-6, false }, { "", 1, false }, { "", 1, false },
					      { "", 1, false }, { "", 1, false }, { "", 1, false } };

static struct ud_stat_view whole(const struct ud_workload *w)
{
	return (struct ud_stat_view){ .whole = w, .units = units, .rusage = true, .rusage_cpus = true, .interval_s = NAN };
}

/* "t" text, "j" JSON lines, else the CSV separator. */
static char *render_view(const struct ud_stat_view *v, const char *form)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (strcmp(form, "t") == 0)
		ud_stat_print_text(f, v);
	else if (strcmp(form, "j") == 0)
		ud_stat_print_json(f, v);
	else
		ud_stat_print_csv(f, v, form);
	fclose(f);
	return buf;
}

static char *render(const struct ud_workload *w, const char *sep)
{
	struct ud_stat_view v = whole(w);

	return render_view(&v, sep ? sep : "t");
}

START_TEST(test_text_layout)
{
	struct ud_profile *p = example(1);
	char *s = render(&p->workloads[0], NULL);

	ck_assert_ptr_nonnull(strstr(s, " Performance counter stats for 'fstime -c':\n"));
	ck_assert_ptr_nonnull(strstr(s, "          34021.81 msec task-clock"));
	ck_assert_ptr_nonnull(strstr(s, "#    0.746 CPUs utilized"));
	ck_assert_ptr_nonnull(strstr(s, "       97062243821      cycles"));
	ck_assert_ptr_nonnull(strstr(s, "#    2.853 GHz"));
	ck_assert_ptr_nonnull(strstr(s, "(85.70%)"));
	ck_assert_ptr_nonnull(strstr(s, "#     0.71 insn per cycle"));
	ck_assert_ptr_nonnull(strstr(s, "   <not supported>      branch-misses\n"));
	ck_assert_ptr_nonnull(strstr(s, "     <not counted>      L1-dcache-loads\n"));
	/* perf's text, row for row: the reasons are -v's */
	ck_assert_ptr_null(strstr(s, "Not counted"));
	/* perf's " %17.9f", then user and sys, then two blank lines */
	ck_assert_ptr_nonnull(strstr(s, "\n      45.600000000 seconds time elapsed\n\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n       7.300000000 seconds user\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n      24.400000000 seconds sys\n"));
	/* getrusage's 31.7 s of CPU over 45.6 s is not task-clock's 34.0 s: no second CPUs utilized line */
	ck_assert_ptr_null(strstr(s, "getrusage"));
	free(s);
	ud_profile_free(p);
}
END_TEST

/* -v: the reasons, one line per reason naming every counter it stopped, and uarchdiff's own rows */
START_TEST(test_text_verbose)
{
	struct ud_profile *p = example(1);
	struct ud_stat_unit extra[6];
	struct ud_stat_view v = whole(&p->workloads[0]);
	char *quiet, *s;

	memcpy(extra, units, sizeof(extra));
	extra[1].extra = true; /* cycles, as if a group's own copy */
	v.units = extra;
	quiet = render_view(&v, "t");
	ck_assert_ptr_null(strstr(quiet, "      cycles"));
	free(quiet);
	quiet = render_view(&v, ",");
	ck_assert_ptr_null(strstr(quiet, ",cycles,"));
	free(quiet);
	v.verbose = true;
	s = render_view(&v, "t");
	ck_assert_ptr_nonnull(strstr(s, "       97062243821      cycles"));
	ck_assert_ptr_nonnull(strstr(s, "\n Not counted:\n"));
	ck_assert_ptr_nonnull(strstr(s, "   branch-misses, branches: no hardware PMU on this host\n"));
	ck_assert_ptr_nonnull(strstr(s, "   L1-dcache-loads: never scheduled\n"));
	free(s);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_text_repeated)
{
	struct ud_profile *p = example(3);
	char *s = render(&p->workloads[0], NULL);

	ck_assert_ptr_nonnull(strstr(s, "for 'fstime -c' (3 runs):"));
	ck_assert_ptr_nonnull(strstr(s, "( +-  0.12% )"));
	/* stderr of the mean of 45.5, 45.6, 45.7: 0.1/sqrt(3), with perf's two digits past the spread's first */
	ck_assert_ptr_nonnull(strstr(s, "\n           45.6000 +- 0.0577 seconds time elapsed  ( +-  0.13% )\n"));
	ck_assert_ptr_null(strstr(s, "seconds user"));
	free(s);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_csv_layout)
{
	struct ud_profile *p = example(1);
	char *s = render(&p->workloads[0], ",");

	ck_assert_ptr_nonnull(strstr(s, "34021.81,msec,task-clock,34021810000,100.00,0.746,CPUs utilized\n"));
	ck_assert_ptr_nonnull(strstr(s, "97062243821,,cycles,857,85.70,2.853,GHz\n"));
	ck_assert_ptr_nonnull(strstr(s, "<not supported>,,branch-misses,0,100.00,,\n"));
	ck_assert_ptr_nonnull(strstr(s, "<not counted>,,L1-dcache-loads,0,100.00,,\n"));
	ck_assert_int_eq(count_lines(s), 6);
	free(s);
	ud_profile_free(p);
}
END_TEST

START_TEST(test_csv_repeated_has_variance_column)
{
	struct ud_profile *p = example(3);
	char *s = render(&p->workloads[0], ";");

	ck_assert_ptr_nonnull(strstr(s, "97062243821;;cycles;0.12%;857;85.70;2.853;GHz\n"));
	free(s);
	ud_profile_free(p);
}
END_TEST

/* A name holding the separator (or a quote) is one quoted field: its row keeps its fields. */
START_TEST(test_csv_name_with_separator_quoted)
{
	struct ud_profile *p = example(1);
	char *s;

	p->workloads[0].counters[1].name = "cpu/event=0x3c;name=\"a;b\"/"; /* names are borrowed */
	s = render(&p->workloads[0], ";");
	ck_assert_msg(strstr(s, "97062243821;;\"cpu/event=0x3c;name=\"\"a;b\"\"/\";857;85.70;2.853;G/sec\n") != NULL, "%s", s);
	free(s);
	s = render(&p->workloads[0], ",");
	ck_assert_msg(strstr(s, "97062243821,,\"cpu/event=0x3c;name=\"\"a;b\"\"/\",857,85.70,2.853,G/sec\n") != NULL, "%s", s);
	free(s);
	ud_profile_free(p);
}
END_TEST

/* A counter's name longer than any buffer (1,200 bytes, made-up terms) is printed whole in every form, as perf does. */
START_TEST(test_long_name_whole)
{
	struct ud_profile *p = example(1);
	char name[1300], copy[1310];
	const char *forms[] = { "t", ",", "j" };

	strcpy(name, "cpu/event=0x3c,name=made-up-");
	for (size_t n = strlen(name); n < 1200; n++)
		name[n] = 'a' + (char)(n % 26);
	strcpy(name + 1200, "-END/");
	/* a copy of it (-e X,X) prints under the name whole too */
	snprintf(copy, sizeof(copy), "%s#2", name);
	p->workloads[0].counters[1].name = copy; /* names are borrowed: copy outlives p */
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		char *s = render(&p->workloads[0], forms[i]);
		const char *at = strstr(s, name);

		ck_assert_msg(at != NULL, "%s: the long name not whole in:\n%.300s", forms[i], s);
		ck_assert_msg(strncmp(at + strlen(name), "#2", 2) != 0, "%s: the copy's #2 printed", forms[i]);
		/* the row goes on after the name: its count and its columns kept */
		ck_assert_ptr_nonnull(strstr(s, "97062243821"));
		ck_assert_msg(strstr(at, "G/sec") != NULL, "%s: the row's metric after the name lost", forms[i]);
		free(s);
	}
	ud_profile_free(p);
}
END_TEST

/* --table: each run's time, its distance from the mean, a '#' a 5% of it and one more, then the result */
START_TEST(test_text_table)
{
	struct ud_profile *p = example(3);
	const double samples[] = { 1, 2, 3 };
	struct ud_stat_view v = whole(&p->workloads[0]);
	char *s;

	ud_score_set_samples(&p->workloads[0].score, samples, 3);
	p->workloads[0].elapsed_ns = 2e9;
	v.table = true;
	s = render_view(&v, "t");
	ck_assert_msg(strstr(s, "\n\n             # Table of individual measurements:\n"
				"             1.000 (-1.000) #####################\n"
				"             2.000 (+0.000) #\n"
				"             3.000 (+1.000) #######\n"
				"\n             # Final result:\n"
				"             2.000 +- 0.577 seconds time elapsed  ( +- 28.87% )\n\n") != NULL,
		      "%s", s);
	free(s);
	ud_profile_free(p);
}
END_TEST

/* --metric-only: a column a metric perf keeps (not CPUs utilized, not rates), a line of units, then of values */
START_TEST(test_metric_only_whole)
{
	struct ud_profile *p = example(1);
	struct ud_stat_view v = whole(&p->workloads[0]);
	char *s;

	v.metric_only = true;
	s = render_view(&v, "t");
	ck_assert_msg(strstr(s, "for 'fstime -c':\n\n"
				"                 GHz       insn per cycle \n"
				"               2.853                 0.71 \n"
				"\n      45.600000000 seconds time elapsed\n") != NULL, "%s", s);
	ck_assert_ptr_null(strstr(s, "task-clock"));
	free(s);
	s = render_view(&v, ",");
	ck_assert_str_eq(s, "GHz,insn per cycle,\n2.853,0.71,\n");
	free(s);
	s = render_view(&v, "j");
	ck_assert_str_eq(s, "{\"metric-value\" : \"2.853\", \"metric-unit\" : \"GHz\"}\n"
			    "{\"metric-value\" : \"0.71\", \"metric-unit\" : \"insn per cycle\"}\n");
	free(s);
	ud_profile_free(p);
}
END_TEST

/* --metric-only with -A and -I: a line a CPU, after the time; "of all" units name their event */
START_TEST(test_metric_only_per_cpu_interval)
{
	struct ud_profile *p = example(1);
	struct ud_workload *w = &p->workloads[0];
	struct ud_stat_slot slots[] = { { w, NULL, 0 }, { w, NULL, 1 } };
	struct ud_stat_view v = whole(w);
	char *s;

	w->counters[3].status = UD_COUNTED; /* branch-misses, over branches */
	w->counters[3].value = 1;
	w->counters[4].status = UD_COUNTED;
	w->counters[4].value = 200;
	v.metric_only = true;
	v.aggr = UD_STAT_PER_CPU;
	v.slots = slots;
	v.nslots = 2;
	s = render_view(&v, "t");
	ck_assert_msg(strstr(s, "\n      "
				"                 GHz       insn per cycle branch-misses of all branches \n"
				"CPU0                      2.853                 0.71                          0.50% \n"
				"CPU1 ") != NULL, "%s", s);
	free(s);
	v.interval_s = 1.5;
	s = render_view(&v, ",");
	ck_assert_str_eq(s, " time,cpu,GHz,insn per cycle,branch-misses of all branches,\n"
			    "     1.500000000,CPU0,2.853,0.71,0.50,\n     1.500000000,CPU1,2.853,0.71,0.50,\n");
	free(s);
	s = render_view(&v, "j");
	ck_assert_ptr_nonnull(strstr(s, "{\"interval\" : 1.500000000, \"cpu\" : \"1\", \"metric-value\" : \"0.50\", "
					"\"metric-unit\" : \"branch-misses of all branches\"}\n"));
	free(s);
	s = render_view(&v, "t");
	ck_assert_msg(strstr(s, "#           time CPU                      GHz") == s, "%s", s);
	ck_assert_ptr_nonnull(strstr(s, "\n     1.500000000 CPU1                      2.853 "));
	free(s);
	ud_profile_free(p);
}
END_TEST

/* -B: the text counts' whole digits grouped by the locale's separator; -x and -j never */
START_TEST(test_big_num)
{
	struct ud_profile *p = example(1);
	struct ud_stat_view v = whole(&p->workloads[0]);
	char *s;

	v.thousands_sep = ",";
	s = render_view(&v, "t");
	ck_assert_ptr_nonnull(strstr(s, "\n         34,021.81 msec task-clock "));
	ck_assert_ptr_nonnull(strstr(s, "\n    97,062,243,821      cycles "));
	free(s);
	v.thousands_sep = "\xe2\x80\xaf"; /* a narrow no-break space, as fr_FR's */
	s = render_view(&v, "t");
	/* 18 bytes wide, as printf pads: three bytes a separator leave no room */
	ck_assert_ptr_nonnull(strstr(s, "\n97\xe2\x80\xaf""062\xe2\x80\xaf""243\xe2\x80\xaf""821      cycles "));
	free(s);
	s = render_view(&v, ",");
	ck_assert_ptr_nonnull(strstr(s, "97062243821,,cycles,"));
	free(s);
	v.thousands_sep = "";
	s = render_view(&v, "t");
	ck_assert_ptr_nonnull(strstr(s, "\n       97062243821      cycles "));
	free(s);
	ud_profile_free(p);
}
END_TEST

/*
 * -G, --for-each-cgroup: the cgroup after the name, as perf 6.1 prints it
 * (print_cgroup()): the text's name padded to 32 (25 when not counted),
 * then a space and the cgroup, "" where a counter has none; a field of -x,
 * and "cgroup" in -j.
 */
START_TEST(test_cgroup_column)
{
	struct ud_profile *p = example(1);
	struct ud_stat_view v = whole(&p->workloads[0]);
	char *s;

	p->workloads[0].counters[0].cgroup = strdup("web");
	p->workloads[0].counters[5].cgroup = strdup("db");
	v.cgroups = true;
	s = render_view(&v, "t");
	ck_assert_msg(strstr(s, " msec task-clock                       web # ") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "       97062243821      cycles                            # ") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "<not counted>      L1-dcache-loads           db\n") != NULL, "%s", s);
	free(s);
	s = render_view(&v, ",");
	ck_assert_msg(strstr(s, "34021.81,msec,task-clock,web,34021810000,100.00,0.746,CPUs utilized\n") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "97062243821,,cycles,,857,85.70,2.853,GHz\n") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "<not counted>,,L1-dcache-loads,db,0,100.00,,\n") != NULL, "%s", s);
	free(s);
	s = render_view(&v, "j");
	ck_assert_msg(strstr(s, "\"event\" : \"task-clock\", \"cgroup\" : \"web\", \"event-runtime\"") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "\"event\" : \"cycles\", \"cgroup\" : \"\", ") != NULL, "%s", s);
	free(s);
	v.cgroups = false;
	s = render_view(&v, ",");
	ck_assert_msg(strstr(s, "web") == NULL && strstr(s, ",,cycles,857,") != NULL, "%s", s);
	free(s);
	ud_profile_free(p);
}
END_TEST

/* Rates in a cgroup are over that cgroup's own clock, as perf keeps its shadow stats per cgroup. */
START_TEST(test_cgroup_rates)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "system-wide");
	static const struct {
		const char *name, *cgroup;
		double value;
	} rows[] = { { "task-clock", "a", 1e9 }, { "page-faults", "a", 1000 }, { "task-clock#2", "b", 2e9 },
		     { "page-faults#2", "b", 1000 } };
	static const struct ud_stat_unit cunits[] = { { "msec", 1e-6, false }, { "", 1, false }, { "msec", 1e-6, false },
						      { "", 1, false } };
	struct ud_stat_view v;
	char *s;

	w->elapsed_ns = 1e9;
	for (size_t i = 0; i < 4; i++) {
		struct ud_counter *c = ud_workload_add_counter(w, rows[i].name);

		c->status = UD_COUNTED;
		c->value = rows[i].value;
		c->cgroup = strdup(rows[i].cgroup);
	}
	v = whole(w);
	v.units = cunits;
	v.cgroups = true;
	s = render_view(&v, "t");
	ck_assert_msg(strstr(s, "page-faults                      a #    1.000 K/sec") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "page-faults                      b #  500.000 /sec") != NULL, "%s", s);
	free(s);
	ud_profile_free(p);
}
END_TEST

/*
 * Intel's top-down group, which perf 6.1 adds to its defaults where the
 * cpu PMU lists slots (made-up counts): each topdown-* row shows
 * its share of the four's sum, as perf's stat-shadow.c; with fewer than
 * two of them counted (perf's full_td()) the row shows a rate instead.
 */
START_TEST(test_topdown_level1_shares)
{
	struct ud_profile *p = ud_profile_new(NULL);
	struct ud_workload *w = ud_profile_add_workload(p, "made-up");
	static const struct {
		const char *name;
		double value;
	} rows[] = { { "task-clock", 1e9 }, { "slots", 1000 }, { "topdown-retiring", 300 },
		     { "topdown-bad-spec", 100 }, { "topdown-fe-bound", 200 }, { "topdown-be-bound", 400 } };
	static const struct ud_stat_unit ones[] = { { "msec", 1e-6, false }, { "", 1, false }, { "", 1, false },
						    { "", 1, false }, { "", 1, false }, { "", 1, false } };
	static const struct ud_stat_unit ones7[] = { { "msec", 1e-6, false }, { "", 1, false }, { "", 1, false },
						     { "", 1, false }, { "", 1, false }, { "", 1, false },
						     { "", 1, false } };
	struct ud_counter *c;
	struct ud_stat_view v;
	char *s;

	w->elapsed_ns = 1e9;
	for (size_t i = 0; i < 6; i++) {
		c = ud_workload_add_counter(w, rows[i].name);
		c->status = UD_COUNTED;
		c->value = rows[i].value;
	}
	v = whole(w);
	v.units = ones;
	s = render_view(&v, "t");
	ck_assert_msg(strstr(s, "topdown-retiring                 #     30.0% Retiring") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "topdown-bad-spec                 #     10.0% Bad Speculation") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "topdown-fe-bound                 #     20.0% Frontend Bound") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "topdown-be-bound                 #     40.0% Backend Bound") != NULL, "%s", s);
	ck_assert_msg(strstr(s, "slots                            #    1.000 K/sec") != NULL, "%s", s);
	free(s);
	s = render_view(&v, ",");
	ck_assert_msg(strstr(s, "300,,topdown-retiring,0,100.00,30.0,Retiring\n") != NULL, "%s", s);
	free(s);
	/* level 2 (Sapphire Rapids' defaults): two shares a row, the second on the same line, as perf prints them */
	c = ud_workload_add_counter(w, "topdown-heavy-ops");
	c->status = UD_COUNTED;
	c->value = 100;
	v.units = ones7;
	s = render_view(&v, "t");
	ck_assert_msg(strstr(s, "topdown-heavy-ops                #     10.0% Heavy Operations       #     20.0% Light "
				"Operations\n") != NULL, "%s", s);
	free(s);
	s = render_view(&v, ",");
	ck_assert_msg(strstr(s, "100,,topdown-heavy-ops,0,100.00,10.0,Heavy Operations,20.0,Light Operations\n") != NULL,
		      "%s", s);
	free(s);
	for (size_t i = 3; i < 6; i++)
		w->counters[i].value = 0;
	s = render_view(&v, "t");
	ck_assert_msg(strstr(s, "Retiring") == NULL && strstr(s, "topdown-retiring                 #  300.000 /sec"),
		      "%s", s);
	free(s);
	ud_profile_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stat_format");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_text_layout);
	tcase_add_test(tc, test_text_verbose);
	tcase_add_test(tc, test_text_repeated);
	tcase_add_test(tc, test_csv_layout);
	tcase_add_test(tc, test_csv_repeated_has_variance_column);
	tcase_add_test(tc, test_csv_name_with_separator_quoted);
	tcase_add_test(tc, test_text_table);
	tcase_add_test(tc, test_metric_only_whole);
	tcase_add_test(tc, test_metric_only_per_cpu_interval);
	tcase_add_test(tc, test_big_num);
	tcase_add_test(tc, test_cgroup_column);
	tcase_add_test(tc, test_topdown_level1_shares);
	tcase_add_test(tc, test_cgroup_rates);
	tcase_add_test(tc, test_long_name_whole);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
