/*
 * clock.h - the monotonic clock every elapsed time is taken from.
 */
#ifndef UD_CLOCK_H
#define UD_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds on CLOCK_MONOTONIC: immune to wall-clock steps (NTP, date). */
static inline uint64_t ud_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif
