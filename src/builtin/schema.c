/*
 * uarchdiff schema [--path] NAME | --list: the JSON Schema of a document
 * uarchdiff writes (schemas.h), printed whole: the schemas it refers to
 * folded in (json_schema.h), so that it validates on its own.
 */
#include <stdio.h>
#include <stdlib.h>

#include "builtins.h"
#include "fileio.h"
#include "json_io.h"
#include "json_schema.h"
#include "options.h"
#include "schemas.h"
#include "text.h"

static struct {
	bool list, path;
} args;

static const struct ud_option options[] = {
	UD_FLAG_OPTION(0, "list", &args.list, "list the schemas: name, the document each describes, its file"),
	UD_FLAG_OPTION(0, "path", &args.path, "print the schema's file name instead of its text"),
};

static const struct ud_command command = {
	.name = "schema",
	.synopsis = "uarchdiff schema [--path] NAME\n"
		    "       uarchdiff schema --list",
	.description = "Prints the JSON Schema (draft 2020-12) of a document uarchdiff writes:\n"
		       "profile (uarchdiff.profile/1), diff, compare, teach, host (host --json),\n"
		       "events (events --json) and stat-line (one line of stat -j).  Validate with\n"
		       "any validator, e.g.\n"
		       "  uarchdiff schema profile | python3 -m jsonschema -i PROFILE /dev/stdin\n"
		       "What is printed is whole: the schemas it refers to (profile's, diff's) are\n"
		       "folded into its \"$defs\", every \"$ref\" pointing inside it, so it validates\n"
		       "alone; --path gives the installed file, which refers to the others by name.\n",
	.options = UD_OPTIONS(options),
	.operands = true,
	.permute = true,
};

static int list(void)
{
	size_t n;
	const struct ud_schema *s = ud_schemas(&n);
	char path[4352], shown[4352];

	for (size_t i = 0; i < n; i++)
		printf("%-10s %-28s %s\n", s[i].name, s[i].document,
		       ud_visible(ud_schema_path(&s[i], path, sizeof(path)), shown, sizeof(shown)));
	return ud_stdout_status(&command);
}

static int print_path(const struct ud_schema *s)
{
	char path[4352], shown[4352];

	ud_schema_path(s, path, sizeof(path));
	if (!ud_is_regular_file(path)) {
		ud_cmd_error(&command, "%s: no such schema file", ud_visible(path, shown, sizeof(shown)));
		return UD_EXIT_USAGE;
	}
	printf("%s\n", ud_visible(path, shown, sizeof(shown)));
	return ud_stdout_status(&command);
}

static int print_text(const struct ud_schema *s)
{
	struct ud_err err = UD_ERR_INIT;
	json_t *bundle = ud_schema_bundle(s, &err);

	if (!bundle) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	ud_json_write(bundle, stdout);
	json_decref(bundle);
	return ud_stdout_status(&command);
}

int cmd_schema(int argc, char **argv)
{
	struct ud_err err = UD_ERR_INIT;
	const struct ud_schema *s;
	int next, status;

	args.list = args.path = false;
	status = ud_options_cli(&command, argc, argv, &next);
	if (status != UD_OPT_GO_ON)
		return status;
	if (args.list && (next < argc || args.path)) {
		ud_cmd_error(&command, "--list names every schema: give it alone");
		return UD_EXIT_USAGE;
	}
	if (args.list)
		return list();
	if (argc - next != 1) {
		ud_cmd_error(&command, next < argc ? "give one schema's name" : "give a schema's name, or --list");
		return UD_EXIT_USAGE;
	}
	s = ud_schema_named(argv[next], &err);
	if (!s) {
		ud_cmd_error(&command, "%s", err.msg);
		return UD_EXIT_USAGE;
	}
	return args.path ? print_path(s) : print_text(s);
}
