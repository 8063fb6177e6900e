#!/usr/bin/env python3
"""Plots from preduce_bench / preduce_bench_gpu JSON (Google Benchmark's --benchmark_out).

    python3 bench/plot.py run.json [more.json ...] --out DIR [--label NAME] [--format png,svg]

For every input file:
  throughput-<label>.<fmt>  GB/s against input size, one panel per (type, op) among
                            sum, max, argmin, sumsq x f32, f64, i32: a line per backend,
                            the anchors of the same run (std::accumulate and
                            std::reduce(par_unseq) on the CPU; CUB and Thrust on the GPU)
                            dotted, and the read probe (the fastest read of the same bytes)
                            as the grey ceiling;
  ladder-<label>.<fmt>      when the file has the seed's ladder (GPU runs): time of each
                            rung at 2^24 floats, kernel only and end to end (host data in,
                            scalar out), on a log scale, as in the seed's comparison figure.
  segments-<label>.<fmt>    when the file has many-results rows (segments/..., batches/...):
                            GB/s against segment size, a line per backend and anchor (CUB),
                            variable sizes as a dotted level, the read probe as the ceiling.
The label defaults to the file name without .json. Repetitions are folded by the median
(raw iterations, or the median aggregate when only aggregates were written).
Needs matplotlib (Debian: python3-matplotlib); when the python3 on PATH lacks it (a pyenv
interpreter, say) the script re-runs itself with /usr/bin/python3.
"""
import argparse
import json
import os
import re
import statistics
import sys
from collections import defaultdict

try:
    import matplotlib
except ImportError:  # pragma: no cover - depends on the machine
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    sys.exit("bench/plot.py: matplotlib is missing (Debian: apt-get install python3-matplotlib)")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

OPS = ("sum", "max", "argmin", "sumsq")
TYPES = (("f32", 4), ("f64", 8), ("i32", 4))
TYPE_ALIASES = {"float32": "f32", "float64": "f64", "int32": "i32", "f32": "f32", "f64": "f64", "i32": "i32"}
UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def parse(name):
    """'reduce/openmp/sum/f32/1024/real_time' -> ('reduce', ('openmp', 'sum'), 'f32', 1024); None if no size."""
    parts = name.split("/")
    for i in range(len(parts) - 1, 1, -1):
        if parts[i].isdigit():
            return parts[0], tuple(parts[1:i - 1]), TYPE_ALIASES.get(parts[i - 1], parts[i - 1]), int(parts[i])
    return None


def load(path):
    """{(family, key, type, n): {'ns': median time per call, 'gbps': median GB/s}} and the run's context."""
    with open(path) as f:
        doc = json.load(f)
    raw, medians = defaultdict(list), {}
    for b in doc.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        key = parse(b.get("run_name", b["name"]))
        if key is None:
            continue
        sample = (b["real_time"] * UNIT_NS[b.get("time_unit", "ns")], b.get("bytes_per_second", 0.0) / 1e9)
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = sample
        else:
            raw[key].append(sample)
    rows = {k: {"ns": statistics.median(s[0] for s in v), "gbps": statistics.median(s[1] for s in v)}
            for k, v in raw.items()}
    for k, (ns, gbps) in medians.items():
        rows.setdefault(k, {"ns": ns, "gbps": gbps})
    return rows, doc.get("context", {})


def series(rows, family, key, t):
    """[(bytes, GB/s)] of one row family, sorted by size."""
    size = dict(TYPES)[t]
    pts = sorted((n * size, v["gbps"]) for (fam, k, ty, n), v in rows.items() if fam == family and k == key and ty == t)
    return [p for p in pts if p[1] > 0]


def probe_series(rows):
    """The read ceiling as [(bytes, GB/s)]: the probe with the most threads, any element type."""
    probes = defaultdict(list)
    for (fam, k, ty, n), v in rows.items():
        if fam == "anchor" and k and k[0] == "read_probe" and ty in dict(TYPES):
            threads = int(k[1].split(":")[1]) if len(k) > 1 and ":" in k[1] else 0
            probes[threads].append((n * dict(TYPES)[ty], v["gbps"]))
    if not probes:
        return [], ""
    threads = max(probes)
    best = {}
    for b, g in probes[threads]:
        best[b] = max(best.get(b, 0.0), g)
    return sorted(best.items()), ("read probe, %d threads" % threads if threads else "read probe")


def human_bytes(b):
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= scale:
            return "%g %s" % (b / scale, unit)
    return "%d B" % b


STYLE = {  # backend or anchor -> (colour, line style, marker)
    "seq": ("#7f7f7f", "-", "o"), "openmp": ("#1f77b4", "-", "o"), "kokkos": ("#2ca02c", "-", "s"),
    "cuda": ("#d62728", "-", "o"), "cuda_ws": ("#ff9896", "--", "."),
    "std_accumulate": ("#8c564b", ":", "x"), "std_reduce_par_unseq": ("#9467bd", ":", "x"),
    "cub": ("#000000", ":", "x"), "thrust": ("#bcbd22", ":", "+"),
}


