/*
 * compare: fleets written here as profile files.  A small one whose
 * distributions are worked out by hand; a fleet of three groups with
 * three slow hosts planted, each with a cause known by construction (a
 * lower IPC, an older kernel, another mitigation): the outliers are
 * exactly those hosts, in their groups, with those causes, and an odd
 * host put first changes none of it; the baselines and --group-by; the
 * uarchdiff.compare/2 document; every report format; 1,000 hosts in
 * under 250 lines of text; the command's exit statuses and errors.  A
 * made-up fleet with each host's own run-to-run noise in its samples (issue
 * 38): the host slower on every workload is the first outlier, a host whose
 * one run disagrees with itself is named noisy and not ranked, and a group
 * of four is untested, with each host's distance from the others.  And
 * the real A/A profiles of tests/data/aa/ as a fleet: no outlier, the
 * loaded run named noisy.  And every name the fleet templates use is a
 * field of the report's typed view.
 */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diffutil.h"
#include "fleet.h"
#include "noise.h"
#include "report.h"
#include "template.h"
#include "testutil.h"

#define UD UD_BINARY
#define EVIL "<script>alert(1)</script>"
#define MAXHOSTS 1100

static char *dir;
static char *paths[MAXHOSTS];
static size_t npaths;

/* What a generated host is. */
struct spec {
	const char *label, *uarch, *kernel, *srso;
	int cpus;
	double speed;     /* its scores' scale */
	double ipc;       /* its cycles per instruction's inverse on every workload */
	double sys_slow;  /* the kernel-heavy workload's kernel time and score scale (1: as its peers) */
	size_t nworkloads;
};

static const char *names[] = { "int", "syscall", "pipe", "fp", "spawn", "exec", "filecopy", "tcp-rr", "branch",
			       "ilp", "frontend", "sweep-l1", "sweep-l2", "pointer-chase", "context-switch",
			       "filecopy-4096", "dhry", "whetstone", "shell", "index" };

/*
 * Workload j of host s: a score of 1000 x speed (the kernel-heavy ones,
 * syscall and pipe, slowed by sys_slow), a billion instructions per unit
 * and cycles from the IPC, so a slower IPC shows as the IPC factor and a
 * slower kernel as more kernel time.
 */
static void add_workload(struct ud_profile *p, const struct spec *s, size_t j)
{
	bool kernel = j == 1 || j == 2;
	double score = 1000 * s->speed * (kernel ? 1 / s->sys_slow : 1);
	struct ud_workload *w = add(p, names[j], score, 1);
	double insns = 1e9 * (kernel ? s->sys_slow : 1);

	w->units = strdup("lps");
	w->work_units = 1000;
	w->composite = j == 19;
	/* a run of the same work takes as much longer as the score is lower, all of it on the CPU */
	w->elapsed_ns = 1e9 * (kernel ? s->sys_slow : 1) / s->speed;
	counts(w, insns, insns / s->ipc, w->elapsed_ns, kernel ? 0.7 : 0.02);
}

/* Writes host s as profile file number k; its path joins paths. */
static void write_host(const struct spec *s)
{
	/* the labels hold no quote or backslash: they go into the JSON as they are */
	struct ud_profile *p = ud_profile_new(host_from_text(
		"{\"label\": \"%s\", \"cpu\": {\"vendor\": \"%s\", \"uarch\": \"%s\", \"online_cpus\": %d}, "
		"\"kernel\": \"%s\", \"vulnerabilities\": {\"spec_rstack_overflow\": \"%s\"}}",
		s->label, strcmp(s->uarch, "neoverse-n1") ? "AuthenticAMD" : "ARM", s->uarch, s->cpus, s->kernel, s->srso));
	struct ud_err err = UD_ERR_INIT;
	char path[600];

	for (size_t j = 0; j < (s->nworkloads ? s->nworkloads : 3); j++)
		add_workload(p, s, j);
	snprintf(path, sizeof(path), "%s/h%04zu.json", dir, npaths);
	ck_assert_msg(ud_profile_save(p, path, &err) == 0, "%s", err.msg);
	ud_profile_free(p);
	paths[npaths++] = strdup(path);
}

static void setup(void)
{
	diffutil_load();
	dir = make_tempdir();
	npaths = 0;
}

static void teardown(void)
{
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	rm_tree(dir);
	free(dir);
	diffutil_unload();
}

static struct ud_fleet *build(enum ud_fleet_baseline b, const char *label, const char *const *by, size_t nby)
{
	struct ud_fleet_input in = { paths, npaths, by, nby, b, label, &diffutil_db };
	struct ud_err err = UD_ERR_INIT;
	struct ud_fleet *f = ud_fleet_build(&in, &err);

	ck_assert_msg(f != NULL, "%s", err.msg);
	return f;
}

/* A jitter of -2% .. +2% that depends only on k: peers that measured within a hair of each other. */
static double jitter(size_t k)
{
	return 1 + ((double)((k * 37) % 11) - 5) / 250;
}

/*
 * Five zen4 hosts at speeds 1, 1.1, 1.2, 1.3 and 10, three zen5 ones at 2:
 * by R's type 7 (h = (n - 1) q) the quartiles are 1100 and 1300, the
 * median 1200.  |ln(x / 1200)| is 0.182, 0.087, 0, 0.080 and 2.12: the MAD
 * 0.087, the limit 5.19 x 0.087 = 0.45, so 10 is the one outlier.
 */
START_TEST(test_distribution_by_hand)
{
	static const double speed[] = { 1, 1.1, 1.2, 1.3, 10 };
	struct ud_fleet *f;
	const struct ud_fleet_dist *d;

	for (int k = 0; k < 5; k++)
		write_host(&(struct spec){ "z4", "zen4", "6.8", "Mitigation: Safe RET", 8, speed[k], 2, 1, 3 });
	for (int k = 0; k < 3; k++)
		write_host(&(struct spec){ "z5", "zen5", "6.8", "Mitigation: Safe RET", 8, 2, 2, 1, 3 });
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	ck_assert_uint_eq(f->ngroups, 2);
	ck_assert_str_eq(f->groups[0].name, "AuthenticAMD, zen4, 8 CPUs");
	ck_assert_uint_eq(f->groups[0].nhosts, 5);
	ck_assert_uint_eq(f->ref_group, 0); /* the largest */
	d = &f->groups[0].dist[0];
	ck_assert_uint_eq(d->n, 5);
	REL(d->median, 1200);
	REL(d->q1, 1100);
	REL(d->q3, 1300);
	REL(d->min, 1000);
	REL(d->max, 10000);
	/* zen5's median host scores 2000 everywhere against zen4's median 1200 */
	REL(f->groups[1].geomean, 2000.0 / 1200);
	REL(f->groups[0].geomean, 1);
	/* speed 10 is 3.3x its group's median: the one outlier, on each of its workloads */
	ck_assert_uint_eq(f->noutliers, 3);
	for (size_t i = 0; i < f->noutliers; i++) {
		ck_assert_uint_eq(f->outliers[i].host, 4);
		REL(f->outliers[i].ratio, 10.0 / 1.2);
	}
	ud_fleet_free(f);
}
END_TEST

/*
 * The planted fleet: zen4 x 30, zen5 x 25, neoverse-n1 x 20, kernel 6.8
 * and SRSO "Safe RET" everywhere but where planted.  zen4's "slow-ipc"
 * runs every workload at 0.7x the IPC (and speed); zen5's "old-kernel"
 * has kernel 6.1 and 1.6x the kernel work on syscall and pipe; n1's
 * "mitigated" has SRSO "Vulnerable" fixed by another mitigation and 1.5x
 * the kernel work.  first, when set, is written before all of them.
 */
static void planted_fleet(const struct spec *first)
{
	static const struct {
		const char *uarch;
		int n;
		double speed;
	} groups[] = { { "zen4", 30, 1 }, { "zen5", 25, 1.3 }, { "neoverse-n1", 20, 0.8 } };
	char label[64];

	if (first)
		write_host(first);
	for (size_t g = 0; g < 3; g++)
		for (int k = 0; k < groups[g].n; k++) {
			struct spec s = { label, groups[g].uarch, "6.8.0", "Mitigation: Safe RET", 64,
					  groups[g].speed * jitter(g * 100 + k), 2 * jitter(g * 100 + k + 3), 1, 3 };

			snprintf(label, sizeof(label), "%s-%02d", groups[g].uarch, k);
			if (g == 0 && k == 7)
				s.label = "slow-ipc", s.ipc *= 0.7, s.speed *= 0.7;
			if (g == 1 && k == 11)
				s.label = "old-kernel", s.kernel = "6.1.0", s.sys_slow = 1.6;
			if (g == 2 && k == 3)
				s.label = "mitigated", s.srso = "Mitigation: IBPB", s.sys_slow = 1.5;
			write_host(&s);
		}
}

