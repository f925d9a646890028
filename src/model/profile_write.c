/*
 * profile_write.c - the profile's JSON form (SPEC §3) written, with the
 * derived metrics computed at that moment, and saved: where asked, in a
 * TMPDIR file when that will not take it, under a default name.  The model
 * itself is profile.c's; this file only translates.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "derived.h"
#include "json_emit.h"
#include "outfile.h"
#include "profile.h"
#include "profile_json_priv.h"
#include "stat_record.h"
#include "topdown_json.h"

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

static void target_emit(struct ud_jw *jw, const struct ud_target *t)
{
	const char *key = ud_target_ids_key(t->kind);

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
