#include "commands/command_line.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string_view>
#include <utility>

#include "cli_error.hpp"
#include "input/parse_number.hpp"
#include "output/result_files.hpp"

namespace preduce_cli {
namespace {

// The operations (--op), one line each from the library's names and help texts
// (operation.hpp), then the rest of the footer.
std::string operations_help() {
    std::string text = "Operations (--op; 8- and 16-bit integers accumulate in 64 bits, float16 and\n"
                       "bfloat16 in float32, integer sums and products wrap):\n";
    for (const op_info& o : cli_operations()) {
        std::string name(o.name);
        name.resize(std::max<std::size_t>(name.size() + 2, 12), ' ');
        text += "  " + name + std::string(o.help) + (o.binary ? " (--input and --input2)" : "") + "\n";
    }
    return text + "\n";
}

constexpr const char* footer = R"help(Input:
  Without --input, --n values of --type (default f32) are generated from --seed:
  floats uniform in [-1, 1) (never 0; f16 and bf16: a float32 of those, rounded
  to the type), signed integers in [-100, 100], unsigned in [0, 100]; dot's
  second input from --seed + 1. With --input the format is
  --format-in, or else the file name's extension (any case): .npy means npy,
  .txt and .csv mean text, any other name means raw (and needs --type).
  --input2 (dot only, and then required with --input) is read by the same rules;
  the two must hold the same type and the same number of values.
  npy:  NumPy format 1.0/2.0/3.0, dtypes i4 u4 i8 u8 f4 f8 i2 u2 f2 i1 u1, each
        read as its own type (multi-byte ones '<' or '>' byte order), and |b1
        (bool) read as u8 (0 or 1, so sum counts the true values); any shape, read
        in C order; --type must match if given. bfloat16 has no dtype: raw or
        text only.
  raw:  little-endian elements of --type and nothing else; the size must be a
        multiple of the element size. f16 is IEEE binary16, bf16 the upper half
        of a float32.
  text: one number per line (a .csv holds one column), blank lines ignored;
        parsed as --type when given, else int64 if every line is an integer and
        float64 otherwise. f16 and bf16 values are rounded to nearest (ties to
        even); an integer outside the type, or a non-zero value that rounds to
        infinity or to zero in it (f16: from 65520 on), is an error.
  An empty file is an error; an empty array (npy shape (0,), or --n 0) is not:
  sums give 0, argmin/argmax give index "none", mean and var give nan, minmax
  gives the identities (min +inf or the type's max, max -inf or its lowest).

Many results per call (at most one of these four):
  --axis K[,K...]    NumPy's x.<op>(axis=(K, ...)) on an N-D .npy input (raw, text
                     and generated inputs are 1-D): one result per index of the
                     kept axes, in C order; negative axes count from the end.
  --segments FILE    one result per segment i = [o[i], o[i+1]) of the m + 1 offsets
                     in FILE: a .npy of any integer dtype (int64 or uint64 as a rule),
                     a text file (.txt, .csv) of integers, or raw int64; offsets must
                     not decrease nor pass n (values outside [o[0], o[m]) are left out).
  --segment-size K   one result per K consecutive values; K must divide n.
  --keys FILE        one result per run of equal consecutive keys (-0.0 equals 0.0,
                     NaN equals nothing), as thrust::reduce_by_key; FILE holds one key
                     per value: a .npy (its dtype), text (.txt, .csv: --keys-type, or
                     int64/float64 by what the lines hold), or raw (--keys-type).
  Each segment is reduced as if it were the whole input: an empty one gives the
  identity (sum -0.0 for floats, 0 for integers; min +inf or the type's max;
  argmin/argmax index none, -1 in .index.npy), and argmin/argmax indices count
  from the segment's first value. --segments and
  --segment-size take dot (--input2); --axis and --keys do not (preduce's
  reduce_axes and reduce_by_key read one input). --mpi takes none of them.

Precision (--precision):
  fast           each backend sums floats in its own order (SIMD lanes, threads,
                 GPU grid): results may differ between backends by rounding.
  deterministic  one fixed order defined on element positions: every backend,
                 thread count and grid returns the same bits.
  compensated    the same fixed order with TwoSum accumulators: also the same
                 bits everywhere, and accurate to about 2 ulp whatever n.
  It applies to floating-point sum, wide_sum, sumsq, asum and dot; min, max,
  argmin, argmax, count_if and integer operations are exact and ignore it;
  prod, mean, var, minmax and moments refuse deterministic and compensated
  (preduce's error, exit status 2).

Output:
  table  one row per backend: result (minmax: min and max; moments: count, mean,
         variance), error against the exact value (floating-point sum, wide_sum,
         asum, sumsq, dot: error = result - exact; error/bound = |error| over
         (n-1)*u*sum|x_i| for sums (Higham), n*u*sum|x_i*y_i| for sumsq and dot
         (Jeannerod-Rump)), median time, GB/s read (both inputs for dot),
         speed-up over seq. Floating-point sums add a column "bits" (the
         result's bits in hex) and a line "bit-identical across backends:
         yes/no" (every result has the bits of the first backend's); float16
         and bfloat16 results (min, max, argmin, argmax, minmax) add "bits" too,
         their 16-bit patterns ("0x3c00"; minmax "0xMIN/0xMAX").
  json   {"results": [record, ...]}, one record per backend:
         {"backend": "openmp", "label": "openmp(2 threads)", "op": "sum",
          "pred": "greater:0.5" (count_if only), "type": "float32", "n": 1000,
          "result": number, or {"value": number, "index": integer} for
                    argmin/argmax (both null for an empty input),
                    {"min": number, "max": number} for minmax,
                    {"count": integer, "mean": number, "variance": number,
                     "sample_variance": number} for moments,
          "time_s": median seconds, "gbps": number or null (empty input),
          "speedup": over seq (when seq ran),
          "precision": "fast", "deterministic" or "compensated",
          "exact", "error", "error_bound", "bits" (hex string),
          "bit_identical" (same bits as the first backend's):
                    floating-point sums only;
          "bits" for float16 and bfloat16 results: "0x3c00", or {"min": ...,
                    "max": ...} for minmax}
         NaN and infinities are written as the strings "nan", "inf", "-inf".
  csv    backend,label,op,pred,type,n,result,index,time_s,gbps,speedup,error,
         error_bound,min,max,count,mean,variance,precision,bits,bit_identical;
         cells that do not apply are
         empty (minmax and moments fill the last five instead of result);
         bits also holds float16/bfloat16 results' patterns (minmax: MIN/MAX).
  Floating-point results are printed with every digit needed to read them back.

Output of --axis, --segments, --segment-size and --keys:
  Per backend: the number of results, the first 3 and the last 3 after those (all
  of them when there are 6 or fewer), and the SHA-256 of the results' bytes (the
  data of PREFIX.<backend>.npy below, without its header), with the same timing
  columns. In the table and CSV one result is written "1.5", "value@index" (argmin,
  argmax; "none" when empty), "min/max" (minmax) or "count/mean/variance" (moments),
  results separated by spaces. The table's second line says whether every backend
  gave the same hashes ("identical across backends"; "identical" in JSON and CSV).
  json   records {"backend", "label", "op", "pred" (count_if), "type", "n",
          "mode": "axis", "segments", "segment_size" or "keys",
          "shape", "axes", "result_shape" (axis), "segment_size", "keys_type" (keys),
          "count": number of results, "first": [result, ...], "last": [...]
          (each result as in "result" above), "first_keys", "last_keys" (keys),
          "sha256", "index_sha256" (argmin/argmax), "keys_sha256" (keys),
          "identical", "time_s", "gbps", "speedup", "precision"}
  csv    backend,label,op,pred,type,n,mode,count,first,last,sha256,index_sha256,
         first_keys,last_keys,keys_sha256,identical,time_s,gbps,speedup,precision
  GB/s counts the values read (both inputs for dot) and, for --keys, the keys.

Output files (--output PREFIX), for each backend that ran:
  PREFIX.<backend>.npy        the results, NumPy format 1.0, little-endian: a 1-D
                              array of the op's result type (argmin/argmax: the
                              values; count_if: uint64; mean, var: float64), but
                              minmax (m, 2) of the element type [min, max] and moments
                              (m, 3) float64 [count, mean, m2], m2 the sum of squared
                              deviations (variance = m2 / count). --axis results are
                              1-D too, in C order: reshape them to "result_shape".
                              float16 results are <f2; bfloat16 ones, which NumPy
                              lacks, their bit patterns as <u2.
  PREFIX.<backend>.index.npy  argmin/argmax: int64 index inside each segment, -1
                              for an empty one
  PREFIX.<backend>.keys.npy   --keys: the key of each run, in the keys' dtype (8- and
                              16-bit keys are widened to int32/uint32, float16 to
                              float32: the same runs)
  Without a many-results mode the single result is written as a 1-element array.

Exit status: 0 success, 1 unreadable input or a failure in preduce, 2 bad flags.

Examples:
  preduce                                      # 2^24 floats, sum, every backend
  preduce --op argmax --type f64 --n 1000000 --format json
  preduce --input data.npy --op count_if --pred in_range:0:10 --backend openmp
  preduce --input values.bin --type i32 --op wide_sum
  preduce --input values.txt --type f32        # text, each line parsed as float32
  preduce --op minmax --type i64 --n 1000000
  preduce --input x.npy --input2 y.npy --op dot
  preduce --op sum --precision deterministic   # the same bits on every backend
  preduce --input x.npy --axis 0,2 --op max    # x.max(axis=(0, 2)) of a 3-D array
  preduce --input x.npy --segments offsets.npy --op argmin --output out
                                               # out.<backend>.npy and .index.npy
  preduce --n 1000000 --segment-size 1000 --op sum --format json
  preduce --input values.npy --keys keys.npy --op sum --output groups
  mpirun -np 4 preduce --mpi --n 268435456 --backend openmp --threads 1
                                               # 2^26 floats per rank, allreduce)help";

template <class T>
T number_flag(const std::optional<std::string>& text, const char* flag, T fallback, T lowest) {
    if (!text) return fallback;
    const auto p = parse_number<T>(*text);
    if (p.status != parse_status::ok || p.value < lowest)
        throw usage_error(std::string(flag) + " '" + *text + "' is not an integer in [" + std::to_string(lowest) +
                          ", " + std::to_string(std::numeric_limits<T>::max()) + "]");
    return p.value;
}

template <class T, std::size_t N>
using choices = std::array<std::pair<std::string_view, T>, N>;
constexpr choices<input_format, 3> input_formats{{{"npy", input_format::npy}, {"raw", input_format::raw},
                                                  {"text", input_format::text}}};
constexpr choices<preduce::precision, 3> precisions{{{"fast", preduce::precision::fast},
                                                     {"deterministic", preduce::precision::deterministic},
                                                     {"compensated", preduce::precision::compensated}}};
constexpr choices<output_format, 3> output_formats{{{"table", output_format::table}, {"json", output_format::json},
                                                    {"csv", output_format::csv}}};

template <class T, std::size_t N>
T choose(const char* flag, const std::string& text, const choices<T, N>& valid) {
    std::string names;
    for (const auto& [name, value] : valid) {
        if (text == name) return value;
        names += (names.empty() ? "" : ", ") + std::string(name);
    }
    throw usage_error(std::string("unknown ") + flag + " '" + text + "'; valid: " + names);
}

std::vector<preduce::backend> parse_backends(const std::vector<std::string>& names) {
    std::vector<preduce::backend> out;
    for (const auto& n : names) {
        if (n == "all") {
            for (auto b : preduce::available_backends())
                if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
            continue;
        }
        const auto b = preduce::parse_backend(n);  // throws invalid_argument naming the valid ones
        if (!preduce::is_usable(b)) {
            std::string available;
            for (auto a : preduce::available_backends()) available += (available.empty() ? "" : ", ") + std::string(preduce::name(a));
            throw usage_error("backend '" + n + "' is not available in this build or on this machine; available: " +
                              available);
        }
        if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
    }
    if (out.empty()) throw usage_error("--backend: no backend to run");
    return out;
}

std::vector<int> parse_axes(const std::string& text) {
    std::vector<int> axes;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != ',') continue;
        const auto p = parse_number<int>(std::string_view(text).substr(start, i - start));
        if (p.status != parse_status::ok)
            throw usage_error("--axis '" + text +
                              "': expected integers separated by commas, e.g. --axis 0,2 or --axis=-1");
        axes.push_back(p.value);
        start = i + 1;
    }
    return axes;
}

