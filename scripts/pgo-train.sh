#!/usr/bin/env bash
# scripts/pgo-train.sh: renews pgo/goldi_rt.profdata, the profile the runtime
# is compiled with (CMakeLists.txt, GOLDI_PGO). It builds a runtime that
# counts its branches (GOLDI_PGO=generate) in build-pgo-gen, runs the bench
# workloads on it at small sizes (each compiled by Clang and by GCC, with 2
# and 4 threads) and merges their counts. The workloads themselves are not
# instrumented for it: only the profile runtime is linked in.
#
#   bash scripts/pgo-train.sh        (about 3 minutes on 2 cores)
#
# Run it after a change to the runtime: clang compiles a function whose code
# changed since the profile was made without its counts. Needs Clang and
# llvm-profdata (Debian: llvm).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gen=${PGO_BUILD:-$root/build-pgo-gen}
profdata=$(command -v llvm-profdata || command -v llvm-profdata-14 || true)
[[ -n $profdata ]] || { echo "pgo-train: needs llvm-profdata (apt-get install llvm)" >&2; exit 2; }
profrt="$(clang -print-resource-dir)/lib/linux/libclang_rt.profile-x86_64.a"
[[ -f $profrt ]] || { echo "pgo-train: no $profrt (Clang's profile runtime)" >&2; exit 2; }

cmake -S "$root" -B "$gen" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
      -DGOLDI_PGO=generate > /dev/null
ninja -C "$gen" goldi goldi_rt > /dev/null
work=$(mktemp -d /tmp/goldi-pgo.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Small sizes: the counters are shared by the threads, so an instrumented run
# is several times slower than the suite's (bench/run.sh has the real sizes).
sizes="stencil:400 lu:400 nbody:600 blackscholes:20000 radix:500000 sharedspot:300000
       localspot:10000000 multiset:100000 lockfree:200000 pipeline:50000 hashtable:300000
       threadpool:50000 threadchurn:2000"
for ws in $sizes; do
  w=${ws%%:*} n=${ws#*:}
  for cc in clang gcc; do
    exe=$work/${cc}_$w
    GOLDI_CC=$cc "$gen/bin/goldi" cc -O2 -g -pthread -I"$root/bench/workloads" "$root/bench/workloads/$w.c" \
      -o "$exe" -lm "$profrt" -Wl,-u,__llvm_profile_runtime
    for t in 2 4; do
      LLVM_PROFILE_FILE="$work/raw/$cc-$w-$t-%p.profraw" "$exe" -t "$t" -n "$n" -q > /dev/null
    done
  done
  echo "pgo-train: $w"
done
mkdir -p "$root/pgo"
"$profdata" merge -o "$root/pgo/goldi_rt.profdata" "$work"/raw/*.profraw
echo "pgo-train: wrote pgo/goldi_rt.profdata ($(stat -c %s "$root/pgo/goldi_rt.profdata") bytes)"
