#!/usr/bin/env bash
# bench/ab.sh: side-by-side A/B comparison of two goldi builds (e.g. before and
# after a runtime change) against native and Clang's ThreadSanitizer, on the
# same workloads, sizes and thread count, timed by hyperfine in one run.
#
#   bash bench/ab.sh GOLDI_A GOLDI_B [WORKLOAD:SIZE ...]
#   e.g. bash bench/ab.sh /tmp/base/build/bin/goldi build/bin/goldi stencil:400 lu:400
#
# Knobs (environment): RUNS (default 5), THREADS (4), CC_FOR_GOLDI (clang:
# which compiler goldi drives), OUT (directory for binaries and JSON; a fresh
# temporary one by default). Prints a Markdown table of median wall times and
# the ratios goldi/TSan, plus each cell's min-max; the JSON exports of
# hyperfine stay in OUT.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# -ge 2 ]] || { sed -n '2,13p' "${BASH_SOURCE[0]}"; exit 2; }
. "$here/tools/two_builds.sh"
two_builds ab.sh "stencil:400 lu:400 nbody:1500 blackscholes:100000 radix:2000000 sharedspot:3000000
                  localspot:50000000 multiset:200000 lockfree:200000 pipeline:300000 hashtable:400000
                  threadpool:500000" "$@"
runs=${RUNS:-5} threads=${THREADS:-4} cc=${CC_FOR_GOLDI:-clang}
# Every function 64-byte aligned in all four builds: a runtime change moves
# the workload's own code by a few bytes, and a hot function moved off a
# 32-byte boundary read as +5-9 % on localspot with the same instructions.
flags=(-O2 -g -pthread -falign-functions=64 -I"$here/workloads")
echo "| workload | size | native s | TSan (Clang) s | goldi A s | goldi B s | A / TSan | B / TSan | B / A |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
for ws in "${work[@]}"; do
  w=${ws%%:*} n=${ws#*:}
  src="$here/workloads/$w.c"
  [[ -f $src ]] || { echo "ab.sh: no workload $w" >&2; exit 2; }
  gcc "${flags[@]}" "$src" -o "$out/n_$w" -lm
  clang "${flags[@]}" -fsanitize=thread "$src" -o "$out/t_$w" -lm
  GOLDI_CC=$cc "$goldi_a" cc "${flags[@]}" "$src" -o "$out/a_$w" -lm
  GOLDI_CC=$cc "$goldi_b" cc "${flags[@]}" "$src" -o "$out/b_$w" -lm
  args="-t $threads -n $n -q"
  hyperfine -N -w 1 -r "$runs" --export-json "$out/$w.json" \
    -n native "$out/n_$w $args" -n tsan "$out/t_$w $args" \
    -n A "$out/a_$w $args" -n B "$out/b_$w $args" > "$out/$w.log" 2>&1 ||
    { echo "| $w | $n | (failed: see $out/$w.log) |"; continue; }
  python3 - "$out/$w.json" "$w" "$n" <<'EOF'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
med = {k: v["median"] for k, v in r.items()}
cell = lambda k: f'{med[k]:.3f} ({r[k]["min"]:.2f}–{r[k]["max"]:.2f})'
print(f'| {sys.argv[2]} | {sys.argv[3]} | {med["native"]:.3f} | {cell("tsan")} | {cell("A")} | {cell("B")} | '
      f'{med["A"]/med["tsan"]:.1f}× | {med["B"]/med["tsan"]:.1f}× | {med["B"]/med["A"]:.2f} |')
EOF
done
echo
echo "$(nproc) cores; $runs runs per cell (median, min–max), -t $threads; goldi drives $cc; binaries and JSON in $out"
