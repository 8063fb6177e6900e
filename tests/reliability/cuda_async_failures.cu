// Failures of preduce::cuda::reduce_async, the header-only API that reads its input in
// place and leaves the result in device memory: no device memory for the workspace, a
// workspace too small, and inputs the GPU cannot read (pageable host memory, freed device
// memory). Each must be a preduce exception with the CUDA context intact, so that the
// next call works; a kernel that faulted on a bad address would instead end the context
// for the rest of the process, so each case runs in a process of its own under ctest.
// Catch2 cases (nvcc) run by tests/support/cuda_main.cpp: skipped (77) where no GPU is usable.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "preduce/cuda/reduce.cuh"
#include "preduce/errors.hpp"
#include "preduce/ops.hpp"
#include "preduce/reducers.hpp"
#include "preduce/seq/reduce.hpp"

namespace {

using R = preduce::wide_sum_reducer<std::int32_t>;  // int32 summed in int64: exact
using Result = R::result_type;

// The error f() threw, as "<type>: <message>", or "" when it returned.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
        return {};
    } catch (const preduce::out_of_memory& e) {
        return std::string("out_of_memory: ") + e.what();
    } catch (const preduce::invalid_argument& e) {
        return std::string("invalid_argument: ") + e.what();
    } catch (const preduce::error& e) {
        return std::string("preduce::error: ") + e.what();
    } catch (const std::exception& e) {
        return std::string("other: ") + e.what();
    }
}

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

// No CUDA error left in the runtime's last-error slot.
void check_no_error_left(const std::string& after) {
    const cudaError_t e = cudaGetLastError();
    INFO("no CUDA error left behind " << after << ": " << cudaGetErrorName(e));
    CHECK(e == cudaSuccess);
}

struct device_input {
    std::vector<std::int32_t> host;
    std::int32_t* d = nullptr;
    Result* d_result = nullptr;
    Result want = 0;
    explicit device_input(std::size_t n) : host(n) {
        for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::int32_t>(i % 2001) - 1000 + static_cast<std::int32_t>(i % 7);
        want = preduce::seq::reduce(host.data(), n, R{});
        const bool ok = cudaMalloc(reinterpret_cast<void**>(&d), n * sizeof(std::int32_t)) == cudaSuccess &&
                        cudaMemcpy(d, host.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice) == cudaSuccess &&
                        cudaMalloc(reinterpret_cast<void**>(&d_result), sizeof(Result)) == cudaSuccess;
        if (!ok) FAIL("cannot set up the device input");
    }
    ~device_input() {
        cudaFree(d_result);
        cudaFree(d);
    }
    // The result reduce_async left in d_result, after its stream is done.
    Result result(cudaStream_t s) const {
        Result r = 0;
        if (cudaStreamSynchronize(s) != cudaSuccess ||
            cudaMemcpy(&r, d_result, sizeof r, cudaMemcpyDeviceToHost) != cudaSuccess)
            return want + 1;  // any wrong value: the caller reports the mismatch
        return r;
    }
    std::size_t n() const { return host.size(); }
};

// Takes every byte of device memory, down to 4 KiB allocations, until destroyed.
struct memory_hog {
    std::vector<void*> held;
    memory_hog() {
        for (std::size_t chunk = std::size_t{1} << 30; chunk >= (std::size_t{4} << 10); chunk /= 2) {
            void* p = nullptr;
            while (cudaMalloc(&p, chunk) == cudaSuccess) held.push_back(p);
            cudaGetLastError();
        }
        std::printf("holding %zu allocations\n", held.size());
    }
    ~memory_hog() {
        for (void* p : held) cudaFree(p);
    }
};

// After a refused input, the same stream and device still reduce correctly.
void next_call_works(const char* after) {
    INFO("the next call works after " << after);
    const device_input in(std::size_t{1} << 20);
    const std::string e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, cudaStreamPerThread); });
    CHECK(e == "");
    CHECK(in.result(cudaStreamPerThread) == in.want);
    check_no_error_left(std::string("after ") + after);
}

} // namespace

