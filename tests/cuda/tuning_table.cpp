// The CUDA backend's tuning table (preduce/cuda/tuning.hpp), which is plain C++: which entry
// each compute capability gets, that every entry and compile-time value fits the kernels,
// and that sm_90's values are the measured ones. No GPU needed.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "preduce/cuda/tuning.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"

namespace tuning = preduce::cuda::tuning;

namespace {

constexpr bool power_of_two(std::size_t v) { return v != 0 && (v & (v - 1)) == 0; }

// A block size the kernels take: whole warps, at most 1024 threads, a power-of-two number
// of warps (the block layer's and the trees' shuffles halve them).
constexpr bool block_size_ok(int threads) {
    return threads % 32 == 0 && threads <= 1024 && power_of_two(static_cast<std::size_t>(threads / 32));
}

tuning::table entry(int major, int minor) {
    tuning::table t = tuning::sm_90;
    t.major = major;
    t.minor = minor;
    return t;
}

} // namespace

TEST_CASE("the picker gives sm_90 its entry and every other architecture the nearest one") {
    CHECK(&tuning::pick(9, 0) == &tuning::known[0]);
    CHECK(tuning::pick(9, 0).major == 9);
    CHECK(tuning::pick(9, 0).minor == 0);
    // sm_90 is the only measured entry: older (8.6), newer (10.0) and much newer (12.0)
    // devices all run with it.
    for (const auto& [major, minor] : {std::pair{8, 6}, std::pair{8, 9}, std::pair{10, 0}, std::pair{12, 0}}) {
        CAPTURE(major, minor);
        CHECK(&tuning::pick(major, minor) == &tuning::known[0]);
    }
}

TEST_CASE("nearest: the newest entry not newer than the device, else the oldest") {
    const tuning::table entries[] = {entry(10, 0), entry(8, 0), entry(9, 0)};  // in no order
    const auto at = [&](int major, int minor) { return &tuning::nearest(entries, major, minor) - entries; };
    CHECK(at(9, 0) == 2);
    CHECK(at(8, 0) == 1);
    CHECK(at(8, 6) == 1);   // between 8.0 and 9.0: the older
    CHECK(at(8, 9) == 1);
    CHECK(at(10, 3) == 0);  // newer than every entry: the newest
    CHECK(at(12, 0) == 0);
    CHECK(at(7, 5) == 1);   // older than every entry: the oldest
    static_assert(tuning::newer(10, 0, 9, 9) && tuning::newer(9, 1, 9, 0) && !tuning::newer(9, 0, 9, 0));
}

TEST_CASE("every entry of the table fits the kernels") {
    for (const tuning::table& t : tuning::known) {
        CAPTURE(t.major, t.minor);
        CHECK(tuning::fits_kernels(t));
        CHECK(t.staging_chunk_bytes / 32 >= preduce::detail::fixed_order::block);  // a block of two 16-byte arrays
        CHECK(t.last_round_min_warps <= static_cast<std::size_t>(tuning::fixed_block_threads / 32));
        CHECK(t.segment_small_elements <= t.segment_chunk_elements);
    }
    tuning::table broken = tuning::sm_90;
    broken.strided_min_rows = 0;  // a divisor
    CHECK_FALSE(tuning::fits_kernels(broken));
    broken = tuning::sm_90;
    broken.staging_chunk_bytes = 4096;  // not a fixed-order block of two arrays
    CHECK_FALSE(tuning::fits_kernels(broken));
    broken = tuning::sm_90;
    broken.segment_small_elements = broken.segment_chunk_elements + 1;
    CHECK_FALSE(tuning::fits_kernels(broken));
}

TEST_CASE("the compile-time values fit the kernels") {
    namespace fixed_order = preduce::detail::fixed_order;
    CHECK(block_size_ok(tuning::block_threads));
    CHECK(block_size_ok(tuning::segment_threads));
    CHECK(block_size_ok(tuning::fixed_block_threads));
    CHECK(block_size_ok(tuning::fixed_tree_threads));
    CHECK(block_size_ok(32 * tuning::staged_warps));
    CHECK(power_of_two(static_cast<std::size_t>(tuning::vector_bytes)));
    CHECK(tuning::vector_bytes <= 16);
    CHECK(tuning::vectors_per_thread >= 1);
    CHECK(tuning::scalars_per_thread >= 1);
    CHECK(tuning::segment_group_blocks_per_sm >= 1);
    // The fixed order's rows: whole rounds of loads per block, whole quarters per warp.
    CHECK(fixed_order::block % (32 * tuning::fixed_loads_in_flight) == 0);
    CHECK(fixed_order::block % (32 * tuning::fixed_vector_loads) == 0);
    CHECK(fixed_order::block % (32 * tuning::fixed_vector_loads_wide) == 0);
    CHECK(fixed_order::block % (32 * tuning::staged_warps) == 0);
    // Groups of the block tree are aligned subtrees: powers of two of values of 4 to 16 bytes.
    CHECK(power_of_two(tuning::fixed_tree_group_bytes));
    CHECK(power_of_two(tuning::fixed_fold_group_bytes));
    CHECK(power_of_two(tuning::fixed_few_run));
    // The bulk pass: whole chunks per block, at least one in flight.
    CHECK(tuning::bulk_depth >= 1);
    CHECK(power_of_two(tuning::bulk_chunk_bytes));
    CHECK(tuning::bulk_chunk_bytes % (32 * 16) == 0);
}

TEST_CASE("sm_90's entry holds the measured values") {
    const tuning::table& t = tuning::sm_90;
    CHECK(t.single_block_max_elements == std::size_t{1} << 15);
    CHECK(t.single_block_max_remote_bytes == std::size_t{16} << 10);
    CHECK(t.blocks_per_sm == 8);
    CHECK(t.staging_chunk_bytes == std::size_t{8} << 20);
    CHECK(t.multi_gpu_min_elements == std::size_t{1} << 20);
    CHECK(t.staged_blocks_per_bulk_cta == 2);
    CHECK(t.vector_units_per_warp == 1);
    CHECK(t.last_round_min_warps == 4);
    CHECK(t.segment_small_elements == 2048);
    CHECK(t.segment_chunk_elements == std::uint64_t{1} << 16);
    CHECK(t.segment_warp_elements == std::uint64_t{1} << 16);
    CHECK(t.strided_threads_per_sm == 4096);
    CHECK(t.strided_min_rows == 64);
}
