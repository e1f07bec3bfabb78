#!/usr/bin/env bash
# run_race_test.sh COMPILER ENGINE SRC BUILD_DIR
#
# One corpus test: compile SRC with `goldi cc` (or `goldi c++` for .cpp) using
# COMPILER (gcc or clang), run it under GOLDI_OPTIONS=engine=ENGINE, and check
# the outcome against the program's header. ENGINE "compile" only builds the
# program into BUILD_DIR/races-bin/COMPILER/ (a CTest fixture), and the engine
# runs then reuse that binary instead of compiling again.
#   // VERDICT: race | norace     (required)
#   // CHECK: <substring>          (race only: must appear in stderr; repeatable)
#   // ABSENT: <substring>         (must not appear in stderr; repeatable)
#   // ENGINES: goldilocks vc      (optional; other engines are skipped, exit 77)
#   // ARGS: ...                   (optional program arguments)
#   // LIB: lib/name.c             (optional: a C library the program loads, path
#                                   relative to SRC's directory; built with
#                                   `goldi cc -shared -fPIC` next to the program
#                                   and passed as its first argument)
# race:   exit status 66, stderr has "WARNING: Goldilocks: data race" and every CHECK.
# norace: exit status 0 and no "WARNING: Goldilocks" at all.
# Extra runtime options can be added with GOLDI_RACE_TEST_OPTIONS (appended).
set -u
if [ $# -ne 4 ]; then
  echo "usage: $0 COMPILER ENGINE SRC BUILD_DIR" >&2
  exit 2
fi
compiler=$1 engine=$2 src=$3 build=$4
goldi="$build/bin/goldi"

# The header, read with bash builtins only: a corpus run forks little besides
# the program (process creation dominates these tests on small VMs).
verdict= engines= args= libsrc= checks=() absents=()
mapfile -t lines < "$src"
for line in "${lines[@]}"; do
  case $line in
    "// VERDICT:"*)
      if [ -z "$verdict" ]; then
        v=${line#// VERDICT:}
        v=${v#"${v%%[! ]*}"}
        verdict=${v%%[!a-z]*}
        [ -n "$verdict" ] || verdict=invalid
      fi ;;
    "// ENGINES:"*) [ -n "$engines" ] || { v=${line#// ENGINES:}; engines=${v#"${v%%[! ]*}"}; } ;;
    "// ARGS:"*) [ -n "$args" ] || { v=${line#// ARGS:}; args=${v#"${v%%[! ]*}"}; } ;;
    "// LIB:"*) [ -n "$libsrc" ] || { v=${line#// LIB:}; libsrc=${v#"${v%%[! ]*}"}; } ;;
    "// CHECK:"*) v=${line#// CHECK:}; checks+=("${v#"${v%%[! ]*}"}") ;;
    "// ABSENT:"*) v=${line#// ABSENT:}; absents+=("${v#"${v%%[! ]*}"}") ;;
  esac
done
case $verdict in
  race|norace) ;;
  *) echo "FAIL: $src has no '// VERDICT: race|norace' line"; exit 1 ;;
esac
[ -n "$engines" ] || engines="goldilocks vc fasttrack"
[ "$engine" = compile ] && engines=compile
case " $engines " in
  *" $engine "*) ;;
  *) echo "SKIP: engine '$engine' is not in ENGINES ($engines)"; exit 77 ;;
esac

if [ ! -x "$goldi" ]; then
  echo "FAIL: goldi CLI not found at $goldi (build the 'goldi' target first)"
  exit 1
fi

case $src in
  *.cpp|*.cc|*.cxx)
    sub=c++
    case $compiler in gcc) export GOLDI_CXX=g++ ;; clang) export GOLDI_CXX=clang++ ;; *) export GOLDI_CXX=$compiler ;; esac
    ;;
  *)
    sub=cc
    export GOLDI_CC=$compiler
    ;;
esac

