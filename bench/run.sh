#!/usr/bin/env bash
# bench/run.sh: build every workload once per tool and time them side by side.
#
#   bash bench/run.sh [--quick] [--only NAME[,NAME..]] [--tools T[,T..]] [--runs N]
#                     [--threads N] [--no-scaling] [--no-real] [--out DIR]
#
# Tools (columns): native, tsan-gcc, tsan-clang, goldi-gcc-goldilocks,
# goldi-gcc-vc, goldi-clang-goldilocks, goldi-clang-vc, helgrind, drd.
# The goldi columns need build/bin/goldi (or GOLDI=/path/to/goldi); without a
# working goldi they are skipped and RESULTS.md says why.
#
# A full run (no --quick, --only or --tools) ends with the real programs of
# bench/real.sh (xz and zstd from Debian's sources, RUNS rounds; a few
# minutes, after the budgeted suite), whose table RESULTS.md then includes;
# --no-real leaves them out.
#
# Problem sizes: natively each workload runs its default size. Instrumented
# tools run a smaller problem (work / INSTR_DIV, default 4) and Valgrind a much
# smaller one (work / VG_DIV, default 100), and native is ALSO timed at those
# sizes, so every slowdown compares equal work. Runs are interleaved (rep 1 of
# every tool, then rep 2, ...) so load drift hits all tools alike.
#
# Environment knobs (defaults in brackets; --quick changes them):
#   GOLDI [build/bin/goldi]  RUNS [3|1]  THREADS [4]  NATIVE_DIV [1|10]
#   INSTR_DIV [4|40]  VG_DIV [100|1000]  RUN_TIMEOUT [300|60] s per run
#   VG_TIMEOUT [120|30] s per Valgrind run  BUDGET_S [1740|170] soft deadline
#   for the whole suite: each non-native tool may use an equal share of it
#   (75% of what is left after the builds for the main table, then all of what
#   is left for the scaling table; TOOL_BUDGET_S=seconds overrides the share);
#   runs beyond a share or the deadline are recorded as BUDGET, not run
#   SCALE_THREADS ["1 2 4 8 16 64"]  SCALE_DIV [2]: extra work divisor for
#   the scaling runs  CC_NATIVE [cc]
set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH")
CMDLINE="bash bench/run.sh${*:+ $*}"
SUITE_T0=$EPOCHREALTIME

ALL_WORKLOADS="sharedspot localspot multiset lockfree stencil lu radix nbody blackscholes pipeline hashtable threadpool"
ALL_TOOLS="native tsan-gcc tsan-clang goldi-gcc-goldilocks goldi-gcc-vc goldi-clang-goldilocks goldi-clang-vc helgrind drd"
# Any engine can be a column on request: --tools goldi-clang-fasttrack,goldi-gcc-hybrid-short,...
GOLDI_ENGINES="goldilocks vc fasttrack jrf eraser hybrid-short hybrid-long fastrcd valor"
goldi_cc_of() { local x=${1#goldi-}; echo "${x%%-*}"; }       # goldi-clang-hybrid-short -> clang
goldi_engine_of() { local x=${1#goldi-}; echo "${x#*-}"; }    # goldi-clang-hybrid-short -> hybrid-short
SCALE_WORKLOADS="sharedspot localspot multiset"

quick=0 only="" tools_sel="" scaling=1 out="" runs_opt="" threads_opt="" real=1
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) quick=1 ;;
    --only) only=${2:?--only needs a name}; shift ;;
    --only=*) only=${1#--only=} ;;
    --tools) tools_sel=${2:?--tools needs a list}; shift ;;
    --tools=*) tools_sel=${1#--tools=} ;;
    --runs) runs_opt=${2:?}; shift ;;
    --threads) threads_opt=${2:?}; shift ;;
    --no-scaling) scaling=0 ;;
    --no-real) real=0 ;;
    --out) out=${2:?}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done

if [ $quick = 1 ]; then
    RUNS=${RUNS:-1}; NATIVE_DIV=${NATIVE_DIV:-10}; INSTR_DIV=${INSTR_DIV:-40}; VG_DIV=${VG_DIV:-1000}
    RUN_TIMEOUT=${RUN_TIMEOUT:-60}; VG_TIMEOUT=${VG_TIMEOUT:-30}; BUDGET_S=${BUDGET_S:-170}
    scaling=0
