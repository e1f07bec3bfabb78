#!/usr/bin/env bash
# The one-command demo: installs missing dependencies, builds Goldilocks into
# build/ (or $GOLDI_BUILD_DIR), compiles the two bank examples with
# `goldi cc` and runs them. Expected: bank_ok exits 0 with no warning;
# bank_racy reports data races and exits 66. Exit 0 iff both behave.
# GOLDI_CC picks the underlying compiler (default gcc; try GOLDI_CC=clang).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${GOLDI_BUILD_DIR:-build}
export GOLDI_CC=${GOLDI_CC:-gcc}

step() { printf '\n==> %s\n' "$*"; }

step "Installing missing dependencies (scripts/setup-deps.sh)"
bash scripts/setup-deps.sh

step "Configuring and building into $BUILD/"
gen=(-G Ninja)
[[ -f $BUILD/CMakeCache.txt ]] && gen=()
log=$(mktemp)
cmake -S . -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$log" 2>&1 ||
    { cat "$log"; rm -f "$log"; exit 1; }
rm -f "$log"
cmake --build "$BUILD"

GOLDI=$PWD/$BUILD/bin/goldi
OUT=$BUILD/demo
mkdir -p "$OUT"
for prog in bank_ok bank_racy; do
    step "Compiling examples/$prog.c: goldi cc -O1 -g (GOLDI_CC=$GOLDI_CC)"
    echo "\$ $BUILD/bin/goldi cc -O1 -g examples/$prog.c -o $OUT/$prog"
    "$GOLDI" cc -O1 -g "$PWD/examples/$prog.c" -o "$OUT/$prog"
done

# Runs one example; sets rc and leaves its stderr in $OUT/<prog>.stderr.
run() {
    local prog=$1
    echo "\$ $OUT/$prog"
    set +e
    "$OUT/$prog" 2> "$OUT/$prog.stderr"
    rc=$?
    set -e
    cat "$OUT/$prog.stderr"
    echo "(exit status $rc)"
}

ok=1
step "Running the race-free program: expect exit 0 and no warning"
run bank_ok
if [[ $rc -ne 0 ]] || grep -q 'WARNING: Goldilocks' "$OUT/bank_ok.stderr"; then
    echo "UNEXPECTED: bank_ok should exit 0 without warnings"
    ok=0
else
    echo "as expected: no race reported"
fi

step "Running the racy program: expect data race reports and exit 66"
run bank_racy
races=$(grep -c 'WARNING: Goldilocks: data race' "$OUT/bank_racy.stderr" || true)
if [[ $rc -ne 66 || $races -eq 0 ]]; then
    echo "UNEXPECTED: bank_racy should report races and exit 66 (got $races report(s), exit $rc)"
    ok=0
else
    echo "as expected: $races race report(s), exit 66"
fi

echo
if [[ $ok -eq 1 ]]; then
    echo "demo: OK"
else
    echo "demo: FAILED"
    exit 1
fi
