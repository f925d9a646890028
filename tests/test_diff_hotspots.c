/*
 * The diff's hotspots (SPEC §5.1): symbols paired across hosts by name and
 * mode, the largest share moves first, each priced in CPU time per unit of
 * work from the time split; the kernel-symbol-one-host finding.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diffutil.h"
#include "hotspots.h"
#include "profile.h"
#include "report.h"
#include "testutil.h"

/* A side's sampled symbols: name, mode, share; the rest [other]. */
struct row {
	const char *symbol;
	enum ud_mode mode;
	double share;
};

static void sample(struct ud_workload *w, const char *event, const struct row *rows, size_t n)
{
	w->hotspots = ud_hotspots_new();
	ck_assert_ptr_nonnull(w->hotspots);
	w->hotspots->sampling.event = strdup(event);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(ud_hotspots_add(w->hotspots, rows[i].symbol,
						 rows[i].mode == UD_MODE_KERNEL ? "[kernel.kallsyms]" : "/bin/x",
						 rows[i].mode, rows[i].share, NAN),
				 0);
	ck_assert_int_eq(ud_hotspots_finish(w->hotspots), 0);
}

/*
 * syscall on two hosts: 1000 calls a run on both, A 4 us of CPU a call, B 1 us;
 * A spends 40% in srso_safe_ret, which B does not show.
 */
static void hosts(struct ud_profile **pa, struct ud_profile **pb, const char *event_b)
{
	static const struct row ra[] = { { "srso_safe_ret", UD_MODE_KERNEL, 0.4 },
					 { "entry_SYSCALL_64", UD_MODE_KERNEL, 0.3 },
					 { "syscall_run", UD_MODE_USER, 0.2 } };
	static const struct row rb[] = { { "entry_SYSCALL_64", UD_MODE_KERNEL, 0.5 },
					 { "syscall_run", UD_MODE_USER, 0.4 },
					 { "[kernel]", UD_MODE_KERNEL, 0.05 } };
	struct ud_workload *a, *b;

	*pa = ud_profile_new(host_from_text("{\"label\": \"A\"}"));
	*pb = ud_profile_new(host_from_text("{\"label\": \"B\"}"));
	a = add(*pa, "syscall", 250000, 1);
	b = add(*pb, "syscall", 1000000, 1);
	a->work_units = b->work_units = 1000;
	counts(a, NAN, NAN, 4e6, 0.7); /* 4 ms of CPU for 1000 calls */
	counts(b, NAN, NAN, 1e6, 0.6);
	sample(a, "cpu-clock", ra, 3);
	sample(b, event_b, rb, 3);
}

START_TEST(test_moves_and_time_per_unit)
{
	struct ud_profile *pa, *pb;
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	const struct ud_diff_workload *w;
	json_t *doc, *h0;

	hosts(&pa, &pb, "cpu-clock");
	d = model_of(pa, pb, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	w = &d->workloads[0];
	ck_assert_uint_eq(w->nhotspots, 4);
	/* srso_safe_ret moved most (0.4 -> absent), then entry (0.3 -> 0.5) and syscall_run (0.2 -> 0.4). */
	ck_assert_str_eq(w->hotspots[0].symbol, "srso_safe_ret");
	ck_assert(isnan(w->hotspots[0].b_share) && isnan(w->hotspots[0].b_ns));
	REL(w->hotspots[0].a_ns, 0.4 * 4000); /* 40% of 4 us a call */
	ck_assert_str_eq(w->hotspots[1].symbol, "entry_SYSCALL_64");
	REL(w->hotspots[1].a_ns, 0.3 * 4000);
	REL(w->hotspots[1].b_ns, 0.5 * 1000);
	doc = ud_diff_to_json(d);
	h0 = json_array_get(json_object_get(json_array_get(json_object_get(doc, "workloads"), 0), "hotspots"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(h0, "symbol")), "entry_SYSCALL_64");
	ck_assert_str_eq(json_string_value(json_object_get(h0, "mode")), "kernel");
	REL(at(h0, "a_share"), 0.3);
	REL(at(h0, "b_ns_per_unit"), 500);
	json_decref(doc);
	ud_diff_free(d);
	ud_profile_free(pa);
	ud_profile_free(pb);
}
END_TEST

START_TEST(test_kernel_symbol_one_host)
{
	struct ud_profile *pa, *pb;
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	const struct ud_finding *f;

	hosts(&pa, &pb, "cycles");
	d = model_of(pa, pb, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_uint_eq(fired(d, UD_FINDING_KERNEL_SYMBOL_ONE_HOST), 1);
	f = finding_of(d, UD_FINDING_KERNEL_SYMBOL_ONE_HOST);
	ck_assert_str_eq(ud_finding_name(f->id), "kernel-symbol-one-host");
	ck_assert_msg(strstr(f->evidence[0], "srso_safe_ret carries 40% of the CPU time on A (1.6 µs per") != NULL,
		      "%s", f->evidence[0]);
	/* The unnamed [kernel] row of B (5%) is no symbol; the events differ, and the evidence says so. */
	ck_assert_uint_eq(f->nevidence, 2);
	ck_assert_ptr_nonnull(strstr(f->evidence[1], "cpu-clock on A and on cycles on B"));
	ud_diff_free(d);
	/* Under the threshold on its one host: no finding. */
	pa->workloads[0].hotspots->rows[0].share = 0.09;
	d = model_of(pa, pb, &err);
	ck_assert_uint_eq(fired(d, UD_FINDING_KERNEL_SYMBOL_ONE_HOST), 0);
	ud_diff_free(d);
	ud_profile_free(pa);
	ud_profile_free(pb);
}
END_TEST

START_TEST(test_one_side_unsampled)
{
	struct ud_profile *pa, *pb;
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	json_t *doc;

	hosts(&pa, &pb, "cpu-clock");
	ud_hotspots_free(pb->workloads[0].hotspots);
	pb->workloads[0].hotspots = NULL;
	d = model_of(pa, pb, &err);
	ck_assert_uint_eq(d->workloads[0].nhotspots, 0);
	doc = ud_diff_to_json(d);
	ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(doc, "workloads"), 0), "hotspots"));
	json_decref(doc);
	ud_diff_free(d);
	ud_profile_free(pa);
	ud_profile_free(pb);
}
END_TEST

