#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sort.h"
#include "targets.h"

#define SYS_CPU "/sys/devices/system/cpu"
#define SYS_NODE "/sys/devices/system/node"

static int push(int **a, size_t *n, size_t *cap, int v)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		int *grown = realloc(*a, c * sizeof(*grown));

		if (!grown)
			return -1;
		*a = grown;
		*cap = c;
	}
	(*a)[(*n)++] = v;
	return 0;
}

/* "0-3,6" into ints, in the order written; max bounds each number. -1 for a malformed list. */
static int parse_ranges(const char *list, long max, int **out, size_t *n)
{
	size_t cap = 0;
	const char *p = list;

	*out = NULL;
	*n = 0;
	while (*p) {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		lo = hi = strtol(p, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				goto bad;
			hi = strtol(end + 1, &end, 10);
		}
		if (errno || lo > hi || hi > max || (*end && *end != ','))
			goto bad;
		for (long v = lo; v <= hi; v++)
			if (push(out, n, &cap, (int)v) != 0)
				goto bad;
		p = end + (*end == ',');
		if (*end == ',' && !*p)
			goto bad;
	}
	if (*n)
		return 0;
bad:
	free(*out);
	*out = NULL;
	return -1;
}

/* The online CPUs (/sys/devices/system/cpu/online), ascending. */
static int ud_online_cpus(int **cpus, size_t *n, struct ud_err *err)
{
	char buf[4096];
	FILE *f = fopen(SYS_CPU "/online", "re");
	char *ok = f ? fgets(buf, sizeof(buf), f) : NULL;

	if (f)
		fclose(f);
	if (!ok)
		return ud_fail(err, "%s/online: cannot read the online CPUs: %s", SYS_CPU, strerror(errno ? errno : EIO));
	buf[strcspn(buf, "\n")] = '\0';
	if (parse_ranges(buf, INT_MAX, cpus, n) != 0)
		return ud_fail(err, "%s/online: not a CPU list: '%s'", SYS_CPU, buf);
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * A CPU list ("0-3,6"), each CPU online, ascending and without repeats;
 * -1 with err for a malformed list or a CPU that is not online.
 */
static int ud_cpu_list_parse(const char *list, int **cpus, size_t *n, struct ud_err *err)
{
	int *online = NULL, *got = NULL;
	size_t non = 0, k = 0;

	if (parse_ranges(list, INT_MAX, &got, n) != 0)
		return ud_fail(err, "-C '%s': not a CPU list (such as 0-3,6)", list);
	if (ud_online_cpus(&online, &non, err) != 0) {
		free(got);
		return -1;
	}
	ud_sort(got, *n, sizeof(*got), cmp_int);
	for (size_t i = 0; i < *n; i++) {
		if (!ud_bsearch(&got[i], online, non, sizeof(*online), cmp_int)) {
			ud_fail(err, "-C '%s': CPU %d is not online", list, got[i]);
			free(got);
			free(online);
			return -1;
		}
		if (k == 0 || got[k - 1] != got[i])
			got[k++] = got[i];
	}
	free(online);
	*cpus = got;
	*n = k;
	return 0;
}

static int read_int(const char *path, int fallback)
{
	FILE *f = fopen(path, "re");
	int v = fallback;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = fallback;
		fclose(f);
	}
	return v;
}