/* The outlier hosts of f, each once, in their groups, with the cause the explanation names. */
static void expect_planted(const struct ud_fleet *f)
{
	static const struct {
		const char *label, *group, *cause;
	} want[] = { { "slow-ipc", "AuthenticAMD, zen4, 64 CPUs", "IPC" },
		     { "old-kernel", "AuthenticAMD, zen5, 64 CPUs", "kernel 6.8.0 -> 6.1.0" },
		     { "mitigated", "ARM, neoverse-n1, 64 CPUs", "vulnerabilities.spec_rstack_overflow Mitigation: Safe RET -> Mitigation: IBPB" } };
	int seen[3] = { 0 };

	ck_assert_uint_gt(f->noutliers, 0);
	for (size_t i = 0; i < f->noutliers; i++) {
		const struct ud_fleet_outlier *o = &f->outliers[i];
		const char *label = f->hosts[o->host].label;
		int k = 0;

		while (k < 3 && strcmp(want[k].label, label) != 0)
			k++;
		ck_assert_msg(k < 3, "%s is an outlier on %s (%.3f): %s", label, f->workloads[o->workload].name, o->ratio,
			      o->explanation);
		seen[k]++;
		ck_assert_str_eq(f->groups[f->hosts[o->host].group].name, want[k].group);
		ck_assert_msg(o->ratio < 0.8, "%s: %.3f", label, o->ratio);
		ck_assert_msg(strstr(o->explanation, want[k].cause), "%s lacks '%s': %s", label, want[k].cause,
			      o->explanation);
		/* no factor pulled the other way: no empty list after a semicolon */
		ck_assert_msg(!strstr(o->explanation, "; ."), "%s: %s", label, o->explanation);
	}
	/* slow-ipc on its three workloads, the other two on their two kernel-heavy ones */
	ck_assert_int_eq(seen[0], 3);
	ck_assert_int_eq(seen[1], 2);
	ck_assert_int_eq(seen[2], 2);
	/* the lower IPC is the IPC factor, as the diff engine splits it */
	for (size_t i = 0; i < f->noutliers; i++)
		if (strcmp(f->hosts[f->outliers[i].host].label, "slow-ipc") == 0) {
			ck_assert(f->outliers[i].has_dominant);
			ck_assert_int_eq(f->outliers[i].dominant, UD_FACTOR_IPC);
		}
}

START_TEST(test_planted_outliers)
{
	struct ud_fleet *f, *g;
	/* an odd host first: another CPU, three times as fast, on kernel 5.4 */
	struct spec odd = { "odd-first", "zen3", "5.4.0", "Vulnerable", 16, 3, 4, 1, 3 };
	double geomeans[3];

	planted_fleet(NULL);
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	ck_assert_uint_eq(f->ngroups, 3);
	expect_planted(f);
	for (size_t k = 0; k < 3; k++)
		geomeans[k] = f->groups[k].geomean;
	ud_fleet_free(f);
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	npaths = 0;
	planted_fleet(&odd);
	g = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	ck_assert_uint_eq(g->ngroups, 4);
	ck_assert_str_eq(g->groups[0].name, "AuthenticAMD, zen3, 16 CPUs");
	ck_assert_uint_eq(g->ref_group, 1); /* zen4's 30, not the first host's */
	expect_planted(g);
	for (size_t k = 0; k < 3; k++)
		REL(g->groups[k + 1].geomean, geomeans[k]);
	ud_fleet_free(g);
}
END_TEST

/* --baseline first and LABEL: that host is the reference; its group holds it; a label nobody has is an error. */
START_TEST(test_baselines)
{
	struct ud_fleet_input in = { paths, 0, NULL, 0, UD_FLEET_LABEL, "nobody", &diffutil_db };
	struct ud_err err = UD_ERR_INIT;
	struct ud_fleet *f;

	planted_fleet(NULL);
	f = build(UD_FLEET_FIRST, NULL, NULL, 0);
	ck_assert_uint_eq(f->ref_host, 0);
	ck_assert_str_eq(f->ref_label, "zen4-00");
	ck_assert(f->groups[0].diff != NULL); /* its own group's median is set against it too */
	expect_planted(f);
	ud_fleet_free(f);
	f = build(UD_FLEET_LABEL, "mitigated", NULL, 0);
	ck_assert_str_eq(f->ref_label, "mitigated");
	ck_assert_uint_eq(f->ref_group, 2);
	expect_planted(f); /* the outliers are against their groups, whatever the baseline */
	ud_fleet_free(f);
	in.n = npaths;
	ck_assert_ptr_null(ud_fleet_build(&in, &err));
	ck_assert_msg(strstr(err.msg, "--baseline nobody: no host has that label"), "%s", err.msg);
}
END_TEST

/* --group-by kernel: the old kernel is a group of its own, and no outlier; a fact nobody has is an error. */
START_TEST(test_group_by)
{
	const char *by[] = { "kernel" }, *typo[] = { "kernle" };
	struct ud_fleet_input in = { paths, 0, typo, 1, UD_FLEET_MEDIAN, NULL, &diffutil_db };
	struct ud_err err = UD_ERR_INIT;
	struct ud_fleet *f;

	planted_fleet(NULL);
	f = build(UD_FLEET_MEDIAN, NULL, by, 1);
	ck_assert_uint_eq(f->ngroups, 2);
	ck_assert_str_eq(f->groups[0].name, "6.8.0");
	ck_assert_str_eq(f->groups[1].name, "6.1.0");
	ck_assert_uint_eq(f->groups[1].nhosts, 1);
	for (size_t i = 0; i < f->noutliers; i++)
		ck_assert_str_ne(f->hosts[f->outliers[i].host].label, "old-kernel");
	ud_fleet_free(f);
	in.n = npaths;
	ck_assert_ptr_null(ud_fleet_build(&in, &err));
	ck_assert_msg(strstr(err.msg, "--group-by kernle: no host has that fact"), "%s", err.msg);
}
END_TEST

/*
 * --group-by cpu.uarch where every host is "generic" (a core with no table,
 * as the Xeon model 167 this ran on): the fact is there, only unknown, so
 * the hosts make one group of unknowns instead of a "no host has that fact"
 * refusal meant for typos (the fleet playbook's run failed on it).
 */
START_TEST(test_group_by_unknown_everywhere)
{
	const char *by[] = { "kernel", "cpu.uarch" };
	struct ud_fleet *f;

	for (int k = 0; k < 3; k++) {
		char label[16];

		snprintf(label, sizeof(label), "generic-%d", k);
		write_host(&(struct spec){ label, "generic", "6.1.0", "Not affected", 2, 1 + 0.01 * k, 1.5, 1, 0 });
	}
	f = build(UD_FLEET_MEDIAN, NULL, by, 2);
	ck_assert_uint_eq(f->ngroups, 1);
	ck_assert_uint_eq(f->groups[0].nhosts, 3);
	ck_assert_ptr_null(f->groups[0].keys[1]);
	ud_fleet_free(f);
}
END_TEST

/*
 * --group-by a field every host has null (hostname), or a group of facts
 * (cpu): refused by name, where each made every host a group of its own
 * and an arbitrary one the baseline (issue 36).
 */
START_TEST(test_group_by_nothing_refused)
{
	struct run_result r;

	for (int k = 0; k < 3; k++)
		write_host(&(struct spec){ "H", "zen4", "6.8", "Vulnerable", 8, 1 + 0.01 * k, 2, 1, 2 });
	r = run_capture((char *[]){ UD, "compare", "--group-by", "cpu", paths[0], paths[1], paths[2], NULL });
	ck_assert_msg(r.status == 2 && strstr(r.err, "--group-by cpu: a group of facts, not one fact"), "exit %d: %s",
		      r.status, r.err);
	run_free(&r);
	r = run_capture((char *[]){ UD, "compare", "--group-by", "hostname", paths[0], paths[1], paths[2], NULL });
	ck_assert_msg(r.status == 2 && strstr(r.err, "--group-by hostname: unknown (null) on every host"), "exit %d: %s",
		      r.status, r.err);
	run_free(&r);
}
END_TEST

