#!/usr/bin/env python3
"""Tests of the preduce command-line program, run by ctest one case at a time.

    cli_tests.py --list            names of the cases (CMake registers one test each)
    cli_tests.py PREDUCE CASE      run one case against the built binary

Input files are written at test time with the standard library only (struct, not
numpy, which a Debian machine need not have), so every byte of a bad file is chosen
here on purpose.

The cases of the many-results modes (--axis, --segments, --segment-size, --keys) check
the .npy files --output writes against references computed here in plain Python; where
numpy is importable they also check those references against numpy itself.
"""
import ast
import csv
import hashlib
import io
import itertools
import json
import math
import os
import random
import re
import statistics
import struct
import subprocess
import sys
import tempfile

BINARY = None
TMP = None
CASES = {}


def case(fn):
    CASES[fn.__name__.removeprefix("case_")] = fn
    return fn


# ---------------------------------------------------------------- file writers

def npy_bytes(descr, shape, payload, version=1, fortran=False, header=None):
    """A .npy file as NumPy writes it, or with `header` put in verbatim."""
    if header is None:
        dims = "".join(f"{d}, " for d in shape).rstrip(" ") if len(shape) != 1 else f"{shape[0]},"
        header = f"{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': ({dims}), }}"
    head = header.encode("latin1")
    len_size = 2 if version == 1 else 4
    pad = (64 - (6 + 2 + len_size + len(head) + 1) % 64) % 64
    head += b" " * pad + b"\n"
    length = struct.pack("<H" if version == 1 else "<I", len(head))
    return b"\x93NUMPY" + bytes([version, 0]) + length + head + payload


def pack(fmt, values):
    return struct.pack(f"<{len(values)}{fmt}", *values)


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


# ---------------------------------------------------------------- running

# backend::automatic reads a calibration file from $PREDUCE_CALIBRATION or the user's cache:
# every run here names its own, or has an empty cache folder of its own (the state before any
# `preduce --calibrate`), so a file left on the machine cannot change what a case sees.
CALIBRATION = None


def run(*args):
    env = dict(os.environ)
    if CALIBRATION:
        env["PREDUCE_CALIBRATION"] = CALIBRATION
    else:
        env.pop("PREDUCE_CALIBRATION", None)
        env["XDG_CACHE_HOME"] = os.path.join(TMP, "empty-cache")
    return subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True, timeout=60, env=env)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def ok(*args):
    p = run(*args)
    check(p.returncode == 0, f"{args}: exit {p.returncode}, stderr: {p.stderr!r}")
    check(p.stderr == "", f"{args}: unexpected stderr {p.stderr!r}")
    return p.stdout


def records(*args):
    """The JSON records of a run on every backend, parsed; every backend must agree on n/type."""
    out = ok(*args, "--format", "json", "--repeat", "1")
    doc = json.loads(out)
    recs = doc["results"]
    check(len(recs) >= 1, "no records")
    for key in ("backend", "label", "op", "type", "n", "result", "time_s", "gbps"):
        for r in recs:
            check(key in r, f"record lacks {key!r}: {r}")
    return recs


def one_result(*args):
    """The result every backend agreed on (exact ops must agree exactly)."""
    recs = records(*args)
    results = [r["result"] for r in recs]
    check(all(x == results[0] for x in results), f"backends disagree: {results}")
    return recs[0]


def fails(*args, status=None, contains=None):
    p = run(*args)
    check(p.returncode > 0, f"{args}: expected failure, got exit {p.returncode} (negative: killed by a signal)")
    if status is not None:
        check(p.returncode == status, f"{args}: exit {p.returncode}, expected {status}")
    check(p.stdout == "", f"{args}: stdout should be empty, got {p.stdout!r}")
    lines = p.stderr.split("\n")
    check(len(lines) == 2 and lines[1] == "", f"{args}: stderr is not exactly one line: {p.stderr!r}")
    check(lines[0].startswith("preduce: error: "), f"{args}: stderr {p.stderr!r}")
    if contains is not None:
        check(contains in lines[0], f"{args}: {contains!r} not in {lines[0]!r}")
    return lines[0]


def available_backends():
    names = ok("--list-backends").split()
    check("seq" in names, f"seq missing from --list-backends: {names}")
    return names


def table_rows(out):
    """Rows under the dashed rule of the table, split on runs of 2+ spaces."""
    lines = out.splitlines()
    rule = next(i for i, l in enumerate(lines) if l.startswith("---"))
    header = re.split(r"\s{2,}", lines[rule - 1].strip())
    return [dict(zip(header, re.split(r"\s{2,}", l.strip()))) for l in lines[rule + 1:] if l.strip()]


# ---------------------------------------------------------------- cases: normal use

def calibration_rules(below, small, large):
    rules = [{"below_bytes": below, "backend": small}, {"below_bytes": None, "backend": large}]
    return json.dumps({"format": "preduce-calibration/1", "pageable": rules, "pinned": rules})


@case
def case_auto_backend():
    # --backend auto: its row says which backend it chose, and has that backend's bits.
    global CALIBRATION
    names = available_backends()
    default = "openmp" if "openmp" in names else "seq"
    for precision in ("fast", "deterministic"):
        recs = records("--n", 1000, "--backend", f"auto,{default},seq", "--precision", precision)
        auto = recs[0]
        check(auto["backend"] == "auto", auto)
        check(auto["label"].startswith(f"auto -> {default}"), f"no calibration file: {auto['label']}")
        check(auto["bits"] == recs[1]["bits"], f"auto and {default} differ: {recs}")
        if precision == "deterministic":
            check(auto["bits"] == recs[2]["bits"], f"deterministic auto and seq differ: {recs}")
    # A calibration file of the test's own: seq below 8000 bytes read, the default above.
    CALIBRATION = write("rules.json", calibration_rules(8000, "seq", default))
    small = records("--n", 1000, "--backend", "auto,seq")  # 4000 bytes
    check(small[0]["label"] == "auto -> seq" and small[0]["bits"] == small[1]["bits"], small)
    large = records("--n", 4000, "--backend", "auto")  # 16000 bytes
    check(large[0]["label"].startswith(f"auto -> {default}"), large)
    dot = records("--n", 1500, "--op", "dot", "--backend", "auto")  # two inputs: 12000 bytes
    check(dot[0]["label"].startswith(f"auto -> {default}"), dot)
    # The comparisons' rules of their own: the other way round (the default below 8000 bytes).
    other = json.loads(calibration_rules(8000, default, "seq"))
    both = dict(json.loads(calibration_rules(8000, "seq", default)),
                comparisons={"pageable": other["pageable"], "pinned": other["pinned"]})
    CALIBRATION = write("families.json", json.dumps(both))
    for op, label in (("sum", "auto -> seq"), ("max", f"auto -> {default}"), ("argmin", f"auto -> {default}")):
        got = records("--n", 1000, "--op", op, "--backend", "auto")[0]["label"]
        check(got.startswith(label), f"{op}: {got}, expected {label}")
    CALIBRATION = write("rules.json", calibration_rules(8000, "seq", default))
    # The table and the many-results modes label it the same way.
    rows = table_rows(ok("--n", 1000, "--backend", "seq,auto", "--repeat", "1"))
    check([r["backend"] for r in rows] == ["seq", "auto -> seq"], rows)
    out = ok("--n", 1000, "--segment-size", 10, "--backend", "auto", "--format", "csv", "--repeat", "1").splitlines()
    cells = dict(zip(out[0].split(","), out[1].split(",")))
    check(cells["backend"] == "auto" and cells["label"] == "auto -> seq" and cells["count"] == "100", cells)
    # A broken file, or a named one that is not there: the defaults, a clean run, and one
    # warning line on stderr.
    for CALIBRATION in (write("broken.json", "{ not json"), os.path.join(TMP, "not-there.json")):
        p = run("--n", 1000, "--backend", "auto", "--format", "json", "--repeat", "1")
        check(p.returncode == 0, f"{CALIBRATION}: exit {p.returncode}, stderr: {p.stderr!r}")
        check(json.loads(p.stdout)["results"][0]["label"].startswith(f"auto -> {default}"), p.stdout)
        lines = p.stderr.split("\n")
        check(len(lines) == 2 and lines[1] == "" and lines[0].startswith("preduce: warning: ") and
              CALIBRATION in lines[0] and "uses its defaults" in lines[0], f"{CALIBRATION}: stderr {p.stderr!r}")
    CALIBRATION = None


@case
def case_calibrate():
    global CALIBRATION
    names = available_backends()
    path = os.path.join(TMP, "cache", "calibration.json")
    out = ok("--calibrate", "--calibrate-max", 10, "--calibration-file", path)
    check(f"wrote {path}" in out and "median call of sum" in out and "median call of argmin" in out, out)
    # Not the file automatic reads here (the cache has no such path): the output says so and
    # does not describe automatic's calibration as this file's.
    check(f"set PREDUCE_CALIBRATION={path} to use this one" in out and "auto(" not in out, out)
    doc = json.load(open(path))
    check(doc["format"] == "preduce-calibration/1", doc)
    for key, rules in (("pageable", doc["pageable"]), ("pinned", doc["pinned"]),
                       ("comparisons.pageable", doc["comparisons"]["pageable"]),
                       ("comparisons.pinned", doc["comparisons"]["pinned"])):
        check(rules and rules[-1]["below_bytes"] is None, f"{key}: {rules}")
        check(all(r["backend"] in names for r in rules), f"{key}: {rules} vs {names}")
        limits = [r["below_bytes"] for r in rules[:-1]]
        check(limits == sorted(set(limits)), f"{key}: {limits}")
    for measured in (doc["measured"]["pageable"], doc["measured"]["comparisons"]["pageable"]):
        check(measured["n"] == [16, 64, 256, 1024], measured)
        check(sorted(measured["median_us"]) == sorted(names), measured)
        for b, us in measured["median_us"].items():
            check(len(us) == 4 and all(t > 0 for t in us), f"{b}: {us}")
    # At every measured size, the rule that covers it names a backend within 5% of the fastest
    # measured there (the medians are written to the nanosecond).
    for key, rules, measured in (("pageable", doc["pageable"], doc["measured"]["pageable"]),
                                 ("comparisons.pageable", doc["comparisons"]["pageable"],
                                  doc["measured"]["comparisons"]["pageable"])):
        for k, n in enumerate(measured["n"]):
            us = {b: v[k] for b, v in measured["median_us"].items()}
            rule = next(r for r in rules if r["below_bytes"] is None or 4 * n < r["below_bytes"])
            check(us[rule["backend"]] <= 1.05 * min(us.values()) + 0.001, f"{key}, n = {n}: {rule} for {us}")
    # The file is what --backend auto then reads.
    CALIBRATION = path
    label = records("--n", 100, "--backend", "auto")[0]["label"]
    check(label.split(" -> ")[1].split("(")[0] in names, label)
    # Written to the file automatic reads: the output describes automatic with it.
    out = ok("--calibrate", "--calibrate-max", 4, "--calibration-file", path)
    check(f"wrote {path}: auto(calibration file {path}" in out, out)
    # Flags of --calibrate alone, and their limits.
    fails("--calibration-file", path, contains="only applies to --calibrate")
    fails("--calibrate-max", 8, contains="only applies to --calibrate")
    fails("--calibrate", "--calibrate-max", 31, contains="at most 30")
    fails("--calibrate", "--calibrate-max", 3, contains="--calibrate-max")
    fails("--calibrate", "--calibrate-max", 4, "--calibration-file", os.path.join(path, "x", "y"),
          contains="--calibrate")


@case
def case_default_run():
    # The README's main job: no arguments, 2^24 floats, every backend in the table.
    names = available_backends()
    out = ok()
    check("16777216 float32" in out, f"header does not name the input: {out}")
    rows = table_rows(out)
    labels = [r["backend"] for r in rows]
    check([l.split("(")[0] for l in labels] == names, f"rows {labels} vs backends {names}")
    for r in rows:
        # Every backend's rounding error must lie inside Higham's bound.
        check(float(r["error/bound"]) <= 1.0, f"error beyond the bound: {r}")
        check(r["speed-up"].endswith("x"), f"speed-up cell: {r}")
    check(rows[0]["speed-up"] == "1.00x", f"seq is the speed-up base: {rows[0]}")


@case
def case_help():
    out = ok("--help")
    for word in ("--input", "--input2", "--op", "--pred", "--backend", "--format", "results",
                 "sumsq", "asum", "dot", "mean", "var", "minmax", "moments", "nansum", "nanmax",
                 "i32|u32|i64|u64|f32|f64|i8|u8|i16|u16|f16|bf16", "i2 u2 f2 i1 u1", "|b1"):
        check(word in out, f"--help does not mention {word}")


@case
def case_json_text_known():
    path = write("one_to_hundred.txt", "".join(f"{i}\n" for i in range(1, 101)))
    r = one_result("--input", path, "--op", "sum")
    check(r["n"] == 100 and r["result"] == 5050 and r["type"] == "int64" and r["op"] == "sum", r)
    check(isinstance(r["gbps"], float) and r["time_s"] >= 0, r)
    check(one_result("--input", path, "--op", "count_if", "--pred", "greater:50")["result"] == 50, "greater:50")
    check(one_result("--input", path, "--op", "count_if", "--pred", "in_range:10:20")["result"] == 10, "in_range")
    check(one_result("--input", path, "--op", "prod", "--backend", "seq")["type"] == "int64", "prod")
    # Ties: the lowest index wins, on every backend.
    path = write("ties.txt", "5\n3\n9\n3\n9\n")
    check(one_result("--input", path, "--op", "argmin")["result"] == {"value": 3, "index": 1}, "argmin")
    check(one_result("--input", path, "--op", "argmax")["result"] == {"value": 9, "index": 2}, "argmax")
    check(one_result("--input", path, "--op", "min")["result"] == 3, "min")


@case
def case_nan_ignoring_ops():
    # nansum and nanmax skip NaN as NumPy's do; with no number at all nansum is 0.0 and
    # nanmax NaN. Integers have no NaN: there they are sum and max.
    path = write("holes.txt", "1.5\nnan\n-2.25\n4\nnan\n")
    check(one_result("--input", path, "--type", "f64", "--op", "nansum")["result"] == 3.25, "nansum")
    check(one_result("--input", path, "--type", "f32", "--op", "nanmax")["result"] == 4.0, "nanmax")
    check(one_result("--input", path, "--type", "f64", "--op", "sum")["result"] == "nan", "sum keeps NaN")
    path = write("all_nan.txt", "nan\nnan\n")
    check(one_result("--input", path, "--type", "f64", "--op", "nansum")["result"] == 0.0, "nansum of NaNs")
    check(one_result("--input", path, "--type", "f64", "--op", "nanmax")["result"] == "nan", "nanmax of NaNs")
    path = write("ints.txt", "5\n-7\n3\n")
    check(one_result("--input", path, "--op", "nansum")["result"] == 1, "nansum of integers")
    check(one_result("--input", path, "--op", "nanmax")["result"] == 5, "nanmax of integers")
    # Every backend, deterministic: the same bits; the report measures the error against the
    # exact sum of the numbers.
    recs = records("--n", 3000, "--type", "f32", "--op", "nansum", "--precision", "deterministic")
    check(all(r["bits"] == recs[0]["bits"] for r in recs), recs)
    check(all(abs(r["error"]) <= r["error_bound"] for r in recs), recs)


