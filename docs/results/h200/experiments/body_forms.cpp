// Experiment of 2026-11-29, 7e3f2e5 (docs/results/h200/notes.md, "Launch bounds per kernel" and
// "Copy-shaped loops over a box smaller than the arrays"), not part of the build: body forms,
// pointers in kernel parameters, launch bounds and tiles for the MFC loops at 201^3 x 8, with ncu.
// Built by hand with the bench flags against the CUDA Kokkos; 'body_forms profile' runs each
// variant once between cudaProfilerStart/Stop for ncu --profile-from-start off.
#include "harness.hpp"

// ---- flux_difference_y variants --------------------------------------------------------------

// All loads of all 8 variables, then the 8 stores, inside a loopnest collapse3/flat cell loop.
template <class S, class T>
void fy_staged8(ws<T>& w) {
  const auto r = w.rhs.ref(), f = w.flux.ref();
  const auto inv_d = w.inv;
  loopnest::for_each_cell<S>(
      E(), w.rhs.interior(),
      KOKKOS_LAMBDA(int i, int j, int k) {
        const T inv = inv_d(j);
        T a[NV];
#pragma unroll
        for (int v = 0; v < NV; ++v)
          a[v] =
              loopnest::fma(inv, f.load(v, i, j - 1, k) - f.load(v, i, j, k), r.load(v, i, j, k));
#pragma unroll
        for (int v = 0; v < NV; ++v)
          r(v, i, j, k) = a[v];
      },
      "fy_staged8");
}

// Same with pointers as kernel parameters, raw MDRange with chosen launch bounds.
template <int MaxT, int MinB, class T>
void fy_params(ws<T>& w, int staged, tile t) {
  const auto r = make_ptrs(w.rhs), f = make_ptrs(w.flux);
  const auto inv_d = w.inv;
  using P = Kokkos::MDRangePolicy<E, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                  Kokkos::IndexType<int>, Kokkos::LaunchBounds<MaxT, MinB>>;
  const int n = w.n;
  auto body   = KOKKOS_LAMBDA(int i, int j, int k) {
      const T inv  = inv_d(j);
      const auto o = r.off(i, j, k), om = f.off(i, j - 1, k), oc = f.off(i, j, k);
      if (staged) {
        T a[NV];
#pragma unroll
      for (int v = 0; v < NV; ++v)
        a[v] = loopnest::fma(inv, __ldg(f.at(v) + om) - __ldg(f.at(v) + oc), __ldg(r.at(v) + o));
#pragma unroll
      for (int v = 0; v < NV; ++v)
        r.at(v)[o] = a[v];
    } else {
#pragma unroll
      for (int v = 0; v < NV; ++v)
        r.at(v)[o] =
            loopnest::fma(inv, __ldg(f.at(v) + om) - __ldg(f.at(v) + oc), __ldg(r.at(v) + o));
    }
  };
  Kokkos::parallel_for("fy_params", P({0, 0, 0}, {n, n, n}, {t[0], t[1], t[2]}), body);
}

// Two cells along j per thread: f(j) is loaded once for both, kept in a register.
template <class T>
void fy_jpair(ws<T>& w, tile t) {
  const auto r = w.rhs.ref(), f = w.flux.ref();
  const auto inv_d = w.inv;
  const int n      = w.n;
  using P = Kokkos::MDRangePolicy<E, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                  Kokkos::IndexType<int>, Kokkos::LaunchBounds<512, 4>>;
  auto body = KOKKOS_LAMBDA(int i, int jp, int k) {
    const int j    = 2 * jp;
    const bool two = j + 1 < n;
    const T inv0 = inv_d(j), inv1 = two ? inv_d(j + 1) : T(0);
#pragma unroll 2
    for (int v = 0; v < NV; ++v) {
      const T fm = f.load(v, i, j - 1, k), f0 = f.load(v, i, j, k);
      const T r0 = r.load(v, i, j, k);
      if (two) {
        const T f1 = f.load(v, i, j + 1, k), r1 = r.load(v, i, j + 1, k);
        r(v, i, j, k)     = loopnest::fma(inv0, fm - f0, r0);
        r(v, i, j + 1, k) = loopnest::fma(inv1, f0 - f1, r1);
      } else {
        r(v, i, j, k) = loopnest::fma(inv0, fm - f0, r0);
      }
    }
  };
  Kokkos::parallel_for("fy_jpair", P({0, 0, 0}, {n, (n + 1) / 2, n}, {t[0], t[1], t[2]}), body);
}

