#!/bin/sh
# A report page on a phone (issue 39): framed at 390x844 CSS pixels (an
# iPhone's viewport; headless Chromium will not open a window that narrow,
# an iframe is), the page must not scroll sideways, no element outside a
# scroll box may reach past the right edge, and no chart's text may shrink
# under 8 px (charts scroll in their box rather than shrink further).  Nor
# may any chart be an empty frame (an svg without a mark) or any table hold
# nothing but n/a: a host without a PMU gets no padding (issue 39).
# Prints one line of what it measured; exit 1 with the offenders otherwise.
#
#   tests/html-narrow.sh BROWSER PAGE.html
set -eu
browser=$1 page=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The probe writes its findings into the framing page's title, which --dump-dom prints.
probe='<script>(function () {
var vw = document.documentElement.clientWidth, wide = [], small = 1e9;
document.querySelectorAll("body *").forEach(function (e) {
	if (e.getBoundingClientRect().right > vw + 0.5 && !e.closest(".scroll"))
		wide.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : ""));
});
document.querySelectorAll("svg text").forEach(function (t) {
	var h = t.getBoundingClientRect().height;
	if (h > 0 && h < small) small = h;
});
/* an empty chart (a frame with no mark in it) or a table of nothing but n/a is padding, not a finding */
var empty = [];
document.querySelectorAll("svg").forEach(function (s) {
	if (!s.querySelector("rect, circle, path, polyline, polygon, line"))
		empty.push("svg." + s.getAttribute("class"));
});
document.querySelectorAll("table").forEach(function (t) {
	var cells = 0, na = 0;
	t.querySelectorAll("tr").forEach(function (r) {
		r.querySelectorAll("td").forEach(function (c, i) {
			var v = c.textContent.trim();
			if (i > 0 && v !== "") {
				cells++;
				na += v === "n/a";
			}
		});
	});
	if (cells > 0 && na === cells)
		empty.push("an all-n/a table");
});
parent.document.title = "vw=" + vw + " sw=" + document.documentElement.scrollWidth + " small=" +
	(small < 1e9 ? small.toFixed(1) : "none") + " wide=" + wide.slice(0, 8).join(",") + " empty=" + empty.slice(0, 8).join(",") + " end";
})();</script></body>'
awk -v probe="$probe" '{ i = index($0, "</body>"); if (i) $0 = substr($0, 1, i - 1) probe substr($0, i + 7); print }' \
	"$page" >"$dir/page.html"
printf '%s\n' '<!DOCTYPE html><html><head><title>no probe</title></head><body style="margin:0">' \
	'<iframe src="page.html" width="390" height="844" style="border:0"></iframe></body></html>' >"$dir/frame.html"
result=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync --allow-file-access-from-files \
	--window-size=800,900 --dump-dom "file://$dir/frame.html" 2>"$dir/log" | grep -o 'vw=[^<]* end' | head -1) || true
vw=$(echo "$result" | sed -n 's/^vw=\([0-9]*\) .*/\1/p')
sw=$(echo "$result" | sed -n 's/.* sw=\([0-9]*\) .*/\1/p')
small=$(echo "$result" | sed -n 's/.* small=\([0-9.a-z]*\) .*/\1/p')
wide=$(echo "$result" | sed -n 's/.* wide=\(.*\) empty=.*$/\1/p')
empty=$(echo "$result" | sed -n 's/.* empty=\(.*\) end$/\1/p')
if [ -z "$result" ] || [ "$vw" != 390 ]; then
	echo "FAIL: $page at 390 px: the probe did not report a 390 px viewport ($result)"
	cat "$dir/log"
	exit 1
fi
if [ "$sw" -gt "$vw" ] || [ -n "$wide" ]; then
	echo "FAIL: $page at 390 px: the page is $sw px wide; past the edge: $wide"
	exit 1
fi
if [ -n "$empty" ]; then
	echo "FAIL: $page: drawn with nothing to show: $empty"
	exit 1
fi
case $small in
none) ;;
*) if awk -v s="$small" 'BEGIN { exit !(s < 8) }'; then
	echo "FAIL: $page at 390 px: a chart's text shrinks to $small px"
	exit 1
fi ;;
esac
echo "== $(basename "$page") at 390 px: $sw px wide, nothing past the edge, chart text at least $small px, no empty chart or table"
