#pragma once
// Inputs that cannot fit in this machine's memory are refused before anything is
// allocated for them. Otherwise the allocation may succeed anyway (overcommit: always
// under vm.overcommit_memory=1, and for anything below RAM + swap under the default
// heuristic), and the kernel kills the process while the reader fills it: a sparse
// 1 TB file, or a .npy header claiming 2^40 elements over a sparse data region.
#include <cstdint>
#include <limits>
#include <string>

#include "cli_error.hpp"

#if __has_include(<unistd.h>)
#include <unistd.h>
#endif

namespace preduce_cli {

// Physical memory in bytes; the largest uint64 where the system cannot say.
inline std::uint64_t physical_memory() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
#endif
    return std::numeric_limits<std::uint64_t>::max();
}

// Throws input_error unless `count` items of `item_size` bytes fit in physical memory.
inline void require_memory(std::uint64_t count, std::uint64_t item_size, const std::string& what) {
    const std::uint64_t limit = physical_memory();
    if (item_size != 0 && count > limit / item_size)
        throw input_error(what + " need" + (count == 1 ? "s" : "") + " more memory than this machine has (" +
                          std::to_string(limit >> 20) + " MiB)");
}

} // namespace preduce_cli
