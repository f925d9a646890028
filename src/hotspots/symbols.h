/*
 * symbols.h - names for where the samples landed: user addresses through
 * the mapped file's ELF symbols (.symtab, else .dynsym; the file offset
 * from the mapping turned into the file's own address through its PT_LOAD
 * segments, so PIE executables and shared libraries resolve wherever they
 * were loaded), kernel addresses through kallsyms (symtab.h).
 *
 * What cannot be named is not guessed: a user address in a file without a
 * covering symbol becomes "[unknown] FILE+0xOFFSET"; kernel addresses when
 * kallsyms cannot be read become one "[kernel]" row, and the profile's
 * sampling.kernel_symbols says why.
 */
#ifndef UD_SYMBOLS_H
#define UD_SYMBOLS_H

#include "error.h"
#include "hotspots.h"
#include "histogram.h"

#define UD_KERNEL_DSO "[kernel.kallsyms]"
#define UD_KERNEL_ROW "[kernel]"

/*
 * Adds h's samples (finished: ud_histogram_finish()) to out as rows, each
 * sampled file with its build-id, and sets out->sampling.samples, .lost and
 * .kernel_symbols ("kallsyms" or the reason); then finishes out (top rows
 * and [other]).  kallsyms: the kernel's symbols (ud_kallsyms_path()).
 * -1 with err only when out of memory.
 */
int ud_symbols_resolve(const struct ud_histogram *h, const char *kallsyms, struct ud_hotspots *out,
		       struct ud_err *err);

/*
 * A new hotspots set from a sampled record stream (sampler.h): the samples
 * resolved as above, with kallsyms from ud_kallsyms_path(), and the sampling
 * facts: the event, its frequency, and kernel_reason where kernel code was
 * not sampled at all (NULL or "" when it was).  Streams cut short are kept
 * up to the cut.  NULL with err only when out of memory.
 * Caller frees (ud_hotspots_free()).
 */
struct ud_hotspots *ud_symbols_from_records(const void *records, size_t len, const char *event, unsigned hz,
					    const char *kernel_reason, struct ud_err *err);

#endif