@case
def case_json_generated_ops():
    # Every op on generated data: valid JSON, backends agree exactly except float sums,
    # which must stay inside the bound the record itself reports.
    for op in ("sum", "wide_sum", "prod", "min", "max", "argmin", "argmax"):
        for t in ("f32", "f64", "i32", "u64"):
            recs = records("--n", 5000, "--type", t, "--op", op, "--seed", 3)
            if op in ("sum", "wide_sum") and t.startswith("f"):
                for r in recs:
                    check(abs(r["error"]) <= r["error_bound"], f"{op} {t}: {r}")
            else:
                check(all(r["result"] == recs[0]["result"] for r in recs), f"{op} {t}: {recs}")
    r = one_result("--n", 5000, "--type", "f64", "--op", "count_if", "--pred", "less:0")
    check(0 < r["result"] < 5000 and r["pred"] == "less:0", r)
    # A fixed seed gives the same data every time.
    check(records("--n", 100, "--seed", 9)[0]["result"] == records("--n", 100, "--seed", 9)[0]["result"], "seed")


@case
def case_csv():
    out = ok("--n", 100, "--type", "i32", "--op", "argmax", "--format", "csv", "--repeat", "1").splitlines()
    check(out[0].startswith("backend,label,op,pred,type,n,result,index,"), out[0])
    check(len(out) == 1 + len(available_backends()), out)
    cols = out[0].split(",")
    for line in out[1:]:
        cells = dict(zip(cols, line.split(",")))
        check(cells["n"] == "100" and cells["type"] == "int32" and cells["index"].isdigit(), cells)


@case
def case_empty_input():
    # n = 0: identities, and "none" where there is no index.
    path = write("empty.npy", npy_bytes("<f4", (0,), b""))
    check(one_result("--input", path, "--op", "sum")["result"] == 0, "sum of nothing")
    check(one_result("--input", path, "--op", "argmin")["result"] == {"value": None, "index": None}, "argmin")
    check(one_result("--input", path, "--op", "count_if", "--pred", "is_nan")["result"] == 0, "count")
    rows = table_rows(ok("--n", 0, "--op", "argmax", "--repeat", "1"))
    check(all(r["index"] == "none" and r["GB/s"] == "-" for r in rows), rows)
    check(one_result("--n", 0, "--op", "max")["result"] == "-inf", "max of nothing is -inf")


@case
def case_npy_f32():
    vals = [1.5, -2.25, 3.0, 0.5]
    path = write("f32.npy", npy_bytes("<f4", (2, 2), pack("f", vals)))
    r = one_result("--input", path, "--op", "sum")
    check(r["n"] == 4 and r["type"] == "float32" and r["result"] == 2.75 and r["error"] == 0, r)
    check(one_result("--input", path, "--op", "argmin")["result"] == {"value": -2.25, "index": 1}, "argmin")


@case
def case_npy_f64():
    vals = [0.1 * i for i in range(6)]
    path = write("f64.npy", npy_bytes("<f8", (2, 3), pack("d", vals), version=2))
    r = one_result("--input", path, "--op", "argmax")
    check(r["n"] == 6 and r["type"] == "float64" and r["result"] == {"value": vals[5], "index": 5}, r)
    # NaN propagates through max and comes out as a string, JSON having no NaN.
    path = write("nan.npy", npy_bytes("<f8", (3,), pack("d", [1.0, math.nan, 2.0])))
    check(one_result("--input", path, "--op", "max")["result"] == "nan", "max with NaN")
    check(one_result("--input", path, "--op", "count_if", "--pred", "is_nan")["result"] == 1, "is_nan")


@case
def case_npy_i32():
    vals = [2**31 - 1, 1, -7, 7]
    path = write("i32.npy", npy_bytes("<i4", (4,), pack("i", vals), version=3))
    r = one_result("--input", path, "--op", "sum")
    check(r["type"] == "int32" and r["result"] == -2**31, f"int32 sum wraps: {r}")
    check(one_result("--input", path, "--op", "wide_sum")["result"] == 2**31, "wide_sum does not wrap")
    check(one_result("--input", path, "--op", "argmin")["result"] == {"value": -7, "index": 2}, "argmin")


@case
def case_npy_other_dtypes():
    cases = [("<u4", "I", [1, 2, 2**32 - 1], "uint32", 2),        # wraps mod 2^32
             ("<i8", "q", [-(2**62), 5, 2**40], "int64", -(2**62) + 5 + 2**40),
             ("<u8", "Q", [2**63, 1], "uint64", 2**63 + 1),
             # 1-byte types are read as themselves and sum in 64 bits: no wrap at 8 bits.
             ("|i1", "b", [-128, 127, -1, -128], "int8", -130),
             ("|u1", "B", [255, 1], "uint8", 256),
             # bool as uint8 (any non-zero byte is true): sum counts the true values.
             ("|b1", "B", [1, 0, 1, 1, 2], "uint8", 4)]
    for descr, fmt, vals, tname, total in cases:
        path = write("t.npy", npy_bytes(descr, (len(vals),), pack(fmt, vals)))
        r = one_result("--input", path, "--op", "sum")
        check(r["type"] == tname and r["result"] == total and r["n"] == len(vals), f"{descr}: {r}")
    # Fortran order of a 1-D array is C order; a scalar (shape ()) is one element.
    path = write("fortran1d.npy", npy_bytes("<i8", (3,), pack("q", [1, 2, 3]), fortran=True))
    check(one_result("--input", path, "--op", "sum")["result"] == 6, "fortran 1-D")
    path = write("scalar.npy", npy_bytes("<f8", (), pack("d", [4.5])))
    check(one_result("--input", path, "--op", "sum")["result"] == 4.5, "0-d array")
    # --type may restate the dtype, and the magic, not the name, is what --format-in npy reads.
    path = write("data.bin", npy_bytes("<f8", (2,), pack("d", [1, 2])))
    check(one_result("--input", path, "--format-in", "npy", "--type", "f64")["result"] == 3, "--format-in npy")


@case
def case_raw():
    path = write("v.i64", pack("q", [-5, 10, 2**40]))
    r = one_result("--input", path, "--type", "i64", "--op", "sum")
    check(r["n"] == 3 and r["type"] == "int64" and r["result"] == 5 + 2**40, r)
    path = write("v.u32", pack("I", [7, 3, 9]))
    check(one_result("--input", path, "--type", "u32", "--op", "argmax")["result"] == {"value": 9, "index": 2}, "u32")
    path = write("v.f64", pack("d", [0.5, 0.25]))
    check(one_result("--input", path, "--type", "f64")["result"] == 0.75, "f64")
    path = write("v.f32", pack("f", [0.5, 0.25, 1.0]))
    check(one_result("--input", path, "--format-in", "raw", "--type", "f32")["result"] == 1.75, "f32")


@case
def case_text():
    # Blank lines, CRLF, surrounding spaces, a '+': all fine; a '.' makes it float64.
    path = write("mixed.txt", "  1.5\r\n\n\t+2\n   \n-0.25  \n")
    r = one_result("--input", path)
    check(r["n"] == 3 and r["type"] == "float64" and r["result"] == 3.25, r)
    r = one_result("--input", path, "--format-in", "text", "--type", "f32")
    check(r["type"] == "float32" and r["result"] == 3.25, r)
    path = write("nan.txt", "1\nnan\n-inf\n")
    check(one_result("--input", path, "--op", "min")["result"] == "nan", "NaN wins min")
    check(one_result("--input", path, "--op", "count_if", "--pred", "less:0")["result"] == 1, "-inf < 0")
    path = write("ints.txt", "-9223372036854775808\n9223372036854775807\n")
    check(one_result("--input", path, "--op", "sum")["result"] == -1, "int64 extremes")


