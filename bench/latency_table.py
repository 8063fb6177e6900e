#!/usr/bin/env python3
"""Latency tables (and a log-log plot) from the latency rows of preduce_bench or
preduce_bench_gpu (Google Benchmark JSON; the median call of each row is its median_us
counter, bench/median_timer.hpp).

    latency_table.py RUN.json [--plot latency.png]

Sections, each printed when the run has its rows:
  - preduce vs CUB + copy (GPU): per op, residency and n, CUB time / ours, against the
    goal of issue 16 (>= 1.25 up to 2^20, >= 1.0 above);
  - reduce_async + synchronize vs CUB on the same kind of stream (GPU);
  - the floors (an empty kernel + synchronize, a 4-byte copy back);
  - backend::automatic against every backend (both benchmarks): per op, residency and n,
    the best backend, auto / best, and whether auto is the slowest;
  - the price of determinism (precision/... rows, both benchmarks): per op, type and n,
    fast time / deterministic time and fast time / compensated time, against the goal of
    issue 16 (>= 0.95 and >= 0.92);
  - preduce vs CUB + copy interleaved in one row (latency_pair/... rows, GPU);
  - the fixed order's block-pass forms (forms/... rows, GPU): per precision, type and n,
    fast time / each form's time, the chosen form's through the front end.
"""
import argparse
import json
from collections import defaultdict


def load(path):
    with open(path) as f:
        data = json.load(f)
    # One value per row: its median_us, or with --benchmark_repetitions the median of the
    # repetitions' median_us (the "median" aggregate).
    # automatic/... rows hold one counter per candidate (<backend>_us): they become
    # grid/<backend>/<op>/<type>/<n>[/<where>] here, measured side by side.
    rows, from_aggregate = {}, set()
    for b in data["benchmarks"]:
        name = b.get("run_name", b["name"]).split("/iterations:")[0].replace("/manual_time", "")
        interleaved = {"automatic": "grid", "precision": "precision", "forms": "forms", "latency_pair": "pair"}
        kind = name.split("/", 1)[0]
        if kind in interleaved and (b.get("run_type") != "aggregate" or b.get("aggregate_name") == "median"):
            rest = name.split("/", 1)[1]
            for key, value in b.items():
                if key.endswith("_us") and key != "median_us":
                    rows[interleaved[kind] + "/" + key[:-3] + "/" + rest] = value
            continue
        if not name.startswith("latency/") or "median_us" not in b:
            continue
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                rows[name] = b["median_us"]
                from_aggregate.add(name)
        elif name not in from_aggregate:
            rows[name] = b["median_us"]
    return rows


def us_text(x):
    # Microseconds to three decimals below 1 us (host calls of a few ns to a few hundred),
    # two above.
    return f"{x:.3f}" if x < 1 else f"{x:.2f}"


def log2(n):
    return f"2^{int(n).bit_length() - 1}"


def gpu_vs_cub(rows):
    table = defaultdict(dict)  # (op, where) -> n -> {who: us}
    for name, us in rows.items():
        p = name.split("/")
        if len(p) == 6 and p[1] in ("preduce", "cub"):
            table[(p[2], p[5])].setdefault(int(p[4]), {})[p[1]] = us
    if not table:
        return
    print("\n## preduce (front end, result on the host) vs CUB + cudaMemcpy of the result\n")
    print("Median call, host wall clock. Goal: CUB / ours >= 1.25 for n <= 2^20, >= 1.0 above.\n")
    print("| op | input | n | preduce us | CUB + copy us | CUB / ours | goal |")
    print("|---|---|---|---|---|---|---|")
    misses = []
    for (op, where), by_n in sorted(table.items()):
        for n in sorted(by_n):
            r = by_n[n]
            if "preduce" not in r or "cub" not in r:
                continue
            ratio = r["cub"] / r["preduce"]
            goal = 1.25 if n <= 1 << 20 else 1.0
            met = "met" if ratio >= goal else "MISSED"
            if ratio < goal:
                misses.append(f"{op}/{where}/{log2(n)} {ratio:.2f}")
            print(f"| {op} | {where} | {log2(n)} | {r['preduce']:.2f} | {r['cub']:.2f} | {ratio:.2f} | {met} |")
    print(f"\nmissed: {len(misses)} of the rows" + (": " + ", ".join(misses) if misses else ""))


