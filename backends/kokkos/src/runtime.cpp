#include "preduce/kokkos/runtime.hpp"

#include <Kokkos_Core.hpp>

#include <atomic>
#include <cerrno>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <type_traits>

#include "preduce/errors.hpp"

namespace preduce::kokkos {

namespace {

// Whether the host execution space is Kokkos::Threads (see launch() in runtime.hpp).
#if defined(KOKKOS_ENABLE_THREADS)
constexpr bool threads_space = std::is_same_v<Kokkos::DefaultHostExecutionSpace, Kokkos::Threads>;
#else
constexpr bool threads_space = false;
#endif

// A thread that runs one task at a time for whoever holds launch_mutex: where a Kokkos::Threads
// that preduce initializes lives, from its initialize to its finalize.
class own_thread {
public:
    own_thread() : thread_([this] { serve(); }) {}

    // Runs task(arg) there and waits; rethrows what it threw.
    void run(void (*task)(void*), void* arg) {
        std::unique_lock<std::mutex> lock(m_);
        task_ = task;
        arg_ = arg;
        done_ = false;
        wake_.notify_all();
        wake_.wait(lock, [this] { return done_; });
        if (error_) {
            const std::exception_ptr e = error_;
            error_ = nullptr;
            std::rethrow_exception(e);
        }
    }

