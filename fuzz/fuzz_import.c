/*
 * libFuzzer target over every import parser: the first byte picks the format
 * (auto-detection included), the rest is the file.  Built with
 * -DUD_FUZZ=ON and clang; run by fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ud_import_format formats[] = {
		UD_FMT_AUTO, UD_FMT_PERF_TEXT, UD_FMT_PERF_CSV, UD_FMT_PERF_JSON, UD_FMT_UNIXBENCH,
	};
	struct ud_import_opts o = { 0 };
	struct ud_import_warnings warn = { 0 };
	struct ud_profile *p, *back;
	struct ud_err err;
	struct ud_jw *jw;
	json_t *tree = NULL;
	char *j;

	if (size == 0)
		return 0;
	o.format = formats[data[0] % (sizeof(formats) / sizeof(formats[0]))];
	p = ud_profile_new(NULL);
	if (!p)
		return 0;
	ud_import_buffer_warn(p, (const char *)data + 1, size - 1, "fuzz", &o, &warn, &err);
	ud_import_warnings_free(&warn);
	/* What was imported must also serialise, and read back (perf_metrics, derived_per_pmu). */
	if ((jw = ud_jw_tree()))
		ud_profile_emit(jw, p);
	ud_jw_finish(jw, &tree);
	j = tree ? json_dumps(tree, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	json_decref(tree);
	back = j ? ud_profile_parse(j, strlen(j), "fuzz", &err) : NULL;
	ud_profile_free(back);
	free(j);
	ud_profile_free(p);
	return 0;
}
