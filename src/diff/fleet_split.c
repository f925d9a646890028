/*
 * fleet_split.c - a group whose hosts split by a host fact (fleet.h): in
 * each group large enough for two sides, every fact a split is sought by
 * (the kernel, the microcode, SMT, the hypervisor, the frequency governor,
 * each mitigation) whose value differs among its hosts is tested, every
 * way its values can be parted into two sides of at least
 * UD_FLEET_SPLIT_MIN_SIDE hosts, workload by workload with a rank test
 * (Mann-Whitney U) between the sides.  A workload moved when the test
 * passes the group's multiple-testing bound, the sides' medians are
 * UD_FLEET_SPLIT_MIN_MOVE apart and the hosts are ordered consistently.
 * The split found is the one that moved the most workloads, then the most
 * in all (the sum of the moves' logarithms), then the fact named first in
 * split_facts[] (then by name), then the parting whose side 1 holds the
 * values first in text order: nothing depends on the order of the hosts.
 *
 * Values are compared as text; a host without the fact is a side's
 * "unknown".  Hosts are numbered as fleet_fold.c numbers the input paths,
 * mapped onto the hosts that loaded.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff_thresholds.h"
#include "fleet_priv.h"
#include "json_doc.h"
#include "sort.h"

/* The facts a split is sought by, in the order a tie is settled: what differs between hosts of one kind of CPU. */
static const char *const split_facts[] = { "kernel", "cpu.microcode", "cpu.smt", "hypervisor", "cpufreq.governor" };
#define N_SPLIT_FACTS (sizeof(split_facts) / sizeof(split_facts[0]))
static const char vuln_prefix[] = "vulnerabilities.";

/* The rank of field among the facts sought (vulnerabilities after the named ones); SIZE_MAX when not sought. */
static size_t fact_rank(const char *field)
{
	for (size_t i = 0; i < N_SPLIT_FACTS; i++)
		if (strcmp(field, split_facts[i]) == 0)
			return i;
	return strncmp(field, vuln_prefix, sizeof(vuln_prefix) - 1) == 0 ? N_SPLIT_FACTS : SIZE_MAX;
}

bool ud_fleet_split_fact(const char *field)
{
	return fact_rank(field) != SIZE_MAX;
}

/* One fact's values in a group, sorted by their text, with each host's value. */
struct fact_values {
	const struct ud_fleet_fact *fact;
	const char *text[UD_FLEET_SPLIT_MAX_VALUES]; /* the votes' JSON texts; NULL: unknown, last */
	size_t count[UD_FLEET_SPLIT_MAX_VALUES];
	size_t n;
};

/* A parting being tried: bit v of mask puts value v on side 1. */
struct parting {
	const struct fact_values *fv;
	unsigned mask;
	size_t nmoved;
	double sum; /* the moves' |ln ratio| */
};

/* Scratch and what is known while a group is searched. */
struct search {
	struct ud_fleet *f;
	const struct ud_fleet_group *grp;
	size_t *host_of;  /* input path -> fleet host; SIZE_MAX not loaded */
	unsigned char *value_of; /* fleet host -> its value's index in the fact tried */
	unsigned char *side_of;  /* fleet host -> its side in the best parting */
	double *a, *b;
	struct { double x; int side; } *pool;
	size_t ntests;
	double bound;     /* UD_FLEET_SPLIT_ALPHA / ntests */
};

static int by_text(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;

	if (!a || !b)
		return !a - !b;
	return strcmp(a, b);
}

/* fact's values in grp: false where there are fewer than two or more than UD_FLEET_SPLIT_MAX_VALUES. */
static bool values_of(const struct ud_fleet_fact *fact, size_t nhosts, struct fact_values *fv)
{
	size_t known = 0;

	fv->fact = fact;
	fv->n = 0;
	if (fact->nvotes > UD_FLEET_SPLIT_MAX_VALUES)
		return false;
	for (size_t v = 0; v < fact->nvotes; v++) {
		fv->text[fv->n++] = fact->votes[v].value;
		known += fact->votes[v].count;
	}
	if (known < nhosts && fv->n == UD_FLEET_SPLIT_MAX_VALUES)
		return false;
	if (known < nhosts)
		fv->text[fv->n++] = NULL;
	ud_sort(fv->text, fv->n, sizeof(*fv->text), by_text);
	for (size_t i = 0; i < fv->n; i++) {
		fv->count[i] = nhosts - known;
		for (size_t v = 0; fv->text[i] && v < fact->nvotes; v++)
			if (fact->votes[v].value == fv->text[i])
				fv->count[i] = fact->votes[v].count;
	}
	return fv->n >= 2;
}