def f32(x):
    """x rounded to the nearest float32, as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def text_with_type(ext):
    """A text file named *.ext with --type: read as text, each line parsed as that type."""
    exact = "1.5\n-2.25\n3\n0.5\n"   # exactly representable: every backend sums to 2.75
    for t, tname in (("f32", "float32"), ("f64", "float64")):
        path = write(f"exact_{t}.{ext}", exact)
        r = one_result("--input", path, "--type", t, "--op", "sum")
        check(r["n"] == 4 and r["type"] == tname and r["result"] == 2.75 and r["error"] == 0, f"{t}: {r}")
    # 0.1 parsed as float32 is not 0.1 parsed as float64.
    path = write(f"tenth.{ext}", "0.1\n")
    r = one_result("--input", path, "--type", "f32")
    check(r["type"] == "float32" and r["result"] == f32(0.1) != 0.1, f"f32 0.1: {r}")
    r = one_result("--input", path, "--type", "f64")
    check(r["type"] == "float64" and r["result"] == 0.1, f"f64 0.1: {r}")
    # Integer lines read as float64 with --type f64 (int64 without it).
    path = write(f"ints.{ext}", "1\n2\n3\n")
    check(one_result("--input", path)["type"] == "int64", "without --type: int64")
    r = one_result("--input", path, "--type", "f64")
    check(r["type"] == "float64" and r["result"] == 6.0 and isinstance(r["result"], float), f"f64 ints: {r}")
    # int32: the sum wraps in 32 bits (as int64 it would be 2^31).
    path = write(f"i32.{ext}", "2147483647\n1\n-7\n7\n")
    r = one_result("--input", path, "--type", "i32", "--op", "sum")
    check(r["n"] == 4 and r["type"] == "int32" and r["result"] == -2**31, f"i32: {r}")
    check(one_result("--input", path, "--type", "i32", "--op", "wide_sum")["result"] == 2**31, "i32 wide_sum")
    # The table names the format it read and prints the same sum.
    out = ok("--input", write(f"exact.{ext}", exact), "--type", "f32", "--repeat", "1")
    check(f"exact.{ext} (text)" in out, f"the table does not say text: {out}")
    check(all(float(row["result"]) == 2.75 for row in table_rows(out)), out)
    # Case does not matter in the extension.
    path = write(f"UPPER.{ext.upper()}", exact)
    check(one_result("--input", path, "--type", "f64")["result"] == 2.75, f".{ext.upper()}")


@case
def case_txt_with_type():
    text_with_type("txt")


@case
def case_csv_with_type():
    text_with_type("csv")


@case
def case_txt_with_type_not_numbers():
    # Bytes that are not text, in a .txt with --type: a one-line error naming the line,
    # never a raw-binary read. Two float32 1.0 and 2.0 (8 bytes, a multiple of 4 and of 8)
    # would sum to 3 if the file were taken for raw data.
    floats = pack("f", [1.0, 2.0])
    for t in ("f32", "i32", "f64"):
        for ext in ("txt", "csv"):
            line = fails("--input", write(f"floats.{ext}", floats), "--type", t, status=1, contains=f"floats.{ext}:1:")
            # The whole line: the quoted bytes escaped, the NULs among them included.
            check("'\\x00\\x00\\x80?\\x00\\x00\\x00@' is not a valid" in line, line)
    # Bytes that are neither ASCII nor UTF-8, after a good line: still one line, naming line 2.
    junk = b"5\n\xff\xfe\x00\x93NUMPY\x0b\x0c\r\x1c\x85 7\n9\n"
    for t in ("u64", "f32"):
        fails("--input", write("junk.txt", junk), "--type", t, status=1, contains="junk.txt:2:")


@case
def case_input_format_from_name():
    # Names other than .npy, .txt and .csv are raw binary of --type, whatever they hold.
    vals = [0.5, 0.25, 1.0, 4.0]
    for name in ("v.dat", "v.bin", "v", "v.txt.gz", "v.npy.raw"):
        r = one_result("--input", write(name, pack("f", vals)), "--type", "f32")
        check(r["type"] == "float32" and r["result"] == 5.75 and r["n"] == 4, f"{name}: {r}")
    # ... and need --type: the error says how to read text instead.
    line = fails("--input", write("values.dat", "1\n2\n"), status=1, contains="--type")
    check(".txt" in line and "--format-in text" in line, line)
    # --format-in still overrides the name both ways.
    check(one_result("--input", write("values.dat", "1\n2\n"), "--format-in", "text")["result"] == 3, "text by flag")
    r = one_result("--input", write("raw.txt", pack("i", [4, 5])), "--format-in", "raw", "--type", "i32")
    check(r["type"] == "int32" and r["result"] == 9, f"raw by flag: {r}")
    # A .npy name is npy with or without --type (which must then match).
    path = write("data.NPY", npy_bytes("<f4", (2,), pack("f", [1.5, 2.0])))
    check(one_result("--input", path)["result"] == 3.5, ".NPY")
    check(one_result("--input", path, "--type", "f32")["result"] == 3.5, ".NPY with --type")


@case
def case_threads_and_backend_list():
    names = available_backends()
    recs = records("--n", 1000, "--backend", "seq", "--threads", "1")
    check([r["backend"] for r in recs] == ["seq"], recs)
    recs = records("--n", 1000, "--backend", ",".join(reversed(names)))
    check([r["backend"] for r in recs] == list(reversed(names)), recs)
    if "openmp" in names:
        check(records("--n", 1000, "-b", "openmp", "--threads", "2")[0]["label"] == "openmp(2 threads)", "label")


# ---------------------------------------------------------------- cases: errors

@case
def case_bad_npy_files():
    good = npy_bytes("<f4", (4,), pack("f", [1, 2, 3, 4]))
    bad = {
        "truncated data": (good[:-3], "truncated"),
        "truncated header": (good[:40], "truncated"),
        "preamble only": (good[:9], "truncated"),
        "wrong magic": (b"\x93NUMPX" + good[6:], "not a .npy"),
        "text file": (b"1\n2\n3\n", "not a .npy"),
        "empty file": (b"", "empty"),
        "huge header length": (b"\x93NUMPY\x02\x00\xf0\xff\xff\xff{}", "absurd"),
        "header longer than file": (b"\x93NUMPY\x01\x00\x00\x10{'descr'", "truncated"),
        "version 4": (b"\x93NUMPY\x04" + good[7:], "version"),
        "object dtype": (npy_bytes("|O", (1,), b"\0" * 8), "object"),
        "complex dtype": (npy_bytes("<c8", (1,), b"\0" * 8), "unsupported dtype"),
        "no byte order on i4": (npy_bytes("|i4", (1,), b"\0" * 4), "byte order"),
        "structured": (npy_bytes("", (1,), b"\0" * 4, header="{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }"), "structured"),
        "fortran 2-D": (npy_bytes("<f4", (2, 2), pack("f", [1, 2, 3, 4]), fortran=True), "fortran"),
        "trailing bytes": (good + b"\0\0\0\0", "unexpected bytes"),
        "negative dim": (npy_bytes("", (), b"", header="{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }"), "malformed"),
        "shape overflow": (npy_bytes("<f4", (2**40, 2**40), b""), "2^64"),
        "shape beyond file": (npy_bytes("<f8", (2**60,), b"\0" * 8), "truncated"),
        "missing key": (npy_bytes("", (), b"", header="{'descr': '<f4', 'shape': (1,), }"), "required"),
        "repeated key": (npy_bytes("", (), b"", header="{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}"), "repeated"),
        "unknown key": (npy_bytes("", (), b"", header="{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}"), "unexpected"),
        "junk after dict": (npy_bytes("", (), b"", header="{'descr': '<f4', 'fortran_order': False, 'shape': (0,)} junk"), "after"),
        "unterminated string": (npy_bytes("", (), b"", header="{'descr: '<f4'"), "malformed"),
        "bad bool": (npy_bytes("", (), b"", header="{'descr': '<f4', 'fortran_order': 0, 'shape': (0,)}"), "True or False"),
        "control characters": (npy_bytes("", (), b"", header="{'descr': '<\nf\x01\x02', 'fortran_order': False, 'shape': (0,)}"), "dtype"),
    }
    for what, (data, expect) in bad.items():
        path = write("bad.npy", data)
        try:
            fails("--input", path, status=1, contains=expect)
        except AssertionError as e:
            raise AssertionError(f"{what}: {e}") from None


@case
def case_bad_text_and_raw():
    path = write("words.txt", "1\n2\nthree\n4\n")
    fails("--input", path, status=1, contains=":3:")
    path = write("binary.txt", "1\n\x00\x01\x02\n")
    fails("--input", path, status=1, contains=":2:")
    path = write("range.txt", "1\n99999999999999999999\n")
    fails("--input", path, status=1, contains="out of range")
    path = write("half.txt", "1\n3.5\n")
    fails("--input", path, "--format-in", "text", "--type", "i32", status=1, contains=":2:")
    fails("--input", write("empty.txt", ""), status=1, contains="empty")
    fails("--input", write("blank.txt", "\n  \n"), status=1, contains="no numbers")
    fails("--input", write("odd.bin", b"\0" * 10), "--type", "f32", status=1, contains="multiple of 4")
    fails("--input", write("empty.bin", b""), "--type", "f64", status=1, contains="empty")
    fails("--input", write("x.bin", b"\0" * 8), "--format-in", "raw", status=1, contains="--type")
    fails("--input", os.path.join(TMP, "does-not-exist.npy"), status=1, contains="does-not-exist")
    fails("--input", TMP, status=1, contains="directory")
    path = write("f.npy", npy_bytes("<f4", (1,), pack("f", [1])))
    fails("--input", path, "--type", "i32", status=1, contains="dtype")


@case
def case_bad_flags():
    fails("--op", "sump", status=2, contains="sump")
    fails("--backend", "nosuch", status=2, contains="nosuch")
    fails("--backend", "seq,nosuch", status=2, contains="nosuch")
    fails("--no-such-flag", status=2)
    fails("--n", "-1", status=2, contains="--n")
    fails("--n", "12abc", status=2, contains="--n")
    fails("--repeat", "0", status=2, contains="--repeat")
    fails("--threads", "-2", status=2, contains="--threads")
    line = fails("--type", "f128", status=2, contains="f128")
    check("i8, u8, i16, u16, f16, bf16" in line, f"the valid types: {line}")
    fails("--format", "xml", status=2, contains="xml")
    fails("--format-in", "npy", status=2)                    # needs --input
    fails("--input", "x.npy", "--n", "5", status=2)          # generated-data flag with a file
    fails("--n", "18446744073709551615", status=1, contains="memory")
    for pred in ("greater", "greater:", "in_range:1", "in_range:1:2:3", "is_nan:1", "gt:1", "greater:abc",
                 "greater:nan", ":", ""):
        fails("--n", 10, "--op", "count_if", "--pred", pred, status=2)
    fails("--n", 10, "--op", "count_if", status=2, contains="--pred")
    fails("--n", 10, "--op", "sum", "--pred", "greater:1", status=2, contains="count_if")
    fails("--n", 10, "--type", "i32", "--op", "count_if", "--pred", "greater:0.5", status=2, contains="int32")
    fails("--n", 10, "--type", "i32", "--op", "count_if", "--pred", "in_range:5:1", status=2, contains="lo <= hi")


@case
def case_fuzz_npy():
    # Random damage to valid files: every run must end in a result or a one-line error,
    # never in a signal. A cheap stand-in until the reader gets a real fuzzer.
    rng = random.Random(1234)
    seeds = [npy_bytes("<f4", (3, 2), pack("f", range(6))),
             npy_bytes("<i8", (4,), pack("q", range(4)), version=2),
             npy_bytes("|u1", (5,), bytes(range(5)), version=3)]
    for i in range(150):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 4)):
            kind = rng.random()
            pos = rng.randrange(len(data))
            if kind < 0.5:
                data[pos] = rng.randrange(256)
            elif kind < 0.75:
                del data[pos:pos + rng.randint(1, 8)]
            else:
                data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        path = write("fuzz.npy", bytes(data))
        p = run("--input", path, "--backend", "seq", "--repeat", "1", "--op", "argmax", "--format", "json")
        check(p.returncode >= 0, f"iteration {i}: killed by signal {-p.returncode}; input {bytes(data)!r}")
        if p.returncode == 0:
            json.loads(p.stdout)
        else:
            check(p.stderr.count("\n") == 1 and p.stderr.startswith("preduce: error: "),
                  f"iteration {i}: stderr {p.stderr!r}; input {bytes(data)!r}")


def fails_each(cases, *extra):
    """fails() on each (what, file bytes, expected text) case, naming the case on failure."""
    for what, data, expect in cases:
        path = write("bad.npy" if isinstance(data, bytes) and data.startswith(b"\x93NUMPY") else "bad.dat", data)
        try:
            fails("--input", path, *extra, status=1, contains=expect)
        except AssertionError as e:
            raise AssertionError(f"{what}: {e}") from None


@case
def case_more_bad_npy_files():
    # Header lengths at and past the reader's limit, in every format version's field width.
    fails_each([
        ("v3 length 2^32-1", b"\x93NUMPY\x03\x00\xff\xff\xff\xff{}", "absurd"),
        ("v2 length 1 GiB, file short", b"\x93NUMPY\x02\x00\x00\x00\x00\x40{'descr'", "absurd"),
        ("v1 length 65535, file short", b"\x93NUMPY\x01\x00\xff\xff{'descr'", "truncated"),
        ("length one past the limit, all present", b"\x93NUMPY\x02\x00" + struct.pack("<I", 65537) + b" " * 65537, "absurd"),
        ("version 1.1", b"\x93NUMPY\x01\x01" + npy_bytes("<f4", (1,), pack("f", [1]))[8:], "version"),
        ("version 0.0", b"\x93NUMPY\x00\x00" + npy_bytes("<f4", (1,), pack("f", [1]))[8:], "version"),
        ("magic only", b"\x93NUMPY", "truncated"),
        ("NUL in the header", npy_bytes("", (), b"", header="{'descr': '<f4',\0 'fortran_order': False, 'shape': (1,)}"), "malformed"),
        ("bytes that are not UTF-8", npy_bytes("", (), b"", header="{'descr': '<f\xff\xfe', 'fortran_order': False, 'shape': (1,)}"), "dtype"),
        ("empty dict", npy_bytes("", (), b"", header="{}"), "required"),
        ("not a dict", npy_bytes("", (), b"", header="['descr', '<f4']"), "malformed"),
        ("65 dimensions", npy_bytes("<f4", (1,) * 65, pack("f", [1])), "dimensions"),
    ])
    # dtypes the front end cannot reduce: each named, none read as something else.
    fails_each([
        ("object, old spelling", npy_bytes("|O8", (1,), b"\0" * 8), "object"),
        ("object, little-endian", npy_bytes("<O", (1,), b"\0" * 8), "object"),
        ("float128", npy_bytes("<f16", (2,), b"\0" * 32), "unsupported dtype"),
        ("no byte order on f2", npy_bytes("|f2", (1,), b"\0" * 2), "byte order"),
        ("complex128", npy_bytes("<c16", (1,), b"\0" * 16), "unsupported dtype"),
        ("unicode string", npy_bytes("<U8", (1,), b"\0" * 32), "unsupported dtype"),
        ("byte string", npy_bytes("|S4", (1,), b"abcd"), "unsupported dtype"),
        ("datetime", npy_bytes("<M8[ns]", (1,), b"\0" * 8), "unsupported dtype"),
        ("empty descr", npy_bytes("", (1,), b"\0" * 4), "unsupported dtype"),
    ])
    # The shape against the bytes that follow it.
    fails_each([
        ("fortran 3-D", npy_bytes("<f8", (2, 1, 2), pack("d", [1, 2, 3, 4]), fortran=True), "fortran"),
        ("one element short", npy_bytes("<i4", (10,), pack("i", range(9))), "truncated"),
        ("shape without data", npy_bytes("<f8", (3,), b""), "truncated"),
        ("half an element", npy_bytes("<f8", (1,), b"\0" * 4), "truncated"),
        ("2^90 elements", npy_bytes("<f4", (2**30, 2**30, 2**30), b""), "2^64"),
        ("a dimension past 2^64", npy_bytes("", (), b"", header="{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551616,)}"), "overflows"),
        ("2^40 int8 over 16 bytes", npy_bytes("|i1", (2**40,), b"\0" * 16), "truncated"),
    ])
    # A legal header near the limit (NumPy pads with spaces) still reads.
    padded = npy_bytes("", (), pack("f", [1.5, 2.5]),
                       header="{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }" + " " * 60000)
    check(one_result("--input", write("padded.npy", padded), "--op", "sum")["result"] == 4.0, "60 KB header")


@case
def case_more_bad_text_and_raw():
    for what, text, expect in (("two numbers on a line", "1\n2 3\n", ":2:"),
                               ("comma decimal", "1,5\n", ":1:"),
                               ("hex", "0x1A\n", ":1:"),
                               ("double sign", "--5\n", ":1:"),
                               ("sign only", "1\n-\n", ":2:"),
                               ("exponent without digits", "1e\n", ":1:"),
                               ("a lone dot", ".\n", ":1:"),
                               ("unicode minus", "\u22121\n", ":1:"),
                               ("a very long line", "9" * 100000 + "x\n", ":1:"),
                               ("past the float64 range", "1\n1e400\n", "out of range")):
        try:
            fails("--input", write("bad.txt", text), status=1, contains=expect)
        except AssertionError as e:
            raise AssertionError(f"{what}: {e}") from None
    # With --type, every line must be a value of that type.
    for t, text, expect in (("u32", "1\n-1\n", ":2:"),
                            ("u32", "4294967296\n", "out of range"),
                            ("i64", "inf\n", ":1:"),
                            ("i32", "1e3\n", ":1:"),
                            ("f32", "1e39\n", "out of range")):
        fails("--input", write("typed.txt", text), "--format-in", "text", "--type", t, status=1, contains=expect)
    fails("--input", write("odd.u64", b"\0" * 12), "--type", "u64", status=1, contains="multiple of 8")
    # Special files: refused by kind, never read (/dev/zero would never end).
    for dev in ("/dev/zero", "/dev/null"):
        if os.path.exists(dev):
            fails("--input", dev, "--type", "f32", status=1, contains="not a regular file")
            fails("--input", dev, status=1, contains="not a regular file")


@case
def case_inputs_beyond_memory():
    # Sparse files (no disk blocks) larger than physical memory: refused with a one-line
    # error before anything is allocated. Without that check the allocation can succeed
    # under overcommit and the kernel kill the process while the reader fills it.
    ram = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    big = (2 * ram) // 8 * 8
    raw = os.path.join(TMP, "sparse.f64")
    with open(raw, "wb") as f:
        f.truncate(big)
    fails("--input", raw, "--type", "f64", status=1, contains="more memory than this machine has")
    fails("--input", raw, "--format-in", "text", status=1, contains="more memory than this machine has")
    head = npy_bytes("<f4", (big // 4,), b"")
    npy = os.path.join(TMP, "sparse.npy")
    with open(npy, "wb") as f:
        f.write(head)
        f.truncate(len(head) + big)
    fails("--input", npy, status=1, contains="more memory than this machine has")
    head = npy_bytes("|u1", (big,), b"")  # uint8, 1 byte a value: the file itself is twice the memory
    with open(npy, "wb") as f:
        f.write(head)
        f.truncate(len(head) + big)
    fails("--input", npy, status=1, contains="more memory than this machine has")


# ---------------------------------------------------------------- cases: sumsq, asum, dot, mean, var, minmax, moments

def wrap(v, bits, signed):
    """v reduced mod 2^bits, as the element type holds it: integer sums wrap."""
    v %= 1 << bits
    return v - (1 << bits) if signed and v >= 1 << (bits - 1) else v


def close(a, b, rel=1e-12):
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)) or \
        math.isclose(a, b, rel_tol=rel, abs_tol=0)


def agreeing(*args, rel=1e-12):
    """The records of a run whose results (numbers, or objects of numbers) agree within rel."""
    recs = records(*args)
    first = recs[0]["result"]
    for r in recs:
        res = r["result"]
        if isinstance(first, dict):
            check(res.keys() == first.keys(), f"result keys differ: {recs}")
            pairs = [(res[k], first[k]) for k in first]
        else:
            pairs = [(res, first)]
        for a, b in pairs:
            same = a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float)) and close(float(a), float(b), rel))
            check(same, f"backends disagree beyond {rel}: {[x['result'] for x in recs]}")
    return recs


@case
def case_sumsq_asum_known():
    ints = [3, -4, 12, -7, 0, 100]
    path = write("ints.txt", "".join(f"{v}\n" for v in ints))
    check(one_result("--input", path, "--op", "sumsq")["result"] == sum(v * v for v in ints), "sumsq int64")
    check(one_result("--input", path, "--op", "asum")["result"] == sum(abs(v) for v in ints), "asum int64")
    # Accumulated like sum: int32 wraps (50000^2 > 2^31), and |INT32_MIN| wraps to itself.
    path = write("i32.npy", npy_bytes("<i4", (2,), pack("i", [50000, 3])))
    r = one_result("--input", path, "--op", "sumsq")
    check(r["type"] == "int32" and r["result"] == wrap(50000**2 + 9, 32, True), f"sumsq wraps: {r}")
    path = write("min.npy", npy_bytes("<i4", (2,), pack("i", [-2**31, 5])))
    check(one_result("--input", path, "--op", "asum")["result"] == wrap(2**31 + 5, 32, True), "asum wraps")
    path = write("u64.bin", pack("Q", [2**32, 3]))
    check(one_result("--input", path, "--type", "u64", "--op", "sumsq")["result"] == wrap(2**64 + 9, 64, False), "u64")
    # Floats exactly representable, with exact sums: no rounding, error 0, on every backend.
    vals = [1.5, -2.25, 3.0, 0.5]
    for descr, fmt, tname in (("<f4", "f", "float32"), ("<f8", "d", "float64")):
        path = write("f.npy", npy_bytes(descr, (4,), pack(fmt, vals)))
        r = one_result("--input", path, "--op", "sumsq")
        check(r["type"] == tname and r["result"] == sum(v * v for v in vals) == 16.5625 and r["error"] == 0, r)
        check(r["exact"] == 16.5625 and r["error_bound"] > 0, r)
        r = one_result("--input", path, "--op", "asum")
        check(r["result"] == 7.25 and r["error"] == 0, r)
    # The table names what the exact reference is.
    out = ok("--input", path, "--op", "sumsq", "--repeat", "1")
    check("exact sum x^2 16.5625" in out and "n*u*sum x^2" in out, out)
    check(all(r["error"] == "0" for r in table_rows(out)), out)


@case
def case_dot_known():
    xs, ys = [1, -2, 3, 40], [5, 6, -7, 8]
    x = write("x.txt", "".join(f"{v}\n" for v in xs))
    y = write("y.txt", "".join(f"{v}\n" for v in ys))
    r = one_result("--input", x, "--input2", y, "--op", "dot")
    check(r["result"] == sum(a * b for a, b in zip(xs, ys)) and r["type"] == "int64" and r["n"] == 4, r)
    check(r["op"] == "dot" and "error" not in r, r)
    out = ok("--input", x, "--input2", y, "--op", "dot", "--repeat", "1")
    check("dot of 4 int64 pairs (64 bytes)" in out and "x.txt (text) and " in out, out)
    # --type and --format-in apply to both inputs; any of the three formats, mixed.
    r = one_result("--input", x, "--input2", y, "--op", "dot", "--format-in", "text", "--type", "f32")
    check(r["type"] == "float32" and r["result"] == sum(a * b for a, b in zip(xs, ys)) and r["error"] == 0, r)
    fx = [0.5, -1.25, 2.0, 3.0]
    fy = [4.0, 0.75, -0.5, 1.5]
    px = write("x.npy", npy_bytes("<f8", (2, 2), pack("d", fx)))
    py = write("y.npy", npy_bytes("<f8", (4,), pack("d", fy), version=2))
    expect = math.fsum(a * b for a, b in zip(fx, fy))
    r = one_result("--input", px, "--input2", py, "--op", "dot")
    check(r["type"] == "float64" and r["result"] == expect == 4.5625 and r["error"] == 0, r)
    # Each file's format is guessed on its own: npy and text (float64) together.
    pt = write("y.txt", "".join(f"{v}\n" for v in fy))
    check(one_result("--input", px, "--input2", pt, "--op", "dot")["result"] == expect, "npy with text")
    bx, by = write("x.bin", pack("i", [7, -3, 2**31 - 1])), write("y.bin", pack("i", [2, 2, 2]))
    r = one_result("--input", bx, "--input2", by, "--type", "i32", "--op", "dot")
    check(r["type"] == "int32" and r["result"] == wrap(14 - 6 + 2 * (2**31 - 1), 32, True), f"int32 dot wraps: {r}")
    # Empty inputs: 0.
    e = write("e.npy", npy_bytes("<f4", (0,), b""))
    check(one_result("--input", e, "--input2", e, "--op", "dot")["result"] == 0, "empty dot")


@case
def case_dot_generated():
    # Without --input both vectors are generated (seeds --seed and --seed + 1). Float dots
    # stay inside the bound each record reports; integer dots agree exactly.
    for t in ("f32", "f64"):
        for r in records("--n", 5000, "--type", t, "--op", "dot", "--seed", 5):
            check(r["op"] == "dot" and r["n"] == 5000 and abs(r["error"]) <= r["error_bound"], f"{t}: {r}")
    for t in ("i32", "u32", "i64", "u64"):
        recs = records("--n", 5000, "--type", t, "--op", "dot", "--seed", 5)
        check(all(r["result"] == recs[0]["result"] for r in recs), f"{t}: {recs}")
    out = ok("--n", 100, "--op", "dot", "--seed", 7, "--repeat", "1")
    check("dot of 100 float32 pairs" in out and "seeds 7 and 8" in out, out)
    check("exact dot" in out and "n*u*sum|x*y|" in out, out)
    check(all(float(r["error/bound"]) <= 1.0 for r in table_rows(out)), out)


@case
def case_dot_input2_errors():
    x = write("x.txt", "1\n2\n3\n")
    # Missing: dot with --input needs --input2 (a usage error).
    fails("--input", x, "--op", "dot", status=2, contains="--input2")
    # Length mismatch.
    fails("--input", x, "--input2", write("y2.txt", "1\n2\n"), "--op", "dot", status=1, contains="same length")
    px = write("x.npy", npy_bytes("<f4", (3,), pack("f", [1, 2, 3])))
    fails("--input", px, "--input2", write("y4.npy", npy_bytes("<f4", (4,), pack("f", [1, 2, 3, 4]))), "--op", "dot",
          status=1, contains="same length")
    # dtype mismatch: int64 text against float64 text, float32 against float64 npy.
    fails("--input", x, "--input2", write("yf.txt", "1\n2.5\n3\n"), "--op", "dot", status=1, contains="one type")
    fails("--input", px, "--input2", write("y8.npy", npy_bytes("<f8", (3,), pack("d", [1, 2, 3]))), "--op", "dot",
          status=1, contains="one type")
    # ... unless --type reads both text files as one type.
    check(one_result("--input", x, "--input2", write("yf.txt", "1\n2.5\n3\n"), "--op", "dot",
                     "--format-in", "text", "--type", "f64")["result"] == 15.0, "--type for both")
    # --input2 is for dot only, needs --input, and must be readable.
    fails("--input", x, "--input2", x, "--op", "sum", status=2, contains="--input2")
    fails("--input2", x, "--op", "dot", status=2, contains="--input")
    fails("--input", x, "--input2", os.path.join(TMP, "missing.txt"), "--op", "dot", status=1, contains="missing.txt")
    fails("--input", x, "--input2", write("bad.txt", "1\nx\n3\n"), "--op", "dot", status=1, contains="bad.txt:2:")


@case
def case_mean_var_known():
    # Known data: population variance (divide by n), as float64 whatever the input type.
    # Tolerances follow the condition number of the variance, sqrt(1 + mean^2/var):
    # about 1 for the first ones, 2e8 for the offset data, where the textbook
    # sum(x^2)/n - mean^2 would lose every digit (x^2 ~ 1e18, ulp 128) but the
    # pairwise/Welford updates keep ~8.
    for data, mean, var, rel in (([2, 4, 4, 4, 5, 5, 7, 9], 5.0, 4.0, 1e-12),
                                 (list(range(1, 101)), 50.5, 833.25, 1e-12),
                                 ([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16], 1e9 + 10, 22.5, 1e-6),
                                 ([0.1, 0.2, 0.3, 0.4, 0.5], None, None, 1e-12)):
        if mean is None:
            mean, var = float(statistics.fmean(data)), float(statistics.pvariance(data))
        path = write("d.txt", "".join(f"{v!r}\n" for v in data))
        for r in agreeing("--input", path, "--op", "mean", rel=rel):
            check(isinstance(r["result"], float) and close(r["result"], mean), f"mean {data}: {r} vs {mean}")
        for r in agreeing("--input", path, "--op", "var", rel=rel):
            check(isinstance(r["result"], float) and close(r["result"], var, rel), f"var {data}: {r} vs {var}")
            check(r["op"] == "var" and "error" not in r, r)
    # Every element type, through npy.
    vals = [3, 1, 4, 1, 5, 9, 2, 6]
    for descr, fmt in (("<i4", "i"), ("<u4", "I"), ("<i8", "q"), ("<u8", "Q"), ("<f4", "f"), ("<f8", "d")):
        path = write("t.npy", npy_bytes(descr, (8,), pack(fmt, vals)))
        check(close(one_result("--input", path, "--op", "mean")["result"], statistics.fmean(vals)), descr)
        check(close(agreeing("--input", path, "--op", "var")[0]["result"], statistics.pvariance(vals)), descr)
    # Constant data: variance exactly 0 where the mean is exact (for 0.1 the two-pass
    # blocks of the host backends round the mean, leaving a deviation of one ulp, so
    # that is only within tolerance). Empty input: nan (a string in JSON).
    path = write("c.txt", "0.5\n0.5\n0.5\n")
    check(one_result("--input", path, "--op", "var")["result"] == 0.0, "constant")
    path = write("c.txt", "0.1\n0.1\n0.1\n")
    check(all(abs(r["result"]) < 1e-30 for r in records("--input", path, "--op", "var")), "constant 0.1")
    e = write("e.npy", npy_bytes("<f8", (0,), b""))
    check(one_result("--input", e, "--op", "mean")["result"] == "nan", "mean of nothing")
    check(one_result("--input", e, "--op", "var")["result"] == "nan", "var of nothing")
    # Full precision in the table and CSV: the text reads back as the JSON value.
    path = write("d.txt", "0.1\n0.2\n0.7\n")
    j = one_result("--input", path, "--op", "var", "--backend", "seq")["result"]
    row = table_rows(ok("--input", path, "--op", "var", "--backend", "seq", "--repeat", "1"))[0]
    check(float(row["result"]) == j, f"table {row} vs json {j}")
    csv = ok("--input", path, "--op", "mean", "--backend", "seq", "--format", "csv", "--repeat", "1").splitlines()
    cells = dict(zip(csv[0].split(","), csv[1].split(",")))
    check(float(cells["result"]) == one_result("--input", path, "--op", "mean", "--backend", "seq")["result"], cells)


@case
def case_minmax_and_moments():
    path = write("ints.txt", "5\n-3\n9\n-3\n9\n")
    r = one_result("--input", path, "--op", "minmax")
    check(r["result"] == {"min": -3, "max": 9} and r["op"] == "minmax", r)
    rows = table_rows(ok("--input", path, "--op", "minmax", "--repeat", "1"))
    check(all(x["min"] == "-3" and x["max"] == "9" for x in rows), rows)
    # Floats: both values exact; NaN propagates to both.
    vals = [0.5, -2.25, 3.0, 0.25]
    path = write("f.npy", npy_bytes("<f4", (4,), pack("f", vals)))
    check(one_result("--input", path, "--op", "minmax")["result"] == {"min": -2.25, "max": 3.0}, "f32 minmax")
    path = write("nan.npy", npy_bytes("<f8", (3,), pack("d", [1.0, math.nan, 2.0])))
    check(one_result("--input", path, "--op", "minmax")["result"] == {"min": "nan", "max": "nan"}, "NaN")
    # Empty input: the identities.
    check(one_result("--n", 0, "--op", "minmax")["result"] == {"min": "inf", "max": "-inf"}, "empty f32")
    path = write("u.npy", npy_bytes("<u4", (0,), b""))
    check(one_result("--input", path, "--op", "minmax")["result"] == {"min": 2**32 - 1, "max": 0}, "empty u32")
    # Generated data: minmax is min and max in one pass, on every backend and type.
    for t in ("f32", "f64", "i32", "u32", "i64", "u64"):
        args = ("--n", 3000, "--type", t, "--seed", 11)
        mm = one_result(*args, "--op", "minmax")["result"]
        check(mm == {"min": one_result(*args, "--op", "min")["result"],
                     "max": one_result(*args, "--op", "max")["result"]}, f"{t}: {mm}")
    # moments: count, mean, population and sample variance.
    data = [2, 4, 4, 4, 5, 5, 7, 9]
    path = write("m.txt", "".join(f"{v}\n" for v in data))
    for r in agreeing("--input", path, "--op", "moments"):
        m = r["result"]
        check(m["count"] == 8 and close(m["mean"], 5.0) and close(m["variance"], 4.0), m)
        check(close(m["sample_variance"], float(statistics.variance(data))), m)
    rows = table_rows(ok("--input", path, "--op", "moments", "--repeat", "1"))
    check(all(x["count"] == "8" and close(float(x["mean"]), 5.0) and close(float(x["variance"]), 4.0) for x in rows), rows)
    m = one_result("--input", write("one.txt", "7\n"), "--op", "moments")["result"]
    check(m == {"count": 1, "mean": 7.0, "variance": 0.0, "sample_variance": "nan"}, m)
    for t in ("f32", "i64"):
        recs = agreeing("--n", 4000, "--type", t, "--op", "moments", "--seed", 2, rel=1e-9)
        check(recs[0]["result"]["count"] == 4000, recs)


@case
def case_csv_new_columns():
    names = available_backends()
    path = write("ints.txt", "5\n-3\n9\n")
    out = ok("--input", path, "--op", "minmax", "--format", "csv", "--repeat", "1").splitlines()
    check(out[0] == "backend,label,op,pred,type,n,result,index,time_s,gbps,speedup,error,error_bound,"
                   "min,max,count,mean,variance,precision,bits,bit_identical", out[0])
    check(len(out) == 1 + len(names), out)
    for line in out[1:]:
        c = dict(zip(out[0].split(","), line.split(",")))
        check(c["min"] == "-3" and c["max"] == "9" and c["result"] == "" and c["count"] == "", c)
    out = ok("--input", path, "--op", "moments", "--format", "csv", "--repeat", "1").splitlines()
    for line in out[1:]:
        c = dict(zip(out[0].split(","), line.split(",")))
        check(c["count"] == "3" and close(float(c["mean"]), 11 / 3) and c["result"] == "" and c["min"] == "", c)
        check(close(float(c["variance"]), float(statistics.pvariance([5, -3, 9]))), c)
    # Floating-point dot fills error and error_bound like a sum.
    out = ok("--n", 1000, "--op", "dot", "--format", "csv", "--repeat", "1").splitlines()
    for line in out[1:]:
        c = dict(zip(out[0].split(","), line.split(",")))
        check(c["op"] == "dot" and abs(float(c["error"])) <= float(c["error_bound"]), c)


@case
def case_new_ops_generated():
    # Every new op on generated data of every type: valid output, and the comparison works.
    for t in ("f32", "f64", "i32", "u32", "i64", "u64"):
        for op in ("sumsq", "asum"):
            recs = records("--n", 5000, "--type", t, "--op", op, "--seed", 4)
            if t.startswith("f"):
                for r in recs:
                    check(abs(r["error"]) <= r["error_bound"], f"{op} {t}: {r}")
            else:
                check(all(r["result"] == recs[0]["result"] for r in recs), f"{op} {t}: {recs}")
        for op in ("mean", "var"):
            for r in agreeing("--n", 5000, "--type", t, "--op", op, "--seed", 4, rel=1e-9):
                check(isinstance(r["result"], float), f"{op} {t}: {r}")
    # The uniform [-1, 1) data have mean near 0 and variance near 1/3.
    r = one_result("--n", 100000, "--type", "f64", "--op", "var", "--backend", "seq")
    check(abs(r["result"] - 1 / 3) < 0.01, r)


# ---------------------------------------------------------------- cases: --precision

def bits_of(recs):
    for r in recs:
        check(re.fullmatch(r"0x[0-9a-f]+", r.get("bits", "")) is not None, f"bits: {r}")
    return [r["bits"] for r in recs]


@case
def case_precision_deterministic_bits():
    # Enough f32 values for the parallel paths (openmp shares from 32768 on) and a short
    # last block: every backend, and every thread count, returns the same bits.
    names = available_backends()
    args = ("--n", 1000003, "--type", "f32", "--seed", 5, "--precision", "deterministic")
    recs = records(*args)
    check([r["backend"] for r in recs] == names, f"backends {recs} vs {names}")
    bits = bits_of(recs)
    check(len(set(bits)) == 1, f"deterministic sum differs between backends: {bits}")
    for r in recs:
        check(r["precision"] == "deterministic" and r["bit_identical"] is True, r)
        check(abs(r["error"]) <= r["error_bound"], r)
    for threads in (1, 3):
        more = bits_of(records(*args, "--threads", threads))
        check(more == bits, f"--threads {threads}: {more} vs {bits}")
    # The same for the other sums, and in the table and CSV.
    for op in ("sumsq", "asum", "dot", "wide_sum"):
        b = bits_of(records("--n", 70000, "--op", op, "--precision", "compensated"))
        check(len(set(b)) == 1, f"{op}: {b}")
    out = ok(*args, "--repeat", "1")
    check("bit-identical across backends: yes" in out, out)
    rows = table_rows(out)
    check(all(r["bits"] == bits[0] for r in rows), rows)
    out = ok(*args, "--repeat", "1", "--format", "csv").splitlines()
    for line in out[1:]:
        c = dict(zip(out[0].split(","), line.split(",")))
        check(c["precision"] == "deterministic" and c["bits"] == bits[0] and c["bit_identical"] == "yes", c)
    # fast is the default, and says so.
    check(all(r["precision"] == "fast" for r in records("--n", 1000, "--seed", 5)), "default precision")


@case
def case_precision_compensated_exact():
    # 1e16 + 1 rounds back to 1e16 (ties to even), so a plain left fold of these lines
    # loses every 1: fast seq gives 0. The exact sum is 1000; compensated returns it.
    path = write("ill.txt", "1e16\n1\n-1e16\n" * 1000)
    recs = records("--input", path, "--op", "sum", "--precision", "compensated")
    for r in recs:
        check(r["type"] == "float64" and r["exact"] == 1000.0, r)
        check(r["result"] == 1000.0 and r["error"] == 0, f"compensated is not exact: {r}")
        check(r["bit_identical"] is True, r)
    seq = records("--input", path, "--op", "sum", "--backend", "seq")[0]
    check(seq["result"] == 0.0 and seq["precision"] == "fast", f"the data are not ill-conditioned: {seq}")
    # deterministic: the same bits everywhere, though not the exact sum.
    check(len(set(bits_of(records("--input", path, "--precision", "deterministic")))) == 1, "deterministic")


@case
def case_precision_other_ops():
    path = write("ints.txt", "5\n-3\n9\n")
    # Exact operations ignore the setting: same results as fast, and no bits column.
    for op in ("sum", "min", "argmax", "count_if"):
        extra = ("--pred", "greater:0") if op == "count_if" else ()
        for p in ("deterministic", "compensated"):
            r = one_result("--input", path, "--op", op, *extra, "--precision", p)
            check(r["result"] == one_result("--input", path, "--op", op, *extra)["result"] and "bits" not in r, r)
    for op in ("min", "max", "argmin"):
        recs = records("--n", 5000, "--op", op, "--precision", "compensated")
        check(all(r["result"] == recs[0]["result"] for r in recs), f"{op}: {recs}")
    # Floating-point operations outside the fixed order refuse it: preduce's one-line error.
    for op in ("mean", "var", "moments"):
        for p in ("deterministic", "compensated"):
            fails("--n", 100, "--op", op, "--precision", p, status=2, contains=f"precision::{p}")
    check(one_result("--n", 100, "--type", "f64", "--op", "mean", "--precision", "fast", "--backend", "seq"), "fast mean")


@case
def case_precision_bad_value():
    for bad in ("exact", "Fast", "", "kahan"):
        fails("--precision", bad, status=2, contains="--precision")
    fails("--precision", status=2)
    check("--precision" in ok("--help") and "deterministic" in ok("--help"), "--help")


# ---------------------------------------------------------------- cases: many results per call

try:
    import numpy as np  # optional: a second opinion on the plain-Python references below
except ImportError:
    np = None

NPY_FORMATS = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "<u4": "I", "<u8": "Q",
               "|i1": "b", "|u1": "B", "<i2": "h", "<u2": "H", "<f2": "e"}
INT_LIMITS = {"<i4": (32, True), "<i8": (64, True), "<u4": (32, False), "<u8": (64, False)}
UNIT_ROUNDOFF = {"<f4": 2.0**-24, "<f8": 2.0**-53}
OUTPUTS = itertools.count()


def numpy_note():
    if np is None:
        print("numpy not importable: checked against the plain-Python references only")


def read_npy(path):
    """(descr, shape, flat values, data bytes) of a .npy file --output wrote: format 1.0, its
    data 64-byte aligned, a little-endian dtype the CLI writes."""
    with open(path, "rb") as f:
        raw = f.read()
    check(raw[:8] == b"\x93NUMPY\x01\x00", f"{path}: not a .npy 1.0 file: {raw[:10]!r}")
    hlen = struct.unpack("<H", raw[8:10])[0]
    check((10 + hlen) % 64 == 0 and raw[9 + hlen:10 + hlen] == b"\n", f"{path}: header not padded to 64 bytes")
    header = ast.literal_eval(raw[10:10 + hlen].decode("latin1"))
    check(header["fortran_order"] is False and header["descr"] in NPY_FORMATS, f"{path}: header {header}")
    fmt, shape, data = NPY_FORMATS[header["descr"]], list(header["shape"]), raw[10 + hlen:]
    count = math.prod(shape)
    check(len(data) == count * struct.calcsize(fmt), f"{path}: {len(data)} data bytes for shape {shape}")
    if np is not None:
        check(np.load(path).shape == tuple(shape), f"{path}: numpy reads another shape")
    return header["descr"], shape, list(struct.unpack(f"<{count}{fmt}", data)), data


def segmented(*args):
    """Runs a many-results mode with --output on every backend: the JSON records, and per
    backend the files read back: {"values": read_npy(...), "index": ..., "keys": ...}."""
    prefix = os.path.join(TMP, f"out{next(OUTPUTS)}")
    recs = json.loads(ok(*args, "--format", "json", "--repeat", "1", "--output", prefix))["results"]
    check([r["backend"] for r in recs] == available_backends(), f"backends: {[r['backend'] for r in recs]}")
    files = {}
    for r in recs:
        for key in ("backend", "label", "op", "type", "n", "mode", "count", "first", "last", "sha256", "identical",
                    "time_s", "gbps", "precision"):
            check(key in r, f"record lacks {key!r}: {r}")
        got = {"values": read_npy(f"{prefix}.{r['backend']}.npy")}
        for extra in ("index", "keys"):
            path = f"{prefix}.{r['backend']}.{extra}.npy"
            if os.path.exists(path):
                got[extra] = read_npy(path)
        files[r["backend"]] = got
    return recs, files


def wrap_for(descr, v):
    bits, signed = INT_LIMITS[descr]
    return wrap(v, bits, signed)


def min_identity(descr):
    if descr in UNIT_ROUNDOFF:
        return math.inf
    bits, signed = INT_LIMITS[descr]
    return (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1


def max_identity(descr):
    if descr in UNIT_ROUNDOFF:
        return -math.inf
    bits, signed = INT_LIMITS[descr]
    return -(1 << (bits - 1)) if signed else 0


def check_sum(got, values, descr, what):
    """A sum read back from a file against the exact sum of values: integers exactly (they
    wrap), floats within (n-1) u sum|x| (Higham), an empty float sum -0.0."""
    if descr not in UNIT_ROUNDOFF:
        check(got == wrap_for(descr, sum(values)), f"{what}: {got} vs {wrap_for(descr, sum(values))}")
    elif not values:
        check(got == 0 and math.copysign(1, got) == -1, f"{what}: empty float sum {got!r}, expected -0.0")
    else:
        exact = math.fsum(values)
        bound = max(len(values) - 1, 0) * UNIT_ROUNDOFF[descr] * math.fsum(abs(v) for v in values)
        check(abs(got - exact) <= bound, f"{what}: {got} vs exact {exact}, bound {bound}")


def arg_ref(values, descr, largest):
    """(value, index) of argmin/argmax: the lowest index among ties, (identity, -1) when empty."""
    if not values:
        return (max_identity(descr) if largest else min_identity(descr)), -1
    best = max(values) if largest else min(values)
    return best, values.index(best)


def check_segment_results(files, segments, descr, op, what):
    """Every backend's files against the references of each segment (a list of value lists)."""
    for backend, got in files.items():
        vdescr, shape, vals, _ = got["values"]
        where = f"{what}, {op}, {backend}"
        check(shape == [len(segments)], f"{where}: shape {shape}, {len(segments)} segments")
        if op == "sum":
            check(vdescr == descr, f"{where}: dtype {vdescr}")
            for i, seg in enumerate(segments):
                check_sum(vals[i], seg, descr, f"{where}, segment {i}")
        elif op in ("min", "max"):
            check(vdescr == descr, f"{where}: dtype {vdescr}")
            expect = [(min if op == "min" else max)(seg) if seg else
                      (min_identity if op == "min" else max_identity)(descr) for seg in segments]
            check(vals == expect, f"{where}: {vals} vs {expect}")
        else:
            largest = op == "argmax"
            check(vdescr == descr and got["index"][0] == "<i8", f"{where}: dtypes {vdescr}, {got['index'][0]}")
            expect = [arg_ref(seg, descr, largest) for seg in segments]
            check(list(zip(vals, got["index"][2])) == expect, f"{where}: {list(zip(vals, got['index'][2]))} vs {expect}")


