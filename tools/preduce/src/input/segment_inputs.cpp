// The inputs of the many-results modes, read and checked before anything runs: every
// problem is reported against the file or flag it comes from, not as preduce's generic
// invalid_argument from inside the timed calls.
#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include <fmt/format.h>
#include <preduce/preduce.hpp>

#include "cli_error.hpp"
#include "input/load_input.hpp"
#include "input/memory_budget.hpp"
#include "commands/many_results_mode.hpp"

namespace preduce_cli {
namespace {

// Bytes per result, at most: the result itself (moments: 24), its .npy bytes, its index.
constexpr std::uint64_t results_bytes = 64;

std::string shape_text(const std::vector<std::uint64_t>& shape) {
    return fmt::format("({}{})", fmt::join(shape, ", "), shape.size() == 1 ? "," : "");
}

segment_plan plan_axes(const segment_request& r, const std::vector<std::uint64_t>& shape, std::uint64_t n) {
    segment_plan p;
    p.shape = shape;
    const auto rank = static_cast<long long>(shape.size());
    std::vector<bool> reduced(shape.size(), false);
    for (const int a : r.axes) {
        const long long k = a < 0 ? a + rank : a;
        if (rank == 0)
            throw usage_error(fmt::format("--axis {}: the input is a 0-D array (one value), it has no axes", a));
        if (k < 0 || k >= rank)
            throw usage_error(fmt::format("--axis {} is out of range for the {}-D input of shape {}: use 0 .. {}, or "
                                          "negative axes counted from the end{}",
                                          a, rank, shape_text(shape), rank - 1,
                                          rank == 1 ? " (only a .npy input has more than one dimension)" : ""));
        if (reduced[static_cast<std::size_t>(k)])
            throw usage_error(fmt::format("--axis lists axis {} twice", k));
        reduced[static_cast<std::size_t>(k)] = true;
        p.axes.push_back(static_cast<int>(k));
    }
    // The product of the kept extents is at most n, unless a reduced extent is 0: then a
    // (0, 2^40) array, whose file holds nothing, asks for 2^40 identities.
    std::vector<std::uint64_t> kept;
    std::uint64_t count = 1;
    for (std::size_t d = 0; d < shape.size(); ++d)
        if (!reduced[d]) {
            kept.push_back(shape[d]);
            if (shape[d] != 0 && count > std::numeric_limits<std::uint64_t>::max() / shape[d])
                throw input_error("--axis: the kept axes of shape " + shape_text(shape) + " give more than 2^64 results");
            count *= shape[d];
        }
    if (count > n)
        require_memory(count, results_bytes, "--axis: the " + std::to_string(count) + " results of shape " +
                                                 shape_text(shape));
    p.count = count;
    p.info.mode = "axis";
    p.info.shape = shape;
    p.info.axes = p.axes;
    p.info.result_shape = kept;
    p.info.description = fmt::format("over ax{} {} of shape {}: {} result{}, shape {}", r.axes.size() == 1 ? "is" : "es",
                                     fmt::join(p.axes, ", "), shape_text(shape), p.count, p.count == 1 ? "" : "s",
                                     shape_text(kept));
    return p;
}

// Offsets as uint64 from a file of any integer type.
std::vector<std::uint64_t> read_offsets(const std::string& file) {
    const input_format format = format_from_name(file);
    // Raw files have no type of their own: int64, as NumPy's default integer.
    loaded_input in = load_input(file, format, format == input_format::raw ? std::optional(element_type::i64)
                                                                            : std::nullopt);
    return std::visit(
        [&](const auto& v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            std::vector<std::uint64_t> out;
            if constexpr (is_floating_v<T>) {
                throw input_error(file + ": --segments needs integer offsets, and its values are " + type_text(in.data) +
                                  "; save them as int64 (np.asarray(offsets, dtype=np.int64))");
            } else {
                out.reserve(v.size());
                for (std::size_t i = 0; i < v.size(); ++i) {
                    if constexpr (std::is_signed_v<T>)
                        if (v[i] < 0)
                            throw input_error(fmt::format("{}: offset {} is {}; offsets are positions in the data, "
                                                          "never negative", file, i, v[i]));
                    out.push_back(static_cast<std::uint64_t>(v[i]));
                }
            }
            return out;
        },
        in.data);
}

segment_plan plan_offsets(const segment_request& r, std::uint64_t n, const std::string& data_name) {
    segment_plan p;
    p.offsets = read_offsets(r.file);
    if (p.offsets.empty())
        throw input_error(r.file + ": no offsets; m segments need m + 1 offsets (a single 0 for none)");
    for (std::size_t i = 0; i < p.offsets.size(); ++i) {
        if (i > 0 && p.offsets[i] < p.offsets[i - 1])
            throw input_error(fmt::format("{}: offsets decrease at entry {} ({} then {}); segment i is [offsets[i], "
                                          "offsets[i + 1]), so offsets must not decrease",
                                          r.file, i, p.offsets[i - 1], p.offsets[i]));
        if (p.offsets[i] > n)
            throw input_error(fmt::format("{}: offset {} is {}, past the end of {} ({} values)", r.file, i,
                                          p.offsets[i], data_name, n));
    }
    p.count = p.offsets.size() - 1;
    p.info.mode = "segments";
    p.info.description = fmt::format("over the {} segment{} of {}", p.count, p.count == 1 ? "" : "s", r.file);
    return p;
}

segment_plan plan_fixed_size(const segment_request& r, std::uint64_t n) {
    if (n % r.size != 0)
        throw usage_error(fmt::format("--segment-size {}: the {} values are not a whole number of segments ({} left "
                                      "over); give a size that divides the number of values",
                                      r.size, n, n % r.size));
    segment_plan p;
    p.size = r.size;
    p.count = n / r.size;
    p.info.mode = "segment_size";
    p.info.segment_size = r.size;
    p.info.description = fmt::format("over segments of {} value{}: {} result{}", r.size, r.size == 1 ? "" : "s",
                                     p.count, p.count == 1 ? "" : "s");
    return p;
}

// Keys of a narrow type widened exactly to a 32-bit one (dataset.hpp: key_dataset), which
// is then the type reported (keys_type) and written to .keys.npy.
key_dataset widened_keys(dataset keys) {
    return std::visit(
        [](auto& k) -> key_dataset {
            using K = typename std::decay_t<decltype(k)>::value_type;
            if constexpr (std::is_constructible_v<key_dataset, std::vector<K>>) {
                return std::move(k);
            } else {
                using W = std::conditional_t<is_half_v<K>, float,
                                             std::conditional_t<std::is_signed_v<K>, std::int32_t, std::uint32_t>>;
                std::vector<W> w(k.size());
                for (std::size_t i = 0; i < k.size(); ++i) w[i] = static_cast<W>(numeric(k[i]));
                return w;
            }
        },
        keys);
}

segment_plan plan_keys(const segment_request& r, std::uint64_t n, const std::string& data_name) {
    const input_format format = format_from_name(r.file);
    if (format == input_format::raw && !r.keys_type)
        throw usage_error("--keys " + r.file + ": raw keys need --keys-type (" + element_type_names() +
                          "); a .npy carries its dtype, and .txt or .csv names are read as text");
    // A .npy's dtype is checked here rather than by load_input, whose message names --type.
    loaded_input in = load_input(r.file, format, format == input_format::npy ? std::nullopt : r.keys_type);
    if (format == input_format::npy && r.keys_type && *r.keys_type != type_of(in.data))
        throw input_error(r.file + ": --keys-type " + std::string(info(*r.keys_type).flag) +
                          " disagrees with the file's dtype (" + std::string(info(type_of(in.data)).flag) +
                          "); drop --keys-type for .npy keys");
    if (size_of(in.data) != n)
        throw input_error(fmt::format("{}: {} keys but {} has {} values; --keys needs one key per value", r.file,
                                      size_of(in.data), data_name, n));
    segment_plan p;
    p.info.mode = "keys";
    const std::string file_type = type_text(in.data);
    p.keys = widened_keys(std::move(in.data));
    p.info.keys_type = std::visit(
        [](const auto& k) { return std::string(preduce::detail::type_name<typename std::decay_t<decltype(k)>::value_type>()); },
        *p.keys);
    p.info.description = fmt::format("by runs of equal keys in {} ({}{})", r.file, p.info.keys_type,
                                     file_type == p.info.keys_type ? "" : ", widened from " + file_type);
    return p;
}

} // namespace

const char* flag_of(segment_mode mode) {
    switch (mode) {
    case segment_mode::axis: return "--axis";
    case segment_mode::offsets: return "--segments";
    case segment_mode::fixed_size: return "--segment-size";
    case segment_mode::keys: return "--keys";
    }
    return "?";
}

segment_plan plan_segments(const segment_request& request, const std::vector<std::uint64_t>& shape, std::uint64_t n,
                           const std::string& data_name) {
    segment_plan p;
    switch (request.mode) {
    case segment_mode::axis: p = plan_axes(request, shape, n); break;
    case segment_mode::offsets: p = plan_offsets(request, n, data_name); break;
    case segment_mode::fixed_size: p = plan_fixed_size(request, n); break;
    case segment_mode::keys: p = plan_keys(request, n, data_name); break;
    }
    p.mode = request.mode;
    return p;
}

} // namespace preduce_cli
