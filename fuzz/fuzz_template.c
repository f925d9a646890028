/*
 * libFuzzer target over the report template renderer: the first byte picks
 * the escaping (text, Markdown, HTML), the rest is the template, rendered
 * against a context with strings, numbers, booleans, nulls, arrays and
 * nested objects, as the report view has.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const ud_escape_fn escapes[] = { ud_escape_text, ud_escape_markdown, ud_escape_html };
	static json_t *ctx;
	static FILE *sink;
	struct ud_err err;
	char *tmpl;

	if (size == 0)
		return 0;
	if (!ctx)
		ctx = json_pack("{s:s s:i s:f s:b s:n s:[{s:s s:[i,i]},{s:s s:[]}] s:{s:{s:s}} s:[s,s] s:s}", "name",
				"<w & \"x\">", "n", 3, "x", 1.5, "yes", 1, "none", "rows", "k", "a", "list", 1, 2, "k",
				"b", "list", "host", "cpu", "model", "Genoa", "items", "p", "q", "empty", "");
	if (!sink)
		sink = fopen("/dev/null", "w");
	tmpl = malloc(size);
	if (!tmpl || !ctx || !sink) {
		free(tmpl);
		return 0;
	}
	memcpy(tmpl, data + 1, size - 1);
	tmpl[size - 1] = '\0';
	ud_template_render(tmpl, "fuzz", ctx, escapes[data[0] % 3], sink, &err);
	free(tmpl);
	return 0;
}
