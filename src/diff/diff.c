/*
 * ud_diff_build(): pairs the two profiles' workloads by name and runs the
 * steps in order - each workload's numbers and explanation
 * (diff_workload.c, diff_hotspots.c, diff_explain.c), the summary across workloads
 * (diff_summary.c), the environment (diff_env.c), the rules (diff_rules.c).  Writing JSON is diff_json.c's job, done once at the end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "sort.h"

static const struct ud_uarch *host_uarch(const struct ud_profile *p, const struct ud_uarch_db *db)
{
	const char *name = p->host->cpu.uarch;

	return db && name ? ud_uarch_find(db, name) : NULL;
}

/* The workloads of one profile sorted by name, so pairing is n log n. */
struct index {
	const struct ud_workload **w;
	size_t n;
};

static int cmp_workload(const void *x, const void *y)
{
	return strcmp((*(const struct ud_workload *const *)x)->name, (*(const struct ud_workload *const *)y)->name);
}

static int index_build(struct index *ix, const struct ud_profile *p)
{
	ix->n = p->nworkloads;
	ix->w = malloc((ix->n ? ix->n : 1) * sizeof(*ix->w));
	if (!ix->w)
		return -1;
	for (size_t i = 0; i < ix->n; i++)
		ix->w[i] = &p->workloads[i];
	ud_sort(ix->w, ix->n, sizeof(*ix->w), cmp_workload);
	return 0;
}

static const struct ud_workload *find_workload(const struct index *ix, const char *name)
{
	struct ud_workload key = { .name = (char *)name };
	const struct ud_workload *k = &key, *const *hit = ud_bsearch(&k, ix->w, ix->n, sizeof(*ix->w), cmp_workload);

	return hit ? *hit : NULL;
}

int ud_diff_check_comparable(const struct ud_workload *a, const struct ud_workload *b, const char *fa, const char *fb,
			      struct ud_err *err)
{
	if (a->units && b->units && strcmp(a->units, b->units) != 0)
		return ud_fail(err, "workload '%s': units differ (%s in %s, %s in %s): not comparable", a->name, a->units,
			       fa, b->units, fb);
	if (a->higher_is_better >= 0 && b->higher_is_better >= 0 && a->higher_is_better != b->higher_is_better)
		return ud_fail(err, "workload '%s': higher is better in %s, lower in %s: not comparable", a->name,
			       a->higher_is_better ? fa : fb, a->higher_is_better ? fb : fa);
	return 0;
}

int ud_diff_check_score(const struct ud_workload *w, const char *file, struct ud_err *err)
{
	if (!isfinite(w->score.median))
		return 0;
	if (w->score.median <= 0)
		return ud_fail(err, "%s: workload '%s': score %g: a score must be positive", file, w->name,
			       w->score.median);
	return 0;
}

/*
 * 0, or -1 with err for two scores whose ratio a double cannot hold (1e-300
 * against 1e300): such a speedup would print as "inf" or 0, or as "no score".
 */
static int check_ratio(const struct ud_workload *a, const struct ud_workload *b, const char *fa, const char *fb,
		       struct ud_err *err)
{
	double r = b->score.median / a->score.median;

	if (!isfinite(a->score.median) || !isfinite(b->score.median) || (isfinite(r) && r > 0 && isfinite(1 / r)))
		return 0;
	return ud_fail(err, "workload '%s': scores %g in %s and %g in %s are too far apart for a ratio", a->name,
		       a->score.median, fa, b->score.median, fb);
}

/* The names in h's profile that the other side lacks. */
static int only_in(struct ud_diff_host *h, const struct index *other)
{
	const struct ud_profile *p = h->profile;

	h->only = malloc((p->nworkloads ? p->nworkloads : 1) * sizeof(*h->only));
	if (!h->only)
		return -1;
	for (size_t i = 0; i < p->nworkloads; i++)
		if (!find_workload(other, p->workloads[i].name))
			h->only[h->nonly++] = p->workloads[i].name;
	return 0;
}

/* "'pipe', 'exec'", or "none", for the message when nothing is in common. */
static void list_names(const struct ud_profile *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->nworkloads && used + 1 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s'%s'", i ? ", " : "", p->workloads[i].name);
	if (!p->nworkloads)
		snprintf(buf, len, "none");
}

/*
 * Every workload both sides hold, in A's order: with scores, or compared
 * by CPU time, or side by side when neither can give a speedup.
 */
