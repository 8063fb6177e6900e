// A program that links preduce::frontend and preduce::seq and calls no reduce(): linking the
// backend's target is what makes it linked (detail/routing/linked_libraries.hpp), not a call.
#include <preduce/preduce.hpp>

#include <cstdio>

int main() {
    int failures = !preduce::is_linked(preduce::backend::seq) + !preduce::is_usable(preduce::backend::seq);
    for (preduce::backend b : preduce::all_backends)
        if (b != preduce::backend::seq) failures += preduce::is_linked(b);
    std::printf("seq: %s; available: %zu backend(s)\n", preduce::describe(preduce::backend::seq).c_str(),
                preduce::available_backends().size());
    return failures == 0 && preduce::available_backends().size() == 1 ? 0 : 1;
}
