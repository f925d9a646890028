/*
 * profile_json.c - the profile's JSON form (SPEC §3): written with the
 * derived metrics computed at that moment, read back with every field
 * checked.  The model itself is profile.c's; this file only translates.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "derived.h"
#include "fileio.h"
#include "json_doc.h"
#include "json_emit.h"
#include "event_id.h"
#include "outfile.h"
#include "profile.h"
#include "stat_record.h"
#include "topdown_json.h"

/* More threads than this only contend for memory bandwidth. */
#define UD_LOAD_THREADS_MAX 16

/* ---- writing ---- */

static void counter_emit(struct ud_jw *jw, const struct ud_counter *c)
{
	ud_jw_object(jw, c->name);
	ud_jw_string(jw, "class", ud_counter_class_name(ud_counter_class_of(c)));
	ud_jw_string(jw, "mode", ud_counting_name(ud_counter_mode_of(c)));
	ud_jw_string(jw, "status", ud_count_status_name(c->status));
	if (c->status == UD_COUNTED)
		ud_jw_number(jw, "value", c->value);
	else
		ud_jw_null(jw, "value");
	if (!isnan(c->raw_value))
		ud_jw_number(jw, "raw_value", c->raw_value);
	if (!isnan(c->enabled_ns))
		ud_jw_number(jw, "enabled_ns", c->enabled_ns);
	if (!isnan(c->running_ns))
		ud_jw_number(jw, "running_ns", c->running_ns);
	if (!isnan(ud_counter_running_pct(c)))
		ud_jw_real(jw, "running_pct", ud_counter_running_pct(c));
	if (!isnan(c->rel_stddev))
		ud_jw_real(jw, "rel_stddev", c->rel_stddev);
	if (c->reason)
		ud_jw_string(jw, "reason", c->reason);
	if (c->vendor_event)
		ud_jw_string(jw, "vendor_event", c->vendor_event);
	if (c->semantics)
		ud_jw_string(jw, "semantics", c->semantics);
	if (c->opened_as)
		ud_jw_string(jw, "opened_as", c->opened_as);
	if (c->group >= 0)
		ud_jw_integer(jw, "group", c->group);
	if (c->cgroup)
		ud_jw_string(jw, "cgroup", c->cgroup);
	ud_jw_end(jw);
}

static void counters_emit(struct ud_jw *jw, const char *key, const struct ud_workload *w)
{
	ud_jw_object(jw, key);
	for (size_t i = 0; i < w->ncounters; i++)
		counter_emit(jw, &w->counters[i]);
	ud_jw_end(jw);
}

static void score_emit(struct ud_jw *jw, const struct ud_score *s)
{
	if (isnan(s->median)) {
		ud_jw_null(jw, "score");
		return;
	}
	ud_jw_object(jw, "score");
	ud_jw_number(jw, "median", s->median);
	ud_jw_number(jw, "min", s->min);
	ud_jw_number(jw, "max", s->max);
	ud_jw_array(jw, "samples");
	for (size_t i = 0; i < s->nsamples; i++)
		ud_jw_number(jw, NULL, s->samples[i]);
	ud_jw_end(jw);
	ud_jw_number(jw, "ci95_rel", s->ci95_rel);
	if (!isnan(s->rel_stderr))
		ud_jw_real(jw, "rel_stderr", s->rel_stderr);
	if (s->runs > 0)
		ud_jw_integer(jw, "runs", s->runs);
	ud_jw_end(jw);
}

/* The event of a counter named "PMU/event" when PMU is pmu, else NULL. */
static const char *event_of_pmu(const char *name, const char *pmu)
{
	size_t plen = strlen(pmu);

	return strncmp(name, pmu, plen) == 0 && name[plen] == '/' ? name + plen + 1 : NULL;
}

/* Whether w has a counter of the core PMU pmu. */
static bool has_pmu_counter(const struct ud_workload *w, const char *pmu)
{
	for (size_t i = 0; i < w->ncounters; i++)
		if (event_of_pmu(w->counters[i].name, pmu))
			return true;
	return false;
}

/* The derived metrics of one core type: its "PMU/event" counters seen under their plain names. */
static void pmu_derived_emit(struct ud_jw *jw, const struct ud_workload *w, const char *pmu)
{
	struct ud_workload view = *w;
	size_t n = 0;

	view.counters = calloc(w->ncounters ? w->ncounters : 1, sizeof(*view.counters));
	if (!view.counters) {
		ud_jw_null(jw, pmu); /* out of memory: no metrics, as when they cannot be computed */
		return;
	}
	for (size_t i = 0; i < w->ncounters; i++) {
		const char *event = event_of_pmu(w->counters[i].name, pmu);

		if (event) {
			view.counters[n] = w->counters[i];
			view.counters[n++].name = (char *)event; /* a view: nothing is freed through it */
		}
	}
	view.ncounters = n;
	ud_derived_emit(jw, pmu, &view);
	free(view.counters);
}

/* "derived_per_pmu": {PMU: derived} for each core PMU of a hybrid host this workload has counters of; absent if none. */
static void derived_per_pmu_emit(struct ud_jw *jw, const struct ud_workload *w, const struct ud_host *host)
{
	bool open = false;

	for (size_t i = 0; i < host->ncore_pmus; i++) {
		if (!has_pmu_counter(w, host->core_pmus[i]))
			continue;
		if (!open)
			ud_jw_object(jw, "derived_per_pmu");
		open = true;
		pmu_derived_emit(jw, w, host->core_pmus[i]);
	}
	if (open)
		ud_jw_end(jw);
}

void ud_noise_emit(struct ud_jw *jw, const char *key, const struct ud_noise *n)
{
	ud_jw_object(jw, key);
	ud_jw_number(jw, "cpus_utilized_min", n->cpus_utilized_min);
	ud_jw_number(jw, "steal_pct", n->steal_pct);
	ud_jw_number(jw, "load_avg", n->load_avg);
	ud_jw_number(jw, "ci95_rel", n->ci95_rel);
	ud_jw_integer(jw, "samples_taken", n->samples_taken);
	ud_jw_array(jw, "warnings");
	for (size_t i = 0; i < n->nwarnings; i++)
		ud_jw_string(jw, NULL, n->warnings[i]);
	ud_jw_end(jw);
	ud_jw_end(jw);
}

