#!/usr/bin/env python3
"""Turn bench/real.sh's runs (real.csv) into the Markdown section of real.md.
Standard library only.

    real_report.py REAL_CSV META NOTES > real.md

Slowdown: a variant's median wall time over native's median wall time on the
same input. goldi / TSan: per round, goldi's wall time over the same
compiler's TSan wall time in that round (seconds apart), then the median of
those ratios (min-max). RSS: goldi's median peak RSS over TSan's."""
import csv
import statistics
import sys

from report import fnum, read_meta   # (bench/report.py, beside this file)

NAMES = {"native": "native", "tsan-gcc": "TSan GCC", "tsan-clang": "TSan Clang",
         "goldi-gcc": "goldi GCC", "goldi-clang": "goldi Clang", "helgrind": "Helgrind", "drd": "DRD"}
SLOW = ["tsan-gcc", "tsan-clang", "goldi-gcc", "goldi-clang"]
VG = ["helgrind", "drd"]


def finished(r):
    """A run that ran to its end (0, or 66: goldi reported a race)."""
    return r["exit"] in ("0", "66") and fnum(r["wall_s"]) is not None


def size_label(n):
    n = int(n)
    return "%g MiB" % (n / 1048576) if n >= 1048576 else "%g KiB" % (n / 1024)


