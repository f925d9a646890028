/*
 * The uarchdiff.compare/2 document (SPEC §5.1), streamed from the model
 * through json_emit.h: group summaries, outliers and the per-host table,
 * and each host's whole diff against the reference only when asked for
 * (--pairs), made and freed one at a time.  A number the model holds as
 * NAN is null.
 */
#include <math.h>
#include <stdint.h>

#include "diff_thresholds.h"
#include "fleet.h"
#include "json_emit.h"
#include "noise.h"

static const char *baseline_mode(enum ud_fleet_baseline b)
{
	return b == UD_FLEET_MEDIAN ? "median" : b == UD_FLEET_FIRST ? "first" : "label";
}

static void workloads(struct ud_jw *w, const struct ud_fleet *f)
{
	ud_jw_array(w, "workloads");
	for (size_t i = 0; i < f->nworkloads; i++) {
		ud_jw_object(w, NULL);
		ud_jw_string(w, "name", f->workloads[i].name);
		ud_jw_string(w, "units", f->workloads[i].units);
		ud_jw_bool(w, "higher_is_better", f->workloads[i].higher_is_better);
		ud_jw_bool(w, "composite", f->workloads[i].composite);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

/* A small group's host against the others; null in a group tested or of one host. */
static void distance(struct ud_jw *w, const struct ud_fleet *f, const struct ud_fleet_distance *d)
{
	if (!isfinite(d->geomean)) {
		ud_jw_null(w, "vs_others");
		return;
	}
	ud_jw_object(w, "vs_others");
	ud_jw_real(w, "geomean", d->geomean);
	ud_jw_integer(w, "workloads", (json_int_t)d->nworkloads);
	ud_jw_string(w, "largest_workload", f->workloads[d->largest].name);
	ud_jw_real(w, "largest_ratio", d->largest_ratio);
	ud_jw_end(w);
}

static void hosts(struct ud_jw *w, const struct ud_fleet *f)
{
	ud_jw_array(w, "hosts");
	for (size_t k = 0; k < f->nhosts; k++) {
		ud_jw_object(w, NULL);
		ud_jw_string(w, "label", f->hosts[k].label);
		ud_jw_string(w, "path", f->hosts[k].path);
		ud_jw_integer(w, "group", (json_int_t)f->hosts[k].group);
		ud_jw_real(w, "geomean", f->hosts[k].geomean);
		ud_jw_bool(w, "incomplete", f->hosts[k].incomplete);
		ud_jw_real(w, "evidence", f->hosts[k].evidence);
		ud_jw_bool(w, "noisy", f->hosts[k].noisy);
		distance(w, f, &f->hosts[k].distance);
		ud_jw_array(w, "values");
		for (size_t i = 0; i < f->nworkloads; i++)
			ud_jw_real(w, NULL, f->hosts[k].value[i]);
		ud_jw_end(w);
		ud_jw_array(w, "speedups");
		for (size_t i = 0; i < f->nworkloads; i++)
			ud_jw_real(w, NULL, ud_fleet_speedup(f, k, i));
		ud_jw_end(w);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

/* The group's distribution per workload it holds, keyed by the workload's name (SPEC §5.1). */
static void distributions(struct ud_jw *w, const struct ud_fleet *f, const struct ud_fleet_group *g)
{
	ud_jw_object(w, "workloads");
	for (size_t i = 0; i < f->nworkloads; i++) {
		const struct ud_fleet_dist *d = &g->dist[i];

		if (!d->n)
			continue;
		ud_jw_object(w, f->workloads[i].name);
		ud_jw_integer(w, "n", (json_int_t)d->n);
		ud_jw_real(w, "median", d->median);
		ud_jw_real(w, "q1", d->q1);
		ud_jw_real(w, "q3", d->q3);
		ud_jw_real(w, "min", d->min);
		ud_jw_real(w, "max", d->max);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

static void side(struct ud_jw *w, const struct ud_fleet *f, const struct ud_fleet_side *sd)
{
	ud_jw_object(w, NULL);
	ud_jw_array(w, "values");
	for (size_t v = 0; v < sd->nvalues; v++)
		ud_jw_string(w, NULL, sd->values[v]);
	ud_jw_end(w);
	ud_jw_array(w, "hosts");
	for (size_t i = 0; i < sd->nhosts; i++)
		ud_jw_integer(w, NULL, (json_int_t)sd->hosts[i]);
	ud_jw_end(w);
	ud_jw_object(w, "medians");
	for (size_t i = 0; i < f->nworkloads; i++)
		if (isfinite(sd->median[i]))
			ud_jw_real(w, f->workloads[i].name, sd->median[i]);
	ud_jw_end(w);
	ud_jw_end(w);
}

/* The host fact that splits the group, its sides and the workloads that moved; null where none does. */
static void split(struct ud_jw *w, const struct ud_fleet *f, const struct ud_fleet_split *sp)
{
	if (!sp) {
		ud_jw_null(w, "split");
		return;
	}
	ud_jw_object(w, "split");
	ud_jw_string(w, "fact", sp->fact);
	ud_jw_array(w, "sides");
	side(w, f, &sp->side[0]);
	side(w, f, &sp->side[1]);
	ud_jw_end(w);
	ud_jw_array(w, "moved");
	for (size_t i = 0; i < sp->nmoved; i++) {
		ud_jw_object(w, NULL);
		ud_jw_string(w, "workload", f->workloads[sp->moved[i].workload].name);
		ud_jw_real(w, "ratio", sp->moved[i].ratio);
		ud_jw_real(w, "p", sp->moved[i].p);
		ud_jw_real(w, "consistency", sp->moved[i].consistency);
		ud_jw_end(w);
	}
	ud_jw_end(w);
	ud_jw_array(w, "same_hosts");
	for (size_t i = 0; i < sp->nsame; i++)
		ud_jw_string(w, NULL, sp->same[i]);
	ud_jw_end(w);
	ud_jw_integer(w, "tests", (json_int_t)sp->ntests);
	ud_jw_end(w);
}

static void groups(struct ud_jw *w, const struct ud_fleet *f)
{
	ud_jw_array(w, "groups");
	for (size_t g = 0; g < f->ngroups; g++) {
		const struct ud_fleet_group *grp = &f->groups[g];

		ud_jw_object(w, NULL);
		ud_jw_string(w, "name", grp->name);
		ud_jw_object(w, "keys");
		for (size_t k = 0; k < f->nkeys; k++)
			ud_jw_string(w, f->keys[k], grp->keys[k]);
		ud_jw_end(w);
		ud_jw_array(w, "hosts");
		for (size_t i = 0; i < grp->nhosts; i++)
			ud_jw_integer(w, NULL, (json_int_t)grp->hosts[i]);
		ud_jw_end(w);
		ud_jw_bool(w, "reference", grp->reference);
		ud_jw_bool(w, "tested", grp->tested);
		split(w, f, grp->split);
		ud_jw_real(w, "geomean", grp->geomean);
		distributions(w, f, grp);
		if (grp->diff)
			ud_diff_emit(grp->diff, w, "diff");
		else
			ud_jw_null(w, "diff");
		ud_jw_string(w, "diff_error", grp->diff_error[0] ? grp->diff_error : NULL);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

static void outliers(struct ud_jw *w, const struct ud_fleet *f)
{
	ud_jw_array(w, "outliers");
	for (size_t i = 0; i < f->noutliers; i++) {
		const struct ud_fleet_outlier *o = &f->outliers[i];

		ud_jw_object(w, NULL);
		ud_jw_string(w, "label", f->hosts[o->host].label);
		ud_jw_integer(w, "host", (json_int_t)o->host);
		ud_jw_integer(w, "group", (json_int_t)f->hosts[o->host].group);
		ud_jw_string(w, "workload", f->workloads[o->workload].name);
		ud_jw_real(w, "ratio", o->ratio);
		ud_jw_real(w, "interval", o->interval);
		ud_jw_real(w, "evidence", f->hosts[o->host].evidence);
		ud_jw_object(w, "factors");
		for (int k = 0; k < UD_FACTOR_COUNT; k++)
			ud_jw_real(w, ud_factor_name((enum ud_factor)k), o->factor[k]);
		ud_jw_end(w);
		ud_jw_string(w, "dominant", o->has_dominant ? ud_factor_name(o->dominant) : NULL);
		ud_jw_string(w, "explanation", o->explanation);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

/* The rule the outliers follow, with its thresholds, and what they are ranked by. */
static void outlier_test(struct ud_jw *w)
{
	char ranking[512];

	ud_fleet_ranking_text(ranking, sizeof(ranking));
	ud_jw_object(w, "outlier_test");
	ud_jw_integer(w, "min_hosts", UD_FLEET_MIN_PEERS);
	ud_jw_real(w, "mads", UD_FLEET_OUTLIER_MADS);
	ud_jw_real(w, "min_move", UD_FLEET_OUTLIER_MIN_MOVE);
	ud_jw_real(w, "max_interval", UD_NOISE_MAX_CI95_REL);
	ud_jw_real(w, "evidence_z_cap", UD_FLEET_EVIDENCE_Z_CAP);
	ud_jw_string(w, "ranked_by", ranking);
	ud_jw_end(w);
}

/* What a split is found by, with its thresholds (diff_thresholds.h gives their reasons). */
static void split_test(struct ud_jw *w)
{
	char rule[512];

	ud_fleet_split_rule_text(rule, sizeof(rule));
	ud_jw_object(w, "split_test");
	ud_jw_integer(w, "min_side", UD_FLEET_SPLIT_MIN_SIDE);
	ud_jw_integer(w, "max_values", UD_FLEET_SPLIT_MAX_VALUES);
	ud_jw_real(w, "alpha", UD_FLEET_SPLIT_ALPHA);
	ud_jw_real(w, "min_move", UD_FLEET_SPLIT_MIN_MOVE);
	ud_jw_real(w, "min_consistency", UD_FLEET_SPLIT_MIN_CONSISTENCY);
	ud_jw_string(w, "rule", rule);
	ud_jw_end(w);
}

/* One line per noisy host: its largest move beyond the spread where its own run is noisy. */
static void noisy(struct ud_jw *w, const struct ud_fleet *f)
{
	ud_jw_array(w, "noisy");
	for (size_t i = 0; i < f->nnoisy; i++) {
		const struct ud_fleet_noisy *n = &f->noisy[i];

		ud_jw_object(w, NULL);
		ud_jw_string(w, "label", f->hosts[n->host].label);
		ud_jw_integer(w, "host", (json_int_t)n->host);
		ud_jw_integer(w, "group", (json_int_t)f->hosts[n->host].group);
		ud_jw_string(w, "workload", f->workloads[n->workload].name);
		ud_jw_real(w, "ratio", n->ratio);
		ud_jw_real(w, "interval", n->interval);
		ud_jw_string(w, "warning", n->warning);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

/* Every host against the reference, each diff made, written and freed before the next; the others in gaps. */
static void pairs(struct ud_jw *w, const struct ud_fleet *f, struct ud_fleet_gaps *gaps)
{
	ud_jw_array(w, "pairs");
	for (size_t k = 0; k < f->nhosts; k++) {
		struct ud_profile *p = NULL;
		struct ud_diff *d = k == f->ref_host ? NULL : ud_fleet_pair(f, k, &p, gaps);

		if (d)
			ud_diff_emit(d, w, NULL);
		ud_diff_free(d);
		ud_profile_free(p);
	}
	ud_jw_end(w);
	ud_jw_array(w, "pairs_left_out");
	for (size_t i = 0; i < gaps->n; i++) {
		const struct ud_fleet_gap *g = &gaps->v[i];

		ud_jw_object(w, NULL);
		ud_jw_integer(w, "host", (json_int_t)g->host);
		ud_jw_string(w, "label", f->hosts[g->host].label);
		ud_jw_string(w, "path", f->hosts[g->host].path);
		ud_jw_string(w, "reason", g->reason ? g->reason : "out of memory");
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

int ud_fleet_write_json(const struct ud_fleet *f, struct ud_fleet_gaps *gaps, FILE *out, struct ud_err *err)
{
	struct ud_jw *w = ud_jw_text(out);

	ud_jw_object(w, NULL);
	ud_jw_string(w, "schema", UD_FLEET_SCHEMA);
	ud_jw_object(w, "tool");
	ud_jw_string(w, "name", "uarchdiff");
	ud_jw_string(w, "version", UD_VERSION);
	ud_jw_end(w);
	ud_jw_array(w, "group_by");
	for (size_t k = 0; k < f->nkeys; k++)
		ud_jw_string(w, NULL, f->keys[k]);
	ud_jw_end(w);
	ud_jw_string(w, "baseline", f->baseline == UD_FLEET_LABEL ? f->ref_label : baseline_mode(f->baseline));
	ud_jw_object(w, "reference");
	ud_jw_string(w, "label", f->ref_label);
	ud_jw_integer(w, "group", (json_int_t)f->ref_group);
	if (f->ref_host == SIZE_MAX)
		ud_jw_null(w, "host");
	else
		ud_jw_integer(w, "host", (json_int_t)f->ref_host);
	ud_jw_end(w);
	workloads(w, f);
	groups(w, f);
	outlier_test(w);
	split_test(w);
	outliers(w, f);
	noisy(w, f);
	hosts(w, f);
	if (gaps)
		pairs(w, f, gaps);
	ud_jw_array(w, "skipped");
	for (size_t i = 0; i < f->nskipped; i++) {
		ud_jw_object(w, NULL);
		ud_jw_string(w, "path", f->skipped[i].path);
		ud_jw_string(w, "reason", f->skipped[i].reason.msg);
		ud_jw_end(w);
	}
	ud_jw_end(w);
	ud_jw_array(w, "workloads_left_out");
	for (size_t e = 0; e < f->nexcluded; e++) {
		const struct ud_fleet_exclusion *x = &f->excluded[e];

		ud_jw_object(w, NULL);
		ud_jw_integer(w, "host", (json_int_t)x->host);
		ud_jw_string(w, "label", f->hosts[x->host].label);
		ud_jw_string(w, "path", f->hosts[x->host].path);
		ud_jw_string(w, "workload", f->workloads[x->workload].name);
		ud_jw_string(w, "reason", x->reason);
		ud_jw_end(w);
	}
	ud_jw_end(w);
	ud_jw_end(w);
	if (ud_jw_finish(w, NULL) != 0)
		return ud_fail(err, "cannot write the JSON report");
	return 0;
}
