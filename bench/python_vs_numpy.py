#!/usr/bin/env python3
"""preduce from Python against NumPy, side by side in one process.

Rows: sum, max, argmin, sum(axis=0) of a (n/256, 256) matrix, and segments of 16 elements
(preduce.reduce_segments against np.add.reduceat), for float32 and float64 at n = 2^10 ..
2^MAX, with preduce on 1 thread and on every thread (threads=0). Each round calls every
candidate of a row once, in turn, on the same array; the row reports each candidate's median
over the rounds (interleaved, so a drift of the machine moves all alike) and NumPy time /
preduce time. NumPy runs on one thread (its reductions have no others). Each row also times
preduce.sum of the same array on every thread, which reads at the machine's read-probe rate:
NumPy time / that time is the most any reduction of those bytes can show on this machine.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_vs_numpy.py [--max 26] [--json out.json] [--plot out.png]
    ... --device       also sum over GPU arrays against the C++ call (the GPU machine: run.sh python)
    ... --device-only  those rows alone

The call cost at n = 1000 is the n = 2^10 row of sum (and the dedicated "call" row: n = 1000).
"""
import argparse
import json
import statistics
import time

import numpy as np

import preduce


def timed(f, calls):
    t0 = time.perf_counter()
    for _ in range(calls):
        f()
    return (time.perf_counter() - t0) / calls


def interleaved(candidates, budget_s=0.4):
    """Median seconds per call of each candidate, over rounds that call each in turn."""
    calls = max(1, int(1e-3 / max(timed(candidates[0][1], 3), 1e-9)))  # about 1 ms a sample
    samples = {name: [] for name, _ in candidates}
    for f in (f for _, f in candidates):
        timed(f, calls)  # warm-up
    start = time.perf_counter()
    rounds = 0
    while rounds < 5 or (time.perf_counter() - start < budget_s and rounds < 200):
        for name, f in candidates:
            samples[name].append(timed(f, calls))
        rounds += 1
    return {name: statistics.median(s) for name, s in samples.items()}


