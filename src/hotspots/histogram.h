/*
 * histogram.h - where the samples of a perf record stream landed: each
 * user sample placed in the file mapped at its address (from the MMAP and
 * MMAP2 records, following FORK to the parent's mappings and COMM's exec
 * flag to a fresh address space), each kernel sample kept by its address,
 * all counted per (file, offset).  Portable: it reads the stream that
 * perf_records.h decodes and knows nothing of ELF or of the kernel's symbols
 * (symbols.h resolves the histogram).
 *
 * Ownership: the histogram owns its strings and arrays, released with
 * ud_histogram_free().
 */
#ifndef UD_HISTOGRAM_H
#define UD_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#define UD_HIT_NO_DSO UINT32_MAX

struct ud_hit {
	uint32_t dso;    /* index into dsos; UD_HIT_NO_DSO: kernel, or a user address nothing mapped */
	int kernel;      /* the sample interrupted kernel code */
	uint64_t addr;   /* kernel: the address; user: the offset in the dso's file, or the address without one */
	uint64_t count;
};

struct ud_proc_maps; /* the address spaces seen so far (histogram.c) */

struct ud_histogram {
	char **dsos;       /* mapped files' paths (or "[vdso]" ...), each once */
	size_t ndsos;
	struct ud_hit *hits; /* after ud_histogram_finish(): one per (dso, kernel, addr), by count descending */
	size_t nhits;
	uint64_t samples;  /* SAMPLE records */
	uint64_t lost;     /* what LOST records said the kernel dropped */
	uint64_t truncated; /* streams that ended inside a record */
	/* private */
	size_t hit_cap, dso_cap;
	struct ud_proc_maps *procs;
};

void ud_histogram_init(struct ud_histogram *h);
/* Reads one stream (its records in order); -1 when out of memory. */
int ud_histogram_feed(struct ud_histogram *h, const void *buf, size_t len);
/* Merges equal hits and sorts them by count, descending. */
void ud_histogram_finish(struct ud_histogram *h);
void ud_histogram_free(struct ud_histogram *h);

#endif