def stream_rows(rows):
    table = defaultdict(dict)
    for name, us in rows.items():
        p = name.split("/")
        if len(p) == 6 and p[1] in ("preduce_stream", "cub_stream"):
            table[p[2]].setdefault(int(p[4]), {})[p[1]] = us
    if not table:
        return
    print("\n## reduce_async + cudaStreamSynchronize vs CUB on the same kind of stream (result left on the GPU)\n")
    print("| op | n | preduce us | CUB us | CUB / ours |")
    print("|---|---|---|---|---|")
    for op, by_n in sorted(table.items()):
        for n in sorted(by_n):
            r = by_n[n]
            if len(r) == 2:
                print(f"| {op} | {log2(n)} | {r['preduce_stream']:.2f} | {r['cub_stream']:.2f} | "
                      f"{r['cub_stream'] / r['preduce_stream']:.2f} |")


def floors(rows):
    found = {k: v for k, v in rows.items() if k.startswith("latency/floor/")}
    if found:
        print("\n## floors\n")
        for k, v in sorted(found.items()):
            print(f"- {k.split('/')[-1]}: {v:.2f} us")


def per_backend(rows):
    # latency/<backend>/<op>/<type>/<n> of the CPU benchmark: one table per op.
    table = defaultdict(dict)  # (op, type) -> n -> {backend: us}
    for name, us in rows.items():
        p = name.split("/")
        if p[0] == "latency" and len(p) == 5 and p[1] != "floor":
            table[(p[2], p[3])].setdefault(int(p[4]), {})[p[1]] = us
    for (op, ty), by_n in sorted(table.items()):
        names = sorted({b for r in by_n.values() for b in r})
        print(f"\n## latency of {op} {ty}, median call (us)\n")
        print("| n | " + " | ".join(names) + " |")
        print("|---|" + "---|" * len(names))
        for n in sorted(by_n):
            print(f"| {log2(n)} | " + " | ".join(us_text(by_n[n][b]) if b in by_n[n] else "-" for b in names) + " |")


def automatic(rows):
    # grid/<backend>/<op>/<type>/<n>[/<where>]: the interleaved automatic/ rows.
    table = defaultdict(dict)  # (op, type, where) -> n -> {backend: us}
    for name, us in rows.items():
        p = name.split("/")
        if p[0] != "grid":
            continue
        where = p[5] if len(p) > 5 else "host"
        table[(p[2], p[3], where)].setdefault(int(p[4]), {})[p[1]] = us
    table = {k: v for k, v in table.items() if any("auto" in r and len(r) >= 2 for r in v.values())}
    if not table:
        return
    print("\n## backend::automatic against every backend (median call, us)\n")
    print("auto / best: auto's time over the fastest backend's at that point (goal <= 1.10); "
          "slowest: auto slower than every backend.\n")
    worst = 0.0
    for (op, ty, where), by_n in sorted(table.items()):
        names = sorted({b for r in by_n.values() for b in r if b != "auto"})
        print(f"\n### {op} {ty}, {where} data\n")
        print("| n | " + " | ".join(names) + " | auto | best | auto / best | slowest |")
        print("|---|" + "---|" * (len(names) + 4))
        for n in sorted(by_n):
            r = by_n[n]
            if "auto" not in r:
                continue
            others = {b: t for b, t in r.items() if b != "auto"}
            best = min(others, key=others.get)
            ratio = r["auto"] / others[best]
            worst = max(worst, ratio)
            slowest = "yes" if len(others) > 1 and r["auto"] > max(others.values()) else "no"
            cells = " | ".join(us_text(r[b]) if b in r else "-" for b in names)
            print(f"| {log2(n)} | {cells} | {us_text(r['auto'])} | {best} | {ratio:.2f} | {slowest} |")
    print(f"\nworst auto / best over the grid: {worst:.2f}")


def interleaved(rows, kind, key):
    # <kind>/<candidate>/<rest...> -> key(parts) -> {candidate: us}: the rows one
    # interleaved benchmark row became in load().
    table = defaultdict(dict)
    for name, us in rows.items():
        p = name.split("/")
        if p[0] == kind:
            table[key(p)][p[1]] = us
    return table


