#!/usr/bin/env python3
"""The multi-GPU rows of preduce_bench_gpu (--benchmark_filter='^multigpu/', run with
--benchmark_repetitions): median host-clock time per call, GB/s, and the issue's target,
2 x 2^30 on two GPUs in at most 1.1x the time of 2^30 on one."""
import json
import sys


def main(path):
    with open(path) as f:
        data = json.load(f)
    med = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"]).replace("/manual_time", "")
        if not name.startswith("multigpu/"):
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
        med[name] = (b["real_time"] * scale, b.get("bytes_per_second", 0.0) / 1e9)
    print("\n## One reduction over several GPUs (median host-clock ms per call, whole call)\n")
    print("| row | ms | GB/s |")
    print("| --- | ---: | ---: |")
    for name, (ms, gbs) in med.items():
        print(f"| {name} | {ms:.3f} | {gbs:.0f} |")
    print("\n| ratio (target <= 1.1) | value |")
    print("| --- | ---: |")
    n = str(1 << 30)
    for op in ("sum", "sum_det"):
        two = med.get(f"multigpu/parts/{op}/float32/2x{n}")
        for base in (f"multigpu/single/{op}/float32/{n}", f"multigpu/parts/{op}/float32/1x{n}"):
            if two and base in med:
                print(f"| {op}: 2x2^30 on 2 GPUs / {base.split('/')[1]} 2^30 on 1 GPU | {two[0] / med[base][0]:.3f} |")
    h1, h2 = med.get(f"multigpu/host/sum/float32/{n}/gpus:1"), med.get(f"multigpu/host/sum/float32/{n}/gpus:2")
    if h1 and h2:
        print(f"| host data 2^30: gpus=2 / gpus=1 (speed-up {h1[0] / h2[0]:.2f}x) | {h2[0] / h1[0]:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1])