def rows(max_exp, dtypes):
    out = []
    for dtype in dtypes:
        for e in range(10, max_exp + 1, 2):
            n = 1 << e
            x = np.random.default_rng(e).standard_normal(n).astype(dtype)
            m = x.reshape(n // 256, 256)
            idx = np.arange(0, n, 16)
            offsets = np.append(idx, n).astype(np.uint64)
            cases = {
                "sum": (lambda: np.sum(x), lambda t: (lambda: preduce.sum(x, threads=t))),
                "max": (lambda: np.max(x), lambda t: (lambda: preduce.max(x, threads=t))),
                "argmin": (lambda: np.argmin(x), lambda t: (lambda: preduce.argmin(x, threads=t))),
                "sum(axis=0)": (lambda: m.sum(axis=0), lambda t: (lambda: preduce.sum(m, axis=0, threads=t))),
                "segments:16": (lambda: np.add.reduceat(x, idx),
                                lambda t: (lambda: preduce.reduce_segments(x, offsets, "sum", threads=t))),
            }
            for op, (numpy_call, preduce_call) in cases.items():
                # "read": preduce's sum of the same bytes on every thread, which reads at the
                # machine's read probe rate: NumPy time / read time bounds what any reduction of
                # these bytes can show against NumPy on this machine.
                med = interleaved([("numpy", numpy_call), ("preduce_1t", preduce_call(1)), ("preduce_all", preduce_call(0)),
                                   ("read", lambda: preduce.sum(x))])
                row = {"op": op, "type": np.dtype(dtype).name, "n": n, **{k + "_us": v * 1e6 for k, v in med.items()}}
                row["speedup_1t"] = med["numpy"] / med["preduce_1t"]
                row["speedup_all"] = med["numpy"] / med["preduce_all"]
                row["bound_all"] = med["numpy"] / med["read"]
                out.append(row)
                print(f"| {op} | {row['type']} | 2^{e} | {row['numpy_us']:.2f} | {row['preduce_1t_us']:.2f} | "
                      f"{row['preduce_all_us']:.2f} | {row['speedup_1t']:.2f} | {row['speedup_all']:.2f} | "
                      f"{row['bound_all']:.2f} |", flush=True)
    x = np.random.default_rng(0).standard_normal(1000).astype(np.float32)
    med = interleaved([("numpy", lambda: np.sum(x)), ("preduce_1t", lambda: preduce.sum(x)),
                       ("preduce_all", lambda: preduce.sum(x))], budget_s=1.0)
    print(f"| call (sum) | float32 | 1000 | {med['numpy'] * 1e6:.3f} | {med['preduce_1t'] * 1e6:.3f} | | "
          f"{med['numpy'] / med['preduce_1t']:.2f} | |")
    out.append({"op": "call", "type": "float32", "n": 1000, "numpy_us": med["numpy"] * 1e6,
                "preduce_1t_us": med["preduce_1t"] * 1e6, "speedup_1t": med["numpy"] / med["preduce_1t"]})
    return out


class InterfaceOnly:
    """GPU memory (a preduce.DeviceArray) offered only by __cuda_array_interface__ version 3, as
    a library other than preduce would offer it, for the --device rows."""

    def __init__(self, device):
        self.device = device
        self.__cuda_array_interface__ = device.__cuda_array_interface__


def device_rows():
    """sum of float32 in GPU memory from Python (preduce.sum over __cuda_array_interface__)
    against the C++ library's own call on the same memory, timed in C++ in this process
    (preduce._preduce._native_seconds), interleaved; a copy to the host would show at 2^30
    as milliseconds over the C++ call."""
    native = preduce._preduce._native_seconds
    out = []
    print("| sum of float32 in GPU memory | n | Python call us | C++ call us | Python / C++ |")
    print("|---|---|---:|---:|---:|")
    for e in (10, 16, 20, 24, 28, 30):
        host = np.random.default_rng(e).random(1 << e, dtype=np.float32) - np.float32(0.5)
        d = InterfaceOnly(preduce.to_device(host))
        del host
        calls = max(1, int(2e-3 / max(native(d, "sum", 3), 1e-9)))  # about 2 ms a sample
        py, cpp = [], []
        timed(lambda: preduce.sum(d), calls)  # warm-up
        for _ in range(25):
            py.append(timed(lambda: preduce.sum(d), calls))
            cpp.append(native(d, "sum", calls))
        row = {"op": "sum_device", "type": "float32", "n": 1 << e, "python_us": statistics.median(py) * 1e6,
               "cpp_us": statistics.median(cpp) * 1e6}
        row["python_over_cpp"] = row["python_us"] / row["cpp_us"]
        print(f"| sum (GPU array) | 2^{e} | {row['python_us']:.2f} | {row['cpp_us']:.2f} | {row['python_over_cpp']:.3f} |",
              flush=True)
        out.append(row)
    return out


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ops = sorted({r["op"] for r in results if r["op"] not in ("call", "sum_device")})
    fig, axes = plt.subplots(1, len(ops), figsize=(4 * len(ops), 3.5), sharey=True)
    for ax, op in zip(axes, ops):
        for t in sorted({r["type"] for r in results if r["op"] == op}):
            rs = [r for r in results if r["op"] == op and r["type"] == t]
            ax.plot([r["n"] for r in rs], [r["speedup_1t"] for r in rs], "o-", label=f"{t}, 1 thread")
            ax.plot([r["n"] for r in rs], [r["speedup_all"] for r in rs], "s--", label=f"{t}, all threads")
        ax.axhline(1.0, color="gray", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_title(op)
        ax.set_xlabel("n")
    axes[0].set_ylabel("NumPy time / preduce time")
    axes[-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max", type=int, default=26, help="largest n is 2^MAX (even)")
    ap.add_argument("--types", default="float32,float64")
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--plot", help="write a plot of the speed-ups here (PNG or SVG)")
    ap.add_argument("--device", action="store_true", help="also time preduce on GPU arrays")
    ap.add_argument("--device-only", action="store_true", help="only the GPU arrays' rows")
    a = ap.parse_args()
    print(f"preduce backends: {preduce.backends()}, {preduce.describe('auto')}")
    results = []
    if not a.device_only:
        print("| op | type | n | NumPy us | preduce 1 thread us | preduce all threads us | NumPy/preduce 1t | NumPy/preduce all "
              "| NumPy/read all (bound) |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|")
        results = rows(a.max, [np.dtype(t).type for t in a.types.split(",")])
    if a.device or a.device_only:
        results += device_rows()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    if a.plot and not a.device_only:
        plot(results, a.plot)


if __name__ == "__main__":
    main()
