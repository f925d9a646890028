#!/bin/sh
# Fuzzes the import parsers for a fixed time with libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (clang; Debian: apt-get install clang).
#
#   fuzz/run.sh [SECONDS]    (default 60)
#
# Seeds come from tests/data and fuzz/seeds (hand-written pastes of each form
# issue 11 added: perf 6.x metric rows, hybrid PMUs, locales, BOM/CRLF, a
# UnixBench log cut short); new corpus entries stay in build-fuzz/corpus.
# Exits non-zero when libFuzzer finds a crash, a leak or a sanitizer report.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
command -v clang >/dev/null || { echo "clang not found: apt-get install clang" >&2; exit 2; }
cmake -S . -B build-fuzz -DUD_FUZZ=ON -DCMAKE_C_COMPILER=clang -DBUILD_TESTING=OFF >/dev/null
cmake --build build-fuzz --target fuzz_import -j "$(nproc)" >/dev/null
fuzz/run-records.sh "$seconds"
mkdir -p build-fuzz/corpus build-fuzz/seeds
i=0
for f in tests/data/perf-stat/* tests/data/unixbench/* fuzz/seeds/*; do
	for fmt in 0 1 2 3 4; do
		# the first byte selects the parser (see fuzz/fuzz_import.c)
		{ printf "\\$(printf '%03o' $fmt)"; cat "$f"; } > build-fuzz/seeds/seed-$i-$fmt
	done
	i=$((i + 1))
done
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
	build-fuzz/fuzz_import -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 \
	build-fuzz/corpus build-fuzz/seeds
