// Family `diffusion`: one 5-point diffusion step per iteration under every loopnest variant, FP32
// and FP64, and (when CUDA is on) the hand-written CUDA peer: 32x8 blocks, one cell per thread.
// Every entry first runs one step from a fresh random field into a poisoned output and compares
// it with the serial host reference.
#include <loopnest/diffusion.hpp>
#include <loopnest/tools/field_compare.hpp>

#include <cmath>
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
  });
}