/* Side 1's hosts under mask; whether both sides have UD_FLEET_SPLIT_MIN_SIDE. */
static bool parting_fits(const struct fact_values *fv, unsigned mask, size_t nhosts)
{
	size_t one = 0;

	for (size_t i = 0; i < fv->n; i++)
		one += mask >> i & 1 ? fv->count[i] : 0;
	return one >= UD_FLEET_SPLIT_MIN_SIDE && nhosts - one >= UD_FLEET_SPLIT_MIN_SIDE;
}

/* The partings of fv: the last value always on side 0, so that each two-way parting is tried once. */
#define PARTINGS(fv) ((1u << ((fv)->n - 1)) - 1)

/* Each host of the group its value's index in fv. */
static void assign(struct search *s, const struct fact_values *fv)
{
	size_t unknown = fv->n;

	for (size_t i = 0; i < fv->n; i++)
		unknown = fv->text[i] ? unknown : i;
	for (size_t i = 0; i < s->grp->nhosts; i++)
		s->value_of[s->grp->hosts[i]] = (unsigned char)unknown;
	for (size_t v = 0; v < fv->fact->nvotes; v++) {
		const struct ud_fleet_vote *vote = &fv->fact->votes[v];
		size_t idx = 0;

		while (fv->text[idx] != vote->value)
			idx++;
		for (size_t j = 0; j < vote->nwho; j++)
			if (s->host_of[vote->who[j]] != SIZE_MAX)
				s->value_of[s->host_of[vote->who[j]]] = (unsigned char)idx;
	}
}

/*
 * The Mann-Whitney test of side 1's na values against side 0's nb (s->b
 * and s->a, each sorted), in the normal approximation with ties'
 * correction: the two-sided p, and the share of cross pairs where side
 * 1's host is the faster (ties half).
 */
static double mann_whitney(struct search *s, size_t n0, size_t n1, double *share)
{
	size_t n = n0 + n1;
	double r1 = 0, ties = 0, u, mean, var;

	/* the sides come sorted (side_values()): merged, not sorted again; a tie's order changes no rank */
	for (size_t i = 0, j = 0; i + j < n;) {
		int side = j < n1 && (i == n0 || s->b[j] < s->a[i]);

		s->pool[i + j].x = side ? s->b[j] : s->a[i];
		s->pool[i + j].side = side;
		if (side)
			j++;
		else
			i++;
	}
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double t;

		while (j < n && s->pool[j].x == s->pool[i].x)
			j++;
		t = (double)(j - i);
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			r1 += s->pool[k].side ? (double)(i + j + 1) / 2 : 0;
		i = j;
	}
	u = r1 - (double)n1 * (double)(n1 + 1) / 2;
	*share = u / ((double)n0 * (double)n1);
	mean = (double)n0 * (double)n1 / 2;
	var = (double)n0 * (double)n1 / 12 * ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (var <= 0)
		return 1;
	return erfc(fmax(fabs(u - mean) - 0.5, 0) / sqrt(var) / M_SQRT2);
}

/* Side i's values of workload w in s->a (side 0) or s->b (side 1), sorted; their number. */
static size_t side_values(struct search *s, size_t w, const unsigned char *side, unsigned mask, int which)
{
	double *out = which ? s->b : s->a;
	size_t n = 0;

	for (size_t i = 0; i < s->grp->nhosts; i++) {
		size_t k = s->grp->hosts[i];
		double v = s->f->hosts[k].value[w];
		int on = side ? side[k] : (int)(mask >> s->value_of[k] & 1);

		if (on == which && isfinite(v) && v > 0)
			out[n++] = v;
	}
	ud_fleet_sort_values(out, n);
	return n;
}

/*
 * Workload w under the parting (side given per host, else by mask over
 * value_of): whether it moved, and its move into m.
 */
