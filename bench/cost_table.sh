#!/usr/bin/env bash
# cost_table.sh [BUILD_DIR] > table.md
#
# The Goldilocks-paper "Table 1" view: record one execution of each benchmark
# workload (small size, 4 threads, GCC instrumentation) with `goldi record`,
# replay the same trace through every engine with `goldi analyze
# --engine=all` (one process per engine, so time and peak memory are that
# engine's alone), and print per-engine replay time and peak RSS per workload.
# Replay cost excludes the program itself: it compares engines, not tools
# (bench/run.sh measures the online slowdown against TSan).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
goldi="$build/bin/goldi"
work=$(mktemp -d "${TMPDIR:-/tmp}/goldi-cost.XXXXXX")
trap 'rm -rf "$work"' EXIT
engines="goldilocks vc fasttrack jrf eraser hybrid-short hybrid-long fastrcd valor"
# workload and a size giving ~1-5 M events
sizes="sharedspot:200000 localspot:200000 multiset:20000 lockfree:50000 stencil:64 pipeline:50000 hashtable:50000 threadpool:20000 radix:200000 lu:64 nbody:256 blackscholes:2000"

printf '| workload | events |'
for e in $engines; do printf ' %s ms / MiB |' "$e"; done
printf '\n|---|--:|'
for e in $engines; do printf -- '--:|'; done
printf '\n'
for ws in $sizes; do
  w=${ws%%:*} n=${ws##*:}
  "$goldi" cc -O2 -g -pthread -I"$here/workloads" "$here/workloads/$w.c" -o "$work/$w" -lm
  GOLDI_OPTIONS="engine=fasttrack" "$goldi" record -o "$work/$w.gtr" -- "$work/$w" -t 4 -n "$n" -q >/dev/null 2>&1 || true
  "$goldi" analyze --engine=all "$work/$w.gtr" >"$work/$w.out" 2>&1 || true
  events=$(awk '$1=="goldilocks" && NF>=8 {print $3; exit}' "$work/$w.out")
  printf '| %s (-n %s) | %s |' "$w" "$n" "${events:-?}"
  for e in $engines; do
    cell=$(awk -v e="$e" '$1==e && NF>=8 {printf "%.0f / %.1f", $6, $7; exit}' "$work/$w.out")
    printf ' %s |' "${cell:-failed}"
  done
  printf '\n'
done
