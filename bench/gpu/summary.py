#!/usr/bin/env python3
"""Tables from preduce_bench_gpu's JSON (run with --benchmark_repetitions, aggregates):
ours vs CUB per op/type/size (median event time, GB/s, CUB time / our time), the ratio
to the anchors (CUB, read probe) per op/type at 2^24 and 2^28, the transform and fused
built-ins against our plain sum, the anchors themselves, and the seed's ladder at 2^24
floats."""
import json
import sys
from collections import defaultdict

OPS = ("sum", "max", "argmin", "sumsq")
TYPES = ("float32", "float64", "int32")
NARROW = ("bfloat16", "float16", "int8", "uint8", "int16", "uint16")


def load(path):
    with open(path) as f:
        data = json.load(f)
    med = {}
    for b in data["benchmarks"]:
        name = b.get("run_name", b["name"]).replace("/manual_time", "")
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        # time in the unit the row declared; normalise to microseconds
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "ns")]
        med[name] = (b["real_time"] * scale, b.get("bytes_per_second", 0.0) / 1e12)
    return med


def main(path):
    med = load(path)
    rows = defaultdict(dict)
    for name, (us, tbs) in med.items():
        parts = name.split("/")
        if parts[0] == "reduce" and parts[1] == "cuda":
            rows[(parts[2], parts[3])].setdefault(int(parts[4]), {})["ours"] = (us, tbs)
        elif parts[0] == "reduce" and parts[1] == "cuda_ws":
            rows[(parts[2], parts[3])].setdefault(int(parts[4]), {})["ws"] = (us, tbs)
        elif parts[0] == "anchor" and parts[1] == "cub":
            rows[(parts[2], parts[3])].setdefault(int(parts[4]), {})["cub"] = (us, tbs)
    print("\n## preduce cuda vs CUB DeviceReduce (median event time per call, launch included)\n")
    print("ours: preduce's own workspace (the front end's path); ours_ws: caller-held workspace, as CUB is timed\n")
    print("| op | type | n | ours us | ours TB/s | ours_ws us | CUB us | CUB TB/s | CUB / ours | CUB / ours_ws |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    def order(key):  # the op x type grid first, in the order of the issue
        op, ty = key
        return (OPS.index(op) if op in OPS else len(OPS), op, TYPES.index(ty) if ty in TYPES else len(TYPES), ty)

    for (op, ty), by_n in sorted(rows.items(), key=lambda kv: order(kv[0])):
        for n in sorted(by_n):
            r = by_n[n]
            if "ours" not in r or "cub" not in r:
                continue
            (ou, ot), (cu, ct) = r["ours"], r["cub"]
            wu = r.get("ws", (float("nan"), 0.0))[0]
            print(f"| {op} | {ty} | 2^{n.bit_length() - 1} | {ou:.2f} | {ot:.3f} | {wu:.2f} | {cu:.2f} | {ct:.3f} "
                  f"| {cu / ou:.3f} | {cu / wu:.3f} |")
    print("\n## ratio to the anchors (median event time, own workspace)\n")
    print("CUB / ours: CUB DeviceReduce time / ours (> 1: ours faster); ours / probe: our GB/s / the read probe's "
          "GB/s over the same bytes (the bandwidth ceiling, 1 = every byte at the probe's rate)\n")
    print("| op | type | n | ours us | ours GB/s | CUB / ours | probe GB/s | ours / probe | CUB / probe |")
    print("|---|---|---|---|---|---|---|---|---|")
    probe = {}
    for name, (us, tbs) in med.items():
        parts = name.split("/")
        if parts[:2] == ["anchor", "read_probe"]:
            probe[(parts[2], int(parts[3]))] = (us, tbs)
    nan = float("nan")
    for op in OPS:
        for ty in TYPES:
            for n in (1 << 24, 1 << 28):
                r = rows.get((op, ty), {}).get(n, {})
                if "ours" not in r:
                    continue
                ou, ot = r["ours"]
                cu, ct = r.get("cub", (nan, nan))
                pt = probe.get((ty, n), (nan, nan))[1]
                print(f"| {op} | {ty} | 2^{n.bit_length() - 1} | {ou:.2f} | {ot * 1e3:.0f} | {cu / ou:.3f} "
                      f"| {pt * 1e3:.0f} | {ot / pt:.3f} | {ct / pt:.3f} |")
    print("\n## narrow element types: ours against the read probe and CUB (issue 18)\n")
    print("sum accumulates wide (float32 for the 16-bit floats, 64 bits for the integers), as CUB does here "
          "(Reduce with a float or 64-bit initial value and plus); max returns the element type. "
          "ours / probe: our GB/s over the probe's on the same bytes; CUB / ours: CUB's sum time over ours\n")
    print("| type | n | sum us | sum / probe | CUB sum / ours | max / probe |")
    print("|---|---|---|---|---|---|")
    for ty in NARROW:
        for n in sorted(set(rows.get(("sum", ty), {})) | set(rows.get(("max", ty), {}))):
            s_ = rows.get(("sum", ty), {}).get(n, {})
            m_ = rows.get(("max", ty), {}).get(n, {})
            pt = probe.get((ty, n), (nan, nan))[1]
            su, st = s_.get("ours", (nan, nan))
            cu = s_.get("cub", (nan, nan))[0]
            mt = m_.get("ours", (nan, nan))[1]
            print(f"| {ty} | 2^{n.bit_length() - 1} | {su:.1f} | {st / pt:.3f} | {cu / su:.3f} | {mt / pt:.3f} |")
    print("\n## transform and fused built-ins vs the plain sum (cuda, float32, own workspace)\n")
    print("GB/s counts every input byte (dot reads two arrays); ratio: their GB/s / sum's GB/s at the same n. "
          "Comparison rows: mean_generic, the mean through the per-element merge (no per-thread shortcut); "
          "sum_ordered, a float sum declared non-commutative (the in-order layer); sum_det and sum_comp, "
          "the sum with precision::deterministic and compensated (float64 rows against the float64 sum)\n")
    print("| op | n | time us | GB/s | ratio to cuda sum |")
    print("|---|---|---|---|---|")
    sums = {n: r["ours"] for n, r in rows.get(("sum", "float32"), {}).items() if "ours" in r}
    for op in ("sum", "sumsq", "minmax", "dot", "mean", "mean_generic", "sum_ordered", "sum_det", "sum_comp"):
        for n, r in sorted(rows.get((op, "float32"), {}).items()):
            if "ours" not in r or n not in sums or n < (1 << 16):
                continue
            us, tbs = r["ours"]
            print(f"| {op} | 2^{n.bit_length() - 1} | {us:.2f} | {tbs * 1e3:.0f} | {tbs / sums[n][1]:.3f} |")
    # precision::deterministic (sum_det) and compensated (sum_comp) in float64, against its own sum.
    sums64 = {n: r["ours"] for n, r in rows.get(("sum", "float64"), {}).items() if "ours" in r}
    for op in ("sum_det", "sum_comp"):
        for n, r in sorted(rows.get((op, "float64"), {}).items()):
            if "ours" not in r or n not in sums64:
                continue
            us, tbs = r["ours"]
            print(f"| {op} (float64) | 2^{n.bit_length() - 1} | {us:.2f} | {tbs * 1e3:.0f} | {tbs / sums64[n][1]:.3f} |")
    print("\n## anchors: read probe and thrust::reduce (sum)\n")
    print("| row | type | n | us | TB/s |")
    print("|---|---|---|---|---|")
    anchors = []
    for name, (us, tbs) in med.items():
        if name.startswith("anchor/read_probe") or name.startswith("anchor/thrust"):
            parts = name.split("/")
            anchors.append(("/".join(parts[1:-2]), parts[-2], int(parts[-1]), us, tbs))
    for row, ty, n, us, tbs in sorted(anchors):
        print(f"| {row} | {ty} | 2^{n.bit_length() - 1} | {us:.2f} | {tbs:.3f} |")
    print("\n## the seed's ladder, 2^24 float32\n")
    print("| rung | time | GB/s |")
    print("|---|---|---|")
    for name, (us, tbs) in sorted(med.items()):
        if name.startswith("ladder/"):
            print(f"| {'/'.join(name.split('/')[1:3])} | {us / 1e3:.3f} ms | {tbs * 1e3:.1f} |")


if __name__ == "__main__":
    main(sys.argv[1])
