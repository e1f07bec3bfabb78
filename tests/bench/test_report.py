#!/usr/bin/env python3
"""bench/report.py on synthetic runs: the paired goldi / TSan ratios, the
drift mark and the RSS column.

    test_report.py PATH/TO/report.py WORKDIR

The machine 'slows down' 2.5x between repetitions 1 and 2, and goldi's third
repetition is lost to the budget. goldi is exactly 1.5x TSan's time in every
repetition: the paired table must say 1.50, while the ratio of the two cells'
medians (goldi's of reps 1-2, TSan's of reps 1-3) would say otherwise."""
import os
import subprocess
import sys

COLS = ["phase", "workload", "tool", "div", "threads", "size", "rep", "wall_s", "user_s", "sys_s", "maxrss_kb",
        "status", "timed_out", "races", "warnings", "check", "checksum", "kernel_s"]


def row(w, tool, div, rep, wall, rss, check="ok"):
    r = dict.fromkeys(COLS, "")
    r.update(phase="main", workload=w, tool=tool, div=str(div), threads="4", size=str(1000 // div), rep=str(rep),
             check=check, checksum="" if check != "ok" else "abc")
    if wall is not None:
        r.update(wall_s="%.6f" % wall, user_s="%.6f" % wall, sys_s="0", maxrss_kb=str(rss), status="0",
                 timed_out="0", races="0", warnings="0", kernel_s="%.6f" % wall)
    return r


def table_rows(md):
    """The rows of the Markdown table(s) in md, by first cell (headers and rules left out)."""
    return {l.split("|")[1].strip(): [c.strip() for c in l.split("|")[2:-1]]
            for l in md.splitlines() if l.startswith("| ") and not l.startswith(("| workload", "| tool"))}


def main():
    report, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    speed = {1: 1.0, 2: 2.5, 3: 2.5}   # the VM's slowdown in each repetition
    rows = []
    for rep in (1, 2, 3):
        s = speed[rep]
        # lu drifts (native 1.0 s, then 2.5 s), radix does not (its goldi is 0.8x TSan, all three reps).
        rows.append(row("lu", "native", 4, rep, 1.0 * s, 1000))
        rows.append(row("lu", "tsan-clang", 4, rep, 10.0 * s, 4000))
        rows.append(row("lu", "goldi-clang-goldilocks", 4, rep, 15.0 * s if rep < 3 else None, 8000,
                        "ok" if rep < 3 else "BUDGET"))
        rows.append(row("radix", "native", 4, rep, 1.0, 1000))
        rows.append(row("radix", "tsan-clang", 4, rep, 10.0 + rep, 4000))
        rows.append(row("radix", "goldi-clang-goldilocks", 4, rep, 0.8 * (10.0 + rep), 2000))
    with open(os.path.join(work, "runs.tsv"), "w") as f:
        f.write("\t".join(COLS) + "\n")
        for r in rows:
            f.write("\t".join(r[c] for c in COLS) + "\n")
    with open(os.path.join(work, "meta.env"), "w") as f:
        f.write("tools=native tsan-clang goldi-clang-goldilocks\nthreads=4\nnative_div=4\ninstr_div=4\nruns=3\n")
    md = os.path.join(work, "RESULTS.md")
    subprocess.run([sys.executable, report, "--out", work, "--md", md], check=True)
    text = open(md).read()
    section = text.split("## goldi / TSan, paired by repetition")[1].split("\n## ")[0]
    lines = table_rows(section)
    want = {
        "lu *drift*": ["1.50 (1.50–1.50, 2)", "2.00"],
        "radix": ["0.80 (0.80–0.80, 3)", "0.50"],
    }
    bad = [(k, lines.get(k), v) for k, v in want.items() if lines.get(k) != v]
    gm = lines.get("**geomean**")
    if gm != ["**%.2f**" % (1.5 * 0.8) ** 0.5, "1/2 ≤ 1"]:
        bad.append(("geomean", gm, "1.10, 1/2"))
    # The headline table repeats the paired geomean next to the slowdowns.
    head = table_rows(text.split("## Geometric-mean slowdown")[1]).get("goldi Clang goldilocks")
    if not head or head[-1] != "1.10":
        bad.append(("headline", head, "goldi's row ending in 1.10"))
    if "BUDGET" in section:
        bad.append(("section", "mentions BUDGET", section))
    for k, got, exp in bad:
        print("FAIL %s: got %r, want %r" % (k, got, exp))
    if bad:
        print(section)
        return 1
    print("ok: paired ratios 1.50 (drifting lu, goldi's third run lost) and 0.80; geomean %s" % gm[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
