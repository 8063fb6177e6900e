# Included by cmake/PreduceFindBackends.cmake: sets PREDUCE_FOUND and PREDUCE_HINT.
include(PreduceCuda)  # enable_language(CUDA) must run in the top-level scope: no function here
set(PREDUCE_FOUND "${PREDUCE_CUDA_FOUND}")
set(PREDUCE_HINT "no CUDA toolkit (nvcc) found; install it or pass -DCMAKE_CUDA_COMPILER=/path/to/nvcc")
