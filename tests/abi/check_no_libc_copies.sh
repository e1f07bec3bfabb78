#!/bin/sh
# The runtime must not call memcpy, memset or memmove by name: in an
# instrumented program those names are the runtime's own interceptors, so a
# copy the compiler emitted for a struct assignment or an array
# initialisation inside the runtime would be recorded as the program's
# access (or re-enter the runtime). The runtime copies with goldi_memcpy and
# goldi_memset. Lists the objects that reference them and fails.
# usage: check_no_libc_copies.sh <libgoldi_rt.a>
set -u
lib=$1
[ -f "$lib" ] || { echo "copies: $lib not found"; exit 1; }
refs=$(nm -A -u "$lib" | awk '$NF ~ /^(memcpy|memset|memmove)$/ {print}')
if [ -n "$refs" ]; then
    echo "copies: FAIL: runtime objects call libc's copy routines by name:"
    echo "$refs" | sed 's/^/  /'
    exit 1
fi
echo "copies: OK (no memcpy/memset/memmove references in $(basename "$lib"))"