// ---- copy-like variants ----------------------------------------------------------------------
template <class S, class T>
void copy_box(const loopnest::box<3>& b, const fs<T>& dst, const fs<T>& src) {
  const auto d = dst.ref(), s = src.ref();
  loopnest::for_each_cell_var<S>(
      E(), b, NV, KOKKOS_LAMBDA(int i, int j, int k, int v) { d(v, i, j, k) = s.load(v, i, j, k); },
      "copy_box");
}
template <int MaxT, int MinB, class T>
void copy_params(const loopnest::box<3>& b, const fs<T>& dst, const fs<T>& src, tile t) {
  const auto d = make_ptrs(dst), s = make_ptrs(src);
  using P = Kokkos::MDRangePolicy<E, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                  Kokkos::IndexType<int>, Kokkos::LaunchBounds<MaxT, MinB>>;
  const int l0 = b.lower(0), l1 = b.lower(1), l2 = b.lower(2);
  auto body = KOKKOS_LAMBDA(int i, int j, int k) {
    const auto o = d.off(i + l0, j + l1, k + l2);
    T a[NV];
#pragma unroll
    for (int v = 0; v < NV; ++v)
      a[v] = __ldg(s.at(v) + o);
#pragma unroll
    for (int v = 0; v < NV; ++v)
      d.at(v)[o] = a[v];
  };
  Kokkos::parallel_for("copy_params",
                       P({0, 0, 0}, {b.extent(0), b.extent(1), b.extent(2)}, {t[0], t[1], t[2]}),
                       body);
}
template <class S, class T>
void fin_staged8(ws<T>& w) {
  const auto d = w.out.ref();
  const auto s = w.frs.ref();
  const loopnest::box<3> faces{{-1, 0, 0}, {201, 201, 201}};
  loopnest::for_each_cell<S>(
      E(), faces,
      KOKKOS_LAMBDA(int i, int j, int k) {
        T a[NV];
#pragma unroll
        for (int v = 0; v < NV; ++v)
          a[v] = s.load(v, i, j, k);
#pragma unroll
        for (int v = 0; v < NV; ++v)
          d(v, i, j, k) = a[v];
      },
      "fin_staged8");
}

