// Shared by the experiments in this folder (not part of the build): copy bandwidth, event timing,
// a bitwise check before timing, and the 201^3 x 8 FP64 workspace of the 2026-11-29 experiments.
#pragma once
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <Kokkos_Random.hpp>
#include <cstdio>
#include <functional>
#include <loopnest/loopnest.hpp>
#include <string>
#include <vector>
using E = Kokkos::DefaultExecutionSpace;
using loopnest::tile;
constexpr int NV = 8;

double copy_bw() {
  const size_t n = (size_t(1) << 30) / 8;
  Kokkos::View<double*> a("a", n), b("b", n);
  Kokkos::deep_copy(a, 1.0);
  double best = 0;
  for (int r = 0; r < 6; ++r) {
    E().fence();
    auto t0 = std::chrono::steady_clock::now();
    Kokkos::deep_copy(E(), b, a);
    E().fence();
    std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    if (r)
      best = std::max(best, 16.0 * n / dt.count());
  }
  return best;
}
double time_it(const std::function<void()>& f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();
  E().fence();
  float best = 1e30f;
  for (int rep = 0; rep < 5; ++rep) {
    cudaEventRecord(a, E().cuda_stream());
    for (int i = 0; i < 20; ++i)
      f();
    cudaEventRecord(b, E().cuda_stream());
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    best = std::min(best, ms / 20);
  }
  return best * 1e-3;
}
double BW;
bool PROFILE = false;
std::vector<std::string> profiled;

template <class T>
using fs = loopnest::field_set<T>;
template <class T>
using pk = loopnest::packed_fields<T>;

// Pointers by value: the kernel parameter space instead of a table in global memory.
template <class T>
struct ptrs {
  T* p[NV];
  std::ptrdiff_t base, s1, s2;
  KOKKOS_FORCEINLINE_FUNCTION T* at(int v) const { return p[v]; }
  KOKKOS_FORCEINLINE_FUNCTION std::ptrdiff_t off(int i, int j, int k) const {
    return base + i + j * s1 + k * s2;
  }
};
template <class T>
ptrs<T> make_ptrs(const fs<T>& f) {
  ptrs<T> r{};
  for (int v = 0; v < NV; ++v)
    r.p[v] = f.field(v).data();
  auto rf = f.ref();
  r.base  = rf.base;
  r.s1    = rf.s1;
  r.s2    = rf.s2;
  return r;
}

template <class T>
struct ws {
  int n = 201, g = 4;
  fs<T> rhs, rhs0, flux, q, out;
  pk<T> frs;
  Kokkos::View<T*> inv;
  ws()
      : rhs("rhs", NV, {201, 201, 201}, 4),
        rhs0("rhs0", NV, {201, 201, 201}, 4),
        flux("flux", NV, {201, 201, 201}, 4),
        q("q", NV, {201, 201, 201}, 4),
        out("out", NV, {201, 201, 201}, 4),
        frs("frs", NV, {201, 201, 201}, 4),
        inv("inv", 201) {
    Kokkos::Random_XorShift64_Pool<E> pool(7);
    for (int v = 0; v < NV; ++v) {
      Kokkos::fill_random(flux.field(v), pool, T(0), T(1));
      Kokkos::fill_random(rhs0.field(v), pool, T(0), T(1));
      Kokkos::fill_random(q.field(v), pool, T(0), T(1));
    }
    Kokkos::fill_random(frs.view(), pool, T(0), T(1));
    Kokkos::fill_random(inv, pool, T(1), T(2));
  }
  void reset_rhs() {
    for (int v = 0; v < NV; ++v)
      Kokkos::deep_copy(rhs.field(v), rhs0.field(v));
  }
  void poison(const fs<T>& f) {
    for (int v = 0; v < NV; ++v)
      Kokkos::deep_copy(f.field(v), T(-777));
  }
};

template <class T>
std::vector<std::vector<T>> snapshot(const fs<T>& f) {
  std::vector<std::vector<T>> s;
  for (int v = 0; v < NV; ++v) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.field(v));
    s.emplace_back(h.data(), h.data() + h.size());
  }
  return s;
}

// Runs `setup; f` once, compares `result` bitwise with `want`, then times f (or, when profiling,
// runs it once more under the profiler).
template <class T>
void measure(const std::string& name, double bytes, const std::function<void()>& setup,
             const std::function<void()>& f, const fs<T>* result,
             const std::vector<std::vector<T>>* want) {
  setup();
  f();
  E().fence();
  long bad = 0;
  if (result && want) {
    auto got = snapshot(*result);
    for (int v = 0; v < NV; ++v)
      for (size_t e = 0; e < got[v].size(); ++e)
        bad += got[v][e] != (*want)[v][e];
  }
  if (PROFILE) {
    setup();
    E().fence();
    cudaProfilerStart();
    f();
    E().fence();
    cudaProfilerStop();
    profiled.push_back(name);
    std::printf("profiled %zu: %s%s\n", profiled.size(), name.c_str(), bad ? " WRONG" : "");
    return;
  }
  const double s = time_it(f);
  std::printf("%-52s %8.1f us %6.1f%%%s\n", name.c_str(), s * 1e6, 100 * bytes / s / BW,
              bad ? (" WRONG " + std::to_string(bad)).c_str() : "");
}