    void stop() {
        {
            std::lock_guard<std::mutex> lock(m_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }

private:
    void serve() {
        std::unique_lock<std::mutex> lock(m_);
        for (;;) {
            wake_.wait(lock, [this] { return task_ != nullptr || stop_; });
            if (task_ == nullptr) return;
            void (*task)(void*) = task_;
            task_ = nullptr;
            lock.unlock();
            std::exception_ptr error;
            try {
                task(arg_);
            } catch (...) {
                error = std::current_exception();
            }
            lock.lock();
            error_ = error;
            done_ = true;
            wake_.notify_all();
        }
    }

    std::mutex m_;
    std::condition_variable wake_;
    void (*task_)(void*) = nullptr;
    void* arg_ = nullptr;
    std::exception_ptr error_;
    bool done_ = false;
    bool stop_ = false;
    std::thread thread_;
};

// Constant-initialized, trivially destructible in practice: usable from atexit handlers.
std::mutex launch_mutex;
bool we_initialized = false;             // guarded by launch_mutex
bool hook_pushed = false;                // guarded by launch_mutex
own_thread* kokkos_thread = nullptr;     // guarded by launch_mutex; never freed before exit
std::atomic<bool> seen_finalize{false};  // set by a Kokkos finalize hook, which may run on any thread

// Runs task(arg) on kokkos_thread when there is one, else on the calling thread.
void run_there(void (*task)(void*), void* arg) {
    if (kokkos_thread != nullptr) kokkos_thread->run(task, arg);
    else task(arg);
}

// atexit handler, registered right after our Kokkos::initialize so that it runs before
// the static destructors and runtime teardown (CUDA's) that initialize set up. A Kokkos
// still initialized after its finalize hooks ran is one whose finalize threw part way (the
// application's finalize of a Kokkos::Threads from a thread other than ours): finishing it
// on our thread leaves no half-finalized space for Kokkos' static destructors.
void finalize_ours() noexcept {
    std::lock_guard<std::mutex> lock(launch_mutex);
    if (we_initialized && Kokkos::is_initialized()) {
        try {
            run_there([](void*) { Kokkos::finalize(); }, nullptr);
        } catch (...) {  // nothing to report to at exit; the process ends either way
        }
    }
    we_initialized = false;
    if (kokkos_thread != nullptr) {
        kokkos_thread->stop();
        delete kokkos_thread;
        kokkos_thread = nullptr;
    }
}

bool kokkos_finalized() noexcept {
    if (seen_finalize.load()) return true;
#if KOKKOS_VERSION >= 30700
    return Kokkos::is_finalized();
#else
    return false;  // Kokkos 3.4 cannot say; 3.x re-initializes after finalize without complaint
#endif
}

[[noreturn]] void bad_variable(const char* name, const char* value, const char* want) {
    throw backend_unavailable(std::string("preduce::reduce(kokkos): environment variable ") + name + "='" + value +
                              "' is not " + want + ", and Kokkos::initialize would stop the process on it");
}

// The KOKKOS_* variables on which Kokkos::initialize aborts the process (Kokkos 4; 3.4 threw
// for most of them), checked by Kokkos' own rules: an integer is what strtol reads from the
// start of the value, a boolean is yes/true/1 or no/false/0 in any case.
void check_environment() {
    const auto integer = [](const char* name, long least) {
        const char* v = std::getenv(name);
        if (v == nullptr) return;
        errno = 0;
        char* end = nullptr;
        const long x = std::strtol(v, &end, 10);
        if (end == v || errno == ERANGE || x > INT_MAX || x < INT_MIN) bad_variable(name, v, "an integer");
        if (x < least) bad_variable(name, v, least == 1 ? "at least 1" : "at least 0");
    };
    integer("KOKKOS_NUM_THREADS", 1);
    integer("KOKKOS_DEVICE_ID", 0);
    static const std::regex boolean("(yes|true|1)|(no|false|0)", std::regex_constants::icase | std::regex_constants::egrep);
    for (const char* name : {"KOKKOS_DISABLE_WARNINGS", "KOKKOS_PRINT_CONFIGURATION", "KOKKOS_TUNE_INTERNALS"}) {
        const char* v = std::getenv(name);
        if (v != nullptr && !std::regex_match(v, boolean)) bad_variable(name, v, "yes, true, 1, no, false or 0");
    }
    if (const char* v = std::getenv("KOKKOS_MAP_DEVICE_ID_BY")) {
        if (std::string(v) != "mpi_rank" && std::string(v) != "random") bad_variable("KOKKOS_MAP_DEVICE_ID_BY", v, "mpi_rank or random");
    }
    const char* profile = std::getenv("KOKKOS_PROFILE_LIBRARY");
    const char* tools = std::getenv("KOKKOS_TOOLS_LIBS");
    if (profile != nullptr && tools != nullptr && std::string(profile) != tools)
        bad_variable("KOKKOS_PROFILE_LIBRARY", profile, "the same as KOKKOS_TOOLS_LIBS");
}

// Kokkos::initialize as every version has it (argc/argv rather than InitArguments (3.x) or
// InitializationSettings (3.7+)); Kokkos still reads the KOKKOS_* variables.
void initialize_kokkos(void*) {
    int argc = 1;
    char program[] = "preduce";
    char* argv[] = {program, nullptr};
    Kokkos::initialize(argc, argv);
}

// Kokkos initialized for preduce's launches (launch_mutex held). Finalized means finalized
// by the application, or finalized part way: a Kokkos::Threads of ours whose finalize the
// application called from its own thread still reports itself initialized.
void ensure_initialized() {
    if (kokkos_finalized() && (!Kokkos::is_initialized() || kokkos_thread != nullptr))
        throw backend_unavailable(
            "preduce::reduce(kokkos): Kokkos has been finalized and cannot be initialized again in this "
            "process; reduce before Kokkos::finalize() (e.g. keep a Kokkos::ScopeGuard alive in main)");
    if (!Kokkos::is_initialized()) {
        check_environment();
        if (threads_space && kokkos_thread == nullptr) kokkos_thread = new own_thread();
        try {
            run_there(initialize_kokkos, nullptr);
        } catch (const std::exception& e) {
            throw backend_unavailable(std::string("preduce::reduce(kokkos): Kokkos::initialize failed: ") + e.what());
        }
        we_initialized = true;
        std::atexit(finalize_ours);
    }
    if (!hook_pushed) {
        // Whoever finalizes this Kokkos (the application, or finalize_ours), later calls
        // get backend_unavailable instead of a second initialize, which Kokkos 4 forbids.
        Kokkos::push_finalize_hook([] { seen_finalize.store(true); });
        hook_pushed = true;
    }
}

} // namespace

bool finalized() noexcept { return kokkos_finalized(); }

namespace detail {

void run_launch(void (*task)(void*), void* arg) {
    std::lock_guard<std::mutex> lock(launch_mutex);
    ensure_initialized();
    run_there(task, arg);
}

} // namespace detail

} // namespace preduce::kokkos
