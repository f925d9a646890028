/*
 * fleet.c - the fleet's groups, their distributions and median hosts, the
 * reference and the groups' diffs against it (fleet.h); the outliers are
 * fleet_outliers.c's.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet_priv.h"
#include "text.h"

/* "zen4, 64 CPUs", "AuthenticAMD, 8 CPUs": the group's known key values; "host facts unknown" without. */
/* g's name from its key values, built to its length (the values are facts, capped only by the profile); -1 out of memory. */
static int group_name(struct ud_fleet_group *g, const struct ud_fleet *f)
{
	for (size_t k = 0; k < f->nkeys; k++) {
		const char *v = g->keys[k], *sep = g->name ? ", " : "";

		if (v && !ud_append(&g->name, "%s%s%s", sep, v,
				    strcmp(f->keys[k], "cpu.online_cpus") == 0 ? " CPUs" : ""))
			return -1;
	}
	return g->name || (g->name = strdup("host facts unknown")) ? 0 : -1;
}

/* Group g's members, distributions, name and median host, from its accumulator. */
static int summarize_group(struct ud_fleet *f, struct ud_fleet_acc *a, size_t g)
{
	struct ud_fleet_group *grp = &f->groups[g];
	struct ud_fleet_acc_group *ag = &a->groups[g];
	char *label;

	grp->keys = ag->keys;
	ag->keys = NULL;
	if (group_name(grp, f) != 0 || !(grp->hosts = malloc(f->nhosts * sizeof(*grp->hosts))) ||
	    !(grp->dist = calloc(f->nworkloads ? f->nworkloads : 1, sizeof(*grp->dist))))
		return -1;
	for (size_t k = 0; k < f->nhosts; k++)
		if (f->hosts[k].group == g)
			grp->hosts[grp->nhosts++] = k;
	label = ud_printf_new("G%zu median (%s)", g + 1, grp->name);
	grp->median = label ? ud_fleet_median_profile(ag, f, a->order, label) : NULL;
	free(label);
	if (!grp->median)
		return -1;
	for (size_t w = 0; w < f->nworkloads; w++) {
		size_t id = a->order[w];
		const struct ud_fleet_values *v = id < ag->nw ? &ag->w[id].value : NULL;
		struct ud_fleet_dist *d = &grp->dist[w];

		*d = (struct ud_fleet_dist){ 0, NAN, NAN, NAN, NAN, NAN };
		if (!v || v->n == 0)
			continue;
		ud_fleet_sort_values(v->v, v->n);
		*d = (struct ud_fleet_dist){ v->n, ud_fleet_quantile(v->v, v->n, 0.5), ud_fleet_quantile(v->v, v->n, 0.25),
					     ud_fleet_quantile(v->v, v->n, 0.75), v->v[0], v->v[v->n - 1] };
	}
	return 0;
}

/* The reference group and what it is called: the largest group's median, or the baseline host's. */
static void choose_reference(struct ud_fleet *f)
{
	if (f->ref_host != SIZE_MAX) {
		f->ref_group = f->hosts[f->ref_host].group;
		f->ref_label = f->hosts[f->ref_host].label;
	} else {
		f->ref_group = 0;
		for (size_t g = 1; g < f->ngroups; g++)
			if (f->groups[g].nhosts > f->groups[f->ref_group].nhosts)
				f->ref_group = g;
		f->ref_label = f->groups[f->ref_group].median->host->label;
	}
	f->groups[f->ref_group].reference = true;
}

/* The profile the reference is (borrowed from f: a host's or the reference group's median). */
static const struct ud_profile *ud_fleet_reference(const struct ud_fleet *f)
{
	return f->ref_profile ? f->ref_profile : f->groups[f->ref_group].median;
}

/* Each group's median against the reference, through the diff engine. */
static int diff_groups(struct ud_fleet *f)
{
	const struct ud_profile *ref = ud_fleet_reference(f);

	for (size_t g = 0; g < f->ngroups; g++) {
		struct ud_fleet_group *grp = &f->groups[g];
		struct ud_diff_input di = { ref, grp->median, f->ref_label,
					    grp->median->host->label, f->db };
		struct ud_err err = UD_ERR_INIT;

		grp->geomean = 1;
		if (grp->reference && !f->ref_profile)
			continue;
		grp->diff = ud_diff_build(&di, &err);
		if (!grp->diff)
			snprintf(grp->diff_error, sizeof(grp->diff_error), "%s", err.msg);
		grp->geomean = grp->diff ? grp->diff->summary.geomean_speedup : NAN;
	}
	return 0;
}