else
    RUNS=${RUNS:-3}; NATIVE_DIV=${NATIVE_DIV:-1}; INSTR_DIV=${INSTR_DIV:-4}; VG_DIV=${VG_DIV:-100}
    RUN_TIMEOUT=${RUN_TIMEOUT:-300}; VG_TIMEOUT=${VG_TIMEOUT:-120}; BUDGET_S=${BUDGET_S:-1740}
fi
[ -n "$runs_opt" ] && RUNS=$runs_opt
THREADS=${threads_opt:-${THREADS:-4}}
SCALE_THREADS=${SCALE_THREADS:-"1 2 4 8 16 64"}
SCALE_DIV=${SCALE_DIV:-2}
CC_NATIVE=${CC_NATIVE:-cc}
MODE=$([ $quick = 1 ] && echo quick || echo full)

OUT=${out:-$BENCH/results}
RESULTS_MD=$([ -n "$out" ] && echo "$OUT/RESULTS.md" || echo "$BENCH/RESULTS.md")
BUILD=$BENCH/build
mkdir -p "$OUT" "$OUT/logs" "$BUILD"
rm -f "$OUT"/logs/*.err
TMP=$(mktemp -d /tmp/goldi-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

workloads=${only:-$ALL_WORKLOADS}; workloads=${workloads//,/ }
for w in $workloads; do
    [ -f "$BENCH/workloads/$w.c" ] || { echo "run.sh: no workload '$w' (have: $ALL_WORKLOADS)" >&2; exit 2; }
done
tools=${tools_sel:-$ALL_TOOLS}; tools=${tools//,/ }
case " $tools " in *" native "*) ;; *) tools="native $tools" ;; esac  # slowdowns need it
for t in $tools; do
    case " $ALL_TOOLS " in *" $t "*) continue ;; esac
    case "$t" in goldi-gcc-*|goldi-clang-*)
        case " $GOLDI_ENGINES " in *" $(goldi_engine_of "$t") "*) continue ;; esac ;;
    esac
    echo "run.sh: unknown tool '$t' (have: $ALL_TOOLS, or goldi-{gcc,clang}-ENGINE for ENGINE in: $GOLDI_ENGINES)" >&2
    exit 2
done

log() { printf '[%6.1fs] %s\n' "$(elapsed)" "$*" >&2; }
elapsed() { awk -v a="$SUITE_T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
have() { command -v "$1" >/dev/null 2>&1; }

# ---------------------------------------------------------------- tools ----
NOTES=$TMP/notes; : >"$NOTES"   # "tool<TAB>why it was skipped" for RESULTS.md
note() { printf '%s\t%s\n' "$1" "$2" >>"$NOTES"; log "note: $1: $2"; }
drop_tool() { tools=$(for x in $tools; do if [ "$x" != "$1" ]; then printf '%s ' "$x"; fi; done); }
for t in $tools; do
    case $t in
    tsan-gcc) have gcc || { note "$t" "gcc not found"; drop_tool "$t"; } ;;
    tsan-clang) have clang || { note "$t" "clang not found"; drop_tool "$t"; } ;;
    helgrind|drd) have valgrind || { note "$t" "valgrind not found (apt-get install -y valgrind)"; drop_tool "$t"; } ;;
    esac
done

GOLDI_BIN=${GOLDI:-$ROOT/build/bin/goldi}
goldi_ok=1
if [ ! -x "$GOLDI_BIN" ]; then
    goldi_ok=0
    goldi_why="$GOLDI_BIN does not exist (build the runtime, or set GOLDI=/path/to/goldi)"
fi
goldi_tools=$(for t in $tools; do case $t in goldi-*) echo "$t" ;; esac; done)
if [ -n "$goldi_tools" ] && [ $goldi_ok = 1 ]; then
    # Probe: a threaded hello world must build and run for each compiler and
    # engine; a column whose probe fails is skipped with the reason.
    printf '#include <pthread.h>\n#include <stdio.h>\nstatic int x;\nstatic pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nstatic void *f(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return a; }\nint main(void) { pthread_t t; pthread_create(&t, 0, f, 0); f(0); pthread_join(t, 0); printf("probe %%d\\n", x); return 0; }\n' >"$TMP/probe.c"
    for t in $goldi_tools; do
        cc_name=$(goldi_cc_of "$t"); engine=$(goldi_engine_of "$t")
        if ! GOLDI_CC=$cc_name "$GOLDI_BIN" cc -O2 -g -pthread "$TMP/probe.c" -o "$TMP/probe-$cc_name" >"$TMP/probe.log" 2>&1; then
            note "$t" "goldi cc (GOLDI_CC=$cc_name) cannot build a test program: $(head -c 300 "$TMP/probe.log" | tr '\n\t' '  ')"
            drop_tool "$t"; continue
        fi
        # Exit 66 (a race reported on this race-free probe) still counts as
        # working: the false positives then show up flagged in the tables.
        st=0; GOLDI_OPTIONS=engine=$engine "$TMP/probe-$cc_name" >"$TMP/probe.out" 2>&1 || st=$?
        if { [ $st != 0 ] && [ $st != 66 ]; } || ! grep -q '^probe 2$' "$TMP/probe.out"; then
            note "$t" "test program built with GOLDI_CC=$cc_name fails under GOLDI_OPTIONS=engine=$engine: $(head -c 300 "$TMP/probe.out" | tr '\n\t' '  ')"
            drop_tool "$t"; continue
        fi
    done
elif [ -n "$goldi_tools" ]; then
    for t in $goldi_tools; do note "$t" "$goldi_why"; drop_tool "$t"; done
fi
tools=$(echo $tools)

# ---------------------------------------------------------------- build ----
# Same flags everywhere: -O2 -g -pthread (plus -lm). Valgrind runs the native
# binary. Builds run two at a time.
CFLAGS="-O2 -g -pthread"
build_cmd() { # cfg workload -> command line
    local src="$BENCH/workloads/$2.c" exe="$BUILD/$1/$2"
    case $1 in
    native) echo "$CC_NATIVE $CFLAGS $src -o $exe -lm" ;;
    tsan-gcc) echo "gcc $CFLAGS -fsanitize=thread $src -o $exe -lm" ;;
    tsan-clang) echo "clang $CFLAGS -fsanitize=thread $src -o $exe -lm" ;;
    goldi-gcc) echo "env GOLDI_CC=gcc $GOLDI_BIN cc $CFLAGS $src -o $exe -lm" ;;
    goldi-clang) echo "env GOLDI_CC=clang $GOLDI_BIN cc $CFLAGS $src -o $exe -lm" ;;
    esac
}
build_of() { case $1 in native|helgrind|drd) echo native ;; goldi-gcc-*) echo goldi-gcc ;; goldi-clang-*) echo goldi-clang ;; *) echo "$1" ;; esac; }
cfgs=$(for t in $tools; do build_of "$t"; done | sort -u)
log "building $(echo $workloads | wc -w) workloads for: $(echo $cfgs)"
gcc -O2 -Wall -o "$BUILD/measure" "$BENCH/tools/measure.c"
: >"$TMP/builds"
for c in $cfgs; do
    mkdir -p "$BUILD/$c"
    for w in $workloads; do
        rm -f "$BUILD/$c/$w"
        echo "$(build_cmd "$c" "$w") >$BUILD/$c/$w.log 2>&1 || echo 'BUILD FAILED: $c/$w' >&2" >>"$TMP/builds"
    done
done
tr '\n' '\0' <"$TMP/builds" | xargs -0 -P "$(nproc)" -I{} bash -c '{}'
MEASURE=$BUILD/measure

# ------------------------------------------------------------- defaults ----
# Each workload states its default size and how its work grows with -n
# (last line of -h), so the sizes for a divisor D keep work / D.
declare -A DEF_N WORK_EXP
for w in $workloads; do
    line=$("$BUILD/native/$w" -h | sed -n 's/^defaults: //p')
    DEF_N[$w]=$(sed -n 's/.*size=\([0-9]*\).*/\1/p' <<<"$line")
    WORK_EXP[$w]=$(sed -n 's/.*work_exponent=\([0-9]*\).*/\1/p' <<<"$line")