// At most one of --axis, --segments, --segment-size and --keys, checked against the op.
std::optional<segment_request> parse_segments(const flags& f, const operation& op) {
    std::vector<std::pair<segment_mode, const std::optional<std::string>*>> given;
    for (const auto& [mode, text] : {std::pair{segment_mode::axis, &f.axis},
                                     std::pair{segment_mode::offsets, &f.segments},
                                     std::pair{segment_mode::fixed_size, &f.segment_size},
                                     std::pair{segment_mode::keys, &f.keys}})
        if (*text) given.emplace_back(mode, text);
    if (given.empty()) return std::nullopt;
    if (given.size() > 1)
        throw usage_error(std::string(flag_of(given[0].first)) + " and " + flag_of(given[1].first) +
                          ": give at most one of --axis, --segments, --segment-size and --keys");
    segment_request r;
    r.mode = given[0].first;
    const std::string& text = **given[0].second;
    if (op.is_binary() && (r.mode == segment_mode::axis || r.mode == segment_mode::keys))
        throw usage_error(std::string(flag_of(r.mode)) + " does not apply to --op dot: preduce::" +
                          (r.mode == segment_mode::axis ? "reduce_axes" : "reduce_by_key") +
                          " reads one input (--segments and --segment-size take dot)");
    switch (r.mode) {
    case segment_mode::axis: r.axes = parse_axes(text); break;
    case segment_mode::offsets:
    case segment_mode::keys: r.file = text; break;
    case segment_mode::fixed_size: r.size = number_flag<std::uint64_t>(f.segment_size, "--segment-size", 1, 1); break;
    }
    if (f.keys_type && !(r.keys_type = parse_element_type(*f.keys_type)))
        throw usage_error("unknown --keys-type '" + *f.keys_type + "'; valid: " + element_type_names());
    return r;
}

} // namespace

