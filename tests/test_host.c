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
	struct ud_host *h = ud_host_collect(&o, &err);

	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->label, "fake");
	ck_assert_int_eq(h->cpu.family, 25);
	ck_assert_int_eq(h->cpu.model, 17);
	ck_assert_int_eq(h->cpu.smt, 1);
	ck_assert_int_eq(h->cpu.caches.l1d_kb, 48);
	ck_assert_int_eq(h->cpu.caches.l2_kb, 2048);
	ck_assert_uint_eq(ud_host_cache_bytes(h, UD_CACHE_L2), 2048 * 1024);
	/* absent in the tree: unknown, not guessed */
	ck_assert(h->cpu.caches.l1i_kb == UD_HOST_UNKNOWN);
	ck_assert(h->cpu.caches.l3_kb == UD_HOST_UNKNOWN);
	ck_assert_int_eq(h->perf_event_paranoid, 4);
	ck_assert(h->vulnerabilities_known);
	ck_assert_uint_eq(h->nvulns, 2);
	/* sorted by name, so two hosts' lists line up */
	ck_assert_str_eq(h->vulns[0].name, "meltdown");
	ck_assert_str_eq(ud_host_fact(h, "vulnerabilities.spectre_v2").string, "Mitigation: Retpolines");
	ck_assert_ptr_null(h->cpufreq.governor);
	ck_assert_ptr_nonnull(h->pmu);
	ck_assert_ptr_nonnull(h->pmu_reason);
	ud_host_free(h);
	rm_tree(root);
	free(root);
}
END_TEST

START_TEST(test_empty_tree_is_all_null)
{
	char *root = make_tempdir(), *cpuinfo = read_text(UD_TEST_DATA "/cpuinfo/aws-m6g-graviton2.txt");
	struct ud_host_opts o = { .sysroot = root };
	struct ud_err err;
	struct ud_host *h;

	put(root, "/proc/cpuinfo", cpuinfo);
	free(cpuinfo);
	h = ud_host_collect(&o, &err);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(h->cpu.midr_part, 0xd0c);
	ck_assert_ptr_null(h->cpu.model_name);
	ck_assert_int_eq(h->cpu.smt, -1);
	ck_assert(h->cpu.caches.l1d_kb == UD_HOST_UNKNOWN);
	ck_assert_uint_eq(ud_host_cache_bytes(h, UD_CACHE_L1D), 0);
	ck_assert(!h->vulnerabilities_known);
	ck_assert_int_eq(ud_host_fact(h, "vulnerabilities").type, UD_FACT_NULL);
	ck_assert(h->perf_event_paranoid == UD_HOST_UNKNOWN);
	ud_host_free(h);
	rm_tree(root);
	free(root);
}
END_TEST

START_TEST(test_other_hosts_cpuinfo)
{
	struct ud_host_opts o = { .cpuinfo_path = UD_TEST_DATA "/cpuinfo/aws-m7g-graviton3.txt" };
	struct ud_err err;
	struct ud_host *h = ud_host_collect(&o, &err);

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(h->cpu.midr_part, 0xd40);
	ck_assert_int_eq(h->cpu.online_cpus, 2);
	/* this host's caches say nothing about that one's */
	ck_assert(h->cpu.caches.l1d_kb == UD_HOST_UNKNOWN);
	ck_assert_str_eq(h->cpu.source, o.cpuinfo_path);
	ud_host_free(h);

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
