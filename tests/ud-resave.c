/*
 * ud-resave IN OUT: reads the profile IN with uarchdiff's own reader
 * (ud_profile_load(), as diff and compare read one) and writes it to OUT
 * with its own writer (ud_profile_save(), as import, run and stat write
 * one), so that tests/fuzz-roundtrip.sh can hold a written profile to
 * write(read(write(x))) == write(x).  No command of the tool reads a
 * profile only to write it again, hence this program.
 *
 * ud-resave --document IN: reads any other document the tool writes (a
 * diff, a fleet report, host facts, a teach page's data) with the reader
 * every JSON input goes through (ud_jdoc_parse(): UTF-8, duplicate keys,
 * numbers, depth), which no command offers alone either.
 *
 * Exit status: 0 written (or read), 1 IN refused (the reason on stderr),
 * 2 OUT not written, 3 bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "json_doc.h"
#include "profile.h"

static int read_document(const char *path)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_jdoc *doc = NULL;
	size_t len = 0;
	char *text = ud_read_file(path, UD_INPUT_IMPORT, &len, &err);

	if (text)
		doc = ud_jdoc_parse(text, len, &err);
	free(text);
	if (!doc) {
		fprintf(stderr, "ud-resave: %s: %s\n", path, err.msg);
		return 1;
	}
	ud_jdoc_free(doc);
	return 0;
}

int main(int argc, char **argv)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *p;
	int ret = 0;

	if (argc == 3 && strcmp(argv[1], "--document") == 0)
		return read_document(argv[2]);
	if (argc != 3) {
		fprintf(stderr, "usage: ud-resave IN OUT | ud-resave --document IN\n");
		return 3;
	}
	if (!(p = ud_profile_load(argv[1], &err))) {
		fprintf(stderr, "ud-resave: %s\n", err.msg);
		return 1;
	}
	if (ud_profile_save(p, argv[2], &err) != 0) {
		fprintf(stderr, "ud-resave: %s\n", err.msg);
		ret = 2;
	}
	ud_profile_free(p);
	return ret;
}
