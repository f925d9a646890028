/*
 * The typed host (host_facts.h): one reader and one writer that round-trip
 * a host file byte for byte, the lookup by dotted name, and the one reader
 * of each fact that two callers once read two ways (the label, the caches).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "host_facts.h"
#include "json_doc.h"
#include "testutil.h"

static struct ud_host *read_text_host(const char *text, struct ud_err *err)
{
	struct ud_jdoc *doc = ud_jdoc_parse(text, strlen(text), err);
	struct ud_host *h;

	ck_assert_ptr_nonnull(doc);
	h = ud_host_read(ud_jdoc_root(doc), "t.json", err);
	ud_jdoc_free(doc);
	return h;
}

static char *written(const struct ud_host *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ud_jw *jw = ud_jw_text(f);

	ud_host_emit(jw, NULL, h);
	ck_assert_int_eq(ud_jw_finish(jw, NULL), 0);
	fclose(f);
	return buf;
}

/* `host --json` as taken on a VM (tests/data/host/, from /work/shared/fixtures): read and written back unchanged. */
START_TEST(test_host_file_round_trips)
{
	char *text = read_text(UD_TEST_DATA "/host/oci-e5-host.json"), *back;
	struct ud_err err = UD_ERR_INIT;
	struct ud_host *h = read_text_host(text, &err), *copy;

	ck_assert_msg(h != NULL, "%s", err.msg);
	back = written(h);
	ck_assert_str_eq(back, text);
	free(back);
	copy = ud_host_copy(h);
	back = written(copy);
	ck_assert_str_eq(back, text);
	free(back);
	ud_host_free(copy);
	ud_host_free(h);
	free(text);
}
END_TEST

START_TEST(test_facts_by_dotted_name)
{
	struct ud_host *h = host_from_text("{\"label\": \"e5\", \"cpu\": {\"family\": 25, \"smt\": false, \"caches\": "
					   "{\"l2_kb\": 1024}}, \"vulnerabilities\": {\"mds\": \"Not affected\", "
					   "\"srbds\": null}, \"core_pmus\": [\"cpu_core\", \"cpu_atom\"], \"hybrid\": true}");
	struct ud_fact v;
	char buf[64];

	v = ud_host_fact(h, "cpu.family");
	ck_assert_int_eq(v.type, UD_FACT_INTEGER);
	ck_assert_int_eq(v.integer, 25);
	ck_assert_int_eq(ud_host_fact(h, "cpu.caches.l2_kb").integer, 1024);
	ck_assert_int_eq(ud_host_fact(h, "cpu.caches.l1d_kb").type, UD_FACT_NULL);
	ck_assert_int_eq(ud_host_fact(h, "cpu.caches").type, UD_FACT_GROUP);
	v = ud_host_fact(h, "cpu.smt");
	ck_assert(v.type == UD_FACT_BOOLEAN && !v.boolean);
	ck_assert_str_eq(ud_host_fact(h, "vulnerabilities.mds").string, "Not affected");
	ck_assert_int_eq(ud_host_fact(h, "vulnerabilities.srbds").type, UD_FACT_NULL);
	ck_assert_int_eq(ud_host_fact(h, "vulnerabilities.nope").type, UD_FACT_ABSENT);
	ck_assert_int_eq(ud_host_fact(h, "cpu.nope").type, UD_FACT_ABSENT);
	/* absent in imports, not null: the writer leaves it out */
	ck_assert_int_eq(ud_host_fact(h, "pmu_reason").type, UD_FACT_ABSENT);
	v = ud_host_fact(h, "core_pmus");
	ck_assert_str_eq(ud_fact_text(&v, buf, sizeof(buf)), "[\"cpu_core\",\"cpu_atom\"]");
	v = ud_host_fact(h, "kernel");
	ck_assert_str_eq(ud_fact_text(&v, buf, sizeof(buf)), "unknown");
	ud_host_free(h);
}
END_TEST

