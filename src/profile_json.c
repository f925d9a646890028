/*
 * profile_json.c - the profile's JSON form (SPEC §3): written with the
 * derived metrics computed at that moment, read back with every field
 * checked.  The model itself is profile.c's; this file only translates.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "derived.h"
#include "fileio.h"
#include "json_doc.h"
#include "json_io.h"
#include "outfile.h"
#include "profile.h"

/* More threads than this only contend for memory bandwidth. */
#define UD_LOAD_THREADS_MAX 16

/* ---- writing ---- */

/* Integral values (counts, nanoseconds) as JSON integers, so they read back exactly. */
static json_t *num(double v)
{
	return ud_json_number(v);
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *counter_json(const struct ud_counter *c)
{
	json_t *j = json_pack("{s:s}", "status", ud_count_status_name(c->status));

	json_object_set_new(j, "value", c->status == UD_COUNTED ? num(c->value) : json_null());
	if (!isnan(c->raw_value))
		json_object_set_new(j, "raw_value", num(c->raw_value));
	if (!isnan(c->enabled_ns))
		json_object_set_new(j, "enabled_ns", num(c->enabled_ns));
	if (!isnan(c->running_ns))
		json_object_set_new(j, "running_ns", num(c->running_ns));
	if (!isnan(ud_counter_running_pct(c)))
		json_object_set_new(j, "running_pct", json_real(ud_counter_running_pct(c)));
	if (!isnan(c->rel_stddev))
		json_object_set_new(j, "rel_stddev", json_real(c->rel_stddev));
	if (c->reason)
		json_object_set_new(j, "reason", json_string(c->reason));
	if (c->vendor_event)
		json_object_set_new(j, "vendor_event", json_string(c->vendor_event));
	if (c->semantics)
		json_object_set_new(j, "semantics", json_string(c->semantics));
	if (c->opened_as)
		json_object_set_new(j, "opened_as", json_string(c->opened_as));
	if (c->group >= 0)
		json_object_set_new(j, "group", json_integer(c->group));
	return j;
}

static json_t *score_json(const struct ud_score *s)
{
	json_t *samples = json_array();

	if (isnan(s->median))
		return (json_decref(samples), json_null());
	for (size_t i = 0; i < s->nsamples; i++)
		json_array_append_new(samples, num(s->samples[i]));
	return json_pack("{s:o s:o s:o s:o s:o}", "median", num(s->median), "min", num(s->min),
			 "max", num(s->max), "samples", samples, "ci95_rel", num(s->ci95_rel));
}

/* The derived metrics of one core type: its "PMU/event" counters seen under their plain names. */
static json_t *pmu_derived_json(const struct ud_workload *w, const char *pmu)
{
	struct ud_workload view = *w;
	size_t plen = strlen(pmu), n = 0;
	json_t *d;

	view.counters = calloc(w->ncounters ? w->ncounters : 1, sizeof(*view.counters));
	if (!view.counters)
		return json_null();
	for (size_t i = 0; i < w->ncounters; i++) {
		if (strncmp(w->counters[i].name, pmu, plen) == 0 && w->counters[i].name[plen] == '/') {
			view.counters[n] = w->counters[i];
			view.counters[n++].name = w->counters[i].name + plen + 1;
		}
	}
	view.ncounters = n;
	d = n ? ud_derived_json(&view) : NULL;
	free(view.counters);
	return d;
}

/* {PMU: derived} for each core PMU of a hybrid host this workload has counters of; NULL if none. */
static json_t *derived_per_pmu_json(const struct ud_workload *w, const json_t *host)
{
	const json_t *pmus = json_object_get(host, "core_pmus"), *pmu;
	json_t *all = NULL;
	size_t i;

	json_array_foreach(pmus, i, pmu) {
		json_t *d = json_is_string(pmu) ? pmu_derived_json(w, json_string_value(pmu)) : NULL;

		if (!d)
			continue;
		if (!all)
			all = json_object();
		json_object_set_new(all, json_string_value(pmu), d);
	}
	return all;
}

static json_t *perf_metrics_json(const struct ud_workload *w)
{
	json_t *m = json_object();

	for (size_t i = 0; i < w->nperf_metrics; i++)
		json_object_set_new(m, w->perf_metrics[i].name, num(w->perf_metrics[i].value));
	return m;
}

json_t *ud_noise_to_json(const struct ud_noise *n)
{
	json_t *warnings = json_array();

	for (size_t i = 0; i < n->nwarnings; i++)
		json_array_append_new(warnings, json_string(n->warnings[i]));
	return json_pack("{s:o s:o s:o s:o s:i s:o}", "cpus_utilized_min", num(n->cpus_utilized_min), "steal_pct",
			 num(n->steal_pct), "load_avg", num(n->load_avg), "ci95_rel", num(n->ci95_rel), "samples_taken",
			 n->samples_taken, "warnings", warnings);
}

static json_t *workload_json(const struct ud_workload *w, const json_t *host)
{
	json_t *per_pmu;
	json_t *counters = json_object(), *j;

	for (size_t i = 0; i < w->ncounters; i++)
		json_object_set_new(counters, w->counters[i].name, counter_json(&w->counters[i]));
	j = json_pack("{s:s s:o s:o}", "name", w->name, "units", str(w->units),
		      "higher_is_better", w->higher_is_better < 0 ? json_null() : json_boolean(w->higher_is_better));
	if (w->command)
		json_object_set_new(j, "command", json_string(w->command));
	if (w->runs > 0)
		json_object_set_new(j, "runs", json_integer(w->runs));
	if (w->composite)
		json_object_set_new(j, "composite", json_true());
	if (w->outcome)
		json_object_set_new(j, "outcome", json_string(w->outcome));
	if (w->binary_path || w->build_id)
		json_object_set_new(j, "binary", json_pack("{s:o s:o}", "path", str(w->binary_path), "build_id",
							   str(w->build_id)));
	json_object_set_new(j, "score", score_json(&w->score));
	if (w->nsubscores) {
		json_t *subs = json_array();

		for (size_t i = 0; i < w->nsubscores; i++)
			json_array_append_new(subs, json_pack("{s:s s:o s:o}", "name", w->subscores[i].name, "value",
							      num(w->subscores[i].value), "units",
							      str(w->subscores[i].units)));
		json_object_set_new(j, "subscores", subs);
	}
	json_object_set_new(j, "work_units", num(w->work_units));
	json_object_set_new(j, "elapsed_ns", num(w->elapsed_ns));
	json_object_set_new(j, "user_ns", num(w->user_ns));
	json_object_set_new(j, "sys_ns", num(w->sys_ns));
	json_object_set_new(j, "counters", counters);
	json_object_set_new(j, "derived", ud_derived_json(w));
	per_pmu = derived_per_pmu_json(w, host);
	if (per_pmu)
		json_object_set_new(j, "derived_per_pmu", per_pmu);
	if (w->nperf_metrics)
		json_object_set_new(j, "perf_metrics", perf_metrics_json(w));
	if (w->noise)
		json_object_set_new(j, "noise", ud_noise_to_json(w->noise));
	if (w->hotspots)
		ud_hotspots_to_json(w->hotspots, j);
	return j;
}

json_t *ud_profile_to_json(const struct ud_profile *p)
{
	json_t *workloads = json_array();

	/* A workload that cannot be written fails the whole document: never a profile silently without it. */
	for (size_t i = 0; i < p->nworkloads; i++) {
		if (json_array_append_new(workloads, workload_json(&p->workloads[i], p->host)) != 0) {
			json_decref(workloads);
			return NULL;
		}
	}
	json_t *j = json_pack("{s:s s:{s:s s:s} s:O s:o}", "schema", UD_PROFILE_SCHEMA, "tool", "name", "uarchdiff",
			      "version", p->tool_version ? p->tool_version : UD_VERSION, "host", p->host, "workloads",
			      workloads);

	if (p->incomplete)
		json_object_set_new(j, "incomplete", json_true());
	return j;
}

int ud_profile_dump(const struct ud_profile *p, FILE *f)
{
	json_t *j = ud_profile_to_json(p);
	int ret = j ? ud_json_write(j, f) : -1;

	json_decref(j);
	return ret;
}

int ud_profile_save(const struct ud_profile *p, const char *path, struct ud_err *err)
{
	struct ud_outfile *out = ud_outfile_open(path, err);

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

/* ---- reading ---- */

struct reader {
	const char *name;
	struct ud_err *err;
	int failed;
	const char *counter; /* the counter being read, named in "where" only when a message needs it */
};

/* "NAME: WHERE[.counters.COUNTER][.KEY]: WHAT", the first failure only. */
static int bad_at(struct reader *r, const char *where, const char *key, const char *what)
{
	if (!r->failed)
		ud_fail(r->err, "%s: %s%s%s%s%s: %s", r->name, where, r->counter ? ".counters." : "",
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
	c->semantics = get_str(r, j, "semantics", where);
	c->opened_as = get_str(r, j, "opened_as", where);
	if (ud_jv_is_integer(group))
		c->group = (int)ud_jv_integer(group);
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

static void read_workload(struct reader *r, struct ud_profile *p, struct ud_jv j, size_t idx)
{
	char where[128];
	const char *name = ud_jv_string(ud_jv_get(j, "name"));
	struct ud_jv counters = ud_jv_get(j, "counters"), hib = ud_jv_get(j, "higher_is_better");
	struct ud_jv runs = ud_jv_get(j, "runs"), cj;
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
	/* A count that does not fit an int would wrap: refused, never cut. */
	if (!ud_jv_absent(runs) && !(ud_jv_is_integer(runs) && ud_jv_integer(runs) >= 0 && ud_jv_integer(runs) <= INT_MAX))
		bad(r, where, "\"runs\" must be a whole number from 0 to 2147483647");
	w->runs = ud_jv_is_integer(runs) ? (int)ud_jv_integer(runs) : 0;
	read_score(r, &w->score, ud_jv_get(j, "score"), where);
	read_subscores(r, w, ud_jv_get(j, "subscores"), where);
	w->work_units = get_num(r, j, "work_units", where);
	w->elapsed_ns = get_num(r, j, "elapsed_ns", where);
	w->user_ns = get_num(r, j, "user_ns", where);
	w->sys_ns = get_num(r, j, "sys_ns", where);
	check_range(r, w->work_units, INFINITY, where, "work_units", "work cannot be negative");
	check_range(r, w->elapsed_ns, INFINITY, where, "elapsed_ns", "a time cannot be negative");
	check_range(r, w->user_ns, INFINITY, where, "user_ns", "a time cannot be negative");
	check_range(r, w->sys_ns, INFINITY, where, "sys_ns", "a time cannot be negative");
	read_perf_metrics(r, w, ud_jv_get(j, "perf_metrics"), where);
	read_noise(r, w, ud_jv_get(j, "noise"), where);
	if (!r->failed && ud_hotspots_from_doc(j, where, &w->hotspots, r->err) != 0) {
		ud_err_prefix(r->err, "%s", r->name);
		r->failed = 1;
	}
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
	}
}

/* A profile from the root of its document; name prefixes error messages. */
static struct ud_profile *profile_from_doc(struct ud_jv root, const char *name, struct ud_err *err)
{
	struct reader r = { name, err, 0, NULL };
	const char *schema = ud_jv_string(ud_jv_get(root, "schema"));
	struct ud_jv host = ud_jv_get(root, "host"), workloads = ud_jv_get(root, "workloads");
	struct ud_jv label = ud_jv_get(host, "label"), version = ud_jv_get(ud_jv_get(root, "tool"), "version"), w;
	struct ud_profile *p;
	json_t *host_tree;
	size_t i = 0;

	if (!ud_jv_is_object(root))
		return ud_fail(err, "%s: not a uarchdiff profile (expected a JSON object)", name), NULL;
	if (!schema)
		return ud_fail(err, "%s: not a uarchdiff profile (no \"schema\")", name), NULL;
	if (strncmp(schema, "uarchdiff.profile/", 18) == 0 && strcmp(schema, UD_PROFILE_SCHEMA) != 0)
		return ud_fail(err, "%s: schema %s is not %s: written by another version of uarchdiff", name, schema,
			       UD_PROFILE_SCHEMA), NULL;
	if (strcmp(schema, UD_PROFILE_SCHEMA) != 0)
		return ud_fail(err, "%s: schema %s is not a uarchdiff profile", name, schema), NULL;
	if (!ud_jv_is_object(host) || !ud_jv_is_array(workloads))
		return ud_fail(err, "%s: a profile needs a \"host\" object and a \"workloads\" array", name), NULL;
	/* The label names the host in every report: a number there would silently become the file name. */
	if (!ud_jv_is_missing(label) && !ud_jv_is_string(label))
		return ud_fail(err, "%s: host.label: expected a string or null", name), NULL;
	/* NULL here is out of memory, not "no host facts": never a profile silently without them */
	host_tree = ud_jv_to_json(host);
	p = host_tree ? ud_profile_new(host_tree) : NULL;
	if (!p)
		return ud_fail(err, "%s: out of memory", name), NULL;
	p->incomplete = ud_jv_is_true(ud_jv_get(root, "incomplete"));
	if (ud_jv_is_string(version)) {
		free(p->tool_version);
		p->tool_version = strdup(ud_jv_string(version));
	}
	ud_jv_foreach(workloads, w) {
		read_workload(&r, p, w, i++);
		if (r.failed) {
			ud_profile_free(p);
			return NULL;
		}
	}
	return p;
}

struct ud_profile *ud_profile_parse(const char *text, size_t len, const char *name, struct ud_err *err)
{
	struct ud_jdoc *doc = ud_jdoc_parse(text, len, err);
	struct ud_profile *p;

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

int ud_profile_load_all(char *const *paths, size_t n, struct ud_profile **out, struct ud_err *err)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nthreads = cpus > 1 ? (size_t)cpus - 1 : 0, started = 0;
	struct load_all job = { paths, out, calloc(n ? n : 1, sizeof(struct ud_err)), n, 0 };
	pthread_t threads[UD_LOAD_THREADS_MAX];
	int ret = 0;

	if (!job.errs)
		return ud_fail(err, "out of memory");
	if (nthreads > UD_LOAD_THREADS_MAX)
		nthreads = UD_LOAD_THREADS_MAX;
	for (; started < nthreads && started + 1 < n; started++)
		if (pthread_create(&threads[started], NULL, load_worker, &job) != 0)
			break; /* fewer threads: this one does the rest */
	load_worker(&job);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	for (size_t i = 0; i < n; i++) {
		if (!out[i] && ret == 0) {
			*err = job.errs[i];
			ret = -1;
		}
	}
	for (size_t i = 0; ret != 0 && i < n; i++) {
		ud_profile_free(out[i]);
		out[i] = NULL;
	}
	free(job.errs);
	return ret;
}