name=${src##*/}
name=${name%.*}
bindir="$build/races-bin/$compiler"
prebuilt="$bindir/$name"
out="$bindir/$name.$engine"   # output files, kept for a look after a failure
prog=$prebuilt
# An engine run reuses the compile fixture's binary. One that is missing or
# stale (a run outside CTest) is built first, under the engine's own name so
# that parallel runs of one program do not write the same file.
# The library, if any, is named after the program's binary: each binary
# loads its own copy, and parallel builds never write the same file.
fresh=false
rt="$build/lib/libgoldi_rt.a"   # (linked into the binary: ninja relinks it without relinking goldi)
[ "$engine" != compile ] && [ -x "$prebuilt" ] && [ "$prebuilt" -nt "$src" ] && [ "$prebuilt" -nt "$goldi" ] &&
  { [ ! -e "$rt" ] || [ "$prebuilt" -nt "$rt" ]; } && fresh=true
if [ -n "$libsrc" ]; then
  case $src in */*) libsrc=${src%/*}/$libsrc ;; esac
  libname=${libsrc##*/}
  libname=lib${libname%.*}.so
  $fresh && { [ "$prebuilt-$libname" -nt "$libsrc" ] || fresh=false; }
fi
[ "$engine" = compile ] || $fresh || prog="$out.bin"
compile=("$goldi" "$sub" -O1 -g -pthread "$src" -o "$prog")
lib_compile=()
if [ -n "$libsrc" ]; then
  lib=$prog-$libname
  lib_compile=("$goldi" cc -O1 -g -shared -fPIC "$libsrc" -o "$lib")
  args="$lib${args:+ $args}"
fi
if ! $fresh; then
  mkdir -p "$bindir"
  if [ -n "$libsrc" ] && ! GOLDI_CC=$compiler "${lib_compile[@]}" >"$out.cc" 2>&1; then
    echo "FAIL: compilation of the library failed"
    echo "command: GOLDI_CC=$compiler ${lib_compile[*]}"
    cat "$out.cc"
    exit 1
  fi
  if ! "${compile[@]}" >"$out.cc" 2>&1; then
    echo "FAIL: compilation failed"
    echo "command: GOLDI_CC=${GOLDI_CC:-} GOLDI_CXX=${GOLDI_CXX:-} ${compile[*]}"
    cat "$out.cc"
    exit 1
  fi
fi

if [ "$engine" = compile ]; then
  echo "PASS: ${src##*/} [$compiler] compiled"
  exit 0
fi

opts="engine=$engine${GOLDI_RACE_TEST_OPTIONS:+ $GOLDI_RACE_TEST_OPTIONS}"
# shellcheck disable=SC2086
GOLDI_OPTIONS="$opts" timeout 60 "$prog" $args >"$out.stdout" 2>"$out.stderr"
status=$?

fail() {
  echo "FAIL: $1"
  echo "verdict: $verdict   compiler: $compiler   engine: $engine"
  echo "compile: GOLDI_CC=${GOLDI_CC:-} GOLDI_CXX=${GOLDI_CXX:-} ${compile[*]}"
  echo "run:     GOLDI_OPTIONS=\"$opts\" $prog $args"
  echo "exit status: $status$([ $status -eq 124 ] && echo ' (timeout after 60 s)')"
  echo "---- stderr ----"
  cat "$out.stderr"
  echo "---- stdout ----"
  cat "$out.stdout"
  exit 1
}

err_text=
IFS= read -r -d '' err_text < "$out.stderr"
if [ "$verdict" = race ]; then
  [ $status -eq 66 ] || fail "expected exit status 66 (race reported)"
  [[ $err_text == *"WARNING: Goldilocks: data race"* ]] || fail "no 'WARNING: Goldilocks: data race' in stderr"
  for chk in "${checks[@]}"; do
    [ -n "$chk" ] || continue
    [[ $err_text == *"$chk"* ]] || fail "CHECK '$chk' not found in stderr"
  done
else
  [[ $err_text == *"WARNING: Goldilocks"* ]] && fail "unexpected Goldilocks warning in a race-free program"
  [ $status -eq 0 ] || fail "expected exit status 0"
fi
for chk in "${absents[@]}"; do
  [ -n "$chk" ] || continue
  [[ $err_text == *"$chk"* ]] && fail "ABSENT '$chk' found in stderr"
done
echo "PASS: ${src##*/} [$compiler/$engine] verdict $verdict"
exit 0
