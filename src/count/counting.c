#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counting.h"

/* Below this much running time a 0 reading may be honest. */
#define ZERO_READ_MIN_RUNNING_NS 1000000ULL

struct counter {
	int fd;        /* -1 when not opened */
	int leader;    /* index of the group leader's counter (itself if leader) */
	uint64_t id;   /* PERF_EVENT_IOC_ID, to match group reads */
	int open_errno;
};

struct ud_counters {
	const struct ud_event *ev;
	size_t n;
	struct counter *c;
	int group_read;   /* PERF_FORMAT_GROUP in use */
	int open_flags;
};

static long sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
				unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

int ud_perf_event_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = INT_MIN;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = INT_MIN;
		fclose(f);
	}
	return level;
}

static void paranoid_reason(char *reason, size_t len)
{
	int level = ud_perf_event_paranoid();

	if (level == INT_MIN)
		snprintf(reason, len, "permission denied by the kernel; run as root or with CAP_PERFMON");
	else
		snprintf(reason, len,
			 "perf_event_paranoid=%d forbids it; run as root or with CAP_PERFMON, "
			 "or lower /proc/sys/kernel/perf_event_paranoid", level);
}

enum ud_pmu_state ud_pmu_probe(char *reason, size_t len)
{
	struct perf_event_attr attr;
	char dummy[8];
	long fd;

	if (!reason) {
		reason = dummy;
		len = sizeof(dummy);
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	attr.exclude_kernel = 1; /* allowed at paranoid level 2 */
	attr.exclude_hv = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close((int)fd);
		snprintf(reason, len, "hardware counters can be opened");
		return UD_PMU_AVAILABLE;
	}
	if (errno == EACCES || errno == EPERM) {
		paranoid_reason(reason, len);
		return UD_PMU_RESTRICTED;
	}
	snprintf(reason, len,
		 "no hardware PMU on this host: the kernel has no CPU PMU driver (%s), "
		 "as in virtual machines without a virtual PMU", strerror(errno));
	return UD_PMU_ABSENT;
}

const char *ud_pmu_state_name(enum ud_pmu_state s)
{
	switch (s) {
	case UD_PMU_AVAILABLE: return "available";
	case UD_PMU_RESTRICTED: return "restricted";
	case UD_PMU_ABSENT: break;
	}
	return "absent";
}

void ud_count_scale(struct ud_count *c, uint64_t raw, uint64_t enabled_ns, uint64_t running_ns)
{
	c->raw = raw;
	c->enabled_ns = enabled_ns;
	c->running_ns = running_ns;
	c->reason[0] = '\0';
	if (running_ns == 0) {
		/* Never on a counter: any value would be invented. */
		c->status = UD_NOT_COUNTED;
		c->value = 0;
		snprintf(c->reason, sizeof(c->reason),
			 enabled_ns ? "never scheduled on a hardware counter (multiplexing, or a group larger than the PMU)"
				    : "the counted task never ran while the counter was enabled");
		return;
	}
	c->status = UD_COUNTED;
	/* perf's util/stat.c: scale up by the share of time the counter ran. */
	c->value = running_ns < enabled_ns ? (double)raw * ((double)enabled_ns / (double)running_ns)
					   : (double)raw;
}

static void open_reason(const struct ud_event *ev, int err, char *reason, size_t len)
{
	switch (err) {
	case EACCES:
	case EPERM:
		paranoid_reason(reason, len);
		return;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (ev->hardware && ud_pmu_probe(NULL, 0) == UD_PMU_ABSENT) {
			ud_pmu_probe(reason, len);
			return;
		}
		snprintf(reason, len, "this CPU's PMU does not support the event (%s)", strerror(err));
		return;
	case EINVAL:
		snprintf(reason, len, "the kernel rejected the event's encoding (%s)", strerror(err));
		return;
	case EMFILE:
		snprintf(reason, len, "too many open files: raise the file descriptor limit (ulimit -n)");
		return;
	default:
		snprintf(reason, len, "perf_event_open failed: %s", strerror(err));
		return;
	}
}

