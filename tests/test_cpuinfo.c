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

/* The ISA of every real cpuinfo the tests hold, as `uname -m` said (or would say) on that host. */
START_TEST(test_isa_of_every_fixture)
{
	static const struct {
		const char *file, *isa;
	} cases[] = {
		{ "aws-m6g-graviton2.txt", "aarch64" },
		{ "aws-m7g-graviton3.txt", "aarch64" },
		{ "archspec-asahi-m1.txt", "aarch64" },
		{ "kvm-amd-epyc-family25-model17.txt", "x86_64" },
		{ "archspec-xeon-8480-sapphire-rapids.txt", "x86_64" },
		{ "github-actions-azure-xeon-8370c-icelake-sp.txt", "x86_64" },
		{ "archspec-rhel8-power9.txt", "ppc64le" },
		{ "archspec-power10.txt", "ppc64le" },
		{ "archspec-sifive-u74mc.txt", "riscv64" },
		/* a Cortex-A7 under a 32-bit kernel */
		{ "pytorch-cpuinfo-raspberrypi2.txt", "armv7" },
		/* ARM1176: its kernel says "CPU architecture: 7", its name "(v6l)" */
		{ "pytorch-cpuinfo-raspberrypi-zero.txt", "armv6" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[512];
		struct ud_cpu cpu;
		struct ud_err err;

		snprintf(path, sizeof(path), "%s/cpuinfo/%s", UD_TEST_DATA, cases[i].file);
		ck_assert_msg(ud_cpuinfo_load(path, &cpu, &err) == 0, "%s: %s", cases[i].file, err.msg);
		ck_assert_msg(cpu.isa && strcmp(cpu.isa, cases[i].isa) == 0, "%s: isa %s, want %s", cases[i].file,
			      cpu.isa ? cpu.isa : "(null)", cases[i].isa);
		ud_cpu_free(&cpu);
	}
}
END_TEST

/* Once refused as "not a /proc/cpuinfo": POWER names its core in the cpu line. */
START_TEST(test_power9)
{
	struct ud_cpu cpu;
	struct ud_err err;

	ck_assert_int_eq(ud_cpuinfo_load(UD_TEST_DATA "/cpuinfo/archspec-rhel8-power9.txt", &cpu, &err), 0);
	ck_assert_str_eq(cpu.vendor, "IBM");
	ck_assert_str_eq(cpu.model_name, "POWER9, altivec supported");
	ck_assert_str_eq(cpu.core, "POWER9");
	ck_assert_int_eq(cpu.processors, 1);
	ck_assert(!cpu.is_arm);
	ck_assert_int_eq(cpu.family, -1);
	ud_cpu_free(&cpu);
	ck_assert_int_eq(ud_cpuinfo_load(UD_TEST_DATA "/cpuinfo/archspec-power10.txt", &cpu, &err), 0);
	ck_assert_str_eq(cpu.core, "POWER10");
	ud_cpu_free(&cpu);
}
END_TEST

/* RISC-V names its core in the uarch line and has no vendor_id or model name. */
START_TEST(test_riscv_u74)
{
	struct ud_cpu cpu;
	struct ud_err err;

	ck_assert_int_eq(ud_cpuinfo_load(UD_TEST_DATA "/cpuinfo/archspec-sifive-u74mc.txt", &cpu, &err), 0);
	ck_assert_str_eq(cpu.core, "sifive,u74-mc");
	ck_assert_str_eq(cpu.model_name, "sifive,u74-mc");
	ck_assert_ptr_null(cpu.vendor); /* no mvendorid in this kernel's text: not guessed here */
	ck_assert_int_eq(cpu.processors, 1);
	ud_cpu_free(&cpu);
}
END_TEST

/* Lines after the processor blocks count: a 32-bit Arm board's identity, all four processors. */
START_TEST(test_armv7_board)
{
	struct ud_cpu cpu;
	struct ud_err err;

	ck_assert_int_eq(ud_cpuinfo_load(UD_TEST_DATA "/cpuinfo/pytorch-cpuinfo-raspberrypi2.txt", &cpu, &err), 0);
	ck_assert(cpu.is_arm);
	ck_assert_int_eq(cpu.midr_part, 0xc07);
	ck_assert_str_eq(cpu.model_name, "ARMv7 Processor rev 5 (v7l)");
	ck_assert_int_eq(cpu.processors, 4);
	ud_cpu_free(&cpu);
}
END_TEST

/* x86 text from a 32-bit kernel (fdiv_bug is its line alone), and a CPU without long mode. */
START_TEST(test_x86_32)
{
	char *dir = make_tempdir(), path[4200];
	struct ud_cpu cpu;
	struct ud_err err;

	snprintf(path, sizeof(path), "%s/cpuinfo", dir);
	write_text(path, "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 60\n"
			 "fdiv_bug\t: no\nflags\t\t: fpu vme lm\n");
	ck_assert_int_eq(ud_cpuinfo_load(path, &cpu, &err), 0);
	ck_assert_str_eq(cpu.isa, "i686");
	ud_cpu_free(&cpu);
	write_text(path, "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 60\nflags\t\t: fpu vme lm\n");
	ck_assert_int_eq(ud_cpuinfo_load(path, &cpu, &err), 0);
	ck_assert_str_eq(cpu.isa, "x86_64");
	ud_cpu_free(&cpu);
	/* no flags line: the kernel's word size is not shown */
	write_text(path, "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n");
	ck_assert_int_eq(ud_cpuinfo_load(path, &cpu, &err), 0);
	ck_assert_ptr_null(cpu.isa);
	ud_cpu_free(&cpu);
	rm_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_isa_of_machine)
{
	ck_assert_str_eq(ud_isa_of_machine("armv7l"), "armv7");
	ck_assert_str_eq(ud_isa_of_machine("armv6l"), "armv6");
	ck_assert_str_eq(ud_isa_of_machine("x86_64"), "x86_64");
	ck_assert_str_eq(ud_isa_of_machine("ppc64le"), "ppc64le");
	ck_assert_str_eq(ud_arm_implementer_name(0x61), "Apple");
	ck_assert_ptr_null(ud_arm_implementer_name(0x99));
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
	tcase_add_test(tc, test_isa_of_every_fixture);
	tcase_add_test(tc, test_power9);
	tcase_add_test(tc, test_riscv_u74);
	tcase_add_test(tc, test_armv7_board);
	tcase_add_test(tc, test_x86_32);
	tcase_add_test(tc, test_isa_of_machine);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
