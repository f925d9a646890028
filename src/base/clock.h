/*
 * clock.h - the monotonic clock every elapsed time is taken from, and the
 * calling thread's CPU clock for timings that time spent descheduled (on a
 * shared host) must not inflate.
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

/*
 * Nanoseconds this thread has run on a CPU (CLOCK_THREAD_CPUTIME_ID): time
 * waiting for a CPU, or stolen by the hypervisor where the guest accounts
 * steal time, is not in it.
 */
static inline uint64_t ud_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif
