/*
 * compare.c - N profiles against the first: the diffs, the table of
 * speedups and the geometric means (compare.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"

/* The row of workload name, or NULL. */
static struct ud_compare_row *row_of(struct ud_compare *c, const char *name)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].workload, name) == 0)
			return &c->rows[i];
	return NULL;
}

/* Rows for the union of the workloads: the baseline's in order, then the others as they appear. */
static int collect_rows(struct ud_compare *c)
{
	size_t cap = 0;

	for (size_t k = 0; k < c->nhosts; k++)
		cap += c->hosts[k].profile->nworkloads;
	c->rows = calloc(cap ? cap : 1, sizeof(*c->rows));
	if (!c->rows)
		return -1;
	for (size_t k = 0; k < c->nhosts; k++) {
		const struct ud_profile *p = c->hosts[k].profile;

		for (size_t j = 0; j < p->nworkloads; j++) {
			struct ud_compare_row *r = row_of(c, p->workloads[j].name);

			if (!r) {
				r = &c->rows[c->nrows++];
				r->workload = p->workloads[j].name;
			}
			r->composite = r->composite || p->workloads[j].composite;
		}
	}
	c->cells = malloc((c->nrows ? c->nrows : 1) * c->nhosts * sizeof(*c->cells));
	c->verdicts = malloc((c->nrows ? c->nrows : 1) * c->nhosts * sizeof(*c->verdicts));
	if (!c->cells || !c->verdicts)
		return -1;
	for (size_t i = 0; i < c->nrows; i++) {
		c->rows[i].speedup = c->cells + i * c->nhosts;
		c->rows[i].significant = c->verdicts + i * c->nhosts;
		for (size_t k = 0; k < c->nhosts; k++) {
			c->rows[i].speedup[k] = NAN;
			c->rows[i].significant[k] = -1;
		}
	}
	return 0;
}

/* The baseline's column, and each diff's speedups and geomean in its host's column. */
static void fill_table(struct ud_compare *c)
{
	const struct ud_profile *base = c->hosts[0].profile;

	for (size_t j = 0; j < base->nworkloads; j++)
		row_of(c, base->workloads[j].name)->speedup[0] = 1;
	for (size_t k = 1; k < c->nhosts; k++) {
		const struct ud_diff *d = c->diffs[k - 1];

		for (size_t j = 0; j < d->nworkloads; j++) {
			struct ud_compare_row *r = row_of(c, d->workloads[j].a->name);

			r->speedup[k] = d->workloads[j].speedup;
			r->significant[k] = d->workloads[j].sig.significant;
		}
		c->hosts[k].geomean = d->summary.geomean_speedup;
		c->hosts[k].ngeomean = d->summary.ngeomean;
	}
	c->hosts[0].geomean = 1;
	for (size_t j = 0; j < base->nworkloads; j++)
		c->hosts[0].ngeomean += !base->workloads[j].composite;
}

/* A string host fact ("cpu.vendor"), or NULL; "generic" is the table of no known core, so it says nothing. */
static const char *cpu_fact(const struct ud_profile *p, const char *name)
{
	const char *v = ud_host_fact(p->host, name).string;

	return v && *v && strcmp(v, "unknown") != 0 && strcmp(v, "generic") != 0 ? v : NULL;
}

