// What every loopnest benchmark binary shares: the copy-bandwidth reference, the JSON context,
// timing with fences, and the counters every family reports.
#ifndef LOOPNEST_BENCH_COMMON_HPP
#define LOOPNEST_BENCH_COMMON_HPP

#include <loopnest/kokkos_compat.hpp>

#include <benchmark/benchmark.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

#include "loopnest_git_commit.hpp"

namespace loopnest_bench {

using exec_space = Kokkos::DefaultExecutionSpace;
using mem_space  = exec_space::memory_space;

// Bytes per second of Kokkos::deep_copy between two double Views of `gib` GiB each, counting
// bytes read plus bytes written; the best of `reps` fenced copies after one warm-up.
inline double measure_copy_bandwidth(double gib, int reps) {
  const auto n = static_cast<std::size_t>(gib * (1u << 30) / sizeof(double));
  Kokkos::View<double*, mem_space> src(Kokkos::view_alloc(Kokkos::WithoutInitializing, "copy_src"),
                                       n);
  Kokkos::View<double*, mem_space> dst(Kokkos::view_alloc(Kokkos::WithoutInitializing, "copy_dst"),
                                       n);
  Kokkos::deep_copy(src, 1.0);
  const exec_space exec;
  double best = 0.0;
  for (int r = -1; r < reps; ++r) {
    exec.fence();
    const auto t0 = std::chrono::steady_clock::now();
    Kokkos::deep_copy(exec, dst, src);
    exec.fence();
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    if (r >= 0) {
      best = std::max(best, 2.0 * n * sizeof(double) / dt.count());
    }
  }
  return best;
}

inline double& copy_bandwidth() {
  static double bw = 0.0;
  return bw;
}

inline std::string device_name() {
#if defined(KOKKOS_ENABLE_CUDA)
  cudaDeviceProp prop{};
  int device = 0;
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
    return prop.name;
  }
  return "unknown CUDA device";
#else
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      return line.substr(line.find(':') + 2);
    }
  }
  return "unknown host";
#endif
}

inline std::string cuda_version() {
#if defined(KOKKOS_ENABLE_CUDA)
  int runtime = 0, driver = 0;
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess ||
      cudaDriverGetVersion(&driver) != cudaSuccess) {
    return "unknown";
  }
  auto text = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  return "runtime " + text(runtime) + ", driver " + text(driver);
#else
  return "none";
#endif
}

inline std::string kokkos_version() {
  return std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) +
         "." + std::to_string(KOKKOS_VERSION % 100);
}

#if defined(KOKKOS_ENABLE_CUDA)
inline void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  }
}

