/*
 * The uarchdiff.diff/1 document (SPEC §5), written once from the typed
 * model.  The keys come from the enums' name tables; a number the model
 * holds as NAN (or one that overflowed) becomes null.
 */
#include <math.h>

#include "diff.h"

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *tristate(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *factors_json(const double *v)
{
	json_t *o = json_object();

	for (int f = 0; f < UD_FACTOR_COUNT; f++)
		json_object_set_new(o, ud_factor_name((enum ud_factor)f), num(v[f]));
	return o;
}

static json_t *metrics_json(const struct ud_ab *m)
{
	json_t *o = json_object();

	for (int i = 0; i < UD_METRIC_COUNT; i++)
		json_object_set_new(o, ud_metric_name((enum ud_metric)i),
				    json_pack("{s:o s:o s:o}", "a", num(m[i].a), "b", num(m[i].b), "ratio", num(m[i].ratio)));
	return o;
}

static json_t *ab_json(const struct ud_ab *v)
{
	return json_pack("{s:o s:o s:o}", "a", num(v->a), "b", num(v->b), "ratio", num(v->ratio));
}

/* The branch and L1d parts charge each miss its full penalty: upper bounds where misses overlap. */
static json_t *cpi_stack_json(const struct ud_cpi_stack *c)
{
	return json_pack("{s:o s:o s:o s:o s:o s:o s:b s:b}", "cpi_a", num(c->cpi_a), "cpi_b", num(c->cpi_b),
			 "delta_cpi", num(c->delta), "branch", num(c->branch), "l1d", num(c->l1d), "other",
			 num(c->other), "upper_bounds", 1, "overshoot", c->overshoot);
}

static json_t *work_json(const struct ud_work *u)
{
	return json_pack("{s:o s:o s:s s:s}", "a", num(u->a), "b", num(u->b), "unit", u->unit, "basis",
			 ud_work_basis_text(u->basis));
}

static json_t *per_unit_json(const struct ud_diff_workload *w)
{
	json_t *o = json_object();

	for (size_t i = 0; i < w->nper_unit; i++)
		json_object_set_new(o, w->per_unit[i].name, ab_json(&w->per_unit[i].v));
	return o;
}

static json_t *time_split_json(const struct ud_diff_workload *w)
{
	json_t *o = json_object();

	for (int m = 0; m < UD_MODE_COUNT; m++) {
		const struct ud_mode_part *p = &w->mode[m];
		json_t *part = json_pack("{s:o s:o s:o}", "a", num(p->a), "b", num(p->b), "share", num(p->share));

		/* Only where cycles and instructions were counted per mode on both sides. */
		if (isfinite(p->ipc.a) && isfinite(p->ipc.b))
			json_object_set_new(part, "ipc", ab_json(&p->ipc));
		if (isfinite(p->cycles_share))
			json_object_set_new(part, "cycles_share", num(p->cycles_share));
		json_object_set_new(o, ud_mode_name((enum ud_mode)m), part);
	}
	return o;
}

static json_t *hotspots_json(const struct ud_diff_workload *w)
{
	json_t *a = json_array();

	for (size_t i = 0; i < w->nhotspots; i++) {
		const struct ud_hotspot_move *m = &w->hotspots[i];

		json_array_append_new(a, json_pack("{s:s s:o s:s s:o s:o s:o s:o}", "symbol", m->symbol, "dso",
						   m->dso ? json_string(m->dso) : json_null(), "mode",
						   ud_mode_name(m->mode), "a_share", num(m->a_share), "b_share",
						   num(m->b_share), "a_ns_per_unit", num(m->a_ns), "b_ns_per_unit",
						   num(m->b_ns)));
	}
	return a;
}

static json_t *significance_json(const struct ud_significance *s)
{
	return json_pack("{s:o s:s s:o s:s}", "significant", tristate(s->significant), "method",
			 ud_sig_method_name(s->method), "p", num(s->p), "note", s->note);
}

static json_t *workload_json(const struct ud_diff_workload *w)
{
	const struct ud_workload *a = w->a, *b = w->b;
	json_t *o;

	o = json_pack("{s:s s:o s:b s:{s:o s:o} s:o s:s s:s s:b s:o s:s s:o s:o s:o s:o s:o}", "name", a->name,
		      "units", a->units ? json_string(a->units) : json_null(), "higher_is_better",
		      a->higher_is_better != 0, "score", "a", num(a->score.median), "b", num(b->score.median), "speedup",
		      num(w->speedup), "speedup_basis", ud_speedup_basis_name(w->basis), "group", ud_group_name(w->group),
		      "composite", w->composite, "work", work_json(&w->work), "work_basis",
		      ud_work_basis_text(w->work.basis), "factors", factors_json(w->factor), "shares",
		      factors_json(w->share), "metrics", metrics_json(w->metric), "per_unit", per_unit_json(w),
		      "time_split", time_split_json(w));
	if (o && w->user_mode_only)
		json_object_set_new(o, "user_mode_only", json_true());
	if (o && w->a->hotspots && w->b->hotspots) /* SPEC §5.1: when both profiles have them */
		json_object_set_new(o, "hotspots", hotspots_json(w));
	if (o)
		json_object_update_new(o, json_pack("{s:o s:o s:o s:o s:s}", "dominant",
						    w->has_dominant ? json_string(ud_factor_name(w->dominant)) : json_null(),
						    "cpi_stack", cpi_stack_json(&w->cpi),
						    "significance", significance_json(&w->sig), "significant",
						    tristate(w->sig.significant), "explanation", w->explanation));
	return o;
}

/* Each host's penalties with their sources, or nulls where the table has none. */
static json_t *penalties_json(const struct ud_uarch *u)
{
	if (!u || !isfinite(u->penalty_branch) || !isfinite(u->penalty_l1d))
		return json_pack("{s:o s:n s:n}", "uarch", u ? json_string(u->name) : json_null(), "branch_mispredict",
				 "l1d_miss");
	return json_pack("{s:s s:{s:f s:s} s:{s:f s:s}}", "uarch", u->name, "branch_mispredict", "cycles",
			 u->penalty_branch, "source", u->penalty_branch_source, "l1d_miss", "cycles", u->penalty_l1d,
			 "source", u->penalty_l1d_source);
}

static json_t *names_json(const struct ud_diff_host *h)
{
	json_t *a = json_array();

	for (size_t i = 0; i < h->nonly; i++)
		json_array_append_new(a, json_string(h->only[i]));
	return a;
}

static json_t *env_json(const struct ud_diff *d)
{
	json_t *a = json_array();

	for (size_t i = 0; i < d->nenv; i++)
		json_array_append_new(a, json_pack("{s:s s:O s:O}", "field", d->env[i].field, "a", d->env[i].a, "b",
						   d->env[i].b));
	return a;
}

static json_t *finding_json(const struct ud_finding *f)
{
	json_t *ev = json_array(), *o;

	for (size_t i = 0; i < f->nevidence; i++)
		json_array_append_new(ev, json_string(f->evidence[i]));
	o = json_pack("{s:s s:s s:o}", "id", ud_finding_name(f->id), "hypothesis", f->hypothesis, "evidence", ev);
	if (o && f->confirm)
		json_object_set_new(o, "confirm", json_string(f->confirm));
	return o;
}

static json_t *array_of(const struct ud_diff *d, size_t n, json_t *(*one)(const struct ud_diff *, size_t))
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, one(d, i));
	return a;
}

