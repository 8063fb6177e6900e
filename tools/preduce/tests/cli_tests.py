#!/usr/bin/env python3
"""Tests of the preduce command-line program, run by ctest one case at a time.

    cli_tests.py --list            names of the cases (CMake registers one test each)
    cli_tests.py PREDUCE CASE      run one case against the built binary

Input files are written at test time with the standard library only (struct, not
numpy, which a Debian machine need not have), so every byte of a bad file is chosen
here on purpose.
"""
import json
import math
import os
import random
import re
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

def run(*args):
    return subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True, timeout=60)


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
    for word in ("--input", "--op", "--pred", "--backend", "--format", "results"):
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
             ("|i1", "b", [-128, 127, -1], "int32", -2),
             ("|u1", "B", [255, 1], "uint32", 256),
             ("|b1", "B", [1, 0, 1, 1], "uint32", 3)]
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
        "big-endian": (npy_bytes(">f8", (1,), struct.pack(">d", 1.0)), "big-endian"),
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
    fails("--type", "f16", status=2, contains="f16")
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
