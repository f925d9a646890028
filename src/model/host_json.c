/*
 * host_json.c - the host's JSON form, its one reader (a profile's or a host
 * file's, through json_doc.h) and its one writer (json_emit.h).  Both walk
 * host_facts.c's table, so that a fact the table gains is read and written
 * alike.
 */
#include <math.h>
#include <string.h>

#include "host_facts_priv.h"

/* Nesting of the table: "cpu.caches" is two groups deep. */
#define MAX_DEPTH 4

static size_t depth_of(const char *name)
{
	size_t d = 0;

	for (; *name; name++)
		d += *name == '.';
	return d;
}

static const char *key_of(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot ? dot + 1 : name;
}

void ud_fact_emit(struct ud_jw *jw, const char *key, const struct ud_fact *v)
{
	switch (v->type) {
	case UD_FACT_STRING:
		ud_jw_string(jw, key, v->string);
		break;
	case UD_FACT_INTEGER:
		ud_jw_integer(jw, key, (json_int_t)v->integer);
		break;
	case UD_FACT_BOOLEAN:
		ud_jw_bool(jw, key, v->boolean);
		break;
	case UD_FACT_LIST:
		ud_jw_array(jw, key);
		for (size_t i = 0; i < v->nlist; i++)
			ud_jw_string(jw, NULL, v->list[i]);
		ud_jw_end(jw);
		break;
	default:
		ud_jw_null(jw, key);
		break;
	}
}

static void vulns_emit(struct ud_jw *jw, const struct ud_host *h)
{
	if (!h->vulnerabilities_known) {
		ud_jw_null(jw, "vulnerabilities");
		return;
	}
	ud_jw_object(jw, "vulnerabilities");
	for (size_t i = 0; i < h->nvulns; i++)
		ud_jw_string(jw, h->vulns[i].name, h->vulns[i].text);
	ud_jw_end(jw);
}

void ud_host_emit(struct ud_jw *jw, const char *key, const struct ud_host *h)
{
	size_t open = 0;

	ud_jw_object(jw, key);
	for (size_t i = 0; i < ud_host_nrows; i++) {
		const struct ud_host_row *r = &ud_host_rows[i];
		struct ud_fact v = ud_host_row_fact(h, r);
		size_t d = depth_of(r->name);

		for (; open > d; open--)
			ud_jw_end(jw);
		if (r->kind == UD_ROW_GROUP) {
			ud_jw_object(jw, key_of(r->name));
			open++;
		} else if (r->kind == UD_ROW_VULNS) {
			vulns_emit(jw, h);
		} else if (r->kind == UD_ROW_STATED && h->nstated) {
			struct ud_fact names = { .type = UD_FACT_LIST, .list = h->stated, .nlist = h->nstated };

			ud_fact_emit(jw, "stated", &names);
		} else if (v.type != UD_FACT_ABSENT) {
			ud_fact_emit(jw, key_of(r->name), &v);
		}
	}
	for (; open > 0; open--)
		ud_jw_end(jw);
	ud_jw_end(jw);
}

/*
 * An integer fact: JSON Schema's "integer" is any number without a
 * fraction, so 33.0 is one (a fuzzer's mutation of a profile found it).
 */
static bool integral(struct ud_jv m, long long *v)
{
	double x = ud_jv_number(m);

	if (ud_jv_is_integer(m)) {
		*v = ud_jv_integer(m);
		return true;
	}
	/* 2^63 is the first double past long long's range */
	if (!ud_jv_is_number(m) || x != floor(x) || x < -9223372036854775808.0 || x >= 9223372036854775808.0)
		return false;
	*v = (long long)x;
	return true;
}

static int type_error(struct ud_err *err, const char *name, const char *row, const char *expected)
{
	return ud_fail(err, "%s: host%s%s: expected %s", name, *row ? "." : "", row, expected);
}

/* A list of strings (core_pmus, stated), each handed to add. */
static int read_list(struct ud_host *h, struct ud_jv m, const char *name, const char *row,
		     int (*add)(struct ud_host *, const char *), struct ud_err *err)
{
	struct ud_jv e;

	if (ud_jv_is_missing(m))
		return 0;
	if (!ud_jv_is_array(m))
		return type_error(err, name, row, "a list of strings");
	ud_jv_foreach(m, e) {
		if (!ud_jv_is_string(e))
			return type_error(err, name, row, "a list of strings");
		if (add(h, ud_jv_string(e)) != 0)
			return ud_fail(err, "out of memory");
	}
	return 0;
}

