/*
 * libFuzzer target with an oracle: json_doc.h's reader against jansson on
 * the same bytes.  Both must refuse them, or both read the same values
 * (json_equal); anything else aborts.  The one difference the header
 * documents, a NUL byte after a number or literal (a digit, 'e' or 'l'
 * before it), is only required to be refused.
 */
#include <stdint.h>
#include <stdlib.h>

#include "json_doc.h"

static int nul_after_token(const uint8_t *data, size_t size)
{
	for (size_t i = 1; i < size; i++)
		if (data[i] == 0 && ((data[i - 1] >= '0' && data[i - 1] <= '9') || data[i - 1] == 'e' || data[i - 1] == 'l'))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *want = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr), *got;
	struct ud_err err;
	struct ud_jdoc *doc = ud_jdoc_parse((const char *)data, size, &err);

	if (nul_after_token(data, size)) {
		json_decref(want);
		want = NULL;
	}
	if ((want != NULL) != (doc != NULL))
		abort();
	if (doc) {
		got = ud_jv_to_json(ud_jdoc_root(doc));
		if (!json_equal(want, got))
			abort();
		json_decref(got);
	}
	json_decref(want);
	ud_jdoc_free(doc);
	return 0;
}
