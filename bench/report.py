#!/usr/bin/env python3
"""Aggregate bench/run.sh's per-run rows into latest.csv, scaling.csv,
slowdown.dat (for plot.gp) and RESULTS.md. Standard library only.

Every slowdown divides a tool's median wall time by the median wall time of
the native build at the SAME problem size and thread count, measured in the
same session (run.sh interleaves the runs)."""
import argparse
import csv
import math
import os
import statistics
from collections import OrderedDict, defaultdict

TOOL_NAMES = {
    "native": "native",
    "tsan-gcc": "TSan (GCC)",
    "tsan-clang": "TSan (Clang)",
    "goldi-gcc-goldilocks": "goldi GCC goldilocks",
    "goldi-gcc-vc": "goldi GCC vc",
    "goldi-clang-goldilocks": "goldi Clang goldilocks",
    "goldi-clang-vc": "goldi Clang vc",
    "helgrind": "Helgrind",
    "drd": "DRD",
}
ALL_TOOLS = list(TOOL_NAMES)


def tool_name(t):
    """Column label; run.sh also takes goldi-{gcc,clang}-ENGINE for any engine."""
    if t in TOOL_NAMES:
        return TOOL_NAMES[t]
    cc, _, engine = t[len("goldi-"):].partition("-")
    return "goldi %s %s" % ({"gcc": "GCC", "clang": "Clang"}.get(cc, cc), engine)


def tool_order(t):
    return (ALL_TOOLS.index(t), "") if t in ALL_TOOLS else (len(ALL_TOOLS), t)


WORKLOAD_ORDER = ["sharedspot", "localspot", "multiset", "lockfree", "stencil", "lu", "radix", "nbody",
                  "blackscholes", "pipeline", "hashtable", "threadpool"]
BAD = ("FAILED", "CRASH", "TIMEOUT", "BUDGET", "NOBUILD", "BADSUM")


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def paired_ratios(rows, phase, w, tool, anchor, div, thr):
    """tool's wall time / anchor's in each repetition where both finished."""
    def walls(t):
        return {r["rep"]: fnum(r["wall_s"]) for r in rows
                if (r["phase"], r["workload"], r["tool"]) == (phase, w, t) and int(r["div"]) == div and
                int(r["threads"]) == thr and r["check"] == "ok" and fnum(r["wall_s"])}
    a, b = walls(tool), walls(anchor)
    return [a[k] / b[k] for k in sorted(a) if k in b]


def read_meta(path):
    meta = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    meta[k] = v
    return meta


