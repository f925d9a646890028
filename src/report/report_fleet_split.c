/*
 * report_fleet_split.c - the groups a host fact splits (fleet_split.c) as
 * the fleet templates show them: per group the fact, the values and hosts
 * on each side, the workloads that moved with the ratio of the sides'
 * medians, and the other facts that part the same hosts (a part of the
 * fleet's typed view, report_fleet_view.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fleet.h"
#include "report_fleet_view.h"
#include "report_priv.h"
#include "text.h"

/* A side's hosts the text, Markdown and HTML name before "and N more"; the JSON names every one. */
#define SPLIT_HOSTS_SHOWN 12

/* "6.1.0, 6.5.0": a side's values, joined; NULL out of memory. */
static char *values_text(const struct ud_fleet_side *side)
{
	char *s = NULL;

	for (size_t v = 0; v < side->nvalues; v++)
		if (!ud_append(&s, "%s%s", v ? ", " : "", side->values[v])) {
			free(s);
			return NULL;
		}
	return s ? s : calloc(1, 1);
}

static void side_view(struct ud_view_pool *pool, const struct ud_fleet *f, const struct ud_fleet_side *side,
		      struct fv_split_side *v)
{
	size_t shown = side->nhosts < SPLIT_HOSTS_SHOWN ? side->nhosts : SPLIT_HOSTS_SHOWN;

	v->values = ud_view_pool_keep(pool, values_text(side));
	v->nhosts = ud_view_pool_printf(pool, "%zu", side->nhosts);
	v->hosts_word = side->nhosts == 1 ? "host" : "hosts";
	if (side->nhosts > SPLIT_HOSTS_SHOWN)
		v->more = ud_view_pool_printf(pool, "%zu", side->nhosts - SPLIT_HOSTS_SHOWN);
	if (!(v->hosts = ud_view_pool_alloc(pool, shown, sizeof(*v->hosts))))
		return;
	for (size_t i = 0; i < shown; i++)
		v->hosts[v->nhosts_shown++] = (struct fv_split_host){
			.label = ud_view_pool_printf(pool, "%s", f->hosts[side->hosts[i]].label),
			.last = i + 1 == shown,
		};
}

/* "1.40x slower on syscall; 1.12x faster on pipe": side 1 against side 0. */
static const char *moves_text(struct ud_view_pool *pool, const struct ud_fleet *f, const struct ud_fleet_split *sp)
{
	char *s = NULL, move[48];

	for (size_t i = 0; i < sp->nmoved; i++) {
		ud_rv_speedup_text(sp->moved[i].ratio, 1, move, sizeof(move));
		if (!ud_append(&s, "%s%s on %s", i ? "; " : "", move, f->workloads[sp->moved[i].workload].name)) {
			free(s);
			return ud_view_pool_keep(pool, NULL);
		}
	}
	return ud_view_pool_keep(pool, s ? s : calloc(1, 1));
}

/* The other facts that part the same hosts, joined; NULL where none does. */
static const char *same_text(struct ud_view_pool *pool, const struct ud_fleet_split *sp)
{
	char *s = NULL;

	for (size_t i = 0; i < sp->nsame; i++)
		if (!ud_append(&s, "%s%s", i ? ", " : "", sp->same[i])) {
			free(s);
			return ud_view_pool_keep(pool, NULL);
		}
	return s ? ud_view_pool_keep(pool, s) : NULL;
}

struct fv_splits *ud_fv_splits(struct ud_view_pool *pool, const struct ud_fleet *f)
{
	struct fv_splits *v;
	size_t n = 0;
	char rule[512];

	for (size_t g = 0; g < f->ngroups; g++)
		n += f->groups[g].split != NULL;
	if (!n || !(v = ud_view_pool_alloc(pool, 1, sizeof(*v))) || !(v->list = ud_view_pool_alloc(pool, n, sizeof(*v->list))))
		return NULL;
	for (size_t g = 0; g < f->ngroups; g++) {
		const struct ud_fleet_split *sp = f->groups[g].split;
		struct fv_split *s = &v->list[v->nlist];

		if (!sp)
			continue;
		v->nlist++;
		s->id = ud_view_pool_printf(pool, "G%zu", g + 1);
		s->name = ud_view_pool_printf(pool, "%s", f->groups[g].name);
		s->fact = ud_view_pool_printf(pool, "%s", sp->fact);
		side_view(pool, f, &sp->side[1], &s->side1);
		side_view(pool, f, &sp->side[0], &s->side0);
		s->moves = moves_text(pool, f, sp);
		s->same = same_text(pool, sp);
	}
	ud_fleet_split_rule_text(rule, sizeof(rule));
	v->rule = ud_view_pool_printf(pool, "%s", rule);
	return v;
}

static const struct ud_field host_rows[] = {
	UD_FIELD(struct fv_split_host, label, UD_FIELD_STRING),
	UD_FIELD(struct fv_split_host, last, UD_FIELD_BOOL),
};
static const struct ud_fields host_fields = UD_FIELDS("a split side's host", host_rows);

static const struct ud_field side_rows[] = {
	UD_FIELD(struct fv_split_side, values, UD_FIELD_STRING),
	UD_FIELD(struct fv_split_side, nhosts, UD_FIELD_STRING),
	UD_FIELD(struct fv_split_side, hosts_word, UD_FIELD_STRING),
	UD_FIELD(struct fv_split_side, more, UD_FIELD_STRING),
	UD_FIELD_LIST_OF(struct fv_split_side, hosts, nhosts_shown, &host_fields),
};
static const struct ud_fields side_fields = UD_FIELDS("a split's side", side_rows);

static const struct ud_field split_rows[] = {
	UD_FIELD(struct fv_split, id, UD_FIELD_STRING),
	UD_FIELD(struct fv_split, name, UD_FIELD_STRING),
	UD_FIELD(struct fv_split, fact, UD_FIELD_STRING),
	UD_FIELD(struct fv_split, moves, UD_FIELD_STRING),
	UD_FIELD(struct fv_split, same, UD_FIELD_STRING),
	UD_FIELD_SUB(struct fv_split, side1, UD_FIELD_STRUCT, &side_fields),
	UD_FIELD_SUB(struct fv_split, side0, UD_FIELD_STRUCT, &side_fields),
};
static const struct ud_fields split_fields = UD_FIELDS("a split", split_rows);

static const struct ud_field splits_rows[] = {
	UD_FIELD_LIST_OF(struct fv_splits, list, nlist, &split_fields),
	UD_FIELD(struct fv_splits, rule, UD_FIELD_STRING),
};
const struct ud_fields ud_fv_splits_fields = UD_FIELDS("the splits", splits_rows);
