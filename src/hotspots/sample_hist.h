/*
 * sample_hist.h - where the samples of a perf record stream landed: each
 * user sample placed in the file mapped at its address (from the MMAP and
 * MMAP2 records, following FORK to the parent's mappings and COMM's exec
 * flag to a fresh address space), each kernel sample kept by its address,
 * all counted per (file, offset).  Portable: it reads the stream that
 * perf_records.h decodes and knows nothing of ELF or of the kernel's symbols
 * (symbols.h resolves the histogram).
 *
 * Ownership: the histogram owns its strings and arrays, released with
 * ud_sample_hist_free().
 */
#ifndef UD_SAMPLE_HIST_H
#define UD_SAMPLE_HIST_H

#include <stddef.h>
#include <stdint.h>

#define UD_HIT_NO_DSO UINT32_MAX

struct ud_hit {
	uint32_t dso;    /* index into dsos; UD_HIT_NO_DSO: kernel, or a user address nothing mapped */
	int kernel;      /* the sample interrupted kernel code */
	uint64_t addr;   /* kernel: the address; user: the offset in the dso's file, or the address without one */
	uint64_t count;
};

struct ud_proc_maps; /* the address spaces seen so far (sample_hist.c) */

struct ud_sample_hist {
	char **dsos;       /* mapped files' paths (or "[vdso]" ...), each once */
	size_t ndsos;
	struct ud_hit *hits; /* after ud_sample_hist_finish(): one per (dso, kernel, addr), by count descending */
	size_t nhits;
	uint64_t samples;  /* SAMPLE records */
	uint64_t lost;     /* what LOST records said the kernel dropped */
	uint64_t truncated; /* streams that ended inside a record */
	/* private */
	size_t hit_cap, dso_cap;
	struct ud_proc_maps *procs;
};

void ud_sample_hist_init(struct ud_sample_hist *h);
/* Reads one stream (its records in order); -1 when out of memory. */
int ud_sample_hist_feed(struct ud_sample_hist *h, const void *buf, size_t len);
/* Merges equal hits and sorts them by count, descending. */
void ud_sample_hist_finish(struct ud_sample_hist *h);
void ud_sample_hist_free(struct ud_sample_hist *h);

#endif