def aggregate(rows):
    """Group the runs of one (phase, workload, tool, div, threads)."""
    groups = OrderedDict()
    for r in rows:
        key = (r["phase"], r["workload"], r["tool"], int(r["div"]), int(r["threads"]))
        groups.setdefault(key, []).append(r)
    out = OrderedDict()
    for key, rs in groups.items():
        # Wrong results (FAILED, CRASH) always flag the cell. Runs lost to the
        # time limits (TIMEOUT, BUDGET) only do when no run finished: the
        # medians then come from the finished runs and `runs` says how many.
        checks = [r["check"] for r in rs]
        done = [r for r in rs if r["check"] == "ok"]
        killed = [r for r in rs if r["check"] in ("TIMEOUT", "BUDGET") and r["wall_s"]]
        ran = done or killed or [r for r in rs if r["wall_s"]]
        walls = [fnum(r["wall_s"]) for r in ran]
        users = [fnum(r["user_s"]) for r in ran]
        syss = [fnum(r["sys_s"]) for r in ran]
        cpus = [u + s for u, s in zip(users, syss) if u is not None and s is not None]
        bad = [c for c in checks if c not in ("ok", "TIMEOUT", "BUDGET")]
        if not done:
            bad += [c for c in checks if c != "ok"]
        sums = sorted({r["checksum"] for r in rs if r["checksum"]})
        out[key] = {
            "size": int(rs[0]["size"]),
            "runs": len(ran),
            "wall": median(walls),
            "wall_min": min([w for w in walls if w is not None], default=None),
            "wall_max": max([w for w in walls if w is not None], default=None),
            "user": median(users),
            "sys": median(syss),
            "cpu": median(cpus),
            "kernel": median([fnum(r["kernel_s"]) for r in ran]),
            "maxrss": max([int(r["maxrss_kb"]) for r in ran if r["maxrss_kb"]], default=None),
            "races": max([int(r["races"]) for r in rs if r["races"]], default=0),
            "warnings": max([int(r["warnings"]) for r in rs if r["warnings"]], default=0),
            "check": bad[0] if bad else "ok",
            "checksum": sums[0] if len(sums) == 1 else "|".join(sums),
            "note": "; ".join(x for x in [
                "checksum differs between runs" if len(sums) > 1 else "",
                "%d of %d runs finished (rest: %s)" % (len(done), len(rs), ",".join(sorted({c for c in checks if c != "ok"})))
                if done and len(done) < len(rs) else ""] if x),
        }
    # Slowdowns and the cross-tool checksum check, against native at equal size.
    for (phase, w, tool, div, thr), g in out.items():
        nat = out.get((phase, w, "native", div, thr))
        g["native_wall"] = nat["wall"] if nat else None
        g["native_kernel"] = nat["kernel"] if nat else None
        g["native_cpu"] = nat["cpu"] if nat else None
        ok = g["check"] == "ok"
        g["slowdown"] = g["wall"] / nat["wall"] if ok and nat and nat["wall"] and g["wall"] else None
        g["kernel_slowdown"] = (g["kernel"] / nat["kernel"]
                                if ok and nat and nat["kernel"] and g["kernel"] else None)
        g["cpu_slowdown"] = g["cpu"] / nat["cpu"] if ok and nat and nat["cpu"] and g["cpu"] else None
        # A killed run still bounds the slowdown from below.
        g["slowdown_lb"] = (g["wall_max"] / nat["wall"] if g["check"] in ("TIMEOUT", "BUDGET") and nat and
                            nat["wall"] and g["wall_max"] else None)
        if ok and nat and nat["check"] == "ok" and g["checksum"] != nat["checksum"]:
            g["check"] = "BADSUM"
            g["note"] = "checksum %s != native %s" % (g["checksum"], nat["checksum"])
            g["slowdown"] = g["kernel_slowdown"] = g["cpu_slowdown"] = None
    return out


def fmt(x, spec):
    return "" if x is None else format(x, spec)


