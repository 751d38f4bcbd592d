// Family `diffusion`: one 5-point diffusion step per iteration under every stepwise loopnest
// variant, FP32 and FP64, and (when CUDA is on) the hand-written CUDA peer: 32x8 blocks, one cell
// per thread. Every entry first runs one step from a fresh random field into a poisoned output
// and compares it with the serial host reference. Then `diffusion/advance`: N steps per
// iteration, the best stepwise variants beside the temporal one (several steps per pass), each
// first compared bit for bit on the device with the flat variant's N steps.
#include <loopnest/diffusion.hpp>
#include <loopnest/tools/field_compare.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"

namespace {

using namespace loopnest_bench;
using loopnest::diffusion_variant;

const int sizes[] = {256, 1024, 2048, 8192, 16384};

// A random field and the host reference one step later, kept while consecutive benchmarks share
// the precision and size (the reference at 16384^2 takes about a second).
template <class T>
struct problem {
  int n;
  std::vector<T> initial, after_one;

  explicit problem(int n_) : n(n_), initial(static_cast<std::size_t>(n_) * n_) {
    std::mt19937_64 gen(20261129u + static_cast<unsigned>(n_));
    std::uniform_real_distribution<double> dist(0.0, 1.0);
    for (auto& x : initial) {
      x = static_cast<T>(dist(gen));
    }
    after_one = loopnest::diffusion_reference<T>(n, n, 1, initial);
  }
};

template <class T>
using field_view = loopnest::Impl::diffusion_view<T, mem_space>;

// NaN in every interior cell of the array the next step writes.
template <class T>
void poison_interior(const field_view<T>& v, int n) {
  const T nan = std::numeric_limits<T>::quiet_NaN();  // a host function: not callable in kernels
  Kokkos::parallel_for(
      "poison", Kokkos::MDRangePolicy<exec_space, Kokkos::Rank<2>>({1, 1}, {n - 1, n - 1}),
      KOKKOS_LAMBDA(int i, int j) { v(i, j) = nan; });
}

// Empty when `got` (nx * ny host values) matches the reference step within the diffusion study's
// tolerance, else what went wrong.
template <class T>
std::string verify(const std::vector<T>& got, const problem<T>& p) {
  const auto prec = loopnest::precision_of<T>();
  const auto c    = loopnest::compare_fields(got.data(), p.after_one.data(), p.after_one.size(),
                                             loopnest::default_tolerance(prec, prec));
  if (c.pass()) {
    return {};
  }
  return std::to_string(c.failures) +
         " cells differ from the host reference (max |c - r| = " + std::to_string(c.max_abs) + ")";
}

void add_step_counters(benchmark::State& state, double interior) {
  using benchmark::Counter;
  state.counters["gcells_per_second"] =
      Counter(1e-9 * interior, Counter::kIsIterationInvariantRate);
  state.counters["us_per_step"] =
      Counter(1e-6, Counter::kIsIterationInvariantRate | Counter::kInvert);
}

template <class T>
double step_bytes(int n) {
  return 2.0 * sizeof(T) * (n - 2.0) * (n - 2.0);
}

template <class T, diffusion_variant V>
void bm_variant(benchmark::State& state, int n, const loopnest::tile& t) {
  const auto& p = shared_workspace<problem<T>>(n, n);
  loopnest::diffusion_solver<T, V, exec_space> solver(exec_space(), n, n, T(0.1), t);
  solver.set_field(p.initial);
  poison_interior<T>(solver.next(), n);
  solver.advance(1);
  if (const auto wrong = verify(solver.field(), p); !wrong.empty()) {
    state.SkipWithError(wrong.c_str());
    return;
  }
  time_launches(state, step_bytes<T>(n), (n - 2.0) * (n - 2.0), [&] { solver.advance(1); });
  add_step_counters(state, (n - 2.0) * (n - 2.0));
}

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
// The peer: what a CUDA programmer writes first, restrict-qualified, on the solver's arrays.
template <class T>
__global__ void peer_step(const T* __restrict__ u, T* __restrict__ v, int nx, int ny, int pitch,
                          T alpha) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  const int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i < nx - 1 && j < ny - 1) {
    const std::size_t c = i + static_cast<std::size_t>(pitch) * j;
    v[c] = u[c] + alpha * (u[c - 1] + u[c + 1] + u[c - pitch] + u[c + pitch] - T(4) * u[c]);
  }
}