/* The workload's identity: what ran, how, with what outcome. */
static void workload_head_emit(struct ud_jw *jw, const struct ud_workload *w)
{
	ud_jw_string(jw, "name", w->name);
	ud_jw_string(jw, "units", w->units);
	if (w->higher_is_better < 0)
		ud_jw_null(jw, "higher_is_better");
	else
		ud_jw_bool(jw, "higher_is_better", w->higher_is_better);
	if (w->command)
		ud_jw_string(jw, "command", w->command);
	if (w->perf_command.line) {
		ud_jw_object(jw, "perf_command");
		ud_jw_string(jw, "line", w->perf_command.line);
		ud_jw_bool(jw, "all_user", w->perf_command.all_user);
		ud_jw_bool(jw, "all_kernel", w->perf_command.all_kernel);
		ud_jw_bool(jw, "system_wide", w->perf_command.system_wide);
		ud_jw_end(jw);
	}
	if (w->runs > 0)
		ud_jw_integer(jw, "runs", w->runs);
	else if (w->runs_at_least > 0)
		ud_jw_integer(jw, "runs_at_least", w->runs_at_least);
	if (w->composite)
		ud_jw_bool(jw, "composite", true);
	if (w->outcome)
		ud_jw_string(jw, "outcome", w->outcome);
	if (w->binary_path || w->build_id) {
		ud_jw_object(jw, "binary");
		ud_jw_string(jw, "path", w->binary_path);
		ud_jw_string(jw, "build_id", w->build_id);
		ud_jw_end(jw);
	}
}

/* The key a target's ids go under: CPUs, processes or threads. */
static const char *target_ids_key(enum ud_target_kind kind)
{
	switch (kind) {
	case UD_TARGET_SYSTEM_WIDE:
	case UD_TARGET_CPUS: return "cpus";
	case UD_TARGET_PID: return "pids";
	case UD_TARGET_TID: return "tids";
	case UD_TARGET_COMMAND: break;
	}
	return NULL;
}

static void target_emit(struct ud_jw *jw, const struct ud_target *t)
{
	const char *key = target_ids_key(t->kind);

	ud_jw_object(jw, "target");
	ud_jw_string(jw, "kind", ud_target_kind_name(t->kind));
	if (key) {
		ud_jw_array(jw, key);
		for (size_t i = 0; i < t->nids; i++)
			ud_jw_integer(jw, NULL, t->ids[i]);
		ud_jw_end(jw);
	}
	ud_jw_end(jw);
}

static void part_emit(struct ud_jw *jw, const struct ud_stat_part *p)
{
	ud_jw_object(jw, NULL);
	ud_jw_string(jw, "label", p->label);
	ud_jw_integer(jw, "number", p->number);
	ud_jw_number(jw, "elapsed_ns", p->w.elapsed_ns);
	counters_emit(jw, "counters", &p->w);
	ud_jw_end(jw);
}

static void parts_emit(struct ud_jw *jw, const struct ud_stat_part *parts, size_t n)
{
	ud_jw_array(jw, "parts");
	for (size_t i = 0; i < n; i++)
		part_emit(jw, &parts[i]);
	ud_jw_end(jw);
}

/* SPEC §5.2 "stat_record": what `stat record` printed, to print again (stat_record.h). */
static void stat_record_emit(struct ud_jw *jw, const char *key, const struct ud_stat_record *r)
{
	ud_jw_object(jw, key);
	ud_jw_string(jw, "invocation", r->invocation);
	ud_jw_string(jw, "target", r->target);
	ud_jw_string(jw, "rows", ud_stat_rows_name(r->rows));
	ud_jw_bool(jw, "rusage", r->rusage);
	ud_jw_bool(jw, "rusage_cpus", r->rusage_cpus);
	ud_jw_bool(jw, "null_run", r->null_run);
	ud_jw_bool(jw, "totals", r->totals);
	ud_jw_bool(jw, "summary", r->summary);
	ud_jw_bool(jw, "verbose", r->verbose);
	ud_jw_array(jw, "columns");
	for (size_t i = 0; i < r->ncolumns; i++) {
		ud_jw_object(jw, NULL);
		ud_jw_string(jw, "unit", r->columns[i].unit);
		ud_jw_real(jw, "scale", r->columns[i].scale);
		if (r->columns[i].extra)
			ud_jw_bool(jw, "extra", true);
		ud_jw_end(jw);
	}
	ud_jw_end(jw);
	parts_emit(jw, r->parts, r->nparts);
	ud_jw_array(jw, "intervals");
	for (size_t i = 0; i < r->nintervals; i++) {
		const struct ud_stat_interval *iv = &r->intervals[i];

		ud_jw_object(jw, NULL);
		ud_jw_real(jw, "at_s", iv->at_s);
		ud_jw_number(jw, "elapsed_ns", iv->w.elapsed_ns);
		counters_emit(jw, "counters", &iv->w);
		parts_emit(jw, iv->parts, iv->nparts);
		ud_jw_end(jw);
	}
	ud_jw_end(jw);
	ud_jw_end(jw);
}

static void workload_emit(struct ud_jw *jw, const struct ud_workload *w, const struct ud_host *host)
{
	ud_jw_object(jw, NULL);
	workload_head_emit(jw, w);
	if (w->target)
		target_emit(jw, w->target);
	score_emit(jw, &w->score);
	if (w->nsubscores) {
		ud_jw_array(jw, "subscores");
		for (size_t i = 0; i < w->nsubscores; i++) {
			ud_jw_object(jw, NULL);
			ud_jw_string(jw, "name", w->subscores[i].name);
			ud_jw_number(jw, "value", w->subscores[i].value);
			ud_jw_string(jw, "units", w->subscores[i].units);
			ud_jw_end(jw);
		}
		ud_jw_end(jw);
	}
	ud_jw_number(jw, "work_units", w->work_units);
	ud_jw_number(jw, "elapsed_ns", w->elapsed_ns);
	if (!isnan(w->elapsed_rel_stddev))
		ud_jw_real(jw, "elapsed_rel_stddev", w->elapsed_rel_stddev);
	ud_jw_number(jw, "user_ns", w->user_ns);
	ud_jw_number(jw, "sys_ns", w->sys_ns);
	counters_emit(jw, "counters", w);
	ud_derived_emit(jw, "derived", w);
	derived_per_pmu_emit(jw, w, host);
	if (w->nperf_metrics) {
		ud_jw_object(jw, "perf_metrics");
		for (size_t i = 0; i < w->nperf_metrics; i++)
			ud_jw_number(jw, w->perf_metrics[i].name, w->perf_metrics[i].value);
		ud_jw_end(jw);
	}
	ud_topdown_emit_workload(jw, w);
	if (w->noise)
		ud_noise_emit(jw, "noise", w->noise);
	if (w->hotspots)
		ud_hotspots_emit(jw, w->hotspots);
	if (w->stat_record)
		stat_record_emit(jw, "stat_record", w->stat_record);
	ud_jw_end(jw);
}

/*
 * The whole document, written once whichever writer it goes to: a file's
 * text is streamed (a profile of 100,000 workloads never exists as a tree),
 * the tree is for callers that inspect it.
 */
