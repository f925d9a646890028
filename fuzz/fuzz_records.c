/*
 * libFuzzer target over the perf ring-buffer record stream: the decoder, the
 * address-space tracking and histogram (histogram.h) and the ring copy
 * with positions taken from the input.  Built with -DUD_FUZZ=ON and clang;
 * run by fuzz/run.sh (target records).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perf_records.h"
#include "histogram.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ud_histogram h;
	uint8_t out[64];
	uint64_t tail = 0, head = 0;

	ud_histogram_init(&h);
	/* Twice, as the runner feeds one stream per measured run into one histogram. */
	ud_histogram_feed(&h, data, size);
	ud_histogram_feed(&h, data, size / 2);
	ud_histogram_finish(&h);
	ud_histogram_free(&h);
	if (size >= 16) {
		memcpy(&tail, data, 8);
		memcpy(&head, data + 8, 8);
		/* Any positions: at most the ring or the output is copied, never past either. */
		ud_ring_copy(data, size >= 32 ? 32 : 16, tail, head, out, sizeof(out));
	}
	return 0;
}
