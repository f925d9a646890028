/*
 * libFuzzer target over what diff reads: the bytes are a profile (diffed
 * with itself) or two separated by a NUL byte (which JSON never holds:
 * diffed A against B), read as ud_profile_load() reads a file (json_doc.h's
 * reader, duplicate keys refused), then diffed and rendered as each report.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "profile.h"
#include "report.h"

static void diff_pair(const struct ud_profile *a, const struct ud_profile *b)
{
	static FILE *sink;
	struct ud_diff_input in = { .a = a, .b = b, .a_name = "a.json", .b_name = "b.json", .db = NULL };
	struct ud_err err;
	struct ud_diff *d = ud_diff_build(&in, &err);

	if (!sink)
		sink = fopen("/dev/null", "w");
	for (int f = UD_REPORT_TEXT; d && sink && f <= UD_REPORT_HTML; f++)
		ud_report_write(d, (enum ud_report_format)f, NULL, sink, &err);
	ud_diff_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *nul = memchr(data, '\0', size);
	size_t alen = nul ? (size_t)(nul - text) : size;
	struct ud_err err;
	struct ud_profile *a = ud_profile_parse(text, alen, "a.json", &err), *b = NULL;

	if (a && nul)
		b = ud_profile_parse(nul + 1, size - alen - 1, "b.json", &err);
	if (a && (b || !nul))
		diff_pair(a, b ? b : a);
	ud_profile_free(b);
	ud_profile_free(a);
	return 0;
}
