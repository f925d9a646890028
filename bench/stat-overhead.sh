#!/bin/sh
# Overhead of `uarchdiff stat` next to `perf stat` counting the same software
# events on the same commands, relative to the bare command.  Prints figures;
# asserts nothing.  Needs perf (Debian: apt-get install linux-perf).
#
#   bench/stat-overhead.sh [ROUNDS]     (default 200 runs of each command)
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-200}
ud=build/uarchdiff
events=task-clock,context-switches,cpu-migrations,page-faults
[ -x "$ud" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf not found: apt-get install linux-perf" >&2; exit 2; }

now() { date +%s%N; }

# Mean wall time in microseconds of ROUNDS runs of "$@".
time_runs() {
	start=$(now)
	i=0
	while [ $i -lt "$rounds" ]; do
		"$@" >/dev/null 2>&1 || true
		i=$((i + 1))
	done
	echo $(( ($(now) - start) / rounds / 1000 ))
}

printf '%-28s %10s %12s %12s %10s %10s\n' command "bare us" "perf us" "uarchdiff us" "perf +us" "ud +us"
for cmd in "/bin/true" "ls -R /usr/include" "sh -c 'for i in 1 2 3 4 5; do /bin/true; done'"; do
	for round in 1 2 3; do
		bare=$(eval "time_runs $cmd")
		perf=$(eval "time_runs perf stat -e $events -- $cmd")
		udt=$(eval "time_runs $ud stat -e $events -- $cmd")
		printf '%-28.28s %10s %12s %12s %10s %10s\n' "$cmd" "$bare" "$perf" "$udt" \
			$((perf - bare)) $((udt - bare))
	done
done
