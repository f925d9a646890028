/*
 * The uarchdiff.compare/1 document (SPEC §5.1), written once from the
 * model through json_emit.h: straight to a file for `compare -f json`, into
 * a tree for tests.  A number the model holds as NAN is null.
 */
#include "compare.h"
#include "json_emit.h"

static void numbers(struct ud_jw *w, const char *key, const double *v, size_t n)
{
	ud_jw_array(w, key);
	for (size_t i = 0; i < n; i++)
		ud_jw_real(w, NULL, v[i]);
	ud_jw_end(w);
}

/* The groups: what their hosts share, member indices into profiles, the facts they differ in, their geomeans. */
static void groups(struct ud_jw *w, const struct ud_compare *c)
{
	ud_jw_array(w, "groups");
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct ud_compare_group *grp = &c->groups[g];

		ud_jw_object(w, NULL);
		ud_jw_string(w, "name", grp->name);
		ud_jw_object(w, "keys");
		ud_jw_string(w, "cpu.vendor", grp->vendor);
		ud_jw_string(w, "cpu.uarch", grp->uarch);
		ud_jw_end(w);
		ud_jw_array(w, "hosts");
		for (size_t i = 0; i < grp->nhosts; i++)
			ud_jw_integer(w, NULL, (json_int_t)grp->hosts[i]);
		ud_jw_end(w);
		ud_jw_array(w, "environment");
		for (size_t i = 0; i < grp->nenv; i++)
			ud_env_entry_emit(grp->env[i], w);
		ud_jw_end(w);
		ud_jw_real(w, "geomean", grp->geomean);
		ud_jw_real(w, "min", grp->min);
		ud_jw_real(w, "max", grp->max);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

static void skipped(struct ud_jw *w, const struct ud_compare *c)
{
	ud_jw_array(w, "skipped");
	for (size_t i = 0; i < c->nskipped; i++) {
		ud_jw_object(w, NULL);
		ud_jw_string(w, "path", c->skipped[i].path);
		ud_jw_string(w, "reason", c->skipped[i].reason.msg);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

static void emit(const struct ud_compare *c, struct ud_jw *w)
{
	ud_jw_object(w, NULL);
	ud_jw_string(w, "schema", UD_COMPARE_SCHEMA);
	ud_jw_object(w, "tool");
	ud_jw_string(w, "name", "uarchdiff");
	ud_jw_string(w, "version", UD_VERSION);
	ud_jw_end(w);
	ud_jw_array(w, "profiles");
	for (size_t k = 0; k < c->nhosts; k++) {
		ud_jw_object(w, NULL);
		ud_jw_string(w, "label", c->hosts[k].label);
		ud_jw_string(w, "path", c->hosts[k].path);
		ud_jw_end(w);
	}
	ud_jw_end(w);
	ud_jw_array(w, "diffs");
	for (size_t k = 1; k < c->nhosts; k++)
		ud_diff_emit(c->diffs[k - 1], w, NULL);
	ud_jw_end(w);
	ud_jw_array(w, "table");
	for (size_t i = 0; i < c->nrows; i++) {
		ud_jw_object(w, NULL);
		ud_jw_string(w, "workload", c->rows[i].workload);
		numbers(w, "speedups", c->rows[i].speedup, c->nhosts);
		ud_jw_bool(w, "composite", c->rows[i].composite);
		ud_jw_end(w);
	}
	ud_jw_end(w);
	ud_jw_array(w, "geomeans");
	for (size_t k = 0; k < c->nhosts; k++)
		ud_jw_real(w, NULL, c->hosts[k].geomean);
	ud_jw_end(w);
	groups(w, c);
	skipped(w, c);
	ud_jw_end(w);
}

json_t *ud_compare_to_json(const struct ud_compare *c)
{
	struct ud_jw *w = ud_jw_tree();
	json_t *doc;

	emit(c, w);
	return ud_jw_finish(w, &doc) == 0 ? doc : NULL;
}

int ud_compare_write_json(const struct ud_compare *c, FILE *f)
{
	struct ud_jw *w = ud_jw_text(f);

	emit(c, w);
	return ud_jw_finish(w, NULL);
}
