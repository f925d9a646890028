/*
 * uarch_names.c - what a name a person gives stands for (uarch.h's
 * ud_uarch_named): a table or a core without one, by its name or an alias,
 * compared folded (letters and digits, lower case), so that "Cascade
 * Lake", "cascadelake" and "CASCADE-LAKE" are one name.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "uarch.h"

/* The longest name or alias folded; longer ones are cut there, which keeps them apart well enough. */
#define FOLDED_MAX 64

static void fold(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		if (isalnum((unsigned char)*s))
			buf[n++] = (char)tolower((unsigned char)*s);
	buf[n] = '\0';
}

/* One name a person may give: the entry it stands for (a table, or a core) and how it is spelt. */
struct name {
	char folded[FOLDED_MAX];
	char spelt[FOLDED_MAX];
	const struct ud_uarch *table;
	const struct ud_core *core;
};

struct names {
	struct name *v;
	size_t n;
};

static int add(struct names *ns, const char *spelt, size_t len, const struct ud_uarch *u, const struct ud_core *c)
{
	struct name *grown = realloc(ns->v, (ns->n + 1) * sizeof(*grown)), *e;

	if (!grown)
		return -1;
	ns->v = grown;
	e = &ns->v[ns->n++];
	snprintf(e->spelt, sizeof(e->spelt), "%.*s", (int)len, spelt);
	fold(e->spelt, e->folded, sizeof(e->folded));
	e->table = u;
	e->core = c;
	return 0;
}

/* The entry's name, then each of its comma-separated aliases. */
static int add_all(struct names *ns, const char *name, const char *aliases, const struct ud_uarch *u,
		   const struct ud_core *c)
{
	int ret = add(ns, name, strlen(name), u, c);

	for (const char *s = aliases; *s && ret == 0;) {
		size_t n = strcspn(s, ",");
		const char *start = s;

		while (isspace((unsigned char)*start))
			start++;
		if (start < s + n)
			ret = add(ns, start, (size_t)(s + n - start), u, c);
		s += n + (s[n] == ',');
	}
	return ret;
}

/* Every name and alias of db's tables and cores; -1 when out of memory (ns then freeable). */
static int collect(const struct ud_uarch_db *db, struct names *ns)
{
	int ret = 0;

	ns->v = NULL;
	ns->n = 0;
	for (size_t i = 0; i < db->n && ret == 0; i++)
		ret = add_all(ns, db->tables[i].name, db->tables[i].aliases, &db->tables[i], NULL);
	for (size_t i = 0; i < db->ncores && ret == 0; i++)
		ret = add_all(ns, db->cores[i].name, db->cores[i].aliases, NULL, &db->cores[i]);
	return ret;
}

static bool same_entry(const struct name *a, const struct name *b)
{
	return a->table == b->table && a->core == b->core;
}

int ud_uarch_names_check(const struct ud_uarch_db *db, const char *path, struct ud_err *err)
{
	struct names ns;
	int ret = collect(db, &ns) == 0 ? 0 : ud_fail(err, "out of memory");

	for (size_t i = 0; i < ns.n && ret == 0; i++) {
		if (!ns.v[i].folded[0])
			ret = ud_fail(err, "%s: '%s' has no letter or digit to be found by", path, ns.v[i].spelt);
		for (size_t k = i + 1; k < ns.n && ret == 0; k++)
			if (strcmp(ns.v[i].folded, ns.v[k].folded) == 0 && !same_entry(&ns.v[i], &ns.v[k]))
				ret = ud_fail(err, "%s: the name '%s' stands for both %s and %s", path, ns.v[k].spelt,
					      ud_uarch_id(ns.v[i].table, ns.v[i].core),
					      ud_uarch_id(ns.v[k].table, ns.v[k].core));
	}
	free(ns.v);
	return ret;
}

/* "zen1, zen2, ..." into buf, for messages listing the known tables. */
static void ud_uarch_names(const struct ud_uarch_db *db, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < db->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", db->tables[i].name);
	/* the cores are too many to list on the line of an error */
	if (db->ncores && used < len)
		snprintf(buf + used, len - used, "; and %zu cores without a table (events/cores.list)", db->ncores);
}

const char *ud_uarch_id(const struct ud_uarch *u, const struct ud_core *core)
{
	return core ? core->name : u->name;
}

/* The table a core without one is counted with (ud_uarch_db_load() makes sure there is one). */
static const struct ud_uarch *generic(const struct ud_uarch_db *db)
{
	for (size_t i = 0; i < db->n; i++)
		if (strcmp(db->tables[i].name, "generic") == 0)
			return &db->tables[i];
	return &db->tables[0];
}

/*
 * The name or alias nearest to want, as spelt; NULL where none is near or
 * two entries are equally near.  A near alias and a near name of one entry
 * ("Zen 4c" and "zen4" for "zen44") tie in ud_closest(): the names alone
 * then decide.
 */
static const char *nearest(const char *want, const struct names *ns)
{
	const char **folded = malloc((ns->n + 1) * sizeof(*folded)), *near = NULL;
	size_t n = 0;

	for (int pass = 0; folded && pass < 2 && !near; pass++) {
		n = 0;
		for (size_t i = 0; i < ns->n; i++)
			if (pass == 0 || strcmp(ns->v[i].spelt, ud_uarch_id(ns->v[i].table, ns->v[i].core)) == 0)
				folded[n++] = ns->v[i].folded;
		near = *want ? ud_closest(want, folded, n) : NULL;
	}
	for (size_t i = 0; near && i < ns->n; i++)
		if (ns->v[i].folded == near)
			near = ns->v[i].spelt;
	free(folded);
	return near;
}

/* The unknown name's error, with the nearest name or alias as spelt. */
static void unknown(const struct ud_uarch_db *db, const char *name, const struct names *ns, struct ud_err *err)
{
	char want[FOLDED_MAX], known[1024];
	const char *near;

	fold(name, want, sizeof(want));
	near = nearest(want, ns);
	ud_uarch_names(db, known, sizeof(known));
	if (near)
		ud_fail(err, "unknown microarchitecture '%s'; did you mean '%s'? (known: %s)", name, near, known);
	else
		ud_fail(err, "unknown microarchitecture '%s'; known: %s", name, known);
}

const struct ud_uarch *ud_uarch_named(const struct ud_uarch_db *db, const char *name, const struct ud_core **core,
				      struct ud_err *err)
{
	char want[FOLDED_MAX];
	const struct name *found = NULL;
	const struct ud_uarch *u = NULL;
	struct names ns;

	if (core)
		*core = NULL;
	if (collect(db, &ns) != 0) {
		free(ns.v);
		return ud_fail(err, "out of memory"), NULL;
	}
	fold(name, want, sizeof(want));
	for (size_t i = 0; *want && i < ns.n && !found; i++)
		if (strcmp(ns.v[i].folded, want) == 0)
			found = &ns.v[i];
	if (!found)
		unknown(db, name, &ns, err);
	else if (found->core && core)
		*core = found->core;
	if (found)
		u = found->table ? found->table : generic(db);
	free(ns.v);
	return u;
}
