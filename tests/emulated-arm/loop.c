/*
 * loop N: runs a loop of exactly 4 instructions N times, then exits.
 * Built -nostdlib -static for aarch64 so that nothing but this file runs in
 * user mode: its user-mode instruction count is 4N plus a constant that does
 * not depend on N, provided N is always given with the same number of digits
 * (the parser's work grows with the digits: run.sh passes ten).
 */
typedef unsigned long u64;

static u64 parse(const char *s)
{
	u64 n = 0;

	for (; *s >= '0' && *s <= '9'; s++)
		n = n * 10 + (u64)(*s - '0');
	return n;
}

static void __attribute__((noreturn)) sys_exit(long status)
{
	register long x0 __asm__("x0") = status;
	register long x8 __asm__("x8") = 94; /* exit_group */

	__asm__ volatile("svc #0" : : "r"(x0), "r"(x8) : "memory");
	__builtin_unreachable();
}

void __attribute__((noreturn, used)) start_c(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	u64 n = argc > 1 ? parse(argv[1]) : 0, a = 0, b = 0;

	if (n == 0)
		sys_exit(2);
	/* The measured loop: add, add, subs, b.ne. */
	__asm__ volatile("1:\n\t"
			 "add %1, %1, #1\n\t"
			 "add %2, %2, #1\n\t"
			 "subs %0, %0, #1\n\t"
			 "b.ne 1b"
			 : "+r"(n), "+r"(a), "+r"(b)
			 :
			 : "cc");
	sys_exit(0);
}

/* The kernel enters here with sp at argc; hand it to C. */
__asm__(".globl _start\n"
	"_start:\n\t"
	"mov x0, sp\n\t"
	"bl start_c\n");
