#!/bin/sh
# Feeds truncated and corrupted variants of a recorded trace to goldi analyze:
# each must fail cleanly (exit status 1, an "offset N:" message), never crash
# or hang. Usage: corrupt_test.sh GOLDI TRACE WORKDIR
set -u
goldi=$1 trace=$2 work=$3
mkdir -p "$work" && cd "$work" || exit 1
size=$(wc -c < "$trace")
fails=0 n=0

check() {   # check FILE WHAT [partial]
  n=$((n + 1))
  timeout 20 "$goldi" analyze -q --no-table --format=binary --engine=vc $3 "$1" > out.txt 2> err.txt
  rc=$?
  if [ $rc -ne 1 ] || ! grep -q "offset [0-9]*:" err.txt; then
    echo "FAIL ($2): exit $rc, stderr: $(head -c 300 err.txt)"
    fails=$((fails + 1))
  fi
}

# the original is fine
"$goldi" analyze -q --no-table --engine=vc "$trace" > /dev/null 2> err.txt
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 66 ]; then
  echo "FAIL: the intact trace does not analyze (exit $rc): $(cat err.txt)"; exit 1
fi

# truncations: every length up to 300 bytes, then every 97th byte
len=0
while [ $len -lt "$size" ]; do
  head -c $len "$trace" > t.bin
  check t.bin "truncated to $len bytes" ""
  if [ $len -lt 300 ]; then len=$((len + 1)); else len=$((len + 97)); fi
done

# single-byte corruptions (XOR 0x5a) at many offsets: the check values catch
# them; with --partial as well
off=0
while [ $off -lt "$size" ]; do
  cp "$trace" c.bin
  b=$(od -An -tu1 -j $off -N1 "$trace" | tr -d ' ')
  printf "$(printf '\\%03o' $(( (b ^ 90) & 255 )))" | dd of=c.bin bs=1 seek=$off conv=notrunc 2>/dev/null
  check c.bin "byte $off corrupted" ""
  off=$((off + 13))
done

echo "$n variants, $fails failures"
[ $fails -eq 0 ]
