/*
 * The uarchdiff.diff/2 document (SPEC §5, §5.3), written once from the typed
 * model through json_emit.h: straight to a file for `diff -f json`, into
 * compare's document, or into a tree for the tests that read the contract
 * (the reports read the model itself).  The keys come from the enums' name
 * tables; a number the model holds as NAN (or one that overflowed) is null.
 */
#include <math.h>
#include <string.h>

#include "diff.h"
#include "json_emit.h"
#include "topdown_json.h"

static void tristate(struct ud_jw *w, const char *key, int v)
{
	if (v < 0)
		ud_jw_null(w, key);
	else
		ud_jw_bool(w, key, v);
}

static void ab(struct ud_jw *w, const char *key, const struct ud_ab *v)
{
	ud_jw_object(w, key);
	ud_jw_real(w, "a", v->a);
	ud_jw_real(w, "b", v->b);
	ud_jw_real(w, "ratio", v->ratio);
	ud_jw_end(w);
}

static void factors(struct ud_jw *w, const char *key, const double *v)
{
	ud_jw_object(w, key);
	for (int f = 0; f < UD_FACTOR_COUNT; f++)
		ud_jw_real(w, ud_factor_name((enum ud_factor)f), v[f]);
	ud_jw_end(w);
}

/* [lo, hi], or null where either end is unknown. */
static void interval(struct ud_jw *w, const char *key, double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		ud_jw_null(w, key);
		return;
	}
	ud_jw_array(w, key);
	ud_jw_real(w, NULL, lo);
	ud_jw_real(w, NULL, hi);
	ud_jw_end(w);
}

