"""preduce from Python against NumPy: every operation, element type and backend this build
can run, on fresh random data; integers and min/max exactly, float sums within Higham's bound
of the exact sum (math.fsum), and precision="deterministic" bit for bit across backends and
thread counts."""
import math

import numpy as np
import pytest

import preduce

BACKENDS = preduce.backends()
COMPILED = set(preduce.element_types())
NUMPY_TYPES = [t for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
                           np.float16, np.float32, np.float64) if np.dtype(t).name in COMPILED]
# The other cases use several element types; a build with fewer (PREDUCE_ELEMENTS) skips them.
every_type = pytest.mark.skipif(len(COMPILED) < 12, reason="this build compiles a subset of the element types")
SIZES = [1, 2, 7, 31, 1000, 4097, 70001]


def random_array(dtype, n, seed):
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -100), min(info.max, 100)
        return rng.integers(lo, hi + 1, size=n).astype(dtype)
    return (rng.standard_normal(n) * 10).astype(dtype)


def sum_bound(x):
    """Higham (4.4): |computed - exact| <= gamma_{n-1} * sum |x_i|, in the accumulation type."""
    acc = np.float32 if x.dtype == np.float16 else x.dtype
    u = np.finfo(acc).eps / 2
    k = max(len(x) - 1, 0)
    return k * u * (1 + 2 * k * u) * float(np.sum(np.abs(x.astype(np.float64))))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", NUMPY_TYPES)
def test_every_op_against_numpy(backend, dtype):
    for i, n in enumerate(SIZES):
        x = random_array(dtype, n, 1000 * i + NUMPY_TYPES.index(dtype))
        kw = {"backend": backend}
        assert preduce.min(x, **kw) == np.min(x)
        assert preduce.max(x, **kw) == np.max(x)
        assert preduce.argmin(x, **kw) == np.argmin(x)
        assert preduce.argmax(x, **kw) == np.argmax(x)
        assert preduce.minmax(x, **kw) == (np.min(x), np.max(x))
        assert preduce.count_nonzero(x, **kw) == np.count_nonzero(x)
        assert preduce.min(x, **kw).dtype == x.dtype
        s = preduce.sum(x, **kw)
        assert s.dtype == np.sum(x).dtype
        if np.issubdtype(dtype, np.integer):
            assert s == np.sum(x)  # 64-bit integer sums, as NumPy's
        else:
            exact = math.fsum(x.astype(np.float64))
            assert abs(float(s) - exact) <= sum_bound(x) + abs(exact) * np.finfo(s.dtype).eps
            m = preduce.mean(x, **kw)
            assert m.dtype == np.mean(x).dtype
            assert abs(float(m) - exact / n) <= (sum_bound(x) + 1e-300) / n + abs(exact / n) * np.finfo(m.dtype).eps * 4
        if np.issubdtype(dtype, np.floating) or n < 1000:
            v = preduce.var(x, **kw)
            ref = np.var(x.astype(np.float64))
            assert abs(float(v) - ref) <= 1e-3 * ref + 1e-6


@every_type
@pytest.mark.parametrize("backend", BACKENDS)
def test_nan_and_ties_follow_numpy(backend):
    x = np.array([3.0, np.nan, 1.0, np.nan, 1.0], dtype=np.float32)
    assert np.isnan(preduce.max(x, backend=backend)) and np.isnan(preduce.min(x, backend=backend))
    assert preduce.argmin(x, backend=backend) == np.argmin(x) == 1
    assert preduce.nanmax(x, backend=backend) == np.nanmax(x)
    assert preduce.nansum(x, backend=backend) == np.nansum(x)
    y = np.array([2, 1, 1, 5, 5], dtype=np.int32)
    assert preduce.argmin(y, backend=backend) == 1 and preduce.argmax(y, backend=backend) == 3


@every_type
def test_bfloat16_from_uint16_bits():
    f = np.array([1.5, -2.25, 3.0, 0.125], dtype=np.float32)
    bits = (f.view(np.uint32) >> 16).astype(np.uint16)  # exact: these values fit bfloat16
    assert preduce.sum(bits, dtype="bfloat16") == np.float32(f.sum())
    assert preduce.max(bits, dtype="bfloat16") == np.float32(3.0)
    with pytest.raises(TypeError):
        preduce.sum(f, dtype="bfloat16")


@every_type
@pytest.mark.parametrize("shape,axis", [((6, 5), 0), ((6, 5), 1), ((4, 3, 5), (0, 2)), ((4, 3, 5), -1),
                                        ((4, 3, 5), (1,)), ((2, 3, 4), (0, 1, 2))])
def test_axes_and_keepdims(shape, axis):
    x = random_array(np.int32, int(np.prod(shape)), 7).reshape(shape)
    for keepdims in (False, True):
        got = preduce.sum(x, axis=axis, keepdims=keepdims)
        want = np.sum(x, axis=axis, keepdims=keepdims)
        assert np.shape(got) == np.shape(want) and np.all(got == want)
        assert np.all(preduce.max(x, axis=axis, keepdims=keepdims) == np.max(x, axis=axis, keepdims=keepdims))
    if isinstance(axis, int):
        assert np.all(preduce.argmin(x, axis=axis) == np.argmin(x, axis=axis))
    flat = x.ravel()
    assert type(preduce.argmax(flat, axis=0)) is type(np.argmax(flat, axis=0))  # a scalar, not a 0-d array
    assert preduce.argmax(flat, axis=0) == np.argmax(flat)


