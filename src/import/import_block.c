/*
 * import_block.c - one block of counter rows summed into one profile
 * workload (import_block.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "event_id.h"
#include "import_block.h"
#include "import_event_name.h"
#include "import_number.h"
#include "import_perf_command.h"
#include "import_topdown.h"
#include "unixbench_score.h"

void imp_acc_init(struct acc *a)
{
	memset(a, 0, sizeof(*a));
	a->elapsed_ns = a->user_ns = a->sys_ns = a->elapsed_rel_stddev = NAN;
	a->last = -1;
}

void imp_acc_interval(struct acc *a, double seconds)
{
	if (a->intervals && seconds == a->interval_s)
		return;
	a->interval_s = seconds;
	a->intervals++;
}

/* Digits in a timestamp read exactly without strtod(): 10^15 < 2^53, so the digits are one exact double. */
#define STAMP_EXACT_DIGITS 15

/*
 * A timestamp's seconds as strtod() reads them: "1.001234567" is digits a
 * double holds exactly divided by an exact power of ten, one correctly
 * rounded division, as strtod() rounds; strtod() itself costs a thousand
 * instructions, once an interval.  Anything else goes to strtod().
 */
static double stamp_seconds(const char *text, size_t n)
{
	struct decimal d = { 0, 0 };
	size_t i = 0, digits = 0;
	bool point = false;

	for (; i < n && digits <= STAMP_EXACT_DIGITS; i++) {
		if (text[i] == '.' && !point) {
			point = true;
			continue;
		}
		if ((unsigned char)(text[i] - '0') >= 10)
			break;
		d.mant = d.mant * 10 + (uint64_t)(text[i] - '0');
		d.frac += point;
		digits++;
	}
	if (i == n && digits && digits <= STAMP_EXACT_DIGITS && text[n - 1] != '.' && text[0] != '.')
		return imp_decimal_value(d, 0);
	return strtod(text, NULL);
}

void imp_acc_interval_text(struct acc *a, const char *text, size_t n)
{
	if (a->stamp_len && n == a->stamp_len && memcmp(text, a->stamp, n) == 0)
		return;
	imp_acc_interval(a, stamp_seconds(text, n));
	/* one too long to keep is read every time, as it came */
	a->stamp_len = n < sizeof(a->stamp) ? n : 0;
	memcpy(a->stamp, text, a->stamp_len);
}

void imp_acc_free(struct acc *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->c[i].cgroup);
		free(a->c[i].name);
		free(a->c[i].printed);
	}
	free(a->c);
	free(a->command);
	free(a->perf_command.line);
	free(a->scores);
	for (size_t i = 0; i < a->nmetrics; i++)
		free(a->metrics[i].name);
	free(a->metrics);
	json_decref(a->index);
	imp_acc_init(a);
}

bool imp_acc_empty(const struct acc *a)
{
	return a->n == 0 && a->nscores == 0 && a->nmetrics == 0;
}

int imp_acc_set_counter_metric(struct acc *a, const char *event, const char *metric, double value)
{
	char group[sizeof(a->metric_pmu)];
	int ret;

	memcpy(group, a->metric_pmu, sizeof(group));
	if (!imp_core_pmu_of(event, a->metric_pmu, sizeof(a->metric_pmu)))
		memcpy(a->metric_pmu, group, sizeof(group));
	ret = imp_acc_set_metric(a, metric, value);
	memcpy(a->metric_pmu, group, sizeof(group));
	return ret;
}

void imp_acc_metric_group(struct acc *a, const char *label)
{
	if (!imp_group_pmu_of(label, a->metric_pmu, sizeof(a->metric_pmu)))
		a->metric_pmu[0] = '\0';
}

/* The longest key a printed spelling is indexed under ("p" + the spelling + NUL). */
#define ACC_PRINTED_KEY 512

/* The counter indexed under key, or NULL. */
static struct acc_counter *acc_find(const struct acc *a, const char *key)
{
	const json_t *i = json_object_get(a->index, key);

	return i ? &a->c[json_integer_value(i)] : NULL;
}

static int acc_index(struct acc *a, const char *key, size_t i)
{
	/* nocheck: an event or metric name is whatever bytes perf printed */
	return json_object_set_new_nocheck(a->index, key, json_integer((json_int_t)i));
}

