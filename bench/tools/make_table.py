#!/usr/bin/env python3
"""Writes the benchmark table (Markdown) from one bench run's JSON files.

    make_table.py --problems problems.json --runs runs.tsv [--roofline roofline.json]
                  [--torch torch.json] [--vendor vendor.json] [-o table.md]

problems.json  bench_shapes' output: name, kernel_id, shape, bytes, flops
roofline.json  bench_roofline's output: copy_bytes_per_s, fp32_flops_per_s (without it: no % column figures)
runs.tsv       one line per `stark optimize` run: RESULT_JSON<TAB>WALL_SECONDS<TAB>EXIT_CODE[<TAB>BUDGET]
               (RESULT_JSON relative to the folder of runs.tsv, or absolute; BUDGET: the run's
               --budget, so a table assembled from several device calls says each row's)
               (a run's wall time is split evenly over the kernels of its result)
torch.json     torch_times.py's output; vendor.json: bench_vendor_times' output

A kernel with no result (its run failed) still gets a row, with the reason.
"Best" is the time of the kernel the project ends up with: the best variant
when the result says `improved`, else the naive kernel. % of roofline is
max(bytes / bandwidth, flops / peak) / time, both ceilings measured in the
same run. Geometric means are over the rows that have both figures.
"""
import argparse
import json
import math
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fmt(v, digits=1, suffix=""):
    return "-" if v is None else f"{v:,.{digits}f}{suffix}"


def read_runs(path):
    """kernel id -> {kernel result, wall_s, exit, shared}; plus failed runs' exit codes by result path."""
    by_id, failed = {}, []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            result_path, wall, code = fields[:3]
            budget = int(fields[3]) if len(fields) > 3 and fields[3] else None
            # Relative paths are the run folder's (runs.tsv sits at its top), so a committed run regenerates.
            if not os.path.isabs(result_path):
                result_path = os.path.join(os.path.dirname(os.path.abspath(path)), result_path)
            result = load(result_path) if os.path.exists(result_path) else None
            kernels = result["kernels"] if result else []
            if not kernels:
                failed.append((result_path, int(code)))
            for k in kernels:
                by_id[k["id"]] = {"k": k, "wall_s": float(wall) / len(kernels), "exit": int(code),
                                  "shared": len(kernels) > 1, "gpu": (result.get("gpu") or {}).get("name"),
                                  "budget": budget}
    return by_id, failed


def verification(k):
    """How the kept variant was checked: 'all N passed', or which did not pass or run."""
    if k["status"] != "improved":
        return "naive kept"
    # speedup_plausible is a flag for a person (a speedup above 10x), not a check that could not run.
    flags = [c for c in (k.get("checks") or []) if c["name"] == "speedup_plausible"]
    checks = [c for c in (k.get("checks") or []) if c["name"] != "speedup_plausible"]
    bad = [c["name"] for c in checks if c.get("ok") is False]
    unrun = [c["name"] for c in checks if c.get("ok") is None]
    if bad:
        return "FAILED: " + ", ".join(bad)
    if not checks:
        return "no checks recorded"
    passed = len(checks) - len(unrun)
    return ((f"{passed} passed, {len(unrun)} not run: {', '.join(unrun)}" if unrun else f"all {passed} passed")
            + ("; speedup flagged for review" if flags else ""))


def benchmark_times(k):
    """(naive, best) of the benchmark shape: the kernel's largest captured launch
    when the result lists several (a small one may be captured for the
    sanitizers), else the totals."""
    caps = k.get("captures") or []
    if len(caps) > 1:
        big = max(caps, key=lambda c: c["baseline_us"])
        return big["baseline_us"], big["best_us"]
    return k.get("baseline_us"), k.get("best_us")


def build_rows(problems, roofline, runs, torch_times, vendor):
    bw, peak = roofline.get("copy_bytes_per_s"), roofline.get("fp32_flops_per_s")
    rows = []
    for p in problems:
        run = runs.get(p["kernel_id"])
        k = run["k"] if run else None
        naive, best_time = benchmark_times(k) if k else (None, None)
        improved = k is not None and k["status"] == "improved" and best_time
        best = best_time if improved else naive
        bound_us = max(p["bytes"] / bw, p["flops"] / peak) * 1e6 if bw and peak else None
        v = vendor.get(p["name"])
        wall = run["wall_s"] if run else None
        rows.append({
            "name": p["name"], "shape": p["shape"], "status": k["status"] if k else "no result",
            "naive_us": naive, "best_us": best,
            "speedup": best and naive and naive / best,
            "torch_us": torch_times.get(p["name"]),
            "vendor_us": v["us"] if v else None, "vendor": v["library"] if v else None,
            "roofline_naive": bound_us and naive and 100 * bound_us / naive,
            "roofline_best": bound_us and best and 100 * bound_us / best,
            "attempts": k.get("attempts") if k else None, "wall_s": wall, "shared": run and run["shared"],
            "per_min": k and wall and 60 * k.get("attempts", 0) / wall,
            "verified": verification(k) if k else "-",
            "budget": run and run["budget"], "kernelbench": p.get("kernelbench", ""),
        })
        r = rows[-1]
        r["vs_torch"] = r["torch_us"] and best and r["torch_us"] / best
        r["vs_vendor"] = r["vendor_us"] and best and r["vendor_us"] / best
    return rows


