#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fileio.h"
#include "perf_records.h"
#include "ring_drainer.h"
#include "sampler.h"

/*
 * 64 data pages (256 KB) a CPU: twice what a second of sampling at 4 kHz
 * with exec-heavy side-band fills between two drains, and within the
 * default perf_event_mlock_kb (516 KB) that unprivileged users get.
 */
#define RING_PAGES 64

/*
 * One event a CPU: the kernel maps no ring of an inherited event that
 * follows a task on every CPU.  The rings are mapped and emptied by the
 * drainer (ring_drainer.h); the events stay here to be enabled and disabled.
 */
struct ud_sampler {
	int *fds;
	size_t n;
	struct ud_drainer drainer;
};

static long sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static void make_attr(struct perf_event_attr *a, const struct ud_sampler_config *c, unsigned flags)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = c->type;
	a->config = c->config;
	if (c->type == PERF_TYPE_SOFTWARE) {
		/* A clock's period is in nanoseconds: exact from the first sample, where freq mode ramps up. */
		a->sample_period = 1000000000ULL / c->frequency_hz;
	} else {
		a->freq = 1;
		a->sample_freq = c->frequency_hz;
	}
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a->disabled = 1;
	a->inherit = 1;
	a->exclude_kernel = c->exclude_kernel;
	a->exclude_hv = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(RING_PAGES * sysconf(_SC_PAGESIZE) / 2);
	a->enable_on_exec = (flags & UD_SAMPLER_ENABLE_ON_EXEC) != 0;
}

/* 0 when c opens on this process; errno otherwise. */
static int try_open(const struct ud_sampler_config *c)
{
	struct perf_event_attr a;
	long fd;

	make_attr(&a, c, 0);
	fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

int ud_sampler_choose(unsigned frequency_hz, struct ud_sampler_config *c, struct ud_err *err)
{
	static const struct {
		const char *name;
		uint32_t type;
		uint64_t config;
	} events[] = {
		{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	};
	int e = 0;

	memset(c, 0, sizeof(*c));
	c->frequency_hz = frequency_hz;
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		c->event = events[i].name;
		c->type = events[i].type;
		c->config = events[i].config;
		c->exclude_kernel = false;
		e = try_open(c);
		if (e == EACCES || e == EPERM) {
			c->exclude_kernel = true;
			snprintf(c->kernel_reason, sizeof(c->kernel_reason),
				 "kernel code not sampled: perf_event_paranoid forbids it without privilege (%s)",
				 strerror(e));
			e = try_open(c);
		}
		if (e == 0)
			return 0;
		c->kernel_reason[0] = '\0';
	}
	return ud_fail(err, "no sampling event opens on this host: cpu-clock: %s", strerror(e));
}

int ud_sampler_counters_held(const struct ud_sampler_config *c)
{
	return c && c->type == PERF_TYPE_HARDWARE;
}

/* The layout of a PERF_RECORD_MMAP up to its file name. */
struct mmap_head {
	uint32_t type;
	uint16_t misc, size;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
};

/* MMAP records for the executable mappings /proc/self/maps lists now. */
static int synthesize_maps(int out_fd)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096 + 128], path[4096];
	uint8_t rec[sizeof(struct mmap_head) + sizeof(path) + 8];
	int e = 0;

	if (!f)
		return errno;
	while (!e && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8];
		struct mmap_head h = { .type = UD_REC_MMAP, .misc = UD_REC_MISC_USER };
		size_t plen;

		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &start, &end, perms, &off, path) < 4 ||
		    perms[2] != 'x' || !path[0])
			continue;
		plen = strlen(path) + 1;
		h.size = (uint16_t)((sizeof(h) + plen + 7) & ~(size_t)7);
		h.pid = h.tid = (uint32_t)getpid();
		h.start = start;
		h.len = end - start;
		h.pgoff = off;
		memset(rec, 0, h.size);
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + sizeof(h), path, plen);
		e = ud_write_all(out_fd, rec, h.size);
	}
	fclose(f);
	return e;
}