@every_type
def test_non_contiguous_input_is_reduced_correctly():
    x = random_array(np.float64, 10000, 3).reshape(100, 100)
    for view in (x[:, ::3], x.T, x[::-1]):
        assert preduce.max(view) == np.max(view)
        assert abs(preduce.sum(view) - math.fsum(view.ravel())) <= sum_bound(view.ravel()) + 1e-9
    assert preduce.sum(memoryview(np.arange(10, dtype=np.int64))) == 45
    import array
    assert preduce.max(array.array("d", [1.0, 7.5, 2.0])) == 7.5


@every_type
def test_segments_batches_and_runs():
    x = random_array(np.float32, 1000, 11)
    idx = [0, 3, 3, 100, 999]
    got = preduce.reduce_segments(x, idx + [1000], "sum", precision="deterministic")
    want = [preduce.sum(x[a:b], precision="deterministic") for a, b in zip(idx, idx[1:] + [1000])]
    assert [g.tobytes() for g in got] == [np.float32(w).tobytes() for w in want]
    assert np.all(preduce.reduce_segments(x, idx + [1000], "max")[[0, 2, 3, 4]] == np.maximum.reduceat(x, idx)[[0, 2, 3, 4]])
    assert np.all(preduce.reduce_batches(np.arange(12, dtype=np.int64), 4) == [6, 22, 38])
    keys = np.array([5, 5, 1, 1, 1, 5, 2], dtype=np.int32)
    k, v = preduce.reduce_by_key(keys, np.arange(7.0), "sum")
    assert list(k) == [5, 1, 5, 2] and list(v) == [1.0, 9.0, 5.0, 6.0]
    out = np.zeros(4, dtype=np.float64)
    assert preduce.reduce_segments(np.arange(7.0), [0, 2, 5, 6, 7], "sum", out=out) is out
    assert list(out) == [1.0, 9.0, 5.0, 6.0]


@every_type
def test_deterministic_bits_are_the_same_everywhere():
    x = (np.random.default_rng(5).standard_normal(1 << 18) * np.logspace(-8, 8, 1 << 18)).astype(np.float32)
    bits = {preduce.sum(x, backend=b, precision=p, threads=t).tobytes()
            for b in BACKENDS for t in (1, 2, 3) for p in ("deterministic",)}
    assert len(bits) == 1
    comp = {preduce.sum(x, backend=b, precision="compensated", threads=t).tobytes() for b in BACKENDS for t in (1, 2)}
    assert len(comp) == 1
    assert preduce.dot(x, x, precision="deterministic").tobytes() == \
        preduce.dot(x, x, backend="seq", precision="deterministic").tobytes()


def golden_values(dtype, n, stream):
    """tests/support/golden_inputs.hpp in NumPy: splitmix64, then a signed integer of the
    type's precision scaled by 2^[-40, 0], exact in the type."""
    p = 24 if dtype == np.float32 else 53
    with np.errstate(over="ignore"):
        golden = np.uint64(0x9E3779B97F4A7C15)
        z = np.uint64(stream) * golden + np.arange(1, n + 1, dtype=np.uint64) * golden
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    m = (z >> np.uint64(64 - p)).astype(np.int64) - (1 << (p - 1))
    e = (z & np.uint64(0xFF)).astype(np.int64) % 41 - 40
    return np.ldexp(m.astype(dtype), e.astype(np.int32)).astype(dtype)


# tests/golden_bits.cpp's pinned bits of the C++ library (sum, sumsq, dot of the streams 1 and 2).
GOLDEN = {
    np.float32: [(4097, "deterministic", 0xcba6956f, 0x593686ed, 0x5564cdf6),
                 (4097, "compensated", 0xcba6956f, 0x593686ed, 0x5564cdf1),
                 (100003, "deterministic", 0xcc321a8c, 0x5b7f8550, 0xd691f4c8),
                 (100003, "compensated", 0xcc321a7f, 0x5b7f8551, 0xd691f4c6)],
    np.float64: [(4097, "deterministic", 0xc344d2a85349bd47, 0x46c6d0dda379fdc1, 0x464c99be36471639),
                 (100003, "deterministic", 0xc35643076dfb9dac, 0x470ff0aa2b3797ec, 0xc6723e987681b39e),
                 (100003, "compensated", 0xc35643076dfb9db9, 0x470ff0aa2b3797ed, 0xc6723e987681b3a4)],
}


@every_type
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fixed_order_bits_are_the_cpp_librarys(dtype):
    x = golden_values(dtype, 100003, 1)
    y = golden_values(dtype, 100003, 2)
    as_int = np.uint32 if dtype == np.float32 else np.uint64
    for n, p, s, sq, d in GOLDEN[dtype]:
        for b in BACKENDS:
            for t in (1, 2):
                kw = {"backend": b, "precision": p, "threads": t}
                assert int(preduce.sum(x[:n], **kw).view(as_int)) == s
                assert int(preduce.sumsq(x[:n], **kw).view(as_int)) == sq
                assert int(preduce.dot(x[:n], y[:n], **kw).view(as_int)) == d
