#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counting.h"

/* Below this much running time a 0 reading may be honest. */
#define ZERO_READ_MIN_RUNNING_NS 1000000ULL

/* One event at one slot. */
struct counter {
	int fd;        /* -1 when not opened */
	int leader;    /* index of the group leader's counter (itself if leader) */
	bool in_group; /* opened as a member of its group, not on its own */
	uint64_t id;   /* PERF_EVENT_IOC_ID, to match group reads */
	int open_errno;
};

struct ud_counters {
	const struct ud_event *ev;
	size_t n;
	struct ud_count_slot *slots;
	size_t nslots;
	struct counter *c; /* n x nslots, event-major: c[i * nslots + s] */
	bool *apart;       /* n: event i opens on its own, its weak group refused whole */
	int group_read;    /* PERF_FORMAT_GROUP in use */
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

/* Opens and closes a task-clock counter of this process; 0, or the errno it was refused with. */
static int try_task_clock(bool exclude_kernel)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.disabled = 1;
	attr.exclude_kernel = exclude_kernel;
	attr.exclude_hv = exclude_kernel;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

bool ud_counting_user_only(void)
{
	static int known = -1;

	if (known < 0) {
		int err = try_task_clock(false);

		known = (err == EACCES || err == EPERM) && try_task_clock(true) == 0;
	}
	return known;
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
		/* kernel/events/core.c, perf_cgroup_connect(): a group's members must watch one cgroup */
		if (ev->cgroup && ev->group >= 0) {
			snprintf(reason, len, "the kernel refused it in cgroup '%s': a group's events must share one "
					      "cgroup (%s)", ev->cgroup, strerror(err));
			return;
		}
		if (ev->filter)
			snprintf(reason, len, "the kernel rejected the event or its --filter '%s' (%s)", ev->filter,
				 strerror(err));
		else
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

/* Whether event i opens in its group: not when its weak group was refused whole. */
static bool grouped(const struct ud_counters *set, size_t i)
{
	return set->ev[i].group >= 0 && !set->apart[i];
}

/* The counter of event i at slot s. */
static struct counter *at(struct ud_counters *set, size_t i, size_t s)
{
	return &set->c[i * set->nslots + s];
}

static int open_one(struct ud_counters *set, size_t i, size_t s, int group_fd)
{
	struct perf_event_attr attr = set->ev[i].attr;
	const struct ud_count_slot *slot = &set->slots[s];
	int is_leader = group_fd < 0;
	long fd;

	attr.size = sizeof(attr);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	if (set->group_read && grouped(set, i))
		attr.read_format |= PERF_FORMAT_GROUP;
	attr.inherit = !!(set->open_flags & UD_COUNT_INHERIT);
	/* Members follow their leader: only the leader is held disabled, or pinned (D) to the PMU. */
	attr.disabled = is_leader;
	attr.pinned = is_leader && set->ev[i].attr.pinned;
	attr.exclusive = is_leader && set->ev[i].attr.exclusive;
	attr.enable_on_exec = is_leader && (set->open_flags & UD_COUNT_ENABLE_ON_EXEC);
	/* -G, --for-each-cgroup: the cgroup's directory stands for the pid, at a CPU (perf_event_open(2)) */
	if (set->ev[i].cgroup)
		fd = sys_perf_event_open(&attr, set->ev[i].cgroup_fd, slot->cpu, group_fd,
					 PERF_FLAG_FD_CLOEXEC | PERF_FLAG_PID_CGROUP);
	else
		fd = sys_perf_event_open(&attr, slot->pid, slot->cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* unfiltered, it would count what the filter was asked to leave out */
	if (set->ev[i].filter && ioctl((int)fd, PERF_EVENT_IOC_SET_FILTER, set->ev[i].filter) != 0) {
		int why = errno;

		close((int)fd);
		return -why;
	}
	at(set, i, s)->fd = (int)fd;
	if (ioctl((int)fd, PERF_EVENT_IOC_ID, &at(set, i, s)->id) != 0)
		at(set, i, s)->id = 0;
	return 0;
}

static void close_all(struct ud_counters *set)
{
	for (size_t k = 0; k < set->n * set->nslots; k++) {
		if (set->c[k].fd >= 0)
			close(set->c[k].fd);
		set->c[k].fd = -1;
	}
}

/* The opened leader of event i's group at slot s, as a counter index; -1 when none yet. */
static int leader_of(struct ud_counters *set, size_t i, size_t s)
{
	const struct ud_event *ev = &set->ev[i];

	for (size_t j = 0; grouped(set, i) && j < i; j++) {
		size_t k = j * set->nslots + s;

		if (grouped(set, j) && set->ev[j].group == ev->group && set->c[k].fd >= 0 && set->c[k].leader == (int)k)
			return (int)k;
	}
	return -1;
}

/*
 * A member of a weak group ({a,b}:W) the kernel refuses in the group, as
 * perf's weak-group test does (builtin-stat.c: EINVAL or EBADF, where the
 * group could not be scheduled or mixes what cannot be): the whole group,
 * at every slot, is to be opened apart.
 */
static bool weak_refused(struct ud_counters *set, size_t i, int leader, int ret)
{
	const struct ud_event *ev = &set->ev[i];

	if (!(ret == -EINVAL || ret == -EBADF) || leader < 0 || ev->request_group < 0 || !ev->weak_group)
		return false;
	for (size_t j = 0; j < set->n; j++)
		if (set->ev[j].group == ev->group)
			set->apart[j] = true;
	return true;
}

/* Returns -EINVAL when the group read format itself was refused, -EAGAIN when a weak group must open apart. */
static int open_at(struct ud_counters *set, size_t s)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct ud_event *ev = &set->ev[i];
		size_t k = i * set->nslots + s;
		int leader, ret;

		if (!ev->resolved || ev->tool)
			continue;
		/* The first opened earlier member of the same group leads it. */
		leader = leader_of(set, i, s);
		ret = open_one(set, i, s, leader >= 0 ? set->c[leader].fd : -1);
		if (weak_refused(set, i, leader, ret))
			return -EAGAIN;
		if (ret == -EINVAL && leader >= 0 && ev->request_group < 0) {
			/*
			 * On x86 the kernel refuses a member that would make a
			 * planned group unschedulable: count it on its own
			 * instead.  A group the user asked for stays whole.
			 */
			leader = -1;
			ret = open_one(set, i, s, -1);
		}
		if (ret == -EINVAL && set->group_read && leader < 0 && (set->open_flags & UD_COUNT_INHERIT))
			return -EINVAL;
		set->c[k].open_errno = -ret;
		set->c[k].in_group = leader >= 0;
		set->c[k].leader = leader >= 0 ? leader : (int)k;
	}
	return 0;
}

/*
 * Opens every slot; a weak group refused whole closes everything opened and
 * starts again with that group apart (the kernel reads a group one way at
 * every slot).  Each retry sets one more group apart, so it ends.
 */
static int open_all(struct ud_counters *set)
{
	int ret;

	do {
		for (size_t k = 0; k < set->n * set->nslots; k++) {
			set->c[k].fd = -1;
			set->c[k].leader = (int)k;
			set->c[k].open_errno = 0;
			set->c[k].in_group = false;
		}
		ret = 0;
		for (size_t s = 0; s < set->nslots && ret == 0; s++)
			ret = open_at(set, s);
		if (ret == -EAGAIN)
			close_all(set);
	} while (ret == -EAGAIN);
	return ret;
}

/* The descriptors a process holds besides its counters: stdio, the command's pipes, the sampler, -o's file. */
#define FD_SPARE 64

int ud_counters_make_room(size_t n, struct ud_err *err)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)n + FD_SPARE;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return ud_fail(err, "getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
	if (rl.rlim_cur == RLIM_INFINITY || want <= rl.rlim_cur)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || want <= rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
			return 0;
	}
	return ud_fail(err,
		       "%zu counters need %llu open files, and the limit is %llu (hard %llu): raise it (ulimit -n), "
		       "or count fewer events or threads",
		       n, (unsigned long long)want, (unsigned long long)rl.rlim_cur,
		       (unsigned long long)rl.rlim_max);
}