def f32_values(rng, n):
    return [f32(rng.uniform(-1, 1)) for _ in range(n)]


@case
def case_segments_offsets():
    # Offsets with empty segments first, in the middle and last, and values after the last
    # offset (in no segment): every backend's files against per-segment references.
    rng = random.Random(21)
    n = 3000
    offsets = [0, 0, 5, 6, 6, 6, 1000, 1001, 2500, 2999, 2999]
    inputs = {"<f4": f32_values(rng, n),
              "<f8": [rng.uniform(-1e3, 1e3) for _ in range(n)],
              "<i4": [rng.randint(-2**31, 2**31 - 1) for _ in range(n)],   # sums wrap
              "<i8": [rng.randint(-2**62, 2**62) for _ in range(n)],
              "<u4": [rng.randint(0, 2**32 - 1) for _ in range(n)]}
    off_i8 = write("offsets.npy", npy_bytes("<i8", (len(offsets),), pack("q", offsets)))
    off_u8 = write("offsets_u8.npy", npy_bytes("<u8", (len(offsets),), pack("Q", offsets)))
    segments_of = lambda vals: [vals[a:b] for a, b in zip(offsets, offsets[1:])]
    for descr, vals in inputs.items():
        x = write(f"x{descr[1:]}.npy", npy_bytes(descr, (n,), pack(NPY_FORMATS[descr], vals)))
        for op in ("sum", "min", "max", "argmin", "argmax"):
            recs, files = segmented("--input", x, "--segments", off_i8, "--op", op)
            check(all(r["mode"] == "segments" and r["count"] == len(offsets) - 1 for r in recs), recs)
            check_segment_results(files, segments_of(vals), descr, op, f"{descr} offsets")
            if op != "sum" or descr not in UNIT_ROUNDOFF:
                check(all(r["identical"] for r in recs), f"{descr} {op}: exact results differ: {recs}")
    # uint64 and text offsets read the same segments.
    x = write("xf4.npy", npy_bytes("<f4", (n,), pack("f", inputs["<f4"])))
    for off in (off_u8, write("offsets.txt", "".join(f"{o}\n" for o in offsets))):
        _, files = segmented("--input", x, "--segments", off, "--op", "argmin")
        check_segment_results(files, segments_of(inputs["<f4"]), "<f4", "argmin", off)
    # A single offset: no segments, empty files.
    recs, files = segmented("--input", x, "--segments", write("none.npy", npy_bytes("<i8", (1,), pack("q", [0]))))
    check(all(r["count"] == 0 and r["first"] == [] and r["last"] == [] for r in recs), recs)
    check(all(f["values"][1] == [0] for f in files.values()), files)
    if np is not None:
        # NumPy's view of the same segments: np.add.reduceat sums [o[i], o[i+1]) for increasing
        # offsets (an empty segment gives x[o[i]] there, so those are left out).
        xs = np.array(inputs["<f8"])
        starts = [a for a, b in zip(offsets, offsets[1:]) if a < b]
        ends = [b for a, b in zip(offsets, offsets[1:]) if a < b]
        want = np.add.reduceat(xs, starts)
        want[-1] = xs[starts[-1]:ends[-1]].sum()  # reduceat's last segment runs to the end
        _, files = segmented("--input", write("xf8.npy", npy_bytes("<f8", (n,), pack("d", inputs["<f8"]))),
                             "--segments", off_i8)
        for got in files.values():
            nonempty = [v for v, (a, b) in zip(got["values"][2], zip(offsets, offsets[1:])) if a < b]
            check(np.allclose(nonempty, want, rtol=1e-12, atol=1e-9), f"numpy reduceat: {nonempty} vs {want}")
    numpy_note()


