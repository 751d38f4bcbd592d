// Experiment of 2026-11-29, 4a33e2c, behind docs/results/h200/notes.md, "flux_difference's
// direction" (not part of the build): flux_difference_y at 201^3 x 8 with the direction a constant,
// several tiles, the += read coherent or read-only, and a staged body; copy with several tiles.
// Built with the bench flags against a CUDA Kokkos.
#include "harness.hpp"
void report(const char* what, double sec, double bytes) {
  std::printf("%-60s %9.1f us %6.1f%%\n", what, sec * 1e6, 100 * bytes / sec / BW);
}

template <class T, bool NC>
void flux_y(const loopnest::field_set<T>& rhs, const loopnest::field_set<T>& flux,
            Kokkos::View<T*> inv_d, tile t, bool flat) {
  const auto r = rhs.ref();
  const auto f = flux.ref();
  auto pc      = loopnest::per_cell(KOKKOS_LAMBDA(int, int j, int) { return T(inv_d(j)); });
  auto body    = KOKKOS_LAMBDA(int i, int j, int k, int v, T inv) {
       const T old   = NC ? r.load(v, i, j, k) : r(v, i, j, k);
       r(v, i, j, k) = loopnest::fma(inv, f.load(v, i, j - 1, k) - f.load(v, i, j, k), old);
  };
  if (flat)
    loopnest::for_each_cell_var<loopnest::flat>(E(), rhs.interior(), rhs.nvar(), pc, body, "fy");
  else
    loopnest::for_each_cell_var<loopnest::collapse3>(E(), rhs.interior(), rhs.nvar(), pc, body,
                                                     "fy", t);
}
// Staged: per cell, all loads of 4 variables, then the stores.
template <class T>
void flux_y_staged(const loopnest::field_set<T>& rhs, const loopnest::field_set<T>& flux,
                   Kokkos::View<T*> inv_d, tile t) {
  const auto r   = rhs.ref();
  const auto f   = flux.ref();
  const int nvar = rhs.nvar();
  loopnest::for_each_cell<loopnest::collapse3>(
      E(), rhs.interior(),
      KOKKOS_LAMBDA(int i, int j, int k) {
        const T inv = inv_d(j);
        for (int v = 0; v < nvar; v += 4) {
          T a[4];
          for (int u = 0; u < 4; ++u)
            a[u] = loopnest::fma(inv, f.load(v + u, i, j - 1, k) - f.load(v + u, i, j, k),
                                 r.load(v + u, i, j, k));
          for (int u = 0; u < 4; ++u)
            r(v + u, i, j, k) = a[u];
        }
      },
      "fy_staged", t);
}
template <class T>
void copy_t(const loopnest::field_set<T>& dst, const loopnest::field_set<T>& src, tile t,
            bool flat) {
  const auto d = dst.ref();
  const auto s = src.ref();
  auto body    = KOKKOS_LAMBDA(int i, int j, int k, int v) {
       d(v, i, j, k) = s.load(v, i, j, k);
  };
  if (flat)
    loopnest::for_each_cell_var<loopnest::flat>(E(), dst.with_ghosts(), dst.nvar(), body, "cp");
  else
    loopnest::for_each_cell_var<loopnest::collapse3>(E(), dst.with_ghosts(), dst.nvar(), body, "cp",
                                                     t);
}

