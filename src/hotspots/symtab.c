#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"
#include "symtab.h"

int ud_symtab_add(struct ud_symtab *t, uint64_t start, uint64_t size, const char *name, const char *module)
{
	size_t nlen = strlen(name) + 1, mlen = module ? strlen(module) + 1 : 0;
	struct ud_sym *s;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;

		s = realloc(t->s, cap * sizeof(*s));
		if (!s)
			return -1;
		t->s = s;
		t->cap = cap;
	}
	s = &t->s[t->n];
	s->name = malloc(nlen + mlen); /* name and module in one block */
	if (!s->name)
		return -1;
	memcpy(s->name, name, nlen);
	s->module = module ? memcpy(s->name + nlen, module, mlen) : NULL;
	s->start = start;
	s->size = size;
	t->n++;
	t->sorted = false;
	return 0;
}

static int cmp_start(const void *x, const void *y)
{
	const struct ud_sym *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	/* Of aliases at one address, the sized one first, then by name: lookups stay deterministic. */
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	return strcmp(a->name, b->name);
}

void ud_symtab_sort(struct ud_symtab *t)
{
	if (t->n)
		ud_sort(t->s, t->n, sizeof(*t->s), cmp_start);
	t->sorted = true;
}

const struct ud_sym *ud_symtab_find(const struct ud_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	const struct ud_sym *s;

	if (!t->sorted || !t->n || addr < t->s[0].start)
		return NULL;
	while (hi - lo > 1) { /* the last symbol with start <= addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->s[mid].start <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* Aliases share a start: take the first of them, the sized one. */
	while (lo > 0 && t->s[lo - 1].start == t->s[lo].start)
		lo--;
	s = &t->s[lo];
	if (s->size && addr - s->start >= s->size)
		return NULL;
	return s;
}

void ud_symtab_free(struct ud_symtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->s[i].name);
	free(t->s);
	memset(t, 0, sizeof(*t));
}

const char *ud_kallsyms_path(void)
{
	const char *p = getenv(UD_KALLSYMS_ENV);

	return p && *p ? p : UD_KALLSYMS_DEFAULT;
}

/* Text symbols: code a sample can land in. */
static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

int ud_kallsyms_load(const char *path, struct ud_symtab *t, struct ud_err *err)
{
	FILE *f = fopen(path, "re");
	char line[1024];
	size_t text = 0, zero = 0;

	if (!f)
		return ud_fail(err, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[512], module[256];
		int k = sscanf(line, "%llx %c %511s [%255[^]]]", &addr, &type, name, module);

		if (k < 3 || !is_text(type))
			continue;
		text++;
		zero += addr == 0;
		if (addr && ud_symtab_add(t, addr, 0, name, k == 4 ? module : NULL) != 0) {
			fclose(f);
			return ud_fail(err, "out of memory");
		}
	}
	fclose(f);
	ud_symtab_sort(t);
	if (!text)
		return ud_fail(err, "%s: no kernel text symbols in it", path);
	if (zero == text)
		return ud_fail(err, "%s: every address reads 0 (kptr_restrict hides them from this user)", path);
	return 0;
}
