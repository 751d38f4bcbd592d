// Experiment of 2026-11-29, 72ff652 (docs/results/h200/notes.md, "Copy-shaped loops over a box
// smaller than the arrays"), not part of the build: a collapse3-like loop over the interior whose
// threads are shifted per row so that every warp starts on a 128-byte line of the destination
// (FP64: up to 15 idle lanes before the row). Row tiles, 256x4 bounds.

template <class T, int Pad>
void copy_aligned(ws<T>& w, int which) {  // 0 copy interior, 1 flux_x, 2 finalize_x
  const auto d = w.out.ref(), s = w.q.ref(), f = w.flux.ref();
  const auto p     = w.frs.ref();
  const auto inv_d = w.inv;
  const int lo = which == 2 ? -1 : 0, n = which == 2 ? 202 : 201;
  using P = Kokkos::MDRangePolicy<E, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                  Kokkos::IndexType<int>, Kokkos::LaunchBounds<256, 4>>;
  Kokkos::parallel_for(
      "aligned", P({0, 0, 0}, {n + Pad, 201, 201}, {n + Pad, 1, 1}),
      KOKKOS_LAMBDA(int t, int j, int k) {
        const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(&d(0, lo, j, k));
        const int off          = Pad ? static_cast<int>((a % 128) / sizeof(T)) : 0;
        const int i            = t - off + lo;
        if (i < lo || i >= lo + n)
          return;
        if (which == 0) {
#pragma unroll
          for (int v = 0; v < NV; ++v)
            d(v, i, j, k) = s.load(v, i, j, k);
        } else if (which == 1) {
          const T inv = inv_d(i);
#pragma unroll
          for (int v = 0; v < NV; ++v)
            d(v, i, j, k) = inv * (f.load(v, i - 1, j, k) - f.load(v, i, j, k));
        } else {
#pragma unroll
          for (int v = 0; v < NV; ++v)
            d(v, i, j, k) = p.load(v, i, j, k);
        }
      });
}

void lib_run(ws<double>& w, int which) {
  if (which == 0) {
    const auto d = w.out.ref(), s = w.q.ref();
    loopnest::for_each_cell_var<loopnest::collapse3>(
        E(), w.q.interior(), NV,
        KOKKOS_LAMBDA(int i, int j, int k, int v) { d(v, i, j, k) = s.load(v, i, j, k); });
  } else if (which == 1) {
    loopnest::flux_difference<loopnest::collapse3>(E(), 0, w.out, w.flux, w.inv);
  } else {
    loopnest::finalize_flux<loopnest::collapse3>(E(), 0, w.out, w.frs);
  }
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  BW = copy_bw();
  std::printf("copy %.1f GB/s\n", BW * 1e-9);
  ws<double> w;
  const double cells = 201.0 * 201 * 201 * NV, faces = 202.0 * 201 * 201 * NV, sz = 8;
  auto setup          = [&] { w.poison(w.out); };
  const char* names[] = {"copy_int", "flux_x", "fin_x"};
  for (int which = 0; which < 3; ++which) {
    const double bytes = 2 * sz * (which == 2 ? faces : cells);
    setup();
    lib_run(w, which);
    E().fence();
    const auto want = snapshot(w.out);
    std::string nm  = std::string("fp64 ") + names[which];
    measure<double>(
        nm + " lib c3", bytes, setup, [&] { lib_run(w, which); }, &w.out, &want);
    measure<double>(
        nm + " row unshifted", bytes, setup, [&] { copy_aligned<double, 0>(w, which); }, &w.out,
        &want);
    measure<double>(
        nm + " row shifted to 128B", bytes, setup, [&] { copy_aligned<double, 15>(w, which); },
        &w.out, &want);
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("cuda: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
