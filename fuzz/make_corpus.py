#!/usr/bin/env python3
"""Writes the seed corpora of the fuzzers (fuzz/corpus/<fuzzer>/):

  reduce  every element type with every operation, each precision, the block/chunk/
          threshold sizes, misaligned and null pointers, count_if thresholds of other
          types, and the nasty values (NaN, infinities, signed zeros, denormals, integer
          extremes); the narrow types (int8 .. bfloat16) with one input per op family.
          The byte layout is documented in fuzz/reduce/fuzz_case.hpp; this script must
          follow it.
  npy     small .npy files of each format version, dtype and shape the CLI reads, and
          a few it must refuse (tools/preduce/fuzz/npy_fuzzer.cpp)
  text    one-number-per-line files: integers, floats, NaN/inf, blanks, junk
          (tools/preduce/fuzz/text_fuzzer.cpp)

    fuzz/make_corpus.py [corpus-dir]     (default: fuzz/corpus beside this file)
"""
import os
import struct
import sys

WIDE_TYPES = ["i32", "u32", "i64", "u64", "f32", "f64"]
NARROW_TYPES = ["i8", "u8", "i16", "u16", "f16", "bf16"]
TYPES = WIDE_TYPES + NARROW_TYPES  # byte 0 % 12
PACK = {"i32": "<i", "u32": "<I", "i64": "<q", "u64": "<Q", "f32": "<f", "f64": "<d",
        "i8": "<b", "u8": "<B", "i16": "<h", "u16": "<H", "f16": "<e"}
BITS = {"u8": 8, "u16": 16, "u32": 32, "u64": 64}
OPS = ["sum", "wide_sum", "prod", "min", "max", "argmin", "argmax", "count_if", "sumsq", "asum",
       "dot", "minmax", "mean", "variance", "moments", "sum_count"]
PRECISIONS = ["fast", "deterministic", "compensated"]
PREDICATES = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "in_range", "is_nan"]
THRESHOLD_TYPES = ["element", "f64", "i64", "u64"]
SIZE_MODES = {"bytes": 0, "boundary": 1, "any": 2, "small": 3}
VALUE_MODES = {"raw": 0, "generated": 1, "few": 2, "any_bits": 3}
# Special values by index (values.hpp's special_values): floats (16-bit ones too) 0 qNaN,
# 1 -qNaN, 2 sNaN, 3 NaN with payload, 4 +inf, 5 -inf, 6 +0, 7 -0, 8 denorm_min,
# 9 -denorm_min, 10 largest denormal, 11 min normal, 13 max, 14 lowest; 16-bit floats also
# 18 0.1, 20 2^11 (float16) / 2^24 (bfloat16); integers 0 min, 1 max, 4 -1, 9 2^53+1
# (32/64-bit only: the 8/16-bit integers have indices 0..6).
SPECIAL = {"nan": 0, "neg_nan": 1, "snan": 2, "payload_nan": 3, "inf": 4, "neg_inf": 5, "zero": 6,
           "neg_zero": 7, "denorm": 8, "neg_denorm": 9, "big_denorm": 10, "max": 13, "lowest": 14,
           "int_min": 0, "int_max": 1}


def case(type_, op, precision="fast", threads=0, offset=0, byte_offset=0, null=False, size_mode="bytes",
         values_mode="raw", size=0, size_high=False, predicate="greater", thresholds="element", select_a=0,
         select_b=1, injections=(), values=b""):
    placement = 0xFF if null else (offset & 0x0F) | (byte_offset & 7) << 4
    mode = SIZE_MODES[size_mode] | VALUE_MODES[values_mode] << 2 | (0x10 if size_high else 0)
    header = bytes([TYPES.index(type_), OPS.index(op), PRECISIONS.index(precision), threads, placement, mode,
                    size & 0xFF, size >> 8 & 0xFF,
                    PREDICATES.index(predicate) | THRESHOLD_TYPES.index(thresholds) << 3, select_a, select_b,
                    len(injections)])
    body = b"".join(struct.pack("<I", pos)[:3] + bytes([SPECIAL.get(kind, kind) if isinstance(kind, str) else kind])
                    for pos, kind in injections)
    return header + body + values


def bfloat16_bits(v):
    """The nearest bfloat16 of float(v), ties to even (half.hpp's to_bfloat16)."""
    x = struct.unpack("<I", struct.pack("<f", v))[0]
    return (x + 0x7FFF + (x >> 16 & 1)) >> 16 & 0xFFFF


def packed(type_, values):
    """Little-endian values; integers wrap into unsigned types as C++ conversions do."""
    if type_ == "bf16":
        return b"".join(struct.pack("<H", bfloat16_bits(v)) for v in values)
    bits = BITS.get(type_)
    return b"".join(struct.pack(PACK[type_], v % (1 << bits) if bits else v) for v in values)