struct ud_counters *ud_counters_open(const struct ud_event *ev, size_t n, pid_t pid, unsigned flags)
{
	struct ud_count_slot slot = { .pid = pid, .cpu = -1 };

	return ud_counters_open_slots(ev, n, &slot, 1, flags);
}

struct ud_counters *ud_counters_open_slots(const struct ud_event *ev, size_t n, const struct ud_count_slot *slots,
					   size_t nslots, unsigned flags)
{
	struct ud_counters *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	set->c = calloc(n && nslots ? n * nslots : 1, sizeof(*set->c));
	set->slots = calloc(nslots ? nslots : 1, sizeof(*set->slots));
	set->apart = calloc(n ? n : 1, sizeof(*set->apart));
	if (!set->c || !set->slots || !set->apart) {
		free(set->c);
		free(set->slots);
		free(set->apart);
		free(set);
		return NULL;
	}
	memcpy(set->slots, slots, nslots * sizeof(*slots));
	set->ev = ev;
	set->n = n;
	set->nslots = nslots;
	set->open_flags = (int)flags;
	set->group_read = 1;
	if (open_all(set) == -EINVAL) {
		/* inherit with PERF_FORMAT_GROUP: older kernels refuse it. */
		close_all(set);
		set->group_read = 0;
		open_all(set);
	}
	return set;
}

