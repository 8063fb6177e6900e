#!/usr/bin/env python3
"""Two builds of one benchmark, side by side: did a change cost speed?

    python3 bench/compare.py BEFORE.json AFTER.json [--filter REGEX] [--noise 0.05] [--all]

BEFORE and AFTER are Google Benchmark JSON outputs of the same rows (preduce_bench or
preduce_bench_gpu with --benchmark_out=FILE --benchmark_out_format=json), best taken in one
session, interleaved (before, after, before, after: each file may be the concatenation of
several runs' "benchmarks" lists, given as FILE[,FILE...]). Repetitions are folded per row
into their median real time. Prints, for every row in both, the two medians and
after / before, then how many rows lie within the noise band (default 5%), and lists the
rows outside it (every row with --all). Exit status 0; the judgement is the reader's, with
the noise of the machine in view (run the same binary twice to see it).
"""
import argparse
import json
import re
import statistics
import sys


def load(spec):
    """Median real time (ns) per row name over every file of the comma-separated spec."""
    times = {}
    for path in spec.split(","):
        with open(path) as f:
            doc = json.load(f)
        for b in doc.get("benchmarks", []):
            if b.get("run_type") == "aggregate" or b.get("error_occurred"):
                continue
            unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            name = b.get("run_name", b["name"])
            times.setdefault(name, []).append(b["real_time"] * unit)
    return {name: statistics.median(v) for name, v in times.items()}


def show(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--filter", default="", help="only rows whose name matches this regular expression")
    p.add_argument("--noise", type=float, default=0.05, help="the band around 1.0 counted as within noise")
    p.add_argument("--all", action="store_true", help="list every row, not only those outside the band")
    a = p.parse_args()
    before, after = load(a.before), load(a.after)
    names = [n for n in before if n in after and re.search(a.filter, n)]
    if not names:
        sys.exit("compare.py: no row is in both files (and matches --filter)")
    ratios = {n: after[n] / before[n] for n in names}
    outside = [n for n in names if abs(ratios[n] - 1.0) > a.noise]
    width = max(len(n) for n in names)
    print(f"{'row':<{width}}  {'before':>10}  {'after':>10}  after/before")
    for n in names:
        if a.all or n in outside:
            print(f"{n:<{width}}  {show(before[n]):>10}  {show(after[n]):>10}  {ratios[n]:.3f}")
    r = sorted(ratios.values())
    print(f"\n{len(names)} rows; after/before median {statistics.median(r):.3f}, range {r[0]:.3f} .. {r[-1]:.3f}; "
          f"{len(names) - len(outside)} within {a.noise:.0%}, {len(outside)} outside "
          f"({sum(1 for n in outside if ratios[n] > 1)} slower, {sum(1 for n in outside if ratios[n] < 1)} faster)")


if __name__ == "__main__":
    main()
