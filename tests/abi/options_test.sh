#!/bin/sh
# Option handling end to end: precedence (defaults < goldi_default_options()
# < GOLDI_OPTIONS), separators, errors (one line, exit 1), help=1 (exit 0),
# engine= validation, log_path=PATH.PID.
# usage: options_test.sh <cc> <libgoldi_rt.a> <source dir> <include dir> <work dir>
set -u
cc=$1 lib=$2 src=$3 inc=$4 work=$5
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0

build() {  # name extra-cflags...
    name=$1
    shift
    "$cc" -g -fsanitize=thread -I"$inc" "$@" -c "$src/options_prog.c" -o "$work/$name.o" &&
        "$cc" "$work/$name.o" -Wl,--whole-archive "$lib" -Wl,--no-whole-archive -lpthread -ldl \
            -o "$work/$name" || { echo "options: cannot build $name"; exit 1; }
}

# expect <name> <prog> <GOLDI_OPTIONS> <exit status> <grep -E pattern for stderr|-> [! pattern]
expect() {
    name=$1 prog=$2 opts=$3 want=$4 pat=$5 notpat=${6:-}
    GOLDI_OPTIONS=$opts "$work/$prog" >"$work/$name.out" 2>"$work/$name.err"
    got=$?
    ok=1
    [ "$got" = "$want" ] || ok=0
    if [ "$pat" != "-" ] && ! grep -qE -- "$pat" "$work/$name.err"; then ok=0; fi
    if [ -n "$notpat" ] && grep -qE -- "$notpat" "$work/$name.err"; then ok=0; fi
    if [ $ok = 1 ]; then
        echo "ok   $name"
    else
        echo "FAIL $name: status $got (want $want), stderr:"
        sed 's/^/     /' "$work/$name.err"
        fail=1
    fi
}

build plain
build withdef '-DDEFAULTS="verbosity=1:exitcode=7"'
build baddef '-DDEFAULTS="no_such_option=1"'
build mainreads -DMAIN_READS=20000

expect defaults plain "" 0 "-" "goldi:"
expect verbosity plain "verbosity=1" 0 "^goldi: engine\(s\) goldilocks, pid [0-9]+$"
expect finish_line plain "verbosity=1" 0 "^goldi: finished, 0 race\(s\) reported"
expect separators plain "$(printf 'symbolize=0:\tverbosity=1\nprint_stats=no  ')" 0 "^goldi: engine"
expect quoted plain "verbosity='1'" 0 "^goldi: engine"
expect bool_words plain "halt_on_error=yes print_stats=false symbolize=true" 0 "-" "error"
expect engines plain "engine=goldilocks,vc verbosity=1" 0 "^goldi: engine\(s\) goldilocks,vc,"
expect unknown plain "foo=1" 1 \
    "^goldi: error: unknown option 'foo' in GOLDI_OPTIONS \(see GOLDI_OPTIONS=help=1\)$"
expect unknown_no_main plain "foo=1" 1 "-" "main ran"
expect bad_bool plain "halt_on_error=maybe" 1 "^goldi: error: .*halt_on_error"
expect bad_int plain "exitcode=12x" 1 "^goldi: error: .*exitcode"
expect range plain "exitcode=256" 1 "^goldi: error: .*out of range \[0, 255\]"
expect no_value plain "verbosity" 1 "^goldi: error: .*verbosity"
expect bad_engine plain "engine=nope" 1 "^goldi: error: unknown engine 'nope'"
expect dup_engine plain "engine=vc,vc" 1 "^goldi: error: .*twice"
expect empty_engine plain "engine=vc," 1 "^goldi: error: "
expect help plain "help=1" 0 "exitcode" "main ran"
expect help_lists_engines plain "help=1" 0 "^  vc "
expect hook_applies withdef "" 0 "^goldi: engine"
expect env_beats_hook withdef "verbosity=0" 0 "-" "goldi: engine"
# The main thread's filter follows filter= too (its state is made before the
# options are read): 20000 reads of one word in one epoch reach the engine
# once with it, every time without it.
expect filter_main mainreads "print_stats=1" 0 "goldilocks\.records_kept [0-9]{1,2}$"
expect filter_main_off mainreads "print_stats=1 filter=0" 0 "goldilocks\.records_kept [0-9]{5}$"
expect hook_error baddef "" 1 "^goldi: error: unknown option 'no_such_option' in goldi_default_options\(\)"

# log_path: reports and runtime lines go to PATH.PID
rm -f "$work"/log.*
GOLDI_OPTIONS="log_path=$work/log verbosity=1" "$work/plain" >/dev/null 2>"$work/log_path.err"
if ls "$work"/log.[0-9]* >/dev/null 2>&1 && grep -q "^goldi: engine" "$work"/log.[0-9]* &&
    ! grep -q "goldi:" "$work/log_path.err"; then
    echo "ok   log_path"
else
    echo "FAIL log_path"; fail=1
fi
expect log_path_bad plain "log_path=/nonexistent/dir/x" 1 "^goldi: error: cannot open log_path"

exit $fail