@case
def case_segments_dot():
    # dot over segments of two inputs side by side.
    xs, ys = [1, -2, 3, 40, 5, 6], [5, 6, -7, 8, 1, 1]
    offsets = [0, 2, 2, 6]
    x = write("x.npy", npy_bytes("<i8", (6,), pack("q", xs)))
    y = write("y.npy", npy_bytes("<i8", (6,), pack("q", ys)))
    off = write("off.npy", npy_bytes("<i8", (4,), pack("q", offsets)))
    expect = [sum(a * b for a, b in zip(xs[s:e], ys[s:e])) for s, e in zip(offsets, offsets[1:])]
    for args in (("--segments", off), ("--segment-size", 3)):
        recs, files = segmented("--input", x, "--input2", y, "--op", "dot", *args)
        want = expect if args[0] == "--segments" else [sum(a * b for a, b in zip(xs[i:i + 3], ys[i:i + 3])) for i in (0, 3)]
        for got in files.values():
            check(got["values"][2] == want, f"dot {args}: {got['values'][2]} vs {want}")


@case
def case_segment_size():
    rng = random.Random(5)
    n, k = 1200, 40
    for descr, vals in (("<f8", [rng.uniform(-1, 1) for _ in range(n)]),
                        ("<i4", [rng.randint(-2**31, 2**31 - 1) for _ in range(n)]),
                        ("<u8", [rng.randint(0, 2**64 - 1) for _ in range(n)])):
        x = write("x.npy", npy_bytes(descr, (n,), pack(NPY_FORMATS[descr], vals)))
        for size in (k, 1, n):
            segs = [vals[i:i + size] for i in range(0, n, size)]
            for op in ("sum", "max", "argmax", "argmin"):
                recs, files = segmented("--input", x, "--segment-size", size, "--op", op)
                check(all(r["mode"] == "segment_size" and r["segment_size"] == size and r["count"] == n // size
                          for r in recs), recs)
                check_segment_results(files, segs, descr, op, f"{descr} size {size}")
    # Generated data take it too; n = 0 gives no results.
    recs, _ = segmented("--n", 1000, "--segment-size", 250, "--op", "min")
    check(all(r["count"] == 4 and r["type"] == "float32" for r in recs), recs)
    recs, _ = segmented("--n", 0, "--segment-size", 7)
    check(all(r["count"] == 0 for r in recs), recs)
    # n must be a multiple of K: one line, naming the flag and the remainder.
    line = fails("--n", 1000, "--segment-size", 300, status=2, contains="--segment-size 300")
    check("100 left over" in line, line)
    fails("--input", x, "--segment-size", 7, status=2, contains="--segment-size")
    fails("--n", 10, "--segment-size", 0, status=2, contains="--segment-size")
    fails("--n", 10, "--segment-size", "-5", status=2, contains="--segment-size")
    if np is not None:
        xs = np.array(vals, dtype=np.uint64)
        _, files = segmented("--input", x, "--segment-size", k, "--op", "max")
        for got in files.values():
            check(got["values"][2] == xs.reshape(-1, k).max(axis=1).tolist(), "numpy reshape(-1, k).max(axis=1)")
    numpy_note()


def axis_ref(flat, shape, axes, fn):
    """fn over the elements of each index of the kept axes (C order), the reduced elements
    taken in C order of the reduced axes; and the kept shape."""
    rank = len(shape)
    reduced = sorted(a % rank for a in axes)
    kept = [d for d in range(rank) if d not in reduced]
    strides = [math.prod(shape[d + 1:]) for d in range(rank)]
    out = []
    for kidx in itertools.product(*(range(shape[d]) for d in kept)):
        elems = []
        for ridx in itertools.product(*(range(shape[d]) for d in reduced)):
            pos = sum(i * strides[d] for i, d in zip(kidx, kept)) + sum(i * strides[d] for i, d in zip(ridx, reduced))
            elems.append(flat[pos])
        out.append(fn(elems))
    return out, [shape[d] for d in kept]


