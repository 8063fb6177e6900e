#include "fuzz_case.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace preduce_fuzz {

namespace {

// Where backends change strategy: lanes (8..32), the fixed order's 4096-element blocks
// (and block-tree levels), OpenMP's 16384-element chunks and its 32768-element parallel
// threshold, and a few multiples of each, up to ~100K elements.
constexpr std::array<std::size_t, 24> boundaries = {0,     1,     8,     31,    32,    33,    128,   4096,
                                                    8192,  12288, 16384, 20480, 32768, 36864, 49152, 53248,
                                                    65536, 69632, 81920, 98304, 100000, 24576, 28672, 45056};

} // namespace

std::size_t element_size(element e) {
    switch (e) {
    case element::i8:
    case element::u8: return 1;
    case element::i16:
    case element::u16:
    case element::f16:
    case element::bf16: return 2;
    case element::i32:
    case element::u32:
    case element::f32: return 4;
    case element::i64:
    case element::u64:
    case element::f64: return 8;
    }
    return 8;
}

fuzz_case decode(std::span<const std::uint8_t> bytes) {
    std::array<std::uint8_t, header_bytes> h{};
    std::copy_n(bytes.begin(), std::min(bytes.size(), header_bytes), h.begin());
    auto rest = bytes.subspan(std::min(bytes.size(), header_bytes));

    fuzz_case c;
    c.type = static_cast<element>(h[0] % element_count);
    c.operation = static_cast<op>(h[1] % 16);
    c.precision = static_cast<preduce::precision>(h[2] % 3);
    c.threads = h[3] % 5;
    c.null_data = h[4] == 0xff;
    c.offset = h[4] & 0x0f;
    c.byte_offset = (h[4] >> 4) & 0x07;
    c.values_mode = static_cast<values_from>((h[5] >> 2) & 3);
    c.predicate = static_cast<preduce::predicate_kind>(h[8] & 7);
    c.thresholds = static_cast<threshold_type>((h[8] >> 3) & 3);
    c.select_a = h[9];
    c.select_b = h[10];

    const std::size_t count = std::min<std::size_t>(h[11] & 0x0f, rest.size() / injection_bytes);
    for (std::size_t k = 0; k < count; ++k) {
        const auto* p = rest.data() + k * injection_bytes;
        c.injections.push_back({static_cast<std::uint32_t>(p[0] | p[1] << 8 | p[2] << 16), p[3]});
    }
    c.values = rest.subspan(count * injection_bytes);

    const std::size_t param = h[6] | std::size_t{h[7]} << 8;
    switch (h[5] & 3) {
    case 0: c.n = c.values.size() / element_size(c.type); break;
    case 1: {
        const std::size_t base = boundaries[param % boundaries.size()];
        const std::size_t delta = (param >> 8) % 7;  // -3 .. +3
        c.n = base + delta >= 3 ? base + delta - 3 : 0;
        break;
    }
    case 2: c.n = param; break;
    default: c.n = param & 0xff; break;
    }
    if (h[5] & 0x10) c.n += std::size_t{1} << 16;
    return c;
}

const char* name(element e) {
    switch (e) {
    case element::i32: return "int32";
    case element::u32: return "uint32";
    case element::i64: return "int64";
    case element::u64: return "uint64";
    case element::f32: return "float32";
    case element::f64: return "float64";
    case element::i8: return "int8";
    case element::u8: return "uint8";
    case element::i16: return "int16";
    case element::u16: return "uint16";
    case element::f16: return "float16";
    case element::bf16: return "bfloat16";
    }
    return "?";
}

const char* name(op o) {
    switch (o) {
    case op::sum: return "sum";
    case op::wide_sum: return "wide_sum";
    case op::prod: return "prod";
    case op::min: return "min";
    case op::max: return "max";
    case op::argmin: return "argmin";
    case op::argmax: return "argmax";
    case op::count_if: return "count_if";
    case op::sumsq: return "sumsq";
    case op::asum: return "asum";
    case op::dot: return "dot";
    case op::minmax: return "minmax";
    case op::mean: return "mean";
    case op::variance: return "variance";
    case op::moments: return "moments";
    case op::sum_count: return "fused(sum,count_if)";
    }
    return "?";
}

std::string describe(const fuzz_case& c) {
    static constexpr const char* modes[] = {"raw", "generated", "few", "any_bits"};
    static constexpr const char* kinds[] = {"equal", "not_equal", "less", "less_equal",
                                            "greater", "greater_equal", "in_range", "is_nan"};
    static constexpr const char* thresholds[] = {"element", "f64", "i64", "u64"};
    std::string s = std::string(name(c.type)) + " " + name(c.operation) + " " + preduce::name(c.precision) +
                    " n=" + std::to_string(c.n) + " offset=" + std::to_string(c.offset) +
                    "+" + std::to_string(c.byte_offset) + "B" + (c.null_data ? " null" : "") +
                    " threads=" + std::to_string(c.threads) + " values=" + modes[static_cast<int>(c.values_mode)] +
                    " injections=" + std::to_string(c.injections.size());
    if (c.operation == op::count_if || c.operation == op::sum_count)
        s += std::string(" pred=") + kinds[static_cast<int>(c.predicate)] + "(" +
             thresholds[static_cast<int>(c.thresholds)] + " " + std::to_string(c.select_a) + "," +
             std::to_string(c.select_b) + ")";
    return s;
}

} // namespace preduce_fuzz
