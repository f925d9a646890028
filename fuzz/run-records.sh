#!/bin/sh
# Fuzzes the perf record stream reader (fuzz/fuzz_records.c) for a fixed time
# with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer (clang).
#
#   fuzz/run-records.sh [SECONDS]    (default 60)
#
# Seeds: fuzz/seeds-records, record streams the sampler wrote on this VM
# (see its README).  New corpus entries stay in build-fuzz/corpus-records.
# Exits non-zero when libFuzzer finds a crash, a leak or a sanitizer report.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
command -v clang >/dev/null || { echo "clang not found: apt-get install clang" >&2; exit 2; }
cmake -S . -B build-fuzz -DUD_FUZZ=ON -DCMAKE_C_COMPILER=clang -DBUILD_TESTING=OFF >/dev/null
cmake --build build-fuzz --target fuzz_records -j "$(nproc)" >/dev/null
mkdir -p build-fuzz/corpus-records
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
	build-fuzz/fuzz_records -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 \
	build-fuzz/corpus-records fuzz/seeds-records
