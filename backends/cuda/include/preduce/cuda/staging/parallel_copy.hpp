#pragma once
// Copying pageable memory into pinned staging is the slowest step of reducing host data
// on the GPU: one core copies several times slower than the PCIe or C2C link carries
// (docs/cuda-tuning.md). A few resident workers share each large copy with the calling
// thread. One copy at a time: a second
// caller that finds the workers busy copies alone rather than waiting.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace preduce::cuda::detail {

class copy_pool {
public:
    static copy_pool& instance() {
        static copy_pool pool(std::clamp(static_cast<int>(std::thread::hardware_concurrency()) / 2, 0, 7));
        return pool;
    }

    void copy(void* dst, const void* src, std::size_t bytes) {
        constexpr std::size_t piece_bytes = std::size_t{1} << 20;
        std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
        if (workers_.empty() || bytes < 2 * piece_bytes || !busy.owns_lock()) {
            std::memcpy(dst, src, bytes);
            return;
        }
        {
            // Job parameters change only while no worker is inside work(): a worker that
            // woke late for the previous job must not read half of the next one.
            std::unique_lock<std::mutex> lock(m_);
            done_.wait(lock, [&] { return active_ == 0; });
            dst_ = static_cast<char*>(dst);
            src_ = static_cast<const char*>(src);
            bytes_ = bytes;
            piece_ = std::max(piece_bytes, (bytes + workers_.size()) / (workers_.size() + 1));
            next_.store(0);
            pieces_left_ = (bytes + piece_ - 1) / piece_;
            ++generation_;
        }
        wake_.notify_all();
        work();
        std::unique_lock<std::mutex> lock(m_);
        done_.wait(lock, [&] { return pieces_left_ == 0 && active_ == 0; });
    }

    ~copy_pool() {
        {
            const std::lock_guard<std::mutex> lock(m_);
            stop_ = true;
        }
        wake_.notify_all();
        for (auto& t : workers_) t.join();
    }

private:
    explicit copy_pool(int workers) {
        for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { loop(); });
    }

    void work() {
        std::size_t finished = 0;
        for (;;) {
            const std::size_t k = next_.fetch_add(1);
            const std::size_t begin = k * piece_;
            if (begin >= bytes_) break;
            std::memcpy(dst_ + begin, src_ + begin, std::min(piece_, bytes_ - begin));
            ++finished;
        }
        const std::lock_guard<std::mutex> lock(m_);
        pieces_left_ -= finished;
    }

    void loop() {
        std::size_t seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(m_);
                wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
                if (stop_) return;
                seen = generation_;
                ++active_;
            }
            work();
            {
                const std::lock_guard<std::mutex> lock(m_);
                --active_;
            }
            done_.notify_all();
        }
    }

    std::vector<std::thread> workers_;
    std::mutex busy_;  // one copy at a time
    std::mutex m_;
    std::condition_variable wake_, done_;
    bool stop_ = false;
    std::size_t generation_ = 0;
    std::size_t active_ = 0;  // workers inside work()
    char* dst_ = nullptr;
    const char* src_ = nullptr;
    std::size_t bytes_ = 0, piece_ = 1, pieces_left_ = 0;
    std::atomic<std::size_t> next_{0};
};

} // namespace preduce::cuda::detail
