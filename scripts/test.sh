#!/usr/bin/env bash
# Installs missing dependencies, builds into build/ (or $GOLDI_BUILD_DIR) and
# runs the whole CTest suite. Extra arguments go to ctest (e.g. -L cli).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${GOLDI_BUILD_DIR:-build}

bash scripts/setup-deps.sh

# An existing build directory keeps the generator it was made with.
gen=(-G Ninja)
[[ -f $BUILD/CMakeCache.txt ]] && gen=()
cmake -S . -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD"
ctest --test-dir "$BUILD" --output-on-failure -j2 "$@"