void ud_profile_emit(struct ud_jw *jw, const struct ud_profile *p)
{
	ud_jw_object(jw, NULL);
	ud_jw_string(jw, "schema", UD_PROFILE_SCHEMA);
	ud_jw_object(jw, "tool");
	ud_jw_string(jw, "name", "uarchdiff");
	ud_jw_string(jw, "version", p->tool_version ? p->tool_version : UD_VERSION);
	ud_jw_end(jw);
	ud_host_emit(jw, "host", p->host);
	ud_jw_array(jw, "workloads");
	for (size_t i = 0; i < p->nworkloads; i++)
		workload_emit(jw, &p->workloads[i], p->host);
	ud_jw_end(jw);
	if (p->incomplete)
		ud_jw_bool(jw, "incomplete", true);
	ud_jw_end(jw);
}

int ud_profile_dump(const struct ud_profile *p, FILE *f)
{
	struct ud_jw *jw = ud_jw_text(f);

	ud_profile_emit(jw, p);
	/* a workload that cannot be written fails the whole document: never a profile silently without it */
	return ud_jw_finish(jw, NULL);
}

static int save(const struct ud_profile *p, const char *path, bool fresh, struct ud_err *err)
{
	struct ud_outfile *out = fresh ? ud_outfile_create(path, err) : ud_outfile_open(path, err);

	if (!out)
		return -1;
	errno = 0;
	if (ud_profile_dump(p, ud_outfile_stream(out)) != 0) {
		ud_fail(err, "%s: write failed: %s", strcmp(path, "-") ? path : "standard output",
			strerror(errno ? errno : EIO));
		ud_outfile_abort(out);
		return -1;
	}
	return ud_outfile_commit(out, err);
}

int ud_profile_save(const struct ud_profile *p, const char *path, struct ud_err *err)
{
	return save(p, path, false, err);
}

/*
 * A new file in TMPDIR (else /tmp) for a profile its own file would not
 * take: 0 with the name in path, or -1 with why (nothing left behind).
 */
static int save_in_tmpdir(const struct ud_profile *p, char *path, size_t len, struct ud_err *why)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(path, len, "%s/uarchdiff-profile-XXXXXX.json", tmp && *tmp ? tmp : "/tmp");
	if ((fd = mkstemps(path, 5)) < 0)
		return ud_fail(why, "%s: %s", path, strerror(errno));
	close(fd);
	if (ud_profile_save(p, path, why) == 0)
		return 0;
	unlink(path);
	return -1;
}

int ud_profile_save_somewhere(const struct ud_profile *p, const char *path, bool fresh, struct ud_profile_saved *s)
{
	*s = (struct ud_profile_saved){ .err = UD_ERR_INIT, .why = UD_ERR_INIT };
	if (save(p, path, fresh, &s->err) == 0) {
		s->path = path;
		return 0;
	}
	if (save_in_tmpdir(p, s->fallback, sizeof(s->fallback), &s->why) == 0) {
		s->path = s->fallback;
		return 1;
	}
	return -1;
}

/* Default file names tried in one second before giving up on a free one: more runs a second than any script starts. */
#define DEFAULT_NAME_TRIES 100

/*
 * The hostname as the start of a file name: '/' would make it a path (a
 * host named "../x" wrote outside the folder), so anything but letters,
 * digits, '.', '_' and '-' becomes '_', and a leading '.' too.
 */
static void name_part(const char *h, char *out, size_t len)
{
	size_t o = 0;

	for (const char *c = h && *h ? h : "host"; *c && o + 1 < len; c++, o++) {
		bool keep = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
			    *c == '_' || *c == '-' || (*c == '.' && o > 0);

		out[o] = keep ? *c : '_';
	}
	out[o] = '\0';
}

char *ud_profile_default_path(const struct ud_host *host)
{
	char stamp[32], part[128], *path = malloc(512);
	time_t t = time(NULL);
	struct ud_err err = UD_ERR_INIT;
	struct tm tm;

	if (!path)
		return NULL;
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	name_part(host->hostname, part, sizeof(part));
	snprintf(path, 512, "%s-%s.json", part, stamp);
	for (int k = 2; k <= DEFAULT_NAME_TRIES && ud_outfile_check_new(path, &err) != 0; k++)
		snprintf(path, 512, "%s-%s-%d.json", part, stamp, k);
	return path;
}

/* ---- reading ---- */

struct reader {
	const char *name;
	struct ud_err *err;
	int failed;
	const char *counter; /* the counter being read, named in "where" only when a message needs it */
	json_t *names;       /* the workload names read so far (check_unique), a new reference */
	enum ud_event_arch arch; /* the host's, for the class of a counter written before "class" was */
};

/* "NAME: WHERE[.counters.COUNTER][.KEY]: WHAT", the first failure only. */
static int bad_at(struct reader *r, const char *where, const char *key, const char *what)
{
	if (!r->failed)
		ud_fail(r->err, "%s%s%s%s%s%s%s: %s", r->name ? r->name : "", r->name ? ": " : "", where,
			r->counter ? ".counters." : "",
			r->counter ? r->counter : "", key ? "." : "", key ? key : "", what);
	r->failed = 1;
	return -1;
}

static int bad(struct reader *r, const char *where, const char *what)
{
	return bad_at(r, where, NULL, what);
}

static double get_num(struct reader *r, struct ud_jv obj, const char *key, const char *where)
{
	struct ud_jv v = ud_jv_get(obj, key);

	if (ud_jv_is_missing(v))
		return NAN;
	if (!ud_jv_is_number(v)) {
		bad_at(r, where, key, "expected a number or null");
		return NAN;
	}
	return ud_jv_number(v);
}

static char *get_str(struct reader *r, struct ud_jv obj, const char *key, const char *where)
{
	struct ud_jv v = ud_jv_get(obj, key);

	if (ud_jv_is_missing(v))
		return NULL;
	if (!ud_jv_is_string(v)) {
		bad_at(r, where, key, "expected a string or null");
		return NULL;
	}
	return strdup(ud_jv_string(v));
}

/*
 * A string at obj's key that the schema enumerates as words[] (NULL-
 * terminated); one it does not list is unknown (NULL), as doc/json.md has
 * readers treat an enum value they do not know: kept, and written back, it
 * made a profile that failed its own schema.
 */
static char *get_word(struct reader *r, struct ud_jv obj, const char *key, const char *where,
		      const char *const *words)
{
	char *s = get_str(r, obj, key, where);

	for (size_t i = 0; s && words[i]; i++)
		if (strcmp(s, words[i]) == 0)
			return s;
	free(s);
	return NULL;
}

/*
 * A count at obj's key (runs), named path in messages: 0 when absent;
 * one that does not fit an int would wrap, so it is refused, never cut.
 */
static int get_count(struct reader *r, struct ud_jv obj, const char *where, const char *key, const char *path)
{
	struct ud_jv v = ud_jv_get(obj, key);

	if (ud_jv_absent(v))
		return 0;
	if (!(ud_jv_is_integer(v) && ud_jv_integer(v) >= 0 && ud_jv_integer(v) <= INT_MAX)) {
		bad_at(r, where, path, "must be a whole number from 0 to 2147483647");
		return 0;
	}
	return (int)ud_jv_integer(v);
}

