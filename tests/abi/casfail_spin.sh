#!/bin/sh
# Runs casfail_spin.c (100,000 failing CASes on a held lock) under the
# goldilocks engine and checks that the spin appended a handful of cells,
# not one per failed CAS: at most 999 (about 10 when every repeat is elided;
# ~100,000 when none is).
# usage: casfail_spin.sh <cc> <libgoldi_rt.a> <abi source dir> <work dir>
set -u
cc=$1 lib=$2 src=$3 work=$4
out=$(GOLDI_OPTIONS="engine=goldilocks print_stats=1" sh "$src/run_program.sh" "$cc" "$lib" \
      "$src/casfail_spin.c" "$work" 2>&1)
status=$?
echo "$out" | grep -E "casfail_spin:|cells_appended"
[ $status -eq 0 ] || { echo "casfail_spin: FAIL: status $status"; echo "$out" | tail -20; exit 1; }
cells=$(echo "$out" | sed -n 's/.*goldilocks\.cells_appended \([0-9]*\).*/\1/p')
[ -n "$cells" ] || { echo "casfail_spin: FAIL: no cells_appended line"; exit 1; }
if [ "$cells" -gt 999 ]; then
    echo "casfail_spin: FAIL: $cells cells appended: failed CASes were dispatched one by one"
    exit 1
fi
echo "casfail_spin: OK ($cells cells)"
