#!/bin/sh
# Is pgo/goldi_rt.profdata still the runtime's? Compiles the access path's
# sources with it, as the build does, and fails when Clang finds more than a
# tenth of a file's functions changed since the profile was made: they are
# then compiled without its counts (CMakeLists.txt, GOLDI_PGO). Renew it with
# `bash scripts/pgo-train.sh`.
#   check_pgo_profile.sh CLANG SOURCE_DIR PROFILE GOLDI_DEBUG
# (GOLDI_DEBUG: the build's, which changes the functions' code)
cc=$1 src=$2 profile=$3 debug=$4
stale=0
for f in rt/abi/access.c rt/abi/atomic.c engine/goldilocks/goldilocks.c engine/goldilocks/gls_list.c \
         engine/goldilocks/gls_lease.c event/dispatch.c shadow/shadow.c; do
    out=$("$cc" -O2 -fPIC -fno-builtin -DGOLDI_DEBUG="$debug" -I"$src/src" -I"$src/include" -c "$src/src/$f" \
          -o /dev/null -fprofile-instr-use="$profile" -Wprofile-instr-out-of-date -Wprofile-instr-unprofiled 2>&1)
    # "profile data may be out of date: of N functions, M have mismatched data ..."
    counts=$(printf '%s\n' "$out" | sed -n 's/.*of \([0-9]*\) functions\{0,1\}, \([0-9]*\) ha[sv]e\{0,1\} mismatched.*/\1 \2/p' | head -1)
    if printf '%s\n' "$out" | grep -q "no profile data available"; then
        echo "check_pgo_profile: $f has no counts in the profile"
        stale=1
    elif [ -n "$counts" ]; then
        set -- $counts
        echo "check_pgo_profile: $f: $2 of $1 functions changed since the profile"
        [ $(($2 * 10)) -gt "$1" ] && stale=1
    else
        echo "check_pgo_profile: $f: every function matches"
    fi
done
if [ $stale -ne 0 ]; then
    echo "check_pgo_profile: the profile is stale: run bash scripts/pgo-train.sh"
    exit 1
fi