static int get_runs(struct reader *r, struct ud_jv obj, const char *where, const char *path)
{
	return get_count(r, obj, where, "runs", path);
}

/* Refuses where.key when v (NAN: absent) is below 0 or above max. */
static void check_range(struct reader *r, double v, double max, const char *where, const char *key, const char *what)
{
	if (!isnan(v) && !(v >= 0 && v <= max))
		bad_at(r, where, key, what);
}

/* Counts and times are never negative, a counter runs at most while enabled, and a share is a share. */
static void check_counter(struct reader *r, const struct ud_counter *c, const char *where)
{
	check_range(r, c->value, INFINITY, where, "value", "a count cannot be negative");
	check_range(r, c->raw_value, INFINITY, where, "raw_value", "a count cannot be negative");
	check_range(r, c->enabled_ns, INFINITY, where, "enabled_ns", "a time cannot be negative");
	check_range(r, c->running_ns, isnan(c->enabled_ns) ? INFINITY : c->enabled_ns, where, "running_ns",
		    "cannot be negative nor exceed enabled_ns");
	check_range(r, c->running_pct, 100, where, "running_pct", "a share must be within 0..100");
	check_range(r, c->rel_stddev, INFINITY, where, "rel_stddev", "a spread cannot be negative");
}

/*
 * "class" and "mode" as written; a profile written before them (or a class
 * this version does not know) has them read from the counter's name on
 * the profile's host.
 */
static void read_identity(struct reader *r, struct ud_counter *c, struct ud_jv j, const char *where)
{
	const char *cls = ud_jv_string(ud_jv_get(j, "class")), *mode = ud_jv_string(ud_jv_get(j, "mode"));
	enum ud_counter_class named_cls;
	enum ud_counting named_mode;

	if ((!ud_jv_absent(ud_jv_get(j, "class")) && !cls) || (!ud_jv_absent(ud_jv_get(j, "mode")) && !mode)) {
		bad(r, where, "\"class\" and \"mode\" must be strings");
		return;
	}
	ud_event_classify_name(c->name, r->arch, &named_cls, &named_mode);
	if (!cls || ud_counter_class_from_name(cls, &c->cls) != 0)
		c->cls = named_cls;
	if (!mode || ud_counting_from_name(mode, &c->mode) != 0)
		c->mode = named_mode;
}

const char *const ud_counter_semantics_words[] = { "retired", "speculative", "cycles", NULL };
const char *const ud_counter_opened_as_words[] = { "libpfm4", "raw", "generic", "tracepoint", "pmu", "tool", NULL };

static void read_counter(struct reader *r, struct ud_counter *c, struct ud_jv j, const char *where)
{
	const char *status = ud_jv_string(ud_jv_get(j, "status"));
	struct ud_jv group = ud_jv_get(j, "group");

	if (!ud_jv_is_object(j)) {
		bad(r, where, "expected an object");
		return;
	}
	if (!status || ud_count_status_parse(status, &c->status) != 0) {
		bad(r, where, "status must be counted, not_supported or not_counted");
		return;
	}
	c->value = get_num(r, j, "value", where);
	if (c->status == UD_COUNTED && isnan(c->value))
		bad(r, where, "a counted counter needs a value");
	if (c->status != UD_COUNTED)
		c->value = NAN;
	c->raw_value = get_num(r, j, "raw_value", where);
	c->enabled_ns = get_num(r, j, "enabled_ns", where);
	c->running_ns = get_num(r, j, "running_ns", where);
	c->rel_stddev = get_num(r, j, "rel_stddev", where);
	if (isnan(c->enabled_ns) || isnan(c->running_ns))
		c->running_pct = get_num(r, j, "running_pct", where);
	c->reason = get_str(r, j, "reason", where);
	c->vendor_event = get_str(r, j, "vendor_event", where);
	c->semantics = get_word(r, j, "semantics", where, ud_counter_semantics_words);
	c->opened_as = get_word(r, j, "opened_as", where, ud_counter_opened_as_words);
	c->cgroup = get_str(r, j, "cgroup", where);
	if (ud_jv_is_integer(group))
		c->group = (int)ud_jv_integer(group);
	read_identity(r, c, j, where);
	check_counter(r, c, where);
}

static void read_score(struct reader *r, struct ud_score *s, struct ud_jv j, const char *where)
{
	struct ud_jv samples, v;

	if (ud_jv_is_missing(j))
		return;
	if (!ud_jv_is_object(j)) {
		bad(r, where, "score: expected an object or null");
		return;
	}
	s->median = get_num(r, j, "median", where);
	s->min = get_num(r, j, "min", where);
	s->max = get_num(r, j, "max", where);
	s->ci95_rel = get_num(r, j, "ci95_rel", where);
	s->rel_stderr = get_num(r, j, "rel_stderr", where);
	check_range(r, s->rel_stderr, INFINITY, where, "score.rel_stderr", "a spread cannot be negative");
	s->runs = get_runs(r, j, where, "score.runs");
	samples = ud_jv_get(j, "samples");
	if (!ud_jv_is_array(samples))
		return;
	s->samples = calloc(ud_jv_size(samples) + 1, sizeof(double));
	if (!s->samples) {
		bad(r, where, "out of memory");
		return;
	}
	ud_jv_foreach(samples, v) {
		if (!ud_jv_is_number(v)) {
			bad(r, where, "score.samples: expected numbers");
			return;
		}
		s->samples[s->nsamples++] = ud_jv_number(v);
	}
}

static void read_subscores(struct reader *r, struct ud_workload *w, struct ud_jv subs, const char *where)
{
	struct ud_jv s;

	if (ud_jv_is_missing(subs))
		return;
	if (!ud_jv_is_array(subs)) {
		bad(r, where, "subscores: expected an array");
		return;
	}
	ud_jv_foreach(subs, s) {
		const char *name = ud_jv_string(ud_jv_get(s, "name"));
		double v = get_num(r, s, "value", where);
		char *units = get_str(r, s, "units", where);

		if (!name)
			bad(r, where, "subscores: each needs a name");
		else if (ud_workload_add_subscore(w, name, v, units) != 0)
			bad(r, where, "out of memory");
		free(units);
		if (r->failed)
			return;
	}
}

static void read_perf_metrics(struct reader *r, struct ud_workload *w, struct ud_jv m, const char *where)
{
	struct ud_jv v;

	if (ud_jv_absent(m))
		return;
	if (!ud_jv_is_object(m)) {
		bad(r, where, "perf_metrics: expected an object");
		return;
	}
	ud_jv_foreach(m, v) {
		if (!ud_jv_is_number(v) && !ud_jv_is_null(v)) {
			bad(r, where, "perf_metrics: expected numbers or null");
			return;
		}
		if (ud_workload_add_perf_metric(w, ud_jv_key(v), ud_jv_is_number(v) ? ud_jv_number(v) : NAN) != 0) {
			bad(r, where, "out of memory");
			return;
		}
	}
}

