#!/usr/bin/env bash
# scripts/stress-repeat.sh: runs stress programs many times each under a
# runtime built with its debug checks (GOLDI_DEBUG=1), to find the rare
# failures one CI run shows once in hundreds (session 52: a false race in
# tests/stress/signals.c about 1 run in 400; the debug check that names its
# cause failed 4 runs in 600). Each run is judged by tests/stress/run_stress.sh,
# as in the suite (the program's header says what must happen).
#
#   bash scripts/stress-repeat.sh [RUNS] [PROGRAM ...]
#   e.g. bash scripts/stress-repeat.sh 200 signals atomic_churn
#
# RUNS defaults to 50; programs to every tests/stress/*.c and *.cpp. Knobs
# (environment): BUILD (build-debug: configured here if missing), CC_STRESS
# (clang), ENGINE (goldilocks). Prints a line per program and exits 1 if any
# run failed; the failing runs' output is kept in BUILD/stress-repeat/.
# Runs on a quiet machine: the spinning programs (spin_handoffs) starve
# behind other CPU hogs and hit their watchdog.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-50}
[ $# -gt 0 ] && shift
build=${BUILD:-$root/build-debug}
cc=${CC_STRESS:-clang}
engine=${ENGINE:-goldilocks}

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGOLDI_DEBUG=1 >/dev/null || exit 2
fi
ninja -C "$build" goldi >/dev/null || exit 2

if [ $# -eq 0 ]; then
  set -- $(cd "$root/tests/stress" && ls *.c *.cpp | sed 's/\.c\(pp\)\{0,1\}$//')
fi
out="$build/stress-repeat"
mkdir -p "$out"
failed=0
for prog in "$@"; do
  src="$root/tests/stress/$prog.c"
  [ -f "$src" ] || src="$root/tests/stress/$prog.cpp"
  if [ ! -f "$src" ]; then
    echo "stress-repeat: no tests/stress/$prog.c or .cpp" >&2
    exit 2
  fi
  if ! "$root/tests/stress/run_stress.sh" "$cc" compile "$src" "$build" >"$out/$prog.compile" 2>&1; then
    echo "$prog: does not compile (see $out/$prog.compile)"
    failed=1
    continue
  fi
  fails=0
  for i in $(seq 1 "$runs"); do
    "$root/tests/stress/run_stress.sh" "$cc" "$engine" "$src" "$build" >"$out/$prog.run" 2>&1
    rc=$?
    if [ $rc -eq 77 ]; then   # (not for this engine, or not on this machine)
      echo "$prog: skipped ($(head -1 "$out/$prog.run"))"
      continue 2
    fi
    if [ $rc -ne 0 ]; then
      fails=$((fails + 1))
      mv "$out/$prog.run" "$out/$prog.fail.$i"
    fi
  done
  echo "$prog: $fails of $runs runs failed"
  [ $fails -gt 0 ] && failed=1
done
exit $failed
