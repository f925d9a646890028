/*
 * Preloaded into uarchdiff by test_stat_cli, linked into test_counting:
 * perf_event_open refuses the software event whose config
 * UD_REFUSE_IN_GROUP names as a group member, with EINVAL, as x86 refuses
 * a member that makes its group unschedulable.  Software events never fail
 * as a group, and a weak group's fallback ({a,b}:W) needs one that does.
 * Every other system call goes through.
 *
 * With UD_OPEN_LOG set, each perf_event_open of a software event appends
 * "CONFIG PID GROUP_FD FD" there, so that a test of the command line sees
 * how its counters were grouped.
 *
 * It also stands for sync(): with UD_SYNC_LOG set, each call appends a
 * line there before the real one, so a test sees -S's calls without
 * ptrace, which CI's containers may refuse to strace.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The group_fd of the last perf_event_open of each software event (configs 0..15), for a test to read. */
int ud_refuse_last_group_fd[16];

/* perf_event_open through real, a software event's logged to UD_OPEN_LOG. */
static long logged_open(long (*real)(long, ...), const long *a)
{
	const struct perf_event_attr *attr = (const struct perf_event_attr *)a[0];
	long fd = real(SYS_perf_event_open, a[0], a[1], a[2], a[3], a[4], a[5]);
	int saved = errno;
	FILE *f = attr->type == PERF_TYPE_SOFTWARE ? fopen(getenv("UD_OPEN_LOG"), "a") : NULL;

	if (f) {
		/* pid and group_fd are ints: the registers' upper halves are not theirs */
		fprintf(f, "%llu %d %d %ld\n", (unsigned long long)attr->config, (int)a[1], (int)a[3], fd);
		fclose(f);
	}
	errno = saved;
	return fd;
}

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	const char *refuse = getenv("UD_REFUSE_IN_GROUP");
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_perf_event_open) {
		const struct perf_event_attr *attr = (const struct perf_event_attr *)a[0];
		int group_fd = (int)a[3];

		if (attr->type == PERF_TYPE_SOFTWARE && attr->config < 16)
			ud_refuse_last_group_fd[attr->config] = group_fd;
		if (refuse && group_fd >= 0 && attr->type == PERF_TYPE_SOFTWARE &&
		    attr->config == strtoull(refuse, NULL, 10)) {
			errno = EINVAL;
			return -1;
		}
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (nr == SYS_perf_event_open && getenv("UD_OPEN_LOG"))
		return logged_open(real, a);
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

void sync(void)
{
	static void (*real)(void);
	const char *log = getenv("UD_SYNC_LOG");

	if (log) {
		FILE *f = fopen(log, "a");

		if (f) {
			fputs("sync\n", f);
			fclose(f);
		}
	}
	if (!real)
		real = (void (*)(void))dlsym(RTLD_NEXT, "sync");
	real();
}