/* The NUMA node whose cpulist holds cpu; 0 without NUMA in sysfs, as perf's cpu__get_node(). */
static int cpu_node(int cpu)
{
	DIR *d = opendir(SYS_NODE);
	struct dirent *e;
	int node = -1;

	while (d && node < 0 && (e = readdir(d))) {
		char path[300], buf[4096];
		int *cpus = NULL, id;
		size_t n = 0;
		FILE *f;

		if (sscanf(e->d_name, "node%d", &id) != 1)
			continue;
		snprintf(path, sizeof(path), SYS_NODE "/%s/cpulist", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			if (parse_ranges(buf, INT_MAX, &cpus, &n) == 0 && ud_bsearch(&cpu, cpus, n, sizeof(*cpus), cmp_int))
				node = id;
			free(cpus);
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return node < 0 ? 0 : node;
}

static void ud_cpu_place(int cpu, struct ud_cpu_place *p)
{
	char path[128];

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/physical_package_id", cpu);
	p->socket = read_int(path, 0);
	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/die_id", cpu);
	p->die = read_int(path, 0);
	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/core_id", cpu);
	p->core = read_int(path, 0);
	p->node = cpu_node(cpu);
}

/*
 * The ids of a process or thread list ("1234,1240"), each running, in the
 * order given; -1 with err for a malformed list or an id with no task.
 */
static int ud_task_list_parse(const char *list, pid_t **ids, size_t *n, struct ud_err *err)
{
	int *got = NULL;

	for (const char *p = list; *p; p++)
		if (*p == '-')
			return ud_fail(err, "'%s': a list of process or thread ids, such as 1234,1240", list);
	if (parse_ranges(list, INT_MAX, &got, n) != 0)
		return ud_fail(err, "'%s': a list of process or thread ids, such as 1234,1240", list);
	*ids = malloc(*n * sizeof(**ids));
	for (size_t i = 0; *ids && i < *n; i++) {
		char path[64];

		(*ids)[i] = (pid_t)got[i];
		snprintf(path, sizeof(path), "/proc/%d", got[i]);
		if (got[i] == 0 || access(path, F_OK) != 0) {
			ud_fail(err, "'%s': no process or thread %d is running", list, got[i]);
			free(got);
			free(*ids);
			*ids = NULL;
			return -1;
		}
	}
	free(got);
	return *ids ? 0 : ud_fail(err, "out of memory");
}

int ud_process_threads(const pid_t *pids, size_t n, pid_t **tids, size_t *ntids, struct ud_err *err)
{
	int *all = NULL;
	size_t k = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		char path[64];
		DIR *d;
		struct dirent *e;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pids[i]);
		if (!(d = opendir(path))) {
			free(all);
			return ud_fail(err, "%s: %s", path, strerror(errno));
		}
		while ((e = readdir(d)))
			if (isdigit((unsigned char)e->d_name[0]) && push(&all, &k, &cap, atoi(e->d_name)) != 0)
				break;
		closedir(d);
	}
	*tids = malloc((k ? k : 1) * sizeof(**tids));
	for (size_t i = 0; *tids && i < k; i++)
		(*tids)[i] = (pid_t)all[i];
	free(all);
	*ntids = k;
	return *tids ? 0 : ud_fail(err, "out of memory");
}

