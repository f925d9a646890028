#include <string.h>

#include "count_status.h"

const char *ud_count_status_name(enum ud_count_status s)
{
	switch (s) {
	case UD_COUNTED: return "counted";
	case UD_NOT_COUNTED: return "not_counted";
	case UD_NOT_SUPPORTED: break;
	}
	return "not_supported";
}

int ud_count_status_parse(const char *name, enum ud_count_status *s)
{
	static const enum ud_count_status all[] = { UD_COUNTED, UD_NOT_COUNTED, UD_NOT_SUPPORTED };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (strcmp(name, ud_count_status_name(all[i])) == 0) {
			*s = all[i];
			return 0;
		}
	}
	return -1;
}
