#!/usr/bin/env bash
# options_test.sh COMPILER BUILD_DIR
# Bad runtime options and report destinations, on a racy program built with
# COMPILER: every bad GOLDI_OPTIONS gives exactly one "goldi: error:" line
# on stderr, status 1, no crash and no program output; log_path= writes the
# reports to LOG.PID and nothing to stderr; a limited address space.
set -u
compiler=$1 build=$2
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/goldi-stress-opt.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export GOLDI_CC=$compiler
prog=$tmp/racy
"$build/bin/goldi" cc -O1 -g -pthread -I"$src" "$src/racy_all.c" -o "$prog" || { echo "FAIL: compile"; exit 1; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

huge=$(head -c 100000 /dev/zero | tr '\0' a)
bad=("bogus=1" "engine=nope" "engine=" "exitcode=abc" "exitcode=999" "halt_on_error=2"
     "report_limit=-1" "verbosity=99999999999999999999999" "$huge" "log_path=$huge"
     "engine=$huge" "=1" "exitcode" "exitcode==3" "engine=vc,,goldilocks" "engine=vc,vc"
     "a b c d" "log_path=/nonexistent/dir/x" "trace_out=/nonexistent/x" "halt_on_error=yes please")
for o in "${bad[@]}"; do
  GOLDI_OPTIONS="$o" timeout 20 "$prog" >"$tmp/out" 2>"$tmp/err"
  st=$?
  shown=${o:0:40}
  [ $st -eq 1 ] || fail "[$shown] status $st, wanted 1"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "[$shown] stderr has $(wc -l <"$tmp/err") lines, wanted 1"
  grep -q "^goldi: error: " "$tmp/err" || fail "[$shown] no 'goldi: error:' line"
  [ -s "$tmp/out" ] && fail "[$shown] the program ran"
  [ "$(head -c 2000 "$tmp/err" | wc -c)" -le 1100 ] || fail "[$shown] error line longer than 1100 bytes"
done

# log_path: reports in LOG.PID, nothing on stderr, status 66.
GOLDI_OPTIONS="log_path=$tmp/log" "$prog" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 66 ] || fail "log_path: status $st, wanted 66"
grep -q "WARNING" "$tmp/err" && fail "log_path: a report went to stderr"
logs=("$tmp"/log.*)
[ ${#logs[@]} -eq 1 ] && [ -f "${logs[0]}" ] || fail "log_path: no single log file (${logs[*]})"
case ${logs[0]} in "$tmp/log."[0-9]*) ;; *) fail "log_path: file name ${logs[0]} is not LOG.PID" ;; esac
n=$(grep -c "^WARNING: Goldilocks: data race" "${logs[0]}")
[ "$n" -ge 16 ] || fail "log_path: $n reports in the log, wanted >= 16"
grep -q "^SUMMARY: Goldilocks: data race .*racy_many.inc:[0-9]* in race" "${logs[0]}" ||
  fail "log_path: no symbolized SUMMARY line"
grep -q "Goldilocks: reported $n data race(s)" "${logs[0]}" || fail "log_path: no final count line"
# stdout as destination
GOLDI_OPTIONS="log_path=stdout exitcode=7" "$prog" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 7 ] || fail "log_path=stdout exitcode=7: status $st"
grep -q "^WARNING: Goldilocks: data race" "$tmp/out" || fail "log_path=stdout: no report on stdout"
grep -q "WARNING" "$tmp/err" && fail "log_path=stdout: report on stderr"

# A limited address space (`ulimit -v`): the shadow directory is reserved
# for fewer planes, still enough for a default run (4 GiB: every report, as
# above); below what it needs, one fatal line and no program output.
(ulimit -v 4194304 && exec "$prog") >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 66 ] || fail "ulimit -v 4 GiB: status $st, wanted 66"
n=$(grep -c "^WARNING: Goldilocks: data race" "$tmp/err")
[ "$n" -ge 16 ] || fail "ulimit -v 4 GiB: $n reports, wanted >= 16"
(ulimit -v 1048576 && exec "$prog") >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -ne 0 ] && [ $st -ne 66 ] || fail "ulimit -v 1 GiB: status $st, wanted a failure"
grep -q "^goldi: fatal: cannot reserve the shadow directory" "$tmp/err" || fail "ulimit -v 1 GiB: no fatal line"
[ -s "$tmp/out" ] && fail "ulimit -v 1 GiB: the program ran"

[ $fails -eq 0 ] || exit 1
echo "PASS: options_test [$compiler] ${#bad[@]} bad option strings, log_path file/stdout, ulimit -v"
