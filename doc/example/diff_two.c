/*
 * diff_two BASELINE CANDIDATE [DATA_DIR]: the library's example
 * (doc/library.md).  Loads two profiles, diffs them and writes the text
 * report to stdout, as `uarchdiff diff BASELINE CANDIDATE` does.  DATA_DIR is
 * an installed PREFIX/share/uarchdiff; without it the library looks its data
 * up as the binary does.
 *
 * Build against an installed library:
 *   cc diff_two.c $(pkg-config --cflags --libs uarchdiff) -o diff_two
 */
#include <stdio.h>

#include <uarchdiff/uarchdiff.h>

int main(int argc, char **argv)
{
	struct uarchdiff_error err = { "" };
	struct uarchdiff_profile *a = NULL, *b = NULL;
	struct uarchdiff_diff *d = NULL;
	int status = 1;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: diff_two BASELINE CANDIDATE [DATA_DIR]\n");
		return 2;
	}
	/* Each new reference is freed below; the diff borrows a and b, so it goes first. */
	if ((a = uarchdiff_profile_load(argv[1], &err)) && (b = uarchdiff_profile_load(argv[2], &err)) &&
	    (d = uarchdiff_diff_new(a, b, argv[1], argv[2], argc == 4 ? argv[3] : NULL, &err)) &&
	    uarchdiff_diff_write(d, UARCHDIFF_FORMAT_TEXT, stdout, &err) == 0)
		status = 0;
	else
		fprintf(stderr, "diff_two: %s\n", err.text);
	uarchdiff_diff_free(d);
	uarchdiff_profile_free(b);
	uarchdiff_profile_free(a);
	return status;
}
