#!/bin/sh
# Exit status policy (goldi_rt_finish): a program with a reported race exits
# with exitcode= (default 66) and prints "Goldilocks: reported N data
# race(s)"; a race-free program keeps its own status.
# usage: exitcode_test.sh <cc> <libgoldi_rt.a> <source dir> <work dir>
set -u
cc=$1 lib=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
"$cc" -g -fsanitize=thread -c "$src/exitcode_prog.c" -o "$work/prog.o" &&
    "$cc" "$work/prog.o" -Wl,--whole-archive "$lib" -Wl,--no-whole-archive -lpthread -ldl \
        -o "$work/prog" || exit 1
fail=0
run() {  # name GOLDI_OPTIONS want-status grep-pattern|- args...
    name=$1 opts=$2 want=$3 pat=$4
    shift 4
    GOLDI_OPTIONS=$opts "$work/prog" "$@" >"$work/$name.out" 2>"$work/$name.err"
    got=$?
    if [ "$got" = "$want" ] && { [ "$pat" = - ] || grep -qE -- "$pat" "$work/$name.err"; }; then
        echo "ok   $name"
    else
        echo "FAIL $name: status $got (want $want)"; sed 's/^/     /' "$work/$name.err"; fail=1
    fi
}
run clean "" 0 -
run clean_own_status "" 3 - norace fail
run race "" 66 "^Goldilocks: reported [0-9]+ data race" race
run race_exitcode "exitcode=9" 9 "Goldilocks: reported" race
run race_halt "halt_on_error=1 exitcode=5" 5 "WARNING: Goldilocks: data race" race
if grep -q "counter=" "$work/race_halt.out"; then
    echo "FAIL race_halt_stops: the program kept running after halt_on_error"; fail=1
fi
exit $fail
