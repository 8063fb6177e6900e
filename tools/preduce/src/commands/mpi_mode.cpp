#include "commands/mpi_mode.hpp"

#include <mpi.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <preduce/mpi.hpp>

#include "cli_error.hpp"
#include "output/report.hpp"

namespace preduce_cli {
namespace {

// Rank r's part of n elements: an even split, the remainder to the first ranks.
struct part {
    std::uint64_t first;
    std::uint64_t count;
};
part part_of(std::uint64_t n, int rank, int ranks) {
    const auto r = static_cast<std::uint64_t>(rank), p = static_cast<std::uint64_t>(ranks);
    const std::uint64_t base = n / p, extra = n % p;
    return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

dataset slice(const dataset& d, part p) {
    return std::visit(
        [&](const auto& v) -> dataset {
            using V = std::decay_t<decltype(v)>;
            return V(v.begin() + static_cast<std::ptrdiff_t>(p.first),
                     v.begin() + static_cast<std::ptrdiff_t>(p.first + p.count));
        },
        d);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Seconds of one call of f on this rank, the ranks started together.
template <class F>
double timed(F&& f) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Element-wise max over ranks (on every rank): a collective step ends when its slowest rank does.
std::vector<double> max_over_ranks(const std::vector<double>& v) {
    std::vector<double> out(v.size());
    MPI_Allreduce(v.data(), out.data(), static_cast<int>(v.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return out;
}

std::vector<double> gather(double x, int ranks) {
    std::vector<double> all(static_cast<std::size_t>(ranks));
    MPI_Gather(&x, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return all;
}

std::string ms(double s) { return fmt::format("{:.3f}", s * 1e3); }

// What one backend's run reports, after its calls: the same code for every element type and
// op, so it is compiled once rather than in every instantiation of the run (collectives:
// every rank calls it).
struct run_context {
    const settings& s;
    preduce::backend b;
    preduce::options opts;
    int rank, ranks;
    std::uint64_t total, bytes;
    const char* type;
};

void report_run(const run_context& ctx, std::size_t local_n, const result_value& shown, bool float_result,
                const std::vector<double>& t_local, const std::vector<double>& t_global,
                nlohmann::ordered_json& records, std::string& tables) {
    const settings& s = ctx.s;
    const int ranks = ctx.ranks;
    const double g_local = median(max_over_ranks(t_local));
    const double g_global = median(max_over_ranks(t_global));
    const auto rank_local = gather(median(t_local), ranks);
    const auto rank_global = gather(median(t_global), ranks);
    const auto rank_n = gather(static_cast<double>(local_n), ranks);
    if (ctx.rank != 0) return;
    const std::string label = preduce::describe(ctx.b, ctx.opts);
    const double ratio = g_local > 0 ? g_global / g_local : 0.0;
    const double gbps = g_global > 0 ? static_cast<double>(ctx.bytes) / g_global / 1e9 : 0.0;
    // The bits of a floating-point result (a sum's, or a float16/bfloat16 min's, ...).
    nlohmann::ordered_json bits = nullptr;
    std::string bits_cell;
    if (float_result) {
        bits_cell = bits_text(shown.value);
        bits = bits_cell;
    } else if (const auto half = json_half_bits(s.op.shape(), shown)) {
        bits_cell = *half_bits(s.op.shape(), shown);
        bits = *half;
    }
    std::string cells;
    for (const auto& c : result_cells(s.op.shape(), shown)) cells += (cells.empty() ? "" : ", ") + c;
    if (!bits_cell.empty()) cells += " (" + bits_cell + ")";
    tables += fmt::format("\n{}: {}\n", label, cells);
    tables += fmt::format("  {:>4}  {:>12}  {:>10}  {:>13}\n", "rank", "elements", "local ms", "allreduce ms");
    nlohmann::ordered_json per_rank = nlohmann::ordered_json::array();
    for (int r = 0; r < ranks; ++r) {
        const auto k = static_cast<std::size_t>(r);
        tables += fmt::format("  {:>4}  {:>12}  {:>10}  {:>13}\n", r, static_cast<std::uint64_t>(rank_n[k]),
                              ms(rank_local[k]), ms(rank_global[k]));
        per_rank.push_back({{"rank", r},
                            {"n", static_cast<std::uint64_t>(rank_n[k])},
                            {"local_s", rank_local[k]},
                            {"allreduce_s", rank_global[k]}});
    }
    tables += fmt::format("  {:>4}  {:>12}  {:>10}  {:>13}   allreduce/local {:.3f}, {:.1f} GB/s\n", "all",
                          ctx.total, ms(g_local), ms(g_global), ratio, gbps);
    records.push_back({{"backend", std::string(preduce::name(ctx.b))},
                       {"label", label},
                       {"op", s.op.label},
                       {"type", std::string(ctx.type)},
                       {"n", ctx.total},
                       {"ranks", ranks},
                       {"precision", std::string(preduce::name(s.precision))},
                       {"result", json_result(s.op.shape(), shown)},
                       {"bits", bits},
                       {"local_s", g_local},
                       {"allreduce_s", g_global},
                       {"allreduce_over_local", ratio},
                       {"gbps", gbps},
                       {"per_rank", per_rank}});
}

int run_ranks(const settings& s, int rank, int ranks) {
    // Every rank makes (or reads) the whole sequence and keeps its part: the global
    // sequence is then exactly what a single-process run with these flags reduces.
    dataset data;
    std::optional<dataset> second;
    std::string source;
    if (s.input) {
        data = load_input(*s.input, s.format_in, s.type).data;
        if (s.input2) second = load_input(*s.input2, s.format_in, s.type).data;
        source = "read from " + *s.input + (s.input2 ? " and " + *s.input2 : std::string());
        if (second && (type_of(*second) != type_of(data) || size_of(*second) != size_of(data)))
            throw input_error("--input2 must hold as many values of the same type as --input");
    } else {
        const element_type t = s.type.value_or(element_type::f32);
        data = generate_data(t, s.n, s.seed);
        if (s.op.is_binary()) second = generate_data(t, s.n, s.seed + 1);
        source = std::string("generated ") + generated_distribution(t) + ", seed " + std::to_string(s.seed);
    }
    const std::uint64_t total = size_of(data);
    const part mine = part_of(total, rank, ranks);
    data = slice(data, mine);
    if (second) second = slice(*second, mine);

    nlohmann::ordered_json records = nlohmann::ordered_json::array();
    std::string tables;
    std::visit(
        [&](const auto& v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            const std::vector<T>* y = second ? &std::get<std::vector<T>>(*second) : nullptr;
            const std::uint64_t bytes = total * sizeof(T) * (y ? 2 : 1);
            with_preduce_op<T>(s.op, [&](const auto& pop) {
                constexpr bool two = std::is_same_v<std::remove_cvref_t<decltype(pop)>, preduce::dot_op>;
                for (const auto b : s.backends) {
                    const preduce::options opts{.threads = s.threads, .precision = s.precision};
                    const auto local = [&] {
                        if constexpr (two) return preduce::reduce(b, v.data(), y->data(), v.size(), pop, opts);
                        else return preduce::reduce(b, v.data(), v.size(), pop, opts);
                    };
                    const auto global = [&] {
                        if constexpr (two)
                            return preduce::mpi::allreduce(MPI_COMM_WORLD, b, v.data(), y->data(), v.size(), pop, opts);
                        else return preduce::mpi::allreduce(MPI_COMM_WORLD, b, v.data(), v.size(), pop, opts);
                    };
                    auto result = global();  // warm-up of both, and the result reported
                    (void)local();
                    // Interleaved, so that both see the same state of the machine.
                    std::vector<double> t_local, t_global;
                    for (int i = 0; i < s.repeat; ++i) {
                        t_local.push_back(timed([&] { (void)local(); }));
                        t_global.push_back(timed([&] { result = global(); }));
                    }
                    report_run({s, b, opts, rank, ranks, total, bytes, preduce::detail::type_name<T>()}, v.size(),
                               to_result(result), std::is_floating_point_v<std::remove_cvref_t<decltype(result)>>,
                               t_local, t_global, records, tables);
                }
                return 0;
            });
        },
        data);
    if (rank != 0) return 0;
    if (s.format == output_format::json) {
        fmt::print("{}\n", nlohmann::ordered_json{{"mpi_ranks", ranks}, {"results", records}}.dump(2));
    } else {
        fmt::print("preduce --mpi: {} of {} values over {} ranks ({}), precision {}, median of {} runs\n"
                   "local: each rank's own reduce; allreduce: preduce::mpi::allreduce (local + collective);\n"
                   "'all' rows: per run the slowest rank, then the median.\n",
                   s.op.label, total, ranks, source, preduce::name(s.precision), s.repeat);
        fmt::print("{}", tables);
    }
    return 0;
}

} // namespace

bool secondary_rank() {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        return rank != 0;
    }
    // Without MPI running (a plain run under mpirun): the launchers' rank variables.
    for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
        if (const char* v = std::getenv(var)) return std::strcmp(v, "0") != 0;
    return false;
}

bool wants_mpi(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--mpi") == 0) return true;
    return false;
}

mpi_session::mpi_session(bool wanted) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (wanted && !initialized) {
        MPI_Init(nullptr, nullptr);
        ours_ = true;
    }
}

mpi_session::~mpi_session() {
    if (ours_) MPI_Finalize();  // a barrier: rank 0's error line is out before any rank exits
}

int run_mpi(const settings& s, const std::function<int(const std::string&, int)>& fail) {
    if (s.format == output_format::csv) throw usage_error("--mpi writes table or json, not csv");
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) throw std::logic_error("internal: --mpi without MPI initialized");
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    // preduce::mpi throws the same exception on every rank; fail() prints on rank 0 only.
    try {
        return run_ranks(s, rank, ranks);
    } catch (const preduce::invalid_argument& e) {
        return fail(e.what(), 2);
    } catch (const std::exception& e) {
        return fail(e.what(), 1);
    }
}

} // namespace preduce_cli
