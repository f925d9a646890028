/*
 * stat_record.c - the record `stat record` keeps (stat_record.h): building
 * it and freeing it.  Its JSON form is stat_record_json.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stat_record.h"

static const char *const rows_names[] = {
	[UD_ROWS_WHOLE] = "whole", [UD_ROWS_CPU] = "cpu", [UD_ROWS_CORE] = "core",
	[UD_ROWS_SOCKET] = "socket", [UD_ROWS_THREAD] = "thread", [UD_ROWS_DIE] = "die", [UD_ROWS_NODE] = "node",
};

const char *ud_stat_rows_name(enum ud_stat_rows rows)
{
	return rows_names[rows];
}

int ud_stat_rows_parse(const char *s, enum ud_stat_rows *rows)
{
	for (size_t i = 0; i < sizeof(rows_names) / sizeof(rows_names[0]); i++) {
		if (strcmp(s, rows_names[i]) == 0) {
			*rows = (enum ud_stat_rows)i;
			return 0;
		}
	}
	return -1;
}

struct ud_stat_record *ud_stat_record_new(void)
{
	return calloc(1, sizeof(struct ud_stat_record));
}

int ud_stat_record_add_column(struct ud_stat_record *r, const char *unit, double scale, bool extra)
{
	struct ud_stat_column *grown = realloc(r->columns, (r->ncolumns + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	r->columns = grown;
	grown[r->ncolumns].unit = strdup(unit ? unit : "");
	grown[r->ncolumns].scale = scale;
	grown[r->ncolumns].extra = extra;
	if (!grown[r->ncolumns].unit)
		return -1;
	r->ncolumns++;
	return 0;
}

struct ud_stat_part *ud_stat_parts_add(struct ud_stat_part **parts, size_t *n, const char *label, int number)
{
	struct ud_stat_part *grown = realloc(*parts, (*n + 1) * sizeof(*grown)), *p;

	if (!grown)
		return NULL;
	*parts = grown;
	p = &grown[*n];
	p->label = label ? strdup(label) : NULL;
	p->number = number;
	if ((label && !p->label) || ud_workload_init(&p->w, "part") != 0) {
		free(p->label);
		return NULL;
	}
	(*n)++;
	return p;
}

struct ud_stat_interval *ud_stat_record_add_interval(struct ud_stat_record *r, double at_s)
{
	struct ud_stat_interval *grown = realloc(r->intervals, (r->nintervals + 1) * sizeof(*grown)), *iv;

	if (!grown)
		return NULL;
	r->intervals = grown;
	iv = &grown[r->nintervals];
	*iv = (struct ud_stat_interval){ .at_s = at_s };
	if (ud_workload_init(&iv->w, "interval") != 0)
		return NULL;
	r->nintervals++;
	return iv;
}

static int copy_string(char **dst, const char *src)
{
	*dst = src ? strdup(src) : NULL;
	return src && !*dst ? -1 : 0;
}

int ud_stat_copy_counts(struct ud_workload *dst, const struct ud_workload *src)
{
	dst->elapsed_ns = src->elapsed_ns;
	dst->user_ns = src->user_ns;
	dst->sys_ns = src->sys_ns;
	dst->runs = src->runs;
	for (size_t i = 0; i < src->ncounters; i++) {
		const struct ud_counter *s = &src->counters[i];
		struct ud_counter *c = ud_workload_add_counter(dst, s->name);
		const char *name;

		if (!c)
			return -1;
		name = c->name;
		*c = *s;
		c->name = name;
		c->reason = c->vendor_event = c->semantics = c->opened_as = c->cgroup = NULL;
		if (copy_string(&c->reason, s->reason) || copy_string(&c->vendor_event, s->vendor_event) ||
		    copy_string(&c->semantics, s->semantics) || copy_string(&c->opened_as, s->opened_as) ||
		    copy_string(&c->cgroup, s->cgroup))
			return -1;
	}
	return 0;
}