done
size_for() { # workload divisor -> -n value
    awk -v n="${DEF_N[$1]}" -v k="${WORK_EXP[$1]}" -v d="$2" \
        'BEGIN { s = int(n / d ^ (1 / k) + 0.5); if (s < 16) s = 16; print s }'
}

# ----------------------------------------------------------------- runs ----
RUNS_TSV=$OUT/runs.tsv
printf 'phase\tworkload\ttool\tdiv\tthreads\tsize\trep\twall_s\tuser_s\tsys_s\tmaxrss_kb\tstatus\ttimed_out\traces\twarnings\tcheck\tchecksum\tkernel_s\n' >"$RUNS_TSV"

tool_div() { case $1 in native) echo "$NATIVE_DIV" ;; helgrind|drd) echo "$VG_DIV" ;; *) echo "$INSTR_DIV" ;; esac; }

# Time accounting. Each non-native tool gets a cap per phase (CAP_MS), so one
# very slow tool (say an early runtime build) cannot starve the others, and
# the suite still ends near BUDGET_S. USED_MS sums each tool's wall time.
declare -A USED_MS=() GAVE_UP=() TOOL_CAP_MS=()   # TOOL_CAP_MS: per tool, from set_caps and rebalance_caps
LOAD_MAX=0  # highest 1-minute load average seen at the start of a run

