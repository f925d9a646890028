/*
 * fleet_fold.c - each profile folded into its group as it is read: its
 * key facts pick the group, its numbers join the group's per workload,
 * its facts vote for the group's median host, and the profile is freed
 * (fleet_priv.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "fleet_priv.h"
#include "host_facts.h"
#include "import.h"
#include "json_emit.h"
#include "sort.h"

const char *const ud_fleet_default_keys[] = { "cpu.vendor", "cpu.uarch", "cpu.online_cpus" };
const size_t ud_fleet_default_nkeys = sizeof(ud_fleet_default_keys) / sizeof(ud_fleet_default_keys[0]);

/* A key fact as text ("zen4", "64"), owned; NULL where unknown ("generic" is the table of no known core). */
static char *key_text(const struct ud_profile *p, const char *field, bool *oom)
{
	struct ud_fact v = ud_host_fact(p->host, field);
	char buf[512], *t;
	const char *s;

	if (v.type == UD_FACT_ABSENT || v.type == UD_FACT_NULL || v.type == UD_FACT_GROUP)
		return NULL;
	s = ud_fact_text(&v, buf, sizeof(buf));
	if (v.type == UD_FACT_STRING && (!*s || strcmp(s, "unknown") == 0 || strcmp(s, "generic") == 0))
		return NULL;
	t = strdup(s);
	*oom = *oom || !t;
	return t;
}

static bool same_key(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int push(struct ud_fleet_values *d, double x)
{
	if (!isfinite(x))
		return 0;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 8;
		double *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			return -1;
		d->v = v;
		d->cap = cap;
	}
	d->v[d->n++] = x;
	return 0;
}

/* Grows *p (of *cap elements of size sz) to hold at least need. */
static int grow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t n = *cap ? *cap : 4;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (!(q = realloc(*p, n * sz)))
		return -1;
	memset((char *)q + *cap * sz, 0, (n - *cap) * sz);
	*p = q;
	*cap = n;
	return 0;
}

/* The group of host i's keys, made where none has them; all unknown: a group of its own. */
static long group_of(struct ud_fleet_acc *a, size_t i, char **keys)
{
	bool known = false;
	size_t g = 0;

	for (size_t k = 0; k < a->nkeys; k++)
		known = known || keys[k];
	for (; known && g < a->ngroups; g++) {
		bool same = true;

		for (size_t k = 0; k < a->nkeys && same; k++)
			same = same_key(a->groups[g].keys[k], keys[k]);
		if (same)
			break;
	}
	if (known && g < a->ngroups) {
		for (size_t k = 0; k < a->nkeys; k++)
			free(keys[k]);
		free(keys);
		a->groups[g].first = i < a->groups[g].first ? i : a->groups[g].first;
		return (long)g;
	}
	if (grow((void **)&a->groups, &a->cap, a->ngroups + 1, sizeof(*a->groups)) != 0)
		return -1;
	a->groups[a->ngroups] = (struct ud_fleet_acc_group){ .keys = keys, .first = i };
	return (long)a->ngroups++;
}

/*
 * Whether w is measured as id's variant is: both by CPU time, or both by a
 * score of the same units and direction (unknown is a value of its own here;
 * the majority is reconciled with such hosts by diff's rule once all are in).
 */
static bool same_variant(const struct ud_fleet_acc *a, size_t id, const struct ud_workload *w)
{
	const struct ud_fleet_workload *fw = &a->workloads[id];
	bool scored = isfinite(w->score.median);

	if (strcmp(fw->name, w->name) != 0 || a->variants[id].scored != scored)
		return false;
	return !scored || (same_key(fw->units, w->units) && fw->direction == w->higher_is_better);
}

