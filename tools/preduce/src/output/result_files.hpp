#pragma once
// Results as .npy arrays, and the files --output writes from them:
//
//   PREFIX.<backend>.npy        the results, one row per result:
//                                 sums, prod, min, max, count_if, mean, var: (m,) of the result type
//                                 argmin, argmax: (m,) the values
//                                 minmax: (m, 2) of the element type, columns min, max
//                                 moments: (m, 3) float64, columns count, mean, m2 (sum of
//                                 squared deviations; variance = m2 / count)
//   PREFIX.<backend>.index.npy  argmin, argmax: (m,) int64, the index inside each segment,
//                               -1 for an empty segment
//   PREFIX.<backend>.keys.npy   --keys: (m,) the key of each run, in the keys' own type (8- and
//                               16-bit keys widened to 32 bits: dataset.hpp, key_dataset)
//
// float16 results are written as "<f2"; bfloat16 ones, which NumPy has no dtype for, as their
// bit patterns, "<u2".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <preduce/preduce.hpp>

#include "output/npy_writer.hpp"

namespace preduce_cli {

struct result_arrays {
    npy_array values;
    std::optional<npy_array> index;  // argmin/argmax
    std::optional<npy_array> keys;   // --keys
};

namespace detail {
template <class R> struct is_arg_result : std::false_type {};
template <class T> struct is_arg_result<preduce::arg_result<T>> : std::true_type {};
template <class R> struct is_minmax_result : std::false_type {};
template <class T> struct is_minmax_result<preduce::minmax_result<T>> : std::true_type {};
} // namespace detail

// The arrays of m results of one type (the layouts above).
template <class R>
result_arrays arrays_of(const std::vector<R>& results) {
    const std::uint64_t m = results.size();
    result_arrays a;
    std::vector<unsigned char>& bytes = a.values.data;
    const auto layout = [&](std::string descr, std::vector<std::uint64_t> shape) {
        a.values.descr = std::move(descr);
        a.values.shape = std::move(shape);
    };
    if constexpr (std::is_arithmetic_v<R> || std::is_same_v<R, preduce::float16> || std::is_same_v<R, preduce::bfloat16>) {
        layout(npy_descr<R>(), {m});
        bytes.reserve(m * sizeof(R));
        for (const R& r : results) append_le(bytes, r);
    } else if constexpr (detail::is_arg_result<R>::value) {
        using T = decltype(R::value);
        layout(npy_descr<T>(), {m});
        npy_array index{npy_descr<std::int64_t>(), {m}, {}};
        for (const R& r : results) {
            append_le(bytes, r.value);
            append_le(index.data, r.index == preduce::no_index ? std::int64_t{-1} : static_cast<std::int64_t>(r.index));
        }
        a.index = std::move(index);
    } else if constexpr (detail::is_minmax_result<R>::value) {
        using T = decltype(R::min);
        layout(npy_descr<T>(), {m, 2});
        for (const R& r : results) {
            append_le(bytes, r.min);
            append_le(bytes, r.max);
        }
    } else {
        static_assert(std::is_same_v<R, preduce::moments_result>, "a result type without a .npy layout");
        layout(npy_descr<double>(), {m, 3});
        for (const R& r : results) {
            append_le(bytes, static_cast<double>(r.count));
            append_le(bytes, r.mean);
            append_le(bytes, r.m2);
        }
    }
    return a;
}

template <class K>
npy_array keys_array(const std::vector<K>& keys) {
    npy_array a{npy_descr<K>(), {keys.size()}, {}};
    for (const K& k : keys) append_le(a.data, k);
    return a;
}

// Throws usage_error unless PREFIX's directory exists, so that a mistyped --output fails
// before anything runs rather than after the first backend.
void check_output_prefix(const std::string& prefix);

// Writes PREFIX.<backend>.npy and, where they exist, .index.npy and .keys.npy.
void write_result_files(const std::string& prefix, std::string_view backend, const result_arrays& a);

} // namespace preduce_cli
