#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "fileio.h"
#include "schemas.h"
#include "text.h"

/*
 * The documents' "schema" values are the writers' own constants (profile.h,
 * diff.h, fleet.h, teach.h), which this floor cannot include:
 * tests/test_schemas.c holds the two to each other and to the files.
 */
static const struct ud_schema schemas[] = {
	{ "profile", "profile.schema.json", "uarchdiff.profile/1" },
	{ "diff", "diff.schema.json", "uarchdiff.diff/2" },
	{ "compare", "compare.schema.json", "uarchdiff.compare/2" },
	{ "teach", "teach.schema.json", "uarchdiff.teach/1" },
	{ "host", "host.schema.json", "uarchdiff host --json" },
	{ "events", "events.schema.json", "uarchdiff events --json" },
	{ "stat-line", "stat-line.schema.json", "uarchdiff stat -j, one line" },
};

#define NSCHEMAS (sizeof(schemas) / sizeof(schemas[0]))

const struct ud_schema *ud_schemas(size_t *n)
{
	*n = NSCHEMAS;
	return schemas;
}

const struct ud_schema *ud_schema_named(const char *name, struct ud_err *err)
{
	const char *names[NSCHEMAS], *near;

	for (size_t i = 0; i < NSCHEMAS; i++) {
		if (strcmp(name, schemas[i].name) == 0)
			return &schemas[i];
		names[i] = schemas[i].name;
	}
	near = ud_closest(name, names, NSCHEMAS);
	if (near)
		ud_fail(err, "no schema '%s'; did you mean '%s'? ('uarchdiff schema --list' names them)", name, near);
	else
		ud_fail(err, "no schema '%s' ('uarchdiff schema --list' names them)", name);
	return NULL;
}

const char *ud_schema_path(const struct ud_schema *s, char *buf, size_t len)
{
	char dir[4096];

	snprintf(buf, len, "%s/%s", ud_data_dir(UD_DATA_SCHEMAS, dir, sizeof(dir)), s->file);
	return buf;
}

/*
 * JSON text holds no control byte but its whitespace (RFC 8259: strings
 * escape them), so one in the file means it is no schema, and it never
 * reaches the terminal that would obey it.
 */
static int check_text(const char *text, size_t len, const char *path, struct ud_err *err)
{
	size_t line = 1, column = 1;

	for (size_t i = 0; i < len; i++, column++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n') {
			line++;
			column = 0;
		} else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
			return ud_fail(err, "%s:%zu:%zu: byte 0x%02x: not JSON text", path, line, column, c);
		}
	}
	return 0;
}

char *ud_schema_read(const struct ud_schema *s, size_t *len, struct ud_err *err)
{
	char path[4352];
	size_t n;
	char *text = ud_read_file(ud_schema_path(s, path, sizeof(path)), UD_INPUT_SCHEMA, &n, err);

	if (text && check_text(text, n, path, err) != 0) {
		free(text);
		return NULL;
	}
	if (text && len)
		*len = n;
	return text;
}