# The STARK paper's KernelBench level-1 figures (STARK with Claude, B=30):
# success rate, fast_1 against torch eager, speedup over torch eager.
PAPER = {"verified": "100%", "fast_1": "71.4%", "vs_torch": "3.03x"}


def share(count, total):
    return f"{count}/{total} ({100 * count / total:.1f}%)" if total else "-"


def paper_measures(rows, summary):
    """The paper's three measures over this table's rows, beside the paper's own.
    verified: a run came back with a kernel that passed its checks (the naive
    one, when nothing faster did); fast_1: the kept kernel is faster than torch
    eager, over the rows torch timed (a row without a result counts as not faster)."""
    verified = [r for r in rows if r["status"] != "no result" and not r["verified"].startswith("FAILED")]
    improved = [r for r in rows if r["status"] == "improved" and not r["verified"].startswith("FAILED")]
    timed = [r for r in rows if r["torch_us"]]
    fast = [r for r in timed if r["vs_torch"] and r["vs_torch"] > 1]
    budgets = sorted({r["budget"] for r in rows if r["budget"]})
    budget = ", ".join(f"B={b}" for b in budgets) if budgets else "not recorded"
    vs_torch = summary.get("best vs torch eager (torch µs / best µs)")
    return ["", f"KernelBench measures ({budget}; the STARK paper's level-1 figures are with Claude at B=30):", "",
            "| measure | this table | the paper |", "| --- | --- | --- |",
            f"| verified (a checked kernel came back) | {share(len(verified), len(rows))} | {PAPER['verified']} |",
            f"| faster than the naive kernel | {share(len(improved), len(rows))} | - |",
            f"| fast_1 vs torch eager | {share(len(fast), len(timed))} | {PAPER['fast_1']} |",
            f"| speedup over torch eager (geometric mean) | {fmt(vs_torch, 2, 'x')} | {PAPER['vs_torch']} |"]


def render(rows, roofline, torch_doc, failed):
    if roofline:
        ceilings = (f"measured copy bandwidth {roofline['copy_bytes_per_s'] / 1e12:.2f} TB/s, "
                    f"fp32 FMA peak {roofline['fp32_flops_per_s'] / 1e12:.1f} TFLOP/s")
    else:
        ceilings = "no roofline measurement (the % column is empty)"
    out = [f"GPU: {roofline.get('gpu', '?')}; {ceilings}"
           + (f"; torch {torch_doc['torch']}" if torch_doc.get("torch") else "") + ".", ""]
    out.append("| kernel | shape | naive µs | best µs | speedup | torch µs | vs torch | vendor µs | vs vendor "
               "| % roofline (naive → best) | attempts | wall s | attempts/min | status | verification | B |")
    out.append("|" + " --- |" * 16)
    for r in rows:
        vendor = f"{fmt(r['vendor_us'])} ({r['vendor']})" if r["vendor_us"] else "-"
        wall = ("~" if r["shared"] else "") + fmt(r["wall_s"], 0)
        out.append(f"| {r['name']} | {r['shape']} | {fmt(r['naive_us'])} | {fmt(r['best_us'])} | "
                   f"{fmt(r['speedup'], 2, 'x')} | {fmt(r['torch_us'])} | {fmt(r['vs_torch'], 2, 'x')} | {vendor} | "
                   f"{fmt(r['vs_vendor'], 2, 'x')} | {fmt(r['roofline_naive'])} → {fmt(r['roofline_best'])} | "
                   f"{fmt(r['attempts'], 0)} | {wall} | {fmt(r['per_min'])} | {r['status']} | {r['verified']} | "
                   f"{r['budget'] or '-'} |")
    # (label, the rows' figures, unit): each mean is over the rows that have the figure.
    means = [
        ("speedup over naive", [r["speedup"] for r in rows], "x"),
        ("naive vs torch eager (torch µs / naive µs)",
         [r["torch_us"] / r["naive_us"] for r in rows if r["torch_us"] and r["naive_us"]], "x"),
        ("best vs torch eager (torch µs / best µs)", [r["vs_torch"] for r in rows], "x"),
        ("best vs vendor (vendor µs / best µs)", [r["vs_vendor"] for r in rows], "x"),
        ("% of roofline, best", [r["roofline_best"] for r in rows], "%"),
    ]
    out += ["", "Geometric means:", ""]
    summary = {}
    for label, values, unit in means:
        values = [v for v in values if v]
        summary[label] = geomean(values)
        out.append(f"- {label}: {fmt(summary[label], 1 if unit == '%' else 2, unit)} ({len(values)} rows)")
    out += paper_measures(rows, summary)
    if failed:
        out += ["", "Runs without a result: " + ", ".join(f"{p} (exit {c})" for p, c in failed)]
    return "\n".join(out) + "\n", summary


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--problems", required=True)
    ap.add_argument("--roofline")
    ap.add_argument("--runs", required=True)
    ap.add_argument("--torch")
    ap.add_argument("--vendor")
    ap.add_argument("-o", "--out")
    a = ap.parse_args(argv)
    torch_doc = load(a.torch) if a.torch and os.path.exists(a.torch) else {}
    vendor_doc = load(a.vendor) if a.vendor and os.path.exists(a.vendor) else {}
    roofline = load(a.roofline) if a.roofline and os.path.exists(a.roofline) else {}
    runs, failed = read_runs(a.runs)
    rows = build_rows(load(a.problems)["problems"], roofline, runs, torch_doc.get("times", {}),
                      vendor_doc.get("times", {}))
    text, _ = render(rows, roofline, torch_doc, failed)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