int imp_acc_set_metric(struct acc *a, const char *metric, double value)
{
	struct acc_metric *grown;
	size_t len = strlen(a->metric_pmu) + strlen(metric) + 3;
	char *key = malloc(len);
	const json_t *at;
	int ret = -1;

	if (!key)
		return -1;
	/* "m" + the name: as long as it is, so two long names differing at their end stay two */
	snprintf(key, len, "m%s%s%s", a->metric_pmu, a->metric_pmu[0] ? "/" : "", metric);
	if (!a->index && !(a->index = json_object()))
		goto out;
	/* perf repeats each metric per interval: the last value stands, found through the index */
	if ((at = json_object_get(a->index, key)) != NULL) {
		a->metrics[json_integer_value(at)].value = value;
		ret = 0;
		goto out;
	}
	if (a->nmetrics == a->metrics_cap) {
		size_t cap = a->metrics_cap ? 2 * a->metrics_cap : 16;

		if (!(grown = realloc(a->metrics, cap * sizeof(*grown))))
			goto out;
		a->metrics = grown;
		a->metrics_cap = cap;
	}
	if (!(a->metrics[a->nmetrics].name = strdup(key + 1)))
		goto out;
	if (acc_index(a, key, a->nmetrics) != 0) {
		free(a->metrics[a->nmetrics].name);
		goto out;
	}
	a->metrics[a->nmetrics++].value = value;
	ret = 0;
out:
	free(key);
	return ret;
}

/* "n" + name + "/" + pmu, and the cgroup after a unit separator: a new string the caller frees, NULL out of memory. */
static char *name_key(const char *name, const char *pmu, const char *cgroup)
{
	size_t len = strlen(name) + strlen(pmu) + (cgroup ? strlen(cgroup) + 1 : 0) + 3;
	char *key = malloc(len);

	if (key)
		snprintf(key, len, "n%s/%s%s%s", name, pmu, cgroup ? "\x1f" : "", cgroup ? cgroup : "");
	return key;
}

/* A new counter of event (normalised to name, on pmu) in cgroup (NULL none), indexed under key and spelling. */
static struct acc_counter *acc_new(struct acc *a, const char *event, const char *name, const char *pmu,
				   const char *cgroup, const char *key, const char *spelling)
{
	struct acc_counter *c;

	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		struct acc_counter *grown = realloc(a->c, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		a->c = grown;
		a->cap = cap;
	}
	c = &a->c[a->n];
	memset(c, 0, sizeof(*c));
	if ((cgroup && !(c->cgroup = strdup(cgroup))) || !(c->name = strdup(name)) || !(c->printed = strdup(event)) ||
	    acc_index(a, key, a->n) != 0 || (spelling && acc_index(a, spelling, a->n) != 0)) {
		free(c->cgroup);
		free(c->name);
		free(c->printed);
		return NULL;
	}
	a->n++;
	snprintf(c->pmu, sizeof(c->pmu), "%s", pmu);
	c->rel_stddev = NAN;
	return c;
}

static bool same_cgroup(const char *x, const char *y)
{
	return x == y || (x && y && strcmp(x, y) == 0);
}

/*
 * The counter first printed as event in cgroup, where it is the one after
 * the last row's (or that one again): an interval or per-CPU file prints
 * its events in the same order each time, so a row mostly needs no hash
 * lookup.  The index would find the same one: a spelling is indexed only
 * to the counter that it created.
 */
static struct acc_counter *same_spelling(const struct acc *a, const char *event, const char *cgroup)
{
	size_t next = a->last < 0 ? 0 : ((size_t)a->last + 1) % a->n;

	for (size_t k = 0, i = next; k < 2 && a->n; k++, i = (size_t)a->last) {
		if (strcmp(a->c[i].printed, event) == 0 &&
		    same_cgroup(a->c[i].cgroup, cgroup))
			return &a->c[i];
		if (a->last < 0)
			break;
	}
	return NULL;
}

/* The counter of event's rows in cgroup (NULL none), added where it is the first; NULL out of memory. */
static struct acc_counter *acc_counter_of(struct acc *a, const char *event, const char *cgroup, bool *added)
{
	char pmu[ACC_PMU_LEN] = "", spelling[ACC_PRINTED_KEY], *name, *key;
	size_t len = strlen(event), cg = cgroup ? strlen(cgroup) + 1 : 0;
	/* a spelling too long for its key ("p", the spelling, the cgroup after a separator) is looked up by its name */
	bool keyed = len + cg + 2 <= sizeof(spelling);
	struct acc_counter *c;