/* A flag of perf_command: absent is false, anything but a boolean is refused. */
static bool get_flag(struct reader *r, struct ud_jv obj, const char *key, const char *where)
{
	struct ud_jv v = ud_jv_get(obj, key);
	char path[64];

	snprintf(path, sizeof(path), "perf_command.%s", key);
	if (!ud_jv_absent(v) && !ud_jv_is_boolean(v))
		bad_at(r, where, path, "expected true or false");
	return ud_jv_is_true(v);
}

static void read_perf_command(struct reader *r, struct ud_perf_command *c, struct ud_jv j, const char *where)
{
	if (ud_jv_absent(j))
		return;
	if (!ud_jv_is_object(j) || !ud_jv_is_string(ud_jv_get(j, "line"))) {
		bad(r, where, "perf_command: expected an object with a string \"line\"");
		return;
	}
	c->line = get_str(r, j, "line", where);
	c->all_user = get_flag(r, j, "all_user", where);
	c->all_kernel = get_flag(r, j, "all_kernel", where);
	c->system_wide = get_flag(r, j, "system_wide", where);
	/* perf refuses the two together (PARSE_OPT_EXCLUSIVE): no count was ever taken so */
	if (c->all_user && c->all_kernel)
		bad(r, where, "perf_command: all_user and all_kernel exclude each other");
}

static void read_noise(struct reader *r, struct ud_workload *w, struct ud_jv j, const char *where)
{
	struct ud_jv taken = ud_jv_get(j, "samples_taken"), warnings = ud_jv_get(j, "warnings"), v;
	struct ud_noise *n;

	if (ud_jv_absent(j))
		return;
	if (!ud_jv_is_object(j) || (!ud_jv_absent(warnings) && !ud_jv_is_array(warnings)) ||
	    (!ud_jv_absent(taken) && !ud_jv_is_integer(taken))) {
		bad(r, where, "noise: expected an object with a \"warnings\" array and an integer \"samples_taken\"");
		return;
	}
	n = ud_workload_noise(w);
	if (!n) {
		bad(r, where, "out of memory");
		return;
	}
	n->cpus_utilized_min = get_num(r, j, "cpus_utilized_min", where);
	n->steal_pct = get_num(r, j, "steal_pct", where);
	n->load_avg = get_num(r, j, "load_avg", where);
	n->ci95_rel = get_num(r, j, "ci95_rel", where);
	n->samples_taken = (int)ud_jv_integer(taken);
	ud_jv_foreach(warnings, v) {
		if (!ud_jv_is_string(v)) {
			bad(r, where, "noise.warnings: expected strings");
			return;
		}
		if (ud_noise_add_warning(n, ud_jv_string(v)) != 0) {
			bad(r, where, "out of memory");
			return;
		}
	}
}

/* The ids of a target, under the key its kind names: CPUs or task ids, each 0..INT_MAX. */
static int read_target_ids(struct ud_jv ids, int *out)
{
	struct ud_jv v;
	size_t k = 0;

	ud_jv_foreach(ids, v) {
		if (!ud_jv_is_integer(v) || ud_jv_integer(v) < 0 || ud_jv_integer(v) > INT_MAX)
			return -1;
		out[k++] = (int)ud_jv_integer(v);
	}
	return 0;
}

static void read_target(struct reader *r, struct ud_workload *w, struct ud_jv j, const char *where)
{
	const char *kind = ud_jv_is_object(j) ? ud_jv_string(ud_jv_get(j, "kind")) : NULL;
	enum ud_target_kind k = UD_TARGET_COMMAND;
	const char *key;
	struct ud_jv ids;
	int *got;

	if (ud_jv_absent(j))
		return;
	if (!kind || ud_target_kind_parse(kind, &k) != 0) {
		bad(r, where, "target: expected an object whose \"kind\" is command, system-wide, cpus, pid or tid");
		return;
	}
	key = target_ids_key(k);
	if (!key) {
		if (!ud_workload_set_target(w, k, NULL, 0))
			bad(r, where, "out of memory");
		return;
	}
	ids = ud_jv_get(j, key);
	if (!ud_jv_is_array(ids) || ud_jv_size(ids) == 0) {
		bad_at(r, where, "target", "a system-wide, cpus, pid or tid target lists its ids (cpus, pids, tids)");
		return;
	}
	got = calloc(ud_jv_size(ids), sizeof(*got));
	if (!got || read_target_ids(ids, got) != 0)
		bad_at(r, where, "target", got ? "ids must be whole numbers from 0 to 2147483647" : "out of memory");
	else if (!ud_workload_set_target(w, k, got, ud_jv_size(ids)))
		bad(r, where, "out of memory");
	free(got);
}

static void read_counters(struct reader *r, struct ud_workload *w, struct ud_jv counters, const char *where)
{
	struct ud_jv cj;

	if (!ud_jv_absent(counters) && !ud_jv_is_object(counters)) {
		bad(r, where, "counters: expected an object");
		return;
	}
	ud_jv_foreach(counters, cj) {
		struct ud_counter *c = ud_workload_add_counter(w, ud_jv_key(cj));

		if (!c) {
			bad(r, where, "out of memory");
			return;
		}
		r->counter = ud_jv_key(cj);
		read_counter(r, c, cj, where);
		r->counter = NULL;
		if (r->failed)
			return;
	}
}

static int counters_from_doc(struct ud_jv j, const char *where, struct ud_workload *w, struct ud_err *err)
{
	struct reader r = { NULL, err, 0, NULL, NULL, UD_ARCH_UNKNOWN };

	read_counters(&r, w, j, where);
	return r.failed ? -1 : 0;
}

/* A row's counters are the workload's, by name and in order; 0, or -1 with err. */
static int same_counters(const struct ud_workload *row, const struct ud_workload *w, const char *where,
			 struct ud_err *err)
{
	if (row->ncounters != w->ncounters)
		return ud_fail(err, "%s: lists %zu counters, the workload %zu", where, row->ncounters, w->ncounters);
	for (size_t i = 0; i < w->ncounters; i++)
		if (strcmp(row->counters[i].name, w->counters[i].name) != 0)
			return ud_fail(err, "%s: counter %zu is '%s', the workload's '%s'", where, i,
				       row->counters[i].name, w->counters[i].name);
	return 0;
}

/* A row's own counters and elapsed time. */
static int read_row(struct ud_jv j, struct ud_workload *row, const struct ud_workload *w, const char *where,
		    struct ud_err *err)
{
	struct ud_jv elapsed = ud_jv_get(j, "elapsed_ns");

