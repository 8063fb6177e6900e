// A user-defined reducer run by the sequential backend's header-only template.
#include <preduce/seq/reduce.hpp>

#include <cstddef>
#include <cstdio>

struct max_abs {
    using value_type = int;
    using accumulator_type = int;
    using result_type = int;
    static constexpr int identity() { return 0; }
    int lift(int x, std::size_t) const { return x < 0 ? -x : x; }
    static int combine(int a, int b) { return a < b ? b : a; }
    int finish(int a) const { return a; }
};

int main() {
    const int v[] = {3, -9, 4};
    const int r = preduce::seq::reduce(v, 3, max_abs{});
    std::printf("max_abs = %d\n", r);
    return r == 9 ? 0 : 1;
}