void define_flags(CLI::App& app, flags& f) {
    app.footer(operations_help() + footer);
    app.get_formatter()->column_width(28);
    auto* input = app.add_option("-i,--input", f.input, "Read the values from FILE instead of generating them")
                      ->type_name("FILE");
    app.add_option("--input2", f.input2,
                   "--op dot: the second input, read like --input (same rules, --type, --format-in)")
        ->type_name("FILE")
        ->needs(input);
    app.add_option("--format-in", f.format_in, "Input format, instead of guessing from the name")
        ->type_name("npy|raw|text")
        ->needs(input);
    app.add_option("-t,--type", f.type,
                   "Element type: of generated data (default f32), of raw files (required), of the numbers in "
                   "text files (f16, bf16: rounded to nearest)")
        ->type_name(element_type_names("|"));
    app.add_option("-n,--n", f.n, "Number of generated values (default 2^24)")->type_name("N")->excludes(input);
    app.add_option("--seed", f.seed, "Seed of the generated values (default 42)")->type_name("S")->excludes(input);
    std::string op_names;
    for (const op_info& o : cli_operations()) op_names += (op_names.empty() ? "" : ", ") + std::string(o.name);
    app.add_option("--op", f.op, "One of " + op_names + " (default sum); see Operations below")
        ->type_name("OP");
    app.add_option("--pred", f.pred,
                   "count_if's predicate KIND[:A[:B]]: equal, not_equal, less, less_equal, greater, greater_equal "
                   "(one value), in_range:LO:HI (half-open), is_nan")
        ->type_name("PRED");
    app.add_option("-b,--backend", f.backends,
                   "Backends to run, comma-separated, or all (default: every backend usable here); auto is "
                   "backend::automatic, whose row names the backend it chose")
        ->delimiter(',')
        ->type_name("NAME|all");
    app.add_option("--threads", f.threads, "Threads for backends that take a count (default: theirs)")->type_name("N");
    app.add_option("--repeat", f.repeat, "Timed runs per backend; the median is reported (default 9)")->type_name("N");
    app.add_option("--precision", f.precision,
                   "Floating-point sums: fast (each backend's own order), deterministic (the same bits on every "
                   "backend) or compensated (deterministic and accurate to ~2 ulp); default fast")
        ->type_name("fast|deterministic|compensated");
    app.add_option("-f,--format", f.format, "Output: table, json or csv (default table)")
        ->type_name("table|json|csv");
    app.add_option("--axis", f.axis,
                   "Reduce over these axes of an N-D .npy input (negative ones count from the end): one result "
                   "per index of the other axes, in C order")
        ->type_name("K[,K...]");
    app.add_option("--segments", f.segments,
                   "One result per segment [o[i], o[i+1]) of the m+1 integer offsets in FILE (.npy, text, or raw "
                   "int64)")
        ->type_name("FILE");
    app.add_option("--segment-size", f.segment_size, "One result per K consecutive values; K must divide their number")
        ->type_name("K");
    auto* keys = app.add_option("--keys", f.keys,
                                "One result per run of equal consecutive keys; FILE holds one key per value (.npy, "
                                "text, or raw with --keys-type)")
                     ->type_name("FILE");
    app.add_option("--keys-type", f.keys_type, "Element type of a raw --keys file, or of the numbers in a text one")
        ->type_name(element_type_names("|"))
        ->needs(keys);
    app.add_option("--output", f.output,
                   "Write each backend's results to PREFIX.<backend>.npy (argmin/argmax: also .index.npy; --keys: "
                   ".keys.npy); see Output files below")
        ->type_name("PREFIX");
    app.add_flag("--list-backends", f.list_backends, "Print the backends available here, one per line, and exit");
    app.add_flag("--calibrate", f.calibrate,
                 "Measure every backend's latency on host data and write the crossovers backend::automatic "
                 "(--backend auto) reads, to --calibration-file or $PREDUCE_CALIBRATION or the per-user cache "
                 "file; then exit");
    app.add_option("--calibration-file", f.calibration_file, "--calibrate: the file to write")->type_name("FILE");
    app.add_option("--calibrate-max", f.calibrate_max,
                   "--calibrate: log2 of the largest n measured, 4 to 30 (default 26)")
        ->type_name("K");
    app.add_flag("--mpi", f.mpi,
                 "Under mpirun: every rank reduces its part of the values (an even split of --n or of the "
                 "file) and preduce::mpi::allreduce combines them; reports per-rank and global times");
}

