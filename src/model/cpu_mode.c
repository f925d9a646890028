#include <string.h>

#include "cpu_mode.h"

static const char *const mode_names[UD_MODE_COUNT] = {
	[UD_MODE_USER] = "user",
	[UD_MODE_KERNEL] = "kernel",
};

const char *ud_mode_name(enum ud_mode m)
{
	return mode_names[m];
}

int ud_mode_from_name(const char *name, enum ud_mode *out)
{
	for (int m = 0; m < UD_MODE_COUNT; m++)
		if (strcmp(name, mode_names[m]) == 0)
			return *out = (enum ud_mode)m, 0;
	return -1;
}