int ud_counting_check_filter(const struct ud_event *ev, struct ud_err *err)
{
	struct perf_event_attr attr = ev->attr;
	long fd;
	int ret = 0;

	attr.size = sizeof(attr);
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return 0; /* counting says why it cannot open the event */
	if (ioctl((int)fd, PERF_EVENT_IOC_SET_FILTER, ev->filter) != 0)
		ret = ud_fail(err, "--filter '%s': the kernel refused it for %s (%s): a tracepoint's fields are in "
				   "its format file, /sys/kernel/tracing/events/SUBSYSTEM/NAME/format",
			      ev->filter, ev->name, strerror(errno));
	close((int)fd);
	return ret;
}

size_t ud_counters_opened(const struct ud_counters *set)
{
	size_t k = 0;

	for (size_t i = 0; i < set->n * set->nslots; i++)
		k += set->c[i].fd >= 0;
	return k;
}

static int ioctl_leaders(struct ud_counters *set, unsigned long req, const char *what, struct ud_err *err)
{
	for (size_t k = 0; k < set->n * set->nslots; k++) {
		if (set->c[k].fd < 0 || set->c[k].leader != (int)k)
			continue;
		if (ioctl(set->c[k].fd, req, PERF_IOC_FLAG_GROUP) != 0)
			return ud_fail(err, "cannot %s counter '%s': %s", what, set->ev[k / set->nslots].name,
				       strerror(errno));
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

int ud_counters_switch_event(struct ud_counters *set, size_t i, bool on, struct ud_err *err)
{
	unsigned long req = on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE;

	for (size_t s = 0; s < set->nslots; s++) {
		int fd = set->c[i * set->nslots + s].fd;

		if (fd >= 0 && ioctl(fd, req, 0) != 0)
			return ud_fail(err, "cannot %s counter '%s': %s", on ? "enable" : "disable", set->ev[i].name,
				       strerror(errno));
	}
	return 0;
}

int ud_counters_reset(struct ud_counters *set, struct ud_err *err)
{
	return ioctl_leaders(set, PERF_EVENT_IOC_RESET, "reset", err);
}

static int group_size(const struct ud_counters *set, size_t leader)
{
	int k = 0;

	for (size_t i = 0; i < set->n * set->nslots; i++)
		k += set->c[i].fd >= 0 && set->c[i].leader == (int)leader;
	return k;
}

/*
 * A pinned (D) group that lost its counters to another pinned user is put
 * in an error state by the kernel, and its read returns 0 bytes
 * (perf_event_open(2), "pinned").
 */
static void pinned_lost(struct ud_count *c)
{
	c->status = UD_NOT_COUNTED;
	snprintf(c->reason, sizeof(c->reason), "pinned (D), and it lost its counter to another pinned event");
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
	if (got == 0) {
		for (size_t i = 0; i < set->n * set->nslots; i++)
			if (set->c[i].fd >= 0 && set->c[i].leader == (int)leader)
				pinned_lost(&out[i]);
	} else if (got < (ssize_t)(3 * sizeof(*buf))) {
		free(buf);
		return ud_fail(err, "cannot read counter group '%s': %s", set->ev[leader / set->nslots].name,
			       got < 0 ? strerror(errno) : "short read");
	}
	for (uint64_t k = 0; got > 0 && k < buf[0] && k < (uint64_t)members; k++) {
		uint64_t value = buf[3 + 2 * k], id = buf[4 + 2 * k];

		for (size_t i = 0; i < set->n * set->nslots; i++)
			if (set->c[i].fd >= 0 && set->c[i].leader == (int)leader && set->c[i].id == id)
				ud_count_scale(&out[i], value, buf[1], buf[2]);
	}
	free(buf);
	return 0;
}

static int read_single(struct ud_counters *set, size_t k, struct ud_count *out, struct ud_err *err)
{
	uint64_t buf[4]; /* value, time_enabled, time_running, id */
	ssize_t got = read(set->c[k].fd, buf, sizeof(buf));

	if (got == 0) {
		pinned_lost(&out[k]);
		return 0;
	}
	if (got < (ssize_t)(3 * sizeof(uint64_t)))
		return ud_fail(err, "cannot read counter '%s': %s", set->ev[k / set->nslots].name,
			       got < 0 ? strerror(errno) : "short read");
	ud_count_scale(&out[k], buf[0], buf[1], buf[2]);
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

/* What a counter that opened nothing reads: refused, or a tool event waiting for its duration. */
static void unopened(const struct ud_counters *set, size_t k, struct ud_count *c)
{
	const struct ud_event *ev = &set->ev[k / set->nslots];

	c->status = ev->tool ? UD_NOT_COUNTED : UD_NOT_SUPPORTED;
	if (ev->tool)
		snprintf(c->reason, sizeof(c->reason), "no time was given to this tool event");
	else if (!ev->resolved)
		snprintf(c->reason, sizeof(c->reason), "%s", ev->reason);
	else
		open_reason(ev, set->c[k].open_errno, c->reason, sizeof(c->reason));
}

/* The zero-reading rule, slot by slot: each slot's events are one set of readings. */
static void flag_slots(const struct ud_counters *set, struct ud_count *out)
{
	struct ud_count *one = set->nslots > 1 ? calloc(set->n ? set->n : 1, sizeof(*one)) : NULL;

	if (set->nslots == 1) {
		ud_counts_flag_untrusted(set->ev, out, set->n);
		return;
	}
	for (size_t s = 0; one && s < set->nslots; s++) {
		for (size_t i = 0; i < set->n; i++)
			one[i] = out[i * set->nslots + s];
		ud_counts_flag_untrusted(set->ev, one, set->n);
		for (size_t i = 0; i < set->n; i++)
			out[i * set->nslots + s] = one[i];
	}
	free(one);
}

/* A cgroup's counter that never ran (-G): no task of that cgroup ran there, which is what perf's <not counted> then means. */
static void cgroup_reasons(const struct ud_counters *set, struct ud_count *out)
{
	for (size_t k = 0; k < set->n * set->nslots; k++) {
		const struct ud_event *ev = &set->ev[k / set->nslots];

		if (ev->cgroup && set->c[k].fd >= 0 && out[k].status == UD_NOT_COUNTED && out[k].enabled_ns == 0)
			snprintf(out[k].reason, sizeof(out[k].reason),
				 "no task of cgroup '%s' ran on the counted CPUs while the counter was enabled", ev->cgroup);
	}
}

int ud_counters_read_slots(struct ud_counters *set, struct ud_count *out, struct ud_err *err)
{
	size_t total = set->n * set->nslots;

	for (size_t k = 0; k < total; k++) {
		memset(&out[k], 0, sizeof(out[k]));
		if (set->c[k].fd < 0)
			unopened(set, k, &out[k]);
	}
	for (size_t k = 0; k < total; k++) {
		int ret;

		if (set->c[k].fd < 0)
			continue;
		if (set->group_read && grouped(set, k / set->nslots)) {
			if (set->c[k].leader != (int)k)
				continue;
			ret = read_group(set, k, out, err);
		} else {
			ret = read_single(set, k, out, err);
		}
		if (ret)
			return ret;
	}
	flag_slots(set, out);
	cgroup_reasons(set, out);
	return 0;
}

int ud_counters_read(struct ud_counters *set, struct ud_count *out, struct ud_err *err)
{
	struct ud_count *slots;
	size_t *of;
	int ret;

	if (set->nslots == 1)
		return ud_counters_read_slots(set, out, err);
	slots = calloc(set->n ? set->n * set->nslots : 1, sizeof(*slots));
	of = calloc(set->nslots, sizeof(*of));
	if (!slots || !of) {
		free(slots);
		free(of);
		return ud_fail(err, "out of memory");
	}
	ret = ud_counters_read_slots(set, slots, err);
	if (ret == 0) {
		ud_counts_aggregate(slots, set->n, set->nslots, of, 1, out);
		ud_counts_flag_untrusted(set->ev, out, set->n);
	}
	free(slots);
	free(of);
	return ret;
}

void ud_counts_aggregate(const struct ud_count *in, size_t n, size_t nslots, const size_t *of, size_t naggr,
			 struct ud_count *out)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t a = 0; a < naggr; a++) {
			uint64_t raw = 0, enabled = 0, running = 0;
			const struct ud_count *first = NULL;
			bool counted = false;

			for (size_t s = 0; s < nslots; s++) {
				const struct ud_count *c = &in[i * nslots + s];

				if (of[s] != a)
					continue;
				first = first ? first : c;
				counted |= c->status == UD_COUNTED;
				raw += c->raw;
				enabled += c->enabled_ns;
				running += c->running_ns;
			}
			if (!first)
				continue;
			if (counted)
				ud_count_scale(&out[i * naggr + a], raw, enabled, running);
			else
				out[i * naggr + a] = *first;
		}
	}
}

