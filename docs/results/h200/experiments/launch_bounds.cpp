// Experiment of 2026-11-29, 7e3f2e5: library-like variable loop (groups of 4, runtime nvar) with
// the field pointers in the kernel parameters or in a device table, per-kernel launch bounds, tiles
// that pack rows into warps, and two cells per thread along x. FP64 201^3 x 8.
#include "harness.hpp"

template <class T>
struct iref {  // field pointers inline: the kernel parameter space
  T* p[16];
  std::ptrdiff_t base, s0, s1, s2;
  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int v, int i, int j, int k) const {
    return p[v][base + i * s0 + j * s1 + k * s2];
  }
  KOKKOS_FORCEINLINE_FUNCTION T load(int v, int i, int j, int k) const {
    return loopnest::load_read_only((*this)(v, i, j, k));
  }
};
template <class T>
iref<T> inline_ref(const fs<T>& f) {
  iref<T> r{};
  for (int v = 0; v < NV; ++v)
    r.p[v] = f.field(v).data();
  auto t = f.ref();
  r.base = t.base;
  r.s0   = t.s0;
  r.s1   = t.s1;
  r.s2   = t.s2;
  return r;
}
template <class T>
loopnest::field_set_ref<T> table_ref(const fs<T>& f) {
  return f.ref();
}
struct tbl {
  template <class T>
  auto operator()(const fs<T>& f) const {
    return table_ref(f);
  }
};
struct inl {
  template <class T>
  auto operator()(const fs<T>& f) const {
    return inline_ref(f);
  }
};

// The library's variable loop: groups of 4, then the rest as one group. XPair: the thread also
// does cell i + half.
template <class P, class F, bool XPair>
struct loop4 {
  P pc;
  F f;
  int nvar, l0, l1, l2, e0, half;
  template <class G>
  KOKKOS_FORCEINLINE_FUNCTION void vars(const G& at) const {
    int v = 0;
#pragma unroll 1
    for (; v + 4 <= nvar; v += 4) {
      at(v);
      at(v + 1);
      at(v + 2);
      at(v + 3);
    }
    switch (nvar - v) {
      case 3:
        at(v);
        at(v + 1);
        at(v + 2);
        break;
      case 2:
        at(v);
        at(v + 1);
        break;
      case 1:
        at(v);
        break;
      default:
        break;
    }
  }
  KOKKOS_FUNCTION void operator()(int p0, int p1, int p2) const {
    const int i = p0 + l0, j = p1 + l1, k = p2 + l2;
    if constexpr (!XPair) {
      const auto c = pc(i, j, k);
      vars([&](int v) { f(i, j, k, v, c); });
    } else {
      const int i1 = i + half;
      const auto c = pc(i, j, k);
      if (p0 + half < e0) {
        const auto c1 = pc(i1, j, k);
        vars([&](int v) {
          f(i, j, k, v, c);
          f(i1, j, k, v, c1);
        });
      } else {
        vars([&](int v) { f(i, j, k, v, c); });
      }
    }
  }
};
struct no_pc {
  KOKKOS_FORCEINLINE_FUNCTION int operator()(int, int, int) const { return 0; }
};

template <int MaxT, int MinB, bool XPair, class P, class F>
void md(const loopnest::box<3>& b, int nvar, tile t, const P& pc, const F& f) {
  using Pol =
      Kokkos::MDRangePolicy<E, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                            Kokkos::IndexType<int>, Kokkos::LaunchBounds<MaxT, MinB>>;
  const int e0 = b.extent(0), half = (e0 + 1) / 2;
  loop4<P, F, XPair> body{pc, f, nvar, b.lower(0), b.lower(1), b.lower(2), e0, half};
  Kokkos::parallel_for(
      "md", Pol({0, 0, 0}, {XPair ? half : e0, b.extent(1), b.extent(2)}, {t[0], t[1], t[2]}),
      body);
}

enum kern { K_COPY_INT, K_FIN_X, K_FLUX_X, K_FLUX_Y, K_FLUX_Z };
const char* kname[] = {"copy_int", "fin_x", "flux_x", "flux_y", "flux_z"};