def plot_throughput(rows, label, out, formats):
    backends = sorted({k[0] for (fam, k, _, _) in rows if fam == "reduce" and len(k) >= 2 and k[1] in OPS})
    if not backends:
        return []
    probe, probe_label = probe_series(rows)
    fig, axes = plt.subplots(len(TYPES), len(OPS), figsize=(4.2 * len(OPS), 3.3 * len(TYPES)), sharex=True,
                             squeeze=False)
    handles = {}
    for r, (t, _) in enumerate(TYPES):
        for c, op in enumerate(OPS):
            ax = axes[r][c]
            drawn = False
            for b in backends:
                pts = series(rows, "reduce", (b, op), t)
                if pts:
                    col, ls, mk = STYLE.get(b, (None, "-", "o"))
                    (h,) = ax.plot(*zip(*pts), ls, color=col, marker=mk, ms=3, lw=1.4, label=b)
                    handles.setdefault(b, h)
                    drawn = True
            anchors = sorted({k for (fam, k, ty, _) in rows if fam == "anchor" and ty == t and k and k[0] != "read_probe"
                              and (len(k) == 1 or k[1] == op)})
            for k in anchors:
                pts = series(rows, "anchor", k, t)
                if pts:
                    col, ls, mk = STYLE.get(k[0], (None, ":", "x"))
                    (h,) = ax.plot(*zip(*pts), ls, color=col, marker=mk, ms=3, lw=1.2, label=k[0])
                    handles.setdefault(k[0], h)
            if probe:
                (h,) = ax.plot(*zip(*probe), "--", color="#b0b0b0", lw=2.2, zorder=0, label=probe_label)
                handles.setdefault(probe_label, h)
            ax.set_xscale("log", base=2)
            ax.grid(True, which="major", alpha=0.3)
            ax.set_title("%s %s" % (op, t) + ("" if drawn else " (no rows)"), fontsize=10)
            if c == 0:
                ax.set_ylabel("GB/s (1e9 B/s)")
            if r == len(TYPES) - 1:
                ax.set_xlabel("input size (bytes)")
                ticks = [2**e for e in range(12, 34, 4)]
                ax.set_xticks(ticks)
                ax.set_xticklabels([human_bytes(x) for x in ticks], fontsize=8)
            ax.set_ylim(bottom=0)
    fig.suptitle("preduce throughput, %s (median of repetitions; inputs read from memory)" % label, y=0.995,
                 fontsize=12)
    fig.legend(handles.values(), handles.keys(), loc="upper center", bbox_to_anchor=(0.5, 0.965),
               ncol=min(len(handles), 8), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    return save(fig, out, "throughput-" + label, formats)


def plot_ladder(rows, label, out, formats):
    rungs = defaultdict(dict)
    names = {}
    for (fam, k, ty, n), v in rows.items():
        if fam == "ladder" and len(k) == 2:
            kind, name = k
            rung, _, what = name.partition("_")
            rungs[rung][kind] = v["ns"] / 1e6
            # The kernel's name says what the rung is; rung 0 (the CPU) has only an end-to-end row.
            if kind == "kernel" or rung not in names:
                names[rung] = what.replace("_", " ")
    if not rungs:
        return []
    order = sorted(rungs)
    fig, ax = plt.subplots(figsize=(9, 4.2))
    width = 0.38
    kinds = (("kernel", "#d62728", "kernel only (data already on the GPU)"),
             ("end_to_end", "#1f77b4", "end to end (pageable host data in, scalar out)"))
    for i, rung in enumerate(order):
        for j, (kind, colour, legend) in enumerate(kinds):
            if kind in rungs[rung]:
                ms = rungs[rung][kind]
                x = i + (j - 0.5) * width
                ax.bar(x, ms, width, color=colour, label=legend)
                ax.annotate("%.3g ms" % ms, (x, ms), ha="center", va="bottom", fontsize=8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels(["(%s) %s" % (r, names[r]) for r in order], fontsize=9)
    ax.set_ylabel("time per reduction (ms, log scale)")
    ax.set_title("The seed's ladder, sum of 2^24 floats, %s" % label, fontsize=11)
    h, l = ax.get_legend_handles_labels()
    uniq = dict(zip(l, h))
    ax.legend(uniq.values(), uniq.keys(), fontsize=8, loc="upper right")
    ax.set_ylim(top=ax.get_ylim()[1] * 6)
    fig.tight_layout()
    return save(fig, out, "ladder-" + label, formats)


SEGMENT_ROW = re.compile(r"^(segments|batches)/([^/]+)/([^/]+)/([^/]+)/(\d+)/(?:seg:(\d+)|(var))(?:/|$)")
PROBE_ROW = re.compile(r"^(?:segments/probe/([^/]+)/(\d+)|anchor/read_probe/threads:(\d+)/([^/]+)/(\d+))(?:/|$)")


def load_segment_rows(path):
    """Many-results rows of one file: {(who, op, segment size or 'var'): (GB/s, type, n)} and the read
    probe's GB/s at the same n ({} / None when the file has no such rows). 'batches' rows (no offsets)
    are named '<who> batches'. Repetitions fold by the median (or Google Benchmark's median aggregate)."""
    with open(path) as f:
        doc = json.load(f)
    raw, probes = defaultdict(list), defaultdict(list)
    aggregates = any(b.get("run_type") == "aggregate" for b in doc.get("benchmarks", []))
    for b in doc.get("benchmarks", []):
        # Raw repetitions, or the median aggregate when the file holds aggregates.
        if b.get("error_occurred") or (aggregates and b.get("aggregate_name") != "median"):
            continue
        name = b.get("run_name", b["name"])
        gbps = b.get("bytes_per_second", 0.0) / 1e9
        m = SEGMENT_ROW.match(name)
        if m:
            family, who, op, t, n, k, var = m.groups()
            who = who if family == "segments" else who + " batches"
            raw[(who, op, int(k) if k else "var", TYPE_ALIASES.get(t, t), int(n))].append(gbps)
            continue
        m = PROBE_ROW.match(name)
        if m:
            gpu_t, gpu_n, threads, cpu_t, cpu_n = m.groups()
            t, n = (gpu_t, gpu_n) if gpu_t else (cpu_t, cpu_n)
            probes[(int(threads or 0), TYPE_ALIASES.get(t, t), int(n))].append(gbps)
    rows = {k: statistics.median(v) for k, v in raw.items()}
    return rows, {k: statistics.median(v) for k, v in probes.items()}


def plot_segments(path, label, out, formats):
    """segments-<label>: GB/s against segment size, a line per backend (and anchor), the probe as the ceiling."""
    rows, probes = load_segment_rows(path)
    if not rows:
        return []
    (_, _, _, t, n) = next(iter(rows))
    ops = sorted({op for (_, op, _, _, _) in rows}, key=lambda o: (o != "sum", o))
    fig, axes = plt.subplots(1, len(ops), figsize=(6.5 * len(ops), 4.4), squeeze=False)
    for c, op in enumerate(ops):
        ax = axes[0][c]
        for who in sorted({w for (w, o, _, _, _) in rows if o == op}):
            pts = sorted((k, g) for (w, o, k, _, _), g in rows.items() if w == who and o == op and k != "var")
            base = who.split()[0]
            col, ls, mk = STYLE.get(base, STYLE.get(base.split("(")[0], (None, "-", "o")))
            if "batches" in who:
                ls = "--"
            if pts:
                (h,) = ax.plot(*zip(*pts), ls, color=col, marker=mk, ms=4, lw=1.4, label=who)
                var = [g for (w, o, k, _, _), g in rows.items() if w == who and o == op and k == "var"]
                if var:
                    ax.plot([pts[0][0], pts[-1][0]], [var[0]] * 2, ":", color=h.get_color(), lw=1.0,
                            label=who + ", variable sizes")
        if probes:
            threads = max(k[0] for k in probes)
            best = max(g for k, g in probes.items() if k[0] == threads)
            ax.axhline(best, ls="--", color="#b0b0b0", lw=2.2, zorder=0,
                       label="read probe" + (", %d threads" % threads if threads else ""))
        ax.set_xscale("log", base=2)
        ax.set_xlabel("segment size (elements)")
        ax.set_ylabel("GB/s of input read (1e9 B/s)")
        ax.set_ylim(bottom=0)
        ax.grid(True, which="major", alpha=0.3)
        ax.set_title("%s of %s, n = 2^%d, %s" % (op, t, n.bit_length() - 1, label), fontsize=10)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return save(fig, out, "segments-" + label, formats)


def save(fig, out, stem, formats):
    written = []
    for fmt in formats:
        path = os.path.join(out, "%s.%s" % (stem, fmt))
        fig.savefig(path, dpi=110)
        written.append(path)
    plt.close(fig)
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="+", help="Google Benchmark JSON files (preduce_bench or preduce_bench_gpu)")
    ap.add_argument("--out", default=".", help="output directory (created if missing)")
    ap.add_argument("--label", action="append", help="name per JSON file, in order (default: the file's stem)")
    ap.add_argument("--format", default="png,svg", help="comma-separated image formats (png,svg)")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    formats = [f for f in args.format.split(",") if f]
    written = []
    for i, path in enumerate(args.json):
        label = args.label[i] if args.label and i < len(args.label) else os.path.splitext(os.path.basename(path))[0]
        rows, _ = load(path)
        if not rows:
            sys.exit("bench/plot.py: %s has no benchmark rows" % path)
        files = (plot_throughput(rows, label, args.out, formats) + plot_ladder(rows, label, args.out, formats) +
                 plot_segments(path, label, args.out, formats))
        if not files:
            sys.exit("bench/plot.py: %s has no reduce/<backend>/<op>, ladder or segments rows" % path)
        written += files
    for w in written:
        print(w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
