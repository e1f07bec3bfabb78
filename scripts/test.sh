#!/usr/bin/env bash
# Installs missing dependencies, builds into build/ (or $GOLDI_BUILD_DIR) and
# runs the whole CTest suite. Extra arguments go to ctest (e.g. -L cli).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${GOLDI_BUILD_DIR:-build}

bash scripts/setup-deps.sh

# configure_and_build DIR: an existing build directory keeps the generator it
# was made with (and the compiler: CC only matters the first time).
configure_and_build() {
    local gen=(-G Ninja)
    [[ -f $1/CMakeCache.txt ]] && gen=()
    cmake -S . -B "$1" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo
    cmake --build "$1"
}

configure_and_build "$BUILD"
ctest --test-dir "$BUILD" --output-on-failure -j2 "$@"

# The project is compiled with Clang when no compiler is named (CMakeLists.txt);
# a full run also builds it with GCC and runs the unit, ABI and goldilocks race
# tests there, so either compiler's runtime stays correct (GOLDI_TEST_GCC=0 skips).
if [[ $# -eq 0 && ${GOLDI_TEST_GCC:-1} != 0 && -z ${CC:-} ]] && command -v gcc >/dev/null 2>&1; then
    GCC_BUILD=$BUILD-gcc
    CC=gcc configure_and_build "$GCC_BUILD"
    ctest --test-dir "$GCC_BUILD" --output-on-failure -j2 -L "unit|abi"
    ctest --test-dir "$GCC_BUILD" --output-on-failure -j2 -R "races/(gcc|clang)/(compile|goldilocks)/"
fi