template <int MaxT, int MinB, bool XPair, class T, class MkRef>
void launch(kern k, ws<T>& w, tile t, MkRef mk) {
  const int nv     = NV;
  const auto inv_d = w.inv;
  if (k == K_COPY_INT) {
    const auto d = mk(w.out), s = mk(w.q);
    md<MaxT, MinB, XPair>(
        w.q.interior(), nv, t, no_pc{},
        KOKKOS_LAMBDA(int i, int j, int kk, int v, int) { d(v, i, j, kk) = s.load(v, i, j, kk); });
  } else if (k == K_FIN_X) {
    const auto d = mk(w.out);
    const auto s = w.frs.ref();
    md<MaxT, MinB, XPair>(
        loopnest::box<3>{{-1, 0, 0}, {201, 201, 201}}, nv, t, no_pc{},
        KOKKOS_LAMBDA(int i, int j, int kk, int v, int) { d(v, i, j, kk) = s.load(v, i, j, kk); });
  } else if (k == K_FLUX_X) {
    const auto r = mk(w.out), f = mk(w.flux);
    md<MaxT, MinB, XPair>(
        w.q.interior(), nv, t, KOKKOS_LAMBDA(int i, int, int) { return T(inv_d(i)); },
        KOKKOS_LAMBDA(int i, int j, int kk, int v, T inv) {
          r(v, i, j, kk) = inv * (f.load(v, i - 1, j, kk) - f.load(v, i, j, kk));
        });
  } else if (k == K_FLUX_Y) {
    const auto r = mk(w.rhs), f = mk(w.flux);
    md<MaxT, MinB, XPair>(
        w.q.interior(), nv, t, KOKKOS_LAMBDA(int, int j, int) { return T(inv_d(j)); },
        KOKKOS_LAMBDA(int i, int j, int kk, int v, T inv) {
          r(v, i, j, kk) = loopnest::fma(inv, f.load(v, i, j - 1, kk) - f.load(v, i, j, kk),
                                         r.load(v, i, j, kk));
        });
  } else {
    const auto r = mk(w.rhs), f = mk(w.flux);
    md<MaxT, MinB, XPair>(
        w.q.interior(), nv, t, KOKKOS_LAMBDA(int, int, int kk) { return T(inv_d(kk)); },
        KOKKOS_LAMBDA(int i, int j, int kk, int v, T inv) {
          r(v, i, j, kk) = loopnest::fma(inv, f.load(v, i, j, kk - 1) - f.load(v, i, j, kk),
                                         r.load(v, i, j, kk));
        });
  }
}

template <class S, class T>
void lib_run(kern k, ws<T>& w) {
  switch (k) {
    case K_COPY_INT: {
      const auto d = w.out.ref(), s = w.q.ref();
      loopnest::for_each_cell_var<S>(
          E(), w.q.interior(), NV,
          KOKKOS_LAMBDA(int i, int j, int kk, int v) { d(v, i, j, kk) = s.load(v, i, j, kk); });
      break;
    }
    case K_FIN_X:
      loopnest::finalize_flux<S>(E(), 0, w.out, w.frs);
      break;
    case K_FLUX_X:
      loopnest::flux_difference<S>(E(), 0, w.out, w.flux, w.inv);
      break;
    case K_FLUX_Y:
      loopnest::flux_difference<S>(E(), 1, w.rhs, w.flux, w.inv);
      break;
    case K_FLUX_Z:
      loopnest::flux_difference<S>(E(), 2, w.rhs, w.flux, w.inv);
      break;
  }
}

template <class T>
void run_kernel(ws<T>& w, kern k) {
  const double cells = 201.0 * 201 * 201 * NV, faces = 202.0 * 201 * 201 * NV, sz = sizeof(T);
  const double bytes = k == K_FIN_X ? 2 * sz * faces : (k >= K_FLUX_Y ? 3 : 2) * sz * cells;
  const bool acc     = k >= K_FLUX_Y;
  fs<T>& res         = acc ? w.rhs : w.out;
  std::function<void()> setup = [&] {
    if (acc)
      w.reset_rhs();
    else
      w.poison(w.out);
  };
  setup();
  lib_run<loopnest::collapse3>(k, w);
  E().fence();
  const auto want = snapshot(res);
  auto name       = [&](const std::string& s) { return std::string("fp64 ") + kname[k] + " " + s; };
  measure<T>(
      name("lib c3"), bytes, setup, [&] { lib_run<loopnest::collapse3>(k, w); }, &res, &want);
  measure<T>(
      name("lib flat"), bytes, setup, [&] { lib_run<loopnest::flat>(k, w); }, &res, &want);
  const int rows = k == K_FIN_X ? 202 : 201, hx = (rows + 1) / 2;
#define CFG(REF, MT, MB, XP, T0, T1, LABEL)               \
  measure<T>(                                             \
      name(std::string(#REF " " LABEL)), bytes, setup,    \
      [&] {                                               \
        launch<MT, MB, XP>(k, w, tile{T0, T1, 1}, REF{}); \
      },                                                  \
      &res, &want);
  CFG(tbl, 512, 4, false, rows, 1, "lb512x4 row")
  CFG(inl, 512, 4, false, rows, 1, "lb512x4 row")
  CFG(tbl, 384, 4, false, rows, 1, "lb384x4 row")
  CFG(inl, 384, 4, false, rows, 1, "lb384x4 row")
  CFG(tbl, 256, 4, false, rows, 1, "lb256x4 row")
  CFG(inl, 256, 4, false, rows, 1, "lb256x4 row")
  CFG(tbl, 1024, 2, false, rows, 5, "lb1024x2 rowx5")
  CFG(inl, 1024, 2, false, rows, 5, "lb1024x2 rowx5")
  CFG(inl, 512, 4, false, rows, 2, "lb512x4 rowx2")
  CFG(tbl, 512, 4, true, hx, 5, "lb512x4 xpair halfx5")
  CFG(inl, 512, 4, true, hx, 5, "lb512x4 xpair halfx5")
  CFG(inl, 256, 4, true, hx, 2, "lb256x4 xpair halfx2")
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  PROFILE = argc > 1 && std::string(argv[1]) == "profile";
  BW      = copy_bw();
  std::printf("copy %.1f GB/s\n", BW * 1e-9);
  {
    ws<double> w;
    for (kern k : {K_COPY_INT, K_FIN_X, K_FLUX_X, K_FLUX_Y, K_FLUX_Z})
      run_kernel(w, k);
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("cuda: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
