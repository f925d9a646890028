# bash completion for uarchdiff                              -*- shell-script -*-
#
# Installed as share/bash-completion/completions/uarchdiff; self-contained
# (it needs nothing from the bash-completion package).  Commands and options
# are read from the binary's own --help, so they never drift from it:
#   uarchdiff <TAB>             the commands
#   uarchdiff CMD -<TAB>        that command's options
#   -w / --workloads            workload names ('uarchdiff workloads'), after commas too
#   --uarch                     the event tables and cores: share/uarchdiff/events, or
#                               UARCHDIFF_EVENTS_DIR
#   --suite, -f/--format        their values;  -e/--event  perf's generic names
#   stat -p/-t, -C              running process ids, online CPUs
#   teach LAB...                the labs: branch, cache, ilp
#   schema NAME                 the schemas ('uarchdiff schema --list')
#   stat ... -- CMD             a command, then files
#   elsewhere                   files

# Names from the binary: its commands, a command's long and short options.
_uarchdiff_commands()
{
	"$1" --help 2>/dev/null | sed -n '/^commands:/,/^$/s/^ \{1,\}\([a-z][a-z-]*\) .*/\1/p'
}

_uarchdiff_options()
{
	"$1" "$2" --help 2>&1 | grep -o -- '\(^\|[ [,|]\)--\?[a-zA-Z][a-z-]*' | sed 's/^[ [,|]//' | sort -u
}

# The event tables' folder: the environment's, else the one installed beside the binary.
_uarchdiff_uarchs()
{
	local bin dir
	dir=${UARCHDIFF_EVENTS_DIR:-}
	if [[ -z $dir ]]; then
		bin=$(type -P -- "$1") && bin=$(readlink -f -- "$bin") &&
			dir=${bin%/*}/../share/uarchdiff/events
	fi
	if [[ -n $dir && -d $dir ]]; then
		local f
		for f in "$dir"/*; do
			f=${f##*/}
			[[ -f $dir/$f && $f != *.* ]] && printf '%s\n' "$f"
		done
		# the cores without a table, one `core NAME ...` line each
		[[ -f $dir/cores.list ]] && awk '$1 == "core" { print $2 }' "$dir/cores.list"
	else # an uninstalled build: the tables its error message lists
		"$1" events --uarch /nonexistent 2>&1 | sed -n 's/.*known: //p' | sed 's/;.*//' | tr -d ' ' | tr ',' '\n'
	fi
}

