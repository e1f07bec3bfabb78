#!/usr/bin/env bash
# Tests of the goldi CLI wrapper, one case per invocation:
#   cli_test.sh CASE /path/to/goldi WORKDIR
# Exit 0 = pass, 77 = skipped (a tool is missing), anything else = fail.
# The runtime is the one next to goldi (../lib/libgoldi_rt.a) unless
# GOLDI_RUNTIME_DIR is set in the environment.
set -euo pipefail

CASE=$1
GOLDI=$(readlink -f "$2")
WORK=$3
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

rm -rf "$WORK"
mkdir -p "$WORK/tmp"
cd "$WORK"
# Temporary objects of the GCC split go here, so leaks are visible.
export TMPDIR="$WORK/tmp"
unset GOLDI_CC GOLDI_CXX GOLDI_CC_FAMILY GOLDI_CC_VERBOSE GOLDI_CLI_ACTIVE

fail() { echo "FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || { echo "SKIP: $1 not installed"; exit 77; }; }

write_sources() {
    cat > main.c <<'EOF'
#include <stdio.h>
int helper(int);
int shared_value;
int main(void) { shared_value = helper(41); printf("value %d\n", shared_value); return 0; }
EOF
    cat > helper.c <<'EOF'
int helper(int x) { return x + 1; }
EOF
}

# An executable linked by goldi: our runtime inside, no libtsan anywhere.
check_exe() {
    local exe=$1
    [[ -x $exe ]] || fail "$exe not produced"
    nm "$exe" | grep ' T __tsan_init$' >/dev/null || fail "$exe: __tsan_init not defined (runtime not linked)"
    if ldd "$exe" | grep -Ei 'tsan|clang_rt' >/dev/null; then
        ldd "$exe" >&2
        fail "$exe: depends on a sanitizer runtime library"
    fi
    # libtsan and clang's runtime are C++ (namespaces __tsan, __sanitizer); ours is C.
    if nm "$exe" | grep -E '_ZN6__tsan|_ZN11__sanitizer' >/dev/null; then
        fail "$exe: contains the TSan runtime"
    fi
}

check_tmp_clean() {
    [[ -z $(ls -A "$TMPDIR") ]] || fail "temporary files left in $TMPDIR: $(ls -A "$TMPDIR")"
}

# One-step compile+link with the given compiler family.
one_step() {
    write_sources
    "$GOLDI" cc -O1 -g main.c helper.c -o prog || fail "goldi cc main.c helper.c failed"
    check_exe prog
    check_tmp_clean
    out=$(./prog) || fail "prog exited $?"
    [[ $out == "value 42" ]] || fail "prog printed '$out'"
    echo "ok: one-step link with ${GOLDI_CC:-cc}"
}

case $CASE in
compile_only)
    write_sources
    "$GOLDI" cc -O1 -c main.c -o main.o || fail "compile failed"
    nm -u main.o | grep '__tsan_' >/dev/null || fail "main.o has no __tsan_ references: not instrumented"
    # A user who already asks for TSan does not get the flag twice.
    GOLDI_CC_VERBOSE=1 "$GOLDI" cc -fsanitize=thread -c helper.c -o helper.o 2> log.txt ||
        fail "compile with explicit -fsanitize=thread failed"
    n=$(grep -o -- '-fsanitize=thread' log.txt | wc -l)
    [[ $n -eq 1 ]] || { cat log.txt >&2; fail "-fsanitize=thread appears $n times"; }
    # -S too.
    "$GOLDI" cc -S helper.c -o helper.s || fail "-S failed"
    grep -q '__tsan_' helper.s || fail "-S output not instrumented"
    echo "ok: compile-only instruments"
    ;;
preprocess)
    # -E must see the TSan predefines (GCC: __SANITIZE_THREAD__).
    "$GOLDI" cc -E -dM -x c /dev/null > macros.txt || fail "-E failed"
    grep -q '__SANITIZE_THREAD__' macros.txt || fail "__SANITIZE_THREAD__ not defined under goldi cc -E"
    echo "ok: preprocess sees -fsanitize=thread"
    ;;
gcc_link)
    need gcc
    export GOLDI_CC=gcc
    one_step
    ;;
clang_link)
    need clang
    export GOLDI_CC=clang
    one_step
    ;;
link_only)
    need gcc
    export GOLDI_CC=gcc
    write_sources
    "$GOLDI" cc -c main.c -o main.o && "$GOLDI" cc -c helper.c -o helper.o || fail "compile failed"
    # -fsanitize=thread on a GCC link line would pull libtsan: goldi removes it.
    "$GOLDI" cc -fsanitize=thread main.o helper.o -o prog -lm || fail "link failed"
    check_exe prog
    ./prog > /dev/null || fail "prog failed"
    if command -v clang >/dev/null; then
        GOLDI_CC=clang "$GOLDI" cc -fsanitize=thread main.o helper.o -o progc || fail "clang link failed"
        check_exe progc
        ./progc > /dev/null || fail "progc failed"
    fi
    echo "ok: link-only"
    ;;
cxx_link)
    need g++
    cat > t.cc <<'EOF'
#include <thread>
#include <vector>
#include <cstdio>
int main() {
    std::vector<int> v(4, 0);
    std::vector<std::thread> ts;
    for (int i = 0; i < 4; i++) ts.emplace_back([&v, i] { v[i] = i * i; });
    for (auto &t : ts) t.join();
    std::printf("sum %d\n", v[0] + v[1] + v[2] + v[3]);
    return 0;
}
EOF
    "$GOLDI" c++ -O1 -g t.cc -o t || fail "goldi c++ failed"
    check_exe t
    check_tmp_clean
    out=$(./t) || fail "t exited $?"
    [[ $out == "sum 14" ]] || fail "t printed '$out'"
    echo "ok: c++"
    ;;