def main():
    csv_path, meta_path, notes_path = sys.argv[1:4]
    rows = list(csv.DictReader(open(csv_path)))
    meta = read_meta(meta_path)
    notes = [x.strip() for x in open(notes_path) if x.strip()]

    cases, runs = [], {}
    for r in rows:
        case = (r["program"], int(r["input_bytes"]))
        if case not in cases:
            cases.append(case)
        runs.setdefault(case, {}).setdefault(r["variant"], []).append(r)
    has_vg = any(v in runs[c] for c in cases for v in VG)

    def med_wall(rs):
        w = [fnum(r["wall_s"]) for r in rs if finished(r)]
        return statistics.median(w) if w else None

    def med_rss(rs):
        m = [fnum(r["maxrss_kb"]) for r in rs if finished(r) and fnum(r["maxrss_kb"])]
        return statistics.median(m) if m else None

    def flags(rs):
        """Why a cell is not clean: no build, bad exits, BADOUT, timeouts."""
        out = []
        exits = [r["exit"] for r in rs]
        if "nobuild" in exits:
            return ["skipped (no build)"]
        if "timeout" in exits:
            out.append("TIMEOUT")
        bad = sorted({e for e in exits if e not in ("0", "timeout")})
        if bad:
            out.append("exit " + "/".join(bad))
        if any(r["output_ok"] == "0" for r in rs):
            out.append("BADOUT")
        return out

    cols = ["program", "input", "native s"] + ["%s ×" % NAMES[v] for v in SLOW]
    cols += ["goldi/TSan GCC (paired)", "goldi/TSan Clang (paired)", "RSS goldi/TSan GCC", "RSS goldi/TSan Clang"]
    if has_vg:
        cols += ["Helgrind ×", "DRD ×"]
    cols += ["races"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join(["---", "--:"] + ["--:"] * (len(cols) - 3) + ["---"]) + "|"]
    for case in cases:
        per = runs[case]
        nat = med_wall(per.get("native", []))
        cells = [case[0], size_label(case[1])]
        nat_rs = per.get("native", [])
        cells.append(("%.2f" % nat if nat is not None else "–") +
                     ("".join(" " + f for f in flags(nat_rs)) if nat_rs else ""))

        def slow_cell(v):
            rs = per.get(v)
            if not rs:
                return "–"
            m = med_wall(rs)
            txt = "%.1f× (%.2f s)" % (m / nat, m) if m is not None and nat else ("%.2f s" % m if m is not None else "")
            return " ".join([txt] + flags(rs)).strip() or "–"

        cells += [slow_cell(v) for v in SLOW]
        for cc in ("gcc", "clang"):
            g, t = per.get("goldi-" + cc, []), per.get("tsan-" + cc, [])
            tw = {r["round"]: fnum(r["wall_s"]) for r in t if finished(r)}
            ratios = [fnum(r["wall_s"]) / tw[r["round"]] for r in g if finished(r) and tw.get(r["round"])]
            if not ratios:
                cells.append("–")
            elif len(ratios) == 1:
                cells.append("%.2f×" % ratios[0])
            else:
                cells.append("%.2f× (%.2f–%.2f)" % (statistics.median(ratios), min(ratios), max(ratios)))
        for cc in ("gcc", "clang"):
            g, t = med_rss(per.get("goldi-" + cc, [])), med_rss(per.get("tsan-" + cc, []))
            cells.append("%.2f" % (g / t) if g and t else "–")
        if has_vg:
            cells += [slow_cell(v) for v in VG]
        races = []
        for v, rs in per.items():
            n = max([int(r["races"]) for r in rs if r["races"]], default=0)
            if n:
                races.append("%s ⚠%d" % (NAMES.get(v, v), n))
        cells.append(", ".join(races) or "0")
        lines.append("| " + " | ".join(cells) + " |")

    nround = max([int(r["round"]) for r in rows], default=0)
    print("## Real programs (xz, zstd from Debian's sources)")
    print()
    print("`%s`, %s (took %s s). Machine: %s cores, %s, %s RAM, %s; load average %s." % (
        meta.get("command", "?"), meta.get("date", "?"), meta.get("elapsed_s", "?"), meta.get("nproc", "?"),
        meta.get("cpu_model", "?"), meta.get("mem_total", "?"), meta.get("kernel", "?"), meta.get("load", "?")))
    print()
    print("- Sources: %s." % meta.get("sources", "?"))
    print("- Compilers: native `%s`; `%s`; `%s`; all with `%s`." % (
        meta.get("cc_native", "?"), meta.get("gcc", "?"), meta.get("clang", "?"), meta.get("cflags", "?")))
    print("- goldi: %s%s." % (meta.get("goldi", "?"),
                              "; GOLDI_OPTIONS=`%s`" % meta["goldi_options"] if meta.get("goldi_options") else ""))
    if meta.get("valgrind"):
        print("- Valgrind: %s (Helgrind and DRD run the native binary)." % meta["valgrind"])
    print("- Commands: `xz -T4 -6 -c INPUT`, `zstd -T4 -3 -c INPUT`. INPUT: the files of both unpacked tarballs "
          "in sorted order, concatenated, repeated and cut to size (sha256 prefixes: %s)." %
          ", ".join("%s %s" % (size_label(k.split(".", 1)[1]), v) for k, v in meta.items() if k.startswith("input.")))
    print()
    print("\n".join(lines))
    print()
    print("%d interleaved round%s (each round runs every variant once, back to back). *native s*: median wall "
          "time. *X ×*: X's median wall time over native's (X's median in brackets). *goldi/TSan (paired)*: "
          "the median over rounds of goldi's wall time over the same compiler's TSan's in the same round "
          "(min–max). *RSS*: median peak RSS, goldi over TSan. *races*: most race reports in one run "
          "(TSan, goldi: `WARNING: … data race`; Helgrind, DRD: `ERROR SUMMARY`), 0 when none. A cell is "
          "flagged BADOUT when an output differs from native's, and with the exit status when it is not 0 "
          "(66: goldi reported a race)." % (nround, "" if nround == 1 else "s"))
    if any(p == "xz" for p, _ in cases):
        print()
        print("xz's multithreaded encoder cuts its input into blocks of 3 × the dictionary size (24 MiB at -6), "
              "so on these inputs one worker thread compresses the single block while the main thread feeds it "
              "input and takes its output (mutex and condition variables).")
    if any(p == "zstd" for p, _ in cases):
        print()
        print("zstd -T4 -3 cuts its input into 8 MiB jobs and compresses them on 4 worker threads.")
    if notes:
        print()
        print("Notes:")
        for n in notes:
            print("- " + n)


if __name__ == "__main__":
    main()
