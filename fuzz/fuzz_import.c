/*
 * libFuzzer target over every import parser: the first byte picks the format
 * (auto-detection included) and, past the formats, the side of a kernel test
 * robot table (none, base, head: the robot's parser refuses a table without
 * one, so only a side reaches its rows); the rest is the file.  Built with
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
		UD_FMT_AUTO, UD_FMT_PERF_TEXT, UD_FMT_PERF_CSV, UD_FMT_PERF_JSON, UD_FMT_UNIXBENCH, UD_FMT_LKP,
		UD_FMT_PERFSPECT, UD_FMT_TOPDOWN_TOOL, UD_FMT_UPROF_PCM,
	};
	static const enum ud_import_side sides[] = { UD_IMPORT_SIDE_NONE, UD_IMPORT_SIDE_BASE, UD_IMPORT_SIDE_HEAD };
	const size_t nformats = sizeof(formats) / sizeof(formats[0]);
	struct ud_import_opts o = { 0 };
	struct ud_import_warnings warn = { 0 };
	struct ud_profile *p, *back;
	struct ud_err err;
	struct ud_jw *jw;
	json_t *tree = NULL;
	char *j;

	if (size == 0)
		return 0;
	o.format = formats[data[0] % nformats];
	o.side = sides[data[0] / nformats % (sizeof(sides) / sizeof(sides[0]))];
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
