#!/usr/bin/env python3
"""Cross-checks the differential suite's C oracle against the reference Python
oracle (ALGORITHMS.md authors' reference-oracle/oracle.py, run as is, not
copied) on generated traces restricted to what oracle.py understands
(difftest gen --py: whole 8-byte locations, no heap/barrier/semaphore/once/
casfail). oracle.py checks an acquiring atomic access before its acquire, so
the C oracle runs in --check-first mode here (docs/differential.md).

usage: xref_py.py DIFFTEST ORACLE_PY [COUNT] [FIRST_SEED]"""
import importlib.util
import os
import subprocess
import sys
import tempfile


def main():
    difftest, oracle_py = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    spec = importlib.util.spec_from_file_location("ref_oracle", oracle_py)
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    bad = 0
    racy = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.gtrace")
        for seed in range(first, first + count):
            text = subprocess.run([difftest, "gen", "--py", str(seed)], check=True,
                                  capture_output=True, text=True).stdout
            with open(path, "w") as f:
                f.write(text)
            out = subprocess.run([difftest, "locsummary", "--check-first", path], check=True,
                                 capture_output=True, text=True).stdout
            ours = {}
            for line in out.splitlines():
                name, full, wx = line.split()
                ours[name] = (int(full), int(wx))
            full, wx = ref.run(text)
            for name, (f_c, w_c) in ours.items():
                f_py = full.get(name)
                w_py = wx.get(name)
                exp_f = None if f_c < 0 else "#%d" % f_c
                exp_w = None if w_c < 0 else "#%d" % w_c
                racy += exp_f is not None
                if exp_f != f_py or exp_w != w_py:
                    bad += 1
                    print("seed %d: location %s: C oracle FULL %s WX %s, oracle.py FULL %s WX %s"
                          % (seed, name, exp_f, exp_w, f_py, w_py))
    print("xref_py: %d traces, %d racy locations, %d disagreements" % (count, racy, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