static bool moved_on(struct search *s, size_t w, const unsigned char *side, unsigned mask,
		     struct ud_fleet_moved *m)
{
	const struct ud_fleet_workload *fw = &s->f->workloads[w];
	size_t n0 = side_values(s, w, side, mask, 0), n1 = side_values(s, w, side, mask, 1);
	double share, p, ratio;

	if (fw->composite || n0 < UD_FLEET_SPLIT_MIN_SIDE || n1 < UD_FLEET_SPLIT_MIN_SIDE)
		return false;
	ratio = ud_fleet_ratio(fw, ud_fleet_quantile(s->b, n1, 0.5), ud_fleet_quantile(s->a, n0, 0.5));
	if (!isfinite(ratio) || fabs(log(ratio)) < log(UD_FLEET_SPLIT_MIN_MOVE))
		return false;
	p = mann_whitney(s, n0, n1, &share);
	/* share is of side 1's larger values: faster for a score, slower for a time */
	share = (ratio > 1) == fw->higher_is_better ? share : 1 - share;
	*m = (struct ud_fleet_moved){ w, ratio, p, share };
	return p < s->bound && share >= UD_FLEET_SPLIT_MIN_CONSISTENCY;
}

/* The parting's moved workloads counted and summed. */
static void try_parting(struct search *s, struct parting *pt)
{
	struct ud_fleet_moved m;

	pt->nmoved = 0;
	pt->sum = 0;
	for (size_t w = 0; w < s->f->nworkloads; w++)
		if (moved_on(s, w, NULL, pt->mask, &m)) {
			pt->nmoved++;
			pt->sum += fabs(log(m.ratio));
		}
}

/* Whether parting x explains more than y (the rule above). */
static bool better(const struct parting *x, const struct parting *y)
{
	size_t rx, ry;
	int name;

	if (!y->fv)
		return x->nmoved > 0;
	if (x->nmoved != y->nmoved)
		return x->nmoved > y->nmoved;
	if (x->sum != y->sum)
		return x->sum > y->sum;
	rx = fact_rank(x->fv->fact->field), ry = fact_rank(y->fv->fact->field);
	if (rx != ry)
		return rx < ry;
	name = strcmp(x->fv->fact->field, y->fv->fact->field);
	return name ? name < 0 : x->mask < y->mask;
}

/* The tests the group will make: every fitting parting of every fact, on every workload. */
static size_t count_tests(const struct search *s, const struct ud_fleet_acc_group *ag)
{
	size_t n = 0, nw = 0;

	for (size_t w = 0; w < s->f->nworkloads; w++)
		nw += !s->f->workloads[w].composite;
	for (size_t i = 0; i < ag->nfacts; i++) {
		struct fact_values fv;

		if (!ud_fleet_split_fact(ag->facts[i].field) || !values_of(&ag->facts[i], s->grp->nhosts, &fv))
			continue;
		for (unsigned mask = 1; mask <= PARTINGS(&fv); mask++)
			n += parting_fits(&fv, mask, s->grp->nhosts) ? nw : 0;
	}
	return n;
}

/* A value's text for a person: a string's own characters ("6.8.0"), else the JSON ("true", "64"); owned. */
static char *value_text(const char *json)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_jdoc *doc;
	char *t;

	if (!json)
		return strdup("unknown");
	doc = ud_jdoc_parse(json, strlen(json), &err);
	t = strdup(doc && ud_jv_is_string(ud_jdoc_root(doc)) ? ud_jv_string(ud_jdoc_root(doc)) : json);
	ud_jdoc_free(doc);
	return t;
}

static int by_ratio(const void *x, const void *y)
{
	const struct ud_fleet_moved *a = x, *b = y;
	double ma = fabs(log(a->ratio)), mb = fabs(log(b->ratio));

	if (ma != mb)
		return ma < mb ? 1 : -1;
	return (a->workload > b->workload) - (a->workload < b->workload);
}