# Completes a comma-separated list: the words offered for the part after the last comma.
_uarchdiff_list()
{
	local cur=$1 words=$2 prefix=""
	[[ $cur == *,* ]] && prefix=${cur%,*},
	mapfile -t COMPREPLY < <(compgen -P "$prefix" -W "$words" -- "${cur##*,}")
	[[ ${#COMPREPLY[@]} -eq 1 ]] || return 0
	compopt -o nospace 2>/dev/null # a list may go on after a comma
}

_uarchdiff_files()
{
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

_uarchdiff()
{
	local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev=""
	local cmd="" i dashdash=0
	[[ $COMP_CWORD -gt 0 ]] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ -z $cmd && ${COMP_WORDS[i]} != -* ]]; then
			cmd=${COMP_WORDS[i]}
		elif [[ -n $cmd && ${COMP_WORDS[i]} == -- ]]; then
			dashdash=$i
		fi
	done

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$(_uarchdiff_commands "$bin")" -- "$cur")
		fi
		return 0
	fi

	if [[ $cmd == stat && $dashdash -gt 0 ]]; then # the counted command and its arguments
		if [[ $COMP_CWORD -eq $((dashdash + 1)) ]]; then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		else
			_uarchdiff_files "$cur"
		fi
		return 0
	fi

	case $cmd:$prev in
	help:*)
		[[ $COMP_CWORD -eq 2 ]] &&
			mapfile -t COMPREPLY < <(compgen -W "$(_uarchdiff_commands "$bin")" -- "$cur")
		return 0 ;;
	*:-w | *:--workloads)
		# a row starts at the margin; its description, wrapped to the width, goes on under its column
		_uarchdiff_list "$cur" "$("$bin" workloads 2>/dev/null | awk 'NR > 1 && !/^ / { print $1 }')"
		return 0 ;;
	*:--uarch)
		mapfile -t COMPREPLY < <(compgen -W "$(_uarchdiff_uarchs "$bin")" -- "$cur")
		return 0 ;;
	*:--suite)
		mapfile -t COMPREPLY < <(compgen -W "quick default full" -- "$cur")
		return 0 ;;
	diff:-f | diff:--format | compare:-f | compare:--format)
		mapfile -t COMPREPLY < <(compgen -W "text json md html" -- "$cur")
		return 0 ;;
	compare:--baseline) # or a host's label, which only the profiles know
		mapfile -t COMPREPLY < <(compgen -W "median first" -- "$cur")
		return 0 ;;
	compare:--group-by) # host facts, as `uarchdiff host --json` names them
		_uarchdiff_list "$cur" "cpu.vendor cpu.uarch cpu.online_cpus cpu.model_name cpu.microcode cpu.smt
			kernel hypervisor pmu perf_event_paranoid cpufreq.governor hybrid"
		return 0 ;;
	teach:-f | teach:--format)
		mapfile -t COMPREPLY < <(compgen -W "text html json" -- "$cur")
		return 0 ;;
	import:--fact) # KEY=, the host facts as `uarchdiff host` names them; the value is the user's
		compopt -o nospace 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -W "cpu.isa= cpu.vendor= cpu.model_name= cpu.uarch= cpu.family=
			cpu.model= cpu.stepping= cpu.microcode= cpu.online_cpus= cpu.smt= cpu.caches.l1d_kb=
			cpu.caches.l2_kb= cpu.caches.l3_kb= kernel= hypervisor= pmu= perf_event_paranoid=
			cpufreq.governor= cpufreq.max_khz= vulnerabilities." -- "$cur")
		return 0 ;;
	import:--format)
		mapfile -t COMPREPLY < <(compgen -W "auto perf-text perf-csv perf-json unixbench perf-report lkp redis-benchmark wrk" -- "$cur")
		return 0 ;;
	import:--side)
		mapfile -t COMPREPLY < <(compgen -W "base head" -- "$cur")
		return 0 ;;
	stat:-e | stat:--event)
		_uarchdiff_list "$cur" "cycles instructions branches branch-misses L1-dcache-loads
			L1-dcache-load-misses stalled-cycles-frontend stalled-cycles-backend task-clock
			context-switches cpu-migrations page-faults LLC-loads LLC-load-misses L1-icache-loads
			L1-icache-load-misses dTLB-loads dTLB-load-misses iTLB-loads iTLB-load-misses
			L1-dcache-prefetches L1-dcache-prefetch-misses alignment-faults emulation-faults dummy
			bpf-output cgroup-switches duration_time user_time system_time"
		return 0 ;;
	stat:-M | stat:--metrics)
		_uarchdiff_list "$cur" "TopdownL1 TopdownL2 PipelineL1 PipelineL2 retiring bad_speculation
			frontend_bound backend_bound smt_contention"
		return 0 ;;
	stat:-p | stat:--pid | stat:-t | stat:--tid)
		local p pids=""
		for p in /proc/[0-9]*; do pids+=" ${p#/proc/}"; done
		_uarchdiff_list "$cur" "$pids"
		return 0 ;;
	stat:-C | stat:--cpu)
		local c cpus=""
		for c in /sys/devices/system/cpu/cpu[0-9]*; do cpus+=" ${c##*/cpu}"; done
		_uarchdiff_list "$cur" "$cpus"
		return 0 ;;
	*:-r | *:--repeat | *:--label | *:--workload | *:--score | stat:-x | stat:--field-separator)
		return 0 ;; # a value (--score V1,V2,...[:UNITS] too), nothing to offer
	stat:-I | stat:--interval-print | stat:-D | stat:--delay | stat:--timeout | stat:--pre | stat:--post)
		return 0 ;;
	esac

	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_uarchdiff_options "$bin" "$cmd")" -- "$cur")
	elif [[ $cmd == teach ]]; then
		mapfile -t COMPREPLY < <(compgen -W "branch cache ilp" -- "$cur")
	elif [[ $cmd == schema ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$("$bin" schema --list 2>/dev/null | awk '{ print $1 }')" -- "$cur")
	elif [[ $cmd != workloads ]]; then
		_uarchdiff_files "$cur"
	fi
	return 0
}

complete -F _uarchdiff uarchdiff