/* Every metric on both sides, and whether its events mean the same on both (SPEC §5.2 "comparable"). */
static void metrics(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	ud_jw_object(w, "metrics");
	for (int i = 0; i < UD_METRIC_COUNT; i++) {
		const struct ud_ab *v = &dw->metric[i];

		ud_jw_object(w, ud_metric_name((enum ud_metric)i));
		ud_jw_real(w, "a", v->a);
		ud_jw_real(w, "b", v->b);
		ud_jw_real(w, "ratio", v->ratio);
		ud_jw_bool(w, "comparable", !dw->incomparable[i]);
		if (dw->incomparable[i])
			ud_jw_string(w, "reason", dw->incomparable[i]);
		if (isfinite(dw->printed[i].a) || isfinite(dw->printed[i].b)) {
			ud_jw_object(w, "printed");
			ud_jw_real(w, "a", dw->printed[i].a);
			ud_jw_real(w, "b", dw->printed[i].b);
			ud_jw_end(w);
		}
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

/* The counters credited with the change in cycles (SPEC §5.3 "causes"). */
static void causes(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	ud_jw_array(w, "causes");
	for (size_t i = 0; i < dw->ncauses; i++) {
		const struct ud_cause *c = &dw->causes[i];

		ud_jw_object(w, NULL);
		ud_jw_string(w, "counter", c->counter);
		ud_jw_string(w, "class", ud_counter_class_name(c->cls));
		ud_jw_string(w, "kind", c->kind == UD_CAUSE_MISS ? "miss" : "stall");
		ud_jw_real(w, "a", c->a);
		ud_jw_real(w, "b", c->b);
		ud_jw_real(w, "cycles", c->cycles);
		ud_jw_real(w, "cycles_share", c->cycles_share);
		ud_jw_real(w, "penalty", c->penalty);
		ud_jw_string(w, "penalty_source", c->penalty_source);
		ud_jw_real(w, "implied_cycles_per_event", c->implied);
		ud_jw_bool(w, "symptom", c->symptom);
		ud_jw_string(w, "evidence", c->evidence);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

/* Every counter per unit of work, with whether it moved outside its noise (SPEC §5.3 "movers"). */
static void movers(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	ud_jw_array(w, "movers");
	for (size_t i = 0; i < dw->nper_unit; i++) {
		const struct ud_per_unit *u = &dw->per_unit[i];

		if (strcmp(u->name, "user_ns") == 0 || strcmp(u->name, "sys_ns") == 0 || strcmp(u->name, "task-clock") == 0)
			continue; /* the times: the time split and the score's test speak for them */
		ud_jw_object(w, NULL);
		ud_jw_string(w, "counter", u->name);
		ud_jw_string(w, "class", ud_counter_class_name(u->cls));
		ud_jw_string(w, "mode", ud_counting_name(u->mode));
		ud_jw_real(w, "a", u->v.a);
		ud_jw_real(w, "b", u->v.b);
		ud_jw_real(w, "ratio", u->v.ratio);
		tristate(w, "significant", u->significant);
		ud_jw_real(w, "p", u->p);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

/* What was counted on both sides (SPEC §5.3 "counting"): one domain, "mixed" or "none", and the smaller coverage. */
static void counting(struct ud_jw *w, const struct ud_counting_info *c)
{
	enum ud_counting da = c->domain[UD_SIDE_A], db = c->domain[UD_SIDE_B];

	ud_jw_object(w, "counting");
	ud_jw_string(w, "domain", da == UD_COUNTING_COUNT || db == UD_COUNTING_COUNT ? "none"
				  : da == db                                       ? ud_counting_name(da)
										   : "mixed");
	ud_jw_real(w, "coverage", fmin(c->coverage[UD_SIDE_A], c->coverage[UD_SIDE_B]));
	ud_jw_string(w, "domain_a", da == UD_COUNTING_COUNT ? NULL : ud_counting_name(da));
	ud_jw_string(w, "domain_b", db == UD_COUNTING_COUNT ? NULL : ud_counting_name(db));
	ud_jw_bool(w, "approximate", c->approximate);
	ud_jw_string(w, "isa_a", c->isa[UD_SIDE_A]);
	ud_jw_string(w, "isa_b", c->isa[UD_SIDE_B]);
	ud_jw_bool(w, "cross_isa", c->cross_isa);
	ud_jw_end(w);
}

/* Why a factor is null where the counters are there (SPEC §5.3 "factor_notes"): only those. */
static void factor_notes(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	ud_jw_object(w, "factor_notes");
	for (int f = 0; f < UD_FACTOR_COUNT; f++)
		if (dw->factor_notes[f])
			ud_jw_string(w, ud_factor_name((enum ud_factor)f), dw->factor_notes[f]);
	ud_jw_end(w);
}

/* The branch and L1d parts charge each miss its full penalty: upper bounds where misses overlap. */
static void cpi_stack(struct ud_jw *w, const struct ud_cpi_stack *c)
{
	ud_jw_object(w, "cpi_stack");
	ud_jw_real(w, "cpi_a", c->cpi_a);
	ud_jw_real(w, "cpi_b", c->cpi_b);
	ud_jw_real(w, "delta_cpi", c->delta);
	ud_jw_real(w, "branch", c->branch);
	ud_jw_real(w, "l1d", c->l1d);
	ud_jw_real(w, "other", c->other);
	ud_jw_bool(w, "upper_bounds", true);
	ud_jw_bool(w, "overshoot", c->overshoot);
	ud_jw_end(w);
}

/* A side's record as in its profile, or null. */
static void topdown_side(struct ud_jw *w, const char *key, const struct ud_topdown *t)
{
	if (t)
		ud_topdown_emit(w, key, t);
	else
		ud_jw_null(w, key);
}

/* SPEC §5.2 "topdown": where either side has a record. */
static void topdown(struct ud_jw *w, const struct ud_diff_topdown *td)
{
	if (!td->a && !td->b)
		return;
	ud_jw_object(w, "topdown");
	topdown_side(w, "a", td->a);
	topdown_side(w, "b", td->b);
	ud_jw_bool(w, "same_method", td->same_method);
	ud_jw_string(w, "measure", ud_td_measure_name(td->measure));
	ud_jw_object(w, "cycles");
	ud_jw_real(w, "a", td->cycles_a);
	ud_jw_real(w, "b", td->cycles_b);
	ud_jw_end(w);
	ud_jw_object(w, "cycles_per_unit");
	for (int b = 0; b <= UD_TD_RESIDUAL; b++) {
		if (!td->written[b])
			continue;
		ud_jw_object(w, b == UD_TD_RESIDUAL ? "residual" : ud_topdown_bucket_name(b));
		ud_jw_real(w, "a", td->cycles[b].a);
		ud_jw_real(w, "b", td->cycles[b].b);
		ud_jw_real(w, "share_of_change", td->cycles[b].share_of_change);
		ud_jw_end(w);
	}
	ud_jw_end(w);
	ud_jw_end(w);
}

static void work(struct ud_jw *w, const struct ud_work *u)
{
	ud_jw_object(w, "work");
	ud_jw_real(w, "a", u->a);
	ud_jw_real(w, "b", u->b);
	ud_jw_string(w, "unit", u->unit);
	ud_jw_string(w, "basis", ud_work_basis_text(u->basis));
	ud_jw_end(w);
}

static void per_unit(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	ud_jw_object(w, "per_unit");
	for (size_t i = 0; i < dw->nper_unit; i++)
		ab(w, dw->per_unit[i].name, &dw->per_unit[i].v);
	ud_jw_end(w);
}

/* Counters one side counted and the other did not, where there are some: said, never dropped in silence. */
static void one_sided(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	if (!dw->none_sided)
		return;
	ud_jw_array(w, "one_sided");
	for (size_t i = 0; i < dw->none_sided; i++) {
		ud_jw_object(w, NULL);
		ud_jw_string(w, "name", dw->one_sided[i].name);
		ud_jw_string(w, "counted", dw->one_sided[i].counted == UD_SIDE_A ? "a" : "b");
		ud_jw_string(w, "other", dw->one_sided[i].other);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

static void time_split(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	ud_jw_object(w, "time_split");
	for (int m = 0; m < UD_MODE_COUNT; m++) {
		const struct ud_mode_part *p = &dw->mode[m];

		ud_jw_object(w, ud_mode_name((enum ud_mode)m));
		ud_jw_real(w, "a", p->a);
		ud_jw_real(w, "b", p->b);
		ud_jw_real(w, "share", p->share);
		/* Only where cycles and instructions were counted per mode on both sides. */
		if (isfinite(p->ipc.a) && isfinite(p->ipc.b))
			ab(w, "ipc", &p->ipc);
		if (isfinite(p->cycles_share))
			ud_jw_real(w, "cycles_share", p->cycles_share);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

/* The symbols whose share moved most (diff_hotspots.c), when both profiles were sampled. */
static void hotspots(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	ud_jw_array(w, "hotspots");
	for (size_t i = 0; i < dw->nhotspots; i++) {
		const struct ud_hotspot_move *m = &dw->hotspots[i];

		ud_jw_object(w, NULL);
		ud_jw_string(w, "symbol", m->symbol);
		ud_jw_string(w, "dso", m->dso);
		ud_jw_string(w, "mode", ud_mode_name(m->mode));
		ud_jw_real(w, "a_share", m->a_share);
		ud_jw_real(w, "b_share", m->b_share);
		ud_jw_real(w, "a_ns_per_unit", m->a_ns);
		ud_jw_real(w, "b_ns_per_unit", m->b_ns);
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

static void significance(struct ud_jw *w, const struct ud_significance *s)
{
	ud_jw_object(w, "significance");
	tristate(w, "significant", s->significant);
	ud_jw_string(w, "method", ud_sig_method_name(s->method));
	ud_jw_real(w, "p", s->p);
	interval(w, "ci95", s->lo, s->hi);
	ud_jw_string(w, "note", s->note);
	ud_jw_end(w);
}

static void workload_head(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	const struct ud_workload *a = dw->a, *b = dw->b;

	ud_jw_string(w, "name", a->name);
	ud_jw_string(w, "units", a->units);
	ud_jw_bool(w, "higher_is_better", a->higher_is_better != 0);
	ud_jw_object(w, "score");
	ud_jw_real(w, "a", a->score.median);
	ud_jw_real(w, "b", b->score.median);
	ud_jw_end(w);
	ud_jw_real(w, "speedup", dw->speedup);
	ud_jw_string(w, "speedup_basis", ud_speedup_basis_name(dw->basis));
	ud_jw_string(w, "group", ud_group_name(dw->group));
	ud_jw_bool(w, "composite", dw->composite);
	work(w, &dw->work);
	ud_jw_string(w, "work_basis", ud_work_basis_text(dw->work.basis));
}

static void workload(struct ud_jw *w, const struct ud_diff_workload *dw)
{
	ud_jw_object(w, NULL);
	workload_head(w, dw);
	ud_jw_string(w, "verdict", ud_verdict_name(dw->verdict));
	ud_jw_string(w, "verdict_reason", dw->verdict_reason);
	counting(w, &dw->counting);
	factors(w, "factors", dw->factor);
	factor_notes(w, dw);
	factors(w, "shares", dw->share);
	metrics(w, dw);
	causes(w, dw);
	movers(w, dw);
	if (dw->crossing)
		ud_jw_bool(w, "kernel_crossing", true);
	per_unit(w, dw);
	one_sided(w, dw);
	time_split(w, dw);
	if (dw->user_mode_only)
		ud_jw_bool(w, "user_mode_only", true);
	if (dw->modes_differ)
		ud_jw_bool(w, "modes_differ", true);
	if (dw->low_ipc)
		ud_jw_bool(w, "low_ipc", true);
	if (dw->foreign_counts)
		ud_jw_bool(w, "counts_own_work", false);
	if (dw->a->hotspots && dw->b->hotspots) /* SPEC §5.1: when both profiles have them */
		hotspots(w, dw);
	ud_jw_string(w, "dominant", dw->has_dominant ? ud_factor_name(dw->dominant) : NULL);
	cpi_stack(w, &dw->cpi);
	topdown(w, &dw->topdown);
	significance(w, &dw->sig);
	tristate(w, "significant", dw->sig.significant);
	ud_jw_string(w, "explanation", dw->explanation);
	ud_jw_end(w);
}

static void penalty(struct ud_jw *w, const char *key, double cycles, const char *source)
{
	ud_jw_object(w, key);
	ud_jw_real(w, "cycles", cycles);
	ud_jw_string(w, "source", source);
	ud_jw_end(w);
}

/* Each host's penalties with their sources, or nulls where the table has none. */
static void penalties(struct ud_jw *w, const char *key, const struct ud_uarch *u)
{
	ud_jw_object(w, key);
	ud_jw_string(w, "uarch", u ? u->name : NULL);
	if (!u || !isfinite(u->penalty_branch) || !isfinite(u->penalty_l1d)) {
		ud_jw_null(w, "branch_mispredict");
		ud_jw_null(w, "l1d_miss");
	} else {
		penalty(w, "branch_mispredict", u->penalty_branch, u->penalty_branch_source);
		penalty(w, "l1d_miss", u->penalty_l1d, u->penalty_l1d_source);
	}
	ud_jw_end(w);
}

static void only_in(struct ud_jw *w, const char *key, const struct ud_diff_host *h)
{
	ud_jw_array(w, key);
	for (size_t i = 0; i < h->nonly; i++)
		ud_jw_string(w, NULL, h->only[i]);
	ud_jw_end(w);
}

static void ud_env_entry_emit(const struct ud_env_entry *e, struct ud_jw *w)
{
	ud_jw_object(w, NULL);
	ud_jw_string(w, "field", e->field);
	ud_fact_emit(w, "a", &e->a);
	ud_fact_emit(w, "b", &e->b);
	ud_jw_end(w);
}

static void environment(const struct ud_diff *d, struct ud_jw *w)
{
	ud_jw_array(w, "environment");
	for (size_t i = 0; i < d->nenv; i++)
		ud_env_entry_emit(&d->env[i], w);
	ud_jw_end(w);
}

static void findings(struct ud_jw *w, const struct ud_diff *d)
{
	ud_jw_array(w, "findings");
	for (size_t i = 0; i < d->nfindings; i++) {
		const struct ud_finding *f = &d->findings[i];

		ud_jw_object(w, NULL);
		ud_jw_string(w, "id", ud_finding_name(f->id));
		ud_jw_string(w, "hypothesis", f->hypothesis);
		ud_jw_array(w, "evidence");
		for (size_t k = 0; k < f->nevidence; k++)
			ud_jw_string(w, NULL, f->evidence[k]);
		ud_jw_end(w);
		ud_jw_string(w, "confirm", f->confirm); /* SPEC §5.1: every finding has it; null where no rule names a check */
		ud_jw_end(w);
	}
	ud_jw_end(w);
}

static void summary_groups(struct ud_jw *w, const struct ud_diff *d)
{
	ud_jw_array(w, "groups");
	for (int g = 0; g < UD_GROUP_COUNT; g++) {
		bool any = false;

		for (size_t i = 0; i < d->nworkloads; i++) {
			const struct ud_diff_workload *dw = &d->workloads[i];

			if (dw->group != (enum ud_group)g || !ud_diff_in_summary(d, dw))
				continue;
			if (!any) {
				ud_jw_object(w, NULL);
				ud_jw_string(w, "name", ud_group_name((enum ud_group)g));
				ud_jw_array(w, "workloads");
				any = true;
			}
			ud_jw_string(w, NULL, dw->a->name);
		}
		if (any) {
			ud_jw_end(w);
			ud_jw_real(w, "geomean_speedup", d->summary.group_geomean[g]);
			ud_jw_end(w);
		}
	}
	ud_jw_end(w);
}

static void summary(struct ud_jw *w, const struct ud_diff *d)
{
	const struct ud_diff_summary *s = &d->summary;

	ud_jw_object(w, "summary");
	ud_jw_real(w, "geomean_speedup", s->geomean_speedup);
	interval(w, "geomean_ci95", s->geomean_lo, s->geomean_hi);
	ud_jw_integer(w, "workloads", (json_int_t)s->ngeomean);
	ud_jw_string(w, "speedup_basis", ud_speedup_basis_name(s->basis));
	ud_jw_array(w, "composites");
	for (size_t i = 0; i < d->nworkloads; i++) {
		const struct ud_diff_workload *dw = &d->workloads[i];

		if (!dw->composite)
			continue;
		ud_jw_object(w, NULL);
		ud_jw_string(w, "name", dw->a->name);
		ud_jw_real(w, "a", dw->a->score.median);
		ud_jw_real(w, "b", dw->b->score.median);
		ud_jw_real(w, "ratio", dw->speedup);
		ud_jw_end(w);
	}
	ud_jw_end(w);
	summary_groups(w, d);
	ud_jw_bool(w, "counters", s->counters);
	ud_jw_string(w, "headline", s->headline);
	ud_jw_end(w);
}

static void side(struct ud_jw *w, const char *key, const struct ud_diff_host *h)
{
	ud_jw_object(w, key);
	ud_jw_string(w, "label", h->label);
	ud_jw_string(w, "file", h->file);
	ud_jw_end(w);
}

void ud_diff_emit(const struct ud_diff *d, struct ud_jw *w, const char *key)
{
	ud_jw_object(w, key);
	ud_jw_string(w, "schema", UD_DIFF_SCHEMA);
	ud_jw_object(w, "tool");
	ud_jw_string(w, "name", "uarchdiff");
	ud_jw_string(w, "version", UD_VERSION);
	ud_jw_end(w);
	side(w, "baseline", &d->host[UD_SIDE_A]);
	side(w, "candidate", &d->host[UD_SIDE_B]);
	summary(w, d);
	ud_jw_array(w, "workloads");
	for (size_t i = 0; i < d->nworkloads; i++)
		workload(w, &d->workloads[i]);
	ud_jw_end(w);
	ud_jw_object(w, "cpi_penalties");
	penalties(w, "a", d->host[UD_SIDE_A].uarch);
	penalties(w, "b", d->host[UD_SIDE_B].uarch);
	ud_jw_end(w);
	only_in(w, "only_in_baseline", &d->host[UD_SIDE_A]);
	only_in(w, "only_in_candidate", &d->host[UD_SIDE_B]);
	environment(d, w);
	findings(w, d);
	ud_jw_end(w);
}

json_t *ud_diff_to_json(const struct ud_diff *d)
{
	struct ud_jw *w = ud_jw_tree();
	json_t *doc;

	ud_diff_emit(d, w, NULL);
	return ud_jw_finish(w, &doc) == 0 ? doc : NULL;
}

int ud_diff_write_json(const struct ud_diff *d, FILE *f)
{
	struct ud_jw *w = ud_jw_text(f);

	ud_diff_emit(d, w, NULL);
	return ud_jw_finish(w, NULL);
}
