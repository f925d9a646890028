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


double ud_json_number_at(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}