// Keeps the stream busy for `ns` nanoseconds, so that the host can queue a batch of launches
// behind it before the first of them starts.
__global__ void hold_stream(unsigned long long ns) {
  unsigned long long t0 = 0, t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

// Device time of a batch of launches: CUDA events on the execution space's stream around
// launches queued behind hold_stream. A launch-bound kernel is then timed without the host's
// launch cost, which a real time step mostly hides behind the kernels queued before it; a gap
// the host cannot hide (a launch that waits for the device, a batch queued slower than the
// hold) still counts, and the hold grows to twice the host's time for the batch before, up to
// max_hold_seconds: a batch of more launches than the stream's queue holds blocks the host until
// the hold ends, however long it is, so an unbounded hold would double on every batch (its launch
// gaps past the queue are then part of the time, as in a real run).
class batch_timer {
 public:
  explicit batch_timer(const exec_space& exec) : m_stream(exec.cuda_stream()) {
    check_cuda(cudaEventCreate(&m_start), "cudaEventCreate");
    check_cuda(cudaEventCreate(&m_stop), "cudaEventCreate");
  }
  batch_timer(const batch_timer&)            = delete;
  batch_timer& operator=(const batch_timer&) = delete;
  ~batch_timer() {
    cudaEventDestroy(m_start);
    cudaEventDestroy(m_stop);
  }
  void start() {
    hold_stream<<<1, 1, 0, m_stream>>>(static_cast<unsigned long long>(m_hold_seconds * 1e9));
    check_cuda(cudaGetLastError(), "hold_stream launch");
    check_cuda(cudaEventRecord(m_start, m_stream), "cudaEventRecord");
    m_host_start = std::chrono::steady_clock::now();
  }
  double stop() {
    check_cuda(cudaEventRecord(m_stop, m_stream), "cudaEventRecord");
    const std::chrono::duration<double> host = std::chrono::steady_clock::now() - m_host_start;
    m_hold_seconds = std::min(max_hold_seconds, std::max(m_hold_seconds, 2.0 * host.count()));
    check_cuda(cudaEventSynchronize(m_stop), "cudaEventSynchronize");
    float ms = 0.0f;
    check_cuda(cudaEventElapsedTime(&ms, m_start, m_stop), "cudaEventElapsedTime");
    return 1e-3 * ms;
  }
  static const char* method() {
    return "CUDA events around batches of back-to-back launches queued behind a hold kernel "
           "(device time; gaps the host cannot hide included)";
  }

 private:
  cudaStream_t m_stream;
  cudaEvent_t m_start{}, m_stop{};
  static constexpr double max_hold_seconds = 0.1;
  double m_hold_seconds                    = 1e-3;
  std::chrono::steady_clock::time_point m_host_start;
};
#else
// Wall time of a batch of launches between two fences.
class batch_timer {
 public:
  explicit batch_timer(const exec_space& exec) : m_exec(exec) {}
  void start() {
    m_exec.fence();
    m_start = std::chrono::steady_clock::now();
  }
  double stop() {
    m_exec.fence();
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - m_start;
    return dt.count();
  }
  static const char* method() { return "wall time between fences around batches of launches"; }

 private:
  exec_space m_exec;
  std::chrono::steady_clock::time_point m_start;
};
#endif

// Times `launch` back to back in batches of 256 (batch_timer), no fence inside a batch, and
// hands Google Benchmark each batch's time (register with UseManualTime()); the counters of
// every loopnest benchmark follow from it. The caller has already run and verified the kernel,
// which doubles as the warm-up.
inline void time_launches(benchmark::State& state, double ideal_bytes, double cell_vars,
                          const std::function<void()>& launch) {
  using benchmark::Counter;
  constexpr benchmark::IterationCount batch = 256;
  const exec_space exec;
  exec.fence();
  batch_timer timer(exec);
  benchmark::IterationCount done = 0;
  for (auto _ : state) {
    if (done % batch == 0) {
      timer.start();
    }
    launch();
    ++done;
    state.SetIterationTime(done % batch == 0 || done == state.max_iterations ? timer.stop() : 0.0);
  }
  state.counters["bytes_per_second"] = Counter(ideal_bytes, Counter::kIsIterationInvariantRate);
  state.counters["pct_copy"] =
      Counter(100.0 * ideal_bytes / copy_bandwidth(), Counter::kIsIterationInvariantRate);
  state.counters["ns_per_cell_var"] =
      Counter(1e-9 * cell_vars, Counter::kIsIterationInvariantRate | Counter::kInvert);
}

// The shortest of `calls` fenced calls of f, in seconds.
template <class F>
double shortest(int calls, const F& f) {
  double best = 1e30;
  for (int c = 0; c < calls; ++c) {
    exec_space().fence();
    const auto start = std::chrono::steady_clock::now();
    f();
    exec_space().fence();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// The one live W of a benchmark binary, built from `args` and rebuilt when `key` changes, so
// that consecutive benchmarks of one shape share their Views; released at Kokkos::finalize,
// which must not find Views alive.
template <class W, class Key, class... Args>
W& shared_workspace(const Key& key, const Args&... args) {
  static std::unique_ptr<W> ws;
  static Key current{};
  static const bool released_at_finalize = [] {
    Kokkos::push_finalize_hook([] { ws.reset(); });
    return true;
  }();
  (void)released_at_finalize;
  if (!ws || !(current == key)) {
    ws.reset();
    ws      = std::make_unique<W>(args...);
    current = key;
  }
  return *ws;
}

// The precision part of a benchmark name.
template <class T>
const char* precision_name() {
  return sizeof(T) == 4 ? "fp32" : "fp64";
}

// Removes --loopnest_copy_gib=X from argv (Google Benchmark refuses flags it does not know).
inline double take_copy_gib(int& argc, char** argv) {
  double gib = 1.0;
  int out    = 1;
  for (int a = 1; a < argc; ++a) {
    const char* flag = "--loopnest_copy_gib=";
    if (std::strncmp(argv[a], flag, std::strlen(flag)) == 0) {
      char* end = nullptr;
      gib       = std::strtod(argv[a] + std::strlen(flag), &end);
      if (*end != '\0' || !(gib > 0.0)) {
        throw std::invalid_argument(std::string("--loopnest_copy_gib: '") +
                                    (argv[a] + std::strlen(flag)) +
                                    "' is not a positive number of GiB");
      }
    } else {
      argv[out++] = argv[a];
    }
  }
  argc = out;
  return gib;
}

// main() of every loopnest benchmark binary: Kokkos up, copy reference measured, context
// recorded, the family's benchmarks registered and run.
inline int run(int argc, char** argv, const std::function<void()>& register_family) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  double gib = 1.0;
  try {
    gib = take_copy_gib(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    return 2;
  }
  copy_bandwidth() = measure_copy_bandwidth(gib, 10);
  benchmark::AddCustomContext("device", device_name());
  benchmark::AddCustomContext("execution_space", exec_space::name());
  benchmark::AddCustomContext("kokkos_version", kokkos_version());
  benchmark::AddCustomContext("cuda_version", cuda_version());
  benchmark::AddCustomContext("git_commit", LOOPNEST_GIT_COMMIT);
  benchmark::AddCustomContext("copy_bytes_per_second", std::to_string(copy_bandwidth()));
  benchmark::AddCustomContext("copy_gib", std::to_string(gib));
  benchmark::AddCustomContext("timing", batch_timer::method());
  register_family();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace loopnest_bench

#endif