static int open_one(struct ud_counters *set, size_t i, pid_t pid, int group_fd)
{
	struct perf_event_attr attr = set->ev[i].attr;
	int is_leader = group_fd < 0;
	long fd;

	attr.size = sizeof(attr);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	if (set->group_read && set->ev[i].group >= 0)
		attr.read_format |= PERF_FORMAT_GROUP;
	attr.inherit = !!(set->open_flags & UD_COUNT_INHERIT);
	/* Members follow their leader: only the leader is held disabled. */
	attr.disabled = is_leader;
	attr.enable_on_exec = is_leader && (set->open_flags & UD_COUNT_ENABLE_ON_EXEC);
	fd = sys_perf_event_open(&attr, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	set->c[i].fd = (int)fd;
	if (ioctl((int)fd, PERF_EVENT_IOC_ID, &set->c[i].id) != 0)
		set->c[i].id = 0;
	return 0;
}

static void close_all(struct ud_counters *set)
{
	for (size_t i = 0; i < set->n; i++) {
		if (set->c[i].fd >= 0)
			close(set->c[i].fd);
		set->c[i].fd = -1;
	}
}

/* Returns -EINVAL when the group read format itself was refused. */
static int open_all(struct ud_counters *set, pid_t pid)
{
	for (size_t i = 0; i < set->n; i++) {
		set->c[i].fd = -1;
		set->c[i].leader = (int)i;
		set->c[i].open_errno = 0;
	}
	for (size_t i = 0; i < set->n; i++) {
		const struct ud_event *ev = &set->ev[i];
		int leader = -1, ret;

		if (!ev->resolved)
			continue;
		/* The first opened earlier member of the same group leads it. */
		for (size_t j = 0; ev->group >= 0 && j < i && leader < 0; j++)
			if (set->ev[j].group == ev->group && set->c[j].fd >= 0 && set->c[j].leader == (int)j)
				leader = (int)j;
		ret = open_one(set, i, pid, leader >= 0 ? set->c[leader].fd : -1);
		if (ret == -EINVAL && leader >= 0) {
			/*
			 * On x86 the kernel refuses a member that would make the
			 * group unschedulable: count it on its own instead.
			 */
			leader = -1;
			ret = open_one(set, i, pid, -1);
		}
		if (ret == -EINVAL && set->group_read && leader < 0 && (set->open_flags & UD_COUNT_INHERIT))
			return -EINVAL;
		set->c[i].open_errno = -ret;
		set->c[i].leader = leader >= 0 ? leader : (int)i;
	}
	return 0;
}

struct ud_counters *ud_counters_open(const struct ud_event *ev, size_t n, pid_t pid, unsigned flags)
{
	struct ud_counters *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	set->c = calloc(n ? n : 1, sizeof(*set->c));
	if (!set->c) {
		free(set);
		return NULL;
	}
	set->ev = ev;
	set->n = n;
	set->open_flags = (int)flags;
	set->group_read = 1;
	if (open_all(set, pid) == -EINVAL) {
		/* inherit with PERF_FORMAT_GROUP: older kernels refuse it. */
		close_all(set);
		set->group_read = 0;
		open_all(set, pid);
	}
	return set;
}

size_t ud_counters_opened(const struct ud_counters *set)
{
	size_t k = 0;

	for (size_t i = 0; i < set->n; i++)
		k += set->c[i].fd >= 0;
	return k;
}

static int ioctl_leaders(struct ud_counters *set, unsigned long req, const char *what, struct ud_err *err)
{
	for (size_t i = 0; i < set->n; i++) {
		if (set->c[i].fd < 0 || set->c[i].leader != (int)i)
			continue;
		if (ioctl(set->c[i].fd, req, PERF_IOC_FLAG_GROUP) != 0)
			return ud_fail(err, "cannot %s counter '%s': %s", what, set->ev[i].name, strerror(errno));
	}
	return 0;
}

int ud_counters_enable(struct ud_counters *set, struct ud_err *err)
{
	return ioctl_leaders(set, PERF_EVENT_IOC_ENABLE, "enable", err);
}

int ud_counters_disable(struct ud_counters *set, struct ud_err *err)
{
	return ioctl_leaders(set, PERF_EVENT_IOC_DISABLE, "disable", err);
}

int ud_counters_reset(struct ud_counters *set, struct ud_err *err)
{
	return ioctl_leaders(set, PERF_EVENT_IOC_RESET, "reset", err);
}

static int group_size(const struct ud_counters *set, size_t leader)
{
	int k = 0;

	for (size_t i = 0; i < set->n; i++)
		k += set->c[i].fd >= 0 && set->c[i].leader == (int)leader;
	return k;
}

static int read_group(struct ud_counters *set, size_t leader, struct ud_count *out, struct ud_err *err)
{
	int members = group_size(set, leader);
	/* nr, time_enabled, time_running, then {value, id} per member */
	size_t words = 3 + 2 * (size_t)members;
	uint64_t *buf = calloc(words, sizeof(*buf));
	ssize_t got;

	if (!buf)
		return ud_fail(err, "out of memory");
	got = read(set->c[leader].fd, buf, words * sizeof(*buf));
	if (got < (ssize_t)(3 * sizeof(*buf))) {
		free(buf);
		return ud_fail(err, "cannot read counter group '%s': %s", set->ev[leader].name,
			       got < 0 ? strerror(errno) : "short read");
	}
	for (uint64_t k = 0; k < buf[0] && k < (uint64_t)members; k++) {
		uint64_t value = buf[3 + 2 * k], id = buf[4 + 2 * k];

		for (size_t i = 0; i < set->n; i++)
			if (set->c[i].fd >= 0 && set->c[i].leader == (int)leader && set->c[i].id == id)
				ud_count_scale(&out[i], value, buf[1], buf[2]);
	}
	free(buf);
	return 0;
}

static int read_single(struct ud_counters *set, size_t i, struct ud_count *out, struct ud_err *err)
{
	uint64_t buf[4]; /* value, time_enabled, time_running, id */
	ssize_t got = read(set->c[i].fd, buf, sizeof(buf));

	if (got < (ssize_t)(3 * sizeof(uint64_t)))
		return ud_fail(err, "cannot read counter '%s': %s", set->ev[i].name,
			       got < 0 ? strerror(errno) : "short read");
	ud_count_scale(&out[i], buf[0], buf[1], buf[2]);
	return 0;
}

void ud_counts_flag_untrusted(const struct ud_event *ev, struct ud_count *out, size_t n)
{
	uint64_t ran = 0;
	int fake = 0;

	for (size_t i = 0; i < n; i++) {
		/*
		 * A reading this rule already flagged is evidence too: --exact
		 * merges one run per group, and a later group may hold no event
		 * that ticks with work.  (ud_count_scale only marks a counter
		 * not counted when it never ran, which is no evidence.)
		 */
		if (out[i].status == UD_NOT_SUPPORTED || !ev[i].hardware)
			continue;
		if (ev[i].ticks_with_work && out[i].raw == 0 && out[i].running_ns >= ZERO_READ_MIN_RUNNING_NS) {
			fake = 1;
			if (out[i].running_ns > ran)
				ran = out[i].running_ns;
		}
	}
	if (!fake)
		return;
	for (size_t i = 0; i < n; i++) {
		if (out[i].status != UD_COUNTED || !ev[i].hardware || out[i].raw != 0)
			continue;
		out[i].status = UD_NOT_COUNTED;
		snprintf(out[i].reason, sizeof(out[i].reason),
			 "read 0 over %.1f ms of running: the hypervisor accepts hardware events without counting them",
			 (double)ran / 1e6);
	}
}

int ud_counters_read(struct ud_counters *set, struct ud_count *out, struct ud_err *err)
{
	for (size_t i = 0; i < set->n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		if (set->c[i].fd >= 0)
			continue;
		out[i].status = UD_NOT_SUPPORTED;
		if (!set->ev[i].resolved)
			snprintf(out[i].reason, sizeof(out[i].reason), "%s", set->ev[i].reason);
		else
			open_reason(&set->ev[i], set->c[i].open_errno, out[i].reason, sizeof(out[i].reason));
	}
	for (size_t i = 0; i < set->n; i++) {
		int ret;

		if (set->c[i].fd < 0)
			continue;
		if (set->group_read && set->ev[i].group >= 0) {
			if (set->c[i].leader != (int)i)
				continue;
			ret = read_group(set, i, out, err);
		} else {
			ret = read_single(set, i, out, err);
		}
		if (ret)
			return ret;
	}
	ud_counts_flag_untrusted(set->ev, out, set->n);
	return 0;
}

void ud_counters_close(struct ud_counters *set)
{
	if (!set)
		return;
	close_all(set);
	free(set->c);
	free(set);
}