static void sampler_free(struct ud_sampler *s)
{
	for (size_t i = 0; i < s->n; i++)
		close(s->fds[i]);
	free(s->fds);
	free(s);
}

/* One event per CPU that takes one (offline CPUs refuse); -1 with err. */
static int open_events(struct ud_sampler *s, const struct ud_sampler_config *c, pid_t pid, unsigned flags, long ncpu,
		       struct ud_err *err)
{
	struct perf_event_attr a;
	int first_errno = 0;

	make_attr(&a, c, flags);
	for (long cpu = 0; cpu < ncpu; cpu++) {
		int fd = (int)sys_perf_event_open(&a, pid, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);

		if (fd < 0)
			first_errno = first_errno ? first_errno : errno;
		else
			s->fds[s->n++] = fd;
	}
	if (!s->n)
		return ud_fail(err, "sampling %s: perf_event_open: %s", c->event, strerror(first_errno));
	return 0;
}

struct ud_sampler *ud_sampler_open(const struct ud_sampler_config *c, pid_t pid, unsigned flags, int out_fd,
				   struct ud_err *err)
{
	struct ud_sampler *s = calloc(1, sizeof(*s));
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct ud_err ignore = UD_ERR_INIT;
	int e;

	ncpu = ncpu < 1 ? 1 : ncpu;
	if (s)
		s->fds = calloc((size_t)ncpu, sizeof(*s->fds));
	if (!s || !s->fds) {
		free(s);
		return ud_fail(err, "out of memory"), NULL;
	}
	/* The drainer first: forked after the events opened, it would inherit them and be sampled too. */
	if (ud_drainer_start(&s->drainer, out_fd, err) != 0) {
		sampler_free(s);
		return NULL;
	}
	if (open_events(s, c, pid, flags, ncpu, err) == 0) {
		e = pid == 0 ? synthesize_maps(out_fd) : 0;
		if (e)
			ud_fail(err, "sampling: writing the mappings: %s", strerror(e));
		else if (ud_drainer_go(&s->drainer, s->fds, s->n, RING_PAGES, err) == 0)
			return s;
	}
	ud_drainer_stop(&s->drainer, &ignore); /* err already says what failed */
	sampler_free(s);
	return NULL;
}

static int ioctl_all(struct ud_sampler *s, unsigned long req, const char *what, struct ud_err *err)
{
	for (size_t i = 0; i < s->n; i++)
		if (ioctl(s->fds[i], req, 0) != 0)
			return ud_fail(err, "sampling: %s: %s", what, strerror(errno));
	return 0;
}

int ud_sampler_enable(struct ud_sampler *s, struct ud_err *err)
{
	return ioctl_all(s, PERF_EVENT_IOC_ENABLE, "enable", err);
}

int ud_sampler_disable(struct ud_sampler *s, struct ud_err *err)
{
	return ioctl_all(s, PERF_EVENT_IOC_DISABLE, "disable", err);
}

int ud_sampler_close(struct ud_sampler *s, struct ud_err *err)
{
	int ret = ud_drainer_stop(&s->drainer, err);

	sampler_free(s);
	return ret;
}

int ud_records_fd_new(struct ud_err *err)
{
	int fd = memfd_create("uarchdiff-samples", MFD_CLOEXEC);

	if (fd < 0)
		return ud_fail(err, "sampling: cannot make a file for the records: %s", strerror(errno));
	return fd;
}

int ud_records_fd_read(int fd, uint8_t **buf, size_t *len, struct ud_err *err)
{
	off_t size = lseek(fd, 0, SEEK_END);
	size_t got = 0;

	*buf = NULL;
	*len = 0;
	if (size < 0)
		return ud_fail(err, "sampling: reading the records: %s", strerror(errno));
	if (size == 0)
		return 0;
	*buf = malloc((size_t)size);
	if (!*buf)
		return ud_fail(err, "out of memory");
	while (got < (size_t)size) {
		ssize_t k = pread(fd, *buf + got, (size_t)size - got, (off_t)got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	*len = got;
	return 0;
}
