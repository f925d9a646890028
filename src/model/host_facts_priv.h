/*
 * host_facts_priv.h - the table of host facts that host_facts.c (lookup,
 * walk, copy) and host_json.c (reader, writer) share: a row per fact or
 * group, by dotted name, with where it lives in struct ud_host.
 */
#ifndef UD_HOST_FACTS_PRIV_H
#define UD_HOST_FACTS_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "host_facts.h"

enum ud_host_row_kind {
	UD_ROW_GROUP,      /* an object holding the rows after it whose names it prefixes */
	UD_ROW_STRING,     /* char *, NULL written as null */
	UD_ROW_OPT_STRING, /* char *, NULL left out (pmu_reason, cpu.source: absent in imports) */
	UD_ROW_INTEGER,    /* long long, UD_HOST_UNKNOWN written as null */
	UD_ROW_TRISTATE,   /* int 1/0, -1 written as null */
	UD_ROW_FLAG,       /* bool, written only when true */
	UD_ROW_LIST,       /* core_pmus: written when there are some or the host is hybrid */
	UD_ROW_VULNS,      /* the vulnerabilities object, an open set of names, or null */
	UD_ROW_STATED,     /* the names of the facts stated (import --fact): written when there are some; no fact itself */
};

struct ud_host_row {
	const char *name;
	enum ud_host_row_kind kind;
	size_t offset;     /* of the field in struct ud_host; unused for groups, the lists and the vulnerabilities */
};

extern const struct ud_host_row ud_host_rows[];
extern const size_t ud_host_nrows;

/* The row's field in h (borrowed; the row must be of that kind). */
static inline char **ud_host_row_string(struct ud_host *h, const struct ud_host_row *r)
{
	return (char **)((char *)h + r->offset);
}

static inline long long *ud_host_row_integer(struct ud_host *h, const struct ud_host_row *r)
{
	return (long long *)((char *)h + r->offset);
}

static inline int *ud_host_row_tristate(struct ud_host *h, const struct ud_host_row *r)
{
	return (int *)((char *)h + r->offset);
}

static inline bool *ud_host_row_flag(struct ud_host *h, const struct ud_host_row *r)
{
	return (bool *)((char *)h + r->offset);
}

/* The row's value in h. */
struct ud_fact ud_host_row_fact(const struct ud_host *h, const struct ud_host_row *r);

#endif
