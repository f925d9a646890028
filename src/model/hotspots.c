/*
 * The hotspots model: rows merged by (symbol, dso, mode), cut to the top
 * rows with [other] taking the rest.  Its JSON form is hotspots_json.c's.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hotspots.h"
#include "sort.h"

struct ud_hotspots *ud_hotspots_new(void)
{
	struct ud_hotspots *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->sampling.frequency_hz = NAN;
	h->sampling.samples = NAN;
	h->sampling.lost = NAN;
	h->sampling.truncated = NAN;
	return h;
}

void ud_hotspots_free(struct ud_hotspots *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nrows; i++) {
		free(h->rows[i].symbol);
		free(h->rows[i].dso);
	}
	free(h->rows);
	for (size_t i = 0; i < h->sampling.ndsos; i++) {
		free(h->sampling.dsos[i].path);
		free(h->sampling.dsos[i].build_id);
	}
	free(h->sampling.dsos);
	free(h->sampling.event);
	free(h->sampling.kernel_symbols);
	free(h);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static int add_row(struct ud_hotspots *h, const char *symbol, const char *dso, enum ud_mode mode)
{
	struct ud_hotspot *r;

	if (h->nrows == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 32;

		r = realloc(h->rows, cap * sizeof(*r));
		if (!r)
			return -1;
		h->rows = r;
		h->cap = cap;
	}
	r = &h->rows[h->nrows];
	r->symbol = strdup(symbol);
	r->dso = dso ? strdup(dso) : NULL;
	r->mode = mode;
	r->share = 0;
	r->samples = 0;
	if (!r->symbol || (dso && !r->dso)) {
		free(r->symbol);
		free(r->dso);
		return -1;
	}
	h->nrows++;
	return 0;
}

int ud_hotspots_add(struct ud_hotspots *h, const char *symbol, const char *dso, enum ud_mode mode, double share,
		    double samples)
{
	size_t i;

	for (i = 0; i < h->nrows; i++)
		if (h->rows[i].mode == mode && strcmp(h->rows[i].symbol, symbol) == 0 && same_str(h->rows[i].dso, dso))
			break;
	if (i == h->nrows && add_row(h, symbol, dso, mode) != 0)
		return -1;
	h->rows[i].share += share;
	h->rows[i].samples += samples;
	return 0;
}

int ud_hotspots_add_dso(struct ud_hotspots *h, const char *path, const char *build_id)
{
	struct ud_sampling *s = &h->sampling;
	struct ud_sampled_dso *d = realloc(s->dsos, (s->ndsos + 1) * sizeof(*d));

	if (!d)
		return -1;
	s->dsos = d;
	d = &s->dsos[s->ndsos];
	d->path = strdup(path);
	d->build_id = build_id ? strdup(build_id) : NULL;
	if (!d->path || (build_id && !d->build_id)) {
		free(d->path);
		free(d->build_id);
		return -1;
	}
	s->ndsos++;
	return 0;
}

static int cmp_share(const void *x, const void *y)
{
	const struct ud_hotspot *a = x, *b = y;

	if (a->share != b->share)
		return a->share > b->share ? -1 : 1;
	return strcmp(a->symbol, b->symbol);
}

/* The rows past the top, and whatever share no row carries, fold into [other]. */
int ud_hotspots_finish(struct ud_hotspots *h)
{
	double total = 0, other = 0, other_samples = 0;
	size_t keep;

	/* a workload that got no samples has no rows and no array (ud_sort sorts none) */
	ud_sort(h->rows, h->nrows, sizeof(*h->rows), cmp_share);
	keep = h->nrows < UD_HOTSPOTS_TOP ? h->nrows : UD_HOTSPOTS_TOP;
	for (size_t i = 0; i < h->nrows; i++) {
		total += h->rows[i].share;
		if (i >= keep) {
			other += h->rows[i].share;
			other_samples += h->rows[i].samples;
			free(h->rows[i].symbol);
			free(h->rows[i].dso);
		}
	}
	h->nrows = keep;
	/* Percentages rounded to two places can add up past 100%: scaled back, so the shares sum to 1. */
	if (total > 1) {
		for (size_t i = 0; i < h->nrows; i++)
			h->rows[i].share /= total;
		other /= total;
		total = 1;
	}
	/* Rounding in a source's percentages is not a share of its own. */
	if (total < 1 - 1e-6)
		other += 1 - total, other_samples = NAN;
	if (other <= 0 || !h->nrows)
		return 0;
	if (add_row(h, UD_HOTSPOT_OTHER, NULL, UD_MODE_COUNT) != 0)
		return -1;
	h->rows[h->nrows - 1].share = other;
	h->rows[h->nrows - 1].samples = other_samples;
	return 0;
}

const struct ud_hotspot *ud_hotspots_top(const struct ud_hotspots *h)
{
	for (size_t i = 0; h && i < h->nrows; i++)
		if (h->rows[i].mode != UD_MODE_COUNT)
			return &h->rows[i];
	return NULL;
}
