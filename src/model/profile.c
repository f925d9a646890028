/*
 * profile.c - the profile model: building it, reading counters from it,
 * freeing it.  Its JSON form is written by profile_write.c and read by
 * profile_read.c.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_id.h"
#include "profile.h"
#include "stat_record.h"
#include "stats.h"
#include "text.h"

static void ud_workload_clear(struct ud_workload *w);

struct ud_profile *ud_profile_new(struct ud_host *host)
{
	struct ud_profile *p = calloc(1, sizeof(*p));

	if (!p || !(host = host ? host : ud_host_new())) {
		ud_host_free(host);
		free(p);
		return NULL;
	}
	p->host = host;
	p->tool_version = strdup(UD_VERSION);
	return p;
}

static void counter_free(struct ud_counter *c)
{
	/* the name is the process's (intern_name()) */
	free(c->reason);
	free(c->vendor_event);
	free(c->semantics);
	free(c->opened_as);
	free(c->cgroup);
}

static void parts_free(struct ud_stat_part *parts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(parts[i].label);
		ud_workload_clear(&parts[i].w);
	}
	free(parts);
}

/* Here, not in stat_record.c: a workload frees its record, and the record its rows' workloads. */
void ud_stat_record_free(struct ud_stat_record *r)
{
	if (!r)
		return;
	free(r->invocation);
	free(r->target);
	for (size_t i = 0; i < r->ncolumns; i++)
		free(r->columns[i].unit);
	free(r->columns);
	parts_free(r->parts, r->nparts);
	for (size_t i = 0; i < r->nintervals; i++) {
		ud_workload_clear(&r->intervals[i].w);
		parts_free(r->intervals[i].parts, r->intervals[i].nparts);
	}
	free(r->intervals);
	free(r);
}

static void ud_workload_clear(struct ud_workload *w)
{
	free(w->name);
	free(w->units);
	free(w->command);
	free(w->perf_command.line);
	free(w->outcome);
	free(w->binary_path);
	free(w->build_id);
	free(w->score.samples);
	for (size_t i = 0; i < w->nsubscores; i++) {
		free(w->subscores[i].name);
		free(w->subscores[i].units);
	}
	free(w->subscores);
	for (size_t i = 0; i < w->ncounters; i++)
		counter_free(&w->counters[i]);
	free(w->counters);
	for (size_t i = 0; i < w->nperf_metrics; i++)
		free(w->perf_metrics[i].name);
	free(w->perf_metrics);
	if (w->noise) {
		ud_noise_clear(w->noise);
		free(w->noise);
	}
	ud_hotspots_free(w->hotspots);
	free(w->topdown);
	if (w->target)
		free(w->target->ids);
	free(w->target);
	ud_stat_record_free(w->stat_record);
}

/* 0, or -1 with err "WHERE: a KIND name of N bytes: ..." and *found set when name is over max. */
static int name_over(const char *name, size_t max, size_t w, const char *field, const char *kind, const char **found,
		     struct ud_err *err)
{
	size_t len = strlen(name);

	if (len <= max)
		return 0;
	if (found)
		*found = name;
	return ud_fail(err, "workloads[%zu].%s: %s name of %zu bytes: at most %zu are taken (it is repeated in every "
		       "sentence of a report)%s", w, field, kind, len, max,
		       strcmp(field, "name") == 0 ? ": give it a shorter name (import --workload NAME)" : "");
}

int ud_profile_check_names(const struct ud_profile *p, size_t from, const char **name, struct ud_err *err)
{
	for (size_t i = from; i < p->nworkloads; i++) {
		const struct ud_workload *w = &p->workloads[i];

		if (name_over(w->name, UD_WORKLOAD_NAME_MAX, i, "name", "a workload", name, err) != 0)
			return -1;
		for (size_t j = 0; j < w->nsubscores; j++)
			if (name_over(w->subscores[j].name, UD_WORKLOAD_NAME_MAX, i, "subscores", "a sub-score", name,
				      err) != 0)
				return -1;
		for (size_t j = 0; j < w->ncounters; j++)
			if (name_over(w->counters[j].name, UD_COUNTER_NAME_MAX, i, "counters", "an event", name, err) != 0)
				return -1;
		for (size_t j = 0; j < w->nperf_metrics; j++)
			if (name_over(w->perf_metrics[j].name, UD_COUNTER_NAME_MAX, i, "perf_metrics", "a metric", name,
				      err) != 0)
				return -1;
	}
	return 0;
}