/* The id of workload w's variant (met in host i at position j), registered on first sight. */
static long workload_id(struct ud_fleet_acc *a, const struct ud_workload *w, size_t i, size_t j)
{
	size_t id = 0, pos = i * 65536 + (j < 65535 ? j : 65535);
	struct ud_fleet_workload *fw;

	while (id < a->nworkloads && !same_variant(a, id, w))
		id++;
	if (id < a->nworkloads) {
		a->first_pos[id] = pos < a->first_pos[id] ? pos : a->first_pos[id];
		a->workloads[id].composite = a->workloads[id].composite || w->composite;
		a->variants[id].nhosts++;
		return (long)id;
	}
	if (grow((void **)&a->workloads, &a->capw, id + 1, sizeof(*a->workloads)) != 0)
		return -1;
	if (!(a->first_pos = realloc(a->first_pos, a->capw * sizeof(*a->first_pos))) ||
	    !(a->variants = realloc(a->variants, a->capw * sizeof(*a->variants))))
		return -1;
	fw = &a->workloads[id];
	fw->name = strdup(w->name);
	fw->higher_is_better = isfinite(w->score.median) ? w->higher_is_better != 0 : false;
	fw->units = isfinite(w->score.median) ? (w->units ? strdup(w->units) : NULL) : strdup("ns of CPU time per unit");
	fw->composite = w->composite;
	fw->direction = w->higher_is_better;
	a->variants[id] = (struct ud_fleet_variant){ isfinite(w->score.median), false, 1 };
	a->first_pos[id] = pos;
	a->nworkloads++;
	return fw->name ? (long)id : -1;
}

/*
 * The value the fleet compares, by w's variant: the score, else CPU time
 * (task-clock) per unit of work.  A score of unknown units is still a score.
 */
static double value_of(const struct ud_fleet_variant *var, const struct ud_workload *w)
{
	double t, u;

	if (var->scored)
		return w->score.median;
	t = ud_workload_task_clock_ns(w);
	u = isfinite(w->work_units) && w->work_units > 0 ? w->work_units : 1;
	return t / u;
}

/*
 * The 95% interval of the value compared, relative to it, as the profile
 * measured it: the score's (its samples', else 1.96 standard errors of a
 * summary), else for CPU time the task-clock's standard error over perf's
 * runs; NAN where one run leaves it unknown.
 */
static double interval_of(const struct ud_fleet_variant *var, const struct ud_workload *w)
{
	const struct ud_counter *c;

	if (var->scored) {
		if (isfinite(w->score.ci95_rel))
			return w->score.ci95_rel;
		return w->score.rel_stderr >= 0 ? 1.96 * w->score.rel_stderr : NAN;
	}
	c = ud_workload_task_clock(w);
	return c && c->rel_stddev >= 0 ? 1.96 * c->rel_stddev : NAN;
}

/* Host i's first noise warning on workload id, kept; 0 or -1 out of memory. */
static int keep_warning(struct ud_fleet_acc *a, size_t i, size_t id, const struct ud_workload *w)
{
	struct ud_fleet_warning *ws;

	if (!w->noise || !w->noise->nwarnings)
		return 0;
	ws = realloc(a->host_warnings[i], (a->host_nwarnings[i] + 1) * sizeof(*ws));
	if (!ws)
		return -1;
	a->host_warnings[i] = ws;
	ws[a->host_nwarnings[i]] = (struct ud_fleet_warning){ id, strdup(w->noise->warnings[0]) };
	return ws[a->host_nwarnings[i]++].text ? 0 : -1;
}

static char *dup_or_null(const char *s, bool *oom)
{
	char *t = s ? strdup(s) : NULL;

	*oom = *oom || (s && !t);
	return t;
}

/* Every counted counter of w into the group's workload aw. */
static int fold_counters(struct ud_fleet_acc_workload *aw, const struct ud_workload *w, size_t i)
{
	bool oom = false;

	for (size_t c = 0; c < w->ncounters; c++) {
		const struct ud_counter *ct = &w->counters[c];
		size_t k = 0;

		if (ct->status != UD_COUNTED || !isfinite(ct->value))
			continue;
		/* a fleet's hosts list their counters in one order: the same place first (names are unique here) */
		if (c < aw->ncounters && strcmp(aw->counters[c].name, ct->name) == 0)
			k = c;
		while (k < aw->ncounters && strcmp(aw->counters[k].name, ct->name) != 0)
			k++;
		if (k == aw->ncounters) {
			if (grow((void **)&aw->counters, &aw->cap, k + 1, sizeof(*aw->counters)) != 0)
				return -1;
			aw->counters[k].name = dup_or_null(ct->name, &oom);
			aw->counters[k].first = SIZE_MAX;
			aw->ncounters++;
		}
		if (i < aw->counters[k].first) {
			struct ud_fleet_acc_counter *ac = &aw->counters[k];

			free(ac->semantics);
			free(ac->vendor_event);
			free(ac->opened_as);
			ac->semantics = dup_or_null(ct->semantics, &oom);
			ac->vendor_event = dup_or_null(ct->vendor_event, &oom);
			ac->opened_as = dup_or_null(ct->opened_as, &oom);
			ac->first = i;
		}
		if (oom || push(&aw->counters[k].v, ct->value) != 0)
			return -1;
	}
	return 0;
}

