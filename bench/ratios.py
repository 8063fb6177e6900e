#!/usr/bin/env python3
"""Ratios that matter, from one preduce_bench run in Google Benchmark JSON.

    preduce_bench --benchmark_format=json --benchmark_out=run.json   (or > run.json)
    python3 bench/ratios.py run.json [--check]

Prints
  1. the headline: every backend's `sum` of f32 at the largest n (2^26 by default) in
     GB/s next to the anchors of the same run (read probe on all threads and on one,
     std::reduce(par_unseq), std::accumulate) and its ratio to the all-thread probe;
     target: openmp >= 0.9x the probe;
  2. for every backend other than seq and every (op, type, n >= 2^16): time(backend) /
     time(seq); target: <= 1 (never slower than seq);
  3. one-pass ops against the plain sum of the same backend, type and n: GB/s(op) /
     GB/s(sum) for sumsq, minmax, mean, ...; target: sumsq and minmax >= 0.9 at the
     largest n (one pass over the data, so memory-bound like the sum);
  4. every backend against its anchor at the largest n, for every op and type: seq
     against std::accumulate (one thread, in order), openmp against the read probe on
     all threads, kokkos against the one-thread probe (a Serial build; pass
     --kokkos-threads N for a threaded one). Information only.
The targets apply to the backends named by --gate (default: openmp); other backends
(kokkos on a Serial build, say) are printed for information. With --check the exit
status is 1 when a target is missed.

Repetitions (--benchmark_repetitions) are folded per row: median by default, or the
fastest with --best (the robust choice when other work shares the cores). Only the
standard library is used; load() is meant to be imported by plotting scripts.
"""
import argparse
import json
import re
import statistics
import sys
from collections import defaultdict

_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def parse_name(name):
    """'reduce/openmp/sum/f32/1024/real_time' -> ('reduce', ('openmp','sum'), 'f32', 1024).

    Everything after the element count (Google Benchmark's /real_time, /repeats:N, ...)
    is dropped; the component before the count is the element type."""
    parts = name.split("/")
    for i in range(len(parts) - 1, -1, -1):
        if re.fullmatch(r"\d+", parts[i]):
            if i < 2:
                return None
            return parts[0], tuple(parts[1:i - 1]), parts[i - 1], int(parts[i])
    return None


def load(path_or_file, best=False):
    """Rows of a run: {(family, key, type, n): {'ns': time per iteration, 'gbps': GB/s}}.

    family is 'reduce' (key = (backend, op)) or 'anchor' (key = (what, ...)).
    GB/s is 1e9 bytes per second, as bytes_per_second / 1e9."""
    if hasattr(path_or_file, "read"):
        doc = json.load(path_or_file)
    else:
        with open(path_or_file) as f:
            doc = json.load(f)
    samples = defaultdict(list)
    for b in doc.get("benchmarks", []):
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        key = parse_name(b.get("run_name", b["name"]))
        if key is None:
            continue
        ns = b["real_time"] * _UNIT_NS[b.get("time_unit", "ns")]
        samples[key].append((ns, b.get("bytes_per_second", 0.0) / 1e9))
    rows = {}
    for key, s in samples.items():
        if best:
            ns, gbps = min(s)
        else:
            ns = statistics.median(x[0] for x in s)
            gbps = statistics.median(x[1] for x in s)
        rows[key] = {"ns": ns, "gbps": gbps, "samples": len(s)}
    return doc.get("context", {}), rows


def log2_label(n):
    return "2^%d" % (n.bit_length() - 1) if n & (n - 1) == 0 else str(n)