void ud_profile_free(struct ud_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nworkloads; i++)
		ud_workload_clear(&p->workloads[i]);
	free(p->workloads);
	free(p->tool_version);
	ud_host_free(p->host);
	free(p);
}

/*
 * Room for element n of *array, elements of size bytes: 0, or -1 out of
 * memory.  Every workload, counter and perf metric is added through here, so the capacity
 * is the power of two at or above n: doubling keeps 100k imported workloads
 * linear (growing by one copied the array at every step).
 */
static int room_for(void **array, size_t n, size_t size)
{
	void *grown;

	if (n & (n - 1))
		return 0;
	grown = realloc(*array, (n ? 2 * n : 1) * size);
	if (!grown)
		return -1;
	*array = grown;
	return 0;
}

struct ud_workload *ud_profile_add_workload(struct ud_profile *p, const char *name)
{
	size_t n = p->nworkloads;
	struct ud_workload *w;

	if (room_for((void **)&p->workloads, n, sizeof(*w)) != 0)
		return NULL;
	w = &p->workloads[n];
	if (ud_workload_init(w, name) != 0)
		return NULL;
	p->nworkloads++;
	return w;
}

int ud_workload_init(struct ud_workload *w, const char *name)
{
	memset(w, 0, sizeof(*w));
	w->name = strdup(name);
	if (!w->name)
		return -1;
	w->higher_is_better = -1;
	w->score.median = w->score.min = w->score.max = w->score.ci95_rel = w->score.rel_stderr = NAN;
	w->work_units = w->elapsed_ns = w->user_ns = w->sys_ns = w->elapsed_rel_stddev = NAN;
	return 0;
}

struct ud_topdown *ud_workload_add_topdown(struct ud_workload *w, enum ud_topdown_method m,
					   enum ud_topdown_source s, const char *pmu)
{
	struct ud_topdown *grown = realloc(w->topdown, (w->ntopdown + 1) * sizeof(*grown));

	if (!grown)
		return NULL;
	w->topdown = grown;
	ud_topdown_init(&w->topdown[w->ntopdown], m, s, pmu);
	return &w->topdown[w->ntopdown++];
}

struct ud_noise *ud_workload_noise(struct ud_workload *w)
{
	if (w->noise)
		return w->noise;
	w->noise = malloc(sizeof(*w->noise));
	if (w->noise)
		ud_noise_init(w->noise);
	return w->noise;
}

void ud_noise_init(struct ud_noise *n)
{
	*n = (struct ud_noise){ .cpus_utilized_min = NAN, .steal_pct = NAN, .load_avg = NAN, .ci95_rel = NAN };
}

void ud_noise_clear(struct ud_noise *n)
{
	for (size_t i = 0; i < n->nwarnings; i++)
		free(n->warnings[i]);
	free(n->warnings);
	n->warnings = NULL;
	n->nwarnings = 0;
}

