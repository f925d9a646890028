#!/bin/sh
# The fixtures' profiles and diffs, byte for byte: a refactor that changes
# what users get shows up here.  An intended change of output regenerates
# the recorded files with
#     tests/golden.sh build/uarchdiff tests/data tests/golden --update
# and the diff of tests/golden/ goes into the commit for review.
#
#   golden.sh UARCHDIFF DATA_DIR GOLDEN_DIR [--update]
set -eu
ud=$(realpath "$1") data=$2 golden=$3 update=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$ud" import --label "OCI E5 (Genoa)" --uarch zen4 -o "$work/e5.json" "$data/perf-stat/oci-e5-genoa-fstime.txt"
"$ud" import --label "OCI E6 (Turin)" --uarch zen5 -o "$work/e6.json" "$data/perf-stat/oci-e6-turin-fstime.txt"
"$ud" import --label G2 --cpuinfo "$data/cpuinfo/aws-m6g-graviton2.txt" -o "$work/g2.json" \
	"$data/unixbench/aws-m6g-graviton2.txt"
"$ud" import --label G3 --cpuinfo "$data/cpuinfo/aws-m7g-graviton3.txt" -o "$work/g3.json" \
	"$data/unixbench/aws-m7g-graviton3.txt"
# From inside the folder, so the diffs record the same relative file names each time.
(cd "$work" && "$ud" diff -f json e5.json e6.json >e5e6.diff.json && "$ud" diff -f json g2.json g3.json >g2g3.diff.json)

status=0
for f in e5.json e6.json g2.json g3.json e5e6.diff.json g2g3.diff.json; do
	# The tool's version is the one field that may change without the output changing.
	sed 's/"version": "[^"]*"/"version": "X"/' "$work/$f" >"$work/$f.cmp"
	if [ "$update" = --update ]; then
		cp "$work/$f.cmp" "$golden/$f"
	elif ! cmp -s "$golden/$f" "$work/$f.cmp"; then
		echo "golden: $f differs from the recorded output:"
		diff -u "$golden/$f" "$work/$f.cmp" | head -40
		status=1
	fi
done
[ $status = 0 ] && echo "golden: 6 outputs match"
exit $status
