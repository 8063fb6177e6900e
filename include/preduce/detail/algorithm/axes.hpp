#pragma once
// NumPy's axis reductions turned into segments (segment_layout.hpp): an N-D row-major array of
// `shape`, reduced over `axes`, gives one result per index of the kept axes, in C order,
// each the reduction of the elements with that kept index, taken in C order of the reduced
// axes (the sequence a reduction of x.transpose(kept + reduced).reshape(m, -1) row sees).
//
// After dropping axes of extent 1 and merging neighbours of the same kind, the shape is
// one of
//   [R] or [K, R]    contiguous segments of fixed size (row reductions)
//   [R, K]           strided: columns (axis 0 of a matrix)
//   [K, R, K]        strided: columns of each outer slab
//   [K]              nothing reduced: one element per result
// and anything with two or more separate groups of reduced axes is first gathered into
// [K, R] order (gather_plan), the only case that copies the input.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/errors.hpp"

namespace preduce::detail {

inline constexpr std::size_t max_rank = 32;

struct axes_plan {
    std::uint64_t elements = 0;  // product of the shape
    segment_layout layout;       // over the data itself, or over the gathered copy
    bool gather = false;         // the data must first be copied into [K, R] order
    // gather only: the merged dimensions (outermost first), and which are reduced
    std::vector<std::uint64_t> dims;
    std::vector<bool> reduced;
};

inline axes_plan plan_axes(std::span<const std::size_t> shape, std::span<const int> axes, const char* call) {
    const std::size_t rank = shape.size();
    if (rank > max_rank)
        throw invalid_argument(std::string(call) + ": " + std::to_string(rank) + " dimensions; at most " +
                               std::to_string(max_rank) + " are supported");
    std::vector<bool> is_reduced(rank, false);
    for (int a : axes) {
        const long long k = a < 0 ? static_cast<long long>(a) + static_cast<long long>(rank) : a;
        if (k < 0 || k >= static_cast<long long>(rank))
            throw invalid_argument(std::string(call) + ": axis " + std::to_string(a) + " is out of range for " +
                                   std::to_string(rank) + " dimensions (use 0 .. " + std::to_string(rank) +
                                   " - 1, or negative axes counted from the end)");
        if (is_reduced[static_cast<std::size_t>(k)])
            throw invalid_argument(std::string(call) + ": axis " + std::to_string(k) + " is listed twice");
        is_reduced[static_cast<std::size_t>(k)] = true;
    }
    axes_plan p;
    p.elements = 1;
    std::uint64_t results = 1, reduced_count = 1;
    for (std::size_t d = 0; d < rank; ++d) {
        const std::uint64_t e = shape[d];
        if (e != 0 && p.elements > std::numeric_limits<std::uint64_t>::max() / e)
            throw invalid_argument(std::string(call) + ": the shape's element count overflows 64 bits");
        p.elements *= e;
        (is_reduced[d] ? reduced_count : results) *= e;
    }
    // Merge: drop extent-1 axes (either kind), join neighbours of the same kind.
    for (std::size_t d = 0; d < rank; ++d) {
        if (shape[d] == 1) continue;
        if (!p.dims.empty() && p.reduced.back() == is_reduced[d]) p.dims.back() *= shape[d];
        else {
            p.dims.push_back(shape[d]);
            p.reduced.push_back(is_reduced[d]);
        }
    }
    segment_layout& L = p.layout;
    L.count = results;
    std::size_t groups_reduced = 0;
    for (bool r : p.reduced) groups_reduced += r;
    const std::size_t g = p.dims.size();
    if (p.elements == 0 || groups_reduced == 0) {
        // Nothing to read (an extent 0), or nothing reduced: segments of reduced_count elements
        // (0 or 1) one after another.
        L.form = segment_form::fixed;
        L.size = p.elements == 0 ? 0 : reduced_count;
        return p;
    }
    if (groups_reduced == 1 && p.reduced.back()) {  // [R] or [K, R]
        L.form = segment_form::fixed;
        L.size = p.dims.back();
    } else if (groups_reduced == 1 && (g == 2 || g == 3) && p.reduced[g - 2]) {  // [R, K] or [K, R, K]
        L.form = segment_form::strided;
        L.size = p.dims[g - 2];
        L.inner = p.dims[g - 1];
    } else {
        p.gather = true;
        L.form = segment_form::fixed;
        L.size = reduced_count;
    }
    return p;
}

// The gathered copy's element at [kept index k][reduced index j] (both in C order of their
// axes): its position in the original data. Written for plan_axes' merged dimensions.
template <class T>
void gather_kept_then_reduced(const T* data, const axes_plan& p, T* out) {
    const std::size_t g = p.dims.size();
    std::vector<std::uint64_t> stride(g, 1);
    for (std::size_t d = g; d-- > 1;) stride[d - 1] = stride[d] * p.dims[d];
    // Loop order: kept dimensions (outer to inner), then reduced ones (outer to inner).
    std::vector<std::size_t> order;
    for (std::size_t d = 0; d < g; ++d)
        if (!p.reduced[d]) order.push_back(d);
    for (std::size_t d = 0; d < g; ++d)
        if (p.reduced[d]) order.push_back(d);
    std::vector<std::uint64_t> idx(g, 0);
    for (std::uint64_t i = 0; i < p.elements; ++i) {
        std::uint64_t at = 0;
        for (std::size_t d = 0; d < g; ++d) at += idx[d] * stride[d];
        out[i] = data[at];
        for (std::size_t k = g; k-- > 0;) {  // odometer over `order`, innermost last
            const std::size_t d = order[k];
            if (++idx[d] < p.dims[d]) break;
            idx[d] = 0;
        }
    }
}

} // namespace preduce::detail
