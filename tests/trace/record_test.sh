#!/bin/sh
# Records a race program with `goldi record` (the engine runs online too,
# reports going to a log file), replays the trace with `goldi analyze` under
# the same engine and requires the very same race reports, word for word:
# same races, same stacks (symbolized from the recorded executable), same
# locations, threads and pids -- all but the engine's "Ordering:" sentence,
# whose details (Goldilocks' lazily evaluated sets, cells walked) may depend
# on how unordered events of different threads interleaved inside the
# engine online. Then replays it a second time: exactly the same output.
# Usage: record_test.sh GOLDI SOURCE.c ENGINE WORKDIR
set -u
goldi=$1 src=$2 engine=$3 work=$4
name=$(basename "$src" .c)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$goldi" cc -g -O1 -I"$(dirname "$src")" "$src" -o "$name" -lpthread > cc.log 2>&1 || {
  echo "compile failed:"; cat cc.log; exit 1; }

GOLDI_OPTIONS="log_path=$work/online" "$goldi" record -o t.gtb --engine="$engine" -- "./$name" \
  > run.out 2> run.err
rc=$?
[ -s t.gtb ] || { echo "no trace written (exit $rc)"; cat run.err; exit 1; }
# only the recorded process's log (a fork child logs under its own pid)
pid=$("$goldi" analyze --info t.gtb | sed -n 's/^pid: //p')
cat "online.$pid" > online.txt 2> /dev/null || : > online.txt

"$goldi" analyze --no-table --engine="$engine" t.gtb > offline.txt 2> analyze.err
arc=$?
# reports only: the lines between the ==== fences, plus the count line
reports() { awk '/^==================$/ {inr = !inr; print; next} inr || /reported [0-9]+ data race/' "$1"; }
reports online.txt | grep -v '^  Ordering:' > online.rep
reports offline.txt | grep -v '^  Ordering:' > offline.rep
if ! cmp -s online.rep offline.rep; then
  echo "FAIL: $name/$engine: offline reports differ from online ones"
  diff online.rep offline.rep | head -40
  exit 1
fi
n=$(grep -c '^WARNING: Goldilocks: data race' online.rep)
case $name in
  *_race) [ "$n" -gt 0 ] || { echo "FAIL: $name: no race reported online"; exit 1; } ;;
esac
[ "$n" -gt 0 ] && want=66 || want=0
[ $arc -eq $want ] || { echo "FAIL: goldi analyze exited $arc, want $want"; cat analyze.err; exit 1; }
"$goldi" analyze --no-table --engine="$engine" t.gtb > offline2.txt 2>&1
reports offline.txt > offline.full
reports offline2.txt > offline2.full
cmp -s offline.full offline2.full || { echo "FAIL: a second replay differs"; diff offline.full offline2.full | head; exit 1; }
echo "PASS: $name/$engine: $n race report(s), identical online and offline"
