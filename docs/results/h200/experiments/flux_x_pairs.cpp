// Experiment of 2026-11-29, 107e174 (docs/results/h200/notes.md, "Copy-shaped loops over a box
// smaller than the arrays"), not part of the build: flux_difference_x with each row's threads
// shifted to 128-byte lines, and with two cells per thread through 16-byte loads and stores (rows
// shifted to 16-byte pairs). FP64 201^3 x 8.
#include "harness.hpp"

template <int Cells>  // 1: one cell per thread, row shifted to 128 B; 2: aligned pairs
void fx(ws<double>& w) {
  const auto d = w.out.ref(), f = w.flux.ref();
  const auto inv_d = w.inv;
  using P = Kokkos::MDRangePolicy<E, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                  Kokkos::IndexType<int>, Kokkos::LaunchBounds<256, 4>>;
  const int n = 201, threads = Cells == 2 ? 102 : 216;
  Kokkos::parallel_for(
      "fx16", P({0, 0, 0}, {threads, n, n}, {threads, 1, 1}), KOKKOS_LAMBDA(int t, int j, int k) {
        const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(&d(0, 0, j, k));
        if (Cells == 1) {
          const int i = t - static_cast<int>((a % 128) / 8);
          if (i < 0 || i >= n)
            return;
          const double inv = inv_d(i);
#pragma unroll
          for (int v = 0; v < NV; ++v)
            d(v, i, j, k) = inv * (f.load(v, i - 1, j, k) - f.load(v, i, j, k));
        } else {
          const int i0 = 2 * t - static_cast<int>((a % 16) / 8);  // d(v, i0) is 16-byte aligned
          if (i0 + 1 < 0 || i0 >= n)
            return;
          const bool lo = i0 >= 0, hi = i0 + 1 < n;
          const double inv0 = lo ? inv_d(i0) : 0.0, inv1 = hi ? inv_d(i0 + 1) : 0.0;
#pragma unroll
          for (int v = 0; v < NV; ++v) {
            // flux has the same shape and alignment as out; i0 - 2 >= -3 stays inside the ghosts.
            const double2 c =
                loopnest::load_read_only(*reinterpret_cast<const double2*>(&f(v, i0, j, k)));
            const double2 l =
                loopnest::load_read_only(*reinterpret_cast<const double2*>(&f(v, i0 - 2, j, k)));
            const double o0 = inv0 * (l.y - c.x), o1 = inv1 * (c.x - c.y);
            if (lo && hi) {
              *reinterpret_cast<double2*>(&d(v, i0, j, k)) = make_double2(o0, o1);
            } else if (lo) {
              d(v, i0, j, k) = o0;
            } else {
              d(v, i0 + 1, j, k) = o1;
            }
          }
        }
      });
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  BW = copy_bw();
  std::printf("copy %.1f GB/s\n", BW * 1e-9);
  ws<double> w;
  for (int v = 0; v < NV; ++v) {
    const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(w.out.field(v).data()),
                         b = reinterpret_cast<std::uintptr_t>(w.flux.field(v).data());
    if (a % 128 != b % 128)
      std::printf("field %d: out and flux differ in alignment\n", v);
  }
  const double bytes = 2.0 * 8 * 201.0 * 201 * 201 * NV;
  auto setup         = [&] { w.poison(w.out); };
  setup();
  loopnest::flux_difference<loopnest::collapse3>(E(), 0, w.out, w.flux, w.inv);
  E().fence();
  const auto want = snapshot(w.out);
  measure<double>(
      "fp64 flux_x lib c3", bytes, setup,
      [&] { loopnest::flux_difference<loopnest::collapse3>(E(), 0, w.out, w.flux, w.inv); }, &w.out,
      &want);
  measure<double>(
      "fp64 flux_x lib flat", bytes, setup,
      [&] { loopnest::flux_difference<loopnest::flat>(E(), 0, w.out, w.flux, w.inv); }, &w.out,
      &want);
  measure<double>(
      "fp64 flux_x row shifted to 128B", bytes, setup, [&] { fx<1>(w); }, &w.out, &want);
  measure<double>(
      "fp64 flux_x 16-byte pairs", bytes, setup, [&] { fx<2>(w); }, &w.out, &want);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("cuda: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
