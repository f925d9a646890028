#include <stdlib.h>

#include "fileio.h"
#include "host_file.h"
#include "json_doc.h"

/*
 * What makes an object a host object: the fields every `host --json` writes.
 * Requiring a few of them keeps a stray JSON file (a profile's workload, a
 * diff) from being taken for a host whose facts are all unknown.
 */
static const char *const required_fields[] = { "cpu", "kernel", "hypervisor", "vulnerabilities" };

/* 0 when obj is a host object, else -1 with err saying why. */
static int host_object_check(struct ud_jv obj, struct ud_err *err)
{
	if (!ud_jv_is_object(obj))
		return ud_fail(err, "not a host object (expected the output of 'uarchdiff host --json')");
	for (size_t i = 0; i < sizeof(required_fields) / sizeof(required_fields[0]); i++)
		if (ud_jv_absent(ud_jv_get(obj, required_fields[i])))
			return ud_fail(err, "not a host object: no \"%s\" (expected the output of 'uarchdiff host --json')",
				       required_fields[i]);
	if (!ud_jv_is_object(ud_jv_get(obj, "cpu")))
		return ud_fail(err, "not a host object: \"cpu\" is not an object");
	return 0;
}

struct ud_host *ud_host_file_load(const char *path, struct ud_err *err)
{
	size_t len;
	char *text = ud_read_file(path, UD_INPUT_PROFILE, &len, err);
	struct ud_jdoc *doc;
	struct ud_jv root, host;
	struct ud_host *h = NULL;

	if (!text)
		return NULL;
	doc = ud_jdoc_parse(text, len, err);
	free(text);
	if (!doc) {
		struct ud_err why = *err;

		/* "path:line:column: reason", as the profile's reader says it */
		return ud_fail(err, "%s:%s", path, why.msg), NULL;
	}
	root = ud_jdoc_root(doc);
	host = ud_jv_is_object(ud_jv_get(root, "host")) ? ud_jv_get(root, "host") : root;
	if (host_object_check(host, err) == 0)
		h = ud_host_read(host, path, err);
	else
		ud_err_prefix(err, "%s", path);
	ud_jdoc_free(doc);
	return h;
}