static char *render_of(const struct ud_fleet *f, enum ud_report_format fmt, bool all_hosts, bool pairs)
{
	struct ud_fleet_report r = { fmt, all_hosts, pairs, NULL };
	struct ud_err err = UD_ERR_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_msg(ud_fleet_write(f, &r, UD_TEMPLATES_DIR, out, &err) == 0, "%s", err.msg);
	fclose(out);
	return buf;
}

/* The document: the outliers as the issue names their fields, groups with distributions, hosts with speedups. */
START_TEST(test_json)
{
	struct ud_fleet *f;
	char *text;
	json_t *doc, *o, *g;
	size_t i;

	planted_fleet(NULL);
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	text = render_of(f, UD_REPORT_JSON, false, false);
	doc = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "schema")), "uarchdiff.compare/2");
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "outliers")), 7);
	json_array_foreach(json_object_get(doc, "outliers"), i, o) {
		ck_assert(json_is_string(json_object_get(o, "label")));
		ck_assert(json_is_integer(json_object_get(o, "group")));
		ck_assert(json_is_string(json_object_get(o, "workload")));
		ck_assert(json_is_real(json_object_get(o, "ratio")));
		ck_assert(json_is_string(json_object_get(o, "explanation")));
	}
	g = json_array_get(json_object_get(doc, "groups"), 1);
	ck_assert_uint_eq(json_array_size(json_object_get(g, "hosts")), 25);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(json_object_get(g, "workloads"), "syscall"), "n")), 25);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "baseline")), "median");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(g, "diff"), "schema")), "uarchdiff.diff/2");
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "hosts")), 75);
	ck_assert_ptr_null(json_object_get(doc, "pairs"));
	json_decref(doc);
	free(text);
	text = render_of(f, UD_REPORT_JSON, false, true);
	doc = json_loads(text, 0, NULL);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "pairs")), 75);
	json_decref(doc);
	free(text);
	ud_fleet_free(f);
}
END_TEST

/* Every format names the outliers, escapes the labels, shows no "nan" or "(null)"; --all-hosts adds every host. */
START_TEST(test_formats)
{
	enum ud_report_format fmt = (enum ud_report_format)_i;
	struct ud_fleet *f;
	char *text, *all;

	if (fmt == UD_REPORT_JSON)
		return;
	planted_fleet(&(struct spec){ EVIL, "zen3", "5.4.0", "Vulnerable", 16, 3, 4, 1, 3 });
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	text = render_of(f, fmt, false, false);
	all = render_of(f, fmt, true, true);
	for (const char *const *l = (const char *const[]){ "slow-ipc", "old-kernel", "mitigated", NULL }; *l; l++)
		ck_assert_msg(strstr(text, *l), "format %d lacks %s", fmt, *l);
	ck_assert_msg(!strstr(text, "zen4-05"), "format %d names a host that is no outlier", fmt);
	ck_assert_msg(strstr(all, "zen4-05"), "format %d --all-hosts lacks a host", fmt);
	ck_assert(!has_word(all, "nan") && !has_word(all, "inf") && !strstr(all, "(null)"));
	if (fmt == UD_REPORT_HTML) {
		ck_assert(!strstr(all, EVIL));
		ck_assert(strstr(text, "<svg"));
		ck_assert(strstr(text, "class=\"out\""));
	}
	free(text);
	free(all);
	ud_fleet_free(f);
}
END_TEST

/* 1,000 hosts in four groups of 20 workloads, 30 planted slow: the text fits in under 250 lines. */
START_TEST(test_thousand_hosts_text)
{
	static const char *uarchs[] = { "zen4", "zen5", "neoverse-n1", "neoverse-v1" };
	struct ud_fleet *f;
	char *text, label[64];
	int lines;

	for (size_t k = 0; k < 1000; k++) {
		struct spec s = { label, uarchs[k % 4], "6.8.0", "Mitigation: Safe RET", 64, jitter(k), 2 * jitter(k + 3),
				  1, 20 };

		snprintf(label, sizeof(label), "host-%04zu", k);
		if (k % 33 == 5)
			s.speed *= 0.6;
		write_host(&s);
	}
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	/* the report's own lines, before they are fitted to a terminal's width (report.h): 250 at any width */
	ud_report_set_width(100000);
	text = render_of(f, UD_REPORT_TEXT, false, false);
	ud_report_set_width(UD_REPORT_WIDTH);
	lines = count_lines(text);
	ck_assert_msg(lines < 250, "%d lines", lines);
	ck_assert(strstr(text, "and 6 more outlier hosts")); /* 31 planted, 25 shown */
	free(text);
	ud_fleet_free(f);
}
END_TEST

/*
 * The distribution table at 80 columns (a pipe, issue 39): a command line as
 * a workload's name and ten-digit scores, yet no line is wider and no
 * number touches the next (none of these scores has over 10 digits, so a
 * run of 11 is two run together).
 */
START_TEST(test_distributions_fit_80)
{
	const char *kept = names[0];
	struct ud_fleet *f;
	char *text, label[64];
	size_t cols = 0, digits = 0;

	names[0] = "/home/opc/UnixBench/pgms/fstime -c -t 30 -d /home/opc/UnixBench/tmp -b 1024 -m 2000";
	for (size_t k = 0; k < 6; k++) {
		struct spec s = { label, k % 2 ? "zen5" : "zen4", "6.8.0", "Mitigation: Safe RET", 64, 9e6 * jitter(k),
				  1, 1, 3 };

		snprintf(label, sizeof(label), "host-%zu", k);
		write_host(&s);
	}
	names[0] = kept;
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	ud_report_set_width(UD_REPORT_WIDTH);
	text = render_of(f, UD_REPORT_TEXT, false, false);
	ck_assert_ptr_nonnull(strstr(text, "== Distributions"));
	ck_assert_ptr_nonnull(strstr(text, "\n    /home/opc/UnixBench/pgms/fstime -c -t 30")); /* whole, on its own line */
	for (const char *p = text; *p; p++) {
		cols = *p == '\n' ? 0 : cols + (((unsigned char)*p & 0xC0) != 0x80);
		digits = isdigit((unsigned char)*p) ? digits + 1 : 0;
		ck_assert_msg(cols <= UD_REPORT_WIDTH, "a line over %d columns:\n%s", UD_REPORT_WIDTH, text);
		ck_assert_msg(digits <= 10, "numbers run together:\n%s", text);
	}
	free(text);
	ud_fleet_free(f);
}
END_TEST

/* A made-up fleet's random numbers: xorshift64, seeded, so every run draws the same fleet. */
static uint64_t rng_state;

static double uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal draw (Box-Muller). */
static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

#define NOISY_NW 8

/*
 * A made-up host measured as `run` measures one: per workload five samples
 * around score[j], spread so that the median's 95% interval (the range, at
 * five samples) is +-half[j], and the noise figures and warnings run
 * records from them.
 */
static void write_sampled_host(const char *label, const char *uarch, const char *kernel, const double *score,
			       const double *half)
{
	struct ud_profile *p = ud_profile_new(host_from_text(
		"{\"label\": \"%s\", \"cpu\": {\"vendor\": \"AuthenticAMD\", \"uarch\": \"%s\", \"online_cpus\": 64}, "
		"\"kernel\": \"%s\"}", label, uarch, kernel));
	struct ud_err err = UD_ERR_INIT;
	char path[600];

	for (size_t j = 0; j < NOISY_NW; j++) {
		const double at[5] = { -1, -0.5, 0, 0.5, 1 };
		double samples[5];
		struct ud_workload *w = add(p, names[j], score[j], 1);
		struct ud_noise *n;

		for (int i = 0; i < 5; i++)
			samples[i] = score[j] * (1 + half[j] * at[i]);
		ud_score_set_samples(&w->score, samples, 5);
		w->units = strdup("lps");
		w->work_units = 1000;
		w->elapsed_ns = 1e9 * 1000 / score[j];
		counts(w, 1e9, 5e8 * 1000 / score[j], w->elapsed_ns, j == 1 || j == 2 ? 0.7 : 0.02);
		ck_assert_ptr_nonnull(n = ud_workload_noise(w));
		n->ci95_rel = w->score.ci95_rel;
		n->samples_taken = 5;
		ck_assert_int_eq(ud_noise_assess(n, true), 0);
	}
	snprintf(path, sizeof(path), "%s/h%04zu.json", dir, npaths);
	ck_assert_msg(ud_profile_save(p, path, &err) == 0, "%s", err.msg);
	ud_profile_free(p);
	paths[npaths++] = strdup(path);
}

