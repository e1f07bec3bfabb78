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
#   // ENGINES: goldilocks vc      (optional; other engines are skipped, exit 77)
#   // ARGS: ...                   (optional program arguments)
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

verdict=$(sed -n 's|^// VERDICT: *\([a-z]*\).*|\1|p' "$src" | head -1)
case $verdict in
  race|norace) ;;
  *) echo "FAIL: $src has no '// VERDICT: race|norace' line"; exit 1 ;;
esac
engines=$(sed -n 's|^// ENGINES: *||p' "$src" | head -1)
[ -n "$engines" ] || engines="goldilocks vc fasttrack"
[ "$engine" = compile ] && engines=compile
case " $engines " in
  *" $engine "*) ;;
  *) echo "SKIP: engine '$engine' is not in ENGINES ($engines)"; exit 77 ;;
esac
args=$(sed -n 's|^// ARGS: *||p' "$src" | head -1)

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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/goldi-race.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prebuilt="$build/races-bin/$compiler/$(basename "${src%.*}")"
prog="$tmp/$(basename "${src%.*}")"
[ "$engine" = compile ] && { mkdir -p "$(dirname "$prebuilt")"; prog=$prebuilt; }

compile=("$goldi" "$sub" -O1 -g -pthread "$src" -o "$prog")
if [ "$engine" != compile ] && [ -x "$prebuilt" ] && [ "$prebuilt" -nt "$src" ] && [ "$prebuilt" -nt "$goldi" ]; then
  prog=$prebuilt
elif ! "${compile[@]}" >"$tmp/cc.out" 2>&1; then
  echo "FAIL: compilation failed"
  echo "command: GOLDI_CC=${GOLDI_CC:-} GOLDI_CXX=${GOLDI_CXX:-} ${compile[*]}"
  cat "$tmp/cc.out"
  exit 1
fi

if [ "$engine" = compile ]; then
  echo "PASS: $(basename "$src") [$compiler] compiled"
  exit 0
fi

opts="engine=$engine${GOLDI_RACE_TEST_OPTIONS:+ $GOLDI_RACE_TEST_OPTIONS}"
# shellcheck disable=SC2086
GOLDI_OPTIONS="$opts" timeout 60 "$prog" $args >"$tmp/stdout" 2>"$tmp/stderr"
status=$?

fail() {
  echo "FAIL: $1"
  echo "verdict: $verdict   compiler: $compiler   engine: $engine"
  echo "compile: GOLDI_CC=${GOLDI_CC:-} GOLDI_CXX=${GOLDI_CXX:-} ${compile[*]}"
  echo "run:     GOLDI_OPTIONS=\"$opts\" $prog $args"
  echo "exit status: $status$([ $status -eq 124 ] && echo ' (timeout after 60 s)')"
  echo "---- stderr ----"
  cat "$tmp/stderr"
  echo "---- stdout ----"
  cat "$tmp/stdout"
  exit 1
}

if [ "$verdict" = race ]; then
  [ $status -eq 66 ] || fail "expected exit status 66 (race reported)"
  grep -qF "WARNING: Goldilocks: data race" "$tmp/stderr" || fail "no 'WARNING: Goldilocks: data race' in stderr"
  while IFS= read -r chk; do
    [ -n "$chk" ] || continue
    grep -qF -- "$chk" "$tmp/stderr" || fail "CHECK '$chk' not found in stderr"
  done < <(sed -n 's|^// CHECK: *||p' "$src")
else
  grep -qF "WARNING: Goldilocks" "$tmp/stderr" && fail "unexpected Goldilocks warning in a race-free program"
  [ $status -eq 0 ] || fail "expected exit status 0"
fi
echo "PASS: $(basename "$src") [$compiler/$engine] verdict $verdict"
exit 0
