#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cpuinfo.h"
#include "testutil.h"

START_TEST(test_graviton2)
{
	struct ud_cpu cpu;
	struct ud_err err;

	ck_assert_int_eq(ud_cpuinfo_load(UD_TEST_DATA "/cpuinfo/aws-m6g-graviton2.txt", &cpu, &err), 0);
	ck_assert(cpu.is_arm);
	ck_assert_int_eq(cpu.midr_implementer, 0x41);
	ck_assert_int_eq(cpu.midr_part, 0xd0c);
	ck_assert_int_eq(cpu.midr_variant, 0x3);
	ck_assert_int_eq(cpu.midr_revision, 1);
	ck_assert_str_eq(cpu.vendor, "ARM");
	ck_assert_ptr_null(cpu.model_name); /* Arm cpuinfo has none: not guessed */
	ck_assert_int_eq(cpu.family, -1);
	ck_assert_int_eq(cpu.processors, 2);
	ud_cpu_free(&cpu);
}
END_TEST

START_TEST(test_graviton3)
{
	struct ud_cpu cpu;
	struct ud_err err;

	ck_assert_int_eq(ud_cpuinfo_load(UD_TEST_DATA "/cpuinfo/aws-m7g-graviton3.txt", &cpu, &err), 0);
	ck_assert_int_eq(cpu.midr_part, 0xd40);
	ck_assert_int_eq(cpu.midr_variant, 0x1);
	ud_cpu_free(&cpu);
}
END_TEST

START_TEST(test_amd_kvm_guest)
{
	struct ud_cpu cpu;
	struct ud_err err;

	ck_assert_int_eq(ud_cpuinfo_load(UD_TEST_DATA "/cpuinfo/kvm-amd-epyc-family25-model17.txt", &cpu, &err), 0);
	ck_assert(!cpu.is_arm);
	ck_assert_str_eq(cpu.vendor, "AuthenticAMD");
	ck_assert_str_eq(cpu.model_name, "AMD EPYC");
	/* decimal in /proc/cpuinfo: 25 is 0x19, not 0x25 */
	ck_assert_int_eq(cpu.family, 25);
	ck_assert_int_eq(cpu.model, 17);
	ck_assert_int_eq(cpu.stepping, 1);
	ck_assert_str_eq(cpu.microcode, "0x1000065");
	ck_assert(cpu.hypervisor_flag);
	ck_assert_int_eq(cpu.siblings, 2);
	ck_assert_int_eq(cpu.cpu_cores, 2);
	ck_assert_int_eq(cpu.midr_part, -1);
	ud_cpu_free(&cpu);
}
END_TEST

START_TEST(test_no_cpu_fields)
{
	char *dir = make_tempdir(), path[4200];
	struct ud_cpu cpu;
	struct ud_err err;

	snprintf(path, sizeof(path), "%s/notcpu", dir);
	write_text(path, "MemTotal: 1024 kB\nhello world\n");
	ck_assert_int_eq(ud_cpuinfo_load(path, &cpu, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no CPU fields"));
	ck_assert_ptr_nonnull(strstr(err.msg, path));
	ck_assert_int_eq(ud_cpuinfo_load("/nonexistent/cpuinfo", &cpu, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/cpuinfo"));
	rm_tree(dir);
	free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cpuinfo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_graviton2);
	tcase_add_test(tc, test_graviton3);
	tcase_add_test(tc, test_amd_kvm_guest);
	tcase_add_test(tc, test_no_cpu_fields);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