/*
 * The made-up fleet of issue 38: 30 zen4 hosts whose results spread 2.5%
 * between hosts and whose own intervals are 0.5-3%; among them "slow-all",
 * 1.33x slower on all 8 workloads, "spike", 2.5x slower on one, and
 * "noisy-run", whose one run of syscall has a +-60% interval and a median
 * 1.8x slower.  And 4 zen5 hosts, "zen5-slow" 2.94x slower on every
 * workload.
 */
static void noisy_fleet(void)
{
	char label[64];

	rng_state = 0x38384dULL;
	for (int k = 0; k < 34; k++) {
		double score[NOISY_NW], half[NOISY_NW], slow = 1;
		bool zen5 = k >= 30;

		snprintf(label, sizeof(label), "%s-%02d", zen5 ? "zen5" : "zen4", k);
		if (k == 5)
			snprintf(label, sizeof(label), "slow-all"), slow = 1.33;
		if (k == 32)
			snprintf(label, sizeof(label), "zen5-slow"), slow = 2.94;
		for (size_t j = 0; j < NOISY_NW; j++) {
			score[j] = 1000 * (zen5 ? 1.3 : 1) * exp(0.025 * normal()) / slow;
			half[j] = 0.005 + 0.025 * uniform();
		}
		if (k == 12) {
			snprintf(label, sizeof(label), "noisy-run");
			score[1] /= 1.8;
			half[1] = 0.6;
		}
		if (k == 20) {
			snprintf(label, sizeof(label), "spike");
			score[3] /= 2.5;
		}
		write_sampled_host(label, zen5 ? "zen5" : "zen4", "6.8.0", score, half);
	}
}

static size_t host_named(const struct ud_fleet *f, const char *label)
{
	for (size_t k = 0; k < f->nhosts; k++)
		if (strcmp(f->hosts[k].label, label) == 0)
			return k;
	ck_abort_msg("no host %s", label);
	return 0;
}

START_TEST(test_noisy_fleet)
{
	struct ud_fleet *f;
	size_t slow, noisy, spike, z5slow, last_slow = 0, first_spike = SIZE_MAX;
	const struct ud_fleet_group *g5;

	noisy_fleet();
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	slow = host_named(f, "slow-all"), noisy = host_named(f, "noisy-run"), spike = host_named(f, "spike");
	z5slow = host_named(f, "zen5-slow");
	ck_assert_uint_eq(f->ngroups, 2);
	ck_assert(f->groups[0].tested);
	/* the host slower on every workload is the first outlier, on all eight, before the one-workload spike */
	ck_assert_uint_gt(f->noutliers, 0);
	ck_assert_msg(f->outliers[0].host == slow, "first outlier %s", f->hosts[f->outliers[0].host].label);
	for (size_t i = 0; i < f->noutliers; i++) {
		ck_assert_msg(f->outliers[i].host != noisy, "noisy-run ranked on %s",
			      f->workloads[f->outliers[i].workload].name);
		last_slow = f->outliers[i].host == slow ? i : last_slow;
		if (f->outliers[i].host == spike && first_spike == SIZE_MAX)
			first_spike = i;
	}
	ck_assert_uint_eq(last_slow, NOISY_NW - 1);
	ck_assert_uint_lt(last_slow, first_spike);
	ck_assert_str_eq(f->workloads[f->outliers[first_spike].workload].name, "fp");
	ck_assert(f->hosts[slow].evidence < -3.5 && f->hosts[slow].evidence < f->hosts[spike].evidence);
	/* the noisy run is named once, as noisy, on the workload its run warned of */
	ck_assert_uint_eq(f->nnoisy, 1);
	ck_assert_uint_eq(f->noisy[0].host, noisy);
	ck_assert(f->hosts[noisy].noisy && !f->hosts[slow].noisy);
	ck_assert_str_eq(f->workloads[f->noisy[0].workload].name, "syscall");
	ck_assert(fabs(f->noisy[0].interval - 0.6) < 1e-9);
	ck_assert_ptr_nonnull(f->noisy[0].warning);
	ck_assert_msg(strstr(f->noisy[0].warning, "60.0%"), "%s", f->noisy[0].warning);
	/* four zen5 hosts: untested, and zen5-slow 2.94x slower than the others, give or take their spread */
	g5 = &f->groups[1];
	ck_assert_uint_eq(g5->nhosts, 4);
	ck_assert(!g5->tested);
	ck_assert_uint_eq(f->hosts[z5slow].distance.nworkloads, NOISY_NW);
	ck_assert_msg(fabs(log(f->hosts[z5slow].distance.geomean * 2.94)) < 0.05, "%g",
		      f->hosts[z5slow].distance.geomean);
	for (size_t i = 0; i < g5->nhosts; i++)
		if (g5->hosts[i] != z5slow)
			ck_assert_msg(fabs(log(f->hosts[g5->hosts[i]].distance.geomean)) < 0.05, "%g",
				      f->hosts[g5->hosts[i]].distance.geomean);
	for (size_t i = 0; i < f->noutliers; i++)
		ck_assert_uint_eq(f->hosts[f->outliers[i].host].group, 0);
	ud_fleet_free(f);
}
END_TEST

/* The same fleet as a person reads it and as the document holds it. */
START_TEST(test_noisy_fleet_reports)
{
	struct ud_fleet *f;
	char *text, *json;
	json_t *doc, *o, *h;

	noisy_fleet();
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	ud_report_set_width(100000);
	text = render_of(f, UD_REPORT_TEXT, false, false);
	ud_report_set_width(UD_REPORT_WIDTH);
	ck_assert_msg(strstr(text, "\n  1. slow-all [G1 AuthenticAMD, zen4, 64 CPUs]: 1.3"), "%s", text);
	ck_assert_msg(strstr(text, "ranked by the evidence over every workload judged"), "%s", text);
	ck_assert_msg(strstr(text, "noisy, not ranked: noisy-run [G1 AuthenticAMD, zen4, 64 CPUs]: "), "%s", text);
	ck_assert_msg(strstr(text, "on syscall, where its own 95% interval is +-60.0%"), "%s", text);
	ck_assert_msg(strstr(text, "untested: G2 AuthenticAMD, zen5, 64 CPUs: 4 hosts, outliers need 5"), "%s", text);
	ck_assert_msg(strstr(text, "zen5-slow: 2.9"), "%s", text);
	ck_assert(!strstr(text, "none: every host"));
	free(text);
	json = render_of(f, UD_REPORT_JSON, false, false);
	ck_assert_ptr_nonnull(doc = json_loads(json, 0, NULL));
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(doc, "outlier_test"), "min_hosts")), 5);
	o = json_array_get(json_object_get(doc, "outliers"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(o, "label")), "slow-all");
	ck_assert(json_real_value(json_object_get(o, "evidence")) < -3.5);
	ck_assert(json_is_real(json_object_get(o, "interval")));
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "noisy")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(doc, "noisy"), 0), "label")),
			 "noisy-run");
	ck_assert(json_is_false(json_object_get(json_array_get(json_object_get(doc, "groups"), 1), "tested")));
	h = json_array_get(json_object_get(doc, "hosts"), host_named(f, "zen5-slow"));
	ck_assert(fabs(json_real_value(json_object_get(json_object_get(h, "vs_others"), "geomean")) * 2.94 - 1) < 0.05);
	ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(doc, "hosts"), 0), "vs_others")));
	json_decref(doc);
	free(json);
	ud_fleet_free(f);
}
END_TEST

/*
 * A made-up fleet split by its kernel (issue 38): 40 zen4 hosts whose
 * results spread 2.5% between hosts, with intervals of 0.5-3%; 16 on
 * kernel 6.1.0 (A), 12 on 6.8.0 (B) with syscall 1.4x slower when B
 * slows it, 12 on 6.5.0 (C) as fast as A, and "a-slow-all", an A host
 * 1.33x slower on every workload.
 */
