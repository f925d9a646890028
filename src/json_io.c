#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "json_io.h"

/* Large enough that a token never straddles more than one flush. */
#define JSON_OUT_BUFFER 65536

struct sink {
	FILE *f;
	size_t used;
	int failed;
	char buf[JSON_OUT_BUFFER];
};

static void flush(struct sink *s)
{
	if (s->used && fwrite(s->buf, 1, s->used, s->f) != s->used)
		s->failed = 1;
	s->used = 0;
}

static int take(const char *text, size_t n, void *data)
{
	struct sink *s = data;

	if (n > sizeof(s->buf) - s->used)
		flush(s);
	if (n > sizeof(s->buf)) {
		if (fwrite(text, 1, n, s->f) != n)
			s->failed = 1;
	} else {
		memcpy(s->buf + s->used, text, n);
		s->used += n;
	}
	return s->failed ? -1 : 0;
}

int ud_json_write(const json_t *j, size_t flags, FILE *f)
{
	struct sink *s = malloc(sizeof(*s)); /* 64 KB: off the stack */
	int failed;

	if (!s)
		return -1;
	s->f = f;
	s->used = 0;
	s->failed = 0;
	if (json_dump_callback(j, take, s, flags) != 0)
		s->failed = 1;
	take("\n", 1, s);
	flush(s);
	failed = s->failed;
	free(s);
	return failed ? -1 : 0;
}

json_t *ud_json_load_file(const char *path, struct ud_err *err)
{
	json_error_t jerr;
	json_t *root;
	size_t len;
	char *text = ud_read_file(path, UD_INPUT_PROFILE, &len, err);

	if (!text)
		return NULL;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!root)
		ud_fail(err, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
	return root;
}
