#!/usr/bin/env bash
# Installs what building, testing and benchmarking Goldilocks needs, with
# apt-get, and only the packages that are missing: silent and quick when
# everything is there. Runs as root, or through sudo when available.
set -euo pipefail

# cmake, ninja-build, make: build;  gcc, g++, clang: instrumentation and the
# CLI tests;  libdw-dev, libelf-dev: DWARF symbolization of reports;
# libzstd-dev: trace compression;  pkg-config: finding those libraries;
# valgrind (helgrind, drd), hyperfine, gnuplot-nox: comparisons and
# benchmarks;  python3: test and benchmark helpers;  binutils: nm for tests.
PACKAGES=(cmake ninja-build make gcc g++ clang binutils libdw-dev libelf-dev libzstd-dev
          pkg-config valgrind hyperfine gnuplot-nox python3)

installed() {
    local status
    status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)
    [[ $status == "install ok installed" ]]
}

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-deps: no apt-get/dpkg here; install these (or your distribution's equivalents) by hand:" >&2
    echo "  ${PACKAGES[*]}" >&2
    for tool in cmake ninja cc; do
        command -v "$tool" >/dev/null 2>&1 || { echo "setup-deps: $tool is missing" >&2; exit 1; }
    done
    exit 0
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
    installed "$pkg" && continue
    # Any gnuplot flavour (gnuplot-qt, gnuplot-x11) will do.
    [[ $pkg == gnuplot-nox ]] && command -v gnuplot >/dev/null 2>&1 && continue
    missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "setup-deps: missing packages (${missing[*]}) and neither root nor sudo" >&2
    exit 1
fi

echo "setup-deps: installing ${missing[*]}"
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
echo "setup-deps: done"
