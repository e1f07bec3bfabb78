#!/bin/sh
# ABI probe: compiles probe_c.c and probe_cxx.cpp with GCC and Clang under
# -fsanitize=thread (-O0/-O2, plus the flags that unlock extra entry points:
# volatile distinction, compound read-write, -mcx16), then checks that every
# __tsan_* symbol the objects reference is defined by the runtime archive.
# Fails listing the missing symbols. Also fails if the probe stops producing
# the entry points listed in probe_expected.txt (a vacuous probe proves nothing).
# usage: probe.sh <libgoldi_rt.a> <source dir> <work dir>
set -u
lib=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
n=0 fail=0

compile() {  # compiler name file flags...
    cc=$1 name=$2 file=$3
    shift 3
    command -v "$cc" >/dev/null 2>&1 || { echo "probe: $cc not found, skipped"; return; }
    if "$cc" -w -fsanitize=thread "$@" -c "$src/$file" -o "$work/$name.o" 2>"$work/$name.err"; then
        n=$((n + 1))
    else
        echo "probe: FAILED to compile $file with $cc $*:"; cat "$work/$name.err"; fail=1
    fi
}

for o in -O0 -O2; do
    compile gcc "gcc_c$o" probe_c.c "$o"
    compile clang "clang_c$o" probe_c.c "$o"
    compile g++ "gcc_cxx$o" probe_cxx.cpp -std=gnu++17 "$o"
    compile clang++ "clang_cxx$o" probe_cxx.cpp -std=gnu++17 "$o"
done
compile gcc gcc_c_vol probe_c.c -O2 --param=tsan-distinguish-volatile=1
compile g++ gcc_cxx_vol probe_cxx.cpp -std=gnu++17 -O1 --param=tsan-distinguish-volatile=1
compile gcc gcc_c_cx16 probe_c.c -O2 -mcx16
compile clang clang_c_vol probe_c.c -O2 -mllvm -tsan-distinguish-volatile=1 \
    -mllvm -tsan-compound-read-before-write=1
compile clang clang_c_cx16 probe_c.c -O1 -mcx16
compile clang++ clang_cxx_cx16 probe_cxx.cpp -std=gnu++17 -O2 -mcx16 \
    -mllvm -tsan-distinguish-volatile=1 -mllvm -tsan-compound-read-before-write=1

[ "$n" -gt 0 ] || { echo "probe: no compiler produced an object"; exit 1; }

nm -u "$work"/*.o | sed -n 's/^ *U \(__tsan_[A-Za-z0-9_]*\)$/\1/p' | sort -u >"$work/used.txt"
nm --defined-only "$lib" 2>/dev/null | awk '$2 ~ /^[TW]$/ && $3 ~ /^__tsan_/ {print $3}' |
    sort -u >"$work/defined.txt"
comm -23 "$work/used.txt" "$work/defined.txt" >"$work/missing.txt"
echo "probe: $n objects, $(wc -l <"$work/used.txt") distinct __tsan_* symbols used," \
     "$(wc -l <"$work/defined.txt") defined by $(basename "$lib")"
if [ -s "$work/missing.txt" ]; then
    echo "probe: FAIL: used by instrumented code but not defined by the runtime:"
    sed 's/^/  /' "$work/missing.txt"
    fail=1
fi
grep -v '^#' "$src/probe_expected.txt" | grep . | sort -u | comm -23 - "$work/used.txt" >"$work/unseen.txt"
if [ -s "$work/unseen.txt" ]; then
    echo "probe: FAIL: the probe no longer makes the compilers emit:"
    sed 's/^/  /' "$work/unseen.txt"
    fail=1
fi
[ "$fail" = 0 ] && echo "probe: OK"
exit $fail