/* Host i's workloads into group g and its values; 0 or -1 out of memory. */
static int fold_workloads(struct ud_fleet_acc *a, size_t g, size_t i, const struct ud_profile *p)
{
	struct ud_fleet_acc_group *grp = &a->groups[g];

	if (!(a->host_values[i] = malloc((p->nworkloads ? p->nworkloads : 1) * 3 * sizeof(double))))
		return -1;
	for (size_t j = 0; j < p->nworkloads; j++) {
		const struct ud_workload *w = &p->workloads[j];
		long id = workload_id(a, w, i, j);
		struct ud_fleet_acc_workload *aw;
		double v;

		if (id < 0 || grow((void **)&grp->w, &grp->nw, (size_t)id + 1, sizeof(*grp->w)) != 0)
			return -1;
		aw = &grp->w[id];
		v = value_of(&a->variants[id], w);
		a->host_values[i][3 * a->host_nvalues[i]] = (double)id;
		a->host_values[i][3 * a->host_nvalues[i] + 1] = v;
		a->host_values[i][3 * a->host_nvalues[i]++ + 2] = interval_of(&a->variants[id], w);
		if (keep_warning(a, i, (size_t)id, w) != 0 || push(&aw->value, v) || push(&aw->score, w->score.median) || push(&aw->work_units, w->work_units) ||
		    push(&aw->elapsed, w->elapsed_ns) || push(&aw->user, w->user_ns) || push(&aw->sys, w->sys_ns) ||
		    fold_counters(aw, w, i) != 0)
			return -1;
	}
	return 0;
}

/* Fields that name or date a host: not votes for what the group's hosts are. */
static bool names_the_host(const char *field)
{
	return strcmp(field, "label") == 0 || strcmp(field, "hostname") == 0 || strcmp(field, "collected_at") == 0;
}

/*
 * fact as the JSON value the profile writes ("\"6.8.0\"", "64", "true",
 * "[\"cpu_core\",\"cpu_atom\"]"), on one line, owned; NULL out of memory.
 * The writer lays a list fact out over lines: each line break and the
 * indentation after it go (no string holds a raw line break), where cutting
 * at the first one left "[" for the median host to refuse.
 */