static void kernel_fleet(double b_syscall)
{
	char label[64];

	rng_state = 0x3838ab5ULL;
	for (int k = 0; k < 40; k++) {
		const char *kernel = k < 16 ? "6.1.0" : k < 28 ? "6.8.0" : "6.5.0";
		double score[NOISY_NW], half[NOISY_NW], slow = k == 3 ? 1.33 : 1;

		snprintf(label, sizeof(label), k == 3 ? "a-slow-all" : "%s-%02d", k < 16 ? "a" : k < 28 ? "b" : "c", k);
		for (size_t j = 0; j < NOISY_NW; j++) {
			score[j] = 1000 * exp(0.025 * normal()) / slow;
			half[j] = 0.005 + 0.025 * uniform();
		}
		if (k >= 16 && k < 28)
			score[1] /= b_syscall;
		write_sampled_host(label, "zen4", kernel, score, half);
	}
}

/* The kernel split is the finding: B's 12 hosts, syscall 1.4x slower; none of them an outlier, a-slow-all one. */
START_TEST(test_split_fleet)
{
	struct ud_fleet *f;
	const struct ud_fleet_split *sp;
	char *text, *json;
	json_t *doc, *s;

	kernel_fleet(1.4);
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	ck_assert_uint_eq(f->ngroups, 1);
	ck_assert_ptr_nonnull(sp = f->groups[0].split);
	ck_assert_str_eq(sp->fact, "kernel");
	ck_assert_uint_eq(sp->side[1].nvalues, 1);
	ck_assert_str_eq(sp->side[1].values[0], "6.8.0");
	ck_assert_uint_eq(sp->side[1].nhosts, 12);
	ck_assert_uint_eq(sp->side[0].nvalues, 2);
	ck_assert_str_eq(sp->side[0].values[0], "6.1.0");
	ck_assert_str_eq(sp->side[0].values[1], "6.5.0");
	ck_assert_uint_eq(sp->side[0].nhosts, 28);
	for (size_t i = 0; i < sp->side[1].nhosts; i++)
		ck_assert(strncmp(f->hosts[sp->side[1].hosts[i]].label, "b-", 2) == 0);
	ck_assert_uint_eq(sp->nmoved, 1);
	ck_assert_str_eq(f->workloads[sp->moved[0].workload].name, "syscall");
	ck_assert_msg(fabs(log(sp->moved[0].ratio * 1.4)) < 0.03, "%g", sp->moved[0].ratio);
	/* judged against their own side: no B host is an outlier, the slow A host is the first */
	ck_assert_uint_gt(f->noutliers, 0);
	ck_assert_str_eq(f->hosts[f->outliers[0].host].label, "a-slow-all");
	for (size_t i = 0; i < f->noutliers; i++)
		ck_assert_msg(strncmp(f->hosts[f->outliers[i].host].label, "b-", 2) != 0, "%s an outlier",
			      f->hosts[f->outliers[i].host].label);
	ud_report_set_width(100000);
	text = render_of(f, UD_REPORT_TEXT, false, false);
	ud_report_set_width(UD_REPORT_WIDTH);
	ck_assert_msg(strstr(text, "== Splits"), "%s", text);
	ck_assert_msg(strstr(text, "G1 AuthenticAMD, zen4, 64 CPUs: kernel 6.8.0 (12 hosts): 1.4"), "%s", text);
	ck_assert_msg(strstr(text, "slower on syscall than 6.1.0, 6.5.0 (28 hosts)"), "%s", text);
	free(text);
	json = render_of(f, UD_REPORT_JSON, false, false);
	ck_assert_ptr_nonnull(doc = json_loads(json, 0, NULL));
	s = json_object_get(json_array_get(json_object_get(doc, "groups"), 0), "split");
	ck_assert_str_eq(json_string_value(json_object_get(s, "fact")), "kernel");
	ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(json_object_get(s, "sides"), 1), "hosts")), 12);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(s, "moved"), 0), "workload")),
			 "syscall");
	json_decref(doc);
	free(json);
	ud_fleet_free(f);
}
END_TEST

/* The same fleet with B as fast as A: three kernels, no difference, no split; nor in the noisy fleet. */
START_TEST(test_no_split_fleet)
{
	struct ud_fleet *f;
	char *text;

	kernel_fleet(1);
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	ck_assert_ptr_null(f->groups[0].split);
	text = render_of(f, UD_REPORT_TEXT, false, false);
	ck_assert_msg(!strstr(text, "== Splits"), "%s", text);
	free(text);
	ud_fleet_free(f);
}
END_TEST

/*
 * Real noise: the six A/A profiles of tests/data/aa/ (README.md there: one
 * 2-CPU KVM guest profiled twice per pair on 2026-12-05, pair 2's side A
 * with two CPU-burning loops beside it) as one group of six.  One host
 * measured six times has no outlier; the loaded run, 1.49x slower on pipe
 * where its own record warned of 0.63 CPUs utilized, is named noisy, once,
 * where the largest-move rule had ranked it the one outlier.
 */
START_TEST(test_real_aa_fleet)
{
	static const char *files[] = { "p02-loaded-a-A", "p02-loaded-a-B", "p05-quiet-A", "p05-quiet-B",
				       "p13-quiet-A", "p13-quiet-B" };
	struct ud_fleet *f;

	for (size_t i = 0; i < 6; i++) {
		char path[600];

		snprintf(path, sizeof(path), UD_TEST_DATA "/aa/%s.json", files[i]);
		paths[npaths++] = strdup(path);
	}
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	ck_assert_uint_eq(f->ngroups, 1);
	ck_assert(f->groups[0].tested);
	ck_assert_ptr_null(f->groups[0].split);
	ck_assert_uint_eq(f->noutliers, 0);
	ck_assert_uint_eq(f->nnoisy, 1);
	ck_assert_str_eq(f->hosts[f->noisy[0].host].path, paths[0]);
	ck_assert_str_eq(f->workloads[f->noisy[0].workload].name, "pipe");
	ck_assert_ptr_nonnull(f->noisy[0].warning);
	ck_assert_msg(strstr(f->noisy[0].warning, "CPUs utilized"), "%s", f->noisy[0].warning);
	ud_fleet_free(f);
}
END_TEST

static void expect_one_line_error(char *const argv[], int status, const char *want)
{
	struct run_result r = run_capture(argv);

	ck_assert_msg(r.status == status, "exit %d, want %d; stderr: %s", r.status, status, r.err);
	ck_assert_msg(count_lines(r.err) == 1, "want one line, got: %s", r.err);
	ck_assert_msg(strncmp(r.err, "uarchdiff compare: ", 19) == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, want) != NULL, "'%s' lacks '%s'", r.err, want);
	ck_assert_str_eq(r.out, "");
	run_free(&r);
}

START_TEST(test_cli)
{
	char missing[600], html[600];
	struct run_result r;
	json_t *doc;

	for (int k = 0; k < 3; k++)
		write_host(&(struct spec){ k ? "B" : "A", "zen4", "6.8", "Vulnerable", 8, 1 + k, 2, 1, 2 });
	snprintf(missing, sizeof(missing), "%s/missing.json", dir);
	snprintf(html, sizeof(html), "%s/out.html", dir);
	expect_one_line_error((char *[]){ UD, "compare", paths[0], NULL }, 2, "at least two profiles");
	expect_one_line_error((char *[]){ UD, "compare", missing, paths[0], NULL }, 2, missing);
	expect_one_line_error((char *[]){ UD, "compare", "-f", "pdf", paths[0], paths[1], NULL }, 2, "pdf");
	expect_one_line_error((char *[]){ UD, "compare", "--baseline", "Z", paths[0], paths[1], NULL }, 2, "Z");
	expect_one_line_error((char *[]){ UD, "compare", "--group-by", "a,,b", paths[0], paths[1], NULL }, 2, "--group-by");
	/* A path that does not exist is an error, wherever it is (issue 38): the fleet would be short of it. */
	expect_one_line_error((char *[]){ UD, "compare", paths[0], paths[1], missing, NULL }, 2, missing);
	/* A profile that does not load is named on stderr and in the report; the others are compared. */
	write_text(missing, "{\"schema\": \"uarchdiff.profile/1\", cut short");
	r = run_capture((char *[]){ UD, "compare", "-f", "json", missing, paths[0], paths[1], paths[2], NULL });
	ck_assert_msg(r.status == 0 && count_lines(r.err) == 1 && strstr(r.err, "warning: ") && strstr(r.err, missing),
		      "exit %d: %s", r.status, r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "hosts")), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(doc, "skipped"), 0), "path")),
			 missing);
	json_decref(doc);
	run_free(&r);
	r = run_capture((char *[]){ UD, "compare", "-f", "html", "-o", html, "--baseline", "first", "--pairs",
				    "--all-hosts", "--group-by", "kernel,cpu.uarch", paths[0], paths[1], paths[2], NULL });
	ck_assert_msg(r.status == 0 && r.out[0] == 0, "%s", r.err);
	run_free(&r);
	free(read_text(html)); /* fails the test when it was not written */
}
END_TEST