# The load average counts this suite's own threads (4 a cell, up to 64 in the
# scaling table), so it cannot tell whether other jobs shared the machine.
# What can: the CPU time the whole machine spent busy (/proc/stat) less the
# CPU time of this suite's own finished children (bash's `times`), and the
# time the hypervisor gave this VM's CPUs to others (steal).
machine_cpu() { # -> "busy_s steal_s" since boot
    awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f %.2f\n", ($2 + $3 + $4 + $7 + $8) / hz, $9 / hz }' /proc/stat
}
own_cpu() { # -> user + system seconds of this shell's finished children
    times >"$TMP/times"   # (in this shell: a $(...) subshell has children of its own)
    awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%.2f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$TMP/times"
}
NWL=$(echo $workloads | wc -w)
CAP_MS=0
ms_of() { awk -v x="$1" 'BEGIN { printf "%d", x * 1000 }'; }
set_caps() { # fraction of the remaining budget this phase may use
    local n=0 t
    for t in $tools; do [ "$t" = native ] || n=$((n + 1)); done
    [ $n -gt 0 ] || n=1
    if [ -n "${TOOL_BUDGET_S:-}" ]; then
        CAP_MS=$(ms_of "$TOOL_BUDGET_S")
    else
        CAP_MS=$(awk -v b="$BUDGET_S" -v e="$(elapsed)" -v f="$1" -v n=$n \
            'BEGIN { a = (b - e) * f - 0.05 * b; if (a < n) a = n; printf "%d", a * 1000 / n }')
    fi
    for t in $tools; do USED_MS[$t]=0; TOOL_CAP_MS[$t]=$CAP_MS; done
    log "per-tool cap for this phase: $((CAP_MS / 1000)) s"
}