@case
def case_axis():
    # A 3-D array reduced over axis 0, axis 1, axes 0 and 2, and axis -1, against the
    # reference (and numpy's x.sum(axis=...) / x.max(axis=...)). Small integers stored as
    # float64 keep every sum exact, so every backend must match exactly.
    rng = random.Random(8)
    shape = [3, 4, 5]
    n = math.prod(shape)
    data = {"<f8": [float(rng.randint(-50, 50)) for _ in range(n)],
            "<i4": [rng.randint(-2**31, 2**31 - 1) for _ in range(n)],
            "<f4": f32_values(rng, n)}
    fns = {"sum": sum, "max": max, "argmax": lambda e: e.index(max(e)), "min": min}
    for descr, flat in data.items():
        x = write(f"x3d{descr[1:]}.npy", npy_bytes(descr, tuple(shape), pack(NPY_FORMATS[descr], flat)))
        for axes in ("0", "1", "0,2", "-1", "2,0", "0,1,2"):
            ax = [int(a) for a in axes.split(",")]
            for op, fn in fns.items():
                if op == "sum" and descr == "<f4":
                    continue  # rounds: checked below within a bound
                want, kept = axis_ref(flat, shape, ax, fn)
                if op == "sum" and descr == "<i4":
                    want = [wrap_for(descr, v) for v in want]
                recs, files = segmented("--input", x, f"--axis={axes}", "--op", op)
                for r in recs:
                    check(r["mode"] == "axis" and r["shape"] == shape and r["result_shape"] == kept, r)
                    check(r["axes"] == [a % 3 for a in ax] and r["count"] == math.prod(kept), r)
                for backend, got in files.items():
                    vals = got["index"][2] if op == "argmax" else got["values"][2]
                    check(got["values"][1] == [math.prod(kept)], f"1-D output: {got['values'][1]}")
                    check(vals == want, f"{descr} axis {axes} {op} {backend}: {vals} vs {want}")
                if np is not None and op in ("sum", "max", "min"):
                    arr = np.array(flat, dtype={"<f8": np.float64, "<i4": np.int32, "<f4": np.float32}[descr]).reshape(shape)
                    kw = {"dtype": arr.dtype} if op == "sum" else {}  # int32 sums wrap, as preduce's do
                    npw = getattr(arr, op)(axis=tuple(ax), **kw).reshape(-1).tolist()
                    check(npw == want, f"numpy x.{op}(axis={axes}): {npw} vs reference {want}")
        if descr == "<f4":
            for axes in ("0", "0,2", "-1"):
                segs, _ = axis_ref(flat, shape, [int(a) for a in axes.split(",")], list)
                _, files = segmented("--input", x, "--axis", axes, "--op", "sum")
                check_segment_results(files, segs, descr, "sum", f"f32 axis {axes}")
    # "--axis -1" (the value after a space) is an axis, not a flag.
    recs, _ = segmented("--input", x, "--axis", "-1", "--op", "max")
    check(recs[0]["result_shape"] == [3, 4], recs[0])
    # Without --axis an N-D .npy is still one whole array.
    r = one_result("--input", write("x3d.npy", npy_bytes("<f8", tuple(shape), pack("d", data["<f8"]))), "--op", "sum")
    check(r["n"] == n and r["result"] == sum(data["<f8"]), r)
    # A 1-D input (any format) has axis 0 only; a 0-D .npy has none.
    recs, files = segmented("--input", write("v.txt", "1\n2\n3\n"), "--axis", "0")
    check(all(f["values"][2] == [6] for f in files.values()), files)
    fails("--n", 10, "--axis", 1, status=2, contains="out of range")
    fails("--input", write("s.npy", npy_bytes("<f8", (), pack("d", [4.5]))), "--axis", 0, status=2, contains="0-D")
    numpy_note()


def runs_ref(keys, values, fn):
    """(first key, fn(values)) of each run of equal consecutive keys by ==: -0.0 is 0.0 and
    NaN equals nothing (itertools.groupby would join a NaN object with itself)."""
    out, start = [], 0
    for i in range(1, len(keys) + 1):
        if i == len(keys) or not keys[i] == keys[i - 1]:
            out.append((keys[start], fn(values[start:i])))
            start = i
    return out


def same_key(a, b):
    return a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b))


@case
def case_keys():
    rng = random.Random(3)
    # int64 keys with runs of 1 to 9, a key coming back later (a new run), and float64
    # values (small integers: exact sums).
    keys, k = [], 0
    while len(keys) < 500:
        k = rng.choice([k, k + 1, 7])
        keys.extend([k] * rng.randint(1, 9))
    keys = keys[:500]
    values = [float(rng.randint(-20, 20)) for _ in keys]
    x = write("v.npy", npy_bytes("<f8", (500,), pack("d", values)))
    kf = write("k.npy", npy_bytes("<i8", (500,), pack("q", keys)))
    for op, fn in (("sum", sum), ("max", max), ("argmin", lambda v: v.index(min(v))), ("min", min)):
        want = runs_ref(keys, values, fn)
        recs, files = segmented("--input", x, "--keys", kf, "--op", op)
        for r in recs:
            check(r["mode"] == "keys" and r["keys_type"] == "int64" and r["count"] == len(want), r)
            check(r["first_keys"] == [w[0] for w in want[:3]] and r["last_keys"] == [w[0] for w in want[-3:]], r)
            check("keys_sha256" in r, r)
        for backend, got in files.items():
            check(got["keys"][0] == "<i8" and got["keys"][2] == [w[0] for w in want], f"{backend}: keys {got['keys']}")
            vals = got["index"][2] if op == "argmin" else got["values"][2]
            check(vals == [w[1] for w in want], f"{op} {backend}: {vals} vs {want}")
    # Keys as text (int64 by the lines) and as raw int32 with --keys-type: the same runs.
    want = runs_ref(keys, values, sum)
    for args in (("--keys", write("k.txt", "".join(f"{v}\n" for v in keys))),
                 ("--keys", write("k.bin", pack("i", keys)), "--keys-type", "i32")):
        _, files = segmented("--input", x, *args)
        for got in files.values():
            check(got["keys"][2] == [w[0] for w in want] and got["values"][2] == [w[1] for w in want], f"{args}")
    # float keys: -0.0 and 0.0 are one run, every NaN a run of its own; text keys with --keys-type f32.
    fkeys = [1.5, 1.5, -0.0, 0.0, math.nan, math.nan, 2.0, 2.0, 2.0]
    fvals = [1, 2, 3, 4, 5, 6, 7, 8, 9]
    want = runs_ref(fkeys, fvals, sum)
    check(len(want) == 5, want)
    xi = write("vi.npy", npy_bytes("<i4", (9,), pack("i", fvals)))
    for kfile, kdescr in ((write("fk.npy", npy_bytes("<f8", (9,), pack("d", fkeys))), "<f8"),
                          (write("fk.txt", "".join(f"{v}\n" for v in fkeys)), "<f4")):
        extra = ("--keys-type", "f32") if kfile.endswith(".txt") else ()
        recs, files = segmented("--input", xi, "--keys", kfile, *extra)
        for got in files.values():
            check(got["keys"][0] == kdescr and all(same_key(a, w[0]) for a, w in zip(got["keys"][2], want)), got["keys"])
            check(got["values"][2] == [w[1] for w in want], got["values"])
        check(recs[0]["first_keys"][2] == "nan", recs[0])
    # Generated values take keys of --n entries; an empty input gives no runs.
    recs, _ = segmented("--n", 500, "--keys", kf)
    check(all(r["count"] == len(runs_ref(keys, keys, len)) for r in recs), recs)
    # Keys of another length: one line naming both counts.
    line = fails("--input", x, "--keys", write("k3.npy", npy_bytes("<i8", (3,), pack("q", [1, 2, 3]))), status=1,
                 contains="3 keys")
    check("500 values" in line, line)
    if np is not None:
        kv, vv = np.array(keys), np.array(values)
        starts = np.flatnonzero(np.r_[True, kv[1:] != kv[:-1]])
        _, files = segmented("--input", x, "--keys", kf)
        for got in files.values():
            check(got["keys"][2] == kv[starts].tolist(), "numpy run starts")
            check(got["values"][2] == np.add.reduceat(vv, starts).tolist(), "numpy reduceat over the runs")
    numpy_note()


@case
def case_segmented_report():
    # JSON, CSV and table carry the count, the first and last results and the SHA-256 of
    # the data bytes of the written .npy (values, index, keys).
    vals = [float(v) for v in (5, -3, 9, 0, 2, 8, -1, 4, 7, 6, 1, 3)]
    x = write("x.npy", npy_bytes("<f8", (12,), pack("d", vals)))
    for size, count in ((1, 12), (2, 6), (4, 3)):
        recs, files = segmented("--input", x, "--segment-size", size, "--op", "argmin")
        for r in recs:
            got = files[r["backend"]]
            check(r["count"] == count and r["sha256"] == hashlib.sha256(got["values"][3]).hexdigest(), r)
            check(r["index_sha256"] == hashlib.sha256(got["index"][3]).hexdigest(), r)
            results = [{"value": v, "index": i} for v, i in zip(got["values"][2], got["index"][2])]
            # first: the first 3; last: the last 3 after those, so all of them when count <= 6.
            check(r["first"] == results[:3] and r["last"] == results[max(3, count - 3):], f"{size}: {r}")
            check(r["identical"] is True and r["precision"] == "fast", r)
    # Empty segments: argmin's value and index are null in JSON, "none" in the table and CSV.
    off = write("off.npy", npy_bytes("<i8", (4,), pack("q", [0, 0, 12, 12])))
    recs, files = segmented("--input", x, "--segments", off, "--op", "argmin")
    check(recs[0]["first"] == [{"value": None, "index": None}, {"value": -3.0, "index": 1},
                               {"value": None, "index": None}], recs[0])
    rows = table_rows(ok("--input", x, "--segments", off, "--op", "argmin", "--repeat", "1"))
    check(all(r["values"] == "none -3@1 none" and r["results"] == "3" for r in rows), rows)
    check([r["sha256"] for r in rows] == [r["sha256"] for r in recs], rows)
    # CSV: its own header, one row per backend, the same hashes.
    out = ok("--input", x, "--segment-size", 2, "--op", "sum", "--format", "csv", "--repeat", "1")
    table = list(csv.DictReader(io.StringIO(out)))
    check(out.splitlines()[0] == "backend,label,op,pred,type,n,mode,count,first,last,sha256,index_sha256,first_keys,"
                                 "last_keys,keys_sha256,identical,time_s,gbps,speedup,precision", out)
    recs, files = segmented("--input", x, "--segment-size", 2, "--op", "sum")
    check([c["backend"] for c in table] == available_backends(), table)
    for c in table:
        got = files[c["backend"]]["values"]
        check(c["mode"] == "segment_size" and c["count"] == "6" and c["first"] == "2 9 10" and c["last"] == "3 13 4", c)
        check(c["sha256"] == hashlib.sha256(got[3]).hexdigest() and c["identical"] == "yes", c)
        check(c["index_sha256"] == "" and c["keys_sha256"] == "" and float(c["time_s"]) >= 0, c)
    # Keys in CSV; minmax and moments in their compact forms.
    kf = write("k.npy", npy_bytes("<i4", (12,), pack("i", [1] * 5 + [2] * 7)))
    out = ok("--input", x, "--keys", kf, "--op", "minmax", "--format", "csv", "--repeat", "1")
    for c in csv.DictReader(io.StringIO(out)):
        check(c["first_keys"] == "1 2" and c["first"] == "-3/9 -1/8" and len(c["keys_sha256"]) == 64, c)
    recs, files = segmented("--input", x, "--keys", kf, "--op", "moments")
    for r in recs:
        got = files[r["backend"]]["values"]
        check(got[0] == "<f8" and got[1] == [2, 3], got)
        keys_bytes = files[r["backend"]]["keys"][3]
        check(r["first"][0]["count"] == 5 and r["keys_sha256"] == hashlib.sha256(keys_bytes).hexdigest(), r)
        # [count, mean, m2] of the first run, 5, -3, 9, 0, 2
        m2 = statistics.pvariance(vals[:5]) * 5
        check(got[2][0] == 5 and close(got[2][1], 2.6, 1e-15) and close(got[2][2], m2, 1e-14), got)
    # More than 6 results: the table shows the ends with "..." between.
    rows = table_rows(ok("--input", x, "--segment-size", 1, "--op", "max", "--repeat", "1"))
    check(all(r["values"] == "5 -3 9 ... 6 1 3" and r["results"] == "12" for r in rows), rows)
    # Under precision=deterministic float sums of segments have the same bits everywhere.
    recs, _ = segmented("--n", 100000, "--segment-size", 25000, "--precision", "deterministic")
    check(all(r["identical"] for r in recs) and len({r["sha256"] for r in recs}) == 1, recs)
    check(all(r["precision"] == "deterministic" for r in recs), recs)


@case
def case_output_layouts():
    # --output's dtypes and shapes for every kind of result, in a many-results mode and for
    # the single result of a whole-array run (a 1-element array).
    vals = [3, -1, 4, -1, 5, 9]
    x = write("x.npy", npy_bytes("<i4", (6,), pack("i", vals)))
    layouts = {"sum": ("<i4", [2]), "wide_sum": ("<i8", [2]), "count_if": ("<u8", [2]), "mean": ("<f8", [2]),
               "minmax": ("<i4", [2, 2]), "moments": ("<f8", [2, 3]), "argmax": ("<i4", [2])}
    for op, (descr, shape) in layouts.items():
        extra = ("--pred", "greater:0") if op == "count_if" else ()
        _, files = segmented("--input", x, "--segment-size", 3, "--op", op, *extra)
        for got in files.values():
            check(got["values"][:2] == (descr, shape), f"{op}: {got['values'][:2]} vs {(descr, shape)}")
    _, files = segmented("--input", x, "--segment-size", 3, "--op", "minmax")
    check(all(g["values"][2] == [-1, 4, -1, 9] for g in files.values()), files)
    _, files = segmented("--input", x, "--segment-size", 3, "--op", "count_if", "--pred", "greater:0")
    check(all(g["values"][2] == [2, 2] for g in files.values()), files)
    # Whole array: the result each record reports, as a 1-element array.
    for op in ("sum", "argmin", "minmax", "moments"):
        prefix = os.path.join(TMP, f"whole{next(OUTPUTS)}")
        recs = records("--input", x, "--op", op, "--output", prefix)
        for r in recs:
            descr, shape, got, _ = read_npy(f"{prefix}.{r['backend']}.npy")
            if op == "sum":
                check(shape == [1] and got == [r["result"]] == [19], got)
            elif op == "argmin":
                check(got == [-1] and read_npy(f"{prefix}.{r['backend']}.index.npy")[2] == [r["result"]["index"]] == [1], got)
            elif op == "minmax":
                check(shape == [1, 2] and got == [-1, 9], got)
            else:
                check(shape == [1, 3] and got[0] == 6 and close(got[1], r["result"]["mean"]), got)


