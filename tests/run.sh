#!/bin/sh
# Builds uarchdiff twice (plain, and with AddressSanitizer + UBSan) and runs
# every test in both.  Tests that need a hardware PMU report themselves
# skipped where there is none; their reasons are printed at the end.  The
# emulated Neoverse N1 test (tests/emulated-arm/run.sh) runs in the plain
# build only: it proves the counting paths, not memory safety, and takes
# minutes.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

for variant in build build-asan; do
	case $variant in
	build) flags="-DUD_EMULATED_ARM=ON" ;;
	build-asan) flags="-DUD_SANITIZE=ON -DUD_EMULATED_ARM=OFF" ;;
	esac
	echo "== $variant"
	cmake -S . -B "$variant" -DUD_WERROR=ON $flags >/dev/null
	cmake --build "$variant" -j "$jobs" >/dev/null
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir "$variant" --output-on-failure -j "$jobs"
	grep -h '^SKIPPED:' "$variant/Testing/Temporary/LastTest.log" || true
done
