/*
 * stat_opts.c - `uarchdiff stat`'s options typed (stat_run.h): their
 * defaults, the combinations refused before anything runs, in perf's words
 * where perf refuses them too, and what they name (the target, the rows,
 * where the profile goes).
 */
#include <string.h>

#include "stat_run.h"

void ud_stat_opts_init(struct ud_stat_opts *o)
{
	*o = (struct ud_stat_opts){ .repeat = 1, .scale = true, .csv_summary = true, .log_fd = -1, .td_level = -1,
				    .big_num = true };
}

enum ud_target_kind ud_stat_opts_target(const struct ud_stat_opts *o)
{
	/* -C with -a counts those CPUs, as perf's -a -C */
	return o->cpus       ? UD_TARGET_CPUS
	       : o->all_cpus ? UD_TARGET_SYSTEM_WIDE
	       : o->pids   ? UD_TARGET_PID
	       : o->tids   ? UD_TARGET_TID
			  : UD_TARGET_COMMAND;
}

enum ud_aggr_mode ud_stat_opts_aggr(const struct ud_stat_opts *o)
{
	return o->no_aggr ? UD_AGGR_CPU : o->per_core ? UD_AGGR_CORE : o->per_socket ? UD_AGGR_SOCKET
					     : o->per_thread ? UD_AGGR_THREAD : o->per_die ? UD_AGGR_DIE
					     : o->per_node ? UD_AGGR_NODE : UD_AGGR_WHOLE;
}

const char *ud_stat_opts_conflict(const struct ud_stat_opts *o, bool has_command, bool recording)
{
	if ((o->all_cpus || o->cpus) + !!o->pids + !!o->tids > 1)
		return "-a or -C, -p and -t are different targets: choose one";
	if (o->no_aggr + o->per_core + o->per_socket + o->per_thread + o->per_die + o->per_node > 1)
		return "-A, --per-core, --per-die, --per-socket, --per-node and --per-thread are different rows: choose one";
	if (o->sep && o->json)
		return "-x and --json are different outputs: choose one";
	if (o->table && o->repeat < 2)
		return "--table is only supported with -r";
	if (o->big_num_asked && o->sep)
		return "-B option not supported with -x";
	if (!has_command && ud_stat_opts_target(o) == UD_TARGET_COMMAND)
		return "no command given (uarchdiff stat [options] -- CMD [ARGS...], or -a, -C, -p, -t)";
	if (o->repeat != 1 && (!has_command || o->interval))
		return "-r repeats a command: it needs one, and no -I";
	if (o->repeat == 0 && (o->profile || recording || ud_stat_output_is_profile(o)))
		return "-r 0 reports each run until stopped: no profile (--profile, -o FILE.json) nor stat record";
	if (o->exact && (ud_stat_opts_target(o) != UD_TARGET_COMMAND || o->interval || o->delay))
		return "--exact reruns the command a group at a time: not with -a, -C, -p, -t, -I or -D";
	if (o->hotspots && (ud_stat_opts_target(o) != UD_TARGET_COMMAND || o->delay))
		return "--hotspots samples the command from its exec: not with -a, -C, -p, -t or -D";
	if (o->cgroups.given && o->for_each_cgroup)
		return "--cgroup and --for-each-cgroup cannot be used together";
	if ((o->cgroups.given || o->for_each_cgroup) && !(o->all_cpus || o->cpus))
		return "both cgroup and no-aggregation modes only available in system-wide mode (-G and "
		       "--for-each-cgroup need -a or -C)";
	if ((o->cgroups.given || o->for_each_cgroup) && o->per_thread)
		return "-G and --for-each-cgroup count cgroups at CPUs: not with --per-thread";
	if (o->interval_count && !o->interval)
		return "--interval-count counts -I's intervals: give -I (as perf)";
	if (o->all_user && o->all_kernel)
		return "--all-user and --all-kernel are different modes: choose one";
	if (o->interval && o->timeout)
		return "--timeout is not supported with -I (as in perf)";
	if (o->log_fd >= 0 && o->output)
		return "--log-fd and -o are both where the report goes: choose one (as perf)";
	if (o->append && (!o->output || strcmp(o->output, "-") == 0))
		return "--append adds to the file -o names: give one";
	if (o->null_run && (o->events.list || o->detailed || o->interval || o->exact || o->hotspots || o->topdown || o->metrics ||
			   o->td_level >= 0))
		return "-n counts nothing: not with -e, -d, -I, --exact, --hotspots, --topdown, --td-level or -M";
	return NULL;
}

bool ud_stat_output_is_profile(const struct ud_stat_opts *o)
{
	size_t len = o->output ? strlen(o->output) : 0;

	return !o->sep && !o->json && !o->profile && len > 5 && strcmp(o->output + len - 5, ".json") == 0;
}

void ud_stat_opts_free(struct ud_stat_opts *o)
{
	ud_event_request_free(&o->events);
	ud_cgroups_free(&o->cgroups);
}
