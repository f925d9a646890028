#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "derived.h"
#include "fileio.h"
#include "outfile.h"
#include "profile.h"
#include "stats.h"

struct ud_profile *ud_profile_new(json_t *host)
{
	struct ud_profile *p = calloc(1, sizeof(*p));

	if (!p) {
		json_decref(host);
		return NULL;
	}
	p->host = host ? host : json_object();
	p->tool_version = strdup(UD_VERSION);
	return p;
}

static void counter_free(struct ud_counter *c)
{
	free(c->name);
	free(c->reason);
	free(c->vendor_event);
	free(c->semantics);
	free(c->opened_as);
}

static void workload_free(struct ud_workload *w)
{
	free(w->name);
	free(w->units);
	free(w->command);
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
}

void ud_profile_free(struct ud_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nworkloads; i++)
		workload_free(&p->workloads[i]);
	free(p->workloads);
	free(p->tool_version);
	json_decref(p->host);
	free(p);
}

struct ud_workload *ud_profile_add_workload(struct ud_profile *p, const char *name)
{
	struct ud_workload *grown = realloc(p->workloads, (p->nworkloads + 1) * sizeof(*grown)), *w;

	if (!grown)
		return NULL;
	p->workloads = grown;
	w = &p->workloads[p->nworkloads];
	memset(w, 0, sizeof(*w));
	w->name = strdup(name);
	if (!w->name)
		return NULL;
	p->nworkloads++;
	w->higher_is_better = -1;
	w->score.median = w->score.min = w->score.max = w->score.ci95_rel = NAN;
	w->work_units = w->elapsed_ns = w->user_ns = w->sys_ns = NAN;
	return w;
}

