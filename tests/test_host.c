/*
 * Host facts read from a fake /proc and /sys tree (sysroot): what is there is
 * reported exactly, what is not is null.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host.h"
#include "testutil.h"

static void put(const char *root, const char *rel, const char *text)
{
	char path[4096], *slash;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	write_text(path, text);
}

static char *fake_tree(void)
{
	char *root = make_tempdir(), *cpuinfo = read_text(UD_TEST_DATA "/cpuinfo/kvm-amd-epyc-family25-model17.txt");

	put(root, "/proc/cpuinfo", cpuinfo);
	free(cpuinfo);
	put(root, "/proc/sys/kernel/perf_event_paranoid", "4\n");
	put(root, "/sys/devices/system/cpu/cpu0/cache/index0/level", "1\n");
	put(root, "/sys/devices/system/cpu/cpu0/cache/index0/type", "Data\n");
	put(root, "/sys/devices/system/cpu/cpu0/cache/index0/size", "48K\n");
	put(root, "/sys/devices/system/cpu/cpu0/cache/index1/level", "2\n");
	put(root, "/sys/devices/system/cpu/cpu0/cache/index1/type", "Unified\n");
	put(root, "/sys/devices/system/cpu/cpu0/cache/index1/size", "2M\n");
	put(root, "/sys/devices/system/cpu/vulnerabilities/spectre_v2", "Mitigation: Retpolines\n");
	put(root, "/sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n");
	put(root, "/sys/devices/system/cpu/smt/active", "1\n");
	return root;
}

START_TEST(test_facts_from_sysroot)
{
	char *root = fake_tree();
	struct ud_host_opts o = { .sysroot = root, .label = "fake" };
	struct ud_err err;
	json_t *h = ud_host_collect(&o, &err), *cpu, *caches, *vuln;

	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(json_string_value(json_object_get(h, "label")), "fake");
	cpu = json_object_get(h, "cpu");
	ck_assert_int_eq(json_integer_value(json_object_get(cpu, "family")), 25);
	ck_assert_int_eq(json_integer_value(json_object_get(cpu, "model")), 17);
	ck_assert(json_is_true(json_object_get(cpu, "smt")));
	caches = json_object_get(cpu, "caches");
	ck_assert_int_eq(json_integer_value(json_object_get(caches, "l1d_kb")), 48);
	ck_assert_int_eq(json_integer_value(json_object_get(caches, "l2_kb")), 2048);
	/* absent in the tree: null, not guessed */
	ck_assert(json_is_null(json_object_get(caches, "l1i_kb")));
	ck_assert(json_is_null(json_object_get(caches, "l3_kb")));
	ck_assert_int_eq(json_integer_value(json_object_get(h, "perf_event_paranoid")), 4);
	vuln = json_object_get(h, "vulnerabilities");
	ck_assert_uint_eq(json_object_size(vuln), 2);
	ck_assert_str_eq(json_string_value(json_object_get(vuln, "spectre_v2")), "Mitigation: Retpolines");
	ck_assert(json_is_null(json_object_get(json_object_get(h, "cpufreq"), "governor")));
	ck_assert_ptr_nonnull(json_string_value(json_object_get(h, "pmu")));
	ck_assert_ptr_nonnull(json_string_value(json_object_get(h, "pmu_reason")));
	json_decref(h);
	rm_tree(root);
	free(root);
}
END_TEST

START_TEST(test_empty_tree_is_all_null)
{
	char *root = make_tempdir(), *cpuinfo = read_text(UD_TEST_DATA "/cpuinfo/aws-m6g-graviton2.txt");
	struct ud_host_opts o = { .sysroot = root };
	struct ud_err err;
	json_t *h, *cpu;

	put(root, "/proc/cpuinfo", cpuinfo);
	free(cpuinfo);
	h = ud_host_collect(&o, &err);
	ck_assert_ptr_nonnull(h);
	cpu = json_object_get(h, "cpu");
	ck_assert_int_eq(json_integer_value(json_object_get(cpu, "midr_part")), 0xd0c);
	ck_assert(json_is_null(json_object_get(cpu, "model_name")));
	ck_assert(json_is_null(json_object_get(cpu, "smt")));
	ck_assert(json_is_null(json_object_get(json_object_get(cpu, "caches"), "l1d_kb")));
	ck_assert(json_is_null(json_object_get(h, "vulnerabilities")));
	ck_assert(json_is_null(json_object_get(h, "perf_event_paranoid")));
	json_decref(h);
	rm_tree(root);
	free(root);
}
END_TEST

START_TEST(test_other_hosts_cpuinfo)
{
	struct ud_host_opts o = { .cpuinfo_path = UD_TEST_DATA "/cpuinfo/aws-m7g-graviton3.txt" };
	struct ud_err err;
	json_t *h = ud_host_collect(&o, &err), *cpu;

	ck_assert_ptr_nonnull(h);
	cpu = json_object_get(h, "cpu");
	ck_assert_int_eq(json_integer_value(json_object_get(cpu, "midr_part")), 0xd40);
	ck_assert_int_eq(json_integer_value(json_object_get(cpu, "online_cpus")), 2);
	/* this host's caches say nothing about that one's */
	ck_assert(json_is_null(json_object_get(json_object_get(cpu, "caches"), "l1d_kb")));
	ck_assert_str_eq(json_string_value(json_object_get(cpu, "source")), o.cpuinfo_path);
	json_decref(h);

	o.cpuinfo_path = "/nonexistent/cpuinfo";
	ck_assert_ptr_null(ud_host_collect(&o, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/cpuinfo"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("host");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_facts_from_sysroot);
	tcase_add_test(tc, test_empty_tree_is_all_null);
	tcase_add_test(tc, test_other_hosts_cpuinfo);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
