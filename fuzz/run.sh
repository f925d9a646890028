#!/bin/sh
# Fuzzes every input parser for a fixed time each with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer (clang; Debian: apt-get
# install clang): the importers (perf text, CSV, JSON, UnixBench, robot tables), profiles as
# diff reads them (loaded, diffed, rendered), the JSON reader against jansson
# (fuzz/fuzz_json.c: the same verdict and values), workload specs, event tables,
# /proc/cpuinfo, report templates and the perf record streams the sampler
# reads (fuzz/seeds-records: streams it wrote on the development VM).
#
#   fuzz/run.sh [SECONDS] [TARGET...]    (default 60 seconds each, every target)
#
# Prints the executions of each target and the total.  Seeds come from
# tests/data, tests/golden, events/, workloads/, report-templates/ and
# fuzz/seeds; new corpus entries stay in build-fuzz/corpus-TARGET.  Exits
# non-zero when libFuzzer finds a crash, a leak or a sanitizer report (the
# reproducer is left as build-fuzz/crash-*).
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-import profile json spec events cpuinfo template records}
command -v clang >/dev/null || { echo "clang not found: apt-get install clang" >&2; exit 2; }
cmake -S . -B build-fuzz -DUD_FUZZ=ON -DUD_WERROR=ON -DCMAKE_C_COMPILER=clang -DBUILD_TESTING=OFF >/dev/null
for t in $targets; do
	cmake --build build-fuzz --target "fuzz_$t" -j "$(nproc)" >/dev/null
done

# seed TARGET PREFIX_BYTE FILE...: copies FILE... into build-fuzz/seeds-TARGET, the byte first when given
seed() {
	t=$1 byte=$2
	shift 2
	mkdir -p "build-fuzz/seeds-$t"
	for f in "$@"; do
		[ -f "$f" ] || continue
		out="build-fuzz/seeds-$t/$(basename "$f")-$byte"
		if [ "$byte" = none ]; then cp "$f" "$out"; else { printf "\\$(printf '%03o' "$byte")"; cat "$f"; } >"$out"; fi
	done
}
rm -rf build-fuzz/seeds-*
for fmt in 0 1 2 3 4; do # the first byte selects the parser (fuzz/fuzz_import.c)
	seed import "$fmt" tests/data/perf-stat/* tests/data/unixbench/* tests/data/foreign/*/*.csv fuzz/seeds/*
done
for byte in 9 14 23; do # the robot's tables: auto-detected with --side base, --format lkp with base and head
	seed import "$byte" tests/data/lkp/*
done
for byte in 6 7 8; do # other tools' summaries as --format perfspect, topdown-tool and uprof-pcm
	seed import "$byte" tests/data/foreign/*/*.csv
done
seed profile none tests/golden/e5.json tests/golden/g2.json
{ cat tests/golden/e5.json; printf '\0'; cat tests/golden/e6.json; } >build-fuzz/pair.json
seed profile none build-fuzz/pair.json
seed json none tests/golden/*.json tests/data/perf-stat/*.json fuzz/seeds/*.json
seed spec none workloads/*.spec
seed events none events/*
seed cpuinfo none tests/data/cpuinfo/*
for esc in 0 1 2; do # the first byte selects the escaping (fuzz/fuzz_template.c)
	seed template "$esc" report-templates/*
done
seed records none fuzz/seeds-records/*

total=0
for t in $targets; do
	mkdir -p "build-fuzz/corpus-$t"
	log="build-fuzz/fuzz-$t.log"
	if ! UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
		"build-fuzz/fuzz_$t" -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 \
		-artifact_prefix=build-fuzz/ "build-fuzz/corpus-$t" "build-fuzz/seeds-$t" >"$log" 2>&1; then
		tail -40 "$log"
		echo "fuzz_$t: FAILED (log: $log)"
		exit 1
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	printf '%-16s %12s executions in %s s\n' "fuzz_$t" "$runs" "$seconds"
	total=$((total + runs))
done
printf '%-16s %12s executions, no crash\n' total "$total"
