/*
 * The environment: every host fact both profiles know and disagree on, by
 * dotted path.  Host facts are JSON in the profile (an open set of fields
 * host.c and `import --host` fill), so the entries keep the two leaves as
 * they are; the rules and the document read them from here.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"

/* Fields that name or date a host rather than describe it. */
static bool not_environment(const char *path)
{
	static const char *const skip[] = { "label", "hostname", "collected_at", "pmu_reason", "cpu.source" };

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (strcmp(path, skip[i]) == 0)
			return true;
	return false;
}

static int append(struct ud_diff *d, size_t *cap, const char *path, json_t *a, json_t *b)
{
	struct ud_env_entry *e;

	if (d->nenv == *cap) {
		size_t n = *cap ? 2 * *cap : 8;

		e = realloc(d->env, n * sizeof(*e));
		if (!e)
			return -1;
		d->env = e;
		*cap = n;
	}
	e = &d->env[d->nenv];
	e->field = strdup(path);
	if (!e->field)
		return -1;
	e->a = json_incref(a);
	e->b = json_incref(b);
	d->nenv++;
	return 0;
}

/* Depth first in the baseline's key order, so the list reads like the host object. */
static int walk(struct ud_diff *d, size_t *cap, const char *prefix, const json_t *a, const json_t *b)
{
	const char *key;
	json_t *va;

	json_object_foreach((json_t *)a, key, va) {
		json_t *vb = json_object_get(b, key);
		char path[256];
		int ret = 0;

		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", key);
		if (!vb || not_environment(path) || json_is_null(va) || json_is_null(vb))
			continue;
		if (json_is_object(va) && json_is_object(vb))
			ret = walk(d, cap, path, va, vb);
		else if (!json_equal(va, vb))
			ret = append(d, cap, path, va, vb);
		if (ret != 0)
			return -1;
	}
	return 0;
}

int ud_diff_env_build(struct ud_diff *d)
{
	size_t cap = 0;

	return walk(d, &cap, "", d->host[UD_SIDE_A].profile->host, d->host[UD_SIDE_B].profile->host);
}

void ud_diff_env_free(struct ud_diff *d)
{
	for (size_t i = 0; i < d->nenv; i++) {
		free(d->env[i].field);
		json_decref(d->env[i].a);
		json_decref(d->env[i].b);
	}
	free(d->env);
	d->env = NULL;
	d->nenv = 0;
}
