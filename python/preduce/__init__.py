"""preduce from Python: parallel reductions over NumPy arrays (buffer protocol) and GPU arrays
(__cuda_array_interface__, DLPack), with NumPy's call shapes and preduce's keywords:

    preduce.sum(x, axis=None, *, keepdims=False, backend="auto", precision="fast", threads=0)

and in the same form prod, min, max, argmin, argmax, mean, var, count_nonzero, sumsq, nansum,
nanmax; minmax(x) -> (min, max); dot(x, y); reduce_segments(x, offsets, op);
reduce_batches(x, k, op); reduce_by_key(keys, values, op); backends(); describe(b);
calibrate().

precision="deterministic" gives the same bits from every backend and thread count, and the
same bits as the C++ library on the same data. The GIL is released while a reduction runs.

Many results of GPU input stay on the GPU: in out= (a GPU array), or in an array of the
input's kind (its library's from_dlpack over a preduce.DeviceArray; the DeviceArray itself
where the input's library has none). README.md ("From Python") lists where results differ
from NumPy's.
"""
import sys as _sys

from . import _preduce
from ._preduce import *  # noqa: F401,F403
from ._preduce import BackendUnavailable, DeviceArray, Error  # noqa: F401
from ._calibrate import calibrate  # noqa: F401


def _operation(number, name):
    def reduce(x, axis=None, *, keepdims=False, backend="auto", precision="fast", threads=0, dtype=""):
        return _reduce(number, x, axis, keepdims, backend, precision, threads, dtype)

    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = (f"preduce.{name}(x, axis=None, *, keepdims=False, backend='auto', precision='fast', threads=0, "
                      f"dtype=''): NumPy's {name} over the buffer, __cuda_array_interface__ or DLPack array x "
                      "(dtype='bfloat16': x holds bfloat16 bits as uint16)")
    return reduce


_reduce = _preduce._reduce
for _number, _name in enumerate(_preduce._operations()):
    if _name:
        globals()[_name] = _operation(_number, _name)
del _number, _name


def _like(x, result):
    """result, a DeviceArray, as an array of x's kind: x's array namespace's (or its top-level
    module's) from_dlpack, which reads it in place; the DeviceArray where there is none."""
    if not isinstance(result, DeviceArray) or isinstance(x, DeviceArray):
        return result
    namespace = None
    if hasattr(x, "__array_namespace__"):
        try:
            namespace = x.__array_namespace__()
        except Exception:  # an array API version it does not speak: its module below
            namespace = None
    if namespace is None or not hasattr(namespace, "from_dlpack"):
        namespace = _sys.modules.get(type(x).__module__.split(".")[0])
    from_dlpack = getattr(namespace, "from_dlpack", None)
    if from_dlpack is None:
        return result
    return from_dlpack(result)


def reduce_segments(x, offsets, op="sum", *, out=None, **keywords):
    return _like(x, _preduce.reduce_segments(x, offsets, op, out=out, **keywords))


def reduce_batches(x, k, op="sum", *, out=None, **keywords):
    return _like(x, _preduce.reduce_batches(x, k, op, out=out, **keywords))


reduce_segments.__doc__ = _preduce.reduce_segments.__doc__
reduce_batches.__doc__ = _preduce.reduce_batches.__doc__
