// Failures of preduce::cuda::reduce_async, the header-only API that reads its input in
// place and leaves the result in device memory: no device memory for the workspace, a
// workspace too small, and inputs the GPU cannot read (pageable host memory, freed device
// memory). Each must be a preduce exception with the CUDA context intact, so that the
// next call works; a kernel that faulted on a bad address would instead end the context
// for the rest of the process. A plain program (nvcc), one scenario per process:
// exit 0 passes, 1 fails, 77 skips (no GPU).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "preduce/cuda/reduce.cuh"
#include "preduce/errors.hpp"
#include "preduce/ops.hpp"
#include "preduce/reducers.hpp"
#include "preduce/seq/reduce.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    if (!ok) ++failures;
}

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

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

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
        if (!ok) {
            std::printf("FAILED: cannot set up the device input\n");
            std::exit(1);
        }
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

// The first reduce_async of a process allocates its workspace (a cached cudaMalloc on the
// default streams, preduce's pool on other streams); with no memory left both must be
// out_of_memory. A caller-supplied workspace and a single-block input allocate nothing
// and must still work.
void out_of_memory() {
    const device_input in(std::size_t{1} << 24);  // two-pass: needs a workspace
    cudaStream_t s = nullptr;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) std::exit(1);
    void* own_workspace = nullptr;
    const std::size_t ws = preduce::cuda::workspace_bytes<R>(in.n());
    if (cudaMalloc(&own_workspace, ws) != cudaSuccess) std::exit(1);
    {
        const memory_hog hog;
        std::string e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, cudaStreamPerThread); });
        std::printf("  %s\n", e.c_str());
        expect(starts_with(e, "out_of_memory: "), "per-thread default stream, workspace cudaMalloc: out_of_memory");
        e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, s); });
        std::printf("  %s\n", e.c_str());
        expect(starts_with(e, "out_of_memory: "), "user stream, pool workspace: out_of_memory");
        e = error_of([&] { (void)preduce::cuda::reduce(in.d, in.n(), R{}); });
        expect(starts_with(e, "out_of_memory: "), "preduce::cuda::reduce on device data: out_of_memory");
        e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, own_workspace, ws, s); });
        expect(e.empty() && in.result(s) == in.want, "the caller's workspace: no allocation, right answer " + e);
        // workspace_bytes() is 0 for what one block reduces: nothing to allocate either.
        const std::size_t one_block = 1000;
        expect(preduce::cuda::workspace_bytes<R>(one_block) == 0, "a single-block input needs no workspace");
        e = error_of([&] { preduce::cuda::reduce_async(in.d, one_block, R{}, in.d_result, s); });
        expect(e.empty() && in.result(s) == preduce::seq::reduce(in.host.data(), one_block, R{}),
               "a single-block input works with device memory exhausted " + e);
    }
    std::string e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, cudaStreamPerThread); });
    expect(e.empty() && in.result(cudaStreamPerThread) == in.want, "per-thread default stream works again " + e);
    e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, s); });
    expect(e.empty() && in.result(s) == in.want, "user stream works again " + e);
    expect(cudaGetLastError() == cudaSuccess, "no CUDA error left behind");
    cudaFree(own_workspace);
    cudaStreamDestroy(s);
}

void small_workspace() {
    const device_input in(std::size_t{1} << 22);
    const std::size_t ws = preduce::cuda::workspace_bytes<R>(in.n());
    expect(ws > 0, "a two-pass input needs a workspace (" + std::to_string(ws) + " bytes)");
    void* w = nullptr;
    if (cudaMalloc(&w, ws) != cudaSuccess) std::exit(1);
    std::string e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, w, ws - 1, cudaStreamPerThread); });
    std::printf("  %s\n", e.c_str());
    expect(starts_with(e, "invalid_argument: ") && e.find("workspace") != std::string::npos,
           "a workspace one byte short is invalid_argument");
    e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, w, ws, cudaStreamPerThread); });
    expect(e.empty() && in.result(cudaStreamPerThread) == in.want, "the right size works " + e);
    cudaFree(w);
}

// After a refused input, the same stream and device still reduce correctly.
void next_call_works(const char* after) {
    const device_input in(std::size_t{1} << 20);
    const std::string e = error_of([&] { preduce::cuda::reduce_async(in.d, in.n(), R{}, in.d_result, cudaStreamPerThread); });
    expect(e.empty() && in.result(cudaStreamPerThread) == in.want, std::string("the next call works after ") + after + " " + e);
    expect(cudaGetLastError() == cudaSuccess, std::string("no CUDA error left behind after ") + after);
}

// reduce_async reads in place. Pageable memory is readable by GPUs with pageable memory
// access (HMM or ATS), where the answer must be right; elsewhere it must be refused
// before a kernel faults on it.
void pageable_input() {
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
    if (pageable_access != 0) expect(e.empty() && in.result(cudaStreamPerThread) == in.want, "pageable input read in place");
    else expect(starts_with(e, "invalid_argument: ") && e.find("pageable") != std::string::npos,
                "pageable input refused with invalid_argument");
    next_call_works("a pageable input");
}

void freed_input() {
    const device_input in(std::size_t{1} << 20);
    std::int32_t* freed = nullptr;
    if (cudaMalloc(reinterpret_cast<void**>(&freed), in.n() * sizeof(std::int32_t)) != cudaSuccess) std::exit(1);
    cudaFree(freed);
    const std::string e = error_of([&] {
        preduce::cuda::reduce_async(freed, in.n(), R{}, in.d_result, cudaStreamPerThread);
        if (cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess) throw std::runtime_error("the kernel faulted");
    });
    std::printf("  %s\n", e.empty() ? "returned" : e.c_str());
    expect(starts_with(e, "invalid_argument: ") || starts_with(e, "preduce::error: "),
           "freed device memory is a preduce error before any kernel runs");
    next_call_works("freed device memory");
}

} // namespace

int main(int argc, char** argv) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("SKIPPED: no CUDA device\n");
        return 77;
    }
    const std::string scenario = argc > 1 ? argv[1] : "";
    if (scenario == "out_of_memory") out_of_memory();
    else if (scenario == "small_workspace") small_workspace();
    else if (scenario == "pageable_input") pageable_input();
    else if (scenario == "freed_input") freed_input();
    else {
        std::fprintf(stderr, "usage: %s out_of_memory|small_workspace|pageable_input|freed_input\n", argv[0]);
        return 2;
    }
    std::printf("%s: %d failure(s)\n", scenario.c_str(), failures);
    return failures == 0 ? 0 : 1;
}
