"""GPU arrays: __cuda_array_interface__ and DLPack read in place, results of many-results calls
kept on the GPU (out= or a DeviceArray / an array of the input's kind). These run where the
cuda backend is usable (the GPU machine: scripts/device/python_module.sh) and skip elsewhere."""
import math

import numpy as np
import pytest

import preduce

pytestmark = pytest.mark.skipif("cuda" not in preduce.backends(), reason="no usable cuda backend here")

RNG = np.random.default_rng(20261207)


class InterfaceOnly:
    """A small object over GPU memory offering only __cuda_array_interface__ (version 3)."""

    def __init__(self, device, stream=None, readonly=False):
        self.device = device  # keeps the memory alive
        cai = dict(device.__cuda_array_interface__)
        cai["stream"] = stream
        cai["data"] = (cai["data"][0], readonly)
        self.__cuda_array_interface__ = cai


class DLPackOnly:
    """A small object over GPU memory offering only DLPack."""

    def __init__(self, device):
        self.device = device

    def __dlpack__(self, stream=None, **_):
        return self.device.__dlpack__()

    def __dlpack_device__(self):
        return self.device.__dlpack_device__()


def on_gpu(host, wrap=InterfaceOnly):
    return wrap(preduce.to_device(host))


def data(dtype, n):
    if np.dtype(dtype).kind == "f":
        return RNG.standard_normal(n).astype(dtype)
    info = np.iinfo(dtype)
    return RNG.integers(max(info.min, -100), min(info.max, 100), n, endpoint=True).astype(dtype)


def higham(x, got):
    exact = math.fsum(float(v) for v in x.astype(np.float64))
    eps = np.finfo(x.dtype).eps / 2
    bound = len(x) * eps / (1 - len(x) * eps) * float(np.sum(np.abs(x.astype(np.float64))))
    assert abs(float(got) - exact) <= bound + 1e-300


@pytest.mark.parametrize("wrap", [InterfaceOnly, DLPackOnly])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int64, np.uint8])
def test_whole_array_in_place_gives_the_cuda_backends_results(wrap, dtype):
    x = data(dtype, 100_003)
    d = on_gpu(x, wrap)
    if np.dtype(dtype).kind == "f":
        if dtype != np.float16:
            higham(x, preduce.sum(d))
        # deterministic: the bits of every backend, so of seq on the host copy
        assert preduce.sum(d, precision="deterministic") == preduce.sum(x, backend="seq", precision="deterministic")
    else:
        assert preduce.sum(d) == np.sum(x, dtype=np.int64 if np.dtype(dtype).kind == "i" else np.uint64)
    assert preduce.max(d) == np.max(x) and preduce.min(d) == np.min(x)
    assert preduce.argmin(d) == np.argmin(x) and preduce.argmax(d) == np.argmax(x)


def test_a_stream_named_by_the_interface_is_accepted():
    x = data(np.float32, 4096)
    assert preduce.sum(on_gpu(x, lambda d: InterfaceOnly(d, stream=1)), precision="deterministic") == \
        preduce.sum(x, backend="seq", precision="deterministic")


@pytest.mark.parametrize("op", ["sum", "min", "max", "argmin", "argmax", "count_nonzero", "mean", "prod"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.float16])
def test_segments_stay_on_the_gpu_and_match_the_host(op, dtype):
    if op == "prod" and dtype == np.float16:
        pytest.skip("float16 products of hundreds of factors differ by more than a tolerance can say")
    x = data(dtype, 50_000)
    if op == "prod" and np.dtype(dtype).kind == "f":
        x = (1 + 0.01 * RNG.standard_normal(50_000)).astype(dtype)  # products that stay in range
    lengths = RNG.integers(0, 400, 300)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    offsets = offsets[offsets <= len(x)].astype(np.uint64)
    d = on_gpu(x)
    fixed = "deterministic" if op == "sum" else "fast"  # sums in the fixed order: the same bits everywhere
    got = preduce.reduce_segments(d, offsets, op, precision=fixed)
    assert isinstance(got, preduce.DeviceArray)
    want = preduce.reduce_segments(x, offsets, op, backend="seq", precision=fixed)
    assert got.dtype == want.dtype and got.shape == want.shape
    host = got.get()
    if op == "prod" and np.dtype(dtype).kind == "f":
        # two orders of at most 400 roundings each
        np.testing.assert_allclose(host, want, rtol=2 * 400 * np.finfo(dtype).eps)
    elif op == "mean":
        # moments in double in two orders of at most 400 terms (an error against the largest
        # magnitude, as means near 0 cancel), then rounded to the result dtype
        scale = float(np.max(np.abs(x.astype(np.float64))))
        np.testing.assert_allclose(host, want, rtol=np.finfo(want.dtype).eps,
                                   atol=2 * 400 * np.finfo(np.float64).eps * scale)
    else:
        np.testing.assert_array_equal(host, want)
    # device offsets (int64), the same results
    again = preduce.reduce_segments(d, on_gpu(offsets.astype(np.int64)), op, precision=fixed)
    np.testing.assert_array_equal(again.get(), host)