# After repetition $1 of $RUNS: the phase's time that tools under their
# share will not need goes to the tools that would run out. Each tool's need
# is its time per repetition so far times the repetitions left, plus a
# quarter for the runs' spread. What is left of the phase's pool is
# water-filled over the needs class by class (the TSan anchors and the
# default engine first, then Valgrind's tools, then goldi's other engines),
# the smallest need first within a class, so a fast tool keeps all it needs;
# no tool's cap drops below its share. Without it the goldi columns lost
# their last repetition while TSan's and Valgrind's unused shares went to
# nobody (session 32: goldi 2 runs a cell, TSan 3).
rebalance_caps() {
    local done_reps=$1 t lines=""
    [ -z "${TOOL_BUDGET_S:-}" ] && [ "$done_reps" -lt "$RUNS" ] || return 0
    for t in $tools; do
        case $t in
        native) continue ;;
        tsan-*|goldi-*-goldilocks) lines+="0" ;;
        helgrind|drd) lines+="1" ;;
        *) lines+="2" ;;
        esac
        lines+=" $t ${USED_MS[$t]:-0}"$'\n'
    done
    local caps
    caps=$(printf '%s' "$lines" | awk -v share="$CAP_MS" -v r="$done_reps" -v R="$RUNS" '
        { cls[NR] = $1; tool[NR] = $2; used[NR] = $3; need[NR] = 1.25 * $3 / r * (R - r); pool += share - $3 }
        END {
            n = NR
            for (i = 1; i <= n; i++) { ord[i] = i; key[i] = cls[i] * 1e15 + need[i] }
            for (i = 2; i <= n; i++)   # by class, then need (insertion sort: a handful of tools)
                for (j = i; j > 1 && key[ord[j]] < key[ord[j - 1]]; j--) { x = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = x }
            for (k = 1; k <= n; k++) {
                i = ord[k]; fair = 0
                if (pool > 0) {   # an equal part of the pool among the rest of this class
                    m = 0
                    for (q = k; q <= n; q++) m += cls[ord[q]] == cls[i]
                    fair = pool / m
                }
                give[i] = need[i] < fair ? need[i] : fair
                pool -= give[i]
            }
            for (i = 1; i <= n; i++) {   # (what nobody needs: an equal part each; never below the share)
                c = used[i] + give[i] + (pool > 0 ? pool / n : 0)
                printf "%s %d\n", tool[i], (c > share ? c : share)
            }
        }')
    while read -r t c; do TOOL_CAP_MS[$t]=$c; done <<<"$caps"
    log "per-tool caps after rep $done_reps: $(for t in $tools; do [ "$t" = native ] || printf '%s=%ss ' "$t" $((${TOOL_CAP_MS[$t]} / 1000)); done)"
}

skip_row() { # phase workload tool div threads size rep why
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t\t\t\t\t\t\t\t\t%s\t\t\n' "$@" >>"$RUNS_TSV"
}

