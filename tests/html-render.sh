#!/bin/sh
# The HTML report in a real browser: headless Chromium renders three diffs,
# takes screenshots, and each must show its charts' colours:
#   - E5 vs E6 (counters): the overview's and waterfall's green, the blue
#     total, the A-vs-B bars' grey, the stacked CPI bars' orange, purple and
#     light blue;
#   - E5 vs E6 without 'instructions' on B: a wide 'unexplained' bar in its
#     neutral grey (the noise of anti-aliased text stays well under the bound);
#   - the Graviton2 vs Graviton3 UnixBench logs (scores only): the overview's
#     green and red, and no chart that needs counters.
#   - two PMU-less quick-suite profiles: no empty chart, no all-n/a table;
#   - `teach -f html` (quick mode): each lab's line and points in blue, the
#     branch lab's sorted-data reference line in green.
# At 1280x900 the E5/E6 page's first finding starts above the fold (a copy of
# the page with one inline script reports its top through --dump-dom).
# No page may show "nan", "inf" or "(null)", or a label unescaped, and each
# must read on a phone: at 390 px wide nothing past the edge, chart text at
# least 8 px (html-narrow.sh).
# Exit 77 (skipped) where Chromium or Python is not installed; .ci/run
# installs both.
#
#   tests/html-render.sh UARCHDIFF DATA_DIR
set -eu
ud=$1
data=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] || ! command -v python3 >/dev/null; then
	echo "SKIPPED: html-render: needs chromium and python3 (apt-get install chromium python3)"
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
colors="python3 $(dirname "$0")/png_colors.py"
narrow="$(dirname "$0")/html-narrow.sh"

# render NAME: NAME.html to NAME.png, checked for escaping and unprintable numbers.
render() {
	if grep -q '<script>' "$dir/$1.html"; then
		echo "FAIL: $1: a label reached the HTML unescaped"
		exit 1
	fi
	if grep -q -i -w -E 'nan|inf|\(null\)' "$dir/$1.html"; then
		echo "FAIL: $1: 'nan', 'inf' or '(null)' on the page"
		exit 1
	fi
	# 4000 px: the findings come first on the page, so the per-workload charts sit lower down
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,4000 \
		--screenshot="$dir/$1.png" "file://$dir/$1.html" >"$dir/chromium.log" 2>&1 || {
		cat "$dir/chromium.log"
		exit 1
	}
	echo "== $1"
	"$narrow" "$browser" "$dir/$1.html"
}

"$ud" import --label E5 --uarch zen4 -o "$dir/e5.json" "$data/perf-stat/oci-e5-genoa-fstime.txt"
"$ud" import --label '<script>alert(1)</script>' --uarch zen5 -o "$dir/e6.json" "$data/perf-stat/oci-e6-turin-fstime.txt"
"$ud" diff -f html -o "$dir/counters.html" "$dir/e5.json" "$dir/e6.json"
render counters
# Above the fold (issue 23): at 1280x900 the first finding starts within the first screen.  A copy of the
# page with one inline script writes its top into the title, which --dump-dom prints.
sed 's#</body>#<script>var f = document.querySelector("ul.findings > li"); document.title = "top=" + (f ? Math.round(f.getBoundingClientRect().top) : -1) + " fold=" + innerHeight;</script></body>#' \
	"$dir/counters.html" >"$dir/fold.html"
fold=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --window-size=1280,900 --dump-dom \
	"file://$dir/fold.html" 2>"$dir/chromium.log" | grep -o 'top=-\?[0-9]* fold=[0-9]*' | head -1)
top=$(echo "$fold" | sed 's/top=\(-\?[0-9]*\) .*/\1/')
height=$(echo "$fold" | sed 's/.*fold=//')
if [ -z "$fold" ] || [ "$top" -lt 0 ] || [ "$top" -ge "$height" ]; then
	echo "FAIL: counters: the first finding is not above the fold at 1280x900 ($fold)"
	cat "$dir/chromium.log"
	exit 1
fi
echo "== counters: the first finding's top at $top px of a $height px first screen"
$colors "$dir/counters.png" 2ca02c:5000 1f77b4:10000 8c8c8c:10000 ff7f0e:1500 9467bd:4000 aec7e8:3000

# Top-down on both hosts: a stacked bar per host in place of the CPI stack's.  Measured: bad
# speculation 5,794 px (A's 260 x 22 bar and B's), SMT contention 1,002, frontend 3,276, backend 2,784.
"$ud" import --label E5 --uarch zen4 -o "$dir/e5td.json" "$data/perf-stat/made-up-e5-topdown.txt"
"$ud" import --label E6 --uarch zen5 -o "$dir/e6td.json" "$data/perf-stat/made-up-e6-topdown.txt"
"$ud" diff -f html -o "$dir/topdown.html" "$dir/e5td.json" "$dir/e6td.json"
if ! grep -q '<svg class="topdown"' "$dir/topdown.html" || grep -q '<svg class="cpi"' "$dir/topdown.html"; then
	echo "FAIL: topdown: top-down on both hosts must replace the CPI stack's chart"
	exit 1
fi
render topdown
$colors "$dir/topdown.png" d62728:4000 8c564b:600 ff7f0e:2000 9467bd:2000

grep -v ' instructions' "$data/perf-stat/oci-e6-turin-fstime.txt" >"$dir/e6-no-insns.txt"
"$ud" import --label E6 --uarch zen5 -o "$dir/e6n.json" "$dir/e6-no-insns.txt"
"$ud" diff -f html -o "$dir/unexplained.html" "$dir/e5.json" "$dir/e6n.json"
render unexplained
$colors "$dir/unexplained.png" b0b0b0:14000

"$ud" import --label G2 --cpuinfo "$data/cpuinfo/aws-m6g-graviton2.txt" -o "$dir/g2.json" "$data/unixbench/aws-m6g-graviton2.txt"
"$ud" import --label G3 --cpuinfo "$data/cpuinfo/aws-m7g-graviton3.txt" -o "$dir/g3.json" "$data/unixbench/aws-m7g-graviton3.txt"
"$ud" diff -f html -o "$dir/scores.html" "$dir/g2.json" "$dir/g3.json"
if grep -q -E 'class="(waterfall|bars|cpi)"' "$dir/scores.html"; then
	echo "FAIL: scores: a chart that needs counters on a diff without them"
	exit 1
fi
render scores
$colors "$dir/scores.png" 2ca02c:5000 d62728:600

# Two quick-suite profiles of a VM without a PMU (tests/data/pmu-less): times and software counters
# only, so no chart may be an empty frame and no table all n/a (html-narrow.sh checks both; issue 39).
"$ud" diff -f html -o "$dir/pmuless.html" "$data/pmu-less/vm-quick-a.json" "$data/pmu-less/vm-quick-b.json"
render pmuless

UARCHDIFF_TEACH_QUICK=1 "$ud" teach -f html -o "$dir/teach.html" 2>/dev/null
if [ "$(grep -c '<svg class="teach"' "$dir/teach.html")" -ne 3 ]; then
	echo "FAIL: teach: not one chart a lab"
	exit 1
fi
render teach
$colors "$dir/teach.png" 1f77b4:2000 2ca02c:300
