#include "fileio.h"
#include "json_emit.h"
#include "json_io.h"

int ud_json_write(const json_t *j, FILE *f)
{
	struct ud_jw *w = ud_jw_text(f);

	ud_jw_value(w, NULL, j);
	return ud_jw_finish(w, NULL);
}