def write_csv(path, agg, phase):
    cols = ["workload", "tool", "threads", "size", "size_div", "runs", "wall_median_s", "wall_min_s",
            "wall_max_s", "cpu_median_s", "user_median_s", "sys_median_s", "kernel_median_s", "maxrss_kb",
            "races", "warnings", "check", "checksum", "native_wall_median_s", "native_kernel_median_s",
            "slowdown", "kernel_slowdown", "cpu_slowdown", "note"]
    with open(path, "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(cols)
        for (ph, w, tool, div, thr), g in agg.items():
            if ph != phase:
                continue
            wr.writerow([w, tool, thr, g["size"], div, g["runs"], fmt(g["wall"], ".6f"), fmt(g["wall_min"], ".6f"),
                         fmt(g["wall_max"], ".6f"), fmt(g["cpu"], ".6f"), fmt(g["user"], ".6f"),
                         fmt(g["sys"], ".6f"), fmt(g["kernel"], ".6f"), g["maxrss"] or "", g["races"],
                         g["warnings"], g["check"], g["checksum"], fmt(g["native_wall"], ".6f"),
                         fmt(g["native_kernel"], ".6f"), fmt(g["slowdown"], ".3f"),
                         fmt(g["kernel_slowdown"], ".3f"), fmt(g["cpu_slowdown"], ".3f"), g["note"]])


def cell_flags(g):
    """Markers appended to a table cell: failed checks and race reports."""
    s = ""
    if g["check"] != "ok":
        lb = g.get("slowdown_lb")
        s += " **%s**%s" % (g["check"], " (≥%.0f×)" % lb if lb else "")
    if g["races"]:
        s += " ⚠%d" % g["races"]
    return s


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" if i == 0 else "--:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--md", required=True)
    ap.add_argument("--real", help="bench/real.sh's table (real.md), appended")
    a = ap.parse_args()

    with open(os.path.join(a.out, "runs.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    meta = read_meta(os.path.join(a.out, "meta.env"))
    skipped = []
    sk_path = os.path.join(a.out, "skipped.tsv")
    if os.path.exists(sk_path):
        with open(sk_path) as f:
            skipped = [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]

    agg = aggregate(rows)
    write_csv(os.path.join(a.out, "latest.csv"), agg, "main")
    write_csv(os.path.join(a.out, "scaling.csv"), agg, "scale")

    tools = [t for t in meta.get("tools", "").split() if t in TOOL_NAMES or t.startswith("goldi-")] or \
        sorted({k[2] for k in agg}, key=tool_order)
    others = [t for t in tools if t != "native"]
    wls = sorted({k[1] for k in agg if k[0] == "main"},
                 key=lambda w: WORKLOAD_ORDER.index(w) if w in WORKLOAD_ORDER else 99)
    thr = int(meta.get("threads", "4"))
    div_of = {"native": int(meta.get("native_div", 1))}
    for t in others:
        div_of[t] = int(meta.get("vg_div" if t in ("helgrind", "drd") else "instr_div", 1))

    def g_main(w, t):
        return agg.get(("main", w, t, div_of[t], thr))

    # slowdown.dat for gnuplot: one row per workload, one column per tool.
    # Tools with no measured cell at all are left out: gnuplot skips an
    # all-missing column, which would shift every later histogram cluster.
    plotted = [t for t in others if any(g_main(w, t) and g_main(w, t)["slowdown"] for w in wls)]
    with open(os.path.join(a.out, "slowdown.dat"), "w") as f:
        f.write("workload " + " ".join('"%s"' % tool_name(t) for t in plotted) + "\n")
        for w in wls:
            vals = []
            for t in plotted:
                g = g_main(w, t)
                vals.append(fmt(g["slowdown"], ".4f") if g and g["slowdown"] else "?")
            f.write(w + " " + " ".join(vals) + "\n")
        gms = []
        for t in plotted:
            m = geomean([g_main(w, t)["slowdown"] for w in wls if g_main(w, t)])
            gms.append(fmt(m, ".4f") if m else "?")
        f.write("geomean " + " ".join(gms) + "\n")

    md = []
    md.append("# Benchmark results\n")
    md.append("Generated by `bench/run.sh` (see `bench/README.md`); regenerated on every run, raw numbers in "
              "`bench/results/latest.csv` (main table), `bench/results/scaling.csv` and `bench/results/runs.tsv` "
              "(every single run).\n")
    md.append("- Command: `%s` (mode: %s)" % (meta.get("command", "?"), meta.get("mode", "?")))
    md.append("- Date: %s; suite wall time: %.0f s (%.1f min)" % (
        meta.get("date", "?"), float(meta.get("elapsed_s", "0")), float(meta.get("elapsed_s", "0")) / 60))
    md.append("- Machine: %s cores (`nproc`), CPU `%s`, %s RAM, %s" % (
        meta.get("host_nproc", "?"), meta.get("cpu_model", "?"), meta.get("mem_total", "?"), meta.get("kernel", "?")))
    md.append("- Compilers: native `%s`; `%s`; `%s`; %s" % (
        meta.get("cc_native", "?"), meta.get("gcc", "?"), meta.get("clang", "?"), meta.get("valgrind", "?")))
    md.append("- Flags: `%s` for every build (+ `-fsanitize=thread` for TSan; `goldi cc` adds its own); "
              "Helgrind/DRD run the native binary" % meta.get("cflags", "?"))
    md.append("- goldi: `%s`" % meta.get("goldi", "?"))
    md.append("- %s runs per cell (median reported), %s worker threads (`-t %s`), runs interleaved across tools"
              % (meta.get("runs", "?"), thr, thr))
    md.append("- Problem sizes: native at its default size (work / %s); TSan and goldi at **work / %s**; "
              "Helgrind and DRD at **work / %s** (Valgrind is 100–1000x slower). Native is also timed at every "
              "reduced size, and each slowdown compares equal sizes. Per-run timeout %s s (Valgrind %s s)."
              % (meta.get("native_div", "?"), meta.get("instr_div", "?"), meta.get("vg_div", "?"),
                 meta.get("run_timeout", "?"), meta.get("vg_timeout", "?")))
    md.append("- Load average (1/5/15 min) at start: %s, at end: %s; highest 1-min load seen at a run start: %s "
              "(it counts the suite's own threads too: 4 a cell, up to 64 in the scaling table)."
              % (meta.get("load_start", "?"), meta.get("load_end", "?"), meta.get("load_max", "not recorded")))
    others_share, steal_share = meta.get("others_cpu_share"), meta.get("steal_share")
    if others_share is not None and steal_share is not None:
        md.append("- Other jobs during the timed runs: %.1f %% of the machine's CPU time (wall x cores) was "
                  "spent outside this suite, and %.1f %% was stolen from this VM by its hypervisor."
                  % (100 * float(others_share), 100 * float(steal_share)))
        if float(others_share) > 0.10 or float(steal_share) > 0.10:
            md.append("- **Warning: other jobs took a noticeable share of the machine during this run; single "
                      "cells are inflated and noisy: rerun on a quiet machine before quoting them.**")
    else:   # (results from before the CPU accounting: only the load average to go by)
        try:
            if float((meta.get("load_max") or "0").split()[0]) > 2 * float(meta.get("host_nproc", "2")):
                md.append("- **Warning: the load average was high during this run (the suite's own threads "
                          "count in it); rerun on a quiet machine before quoting these numbers.**")
        except ValueError:
            pass
    md.append("")
    if skipped:
        md.append("**Skipped tools:**\n")
        for t, why in skipped:
            md.append("- `%s`: %s" % (t, why))
        md.append("")

    # Slowdown table with geometric means.
    def slow_table(key, title, expl):
        md.append("## %s\n" % title)
        md.append(expl + "\n")
        header = ["workload", "native s (size)"] + [tool_name(t) for t in others]
        body = []
        per_tool = defaultdict(list)
        for w in wls:
            n = g_main(w, "native")
            r = [w, "%s (%s)" % (fmt(n and (n["kernel"] if key == "kernel_slowdown" else n["wall"]), ".3f"),
                                 n["size"] if n else "?") + (cell_flags(n) if n else "")]
            for t in others:
                g = g_main(w, t)
                if not g:
                    r.append("–")
                    continue
                v = g[key]
                per_tool[t].append(v)
                part = " (%d run%s)" % (g["runs"], "s" if g["runs"] > 1 else "") if v and g["note"] else ""
                r.append((fmt(v, ".1f") + "×" if v else "") + part + cell_flags(g))
            body.append(r)
        gm = ["**geomean**", ""]
        for t in others:
            vals = [v for v in per_tool[t] if v]
            m = geomean(vals)
            gm.append("**%s×**%s" % (fmt(m, ".1f"), "" if len(vals) == len(wls) else " (%d/%d)" % (len(vals), len(wls)))
                      if m else "–")
        body.append(gm)
        md.append(md_table(header, body))
        md.append("")
        return {t: geomean([v for v in per_tool[t] if v]) for t in others}

    gm_wall = slow_table("slowdown", "Slowdown vs native (median wall time)",
                         "Cell = tool median wall time / native median wall time at the same size and thread count "
                         "(whole process: start-up, set-up, kernel, self-check). ⚠N = N race reports "
                         "(TSan/goldi: `WARNING: ... data race` lines; Helgrind/DRD: `ERROR SUMMARY` count); "
                         "all should be 0. **FAILED/CRASH/TIMEOUT/BADSUM** = self-check failed, no checksum line, "
                         "killed by the per-run timeout, or checksum differs from native's; **BUDGET** = not run, "
                         "or killed, to keep the suite within its time budget (see README); (≥N×) = lower bound "
                         "from a killed run. Geomeans use the measured cells only.")
    slow_table("kernel_slowdown", "Slowdown vs native (timed kernel only)",
               "Same, but from the time each workload measures around its parallel phase (`time=` in its output), "
               "i.e. without process start-up, input generation and self-check. Closer to the per-access overhead; "
               "matters most for Valgrind, whose start-up (~0.3–0.5 s) dominates the small sizes it is given.")

    def abs_table(title, fn, expl):
        md.append("## %s\n" % title)
        md.append(expl + "\n")
        header = ["workload"] + [tool_name(t) for t in tools]
        body = []
        for w in wls:
            r = [w]
            for t in tools:
                g = g_main(w, t)
                r.append(fn(g) if g else "–")
            body.append(r)
        md.append(md_table(header, body))
        md.append("")

    # goldi against its compiler's TSan, paired by repetition. Runs are
    # rep-major and a workload's tools run back to back, so the two runs of a
    # pair are seconds apart while the reps are minutes apart: on a VM whose
    # speed drifts (session 32: hashtable's native runs took 0.32, 0.74 and
    # 0.81 s), a ratio of two medians drawn from different reps (a goldi cell
    # cut to 2 runs by the budget against TSan's 3) is off by the drift, a
    # median of paired ratios is not.
    anchors = [(t, "tsan-" + t.split("-")[1]) for t in others
               if t.startswith("goldi-") and "tsan-" + t.split("-")[1] in others]
    ratio_gm = {}
    if anchors:
        md.append("## goldi / TSan, paired by repetition\n")
        md.append("Cell = median over the repetitions where both ran of (goldi's wall time / the same compiler's "
                  "TSan's wall time in that repetition), with the pairs' min–max and their number. "
                  "Below 1: goldi is faster. RSS = goldi's peak RSS / TSan's. *drift* = native's runs at this "
                  "size spread by more than 1.25× (the machine's speed changed between repetitions: the paired "
                  "ratio still holds, the slowdown table's cells do not).\n")
        header = ["workload"] + sum([[tool_name(t) + " / TSan", "RSS"] for t, _ in anchors], [])
        body, per = [], defaultdict(list)
        rss_le = defaultdict(int)
        for w in wls:
            r = [w]
            for t, an in anchors:
                pr = paired_ratios(rows, "main", w, t, an, div_of[t], thr)
                g, ga = g_main(w, t), g_main(w, an)
                m = median(pr)
                per[t].append(m)
                r.append("%.2f (%.2f–%.2f, %d)" % (m, min(pr), max(pr), len(pr)) if pr else "–")
                if g and ga and g["check"] == ga["check"] == "ok" and g["maxrss"] and ga["maxrss"]:
                    q = g["maxrss"] / ga["maxrss"]
                    rss_le[t] += q <= 1
                    r.append("%.2f" % q)
                else:
                    r.append("–")
            nat = [fnum(x["wall_s"]) for x in rows if x["phase"] == "main" and x["workload"] == w and
                   x["tool"] == "native" and int(x["div"]) == div_of[anchors[0][0]] and x["check"] == "ok"]
            if len(nat) > 1 and max(nat) > 1.25 * min(nat):
                r[0] += " *drift*"
            body.append(r)
        gm = ["**geomean**"]
        for t, _ in anchors:
            vals = [v for v in per[t] if v]
            ratio_gm[t] = geomean(vals)
            gm += ["**%s**%s" % (fmt(ratio_gm[t], ".2f"), "" if len(vals) == len(wls) else " (%d/%d)" % (len(vals), len(wls))),
                   "%d/%d ≤ 1" % (rss_le[t], len(wls))]
        body.append(gm)
        md.append(md_table(header, body))
        md.append("")

    abs_table("Median wall time (s)", lambda g: fmt(g["wall"], ".3f") + (" [n=%d]" % g["size"]),
              "Absolute times at the size each tool ran (`[n=...]` = the `-n` given).")
    abs_table("Median CPU time, user+sys (s)", lambda g: fmt(g["cpu"], ".3f"),
              "At the same sizes as the wall-time table; on 2 cores CPU time can exceed wall time.")
    abs_table("Peak RSS (MiB)", lambda g: fmt(g["maxrss"] / 1024 if g["maxrss"] else None, ".1f"),
              "Maximum over the runs of `ru_maxrss` (what `/usr/bin/time -f %M` reports).")
    abs_table("Races reported", lambda g: ("**%d**" % g["races"]) if g["races"] else "0",
              "Max over the runs. Every workload is race-free, so any nonzero cell is a false positive or a bug.")

    flagged = [(w, t, g_main(w, t)) for w in wls for t in tools if g_main(w, t) and
               (g_main(w, t)["races"] or g_main(w, t)["check"] != "ok")]
    if flagged:
        md.append("### Flagged cells\n")
        for w, t, g in flagged:
            md.append("- %s / %s: %s%s" % (w, tool_name(t),
                                            "%d race reports" % g["races"] if g["races"] else "",
                                            (" check=%s %s" % (g["check"], g["note"])) if g["check"] != "ok" else ""))
        md.append("\nStderr of the last run of each cell is in `bench/results/logs/`.\n")

    # Scaling table.
    sc = {k: g for k, g in agg.items() if k[0] == "scale"}
    if sc:
        md.append("## Scaling (threads)\n")
        md.append("Fixed total work split over T threads (`-t T`), 1 run per cell, sizes a further /%s smaller than "
                  "the main table. Native row: wall seconds; tool rows: slowdown vs native at the same T and size."
                  % meta.get("scale_div", "?"))
        md.append("")
        threads = sorted({k[4] for k in sc})
        header = ["workload", "tool"] + ["T=%d" % t for t in threads]
        body = []
        for w in [w for w in WORKLOAD_ORDER if any(k[1] == w for k in sc)]:
            for t in tools:
                r = [w, tool_name(t)]
                any_cell = False
                for T in threads:
                    g = next((g for k, g in sc.items() if k[1] == w and k[2] == t and k[4] == T and
                              (t != "native" or k[3] == int(meta.get("native_div", 1)) * int(meta.get("scale_div", 1)))), None)
                    if not g:
                        r.append("–")
                        continue
                    any_cell = True
                    if t == "native":
                        r.append(fmt(g["wall"], ".3f") + " s" + cell_flags(g))
                    else:
                        r.append((fmt(g["slowdown"], ".1f") + "×" if g["slowdown"] else "") + cell_flags(g))
                if any_cell:
                    body.append(r)
        md.append(md_table(header, body))
        md.append("")

    md.append("## Geometric-mean slowdown (wall)\n")
    md.append(md_table(["tool", "geomean slowdown", "geomean of paired ratios to its compiler's TSan"],
                       [[tool_name(t), fmt(gm_wall[t], ".2f") + "×" if gm_wall[t] else "–",
                         fmt(ratio_gm.get(t), ".2f") if ratio_gm.get(t) else ""] for t in others]))
    md.append("")
    md.append("![slowdown per workload and tool](results/slowdown.png)\n")

    if a.real:
        with open(a.real) as f:
            md.append(f.read())
    with open(a.md, "w") as f:
        f.write("\n".join(md))


if __name__ == "__main__":
    main()
