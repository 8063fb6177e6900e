// preduce: reduce generated or file data with every backend, and compare results,
// rounding errors and speed side by side.
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <preduce/preduce.hpp>

#include "cli_error.hpp"
#include "commands/command_line.hpp"
#include "input/load_input.hpp"
#include "commands/measure.hpp"
#include "output/report.hpp"
#include "commands/many_results_mode.hpp"
#if PREDUCE_CLI_MPI
#include "commands/mpi_mode.hpp"
#endif

namespace {

using namespace preduce_cli;

// Length of the valid UTF-8 sequence starting at s[i], 0 if there is none (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_length(const std::string& s, std::size_t i) {
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = at(i);
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xbf;  // range of the second byte
    if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c >= 0xe0 && c <= 0xef) len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4) len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    if (len == 0 || i + len > s.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < len; ++k)
        if (at(i + k) < 0x80 || at(i + k) > 0xbf) return 0;
    return len;
}

// Messages quote file contents (a dtype, a line of text): control characters and
// bytes that are not UTF-8 are escaped, so an error is always one readable line.
int fail(const std::string& message, int status) {
#if PREDUCE_CLI_MPI
    if (secondary_rank()) return status;  // under mpirun, rank 0 prints the line
#endif
    std::string line;
    for (std::size_t i = 0; i < message.size();) {
        const auto c = static_cast<unsigned char>(message[i]);
        const std::size_t len = c >= 0x80 ? utf8_length(message, i) : (c < 0x20 || c == 0x7f ? 0 : 1);
        if (len == 0) {
            line += fmt::format("\\x{:02x}", c);
            ++i;
        } else {
            line.append(message, i, len);
            i += len;
        }
    }
    std::fflush(stdout);
    fmt::print(stderr, "preduce: error: {}\n", line);
    return status;
}

// dot reads its inputs side by side: one element type, one length.
void check_pair(const dataset& x, const std::string& x_name, const dataset& y, const std::string& y_name) {
    if (type_of(x) != type_of(y))
        throw input_error(y_name + ": its values are " + type_text(y) + " but those of " + x_name + " are " +
                          type_text(x) + "; dot needs two inputs of one type (--type reads text and raw files as one)");
    if (size_of(x) != size_of(y))
        throw input_error(y_name + ": " + std::to_string(size_of(y)) + " values but " + x_name + " has " +
                          std::to_string(size_of(x)) + "; dot needs two inputs of the same length");
}

int run(const settings& s) {
    if (s.list_backends) {
        for (auto b : preduce::available_backends()) fmt::print("{}\n", preduce::name(b));
        return 0;
    }
    if (s.calibrate) return run_calibration(*s.calibrate);
#if PREDUCE_CLI_MPI
    if (s.mpi) return run_mpi(s, fail);
#endif
    dataset data;
    std::optional<dataset> second;  // dot's y
    std::vector<std::uint64_t> shape;  // --axis: a .npy's own shape, else (n)
    std::string source;
    if (s.input) {
        loaded_input in = load_input(*s.input, s.format_in, s.type);
        data = std::move(in.data);
        shape = std::move(in.shape);
        source = "read from " + *s.input + " (" + format_name(in.format) + ")";
        if (s.input2) {
            loaded_input in2 = load_input(*s.input2, s.format_in, s.type);
            check_pair(data, *s.input, in2.data, *s.input2);
            second = std::move(in2.data);
            source += " and " + *s.input2 + " (" + format_name(in2.format) + ")";
        }
    } else {
        const element_type t = s.type.value_or(element_type::f32);
        if (s.op.is_binary()) {
            check_fits_in_memory(t, s.n, 2);
            data = generate_data(t, s.n, s.seed);
            second = generate_data(t, s.n, s.seed + 1);  // --seed + 1, mod 2^64
            source = std::string("generated ") + generated_distribution(t) + ", seeds " + std::to_string(s.seed) +
                     " and " + std::to_string(s.seed + 1);
        } else {
            data = generate_data(t, s.n, s.seed);
            source = std::string("generated ") + generated_distribution(t) + ", seed " + std::to_string(s.seed);
        }
    }
    if (!s.input) shape = {size_of(data)};
    const run_settings rs{s.backends, s.threads, s.repeat, s.precision, s.output};
    const dataset* y = second ? &*second : nullptr;
    run_summary summary;
    if (s.segments) {
        const segment_plan plan =
            plan_segments(*s.segments, shape, size_of(data), s.input ? *s.input : std::string("the generated data"));
        summary = run_segmented(data, y, plan, s.op, rs);
    } else {
        summary = run_all(data, y, s.op, rs);
    }
    print_report(summary, s.format, source, s.repeat);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
#if PREDUCE_CLI_MPI
    const mpi_session mpi(wants_mpi(argc, argv));
#endif
    try {
        CLI::App app{"Parallel reductions with every preduce backend, side by side: result, rounding error "
                     "against the exact value, median time, GB/s and speed-up over seq.",
                     "preduce"};
        flags f;
        define_flags(app, f);
        try {
            app.parse(argc, argv);
        } catch (const CLI::ParseError& e) {
            if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help
            return fail(std::string(e.what()) + " (see preduce --help)", 2);
        }
        return run(to_settings(f));
    } catch (const usage_error& e) {
        return fail(std::string(e.what()) + " (see preduce --help)", 2);
    } catch (const preduce::invalid_argument& e) {
        return fail(e.what(), 2);  // unknown backend name, unrepresentable threshold: the flags' fault
    } catch (const preduce::error& e) {
        return fail(e.what(), 1);
    } catch (const input_error& e) {
        return fail(e.what(), 1);
    } catch (const std::bad_alloc&) {
        return fail("out of memory", 1);
    } catch (const std::exception& e) {
        return fail(e.what(), 1);
    } catch (...) {
        return fail("unknown internal error", 1);
    }
}