/*
 * Eight hosts labelled "ubuntu" (cloned machines), the fifth at 0.6x; a
 * ninth labelled "ubuntu (PATH OF THE FIRST)", as the first is named apart,
 * and a tenth "other" (issue 36).  Every host gets a name of its own,
 * wherever one is written; a unique label is left as it is.
 */
static void ubuntu_fleet(void)
{
	char crafted[700];

	for (int k = 0; k < 8; k++)
		write_host(&(struct spec){ "ubuntu", "zen4", "6.8", "Vulnerable", 8, k == 4 ? 0.6 : jitter((size_t)k),
					   2 * jitter((size_t)k + 3), 1, 3 });
	snprintf(crafted, sizeof(crafted), "ubuntu (%s)", paths[0]);
	write_host(&(struct spec){ crafted, "zen5", "6.8", "Vulnerable", 8, 1, 2, 1, 3 });
	write_host(&(struct spec){ "other", "zen5", "6.8", "Vulnerable", 8, 1, 2, 1, 3 });
}

START_TEST(test_duplicate_labels)
{
	struct ud_fleet *f;
	char want[700];

	ubuntu_fleet();
	f = build(UD_FLEET_MEDIAN, NULL, NULL, 0);
	ck_assert_uint_eq(f->nhosts, 10);
	for (size_t k = 0; k < f->nhosts; k++)
		for (size_t j = k + 1; j < f->nhosts; j++)
			ck_assert_msg(strcmp(f->hosts[k].label, f->hosts[j].label) != 0, "hosts %zu and %zu: %s", k, j,
				      f->hosts[k].label);
	snprintf(want, sizeof(want), "ubuntu (%s)", paths[3]);
	ck_assert_str_eq(f->hosts[3].label, want);
	ck_assert_str_eq(f->hosts[9].label, "other");
	/* the crafted label and the first host's new name collide once more, and are told apart by their paths */
	snprintf(want, sizeof(want), "ubuntu (%s) (%s)", paths[0], paths[8]);
	ck_assert_str_eq(f->hosts[8].label, want);
	/* the outlier is named with its path, so that which of the eight it is can be told */
	ck_assert_uint_gt(f->noutliers, 0);
	snprintf(want, sizeof(want), "ubuntu (%s)", paths[4]);
	ck_assert_str_eq(f->hosts[f->outliers[0].host].label, want);
	ud_fleet_free(f);
	/* a name as told apart is a baseline; so is a unique label */
	f = build(UD_FLEET_LABEL, want, NULL, 0);
	ck_assert_uint_eq(f->ref_host, 4);
	ck_assert_str_eq(f->ref_label, want);
	ud_fleet_free(f);
	f = build(UD_FLEET_LABEL, "other", NULL, 0);
	ck_assert_uint_eq(f->ref_host, 9);
	ud_fleet_free(f);
}
END_TEST

/* An ambiguous --baseline is refused with the candidates; so is one file named twice (issue 36). */
START_TEST(test_duplicate_labels_cli)
{
	char again[700], link[700];
	struct run_result r;
	json_t *doc, *hosts;

	ubuntu_fleet();
	/* the eight "ubuntu" are listed as far as one line holds them, the rest counted */
	expect_one_line_error((char *[]){ UD, "compare", "--baseline", "ubuntu", paths[0], paths[1], paths[2], paths[3],
					  paths[4], paths[5], paths[6], paths[7], paths[8], paths[9], NULL },
			      2, "--baseline ubuntu: 8 hosts have that label: give one of their names, \"ubuntu (");
	expect_one_line_error((char *[]){ UD, "compare", "--baseline", "ubuntu", paths[0], paths[1], paths[2], paths[3],
					  paths[4], paths[5], paths[6], paths[7], NULL },
			      2, "more (--all-hosts lists them)");
	expect_one_line_error((char *[]){ UD, "compare", "--baseline", "ubuntu", paths[0], paths[1], NULL }, 2,
			      paths[1]);
	/* the same file through another spelling, or through a symlink: one host, refused rather than counted twice */
	snprintf(again, sizeof(again), "%s/./h0001.json", dir);
	expect_one_line_error((char *[]){ UD, "compare", paths[0], paths[1], again, NULL }, 2,
			      "are the same file, named twice");
	snprintf(link, sizeof(link), "%s/link.json", dir);
	ck_assert_int_eq(symlink(paths[2], link), 0);
	expect_one_line_error((char *[]){ UD, "compare", link, paths[0], paths[2], NULL }, 2, link);
	expect_one_line_error((char *[]){ UD, "compare", dir, paths[3], NULL }, 2, "same file");
	unlink(link);
	/* JSON: every host, outlier and the per-host table by its own name */
	r = run_capture((char *[]){ UD, "compare", "-f", "json", paths[0], paths[1], paths[2], paths[3], paths[4],
				    paths[5], paths[6], paths[7], NULL });
	ck_assert_msg(r.status == 0, "%s", r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	hosts = json_object_get(doc, "hosts");
	ck_assert_uint_eq(json_array_size(hosts), 8);
	for (size_t k = 0; k < 8; k++) {
		snprintf(again, sizeof(again), "ubuntu (%s)", paths[k]);
		ck_assert_str_eq(json_string_value(json_object_get(json_array_get(hosts, k), "label")), again);
	}
	snprintf(again, sizeof(again), "ubuntu (%s)", paths[4]);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(doc, "outliers"), 0),
							   "label")), again);
	json_decref(doc);
	run_free(&r);
	/* text: the outliers and the per-host table name it too */
	r = run_capture((char *[]){ UD, "compare", "--all-hosts", paths[0], paths[1], paths[2], paths[3], paths[4],
				    paths[5], paths[6], paths[7], NULL });
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, again), "no '%s' in: %s", again, r.out);
	run_free(&r);
}
END_TEST

/* The last host written, its workloads renamed so that it shares none with the others. */
static void rename_workloads(void)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *p = ud_profile_load(paths[npaths - 1], &err);

	ck_assert_msg(p != NULL, "%s", err.msg);
	for (size_t i = 0; i < p->nworkloads; i++) {
		char name[200];

		snprintf(name, sizeof(name), "elsewhere-%s", p->workloads[i].name);
		free(p->workloads[i].name);
		p->workloads[i].name = strdup(name);
	}
	ck_assert_msg(ud_profile_save(p, paths[npaths - 1], &err) == 0, "%s", err.msg);
	ud_profile_free(p);
}

/*
 * --pairs with a host that shares no workload with the baseline (issue 36):
 * the report is whole, the other pairs are diffed, and the one left out is
 * named with its reason in every format and warned of on stderr.
 */
START_TEST(test_pairs_left_out)
{
	struct run_result r;
	json_t *doc, *left;

	for (int k = 0; k < 3; k++)
		write_host(&(struct spec){ k ? "B" : "A", "zen4", "6.8", "Vulnerable", 8, 1 + k, 2, 1, 2 });
	write_host(&(struct spec){ "lonely", "zen4", "6.8", "Vulnerable", 8, 1, 2, 1, 2 });
	rename_workloads();
	r = run_capture((char *[]){ UD, "compare", "-f", "json", "--pairs", "--baseline", "first", paths[0], paths[1],
				    paths[2], paths[3], NULL });
	ck_assert_msg(r.status == 0 && count_lines(r.err) == 1 && strstr(r.err, "warning: --pairs: ") &&
			      strstr(r.err, paths[3]) && strstr(r.err, "no workload in common"),
		      "exit %d: %s", r.status, r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_msg(doc != NULL, "not a whole document: %.200s", r.out);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "pairs")), 2);
	left = json_object_get(doc, "pairs_left_out");
	ck_assert_uint_eq(json_array_size(left), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(left, 0), "host")), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(left, 0), "label")), "lonely");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(json_array_get(left, 0), "reason")),
				     "no workload in common"));
	json_decref(doc);
	run_free(&r);
	for (int fmt = 0; fmt < 3; fmt++) {
		static const char *const formats[] = { "text", "md", "html" };

		r = run_capture((char *[]){ UD, "compare", "-f", (char *)formats[fmt], "--pairs", "--baseline", "first",
					    paths[0], paths[1], paths[2], paths[3], NULL });
		ck_assert_msg(r.status == 0 && strstr(r.out, "lonely: no diff against") &&
				      strstr(r.out, "no workload in common"),
			      "%s: exit %d: %s", formats[fmt], r.status, r.err);
		run_free(&r);
	}
}
END_TEST

