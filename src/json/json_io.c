#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "json_emit.h"
#include "json_io.h"

int ud_json_write(const json_t *j, FILE *f)
{
	struct ud_jw *w = ud_jw_text(f);

	ud_jw_value(w, NULL, j);
	return ud_jw_finish(w, NULL);
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


double ud_json_number_at(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}
