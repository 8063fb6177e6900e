#pragma once
// One resident host thread per GPU, created at first use, for work that must run on several
// GPUs at once: the host data path blocks its thread while it copies pageable memory into
// pinned staging, and a GPU's thread-local caches (staging buffers, workspace, per-thread
// stream) then stay with that GPU's thread for the life of the process.
#include <cuda_runtime_api.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "preduce/cuda/runtime/check.hpp"

namespace preduce::cuda::detail::multi {

// Jobs run in submission order on their GPU's thread.
class device_workers {
public:
    static device_workers& instance() {
        // Never destroyed: the threads keep CUDA objects in thread-local caches (pinned
        // staging, workspace), which must not be torn down from static destructors after
        // the CUDA runtime's own exit handlers; idle threads block on a condition variable
        // and end with the process.
        static device_workers* w = new device_workers;
        return *w;
    }

    // Runs job(i) on the thread of devices[i] (distinct devices), all at once, and waits for
    // every one; then rethrows the first failure in index order.
    void run_all(const std::vector<int>& devices, const std::function<void(std::size_t)>& job) {
        struct shared_state {
            std::mutex m;
            std::condition_variable cv;
            std::size_t left = 0;
            std::vector<std::exception_ptr> errors;
        } st;
        st.left = devices.size();
        st.errors.resize(devices.size());
        for (std::size_t i = 0; i < devices.size(); ++i) {
            const int device = devices[i];
            worker_for(device).post([&st, &job, i, device] {
                try {
                    check(cudaSetDevice(device), "cudaSetDevice");
                    job(i);
                } catch (...) {
                    st.errors[i] = std::current_exception();
                    cudaGetLastError();  // this worker thread's error state is preduce's own: clean it
                }
                // Notify while holding the lock: once left reaches 0 the caller may return and
                // destroy st.
                const std::lock_guard<std::mutex> lock(st.m);
                --st.left;
                st.cv.notify_all();
            });
        }
        {
            std::unique_lock<std::mutex> lock(st.m);
            st.cv.wait(lock, [&] { return st.left == 0; });
        }
        for (const auto& e : st.errors)
            if (e) std::rethrow_exception(e);
    }

private:
    class worker {
    public:
        worker() : thread_([this] { loop(); }) { thread_.detach(); }
        void post(std::function<void()> task) {
            {
                const std::lock_guard<std::mutex> lock(m_);
                queue_.push_back(std::move(task));
            }
            cv_.notify_one();
        }

    private:
        void loop() {
            for (;;) {
                std::function<void()> task;
                {
                    std::unique_lock<std::mutex> lock(m_);
                    cv_.wait(lock, [&] { return !queue_.empty(); });
                    task = std::move(queue_.front());
                    queue_.pop_front();
                }
                task();  // never throws: run_all's wrapper catches
            }
        }
        std::mutex m_;
        std::condition_variable cv_;
        std::deque<std::function<void()>> queue_;
        std::thread thread_;
    };

    worker& worker_for(int device) {
        const std::lock_guard<std::mutex> lock(m_);
        auto& w = workers_[device];
        if (!w) w = std::make_unique<worker>();
        return *w;
    }

    std::mutex m_;
    std::map<int, std::unique_ptr<worker>> workers_;
};

} // namespace preduce::cuda::detail::multi