	if (!ud_jv_is_object(j))
		return ud_fail(err, "%s: expected an object", where);
	if (!ud_jv_is_missing(elapsed) && !(ud_jv_is_number(elapsed) && ud_jv_number(elapsed) >= 0))
		return ud_fail(err, "%s.elapsed_ns: a time is a number, never negative", where);
	row->elapsed_ns = ud_jv_is_number(elapsed) ? ud_jv_number(elapsed) : NAN;
	row->runs = w->runs;
	if (counters_from_doc(ud_jv_get(j, "counters"), where, row, err) != 0)
		return -1;
	return same_counters(row, w, where, err);
}

static int read_parts(struct ud_jv j, struct ud_stat_part **parts, size_t *n, const struct ud_workload *w,
		      const char *where, struct ud_err *err)
{
	struct ud_jv pj;
	char at[384];

	if (ud_jv_absent(j))
		return 0;
	if (!ud_jv_is_array(j))
		return ud_fail(err, "%s.parts: expected an array", where);
	ud_jv_foreach(j, pj) {
		struct ud_jv label = ud_jv_get(pj, "label"), number = ud_jv_get(pj, "number");
		struct ud_stat_part *p;

		snprintf(at, sizeof(at), "%s.parts[%zu]", where, *n);
		if (!ud_jv_is_missing(label) && !ud_jv_is_string(label))
			return ud_fail(err, "%s.label: expected a string or null", at);
		if (!ud_jv_is_integer(number) || ud_jv_integer(number) < INT_MIN || ud_jv_integer(number) > INT_MAX)
			return ud_fail(err, "%s.number: expected a whole number", at);
		p = ud_stat_parts_add(parts, n, ud_jv_string(label), (int)ud_jv_integer(number));
		if (!p)
			return ud_fail(err, "%s: out of memory", at);
		if (read_row(pj, &p->w, w, at, err) != 0)
			return -1;
	}
	return 0;
}

static int read_columns(struct ud_jv j, struct ud_stat_record *r, const struct ud_workload *w, const char *where,
			struct ud_err *err)
{
	struct ud_jv cj;

	if (!ud_jv_is_array(j) || ud_jv_size(j) != w->ncounters)
		return ud_fail(err, "%s.columns: expected an array of one unit a counter (%zu)", where, w->ncounters);
	ud_jv_foreach(j, cj) {
		const char *unit = ud_jv_string(ud_jv_get(cj, "unit"));
		struct ud_jv scale = ud_jv_get(cj, "scale"), extra = ud_jv_get(cj, "extra");

		if (!unit || !ud_jv_is_number(scale) || !isfinite(ud_jv_number(scale)) ||
		    (!ud_jv_absent(extra) && !ud_jv_is_boolean(extra)))
			return ud_fail(err, "%s.columns[%zu]: expected {\"unit\": a string, \"scale\": a number, "
				       "\"extra\": true or false}", where, r->ncolumns);
		if (ud_stat_record_add_column(r, unit, ud_jv_number(scale), ud_jv_is_true(extra)) != 0)
			return ud_fail(err, "%s: out of memory", where);
	}
	return 0;
}

static int read_intervals(struct ud_jv j, struct ud_stat_record *r, const struct ud_workload *w, const char *where,
			  struct ud_err *err)
{
	struct ud_jv ij;
	char at[256];

	if (ud_jv_absent(j))
		return 0;
	if (!ud_jv_is_array(j))
		return ud_fail(err, "%s.intervals: expected an array", where);
	ud_jv_foreach(j, ij) {
		struct ud_jv stamp = ud_jv_get(ij, "at_s");
		struct ud_stat_interval *iv;

		snprintf(at, sizeof(at), "%s.intervals[%zu]", where, r->nintervals);
		if (!ud_jv_is_number(stamp) || !(ud_jv_number(stamp) >= 0 && ud_jv_number(stamp) < 1e12))
			return ud_fail(err, "%s.at_s: expected seconds, a number from 0", at);
		if (!(iv = ud_stat_record_add_interval(r, ud_jv_number(stamp))))
			return ud_fail(err, "%s: out of memory", at);
		if (read_row(ij, &iv->w, w, at, err) != 0 ||
		    read_parts(ud_jv_get(ij, "parts"), &iv->parts, &iv->nparts, w, at, err) != 0)
			return -1;
		if (iv->nparts != r->nparts && r->rows != UD_ROWS_WHOLE)
			return ud_fail(err, "%s: %zu parts, the totals %zu", at, iv->nparts, r->nparts);
	}
	return 0;
}

/* The flags, each a boolean where present (absent: false). */
static int read_flags(struct ud_jv j, struct ud_stat_record *r, const char *where, struct ud_err *err)
{
	static const char *const keys[] = { "rusage", "rusage_cpus", "null_run", "totals", "summary", "verbose" };
	bool *flags[] = { &r->rusage, &r->rusage_cpus, &r->null_run, &r->totals, &r->summary, &r->verbose };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct ud_jv v = ud_jv_get(j, keys[i]);

		if (!ud_jv_absent(v) && !ud_jv_is_boolean(v))
			return ud_fail(err, "%s.%s: expected true or false", where, keys[i]);
		*flags[i] = ud_jv_is_true(v);
	}
	return 0;
}

static int read_record(struct ud_jv j, struct ud_stat_record *r, const struct ud_workload *w, const char *where,
		       struct ud_err *err)
{
	const char *rows = ud_jv_string(ud_jv_get(j, "rows"));
	struct ud_jv inv = ud_jv_get(j, "invocation"), target = ud_jv_get(j, "target");

	if (!rows || ud_stat_rows_parse(rows, &r->rows) != 0)
		return ud_fail(err, "%s.rows: expected whole, cpu, core, socket, thread, die or node", where);
	if ((!ud_jv_is_missing(inv) && !ud_jv_is_string(inv)) || (!ud_jv_is_missing(target) && !ud_jv_is_string(target)))
		return ud_fail(err, "%s: invocation and target are strings or null", where);
	r->invocation = ud_jv_is_string(inv) ? strdup(ud_jv_string(inv)) : NULL;
	r->target = ud_jv_is_string(target) ? strdup(ud_jv_string(target)) : NULL;
	if ((ud_jv_is_string(inv) && !r->invocation) || (ud_jv_is_string(target) && !r->target))
		return ud_fail(err, "%s: out of memory", where);
	if (read_flags(j, r, where, err) != 0 || read_columns(ud_jv_get(j, "columns"), r, w, where, err) != 0 ||
	    read_parts(ud_jv_get(j, "parts"), &r->parts, &r->nparts, w, where, err) != 0)
		return -1;
	if ((r->rows == UD_ROWS_WHOLE) != (r->nparts == 0))
		return ud_fail(err, "%s.parts: %s rows %s", where, rows,
			       r->rows == UD_ROWS_WHOLE ? "have no parts" : "need one part at least");
	return read_intervals(ud_jv_get(j, "intervals"), r, w, where, err);
}

