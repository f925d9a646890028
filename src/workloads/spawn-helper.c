/*
 * uarchdiff-spawn MODE N: the process-creation workloads' minimal process.
 *
 *   fork N   fork N children that exit at once, reaping each (UnixBench's spawn)
 *   exec N   exec itself N times in a chain, no fork (UnixBench's execl)
 *
 * Fork copies the forking process's page tables and mappings, so its cost
 * grows with that process: forked from uarchdiff's runner (its libraries and
 * buffers), spawn measured the runner's memory.  This program links nothing
 * but libc and allocates nothing, so it forks and execs what a small program
 * does, as UnixBench's own programs do.  Exit status 0 when all N were made;
 * 1 on a failure; 2 for bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int fork_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			return 1;
	}
	return 0;
}

/* As execl: each exec runs this program anew with one less to go. */
static int exec_chain(const char *self, unsigned long n)
{
	char left[32];

	if (n == 0)
		return 0;
	snprintf(left, sizeof(left), "%lu", n - 1);
	execl(self, self, "exec", left, (char *)NULL);
	return 1;
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long n;

	if (argc != 3)
		return 2;
	n = strtoul(argv[2], &end, 10);
	if (*end || end == argv[2])
		return 2;
	if (strcmp(argv[1], "fork") == 0)
		return fork_loop(n);
	if (strcmp(argv[1], "exec") == 0)
		return exec_chain(argv[0], n);
	return 2;
}