void ud_profile_drop_last_workload(struct ud_profile *p)
{
	if (p->nworkloads)
		workload_free(&p->workloads[--p->nworkloads]);
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

int ud_workload_set_perf_metric(struct ud_workload *w, const char *name, double value)
{
	struct ud_perf_metric *grown;

	for (size_t i = 0; i < w->nperf_metrics; i++) {
		if (strcmp(w->perf_metrics[i].name, name) == 0) {
			w->perf_metrics[i].value = value;
			return 0;
		}
	}
	grown = realloc(w->perf_metrics, (w->nperf_metrics + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	w->perf_metrics = grown;
	grown[w->nperf_metrics].name = strdup(name);
	if (!grown[w->nperf_metrics].name)
		return -1;
	grown[w->nperf_metrics++].value = value;
	return 0;
}

struct ud_counter *ud_workload_add_counter(struct ud_workload *w, const char *name)
{
	struct ud_counter *grown = realloc(w->counters, (w->ncounters + 1) * sizeof(*grown)), *c;

	if (!grown)
		return NULL;
	w->counters = grown;
	c = &w->counters[w->ncounters];
	memset(c, 0, sizeof(*c));
	c->name = strdup(name);
	if (!c->name)
		return NULL;
	w->ncounters++;
	c->status = UD_NOT_SUPPORTED;
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
	if (!isnan(c->enabled_ns) && !isnan(c->running_ns) && c->enabled_ns > 0)
		return 100.0 * c->running_ns / c->enabled_ns;
	return c->running_pct;
}

double ud_workload_value(const struct ud_workload *w, const char *name)
{
	const struct ud_counter *c = ud_workload_counter(w, name);

	return c && c->status == UD_COUNTED ? c->value : NAN;
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
	s->ci95_rel = ud_ci95_rel(samples, n);
	return 0;
}

/* ---- writing ---- */

/* Integral values (counts, nanoseconds) as JSON integers, so they read back exactly. */
static json_t *num(double v)
{
	if (isnan(v) || isinf(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_integer((json_int_t)v);
	return json_real(v);
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
	return j;
}

json_t *ud_profile_to_json(const struct ud_profile *p)
{
	json_t *workloads = json_array();

	for (size_t i = 0; i < p->nworkloads; i++)
		json_array_append_new(workloads, workload_json(&p->workloads[i], p->host));
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
	int ret = json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));

	json_decref(j);
	if (ret == 0 && fputc('\n', f) == EOF)
		ret = -1;
	return ret;
}

int ud_profile_save(const struct ud_profile *p, const char *path, struct ud_err *err)
{
	struct ud_outfile *out = ud_outfile_open(path, err);

	if (!out)
		return -1;
	if (ud_profile_dump(p, ud_outfile_stream(out)) != 0) {
		ud_outfile_abort(out);
		return ud_fail(err, "%s: cannot write profile", path);
	}
	return ud_outfile_commit(out, err);
}

/* ---- reading ---- */

struct reader {
	const char *name;
	struct ud_err *err;
	int failed;
};

static int bad(struct reader *r, const char *where, const char *what)
{
	if (!r->failed)
		ud_fail(r->err, "%s: %s: %s", r->name, where, what);
	r->failed = 1;
	return -1;
}

static double get_num(struct reader *r, const json_t *obj, const char *key, const char *where)
{
	const json_t *v = json_object_get(obj, key);
	char at[256];

	if (!v || json_is_null(v))
		return NAN;
	if (!json_is_number(v)) {
		snprintf(at, sizeof(at), "%s.%s", where, key);
		bad(r, at, "expected a number or null");
		return NAN;
	}
	return json_number_value(v);
}

static char *get_str(struct reader *r, const json_t *obj, const char *key, const char *where)
{
	const json_t *v = json_object_get(obj, key);
	char at[256];

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		snprintf(at, sizeof(at), "%s.%s", where, key);
		bad(r, at, "expected a string or null");
		return NULL;
	}
	return strdup(json_string_value(v));
}

static void read_counter(struct reader *r, struct ud_counter *c, const json_t *j, const char *where)
{
	const char *status = json_string_value(json_object_get(j, "status"));
	const json_t *group = json_object_get(j, "group");

	if (!json_is_object(j)) {
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
	if (json_is_integer(group))
		c->group = (int)json_integer_value(group);
}

static void read_score(struct reader *r, struct ud_score *s, const json_t *j, const char *where)
{
	const json_t *samples;
	size_t i;
	const json_t *v;

	if (!j || json_is_null(j))
		return;
	if (!json_is_object(j)) {
		bad(r, where, "score: expected an object or null");
		return;
	}
	s->median = get_num(r, j, "median", where);
	s->min = get_num(r, j, "min", where);
	s->max = get_num(r, j, "max", where);
	s->ci95_rel = get_num(r, j, "ci95_rel", where);
	samples = json_object_get(j, "samples");
	if (!json_is_array(samples))
		return;
	s->samples = calloc(json_array_size(samples) + 1, sizeof(double));
	if (!s->samples) {
		bad(r, where, "out of memory");
		return;
	}
	json_array_foreach(samples, i, v) {
		if (!json_is_number(v)) {
			bad(r, where, "score.samples: expected numbers");
			return;
		}
		s->samples[s->nsamples++] = json_number_value(v);
	}
}

static void read_subscores(struct reader *r, struct ud_workload *w, const json_t *subs, const char *where)
{
	const json_t *s;
	size_t i;

	if (!subs || json_is_null(subs))
		return;
	if (!json_is_array(subs)) {
		bad(r, where, "subscores: expected an array");
		return;
	}
	json_array_foreach(subs, i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));
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

static void read_perf_metrics(struct reader *r, struct ud_workload *w, const json_t *m, const char *where)
{
	const char *key;
	const json_t *v;

	if (!m)
		return;
	if (!json_is_object(m)) {
		bad(r, where, "perf_metrics: expected an object");
		return;
	}
	json_object_foreach((json_t *)m, key, v) {
		if (!json_is_number(v) && !json_is_null(v)) {
			bad(r, where, "perf_metrics: expected numbers or null");
			return;
		}
		if (ud_workload_set_perf_metric(w, key, json_is_number(v) ? json_number_value(v) : NAN) != 0) {
			bad(r, where, "out of memory");
			return;
		}
	}
}

static void read_workload(struct reader *r, struct ud_profile *p, const json_t *j, size_t idx)
{
	char where[128];
	const char *name = json_string_value(json_object_get(j, "name"));
	const json_t *counters = json_object_get(j, "counters"), *hib = json_object_get(j, "higher_is_better");
	const json_t *runs = json_object_get(j, "runs"), *cj;
	const char *key;
	struct ud_workload *w;

	snprintf(where, sizeof(where), "workloads[%zu]", idx);
	if (!json_is_object(j) || !name) {
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
	w->higher_is_better = json_is_boolean(hib) ? json_is_true(hib) : -1;
	if (json_is_object(json_object_get(j, "binary"))) {
		w->binary_path = get_str(r, json_object_get(j, "binary"), "path", where);
		w->build_id = get_str(r, json_object_get(j, "binary"), "build_id", where);
	}
	w->runs = json_is_integer(runs) ? (int)json_integer_value(runs) : 0;
	read_score(r, &w->score, json_object_get(j, "score"), where);
	read_subscores(r, w, json_object_get(j, "subscores"), where);
	w->work_units = get_num(r, j, "work_units", where);
	w->elapsed_ns = get_num(r, j, "elapsed_ns", where);
	w->user_ns = get_num(r, j, "user_ns", where);
	w->sys_ns = get_num(r, j, "sys_ns", where);
	read_perf_metrics(r, w, json_object_get(j, "perf_metrics"), where);
	if (counters && !json_is_object(counters)) {
		bad(r, where, "counters: expected an object");
		return;
	}
	json_object_foreach((json_t *)counters, key, cj) {
		char at[256];
		struct ud_counter *c = ud_workload_add_counter(w, key);

		if (!c) {
			bad(r, where, "out of memory");
			return;
		}
		snprintf(at, sizeof(at), "%s.counters.%s", where, key);
		read_counter(r, c, cj, at);
	}
}

struct ud_profile *ud_profile_from_json(const json_t *root, const char *name, struct ud_err *err)
{
	struct reader r = { name, err, 0 };
	const char *schema = json_string_value(json_object_get(root, "schema"));
	const json_t *host = json_object_get(root, "host"), *workloads = json_object_get(root, "workloads");
	const json_t *tool = json_object_get(root, "tool"), *w;
	struct ud_profile *p;
	size_t i;

	if (!json_is_object(root)) {
		ud_fail(err, "%s: not a uarchdiff profile (expected a JSON object)", name);
		return NULL;
	}
	if (!schema) {
		ud_fail(err, "%s: not a uarchdiff profile (no \"schema\")", name);
		return NULL;
	}
	if (strncmp(schema, "uarchdiff.profile/", 18) == 0 && strcmp(schema, UD_PROFILE_SCHEMA) != 0) {
		ud_fail(err, "%s: schema %s is not %s: written by another version of uarchdiff", name, schema,
			UD_PROFILE_SCHEMA);
		return NULL;
	}
	if (strcmp(schema, UD_PROFILE_SCHEMA) != 0) {
		ud_fail(err, "%s: schema %s is not a uarchdiff profile", name, schema);
		return NULL;
	}
	if (!json_is_object(host) || !json_is_array(workloads)) {
		ud_fail(err, "%s: a profile needs a \"host\" object and a \"workloads\" array", name);
		return NULL;
	}
	p = ud_profile_new(json_deep_copy(host));
	if (!p) {
		ud_fail(err, "%s: out of memory", name);
		return NULL;
	}
	p->incomplete = json_is_true(json_object_get(root, "incomplete"));
	if (json_is_string(json_object_get(tool, "version"))) {
		free(p->tool_version);
		p->tool_version = strdup(json_string_value(json_object_get(tool, "version")));
	}
	json_array_foreach(workloads, i, w) {
		read_workload(&r, p, w, i);
		if (r.failed)
			break;
	}
	if (r.failed) {
		ud_profile_free(p);
		return NULL;
	}
	return p;
}

struct ud_profile *ud_profile_load(const char *path, struct ud_err *err)
{
	json_error_t jerr;
	json_t *root;
	struct ud_profile *p;
	size_t len;
	char *text = ud_read_file(path, &len, err);

	if (!text)
		return NULL;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!root) {
		ud_fail(err, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		return NULL;
	}
	p = ud_profile_from_json(root, path, err);
	json_decref(root);
	return p;
}
