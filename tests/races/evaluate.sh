#!/usr/bin/env bash
# evaluate.sh [BUILD_DIR] [COMPILER]
#
# Runs every race-corpus program (prebuilt by the corpus tests into
# BUILD_DIR/races-bin/COMPILER/, or compiled here) under every engine and
# prints a Markdown table in the style of Helgrind+'s Table 1: per engine,
# races found, missed races and false alarms against the programs' asserted
# verdicts, plus the programs behind each miss and false alarm.
# Verdict of one run = whether any race was reported (exit status 66).
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
compiler=${2:-gcc}
engines="goldilocks vc fasttrack jrf eraser hybrid-short hybrid-long fastrcd valor"
bin="$build/races-bin/$compiler"
mkdir -p "$bin"

declare -A found missed falarm agree_n miss_list fa_list
for e in $engines; do found[$e]=0; missed[$e]=0; falarm[$e]=0; agree_n[$e]=0; miss_list[$e]=""; fa_list[$e]=""; done
n_race=0 n_norace=0
for src in "$here"/*.c "$here"/*.cpp; do
  name=$(basename "${src%.*}")
  verdict=$(sed -n 's|^// VERDICT: *\([a-z]*\).*|\1|p' "$src" | head -1)
  prog="$bin/$name"
  # (rebuilt when older than its source, the wrapper or the runtime it links)
  if [ ! -x "$prog" ] || [ "$src" -nt "$prog" ] || [ "$build/bin/goldi" -nt "$prog" ] ||
     { [ -e "$build/lib/libgoldi_rt.a" ] && [ "$build/lib/libgoldi_rt.a" -nt "$prog" ]; }; then
    "$here/run_race_test.sh" "$compiler" compile "$src" "$build" >/dev/null || { echo "compile failed: $name" >&2; continue; }
  fi
  args=$(sed -n 's|^// ARGS: *||p' "$src" | head -1)
  # A // LIB: library was built next to the program (run_race_test.sh).
  lib=$(sed -n 's|^// LIB: *||p' "$src" | head -1)
  [ -z "$lib" ] || { lib=${lib##*/}; args="$prog-lib${lib%.*}.so${args:+ $args}"; }
  if [ "$verdict" = race ]; then n_race=$((n_race + 1)); else n_norace=$((n_norace + 1)); fi
  for e in $engines; do
    # shellcheck disable=SC2086
    GOLDI_OPTIONS="engine=$e" timeout 120 "$prog" $args >/dev/null 2>&1
    st=$?
    reported=0; [ $st -eq 66 ] && reported=1
    if [ "$verdict" = race ]; then
      if [ $reported = 1 ]; then found[$e]=$((found[$e] + 1)); else missed[$e]=$((missed[$e] + 1)); miss_list[$e]+=" $name"; fi
    else
      if [ $reported = 1 ]; then falarm[$e]=$((falarm[$e] + 1)); fa_list[$e]+=" $name"; fi
    fi
  done
done

echo "Race corpus: $n_race racy and $n_norace race-free programs, compiled by $compiler with goldi cc -O1 -g; one run per program and engine."
echo
echo "| engine | races found | missed races | false alarms | correct verdicts |"
echo "|---|--:|--:|--:|--:|"
for e in $engines; do
  ok=$(( found[$e] + n_norace - falarm[$e] ))
  echo "| $e | ${found[$e]} / $n_race | ${missed[$e]} | ${falarm[$e]} / $n_norace | $ok / $((n_race + n_norace)) |"
done
echo
for e in $engines; do
  [ -n "${miss_list[$e]}${fa_list[$e]}" ] || continue
  echo "- **$e**"
  [ -n "${miss_list[$e]}" ] && echo "  - missed:${miss_list[$e]}"
  [ -n "${fa_list[$e]}" ] && echo "  - false alarms:${fa_list[$e]}"
done