	*added = false;
	if (!a->index && !(a->index = json_object()))
		return NULL;
	/* Interval and per-CPU files repeat each spelling thousands of times: the spelling is looked up first. */
	if ((c = same_spelling(a, event, cgroup)) != NULL)
		return c;
	if (keyed) {
		spelling[0] = 'p';
		memcpy(spelling + 1, event, len);
		if (cgroup) {
			spelling[1 + len] = '\x1f';
			memcpy(spelling + 2 + len, cgroup, cg - 1);
		}
		spelling[1 + len + cg] = '\0';
		if ((c = acc_find(a, spelling)) != NULL)
			return c;
	}
	if (!imp_core_pmu_of(event, pmu, sizeof(pmu)))
		pmu[0] = '\0';
	name = imp_event_name_new(event);
	key = name ? name_key(name, pmu, cgroup) : NULL;
	if (key && !(c = acc_find(a, key))) {
		c = acc_new(a, event, name, pmu, cgroup, key, keyed ? spelling : NULL);
		*added = c != NULL;
	}
	free(key);
	free(name);
	return c;
}

int imp_acc_add(struct acc *a, const char *event, enum ud_count_status status, double value, double pct,
	    double rel_stddev, bool part)
{
	return imp_acc_add_in(a, event, NULL, status, value, pct, rel_stddev, part);
}

int imp_acc_add_in(struct acc *a, const char *event, const char *cgroup, enum ud_count_status status, double value,
		   double pct, double rel_stddev, bool part)
{
	bool added;
	struct acc_counter *c = acc_counter_of(a, event, cgroup && *cgroup ? cgroup : NULL, &added);

	if (!c)
		return -1;
	if (added)
		c->status = status;
	/* Rows of one event (per CPU, per interval) add up; whole counts repeated are averaged (add_counters) */
	c->repeated = c->repeated || (!part && c->rows > 0);
	if (status == UD_COUNTED) {
		c->value += value;
		c->sumsq += value * value;
		c->counted++;
		if (c->status != UD_COUNTED && c->rows == 0)
			c->status = UD_COUNTED;
	} else if (c->status == UD_COUNTED && c->rows == 0) {
		c->status = status;
	}
	if (!isnan(pct)) {
		c->pct_sum += pct;
		c->pct_rows++;
	}
	if (!isnan(rel_stddev))
		c->rel_stddev = rel_stddev;
	c->rows++;
	a->last = (int)(c - a->c);
	return 0;
}

int imp_check_running_pct(double pct, struct ud_err *err)
{
	if (isnan(pct) || (pct >= 0 && pct <= 100))
		return 0;
	return ud_fail(err, "running share %g%%: a share must be within 0..100", pct);
}

