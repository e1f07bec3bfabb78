#!/bin/sh
# The runtime is linked into every instrumented executable, so its
# initialised data is copied into each of those files. Large tables must be
# zero-initialised (.bss costs nothing on disk); one initialised struct that
# embeds a big array once put 12 MiB into every test binary and filled the
# CI machine's disk. Fails if the runtime's .data (and .rodata) exceed a
# budget, naming the largest initialised objects.
# usage: check_data_size.sh <libgoldi_rt.so>
set -u
lib=$1
budget=262144
[ -f "$lib" ] || { echo "data size: $lib not found"; exit 1; }
sum=$(size -A "$lib" | awk '$1 == ".data" || $1 == ".rodata" || $1 == ".data.rel.ro" {s += $2} END {print s + 0}')
if [ "$sum" -gt "$budget" ]; then
    echo "data size: FAIL: initialised data $sum bytes > budget $budget; largest objects:"
    nm -S --size-sort "$lib" | awk '$3 ~ /^[dDrR]$/' | tail -5 | sed 's/^/  /'
    exit 1
fi
echo "data size: OK ($sum bytes of initialised data in $(basename "$lib"), budget $budget)"