static char *fact_json(const struct ud_fact *fact)
{
	char *buf = NULL, *to;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ud_jw *w;

	if (!f)
		return NULL;
	w = ud_jw_text(f);
	ud_fact_emit(w, NULL, fact);
	if (ud_jw_finish(w, NULL) != 0 || fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	to = buf;
	for (const char *from = buf; *from; from++) {
		if (*from == '\n') {
			while (from[1] == ' ')
				from++;
			continue;
		}
		*to++ = *from;
	}
	*to = '\0';
	return buf;
}

static int vote(struct ud_fleet_acc_group *g, const char *field, const struct ud_fact *fact, size_t i)
{
	size_t f = 0, k = 0;
	struct ud_fleet_fact *acc;
	char *v;

	while (f < g->nfacts && strcmp(g->facts[f].field, field) != 0)
		f++;
	if (f == g->nfacts) {
		if (grow((void **)&g->facts, &g->cap, f + 1, sizeof(*g->facts)) != 0 || !(g->facts[f].field = strdup(field)))
			return -1;
		g->nfacts++;
	}
	acc = &g->facts[f];
	if (!(v = fact_json(fact)))
		return -1;
	while (k < acc->nvotes && strcmp(acc->votes[k].value, v) != 0)
		k++;
	if (k == acc->nvotes) {
		if (grow((void **)&acc->votes, &acc->cap, k + 1, sizeof(*acc->votes)) != 0) {
			free(v);
			return -1;
		}
		acc->votes[k] = (struct ud_fleet_vote){ .value = v, .first = i };
		acc->nvotes++;
	} else {
		free(v);
	}
	acc->votes[k].count++;
	acc->votes[k].first = i < acc->votes[k].first ? i : acc->votes[k].first;
	if (!ud_fleet_split_fact(field))
		return 0;
	if (grow((void **)&acc->votes[k].who, &acc->votes[k].capwho, acc->votes[k].nwho + 1, sizeof(size_t)) != 0)
		return -1;
	acc->votes[k].who[acc->votes[k].nwho++] = i;
	return 0;
}

struct voter {
	struct ud_fleet_acc_group *g;
	size_t i;
};

/* One known fact of a host votes in its group (host_facts.h's walk). */
static int vote_fact(const char *name, const struct ud_fact *v, void *arg)
{
	struct voter *who = arg;

	if (v->type == UD_FACT_GROUP || v->type == UD_FACT_NULL || v->type == UD_FACT_ABSENT || names_the_host(name))
		return 0;
	return vote(who->g, name, v, who->i);
}

/* Every fact host i knows votes in group g. */
static int vote_facts(struct ud_fleet_acc_group *g, const struct ud_host *h, size_t i)
{
	struct voter who = { g, i };

	return ud_host_each_fact(h, vote_fact, &who);
}

/* Whether host i has no hardware counts, and the first such host's reason. */
static void no_pmu_of(struct ud_fleet_acc *a, size_t i, const struct ud_profile *p)
{
	char buf[UD_NO_PMU_REASON_MAX];

	a->host_no_pmu[i] = ud_profile_no_pmu_reason(p, buf, sizeof(buf)) != NULL;
	if (a->host_no_pmu[i] && i < a->no_pmu_index) {
		snprintf(a->no_pmu_reason, sizeof(a->no_pmu_reason), "%s", buf);
		a->no_pmu_index = i;
	}
}

/*
 * Keeps p when it is the first profile and the baseline; else frees it.  A
 * labelled baseline is read again once every host is named (fleet_names.c):
 * which host a label means is known only when all are.
 */
static void keep_or_free(struct ud_fleet_acc *a, size_t i, struct ud_profile *p)
{
	if (a->in->baseline == UD_FLEET_FIRST && i < a->keep_index) {
		ud_profile_free(a->keep);
		a->keep = p;
		a->keep_index = i;
		return;
	}
	ud_profile_free(p);
}

static int fold_one(void *ctx, size_t i, struct ud_profile *p, const struct ud_err *err)
{
	struct ud_fleet_acc *a = ctx;
	bool oom = false;
	char **keys;
	const char *label;
	long g;

	if (!p) {
		a->errs[i] = *err;
		ud_import_explain_not_profile(a->in->paths[i], &a->errs[i]);
		return 0;
	}
	/* a score no ratio can use would be a median's half in a small group: the host is left out, as diff refuses it */
	for (size_t j = 0; j < p->nworkloads; j++)
		if (ud_diff_check_score(&p->workloads[j], a->in->paths[i], &a->errs[i]) != 0) {
			ud_profile_free(p);
			return 0;
		}
	label = ud_host_label(p->host, a->in->paths[i]);
	a->host_labels[i] = strdup(label);
	keys = calloc(a->nkeys ? a->nkeys : 1, sizeof(*keys));
	for (size_t k = 0; keys && k < a->nkeys; k++) {
		enum ud_fact_type type = ud_host_fact(p->host, a->keys[k]).type;

		keys[k] = key_text(p, a->keys[k], &oom);
		a->key_present[k] = a->key_present[k] || type != UD_FACT_ABSENT;
		a->key_known[k] = a->key_known[k] || keys[k];
		a->key_group[k] = a->key_group[k] || type == UD_FACT_GROUP;
	}
	g = keys && !oom && a->host_labels[i] ? group_of(a, i, keys) : -1;
	if (g < 0 || fold_workloads(a, (size_t)g, i, p) != 0 || vote_facts(&a->groups[g], p->host, i) != 0) {
		ud_profile_free(p);
		a->out_of_memory = true;
		return -1;
	}
	a->host_group[i] = (size_t)g;
	a->host_incomplete[i] = p->incomplete != 0;
	no_pmu_of(a, i, p);
	keep_or_free(a, i, p);
	return 0;
}

int ud_fleet_fold_all(struct ud_fleet_acc *a)
{
	size_t n = a->in->n;

	a->host_group = malloc(n * sizeof(*a->host_group));
	a->host_values = calloc(n, sizeof(*a->host_values));
	a->host_nvalues = calloc(n, sizeof(*a->host_nvalues));
	a->host_warnings = calloc(n, sizeof(*a->host_warnings));
	a->host_nwarnings = calloc(n, sizeof(*a->host_nwarnings));
	a->host_labels = calloc(n, sizeof(*a->host_labels));
	a->errs = calloc(n, sizeof(*a->errs));
	a->host_incomplete = calloc(n, sizeof(*a->host_incomplete));
	a->host_no_pmu = calloc(n, sizeof(*a->host_no_pmu));
	a->no_pmu_index = SIZE_MAX;
	a->keep_index = SIZE_MAX;
	if (!a->host_group || !a->host_values || !a->host_nvalues || !a->host_labels || !a->errs || !a->host_incomplete ||
	    !a->host_no_pmu || !a->host_warnings || !a->host_nwarnings)
		return -1;
	for (size_t i = 0; i < n; i++)
		a->host_group[i] = SIZE_MAX;
	return ud_profile_load_fold(a->in->paths, n, fold_one, a) == 0 && !a->out_of_memory ? 0 : -1;
}

static int append(struct ud_fleet_values *to, const struct ud_fleet_values *from)
{
	for (size_t k = 0; k < from->n; k++)
		if (push(to, from->v[k]) != 0)
			return -1;
	return 0;
}

/* Group workload from's numbers and counters added to to's; a counter's metadata stays the lowest host's. */
static int merge_acc(struct ud_fleet_acc_workload *to, struct ud_fleet_acc_workload *from)
{
	if (append(&to->value, &from->value) || append(&to->score, &from->score) ||
	    append(&to->work_units, &from->work_units) || append(&to->elapsed, &from->elapsed) ||
	    append(&to->user, &from->user) || append(&to->sys, &from->sys))
		return -1;
	for (size_t c = 0; c < from->ncounters; c++) {
		struct ud_fleet_acc_counter *fc = &from->counters[c], *tc, t;
		size_t k = 0;

		while (k < to->ncounters && strcmp(to->counters[k].name, fc->name) != 0)
			k++;
		if (k == to->ncounters) {
			if (grow((void **)&to->counters, &to->cap, k + 1, sizeof(*to->counters)) != 0)
				return -1;
			to->counters[to->ncounters++] = *fc; /* moved: from's is emptied */
			*fc = (struct ud_fleet_acc_counter){ 0 };
			continue;
		}
		tc = &to->counters[k];
		if (fc->first < tc->first) {
			t = *tc;
			tc->semantics = fc->semantics, tc->vendor_event = fc->vendor_event, tc->opened_as = fc->opened_as;
			tc->first = fc->first;
			fc->semantics = t.semantics, fc->vendor_event = t.vendor_event, fc->opened_as = t.opened_as;
		}
		if (append(&tc->v, &fc->v) != 0)
			return -1;
	}
	return 0;
}

/* Every host's value and warning of id from moved to id to. */
static void rename_id(struct ud_fleet_acc *a, size_t from, size_t to)
{
	for (size_t i = 0; i < a->in->n; i++) {
		for (size_t j = 0; a->host_values[i] && j < a->host_nvalues[i]; j++)
			if ((size_t)a->host_values[i][3 * j] == from)
				a->host_values[i][3 * j] = (double)to;
		for (size_t j = 0; a->host_warnings[i] && j < a->host_nwarnings[i]; j++)
			if (a->host_warnings[i][j].workload == from)
				a->host_warnings[i][j].workload = to;
	}
}

/* Variant l, which diff's rule finds comparable with w (only what one side does not know differs), folded into w. */
static int merge_variant(struct ud_fleet_acc *a, size_t l, size_t w)
{
	for (size_t g = 0; g < a->ngroups; g++) {
		struct ud_fleet_acc_group *grp = &a->groups[g];

		if (l >= grp->nw)
			continue;
		if (grow((void **)&grp->w, &grp->nw, w + 1, sizeof(*grp->w)) != 0 || merge_acc(&grp->w[w], &grp->w[l]) != 0)
			return -1;
	}
	rename_id(a, l, w);
	a->workloads[w].composite = a->workloads[w].composite || a->workloads[l].composite;
	a->variants[w].nhosts += a->variants[l].nhosts;
	return 0;
}

/*
 * 0 where variant l of a workload (host file's) has a ratio to the
 * majority's w by diff's rule; else -1 with err worded as diff words it.
 */
static int check_variant(const struct ud_fleet_acc *a, const char *file, size_t l, size_t w, struct ud_err *err)
{
	const struct ud_fleet_workload *fl = &a->workloads[l], *fw = &a->workloads[w];
	struct ud_workload hl = { .name = fl->name, .units = fl->units, .higher_is_better = fl->direction };
	struct ud_workload hw = { .name = fw->name, .units = fw->units, .higher_is_better = fw->direction };
	char others[64];

	snprintf(others, sizeof(others), "the %zu other host%s", a->variants[w].nhosts,
		 a->variants[w].nhosts == 1 ? "" : "s");
	if (a->variants[l].scored != a->variants[w].scored)
		return ud_fail(err, "workload '%s': %s in %s, %s in %s: not comparable", fl->name,
			       a->variants[l].scored ? "a score" : "no score", file,
			       a->variants[w].scored ? "a score" : "no score (CPU time compared)", others);
	return ud_diff_check_comparable(&hl, &hw, file, others, err);
}

/* Every host of variant l left out of its workload (the majority's w), with diff's reason. */
static int leave_out(struct ud_fleet_acc *a, size_t l, size_t w)
{
	for (size_t i = 0; i < a->in->n; i++) {
		size_t j = 0, k = 0, n = a->host_values[i] ? a->host_nvalues[i] : 0;
		struct ud_fleet_exclusion *e;
		struct ud_err err = UD_ERR_INIT;

		while (j < n && (size_t)a->host_values[i][3 * j] != l)
			j++;
		if (j == n)
			continue;
		memmove(&a->host_values[i][3 * j], &a->host_values[i][3 * j + 3], 3 * (n - j - 1) * sizeof(double));
		a->host_nvalues[i]--;
		for (size_t m = 0; a->host_warnings[i] && m < a->host_nwarnings[i]; m++)
			if (a->host_warnings[i][m].workload == l)
				free(a->host_warnings[i][m].text);
			else
				a->host_warnings[i][k++] = a->host_warnings[i][m];
		a->host_nwarnings[i] = a->host_warnings[i] ? k : a->host_nwarnings[i];
		check_variant(a, a->in->paths[i], l, w, &err);
		if (!(e = realloc(a->excluded, (a->nexcluded + 1) * sizeof(*e))))
			return -1;
		a->excluded = e;
		e[a->nexcluded] = (struct ud_fleet_exclusion){ i, w, strdup(err.msg) };
		if (!e[a->nexcluded++].reason)
			return -1;
	}
	return 0;
}

/* Of two variants of a name, the one most hosts measured; on a tie the one met first in the order given. */
static bool better_variant(const struct ud_fleet_acc *a, size_t x, size_t y)
{
	if (a->variants[x].nhosts != a->variants[y].nhosts)
		return a->variants[x].nhosts > a->variants[y].nhosts;
	return a->first_pos[x] < a->first_pos[y];
}

/*
 * Each workload's variants reconciled: the majority's is the workload, a
 * variant diff's rule finds comparable with it joins it, and the hosts of
 * any other are left out of that workload alone.  Decided on counts and the
 * order given, so the loading order changes nothing.
 */
static int reconcile(struct ud_fleet_acc *a)
{
	for (size_t id = 0; id < a->nworkloads; id++) {
		size_t w = id;
		struct ud_err scratch = UD_ERR_INIT; /* the wording is each host's own, made where it is left out */

		if (a->variants[id].dead)
			continue;
		for (size_t k = id + 1; k < a->nworkloads; k++)
			if (!a->variants[k].dead && strcmp(a->workloads[k].name, a->workloads[id].name) == 0 &&
			    better_variant(a, k, w))
				w = k;
		for (size_t l = id; l < a->nworkloads; l++) {
			if (l == w || a->variants[l].dead || strcmp(a->workloads[l].name, a->workloads[w].name) != 0)
				continue;
			if (check_variant(a, "", l, w, &scratch) == 0 ? merge_variant(a, l, w) : leave_out(a, l, w))
				return -1;
			a->variants[l].dead = true;
			/* the workload keeps its place: where its name first appears, whoever measured it so */
			a->first_pos[w] = a->first_pos[l] < a->first_pos[w] ? a->first_pos[l] : a->first_pos[w];
		}
	}
	return 0;
}

static const size_t *sort_keys; /* qsort has no context argument; finish is not reentrant */

static int by_key(const void *x, const void *y)
{
	size_t a = sort_keys[*(const size_t *)x], b = sort_keys[*(const size_t *)y];

	return (a > b) - (a < b);
}

/* ids[0..n) ordered by key[id]. */
static size_t *order_by(const size_t *key, size_t n)
{
	size_t *ids = malloc((n ? n : 1) * sizeof(*ids));

	if (!ids)
		return NULL;
	for (size_t i = 0; i < n; i++)
		ids[i] = i;
	sort_keys = key;
	ud_sort(ids, n, sizeof(*ids), by_key);
	return ids;
}

/* The hosts that loaded, in input order, their values by the fleet's workload order. */
static int finish_hosts(struct ud_fleet_acc *a, struct ud_fleet *f, const size_t *wrank, const size_t *grank)
{
	size_t n = a->in->n;

	f->hosts = calloc(n, sizeof(*f->hosts));
	f->values = malloc((n * f->nworkloads > 0 ? n * f->nworkloads : 1) * sizeof(*f->values));
	f->intervals = malloc((n * f->nworkloads > 0 ? n * f->nworkloads : 1) * sizeof(*f->intervals));
	f->skipped = calloc(n, sizeof(*f->skipped));
	if (!f->hosts || !f->values || !f->intervals || !f->skipped)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct ud_fleet_host *h = &f->hosts[f->nhosts];

		if (a->host_group[i] == SIZE_MAX) {
			f->skipped[f->nskipped++] = (struct ud_fleet_skip){ a->in->paths[i], a->errs[i] };
			continue;
		}
		h->label = a->host_labels[i];
		a->host_labels[i] = NULL;
		h->path = a->in->paths[i];
		h->group = grank[a->host_group[i]];
		h->incomplete = a->host_incomplete[i];
		h->no_pmu = a->host_no_pmu[i];
		h->value = f->values + f->nhosts * f->nworkloads;
		h->interval = f->intervals + f->nhosts * f->nworkloads;
		for (size_t w = 0; w < f->nworkloads; w++)
			h->value[w] = h->interval[w] = NAN;
		for (size_t j = 0; j < a->host_nvalues[i]; j++) {
			size_t w = wrank[(size_t)a->host_values[i][3 * j]];

			h->value[w] = a->host_values[i][3 * j + 1];
			h->interval[w] = a->host_values[i][3 * j + 2];
		}
		h->warnings = a->host_warnings[i];
		h->nwarnings = a->host_nwarnings[i];
		a->host_warnings[i] = NULL;
		for (size_t j = 0; j < h->nwarnings; j++)
			h->warnings[j].workload = wrank[h->warnings[j].workload];
		if (i == a->keep_index)
			f->ref_host = f->nhosts;
		f->nhosts++;
	}
	return 0;
}