static int imp_acc_add_score(struct acc *a, double value, double timebase, const char *units)
{
	struct acc_score *grown = realloc(a->scores, (a->nscores + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	a->scores = grown;
	grown[a->nscores] = (struct acc_score){ .value = value, .timebase = timebase, .time_s = NAN };
	snprintf(grown[a->nscores++].units, sizeof(grown->units), "%s", units ? units : "");
	return 0;
}

/* "TIME|2.0" after a COUNT line: the seconds Run divides that line's total by. */
static int take_time_line(struct acc *a, const char *line)
{
	double t;

	if (!a->nscores || imp_parse_field_number(line + 5, 0, &t, NULL) != 0 || !(t >= 0))
		return 0;
	a->scores[a->nscores - 1].time_s = t;
	return 1;
}

int imp_acc_take_count_line(struct acc *a, const char *line, struct ud_err *err)
{
	const char *v, *units, *tb;
	char field[64];
	double value, timebase = 0;
	size_t n;

	/* asked of every row of a long file: most start with neither */
	if (*line != 'T' && *line != 'C')
		return 0;
	if (strncmp(line, "TIME|", 5) == 0)
		return take_time_line(a, line);
	if (strncmp(line, "COUNT|", 6) != 0)
		return 0;
	v = line + 6;
	n = strcspn(v, "|");
	if (n == 0 || n >= sizeof(field) || v[n] != '|')
		return ud_fail(err, "malformed UnixBench COUNT line");
	snprintf(field, sizeof(field), "%.*s", (int)n, v);
	/* printf's %ld and %.3f, never grouped: whetstone's "COUNT|984.123|0|MWIPS" is 984.123, not 984,123 */
	if (imp_parse_field_number(field, 0, &value, err) != 0)
		return -1;
	units = strrchr(line, '|') + 1;
	tb = v + n + 1;
	/* COUNT|total|timebase|units: a timebase that is not a whole number leaves no way to score the total */
	if (tb != units) {
		snprintf(field, sizeof(field), "%.*s", (int)(units - 1 - tb), tb);
		if (imp_parse_field_number(field, 0, &timebase, NULL) != 0 || !(timebase >= 0))
			return ud_fail(err, "UnixBench COUNT line: timebase '%s' is not a number of seconds", field);
	}
	if (imp_acc_add_score(a, value, timebase, units) != 0)
		return ud_fail(err, "out of memory");
	return 1;
}

int imp_acc_take_perf_command(struct acc *a, const char *line, struct ud_err *err)
{
	struct ud_perf_command c;
	int repeat;

	if (!imp_perf_command_of(line, &c, &repeat))
		return 0;
	if (!c.line)
		return ud_fail(err, "out of memory");
	free(a->perf_command.line);
	a->perf_command = c;
	a->perf_repeat = repeat;
	return 1;
}

static bool lower_is_better(const char *units)
{
	static const char *const times[] = { "s", "sec", "secs", "seconds", "ms", "msec", "us", "usec", "ns" };

	for (size_t i = 0; units && i < sizeof(times) / sizeof(times[0]); i++)
		if (strcmp(units, times[i]) == 0)
			return true;
	return false;
}

json_t *imp_names_taken(const struct ud_profile *p)
{
	json_t *taken = json_object();

	for (size_t i = 0; taken && i < p->nworkloads; i++) {
		if (imp_name_take(taken, p->workloads[i].name) != 0) {
			json_decref(taken);
			return NULL;
		}
	}
	return taken;
}

int imp_name_take(json_t *taken, const char *name)
{
	/* nocheck: a name is any bytes perf printed, not necessarily UTF-8 */
	return json_object_get(taken, name) ? 0 : json_object_set_new_nocheck(taken, name, json_integer(2));
}

/*
 * base, or base#K with the lowest K free.  Each taken name holds the next K
 * to try for it, so a run of blocks of one command costs O(1) each rather
 * than a scan of every name per candidate.
 */
static char *unique_name(json_t *taken, const char *base)
{
	json_t *next = json_object_get(taken, base);
	char *name = malloc(strlen(base) + 24);
	json_int_t k;

	if (!name)
		return NULL;
	strcpy(name, base);
	if (next) {
		for (k = json_integer_value(next);; k++) {
			sprintf(name, "%s#%lld", base, (long long)k);
			if (!json_object_get(taken, name))
				break;
		}
		json_integer_set(next, k + 1);
	}
	if (imp_name_take(taken, name) != 0) {
		free(name);
		return NULL;
	}
	return name;
}

char *imp_unique_name(json_t *taken, const char *base)
{
	return unique_name(taken, base);
}

bool imp_units_lower_is_better(const char *units)
{
	return lower_is_better(units);
}

/* The core PMUs of the block when there are two or more (a hybrid CPU), in order of appearance; else 0. */
static size_t hybrid_pmus(const struct acc *a, const char *pmus[], size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++) {
		bool seen = !a->c[i].pmu[0];

		for (size_t k = 0; k < n && !seen; k++)
			seen = strcmp(pmus[k], a->c[i].pmu) == 0;
		if (!seen && n < max)
			pmus[n++] = a->c[i].pmu;
	}
	return n >= 2 ? n : 0;
}

/* "hybrid": true and "core_pmus": [...] in the host, so host and diff output can say so. */
static int mark_hybrid(struct ud_profile *p, const char *pmus[], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ud_host_add_core_pmu(p->host, pmus[i]) != 0)
			return -1;
	p->host->hybrid = true;
	return 0;
}

/* A second row of a name already there (a PMU prefix dropped on a non-hybrid host) adds to it. */
static void merge_counter(struct ud_counter *c, const struct acc_counter *s)
{
	if (s->status == UD_COUNTED)
		c->value = c->status == UD_COUNTED ? c->value + s->value : s->value;
	if (s->status == UD_COUNTED && c->status != UD_COUNTED) {
		c->status = UD_COUNTED;
		free(c->reason);
		c->reason = NULL;
	}
}

