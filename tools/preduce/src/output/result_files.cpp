#include "output/result_files.hpp"

#include <filesystem>
#include <system_error>

#include "cli_error.hpp"

namespace preduce_cli {

void check_output_prefix(const std::string& prefix) {
    namespace fs = std::filesystem;
    fs::path dir = fs::path(prefix).parent_path();
    if (dir.empty()) dir = ".";
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw usage_error("--output " + prefix + ": the directory " + dir.string() +
                          " does not exist; the files are named PREFIX.<backend>.npy");
}

void write_result_files(const std::string& prefix, std::string_view backend, const result_arrays& a) {
    const std::string base = prefix + "." + std::string(backend);
    write_npy(base + ".npy", a.values);
    if (a.index) write_npy(base + ".index.npy", *a.index);
    if (a.keys) write_npy(base + ".keys.npy", *a.keys);
}

} // namespace preduce_cli
