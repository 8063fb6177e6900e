// Raw little-endian values: the file is nothing but elements, so its size is the only
// thing that can be wrong, and it is checked before anything is allocated.
#include <string>
#include <type_traits>
#include <variant>

#include "input/byte_order.hpp"
#include "input/memory_budget.hpp"
#include "input/readers.hpp"

namespace preduce_cli {

dataset read_raw(std::istream& in, std::uint64_t size, const std::string& name, element_type type) {
    const auto& t = info(type);
    if (size == 0) throw input_error(name + ": file is empty");
    if (size % t.size != 0)
        throw input_error(name + ": size " + std::to_string(size) + " bytes is not a multiple of " +
                          std::to_string(t.size) + " (the size of one " + std::string(t.flag) +
                          "); wrong --type, or not a raw file?");
    require_memory(size / t.size, t.size, name + ": " + std::to_string(size / t.size) + " values of " + std::string(t.flag));
    dataset data = make_dataset(type, static_cast<std::size_t>(size / t.size));
    std::visit(
        [&](auto& v) {
            read_exact(in, v.data(), size, name);
            little_endian_to_host(v.data(), v.size());
        },
        data);
    return data;
}

} // namespace preduce_cli
