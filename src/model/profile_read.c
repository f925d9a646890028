/*
 * profile_read.c - the profile's JSON form (SPEC §3) read back with every
 * field checked, from text or a file.  The model itself is profile.c's;
 * this file only translates.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "json_doc.h"
#include "event_id.h"
#include "profile.h"
#include "profile_json_priv.h"
#include "stat_record.h"
#include "topdown_json.h"

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

/* v, obj's member key, as a number; NAN when absent or null. */
static double num_of(struct reader *r, struct ud_jv v, const char *key, const char *where)
{
	/* one call for the type: a fleet's profiles are a few million numbers */
	switch (ud_jv_type(v)) {
	case UD_JABSENT:
	case UD_JNULL:
		return NAN;
	case UD_JINTEGER:
	case UD_JREAL:
		return ud_jv_number(v);
	default:
		bad_at(r, where, key, "expected a number or null");
		return NAN;
	}
}

static double get_num(struct reader *r, struct ud_jv obj, const char *key, const char *where)
{
	return num_of(r, ud_jv_get(obj, key), key, where);
}

/* v, obj's member key, as a new string (caller frees); NULL when absent or null. */
static char *str_of(struct reader *r, struct ud_jv v, const char *key, const char *where)
{
	if (ud_jv_is_missing(v))
		return NULL;
	if (!ud_jv_is_string(v)) {
		bad_at(r, where, key, "expected a string or null");
		return NULL;
	}
	return strdup(ud_jv_string(v));
}

/* Caller frees. */
static char *get_str(struct reader *r, struct ud_jv obj, const char *key, const char *where)
{
	return str_of(r, ud_jv_get(obj, key), key, where);
}

/*
 * v, obj's member key, a string that the schema enumerates as words[]
 * (NULL-terminated), as a new string (caller frees); one it does not list
 * is unknown (NULL), as doc/json.md has readers treat an enum value they
 * do not know: kept, and written back, it made a profile that failed its
 * own schema.  Copied only once known: most are.
 */
static char *word_of(struct reader *r, struct ud_jv v, const char *key, const char *where,
		     const char *const *words)
{
	const char *s;

	if (ud_jv_is_missing(v))
		return NULL;
	if (!(s = ud_jv_string(v))) {
		bad_at(r, where, key, "expected a string or null");
		return NULL;
	}
	for (size_t i = 0; words[i]; i++)
		if (strcmp(s, words[i]) == 0)
			return strdup(s);
	return NULL;
}

/*
 * v, a count (runs), named path in messages: 0 when absent; one that does
 * not fit an int would wrap, so it is refused, never cut.
 */
