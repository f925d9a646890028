/*
 * symtab.h - a table of symbols by address, looked up by the address a
 * sample landed on, and the kernel's table read from /proc/kallsyms.
 * Portable: ELF tables are filled by symbols.c, the kernel's here from text.
 *
 * Ownership: the table owns its names; free it with ud_symtab_free().
 */
#ifndef UD_SYMTAB_H
#define UD_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Where the kernel's symbols are read unless UARCHDIFF_KALLSYMS names another file (tests point it elsewhere). */
#define UD_KALLSYMS_DEFAULT "/proc/kallsyms"
#define UD_KALLSYMS_ENV "UARCHDIFF_KALLSYMS"

struct ud_sym {
	uint64_t start, size; /* size 0: up to the next symbol (kallsyms gives no sizes) */
	char *name;
	const char *module;   /* kernel: "[ext4]" or NULL for the kernel image; points into name's block */
};

struct ud_symtab {
	struct ud_sym *s;
	size_t n, cap;
	bool sorted;
};

/* Adds a symbol (module may be NULL); -1 when out of memory. */
int ud_symtab_add(struct ud_symtab *t, uint64_t start, uint64_t size, const char *name, const char *module);
/* Sorts the table for lookups; call after the last add. */
void ud_symtab_sort(struct ud_symtab *t);
/*
 * The symbol covering addr: the last one starting at or below it, within its
 * size where it has one.  NULL when none does (never the nearest guess).
 * Borrowed from t.
 */
const struct ud_sym *ud_symtab_find(const struct ud_symtab *t, uint64_t addr);
void ud_symtab_free(struct ud_symtab *t);

/*
 * The path the kernel's symbols are read from: $UARCHDIFF_KALLSYMS, else
 * /proc/kallsyms.  Borrowed from the environment or static.
 */
const char *ud_kallsyms_path(void);
/*
 * Reads the text symbols of a kallsyms file ("ADDR TYPE NAME [MODULE]")
 * into t, sorted.  -1 with err, in words for the profile, when the file
 * cannot be read, holds no text symbol, or shows every address as zero (not
 * root and kptr_restrict hiding them).
 */
int ud_kallsyms_load(const char *path, struct ud_symtab *t, struct ud_err *err);

#endif
