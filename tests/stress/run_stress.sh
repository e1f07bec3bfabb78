#!/usr/bin/env bash
# run_stress.sh COMPILER ENGINE SRC BUILD_DIR
#
# One stress test: SRC is compiled with `goldi cc` / `goldi c++` using
# COMPILER (gcc or clang) into BUILD_DIR/stress-bin/COMPILER/ (ENGINE
# "compile": only that, a CTest fixture), then run under
# GOLDI_OPTIONS="engine=ENGINE <STRESS-OPTIONS>" with a 60 s timeout.
# The program's header says what must happen:
#   // STRESS-EXIT: N            exit status (default 0)
#   // STRESS-REPORTS: N | LO-HI number of race reports in the report stream
#                                (default 0)
#   // STRESS-CHECK: text        must appear in stdout+stderr (repeatable)
#   // STRESS-ABSENT: text       must not appear (repeatable)
#   // STRESS-OPTIONS: a=1 b=2   extra runtime options
#   // STRESS-ENGINES: e1 e2     engines it runs under (default goldilocks vc)
#   // STRESS-MAX-ALLOC-MB: N    the runtime's own heap (print_stats
#                                "runtime alloc_bytes") must end below N MiB
#   // STRESS-MAX-ORIGIN-SITES: N  at most N interned origin sites (print_stats
#                                "runtime origin_sites": code paths, not threads)
#   // STRESS-ARGS: ...          program arguments
#   // STRESS-KNOWN-FAIL: e1 e2  known bug under these engines: a failure is
#                                reported as XFAIL and passes, a pass as XPASS
# Always: no "goldi: fatal"/"CHECK failed" line, no crash signal, no timeout.
set -u
if [ $# -ne 4 ]; then
  echo "usage: $0 COMPILER ENGINE SRC BUILD_DIR" >&2
  exit 2
fi
compiler=$1 engine=$2 src=$3 build=$4
goldi="$build/bin/goldi"
hdr() { sed -n "s|^// $1: *||p" "$src"; }

engines=$(hdr STRESS-ENGINES | head -1)
[ -n "$engines" ] || engines="goldilocks vc"
if [ "$engine" != compile ]; then
  case " $engines " in
    *" $engine "*) ;;
    *) echo "SKIP: engine '$engine' is not in STRESS-ENGINES ($engines)"; exit 77 ;;
  esac
fi

case $src in
  *.cpp)
    sub=c++
    case $compiler in gcc) export GOLDI_CXX=g++ ;; clang) export GOLDI_CXX=clang++ ;; *) export GOLDI_CXX=$compiler ;; esac ;;
  *)
    sub=cc
    export GOLDI_CC=$compiler ;;
esac

name=$(basename "${src%.*}")
prog="$build/stress-bin/$compiler/$name"
if [ "$engine" = compile ]; then
  mkdir -p "$(dirname "$prog")"
  if ! "$goldi" "$sub" -O1 -g -pthread -I"$(dirname "$src")" "$src" -o "$prog"; then
    echo "FAIL: compilation of $src with $compiler failed"
    exit 1
  fi
  echo "PASS: $name [$compiler] compiled"
  exit 0
fi
[ -x "$prog" ] || { echo "FAIL: $prog missing (run the compile test first)"; exit 1; }

want_exit=$(hdr STRESS-EXIT | head -1); want_exit=${want_exit:-0}
want_reports=$(hdr STRESS-REPORTS | head -1); want_reports=${want_reports:-0}
max_alloc=$(hdr STRESS-MAX-ALLOC-MB | head -1)
max_sites=$(hdr STRESS-MAX-ORIGIN-SITES | head -1)
opts="engine=$engine $(hdr STRESS-OPTIONS | head -1)"
[ -n "$max_alloc$max_sites" ] && opts="$opts print_stats=1"
args=$(hdr STRESS-ARGS | head -1)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/goldi-stress.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s.%N)
# shellcheck disable=SC2086
(cd "$tmp" && GOLDI_OPTIONS="$opts" timeout -k 5 60 "$prog" $args >"$tmp/stdout" 2>"$tmp/stderr")
status=$?
secs=$(echo "$(date +%s.%N) - $start" | bc)

known=$(hdr STRESS-KNOWN-FAIL | head -1)
xfail=false
case " $known " in *" $engine "*) xfail=true ;; esac

fail() {
  if $xfail; then
    echo "XFAIL: $name [$compiler/$engine]: $1 (known bug, see the program's header)"
    exit 0
  fi
  echo "FAIL: $name [$compiler/$engine]: $1"
  echo "run: (cd $tmp && GOLDI_OPTIONS=\"$opts\" $prog $args)"
  echo "exit status: $status (wanted $want_exit)$([ $status -eq 124 ] && echo ' = timeout')"
  echo "---- stderr (first 200 lines) ----"; head -200 "$tmp/stderr"
  echo "---- stdout (first 50 lines) ----"; head -50 "$tmp/stdout"
  exit 1
}

[ $status -ge 124 ] && [ $status -ne "$want_exit" ] && fail "timeout or crash (status $status)"
[ "$status" -eq "$want_exit" ] || fail "wrong exit status"
reports=$(grep -c "^WARNING: Goldilocks: data race" "$tmp/stderr")
lo=${want_reports%-*} hi=${want_reports#*-}
[ "$reports" -ge "$lo" ] && [ "$reports" -le "$hi" ] || fail "$reports race report(s), wanted $want_reports"
grep -qE "goldi: fatal|CHECK failed|STRESS FAIL" "$tmp/stderr" "$tmp/stdout" && fail "runtime or program check failed"
while IFS= read -r chk; do
  [ -n "$chk" ] || continue
  cat "$tmp/stdout" "$tmp/stderr" | grep -qF -- "$chk" || fail "'$chk' not found in the output"
done < <(hdr STRESS-CHECK)
while IFS= read -r chk; do
  [ -n "$chk" ] || continue
  cat "$tmp/stdout" "$tmp/stderr" | grep -qF -- "$chk" && fail "'$chk' found in the output"
done < <(hdr STRESS-ABSENT)
if [ -n "$max_alloc" ]; then
  bytes=$(sed -n 's/^goldi: stats: runtime alloc_bytes //p' "$tmp/stderr" | tail -1)
  [ -n "$bytes" ] || fail "no 'runtime alloc_bytes' statistics line"
  [ "$bytes" -le $((max_alloc * 1048576)) ] || fail "runtime heap $bytes bytes > $max_alloc MiB"
  echo "runtime heap at exit: $((bytes / 1024)) KiB (limit $max_alloc MiB)"
fi
if [ -n "$max_sites" ]; then
  sites=$(sed -n 's/^goldi: stats: runtime origin_sites //p' "$tmp/stderr" | tail -1)
  [ -n "$sites" ] || fail "no 'runtime origin_sites' statistics line"
  [ "$sites" -le "$max_sites" ] || fail "$sites origin sites interned > $max_sites"
  echo "origin sites: $sites (limit $max_sites)"
fi
grep -h "peak RSS" "$tmp/stdout" "$tmp/stderr"
$xfail && echo "XPASS: $name [$compiler/$engine]: the known bug is gone, drop STRESS-KNOWN-FAIL"
echo "PASS: $name [$compiler/$engine] exit $status, $reports report(s), ${secs%???????} s"
exit 0
