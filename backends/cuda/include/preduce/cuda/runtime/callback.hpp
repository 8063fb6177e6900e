#pragma once
// callback<R(Args...)>: a callable by reference, without its type. The host-side loops that
// do not depend on the reducer (staging/host_staging.cuh) take their per-reducer steps
// through it, so that they are compiled once, not once per reducer and order. The callable
// must outlive the call that receives it.
#include <type_traits>
#include <utility>

namespace preduce::cuda::detail {

template <class Signature>
class callback;

template <class R, class... Args>
class callback<R(Args...)> {
public:
    template <class F>
        requires(!std::is_same_v<std::remove_cv_t<F>, callback>)
    callback(F& f) noexcept  // NOLINT(google-explicit-constructor): made where a step is passed
        : object_(&f), call_([](void* o, Args... args) -> R { return (*static_cast<F*>(o))(std::forward<Args>(args)...); }) {}
    R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

private:
    void* object_;
    R (*call_)(void*, Args...);
};

} // namespace preduce::cuda::detail
