#!/bin/sh
# STD import: a RAPID-style sample gives the expected races under the precise
# engines, converts to binary and back without change, and malformed lines
# fail with "line N:". Usage: std_test.sh GOLDI SAMPLE.std WORKDIR
set -u
goldi=$1 sample=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for e in goldilocks vc; do
  "$goldi" analyze --engine=$e "$sample" > $e.out 2>&1
  rc=$?
  [ $rc -eq 66 ] || fail "$e: exit $rc, want 66"
  n=$(grep -c '^WARNING: Goldilocks: data race' $e.out)
  [ "$n" -eq 2 ] || fail "$e: $n races, want 2"
  grep -q "Location is STD variable 'x'" $e.out || fail "$e: no race on x"
  grep -q "Location is STD variable 'arr\[0\]'" $e.out || fail "$e: no race on arr[0]"
  grep -q "STD variable 'o.f'" $e.out && fail "$e: lock-protected o.f reported"
done

# STD -> binary -> STD keeps every event that has an STD meaning
grep -v -e '^#' -e '|begin|' -e '|end|' "$sample" > expected.std
"$goldi" convert "$sample" s.gtb 2> conv.err || fail "convert to binary: $(cat conv.err)"
"$goldi" convert s.gtb back.std 2> conv.err || fail "convert back: $(cat conv.err)"
cmp -s expected.std back.std || { fail "STD round trip changed the trace"; diff expected.std back.std | head; }

# malformed input: clean errors with the line number
bad() {   # bad TEXT EXPECTED-MESSAGE-PART
  printf '%s\n' "$1" > bad.std
  "$goldi" analyze -q --no-table --format=std --engine=vc bad.std > /dev/null 2> bad.err
  rc=$?
  { [ $rc -eq 1 ] && grep -q "line [0-9]*: .*$2" bad.err; } || fail "input '$1': exit $rc, stderr: $(cat bad.err)"
}
bad 'T0|w(x)' "expected THREAD|OP(DECOR)|LOC"
bad 'T0|w(x)|1|2' "more than three"
bad 'T0|w(x)|abc' "bad location"
bad 'T0|x(y)|1' "unknown operation"
bad 'T0|w()|1' "bad operation"
bad 'T0|acq|1' "needs an operand"
bad 'T0|fork(T0)|1' "itself"
printf 'T0|fork(T1)|1\nT0|fork(T1)|2\n' > twice.std
"$goldi" analyze -q --no-table --engine=vc twice.std > /dev/null 2> bad.err
grep -q "line 2: fork of 'T1', which already exists" bad.err || fail "double fork: $(cat bad.err)"
printf 'T0|fork(T1)|1\nT0|join(T1)|2\nT1|w(x)|3\n' > late.std
"$goldi" analyze -q --no-table --engine=vc late.std > /dev/null 2> bad.err
grep -q "line 3: thread 'T1' acts after it was joined" bad.err || fail "act after join: $(cat bad.err)"

echo "$fails failures"
[ $fails -eq 0 ]
