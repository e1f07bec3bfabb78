#!/bin/sh
# Builds one test program the way users build theirs: compile with
# -fsanitize=thread, link against our runtime archive (whole-archive, no
# -fsanitize at link time), then runs it. Extra arguments after -- are
# passed to the compile step.
# usage: run_program.sh <cc> <libgoldi_rt.a> <source> <work dir> [-- cflags...]
set -u
cc=$1 lib=$2 src=$3 work=$4
shift 4
[ "${1:-}" = "--" ] && shift
mkdir -p "$work" || exit 1
base=$(basename "$src" | sed 's/\.[^.]*$//')_$(basename "$cc")
"$cc" -g -O1 -fsanitize=thread "$@" -c "$src" -o "$work/$base.o" || exit 1
"$cc" "$work/$base.o" -Wl,--whole-archive "$lib" -Wl,--no-whole-archive -lpthread -ldl \
    -o "$work/$base" || exit 1
exec "$work/$base"
