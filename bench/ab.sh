#!/usr/bin/env bash
# bench/ab.sh: side-by-side A/B comparison of two goldi builds (e.g. before and
# after a runtime change) against native and Clang's ThreadSanitizer, on the
# same workloads, sizes and thread count, in interleaved rounds: each round
# runs native, TSan, A and B once, back to back, so the B / A of a round is
# two runs seconds apart (this VM's speed drifts over minutes: round 34).
#
#   bash bench/ab.sh GOLDI_A GOLDI_B [WORKLOAD:SIZE ...]
#   e.g. bash bench/ab.sh /tmp/base/build/bin/goldi build/bin/goldi stencil:400 lu:400
#
# Knobs (environment): RUNS (rounds, default 5), THREADS (4), CC_FOR_GOLDI
# (clang: which compiler goldi drives), OUT (directory for binaries and the
# runs' times; a fresh temporary one by default). Prints a Markdown table of
# median wall times with each cell's min-max, the ratios goldi/TSan, and B / A
# as the median of the rounds' ratios (min-max), then B's median peak RSS over
# A's and over TSan's; OUT/WORKLOAD.tsv keeps every run.
# Each build's runtime carries its own tree's profile (pgo/, GOLDI_PGO): to
# compare code alone, build both with -DGOLDI_PGO=off or retrain both.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# -ge 2 ]] || { sed -n '2,18p' "${BASH_SOURCE[0]}"; exit 2; }
. "$here/tools/two_builds.sh"
two_builds ab.sh "stencil:400 lu:400 nbody:1500 blackscholes:100000 radix:2000000 sharedspot:3000000
                  localspot:50000000 multiset:200000 lockfree:200000 pipeline:300000 hashtable:400000
                  threadpool:500000" "$@"
runs=${RUNS:-5} threads=${THREADS:-4} cc=${CC_FOR_GOLDI:-clang}
gcc -O2 -Wall -o "$out/measure" "$here/tools/measure.c"
# Every function 64-byte aligned in all four builds: a runtime change moves
# the workload's own code by a few bytes, and a hot function moved off a
# 32-byte boundary read as +5-9 % on localspot with the same instructions.
flags=(-O2 -g -pthread -falign-functions=64 -I"$here/workloads")
echo "| workload | size | native s | TSan (Clang) s | goldi A s | goldi B s | A / TSan | B / TSan | B / A | RSS B / A | RSS B / TSan |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
for ws in "${work[@]}"; do
  w=${ws%%:*} n=${ws#*:}
  src="$here/workloads/$w.c"
  [[ -f $src ]] || { echo "ab.sh: no workload $w" >&2; exit 2; }
  gcc "${flags[@]}" "$src" -o "$out/n_$w" -lm
  clang "${flags[@]}" -fsanitize=thread "$src" -o "$out/t_$w" -lm
  GOLDI_CC=$cc "$goldi_a" cc "${flags[@]}" "$src" -o "$out/a_$w" -lm
  GOLDI_CC=$cc "$goldi_b" cc "${flags[@]}" "$src" -o "$out/b_$w" -lm
  args=(-t "$threads" -n "$n" -q)
  printf 'round\tbuild\twall_s\trss_kb\n' > "$out/$w.tsv"
  "$out/n_$w" "${args[@]}" > /dev/null 2>&1 || true   # (a warm-up: page cache, CPU frequency)
  failed=
  for r in $(seq 1 "$runs"); do
    for b in native tsan A B; do
      case $b in native) exe=$out/n_$w ;; tsan) exe=$out/t_$w ;; A) exe=$out/a_$w ;; B) exe=$out/b_$w ;; esac
      if ! "$out/measure" -o "$out/m" -- "$exe" "${args[@]}" > /dev/null 2> "$out/$w.$b.err"; then
        failed="$b, round $r: see $out/$w.$b.err"
        break 2
      fi
      printf '%s\t%s\t%s\t%s\n' "$r" "$b" "$(cut -d' ' -f1 "$out/m")" "$(cut -d' ' -f4 "$out/m")" >> "$out/$w.tsv"
    done
  done
  [[ -z $failed ]] || { echo "| $w | $n | (failed: $failed) |"; continue; }
  python3 - "$out/$w.tsv" "$w" "$n" <<'EOF'
import csv, statistics, sys
runs, rss = {}, {}
for r in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
    runs.setdefault(r["build"], {})[r["round"]] = float(r["wall_s"])
    rss.setdefault(r["build"], []).append(float(r["rss_kb"]))
mrss = {b: statistics.median(v) for b, v in rss.items()}
med = {b: statistics.median(v.values()) for b, v in runs.items()}
cell = lambda b: f'{med[b]:.3f} ({min(runs[b].values()):.2f}–{max(runs[b].values()):.2f})'
ba = [runs["B"][k] / runs["A"][k] for k in runs["A"]]
print(f'| {sys.argv[2]} | {sys.argv[3]} | {med["native"]:.3f} | {cell("tsan")} | {cell("A")} | {cell("B")} | '
      f'{med["A"]/med["tsan"]:.1f}× | {med["B"]/med["tsan"]:.1f}× | {statistics.median(ba):.2f} ({min(ba):.2f}–{max(ba):.2f}) | '
      f'{mrss["B"]/mrss["A"]:.2f} | {mrss["B"]/mrss["tsan"]:.2f} |')
EOF
done
echo
echo "$(nproc) cores; $runs interleaved rounds (median, min–max; B / A: median of the rounds' ratios; RSS: ratios of median peak RSS), -t $threads; goldi drives $cc; binaries and runs in $out"
