#!/bin/sh
# The report goldens catch a change of wording: each template, with one word
# changed in a copy, makes tests/golden.sh fail and name the outputs that
# template writes; the copy unchanged passes.
#
#   golden-wording.sh UARCHDIFF DATA_DIR GOLDEN_DIR TEMPLATES_DIR
set -eu
ud=$1 data=$2 golden=$3 templates=$4
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -r "$templates" "$work/t"
UARCHDIFF_TEMPLATES_DIR="$work/t" "$here/golden.sh" "$ud" "$data" "$golden" >"$work/out" ||
	{ echo "golden-wording: the templates as they are fail:"; cat "$work/out"; exit 1; }

status=0
# template | sed expression | an output it writes
while IFS='|' read -r tmpl expr output; do
	rm -rf "$work/t" && cp -r "$templates" "$work/t"
	sed -i "$expr" "$work/t/$tmpl"
	if cmp -s "$templates/$tmpl" "$work/t/$tmpl"; then
		echo "golden-wording: '$expr' changed nothing in $tmpl"
		status=1
	elif UARCHDIFF_TEMPLATES_DIR="$work/t" "$here/golden.sh" "$ud" "$data" "$golden" >"$work/out"; then
		echo "golden-wording: $tmpl with '$expr' passes the golden test"
		status=1
	elif ! grep -q "^golden: $output differs" "$work/out"; then
		echo "golden-wording: $tmpl with '$expr' fails, but not on $output:"
		cat "$work/out"
		status=1
	fi
done <<'CASES'
report.txt|s/^== Findings$/== Discoveries/|e5e6.diff.txt
report.md|s/^## Findings$/## Discoveries/|e5e6.diff.md
report.html|s/>Findings<\/h2>/>Discoveries<\/h2>/|e5e6.diff.html
fleet.txt|s/^== Groups: /== Clusters: /|oci.compare.txt
fleet.md|s/^## Groups$/## Clusters/|oci.compare.md
fleet.html|s/>Groups<\/h2>/>Clusters<\/h2>/|oci.compare.html
CASES
[ $status = 0 ] && echo "golden-wording: a changed word in each of the 6 templates fails the golden test"
exit $status