settings to_settings(const flags& f) {
    settings s;
    s.input = f.input;
    s.input2 = f.input2;
    if (f.format_in) s.format_in = choose("--format-in", *f.format_in, input_formats);
    if (f.type && !(s.type = parse_element_type(*f.type)))
        throw usage_error("unknown --type '" + *f.type + "'; valid: " + element_type_names());
    s.n = number_flag<std::uint64_t>(f.n, "--n", default_n, 0);
    s.seed = number_flag<std::uint64_t>(f.seed, "--seed", default_seed, 0);
    s.threads = number_flag<int>(f.threads, "--threads", 0, 0);
    s.repeat = number_flag<int>(f.repeat, "--repeat", default_repeat, 1);
    s.op = parse_operation(f.op, f.pred);
    if (s.input2 && !s.op.is_binary()) throw usage_error("--input2 only applies to --op dot");
    if (s.op.is_binary() && s.input && !s.input2)
        throw usage_error("--op dot reads two inputs: give --input2 FILE with --input (or neither, to generate both)");
    s.backends = parse_backends(f.backends);
    s.format = choose("--format", f.format, output_formats);
    s.precision = choose("--precision", f.precision, precisions);
    s.list_backends = f.list_backends;
    s.mpi = f.mpi;
    s.segments = parse_segments(f, s.op);
    s.output = f.output;
    if (s.output && s.output->empty()) throw usage_error("--output: the PREFIX is empty");
    if (s.output) check_output_prefix(*s.output);
    if (s.mpi && (s.segments || s.output))
        throw usage_error(std::string(s.segments ? flag_of(s.segments->mode) : "--output") +
                          " does not apply to --mpi, which reduces whole arrays across ranks");
#if !PREDUCE_CLI_MPI
    if (s.mpi) throw usage_error("--mpi: this preduce was built without MPI (install libopenmpi-dev and reconfigure)");
#endif
    if ((f.calibration_file || f.calibrate_max) && !f.calibrate)
        throw usage_error(std::string(f.calibration_file ? "--calibration-file" : "--calibrate-max") +
                          " only applies to --calibrate");
    if (f.calibrate) {
        calibrate_settings c;
        c.path = f.calibration_file.value_or("");
        c.max_log2 = number_flag<int>(f.calibrate_max, "--calibrate-max", 26, 4);
        if (c.max_log2 > 30) throw usage_error("--calibrate-max: at most 30 (2^30 floats, 4 GiB)");
        c.threads = s.threads;
        s.calibrate = c;
    }
    return s;
}

} // namespace preduce_cli
