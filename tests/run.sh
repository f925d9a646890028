#!/bin/sh
# Builds uarchdiff twice (plain, and with AddressSanitizer + UBSan) and runs
# every test in both.  Tests that need a hardware PMU report themselves
# skipped where there is none; their reasons are printed at the end.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

for variant in build build-asan; do
	case $variant in
	build) flags="" ;;
	build-asan) flags="-DUD_SANITIZE=ON" ;;
	esac
	echo "== $variant"
	cmake -S . -B "$variant" -DUD_WERROR=ON $flags >/dev/null
	cmake --build "$variant" -j "$jobs" >/dev/null
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir "$variant" --output-on-failure -j "$jobs"
	grep -h '^SKIPPED:' "$variant/Testing/Temporary/LastTest.log" || true
done
