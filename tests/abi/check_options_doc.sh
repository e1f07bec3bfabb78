#!/bin/sh
# docs/options.md must be what gen_options_md prints for the current table.
# usage: check_options_doc.sh <gen_options_md binary> <docs/options.md>
gen=$1 doc=$2
tmp=$(mktemp) || exit 1
"$gen" >"$tmp" || { rm -f "$tmp"; echo "options doc: generator failed"; exit 1; }
if ! diff -u "$doc" "$tmp"; then
    rm -f "$tmp"
    echo "options doc: FAIL: $doc is stale; run 'ninja options_md' (or cmake --build . -t options_md)"
    exit 1
fi
rm -f "$tmp"
echo "options doc: OK"