static int pair_each(struct ud_diff *d, const struct index *ib, struct ud_explain_stream *es, struct ud_err *err)
{
	const struct ud_diff_host *ha = &d->host[UD_SIDE_A], *hb = &d->host[UD_SIDE_B];

	for (size_t i = 0; i < ha->profile->nworkloads; i++) {
		struct ud_diff_workload *w = &d->workloads[d->nworkloads];

		w->a = &ha->profile->workloads[i];
		w->b = find_workload(ib, w->a->name);
		w->host[UD_SIDE_A] = ha->profile->host;
		w->host[UD_SIDE_B] = hb->profile->host;
		if (!w->b)
			continue;
		if (ud_diff_check_score(w->a, ha->file, err) || ud_diff_check_score(w->b, hb->file, err) ||
		    ud_diff_check_comparable(w->a, w->b, ha->file, hb->file, err) ||
		    check_ratio(w->a, w->b, ha->file, hb->file, err))
			return -1;
		d->nworkloads++; /* before computing, so that ud_diff_free() frees what it allocated */
		if (ud_diff_workload_compute(w, ha->uarch, hb->uarch) != 0 || ud_diff_hotspots_compute(w) != 0 ||
		    ud_diff_explain(w, ha->label, hb->label, es) != 0)
			return ud_fail(err, "out of memory");
	}
	return 0;
}

/* The workloads paired, their explanations written through one stream for the whole diff. */
static int pair_workloads(struct ud_diff *d, const struct index *ib, struct ud_err *err)
{
	size_t n = d->host[UD_SIDE_A].profile->nworkloads;
	struct ud_explain_stream es = { NULL, NULL, 0 };
	int ret;

	d->workloads = calloc(n ? n : 1, sizeof(*d->workloads));
	if (!d->workloads || !(es.f = open_memstream(&es.text, &es.len)))
		return ud_fail(err, "out of memory");
	ret = pair_each(d, ib, &es, err);
	fclose(es.f);
	free(es.text);
	return ret;
}

/*
 * The message lists both sides; where each holds one workload, as two
 * imported pastes do (named after their commands, which differ in a path
 * or an argument), it says how to give them one name.
 */
static int no_workload_in_common(const struct ud_diff *d, struct ud_err *err)
{
	char na[512], nb[512];
	bool one_each = d->host[UD_SIDE_A].profile->nworkloads == 1 && d->host[UD_SIDE_B].profile->nworkloads == 1;

	list_names(d->host[UD_SIDE_A].profile, na, sizeof(na));
	list_names(d->host[UD_SIDE_B].profile, nb, sizeof(nb));
	return ud_fail(err, "no workload in common: %s has %s; %s has %s%s", d->host[UD_SIDE_A].file, na,
		       d->host[UD_SIDE_B].file, nb,
		       one_each ? " (to compare them as one workload, import both with the same '--workload NAME')" : "");
}

static void host_init(struct ud_diff_host *h, const struct ud_profile *p, const char *file, const char *fallback,
		      const struct ud_uarch_db *db)
{
	h->profile = p;
	h->label = ud_host_label(p->host, fallback);
	h->file = file;
	h->uarch = host_uarch(p, db);
	h->no_pmu = ud_profile_no_pmu_reason(p, h->no_pmu_buf, sizeof(h->no_pmu_buf));
}

struct ud_diff *ud_diff_build(const struct ud_diff_input *in, struct ud_err *err)
{
	struct ud_diff *d = calloc(1, sizeof(*d));
	struct index ia = { 0 }, ib = { 0 };
	int ret = -1;

	if (!d || index_build(&ia, in->a) != 0 || index_build(&ib, in->b) != 0) {
		ud_fail(err, "out of memory");
		goto out;
	}
	host_init(&d->host[UD_SIDE_A], in->a, in->a_name, "A", in->db);
	host_init(&d->host[UD_SIDE_B], in->b, in->b_name, "B", in->db);
	if (pair_workloads(d, &ib, err) != 0)
		goto out;
	if (d->nworkloads == 0) {
		no_workload_in_common(d, err);
		goto out;
	}
	if (only_in(&d->host[UD_SIDE_A], &ib) != 0 || only_in(&d->host[UD_SIDE_B], &ia) != 0 ||
	    ud_diff_summarize(d) != 0 || ud_diff_env_build(d) != 0 || ud_diff_rules_apply(d) != 0) {
		ud_fail(err, "out of memory");
		goto out;
	}
	ret = 0;
out:
	free(ia.w);
	free(ib.w);
	if (ret != 0) {
		ud_diff_free(d);
		return NULL;
	}
	return d;
}

void ud_diff_free(struct ud_diff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nworkloads; i++) {
		free(d->workloads[i].explanation);
		free(d->workloads[i].verdict_reason);
		free(d->workloads[i].per_unit);
		free(d->workloads[i].hotspots);
		free(d->workloads[i].counter_b);
		free(d->workloads[i].one_sided);
		for (int m = 0; m < UD_METRIC_COUNT; m++)
			free(d->workloads[i].incomparable[m]);
	}
	free(d->summary.headline);
	free(d->workloads);
	for (int s = 0; s < UD_SIDE_COUNT; s++)
		free(d->host[s].only);
	ud_diff_env_free(d);
	ud_diff_findings_free(d);
	free(d);
}