def test_argmin_of_an_empty_segment_is_minus_one_on_the_gpu():
    x = data(np.float32, 10)
    got = preduce.reduce_segments(on_gpu(x), np.array([0, 4, 4, 10], np.uint64), "argmin").get()
    assert got.tolist() == [int(np.argmin(x[:4])), -1, int(np.argmin(x[4:]))]


@pytest.mark.parametrize("op", ["sum", "argmax", "mean"])
def test_batches_into_a_callers_gpu_array(op):
    x = data(np.float64, 64 * 1000)
    dtype = np.int64 if op == "argmax" else np.float64
    out = preduce.to_device(np.zeros(1000, dtype))
    fixed = "deterministic" if op == "sum" else "fast"  # sums in the fixed order: the same bits everywhere
    assert preduce.reduce_batches(on_gpu(x), 64, op, out=InterfaceOnly(out), precision=fixed).device is out
    want = preduce.reduce_batches(x, 64, op, backend="seq", precision=fixed)
    if op == "mean":  # moments in double in two orders of 64 terms, against the largest magnitude
        np.testing.assert_allclose(out.get(), want, rtol=0,
                                   atol=2 * 64 * np.finfo(np.float64).eps * float(np.max(np.abs(x))))
    else:
        np.testing.assert_array_equal(out.get(), want)


def test_bad_gpu_outputs_and_offsets_are_refused_before_any_work():
    x = on_gpu(data(np.float32, 1000))
    offsets = np.array([0, 500, 1000], np.uint64)
    with pytest.raises(TypeError, match="out is float64"):
        preduce.reduce_segments(x, offsets, out=on_gpu(np.zeros(2)))
    with pytest.raises(ValueError, match="2 elements"):
        preduce.reduce_segments(x, offsets, out=on_gpu(np.zeros(3, np.float32)))
    with pytest.raises(ValueError, match="read-only"):
        preduce.reduce_segments(x, offsets, out=on_gpu(np.zeros(2, np.float32), lambda d: InterfaceOnly(d, readonly=True)))
    with pytest.raises(TypeError, match="int64 or uint64"):
        preduce.reduce_segments(x, on_gpu(offsets.astype(np.int32)))
    with pytest.raises(ValueError, match="host memory"):
        preduce.reduce_segments(data(np.float32, 1000), on_gpu(offsets))
    with pytest.raises(ValueError):  # decreasing, found by the library on the GPU
        preduce.reduce_segments(x, on_gpu(np.array([0, 600, 500, 1000], np.uint64)))
    with pytest.raises(ValueError):  # past the end
        preduce.reduce_segments(x, on_gpu(np.array([0, 1001], np.int64)))


def test_device_arrays_round_trip_and_describe_themselves():
    x = data(np.int16, 77)
    d = preduce.to_device(x)
    assert d.shape == (77,) and d.dtype == np.int16 and len(d) == 77
    np.testing.assert_array_equal(d.get(), x)
    assert d.__dlpack_device__()[0] == 2
    assert d.__cuda_array_interface__["version"] == 3
    assert "DeviceArray" in repr(d)


def test_cupy_arrays_come_back_as_cupy_arrays():
    cupy = pytest.importorskip("cupy")
    x = data(np.float32, 1 << 16)
    c = cupy.asarray(x)
    assert preduce.sum(c, precision="deterministic") == preduce.sum(x, backend="seq", precision="deterministic")
    got = preduce.reduce_batches(c, 256, "argmin")
    assert isinstance(got, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(got), preduce.reduce_batches(x, 256, "argmin", backend="seq"))
    out = cupy.empty(256, cupy.float32)
    assert preduce.reduce_batches(c, 256, out=out, precision="deterministic") is out
    np.testing.assert_array_equal(cupy.asnumpy(out), preduce.reduce_batches(x, 256, backend="seq", precision="deterministic"))
