/*
 * fleet_median.c - a group's median host: a synthetic profile whose every
 * number is the median of its hosts' (score, times, each counter, per
 * workload) and whose every host fact is the value most of its hosts have,
 * so that the diff engine can set a host, or another group, against it
 * (fleet_priv.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fleet_priv.h"
#include "host_facts.h"
#include "json_doc.h"
#include "sort.h"

/* Runs this long are sorted by insertion before the merges: fewer passes, each short run in cache. */
#define SORT_RUN 16

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* v[lo, hi) sorted by insertion, equal values in their order. */
static void insertion_sort(double *v, size_t lo, size_t hi)
{
	for (size_t i = lo + 1; i < hi; i++) {
		double x = v[i];
		size_t j = i;

		for (; j > lo && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* src's sorted runs of width merged pairwise into dst, equal values left first. */
static void merge_pass(const double *src, double *dst, size_t n, size_t width)
{
	for (size_t lo = 0; lo < n; lo += 2 * width) {
		size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
		size_t a = lo, b = mid, k = lo;

		while (a < mid && b < hi)
			dst[k++] = src[b] < src[a] ? src[b++] : src[a++];
		while (a < mid)
			dst[k++] = src[a++];
		while (b < hi)
			dst[k++] = src[b++];
	}
}

void ud_fleet_sort_values(double *v, size_t n)
{
	double *tmp, *src = v, *dst;
	size_t sorted = 1;

	while (sorted < n && !(v[sorted] < v[sorted - 1]))
		sorted++;
	if (sorted >= n)
		return;
	if (!(tmp = malloc(n * sizeof(*tmp)))) {
		ud_sort(v, n, sizeof(*v), by_value);
		return;
	}
	for (size_t lo = 0; lo < n; lo += SORT_RUN)
		insertion_sort(v, lo, lo + SORT_RUN < n ? lo + SORT_RUN : n);
	dst = tmp;
	for (size_t width = SORT_RUN; width < n; width *= 2) {
		double *t = src;

		merge_pass(src, dst, n, width);
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
}

double ud_fleet_quantile(const double *sorted, size_t n, double q)
{
	double h, lo;

	if (n == 0)
		return NAN;
	h = (double)(n - 1) * q;
	lo = floor(h);
	if ((size_t)lo + 1 >= n)
		return sorted[n - 1];
	return sorted[(size_t)lo] + (h - lo) * (sorted[(size_t)lo + 1] - sorted[(size_t)lo]);
}

static void swap(double *v, size_t i, size_t j)
{
	double t = v[i];

	v[i] = v[j];
	v[j] = t;
}

/*
 * v reordered so that v[k] is what sorting would put there, nothing above
 * it before it and nothing below it after (Hoare's selection, the pivot a
 * median of three, the values equal to it gathered in the middle); false,
 * v only reordered, after more rounds than a fair pivot needs, a hostile
 * order's quadratic time cut short.
 */
static bool select_nth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n, rounds = 8;

	for (size_t m = n; m > 1; m /= 2)
		rounds += 2;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2, lt = lo, i = lo, gt = hi;
		double a = v[lo], b = v[mid], c = v[hi - 1];
		double pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);

		if (rounds-- == 0)
			return false;
		/* v[lo, lt) < pivot, v[lt, i) == pivot, v[gt, hi) > pivot */
		while (i < gt) {
			if (v[i] < pivot)
				swap(v, lt++, i++);
			else if (v[i] > pivot)
				swap(v, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return true;
	}
	return true;
}

/*
 * The median of v, v reordered (the order of a group's values means
 * nothing): its middle two by selection, the median profile's every
 * number being one, where sorting a group's 100,000 values each time was
 * a tenth of compare's time (issue 38).  ud_fleet_quantile()'s arithmetic
 * on the same two values; a zero among them is sorted for, since sorting
 * keeps -0 and 0 in their order and selection does not.
 */
static double median_of(struct ud_fleet_values *v)
{
	size_t k;
	double h, lo, a, b;

	if (v->n == 0)
		return NAN;
	h = (double)(v->n - 1) * 0.5;
	lo = floor(h);
	k = (size_t)lo;
	if (v->n > 2 && select_nth(v->v, v->n, k)) {
		a = v->v[k];
		b = v->v[k + 1];
		for (size_t i = k + 2; i < v->n; i++)
			b = v->v[i] < b ? v->v[i] : b;
		if (a != 0 && b != 0)
			return a + (h - lo) * (b - a);
	}
	ud_fleet_sort_values(v->v, v->n);
	return ud_fleet_quantile(v->v, v->n, 0.5);
}

/* Sets the dotted field of object o to v (a new reference it steals), making the objects on the way. */
static int set_path(json_t *o, const char *field, json_t *v)
{
	const char *dot = strchr(field, '.');
	char part[128];
	json_t *sub;

	if (!dot)
		return json_object_set_new(o, field, v);
	snprintf(part, sizeof(part), "%.*s", (int)(dot - field), field);
	sub = json_object_get(o, part);
	if (!json_is_object(sub)) {
		sub = json_object();
		if (json_object_set_new(o, part, sub) != 0) {
			json_decref(v);
			return -1;
		}
	}
	return set_path(sub, dot + 1, v);
}

/* The host object h as a typed host, through the profile's own reader; NULL out of memory (or a fact it refuses). */
static struct ud_host *host_of(const json_t *h, const char *label)
{
	char *text = json_dumps(h, JSON_COMPACT);
	struct ud_err err = UD_ERR_INIT;
	struct ud_jdoc *doc = text ? ud_jdoc_parse(text, strlen(text), &err) : NULL;
	struct ud_host *host = doc ? ud_host_read(ud_jdoc_root(doc), label, &err) : NULL;

	ud_jdoc_free(doc);
	free(text);
	return host;
}

/*
 * Every fact's most common value (the earliest host's on a tie) and label
 * as a host, read by host_facts.h's one reader from the object they make;
 * NULL out of memory.  Caller frees.
 */
static struct ud_host *median_host(const struct ud_fleet_acc_group *g, const char *label)
{
	json_t *h = json_object();
	struct ud_host *host = NULL;

	if (!h || json_object_set_new(h, "label", json_string(label)) != 0) {
		json_decref(h);
		return NULL;
	}
	for (size_t f = 0; f < g->nfacts; f++) {
		const struct ud_fleet_fact *fact = &g->facts[f];
		const struct ud_fleet_vote *best = &fact->votes[0];

		for (size_t v = 1; v < fact->nvotes; v++)
			if (fact->votes[v].count > best->count ||
			    (fact->votes[v].count == best->count && fact->votes[v].first < best->first))
				best = &fact->votes[v];
		if (set_path(h, fact->field, json_loads(best->value, JSON_DECODE_ANY, NULL)) != 0) {
			json_decref(h);
			return NULL;
		}
	}
	host = host_of(h, label);
	json_decref(h);
	return host;
}

static int copy_text(char **dst, const char *src)
{
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -1;
}

/* The median workload of aw, named as fw, into p; 0 or -1 out of memory. */
static int median_workload(struct ud_profile *p, const struct ud_fleet_workload *fw, struct ud_fleet_acc_workload *aw)
{
	struct ud_workload *w = ud_profile_add_workload(p, fw->name);

	if (!w || copy_text(&w->units, fw->units) != 0)
		return -1;
	if (strcmp(fw->units ? fw->units : "", "ns of CPU time per unit") == 0) {
		free(w->units);
		w->units = NULL;
	}
	w->higher_is_better = fw->direction;
	w->composite = fw->composite;
	w->score.median = median_of(&aw->score);
	w->work_units = median_of(&aw->work_units);
	w->elapsed_ns = median_of(&aw->elapsed);
	w->user_ns = median_of(&aw->user);
	w->sys_ns = median_of(&aw->sys);
	for (size_t c = 0; c < aw->ncounters; c++) {
		struct ud_fleet_acc_counter *ac = &aw->counters[c];
		struct ud_counter *ct = ud_workload_add_counter(w, ac->name);

		if (!ct || copy_text(&ct->semantics, ac->semantics) != 0 ||
		    copy_text(&ct->vendor_event, ac->vendor_event) != 0 || copy_text(&ct->opened_as, ac->opened_as) != 0)
			return -1;
		ct->status = UD_COUNTED;
		ct->value = ct->raw_value = median_of(&ac->v);
	}
	return 0;
}

struct ud_profile *ud_fleet_median_profile(const struct ud_fleet_acc_group *g, const struct ud_fleet *f,
					   const size_t *order, const char *label)
{
	struct ud_host *host = median_host(g, label);
	struct ud_profile *p = host ? ud_profile_new(host) : NULL; /* which frees host when it fails */

	if (!p)
		return NULL;
	for (size_t w = 0; w < f->nworkloads; w++) {
		size_t id = order[w];
		struct ud_fleet_acc_workload *aw = id < g->nw ? &g->w[id] : NULL;

		if (!aw || (aw->value.n == 0 && aw->score.n == 0 && aw->ncounters == 0))
			continue;
		if (median_workload(p, &f->workloads[w], aw) != 0) {
			ud_profile_free(p);
			return NULL;
		}
	}
	return p;
}