bool ud_task_alive(pid_t tid)
{
	char path[64], buf[512], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	if (!(f = fopen(path, "re")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) state ...": comm may hold spaces and parentheses, so the state follows the last ')'. */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

/* A thread's name (/proc/TID/comm) into buf; "?" once it has exited. */
static void ud_task_comm(pid_t tid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	f = fopen(path, "re");
	if (!f || !fgets(buf, (int)len, f))
		snprintf(buf, len, "?");
	else
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* The slots of a CPU target: every task on each CPU. */
static int cpu_slots(struct ud_stat_target *t)
{
	t->nslots = t->nids;
	t->slots = calloc(t->nslots, sizeof(*t->slots));
	for (size_t i = 0; t->slots && i < t->nslots; i++)
		t->slots[i] = (struct ud_count_slot){ .pid = -1, .cpu = t->ids[i] };
	return t->slots ? 0 : -1;
}

/* A slot for each of tids[0..n) on any CPU; takes over tids (freed). */
static int thread_slots(struct ud_stat_target *t, pid_t *tids, size_t n, struct ud_err *err)
{
	t->tasks = true;
	t->nslots = n;
	t->slots = calloc(n ? n : 1, sizeof(*t->slots));
	for (size_t i = 0; t->slots && i < n; i++)
		t->slots[i] = (struct ud_count_slot){ .pid = tids[i], .cpu = -1 };
	free(tids);
	return t->slots ? 0 : ud_fail(err, "out of memory");
}

/* The slots of a task target: each thread of the processes (-p), or the threads named (-t), on any CPU. */
static int task_slots(struct ud_stat_target *t, struct ud_err *err)
{
	pid_t *tids = NULL, *ids = malloc(t->nids * sizeof(*ids));
	size_t n = t->nids;

	for (size_t i = 0; ids && i < t->nids; i++)
		ids[i] = (pid_t)t->ids[i];
	if (!ids)
		return ud_fail(err, "out of memory");
	if (t->kind == UD_TARGET_PID) {
		if (ud_process_threads(ids, t->nids, &tids, &n, err) != 0) {
			free(ids);
			return -1;
		}
		free(ids);
	} else {
		tids = ids;
	}
	return thread_slots(t, tids, n, err);
}

/* Every thread running now: /proc/PID/task/TID; a process that exits while listed is left out. */
static int all_threads(pid_t **tids, size_t *n, struct ud_err *err)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int *all = NULL;
	size_t k = 0, cap = 0;

	if (!d)
		return ud_fail(err, "/proc: %s", strerror(errno));
	while ((e = readdir(d))) {
		char path[300];
		DIR *td;
		struct dirent *te;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", e->d_name);
		if (!(td = opendir(path)))
			continue;
		while ((te = readdir(td)))
			if (isdigit((unsigned char)te->d_name[0]) && push(&all, &k, &cap, atoi(te->d_name)) != 0)
				break;
		closedir(td);
	}
	closedir(d);
	*tids = malloc((k ? k : 1) * sizeof(**tids));
	for (size_t i = 0; *tids && i < k; i++)
		(*tids)[i] = (pid_t)all[i];
	free(all);
	*n = k;
	return *tids ? 0 : ud_fail(err, "out of memory");
}

/* The slots of -a --per-thread: every thread, on any CPU (perf's thread map of all tasks). */
static int all_thread_slots(struct ud_stat_target *t, struct ud_err *err)
{
	pid_t *tids = NULL;
	size_t n = 0;

	if (all_threads(&tids, &n, err) != 0)
		return -1;
	t->all_threads = true;
	return thread_slots(t, tids, n, err);
}

/* A CPU's core, die, socket or node label as perf's aggr_cpu_id prints it. */
static void place_label(int cpu, enum ud_aggr_mode mode, char *label, size_t len)
{
	struct ud_cpu_place p;

	ud_cpu_place(cpu, &p);
	if (mode == UD_AGGR_CORE)
		snprintf(label, len, "S%d-D%d-C%d", p.socket, p.die, p.core);
	else if (mode == UD_AGGR_DIE)
		snprintf(label, len, "S%d-D%d", p.socket, p.die);
	else if (mode == UD_AGGR_NODE)
		snprintf(label, len, "N%d", p.node);
	else
		snprintf(label, len, "S%d", p.socket);
}

/* The aggregate a slot falls in, made when it is the first of its kind. */
static size_t aggregate_of(struct ud_stat_target *t, enum ud_aggr_mode mode, size_t s)
{
	struct ud_aggregate a = { .number = 1 };

	if (mode == UD_AGGR_THREAD) {
		ud_task_comm(t->slots[s].pid, a.label, sizeof(a.label));
		a.number = (int)t->slots[s].pid;
	} else if (mode == UD_AGGR_CPU) {
		a.number = t->slots[s].cpu;
	} else {
		place_label(t->slots[s].cpu, mode, a.label, sizeof(a.label));
		for (size_t i = 0; i < t->naggr; i++) {
			if (strcmp(t->aggr[i].label, a.label) == 0) {
				t->aggr[i].number++;
				return i;
			}
		}
	}
	t->aggr[t->naggr] = a;
	return t->naggr++;
}

static int make_aggregates(struct ud_stat_target *t, enum ud_aggr_mode mode, struct ud_err *err)
{
	if (mode == UD_AGGR_WHOLE)
		return 0;
	if (mode == UD_AGGR_THREAD ? !t->tasks : (t->kind != UD_TARGET_SYSTEM_WIDE && t->kind != UD_TARGET_CPUS))
		return ud_fail(err, mode == UD_AGGR_THREAD
					    ? "--per-thread needs -a, -p or -t: threads to count"
					    : "-A, --per-core, --per-die, --per-socket and --per-node need -a or -C: CPUs to count");
	t->aggr_of = calloc(t->nslots, sizeof(*t->aggr_of));
	t->aggr = calloc(t->nslots, sizeof(*t->aggr));
	if (!t->aggr_of || !t->aggr)
		return ud_fail(err, "out of memory");
	for (size_t s = 0; s < t->nslots; s++)
		t->aggr_of[s] = aggregate_of(t, mode, s);
	return 0;
}

/* The target's ids: the online CPUs (-a), or -C's, -p's or -t's list. */
static int target_ids(struct ud_stat_target *t, const char *list, struct ud_err *err)
{
	pid_t *pids = NULL;

	if (t->kind == UD_TARGET_SYSTEM_WIDE)
		return ud_online_cpus(&t->ids, &t->nids, err);
	if (t->kind == UD_TARGET_CPUS)
		return ud_cpu_list_parse(list, &t->ids, &t->nids, err);
	if (ud_task_list_parse(list, &pids, &t->nids, err) != 0)
		return ud_err_prefix(err, "%s", t->kind == UD_TARGET_PID ? "-p" : "-t");
	t->ids = malloc(t->nids * sizeof(*t->ids));
	for (size_t i = 0; t->ids && i < t->nids; i++)
		t->ids[i] = (int)pids[i];
	free(pids);
	return t->ids ? 0 : ud_fail(err, "out of memory");
}

int ud_stat_target_make(enum ud_target_kind kind, const char *list, enum ud_aggr_mode mode, struct ud_stat_target *t,
			struct ud_err *err)
{
	static const char *const words[] = {
		[UD_TARGET_COMMAND] = "", [UD_TARGET_SYSTEM_WIDE] = "'system wide'", [UD_TARGET_CPUS] = "'CPU(s) %s'",
		[UD_TARGET_PID] = "process id '%s'", [UD_TARGET_TID] = "thread id '%s'",
	};
	int ret;

	memset(t, 0, sizeof(*t));
	t->kind = kind;
	snprintf(t->words, sizeof(t->words), words[kind], list ? list : "");
	if (kind == UD_TARGET_COMMAND) {
		if (mode != UD_AGGR_WHOLE)
			return make_aggregates(t, mode, err);
		return 0;
	}
	ret = target_ids(t, list, err);
	if (ret == 0 && kind == UD_TARGET_SYSTEM_WIDE && mode == UD_AGGR_THREAD)
		ret = all_thread_slots(t, err);
	else if (ret == 0)
		ret = kind == UD_TARGET_PID || kind == UD_TARGET_TID ? task_slots(t, err)
								     : (cpu_slots(t) == 0 ? 0 : ud_fail(err, "out of memory"));
	if (ret == 0)
		ret = make_aggregates(t, mode, err);
	if (ret != 0)
		ud_stat_target_free(t);
	return ret;
}

/* The kernel's comm: TASK_COMM_LEN (16) with its NUL. */
#define COMM_MAX 15

int ud_stat_target_add_command(struct ud_stat_target *t, const char *path, struct ud_err *err)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct ud_count_slot *slots = realloc(t->slots, (t->nslots + 1) * sizeof(*slots));
	size_t *aggr_of;
	struct ud_aggregate *aggr;

	if (slots)
		t->slots = slots;
	aggr_of = slots ? realloc(t->aggr_of, (t->nslots + 1) * sizeof(*aggr_of)) : NULL;
	if (aggr_of)
		t->aggr_of = aggr_of;
	aggr = aggr_of ? realloc(t->aggr, (t->naggr + 1) * sizeof(*aggr)) : NULL;
	if (!aggr)
		return ud_fail(err, "out of memory");
	t->aggr = aggr;
	/* no task until forked: perf_event_open refuses pid -1 with cpu -1, so nothing else is counted there */
	t->slots[t->nslots] = (struct ud_count_slot){ .pid = -1, .cpu = -1 };
	t->aggr_of[t->nslots] = t->naggr;
	t->aggr[t->naggr] = (struct ud_aggregate){ .number = -1 };
	/* exec names the task after the file run, cut to the kernel's length */
	snprintf(t->aggr[t->naggr].label, sizeof(t->aggr[t->naggr].label), "%.*s", COMM_MAX, base);
	t->command_slot = ++t->nslots;
	t->naggr++;
	return 0;
}

void ud_stat_target_set_command(struct ud_stat_target *t, pid_t pid)
{
	if (!t->command_slot)
		return;
	t->slots[t->command_slot - 1].pid = pid;
	t->aggr[t->aggr_of[t->command_slot - 1]].number = (int)pid;
}

void ud_stat_target_free(struct ud_stat_target *t)
{
	free(t->ids);
	free(t->slots);
	free(t->aggr_of);
	free(t->aggr);
	t->ids = NULL;
	t->slots = NULL;
	t->aggr_of = NULL;
	t->aggr = NULL;
}
