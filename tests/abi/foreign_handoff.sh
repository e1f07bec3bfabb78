#!/bin/sh
# Runs foreign_handoff.c (a producer and a consumer passing every slot of a
# 256-slot ring back and forth for 8 rounds, phases kept apart) under the
# goldilocks engine and checks that the other thread's accesses to the
# slots' inline records were taken without the granule lock: of the 3,840
# accesses that find the slot's record the other thread's (the first round's
# writes create the records), at least 3,600 (about 3,824 when only each
# phase's first access walks; 0 when the lock-free path is never taken).
# usage: foreign_handoff.sh <cc> <libgoldi_rt.a> <abi source dir> <work dir>
set -u
cc=$1 lib=$2 src=$3 work=$4
out=$(GOLDI_OPTIONS="engine=goldilocks print_stats=1" sh "$src/run_program.sh" "$cc" "$lib" \
      "$src/foreign_handoff.c" "$work" 2>&1)
status=$?
echo "$out" | grep -E "foreign_handoff:|inline_foreign"
[ $status -eq 0 ] || { echo "foreign_handoff: FAIL: status $status"; echo "$out" | tail -20; exit 1; }
n=$(echo "$out" | sed -n 's/.*goldilocks\.inline_foreign_lockfree \([0-9]*\).*/\1/p')
[ -n "$n" ] || { echo "foreign_handoff: FAIL: no inline_foreign_lockfree line"; exit 1; }
if [ "$n" -lt 3600 ]; then
    echo "foreign_handoff: FAIL: only $n lock-free foreign updates: hand-offs took the granule lock"
    exit 1
fi
echo "foreign_handoff: OK ($n lock-free foreign updates)"
