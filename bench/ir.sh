#!/usr/bin/env bash
# bench/ir.sh: instructions executed by two goldi builds on the same
# workloads (cachegrind's Ir count), for runtime changes too small to see in
# wall time on a shared machine. One thread by default: the count is then the
# same on every run (pipeline and lockfree, whose stages wait for each other,
# still vary by ~0.5 %; with more threads, spinning and scheduling make counts
# vary by a few per cent). Counts instructions only: a change that trades
# instructions for cache misses needs bench/ab.sh as well.
#
#   bash bench/ir.sh GOLDI_A GOLDI_B [WORKLOAD:SIZE ...]
#   e.g. bash bench/ir.sh /tmp/base/build/bin/goldi build/bin/goldi stencil:200 radix:200000
#
# Knobs (environment): THREADS (1), CC_FOR_GOLDI (clang), OUT (directory for
# the binaries; a fresh temporary one by default). Sizes default to about a
# tenth of bench/ab.sh's (cachegrind runs ~50x slower than native).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# -ge 2 ]] || { sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 2; }
command -v valgrind > /dev/null || { echo "ir.sh: needs valgrind (cachegrind)" >&2; exit 2; }
. "$here/tools/two_builds.sh"
two_builds ir.sh "stencil:200 lu:200 nbody:300 blackscholes:10000 radix:200000 sharedspot:300000
                  localspot:2000000 multiset:20000 lockfree:20000 pipeline:30000 hashtable:40000
                  threadpool:50000" "$@"
threads=${THREADS:-1} cc=${CC_FOR_GOLDI:-clang}
flags=(-O2 -g -pthread -I"$here/workloads")

# instructions WORKLOAD_BINARY SIZE: cachegrind's total Ir of one run
instructions() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$1" -t "$threads" -n "$2" -q 2>&1 >/dev/null | sed -n 's/.*I *refs: *//p' | tr -d ,
}

echo "| workload | size | goldi A instructions | goldi B instructions | B / A |"
echo "|---|--:|--:|--:|--:|"
for ws in "${work[@]}"; do
  w=${ws%%:*} n=${ws#*:}
  src="$here/workloads/$w.c"
  [[ -f $src ]] || { echo "ir.sh: no workload $w" >&2; exit 2; }
  GOLDI_CC=$cc "$goldi_a" cc "${flags[@]}" "$src" -o "$out/a_$w" -lm
  GOLDI_CC=$cc "$goldi_b" cc "${flags[@]}" "$src" -o "$out/b_$w" -lm
  ia=$(instructions "$out/a_$w" "$n") ib=$(instructions "$out/b_$w" "$n")
  [[ -n $ia && -n $ib ]] || { echo "| $w | $n | (cachegrind failed) |"; continue; }
  python3 -c "import sys; a, b = int(sys.argv[1]), int(sys.argv[2]); print(f'| $w | $n | {a:,} | {b:,} | {b/a:.3f} |')" "$ia" "$ib"
done
echo
echo "cachegrind Ir, -t $threads, one run per cell; goldi drives $cc; binaries in $out"