/* The diff of hosts() rendered in format f. */
static char *rendered(enum ud_report_format f)
{
	struct ud_profile *pa, *pb;
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff *d;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	hosts(&pa, &pb, "cpu-clock");
	d = model_of(pa, pb, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_msg(ud_report_write(d, f, UD_TEMPLATES_DIR, out, &err) == 0, "%s", err.msg);
	fclose(out);
	ud_diff_free(d);
	ud_profile_free(pa);
	ud_profile_free(pb);
	return buf;
}

START_TEST(test_reports_show_the_table)
{
	char *text = rendered(UD_REPORT_TEXT), *md = rendered(UD_REPORT_MD), *html = rendered(UD_REPORT_HTML);

	const char *row = strstr(text, "  srso_safe_ret ");

	ck_assert_ptr_nonnull(row);
	ck_assert_msg(strncmp(row, "  srso_safe_ret                            kernel   40.0%       -      1.6 µs            -",
			      strlen("  srso_safe_ret                            kernel   40.0%       -      1.6 µs            -")) == 0,
		      "%.100s", row);
	ck_assert_ptr_nonnull(strstr(md, "| entry\\_SYSCALL\\_64 | kernel | 30.0% | 50.0% | 1.2 µs | 500 ns |"));
	/* The chart: a bar each side, none where a host lacks the symbol. */
	ck_assert_ptr_nonnull(strstr(html, "<h3>Hotspots</h3>"));
	ck_assert_ptr_nonnull(strstr(html, "B not among its top symbols"));
	/* labels fit their column: no symbol label runs into the bars (20 characters of 12 px text) */
	for (const char *p = html; (p = strstr(p, "<text x=\"8\" y=\"")); p++) {
		const char *start = strchr(p, '>') + 1, *end = strchr(start, '<');
		size_t chars = 0;

		for (const char *c = start; c < end; c++) {
			if (*c == '&' && strchr(c, ';') && strchr(c, ';') < end)
				c = strchr(c, ';'); /* an entity is one character on the page */
			chars += ((unsigned char)*c & 0xc0) != 0x80;
		}
		ck_assert_msg(chars <= 20, "a label of %zu characters: %.*s", chars, (int)(end - start), start);
	}
	ck_assert_ptr_nonnull(strstr(html, "<td><code>srso_safe_ret</code></td>"));
	free(text);
	free(md);
	free(html);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diff_hotspots");
	TCase *tc = tcase_create("core");

	/* the rows matched whole: laid out wider than a pipe's 80 columns */
	ud_report_set_width(100);

	tcase_add_checked_fixture(tc, diffutil_load, diffutil_unload);
	tcase_add_test(tc, test_moves_and_time_per_unit);
	tcase_add_test(tc, test_kernel_symbol_one_host);
	tcase_add_test(tc, test_one_side_unsampled);
	tcase_add_test(tc, test_reports_show_the_table);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
