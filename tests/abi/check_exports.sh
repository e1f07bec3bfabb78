#!/bin/sh
# Exported-symbol check: every defined dynamic symbol of the shared runtime
# must match a pattern of the allow-list (STYLE.md 2: export only __tsan_*,
# public goldi_* and intercepted libc names). Lists the strays and fails.
# usage: check_exports.sh <libgoldi_rt.so> <allowlist>
set -u -f   # -f: the allow-list patterns must not glob against files
lib=$1 allow=$2
[ -f "$lib" ] || { echo "exports: $lib not found"; exit 1; }
patterns=$(grep -v '^[[:space:]]*#' "$allow" | grep -v '^[[:space:]]*$')
syms=$(nm -D --defined-only "$lib" | awk 'NF >= 3 {print $3}' | sed 's/@.*//' | sort -u)
[ -n "$syms" ] || { echo "exports: no dynamic symbols in $lib?"; exit 1; }
stray=""
total=0
for s in $syms; do
    total=$((total + 1))
    ok=0
    for p in $patterns; do
        # shellcheck disable=SC2254
        case $s in $p) ok=1; break ;; esac
    done
    [ $ok = 1 ] || stray="$stray $s"
done
if [ -n "$stray" ]; then
    echo "exports: FAIL: $(basename "$lib") exports names outside $(basename "$allow"):"
    for s in $stray; do echo "  $s"; done
    exit 1
fi
echo "exports: OK ($total exported names, all allowed)"