template <class T>
std::string launch_peer(const field_view<T>& u, const field_view<T>& v, int n) {
  const dim3 block(32, 8);
  const dim3 grid((n - 2 + 31) / 32, (n - 2 + 7) / 8);
  peer_step<T><<<grid, block, 0, exec_space().cuda_stream()>>>(
      u.data(), v.data(), n, n, static_cast<int>(u.extent(0)), T(0.1));
  const cudaError_t e = cudaGetLastError();
  return e == cudaSuccess ? std::string() : std::string("peer launch: ") + cudaGetErrorString(e);
}

template <class T>
void bm_peer(benchmark::State& state, int n) {
  const auto& p = shared_workspace<problem<T>>(n, n);
  // The solver only holds the arrays and the initial field; the peer steps them itself.
  loopnest::diffusion_solver<T, diffusion_variant::flat, exec_space> arrays(exec_space(), n, n);
  arrays.set_field(p.initial);
  field_view<T> u = arrays.current(), v = arrays.next();
  poison_interior<T>(v, n);
  std::string wrong = launch_peer(u, v, n);
  if (wrong.empty()) {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    std::vector<T> got(p.initial.size());
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        got[static_cast<std::size_t>(i) + std::size_t(n) * j] = host(i, j);
      }
    }
    wrong = verify(got, p);
  }
  if (!wrong.empty()) {
    state.SkipWithError(wrong.c_str());
    return;
  }
  time_launches(state, step_bytes<T>(n), (n - 2.0) * (n - 2.0), [&] {
    launch_peer(u, v, n);
    std::swap(u, v);
  });
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    state.SkipWithError(cudaGetErrorString(e));
    return;
  }
  add_step_counters(state, (n - 2.0) * (n - 2.0));
}
#endif

// ----------------------------------------------------------------------------------------
// diffusion/advance: N steps per iteration.

// The flat variant's field after `steps` steps from problem<T>'s random field, on the device:
// what every advance entry of that size must reproduce bit for bit.
template <class T>
struct advanced_reference {
  loopnest::diffusion_solver<T, diffusion_variant::flat, exec_space> solver;

  advanced_reference(int n, int steps) : solver(exec_space(), n, n) {
    solver.set_field(shared_workspace<problem<T>>(n, n).initial);
    solver.advance(steps);
    exec_space().fence();
  }
};

// Cells (i < n, j < n) whose bits differ between two fields, counted on the device.
template <class T>
long long differing_cells(const field_view<T>& a, const field_view<T>& b, int n) {
  using bits      = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  long long count = 0;
  Kokkos::parallel_reduce(
      "compare_bits",
      Kokkos::MDRangePolicy<exec_space, Kokkos::Rank<2>>(exec_space(), {0, 0}, {n, n}),
      KOKKOS_LAMBDA(int i, int j, long long& c) {
        bits x = 0, y = 0;
        const T u = a(i, j), v = b(i, j);
        std::memcpy(&x, &u, sizeof(T));
        std::memcpy(&y, &v, sizeof(T));
        c += x != y ? 1 : 0;
      },
      count);
  return count;
}

// Seconds per iteration of the fastest stepwise entry so far, per precision, size and steps:
// the stepwise entries of a size run before its temporal ones, whose x_single divides by it.
inline std::map<std::string, double>& best_stepwise() {
  static std::map<std::string, double> best;
  return best;
}

template <class T>
std::string advance_shape(int n, int steps) {
  return std::string(precision_name<T>()) + "/" + std::to_string(n) + "x" + std::to_string(n) +
         "/steps" + std::to_string(steps);
}

template <class T, diffusion_variant V>
void bm_advance(benchmark::State& state, int n, int steps, int steps_per_pass) {
  const auto& reference =
      shared_workspace<advanced_reference<T>>(std::make_pair(n, steps), n, steps);
  loopnest::diffusion_solver<T, V, exec_space> solver(exec_space(), n, n, T(0.1), {},
                                                      steps_per_pass);
  solver.set_field(shared_workspace<problem<T>>(n, n).initial);
  poison_interior<T>(solver.next(), n);
  solver.advance(steps);
  if (const long long wrong = differing_cells<T>(solver.current(), reference.solver.current(), n);
      wrong != 0) {
    const std::string what = std::to_string(wrong) +
                             " cells differ in their bits from the flat "
                             "variant's after " +
                             std::to_string(steps) + " steps";
    state.SkipWithError(what.c_str());
    return;
  }
  const exec_space exec;
  exec.fence();
  batch_timer timer(exec);
  double seconds = 0.0;
  for (auto _ : state) {
    timer.start();
    solver.advance(steps);
    const double dt = timer.stop();
    state.SetIterationTime(dt);
    seconds += dt;
  }
  using benchmark::Counter;
  const double interior = (n - 2.0) * (n - 2.0);
  state.counters["gcell_steps_per_second"] =
      Counter(1e-9 * interior * steps, Counter::kIsIterationInvariantRate);
  state.counters["pct_copy"] = Counter(100.0 * step_bytes<T>(n) * steps / copy_bandwidth(),
                                       Counter::kIsIterationInvariantRate);
  state.counters["us_per_step"] =
      Counter(1e-6 * steps, Counter::kIsIterationInvariantRate | Counter::kInvert);
  state.counters["steps_per_pass"] = solver.steps_per_pass();
  const double per_iteration       = seconds / static_cast<double>(state.iterations());
  auto& best                       = best_stepwise()[advance_shape<T>(n, steps)];
  if (V != diffusion_variant::temporal) {
    best = best == 0.0 ? per_iteration : std::min(best, per_iteration);
  } else if (best > 0.0) {
    state.counters["x_single"] = best / per_iteration;
  }
}