def headline(rows, n, target, gate):
    """Section 1. Returns True when every gated backend's f32 sum meets target x probe."""
    anchors = {k[1]: v for k, v in rows.items() if k[0] == "anchor" and k[2] == "f32" and k[3] == n}
    probes = sorted((a for a in anchors if a[0] == "read_probe"),
                    key=lambda a: int(a[1].split(":")[1]) if len(a) > 1 and ":" in a[1] else 0)
    if not probes:
        print("no anchor/read_probe rows for f32 at n=%d: run without a filter that drops them" % n)
        return False
    probe_all = anchors[probes[-1]]["gbps"]
    probe_one = anchors[probes[0]]["gbps"]
    if len(probes) > 1 and probe_all < 0.95 * probe_one:
        print("WARNING: the all-thread read probe (%.2f GB/s) is slower than the 1-thread probe (%.2f GB/s):"
              " other work probably shared the cores during this run; rerun on a quiet machine or with"
              " --benchmark_repetitions=5 and --best" % (probe_all, probe_one))
    print("sum of %s f32 (%d elements, %.0f MiB), GB/s = 1e9 bytes/s" % (log2_label(n), n, n * 4 / 2**20))
    print("  %-36s %10s %14s" % ("row", "GB/s", "vs " + "/".join(probes[-1])))
    lines = []
    for (fam, key, t, m), v in rows.items():
        if t == "f32" and m == n and ((fam == "reduce" and key[1] == "sum") or fam == "anchor"):
            lines.append(("/".join((fam,) + key), v["gbps"]))
    ok = True
    for label, g in sorted(lines, key=lambda x: -x[1]):
        print("  %-36s %10.2f %13.3fx" % (label, g, g / probe_all))
    for (fam, key, t, m), v in sorted(rows.items()):
        if fam == "reduce" and key[1] == "sum" and t == "f32" and m == n and key[0] in gate:
            r = v["gbps"] / probe_all
            status = "PASS" if r >= target else "FAIL"
            ok &= r >= target
            print("  -> %s sum f32: %.2f GB/s = %.3fx the all-thread read probe (%.2f GB/s); target >= %.2fx: %s"
                  % (key[0], v["gbps"], r, probe_all, target, status))
    return ok


def versus_seq(rows, min_n, gate):
    """Section 2. Returns True when no gated backend is slower than seq for n >= min_n."""
    seq = {(k[1][1], k[2], k[3]): v for k, v in rows.items() if k[0] == "reduce" and k[1][0] == "seq"}
    backends = sorted({k[1][0] for k in rows if k[0] == "reduce" and k[1][0] != "seq"})
    if not seq or not backends:
        print("\nno seq/other-backend pairs to compare")
        return True
    ok = True
    for b in backends:
        print("\n%s vs seq, n >= %s: time ratio (< 1: %s is faster), speed-up = 1/ratio" % (b, log2_label(min_n), b))
        print("  %-18s %-4s %6s %12s %12s %8s %8s" % ("op", "type", "n", "seq us", b + " us", "ratio", "speedup"))
        bad = []
        pairs = sorted(((k[1][1], k[2], k[3]), v) for k, v in rows.items()
                       if k[0] == "reduce" and k[1][0] == b and k[3] >= min_n)
        for (op, t, n), v in pairs:
            s = seq.get((op, t, n))
            if s is None:
                continue
            r = v["ns"] / s["ns"]
            flag = "" if r <= 1.0 else "  <-- slower than seq"
            if r > 1.0:
                bad.append((op, t, n, r))
            print("  %-18s %-4s %6s %12.1f %12.1f %8.3f %8.2f%s"
                  % (op, t, log2_label(n), s["ns"] / 1e3, v["ns"] / 1e3, r, 1 / r, flag))
        if bad:
            ok &= b not in gate
            print("  %d violation(s)%s: %s" % (len(bad), "" if b in gate else " (not gated)", ", ".join(
                "%s/%s/%s %.3f" % (o, t, log2_label(n), r) for o, t, n, r in bad)))
        else:
            print("  no violations: %s is never slower than seq for n >= %s" % (b, log2_label(min_n)))
    return ok


ONE_PASS_TARGET_OPS = ("sumsq", "minmax")