static json_t *workload_at(const struct ud_diff *d, size_t i)
{
	return workload_json(&d->workloads[i]);
}

static json_t *finding_at(const struct ud_diff *d, size_t i)
{
	return finding_json(&d->findings[i]);
}

static json_t *summary_json(const struct ud_diff *d)
{
	const struct ud_diff_summary *s = &d->summary;
	json_t *composites = json_array(), *groups = json_array();

	for (int g = 0; g < UD_GROUP_COUNT; g++) {
		json_t *names = json_array();

		for (size_t i = 0; i < d->nworkloads; i++)
			if (d->workloads[i].group == (enum ud_group)g && ud_diff_in_summary(d, &d->workloads[i]))
				json_array_append_new(names, json_string(d->workloads[i].a->name));
		if (json_array_size(names))
			json_array_append_new(groups, json_pack("{s:s s:o s:o}", "name", ud_group_name((enum ud_group)g),
								"workloads", names, "geomean_speedup",
								num(s->group_geomean[g])));
		else
			json_decref(names);
	}
	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_diff_workload *w = &d->workloads[i];

		if (w->composite)
			json_array_append_new(composites, json_pack("{s:s s:o s:o s:o}", "name", w->a->name, "a",
								    num(w->a->score.median), "b",
								    num(w->b->score.median), "ratio", num(w->speedup)));
	}
	return json_pack("{s:o s:I s:s s:o s:o s:b s:s}", "geomean_speedup", num(s->geomean_speedup), "workloads",
			 (json_int_t)s->ngeomean, "speedup_basis", ud_speedup_basis_name(s->basis), "composites",
			 composites, "groups", groups, "counters", s->counters, "headline", s->headline);
}

json_t *ud_diff_to_json(const struct ud_diff *d)
{
	const struct ud_diff_host *a = &d->host[UD_SIDE_A], *b = &d->host[UD_SIDE_B];

	return json_pack("{s:s s:{s:s s:s} s:{s:s s:s} s:{s:s s:s} s:o s:o s:{s:o s:o} s:o s:o s:o s:o}", "schema",
			 UD_DIFF_SCHEMA, "tool", "name", "uarchdiff", "version", UD_VERSION, "baseline", "label", a->label,
			 "file", a->file, "candidate", "label", b->label, "file", b->file, "summary", summary_json(d),
			 "workloads",
			 array_of(d, d->nworkloads, workload_at), "cpi_penalties", "a", penalties_json(a->uarch), "b",
			 penalties_json(b->uarch), "only_in_baseline", names_json(a), "only_in_candidate", names_json(b),
			 "environment", env_json(d), "findings", array_of(d, d->nfindings, finding_at));
}
