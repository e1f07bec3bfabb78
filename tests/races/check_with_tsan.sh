#!/usr/bin/env bash
# check_with_tsan.sh — validate the corpus verdicts against the system's real
# ThreadSanitizer (not our runtime): each program is compiled natively with
# -fsanitize=thread -O1 -g and run RUNS times; TSan exit 66 = race reported.
#
# usage: check_with_tsan.sh [-n RUNS] [-c clang|gcc] [-v] [program.c|.cpp ...]
#   default: every program in this directory, 5 runs, clang.
# A program's // LIB: library is built the same way with -shared -fPIC and
# passed as its first argument, as run_race_test.sh does.
# A program whose TSan verdict differs from its // VERDICT: line must have a row
# `| \`name\` | verdict | clang-TSan verdict | gcc-TSan verdict | why |` in
# TSAN_DIVERGENCES.md; anything else is a failure, and so is a race report in
# any run of a norace program.  A race program counts as "race" if TSan reports
# it in at least one run (intermittent misses are printed and counted).  CHECK lines are compared too, loosely
# (Goldilocks -> ThreadSanitizer, goldi-only phrases skipped), as warnings only:
# TSan may report the other access of the pair first.
set -u
here=$(cd "$(dirname "$0")" && pwd)
runs=5 cc=clang verbose=0
while getopts "n:c:v" o; do
  case $o in
    n) runs=$OPTARG ;; c) cc=$OPTARG ;; v) verbose=1 ;;
    *) echo "usage: $0 [-n RUNS] [-c clang|gcc] [-v] [files...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then set -- "$here"/*.c "$here"/*.cpp; fi
case $cc in
  clang) cxx=clang++ ;; gcc) cxx=g++ ;; *) echo "bad compiler $cc" >&2; exit 2 ;;
esac

work=$(mktemp -d /tmp/goldi-tsan-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
divergences="$here/TSAN_DIVERGENCES.md"

n_agree=0 n_diverge_listed=0 n_fail=0 n_total=0 n_flaky=0
fails=() warns=()

for src in "$@"; do
  name=$(basename "$src"); name=${name%.*}
  verdict=$(sed -n 's|^// VERDICT: *\([a-z]*\).*|\1|p' "$src" | head -1)
  args=$(sed -n 's|^// ARGS: *||p' "$src" | head -1)
  lib=$(sed -n 's|^// LIB: *||p' "$src" | head -1)
  n_total=$((n_total + 1))
  case $src in *.cpp) comp=$cxx ;; *) comp=$cc ;; esac
  if [ -n "$lib" ]; then
    if ! $cc -fsanitize=thread -O1 -g -shared -fPIC "$(dirname "$src")/$lib" -o "$work/$name-lib.so" \
        2>"$work/$name.cc"; then
      echo "COMPILE-FAIL $name (library $lib)"; cat "$work/$name.cc"; n_fail=$((n_fail + 1)); fails+=("$name(compile)")
      continue
    fi
    args="$work/$name-lib.so${args:+ $args}"
  fi
  if ! $comp -fsanitize=thread -O1 -g -pthread "$src" -o "$work/$name" 2>"$work/$name.cc"; then
    echo "COMPILE-FAIL $name"; cat "$work/$name.cc"; n_fail=$((n_fail + 1)); fails+=("$name(compile)")
    continue
  fi
  n_race=0 n_norace=0 other="" done_runs=0 limit=$runs
  while [ $done_runs -lt $limit ]; do
    # shellcheck disable=SC2086
    TSAN_OPTIONS="exitcode=66 halt_on_error=0" timeout 60 "$work/$name" $args \
      >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    done_runs=$((done_runs + 1))
    if [ $rc -eq 66 ]; then
      n_race=$((n_race + 1))
      if [ "$verdict" = race ]; then
        while IFS= read -r chk; do
          case $chk in *"(free)"*|*"Locks held"*|*"Ordering"*) continue ;; esac
          t=${chk//Goldilocks/ThreadSanitizer}
          if ! grep -qF -- "$t" "$work/$name.err"; then
            warns+=("$name: CHECK '$chk' not in TSan output (run $done_runs)")
          fi
        done < <(sed -n 's|^// CHECK: *||p' "$src")
      fi
    elif [ $rc -eq 0 ] && ! grep -q "WARNING: ThreadSanitizer" "$work/$name.err"; then
      n_norace=$((n_norace + 1))
    else
      other="rc=$rc"; cp "$work/$name.err" "$work/$name.bad"
    fi
    # A race program TSan has not flagged yet gets up to 4x more runs before we
    # call it a miss: TSan v3 drops some races at random (see below).
    if [ $done_runs -eq $limit ] && [ "$verdict" = race ] && [ $n_race -eq 0 ] \
       && [ -z "$other" ] && [ $limit -eq $runs ]; then
      limit=$((runs * 5))
    fi
    if [ $limit -gt $runs ] && [ $n_race -gt 0 ]; then break; fi
  done
  if [ $verbose -eq 1 ]; then echo "---- $name"; cat "$work/$name.err"; fi
  # TSan's verdict over the runs.  TSan v3 may miss a race now and then (an
  # accepted speed/precision trade-off: google/sanitizers#1576) but never invents
  # one, so "race in some runs" is a race verdict with intermittent misses.
  if [ -n "$other" ]; then got="other($other)"
  elif [ $n_race -eq 0 ]; then got=norace
  else got=race; fi
  # Documented divergence: a table row | `name` | verdict | clang | gcc | reason |
  row=$(grep -F "| \`$name\` |" "$divergences" 2>/dev/null | head -1)
  expect=$verdict
  if [ -n "$row" ]; then
    col=$([ "$cc" = clang ] && echo 4 || echo 5)
    expect=$(echo "$row" | awk -F'|' -v c=$col '{gsub(/ /, "", $c); print $c}')
  fi
  miss=""
  if [ "$verdict" = race ] && [ "$got" = race ] && [ $n_race -lt $done_runs ]; then
    miss=" (TSan missed it in $((done_runs - n_race))/$done_runs runs)"; n_flaky=$((n_flaky + 1))
  elif [ "$verdict" = norace ] && [ "$got" = race ] && [ $n_race -lt $done_runs ]; then
    miss=" (race reported in $n_race/$done_runs runs)"
  fi
  if [ "$got" = "$verdict" ]; then
    # TSan may miss a race but never invents one: a single report is agreement,
    # even for a program listed because some TSan usually misses it.
    n_agree=$((n_agree + 1))
    [ "$expect" != "$verdict" ] && miss="$miss [listed for $cc as '$expect', agreed this time]"
    echo "AGREE      $name ($verdict)$miss"
  elif [ "$got" = "$expect" ]; then
    n_diverge_listed=$((n_diverge_listed + 1))
    echo "DIVERGE    $name (verdict $verdict, TSan $got in $done_runs runs)$miss — documented"
  else
    echo "FAIL       $name (verdict $verdict, TSan $got in $done_runs runs, expected $expect)$miss"
    if [ -f "$work/$name.bad" ]; then sed -n 1,40p "$work/$name.bad"; else sed -n 1,40p "$work/$name.err"; fi
    n_fail=$((n_fail + 1)); fails+=("$name")
  fi
done

for w in "${warns[@]+"${warns[@]}"}"; do echo "warning: $w"; done
echo "== $cc, $runs runs each: $n_total programs, $n_agree agree, $n_diverge_listed documented divergences, $n_fail failures; $n_flaky race programs with intermittent TSan misses"
[ ${#fails[@]} -eq 0 ] || echo "failures: ${fails[*]}"
[ $n_fail -eq 0 ]