/*
 * The workloads reconciled and those of the fleet into f in its order
 * (a->order keeps their ids), wrank[id] each one's rank; the others' names freed.
 */
static int finish_workloads(struct ud_fleet_acc *a, struct ud_fleet *f, size_t *wrank)
{
	size_t n = 0;

	if (reconcile(a) != 0 || !(a->order = order_by(a->first_pos, a->nworkloads)) ||
	    !(f->workloads = calloc(a->nworkloads ? a->nworkloads : 1, sizeof(*f->workloads))))
		return -1;
	for (size_t k = 0; k < a->nworkloads; k++) {
		size_t id = a->order[k];

		if (a->variants[id].dead) {
			free(a->workloads[id].name);
			free(a->workloads[id].units);
			continue;
		}
		a->order[n] = id;
		f->workloads[n] = a->workloads[id];
		wrank[id] = n++;
	}
	f->nworkloads = n;
	a->nworkloads = 0; /* the names are f's now, or freed */
	return 0;
}

static int by_host_workload(const void *x, const void *y)
{
	const struct ud_fleet_exclusion *a = x, *b = y;

	if (a->host != b->host)
		return (a->host > b->host) - (a->host < b->host);
	return (a->workload > b->workload) - (a->workload < b->workload);
}

/* The hosts left out of a workload handed to f, by their index in f->hosts and the workload's rank. */
static void finish_exclusions(struct ud_fleet_acc *a, struct ud_fleet *f, const size_t *wrank)
{
	for (size_t e = 0; e < a->nexcluded; e++) {
		size_t host = 0;

		for (size_t i = 0; i < a->excluded[e].host; i++)
			host += a->host_group[i] != SIZE_MAX;
		a->excluded[e].host = host;
		a->excluded[e].workload = wrank[a->excluded[e].workload];
	}
	ud_sort(a->excluded, a->nexcluded, sizeof(*a->excluded), by_host_workload);
	f->excluded = a->excluded;
	f->nexcluded = a->nexcluded;
	a->excluded = NULL;
	a->nexcluded = 0;
}