run_one() { # phase workload tool div threads rep
    local phase=$1 w=$2 t=$3 div=$4 thr=$5 rep=$6
    local size; size=$(size_for "$w" "$div")
    local exe="$BUILD/$(build_of "$t")/$w" to=$RUN_TIMEOUT key="$1/$2/$3/$4/$5"
    local -a cmd env=(env -u TSAN_OPTIONS -u GOLDI_OPTIONS)
    case $t in helgrind|drd) to=$VG_TIMEOUT ;; esac
    if [ ! -x "$exe" ]; then skip_row "$phase" "$w" "$t" "$div" "$thr" "$size" "$rep" NOBUILD; return; fi
    # A cell that timed out once is not repeated: the next reps would too.
    if [ -n "${GAVE_UP[$key]:-}" ]; then skip_row "$phase" "$w" "$t" "$div" "$thr" "$size" "$rep" "${GAVE_UP[$key]}"; return; fi
    if awk -v e="$(elapsed)" -v b="$BUDGET_S" 'BEGIN { exit !(e > b) }'; then
        skip_row "$phase" "$w" "$t" "$div" "$thr" "$size" "$rep" BUDGET; return
    fi
    local capped=0
    if [ "$t" != native ]; then
        local left=$((${TOOL_CAP_MS[$t]:-$CAP_MS} - ${USED_MS[$t]:-0}))
        if [ $left -le 0 ]; then skip_row "$phase" "$w" "$t" "$div" "$thr" "$size" "$rep" BUDGET; return; fi
        # No single run may take more than 3 workloads' fair share of the
        # cap either, so a slow tool still gets a first run of every workload.
        local share=$((CAP_MS * 3 / NWL))
        [ $share -lt $left ] && left=$share
        [ $left -lt 5000 ] && left=5000
        if [ $((left / 1000)) -lt "$to" ]; then to=$((left / 1000)); capped=1; fi
    fi
    case $t in
    helgrind|drd) cmd=(valgrind --tool="$t" "$exe"); to=$VG_TIMEOUT ;;
    goldi-*) env+=(GOLDI_OPTIONS="engine=$(goldi_engine_of "$t")"); cmd=("$exe") ;;
    *) cmd=("$exe") ;;
    esac
    local load; load=$(cut -d' ' -f1 /proc/loadavg)
    LOAD_MAX=$(awk -v a="$LOAD_MAX" -v b="$load" 'BEGIN { print (b > a ? b : a) }')
    rm -f "$TMP/m"
    "${env[@]}" "$MEASURE" -o "$TMP/m" -T "$to" -- "${cmd[@]}" -t "$thr" -n "$size" >"$TMP/out" 2>"$TMP/err" </dev/null || true
    local wall="" user="" sys="" rss="" status=125 tmo=0
    [ -s "$TMP/m" ] && read -r wall user sys rss status tmo <"$TMP/m"
    local races=0 warns=0
    case $t in
    tsan-*) races=$(grep -c 'WARNING: ThreadSanitizer: data race' "$TMP/err" || true)
            warns=$(grep -c 'WARNING: ThreadSanitizer:' "$TMP/err" || true) ;;
    goldi-*) races=$(grep -c 'WARNING: Goldilocks: data race' "$TMP/err" || true)
             warns=$(grep -c 'WARNING: Goldilocks:' "$TMP/err" || true) ;;
    helgrind|drd) races=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$TMP/err" | tail -n 1)
                  races=${races:-0}; warns=$races ;;
    esac
    local check sum kern
    check=$(sed -n 's/.*checksum=[0-9a-f]* \(ok\|FAILED\)$/\1/p' "$TMP/out" | tail -n 1)
    sum=$(sed -n 's/.*checksum=\([0-9a-f]*\) .*/\1/p' "$TMP/out" | tail -n 1)
    kern=$(sed -n 's/.* time=\([0-9.]*\)s.*/\1/p' "$TMP/out" | tail -n 1)
    USED_MS[$t]=$((${USED_MS[$t]:-0} + $(ms_of "${wall:-0}")))
    if [ "$tmo" = 1 ]; then
        # Killed: by the per-run timeout, or by what was left of the tool's cap.
        check=$([ $capped = 1 ] && echo BUDGET || echo TIMEOUT)
        GAVE_UP[$key]=$check
    elif [ -z "$check" ]; then
        check=CRASH
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$phase" "$w" "$t" "$div" "$thr" \
        "$size" "$rep" "$wall" "$user" "$sys" "$rss" "$status" "$tmo" "$races" "$warns" "$check" "$sum" "$kern" >>"$RUNS_TSV"
    # Keep the head of the last run's stderr: enough to read a race report.
    head -n 300 "$TMP/err" >"$OUT/logs/$phase.$w.$t.t$thr.err"
    [ -s "$OUT/logs/$phase.$w.$t.t$thr.err" ] || rm -f "$OUT/logs/$phase.$w.$t.t$thr.err"
    local flag=""
    [ "$check" != ok ] && flag=" <-- $check"
    [ "$races" != 0 ] && flag="$flag <-- $races race reports"
    log "$phase $w $t t=$thr n=$size rep $rep: ${wall}s$flag$([ "$check" = BUDGET ] && echo " (killed at ${to}s to stay in budget)")"
}

# Native is timed at every size some tool uses.
native_divs() {
    local t
    for t in $tools; do tool_div "$t"; done | sort -un
}

log "tools: $tools"
log "runs=$RUNS threads=$THREADS native_div=$NATIVE_DIV instr_div=$INSTR_DIV vg_div=$VG_DIV budget=${BUDGET_S}s"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
read -r BUSY_START STEAL_START < <(machine_cpu)
own_cpu >"$TMP/own"; OWN_START=$(<"$TMP/own") WALL_START=$EPOCHREALTIME
# Rep-major order: every workload gets its first run before any gets a second,
# so a budget cut-off loses repetitions, not whole workloads. Within a
# workload, native and the tools run back to back.
set_caps "$([ $scaling = 1 ] && echo 0.75 || echo 1)"
for rep in $(seq 1 "$RUNS"); do
    for w in $workloads; do
        for d in $(native_divs); do run_one main "$w" native "$d" "$THREADS" "$rep"; done
        for t in $tools; do
            [ "$t" = native ] && continue
            run_one main "$w" "$t" "$(tool_div "$t")" "$THREADS" "$rep"
        done
    done
    rebalance_caps "$rep"
done

