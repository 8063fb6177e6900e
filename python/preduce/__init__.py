"""preduce from Python: parallel reductions over NumPy arrays (buffer protocol) and GPU arrays
(__cuda_array_interface__, DLPack), with NumPy's call shapes and preduce's keywords:

    preduce.sum(x, axis=None, *, keepdims=False, backend="auto", precision="fast", threads=0)

and in the same form prod, min, max, argmin, argmax, mean, var, count_nonzero, sumsq, nansum,
nanmax; minmax(x) -> (min, max); dot(x, y); reduce_segments(x, offsets, op);
reduce_batches(x, k, op); reduce_by_key(keys, values, op); backends(); describe(b).

precision="deterministic" gives the same bits from every backend and thread count, and the
same bits as the C++ library on the same data. The GIL is released while a reduction runs.
README.md ("From Python") lists where results differ from NumPy's.
"""
from ._preduce import *  # noqa: F401,F403
from ._preduce import BackendUnavailable, Error  # noqa: F401
