#!/bin/sh
# Runs one ABI test program under the goldilocks engine with print_stats=1
# and checks one of the engine's counters against a bound: the program's
# behaviour (a spin, a hand-off) is fixed by its own schedule, so the count
# is too, and a runtime path that stopped being taken shows up as a count
# out of bounds.
# usage: check_counter.sh <cc> <libgoldi_rt.a> <abi source dir> <work dir>
#                         <program> <counter> <at-most|at-least> <bound> <what a failure means>
set -u
cc=$1 lib=$2 src=$3 work=$4 prog=$5 counter=$6 dir=$7 bound=$8 meaning=$9
out=$(GOLDI_OPTIONS="engine=goldilocks print_stats=1" sh "$src/run_program.sh" "$cc" "$lib" \
      "$src/$prog.c" "$work" 2>&1)
status=$?
echo "$out" | grep -E "^$prog:|goldilocks\\.$counter "
[ $status -eq 0 ] || { echo "$prog: FAIL: status $status"; echo "$out" | tail -20; exit 1; }
n=$(echo "$out" | sed -n "s/.*goldilocks\\.$counter \\([0-9]*\\).*/\\1/p")
[ -n "$n" ] || { echo "$prog: FAIL: no $counter line"; exit 1; }
case $dir in
    at-most) [ "$n" -le "$bound" ] ;;
    at-least) [ "$n" -ge "$bound" ] ;;
    *) echo "check_counter.sh: bad direction '$dir'"; exit 2 ;;
esac || { echo "$prog: FAIL: $counter $n, $dir $bound wanted: $meaning"; exit 1; }
echo "$prog: OK ($counter $n, $dir $bound)"
