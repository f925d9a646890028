/* raw_config.c - event codes as raw perf configs (raw_config.h). */
#include "raw_config.h"

uint64_t ud_uarch_raw_config(const struct ud_uarch *u, unsigned code, int umask, int cmask, bool inv, bool edge)
{
	uint64_t c = code;

	if (u->detect != UD_DETECT_X86)
		return c;
	return (c & 0xff) | ((uint64_t)(umask > 0 ? umask : 0) << 8) | ((uint64_t)edge << 18) | ((uint64_t)inv << 23) |
	       ((uint64_t)(cmask & 0xff) << 24) | ((c & 0xf00) << 24);
}
