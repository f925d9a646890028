/*
 * The environment: every host fact both profiles know and disagree on, by
 * dotted name.  The walk is host_facts.h's, in the order the host object is
 * written; the rules and the document read the entries from here.
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

static int append(struct ud_diff *d, size_t *cap, const char *name, const struct ud_fact *a,
		  const struct ud_fact *b)
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
	e->field = strdup(name);
	if (!e->field)
		return -1;
	e->a = *a;
	e->b = *b;
	d->nenv++;
	return 0;
}

struct walk {
	struct ud_diff *d;
	size_t cap;
};

/* One of the baseline's facts against the candidate's of that name; unknown on either side says nothing. */
static int visit(const char *name, const struct ud_fact *a, void *arg)
{
	struct walk *w = arg;
	struct ud_fact b = ud_host_fact(w->d->host[UD_SIDE_B].profile->host, name);

	if (a->type == UD_FACT_GROUP || a->type == UD_FACT_NULL || b.type == UD_FACT_ABSENT ||
	    b.type == UD_FACT_NULL || b.type == UD_FACT_GROUP || not_environment(name) || ud_fact_equal(a, &b))
		return 0;
	return append(w->d, &w->cap, name, a, &b);
}

int ud_diff_env_build(struct ud_diff *d)
{
	struct walk w = { d, 0 };

	return ud_host_each_fact(d->host[UD_SIDE_A].profile->host, visit, &w);
}

void ud_diff_env_free(struct ud_diff *d)
{
	for (size_t i = 0; i < d->nenv; i++) {
		free(d->env[i].field);
	}
	free(d->env);
	d->env = NULL;
	d->nenv = 0;
}