/* A side's values and hosts, its medians per workload. */
static int fill_side(struct search *s, struct ud_fleet_split *sp, const struct parting *pt, int which)
{
	struct ud_fleet_side *side = &sp->side[which];

	if (!(side->values = calloc(pt->fv->n, sizeof(*side->values))) ||
	    !(side->hosts = malloc(s->grp->nhosts * sizeof(*side->hosts))) ||
	    !(side->median = malloc((s->f->nworkloads ? s->f->nworkloads : 1) * sizeof(*side->median))))
		return -1;
	for (size_t i = 0; i < pt->fv->n; i++)
		if ((int)(pt->mask >> i & 1) == which && !(side->values[side->nvalues++] = value_text(pt->fv->text[i])))
			return -1;
	ud_sort(side->values, side->nvalues, sizeof(*side->values), by_text);
	for (size_t i = 0; i < s->grp->nhosts; i++)
		if (s->side_of[s->grp->hosts[i]] == which)
			side->hosts[side->nhosts++] = s->grp->hosts[i];
	for (size_t w = 0; w < s->f->nworkloads; w++) {
		size_t n = side_values(s, w, s->side_of, 0, which);

		side->median[w] = n ? ud_fleet_quantile(which ? s->b : s->a, n, 0.5) : NAN;
	}
	return 0;
}

/* Whether fact's parting mask puts the group's hosts on the sides the split has them. */
static bool same_hosts(struct search *s, const struct fact_values *fv, unsigned mask)
{
	bool same = true, flipped = true;

	assign(s, fv);
	for (size_t i = 0; i < s->grp->nhosts && (same || flipped); i++) {
		size_t k = s->grp->hosts[i];
		int on = (int)(mask >> s->value_of[k] & 1);

		same = same && on == s->side_of[k];
		flipped = flipped && on != s->side_of[k];
	}
	return same || flipped;
}

/* The other facts whose values part the group's hosts as the split's fact does. */
static int find_same(struct search *s, const struct ud_fleet_acc_group *ag, struct ud_fleet_split *sp)
{
	for (size_t i = 0; i < ag->nfacts; i++) {
		struct fact_values fv;
		bool same = false;

		if (strcmp(ag->facts[i].field, sp->fact) == 0 || !ud_fleet_split_fact(ag->facts[i].field) ||
		    !values_of(&ag->facts[i], s->grp->nhosts, &fv))
			continue;
		for (unsigned mask = 1; mask <= PARTINGS(&fv) && !same; mask++)
			same = parting_fits(&fv, mask, s->grp->nhosts) && same_hosts(s, &fv, mask);
		if (!same)
			continue;
		if (!(sp->same = realloc(sp->same, (sp->nsame + 1) * sizeof(*sp->same))) ||
		    !(sp->same[sp->nsame++] = strdup(ag->facts[i].field)))
			return -1;
	}
	if (sp->nsame)
		ud_sort(sp->same, sp->nsame, sizeof(*sp->same), by_text);
	return 0;
}

/* The split by the best parting: sides (the larger side 0; on a tie, the one with the first value), moves. */
static struct ud_fleet_split *make_split(struct search *s, const struct ud_fleet_acc_group *ag, struct parting *pt)
{
	struct ud_fleet_split *sp = calloc(1, sizeof(*sp));
	size_t one = 0;
	struct ud_fleet_moved m;

	assign(s, pt->fv);
	for (size_t i = 0; i < pt->fv->n; i++)
		one += pt->mask >> i & 1 ? pt->fv->count[i] : 0;
	/* side 1 is the smaller, or on a tie the one without the first value */
	if (one > s->grp->nhosts - one || (2 * one == s->grp->nhosts && (pt->mask & 1)))
		pt->mask = ~pt->mask & ((1u << pt->fv->n) - 1);
	for (size_t i = 0; i < s->grp->nhosts; i++)
		s->side_of[s->grp->hosts[i]] = (unsigned char)(pt->mask >> s->value_of[s->grp->hosts[i]] & 1);
	if (!sp || !(sp->fact = strdup(pt->fv->fact->field)) ||
	    !(sp->moved = malloc((s->f->nworkloads ? s->f->nworkloads : 1) * sizeof(*sp->moved))) ||
	    fill_side(s, sp, pt, 0) != 0 || fill_side(s, sp, pt, 1) != 0)
		goto fail;
	for (size_t w = 0; w < s->f->nworkloads; w++)
		if (moved_on(s, w, s->side_of, 0, &m))
			sp->moved[sp->nmoved++] = m;
	ud_sort(sp->moved, sp->nmoved, sizeof(*sp->moved), by_ratio);
	sp->ntests = s->ntests;
	if (find_same(s, ag, sp) != 0)
		goto fail;
	return sp;
fail:
	ud_fleet_split_free(sp);
	return NULL;
}

