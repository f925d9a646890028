/*
 * ud-hotprog MS: spins MS ms of CPU time in its own ud_hot_prog_spin(),
 * then MS ms in libudhot.so's ud_hot_lib_spin(), so that a sampled profile
 * has two known hot functions, one in the program (built PIE and not) and
 * one in a shared library.
 */
#include <stdlib.h>
#include <time.h>

#include "ud-hot.h"

__attribute__((noinline)) static unsigned long ud_hot_prog_spin(long ms)
{
	struct timespec t0, t;
	volatile unsigned long acc = 1;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			acc = acc * 3 + (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return acc;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 100;

	return (int)((ud_hot_prog_spin(ms) + ud_hot_lib_spin(ms)) & 0);
}
