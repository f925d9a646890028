#include <stdlib.h>

#include "host_file.h"
#include "json_io.h"

/*
 * What makes an object a host object: the fields every `host --json` writes.
 * Requiring a few of them keeps a stray JSON file (a profile's workload, a
 * diff) from being taken for a host whose facts are all unknown.
 */
static const char *const required_fields[] = { "cpu", "kernel", "hypervisor", "vulnerabilities" };

/* 0 when obj is a host object, else -1 with err saying why. */
static int host_object_check(const json_t *obj, struct ud_err *err)
{
	if (!json_is_object(obj))
		return ud_fail(err, "not a host object (expected the output of 'uarchdiff host --json')");
	for (size_t i = 0; i < sizeof(required_fields) / sizeof(required_fields[0]); i++)
		if (!json_object_get(obj, required_fields[i]))
			return ud_fail(err, "not a host object: no \"%s\" (expected the output of 'uarchdiff host --json')",
				       required_fields[i]);
	if (!json_is_object(json_object_get(obj, "cpu")))
		return ud_fail(err, "not a host object: \"cpu\" is not an object");
	return 0;
}

json_t *ud_host_file_load(const char *path, struct ud_err *err)
{
	json_t *root = ud_json_load_file(path, err), *host;

	if (!root)
		return NULL;
	host = json_is_object(json_object_get(root, "host")) ? json_object_get(root, "host") : root;
	if (host_object_check(host, err) != 0) {
		ud_err_prefix(err, "%s", path);
		json_decref(root);
		return NULL;
	}
	json_incref(host);
	json_decref(root);
	return host;
}