def precision(rows):
    # precision/<precision>/[<backend>/]<op>/<type>/<n> -> (backend, op, type, n) -> {precision: us}
    table = interleaved(rows, "precision", lambda p: (p[2] if len(p) == 6 else "cuda", p[-3], p[-2], int(p[-1])))
    if not table:
        return
    print("\n## The price of determinism: fast time / deterministic time, fast time / compensated time\n")
    print("Goal (issue 16): deterministic >= 0.95, compensated >= 0.92.\n")
    print("| backend | op | type | n | fast us | det us | fast/det | comp us | fast/comp |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    misses = 0
    for key in sorted(table):
        t = table[key]
        if not all(k in t for k in ("fast", "deterministic", "compensated")):
            continue
        d, c = t["fast"] / t["deterministic"], t["fast"] / t["compensated"]
        flag_d = "" if d >= 0.95 else " (miss)"
        flag_c = "" if c >= 0.92 else " (miss)"
        misses += (d < 0.95) + (c < 0.92)
        who, op, typ, n = key
        print(f"| {who} | {op} | {typ} | {log2(n)} | {t['fast']:.1f} | {t['deterministic']:.1f} | {d:.3f}{flag_d} | "
              f"{t['compensated']:.1f} | {c:.3f}{flag_c} |")
    print(f"\n{misses} ratios miss the goal.")


def pairs(rows):
    # pair/<who>/<op>/<type>/<n>/<where> -> (op, where, n) -> {who: us}
    table = interleaved(rows, "pair", lambda p: (p[2], p[5], int(p[4])))
    if not table:
        return
    print("\n## preduce vs CUB + cudaMemcpy, interleaved in one row (latency_pair/...)\n")
    print("Median call of each, timed in turn. Goal: CUB / ours >= 1.25 for n <= 2^20.\n")
    print("| op | input | n | preduce us | CUB + copy us | CUB / ours | goal |")
    print("|---|---|---|---|---|---|---|")
    missed = []
    for key in sorted(table):
        t = table[key]
        if "preduce" not in t or "cub" not in t:
            continue
        ratio = t["cub"] / t["preduce"]
        ok = ratio >= 1.25
        if not ok:
            missed.append(f"{key[0]}/{key[1]}/{log2(key[2])} {ratio:.2f}")
        print(f"| {key[0]} | {key[1]} | {log2(key[2])} | {t['preduce']:.2f} | {t['cub']:.2f} | {ratio:.2f} | "
              f"{'met' if ok else 'MISSED'} |")
    print(f"\nmissed: {len(missed)} of the rows" + (": " + ", ".join(missed) if missed else ""))


def forms(rows):
    # forms/<candidate>/<precision>/sum/<type>/<n> -> (precision, type, n) -> {candidate: us}
    table = interleaved(rows, "forms", lambda p: (p[2], p[4], int(p[5])))
    if not table:
        return
    names = ["chosen", "staged", "bulk", "one_lane", "vector"]
    print("\n## The fixed order's block-pass forms: fast time / each form's time (sum)\n")
    print("`chosen` goes through the front end, as `fast` does; the forms are launched directly.\n")
    print("| precision | type | n | fast us | " + " | ".join(names) + " |")
    print("| --- | --- | --- | --- | " + " | ".join("---" for _ in names) + " |")
    for key in sorted(table):
        t = table[key]
        cells = [f"{t['fast'] / t[k]:.3f}" if k in t else "" for k in names]
        print(f"| {key[0]} | {key[1]} | {log2(key[2])} | {t['fast']:.1f} | " + " | ".join(cells) + " |")


def plot(rows, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines = defaultdict(dict)  # label -> n -> us, sum of float32 only, one residency
    for name, us in rows.items():
        p = name.split("/")
        if p[0] != "latency" or len(p) < 5 or p[2] != "sum" or p[1] == "floor":
            continue
        where = p[5] if len(p) > 5 else "host"
        if where not in ("device", "host", "pageable"):
            continue
        label = f"{p[1]} ({where})" if len(p) > 5 else p[1]
        lines[label][int(p[4])] = us
    fig, ax = plt.subplots(figsize=(8, 5))
    for label, by_n in sorted(lines.items()):
        ns = sorted(by_n)
        ax.plot(ns, [by_n[n] for n in ns], marker="o", markersize=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("n (float32 elements)")
    ax.set_ylabel("median call, host wall clock (us)")
    ax.set_title("sum latency: what the caller waits for")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"\nplot: {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("--plot")
    a = ap.parse_args()
    rows = load(a.run)
    if not rows:
        raise SystemExit(f"{a.run}: no latency rows (latency/... with a median_us counter, automatic/... or precision/...)")
    gpu_vs_cub(rows)
    stream_rows(rows)
    floors(rows)
    per_backend(rows)
    automatic(rows)
    precision(rows)
    pairs(rows)
    forms(rows)
    if a.plot:
        plot(rows, a.plot)


if __name__ == "__main__":
    main()
