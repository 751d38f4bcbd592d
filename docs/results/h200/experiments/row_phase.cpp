// Experiment of 2026-11-29, 81ddae5 (docs/results/h200/notes.md, "Rows aligned to lines"), not part
// of the build: the library's row-aligned collapse3 launch (Impl::launch_rows, headers at 8bc9316)
// against the plain one, per kernel, FP64 and FP32 201^3 x 8; other line sizes (forced) and launch
// bounds for flux_x. Built with harness.hpp like the other experiments.
#include "harness.hpp"

using loopnest::Impl::row_phase;
using C3 = loopnest::collapse3;

template <class T>
row_phase forced(const loopnest::box<3>& b, const fs<T>& f, int lanes) {
  const auto r = f.ref();
  row_phase p;
  p.first = static_cast<std::uint32_t>(
      reinterpret_cast<std::uintptr_t>(f.field(0).data() +
                                       r.offset(b.lower(0), b.lower(1), b.lower(2))) /
      sizeof(T));
  p.step[0] = 1;
  p.step[1] = static_cast<std::uint32_t>(r.s1);
  p.step[2] = static_cast<std::uint32_t>(r.s2);
  p.lanes   = lanes;
  p.warp    = 32;
  return p;
}

template <class T>
void copies(ws<T>& w, const char* prec) {
  const double sz              = sizeof(T);
  const loopnest::box<3> whole = w.out.with_ghosts(), interior = w.out.interior();
  const loopnest::box<3> fx{{-1, 0, 0}, {201, 201, 201}}, fy{{0, -1, 0}, {201, 201, 201}},
      fz{{0, 0, -1}, {201, 201, 201}};
  struct item {
    const char* name;
    loopnest::box<3> b;
    bool from_frs;
  };
  const item items[] = {{"copy_whole", whole, false},
                        {"copy_int", interior, false},
                        {"fin_x", fx, true},
                        {"fin_y", fy, true},
                        {"fin_z", fz, true}};
  for (const auto& it : items) {
    const double bytes = 2 * sz * NV * double(it.b.size());
    auto run           = [&](const row_phase& rows) {
      if (it.from_frs)
        loopnest::Impl::copy_cells<C3>(E(), it.b, NV, w.out.ref(), w.frs.ref(), "e6", rows);
      else
        loopnest::Impl::copy_cells<C3>(E(), it.b, NV, w.out.ref(), w.q.ref(), "e6", rows);
    };
    auto setup = [&] { w.poison(w.out); };
    setup();
    run(row_phase{});
    E().fence();
    const auto want = snapshot(w.out);
    const auto lib  = loopnest::Impl::rows_of<E>(it.b, w.out);
    std::string nm  = std::string(prec) + " " + it.name;
    measure<T>(
        nm + " plain", bytes, setup, [&] { run(row_phase{}); }, &w.out, &want);
    measure<T>(
        nm + " lib lanes " + std::to_string(lib.lanes), bytes, setup, [&] { run(lib); }, &w.out,
        &want);
    for (int lanes : {4, 8, 16, 32}) {
      if (lanes == lib.lanes || lanes * sizeof(T) > 128)
        continue;
      const auto p = forced(it.b, w.out, lanes);
      measure<T>(
          nm + " forced lanes " + std::to_string(lanes), bytes, setup, [&] { run(p); }, &w.out,
          &want);
    }
  }
  // pack: whole box into the packed buffer, aligned to the field set (source) or unshifted.
  {
    const double bytes = 2 * sz * NV * double(whole.size());
    auto run           = [&](const row_phase& rows) {
      loopnest::Impl::copy_cells<C3>(E(), whole, NV, w.frs.ref(), w.q.ref(), "e6", rows);
    };
    const auto lib = loopnest::Impl::rows_of<E>(whole, w.q);
    std::string nm = std::string(prec) + " pack";
    measure<T>(
        nm + " plain", bytes, [] {}, [&] { run(row_phase{}); }, nullptr, nullptr);
    measure<T>(
        nm + " lib (to fields) lanes " + std::to_string(lib.lanes), bytes, [] {}, [&] { run(lib); },
        nullptr, nullptr);
  }
}

template <int Dir, class S, class T>
void flux_one(ws<T>& w, const char* prec, const char* sname,
              const std::vector<std::vector<T>>& want) {
  const double sz     = sizeof(T);
  const auto interior = w.out.interior();
  const double bytes  = (Dir == 0 ? 2 : 3) * sz * NV * double(interior.size());
  auto run            = [&](const row_phase& rows) {
    loopnest::Impl::flux_difference_along<Dir, S>(E(), interior, w.out.ref(), w.flux.ref(), w.inv,
                                                  "e6", rows);
  };
  auto setup     = [&] { w.poison(w.out); };
  const auto lib = loopnest::Impl::rows_of<E>(interior, w.out);
  std::string nm = std::string(prec) + " flux_" + "xyz"[Dir] + " " + sname;
  measure<T>(
      nm + " plain", bytes, setup, [&] { run(row_phase{}); }, &w.out, &want);
  measure<T>(
      nm + " lib lanes " + std::to_string(lib.lanes), bytes, setup, [&] { run(lib); }, &w.out,
      &want);
  if (sizeof(T) == 4) {
    const auto p = forced(interior, w.out, 32);
    measure<T>(
        nm + " forced lanes 32", bytes, setup, [&] { run(p); }, &w.out, &want);
  }
}

template <int Dir, class T>
void fluxes(ws<T>& w, const char* prec) {
  auto setup = [&] { w.poison(w.out); };
  setup();
  loopnest::flux_difference<C3>(E(), Dir, w.out, w.flux, w.inv);
  E().fence();
  const auto want     = snapshot(w.out);
  const auto interior = w.out.interior();
  const double bytes  = (Dir == 0 ? 2 : 3) * sizeof(T) * NV * double(interior.size());
  measure<T>(
      std::string(prec) + " flux_" + "xyz"[Dir] + " public c3", bytes, setup,
      [&] { loopnest::flux_difference<C3>(E(), Dir, w.out, w.flux, w.inv); }, &w.out, &want);
  measure<T>(
      std::string(prec) + " flux_" + "xyz"[Dir] + " public flat", bytes, setup,
      [&] { loopnest::flux_difference<loopnest::flat>(E(), Dir, w.out, w.flux, w.inv); }, &w.out,
      &want);
  flux_one<Dir, loopnest::with_launch_bounds_t<C3, 256, 4>>(w, prec, "lb256x4", want);
  if (Dir == 0) {
    flux_one<Dir, loopnest::with_launch_bounds_t<C3, 224, 5>>(w, prec, "lb224x5", want);
    flux_one<Dir, loopnest::with_launch_bounds_t<C3, 224, 6>>(w, prec, "lb224x6", want);
    flux_one<Dir, loopnest::with_launch_bounds_t<C3, 256, 7>>(w, prec, "lb256x7", want);
    flux_one<Dir, loopnest::with_launch_bounds_t<C3, 512, 4>>(w, prec, "lb512x4", want);
  }
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  BW = copy_bw();
  std::printf("copy %.1f GB/s\n", BW * 1e-9);
  {
    ws<double> w;
    copies(w, "fp64");
    fluxes<0>(w, "fp64");
    fluxes<1>(w, "fp64");
  }
  {
    ws<float> w;
    copies(w, "fp32");
    fluxes<0>(w, "fp32");
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("cuda: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