@case
def case_segmented_errors():
    x = write("x.npy", npy_bytes("<f4", (10,), pack("f", range(10))))
    y = write("y.npy", npy_bytes("<f4", (10,), pack("f", range(10))))
    offsets = lambda name, fmt, descr, v: write(name, npy_bytes(descr, (len(v),), pack(fmt, v)))
    # Bad offsets: decreasing, past n, negative, not integers, none at all.
    fails("--input", x, "--segments", offsets("dec.npy", "q", "<i8", [0, 5, 3, 10]), status=1, contains="decrease")
    line = fails("--input", x, "--segments", offsets("past.npy", "q", "<i8", [0, 5, 11]), status=1, contains="past the end")
    check("11" in line and "10 values" in line, line)
    fails("--input", x, "--segments", offsets("neg.npy", "q", "<i8", [-1, 5]), status=1, contains="negative")
    fails("--input", x, "--segments", offsets("flt.npy", "d", "<f8", [0, 5]), status=1, contains="integer")
    fails("--input", x, "--segments", write("empty.npy", npy_bytes("<i8", (0,), b"")), status=1, contains="m + 1")
    fails("--input", x, "--segments", os.path.join(TMP, "missing.npy"), status=1, contains="missing.npy")
    fails("--input", x, "--segments", write("junk.txt", "0\nfive\n"), status=1, contains="junk.txt:2:")
    # Axes out of range, repeated, malformed.
    x3 = write("x3.npy", npy_bytes("<f8", (2, 3, 4), pack("d", range(24))))
    for axes, expect in (("3", "out of range"), ("-4", "out of range"), ("0,0", "twice"), ("1,-2", "twice"),
                         ("a", "integers"), ("0,", "integers"), ("", "integers")):
        fails("--input", x3, f"--axis={axes}", status=2, contains=expect if axes else "--axis")
    # Keys of another length, raw keys without a type, a --keys-type the .npy contradicts.
    fails("--input", x, "--keys", offsets("k.npy", "q", "<i8", [1, 1, 2]), status=1, contains="one key per value")
    fails("--input", x, "--keys", write("k.bin", pack("i", range(10))), status=2, contains="--keys-type")
    fails("--input", x, "--keys", offsets("k10.npy", "q", "<i8", list(range(10))), "--keys-type", "i32", status=1,
          contains="dtype")
    fails("--input", x, "--keys-type", "i32", status=2, contains="--keys")
    fails("--input", x, "--keys", write("k10.txt", "1\n" * 10), "--keys-type", "f128", status=2, contains="f128")
    # Two modes at once, and modes the op or --mpi cannot take.
    off = offsets("ok.npy", "q", "<i8", [0, 10])
    for a, b in ((("--axis", "0"), ("--segments", off)), (("--segment-size", "5"), ("--keys", off)),
                 (("--segments", off), ("--segment-size", "2")), (("--axis", "0"), ("--keys", off))):
        fails("--input", x, *a, *b, status=2, contains="at most one")
    fails("--input", x, "--input2", y, "--op", "dot", "--keys", off, status=2, contains="reduce_by_key reads one input")
    fails("--input", x, "--input2", y, "--op", "dot", "--axis", "0", status=2, contains="reduce_axes reads one input")
    fails("--n", 10, "--segment-size", 5, "--mpi", status=2, contains="--mpi")
    fails("--n", 10, "--output", os.path.join(TMP, "no", "such", "dir", "p"), status=2, contains="does not exist")


@case
def case_segmented_help():
    out = ok("--help")
    for word in ("--axis K[,K...]", "--segments FILE", "--segment-size K", "--keys FILE", "--keys-type",
                 "--output PREFIX", "PREFIX.<backend>.npy", ".index.npy", ".keys.npy", "sha256", "first_keys",
                 "(m, 2)", "(m, 3) float64"):
        check(word in out, f"--help does not mention {word}")


# ---------------------------------------------------------------- cases: narrow element types

def f16_bits(x):
    """The binary16 pattern nearest x (Python's struct rounds to nearest, ties to even)."""
    return struct.unpack("<H", struct.pack("<e", x))[0]


def f16_value(bits):
    return struct.unpack("<e", struct.pack("<H", bits))[0]


def bf16_bits(x):
    """The bfloat16 pattern of x, which must be exact in bfloat16 (the upper half of a float32)."""
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    check(u & 0xffff == 0, f"{x} is not a bfloat16")
    return u >> 16


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def f32_bits(x):
    return f"0x{struct.unpack('<I', struct.pack('<f', x))[0]:08x}"


def hex16(bits):
    return f"0x{bits:04x}"


@case
def case_npy_f16():
    # Sums of float16 accumulate in float32 and return float32: these values are multiples
    # of 1/4 below 2^17, so every partial sum is exact in float32, in any order.
    vals = [1.0, -2.5, 0.5, 65504.0, -3.0, 1024.0, 0.25, -0.0, 0.0]
    path = write("h.npy", npy_bytes("<f2", (3, 3), pack("e", vals)))
    exact = math.fsum(vals)
    check(exact == 66524.25 and f32(exact) == exact, "the reference")
    r = one_result("--input", path, "--op", "sum")
    check(r["type"] == "float16" and r["n"] == 9 and r["result"] == exact and r["error"] == 0, r)
    check(r["bits"] == f32_bits(exact) and r["bit_identical"] is True, f"float32 bits of the sum: {r}")
    check(r["error_bound"] == 8 * 2.0**-24 * math.fsum(abs(v) for v in vals), f"float32's u in the bound: {r}")
    check(one_result("--input", path, "--op", "argmax")["result"] == {"value": 65504.0, "index": 3}, "argmax")
    r = one_result("--input", path, "--op", "argmin")
    check(r["result"] == {"value": -3.0, "index": 4} and r["bits"] == "0xc200", r)
    for r in records("--input", path, "--op", "mean"):
        check(close(r["result"], exact / 9), f"mean in double: {r}")
    check(one_result("--input", path, "--op", "count_if", "--pred", "greater:0.5")["result"] == 3, "count_if")
    # A float16 accumulator would overflow at the second 65504; float32 holds 1000 of them exactly.
    big = write("big.npy", npy_bytes("<f2", (1000,), pack("e", [65504.0] * 1000)))
    r = one_result("--input", big, "--op", "sum")
    check(r["result"] == 65504000.0 and r["bits"] == f32_bits(65504000.0) and r["error"] == 0, r)
    check(one_result("--input", big, "--op", "wide_sum")["result"] == 65504000.0, "wide_sum")
    # 1000 x the smallest subnormal, 2^-24: exact in float32.
    tiny = write("tiny.npy", npy_bytes("<f2", (1000,), pack("H", [0x0001] * 1000)))
    check(one_result("--input", tiny, "--op", "sum")["result"] == 1000 * 2.0**-24, "sum of subnormals")
    # sumsq and asum accumulate like sum (products of float16 values are exact in float32).
    sq = [1.0, -2.5, 0.5, 3.0, 0.25]
    sqp = write("sq.npy", npy_bytes("<f2", (5,), pack("e", sq)))
    r = one_result("--input", sqp, "--op", "sumsq")
    check(r["result"] == math.fsum(v * v for v in sq) == 16.5625 and r["error"] == 0, r)
    check(one_result("--input", sqp, "--op", "asum")["result"] == 7.25, "asum")
    r = one_result("--input", sqp, "--input2", sqp, "--op", "dot")
    check(r["result"] == 16.5625 and r["type"] == "float16", r)
    # --type may restate the dtype, and must not contradict it.
    check(one_result("--input", path, "--type", "f16", "--op", "sum")["result"] == exact, "--type f16")
    fails("--input", path, "--type", "bf16", status=1, contains="disagrees")


@case
def case_f16_bits_in_reports():
    # Signed zeros: -0 < +0, whatever their order; the bits tell them apart.
    for order in ([0x0000, 0x8000], [0x8000, 0x0000]):
        path = write("z.npy", npy_bytes("<f2", (2,), pack("H", order)))
        r = one_result("--input", path, "--op", "min")
        check(r["result"] == 0 and r["bits"] == "0x8000", f"{order}: {r}")
        r = one_result("--input", path, "--op", "max")
        check(r["result"] == 0 and r["bits"] == "0x0000", f"{order}: {r}")
        r = one_result("--input", path, "--op", "argmin")
        check(r["result"]["index"] == order.index(0x8000) and r["bits"] == "0x8000", f"{order}: {r}")
        r = one_result("--input", path, "--op", "minmax")
        check(r["bits"] == {"min": "0x8000", "max": "0x0000"}, f"{order}: {r}")
    # Subnormals, the largest finite values, infinities.
    pats = [0x0001, 0x03ff, 0x7bff, 0xfbff, 0x8001, 0x7c00, 0xfc00, 0x3c00]
    path = write("s.npy", npy_bytes("<f2", (len(pats),), pack("H", pats)))
    check(f16_value(0x03ff) == 2.0**-14 - 2.0**-24 and f16_value(0x7bff) == 65504.0, "the patterns")
    r = one_result("--input", path, "--op", "argmin")
    check(r["result"] == {"value": "-inf", "index": 6} and r["bits"] == "0xfc00", r)
    r = one_result("--input", path, "--op", "argmax")
    check(r["result"] == {"value": "inf", "index": 5} and r["bits"] == "0x7c00", r)
    finite = [0x0001, 0x03ff, 0x8001, 0x0400, 0xfbff, 0x7bff]
    path = write("f.npy", npy_bytes("<f2", (len(finite),), pack("H", finite)))
    r = one_result("--input", path, "--op", "minmax")
    check(r["result"] == {"min": -65504.0, "max": 65504.0} and r["bits"] == {"min": "0xfbff", "max": "0x7bff"}, r)
    small = write("sub.npy", npy_bytes("<f2", (3,), pack("H", [0x0001, 0x03ff, 0x8001])))
    r = one_result("--input", small, "--op", "min")
    check(r["result"] == -(2.0**-24) and r["bits"] == "0x8001", f"a subnormal, exactly: {r}")
    r = one_result("--input", small, "--op", "max")
    check(r["result"] == 2.0**-14 - 2.0**-24 and r["bits"] == "0x03ff", r)
    # Any NaN wins min and max and comes out as the canonical quiet NaN, 0x7e00.
    for nan in (0x7e00, 0x7c01, 0xfe00, 0x7fff):
        path = write("n.npy", npy_bytes("<f2", (3,), pack("H", [0x3c00, nan, 0x4000])))
        for op in ("min", "max"):
            r = one_result("--input", path, "--op", op)
            check(r["result"] == "nan" and r["bits"] == "0x7e00", f"{op} with NaN {nan:#06x}: {r}")
        r = one_result("--input", path, "--op", "argmax")
        check(r["result"] == {"value": "nan", "index": 1} and r["bits"] == "0x7e00", f"{nan:#06x}: {r}")
        r = one_result("--input", path, "--op", "minmax")
        check(r["bits"] == {"min": "0x7e00", "max": "0x7e00"}, f"{nan:#06x}: {r}")
        check(one_result("--input", path, "--op", "count_if", "--pred", "is_nan")["result"] == 1, "is_nan")
    # The table and the CSV show the bits too; sums keep their float32 bits.
    path = write("z.npy", npy_bytes("<f2", (2,), pack("H", [0x0000, 0x8000])))
    rows = table_rows(ok("--input", path, "--op", "min", "--repeat", "1"))
    check(all(r["result"] == "-0" and r["bits"] == "0x8000" for r in rows), rows)
    rows = table_rows(ok("--input", path, "--op", "minmax", "--repeat", "1"))
    check(all(r["bits"] == "0x8000/0x0000" for r in rows), rows)
    out = ok("--input", path, "--op", "max", "--format", "csv", "--repeat", "1").splitlines()
    cells = dict(zip(out[0].split(","), out[1].split(",")))
    check(cells["result"] == "0" and cells["bits"] == "0x0000" and cells["type"] == "float16", cells)
    # Other types' min and max carry no "bits".
    path = write("i.npy", npy_bytes("<i2", (2,), pack("h", [1, 2])))
    check("bits" not in one_result("--input", path, "--op", "min"), "bits of an int16 min")


@case
def case_npy_big_endian():
    # '>' dtypes are byte-swapped on reading, as '<' ones are on a big-endian host.
    vals = [1.5, -0.25, 2048.0, -0.0]
    path = write("be.npy", npy_bytes(">f2", (4,), struct.pack(">4e", *vals)))
    r = one_result("--input", path, "--op", "sum")
    check(r["type"] == "float16" and r["result"] == 2049.25, r)
    r = one_result("--input", path, "--op", "min")
    check(r["result"] == -0.25 and r["bits"] == hex16(f16_bits(-0.25)), r)
    r = one_result("--input", path, "--op", "max")
    check(r["result"] == 2048.0 and r["bits"] == "0x6800", r)
    check(one_result("--input", path, "--op", "argmax")["result"] == {"value": 2048.0, "index": 2}, "argmax")
    for r in records("--input", path, "--op", "sumsq"):  # 4194306.3125 needs 27 bits: rounded in float32
        check(r["exact"] == 4194306.3125 and abs(r["error"]) <= r["error_bound"], f"sumsq: {r}")
    for descr, fmt, vals, tname, total in ((">i2", "h", [-300, 200, 7], "int16", -93),
                                           (">u2", "H", [65535, 1, 2], "uint16", 65538),
                                           (">i4", "i", [-(2**31), 5], "int32", -(2**31) + 5),
                                           (">u8", "Q", [2**63, 1], "uint64", 2**63 + 1),
                                           (">f4", "f", [1.5, 2.25], "float32", 3.75),
                                           (">f8", "d", [0.5, -4.0], "float64", -3.5)):
        path = write("be.npy", npy_bytes(descr, (len(vals),), struct.pack(f">{len(vals)}{fmt}", *vals)))
        r = one_result("--input", path, "--op", "sum")
        check(r["type"] == tname and r["result"] == total, f"{descr}: {r}")
    # '=' is the host's order; 1-byte types take any order character.
    path = write("native.npy", npy_bytes("=i2", (2,), struct.pack("=2h", -5, 9)))
    check(one_result("--input", path, "--op", "sum")["result"] == 4, "=i2")
    path = write("b.npy", npy_bytes(">i1", (2,), pack("b", [-5, 9])))
    check(one_result("--input", path, "--op", "sum")["result"] == 4, ">i1")


@case
def case_npy_narrow_ints():
    # Read as themselves, summed in int64/uint64: no wrap at 8 or 16 bits.
    i8 = write("i8.npy", npy_bytes("|i1", (1000,), pack("b", [127] * 1000)))
    r = one_result("--input", i8, "--op", "sum")
    check(r["type"] == "int8" and r["n"] == 1000 and r["result"] == 127000, f"no 8-bit wrap: {r}")
    check(one_result("--input", i8, "--op", "wide_sum")["result"] == 127000, "wide_sum")
    check(one_result("--input", i8, "--op", "sumsq")["result"] == 1000 * 127**2, "sumsq")
    check(one_result("--input", i8, "--op", "argmax")["result"] == {"value": 127, "index": 0}, "ties: lowest index")
    vals = [-128, 127, -1, 5]
    mixed = write("m.npy", npy_bytes("|i1", (4,), pack("b", vals)))
    check(one_result("--input", mixed, "--op", "sum")["result"] == 3, "sum")
    check(one_result("--input", mixed, "--op", "argmin")["result"] == {"value": -128, "index": 0}, "argmin")
    check(one_result("--input", mixed, "--op", "minmax")["result"] == {"min": -128, "max": 127}, "minmax")
    check(one_result("--input", mixed, "--op", "sumsq")["result"] == sum(v * v for v in vals), "sumsq")
    check(one_result("--input", mixed, "--op", "asum")["result"] == 261, "asum: |-128| = 128")
    check(one_result("--input", mixed, "--op", "mean")["result"] == 0.75, "mean")
    check(one_result("--input", mixed, "--op", "count_if", "--pred", "greater:0")["result"] == 2, "count_if")
    check(one_result("--input", mixed, "--input2", mixed, "--op", "dot")["result"] == sum(v * v for v in vals), "dot")
    fails("--input", mixed, "--op", "count_if", "--pred", "greater:300", status=2, contains="int8")
    u8 = write("u8.npy", npy_bytes("|u1", (1000,), pack("B", [255] * 1000)))
    r = one_result("--input", u8, "--op", "sum")
    check(r["type"] == "uint8" and r["result"] == 255000, r)
    check(one_result("--input", u8, "--op", "min")["result"] == 255, "min")
    vals = [-32768, 32767, -1, 5]
    i16 = write("i16.npy", npy_bytes("<i2", (2, 2), pack("h", vals)))
    r = one_result("--input", i16, "--op", "sum")
    check(r["type"] == "int16" and r["result"] == 3, r)
    check(one_result("--input", i16, "--op", "sumsq")["result"] == sum(v * v for v in vals), "sumsq")
    r = one_result("--input", i16, "--op", "minmax")
    check(r["result"] == {"min": -32768, "max": 32767} and "bits" not in r, r)
    i16k = write("i16k.npy", npy_bytes("<i2", (1000,), pack("h", [32767] * 1000)))
    check(one_result("--input", i16k, "--op", "sum")["result"] == 32767000, "no 16-bit wrap")
    u16 = write("u16.npy", npy_bytes("<u2", (1000,), pack("H", [65535] * 1000)))
    r = one_result("--input", u16, "--op", "sum")
    check(r["type"] == "uint16" and r["result"] == 65535000, r)
    u16b = write("u16b.npy", npy_bytes("<u2", (3,), pack("H", [3, 65535, 65535])))
    check(one_result("--input", u16b, "--op", "argmax")["result"] == {"value": 65535, "index": 1}, "argmax")
    check(one_result("--input", u16b, "--type", "u16", "--op", "min")["result"] == 3, "--type u16")
    fails("--input", u16b, "--type", "i16", status=1, contains="disagrees")


