/*
 * ud-resave IN OUT: reads the profile IN with uarchdiff's own reader
 * (ud_profile_load(), as diff and compare read one) and writes it to OUT
 * with its own writer (ud_profile_save(), as import, run and stat write
 * one), so that tests/fuzz-roundtrip.sh can hold a written profile to
 * write(read(write(x))) == write(x).  No command of the tool reads a
 * profile only to write it again, hence this program.
 *
 * Exit status: 0 written, 1 IN refused (the reason on stderr), 2 OUT not
 * written, 3 bad usage.
 */
#include <stdio.h>

#include "profile.h"

int main(int argc, char **argv)
{
	struct ud_err err = UD_ERR_INIT;
	struct ud_profile *p;
	int ret = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: ud-resave IN OUT\n");
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
