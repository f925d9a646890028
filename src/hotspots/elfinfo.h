/*
 * elfinfo.h - what a profile records about a program binary: where it is and
 * its GNU build-id, read with libelf, so a diff can tell whether two hosts
 * ran the same binary (otherwise path length is not comparable).
 */
#ifndef UD_ELFINFO_H
#define UD_ELFINFO_H

#include <stddef.h>

#include "error.h"

/*
 * The build-id of the ELF file at path as lowercase hex into hex (at least
 * 41 bytes for SHA-1 ids).  Returns 0, or -1 with err when the file is not
 * an ELF file or carries no build-id note.
 */
int ud_elf_build_id(const char *path, char *hex, size_t len, struct ud_err *err);

/*
 * The absolute path execvp() would run for name (a name with a slash is
 * taken as it is), resolved through symbolic links, into out.  -1 with err
 * when it is not found or not executable.
 */
int ud_which(const char *name, char *out, size_t len, struct ud_err *err);

#endif