/*
 * A host whose score is -0 (or 0, or below) is left out by name, as diff
 * refuses it, never pooled where it would halve a small group's median
 * (issue 36).
 */
START_TEST(test_unusable_score_left_out)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *p;
	struct run_result r;
	json_t *doc, *skipped;

	for (int k = 0; k < 5; k++)
		write_host(&(struct spec){ "H", "zen4", "6.8", "Vulnerable", 8, 1 + 0.01 * k, 2, 1, 2 });
	write_host(&(struct spec){ "zero", "zen4", "6.8", "Vulnerable", 8, 1, 2, 1, 2 });
	p = ud_profile_load(paths[npaths - 1], &err);
	ck_assert_msg(p != NULL, "%s", err.msg);
	ud_score_set_samples(&p->workloads[0].score, (const double[]){ -0.0 }, 1);
	ck_assert_msg(ud_profile_save(p, paths[npaths - 1], &err) == 0, "%s", err.msg);
	ud_profile_free(p);
	r = run_capture((char *[]){ UD, "compare", "-f", "json", paths[0], paths[1], paths[2], paths[3], paths[4],
				    paths[5], NULL });
	ck_assert_msg(r.status == 0 && strstr(r.err, "left out") && strstr(r.err, "a score must be positive"), "exit %d: %s",
		      r.status, r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_msg(doc != NULL, "%.200s", r.out);
	skipped = json_object_get(doc, "skipped");
	ck_assert_uint_eq(json_array_size(skipped), 1);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "hosts")), 5);
	json_decref(doc);
	run_free(&r);
}
END_TEST

/* Profile k's first workload ("int") measured otherwise: in units, or in direction where units is NULL. */
static void remeasure(size_t k, const char *units, int higher_is_better, double score)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *p = ud_profile_load(paths[k], &err);

	ck_assert_msg(p != NULL, "%s", err.msg);
	if (units) {
		free(p->workloads[0].units);
		p->workloads[0].units = strdup(units);
	}
	p->workloads[0].higher_is_better = higher_is_better;
	ud_score_set_samples(&p->workloads[0].score, (const double[]){ score }, 1);
	ck_assert_msg(ud_profile_save(p, paths[k], &err) == 0, "%s", err.msg);
	ud_profile_free(p);
}

/* compare -f json over paths in the order of idx: the document, its two warnings checked. */
static json_t *compare_in_order(const size_t *idx)
{
	char *argv[16] = { UD, "compare", "-f", "json" };
	struct run_result r;
	json_t *doc;

	for (size_t i = 0; i < 6; i++)
		argv[4 + i] = paths[idx[i]];
	r = run_capture(argv);
	ck_assert_msg(r.status == 0 && count_lines(r.err) == 2 && strstr(r.err, "left out of one workload: workload 'int'") &&
			      strstr(r.err, "units differ (KBps in ") && strstr(r.err, "lower in "),
		      "exit %d: %s", r.status, r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_msg(doc != NULL, "%.200s", r.out);
	run_free(&r);
	return doc;
}

/* Who is left out of what and why, without the host's index (it moves with the order): a line each. */
static void left_out_text(json_t *doc, char *buf, size_t len)
{
	json_t *left = json_object_get(doc, "workloads_left_out"), *e;
	size_t i, used = 0;

	buf[0] = '\0';
	json_array_foreach (left, i, e)
		used += (size_t)snprintf(buf + used, len - used, "%s|%s|%s\n",
					 json_string_value(json_object_get(e, "label")),
					 json_string_value(json_object_get(e, "workload")),
					 json_string_value(json_object_get(e, "reason")));
}

/*
 * A made-up fleet of six where one host measured "int" in other units and
 * another in the other direction (issue 36): neither is pooled with the
 * others nor ranked as "1000x slower"; each is left out of that workload
 * alone, named with diff's reason, warned of on stderr, and the workload
 * is the majority's whatever the order of the files.
 */
START_TEST(test_units_left_out)
{
	static const size_t forward[] = { 0, 1, 2, 3, 4, 5 }, backward[] = { 5, 4, 3, 2, 1, 0 };
	static const char *const labels[] = { "h0", "h1", "h2", "h3", "kbps", "lower" };
	char a[2048], b[2048];
	json_t *doc[2];

	for (int k = 0; k < 6; k++)
		write_host(&(struct spec){ labels[k], "zen4", "6.8", "Vulnerable", 8, 1 + 0.01 * k, 2, 1, 2 });
	remeasure(4, "KBps", 1, 0.8);
	remeasure(5, NULL, 0, 0.8);
	doc[0] = compare_in_order(forward);
	doc[1] = compare_in_order(backward);
	for (int d = 0; d < 2; d++) {
		json_t *w0 = json_array_get(json_object_get(doc[d], "workloads"), 0);

		ck_assert_str_eq(json_string_value(json_object_get(w0, "name")), "int");
		ck_assert_str_eq(json_string_value(json_object_get(w0, "units")), "lps");
		ck_assert(json_is_true(json_object_get(w0, "higher_is_better")));
		ck_assert_uint_eq(json_array_size(json_object_get(doc[d], "outliers")), 0);
		ck_assert_uint_eq(json_array_size(json_object_get(doc[d], "hosts")), 6);
	}
	left_out_text(doc[0], a, sizeof(a));
	left_out_text(doc[1], b, sizeof(b));
	ck_assert_msg(strstr(a, "kbps|int|workload 'int': units differ (KBps in ") &&
			      strstr(a, "lower|int|workload 'int': higher is better in the 4 other hosts, lower in "),
		      "%s", a);
	/* the same entries, in the order of hosts each run was given */
	ck_assert_uint_eq(strlen(a), strlen(b));
	for (char *line = strtok(a, "\n"); line; line = strtok(NULL, "\n"))
		ck_assert_msg(strstr(b, line) != NULL, "%s not in %s", line, b);
	/* its value there is unknown, not pooled: the per-host table has null */
	ck_assert(json_is_null(json_array_get(
		json_object_get(json_array_get(json_object_get(doc[0], "hosts"), 4), "values"), 0)));
	json_decref(doc[0]);
	json_decref(doc[1]);
	for (int fmt = 0; fmt < 3; fmt++) {
		static const char *const formats[] = { "text", "md", "html" };
		struct run_result r = run_capture((char *[]){ UD, "compare", "-f", (char *)formats[fmt], paths[0],
							      paths[1], paths[2], paths[3], paths[4], paths[5], NULL });

		ck_assert_msg(r.status == 0 && strstr(r.out, "kbps left out of one workload: workload ") &&
				      strstr(r.out, "units differ"),
			      "%s: exit %d: %s", formats[fmt], r.status, r.err);
		run_free(&r);
	}
}
END_TEST

/* Host k's "path" in the JSON report doc. */
static const char *host_path(json_t *doc, size_t k)
{
	return json_string_value(json_object_get(json_array_get(json_object_get(doc, "hosts"), k), "path"));
}

/* Moves generated profile k to dir/rel, its folders made, and names it so in paths. */
static void move_host(size_t k, const char *rel)
{
	char path[600], *slash;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	ck_assert_int_eq(rename(paths[k], path), 0);
	free(paths[k]);
	paths[k] = strdup(path);
}

/*
 * Folders as operands (issue 38), laid out as the fleet playbook leaves
 * them: HOST/profile.json, one a level deeper, beside them what is not a
 * profile to compare (host.json, run.log, a set-aside
 * profile.rejected.json, the fleet's own compare.json), skipped and
 * counted; the profiles in name order whatever order they were made in.
 * Then `-`: paths and a folder read from standard input, one a line, in
 * the order given.  A missing folder, given or listed, is an error that
 * names it.
 */
START_TEST(test_folders_and_stdin)
{
	char fleet[600], other[700], cmd[2400], list[600];
	struct run_result r;
	json_t *doc;

	for (int k = 0; k < 4; k++)
		write_host(&(struct spec){ "H", "zen4", "6.8", "Vulnerable", 8, 1 + k, 2, 1, 2 });
	move_host(0, "fleet/gamma/profile.json");
	move_host(1, "fleet/beta/deep/profile.json");
	move_host(2, "fleet/alpha/profile.json");
	move_host(3, "fleet/gamma/profile.rejected.json");
	snprintf(fleet, sizeof(fleet), "%s/fleet", dir);
	snprintf(other, sizeof(other), "%s/alpha/host.json", fleet);
	write_text(other, "{\"label\": \"alpha\", \"hostname\": \"alpha\"}\n");
	snprintf(other, sizeof(other), "%s/alpha/run.log", fleet);
	write_text(other, "made-up run log\n");
	snprintf(other, sizeof(other), "%s/compare.json", fleet);
	write_text(other, "{\"schema\": \"uarchdiff.compare/2\"}\n");
	r = run_capture((char *[]){ UD, "compare", "-f", "json", fleet, NULL });
	ck_assert_msg(r.status == 0 && count_lines(r.err) == 1 &&
		      strstr(r.err, "3 profiles found in 5 folders (4 other files there skipped: not profiles)"),
		      "exit %d: %s", r.status, r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "hosts")), 3);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "skipped")), 0);
	ck_assert_str_eq(host_path(doc, 0), paths[2]); /* alpha, beta/deep, gamma: by name */
	ck_assert_str_eq(host_path(doc, 1), paths[1]);
	ck_assert_str_eq(host_path(doc, 2), paths[0]);
	json_decref(doc);
	run_free(&r);

	/* `-`: a profile, a blank line, a folder; the given order kept, the folder's profiles where it is listed */
	snprintf(list, sizeof(list), "%s/list.txt", dir);
	snprintf(cmd, sizeof(cmd), "%s\n\n%s/beta\n%s\n", paths[0], fleet, paths[2]);
	write_text(list, cmd);
	snprintf(cmd, sizeof(cmd), "exec '%s' compare -f json - < '%s'", UD, list);
	r = run_capture((char *[]){ "/bin/sh", "-c", cmd, NULL });
	ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
	doc = json_loads(r.out, 0, NULL);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "hosts")), 3);
	ck_assert_str_eq(host_path(doc, 0), paths[0]);
	ck_assert_str_eq(host_path(doc, 1), paths[1]);
	ck_assert_str_eq(host_path(doc, 2), paths[2]);
	json_decref(doc);
	run_free(&r);

	/* a missing folder, given or listed: named, and nothing compared */
	snprintf(other, sizeof(other), "%s/nothere", dir);
	expect_one_line_error((char *[]){ UD, "compare", fleet, other, NULL }, 2, "nothere: no such file or folder");
	snprintf(cmd, sizeof(cmd), "%s\n%s\n", paths[0], other);
	write_text(list, cmd);
	snprintf(cmd, sizeof(cmd), "exec '%s' compare - < '%s'", UD, list);
	r = run_capture((char *[]){ "/bin/sh", "-c", cmd, NULL });
	ck_assert_msg(r.status == 2 && count_lines(r.err) == 1 && strstr(r.err, "standard input, line 2: ") &&
		      strstr(r.err, other) && r.out[0] == '\0', "exit %d: %s", r.status, r.err);
	run_free(&r);
	expect_one_line_error((char *[]){ UD, "compare", "-", "-", NULL }, 2, "given twice");

	/* an unreadable folder is named, not silently left out (root reads every folder: not testable as root) */
	if (geteuid() != 0) {
		snprintf(other, sizeof(other), "%s/beta", fleet);
		chmod(other, 0);
		expect_one_line_error((char *[]){ UD, "compare", fleet, NULL }, 2, "cannot read this folder");
		chmod(other, 0755);
	}
}
END_TEST

