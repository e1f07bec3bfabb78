#!/bin/sh
# Builds an interceptor test the way users build programs (compile with
# -fsanitize=thread, link our runtime archive whole, no -fsanitize at link
# time), runs it and checks the verdict:
#   norace  : exit 0, no race report
#   races=N : exactly N race reports and exit status 66
# usage: run_intercept.sh <cc> <libgoldi_rt.a> <source> <work dir> <expect> [-- cflags...]
set -u
cc=$1 lib=$2 src=$3 work=$4 expect=$5
shift 5
[ "${1:-}" = "--" ] && shift
mkdir -p "$work" || exit 1
base=$(basename "$src" | sed 's/\.[^.]*$//')_$(basename "$cc")
"$cc" -g -O1 -fsanitize=thread "$@" -c "$src" -o "$work/$base.o" || exit 1
"$cc" "$work/$base.o" -Wl,--whole-archive "$lib" -Wl,--no-whole-archive -lpthread -ldl \
    -o "$work/$base" || exit 1
out="$work/$base.out"
timeout 120 "$work/$base" >"$out" 2>&1
status=$?
n=$(grep -c "^WARNING: Goldilocks: data race" "$out")
cat "$out"
case $expect in
norace)
    if [ "$status" -ne 0 ] || [ "$n" -ne 0 ]; then
        echo "run_intercept: FAIL: $base: exit $status, $n race report(s); expected exit 0, none"
        exit 1
    fi ;;
races=*)
    want=${expect#races=}
    if [ "$status" -ne 66 ] || [ "$n" -ne "$want" ]; then
        echo "run_intercept: FAIL: $base: exit $status, $n race report(s); expected exit 66, $want"
        exit 1
    fi ;;
*)
    echo "run_intercept: bad expectation '$expect'"
    exit 2 ;;
esac
echo "run_intercept: PASS: $base ($n race report(s), exit $status)"
