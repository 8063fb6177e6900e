#include "output/npy_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace preduce_cli {

std::string npy_file_header(const npy_array& a) {
    std::string shape = "(";
    for (std::size_t i = 0; i < a.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(a.shape[i]);
    shape += a.shape.size() == 1 ? ",)" : ")";
    std::string dict = "{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // magic (6) + version (2) + header length (2) + dict + padding + '\n', a multiple of 64.
    const std::size_t unpadded = 10 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict += '\n';
    if (dict.size() > 0xffff) throw std::runtime_error("internal: .npy header too long for format 1.0");
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(dict.size() & 0xff);
    out += static_cast<char>(dict.size() >> 8);
    return out + dict;
}

void write_npy(const std::string& path, const npy_array& a) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error(path + ": cannot create the file: " + std::strerror(errno));
    const std::string header = npy_file_header(a);
    f.write(header.data(), static_cast<std::streamsize>(header.size()));
    f.write(reinterpret_cast<const char*>(a.data.data()), static_cast<std::streamsize>(a.data.size()));
    f.close();
    if (!f) throw std::runtime_error(path + ": writing the file failed (disk full?)");
}

} // namespace preduce_cli
