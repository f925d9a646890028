/*
 * ud-testchild MODE ARG: known work for the counting tests.
 *
 *   pages N      touch N fresh pages (>= N page faults)
 *   pingpong K   K round trips over pipes with a forked child (>= K context switches each side)
 *   forkpages N  fork a child that touches N fresh pages; wait for it
 *   loop N       N iterations of a loop of known instruction count (x86-64 only)
 *   writes N     N write()s of a byte to stdout, then a newline to stderr (N+1 writes)
 *   exit S       exit with status S
 *   kill SIG     kill itself with SIG
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void touch_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(3);
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
}

static void pingpong(long k)
{
	int a[2], b[2];
	char c = 0;
	pid_t pid;

	if (pipe(a) || pipe(b))
		exit(3);
	pid = fork();
	if (pid < 0)
		exit(3);
	for (long i = 0; i < k; i++) {
		if (pid == 0) {
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(4);
		} else {
			if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
				exit(4);
		}
	}
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
}

/* Exactly 4 instructions per iteration on x86-64: add, sub, cmp-free dec/jnz pair. */
static void loop(long n)
{
#if defined(__x86_64__)
	__asm__ volatile("1:\n\t"
			 "add $1, %%rax\n\t"
			 "sub $1, %%rax\n\t"
			 "dec %0\n\t"
			 "jnz 1b\n\t"
			 : "+r"(n)
			 :
			 : "rax", "cc");
#else
	(void)n;
	exit(5);
#endif
}

int main(int argc, char **argv)
{
	long arg;

	if (argc != 3)
		return 2;
	arg = strtol(argv[2], NULL, 0);
	if (strcmp(argv[1], "pages") == 0) {
		touch_pages(arg);
	} else if (strcmp(argv[1], "pingpong") == 0) {
		pingpong(arg);
	} else if (strcmp(argv[1], "forkpages") == 0) {
		pid_t pid = fork();

		if (pid == 0) {
			touch_pages(arg);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	} else if (strcmp(argv[1], "loop") == 0) {
		loop(arg);
	} else if (strcmp(argv[1], "writes") == 0) {
		for (long i = 0; i < arg; i++)
			if (write(1, "w", 1) != 1)
				return 4;
		if (write(2, "\n", 1) != 1)
			return 4;
	} else if (strcmp(argv[1], "exit") == 0) {
		return (int)arg;
	} else if (strcmp(argv[1], "kill") == 0) {
		signal((int)arg, SIG_DFL);
		raise((int)arg);
	} else {
		return 2;
	}
	return 0;
}