static int collect(const char *name, const struct ud_fact *v, void *arg)
{
	char *names = arg;

	(void)v;
	strcat(names, name);
	strcat(names, " ");
	return 0;
}

START_TEST(test_each_fact_in_written_order)
{
	struct ud_host *h = host_from_text("{\"vulnerabilities\": {\"b\": \"x\", \"a\": \"y\"}, \"label\": \"l\"}");
	char names[2048] = "";

	ud_host_each_fact(h, collect, names);
	ck_assert_ptr_nonnull(strstr(names, "label hostname collected_at cpu cpu.isa cpu.vendor "));
	ck_assert_ptr_nonnull(strstr(names, "cpu.caches cpu.caches.l1d_kb "));
	/* the file's order within the open set; no pmu_reason, cpu.source, core_pmus or hybrid: absent */
	ck_assert_ptr_nonnull(strstr(names, "pmu perf_event_paranoid vulnerabilities vulnerabilities.b vulnerabilities.a "
					    "cpufreq "));
	ck_assert_ptr_null(strstr(names, "pmu_reason"));
	ck_assert_ptr_null(strstr(names, "hybrid"));
	ud_host_free(h);
}
END_TEST

START_TEST(test_wrong_types_are_refused_by_name)
{
	static const struct {
		const char *text, *says;
	} cases[] = {
		{ "{\"label\": 3}", "t.json: host.label: expected a string or null" },
		{ "{\"kernel\": 6.1}", "t.json: host.kernel: expected a string or null" },
		{ "{\"cpu\": {\"family\": 25.5}}", "t.json: host.cpu.family: expected an integer or null" },
		{ "{\"cpu\": {\"smt\": 1}}", "t.json: host.cpu.smt: expected true, false or null" },
		{ "{\"cpu\": []}", "t.json: host.cpu: expected an object" },
		{ "{\"vulnerabilities\": {\"mds\": true}}", "t.json: host.vulnerabilities.mds: expected a string or null" },
		{ "{\"core_pmus\": [1]}", "t.json: host.core_pmus: expected a list of strings" },
		{ "[]", "t.json: host: expected an object" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ud_err err = UD_ERR_INIT;

		ck_assert_ptr_null(read_text_host(cases[i].text, &err));
		ck_assert_str_eq(err.msg, cases[i].says);
	}
}
END_TEST

/* JSON Schema's integer: a number without a fraction, 33.0 as well as 33. */
START_TEST(test_integral_reals_are_integers)
{
	struct ud_host *h = host_from_text("{\"cpu\": {\"midr_part\": 33.0}}");

	ck_assert_int_eq(h->cpu.midr_part, 33);
	ud_host_free(h);
}
END_TEST

/* run read the caches in bytes without a sign check, teach in KB with one: now one reader, with it. */
START_TEST(test_cache_sizes_one_unit_sign_checked)
{
	struct ud_host *h = host_from_text("{\"cpu\": {\"caches\": {\"l1d_kb\": 48, \"l1i_kb\": 0, \"l2_kb\": -1, "
					   "\"l3_kb\": 32768}}}");

	ck_assert_uint_eq(ud_host_cache_bytes(h, UD_CACHE_L1D), 48 * 1024);
	ck_assert_uint_eq(ud_host_cache_bytes(h, UD_CACHE_L1I), 0);
	ck_assert_uint_eq(ud_host_cache_bytes(h, UD_CACHE_L2), 0); /* was (size_t)-1024 in run */
	ck_assert_uint_eq(ud_host_cache_bytes(h, UD_CACHE_L3), (size_t)32768 * 1024);
	ud_host_free(h);
}
END_TEST

/*
 * diff printed an empty label as "", compare its fallback (the file): one reader now, an empty label
 * is no label, and each report names the host as it does without one (diff: A or B, compare: the file).
 */
START_TEST(test_empty_label_is_the_file)
{
	struct ud_uarch_db db;
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *a = ud_profile_new(host_from_text("{\"label\": \"\"}"));
	struct ud_profile *b = ud_profile_new(host_from_text("{\"label\": \"B\"}"));
	struct ud_diff *d;

	ck_assert_str_eq(ud_host_label(a->host, "a.json"), "a.json");
	ck_assert_str_eq(ud_host_label(b->host, "b.json"), "B");
	ck_assert_int_eq(ud_uarch_db_load(NULL, &db, &err), 0);
	ud_score_set_samples(&ud_profile_add_workload(a, "w")->score, (double[]){ 1 }, 1);
	ud_score_set_samples(&ud_profile_add_workload(b, "w")->score, (double[]){ 2 }, 1);
	a->workloads[0].higher_is_better = b->workloads[0].higher_is_better = 1;
	d = ud_diff_build(&(struct ud_diff_input){ a, b, "a.json", "b.json", &db }, &err);
	ck_assert_msg(d != NULL, "%s", err.msg);
	ck_assert_str_eq(d->host[UD_SIDE_A].label, "A");
	ck_assert_str_eq(d->host[UD_SIDE_B].label, "B");
	ud_diff_free(d);
	ud_uarch_db_free(&db);
	ud_profile_free(a);
	ud_profile_free(b);
}
END_TEST

/* KEY=VALUE as a person states it: split at the first '=', "null" for unknown. */
START_TEST(test_statement_split)
{
	char key[UD_FACT_NAME_MAX];
	const char *value;
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_fact_statement_split("cpu.isa=riscv64", key, &value, &err), 0);
	ck_assert_str_eq(key, "cpu.isa");
	ck_assert_str_eq(value, "riscv64");
	ck_assert_int_eq(ud_fact_statement_split("vulnerabilities.mds=Mitigation: Clear CPU buffers; SMT=off", key, &value,
						 &err), 0);
	ck_assert_str_eq(value, "Mitigation: Clear CPU buffers; SMT=off");
	ck_assert_int_eq(ud_fact_statement_split("kernel=null", key, &value, &err), 0);
	ck_assert_ptr_null(value);
	ck_assert_int_eq(ud_fact_statement_split("kernel", key, &value, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "--fact needs KEY=VALUE"));
	ck_assert_int_eq(ud_fact_statement_split("=x", key, &value, &err), -1);
	ck_assert_int_eq(ud_fact_statement_split("kernel=", key, &value, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "needs a value (null states it unknown)"));
}
END_TEST