/* Fewer intervals than this give no spread worth a test (a mean and one deviation). */
#define INTERVALS_FOR_SPREAD 3

/*
 * A counter printed once in each of -I's intervals: the standard error of
 * its per-interval mean relative to that mean (the total's, as the
 * intervals add up to it), perf's "+-" kind (struct ud_counter's
 * rel_stddev); NAN where it was printed otherwise (per CPU) or too few.
 */
static double interval_spread(const struct acc *a, const struct acc_counter *s)
{
	double n = s->rows, mean = s->value / n, var;

	if (a->intervals < INTERVALS_FOR_SPREAD || s->rows != a->intervals || s->status != UD_COUNTED || !(mean > 0))
		return NAN;
	var = (s->sumsq - n * mean * mean) / (n - 1);
	return sqrt(var > 0 ? var : 0) / sqrt(n) / mean;
}

/*
 * What counter c counts, read from the spelling perf printed (its PMU
 * says an uncore count, where the profile's name drops the PMU) on a host
 * of arch, and its mode from its name in the profile (which --all-user and
 * --all-kernel set).
 */
static void set_identity(struct ud_counter *c, const char *printed, enum ud_event_arch arch)
{
	struct ud_event_id id, named;

	ud_event_id_parse(printed, &id);
	ud_event_id_classify(&id, arch);
	ud_event_id_parse(c->name, &named);
	ud_counter_set_identity(c, id.cls, named.mode);
}

/* The room a "#K" after a counter's name takes ("#" and an int's digits). */
#define REPEAT_ROOM 12

/*
 * name as the counting names an event counted again, in another cgroup
 * ("task-clock#2", cgroups.c): the lowest K >= 2 not yet in added.  name
 * has REPEAT_ROOM bytes spare after its end (counter_name_new()).
 */
static void number_repeat(const json_t *added, char *name)
{
	size_t base = strlen(name);

	for (int k = 2; json_object_get(added, name); k++)
		snprintf(name + base, REPEAT_ROOM, "#%d", k);
}

/*
 * The profile's name of s: its core PMU first on a hybrid host, named
 * with --all-user's or --all-kernel's mode (*renamed then true).  A new
 * string of its own length and REPEAT_ROOM spare (caller frees), NULL out
 * of memory.
 */
static char *counter_name_new(const struct acc_counter *s, bool hybrid, char mode, bool *renamed)
{
	/* imp_counting_mode_name() adds at most a colon and the mode's letter */
	size_t event_len = strlen(s->name) + 3, len = strlen(s->pmu) + 1 + event_len + REPEAT_ROOM;
	char *event = malloc(event_len), *name = malloc(len);

	*renamed = event && mode && imp_counting_mode_name(s->name, mode, event, event_len);
	if (name)
		snprintf(name, len, "%s%s%s", hybrid ? s->pmu : "", hybrid && s->pmu[0] ? "/" : "",
			 *renamed ? event : s->name);
	if (!event) {
		free(name);
		name = NULL;
	}
	free(event);
	return name;
}

static int add_counters(const struct acc *a, struct ud_workload *w, bool hybrid, enum ud_event_arch arch,
			struct ud_err *err)
{
	json_t *added = json_object(); /* name -> index in w->counters: one lookup a row, not a scan */
	char mode = a->perf_command.all_user ? 'u' : a->perf_command.all_kernel ? 'k' : 0;
	int ret = added ? 0 : -1;