/* The reference's value of workload w: its host's, or its group's median. */
static double ref_value(const struct ud_fleet *f, size_t w)
{
	return f->ref_host != SIZE_MAX ? f->hosts[f->ref_host].value[w] : f->groups[f->ref_group].dist[w].median;
}

double ud_fleet_speedup(const struct ud_fleet *f, size_t k, size_t w)
{
	return ud_fleet_ratio(&f->workloads[w], f->hosts[k].value[w], ref_value(f, w));
}

static void host_geomeans(struct ud_fleet *f)
{
	for (size_t k = 0; k < f->nhosts; k++) {
		double sum = 0;
		size_t n = 0;

		for (size_t w = 0; w < f->nworkloads; w++) {
			double s = ud_fleet_speedup(f, k, w);

			if (!f->workloads[w].composite && isfinite(s)) {
				sum += log(s);
				n++;
			}
		}
		f->hosts[k].geomean = n ? exp(sum / (double)n) : NAN;
	}
}

/*
 * Host k's profile read again from its file (caller frees), to diff it
 * against the reference (--pairs) or its group; NULL with err.
 */
static struct ud_profile *ud_fleet_reload(const struct ud_fleet *f, size_t k, struct ud_err *err)
{
	return ud_profile_load(f->hosts[k].path, err);
}

int ud_fleet_gaps_init(struct ud_fleet_gaps *g, const struct ud_fleet *f, struct ud_err *err)
{
	*g = (struct ud_fleet_gaps){ calloc(f->nhosts ? f->nhosts : 1, sizeof(*g->v)), 0 };
	return g->v ? 0 : ud_fail(err, "out of memory");
}

void ud_fleet_gaps_free(struct ud_fleet_gaps *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->v[i].reason);
	free(g->v);
	*g = (struct ud_fleet_gaps){ 0 };
}

struct ud_diff *ud_fleet_pair(const struct ud_fleet *f, size_t k, struct ud_profile **p, struct ud_fleet_gaps *gaps)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_diff_input di = { ud_fleet_reference(f), NULL, f->ref_label, f->hosts[k].path, f->db };
	struct ud_diff *d = NULL;

	*p = ud_fleet_reload(f, k, &err);
	di.b = *p;
	if (*p)
		d = ud_diff_build(&di, &err);
	if (!d) /* room for every host was made at init: this cannot overflow */
		gaps->v[gaps->n++] = (struct ud_fleet_gap){ k, strdup(err.msg) };
	return d;
}

/*
 * A group-by field that no host has at all is a typo more often than a
 * fact: refused by name.  So is one that names a group of facts (cpu), and
 * fields that no host knows (null everywhere, all of them): a host whose
 * facts are all unknown is a group of its own, so either would make every
 * host a group (2,000 groups of one at 2,000 hosts) and an arbitrary one
 * the baseline.  A field unknown everywhere beside one that is known is one
 * group of unknowns for it, not an error.
 */
static int check_keys(const struct ud_fleet *f, const struct ud_fleet_acc *a, struct ud_err *err)
{
	bool known = false;

	if (f->keys == ud_fleet_default_keys)
		return 0;
	for (size_t k = 0; k < f->nkeys; k++) {
		if (!a->key_present[k])
			return ud_fail(err, "--group-by %s: no host has that fact (see 'uarchdiff host --json')",
				       f->keys[k]);
		if (a->key_group[k])
			return ud_fail(err, "--group-by %s: a group of facts, not one fact: name one of its fields, "
				       "%s.FIELD (see 'uarchdiff host --json')", f->keys[k], f->keys[k]);
		known = known || a->key_known[k];
	}
	if (!known)
		return ud_fail(err, "--group-by %s%s: unknown (null) on every host: it groups nothing", f->keys[0],
			       f->nkeys > 1 ? " and the rest" : "");
	return 0;
}

