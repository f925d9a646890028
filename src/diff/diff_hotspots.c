/*
 * The sampled symbols of one workload on both hosts: every named symbol
 * either host lists (the two [other] rows aside), paired by name and mode
 * (the files' paths differ between hosts), with the time per unit of work
 * each share stands for, the largest moves first.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff_priv.h"
#include "sort.h"

/*
 * Rows a diff keeps per workload: the moves a reader can take in at a
 * glance; the profiles keep UD_HOTSPOTS_TOP each.
 */
#define UD_DIFF_HOTSPOTS_TOP 10

/* A side's CPU time per unit of work: the time split's user + kernel, else task-clock per unit. */
static double cpu_per_unit(const struct ud_diff_workload *w, enum ud_side side)
{
	const struct ud_mode_part *u = &w->mode[UD_MODE_USER], *k = &w->mode[UD_MODE_KERNEL];
	double t = side == UD_SIDE_A ? u->a + k->a : u->b + k->b;

	if (isfinite(t))
		return t;
	for (size_t i = 0; i < w->nper_unit; i++)
		if (strcmp(w->per_unit[i].name, "task-clock") == 0)
			return side == UD_SIDE_A ? w->per_unit[i].v.a : w->per_unit[i].v.b;
	return NAN;
}

static struct ud_hotspot_move *find(struct ud_hotspot_move *m, size_t n, const struct ud_hotspot *r)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].mode == r->mode && strcmp(m[i].symbol, r->symbol) == 0)
			return &m[i];
	return NULL;
}

static double moved(const struct ud_hotspot_move *m)
{
	return fabs((isfinite(m->b_share) ? m->b_share : 0) - (isfinite(m->a_share) ? m->a_share : 0));
}

static int cmp_moved(const void *x, const void *y)
{
	double a = moved(x), b = moved(y);

	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(((const struct ud_hotspot_move *)x)->symbol, ((const struct ud_hotspot_move *)y)->symbol);
}

int ud_diff_hotspots_compute(struct ud_diff_workload *w)
{
	const struct ud_hotspots *ha = w->a->hotspots, *hb = w->b->hotspots;
	const struct ud_hotspots *side[UD_SIDE_COUNT] = { ha, hb };
	double cpu[UD_SIDE_COUNT] = { cpu_per_unit(w, UD_SIDE_A), cpu_per_unit(w, UD_SIDE_B) };
	struct ud_hotspot_move *m;
	size_t n = 0;

	if (!ha || !hb || !ha->nrows || !hb->nrows)
		return 0;
	m = calloc(ha->nrows + hb->nrows, sizeof(*m));
	if (!m)
		return -1;
	for (int s = 0; s < UD_SIDE_COUNT; s++) {
		for (size_t i = 0; i < side[s]->nrows; i++) {
			const struct ud_hotspot *r = &side[s]->rows[i];
			struct ud_hotspot_move *x;

			if (r->mode == UD_MODE_COUNT) /* [other]: no symbol to pair */
				continue;
			x = find(m, n, r);
			if (!x) {
				x = &m[n++];
				*x = (struct ud_hotspot_move){ r->symbol, r->dso, r->mode, NAN, NAN, NAN, NAN };
			}
			if (s == UD_SIDE_A)
				x->a_share = r->share, x->a_ns = r->share * cpu[s];
			else
				x->b_share = r->share, x->b_ns = r->share * cpu[s];
		}
	}
	ud_sort(m, n, sizeof(*m), cmp_moved);
	w->hotspots = m;
	w->nhotspots = n < UD_DIFF_HOTSPOTS_TOP ? n : UD_DIFF_HOTSPOTS_TOP;
	return 0;
}