	for (size_t i = 0; i < a->n && ret == 0; i++) {
		const struct acc_counter *s = &a->c[i];
		bool renamed;
		char *name = counter_name_new(s, hybrid, mode, &renamed);
		const json_t *k = name ? json_object_get(added, name) : NULL;
		struct ud_counter *c;

		if (k && same_cgroup(w->counters[json_integer_value(k)].cgroup, s->cgroup)) {
			/* cycles:u and cycles:k under --all-user both counted user mode: one count, not two to add */
			if (!renamed)
				merge_counter(&w->counters[json_integer_value(k)], s);
			free(name);
			continue;
		}
		if (k)
			number_repeat(added, name);
		c = name ? ud_workload_add_counter(w, name) : NULL;
		if (!c || json_object_set_new_nocheck(added, name, json_integer((json_int_t)(w->ncounters - 1))) != 0) {
			free(name);
			ret = -1;
			break;
		}
		free(name);
		set_identity(c, s->printed, arch);
		if (s->cgroup && !(c->cgroup = strdup(s->cgroup))) {
			ret = -1;
			break;
		}
		c->status = s->status;
		c->value = s->status != UD_COUNTED ? NAN : s->repeated ? s->value / s->counted : s->value;
		if (s->pct_rows)
			c->running_pct = s->pct_sum / s->pct_rows;
		c->rel_stddev = isnan(s->rel_stddev) ? interval_spread(a, s) : s->rel_stddev;
		if (s->status != UD_COUNTED)
			c->reason = strdup(s->status == UD_NOT_COUNTED ? "perf printed <not counted>"
								      : "perf printed <not supported>");
	}
	json_decref(added);
	if (ret != 0)
		return ud_fail(err, "out of memory");
	for (size_t i = 0; i < a->nmetrics; i++)
		if (ud_workload_add_perf_metric(w, a->metrics[i].name, a->metrics[i].value) != 0)
			return ud_fail(err, "out of memory");
	return 0;
}

/*
 * The score of COUNT line i, as UnixBench's Run scores it: over its own
 * TIME line's seconds where the program printed one, else over the block's
 * elapsed time.  Under -r N perf prints only the mean elapsed time (each
 * run's own only with --table), so every run's line is divided by that
 * mean: the samples spread as the runs' totals do, and the elapsed time's
 * own spread stays in elapsed_rel_stddev.
 */
static double count_rate(const struct acc *a, size_t i)
{
	const struct acc_score *c = &a->scores[i];

	return ud_unixbench_rate(c->value, c->timebase, isnan(c->time_s) ? a->elapsed_ns / 1e9 : c->time_s);
}

/* COUNT lines per run: k where the block's runs (-r N, N >= 2) printed N x k of them, else all of them in one run. */
static size_t lines_per_run(const struct acc *a, int runs)
{
	if (runs < 2 || a->nscores % (size_t)runs != 0)
		return a->nscores;
	return a->nscores / (size_t)runs;
}

/*
 * The COUNT lines as the score: each run's last line one sample, its
 * earlier lines sub-scores ("COUNT 1", ...: the mean over the runs of that
 * line); the work per run the scored line's total, where it is one (a
 * timebase above 0; a rate tells no total).  A rate that cannot be computed
 * (a total without a time) leaves the score unknown.
 */
static int set_count_score(const struct acc *a, struct ud_workload *w, int runs)
{
	size_t k = lines_per_run(a, runs), nruns = a->nscores / k;
	const struct acc_score *last = &a->scores[a->nscores - 1];
	double *samples = malloc(nruns * sizeof(*samples)), total = 0;
	bool known = true;
	int ret = samples ? 0 : -1;

	for (size_t j = 0; ret == 0 && j + 1 < k; j++) {
		char sub[32];
		double sum = 0;

		for (size_t r = 0; r < nruns; r++)
			sum += count_rate(a, r * k + j);
		snprintf(sub, sizeof(sub), "COUNT %zu", j + 1);
		ret = ud_workload_add_subscore(w, sub, sum / (double)nruns, a->scores[j].units);
	}
	for (size_t r = 0; ret == 0 && r < nruns; r++) {
		samples[r] = count_rate(a, r * k + k - 1);
		total += a->scores[r * k + k - 1].value;
		known = known && isfinite(samples[r]);
	}
	if (ret == 0 && known)
		ret = ud_score_set_samples(&w->score, samples, nruns);
	if (ret == 0 && last->timebase > 0)
		w->work_units = total / (double)nruns;
	w->units = strdup(last->units);
	free(samples);
	return ret == 0 && w->units ? 0 : -1;
}