/*
 * A group's name longer than a chart's row label is shortened whole, its
 * end kept: it was cut at a fixed 48 bytes first, which kept the middle of
 * a long name as its "end".
 */
START_TEST(test_chart_label_keeps_end)
{
	const char *by[] = { "kernel", "cpu.uarch" };
	const char *kernel = "6.12.0-104.43.4.2.el9uek.x86_64-a-long-kernel-name-tail";
	struct ud_fleet *f;
	char *html;

	for (int k = 0; k < 2; k++)
		write_host(&(struct spec){ "a", "zen4", kernel, "Not affected", 8, 1 + 0.1 * k, 2, 1, 3 });
	write_host(&(struct spec){ "b", "zen5", "6.8", "Not affected", 8, 2, 2, 1, 3 });
	f = build(UD_FLEET_MEDIAN, NULL, by, 2);
	html = render_of(f, UD_REPORT_HTML, false, false);
	ck_assert_ptr_nonnull(strstr(html, "<text x=\"8\""));
	ck_assert_msg(strstr(html, ">G1 6.12.0-104.\xe2\x80\xa6me-tail, zen4</text>"), "%.200s",
		      strstr(html, "<text x=\"8\""));
	free(html);
	ud_fleet_free(f);
}
END_TEST

/* Every name fleet.txt, fleet.md and fleet.html use is a field of the view's tables: a misspelt one fails here, not on the page. */
START_TEST(test_templates_name_fields)
{
	static const char *const stems[] = { "fleet.txt", "fleet.md", "fleet.html" };
	struct ud_err err = UD_ERR_INIT;

	for (int i = 0; i < 3; i++) {
		char path[512], *tmpl;

		snprintf(path, sizeof(path), "%s/%s", UD_TEMPLATES_DIR, stems[i]);
		ck_assert_ptr_nonnull(tmpl = read_text(path));
		ck_assert_msg(ud_template_check(tmpl, stems[i], ud_fleet_fields(), &err) == 0, "%s", err.msg);
		free(tmpl);
	}
	ck_assert_int_eq(ud_template_check("{{#charts}}{{#rows}}{{box_w}}{{name}}{{/rows}}{{/charts}}{{#splits}}{{#list}}"
					   "{{#side1}}{{#hosts}}{{label}}{{/hosts}}{{more}}{{/side1}}{{/list}}{{/splits}}",
					   "t", ud_fleet_fields(), &err), 0);
	ck_assert_int_eq(ud_template_check("{{#groups}}\n{{#dists}}{{vs_refernce}}{{/dists}}{{/groups}}", "t",
					   ud_fleet_fields(), &err), -1);
	ck_assert_str_eq(err.msg, "t:2: '{{vs_refernce}}' is no field of a workload's distribution, a group, the fleet report");
	/* a split side's "more" is no name outside it */
	ck_assert_int_eq(ud_template_check("{{#splits}}{{more}}{{/splits}}", "t", ud_fleet_fields(), &err), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_distribution_by_hand);
	tcase_add_test(tc, test_planted_outliers);
	tcase_add_test(tc, test_baselines);
	tcase_add_test(tc, test_group_by);
	tcase_add_test(tc, test_group_by_unknown_everywhere);
	tcase_add_test(tc, test_group_by_nothing_refused);
	tcase_add_test(tc, test_json);
	tcase_add_loop_test(tc, test_formats, UD_REPORT_TEXT, UD_REPORT_HTML + 1);
	tcase_add_test(tc, test_distributions_fit_80);
	tcase_add_test(tc, test_thousand_hosts_text);
	tcase_add_test(tc, test_noisy_fleet);
	tcase_add_test(tc, test_noisy_fleet_reports);
	tcase_add_test(tc, test_real_aa_fleet);
	tcase_add_test(tc, test_split_fleet);
	tcase_add_test(tc, test_no_split_fleet);
	tcase_add_test(tc, test_cli);
	tcase_add_test(tc, test_duplicate_labels);
	tcase_add_test(tc, test_duplicate_labels_cli);
	tcase_add_test(tc, test_pairs_left_out);
	tcase_add_test(tc, test_unusable_score_left_out);
	tcase_add_test(tc, test_units_left_out);
	tcase_add_test(tc, test_folders_and_stdin);
	tcase_add_test(tc, test_templates_name_fields);
	tcase_add_test(tc, test_chart_label_keeps_end);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