def sample_values(type_):
    if type_.startswith("f") or type_ == "bf16":
        return packed(type_, [1.5, -2.25, 3.0, 0.125, -0.0, 7.0, -1.0, 2.0, 1e3, -1e-3, 0.5, 4.0])
    lo = {"i32": -2**31, "i64": -2**63, "i8": -2**7, "i16": -2**15}.get(type_, 0)
    hi = {"i32": 2**31 - 1, "u32": 2**32 - 1, "i64": 2**63 - 1, "u64": 2**64 - 1,
          "i8": 2**7 - 1, "u8": 2**8 - 1, "i16": 2**15 - 1, "u16": 2**16 - 1}[type_]
    return packed(type_, [3, 1, 4, 1, 5, 9, 2, 6, max(lo, -7), hi, lo, 0])


def corpus():
    files = {}
    # Every (type, op): small exact inputs, precisions and thread counts in rotation, sizes
    # cycling through the boundary table (every fourth case a large one).
    for t_i, t in enumerate(WIDE_TYPES):
        for o_i, o in enumerate(OPS):
            k = t_i * len(OPS) + o_i
            common = dict(precision=PRECISIONS[k % 3], threads=k % 5, offset=k % 4,
                          predicate=PREDICATES[k % 8], select_a=k % 12, select_b=(k * 7) % 12)
            if k % 4 == 3:
                files[f"{t}_{o}_boundary"] = case(t, o, size_mode="boundary", size=(k % 24) | ((k % 7) << 8),
                                                  values_mode="generated", values=sample_values(t), **common)
            else:
                files[f"{t}_{o}"] = case(t, o, values=sample_values(t), **common)

    nasty = [(0, "nan"), (5, "inf"), (9, "neg_inf"), (2, "neg_zero"), (3, "denorm"), (7, "max"), (11, "lowest")]
    for t in ("f32", "f64"):
        for o in ("sum", "argmin", "argmax", "min", "max", "minmax", "mean", "variance", "sumsq", "dot", "prod"):
            files[f"{t}_{o}_nasty"] = case(t, o, size_mode="boundary", size=7, values_mode="generated",
                                           injections=nasty, values=b"seed")
        files[f"{t}_sum_neg_zeros"] = case(t, "sum", size_mode="small", size=40,
                                           injections=[(i, "neg_zero") for i in range(15)], values=packed(t, [-0.0]))
        files[f"{t}_sum_infs_overflow"] = case(t, "sum", size_mode="small", size=9,
                                               values=packed(t, [1.0, -2.0]), injections=[(1, "max"), (2, "max"),
                                                                                          (4, "lowest"), (6, "inf")])
        files[f"{t}_argmax_signed_zeros"] = case(t, "argmax", size_mode="small", size=33,
                                                 injections=[(4, "neg_zero"), (30, "zero")], values=packed(t, [-0.0]))
        files[f"{t}_any_bits_compensated"] = case(t, "sum", precision="compensated", threads=3, size_mode="boundary",
                                                  size=12, values_mode="any_bits", values=b"bits")
        files[f"{t}_count_is_nan"] = case(t, "count_if", predicate="is_nan", size_mode="boundary", size=13,
                                          values_mode="any_bits", values=b"nan")
        files[f"{t}_deterministic_dot_4097"] = case(t, "dot", precision="deterministic", threads=2,
                                                    size_mode="any", size=4097, values_mode="generated", values=b"d")
    for t in ("i32", "i64", "u64"):
        files[f"{t}_extremes_wrap"] = case(t, "sum", size_mode="small", size=17, values=packed(t, [1]),
                                           injections=[(0, "int_min"), (3, "int_max"), (8, "int_max")])
        files[f"{t}_asum_int_min"] = case(t, "asum", size_mode="small", size=5, values=packed(t, [-3]),
                                          injections=[(2, "int_min")])

    # Sizes at every backend boundary, with the parallel OpenMP path (threads 0..4).
    for s_i, (base, delta) in enumerate([(7, 0), (7, 4), (10, 6), (10, 3), (12, 2), (12, 3), (12, 4), (16, 3),
                                         (19, 6), (20, 3)]):
        files[f"boundary_{s_i}"] = case(WIDE_TYPES[s_i % 6], OPS[(3 * s_i) % 16], threads=s_i % 5, size_mode="boundary",
                                        size=base | delta << 8, values_mode="generated", values=bytes([s_i]))
    files["large_128k_argmin"] = case("f32", "argmin", size_mode="any", size_high=True, size=0xFFFF,
                                      values_mode="few", threads=4, values=b"ties")
    files["wide_sum_u32_65540"] = case("u32", "wide_sum", size_mode="any", size=65540, values_mode="any_bits",
                                       values=b"w")

    # Bad pointers: every backend must refuse them with invalid_argument.
    for t in WIDE_TYPES:
        files[f"{t}_misaligned"] = case(t, "sum", offset=1, byte_offset=1 if t in ("i32", "u32", "f32") else 3,
                                        values=sample_values(t))
    files["f64_null"] = case("f64", "argmax", null=True, size_mode="small", size=5)
    files["i32_misaligned_empty"] = case("i32", "sum", byte_offset=2, size_mode="small", size=0)

    # count_if thresholds that must be refused or converted exactly.
    for t_i, t in enumerate(WIDE_TYPES):
        for th_i, th in enumerate(THRESHOLD_TYPES[1:]):
            files[f"{t}_count_threshold_{th}"] = case(
                t, "count_if" if th_i != 2 else "sum_count", predicate=PREDICATES[(t_i + th_i) % 7],
                thresholds=th, select_a=128 + t_i * 3 + th_i, select_b=128 + th_i, values=sample_values(t))
    files["f32_count_u64_max"] = case("f32", "count_if", thresholds="u64", select_a=133, values=sample_values("f32"))
    files["f64_count_i64_max"] = case("f64", "count_if", thresholds="i64", select_a=133, values=sample_values("f64"))
    files["i32_in_range_reversed"] = case("i32", "count_if", predicate="in_range", select_a=5, select_b=1,
                                          values=sample_values("i32"))

    # The narrow types: one input per op family each, with the sizes, precisions, values
    # and thresholds that matter for them (float sums in float, extremes on the 16-bit
    # patterns, thresholds at the edges of the type).
    for t_i, t in enumerate(NARROW_TYPES):
        half = t in ("f16", "bf16")
        v = sample_values(t)
        files[f"{t}_sum"] = case(t, "sum", precision="deterministic" if half else "fast", threads=2, values=v)
        files[f"{t}_wide_sum_boundary"] = case(t, "wide_sum", precision="compensated", threads=3,
                                               size_mode="boundary", size=12 | 4 << 8, values_mode="generated",
                                               values=v)
        files[f"{t}_prod"] = case(t, "prod", size_mode="small", size=9, values=packed(t, [1, 2, -1, 3, 1]))
        files[f"{t}_dot_4097"] = case(t, "dot", precision="compensated" if half else "deterministic", threads=4,
                                      size_mode="any", size=4097, values_mode="generated", values=b"dot")
        files[f"{t}_sumsq"] = case(t, "sumsq", size_mode="small", size=200, values_mode="any_bits", values=b"sq")
        files[f"{t}_asum"] = case(t, "asum", precision="deterministic", size_mode="boundary", size=7,
                                  values_mode="generated", values=b"abs")
        files[f"{t}_argmin_nasty"] = case(t, "argmin", size_mode="small", size=40, values_mode="few", values=b"n",
                                          injections=[(3, 8), (9, 7), (12, 6), (20, 0), (33, 1)])
        files[f"{t}_argmax_ties"] = case(t, "argmax", threads=4, size_mode="any", size_high=True, size=7,
                                         values_mode="few", values=b"ties")
        files[f"{t}_minmax_any_bits"] = case(t, "minmax", threads=1, size_mode="boundary", size=10,
                                             values_mode="any_bits", values=b"mm")
        files[f"{t}_min_empty"] = case(t, "min", size_mode="small", size=0)
        files[f"{t}_moments"] = case(t, "moments", size_mode="boundary", size=13 | 3 << 8, values_mode="generated",
                                     values=b"mom")
        files[f"{t}_variance_precision"] = case(t, "variance", precision="compensated", values=v)
        files[f"{t}_count_element"] = case(t, "count_if", predicate=PREDICATES[t_i % 7], select_a=4 + t_i,
                                           select_b=9, values=v)
        files[f"{t}_count_f64_edges"] = case(t, "count_if", predicate="less_equal", thresholds="f64",
                                             select_a=128 + 3 * t_i, values_mode="generated", size_mode="small",
                                             size=100, values=v)
        files[f"{t}_sum_count_i64"] = case(t, "sum_count", precision="deterministic", predicate="in_range",
                                           thresholds="i64", select_a=128 + t_i, select_b=129 + t_i, values=v)
        files[f"{t}_count_u64"] = case(t, "count_if", predicate="greater", thresholds="u64", select_a=3,
                                       values=v)
        # 2-byte types: an odd byte offset is a misaligned pointer; 1-byte ones are never misaligned.
        files[f"{t}_byte_offset"] = case(t, "sum", offset=3, byte_offset=1, values=v)
        if half:
            files[f"{t}_sum_nasty"] = case(t, "sum", size_mode="boundary", size=7, values_mode="generated",
                                           injections=nasty, values=b"seed")
            files[f"{t}_sum_rounds"] = case(t, "sum", precision="deterministic", size_mode="any", size=5000,
                                            values=packed(t, [0.1]), injections=[(0, 20), (4096, 20), (77, 13)])
            files[f"{t}_count_is_nan"] = case(t, "count_if", predicate="is_nan", size_mode="boundary", size=13,
                                              values_mode="any_bits", values=b"nan")
            # 2049 (float16) and 257 (bfloat16): one bit more than the significand holds, refused
            files[f"{t}_count_f64_inexact"] = case(t, "count_if", predicate="equal", thresholds="f64",
                                                   select_a=150 if t == "f16" else 151, values=v)
        else:
            files[f"{t}_extremes_no_wrap"] = case(t, "sum", size_mode="small", size=250, values=v,
                                                  injections=[(0, "int_min"), (3, "int_max"), (8, "int_max")])
    return files