static int read_vulns(struct ud_host *h, struct ud_jv m, const char *name, struct ud_err *err)
{
	struct ud_jv e;

	if (ud_jv_is_missing(m))
		return 0;
	if (!ud_jv_is_object(m))
		return type_error(err, name, "vulnerabilities", "an object or null");
	h->vulnerabilities_known = true;
	ud_jv_foreach(m, e) {
		if (!ud_jv_is_string(e) && !ud_jv_is_null(e))
			return ud_fail(err, "%s: host.vulnerabilities.%s: expected a string or null", name, ud_jv_key(e));
		if (ud_host_add_vuln(h, ud_jv_key(e), ud_jv_string(e)) != 0)
			return ud_fail(err, "out of memory");
	}
	return 0;
}

/* One leaf row's member m into h; 0, or -1 with err for a value of another type. */
static int read_leaf(struct ud_host *h, const struct ud_host_row *r, struct ud_jv m, const char *name,
		     struct ud_err *err)
{
	bool missing = ud_jv_is_missing(m);

	switch (r->kind) {
	case UD_ROW_STRING:
	case UD_ROW_OPT_STRING:
		if (!missing && !ud_jv_is_string(m))
			return type_error(err, name, r->name, "a string or null");
		return ud_host_set_string(ud_host_row_string(h, r), ud_jv_string(m)) == 0 ? 0 : ud_fail(err, "out of memory");
	case UD_ROW_INTEGER:
		*ud_host_row_integer(h, r) = UD_HOST_UNKNOWN;
		if (!missing && !integral(m, ud_host_row_integer(h, r)))
			return type_error(err, name, r->name, "an integer or null");
		return 0;
	case UD_ROW_TRISTATE:
	case UD_ROW_FLAG:
		if (!missing && !ud_jv_is_boolean(m))
			return type_error(err, name, r->name, "true, false or null");
		if (r->kind == UD_ROW_FLAG)
			*ud_host_row_flag(h, r) = ud_jv_is_true(m);
		else
			*ud_host_row_tristate(h, r) = missing ? -1 : ud_jv_is_true(m);
		return 0;
	case UD_ROW_LIST:
		return read_list(h, m, name, r->name, ud_host_add_core_pmu, err);
	case UD_ROW_STATED:
		return read_list(h, m, name, r->name, ud_host_mark_stated, err);
	case UD_ROW_VULNS:
		return read_vulns(h, m, name, err);
	case UD_ROW_GROUP:
		break;
	}
	return 0;
}

/* Each row from the object it sits in (parent[depth]); a missing group leaves its facts unknown. */
static int read_rows(struct ud_host *h, struct ud_jv v, const char *name, struct ud_err *err)
{
	struct ud_jv parent[MAX_DEPTH + 1] = { v };
	char what[sizeof(err->msg)];

	for (size_t i = 0; i < ud_host_nrows; i++) {
		const struct ud_host_row *r = &ud_host_rows[i];
		size_t d = depth_of(r->name);
		struct ud_jv m = ud_jv_get(parent[d], key_of(r->name));

		if (r->kind != UD_ROW_GROUP) {
			if (read_leaf(h, r, m, name, err) != 0)
				return -1;
			continue;
		}
		if (!ud_jv_is_missing(m) && !ud_jv_is_object(m))
			return type_error(err, name, r->name, "an object");
		parent[d + 1] = m;
	}
	snprintf(what, sizeof(what), "%s: host.label", name);
	return ud_host_check_label(what, h->label, err);
}

struct ud_host *ud_host_read(struct ud_jv v, const char *name, struct ud_err *err)
{
	struct ud_host *h;

	if (!ud_jv_is_object(v))
		return type_error(err, name, "", "an object"), NULL;
	if (!(h = ud_host_new()))
		return ud_fail(err, "out of memory"), NULL;
	if (read_rows(h, v, name, err) != 0) {
		ud_host_free(h);
		return NULL;
	}
	return h;
}