/* Each fact typed by its row, as the JSON reader types it; wrong ones refused by name. */
START_TEST(test_set_fact_typed_by_its_row)
{
	struct ud_host *h = ud_host_new();
	struct ud_err err = UD_ERR_INIT;

	ck_assert_int_eq(ud_host_set_fact(h, "cpu.isa", "riscv64", &err), 0);
	ck_assert_str_eq(h->cpu.isa, "riscv64");
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.online_cpus", "64", &err), 0);
	ck_assert_int_eq(h->cpu.online_cpus, 64);
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.midr_part", "0xd0c", &err), 0);
	ck_assert_int_eq(h->cpu.midr_part, 0xd0c);
	ck_assert_int_eq(ud_host_set_fact(h, "perf_event_paranoid", "-1", &err), 0);
	ck_assert_int_eq(h->perf_event_paranoid, -1);
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.smt", "yes", &err), 0);
	ck_assert_int_eq(h->cpu.smt, 1);
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.smt", "FALSE", &err), 0);
	ck_assert_int_eq(h->cpu.smt, 0);
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.smt", NULL, &err), 0);
	ck_assert_int_eq(h->cpu.smt, -1);
	ck_assert_int_eq(ud_host_set_fact(h, "vulnerabilities.spec_rstack_overflow", "Vulnerable", &err), 0);
	ck_assert_int_eq(ud_host_set_fact(h, "vulnerabilities.spec_rstack_overflow", "Mitigation: Safe RET", &err), 0);
	ck_assert_uint_eq(h->nvulns, 1);
	ck_assert_str_eq(ud_host_fact(h, "vulnerabilities.spec_rstack_overflow").string, "Mitigation: Safe RET");
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.online_cpus", "many", &err), -1);
	ck_assert_str_eq(err.msg, "cpu.online_cpus needs a whole number, not 'many'");
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.model", "Apple M1 Icestorm", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "(a name goes in cpu.model_name)"));
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.smt", "2", &err), -1);
	ck_assert_str_eq(err.msg, "cpu.smt needs true or false, not '2'");
	ck_assert_int_eq(ud_host_set_fact(h, "kernel.release", "6.8.7", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "unknown host fact 'kernel.release'; did you mean 'kernel'?"));
	ck_assert_int_eq(ud_host_set_fact(h, "cpufreq.govenor", "performance", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "did you mean 'cpufreq.governor'?"));
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.caches", "1", &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "'cpu.caches' is a group of facts"));
	ck_assert_int_eq(ud_host_set_fact(h, "cpu.source", "x", &err), -1);
	ck_assert_int_eq(ud_host_set_fact(h, "stated", "x", &err), -1);
	ck_assert_int_eq(ud_host_set_fact(h, "vulnerabilities.a b", "x", &err), -1);
	ud_host_free(h);
}
END_TEST

