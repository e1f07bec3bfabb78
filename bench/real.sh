#!/usr/bin/env bash
# bench/real.sh: two real multithreaded programs, xz 5.4.1 and zstd 1.5.4, built
# from Debian's source tarballs (pinned by sha256) once per variant, compress
# the same input with 4 threads:
#
#   bash bench/real.sh [--full] [--runs N] [--only xz|zstd] [--valgrind] [--out DIR]
#
# Variants (same -O2 -g -pthread everywhere): native (cc), tsan-gcc, tsan-clang
# (-fsanitize=thread), goldi-gcc, goldi-clang (GOLDI_CC=gcc|clang goldi cc).
# Runs: xz -T4 -6 -c on 2 MiB (and on 8 MiB with --full), zstd -T4 -3 -c on
# 80 MiB. The inputs are the files of the two unpacked source trees,
# concatenated in sorted order, repeated and cut to size: the same bytes for
# everyone. --valgrind adds Helgrind and DRD on the native binary at 1/16 of
# each input (native is timed there too).
# RUNS rounds, interleaved: each round runs every variant once, back to back.
# Every run's exit status (0; 66 = goldi reported a race) and race reports are
# recorded, and its output must be byte-identical to native's (else BADOUT).
# Writes OUT/real.csv (every run) and OUT/real.md (the table, also printed on
# stdout); OUT is bench/results unless --out. Progress goes to stderr.
#
# Environment knobs (defaults in brackets):
#   GOLDI [build/bin/goldi]  RUNS [3]  CC_NATIVE [cc]  JOBS [nproc]: make -j
#   GOLDI_BENCH_CACHE [~/.cache/goldi-bench]: downloads, source trees, builds,
#   build logs, inputs, and the stderr of each cell's last run
#   RUN_TIMEOUT [600] s per run  VG_TIMEOUT [300] s per Valgrind run
#   GOLDI_OPTIONS: passed as is to the goldi variants (recorded in real.md)
# Builds are cached. The goldi variants are relinked on every run (their
# runtime, <dir of goldi>/../lib/libgoldi_rt.a or GOLDI_RUNTIME_DIR, may have
# changed) and rebuilt from scratch when the compile command that goldi cc
# runs changes (as GOLDI_CC_VERBOSE=1 shows it), or the compiler's version.
set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH")
CMDLINE="bash bench/real.sh${*:+ $*}"
T0=$EPOCHREALTIME

XZ_URL=http://deb.debian.org/debian/pool/main/x/xz-utils/xz-utils_5.4.1.orig.tar.xz
XZ_SHA256=5d9827aa1875b21c288f78864bb26d2650b436ea8d2cad364e4921eb6266a5a5
XZ_DIR=xz-5.4.1
ZSTD_URL=http://deb.debian.org/debian/pool/main/libz/libzstd/libzstd_1.5.4+dfsg2.orig.tar.xz
ZSTD_SHA256=8cf4bbb65e77ec348d052c8d6230eba66d435bddf64c8b5be2fcb16880c19953
ZSTD_DIR=zstd-1.5.4
MIB=1048576

full=0 only="" valgrind=0 out="" runs_opt=""
value() { # option, the words left -> the option's value, or exit 2
    if [ $# -lt 2 ] || [ -z "$2" ]; then echo "real.sh: $1 needs a value (try --help)" >&2; exit 2; fi
    echo "$2"
}
while [ $# -gt 0 ]; do
    case "$1" in
    --full) full=1 ;;
    --runs|--only|--out)
        v=$(value "$@")
        case $1 in --runs) runs_opt=$v ;; --only) only=$v ;; --out) out=$v ;; esac
        shift ;;
    --runs=*) runs_opt=${1#--runs=} ;;
    --only=*) only=${1#--only=} ;;
    --valgrind) valgrind=1 ;;
    --out=*) out=${1#--out=} ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "real.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done
RUNS=${runs_opt:-${RUNS:-3}}
case $RUNS in ''|*[!0-9]*|0) echo "real.sh: --runs needs a positive integer, not '$RUNS'" >&2; exit 2 ;; esac
case $only in ''|xz|zstd) ;; *) echo "real.sh: --only takes xz or zstd, not '$only'" >&2; exit 2 ;; esac
OUT=${out:-$BENCH/results}
CACHE=${GOLDI_BENCH_CACHE:-$HOME/.cache/goldi-bench}
GOLDI_BIN=${GOLDI:-$ROOT/build/bin/goldi}
CC_NATIVE=${CC_NATIVE:-cc}
JOBS=${JOBS:-$(nproc)}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
VG_TIMEOUT=${VG_TIMEOUT:-300}
CFLAGS="-O2 -g -pthread"
VARIANTS="native tsan-gcc tsan-clang goldi-gcc goldi-clang"
PROGRAMS=${only:-xz zstd}

