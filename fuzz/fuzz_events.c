/*
 * libFuzzer target over the event-table parser (events/ tables) and the
 * top-down formulas: a table that parses has had every formula evaluated
 * once by its check; each method is then computed over made-up counts
 * (some missing, some 0) that the input's bytes decide.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "topdown_method.h"
#include "uarch.h"

/* A count for name from the input's bytes: missing, 0, or some size. */
static int fuzz_value(void *ctx, const char *name, double *v, char *why, size_t len)
{
	uint32_t h = *(const uint32_t *)ctx;

	for (const char *p = name; *p; p++)
		h = h * 31 + (unsigned char)*p;
	switch (h % 4) {
	case 0:
		snprintf(why, len, "%s was not counted", name);
		return 1;
	case 1:
		*v = 0;
		return 0;
	default:
		*v = (double)(h % 1000003);
		return 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct ud_uarch u;
	struct ud_err err;
	uint32_t seed = 2166136261u;

	if (!f)
		return 0;
	for (size_t i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 16777619u;
	if (ud_uarch_parse(f, "fuzz", &u, &err) == 0) {
		for (size_t i = 0; i < u.ntopdown; i++) {
			struct ud_topdown t;

			if (ud_topdown_compute(&u.topdown[i], (double)(seed % 9), fuzz_value, &seed, &t, &err) == 0 &&
			    !(isnan(t.residual) || (t.residual >= 0 && t.residual <= 1)))
				__builtin_trap(); /* a residual is a share of the slots */
		}
		ud_uarch_free(&u);
	}
	fclose(f);
	return 0;
}