/*
 * j (a workload's "stat_record"; absent: none) into w->stat_record, after
 * w's counters: every row must list them in their order, and there must be
 * a column for each, since a report prints a part's row i under counter i.
 */
static int stat_record_from_doc(struct ud_jv j, const char *where, struct ud_workload *w, struct ud_err *err)
{
	char at[192];

	if (ud_jv_absent(j))
		return 0;
	snprintf(at, sizeof(at), "%s.stat_record", where);
	if (!ud_jv_is_object(j))
		return ud_fail(err, "%s: expected an object", at);
	if (!(w->stat_record = ud_stat_record_new()))
		return ud_fail(err, "%s: out of memory", at);
	return read_record(j, w->stat_record, w, at, err);
}
static void read_workload(struct reader *r, struct ud_profile *p, struct ud_jv j, size_t idx)
{
	char where[128];
	const char *name = ud_jv_string(ud_jv_get(j, "name"));
	struct ud_jv counters = ud_jv_get(j, "counters"), hib = ud_jv_get(j, "higher_is_better");
	struct ud_workload *w;

	snprintf(where, sizeof(where), "workloads[%zu]", idx);
	if (!ud_jv_is_object(j) || !name) {
		bad(r, where, "expected an object with a string \"name\"");
		return;
	}
	w = ud_profile_add_workload(p, name);
	if (!w) {
		bad(r, where, "out of memory");
		return;
	}
	w->units = get_str(r, j, "units", where);
	w->command = get_str(r, j, "command", where);
	w->outcome = get_str(r, j, "outcome", where);
	/* Unknown is null or absent; "yes" would silently read as unknown and flip no speedup's direction. */
	if (!ud_jv_absent(hib) && !ud_jv_is_boolean(hib) && !ud_jv_is_null(hib))
		bad(r, where, "\"higher_is_better\" must be true, false or null");
	w->higher_is_better = ud_jv_is_boolean(hib) ? ud_jv_is_true(hib) : -1;
	w->composite = ud_jv_is_true(ud_jv_get(j, "composite"));
	if (ud_jv_is_object(ud_jv_get(j, "binary"))) {
		w->binary_path = get_str(r, ud_jv_get(j, "binary"), "path", where);
		w->build_id = get_str(r, ud_jv_get(j, "binary"), "build_id", where);
	}
	w->runs = get_runs(r, j, where, "runs");
	w->runs_at_least = w->runs ? 0 : get_count(r, j, where, "runs_at_least", "runs_at_least");
	read_perf_command(r, &w->perf_command, ud_jv_get(j, "perf_command"), where);
	read_score(r, &w->score, ud_jv_get(j, "score"), where);
	read_subscores(r, w, ud_jv_get(j, "subscores"), where);
	w->work_units = get_num(r, j, "work_units", where);
	w->elapsed_ns = get_num(r, j, "elapsed_ns", where);
	w->elapsed_rel_stddev = get_num(r, j, "elapsed_rel_stddev", where);
	w->user_ns = get_num(r, j, "user_ns", where);
	w->sys_ns = get_num(r, j, "sys_ns", where);
	check_range(r, w->work_units, INFINITY, where, "work_units", "work cannot be negative");
	check_range(r, w->elapsed_ns, INFINITY, where, "elapsed_ns", "a time cannot be negative");
	check_range(r, w->elapsed_rel_stddev, INFINITY, where, "elapsed_rel_stddev", "a spread cannot be negative");
	check_range(r, w->user_ns, INFINITY, where, "user_ns", "a time cannot be negative");
	check_range(r, w->sys_ns, INFINITY, where, "sys_ns", "a time cannot be negative");
	read_perf_metrics(r, w, ud_jv_get(j, "perf_metrics"), where);
	read_noise(r, w, ud_jv_get(j, "noise"), where);
	if (!r->failed && ud_topdown_from_doc(j, where, w, r->err) != 0) {
		ud_err_prefix(r->err, "%s", r->name);
		r->failed = 1;
	}
	read_target(r, w, ud_jv_get(j, "target"), where);
	if (!r->failed && ud_hotspots_from_doc(j, where, &w->hotspots, r->err) != 0) {
		ud_err_prefix(r->err, "%s", r->name);
		r->failed = 1;
	}
	read_counters(r, w, counters, where);
	if (!r->failed && stat_record_from_doc(ud_jv_get(j, "stat_record"), where, w, r->err) != 0) {
		ud_err_prefix(r->err, "%s", r->name);
		r->failed = 1;
	}
}

/* Where profiles come from, for the message about a file that is none. */
#define PROFILE_SOURCES                                                                                          \
	"profiles come from 'uarchdiff run -o FILE', 'uarchdiff stat -o FILE' or 'uarchdiff import -o FILE PASTE'"

/*
 * Workload idx's name is no earlier one's: a diff pairs workloads by name,
 * and a second copy would silently stand in for the first.  The names seen
 * are kept in a jansson object, a hash table (imported profiles hold
 * 100,000 workloads).
 */
static int check_unique(struct reader *r, const struct ud_profile *p, size_t idx)
{
	const char *name = p->workloads[p->nworkloads - 1].name;
	const json_t *first;
	char where[64];

	if (!r->names && !(r->names = json_object()))
		return bad(r, "workloads", "out of memory");
	snprintf(where, sizeof(where), "workloads[%zu]", idx);
	if ((first = json_object_get(r->names, name))) {
		char what[600];

		snprintf(what, sizeof(what),
			 "the workload '%s' is workloads[%" JSON_INTEGER_FORMAT "] too: a profile holds each workload once",
			 name, json_integer_value(first));
		return bad_at(r, where, "name", what);
	}
	if (json_object_set_new(r->names, name, json_integer((json_int_t)idx)) != 0)
		return bad(r, where, "out of memory");
	return 0;
}

/* A profile from the root of its document; name prefixes error messages. */
static struct ud_profile *profile_from_doc(struct ud_jv root, const char *name, struct ud_err *err)
{
	struct reader r = { name, err, 0, NULL, NULL, UD_ARCH_UNKNOWN };
	const char *schema = ud_jv_string(ud_jv_get(root, "schema"));
	struct ud_jv host = ud_jv_get(root, "host"), workloads = ud_jv_get(root, "workloads");
	struct ud_jv version = ud_jv_get(ud_jv_get(root, "tool"), "version"), w;
	struct ud_profile *p;
	struct ud_host *facts;
	size_t i = 0;

