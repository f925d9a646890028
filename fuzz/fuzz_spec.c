/*
 * libFuzzer target over the workload spec parser (workloads/ *.spec); a spec
 * that parses then takes its own bytes as the program output its score
 * pattern reads.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct ud_spec s;
	struct ud_err err;
	char units[32], *output;
	double score;

	if (!f)
		return 0;
	if (ud_spec_parse(f, "fuzz.spec", &s, &err) == 0) {
		output = malloc(size + 1);
		if (output) {
			memcpy(output, data, size);
			output[size] = '\0';
			ud_spec_score(&s, output, 1.0, &score, units, sizeof(units), &err); /* a timebase of one second */
			free(output);
		}
		regfree(&s.re);
	}
	fclose(f);
	return 0;
}
