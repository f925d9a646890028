#!/bin/sh
# The fixtures' profiles, diffs and comparisons, byte for byte, in every
# format a person reads (text, Markdown, HTML) beside the JSON documents: a
# refactor that changes what users get shows up here.  An intended change of
# output regenerates every recorded file with the one command
#     tests/golden.sh build/uarchdiff tests/data tests/golden --update
# and the diff of tests/golden/ goes into the commit for review.
#
#   golden.sh UARCHDIFF DATA_DIR GOLDEN_DIR [--update]
#
# The reports come from the templates the binary finds (UARCHDIFF_TEMPLATES_DIR
# when set: tests/golden-wording.sh edits a copy to show a change is caught).
set -eu
# Text reports fit the width (COLUMNS, else 80 when piped): the goldens are laid out at 100, whatever the shell has.
export COLUMNS=100
ud=$(realpath "$1") data=$(realpath "$2") golden=$(realpath "$3") update=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$("$ud" --version | cut -d' ' -f2)

"$ud" import --label "OCI E5 (Genoa)" --uarch zen4 -o "$work/e5.json" "$data/perf-stat/oci-e5-genoa-fstime.txt"
"$ud" import --label "OCI E6 (Turin)" --uarch zen5 -o "$work/e6.json" "$data/perf-stat/oci-e6-turin-fstime.txt"
"$ud" import --label G2 --cpuinfo "$data/cpuinfo/aws-m6g-graviton2.txt" -o "$work/g2.json" \
	"$data/unixbench/aws-m6g-graviton2.txt"
"$ud" import --label G3 --cpuinfo "$data/cpuinfo/aws-m7g-graviton3.txt" -o "$work/g3.json" \
	"$data/unixbench/aws-m7g-graviton3.txt"
# Reports only, for what the two pairs above do not reach: a perf report's
# hotspots and CPU time per unit without cycles (syscall), a lower-is-better
# time within the noise (r5, with benchstat's "~"), and a compare of three
# hosts, two sharing a CPU and differing in one mitigation.
"$ud" import --label "VM syscall" --uarch zen4 -o "$work/sa.json" "$data/perf-stat/made-up-syscall.txt" \
	"$data/perf-report/vm-syscall-cpu-clock.txt"
"$ud" import --label "VM syscall, faster" --uarch zen4 -o "$work/sb.json" \
	"$data/perf-stat/made-up-syscall-faster.txt" "$data/perf-report/vm-syscall-cpu-clock.txt"
"$ud" import --label "r5" -o "$work/ra.json" "$data/perf-stat/made-up-r5.txt"
"$ud" import --label "r5, same" -o "$work/rb.json" "$data/perf-stat/made-up-r5-same.txt"
# Top-down on both sides (made-up PipelineL1 rows beside the E5 and E6 counts): the per-bucket cycles.
"$ud" import --label "E5, top-down" --uarch zen4 -o "$work/e5td.json" "$data/perf-stat/made-up-e5-topdown.txt"
"$ud" import --label "E6, top-down" --uarch zen5 -o "$work/e6td.json" "$data/perf-stat/made-up-e6-topdown.txt"
"$ud" import --label "OCI E5 (Genoa)" --host "$data/host/oci-e5-host.json" -o "$work/e5h.json" \
	"$data/perf-stat/oci-e5-genoa-fstime.txt"
"$ud" import --label "OCI E6 (Turin)" --host "$data/host/oci-e6-host.json" -o "$work/e6h.json" \
	"$data/perf-stat/oci-e6-turin-fstime.txt"

outputs="e5.json e6.json g2.json g3.json e5e6.diff.json g2g3.diff.json e5e6td.diff.json"
# From inside the folder, so the reports record the same relative file names each time.
cd "$work"
"$ud" diff -f json -o e5e6.diff.json e5.json e6.json
"$ud" diff -f json -o g2g3.diff.json g2.json g3.json
"$ud" diff -f json -o e5e6td.diff.json e5td.json e6td.json
for f in txt md html; do
	fmt=$f
	[ $f = txt ] && fmt=text
	"$ud" diff -f $fmt -o e5e6.diff.$f e5.json e6.json
	"$ud" diff -f $fmt -o g2g3.diff.$f g2.json g3.json
	"$ud" diff -f $fmt -o syscall.diff.$f sa.json sb.json
	"$ud" diff -f $fmt -o r5.diff.$f ra.json rb.json
	"$ud" diff -f $fmt -o e5e6td.diff.$f e5td.json e6td.json
	"$ud" compare -f $fmt -o oci.compare.$f e5h.json e6h.json e6.json
	outputs="$outputs e5e6.diff.$f g2g3.diff.$f syscall.diff.$f r5.diff.$f e5e6td.diff.$f oci.compare.$f"
done

status=0 n=0
for f in $outputs; do
	n=$((n + 1))
	# The tool's version is the one thing that may change without the output changing.
	sed -e 's/"version": "[^"]*"/"version": "X"/' -e "s/uarchdiff $version/uarchdiff X/g" "$f" >"$f.cmp"
	if [ "$update" = --update ]; then
		cp "$f.cmp" "$golden/$f"
	elif ! cmp -s "$golden/$f" "$f.cmp"; then
		echo "golden: $f differs from the recorded output:"
		diff -u "$golden/$f" "$f.cmp" | head -40
		status=1
	fi
done
# Markdown is read raw as often as rendered: an HTML entity there reads "77% -&gt; 89%" (issue 39).
# None of the fixtures' inputs holds one, so none may appear.
for f in $outputs; do
	case $f in *.md) ;; *) continue ;; esac
	if grep -n '&[a-z]*;\|&#[0-9]*;' "$f"; then
		echo "golden: $f writes an HTML entity where Markdown needs plain text (above)"
		status=1
	fi
done
# HTML is read on phones and linked to by section (issue 39): the viewport tag, an id on every h2, no two alike.
for f in $outputs; do
	case $f in *.html) ;; *) continue ;; esac
	grep -q '<meta name="viewport" content="width=device-width' "$f" || {
		echo "golden: $f has no viewport tag"
		status=1
	}
	if grep -o '<h2[^>]*>' "$f" | grep -v '^<h2 id="[^"]\{1,\}">$'; then
		echo "golden: $f has an h2 without an id (above)"
		status=1
	fi
	if grep -o ' id="[^"]*"' "$f" | sort | uniq -d | grep .; then
		echo "golden: $f gives two elements one id (above)"
		status=1
	fi
done
[ $status = 0 ] && echo "golden: $n outputs match"
exit $status