/* After the fold: the groups summarized, the reference chosen, the diffs and outliers. */
static int summarize(struct ud_fleet *f, struct ud_fleet_acc *a, struct ud_err *err)
{
	if (f->nhosts < 2) {
		if (f->nskipped)
			*err = f->skipped[0].reason;
		else
			ud_fail(err, "only one profile: give at least two");
		return -1;
	}
	/* the user named the first profile as the baseline: without it there is nothing to compare against */
	if (a->in->baseline == UD_FLEET_FIRST && a->host_group[0] == SIZE_MAX) {
		*err = a->errs[0];
		return -1;
	}
	if (ud_fleet_name_hosts(f, a->in->baseline == UD_FLEET_LABEL ? a->in->baseline_label : NULL, err) != 0)
		return -1;
	f->ref_profile = a->keep;
	a->keep = NULL;
	if (a->in->baseline == UD_FLEET_LABEL && !(f->ref_profile = ud_fleet_reload(f, f->ref_host, err)))
		return -1;
	if (!(f->groups = calloc(a->ngroups, sizeof(*f->groups))))
		return ud_fail(err, "out of memory");
	for (; f->ngroups < a->ngroups; f->ngroups++)
		if (summarize_group(f, a, f->ngroups) != 0) {
			f->ngroups++;
			return ud_fail(err, "out of memory");
		}
	if (check_keys(f, a, err) != 0)
		return -1;
	choose_reference(f);
	host_geomeans(f);
	if (diff_groups(f) != 0 || ud_fleet_find_splits(f, a) != 0 || ud_fleet_judge(f) != 0)
		return ud_fail(err, "out of memory");
	return 0;
}

struct ud_fleet *ud_fleet_build(const struct ud_fleet_input *in, struct ud_err *err)
{
	struct ud_fleet_acc a = { .in = in };
	struct ud_fleet *f;

	if (in->n < 2) {
		ud_fail(err, "give at least two profiles");
		return NULL;
	}
	if (!(f = calloc(1, sizeof(*f)))) {
		ud_fail(err, "out of memory");
		return NULL;
	}
	f->keys = in->ngroup_by ? in->group_by : ud_fleet_default_keys;
	f->nkeys = in->ngroup_by ? in->ngroup_by : ud_fleet_default_nkeys;
	f->db = in->db;
	f->baseline = in->baseline;
	a.keys = f->keys;
	a.nkeys = f->nkeys;
	if (ud_fleet_fold_all(&a) != 0 || ud_fleet_acc_finish(&a, f) != 0) {
		ud_fail(err, "out of memory");
		ud_fleet_acc_free(&a);
		ud_fleet_free(f);
		return NULL;
	}
	if (summarize(f, &a, err) != 0) {
		ud_fleet_acc_free(&a);
		ud_fleet_free(f);
		return NULL;
	}
	ud_fleet_acc_free(&a);
	return f;
}

void ud_fleet_free(struct ud_fleet *f)
{
	if (!f)
		return;
	for (size_t w = 0; w < f->nworkloads; w++) {
		free(f->workloads[w].name);
		free(f->workloads[w].units);
	}
	free(f->workloads);
	for (size_t k = 0; k < f->nhosts; k++) {
		free(f->hosts[k].label);
		for (size_t j = 0; j < f->hosts[k].nwarnings; j++)
			free(f->hosts[k].warnings[j].text);
		free(f->hosts[k].warnings);
	}
	free(f->hosts);
	free(f->values);
	free(f->intervals);
	for (size_t g = 0; g < f->ngroups; g++) {
		struct ud_fleet_group *grp = &f->groups[g];

		for (size_t k = 0; grp->keys && k < f->nkeys; k++)
			free(grp->keys[k]);
		free(grp->keys);
		free(grp->name);
		free(grp->hosts);
		free(grp->dist);
		ud_profile_free(grp->median);
		ud_diff_free(grp->diff);
		ud_fleet_split_free(grp->split);
	}
	free(f->groups);
	ud_profile_free(f->ref_profile);
	for (size_t i = 0; i < f->noutliers; i++)
		free(f->outliers[i].explanation);
	free(f->outliers);
	free(f->noisy);
	free(f->skipped);
	for (size_t e = 0; e < f->nexcluded; e++)
		free(f->excluded[e].reason);
	free(f->excluded);
	free(f);
}
