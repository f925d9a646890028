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
 *   control CTL ACK WORD...
 *                each WORD in turn: a number N makes N getpid() system calls (a
 *                tracepoint counts them exactly); any other word is sent as a
 *                --control command on CTL (a descriptor number, or a FIFO's
 *                path), then its acknowledgement awaited on ACK ("-": none)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void touch_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		exit(3);
	/* a host with transparent huge pages "always" would fault 512 pages at once: N faults is the promise */
	madvise((void *)p, (size_t)(n * page), MADV_NOHUGEPAGE);
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

/* A descriptor number as given, or a FIFO's path opened; -1 for "-". */
static int endpoint(const char *s, int flags)
{
	int fd;

	if (strcmp(s, "-") == 0)
		return -1;
	if (s[0] != '/')
		return atoi(s);
	fd = open(s, flags);
	if (fd < 0)
		exit(3);
	return fd;
}

static int control(int argc, char **argv)
{
	int ctl = endpoint(argv[2], O_WRONLY), ack = endpoint(argv[3], O_RDONLY);
	char line[128], got[5];

	for (int i = 4; i < argc; i++) {
		char *end;
		long n = strtol(argv[i], &end, 10);

		if (*end == '\0') {
			for (long k = 0; k < n; k++)
				syscall(SYS_getpid);
			continue;
		}
		snprintf(line, sizeof(line), "%s\n", argv[i]);
		if (write(ctl, line, strlen(line)) != (ssize_t)strlen(line))
			return 4;
		/* perf's acknowledgement: "ack\n" and its NUL */
		if (ack >= 0 && (read(ack, got, sizeof(got)) != (ssize_t)sizeof(got) || memcmp(got, "ack\n", 5) != 0))
			return 5;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long arg;

	if (argc >= 4 && strcmp(argv[1], "control") == 0)
		return control(argc, argv);

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
