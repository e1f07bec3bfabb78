#!/bin/sh
# Format round trips over the text trace corpus (tests/traces/*.gtrace):
#  1. text -> binary: `goldi analyze` finds the same races in both (reports
#     compared without addresses, frames, locations and SUMMARY lines: the text
#     parser's arena moves with ASLR and a binary trace keeps no trace lines);
#  2. text -> STD -> binary -> STD: the two STD files are byte-identical, and
#     the STD file and the binary made from it give identical reports.
# Usage: roundtrip_test.sh GOLDI TRACES_DIR WORKDIR
set -u
goldi=$1 traces=$2 work=$3
engines=goldilocks,vc
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fails=0 n=0
reports() { awk '/^==================$/ {inr = !inr; print; next} inr || /reported [0-9]+ data race/' "$1"; }
masked() { reports "$1" | grep -v -e '^    #' -e '^  Location is' -e '^SUMMARY:' | sed -e 's/0x[0-9a-f]*/ADDR/g'; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for t in "$traces"/*.gtrace; do
  b=$(basename "$t" .gtrace)
  n=$((n + 1))
  "$goldi" convert "$t" "$b.gtb" 2> conv.err || { fail "$b: convert to binary: $(cat conv.err)"; continue; }
  "$goldi" analyze --no-table --engine=$engines "$t" > "$b.text.out" 2>&1
  "$goldi" analyze --no-table --engine=$engines "$b.gtb" > "$b.bin.out" 2>&1
  masked "$b.text.out" > "$b.text.rep"
  masked "$b.bin.out" > "$b.bin.rep"
  cmp -s "$b.text.rep" "$b.bin.rep" || { fail "$b: text and binary reports differ"; diff "$b.text.rep" "$b.bin.rep" | head -10; }

  "$goldi" convert "$t" "$b.std" 2> conv.err || { fail "$b: export STD: $(cat conv.err)"; continue; }
  "$goldi" convert "$b.std" "$b.std.gtb" 2> conv.err || { fail "$b: import STD: $(cat conv.err)"; continue; }
  "$goldi" convert "$b.std.gtb" "$b.2.std" 2> conv.err || { fail "$b: re-export STD: $(cat conv.err)"; continue; }
  cmp -s "$b.std" "$b.2.std" || { fail "$b: STD -> binary -> STD changed the trace"; diff "$b.std" "$b.2.std" | head -5; }
  "$goldi" analyze --no-table --engine=$engines "$b.std" > "$b.std.out" 2>&1
  "$goldi" analyze --no-table --engine=$engines "$b.std.gtb" > "$b.stdbin.out" 2>&1
  reports "$b.std.out" > "$b.std.rep"
  reports "$b.stdbin.out" > "$b.stdbin.rep"
  cmp -s "$b.std.rep" "$b.stdbin.rep" || { fail "$b: STD and its binary give different reports"; diff "$b.std.rep" "$b.stdbin.rep" | head -10; }
done
echo "$n traces, $fails failures"
[ $fails -eq 0 ]
