// Many results per call on the CPU backends (bench/README.md), next to the same run's read
// probe (anchor/read_probe/threads:<t>/f32/<n>):
//   segments/<backend>/sum/f32/<n>/seg:<k>   reduce_batches: n / k row sums of k elements
//   columns/<backend>/sum/f32/<rows>x<cols>  reduce_axes over axis 0 of a row-major matrix
// bytes_per_second counts the data read, as the whole-array rows do.
#include <exception>
#include <string>
#include <vector>

#include <preduce/preduce.hpp>

#include "inputs.hpp"
#include "rows.hpp"

namespace preduce_bench {

void register_segment_rows(std::size_t n, std::span<const preduce::backend> backends) {
    for (const preduce::backend b : backends) {
        for (std::size_t k : {std::size_t{16}, std::size_t{256}, std::size_t{4096}, std::size_t{65536}, std::size_t{1} << 20}) {
            if (k > n) continue;
            const std::string name =
                row_name({"segments", preduce::name(b), "sum", "f32"}, n) + "/seg:" + std::to_string(k);
            configure(benchmark::RegisterBenchmark(name.c_str(), [b, n, k](benchmark::State& st) {
                windows<float> w(n);
                std::vector<float> out(n / k);
                try {
                    for (auto _ : st) {
                        preduce::reduce_batches(b, std::span<const float>(w.next(), n), k, preduce::sum, out);
                        benchmark::DoNotOptimize(out.data());
                    }
                } catch (const std::exception& e) {
                    st.SkipWithError(e.what());
                    return;
                }
                set_throughput(st, n, sizeof(float));
            }));
        }
        // Column sums of the square matrix of n elements.
        std::size_t side = 1;
        while (side * side * 4 <= n) side *= 2;
        const std::size_t cells = side * side;
        const std::string name = "columns/" + std::string(preduce::name(b)) + "/sum/f32/" + std::to_string(side) + "x" +
                                 std::to_string(side);
        configure(benchmark::RegisterBenchmark(name.c_str(), [b, side, cells](benchmark::State& st) {
            windows<float> w(cells);
            const std::vector<std::size_t> shape{side, side};
            const std::vector<int> axes{0};
            std::vector<float> out(side);
            try {
                for (auto _ : st) {
                    preduce::reduce_axes(b, w.next(), shape, axes, preduce::sum, out.data(), out.size());
                    benchmark::DoNotOptimize(out.data());
                }
            } catch (const std::exception& e) {
                st.SkipWithError(e.what());
                return;
            }
            set_throughput(st, cells, sizeof(float));
        }));
    }
}

} // namespace preduce_bench
