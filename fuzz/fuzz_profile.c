/*
 * libFuzzer target over what diff reads: the bytes are a profile (diffed
 * with itself) or a JSON array of two (diffed A against B), loaded as
 * ud_json_load_file() would (duplicate keys refused), then diffed, turned
 * into the diff document and rendered as the text report.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diff.h"
#include "json_io.h"
#include "profile.h"
#include "report.h"

static void diff_pair(const struct ud_profile *a, const struct ud_profile *b)
{
	static FILE *sink;
	struct ud_diff_input in = { .a = a, .b = b, .a_name = "a.json", .b_name = "b.json", .db = NULL };
	struct ud_err err;
	struct ud_diff *d = ud_diff_build(&in, &err);
	json_t *doc = d ? ud_diff_to_json(d) : NULL;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (doc && sink)
		ud_report_write(doc, UD_REPORT_TEXT, NULL, sink, &err);
	json_decref(doc);
	ud_diff_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
	struct ud_profile *a = NULL, *b = NULL;
	struct ud_err err;

	if (!root)
		return 0;
	if (json_is_array(root) && json_array_size(root) == 2) {
		a = ud_profile_from_json(json_array_get(root, 0), "a.json", &err);
		b = a ? ud_profile_from_json(json_array_get(root, 1), "b.json", &err) : NULL;
	} else {
		a = ud_profile_from_json(root, "a.json", &err);
	}
	if (a)
		diff_pair(a, b ? b : a);
	ud_profile_free(b);
	ud_profile_free(a);
	json_decref(root);
	return 0;
}