// The first reduce_async of a process allocates its workspace (a cached cudaMalloc on the
// default streams, preduce's pool on other streams); with no memory left both must be
// out_of_memory. A caller-supplied workspace and a single-block input allocate nothing
// and must still work. [exclusive]: it takes all device memory, so it runs alone.
TEST_CASE("out of device memory: reduce_async and reduce are out_of_memory, the caller's workspace and a single block "
          "still work, and everything works again after",
          "[exclusive]") {
    const device_input in(std::size_t{1} << 24);  // two-pass: needs a workspace
    cudaStream_t s = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    void* own_workspace = nullptr;
    const std::size_t ws = preduce::cuda::workspace_bytes<R>(in.n());
    REQUIRE(cudaMalloc(&own_workspace, ws) == cudaSuccess);
    {
        const memory_hog hog;
        std::string e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, cudaStreamPerThread); });
        std::printf("  %s\n", e.c_str());
        {
            INFO("per-thread default stream, workspace cudaMalloc: out_of_memory");
            CHECK_THAT(e, StartsWith("out_of_memory: "));
        }
        e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, s); });
        std::printf("  %s\n", e.c_str());
        {
            INFO("user stream, pool workspace: out_of_memory");
            CHECK_THAT(e, StartsWith("out_of_memory: "));
        }
        e = error_of([&] { (void)preduce::cuda::reduce(in.d, in.n(), R{}); });
        {
            INFO("preduce::cuda::reduce on device data: out_of_memory");
            CHECK_THAT(e, StartsWith("out_of_memory: "));
        }
        e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, own_workspace, ws, s); });
        {
            INFO("the caller's workspace: no allocation, right answer");
            CHECK(e == "");
            CHECK(in.result(s) == in.want);
        }
        // workspace_bytes() is 0 for what one block reduces: nothing to allocate either.
        const std::size_t one_block = 1000;
        CHECK(preduce::cuda::workspace_bytes<R>(one_block) == 0);
        e = error_of([&] { preduce::cuda::reduce_async(in.d, one_block, R{}, in.d_result, s); });
        {
            INFO("a single-block input works with device memory exhausted");
            CHECK(e == "");
            CHECK(in.result(s) == preduce::seq::reduce(in.host.data(), one_block, R{}));
        }
    }
    std::string e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, cudaStreamPerThread); });
    {
        INFO("per-thread default stream works again");
        CHECK(e == "");
        CHECK(in.result(cudaStreamPerThread) == in.want);
    }
    e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, s); });
    {
        INFO("user stream works again");
        CHECK(e == "");
        CHECK(in.result(s) == in.want);
    }
    check_no_error_left("");
    cudaFree(own_workspace);
    cudaStreamDestroy(s);
}

TEST_CASE("a caller workspace one byte short is invalid_argument, and the right size works") {
    const device_input in(std::size_t{1} << 22);
    const std::size_t ws = preduce::cuda::workspace_bytes<R>(in.n());
    INFO("workspace_bytes = " << ws);
    CHECK(ws > 0);  // a two-pass input needs a workspace
    void* w = nullptr;
    REQUIRE(cudaMalloc(&w, ws) == cudaSuccess);
    std::string e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, w, ws - 1, cudaStreamPerThread); });
    std::printf("  %s\n", e.c_str());
    CHECK_THAT(e, StartsWith("invalid_argument: ") && Contains("workspace"));
    e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, w, ws, cudaStreamPerThread); });
    {
        INFO("the right size works");
        CHECK(e == "");
        CHECK(in.result(cudaStreamPerThread) == in.want);
    }
    cudaFree(w);
}

// reduce_async reads in place. Pageable memory is readable by GPUs with pageable memory
// access (HMM or ATS), where the answer must be right; elsewhere it must be refused
// before a kernel faults on it.
TEST_CASE("pageable host input is read in place where the GPU can read it and refused with invalid_argument "
          "elsewhere, and the next call works") {
    const device_input in(std::size_t{1} << 20);
    int device = 0, pageable_access = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&pageable_access, cudaDevAttrPageableMemoryAccess, device);
    std::printf("cudaDevAttrPageableMemoryAccess = %d\n", pageable_access);
    const std::string e = error_of([&] {
        preduce::cuda::reduce_async(in.host.data(), in.n(), R{}, in.d_result, cudaStreamPerThread);
        if (cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess) throw std::runtime_error("the kernel faulted");
    });
    std::printf("  %s\n", e.empty() ? "returned" : e.c_str());
    if (pageable_access != 0) {
        INFO("pageable input read in place");
        CHECK(e == "");
        CHECK(in.result(cudaStreamPerThread) == in.want);
    } else {
        INFO("pageable input refused with invalid_argument");
        CHECK_THAT(e, StartsWith("invalid_argument: ") && Contains("pageable"));
    }
    next_call_works("a pageable input");
}

TEST_CASE("freed device memory is a preduce error before any kernel runs, and the next call works") {
    const device_input in(std::size_t{1} << 20);
    std::int32_t* freed = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&freed), in.n() * sizeof(std::int32_t)) == cudaSuccess);
    cudaFree(freed);
    const std::string e = error_of([&] {
        preduce::cuda::reduce_async(freed, in.n(), R{}, in.d_result, cudaStreamPerThread);
        if (cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess) throw std::runtime_error("the kernel faulted");
    });
    std::printf("  %s\n", e.empty() ? "returned" : e.c_str());
    CHECK_THAT(e, StartsWith("invalid_argument: ") || StartsWith("preduce::error: "));
    next_call_works("freed device memory");
}