template <class T>
void run(const char* prec) {
  ws<T> w;
  const double cells = 201.0 * 201 * 201 * NV, ghosted = 209.0 * 209 * 209 * NV,
               faces = 202.0 * 201 * 201 * NV, sz = sizeof(T);
  auto P    = [&](const char* s) { return std::string(prec) + " " + s; };
  auto none = [] {};
  // copy over the whole ghosted arrays and over the interior only
  w.poison(w.out);
  copy_box<loopnest::collapse3>(w.q.with_ghosts(), w.out, w.q);
  auto want_copy = snapshot(w.out);
  measure<T>(
      P("copy whole lib c3"), 2 * sz * ghosted, none,
      [&] { loopnest::copy_fields<loopnest::collapse3>(E(), w.out, w.q); }, &w.out, &want_copy);
  measure<T>(
      P("copy whole lib flat"), 2 * sz * ghosted, none,
      [&] { loopnest::copy_fields<loopnest::flat>(E(), w.out, w.q); }, &w.out, &want_copy);
  measure<T>(
      P("copy whole params8 lb512x4 209x1x1"), 2 * sz * ghosted, none,
      [&] {
        copy_params<512, 4>(w.q.with_ghosts(), w.out, w.q, tile{209, 1, 1});
      },
      &w.out, &want_copy);
  w.poison(w.out);
  copy_box<loopnest::collapse3>(w.q.interior(), w.out, w.q);
  auto want_ci = snapshot(w.out);
  measure<T>(
      P("copy interior c3"), 2 * sz * cells, none,
      [&] { copy_box<loopnest::collapse3>(w.q.interior(), w.out, w.q); }, &w.out, &want_ci);
  measure<T>(
      P("copy interior flat"), 2 * sz * cells, none,
      [&] { copy_box<loopnest::flat>(w.q.interior(), w.out, w.q); }, &w.out, &want_ci);
  measure<T>(
      P("copy interior params8 lb512x4 201x1x1"), 2 * sz * cells, none,
      [&] {
        copy_params<512, 4>(w.q.interior(), w.out, w.q, tile{201, 1, 1});
      },
      &w.out, &want_ci);
  measure<T>(
      P("copy interior params8 lb256x8 201x1x1"), 2 * sz * cells, none,
      [&] {
        copy_params<256, 8>(w.q.interior(), w.out, w.q, tile{201, 1, 1});
      },
      &w.out, &want_ci);
  // finalize x
  w.poison(w.out);
  loopnest::finalize_flux<loopnest::collapse3>(E(), 0, w.out, w.frs);
  auto want_fin = snapshot(w.out);
  measure<T>(
      P("finalize_x lib c3"), 2 * sz * faces, none,
      [&] { loopnest::finalize_flux<loopnest::collapse3>(E(), 0, w.out, w.frs); }, &w.out,
      &want_fin);
  measure<T>(
      P("finalize_x lib flat"), 2 * sz * faces, none,
      [&] { loopnest::finalize_flux<loopnest::flat>(E(), 0, w.out, w.frs); }, &w.out, &want_fin);
  measure<T>(
      P("finalize_x staged8 c3"), 2 * sz * faces, none,
      [&] { fin_staged8<loopnest::collapse3>(w); }, &w.out, &want_fin);
  measure<T>(
      P("finalize_x staged8 flat"), 2 * sz * faces, none, [&] { fin_staged8<loopnest::flat>(w); },
      &w.out, &want_fin);
  // flux x
  w.poison(w.out);
  loopnest::flux_difference<loopnest::collapse3>(E(), 0, w.out, w.flux, w.inv);
  auto want_fx = snapshot(w.out);
  measure<T>(
      P("flux_x lib c3"), 2 * sz * cells, none,
      [&] { loopnest::flux_difference<loopnest::collapse3>(E(), 0, w.out, w.flux, w.inv); }, &w.out,
      &want_fx);
  measure<T>(
      P("flux_x lib flat"), 2 * sz * cells, none,
      [&] { loopnest::flux_difference<loopnest::flat>(E(), 0, w.out, w.flux, w.inv); }, &w.out,
      &want_fx);
  // flux y: each measurement starts from rhs0
  w.reset_rhs();
  loopnest::flux_difference<loopnest::collapse3>(E(), 1, w.rhs, w.flux, w.inv);
  auto want_fy     = snapshot(w.rhs);
  auto reset       = [&] { w.reset_rhs(); };
  const double fyb = 3 * sz * cells;
  measure<T>(
      P("flux_y lib c3"), fyb, reset,
      [&] { loopnest::flux_difference<loopnest::collapse3>(E(), 1, w.rhs, w.flux, w.inv); }, &w.rhs,
      &want_fy);
  measure<T>(
      P("flux_y lib flat"), fyb, reset,
      [&] { loopnest::flux_difference<loopnest::flat>(E(), 1, w.rhs, w.flux, w.inv); }, &w.rhs,
      &want_fy);
  measure<T>(
      P("flux_y staged8 c3"), fyb, reset, [&] { fy_staged8<loopnest::collapse3>(w); }, &w.rhs,
      &want_fy);
  measure<T>(
      P("flux_y staged8 flat"), fyb, reset, [&] { fy_staged8<loopnest::flat>(w); }, &w.rhs,
      &want_fy);
  for (int st = 0; st < 2; ++st) {
    const char* s = st ? "staged" : "plain";
    measure<T>(
        P("flux_y params8 lb512x4 201x1x1 ") + s, fyb, reset,
        [&] {
          fy_params<512, 4>(w, st, tile{201, 1, 1});
        },
        &w.rhs, &want_fy);
    measure<T>(
        P("flux_y params8 lb512x3 201x1x1 ") + s, fyb, reset,
        [&] {
          fy_params<512, 3>(w, st, tile{201, 1, 1});
        },
        &w.rhs, &want_fy);
    measure<T>(
        P("flux_y params8 lb256x4 201x1x1 ") + s, fyb, reset,
        [&] {
          fy_params<256, 4>(w, st, tile{201, 1, 1});
        },
        &w.rhs, &want_fy);
    measure<T>(
        P("flux_y params8 lb512x4 32x8x1 ") + s, fyb, reset,
        [&] {
          fy_params<512, 4>(w, st, tile{32, 8, 1});
        },
        &w.rhs, &want_fy);
  }
  measure<T>(
      P("flux_y jpair c3 201x1x1"), fyb, reset,
      [&] {
        fy_jpair(w, tile{201, 1, 1});
      },
      &w.rhs, &want_fy);
  measure<T>(
      P("flux_y jpair c3 32x8x1"), fyb, reset,
      [&] {
        fy_jpair(w, tile{32, 8, 1});
      },
      &w.rhs, &want_fy);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  PROFILE = argc > 1 && std::string(argv[1]) == "profile";
  BW      = copy_bw();
  std::printf("copy %.1f GB/s\n", BW * 1e-9);
  run<double>("fp64");
  if (!PROFILE)
    run<float>("fp32");
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("cuda: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
