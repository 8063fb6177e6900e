#pragma once

namespace preduce {

struct options {
    // Worker threads for host backends that take a count (openmp). 0: the backend's
    // default, i.e. OMP_NUM_THREADS or the number of cores.
    int threads = 0;
};

} // namespace preduce
