/*
 * import_perf_command.h - the perf stat command line pasted above its
 * output, read for what the output does not say: the counting modes,
 * system-wide counting and runs it asked for.
 *
 * People paste it as their shell showed it: "$ perf stat --all-user -e
 * cycles ./x", "# perf stat -a sleep 5", "[opc@host ~]$ sudo perf stat -d
 * ./fstime".
 */
#ifndef UD_IMPORT_PERF_COMMAND_H
#define UD_IMPORT_PERF_COMMAND_H

#include <stdbool.h>

#include "profile.h"

/*
 * Whether line holds a perf stat command line: "perf stat" (or
 * /path/to/perf stat) at its start, after a shell prompt ending in $, #, %
 * or >, or after sudo; prose that mentions perf stat is not one.  When it
 * does, *out gets the line from perf on (out->line a new string, valid
 * UTF-8, the caller frees it; NULL when out of memory) and its flags, and
 * *repeat its -r N (0 when it gives none), read as perf's option parser
 * reads them: up to the counted command or "--".
 */
bool imp_perf_command_of(const char *line, struct ud_perf_command *out, int *repeat);
/* Whether line holds one, without reading it. */
bool imp_has_perf_command(const char *line);

#endif
