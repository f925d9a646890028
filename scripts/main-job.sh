#!/bin/sh
# The main job of the Quick start: profile this host and show a report.
#
#  1. this host's facts and detected microarchitecture (uarchdiff host);
#  2. this host profiled with the quick suite (uarchdiff run), written as a
#     profile;
#  3. the worked example explained: UnixBench fstime on an OCI E5 (AMD Genoa)
#     and an E6 (AMD Turin) VM, imported from their perf stat output and
#     diffed (uarchdiff import, uarchdiff diff).  The HTML report is written
#     beside the profiles.
#
#   scripts/main-job.sh [OUTDIR]     (default build/main-job)
set -eu
cd "$(dirname "$0")/.."
ud=build/uarchdiff
out=${1:-build/main-job}
data=tests/data
mkdir -p "$out"

echo "== This host"
"$ud" host
echo
echo "== This host profiled: the quick suite"
"$ud" run --suite quick -o "$out/this-host.json"
echo
echo "== Why OCI E6 (Turin) runs UnixBench fstime 4.66x faster than E5 (Genoa)"
"$ud" import --label "OCI E5 (Genoa)" --uarch zen4 --workload fstime -o "$out/e5.json" \
	"$data/perf-stat/oci-e5-genoa-fstime.txt"
"$ud" import --label "OCI E6 (Turin)" --uarch zen5 --workload fstime -o "$out/e6.json" \
	"$data/perf-stat/oci-e6-turin-fstime.txt"
"$ud" diff "$out/e5.json" "$out/e6.json"
"$ud" diff -f html -o "$out/e5-vs-e6.html" "$out/e5.json" "$out/e6.json"
echo "(profiles and the HTML report: $out/)"
