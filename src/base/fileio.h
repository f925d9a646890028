/*
 * fileio.h - reading an input file whole, safely, the one way uarchdiff
 * does it.
 *
 * Profiles, templates, specs, event tables, cpuinfo, perf pastes and logs are
 * parsed from one buffer: the parsers (jansson's json_loadb, the importers'
 * line readers) want the text in one piece, and reading it in large blocks
 * costs far less than a stdio call per character.
 *
 * Every input has a size cap for its kind, so a hostile or mistaken path
 * (/dev/zero, a 1 GB sparse file, a log that never ends) is refused with one
 * line instead of reading until memory runs out.  Only regular files are
 * read: a FIFO, a device or a directory where a file is expected is refused
 * without blocking (the file is opened non-blocking and checked before any
 * read).  No input kind takes "-" for standard input today.
 */
#ifndef UD_FILEIO_H
#define UD_FILEIO_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

/*
 * The caps (doc/input-limits.md).  Each is far above what a real input of
 * that kind holds, and low enough that a wrong path fails at once.
 */
/* /proc/cpuinfo: about 1.6 KB a CPU on x86 (the flags line); 16 MiB is 10,000 CPUs. */
#define UD_CAP_CPUINFO ((size_t)16 << 20)
/* events/ tables: the largest shipped is a few KB. */
#define UD_CAP_EVENT_TABLE ((size_t)1 << 20)
/* workloads/ *.spec: a dozen key = value lines. */
#define UD_CAP_SPEC ((size_t)64 << 10)
/* report-templates: the HTML one, the largest, is about 20 KB. */
#define UD_CAP_TEMPLATE ((size_t)1 << 20)
/* Profiles (diff, compare, host files): 1,000 workloads of 100 events is about 40 MB. */
#define UD_CAP_PROFILE ((size_t)256 << 20)
/* import: a year of `perf stat -I 1000` text is well under 1 GiB. */
#define UD_CAP_IMPORT ((size_t)1 << 30)
/* schemas/ *.schema.json: the largest shipped (the profile's) is about 30 KB. */
#define UD_CAP_SCHEMA ((size_t)1 << 20)
/* What a spec's program may print (its score line is in it), read as it runs (spec.h). */
#define UD_CAP_PROGRAM_OUTPUT ((size_t)64 << 20)

enum ud_input_kind {
	UD_INPUT_CPUINFO,
	UD_INPUT_EVENT_TABLE,
	UD_INPUT_SPEC,
	UD_INPUT_TEMPLATE,
	UD_INPUT_PROFILE,
	UD_INPUT_IMPORT,
	UD_INPUT_SCHEMA,
};

/* The kind's cap in bytes. */
size_t ud_input_cap(enum ud_input_kind kind);

/*
 * Reads path whole.  Returns a NUL-terminated buffer the caller frees, its
 * length (without the NUL) in *len (may be NULL); NULL with err set to one
 * line "PATH: reason" when it cannot: missing, not a regular file (which kind
 * it is), over the kind's cap, or binary (a NUL byte in its first block: no
 * input is binary, and a sparse file is refused before it is read whole).
 */
char *ud_read_file(const char *path, enum ud_input_kind kind, size_t *len, struct ud_err *err);

/*
 * The same, as a stream over the buffer for the line parsers that read with
 * getline(): the caller fcloses the stream, then frees *buf.
 * The stream is a new one the caller owns, as *buf.
 */
FILE *ud_open_input(const char *path, enum ud_input_kind kind, char **buf, struct ud_err *err);

/* Is path a regular file (following links)?  For directory scans that skip the rest. */
int ud_is_regular_file(const char *path);

/* Writes all of buf to fd, again after EINTR and short writes; 0, or the errno of the failure. */
int ud_write_all(int fd, const void *buf, size_t n);

#endif
