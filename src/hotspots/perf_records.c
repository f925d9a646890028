#include <string.h>

#include "perf_records.h"

/* Fixed parts after the header: pid, tid, then the type's fields. */
#define MMAP_FIXED 32   /* pid tid addr len pgoff */
#define MMAP2_FIXED 64  /* ... maj min ino ino_generation (or build-id), prot flags */
#define COMM_FIXED 8
#define TASK_FIXED 24   /* pid ppid tid ptid time */
#define LOST_FIXED 16   /* id lost */
#define SAMPLE_FIXED 16 /* ip, pid tid */

void ud_rec_reader_init(struct ud_rec_reader *r, const void *buf, size_t len)
{
	r->buf = buf;
	r->len = len;
	r->off = 0;
}

static uint64_t u64_at(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A name field fills the rest of the record, NUL-padded; NULL when no NUL ends it. */
static const char *name_at(const uint8_t *p, size_t n)
{
	return n && memchr(p, '\0', n) ? (const char *)p : NULL;
}

/* Fills out's fields from the body (after the header); -1 when the body is too short. */
static int decode(struct ud_record *out, const uint8_t *b, size_t n)
{
	switch (out->type) {
	case UD_REC_SAMPLE:
		if (n < SAMPLE_FIXED)
			return -1;
		out->ip = u64_at(b);
		out->pid = u32_at(b + 8);
		out->tid = u32_at(b + 12);
		return 0;
	case UD_REC_MMAP:
	case UD_REC_MMAP2: {
		size_t fixed = out->type == UD_REC_MMAP ? MMAP_FIXED : MMAP2_FIXED;

		if (n <= fixed)
			return -1;
		out->pid = u32_at(b);
		out->tid = u32_at(b + 4);
		out->start = u64_at(b + 8);
		out->len = u64_at(b + 16);
		out->pgoff = u64_at(b + 24);
		out->name = name_at(b + fixed, n - fixed);
		return out->name ? 0 : -1;
	}
	case UD_REC_COMM:
		if (n <= COMM_FIXED)
			return -1;
		out->pid = u32_at(b);
		out->tid = u32_at(b + 4);
		out->name = name_at(b + COMM_FIXED, n - COMM_FIXED);
		return out->name ? 0 : -1;
	case UD_REC_FORK:
	case UD_REC_EXIT:
		if (n < TASK_FIXED)
			return -1;
		out->pid = u32_at(b);
		out->ppid = u32_at(b + 4);
		out->tid = u32_at(b + 8);
		return 0;
	case UD_REC_LOST:
		if (n < LOST_FIXED)
			return -1;
		out->lost = u64_at(b + 8);
		return 0;
	default:
		return 0; /* a type this reader does not use: skipped by its size */
	}
}

enum ud_rec_status ud_rec_next(struct ud_rec_reader *r, struct ud_record *out)
{
	const uint8_t *p;
	uint16_t size;

	if (r->off == r->len)
		return UD_REC_END;
	if (r->off > r->len || r->len - r->off < UD_REC_HEADER_SIZE)
		goto truncated;
	p = r->buf + r->off;
	memset(out, 0, sizeof(*out));
	out->type = u32_at(p);
	memcpy(&out->misc, p + 4, sizeof(out->misc));
	memcpy(&size, p + 6, sizeof(size));
	if (size < UD_REC_HEADER_SIZE || size > r->len - r->off)
		goto truncated;
	if (decode(out, p + UD_REC_HEADER_SIZE, size - UD_REC_HEADER_SIZE) != 0)
		goto truncated;
	r->off += size;
	return UD_REC_OK;
truncated:
	r->off = r->len + 1; /* every later call says truncated too */
	return UD_REC_TRUNCATED;
}

size_t ud_ring_copy(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head, uint8_t *out, size_t cap)
{
	uint64_t avail = head - tail, first;
	size_t n = avail < cap ? (size_t)avail : cap, at;

	if (size == 0 || n == 0)
		return 0;
	if (n > size)
		n = (size_t)size; /* more than the ring holds cannot be unread */
	at = (size_t)(tail & (size - 1));
	first = size - at;
	if (first >= n) {
		memcpy(out, data + at, n);
	} else {
		memcpy(out, data + at, (size_t)first);
		memcpy(out + first, data, n - (size_t)first);
	}
	return n;
}
