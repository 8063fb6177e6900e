#!/usr/bin/env python3
"""`preduce --mpi` under mpirun against the single-process CLI on the same flags.

Every rank generates the same sequence (--n, --seed) and reduces its part, so the global
result must be what one process computes with the seq backend: equal for exact
operations, the same bits for deterministic sums, within rounding for fast float sums.
Usage: mpi_cli_tests.py MPIEXEC PREDUCE RANKS
"""
import json
import math
import os
import subprocess
import sys

MPIEXEC, PREDUCE, RANKS = sys.argv[1], sys.argv[2], int(sys.argv[3])
ENV = dict(os.environ, OMP_WAIT_POLICY="passive")
failures = []


def mpi(args):
    cmd = [MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-np", str(RANKS), PREDUCE, "--mpi"] + args
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=300)


def single(args):
    return subprocess.run([PREDUCE] + args, capture_output=True, text=True, env=ENV, timeout=300)


def close(a, b, rel):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], rel) for k in a)
    if isinstance(a, str) or isinstance(b, str) or a is None or b is None:
        return a == b
    return math.isclose(a, b, rel_tol=rel, abs_tol=rel)


def check(name, flags, exact=True, rel=0.0):
    want = single(flags + ["--backend", "seq", "--format", "json", "--repeat", "1"])
    if want.returncode != 0:
        failures.append(f"{name}: single-process run failed: {want.stderr.strip()}")
        return
    ref = json.loads(want.stdout)["results"][0]
    got = mpi(flags + ["--backend", "all", "--format", "json", "--repeat", "1"])
    if got.returncode != 0:
        failures.append(f"{name}: mpirun failed ({got.returncode}): {got.stderr.strip()[-500:]}")
        return
    out = json.loads(got.stdout)
    if out["mpi_ranks"] != RANKS:
        failures.append(f"{name}: {out['mpi_ranks']} ranks reported, {RANKS} started")
    for rec in out["results"]:
        ok = rec["result"] == ref["result"] if exact else close(rec["result"], ref["result"], rel)
        if "bits" in ref and exact and rec["bits"] != ref["bits"]:
            ok = False
        if rec["n"] != ref["n"] or sum(r["n"] for r in rec["per_rank"]) != ref["n"]:
            ok = False
        if not ok:
            failures.append(f"{name} [{rec['label']}]: got {rec['result']} bits {rec.get('bits')}, "
                            f"single process {ref['result']} bits {ref.get('bits')}")
    print(f"{name}: {len(out['results'])} backends checked")


n = ["--n", "100003"]
check("argmax f32", n + ["--op", "argmax"])
check("argmin f64", n + ["--op", "argmin", "--type", "f64"])
check("minmax i32", n + ["--op", "minmax", "--type", "i32"])
check("count_if f32", n + ["--op", "count_if", "--pred", "greater:0.5"])
check("sum i64", n + ["--op", "sum", "--type", "i64"])
check("wide_sum u32", n + ["--op", "wide_sum", "--type", "u32"])
check("sum f32 deterministic", ["--n", "1000003", "--op", "sum", "--precision", "deterministic"])
check("sumsq f64 deterministic", n + ["--op", "sumsq", "--type", "f64", "--precision", "deterministic"])
check("dot f32 deterministic", n + ["--op", "dot", "--precision", "deterministic"])
check("sum f64 fast", n + ["--op", "sum", "--type", "f64"], exact=False, rel=1e-9)
check("moments f64", n + ["--op", "moments", "--type", "f64"], exact=False, rel=1e-9)
check("empty", ["--n", "0", "--op", "argmin"])
# Narrow element types: float16/bfloat16 results carry their 16-bit "bits", compared too.
check("argmax f16", n + ["--op", "argmax", "--type", "f16"])
check("minmax bf16", n + ["--op", "minmax", "--type", "bf16"])
check("sum i8", n + ["--op", "sum", "--type", "i8"])
check("sumsq u16", n + ["--op", "sumsq", "--type", "u16"])
check("sum f16 deterministic", ["--n", "1000003", "--op", "sum", "--type", "f16", "--precision", "deterministic"])

# Refusals: one line from rank 0, exit status 2.
for name, flags in [("compensated", ["--precision", "compensated"]), ("csv", ["--format", "csv"])]:
    r = mpi(["--n", "1000"] + flags)
    lines = [l for l in r.stderr.splitlines() if l.startswith("preduce: error:")]
    if r.returncode == 0 or len(lines) != 1:
        failures.append(f"refusal {name}: exit {r.returncode}, {len(lines)} error lines: {r.stderr.strip()[-300:]}")
    else:
        print(f"refusal {name}: {lines[0]}")

# The table names every rank.
t = mpi(["--n", "50000", "--backend", "seq", "--repeat", "2"])
rows = [l for l in t.stdout.splitlines() if l.strip().split(" ")[0].isdigit()]
if t.returncode != 0 or len(rows) != RANKS:
    failures.append(f"table: exit {t.returncode}, {len(rows)} rank rows for {RANKS} ranks:\n{t.stdout}")

for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
