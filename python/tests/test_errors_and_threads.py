"""Bad input raises before any work (TypeError, ValueError, preduce.BackendUnavailable), never
a crash; concurrent calls from Python threads agree with single calls."""
import threading

import numpy as np
import pytest

import preduce

# Every case uses several element types; a build with fewer (PREDUCE_ELEMENTS) skips them.
pytestmark = pytest.mark.skipif(len(preduce.element_types()) < 12,
                                reason="this build compiles a subset of the element types")


def test_bad_types_and_values():
    with pytest.raises(TypeError):
        preduce.sum(np.array(["a", "b"]))
    with pytest.raises(TypeError):
        preduce.sum(np.array([1 + 2j]))
    with pytest.raises(TypeError):
        preduce.sum(np.array([True, False]))
    with pytest.raises(TypeError):
        preduce.sum(None)
    with pytest.raises(TypeError):
        preduce.sum([1.0, 2.0])  # a list has no buffer: give an array
    with pytest.raises(ValueError):
        preduce.sum(np.ones(3), backend="gpu-please")
    with pytest.raises(ValueError):
        preduce.sum(np.ones(3), precision="exact")
    with pytest.raises(ValueError):
        preduce.sum(np.ones(3), threads=-1)
    with pytest.raises(ValueError):
        preduce.sum(np.ones((2, 2)), axis=2)
    with pytest.raises(ValueError):
        preduce.sum(np.ones((2, 2)), axis=(0, 0))
    with pytest.raises(TypeError):
        preduce.argmin(np.ones((2, 2)), axis=(0, 1))
    with pytest.raises(ValueError):
        preduce.min(np.ones(0))
    with pytest.raises(ValueError):
        preduce.reduce_segments(np.ones(4), [0, -1, 4])
    with pytest.raises(ValueError):
        preduce.reduce_segments(np.ones(4), [0, 3, 2])  # decreasing
    with pytest.raises(ValueError):
        preduce.reduce_segments(np.ones(4), [0, 5])  # past the end
    with pytest.raises(TypeError):
        preduce.reduce_segments(np.ones(4), [0.0, 4.0])
    with pytest.raises(ValueError):
        preduce.reduce_segments(np.ones(4), [0, 4], "median")
    with pytest.raises(ValueError):
        preduce.reduce_by_key(np.ones(3, dtype=np.int32), np.ones(4))
    with pytest.raises(ValueError):
        preduce.dot(np.ones(3), np.ones(4))
    with pytest.raises(TypeError):
        preduce.dot(np.ones(3), np.ones(3, dtype=np.float32))
    with pytest.raises(ValueError):
        preduce.reduce_batches(np.ones(10), 3)


def test_out_is_checked_before_any_work():
    out = np.zeros(2)
    out.setflags(write=False)
    with pytest.raises(ValueError):
        preduce.reduce_segments(np.ones(4), [0, 2, 4], out=out)
    with pytest.raises(TypeError):
        preduce.reduce_segments(np.ones(4), [0, 2, 4], out=np.zeros(2, dtype=np.float32))
    with pytest.raises(ValueError):
        preduce.reduce_segments(np.ones(4), [0, 2, 4], out=np.zeros(3))


def test_released_buffer_is_refused():
    m = memoryview(np.ones(8))
    m.release()
    with pytest.raises(ValueError):
        preduce.sum(m)


def test_unavailable_backend_is_its_own_exception():
    missing = [b for b in ("seq", "openmp", "kokkos", "cuda") if b not in preduce.backends()]
    for b in missing:
        with pytest.raises(preduce.BackendUnavailable):
            preduce.sum(np.ones(4), backend=b)
    assert issubclass(preduce.BackendUnavailable, preduce.Error)
    assert issubclass(preduce.Error, RuntimeError)
    assert preduce.describe("seq")


def test_threads_calling_at_once():
    rng = np.random.default_rng(9)
    arrays = [rng.standard_normal(1 << 16).astype(np.float32) for _ in range(8)]
    want = [preduce.sum(a, precision="deterministic").tobytes() for a in arrays]
    got = [None] * 64
    errors = []

    def work(i):
        try:
            for _ in range(20):
                got[i] = preduce.sum(arrays[i % 8], precision="deterministic").tobytes()
        except Exception as e:  # noqa: BLE001 -- reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(64)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(got[i] == want[i % 8] for i in range(64))


class Interface:
    """An object offering __cuda_array_interface__ over a NumPy array's memory. Where no GPU
    is, the library finds the pointer to be host memory and reduces it there; that is enough
    to check how the interface is read. (The GPU machine's run reads device memory.)"""

    def __init__(self, a, **changes):
        self.a = a
        self.__cuda_array_interface__ = {"shape": a.shape, "typestr": a.dtype.str, "data": (a.ctypes.data, True),
                                         "version": 3, "strides": None, "stream": None, **changes}


def test_cuda_array_interface_is_read_as_documented():
    a = np.arange(1, 101, dtype=np.float32)
    assert preduce.sum(Interface(a)) == np.float32(5050)
    assert preduce.max(Interface(a, strides=(4,))) == 100  # C-contiguous strides spelled out
    assert preduce.argmin(Interface(a, version=2)) == 0
    with pytest.raises(ValueError):
        preduce.sum(Interface(a, version=1))
    with pytest.raises(ValueError):
        preduce.sum(Interface(a[::2].copy(), strides=(8,), shape=(50,)))  # strided
    with pytest.raises(ValueError):
        preduce.sum(Interface(a, mask=(0, False)))
    with pytest.raises(ValueError):
        preduce.sum(Interface(a, stream=0))  # version 3 disallows 0
    with pytest.raises(TypeError):
        preduce.sum(Interface(a, typestr=">f4"))
    with pytest.raises(TypeError):
        preduce.sum(Interface(a, typestr="<c8"))
    with pytest.raises(ValueError):
        preduce.sum(Interface(a.reshape(10, 10)), axis=0)  # axes of GPU arrays are not offered
    with pytest.raises(ValueError):
        preduce.sum(Interface(a, data=(0, True)))


class DLPackOnly:
    """An object offering only DLPack (no buffer protocol), over a NumPy array."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_dlpack_is_read_in_place():
    a = np.arange(1, 1001, dtype=np.float64).reshape(10, 100)
    assert preduce.sum(DLPackOnly(a)) == 500500.0
    assert preduce.argmax(DLPackOnly(a.ravel())) == 999
    assert preduce.max(DLPackOnly(np.arange(5, dtype=np.int16))) == 4
    bits = (np.array([1.5, 2.5], dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    assert preduce.sum(DLPackOnly(bits), dtype="bfloat16") == np.float32(4.0)
    with pytest.raises(TypeError):
        preduce.sum(DLPackOnly(np.ones(3, dtype=np.complex64)))