def npy(descr, shape, data, version=(1, 0), fortran=False, pad_to=64):
    shape_text = f"({shape[0]},)" if len(shape) == 1 else "(" + ", ".join(str(d) for d in shape) + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, "True" if fortran else "False",
                                                                      shape_text)
    length_bytes = 2 if version[0] == 1 else 4
    total = 6 + 2 + length_bytes + len(header) + 1
    header += " " * (-total % pad_to) + "\n"
    length = struct.pack("<H" if length_bytes == 2 else "<I", len(header))
    return b"\x93NUMPY" + bytes(version) + length + header.encode("latin-1") + data


def npy_corpus():
    f32 = struct.pack("<4f", 1.5, -2.0, float("nan"), float("inf"))
    return {
        "f4_1d": npy("<f4", (4,), f32),
        "f8_2d": npy("<f8", (2, 2), struct.pack("<4d", 1.0, -0.0, 1e308, 5e-324)),
        "i4_1d": npy("<i4", (3,), struct.pack("<3i", -2**31, 0, 2**31 - 1)),
        "u4_1d": npy("<u4", (2,), struct.pack("<2I", 0, 2**32 - 1)),
        "i8_1d": npy("<i8", (2,), struct.pack("<2q", -2**63, 2**63 - 1)),
        "u8_1d": npy("<u8", (1,), struct.pack("<Q", 2**64 - 1)),
        "b1_1d": npy("|b1", (3,), bytes([0, 1, 2])),
        "u1_1d": npy("|u1", (3,), bytes([0, 128, 255])),
        "i1_1d": npy("|i1", (3,), bytes([0, 128, 255])),
        "f2_1d": npy("<f2", (5,), struct.pack("<5H", 0x3c00, 0x8000, 0x7bff, 0x7e00, 0x0001)),
        "f2_big_endian": npy(">f2", (2,), struct.pack(">2H", 0xfc00, 0x3555)),
        "i2_1d": npy("<i2", (3,), struct.pack("<3h", -2**15, 0, 2**15 - 1)),
        "u2_2d": npy("<u2", (2, 2), struct.pack("<4H", 0, 1, 2**15, 2**16 - 1)),
        "scalar": npy("<f4", (), struct.pack("<f", 3.0)),
        "empty": npy("<f8", (0,), b""),
        "3d": npy("<i4", (2, 1, 2), struct.pack("<4i", 1, 2, 3, 4)),
        "v2": npy("<f4", (4,), f32, version=(2, 0)),
        "v3": npy("<f4", (4,), f32, version=(3, 0)),
        "old_padding": npy("<f4", (4,), f32, pad_to=16),
        "truncated": npy("<f8", (4,), struct.pack("<2d", 1.0, 2.0)),
        "big_endian": npy(">f4", (1,), struct.pack(">f", 1.0)),
        "fortran": npy("<f4", (2, 2), f32, fortran=True),
        "huge_shape": npy("<f4", (2**40, 2**40), f32),
        "complex": npy("<c8", (1,), bytes(8)),
    }


def text_corpus():
    return {
        "ints": b"1\n2\n-3\n",
        "floats": b"1.5\n-2e3\n0.1\n",
        "specials": b"nan\ninf\n-inf\n-0\n",
        "blank_lines": b"\n  7 \n\n\t8\n\n",
        "crlf": b"1\r\n2\r\n",
        "int64_edges": b"9223372036854775807\n-9223372036854775808\n",
        "int64_overflow": b"9223372036854775808\n",
        "huge_float": b"1e400\n-1e-400\n",
        "hex_and_junk": b"0x10\nabc\n1e\n--1\n",
        "no_final_newline": b"42",
        "empty": b"",
        "mixed": b"3\n2.5\n",
    }


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    for fuzzer, files in (("reduce", corpus()), ("npy", npy_corpus()), ("text", text_corpus())):
        out = os.path.join(root, fuzzer)
        os.makedirs(out, exist_ok=True)
        for name, data in files.items():
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
        print(f"make_corpus: {len(files)} inputs in {out}")


if __name__ == "__main__":
    main()