int ud_fleet_acc_finish(struct ud_fleet_acc *a, struct ud_fleet *f)
{
	size_t *gfirst = malloc((a->ngroups ? a->ngroups : 1) * sizeof(*gfirst)), *gorder = NULL;
	size_t *wrank = calloc(a->nworkloads ? a->nworkloads : 1, sizeof(*wrank));
	size_t *grank = calloc(a->ngroups ? a->ngroups : 1, sizeof(*grank));
	int ret = -1;

	if (!gfirst || !wrank || !grank)
		goto out;
	for (size_t g = 0; g < a->ngroups; g++)
		gfirst[g] = a->groups[g].first;
	if (!(gorder = order_by(gfirst, a->ngroups)) || finish_workloads(a, f, wrank) != 0)
		goto out;
	for (size_t g = 0; g < a->ngroups; g++)
		grank[gorder[g]] = g;
	f->ref_host = SIZE_MAX;
	snprintf(f->no_pmu_reason, sizeof(f->no_pmu_reason), "%s", a->no_pmu_reason);
	ret = finish_hosts(a, f, wrank, grank);
	if (ret == 0)
		finish_exclusions(a, f, wrank);
	/* the groups in order too, so that group g of the fleet is acc's g */
	for (size_t g = 0; ret == 0 && g < a->ngroups; g++)
		gfirst[g] = gorder[g];
	if (ret == 0) {
		struct ud_fleet_acc_group *sorted = malloc((a->ngroups ? a->ngroups : 1) * sizeof(*sorted));

		for (size_t g = 0; sorted && g < a->ngroups; g++)
			sorted[g] = a->groups[gfirst[g]];
		if (sorted) {
			free(a->groups);
			a->groups = sorted;
		}
		ret = sorted ? 0 : -1;
	}
out:
	free(gfirst);
	free(gorder);
	free(wrank);
	free(grank);
	return ret;
}

