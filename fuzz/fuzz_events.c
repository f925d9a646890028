/* libFuzzer target over the event-table parser (events/ tables). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uarch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct ud_uarch u;
	struct ud_err err;

	if (!f)
		return 0;
	if (ud_uarch_parse(f, "fuzz", &u, &err) == 0)
		ud_uarch_free(&u);
	fclose(f);
	return 0;
}