void ud_counts_delta(const struct ud_count *now, const struct ud_count *before, size_t n, struct ud_count *out)
{
	for (size_t i = 0; i < n; i++) {
		/*
		 * Refused, never run, pinned out, or zeros the zero-reading rule
		 * gave away: what the whole says, the part says too.
		 */
		if (now[i].status != UD_COUNTED) {
			out[i] = now[i];
			continue;
		}
		ud_count_scale(&out[i], now[i].raw - before[i].raw, now[i].enabled_ns - before[i].enabled_ns,
			       now[i].running_ns - before[i].running_ns);
	}
}

/* A tool event's reading: a time known exactly, counted all along (a 0 is a true 0: rusage's ticks). */
static void set_time(struct ud_count *c, uint64_t ns)
{
	memset(c, 0, sizeof(*c));
	c->status = UD_COUNTED;
	c->raw = c->enabled_ns = c->running_ns = ns;
	c->value = (double)ns;
}

void ud_counts_set_tools(const struct ud_event *ev, struct ud_count *out, size_t n, const struct ud_tool_times *t)
{
	for (size_t i = 0; i < n; i++) {
		switch (ev[i].tool) {
		case UD_TOOL_NONE:
			break;
		case UD_TOOL_DURATION:
			ud_count_scale(&out[i], t->elapsed_ns, t->elapsed_ns, t->elapsed_ns);
			break;
		case UD_TOOL_USER:
		case UD_TOOL_SYSTEM:
			if (t->no_rusage) {
				memset(&out[i], 0, sizeof(out[i]));
				out[i].status = UD_NOT_COUNTED;
				snprintf(out[i].reason, sizeof(out[i].reason), "%s", t->no_rusage);
			} else {
				set_time(&out[i], ev[i].tool == UD_TOOL_USER ? t->user_ns : t->sys_ns);
			}
			break;
		}
	}
}

void ud_counters_close(struct ud_counters *set)
{
	if (!set)
		return;
	close_all(set);
	free(set->c);
	free(set->slots);
	free(set->apart);
	free(set);
}
