// Runs a many-results plan on every backend: the timed calls, then what the report shows of
// the results (a few of them and their hashes) and, with --output, the .npy files.
#include "commands/many_results_mode.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "output/result_files.hpp"
#include "output/sha256.hpp"
#include "commands/timing.hpp"

namespace preduce_cli {
namespace {

// The result type of op over element type T (dot reads pairs).
template <class T, class Op>
struct result_for {
    using type = preduce::result_of_t<T, Op>;
};
template <class T>
struct result_for<T, preduce::dot_op> {
    using type = preduce::result_of_t<preduce::zip_value<T, T>, preduce::dot_op>;
};

constexpr std::size_t shown = 3;  // results shown at each end

// [0, shown) and the last `shown` after those: every index when there are 2 * shown or fewer.
std::pair<std::size_t, std::size_t> shown_ranges(std::size_t m) {
    const std::size_t head = std::min(m, shown);
    return {head, std::max(head, m >= shown ? m - shown : 0)};
}

template <class R>
many_results summarize(const std::vector<R>& out, const result_arrays& arrays) {
    many_results s;
    s.count = out.size();
    const auto [head, tail] = shown_ranges(out.size());
    for (std::size_t i = 0; i < head; ++i) s.first.push_back(to_result(out[i]));
    for (std::size_t i = tail; i < out.size(); ++i) s.last.push_back(to_result(out[i]));
    s.sha256 = sha256_hex(arrays.values.data);
    if (arrays.index) s.index_sha256 = sha256_hex(arrays.index->data);
    if (arrays.keys) s.keys_sha256 = sha256_hex(arrays.keys->data);
    return s;
}

// The first and last keys of the runs, beside the first and last results.
void show_keys(const key_dataset& keys, many_results& s) {
    std::visit(
        [&](const auto& k) {
            const auto [head, tail] = shown_ranges(k.size());
            for (std::size_t i = 0; i < head; ++i) s.first_keys.push_back(to_scalar(k[i]));
            for (std::size_t i = tail; i < k.size(); ++i) s.last_keys.push_back(to_scalar(k[i]));
        },
        keys);
}

// Every backend on one (element type, op). With --keys, the timed call is what
// preduce::reduce_by_key does: the runs of equal keys (runs_of, compiled once per key type),
// then reduce_segments over them (compiled once per element type and op, as for --segments),
// so that nothing is compiled once per key type and op.
template <class T, class Op>
void run_backends(const std::vector<T>& x, const std::vector<T>* y, const Op& op, const segment_plan& plan,
                  const run_settings& s, run_summary& summary) {
    using R = typename result_for<T, Op>::type;
    constexpr bool pairs = std::is_same_v<Op, preduce::dot_op>;
    const std::size_t n = x.size();
    const std::vector<std::size_t> shape(plan.shape.begin(), plan.shape.end());
    for (const auto b : s.backends) {
        const preduce::options opts{.threads = s.threads, .precision = s.precision};
        std::vector<R> out(plan.count);
        key_dataset run_keys;  // --keys: the keys of the runs, from the last call
        const auto call = [&] {
            if (plan.keys) {
                if constexpr (pairs) {
                    throw std::logic_error("internal: --keys with dot");
                } else {
                    std::vector<std::uint64_t> offsets;
                    std::visit(
                        [&](const auto& keys) {
                            auto runs = preduce::runs_of(keys.data(), keys.size());
                            offsets = std::move(runs.offsets);
                            run_keys = std::move(runs.keys);
                        },
                        *plan.keys);
                    out.resize(offsets.size() - 1);
                    preduce::reduce_segments(b, x.data(), n, offsets.data(), out.size(), op, out.data(), opts);
                }
            } else {
                switch (plan.mode) {
                case segment_mode::offsets:
                    if constexpr (pairs)
                        preduce::reduce_segments(b, x.data(), y->data(), n, plan.offsets.data(), plan.count, op,
                                                 out.data(), opts);
                    else
                        preduce::reduce_segments(b, x.data(), n, plan.offsets.data(), plan.count, op, out.data(), opts);
                    break;
                case segment_mode::fixed_size:
                    if constexpr (pairs)
                        preduce::reduce_batches(b, x.data(), y->data(), n, plan.size, op, out.data(), opts);
                    else
                        preduce::reduce_batches(b, x.data(), n, plan.size, op, out.data(), opts);
                    break;
                case segment_mode::axis:
                    if constexpr (pairs)
                        throw std::logic_error("internal: --axis with dot");
                    else
                        preduce::reduce_axes(b, x.data(), std::span<const std::size_t>(shape),
                                             std::span<const int>(plan.axes), op, out.data(), out.size(), opts);
                    break;
                case segment_mode::keys: throw std::logic_error("internal: --keys without keys");
                }
            }
        };
        backend_result r{b, label_of(b, opts, x.data(), n * sizeof(T) * (pairs ? 2 : 1), family_of<T>(op)), {},
                         median_seconds(s.repeat, call), std::nullopt, std::nullopt, std::nullopt};
        result_arrays arrays = arrays_of(out);
        if (plan.keys) arrays.keys = std::visit([](const auto& k) { return keys_array(k); }, run_keys);
        r.many = summarize(out, arrays);
        if (plan.keys) show_keys(run_keys, *r.many);
        if (s.output_prefix) write_result_files(*s.output_prefix, preduce::name(b), arrays);
        summary.results.push_back(std::move(r));
    }
}

} // namespace

run_summary run_segmented(const dataset& data, const dataset* second, const segment_plan& plan, const operation& op,
                          const run_settings& settings) {
    return visit_inputs(data, second, op, [&](const auto& v, const auto* y) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        run_summary summary = summary_for<T>(op, v.size(), y != nullptr);
        summary.precision = settings.precision;
        summary.segmented = plan.info;
        if (plan.keys) summary.bytes += std::visit([](const auto& k) { return k.size() * sizeof(k[0]); }, *plan.keys);
        with_preduce_op<T>(op, [&](const auto& pop) {
            run_backends(v, y, pop, plan, settings, summary);
            return 0;
        });
        const auto& first = summary.results.front().many;
        summary.identical = std::all_of(summary.results.begin(), summary.results.end(), [&](const auto& r) {
            return r.many->sha256 == first->sha256 && r.many->index_sha256 == first->index_sha256 &&
                   r.many->keys_sha256 == first->keys_sha256;
        });
        return summary;
    });
}

} // namespace preduce_cli