mkdir -p "$OUT" "$CACHE"/{dl,src,build,logs,inputs}
TMP=$(mktemp -d /tmp/goldi-real.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

elapsed() { awk -v a="$T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
log() { printf '[%6.1fs] %s\n' "$(elapsed)" "$*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }
NOTES=$TMP/notes; : >"$NOTES"   # one line each, for real.md
note() { echo "$*" >>"$NOTES"; log "note: $*"; }

# ------------------------------------------------------------- sources ----
fetch() { # url sha256 -> the verified tarball under CACHE/dl
    local url=$1 want=$2 f got err
    f=$CACHE/dl/${url##*/}
    if [ -f "$f" ] && [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$want" ]; then return; fi
    log "downloading $url"
    if ! err=$(curl -fsS --retry 2 -o "$f.part" "$url" 2>&1); then
        rm -f "$f.part"
        echo "real.sh: download failed: $url: $(echo "$err" | tail -n 1)" >&2
        exit 1
    fi
    got=$(sha256sum "$f.part" | cut -d' ' -f1)
    if [ "$got" != "$want" ]; then
        rm -f "$f.part"
        echo "real.sh: sha256 mismatch for $url: got $got, want $want" >&2
        exit 1
    fi
    mv "$f.part" "$f"
}
unpack() { # url dir -> CACHE/src/dir, a pristine tree (builds use copies or build dirs)
    local f=$CACHE/dl/${1##*/} dir=$2
    [ -f "$CACHE/src/$dir.ok" ] && [ -d "$CACHE/src/$dir" ] && return
    rm -rf "${CACHE:?}/src/$dir" "$CACHE/src/$dir.tmp"
    mkdir -p "$CACHE/src/$dir.tmp"
    tar -xJf "$f" -C "$CACHE/src/$dir.tmp"
    [ -d "$CACHE/src/$dir.tmp/$dir" ] || { echo "real.sh: $f does not unpack to $dir/" >&2; exit 1; }
    mv "$CACHE/src/$dir.tmp/$dir" "$CACHE/src/$dir"
    rm -rf "$CACHE/src/$dir.tmp"
    touch "$CACHE/src/$dir.ok"
}
# Both trees are needed for the inputs, whichever program runs.
fetch "$XZ_URL" "$XZ_SHA256"
fetch "$ZSTD_URL" "$ZSTD_SHA256"
unpack "$XZ_URL" "$XZ_DIR"
unpack "$ZSTD_URL" "$ZSTD_DIR"

# --------------------------------------------------------------- builds ----
for tool in gcc clang curl; do have "$tool" || { echo "real.sh: $tool not found" >&2; exit 1; }; done
goldi_ok=1
if [ ! -x "$GOLDI_BIN" ]; then
    goldi_ok=0
    note "goldi-gcc, goldi-clang skipped: $GOLDI_BIN does not exist (set GOLDI=/path/to/goldi)"
fi
cc_of() { # variant -> CC
    case $1 in
    native) echo "$CC_NATIVE" ;;
    tsan-gcc) echo "gcc -fsanitize=thread" ;;
    tsan-clang) echo "clang -fsanitize=thread" ;;
    goldi-*) echo "$GOLDI_BIN cc" ;;
    esac
}
env_of() { # variant -> NAME=VALUE words for env(1): the compiler goldi drives
    case $1 in goldi-*) echo "GOLDI_CC=${1#goldi-}" ;; *) echo "-u GOLDI_CC" ;; esac
}
stamp_of() { # variant -> what its build depends on besides the sources
    local c
    case $1 in native) c=$CC_NATIVE ;; *gcc) c=gcc ;; *clang) c=clang ;; esac
    printf '%s\n' "CC=$(cc_of "$1") $(env_of "$1")" "CFLAGS=$CFLAGS" "$($c --version | head -n 1)"
    # goldi: the compile command it runs (its own binary changes with every
    # engine change, which the objects do not depend on; the runtime is
    # picked up by the relink).
    case $1 in goldi-*)
        local -a cf
        read -r -a cf <<<"$CFLAGS"
        printf 'int main(void) { return 0; }\n' >"$TMP/probe.c"
        (cd "$TMP" && env GOLDI_CC="${1#goldi-}" GOLDI_CC_VERBOSE=1 "$GOLDI_BIN" cc "${cf[@]}" -c probe.c -o probe.o 2>&1) ||
            echo "goldi cc failed"
    esac
}
declare -A EXE=()   # prog/variant -> binary, for the variants that built
build_failed() { # prog variant log why
    echo "---- tail of $3 ----" >&2
    tail -n 25 "$3" >&2 || true
    echo "----" >&2
    note "$1 $2 skipped: $4 (log: $3)"
}
# xz: out-of-tree configure, then only liblzma and src/xz/xz.
build_xz() { # variant
    local v=$1 dir=$CACHE/build/xz/$1 log=$CACHE/logs/build-xz-$1.log want
    local exe=$dir/src/xz/xz
    local -a e
    read -r -a e <<<"$(env_of "$v")"
    want=$(stamp_of "$v")
    if [ -x "$exe" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$want" ]; then
        case $v in
        goldi-*)
            log "relinking xz $v"
            rm -f "$exe"
            if ! env "${e[@]}" make -C "$dir/src/xz" xz >>"$log" 2>&1 || [ ! -x "$exe" ]; then
                build_failed xz "$v" "$log" "relink failed"; return
            fi ;;
        *) log "xz $v: cached" ;;
        esac
        EXE[xz/$v]=$exe; return
    fi
    log "building xz $v (log: $log)"
    rm -rf "$dir"; mkdir -p "$dir"
    if ! (cd "$dir" && env "${e[@]}" "$CACHE/src/$XZ_DIR/configure" CC="$(cc_of "$v")" CFLAGS="$CFLAGS" \
            --disable-shared --disable-nls --disable-doc --disable-scripts --disable-lzmainfo \
            --disable-lzmadec --disable-xzdec &&
          env "${e[@]}" make -j"$JOBS" -C lib &&
          env "${e[@]}" make -j"$JOBS" -C src/liblzma &&
          env "${e[@]}" make -j"$JOBS" -C src/xz xz) >"$log" 2>&1 || [ ! -x "$exe" ]; then
        build_failed xz "$v" "$log" "build failed"; return
    fi
    if ! grep -q '^#define MYTHREAD_POSIX 1' "$dir/config.h"; then
        build_failed xz "$v" "$log" "configured without POSIX threads (-T4 would be one thread)"; return
    fi
    echo "$want" >"$dir/.stamp"
    EXE[xz/$v]=$exe
}
# zstd: a copy of the tree per variant (its object directory's name does not
# tell GOLDI_CC=gcc from clang); the `zstd` target builds with ZSTD_MULTITHREAD
# when a -pthread test program links. CFLAGS comes from the environment, so
# the Makefile still appends its warning flags (harmless: no -Werror).
build_zstd() { # variant
    local v=$1 dir=$CACHE/build/zstd/$1 log=$CACHE/logs/build-zstd-$1.log want
    local exe=$dir/programs/zstd
    local -a e mk
    read -r -a e <<<"$(env_of "$v")"
    mk=(make -j"$JOBS" -C "$dir/programs" zstd CC="$(cc_of "$v")" HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0)
    want=$(stamp_of "$v")
    if [ -x "$exe" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$want" ]; then
        case $v in
        goldi-*)
            log "relinking zstd $v"
            rm -f "$exe" "$dir"/programs/obj/conf_*/zstd
            # (clang writes each .d after its .o, and the Makefile makes
            # objects depend on their .d: without this, all of them rebuild)
            touch "$dir"/programs/obj/conf_*/*.o
            if ! env "${e[@]}" CFLAGS="$CFLAGS" "${mk[@]}" >>"$log" 2>&1 || [ ! -x "$exe" ]; then
                build_failed zstd "$v" "$log" "relink failed"; return
            fi ;;
        *) log "zstd $v: cached" ;;
        esac
        EXE[zstd/$v]=$exe; return
    fi
    log "building zstd $v (log: $log)"
    rm -rf "$dir"; mkdir -p "$(dirname "$dir")"
    cp -a "$CACHE/src/$ZSTD_DIR" "$dir"
    if ! env "${e[@]}" CFLAGS="$CFLAGS" "${mk[@]}" >"$log" 2>&1 || [ ! -x "$exe" ]; then
        build_failed zstd "$v" "$log" "build failed"; return
    fi
    if ! grep -q 'building with threading support' "$log"; then
        build_failed zstd "$v" "$log" "built without ZSTD_MULTITHREAD (-T4 would be one thread)"; return
    fi
    echo "$want" >"$dir/.stamp"
    EXE[zstd/$v]=$exe
}
for p in $PROGRAMS; do
    for v in $VARIANTS; do
        case $v in goldi-*) [ $goldi_ok = 1 ] || continue ;; esac
        "build_$p" "$v"
    done
done

# --------------------------------------------------------------- inputs ----
# The files of both pristine trees in sorted order (C locale), concatenated,
# repeated and cut to exactly the size.
make_input() { # bytes -> path
    local n=$1 f=$CACHE/inputs/src-$1.bin
    if [ ! -f "$f" ]; then
        python3 - "$CACHE/src" "$n" "$f.part" "$XZ_DIR" "$ZSTD_DIR" <<'EOF'
import os, sys
root, n, out, trees = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
files = []
for t in trees:
    for d, _, fs in os.walk(os.path.join(root, t)):
        files += [os.path.join(d, f) for f in fs if not os.path.islink(os.path.join(d, f))]
files.sort(key=lambda p: os.path.relpath(p, root).encode())
left = n
with open(out, "wb") as w:
    while left > 0:
        for p in files:
            with open(p, "rb") as r:
                b = r.read(left)
            w.write(b)
            left -= len(b)
            if left == 0:
                break
EOF
        mv "$f.part" "$f"
    fi
    echo "$f"
}

# --------------------------------------------------------------- cases -----
# A case: program, input bytes, variants. Sizes are in MiB.
CASES=()
for p in $PROGRAMS; do
    case $p in
    xz) sizes="2"; [ $full = 1 ] && sizes="2 8" ;;
    zstd) sizes="80" ;;
    esac
    for s in $sizes; do
        CASES+=("$p $((s * MIB)) $VARIANTS")
        if [ $valgrind = 1 ]; then
            if have valgrind; then CASES+=("$p $((s * MIB / 16)) native helgrind drd")
            else note "helgrind, drd skipped: valgrind not found"; valgrind=0; fi
        fi
    done
done
args_of() { case $1 in xz) echo "-T4 -6 -c" ;; zstd) echo "-T4 -3 -c" ;; esac; }

declare -A INPUT=() REF=() GAVE_UP=()
for c in "${CASES[@]}"; do
    read -r p n _ <<<"$c"
    INPUT[$p/$n]=$(make_input "$n")
done

# -------------------------------------------------------------- running ----
CSV=$TMP/real.csv
echo "program,input_bytes,variant,round,wall_s,user_s,sys_s,maxrss_kb,races,exit,output_ok" >"$CSV"

# A warm-up run of native per case (page cache, CPU frequency) makes the
# reference output, which must decompress to the input.
for c in "${CASES[@]}"; do
    read -r p n _ <<<"$c"
    exe=${EXE[$p/native]:-}
    if [ -z "$exe" ]; then note "$p $n B: no native build, so outputs are not compared"; continue; fi
    ref=$TMP/ref.$p.$n
    read -r -a a <<<"$(args_of "$p")"
    if "$exe" "${a[@]}" "${INPUT[$p/$n]}" >"$ref" 2>"$TMP/err" </dev/null &&
       "$exe" -dc "$ref" 2>>"$TMP/err" | cmp -s - "${INPUT[$p/$n]}"; then
        REF[$p/$n]=$ref
    else
        note "$p $n B: native's output does not decompress to the input, so outputs are not compared: $(head -c 300 "$TMP/err" | tr '\n' ' ')"
    fi
done

run_one() { # prog bytes variant round
    local p=$1 n=$2 v=$3 r=$4 exe to=$RUN_TIMEOUT key="$1/$2/$3"
    local -a a cmd e=(env -u TSAN_OPTIONS)
    read -r -a a <<<"$(args_of "$p")"
    case $v in
    helgrind|drd) exe=${EXE[$p/native]:-}; cmd=(valgrind --tool="$v" "$exe"); to=$VG_TIMEOUT ;;
    *) exe=${EXE[$p/$v]:-}; cmd=("$exe") ;;
    esac
    case $v in goldi-*) ;; *) e+=(-u GOLDI_OPTIONS) ;; esac
    if [ -z "$exe" ]; then
        echo "$p,$n,$v,$r,,,,,,nobuild," >>"$CSV"
        log "round $r $p $((n / 1024)) KiB $v: skipped (no build)"
        return
    fi
    if [ -n "${GAVE_UP[$key]:-}" ]; then   # timed out once: the next rounds would too
        echo "$p,$n,$v,$r,,,,,,timeout," >>"$CSV"; return
    fi
    local st=0
    rm -f "$TMP/time"
    "${e[@]}" /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" -- timeout "$to" "${cmd[@]}" "${a[@]}" \
        "${INPUT[$p/$n]}" >"$TMP/out" 2>"$TMP/err" </dev/null || st=$?
    local wall="" user="" sys="" rss="" races=0 ok=""
    [ -s "$TMP/time" ] && read -r wall user sys rss < <(tail -n 1 "$TMP/time")
    case $v in
    tsan-*) races=$(grep -c 'WARNING: ThreadSanitizer: data race' "$TMP/err" || true) ;;
    goldi-*) races=$(grep -c 'WARNING: Goldilocks: data race' "$TMP/err" || true) ;;
    helgrind|drd) races=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$TMP/err" | tail -n 1)
                  races=${races:-0} ;;
    esac
    if [ -n "${REF[$p/$n]:-}" ]; then
        if cmp -s "$TMP/out" "${REF[$p/$n]}"; then ok=1; else ok=0; fi
    fi
    local ex=$st
    if [ "$st" = 124 ]; then ex=timeout; GAVE_UP[$key]=1; fi
    echo "$p,$n,$v,$r,$wall,$user,$sys,$rss,$races,$ex,$ok" >>"$CSV"
    head -n 300 "$TMP/err" >"$CACHE/logs/run.$p.$n.$v.err"
    local flag=""
    [ "$st" != 0 ] && flag+=" <-- exit $ex"
    [ "$races" != 0 ] && flag+=" <-- $races race reports ($CACHE/logs/run.$p.$n.$v.err)"
    [ "$ok" = 0 ] && flag+=" <-- BADOUT"
    log "round $r $p $((n / 1024)) KiB $v: ${wall:-?} s$flag"
}

log "variants built: $(printf '%s\n' "${!EXE[@]}" | sort | tr '\n' ' ')"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq 1 "$RUNS"); do
    for c in "${CASES[@]}"; do
        read -r p n vs <<<"$c"
        for v in $vs; do run_one "$p" "$n" "$v" "$r"; done
    done
done
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# --------------------------------------------------------------- report ----
goldi_desc="not available"
if [ $goldi_ok = 1 ]; then
    ver=$("$GOLDI_BIN" --version 2>/dev/null | head -n 1) || true
    goldi_desc="$GOLDI_BIN (${ver:-version unknown}"
    rev=""   # (the tree's commit, when goldi is this tree's)
    case $(realpath "$GOLDI_BIN") in "$ROOT"/*) rev=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || true) ;; esac
    if [ -n "$rev" ]; then
        goldi_desc+=", tree at $rev"
        [ -z "$(git -C "$ROOT" status --porcelain -- src 2>/dev/null)" ] || goldi_desc+=" with uncommitted changes under src/"
    fi
    rt=${GOLDI_RUNTIME_DIR:-$(dirname "$GOLDI_BIN")/../lib}/libgoldi_rt.a
    [ -f "$rt" ] && goldi_desc+="; runtime $(realpath "$rt") of $(date -u -r "$rt" '+%Y-%m-%d %H:%M:%S UTC')"
    goldi_desc+=")"
fi
{
    echo "command=$CMDLINE"
    echo "date=$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "elapsed_s=$(elapsed)"
    echo "nproc=$(nproc)"
    echo "cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
    echo "mem_total=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "kernel=$(uname -sr)"
    echo "sources=xz 5.4.1 (${XZ_URL##*/}, sha256 ${XZ_SHA256:0:12}…), zstd 1.5.4 (${ZSTD_URL##*/}, sha256 ${ZSTD_SHA256:0:12}…)"
    echo "cc_native=$CC_NATIVE: $($CC_NATIVE --version | head -n 1)"
    echo "gcc=$(gcc --version | head -n 1)"
    echo "clang=$(clang --version | head -n 1)"
    echo "valgrind=$([ $valgrind = 1 ] && valgrind --version)"
    echo "goldi=$goldi_desc"
    echo "goldi_options=${GOLDI_OPTIONS:-}"
    echo "cflags=$CFLAGS"
    echo "runs=$RUNS"
    echo "load=$LOAD_START at the start, $LOAD_END at the end"
    for c in "${CASES[@]}"; do
        read -r p n _ <<<"$c"
        echo "input.$n=$(sha256sum "${INPUT[$p/$n]}" | cut -c1-12)"
    done
} >"$TMP/meta"
cp "$CSV" "$OUT/real.csv"
python3 "$BENCH/real_report.py" "$OUT/real.csv" "$TMP/meta" "$NOTES" >"$OUT/real.md"
cat "$OUT/real.md"
log "done in $(elapsed) s: $OUT/real.csv, $OUT/real.md"