def versus_sum(rows, n, gate, target=0.9):
    """Section 3. Returns True when the gated backends' sumsq and minmax reach target x sum at n."""
    sums = {(k[1][0], k[2], k[3]): v for k, v in rows.items() if k[0] == "reduce" and k[1][1] == "sum"}
    pairs = sorted(((k[1][0], k[1][1], k[2], k[3]), v) for k, v in rows.items()
                   if k[0] == "reduce" and k[1][1] not in ("sum", "wide_sum", "prod") and k[3] == n
                   and (k[1][0], k[2], k[3]) in sums and k[1][1] in ONE_PASS_TARGET_OPS + ("mean", "max", "argmin"))
    if not pairs:
        return True
    print("\none-pass ops vs the same backend's sum at %s: GB/s ratio (target >= %.2f for %s)"
          % (log2_label(n), target, " and ".join(ONE_PASS_TARGET_OPS)))
    print("  %-8s %-10s %-4s %10s %10s %8s" % ("backend", "op", "type", "op GB/s", "sum GB/s", "ratio"))
    ok = True
    for (b, op, t, m), v in pairs:
        s = sums[(b, t, m)]
        r = v["gbps"] / s["gbps"]
        flag = ""
        if op in ONE_PASS_TARGET_OPS and b != "seq":
            if r < target:
                flag = "  <-- below target" + ("" if b in gate else " (not gated)")
                ok &= b not in gate
        print("  %-8s %-10s %-4s %10.2f %10.2f %8.3f%s" % (b, op, t, v["gbps"], s["gbps"], r, flag))
    return ok


def versus_anchor(rows, n, kokkos_threads):
    """Section 4 (information): GB/s(backend op) / GB/s(anchor) per op and type at n."""
    probes = {}
    for (fam, key, t, m), v in rows.items():
        if fam == "anchor" and key[0] == "read_probe" and m == n and len(key) > 1:
            probes[(int(key[1].split(":")[1]), t)] = v["gbps"]
    accumulate = {t: v["gbps"] for (fam, key, t, m), v in rows.items()
                  if fam == "anchor" and key[0] == "std_accumulate" and m == n}
    if not probes:
        return
    all_threads = max(th for th, _ in probes)

    def anchor(backend, t):
        if backend == "seq":
            return "std_accumulate", accumulate.get(t)
        if backend == "kokkos":
            th = kokkos_threads
        else:
            th = all_threads
        return "read_probe/threads:%d" % th, probes.get((th, t))

    print("\nevery backend against its anchor at %s: GB/s(backend) / GB/s(anchor)" % log2_label(n))
    print("  %-8s %-18s %-4s %10s %-24s %10s %8s" % ("backend", "op", "type", "GB/s", "anchor", "GB/s", "ratio"))
    for (fam, key, t, m), v in sorted(rows.items()):
        if fam != "reduce" or m != n:
            continue
        name, g = anchor(key[0], t)
        if g:
            print("  %-8s %-18s %-4s %10.2f %-24s %10.2f %8.3f" % (key[0], key[1], t, v["gbps"], name, g, v["gbps"] / g))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="?", default="-", help="Google Benchmark JSON output (default: stdin)")
    ap.add_argument("--n", type=int, default=None, help="element count of the headline (default: largest f32 sum)")
    ap.add_argument("--target", type=float, default=0.9, help="headline target vs all-thread probe (0.9)")
    ap.add_argument("--min-n", type=int, default=1 << 16, help="smallest n of the seq comparison (65536)")
    ap.add_argument("--best", action="store_true", help="fold repetitions by the fastest, not the median")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--gate", default="openmp",
                    help="comma-separated backends the targets apply to (default: openmp); others are shown only")
    ap.add_argument("--kokkos-threads", type=int, default=1,
                    help="threads of the Kokkos execution space, for its anchor (default 1: Serial)")
    args = ap.parse_args(argv)
    context, rows = load(sys.stdin if args.json == "-" else args.json, best=args.best)
    for k in ("preduce_backends", "preduce_inputs", "read_probe_isa", "omp_max_threads", "num_cpus", "load_avg"):
        if k in context:
            print("%s: %s" % (k, context[k]))
    n = args.n
    if n is None:
        sums = [k[3] for k in rows if k[0] == "reduce" and k[1][1] == "sum" and k[2] == "f32"]
        n = max(sums) if sums else max((k[3] for k in rows if k[2] == "f32"), default=0)
    print()
    gate = set(filter(None, args.gate.split(",")))
    ok = headline(rows, n, args.target, gate)
    ok &= versus_seq(rows, args.min_n, gate)
    ok &= versus_sum(rows, n, gate)
    versus_anchor(rows, n, args.kokkos_threads)
    print("\ntargets (%s): %s" % (", ".join(sorted(gate)), "all met" if ok else "MISSED"))
    return 1 if (args.check and not ok) else 0


if __name__ == "__main__":
    sys.exit(main())
