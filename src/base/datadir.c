#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"

static const struct {
	const char *env;
	const char *folder;     /* under the installed root */
	const char *bin_to_root; /* the installed root, from the binary's folder */
	const char *source_dir; /* the build tree's fallback */
} kinds[] = {
	[UD_DATA_EVENTS] = { "UARCHDIFF_EVENTS_DIR", "events", UD_BIN_TO_DATA, UD_EVENTS_DIR },
	[UD_DATA_TEMPLATES] = { "UARCHDIFF_TEMPLATES_DIR", "report-templates", UD_BIN_TO_DATA, UD_TEMPLATES_DIR },
	[UD_DATA_WORKLOADS] = { "UARCHDIFF_WORKLOADS_DIR", "workloads", UD_BIN_TO_DATA, UD_WORKLOADS_DIR },
	[UD_DATA_SCHEMAS] = { "UARCHDIFF_SCHEMAS_DIR", "schemas", UD_BIN_TO_DATA, UD_SCHEMAS_DIR },
	[UD_DATA_HELPERS] = { "UARCHDIFF_HELPERS_DIR", ".", UD_BIN_TO_HELPERS, UD_HELPERS_DIR },
};

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The installed data folder, found from the running binary's own folder by
 * UD_BIN_TO_DATA (../share/uarchdiff for bin/): wherever the tree was
 * installed or moved.  When that folder exists the binary is installed and
 * every kind is read from there, even a missing one, so an installed
 * binary never reads the source tree it was built from.
 */
static int installed_dir(enum ud_data_kind kind, char *buf, size_t len)
{
	char exe[PATH_MAX], root[PATH_MAX + 64], real[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	snprintf(root, sizeof(root), "%s/%s", exe, UD_BIN_TO_DATA);
	if (!is_dir(root))
		return -1;
	snprintf(root, sizeof(root), "%s/%s", exe, kinds[kind].bin_to_root);
	if (!realpath(root, real))
		snprintf(real, sizeof(real), "%s", root); /* missing: the path still says where it was looked for */
	if ((size_t)snprintf(buf, len, "%s/%s", real, kinds[kind].folder) >= len)
		return -1;
	return 0;
}

const char *ud_data_dir(enum ud_data_kind kind, char *buf, size_t len)
{
	const char *env = getenv(kinds[kind].env);

	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (installed_dir(kind, buf, len) != 0)
		snprintf(buf, len, "%s", kinds[kind].source_dir);
	return buf;
}
