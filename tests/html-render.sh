#!/bin/sh
# The HTML report in a real browser: headless Chromium renders the E5 vs E6
# diff, takes a screenshot, and the screenshot must show the charts' colours
# (the waterfall's green factor bars and blue total, the A-vs-B bars' grey).
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
"$ud" import --label E5 --uarch zen4 -o "$dir/e5.json" "$data/perf-stat/oci-e5-genoa-fstime.txt"
"$ud" import --label '<script>alert(1)</script>' --uarch zen5 -o "$dir/e6.json" "$data/perf-stat/oci-e6-turin-fstime.txt"
"$ud" diff -f html -o "$dir/report.html" "$dir/e5.json" "$dir/e6.json"
if grep -q '<script>' "$dir/report.html"; then
	echo "FAIL: a label reached the HTML unescaped"
	exit 1
fi
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,1400 \
	--screenshot="$dir/report.png" "file://$dir/report.html" >"$dir/chromium.log" 2>&1 || {
	cat "$dir/chromium.log"
	exit 1
}
python3 "$(dirname "$0")/png_colors.py" "$dir/report.png" 2ca02c:500 1f77b4:2000 8c8c8c:2000
