/*
 * registry.c - the list of built-in workloads and the suites they form.
 * quick: 8 workloads, about 10 s; default: the UnixBench kinds and the
 * teaching kernels, about a minute; full: everything, with memory sweeps.
 */
#include <string.h>

#include "workload.h"

static const struct ud_workload_def *const all[] = {
	&wl_int, &wl_fp, &wl_pipe, &wl_ctxsw, &wl_ctxsw_cross, &wl_syscall, &wl_spawn, &wl_exec,
	&wl_fcopy256, &wl_fcopy1k, &wl_fcopy4k, &wl_tcp,
	&wl_branch_sorted, &wl_branch_random, &wl_ilp_dep, &wl_ilp_indep, &wl_frontend,
	&wl_sweep_l1, &wl_sweep_l2, &wl_sweep_l3, &wl_sweep_mem, &wl_chase, &wl_redis, &wl_redis_pipelined,
	&wl_http_gateway,
};

const struct ud_workload_def *const *ud_workloads_all(size_t *n)
{
	*n = sizeof(all) / sizeof(all[0]);
	return all;
}

const struct ud_workload_def *ud_workload_find(const char *name)
{
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

int ud_suite_parse(const char *name, unsigned *suite)
{
	if (strcmp(name, "quick") == 0)
		*suite = UD_SUITE_QUICK;
	else if (strcmp(name, "default") == 0)
		*suite = UD_SUITE_DEFAULT;
	else if (strcmp(name, "full") == 0)
		*suite = UD_SUITE_FULL;
	else
		return -1;
	return 0;
}