/* Group g's split, where a fact parts it with a consistent difference; 0, or -1 out of memory. */
static int search_group(struct search *s, size_t g, const struct ud_fleet_acc_group *ag)
{
	struct fact_values fv[2];
	struct parting best = { 0 };
	int cur = 0;

	s->grp = &s->f->groups[g];
	if (s->grp->nhosts < 2 * UD_FLEET_SPLIT_MIN_SIDE || !(s->ntests = count_tests(s, ag)))
		return 0;
	s->bound = UD_FLEET_SPLIT_ALPHA / (double)s->ntests;
	for (size_t i = 0; i < ag->nfacts; i++) {
		if (!ud_fleet_split_fact(ag->facts[i].field) || !values_of(&ag->facts[i], s->grp->nhosts, &fv[cur]))
			continue;
		assign(s, &fv[cur]);
		for (unsigned mask = 1; mask <= PARTINGS(&fv[cur]); mask++) {
			struct parting pt = { &fv[cur], mask, 0, 0 };

			if (!parting_fits(&fv[cur], mask, s->grp->nhosts))
				continue;
			try_parting(s, &pt);
			if (better(&pt, &best))
				best = pt;
		}
		/* the best so far keeps its values; the next fact's go into the other slot */
		if (best.fv == &fv[cur])
			cur = !cur;
	}
	if (!best.fv)
		return 0;
	s->f->groups[g].split = make_split(s, ag, &best);
	return s->f->groups[g].split ? 0 : -1;
}

void ud_fleet_split_rule_text(char *buf, size_t len)
{
	snprintf(buf, len, "a host fact (kernel, cpu.microcode, cpu.smt, hypervisor, cpufreq.governor, a mitigation) "
		 "splits a group when its values part the hosts into two sides of at least %d and a workload moved: "
		 "a rank test (Mann-Whitney) below p = %g divided by the tests made in the group, the sides' medians "
		 "at least %.0f%% apart and %.0f%% of the pairs of hosts across them ordered alike; the fact that moved "
		 "the most workloads, then the most in all; each side's hosts are judged against their own side",
		 UD_FLEET_SPLIT_MIN_SIDE, UD_FLEET_SPLIT_ALPHA, 100 * (UD_FLEET_SPLIT_MIN_MOVE - 1),
		 100 * UD_FLEET_SPLIT_MIN_CONSISTENCY);
}

int ud_fleet_find_splits(struct ud_fleet *f, const struct ud_fleet_acc *a)
{
	size_t n = f->nhosts ? f->nhosts : 1;
	struct search s = { .f = f };
	int ret = 0;

	s.host_of = malloc((a->in->n ? a->in->n : 1) * sizeof(*s.host_of));
	s.value_of = malloc(n), s.side_of = malloc(n);
	s.a = malloc(n * sizeof(*s.a)), s.b = malloc(n * sizeof(*s.b));
	s.pool = malloc(n * sizeof(*s.pool));
	if (!s.host_of || !s.value_of || !s.side_of || !s.a || !s.b || !s.pool)
		ret = -1;
	/* the hosts that loaded, numbered as fleet_fold.c's finish numbers them */
	for (size_t i = 0, k = 0; ret == 0 && i < a->in->n; i++)
		s.host_of[i] = a->host_group[i] == SIZE_MAX ? SIZE_MAX : k++;
	for (size_t g = 0; ret == 0 && g < f->ngroups; g++)
		ret = search_group(&s, g, &a->groups[g]);
	free(s.host_of), free(s.value_of), free(s.side_of), free(s.a), free(s.b), free(s.pool);
	return ret;
}

void ud_fleet_split_free(struct ud_fleet_split *s)
{
	if (!s)
		return;
	for (int i = 0; i < 2; i++) {
		for (size_t v = 0; v < s->side[i].nvalues; v++)
			free(s->side[i].values[v]);
		free(s->side[i].values);
		free(s->side[i].hosts);
		free(s->side[i].median);
	}
	for (size_t i = 0; i < s->nsame; i++)
		free(s->same[i]);
	free(s->same);
	free(s->moved);
	free(s->fact);
	free(s);
}