static bool same_text(const char *x, const char *y)
{
	return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

/* "zen4", "GenuineIntel, microarchitecture unknown", "CPU unknown": what a group's hosts share. */
static void group_name(struct ud_compare_group *g)
{
	if (g->uarch)
		snprintf(g->name, sizeof(g->name), "%s", g->uarch);
	else if (g->vendor)
		snprintf(g->name, sizeof(g->name), "%s, microarchitecture unknown", g->vendor);
	else
		snprintf(g->name, sizeof(g->name), "CPU unknown");
}

/* e in diff d, with the same field and values; NULL when d does not find that fact differing so. */
static bool env_in(const struct ud_diff *d, const struct ud_env_entry *e)
{
	for (size_t i = 0; i < d->nenv; i++)
		if (strcmp(d->env[i].field, e->field) == 0 && ud_fact_equal(&d->env[i].a, &e->a) &&
		    ud_fact_equal(&d->env[i].b, &e->b))
			return true;
	return false;
}

/* The facts every candidate of g differs from the baseline in: the first candidate's that the others share. */
static int group_env(struct ud_compare *c, struct ud_compare_group *g)
{
	const struct ud_diff *first = NULL;

	for (size_t i = 0; i < g->nhosts && !first; i++)
		first = g->hosts[i] ? c->diffs[g->hosts[i] - 1] : NULL;
	if (!first)
		return 0;
	if (!(g->env = calloc(first->nenv + 1, sizeof(*g->env))))
		return -1;
	for (size_t e = 0; e < first->nenv; e++) {
		bool all = true;

		for (size_t i = 0; i < g->nhosts && all; i++)
			all = g->hosts[i] == 0 || env_in(c->diffs[g->hosts[i] - 1], &first->env[e]);
		if (all)
			g->env[g->nenv++] = &first->env[e];
	}
	return 0;
}

/* The group's geometric mean over its members' geomeans, and their range. */
/*
 * The candidates' geometric means in the group: the baseline's own 1.00
 * would only dilute them, and stands alone only in a group of its own.
 */
static int group_means(struct ud_compare *c, struct ud_compare_group *g)
{
	double *m = malloc((g->nhosts + 1) * sizeof(double));
	size_t n = 0;

	if (!m)
		return -1;
	g->min = g->max = NAN;
	for (size_t i = 0; i < g->nhosts; i++) {
		double x = c->hosts[g->hosts[i]].geomean;

		if ((g->hosts[i] == 0 && g->nhosts > 1) || !isfinite(x) || x <= 0)
			continue;
		m[n++] = x;
		g->min = isnan(g->min) ? x : fmin(g->min, x);
		g->max = isnan(g->max) ? x : fmax(g->max, x);
	}
	g->geomean = ud_geomean(m, n);
	free(m);
	return 0;
}

/* Each host into the group of its CPU's vendor and microarchitecture. */
static int group_hosts(struct ud_compare *c)
{
	if (!(c->groups = calloc(c->nhosts, sizeof(*c->groups))))
		return -1;
	for (size_t k = 0; k < c->nhosts; k++) {
		const char *vendor = cpu_fact(c->hosts[k].profile, "cpu.vendor");
		const char *uarch = cpu_fact(c->hosts[k].profile, "cpu.uarch");
		size_t g = 0;
		struct ud_compare_group *grp;

		/* hosts whose facts say nothing of their CPU share nothing known: each stands alone */
		while (g < c->ngroups && !((vendor || uarch) && same_text(c->groups[g].vendor, vendor) &&
					   same_text(c->groups[g].uarch, uarch)))
			g++;
		grp = &c->groups[g];
		if (g == c->ngroups) {
			c->ngroups++;
			*grp = (struct ud_compare_group){ .vendor = vendor, .uarch = uarch };
			group_name(grp);
			if (!(grp->hosts = calloc(c->nhosts, sizeof(*grp->hosts))))
				return -1;
		}
		grp->hosts[grp->nhosts++] = k;
		c->hosts[k].group = g;
	}
	for (size_t g = 0; g < c->ngroups; g++)
		if (group_env(c, &c->groups[g]) != 0 || group_means(c, &c->groups[g]) != 0)
			return -1;
	return 0;
}

/* Each candidate's diff: those that build join the hosts, the others the skipped. */
static int build_diffs(struct ud_compare *c, const struct ud_compare_input *in, struct ud_err *err)
{
	const char *base = ud_host_label(in->profiles[0]->host, in->paths[0]);

	c->hosts[0] = (struct ud_compare_host){ in->profiles[0], base, in->paths[0], NAN, 0, 0 };
	c->nhosts = 1;
	for (size_t k = 1; k < in->n; k++) {
		struct ud_diff_input di = { in->profiles[0], in->profiles[k], in->paths[0], in->paths[k], in->db };
		struct ud_compare_skip *s = &c->skipped[c->nskipped];
		struct ud_diff *d = NULL;

		if (!in->profiles[k])
			s->reason = in->load_errors ? in->load_errors[k] : (struct ud_err){ "did not load" };
		else
			d = ud_diff_build(&di, &s->reason);
		if (!d) {
			s->path = in->paths[k];
			c->nskipped++;
			continue;
		}
		c->diffs[c->nhosts - 1] = d;
		c->hosts[c->nhosts++] = (struct ud_compare_host){ in->profiles[k],
								  ud_host_label(in->profiles[k]->host, in->paths[k]),
								  in->paths[k], NAN, 0, 0 };
	}
	if (c->nhosts > 1)
		return 0;
	*err = c->skipped[0].reason;
	/* the loader's messages name the file already */
	if (strncmp(err->msg, c->skipped[0].path, strlen(c->skipped[0].path)) == 0)
		return -1;
	return ud_err_prefix(err, "%s", c->skipped[0].path);
}

struct ud_compare *ud_compare_build(const struct ud_compare_input *in, struct ud_err *err)
{
	struct ud_compare *c;

	if (in->n < 2) {
		ud_fail(err, "give at least two profiles, the baseline first");
		return NULL;
	}
	/* Every speedup is the baseline's: without it there is nothing to compare against. */
	if (!in->profiles[0]) {
		if (in->load_errors)
			*err = in->load_errors[0];
		else
			ud_fail(err, "%s: the baseline did not load", in->paths[0]);
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !(c->hosts = calloc(in->n, sizeof(*c->hosts))) || !(c->diffs = calloc(in->n - 1, sizeof(*c->diffs))) ||
	    !(c->skipped = calloc(in->n - 1, sizeof(*c->skipped)))) {
		ud_compare_free(c);
		ud_fail(err, "out of memory");
		return NULL;
	}
	if (build_diffs(c, in, err) != 0) {
		ud_compare_free(c);
		return NULL;
	}
	if (collect_rows(c) != 0) {
		ud_compare_free(c);
		ud_fail(err, "out of memory");
		return NULL;
	}
	fill_table(c);
	if (group_hosts(c) != 0) {
		ud_compare_free(c);
		ud_fail(err, "out of memory");
		return NULL;
	}
	return c;
}

void ud_compare_free(struct ud_compare *c)
{
	if (!c)
		return;
	for (size_t k = 0; c->diffs && k + 1 < c->nhosts; k++)
		ud_diff_free(c->diffs[k]);
	free(c->diffs);
	for (size_t g = 0; c->groups && g < c->ngroups; g++) {
		free(c->groups[g].hosts);
		free(c->groups[g].env);
	}
	free(c->groups);
	free(c->hosts);
	free(c->rows);
	free(c->cells);
	free(c->verdicts);
	free(c->skipped);
	free(c);
}
