/* libudhot.so: a shared library with one known hot function, for the symbol tests. */
#include <time.h>

#include "ud-hot.h"

__attribute__((noinline)) unsigned long ud_hot_lib_spin(long ms)
{
	struct timespec t0, t;
	volatile unsigned long acc = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			acc += (unsigned long)i * 7;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return acc;
}
