/*
 * perf_records.h - the kernel's perf ring-buffer record stream, decoded
 * without the kernel: the records that sampling asks for (SAMPLE with
 * PERF_SAMPLE_IP | PERF_SAMPLE_TID, MMAP, MMAP2, COMM, FORK, EXIT, LOST),
 * laid out as include/uapi/linux/perf_event.h documents them.  Portable, so
 * a fuzzer can feed it any bytes: a record whose size runs past the end of
 * the buffer or cannot hold its own fields ends the stream as truncated.
 *
 * Also the ring buffer's one subtle step: copying [tail, head) out of a
 * power-of-two data area that wraps, so that a record split across the end
 * reads whole.
 */
#ifndef UD_PERF_RECORDS_H
#define UD_PERF_RECORDS_H

#include <stddef.h>
#include <stdint.h>

/* Record types and header bits, as the kernel's ABI numbers them. */
enum ud_rec_type {
	UD_REC_MMAP = 1,
	UD_REC_LOST = 2,
	UD_REC_COMM = 3,
	UD_REC_EXIT = 4,
	UD_REC_FORK = 7,
	UD_REC_SAMPLE = 9,
	UD_REC_MMAP2 = 10,
};

#define UD_REC_MISC_CPUMODE_MASK 0x7
#define UD_REC_MISC_KERNEL 1
#define UD_REC_MISC_USER 2
#define UD_REC_MISC_COMM_EXEC (1 << 13)
#define UD_REC_MISC_MMAP_BUILD_ID (1 << 14)
#define UD_REC_HEADER_SIZE 8

struct ud_record {
	uint32_t type; /* enum ud_rec_type, or another the caller skips */
	uint16_t misc;
	uint32_t pid, tid;
	uint32_t ppid;         /* FORK, EXIT */
	uint64_t ip;           /* SAMPLE */
	uint64_t start, len, pgoff; /* MMAP, MMAP2 */
	uint64_t lost;         /* LOST: records the kernel dropped */
	const char *name;      /* MMAP/MMAP2 file, COMM name: points into the buffer, NUL-terminated within it; else NULL */
};

enum ud_rec_status { UD_REC_OK = 1, UD_REC_END = 0, UD_REC_TRUNCATED = -1 };

struct ud_rec_reader {
	const uint8_t *buf;
	size_t len, off;
};

void ud_rec_reader_init(struct ud_rec_reader *r, const void *buf, size_t len);
/*
 * Decodes the next record into *out.  UD_REC_END at the end of the buffer;
 * UD_REC_TRUNCATED (and every later call too) for a header or record that
 * does not fit what is left, or a record too short for its type's fields.
 */
enum ud_rec_status ud_rec_next(struct ud_rec_reader *r, struct ud_record *out);

/*
 * Copies the ring's unread bytes [tail, head) out of data[0..size) (size a
 * power of two; the positions are the kernel's free-running counters) into
 * out, at most cap bytes.  Returns the number copied: head - tail, or cap
 * when that is smaller (the caller then advances tail by what it got).
 */
size_t ud_ring_copy(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head, uint8_t *out, size_t cap);

#endif
