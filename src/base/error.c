#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/* What stands for the bytes left out of a message too long for its buffer. */
#define CUT_MARK "..."

/* Whether byte c continues a UTF-8 character (10xxxxxx): a cut never falls before one. */
static int continues(char c)
{
	return ((unsigned char)c & 0xC0) == 0x80;
}

/*
 * full (len bytes) into err, whole where it fits; else its start and its end
 * with CUT_MARK between, each cut at a character's edge: the file it is
 * about leads a message and the reason ends it, and a long name in the
 * middle is what gives way, visibly.
 */
static void set_message(struct ud_err *err, const char *full, size_t len)
{
	size_t room = sizeof(err->msg) - 1 - strlen(CUT_MARK), head = room / 2, tail = len - (room - head);

	if (len < sizeof(err->msg)) {
		memcpy(err->msg, full, len + 1);
		return;
	}
	while (head > 0 && continues(full[head]))
		head--;
	while (tail < len && continues(full[tail]))
		tail++;
	memcpy(err->msg, full, head);
	memcpy(err->msg + head, CUT_MARK, strlen(CUT_MARK));
	memcpy(err->msg + head + strlen(CUT_MARK), full + tail, len - tail + 1);
}

/* The cut mark at the end of err's message, at a character's edge: what came after it is lost. */
static void mark_cut(struct ud_err *err)
{
	size_t at = sizeof(err->msg) - 1 - strlen(CUT_MARK);

	if (strlen(err->msg) < at)
		at = strlen(err->msg);
	while (at > 0 && continues(err->msg[at]))
		at--;
	memcpy(err->msg + at, CUT_MARK, strlen(CUT_MARK) + 1);
}

/* fmt's message into err, then ": " and old where old is not NULL (a prefix put in front of it). */
static void format_into(struct ud_err *err, const char *fmt, va_list ap, const char *old)
{
	size_t olen = old ? strlen(old) : 0;
	char *full;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	if (n < 0)
		n = 0;
	if ((size_t)n < sizeof(err->msg) && !old) {
		va_end(again);
		return;
	}
	/* the whole message once, to keep both of its ends */
	if (!(full = malloc((size_t)n + olen + 3))) {
		/* out of memory: the start alone, marked as cut */
		va_end(again);
		mark_cut(err);
		return;
	}
	vsnprintf(full, (size_t)n + 1, fmt, again);
	va_end(again);
	if (old) {
		memcpy(full + n, ": ", 2);
		memcpy(full + n + 2, old, olen + 1);
	}
	set_message(err, full, strlen(full));
	free(full);
}

int ud_fail(struct ud_err *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;

		va_start(ap, fmt);
		format_into(err, fmt, ap, NULL);
		va_end(ap);
	}
	return -1;
}

int ud_err_prefix(struct ud_err *err, const char *fmt, ...)
{
	char old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return -1;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	format_into(err, fmt, ap, old);
	va_end(ap);
	return -1;
}