/* o's scores, else the COUNT lines, else the elapsed time; -1 out of memory. */
static int set_score(const struct acc *a, struct ud_workload *w, const struct ud_import_opts *o)
{
	double elapsed_s = a->elapsed_ns / 1e9;
	int ret = 0;

	if (o->nscores) {
		w->units = o->score_units ? strdup(o->score_units) : NULL;
		ret = ud_score_set_samples(&w->score, o->scores, o->nscores);
	} else if (a->nscores) {
		ret = set_count_score(a, w, w->runs);
	} else if (!isnan(a->elapsed_ns)) {
		/* Like `stat`: the score of a counted command is its time. */
		w->units = strdup("s");
		w->work_units = 1;
		ret = ud_score_set_samples(&w->score, &elapsed_s, 1);
		/* under -r N, perf's mean of N runs and its standard error: a summary, for the diff to test as one */
		w->score.rel_stderr = a->elapsed_rel_stddev;
		w->score.runs = w->runs > 1 ? w->runs : 0;
	} else {
		return 0;
	}
	w->higher_is_better = !lower_is_better(w->units);
	return ret;
}

/*
 * What the block's PMU names say of the host's instruction set where its
 * facts do not: Arm's and Apple's core PMUs (armv8_pmuv3_0, armv8_cortex_a76,
 * apple_icestorm_pmu) are aarch64, Intel's hybrid core types x86_64, POWER's
 * PM_ events ppc64 (the byte order unsaid).  A stated or read ISA stands.
 */
static int isa_from_pmus(const struct acc *a, struct ud_host *h)
{
	for (size_t i = 0; !h->cpu.isa && i < a->n; i++) {
		const char *pmu = a->c[i].pmu, *printed = a->c[i].printed;
		const char *isa = strncmp(pmu, "armv8_", 6) == 0 || strncmp(pmu, "armv9_", 6) == 0 ||
						  strncmp(pmu, "apple_", 6) == 0
					  ? "aarch64"
				  : strcmp(pmu, "cpu_core") == 0 || strcmp(pmu, "cpu_atom") == 0 ? "x86_64"
				  : strncasecmp(printed, "PM_", 3) == 0                            ? "ppc64"
												   : NULL;

		if (isa && ud_host_set_string(&h->cpu.isa, isa) != 0)
			return -1;
	}
	return 0;
}

/* A spread needs two runs: a block that prints "+-" without its "(N runs)" header ran at least this many. */
#define RUNS_FOR_A_SPREAD 2

/* Whether perf printed "( +- x% )" anywhere in the block (on the elapsed time or a counter), which only -r N prints. */
static bool spread_printed(const struct acc *a)
{
	if (!isnan(a->elapsed_rel_stddev))
		return true;
	for (size_t i = 0; i < a->n; i++)
		if (!isnan(a->c[i].rel_stddev))
			return true;
	return false;
}

int imp_acc_to_workload(struct acc *a, struct ud_profile *p, const struct ud_import_opts *o, const char *fallback,
		    json_t *taken, struct ud_err *err)
{
	const char *base = o->workload ? o->workload : a->command ? a->command : fallback;
	const char *pmus[8];
	size_t npmus = hybrid_pmus(a, pmus, sizeof(pmus) / sizeof(pmus[0]));
	char *name = unique_name(taken, base);
	struct ud_workload *w = name ? ud_profile_add_workload(p, name) : NULL;

	free(name);
	if (!w)
		return ud_fail(err, "out of memory");
	w->command = a->command ? strdup(a->command) : NULL;
	w->runs = a->runs ? a->runs : a->perf_repeat ? a->perf_repeat : o->runs;
	w->runs_at_least = w->runs ? 0 : spread_printed(a) ? RUNS_FOR_A_SPREAD : 0;
	/* -I's last timestamp is when the count ended, where no elapsed line says it */
	w->elapsed_ns = isnan(a->elapsed_ns) && a->intervals ? a->interval_s * 1e9 : a->elapsed_ns;
	w->elapsed_rel_stddev = a->elapsed_rel_stddev;
	w->user_ns = a->user_ns;
	w->sys_ns = a->sys_ns;
	if (isa_from_pmus(a, p->host) != 0)
		return ud_fail(err, "out of memory");
	if (add_counters(a, w, npmus > 0, ud_event_arch_of(p->host->cpu.vendor, p->host->cpu.isa), err) != 0 ||
	    imp_topdown(w, err) != 0)
		return -1;
	if (npmus && mark_hybrid(p, pmus, npmus) != 0)
		return ud_fail(err, "out of memory");
	if (set_score(a, w, o) != 0)
		return ud_fail(err, "out of memory");
	w->perf_command = a->perf_command;
	a->perf_command = (struct ud_perf_command){ 0 }; /* the workload owns the line now */
	return 0;
}