template <class T>
void run(const char* prec) {
  const int n = 201, g = 4, nv = 8;
  loopnest::field_set<T> rhs("rhs", nv, {n, n, n}, g), flux("flux", nv, {n, n, n}, g),
      ref("ref", nv, {n, n, n}, g);
  Kokkos::Random_XorShift64_Pool<E> pool(7);
  for (int v = 0; v < nv; ++v) {
    Kokkos::fill_random(flux.field(v), pool, T(0), T(1));
    Kokkos::fill_random(ref.field(v), pool, T(0), T(1));
  }
  Kokkos::View<T*> inv("inv", n);
  Kokkos::fill_random(inv, pool, T(1), T(2));
  const double cells = double(n) * n * n * nv;
  // reference: library collapse3 once from ref's values
  auto reset = [&] {
    for (int v = 0; v < nv; ++v)
      Kokkos::deep_copy(rhs.field(v), ref.field(v));
  };
  reset();
  loopnest::flux_difference<loopnest::collapse3>(E(), 1, rhs, flux, inv);
  std::vector<typename loopnest::field_set<T>::field_view::HostMirror> want;
  for (int v = 0; v < nv; ++v)
    want.push_back(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs.field(v)));
  auto check = [&](const char* what) {
    long bad = 0;
    for (int v = 0; v < nv; ++v) {
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs.field(v));
      for (size_t e = 0; e < h.size(); ++e)
        bad += h.data()[e] != want[v].data()[e];
    }
    if (bad)
      std::printf("  %s: %ld WRONG\n", what, bad);
  };
  const double fy_bytes = 3.0 * sizeof(T) * cells;
  char name[200];
  report((std::string(prec) + " lib flux_y collapse3").c_str(),
         time_it([&] { loopnest::flux_difference<loopnest::collapse3>(E(), 1, rhs, flux, inv); }),
         fy_bytes);
  report((std::string(prec) + " lib flux_y flat").c_str(),
         time_it([&] { loopnest::flux_difference<loopnest::flat>(E(), 1, rhs, flux, inv); }),
         fy_bytes);
  for (tile t : {tile{}, tile{201, 2, 1}, tile{32, 8, 1}, tile{64, 8, 1}, tile{128, 4, 1},
                 tile{32, 16, 1}, tile{67, 3, 1}}) {
    for (int nc = 0; nc < 2; ++nc) {
      reset();
      if (nc)
        flux_y<T, true>(rhs, flux, inv, t, false);
      else
        flux_y<T, false>(rhs, flux, inv, t, false);
      std::snprintf(name, sizeof name, "%s flux_y c3 tile %s rhs %s", prec, t.to_string().c_str(),
                    nc ? "nc" : "coherent");
      check(name);
      report(name, time_it([&] {
               if (nc)
                 flux_y<T, true>(rhs, flux, inv, t, false);
               else
                 flux_y<T, false>(rhs, flux, inv, t, false);
             }),
             fy_bytes);
    }
  }
  for (int nc = 0; nc < 2; ++nc) {
    reset();
    if (nc)
      flux_y<T, true>(rhs, flux, inv, {}, true);
    else
      flux_y<T, false>(rhs, flux, inv, {}, true);
    std::snprintf(name, sizeof name, "%s flux_y flat rhs %s", prec, nc ? "nc" : "coherent");
    check(name);
    report(name, time_it([&] {
             if (nc)
               flux_y<T, true>(rhs, flux, inv, {}, true);
             else
               flux_y<T, false>(rhs, flux, inv, {}, true);
           }),
           fy_bytes);
  }
  for (tile t : {tile{}, tile{201, 2, 1}, tile{64, 8, 1}}) {
    reset();
    flux_y_staged<T>(rhs, flux, inv, t);
    std::snprintf(name, sizeof name, "%s flux_y staged4 tile %s", prec, t.to_string().c_str());
    check(name);
    report(name, time_it([&] { flux_y_staged<T>(rhs, flux, inv, t); }), fy_bytes);
  }
  const double cg = 209.0 * 209 * 209 * nv;
  for (tile t : {tile{}, tile{209, 2, 1}, tile{32, 8, 1}, tile{64, 8, 1}, tile{128, 4, 1},
                 tile{32, 16, 1}}) {
    std::snprintf(name, sizeof name, "%s copy c3 tile %s", prec, t.to_string().c_str());
    report(name, time_it([&] { copy_t<T>(rhs, flux, t, false); }), 2.0 * sizeof(T) * cg);
  }
  report((std::string(prec) + " copy flat").c_str(),
         time_it([&] { copy_t<T>(rhs, flux, {}, true); }), 2.0 * sizeof(T) * cg);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  BW = copy_bw();
  std::printf("copy %.1f GB/s\n", BW * 1e-9);
  run<double>("fp64");
  run<float>("fp32");
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("cuda: %s\n", cudaGetErrorString(e));
}
