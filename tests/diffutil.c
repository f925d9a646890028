/* Profiles and diffs built for the diff tests; see diffutil.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diffutil.h"
#include "import.h"
#include "testutil.h"

struct ud_uarch_db diffutil_db;

void diffutil_load(void)
{
	struct ud_err err;

	ck_assert_msg(ud_uarch_db_load(UD_EVENTS_DIR, &diffutil_db, &err) == 0, "%s", err.msg);
}

void diffutil_unload(void)
{
	ud_uarch_db_free(&diffutil_db);
}

struct ud_profile *imported(const char *file, const char *label, const char *uarch)
{
	struct ud_import_opts o = { 0 };
	struct ud_profile *p =
		ud_profile_new(host_from_text("{\"label\": \"%s\", \"cpu\": {\"uarch\": \"%s\"}}", label, uarch));
	struct ud_err err;

	ck_assert_msg(ud_import_file(p, file, &o, &err) == 0, "%s", err.msg);
	return p;
}

struct ud_diff *model_of(const struct ud_profile *a, const struct ud_profile *b, struct ud_err *err)
{
	struct ud_diff_input in = { a, b, "a.json", "b.json", &diffutil_db };

	return ud_diff_build(&in, err);
}

/* The document, as `diff -f json` writes it. */
json_t *diff_of(const struct ud_profile *a, const struct ud_profile *b, struct ud_err *err)
{
	struct ud_diff *d = model_of(a, b, err);
	json_t *doc = d ? ud_diff_to_json(d) : NULL;

	ud_diff_free(d);
	return doc;
}

double at(const json_t *o, const char *path)
{
	char part[64];

	while (*path) {
		size_t n = strcspn(path, ".");

		snprintf(part, sizeof(part), "%.*s", (int)n, path);
		o = json_object_get(o, part);
		path += n + (path[n] == '.');
	}
	ck_assert_msg(json_is_number(o), "not a number");
	return json_number_value(o);
}

struct ud_workload *add(struct ud_profile *p, const char *name, double score, int hib)
{
	struct ud_workload *w = ud_profile_add_workload(p, name);
	const double one[] = { score };

	w->higher_is_better = hib;
	ud_score_set_samples(&w->score, one, 1);
	w->elapsed_ns = 1e9;
	return w;
}

void put(struct ud_workload *w, const char *name, double v)
{
	struct ud_counter *c = ud_workload_add_counter(w, name);

	c->status = UD_COUNTED;
	c->value = v;
}

void counts(struct ud_workload *w, double insns, double cycles, double task_ns, double sys_share)
{
	put(w, "instructions", insns);
	put(w, "cycles", cycles);
	put(w, "task-clock", task_ns);
	w->user_ns = task_ns * (1 - sys_share);
	w->sys_ns = task_ns * sys_share;
}

const json_t *find(const json_t *findings, const char *id)
{
	const json_t *f;
	size_t i;

	json_array_foreach(findings, i, f)
		if (strcmp(json_string_value(json_object_get(f, "id")), id) == 0)
			return f;
	return NULL;
}

size_t fired(const struct ud_diff *d, enum ud_finding_id id)
{
	size_t n = 0;

	for (size_t i = 0; i < d->nfindings; i++)
		n += d->findings[i].id == id;
	return n;
}

const struct ud_finding *finding_of(const struct ud_diff *d, enum ud_finding_id id)
{
	for (size_t i = 0; i < d->nfindings; i++)
		if (d->findings[i].id == id)
			return &d->findings[i];
	return NULL;
}