@case
def case_raw_bf16_and_i8():
    vals = [1.5, -2.0, 0.0078125, 256.0, 3.0, -0.5]
    path = write("v.bf16", pack("H", [bf16_bits(v) for v in vals]))
    r = one_result("--input", path, "--type", "bf16", "--op", "sum")
    exact = math.fsum(vals)
    check(r["type"] == "bfloat16" and r["n"] == 6 and r["result"] == exact == 258.0078125 and r["error"] == 0, r)
    check(r["bits"] == f32_bits(exact), f"float32 bits: {r}")
    r = one_result("--input", path, "--type", "bf16", "--op", "min")
    check(r["result"] == -2.0 and r["bits"] == "0xc000", r)
    r = one_result("--input", path, "--type", "bf16", "--op", "argmax")
    check(r["result"] == {"value": 256.0, "index": 3} and r["bits"] == "0x4380", r)
    # A bfloat16 accumulator would stop growing at 256; float32 counts 1000 ones.
    ones = write("ones.bf16", pack("H", [0x3f80] * 1000))
    check(one_result("--input", ones, "--type", "bf16", "--op", "sum")["result"] == 1000.0, "float32 accumulator")
    # The largest finite bfloat16, signed zeros, NaN (canonical 0x7fc0).
    path = write("x.bf16", pack("H", [0x7f7f, 0x8000, 0x0000, 0xff7f]))
    r = one_result("--input", path, "--type", "bf16", "--op", "minmax")
    check(r["result"] == {"min": bf16_value(0xff7f), "max": bf16_value(0x7f7f)}, r)
    check(r["bits"] == {"min": "0xff7f", "max": "0x7f7f"}, r)
    path = write("z.bf16", pack("H", [0x0000, 0x8000]))
    check(one_result("--input", path, "--type", "bf16", "--op", "min")["bits"] == "0x8000", "-0 < +0")
    for nan in (0x7fc0, 0x7f81, 0xffc0):
        path = write("n.bf16", pack("H", [0x3f80, nan, 0x4000]))
        r = one_result("--input", path, "--type", "bf16", "--op", "max")
        check(r["result"] == "nan" and r["bits"] == "0x7fc0", f"{nan:#06x}: {r}")
    fails("--input", write("odd.bf16", b"\0" * 3), "--type", "bf16", status=1, contains="multiple of 2")
    # Raw int8 and uint16: the bytes as themselves.
    path = write("v.i8", bytes([0x80, 0x7f, 0xff, 0x05]))
    r = one_result("--input", path, "--type", "i8", "--op", "sum")
    check(r["type"] == "int8" and r["result"] == 3, r)
    check(one_result("--input", path, "--type", "i8", "--op", "argmin")["result"] == {"value": -128, "index": 0}, "argmin")
    path = write("k.i8", bytes([0x7f] * 1000))
    check(one_result("--input", path, "--type", "i8", "--op", "sum")["result"] == 127000, "no 8-bit wrap")
    path = write("v.u16", pack("H", [65535, 1]))
    check(one_result("--input", path, "--type", "u16", "--op", "sum")["result"] == 65536, "u16")
    fails("--input", write("odd.i16", b"\0" * 5), "--type", "i16", status=1, contains="multiple of 2")
    fails("--input", path, status=1, contains="i8, u8, i16, u16, f16, bf16")  # raw without --type


@case
def case_text_narrow():
    p = write("u8.txt", "0\n255\n+7\n\n")
    r = one_result("--input", p, "--type", "u8", "--op", "sum")
    check(r["type"] == "uint8" and r["n"] == 3 and r["result"] == 262, r)
    check(one_result("--input", p, "--type", "u8", "--op", "max")["result"] == 255, "max")
    line = fails("--input", write("u8bad.txt", "1\n256\n"), "--type", "u8", status=1, contains="out of range for u8")
    check(":2:" in line, line)
    fails("--input", write("neg.txt", "-1\n"), "--type", "u8", status=1, contains="not a valid u8")
    for t, good, bad in (("i8", "-128\n127\n", "128\n"), ("i16", "-32768\n32767\n", "-32769\n"),
                         ("u16", "0\n65535\n", "65536\n")):
        check(one_result("--input", write("g.txt", good), "--type", t, "--op", "sum")["result"] == sum(
            int(v) for v in good.split()), t)
        fails("--input", write("b.txt", bad), "--type", t, status=1, contains=f"out of range for {t}")
    fails("--input", write("f.txt", "1.5\n"), "--type", "i8", status=1, contains="not a valid i8")
    # float16: parsed and rounded to nearest, ties to even, without double rounding
    # (1.0004882812500003 rounds to float32 as the tie 1 + 2^-11, which would round to 1).
    for text, bits in (("0.1", f16_bits(0.1)), ("1.00048828125", 0x3c00), ("1.0004882812500003", 0x3c01),
                       ("1.00146484375", 0x3c02), ("65519", 0x7bff), ("-65504", 0xfbff), ("3e-8", 0x0001),
                       ("-0", 0x8000), ("inf", 0x7c00), ("-inf", 0xfc00), ("nan", 0x7e00), ("+2", 0x4000)):
        r = one_result("--input", write("h.txt", text + "\n"), "--type", "f16", "--op", "max")
        check(r["bits"] == hex16(bits), f"{text}: {r}")
        if text != "nan":
            check(r["result"] == (json.loads(json.dumps(f16_value(bits))) if math.isfinite(f16_value(bits))
                                  else ("inf" if f16_value(bits) > 0 else "-inf")), f"{text}: {r}")
    check(f16_bits(0.1) == 0x2e66, "0.1 in float16")
    # Beyond the largest finite value (rounding to infinity), or non-zero and rounding to zero.
    for text in ("65520", "1e5", "-70000", "1e-8", "2.98023223876953125e-8"):
        fails("--input", write("h.txt", "1\n" + text + "\n"), "--type", "f16", status=1,
              contains="out of range for f16")
    fails("--input", write("h.txt", "1\n1e400\n"), "--type", "f16", status=1, contains="out of range for f16")
    fails("--input", write("h.txt", "1.5x\n"), "--type", "f16", status=1, contains="not a valid f16")
    fails("--input", write("h.txt", "++1\n"), "--type", "f16", status=1, contains="not a valid f16")
    # bfloat16: float32's range, 8 significand bits.
    for text, bits in (("0.1", 0x3dcd), ("1.00390625", 0x3f80), ("1.0039062500000002", 0x3f81), ("-3.38e38", None),
                       ("1e-39", 0x000b)):  # a subnormal: 11 * 2^-133
        r = one_result("--input", write("b.txt", text + "\n"), "--type", "bf16", "--op", "min")
        if bits is not None:
            check(r["bits"] == hex16(bits), f"{text}: {r}")
        else:
            check(r["result"] != 0 and abs(r["result"] - float(text)) <= abs(float(text)) * 2.0**-8, f"{text}: {r}")
    fails("--input", write("b.txt", "3.4e38\n"), "--type", "bf16", status=1, contains="out of range for bf16")
    # A sum of float16 text: float32 arithmetic on the rounded values.
    p = write("hs.txt", "0.5\n0.25\n1024\n-3\n")
    r = one_result("--input", p, "--type", "f16", "--op", "sum")
    check(r["type"] == "float16" and r["result"] == 1021.75 and r["error"] == 0, r)
    # The threshold of count_if is a value of the element type.
    check(one_result("--input", p, "--type", "f16", "--op", "count_if", "--pred", "greater:0.3")["result"] == 2, "pred")
    fails("--input", p, "--type", "f16", "--op", "count_if", "--pred", "greater:1e6", status=2, contains="float16")


@case
def case_generated_narrow():
    for t, tname in (("f16", "float16"), ("bf16", "bfloat16"), ("i8", "int8"), ("u8", "uint8"), ("i16", "int16"),
                     ("u16", "uint16")):
        for op in ("sum", "min", "max", "argmax", "minmax", "sumsq"):
            recs = records("--n", 1000, "--type", t, "--op", op, "--seed", 5)
            for r in recs:
                check(r["n"] == 1000 and r["type"] == tname, f"{t} {op}: {r}")
            if t in ("f16", "bf16") and op in ("sum", "sumsq"):
                for r in recs:
                    check(abs(r["error"]) <= r["error_bound"], f"{t} {op}: {r}")
            else:
                check(all(r["result"] == recs[0]["result"] and r.get("bits") == recs[0].get("bits") for r in recs),
                      f"{t} {op}: {recs}")
                if t in ("f16", "bf16") and op != "sumsq":
                    check("bits" in recs[0], f"{t} {op}: {recs[0]}")
        # The same bits on every backend under precision deterministic.
        if t in ("f16", "bf16"):
            recs = records("--n", 1000, "--type", t, "--op", "sum", "--precision", "deterministic")
            check(all(r["bits"] == recs[0]["bits"] for r in recs) and recs[0]["bit_identical"], recs)
    # The generated values themselves, through --segment-size 1 (one min per value): float16
    # values in [-1, 1), never 0; the report's exact sum and float32 bound are theirs.
    _, files = segmented("--n", 1000, "--type", "f16", "--seed", 5, "--segment-size", 1, "--op", "min")
    got = [f["values"] for f in files.values()]
    check(all(g[0] == "<f2" and g[2] == got[0][2] for g in got), "every backend writes the same float16 values")
    vals = got[0][2]
    check(all(-1 <= v < 1 and v != 0 for v in vals) and len(set(vals)) > 500, f"generated float16 values: {vals[:20]}")
    check(min(vals) < -0.9 and max(vals) > 0.9, "the whole interval")
    for r in records("--n", 1000, "--type", "f16", "--seed", 5, "--op", "sum"):
        check(r["exact"] == math.fsum(vals), f"exact sum {r['exact']} vs {math.fsum(vals)}")
        check(close(r["error_bound"], 999 * 2.0**-24 * math.fsum(abs(v) for v in vals)), f"float32's bound: {r}")
        check(f32(r["result"]) == r["result"] and r["bits"] == f32_bits(r["result"]), f"a float32 result: {r}")
    _, files = segmented("--n", 1000, "--type", "bf16", "--seed", 5, "--segment-size", 1, "--op", "max")
    vals = [bf16_value(b) for b in next(iter(files.values()))["values"][2]]
    check(next(iter(files.values()))["values"][0] == "<u2", "bfloat16 results are written as their bits")
    check(all(-1 <= v < 1 and v != 0 for v in vals) and len(set(vals)) > 200, f"generated bfloat16: {vals[:20]}")
    for t, lo, hi, descr in (("i8", -100, 100, "|i1"), ("u8", 0, 100, "|u1"), ("i16", -100, 100, "<i2"),
                             ("u16", 0, 100, "<u2")):
        _, files = segmented("--n", 1000, "--type", t, "--seed", 5, "--segment-size", 1, "--op", "min")
        g = next(iter(files.values()))["values"]
        check(g[0] == descr and all(lo <= v <= hi for v in g[2]) and min(g[2]) == lo and max(g[2]) == hi, f"{t}: {g[:3]}")
        r = one_result("--n", 1000, "--type", t, "--seed", 5, "--op", "sum")
        check(r["result"] == sum(g[2]), f"{t}: sum {r['result']} vs {sum(g[2])}")
    out = ok("--n", 100, "--type", "f16", "--repeat", "1")
    check("100 float16" in out and "rounded to float16" in out, out)


@case
def case_narrow_many_results():
    # Results of the many-results modes in their own types: float16 <f2, sums of float16 <f4,
    # sums of int8 <i8.
    hv = [1.0, -0.0, 0.0, 2.5, -65504.0, 0.25]
    x = write("h.npy", npy_bytes("<f2", (6,), pack("e", hv)))
    recs, files = segmented("--input", x, "--segment-size", 3, "--op", "min")
    for f in files.values():
        check(f["values"][0] == "<f2" and f["values"][3] == pack("H", [0x8000, 0xfbff]), f["values"])
    check(recs[0]["first"] == [0, -65504.0], recs[0])
    _, files = segmented("--input", x, "--segment-size", 3, "--op", "sum")
    for f in files.values():
        check(f["values"][0] == "<f4" and f["values"][2] == [1.0, -65501.25], f["values"])
    i8 = write("i8.npy", npy_bytes("|i1", (4,), pack("b", [127, 127, -128, -128])))
    _, files = segmented("--input", i8, "--segment-size", 2, "--op", "sum")
    for f in files.values():
        check(f["values"][0] == "<i8" and f["values"][2] == [254, -256], f["values"])
    _, files = segmented("--input", i8, "--segment-size", 2, "--op", "argmax")
    for f in files.values():
        check(f["values"][0] == "|i1" and f["values"][2] == [127, -128] and f["index"][2] == [0, 0], f)
    # Narrow keys are widened exactly (int8 to int32, float16 to float32): the same runs.
    keys = [3, 3, -1, -1, -1, 3]
    kf = write("k.npy", npy_bytes("|i1", (6,), pack("b", keys)))
    recs, files = segmented("--input", x, "--keys", kf, "--op", "sum")
    check(recs[0]["keys_type"] == "int32", recs[0])
    for f in files.values():
        check(f["keys"][0] == "<i4" and f["keys"][2] == [3, -1, 3] and f["values"][2] == [1.0, -65501.5, 0.25], f)
    hk = write("hk.npy", npy_bytes("<f2", (6,), pack("H", [0x8000, 0x0000, 0x7e00, 0x7e00, 0x3c00, 0x3c00])))
    recs, files = segmented("--input", x, "--keys", hk, "--op", "sum")
    check(recs[0]["keys_type"] == "float32" and recs[0]["count"] == 4, recs[0])
    for f in files.values():
        check(f["keys"][0] == "<f4" and f["values"][2] == [1.0, 0.0, 2.5, -65503.75], f)


def main():
    global BINARY, TMP
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print(f"usage: {sys.argv[0]} --list | PREDUCE CASE (cases: {', '.join(CASES)})", file=sys.stderr)
        return 2
    BINARY = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="preduce-cli-") as TMP:
        CASES[sys.argv[2]]()
    print(f"{sys.argv[2]}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