/* host.stated is written, read back and copied; it is no fact itself, so the walk (the diff's environment) skips it. */
START_TEST(test_stated_round_trips)
{
	struct ud_host *h = ud_host_new(), *back, *copy;
	struct ud_err err = UD_ERR_INIT;
	char *text, names[2048] = "";

	ck_assert_int_eq(ud_host_set_fact(h, "cpufreq.governor", "performance", &err), 0);
	ck_assert_int_eq(ud_host_mark_stated(h, "cpufreq.governor"), 0);
	ck_assert_int_eq(ud_host_mark_stated(h, "cpufreq.governor"), 0);
	ck_assert_int_eq(ud_host_mark_stated(h, "kernel"), 0);
	text = written(h);
	ck_assert_ptr_nonnull(strstr(text, "\"stated\": [\n    \"cpufreq.governor\",\n    \"kernel\"\n  ]"));
	back = read_text_host(text, &err);
	ck_assert_msg(back != NULL, "%s", err.msg);
	ck_assert(ud_host_stated(back, "cpufreq.governor") && ud_host_stated(back, "kernel"));
	ck_assert(!ud_host_stated(back, "hypervisor"));
	copy = ud_host_copy(back);
	ck_assert_uint_eq(copy->nstated, 2);
	ck_assert_int_eq(ud_host_fact(copy, "stated").type, UD_FACT_ABSENT);
	ud_host_each_fact(copy, collect, names);
	ck_assert_ptr_null(strstr(names, "stated"));
	free(text);
	ud_host_free(copy);
	ud_host_free(back);
	ud_host_free(h);
	/* none stated: no field written */
	h = ud_host_new();
	text = written(h);
	ck_assert_ptr_null(strstr(text, "stated"));
	free(text);
	ud_host_free(h);
	/* a list of strings, checked as core_pmus is */
	ck_assert_ptr_null(read_text_host("{\"stated\": [1]}", &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "host.stated: expected a list of strings"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("host_facts");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_host_file_round_trips);
	tcase_add_test(tc, test_facts_by_dotted_name);
	tcase_add_test(tc, test_each_fact_in_written_order);
	tcase_add_test(tc, test_wrong_types_are_refused_by_name);
	tcase_add_test(tc, test_integral_reals_are_integers);
	tcase_add_test(tc, test_cache_sizes_one_unit_sign_checked);
	tcase_add_test(tc, test_empty_label_is_the_file);
	tcase_add_test(tc, test_statement_split);
	tcase_add_test(tc, test_set_fact_typed_by_its_row);
	tcase_add_test(tc, test_stated_round_trips);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