template <class T, diffusion_variant V>
void register_advance(int n, int steps, int steps_per_pass = 0) {
  const std::string name = std::string("diffusion/advance/") + loopnest::name(V) +
                           (steps_per_pass == 0 ? "" : "-k" + std::to_string(steps_per_pass)) +
                           "/contiguous/" + advance_shape<T>(n, steps);
  benchmark::RegisterBenchmark(name.c_str(), [n, steps, steps_per_pass](benchmark::State& s) {
    bm_advance<T, V>(s, n, steps, steps_per_pass);
  })->UseManualTime();
}

// The sizes of the targets (1000 steps; 10 000 too where a step is launch-bound), the three
// fastest stepwise variants first, then temporal at its backend's default depth, and at 8192^2
// (1000 steps) and 256^2 (10 000) every depth from 1 to the most the backend instantiates.
template <class T>
void register_advance_precision() {
  using traits                     = loopnest::diffusion_temporal_traits<exec_space, T>;
  const std::pair<int, int> runs[] = {{256, 1000},   {256, 10000}, {512, 1000},  {1024, 1000},
                                      {1024, 10000}, {8192, 1000}, {16384, 1000}};
  for (const auto& [n, steps] : runs) {
    register_advance<T, diffusion_variant::vectorized>(n, steps);
    register_advance<T, diffusion_variant::flat>(n, steps);
    register_advance<T, diffusion_variant::collapse>(n, steps);
    register_advance<T, diffusion_variant::temporal>(n, steps);
    if ((n == 8192 && steps == 1000) || (n == 256 && steps == 10000)) {
      for (int k = 1; k <= traits::max_steps_per_pass; ++k) {
        register_advance<T, diffusion_variant::temporal>(n, steps, k);
      }
    }
  }
}

template <class T, diffusion_variant V>
void register_variant(int n, const loopnest::tile& t = loopnest::tile{}) {
  const std::string name = std::string("diffusion/step/") + loopnest::name(V) +
                           (t.is_default() ? "" : "-tile" + t.to_string()) + "/" +
                           (V == diffusion_variant::strided ? "strided" : "contiguous") + "/" +
                           precision_name<T>() + "/" + std::to_string(n) + "x" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(), [n, t](benchmark::State& s) {
    bm_variant<T, V>(s, n, t);
  })->UseManualTime();
}

template <class T>
void register_precision() {
  for (const int n : sizes) {
    register_variant<T, diffusion_variant::baseline>(n);
    register_variant<T, diffusion_variant::contiguous>(n);
    register_variant<T, diffusion_variant::strided>(n);
    register_variant<T, diffusion_variant::collapse>(n);
    register_variant<T, diffusion_variant::flat>(n);
    register_variant<T, diffusion_variant::kokkos_default>(n);
    register_variant<T, diffusion_variant::vectorized>(n);
    if (n >= 8192) {
      // collapse with explicit tiles beside loopnest's own pick, at the sizes of the targets.
      for (const auto& t : {loopnest::tile{32, 8}, loopnest::tile{64, 4}, loopnest::tile{128, 2},
                            loopnest::tile{256, 1}, loopnest::tile{32, 16}}) {
        register_variant<T, diffusion_variant::collapse>(n, t);
      }
    }
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
    const std::string peer = std::string("peer/diffusion/cuda/contiguous/") + precision_name<T>() +
                             "/" + std::to_string(n) + "x" + std::to_string(n);
    benchmark::RegisterBenchmark(peer.c_str(), [n](benchmark::State& s) {
      bm_peer<T>(s, n);
    })->UseManualTime();
#endif
  }
}

}  // namespace

int main(int argc, char** argv) {
  return loopnest_bench::run(argc, argv, [] {
    register_precision<double>();
    register_precision<float>();
    register_advance_precision<double>();
    register_advance_precision<float>();
  });
}