static void values_free(struct ud_fleet_values *v)
{
	free(v->v);
}

static void group_free(struct ud_fleet_acc_group *g, size_t nkeys)
{
	for (size_t k = 0; g->keys && k < nkeys; k++)
		free(g->keys[k]);
	free(g->keys);
	for (size_t w = 0; w < g->nw; w++) {
		struct ud_fleet_acc_workload *aw = &g->w[w];

		values_free(&aw->value), values_free(&aw->score), values_free(&aw->work_units);
		values_free(&aw->elapsed), values_free(&aw->user), values_free(&aw->sys);
		for (size_t c = 0; c < aw->ncounters; c++) {
			free(aw->counters[c].name), free(aw->counters[c].semantics);
			free(aw->counters[c].vendor_event), free(aw->counters[c].opened_as);
			values_free(&aw->counters[c].v);
		}
		free(aw->counters);
	}
	free(g->w);
	for (size_t f = 0; f < g->nfacts; f++) {
		for (size_t v = 0; v < g->facts[f].nvotes; v++) {
			free(g->facts[f].votes[v].value);
			free(g->facts[f].votes[v].who);
		}
		free(g->facts[f].votes);
		free(g->facts[f].field);
	}
	free(g->facts);
}

void ud_fleet_acc_free(struct ud_fleet_acc *a)
{
	for (size_t g = 0; g < a->ngroups; g++)
		group_free(&a->groups[g], a->nkeys);
	free(a->groups);
	for (size_t i = 0; a->host_values && i < a->in->n; i++)
		free(a->host_values[i]);
	for (size_t i = 0; a->host_labels && i < a->in->n; i++)
		free(a->host_labels[i]);
	for (size_t i = 0; a->host_warnings && a->host_nwarnings && i < a->in->n; i++) {
		for (size_t j = 0; a->host_warnings[i] && j < a->host_nwarnings[i]; j++)
			free(a->host_warnings[i][j].text);
		free(a->host_warnings[i]);
	}
	free(a->host_warnings);
	free(a->host_nwarnings);
	for (size_t w = 0; w < a->nworkloads; w++) {
		free(a->workloads[w].name);
		free(a->workloads[w].units);
	}
	free(a->workloads);
	free(a->variants);
	for (size_t e = 0; e < a->nexcluded; e++)
		free(a->excluded[e].reason);
	free(a->excluded);
	free(a->first_pos);
	free(a->order);
	free(a->host_group);
	free(a->host_values);
	free(a->host_nvalues);
	free(a->host_labels);
	free(a->errs);
	free(a->host_incomplete);
	free(a->host_no_pmu);
	ud_profile_free(a->keep);
}
