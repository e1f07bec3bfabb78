#!/bin/sh
# Long differential soak (docs/differential.md): random seeds, batches of
# generated traces through every engine, until the time is up. Prints the seed
# of every disagreement; with --save-dir the minimized traces are kept there.
# usage: tests/diff/soak.sh [--minutes N] [--check=LIST] [--difftest PATH]
#                           [--save-dir DIR] [--check-first]
# Default engines: every engine with a relation; default oracle mode: C11 (an
# atomic read is checked after its own acquire, the engines' convention since
# ATOMIC_READ_SYNC, as in tests/diff/CMakeLists.txt); --check-first for the
# older convention (every engine then disagrees on such traces, by design).
set -u
minutes=10
check=goldilocks,vc,fasttrack,jrf,eraser,fastrcd,valor,hybrid-short,hybrid-long
difftest=
save=
mode=
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --minutes=*) minutes=${1#*=}; shift ;;
    --check=*) check=${1#*=}; shift ;;
    --difftest) difftest=$2; shift 2 ;;
    --save-dir) save=$2; shift 2 ;;
    --c11) mode=; shift ;;          # (the default; kept for old command lines)
    --check-first) mode=--check-first; shift ;;
    *) echo "soak.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$difftest" ]; then
  here=$(cd "$(dirname "$0")/../.." && pwd)
  for d in "$here"/build*/tests/diff/difftest "$here"/build*/bin/difftest; do
    [ -x "$d" ] && difftest=$d && break
  done
fi
if [ -z "$difftest" ] || [ ! -x "$difftest" ]; then
  echo "soak.sh: difftest not found; build it or pass --difftest PATH" >&2
  exit 2
fi
end=$(( $(date +%s) + minutes * 60 ))
batches=0; traces=0; failed=0
log=$(mktemp)
while [ "$(date +%s)" -lt "$end" ]; do
  seed=$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')
  left=$(( end - $(date +%s) ))
  [ "$left" -lt 5 ] && break
  set -- run $mode --check="$check" --seed="$seed" --count=1000 --seconds="$left"
  [ -n "$save" ] && mkdir -p "$save" && set -- "$@" --save-dir="$save"
  "$difftest" "$@" > "$log" 2>&1
  rc=$?
  batches=$((batches + 1))
  n=$(sed -n 's/^difftest: \([0-9]*\) traces.*/\1/p' "$log")
  traces=$((traces + ${n:-0}))
  if [ $rc -ne 0 ]; then
    failed=$((failed + 1))
    grep '^seed ' "$log" | sed 's/^/FAIL /'
    grep -q '^seed ' "$log" || { echo "FAIL batch at seed $seed (rc $rc):"; tail -5 "$log"; }
  fi
done
rm -f "$log"
echo "soak: $batches batches, $traces traces, $failed failing batches"
[ $failed -eq 0 ]
