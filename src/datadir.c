#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"

static const struct {
	const char *env;
	const char *folder;
	const char *source_dir; /* the build tree's fallback */
} kinds[] = {
	[UD_DATA_EVENTS] = { "UARCHDIFF_EVENTS_DIR", "events", UD_EVENTS_DIR },
	[UD_DATA_TEMPLATES] = { "UARCHDIFF_TEMPLATES_DIR", "report-templates", UD_TEMPLATES_DIR },
	[UD_DATA_WORKLOADS] = { "UARCHDIFF_WORKLOADS_DIR", "workloads", UD_WORKLOADS_DIR },
};

const char *ud_data_kind_folder(enum ud_data_kind kind)
{
	return kinds[kind].folder;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* PREFIX/share/uarchdiff/FOLDER for the prefix above the running binary. */
static int installed_dir(const char *folder, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	for (int up = 0; up < 2; up++) { /* drop "/uarchdiff", then "/bin" */
		slash = strrchr(exe, '/');
		if (!slash)
			return -1;
		*slash = '\0';
	}
	if ((size_t)snprintf(buf, len, "%s/share/uarchdiff/%s", exe, folder) >= len)
		return -1;
	return is_dir(buf) ? 0 : -1;
}

const char *ud_data_dir(enum ud_data_kind kind, char *buf, size_t len)
{
	const char *env = getenv(kinds[kind].env);

	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (installed_dir(kinds[kind].folder, buf, len) != 0)
		snprintf(buf, len, "%s", kinds[kind].source_dir);
	return buf;
}
