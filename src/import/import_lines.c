/*
 * import_lines.c - the importers' line reader (import_lines.h).  One buffer
 * grown to the longest line, so a file of a million interval rows costs one
 * allocation, not one per line; a streamed file's lines are handed out in
 * place in its fixed buffer, not copied.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "import_lines.h"

/* A streamed file's buffer: the window ahead and as much again, so a refill reads at least a window. */
#define STREAM_BUFFER (2 * IMP_LINES_WINDOW)

void imp_lines_init(struct lines *l, const char *text, size_t len)
{
	memset(l, 0, sizeof(*l));
	l->text = l->cur = text;
	l->end = text + len;
	l->fd = -1;
}

static bool is_control(unsigned char c)
{
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b;
}

size_t imp_control_byte(const char *text, size_t len)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	size_t i = 0;

#ifdef __SSE2__
	/*
	 * Sixteen bytes at a time where SSE2 is there (every x86-64): each byte
	 * below 0x20 (mostly a newline; min(b, 0x1f) == b) sets its bit in the
	 * mask, and only those bytes are looked at.  Every byte of a paste
	 * passes here: a quarter of what the eight-byte words below cost.
	 */
	const __m128i below = _mm_set1_epi8(0x1f);

	for (; i + 16 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(text + i));

		for (unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, below), v)); m; m &= m - 1) {
			size_t k = i + (size_t)__builtin_ctz(m);

			if (is_control((unsigned char)text[k]))
				return k;
		}
	}
#endif
	/*
	 * Eight bytes at a time: every byte below 0x20 (mostly a newline) sets
	 * its high bit in the mask (a borrow may set others above it, never
	 * clear one), and only those bytes are looked at.
	 */
	for (; i + 8 <= len; i += 8) {
		uint64_t w, m;

		memcpy(&w, text + i, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w); /* the lowest bits the first byte, as the borrow and the scan need */
#endif
		for (m = (w - 0x20 * ones) & ~w & highs; m; m &= m - 1) {
			size_t k = i + (size_t)__builtin_ctzll(m) / 8;

			if (is_control((unsigned char)text[k]))
				return k;
		}
	}
	for (; i < len; i++)
		if (is_control((unsigned char)text[i]))
			return i;
	return len;
}

static char *stream_fail(struct lines *l)
{
	l->failed = true;
	return NULL;
}

/* Reads on until the buffer is full or the file ends; a byte no text holds in what came fails it. */
static int refill(struct lines *l)
{
	size_t from;

	memmove(l->buf, l->buf + l->at, l->fill - l->at);
	l->fill -= l->at;
	l->at = 0;
	from = l->fill;
	while (!l->eof && l->fill < STREAM_BUFFER) {
		ssize_t got = read(l->fd, l->buf + l->fill, STREAM_BUFFER - l->fill);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ud_fail(l->err, "%s: %s", l->name, strerror(errno));
			return -1;
		}
		l->eof = got == 0;
		l->fill += (size_t)got;
	}
	size_t bad = from + imp_control_byte(l->buf + from, l->fill - from);

	if (bad < l->fill) {
		int line = l->lineno + 1;

		for (const char *c = l->buf; (c = memchr(c, '\n', (size_t)(l->buf + bad - c))) != NULL; c++)
			line++;
		ud_fail(l->err, "%s:%d: byte 0x%02x: binary data, not perf stat output or a UnixBench log", l->name,
			line, (unsigned char)l->buf[bad]);
		return -1;
	}
	return 0;
}

int imp_lines_open(struct lines *l, int fd, size_t skip, const char *name, struct ud_err *err)
{
	imp_lines_init(l, NULL, 0);
	l->fd = fd;
	l->name = name;
	l->err = err;
	/* +1: a last line without a newline gets its NUL after the data */
	l->buf = malloc(STREAM_BUFFER + 1);
	if (!l->buf)
		return ud_fail(err, "%s: out of memory", name);
	l->cap = STREAM_BUFFER;
	if (refill(l) != 0) {
		l->failed = true;
		return 0;
	}
	l->at = skip < l->fill ? skip : l->fill;
	return 0;
}

static char *stream_next(struct lines *l)
{
	size_t ahead = l->fill - l->at, n;
	char *line = l->buf + l->at, *nl;

	if (l->failed)
		return NULL;
	nl = memchr(line, '\n', ahead < IMP_LINE_MAX + 1 ? ahead : IMP_LINE_MAX + 1);
	if (!nl && !l->eof) {
		if (refill(l) != 0)
			return stream_fail(l);
		line = l->buf;
		ahead = l->fill;
		nl = memchr(line, '\n', ahead < IMP_LINE_MAX + 1 ? ahead : IMP_LINE_MAX + 1);
	}
	n = nl ? (size_t)(nl - line) : ahead;
	if (n > IMP_LINE_MAX) {
		ud_fail(l->err, "%s:%d: a line of over %zu bytes: no perf stat output or log holds one", l->name,
			l->lineno + 1, IMP_LINE_MAX);
		return stream_fail(l);
	}
	if (n == 0 && !nl)
		return NULL;
	l->at += n + (nl != NULL);
	if (n && line[n - 1] == '\r')
		n--;
	line[n] = '\0';
	l->lineno++;
	return line;
}

char *imp_lines_next(struct lines *l)
{
	const char *nl;
	size_t n;

	if (l->fd >= 0)
		return stream_next(l);
	if (l->cur >= l->end)
		return NULL;
	nl = memchr(l->cur, '\n', (size_t)(l->end - l->cur));
	n = (size_t)((nl ? nl : l->end) - l->cur);
	if (n + 1 > l->cap) {
		char *grown = realloc(l->buf, n + 1);

		if (!grown)
			return NULL;
		l->buf = grown;
		l->cap = n + 1;
	}
	memcpy(l->buf, l->cur, n);
	if (n && l->buf[n - 1] == '\r')
		n--;
	l->buf[n] = '\0';
	l->cur = nl ? nl + 1 : l->end;
	l->lineno++;
	return l->buf;
}

const char *imp_lines_ahead(struct lines *l, size_t *len)
{
	if (l->fd < 0) {
		*len = (size_t)(l->end - l->cur);
		return l->cur;
	}
	if (!l->failed && !l->eof && l->fill - l->at < IMP_LINES_WINDOW && refill(l) != 0)
		l->failed = true;
	*len = l->failed ? 0 : l->fill - l->at;
	return l->buf + l->at;
}

void imp_lines_free(struct lines *l)
{
	free(l->buf);
	l->buf = NULL;
}