if [ $scaling = 1 ]; then
    set_caps 1
    for w in $SCALE_WORKLOADS; do
        case " $workloads " in *" $w "*) ;; *) continue ;; esac
        for thr in $SCALE_THREADS; do
            for d in $(native_divs); do run_one scale "$w" native "$((d * SCALE_DIV))" "$thr" 1; done
            for t in $tools; do
                [ "$t" = native ] && continue
                run_one scale "$w" "$t" "$(($(tool_div "$t") * SCALE_DIV))" "$thr" 1
            done
        done
    done
fi
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
read -r BUSY_END STEAL_END < <(machine_cpu)
own_cpu >"$TMP/own"; OWN_END=$(<"$TMP/own")
# Shares of the machine's CPU time (wall x cores) over the timed runs.
read -r OTHERS_SHARE STEAL_SHARE < <(awk -v b0="$BUSY_START" -v b1="$BUSY_END" -v s0="$STEAL_START" \
    -v s1="$STEAL_END" -v o0="$OWN_START" -v o1="$OWN_END" -v w0="$WALL_START" -v w1="$EPOCHREALTIME" \
    -v n="$(nproc)" 'BEGIN { c = (w1 - w0) * n; if (c <= 0) c = 1
        o = (b1 - b0) - (o1 - o0); if (o < 0) o = 0
        printf "%.3f %.3f\n", o / c, (s1 - s0) / c }')

# --------------------------------------------------------------- report ----
META=$OUT/meta.env
{
    echo "command=$CMDLINE"
    echo "mode=$MODE"
    echo "date=$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "elapsed_s=$(elapsed)"
    echo "host_nproc=$(nproc)"
    echo "cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
    echo "mem_total=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    echo "kernel=$(uname -sr)"
    echo "cc_native=$CC_NATIVE ($($CC_NATIVE --version | head -n 1))"
    echo "gcc=$(gcc --version | head -n 1)"
    echo "clang=$(have clang && clang --version | head -n 1)"
    echo "valgrind=$(have valgrind && valgrind --version)"
    echo "goldi=$GOLDI_BIN$([ $goldi_ok = 1 ] && echo " ($("$GOLDI_BIN" --version 2>/dev/null | head -n 1))")"
    echo "cflags=$CFLAGS"
    echo "runs=$RUNS"
    echo "threads=$THREADS"
    echo "native_div=$NATIVE_DIV"
    echo "instr_div=$INSTR_DIV"
    echo "vg_div=$VG_DIV"
    echo "scale_div=$SCALE_DIV"
    echo "scale_threads=$SCALE_THREADS"
    echo "run_timeout=$RUN_TIMEOUT"
    echo "vg_timeout=$VG_TIMEOUT"
    echo "budget_s=$BUDGET_S"
    echo "tool_budget_s=${TOOL_BUDGET_S:-auto}"
    echo "load_start=$LOAD_START"
    echo "load_end=$LOAD_END"
    echo "load_max=$LOAD_MAX"
    echo "others_cpu_share=$OTHERS_SHARE"
    echo "steal_share=$STEAL_SHARE"
    echo "tools=$tools"
} >"$META"
cp "$NOTES" "$OUT/skipped.tsv"

REAL_MD=""
if [ $real = 1 ] && [ $quick = 0 ] && [ -z "$only" ] && [ -z "$tools_sel" ]; then
    log "real programs: bench/real.sh --runs $RUNS"
    if GOLDI=$GOLDI_BIN bash "$BENCH/real.sh" --out "$OUT" --runs "$RUNS" >/dev/null; then
        REAL_MD=$OUT/real.md
    else
        log "bench/real.sh failed: RESULTS.md has no real programs"
    fi
fi
python3 "$BENCH/report.py" --out "$OUT" --md "$RESULTS_MD" ${REAL_MD:+--real "$REAL_MD"}
if have gnuplot; then
    ncols=$(sed -n 2p "$OUT/slowdown.dat" | wc -w)  # the header has spaces in names
    if [ "$ncols" -ge 2 ]; then
        gnuplot -e "datafile='$OUT/slowdown.dat'; outfile='$OUT/slowdown.png'; ncols=$ncols" "$BENCH/plot.gp"
        log "plot: $OUT/slowdown.png"
    fi
else
    log "gnuplot missing (apt-get install -y gnuplot-nox): no plot"
fi
log "done in $(elapsed)s: $OUT/latest.csv, $RESULTS_MD"