	if (!ud_jv_is_object(root))
		return ud_fail(err, "%s: not a uarchdiff profile (expected a JSON object); %s", name, PROFILE_SOURCES), NULL;
	if (!schema)
		return ud_fail(err, "%s: not a uarchdiff profile (no \"schema\"); %s", name, PROFILE_SOURCES), NULL;
	if (strncmp(schema, "uarchdiff.profile/", 18) == 0 && strcmp(schema, UD_PROFILE_SCHEMA) != 0)
		return ud_fail(err, "%s: schema %s is not %s: written by another version of uarchdiff", name, schema,
			       UD_PROFILE_SCHEMA), NULL;
	if (strcmp(schema, UD_PROFILE_SCHEMA) != 0)
		return ud_fail(err, "%s: schema %s is not a uarchdiff profile", name, schema), NULL;
	if (!ud_jv_is_object(host) || !ud_jv_is_array(workloads))
		return ud_fail(err, "%s: a profile needs a \"host\" object and a \"workloads\" array", name), NULL;
	/* Every fact type-checked: a number for the label would silently become the file name. */
	if (!(facts = ud_host_read(host, name, err)))
		return NULL;
	if (!(p = ud_profile_new(facts)))
		return ud_fail(err, "%s: out of memory", name), NULL;
	r.arch = ud_event_arch_of(p->host->cpu.vendor, NULL);
	p->incomplete = ud_jv_is_true(ud_jv_get(root, "incomplete"));
	if (ud_jv_is_string(version)) {
		free(p->tool_version);
		p->tool_version = strdup(ud_jv_string(version));
	}
	ud_jv_foreach(workloads, w) {
		read_workload(&r, p, w, i++);
		if (r.failed || check_unique(&r, p, i - 1) != 0) {
			json_decref(r.names);
			ud_profile_free(p);
			return NULL;
		}
	}
	json_decref(r.names);
	if (ud_profile_check_names(p, 0, NULL, err) != 0) {
		if (name)
			ud_err_prefix(err, "%s", name);
		ud_profile_free(p);
		return NULL;
	}
	return p;
}

/* Whether text cannot be JSON at all (a README, a perf paste): its first visible byte starts no JSON value. */
static bool not_json(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	return i < len && !strchr("{[\"-0123456789tfn", text[i]);
}

struct ud_profile *ud_profile_parse(const char *text, size_t len, const char *name, struct ud_err *err)
{
	struct ud_jdoc *doc;
	struct ud_profile *p;

	if (not_json(text, len))
		return ud_fail(err, "%s: not a uarchdiff profile: it is not JSON; %s", name, PROFILE_SOURCES), NULL;
	doc = ud_jdoc_parse(text, len, err);
	if (!doc) {
		struct ud_err why = *err;

		/* "name:line:column: reason", as compilers and jansson's errors read */
		return ud_fail(err, "%s:%s", name, why.msg), NULL;
	}
	p = profile_from_doc(ud_jdoc_root(doc), name, err);
	ud_jdoc_free(doc);
	return p;
}

struct ud_profile *ud_profile_load(const char *path, struct ud_err *err)
{
	size_t len;
	char *text = ud_read_file(path, UD_INPUT_PROFILE, &len, err);
	struct ud_profile *p;

	if (!text)
		return NULL;
	p = ud_profile_parse(text, len, path, err);
	free(text);
	return p;
}

/* One loader thread's view of the work: it takes the next path until none is left. */
struct load_all {
	char *const *paths;
	struct ud_profile **out;
	struct ud_err *errs;
	size_t n;
	size_t next; /* taken with __atomic_fetch_add */
};

static void *load_worker(void *arg)
{
	struct load_all *job = arg;

	for (size_t i; (i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) < job->n;)
		job->out[i] = ud_profile_load(job->paths[i], &job->errs[i]);
	return NULL;
}

long ud_profile_load_each(char *const *paths, size_t n, struct ud_profile **out, struct ud_err *errs)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), failed = 0;
	size_t nthreads = cpus > 1 ? (size_t)cpus - 1 : 0, started = 0;
	struct load_all job = { paths, out, errs, n, 0 };
	pthread_t threads[UD_LOAD_THREADS_MAX];

	if (nthreads > UD_LOAD_THREADS_MAX)
		nthreads = UD_LOAD_THREADS_MAX;
	for (; started < nthreads && started + 1 < n; started++)
		if (pthread_create(&threads[started], NULL, load_worker, &job) != 0)
			break; /* fewer threads: this one does the rest */
	load_worker(&job);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	for (size_t i = 0; i < n; i++)
		failed += !out[i];
	return failed;
}

/* One folding loader's work: threads parse, the fold runs one call at a time under the lock. */
struct load_fold {
	char *const *paths;
	size_t n;
	size_t next; /* taken with __atomic_fetch_add */
	ud_profile_fold_fn fold;
	void *ctx;
	pthread_mutex_t lock;
	int failed; /* a fold returned -1: the others stop taking paths */
};

static void *fold_worker(void *arg)
{
	struct load_fold *job = arg;

	for (size_t i; !__atomic_load_n(&job->failed, __ATOMIC_RELAXED) &&
		       (i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) < job->n;) {
		struct ud_err err = UD_ERR_INIT;
		struct ud_profile *p = ud_profile_load(job->paths[i], &err);

		pthread_mutex_lock(&job->lock);
		if (!job->failed && job->fold(job->ctx, i, p, &err) != 0)
			job->failed = 1;
		pthread_mutex_unlock(&job->lock);
	}
	return NULL;
}

int ud_profile_load_fold(char *const *paths, size_t n, ud_profile_fold_fn fold, void *ctx)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nthreads = cpus > 1 ? (size_t)cpus - 1 : 0, started = 0;
	struct load_fold job = { paths, n, 0, fold, ctx, PTHREAD_MUTEX_INITIALIZER, 0 };
	pthread_t threads[UD_LOAD_THREADS_MAX];

	if (nthreads > UD_LOAD_THREADS_MAX)
		nthreads = UD_LOAD_THREADS_MAX;
	for (; started < nthreads && started + 1 < n; started++)
		if (pthread_create(&threads[started], NULL, fold_worker, &job) != 0)
			break; /* fewer threads: this one does the rest */
	fold_worker(&job);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	pthread_mutex_destroy(&job.lock);
	return job.failed ? -1 : 0;
}

int ud_profile_load_all(char *const *paths, size_t n, struct ud_profile **out, struct ud_err *err)
{
	struct ud_err *errs = calloc(n ? n : 1, sizeof(*errs));
	int ret = 0;

	if (!errs)
		return ud_fail(err, "out of memory");
	ud_profile_load_each(paths, n, out, errs);
	for (size_t i = 0; i < n; i++) {
		if (!out[i] && ret == 0) {
			*err = errs[i];
			ret = -1;
		}
	}
	for (size_t i = 0; ret != 0 && i < n; i++) {
		ud_profile_free(out[i]);
		out[i] = NULL;
	}
	free(errs);
	return ret;
}