shared)
    write_sources
    for cc in gcc clang; do
        command -v $cc >/dev/null || continue
        GOLDI_CC=$cc "$GOLDI" cc -fPIC -shared helper.c -o libhelper-$cc.so || fail "$cc: -shared failed"
        if nm libhelper-$cc.so | grep -E ' [TtDdBb] __tsan_init$' >/dev/null; then
            fail "$cc: libhelper.so embeds the runtime"
        fi
        nm -D libhelper-$cc.so | grep ' U __tsan_' >/dev/null || fail "$cc: libhelper.so is not instrumented"
        ldd libhelper-$cc.so | grep -Ei 'tsan|clang_rt' >/dev/null && fail "$cc: libhelper.so depends on a sanitizer runtime"
        # The executable carries the runtime and exports the ABI to the library.
        GOLDI_CC=$cc "$GOLDI" cc main.c -L. -lhelper-$cc -Wl,-rpath,'$ORIGIN' -o prog-$cc ||
            fail "$cc: linking against the shared library failed"
        check_exe prog-$cc
        ./prog-$cc > /dev/null || fail "$cc: prog failed"
    done
    check_tmp_clean
    echo "ok: -shared does not embed the runtime"
    ;;
unknown_subcommand)
    set +e
    "$GOLDI" frobnicate > out.txt 2> err.txt
    rc=$?
    set -e
    [[ $rc -eq 2 ]] || fail "exit status $rc, expected 2"
    [[ $(wc -l < err.txt) -eq 1 ]] || fail "error is not one line: $(cat err.txt)"
    grep -q "unknown subcommand 'frobnicate'" err.txt || fail "unexpected message: $(cat err.txt)"
    [[ ! -s out.txt ]] || fail "stdout not empty"
    echo "ok: unknown subcommand"
    ;;
info)
    "$GOLDI" help | grep 'goldi cc\|cc ARGS' >/dev/null || fail "help text"
    "$GOLDI" --version | grep -E '^goldi [0-9]' >/dev/null || fail "--version"
    opts=$("$GOLDI" options) || fail "goldi options failed"
    for name in engine exitcode halt_on_error log_path report_limit verbosity symbolize print_stats help; do
        grep -q "^  $name " <<< "$opts" || fail "goldi options lacks $name"
    done
    "$GOLDI" options --markdown | grep '^| `exitcode` |' >/dev/null || fail "options --markdown"
    # Pass-through: what the compiler prints for --version / -dumpversion.
    [[ $("$GOLDI" cc -dumpversion) == $(cc -dumpversion) ]] || fail "-dumpversion not passed through"
    "$GOLDI" cc --version > /dev/null || fail "cc --version"
    echo "ok: help, version, options, pass-through"
    ;;
makefile_project)
    need make
    cp -r "$HERE/project/." .
    CC="$GOLDI cc" make > make.log 2>&1 || { cat make.log >&2; fail "make failed"; }
    check_exe app
    check_tmp_clean
    out=$(./app) || fail "app exited $?"
    [[ $out == "total 2000" ]] || fail "app printed '$out'"
    echo "ok: CC=\"goldi cc\" make"
    ;;
configure_checks)
    # The probes an autoconf configure script makes of $CC.
    CC="$GOLDI cc"
    cat > conftest.c <<'EOF'
#include <math.h>
int main(void) { volatile double x = 2.0; return sqrt(x) > 1.0 ? 0 : 1; }
EOF
    $CC -o conftest conftest.c -lm || fail "compile+link probe failed"
    ./conftest || fail "conftest did not run"
    $CC -c conftest.c || fail "object probe failed"
    [[ -f conftest.o ]] || fail "no conftest.o"
    $CC -E conftest.c > /dev/null || fail "preprocessor probe failed"
    $CC -v > /dev/null 2>&1 || fail "\$CC -v failed"
    if $CC -V > /dev/null 2>&1; then fail "\$CC -V unexpectedly succeeded"; fi
    echo 'int main(void){return 0;}' | $CC -x c - -o fromstdin || fail "stdin source failed"
    ./fromstdin || fail "fromstdin did not run"
    printf '%s\n' -O1 conftest.c '-o conftest2' -lm > args.rsp
    $CC @args.rsp || fail "response file failed"
    ./conftest2 || fail "conftest2 did not run"
    check_tmp_clean
    echo "ok: configure-style probes"
    ;;
aux_files)
    need gcc
    export GOLDI_CC=gcc
    write_sources
    mkdir -p out
    # One-step -MD and --coverage name their files after the output, as GCC does.
    "$GOLDI" cc -MD --coverage main.c helper.c -o out/app || fail "build failed"
    for f in out/app-main.d out/app-helper.d out/app-main.gcno out/app-helper.gcno; do
        [[ -f $f ]] || fail "$f missing (have: $(ls out))"
    done
    grep -q '^out/app:' out/app-main.d || fail "dependency target: $(head -1 out/app-main.d)"
    check_tmp_clean
    echo "ok: auxiliary files"
    ;;
cmake_project)
    need cmake
    gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    CC="$GOLDI cc" cmake -S "$HERE/cmake_project" -B build "${gen[@]}" > cmake.log 2>&1 ||
        { cat cmake.log >&2; fail "cmake configure failed"; }
    cmake --build build >> cmake.log 2>&1 || { cat cmake.log >&2; fail "cmake build failed"; }
    check_exe build/probe
    [[ $(./build/probe) == "probe ok" ]] || fail "probe output"
    echo "ok: CC=\"goldi cc\" cmake"
    ;;
*)
    echo "unknown case $CASE" >&2
    exit 2
    ;;
esac