static int count_of(struct reader *r, struct ud_jv v, const char *where, const char *path)
{
	if (ud_jv_absent(v))
		return 0;
	if (!(ud_jv_is_integer(v) && ud_jv_integer(v) >= 0 && ud_jv_integer(v) <= INT_MAX)) {
		bad_at(r, where, path, "must be a whole number from 0 to 2147483647");
		return 0;
	}
	return (int)ud_jv_integer(v);
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

/* A counter's keys (SPEC §3) in the order profile_write.c writes them, each looked for in one walk (ud_jv_pick()). */
enum counter_key {
	CK_CLASS,
	CK_MODE,
	CK_STATUS,
	CK_VALUE,
	CK_RAW_VALUE,
	CK_ENABLED_NS,
	CK_RUNNING_NS,
	CK_RUNNING_PCT,
	CK_REL_STDDEV,
	CK_REASON,
	CK_VENDOR_EVENT,
	CK_SEMANTICS,
	CK_OPENED_AS,
	CK_GROUP,
	CK_CGROUP,
	CK_COUNT
};

static const char *const counter_keys[CK_COUNT] = {
	[CK_CLASS] = "class",
	[CK_MODE] = "mode",
	[CK_STATUS] = "status",
	[CK_VALUE] = "value",
	[CK_RAW_VALUE] = "raw_value",
	[CK_ENABLED_NS] = "enabled_ns",
	[CK_RUNNING_NS] = "running_ns",
	[CK_RUNNING_PCT] = "running_pct",
	[CK_REL_STDDEV] = "rel_stddev",
	[CK_REASON] = "reason",
	[CK_VENDOR_EVENT] = "vendor_event",
	[CK_SEMANTICS] = "semantics",
	[CK_OPENED_AS] = "opened_as",
	[CK_GROUP] = "group",
	[CK_CGROUP] = "cgroup",
};

/*
 * "class" and "mode" as written; a profile written before them (or a class
 * this version does not know) has them read from the counter's name on
 * the profile's host.
 */
static void read_identity(struct reader *r, struct ud_counter *c, const struct ud_jv *v, const char *where)
{
	const char *cls = ud_jv_string(v[CK_CLASS]), *mode = ud_jv_string(v[CK_MODE]);
	enum ud_counter_class named_cls;
	enum ud_counting named_mode;

	if ((!ud_jv_absent(v[CK_CLASS]) && !cls) || (!ud_jv_absent(v[CK_MODE]) && !mode)) {
		bad(r, where, "\"class\" and \"mode\" must be strings");
		return;
	}
	ud_event_classify_name(c->name, r->arch, &named_cls, &named_mode);
	if (!cls || ud_counter_class_from_name(cls, &c->cls) != 0)
		c->cls = named_cls;
	if (!mode || ud_counting_from_name(mode, &c->mode) != 0)
		c->mode = named_mode;
}

static void read_counter(struct reader *r, struct ud_counter *c, struct ud_jv j, const char *where)
{
	struct ud_jv v[CK_COUNT];
	const char *status;

	ud_jv_pick(j, counter_keys, CK_COUNT, v);
	status = ud_jv_string(v[CK_STATUS]);
	if (!ud_jv_is_object(j)) {
		bad(r, where, "expected an object");
		return;
	}
	if (!status || ud_count_status_parse(status, &c->status) != 0) {
		bad(r, where, "status must be counted, not_supported or not_counted");
		return;
	}
	c->value = num_of(r, v[CK_VALUE], "value", where);
	if (c->status == UD_COUNTED && isnan(c->value))
		bad(r, where, "a counted counter needs a value");
	if (c->status != UD_COUNTED)
		c->value = NAN;
	c->raw_value = num_of(r, v[CK_RAW_VALUE], "raw_value", where);
	c->enabled_ns = num_of(r, v[CK_ENABLED_NS], "enabled_ns", where);
	c->running_ns = num_of(r, v[CK_RUNNING_NS], "running_ns", where);
	c->rel_stddev = num_of(r, v[CK_REL_STDDEV], "rel_stddev", where);
	if (isnan(c->enabled_ns) || isnan(c->running_ns))
		c->running_pct = num_of(r, v[CK_RUNNING_PCT], "running_pct", where);
	c->reason = str_of(r, v[CK_REASON], "reason", where);
	c->vendor_event = str_of(r, v[CK_VENDOR_EVENT], "vendor_event", where);
	c->semantics = word_of(r, v[CK_SEMANTICS], "semantics", where, ud_counter_semantics_words);
	c->opened_as = word_of(r, v[CK_OPENED_AS], "opened_as", where, ud_counter_opened_as_words);
	c->cgroup = str_of(r, v[CK_CGROUP], "cgroup", where);
	if (ud_jv_is_integer(v[CK_GROUP]))
		c->group = (int)ud_jv_integer(v[CK_GROUP]);
	read_identity(r, c, v, where);
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
	s->runs = count_of(r, ud_jv_get(j, "runs"), where, "score.runs");
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
	key = ud_target_ids_key(k);
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
/*
 * "workloads[IDX]" into where (32 bytes hold any size_t), for messages:
 * written by hand, where snprintf() for each workload, twice, was a
 * thirtieth of reading a fleet's profiles (issue 38).
 */
static void workload_where(char *where, size_t idx)
{
	char digits[24];
	size_t n = 0;

	do
		digits[n++] = (char)('0' + idx % 10);
	while ((idx /= 10) != 0);
	memcpy(where, "workloads[", 10);
	where += 10;
	while (n)
		*where++ = digits[--n];
	memcpy(where, "]", 2);
}

/* A workload's keys (SPEC §3) but its name, in the order profile_write.c writes them (ud_jv_pick()). */
enum workload_key {
	WK_UNITS,
	WK_HIGHER_IS_BETTER,
	WK_COMMAND,
	WK_PERF_COMMAND,
	WK_RUNS,
	WK_RUNS_AT_LEAST,
	WK_COMPOSITE,
	WK_OUTCOME,
	WK_BINARY,
	WK_TARGET,
	WK_SCORE,
	WK_SUBSCORES,
	WK_WORK_UNITS,
	WK_ELAPSED_NS,
	WK_ELAPSED_REL_STDDEV,
	WK_USER_NS,
	WK_SYS_NS,
	WK_COUNTERS,
	WK_PERF_METRICS,
	WK_TOPDOWN,
	WK_TOPDOWN_PER_PMU,
	WK_NOISE,
	WK_HOTSPOTS,
	WK_SAMPLING,
	WK_STAT_RECORD,
	WK_COUNT
};

static const char *const workload_keys[WK_COUNT] = {
	[WK_UNITS] = "units",
	[WK_HIGHER_IS_BETTER] = "higher_is_better",
	[WK_COMMAND] = "command",
	[WK_PERF_COMMAND] = "perf_command",
	[WK_RUNS] = "runs",
	[WK_RUNS_AT_LEAST] = "runs_at_least",
	[WK_COMPOSITE] = "composite",
	[WK_OUTCOME] = "outcome",
	[WK_BINARY] = "binary",
	[WK_TARGET] = "target",
	[WK_SCORE] = "score",
	[WK_SUBSCORES] = "subscores",
	[WK_WORK_UNITS] = "work_units",
	[WK_ELAPSED_NS] = "elapsed_ns",
	[WK_ELAPSED_REL_STDDEV] = "elapsed_rel_stddev",
	[WK_USER_NS] = "user_ns",
	[WK_SYS_NS] = "sys_ns",
	[WK_COUNTERS] = "counters",
	[WK_PERF_METRICS] = "perf_metrics",
	[WK_TOPDOWN] = "topdown",
	[WK_TOPDOWN_PER_PMU] = "topdown_per_pmu",
	[WK_NOISE] = "noise",
	[WK_HOTSPOTS] = "hotspots",
	[WK_SAMPLING] = "sampling",
	[WK_STAT_RECORD] = "stat_record",
};

/* Workload j's members v (workload_keys) into w, which has its name. */
static void read_workload_fields(struct reader *r, struct ud_workload *w, struct ud_jv j, const struct ud_jv *v,
				 const char *where)
{
	struct ud_jv hib = v[WK_HIGHER_IS_BETTER];

	w->units = str_of(r, v[WK_UNITS], "units", where);
	w->command = str_of(r, v[WK_COMMAND], "command", where);
	w->outcome = str_of(r, v[WK_OUTCOME], "outcome", where);
	/* Unknown is null or absent; "yes" would silently read as unknown and flip no speedup's direction. */
	if (!ud_jv_absent(hib) && !ud_jv_is_boolean(hib) && !ud_jv_is_null(hib))
		bad(r, where, "\"higher_is_better\" must be true, false or null");
	w->higher_is_better = ud_jv_is_boolean(hib) ? ud_jv_is_true(hib) : -1;
	w->composite = ud_jv_is_true(v[WK_COMPOSITE]);
	if (ud_jv_is_object(v[WK_BINARY])) {
		w->binary_path = get_str(r, v[WK_BINARY], "path", where);
		w->build_id = get_str(r, v[WK_BINARY], "build_id", where);
	}
	w->runs = count_of(r, v[WK_RUNS], where, "runs");
	w->runs_at_least = w->runs ? 0 : count_of(r, v[WK_RUNS_AT_LEAST], where, "runs_at_least");
	read_perf_command(r, &w->perf_command, v[WK_PERF_COMMAND], where);
	read_score(r, &w->score, v[WK_SCORE], where);
	read_subscores(r, w, v[WK_SUBSCORES], where);
	w->work_units = num_of(r, v[WK_WORK_UNITS], "work_units", where);
	w->elapsed_ns = num_of(r, v[WK_ELAPSED_NS], "elapsed_ns", where);
	w->elapsed_rel_stddev = num_of(r, v[WK_ELAPSED_REL_STDDEV], "elapsed_rel_stddev", where);
	w->user_ns = num_of(r, v[WK_USER_NS], "user_ns", where);
	w->sys_ns = num_of(r, v[WK_SYS_NS], "sys_ns", where);
	check_range(r, w->work_units, INFINITY, where, "work_units", "work cannot be negative");
	check_range(r, w->elapsed_ns, INFINITY, where, "elapsed_ns", "a time cannot be negative");
	check_range(r, w->elapsed_rel_stddev, INFINITY, where, "elapsed_rel_stddev", "a spread cannot be negative");
	check_range(r, w->user_ns, INFINITY, where, "user_ns", "a time cannot be negative");
	check_range(r, w->sys_ns, INFINITY, where, "sys_ns", "a time cannot be negative");
	read_perf_metrics(r, w, v[WK_PERF_METRICS], where);
	read_noise(r, w, v[WK_NOISE], where);
	/* both readers do nothing where their keys are absent, as they are in most profiles: not asked again */
	if (!r->failed && (!ud_jv_absent(v[WK_TOPDOWN]) || !ud_jv_absent(v[WK_TOPDOWN_PER_PMU])) &&
	    ud_topdown_from_doc(j, where, w, r->err) != 0) {
		ud_err_prefix(r->err, "%s", r->name);
		r->failed = 1;
	}
	read_target(r, w, v[WK_TARGET], where);
	if (!r->failed && (!ud_jv_absent(v[WK_HOTSPOTS]) || !ud_jv_absent(v[WK_SAMPLING])) &&
	    ud_hotspots_from_doc(j, where, &w->hotspots, r->err) != 0) {
		ud_err_prefix(r->err, "%s", r->name);
		r->failed = 1;
	}
	read_counters(r, w, v[WK_COUNTERS], where);
	if (!r->failed && stat_record_from_doc(v[WK_STAT_RECORD], where, w, r->err) != 0) {
		ud_err_prefix(r->err, "%s", r->name);
		r->failed = 1;
	}
}

static void read_workload(struct reader *r, struct ud_profile *p, struct ud_jv j, size_t idx)
{
	char where[128];
	const char *name = ud_jv_string(ud_jv_get(j, "name"));
	struct ud_jv v[WK_COUNT];
	struct ud_workload *w;

	workload_where(where, idx);
	if (!ud_jv_is_object(j) || !name) {
		bad(r, where, "expected an object with a string \"name\"");
		return;
	}
	w = ud_profile_add_workload(p, name);
	if (!w) {
		bad(r, where, "out of memory");
		return;
	}
	ud_jv_pick(j, workload_keys, WK_COUNT, v);
	read_workload_fields(r, w, j, v, where);
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
	workload_where(where, idx);
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
