#pragma once
// The built-in operations, one line each: M(name, ...) for the reducer template
// preduce::name##_reducer (reducers.hpp, transforms.hpp, fused.hpp), which says everything
// else about the operation. A line here compiles that reducer for every element type into
// every backend and the front end (detail/backend_contract/builtins.hpp); a line in the plain list also makes
// the op object preduce::name (op_tag<name##_reducer>, ops.hpp) and the command-line
// program's --op name. The other lines have op objects of their own in ops.hpp: count_if's
// predicate, dot's two inputs, minmax's {min, max}; sum_count is fused(sum, count_if).
#define PREDUCE_FOR_EACH_PLAIN_OPERATION(M, ...)                                                      \
    M(sum, __VA_ARGS__)                                                                               \
    M(wide_sum, __VA_ARGS__)                                                                          \
    M(prod, __VA_ARGS__)                                                                              \
    M(min, __VA_ARGS__)                                                                               \
    M(max, __VA_ARGS__)                                                                               \
    M(argmin, __VA_ARGS__)                                                                            \
    M(argmax, __VA_ARGS__)                                                                            \
    M(sumsq, __VA_ARGS__)                                                                             \
    M(asum, __VA_ARGS__)                                                                              \
    M(moments, __VA_ARGS__)                                                                           \
    M(nansum, __VA_ARGS__)                                                                            \
    M(nanmax, __VA_ARGS__)

#define PREDUCE_FOR_EACH_BUILTIN_OPERATION(M, ...)                                                    \
    PREDUCE_FOR_EACH_PLAIN_OPERATION(M, __VA_ARGS__)                                                  \
    M(count, __VA_ARGS__)                                                                             \
    M(dot, __VA_ARGS__)                                                                               \
    M(minmax, __VA_ARGS__)                                                                            \
    M(sum_count, __VA_ARGS__)
