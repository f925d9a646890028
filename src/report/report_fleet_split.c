/*
 * report_fleet_split.c - the groups a host fact splits (fleet_split.c) as
 * the fleet templates show them: per group the fact, the values and hosts
 * on each side, the workloads that moved with the ratio of the sides'
 * medians, and the other facts that part the same hosts.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fleet.h"
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

static json_t *side_view(const struct ud_fleet *f, const struct ud_fleet_side *side)
{
	json_t *hosts = json_array(), *v;
	char *values = values_text(side);

	for (size_t i = 0; i < side->nhosts && i < SPLIT_HOSTS_SHOWN; i++)
		json_array_append_new(hosts, json_pack("{s:s s:b}", "label", f->hosts[side->hosts[i]].label, "last",
						       i + 1 == side->nhosts || i + 1 == SPLIT_HOSTS_SHOWN));
	v = json_pack("{s:s? s:I s:s s:o}", "values", values, "nhosts", (json_int_t)side->nhosts, "hosts_word",
		      side->nhosts == 1 ? "host" : "hosts", "hosts", hosts);
	if (side->nhosts > SPLIT_HOSTS_SHOWN)
		json_object_set_new(v, "more", json_integer((json_int_t)(side->nhosts - SPLIT_HOSTS_SHOWN)));
	free(values);
	return v;
}

/* "1.40x slower on syscall; 1.12x faster on pipe": side 1 against side 0. */
static json_t *moves_view(const struct ud_fleet *f, const struct ud_fleet_split *sp)
{
	char *s = NULL, move[48];
	json_t *v;

	for (size_t i = 0; i < sp->nmoved; i++) {
		ud_rv_speedup_text(sp->moved[i].ratio, 1, move, sizeof(move));
		if (!ud_append(&s, "%s%s on %s", i ? "; " : "", move, f->workloads[sp->moved[i].workload].name)) {
			free(s);
			return NULL;
		}
	}
	v = json_string(s ? s : "");
	free(s);
	return v;
}

static json_t *same_view(const struct ud_fleet_split *sp)
{
	char *s = NULL;
	json_t *v;

	for (size_t i = 0; i < sp->nsame; i++)
		if (!ud_append(&s, "%s%s", i ? ", " : "", sp->same[i])) {
			free(s);
			return NULL;
		}
	v = s ? json_string(s) : json_null();
	free(s);
	return v;
}

json_t *ud_fleet_splits_view(const struct ud_fleet *f)
{
	json_t *list = json_array();
	char rule[512];

	for (size_t g = 0; g < f->ngroups; g++) {
		const struct ud_fleet_split *sp = f->groups[g].split;
		char id[32];

		if (!sp)
			continue;
		snprintf(id, sizeof(id), "G%zu", g + 1);
		json_array_append_new(list, json_pack("{s:s s:s s:s s:o s:o s:o? s:o}", "id", id, "name",
						      f->groups[g].name, "fact", sp->fact, "side1",
						      side_view(f, &sp->side[1]), "side0", side_view(f, &sp->side[0]),
						      "moves", moves_view(f, sp), "same", same_view(sp)));
	}
	if (!json_array_size(list)) {
		json_decref(list);
		return json_null();
	}
	ud_fleet_split_rule_text(rule, sizeof(rule));
	return json_pack("{s:o s:s}", "list", list, "rule", rule);
}
