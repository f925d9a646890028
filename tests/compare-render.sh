#!/bin/sh
# The compare HTML report in a real browser: three hosts imported from the
# fixtures (E5, and E6 twice under two labels, one hostile), rendered by
# headless Chromium against E5 (--baseline first) with the per-host table;
# the screenshot (tall enough for the table at the end) must show its heat
# colours (E6 4.66x faster: the darkest green) and the group chart's green
# bar (the zen5 group's median); at 390 px wide nothing may pass the edge.
# Exit 77 (skipped) where Chromium or Python is not installed.
#
#   tests/compare-render.sh UARCHDIFF DATA_DIR
set -eu
ud=$1
data=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] || ! command -v python3 >/dev/null; then
	echo "SKIPPED: compare-render: needs chromium and python3 (apt-get install chromium python3)"
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$ud" import --label E5 --uarch zen4 -o "$dir/e5.json" "$data/perf-stat/oci-e5-genoa-fstime.txt"
"$ud" import --label '<script>alert(1)</script>' --uarch zen5 -o "$dir/e6.json" "$data/perf-stat/oci-e6-turin-fstime.txt"
"$ud" import --label 'E6 again' --uarch zen5 -o "$dir/e6b.json" "$data/perf-stat/oci-e6-turin-fstime.txt"
"$ud" compare -f html --baseline first --all-hosts -o "$dir/compare.html" "$dir/e5.json" "$dir/e6.json" "$dir/e6b.json"
if grep -q '<script>' "$dir/compare.html"; then
	echo "FAIL: a label reached the HTML unescaped"
	exit 1
fi
for bad in nan inf '(null)'; do
	if grep -qw -- "$bad" "$dir/compare.html"; then
		echo "FAIL: '$bad' in the compare report"
		exit 1
	fi
done
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,4000 \
	--screenshot="$dir/compare.png" "file://$dir/compare.html" >"$dir/chromium.log" 2>&1 || {
	cat "$dir/chromium.log"
	exit 1
}
python3 "$(dirname "$0")/png_colors.py" "$dir/compare.png" 41ab5d:300 2ca02c:300
# On a phone (issue 39): the per-host table scrolls in its box, the page does not.
"$(dirname "$0")/html-narrow.sh" "$browser" "$dir/compare.html"