int ud_noise_add_warning(struct ud_noise *n, const char *text)
{
	char **grown = realloc(n->warnings, (n->nwarnings + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	n->warnings = grown;
	grown[n->nwarnings] = strdup(text);
	if (!grown[n->nwarnings])
		return -1;
	n->nwarnings++;
	return 0;
}

void ud_profile_drop_last_workload(struct ud_profile *p)
{
	if (p->nworkloads)
		ud_workload_clear(&p->workloads[--p->nworkloads]);
}

int ud_workload_add_subscore(struct ud_workload *w, const char *name, double value, const char *units)
{
	struct ud_subscore *grown = realloc(w->subscores, (w->nsubscores + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	w->subscores = grown;
	grown[w->nsubscores].name = strdup(name);
	grown[w->nsubscores].value = value;
	grown[w->nsubscores].units = units && *units ? strdup(units) : NULL;
	w->nsubscores++;
	return 0;
}

double ud_workload_perf_metric(const struct ud_workload *w, const char *name)
{
	for (size_t i = 0; i < w->nperf_metrics; i++)
		if (strcmp(w->perf_metrics[i].name, name) == 0)
			return w->perf_metrics[i].value;
	return NAN;
}

int ud_workload_add_perf_metric(struct ud_workload *w, const char *name, double value)
{
	struct ud_perf_metric *m;

	if (room_for((void **)&w->perf_metrics, w->nperf_metrics, sizeof(*m)) != 0)
		return -1;
	m = &w->perf_metrics[w->nperf_metrics];
	m->name = strdup(name);
	if (!m->name)
		return -1;
	m->value = value;
	w->nperf_metrics++;
	return 0;
}

/*
 * Counter names, each held once for the process: a fleet's 100,000
 * profiles name the same dozen counters two million times over, and a
 * copy of each name and its free were a tenth of compare's cycles (issue
 * 38).  An open-addressed table, grown at half full, under a lock since
 * profiles are read on threads; each thread first looks in its own few
 * slots of the names it met last, which need no lock.  A name stays until
 * the process ends, reachable from the table: a process that reads
 * profiles of ever new counter names keeps each of those names once.
 */
static struct {
	const char **slot; /* cap entries, NULL free */
	size_t cap, n;
	pthread_mutex_t lock;
} names = { NULL, 0, 0, PTHREAD_MUTEX_INITIALIZER };

#define NAMES_SEEN 64

static _Thread_local const char *names_seen[NAMES_SEEN];

static uint64_t name_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The table's entry for name, added where it has none; NULL out of memory.  Called under names.lock. */
static const char *names_find(const char *name, uint64_t h)
{
	size_t i;

	if (2 * (names.n + 1) > names.cap) {
		size_t cap = names.cap ? 2 * names.cap : 256;
		const char **slot = calloc(cap, sizeof(*slot));

		if (!slot)
			return NULL;
		for (size_t k = 0; k < names.cap; k++) {
			if (!names.slot[k])
				continue;
			for (i = name_hash(names.slot[k]) & (cap - 1); slot[i]; i = (i + 1) & (cap - 1))
				;
			slot[i] = names.slot[k];
		}
		free(names.slot);
		names.slot = slot;
		names.cap = cap;
	}
	for (i = h & (names.cap - 1); names.slot[i]; i = (i + 1) & (names.cap - 1))
		if (strcmp(names.slot[i], name) == 0)
			return names.slot[i];
	if (!(names.slot[i] = strdup(name)))
		return NULL;
	names.n++;
	return names.slot[i];
}

/* The process's one copy of name (borrowed: never freed); NULL out of memory. */
static const char *intern_name(const char *name)
{
	uint64_t h = name_hash(name);
	const char **seen = &names_seen[h % NAMES_SEEN], *got;

	if (*seen && strcmp(*seen, name) == 0)
		return *seen;
	pthread_mutex_lock(&names.lock);
	got = names_find(name, h);
	pthread_mutex_unlock(&names.lock);
	if (got)
		*seen = got;
	return got;
}

struct ud_counter *ud_workload_add_counter(struct ud_workload *w, const char *name)
{
	size_t n = w->ncounters;
	struct ud_counter *c;

	if (room_for((void **)&w->counters, n, sizeof(*c)) != 0)
		return NULL;
	c = &w->counters[n];
	memset(c, 0, sizeof(*c));
	c->name = intern_name(name);
	if (!c->name)
		return NULL;
	w->ncounters++;
	c->status = UD_NOT_SUPPORTED;
	c->cls = UD_CLASS_COUNT;
	c->mode = UD_COUNTING_COUNT;
	c->value = c->raw_value = c->enabled_ns = c->running_ns = c->running_pct = c->rel_stddev = NAN;
	c->group = -1;
	return c;
}

const struct ud_counter *ud_workload_counter(const struct ud_workload *w, const char *name)
{
	for (size_t i = 0; i < w->ncounters; i++)
		if (strcmp(w->counters[i].name, name) == 0)
			return &w->counters[i];
	return NULL;
}

double ud_counter_running_pct(const struct ud_counter *c)
{
	/* the share first: 100 * x / x of a mean over runs rounds to 100.00000000000001, past a share's 100 */
	if (!isnan(c->enabled_ns) && !isnan(c->running_ns) && c->enabled_ns > 0)
		return 100.0 * (c->running_ns / c->enabled_ns);
	return c->running_pct;
}

double ud_workload_value(const struct ud_workload *w, const char *name)
{
	const struct ud_counter *c = ud_workload_counter(w, name);

	return c && c->status == UD_COUNTED ? c->value : NAN;
}

const struct ud_counter *ud_workload_task_clock(const struct ud_workload *w)
{
	static const char name[] = "task-clock";

	for (size_t i = 0; i < w->ncounters; i++) {
		const char *n = w->counters[i].name;

		if (strncmp(n, name, sizeof(name) - 1) == 0 && (n[sizeof(name) - 1] == '\0' || n[sizeof(name) - 1] == ':'))
			return &w->counters[i];
	}
	return NULL;
}

double ud_workload_task_clock_ns(const struct ud_workload *w)
{
	const struct ud_counter *c = ud_workload_task_clock(w);

	return c && c->status == UD_COUNTED ? c->value : NAN;
}

void ud_counter_set_identity(struct ud_counter *c, enum ud_counter_class cls, enum ud_counting mode)
{
	c->cls = cls;
	c->mode = mode;
}

enum ud_counter_class ud_counter_class_of(const struct ud_counter *c)
{
	enum ud_counter_class cls;
	enum ud_counting mode;

	if (c->cls != UD_CLASS_COUNT)
		return c->cls;
	ud_event_classify_name(c->name, UD_ARCH_UNKNOWN, &cls, &mode);
	return cls;
}

enum ud_counting ud_counter_mode_of(const struct ud_counter *c)
{
	enum ud_counter_class cls;
	enum ud_counting mode;

	if (c->mode != UD_COUNTING_COUNT)
		return c->mode;
	ud_event_classify_name(c->name, UD_ARCH_UNKNOWN, &cls, &mode);
	return mode;
}

bool ud_counter_is_per_pmu(const struct ud_counter *c)
{
	const char *slash = strchr(c->name, '/');

	/* "cpu_core/cycles" names a core type; "cpu/event=0x3c/" (terms) and "msr/tsc" do not, as the class says */
	return slash && !strchr(slash, '=') && ud_counter_class_of(c) != UD_CLASS_UNCORE &&
	       ud_counter_class_of(c) != UD_CLASS_SOFTWARE;
}

/* The counter behind ud_workload_class_value() where one counter is it, else NULL (none, or a sum). Borrowed. */
static const struct ud_counter *ud_workload_class_counter(const struct ud_workload *w, enum ud_counter_class cls,
						   enum ud_counting m)
{
	for (size_t i = 0; i < w->ncounters; i++) {
		const struct ud_counter *c = &w->counters[i];

		if (c->status == UD_COUNTED && ud_counter_class_of(c) == cls && ud_counter_mode_of(c) == m &&
		    !ud_counter_is_per_pmu(c))
			return c;
	}
	return NULL;
}

double ud_workload_class_value(const struct ud_workload *w, enum ud_counter_class cls, enum ud_counting m)
{
	const struct ud_counter *c = ud_workload_class_counter(w, cls, m), *user, *kernel;

	if (c)
		return c->value;
	if (m != UD_COUNTING_ALL)
		return NAN;
	/* no count of every level: the user and kernel levels' together are one */
	user = ud_workload_class_counter(w, cls, UD_COUNTING_USER);
	kernel = user ? ud_workload_class_counter(w, cls, UD_COUNTING_KERNEL) : NULL;
	return kernel ? user->value + kernel->value : NAN;
}

/* The modes a domain is looked for in, widest first. */
static const enum ud_counting domain_order[] = { UD_COUNTING_ALL, UD_COUNTING_USER, UD_COUNTING_KERNEL,
						 UD_COUNTING_HOST, UD_COUNTING_GUEST };

enum ud_counting ud_workload_domain(const struct ud_workload *w)
{
	size_t n = sizeof(domain_order) / sizeof(domain_order[0]);

	for (size_t i = 0; i < n; i++)
		if (isfinite(ud_workload_class_value(w, UD_CLASS_CYCLES, domain_order[i])) &&
		    isfinite(ud_workload_class_value(w, UD_CLASS_INSTRUCTIONS, domain_order[i])))
			return domain_order[i];
	for (size_t i = 0; i < n; i++)
		if (isfinite(ud_workload_class_value(w, UD_CLASS_CYCLES, domain_order[i])) ||
		    isfinite(ud_workload_class_value(w, UD_CLASS_INSTRUCTIONS, domain_order[i])))
			return domain_order[i];
	return UD_COUNTING_COUNT;
}

double ud_workload_domain_value(const struct ud_workload *w, enum ud_counter_class cls)
{
	enum ud_counting d = ud_workload_domain(w);

	return d == UD_COUNTING_COUNT ? NAN : ud_workload_class_value(w, cls, d);
}

int ud_score_set_samples(struct ud_score *s, const double *samples, size_t n)
{
	double *copy = malloc((n ? n : 1) * sizeof(*copy));

	if (!copy)
		return -1;
	memcpy(copy, samples, n * sizeof(*copy));
	free(s->samples);
	s->samples = copy;
	s->nsamples = n;
	s->median = ud_median(samples, n);
	s->min = ud_min(samples, n);
	s->max = ud_max(samples, n);
	/* the score is the median: its interval, distribution-free */
	s->ci95_rel = ud_ci95_median_rel(samples, n);
	return 0;
}

static const char *const target_kinds[] = {
	[UD_TARGET_COMMAND] = "command",
	[UD_TARGET_SYSTEM_WIDE] = "system-wide",
	[UD_TARGET_CPUS] = "cpus",
	[UD_TARGET_PID] = "pid",
	[UD_TARGET_TID] = "tid",
};

const char *ud_target_kind_name(enum ud_target_kind kind)
{
	return target_kinds[kind];
}

int ud_target_kind_parse(const char *s, enum ud_target_kind *kind)
{
	for (size_t i = 0; i < sizeof(target_kinds) / sizeof(target_kinds[0]); i++) {
		if (strcmp(s, target_kinds[i]) == 0) {
			*kind = (enum ud_target_kind)i;
			return 0;
		}
	}
	return -1;
}

struct ud_target *ud_workload_set_target(struct ud_workload *w, enum ud_target_kind kind, const int *ids, size_t n)
{
	struct ud_target *t = w->target ? w->target : calloc(1, sizeof(*t));
	int *copy = n ? malloc(n * sizeof(*copy)) : NULL;

	if (!t || (n && !copy)) {
		if (t != w->target)
			free(t);
		free(copy);
		return NULL;
	}
	if (n)
		memcpy(copy, ids, n * sizeof(*copy));
	free(t->ids);
	t->kind = kind;
	t->ids = copy;
	t->nids = n;
	w->target = t;
	return t;
}

bool ud_workload_counts_own_work(const struct ud_workload *w)
{
	return !w->target || w->target->kind == UD_TARGET_COMMAND;
}

bool ud_workload_counted_hardware(const struct ud_workload *w)
{
	for (size_t i = 0; i < w->ncounters; i++)
		if (w->counters[i].status == UD_COUNTED && ud_counter_class_is_core(ud_counter_class_of(&w->counters[i])))
			return true;
	return false;
}

/* The first of p's cycles or instructions counters that says why it did not count, or NULL. */
static const struct ud_counter *refusal(const struct ud_profile *p)
{
	for (size_t i = 0; i < p->nworkloads; i++) {
		const struct ud_workload *w = &p->workloads[i];

		for (size_t k = 0; k < w->ncounters; k++) {
			const struct ud_counter *c = &w->counters[k];

			if (c->reason && c->status != UD_COUNTED && (ud_counter_class_of(c) == UD_CLASS_CYCLES ||
								     ud_counter_class_of(c) == UD_CLASS_INSTRUCTIONS))
				return c;
		}
	}
	return NULL;
}

const char *ud_profile_no_pmu_reason(const struct ud_profile *p, char *buf, size_t len)
{
	static const char lead[] = "no hardware PMU on this host: ";
	const char *reason, *pmu, *at;
	const struct ud_counter *c;
	size_t counters = 0;

	for (size_t i = 0; i < p->nworkloads; i++) {
		if (ud_workload_counted_hardware(&p->workloads[i]))
			return NULL;
		counters += p->workloads[i].ncounters;
	}
	if (!counters)
		return NULL;
	pmu = p->host->pmu;
	/* a host with a PMU whose events were refused (paranoid, a busy PMU) says why in the counters */
	reason = pmu && strcmp(pmu, "available") != 0 ? p->host->pmu_reason : NULL;
	c = reason ? NULL : refusal(p);
	if (c && !strstr(c->reason, lead)) {
		snprintf(buf, len, "%s: %s", c->name, c->reason); /* "cycles: perf printed <not supported>" */
		return buf;
	}
	reason = c ? c->reason : reason ? reason : "no workload in the profile counted a hardware event";
	at = strstr(reason, lead);
	snprintf(buf, len, "%s", at ? at + sizeof(lead) - 1 : reason);
	return buf;
}

char *ud_pmu_banner(const char *where, const char *reason)
{
	return ud_printf_new("no hardware PMU %s: times and software counters only, because %s; to count cycles and "
			     "misses: bare metal, or a VM with a virtual PMU: QEMU/KVM '-cpu host,pmu=on', libvirt "
			     "\"<pmu state='on'/>\", cloud shapes that expose one",
			     where, reason);
}
