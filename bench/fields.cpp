// Family `fields`: MFC's per-variable loops as loopnest kernels (loopnest/field_kernels.hpp), 8
// variables with 4 ghost layers, under every schedule and mapping, and collapse3 with several
// cells per thread.
#include <loopnest/field_kernels.hpp>
#include <loopnest/loopnest.hpp>

#include <Kokkos_Random.hpp>

#include <cmath>
#include <string>
#include <tuple>

#include "bench_common.hpp"
#include "schedules.hpp"

namespace {

using namespace loopnest_bench;

constexpr int nvar = 8, ghost = 4;

template <class T>
using fields = loopnest::field_set<T, Kokkos::LayoutLeft, mem_space>;
template <class T>
using packed = loopnest::packed_fields<T, Kokkos::LayoutLeft, mem_space>;

enum class kernel {
  copy,
  flux_difference_x,
  flux_difference_y,
  flux_difference_z,
  finalize_flux_x,
  finalize_flux_y,
  finalize_flux_z,
  pack_weno,
  pack_weno_transpose_y,
  pack_weno_transpose_z
};
constexpr kernel all_kernels[] = {kernel::copy,
                                  kernel::flux_difference_x,
                                  kernel::flux_difference_y,
                                  kernel::flux_difference_z,
                                  kernel::finalize_flux_x,
                                  kernel::finalize_flux_y,
                                  kernel::finalize_flux_z,
                                  kernel::pack_weno,
                                  kernel::pack_weno_transpose_y,
                                  kernel::pack_weno_transpose_z};

const char* name(kernel k) {
  const char* names[] = {"copy",
                         "flux_difference_x",
                         "flux_difference_y",
                         "flux_difference_z",
                         "finalize_flux_x",
                         "finalize_flux_y",
                         "finalize_flux_z",
                         "pack_weno",
                         "pack_weno_transpose_y",
                         "pack_weno_transpose_z"};
  return names[static_cast<int>(k)];
}

// The direction of a directional kernel.
int direction(kernel k) {
  switch (k) {
    case kernel::flux_difference_y:
    case kernel::finalize_flux_y:
    case kernel::pack_weno_transpose_y:
      return 1;
    case kernel::flux_difference_z:
    case kernel::finalize_flux_z:
    case kernel::pack_weno_transpose_z:
      return 2;
    default:
      return 0;
  }
}

template <class T, class View>
void randomize(const View& view, unsigned seed) {
  Kokkos::Random_XorShift64_Pool<exec_space> pool(seed);
  Kokkos::fill_random(view, pool, T(0.5), T(1.5));
}

// Inputs with fresh random values and outputs for one (precision, cube), kept while consecutive
// benchmarks share it.
template <class T>
struct workspace {
  int n;
  fields<T> q, q_copy, flux, flux_out, rhs, rhs0;
  packed<T> flux_rs, by_order[3];
  Kokkos::View<T*, mem_space> inv_d[3];

  explicit workspace(int n_)
      : n(n_),
        q("q", nvar, {n, n, n}, ghost),
        q_copy("q_copy", nvar, {n, n, n}, ghost),
        flux("flux", nvar, {n, n, n}, ghost),
        flux_out("flux_out", nvar, {n, n, n}, ghost),
        rhs("rhs", nvar, {n, n, n}, ghost),
        rhs0("rhs0", nvar, {n, n, n}, ghost),
        flux_rs("flux_rs", nvar, {n, n, n}, ghost),
        by_order{packed<T>("packed_xyz", nvar, {n, n, n}, ghost, loopnest::axis_order::xyz),
                 packed<T>("packed_yxz", nvar, {n, n, n}, ghost, loopnest::axis_order::yxz),
                 packed<T>("packed_zyx", nvar, {n, n, n}, ghost, loopnest::axis_order::zyx)} {
    unsigned seed = 1234u + n;
    for (int v = 0; v < nvar; ++v) {
      randomize<T>(q.field(v), seed++);
      randomize<T>(flux.field(v), seed++);
      randomize<T>(rhs0.field(v), seed++);
    }
    randomize<T>(flux_rs.view(), seed++);
    for (auto& inv : inv_d) {
      inv = Kokkos::View<T*, mem_space>("inv_d", n);
      randomize<T>(inv, seed++);
    }
  }
};

template <class T>
constexpr T poison = T(-1.0e30);

template <class Schedule, class T>
void launch(kernel k, const workspace<T>& ws) {
  const exec_space exec;
  const int d = direction(k);
  switch (k) {
    case kernel::copy:
      loopnest::copy_fields<Schedule>(exec, ws.q_copy, ws.q);
      break;
    case kernel::flux_difference_x:
    case kernel::flux_difference_y:
    case kernel::flux_difference_z:
      if (d == 0) {
        loopnest::flux_difference<Schedule>(exec, d, loopnest::assign, ws.rhs, ws.flux,
                                            ws.inv_d[d]);
      } else {
        loopnest::flux_difference<Schedule>(exec, d, loopnest::accumulate, ws.rhs, ws.flux,
                                            ws.inv_d[d]);
      }
      break;
    case kernel::finalize_flux_x:
    case kernel::finalize_flux_y:
    case kernel::finalize_flux_z:
      loopnest::finalize_flux<Schedule>(exec, d, ws.flux_out, ws.flux_rs);
      break;
    default:
      loopnest::pack_weno<Schedule>(exec, ws.by_order[d], ws.q);
      break;
  }
}

// Poisons (or, for the accumulating flux differences, resets) the kernel's output.
template <class T>
void prepare(kernel k, const workspace<T>& ws) {
  const int d = direction(k);
  if (k == kernel::copy || k == kernel::flux_difference_x) {
    for (int v = 0; v < nvar; ++v) {
      Kokkos::deep_copy((k == kernel::copy ? ws.q_copy : ws.rhs).field(v), poison<T>);
    }
  } else if (k == kernel::flux_difference_y || k == kernel::flux_difference_z) {
    loopnest::copy_fields<loopnest::collapse3>(exec_space(), ws.rhs, ws.rhs0);
  } else if (k == kernel::finalize_flux_x || k == kernel::finalize_flux_y ||
             k == kernel::finalize_flux_z) {
    for (int v = 0; v < nvar; ++v) {
      Kokkos::deep_copy(ws.flux_out.field(v), poison<T>);
    }
  } else {
    Kokkos::deep_copy(ws.by_order[d].view(), poison<T>);
  }
}

// Elements of the kernel's output that differ from its formula, over the cells it must write.
template <class T>
std::int64_t count_wrong(kernel k, const workspace<T>& ws) {
  const int d = direction(k), dx = d == 0, dy = d == 1, dz = d == 2;
  const auto q = ws.q.ref(), q_copy = ws.q_copy.ref(), flux = ws.flux.ref(),
             flux_out = ws.flux_out.ref(), rhs = ws.rhs.ref(), rhs0 = ws.rhs0.ref();
  const auto flux_rs = ws.flux_rs.ref(), out = ws.by_order[d].ref();
  const auto inv     = ws.inv_d[d];
  const bool is_copy = k == kernel::copy, is_difference = k == kernel::flux_difference_x ||
                                                          k == kernel::flux_difference_y ||
                                                          k == kernel::flux_difference_z;
  const bool is_finalize = !is_copy && !is_difference && k != kernel::pack_weno &&
                           k != kernel::pack_weno_transpose_y && k != kernel::pack_weno_transpose_z;
  const int n                  = ws.n;
  const loopnest::box<3> cells = is_difference ? ws.q.interior()
                                 : is_finalize ? loopnest::box<3>{{-dx, -dy, -dz}, {n, n, n}}
                                               : ws.q.with_ghosts();
  Kokkos::View<std::int64_t, mem_space> wrong("wrong");
  loopnest::for_each_cell_var<loopnest::collapse3>(
      exec_space(), cells, nvar, KOKKOS_LAMBDA(int i, int j, int l, int v) {
        bool ok;
        if (is_copy) {
          ok = q_copy(v, i, j, l) == q(v, i, j, l);
        } else if (is_difference) {
          const T diff = flux(v, i - dx, j - dy, l - dz) - flux(v, i, j, l);
          const int c  = dx ? i : dy ? j : l;
          ok           = rhs(v, i, j, l) ==
               (dx ? inv(c) * diff : loopnest::fma(inv(c), diff, rhs0(v, i, j, l)));
        } else if (is_finalize) {
          ok = flux_out(v, i, j, l) == flux_rs(v, i, j, l);
        } else {
          ok = out(v, i, j, l) == q(v, i, j, l);
        }
        if (!ok) {
          Kokkos::atomic_add(&wrong(), std::int64_t(1));
        }
      });
  std::int64_t result = 0;
  Kokkos::deep_copy(result, wrong);
  return result;
}

// Elements each kernel must move at least: every element read once and written once, and the
// target of a += read too.
double ideal_elements(kernel k, int n) {
  const double interior = double(n) * n * n, ghosted = std::pow(double(n + 2 * ghost), 3);
  switch (k) {
    case kernel::flux_difference_x:
      return 2 * interior * nvar;
    case kernel::flux_difference_y:
    case kernel::flux_difference_z:
      return 3 * interior * nvar;
    case kernel::finalize_flux_x:
    case kernel::finalize_flux_y:
    case kernel::finalize_flux_z:
      return 2 * (n + 1.0) * n * n * nvar;
    default:
      return 2 * ghosted * nvar;
  }
}

template <class Schedule, class T>
void bm_fields(benchmark::State& state, kernel k, int n) {
  auto& ws = shared_workspace<workspace<T>>(n, n);
  prepare(k, ws);
  launch<Schedule>(k, ws);
  if (const auto wrong = count_wrong(k, ws)) {
    state.SkipWithError(
        ("verification failed: " + std::to_string(wrong) + " wrong elements").c_str());
    return;
  }
  const double interior_cell_vars = double(n) * n * n * nvar;
  time_launches(state, sizeof(T) * ideal_elements(k, n), interior_cell_vars,
                [&] { launch<Schedule>(k, ws); });
  // MFC's grind time, per interior grid point and equation, for this one loop.
  state.counters["grind_ns"] =
      benchmark::Counter(1e-9 * interior_cell_vars, benchmark::Counter::kIsIterationInvariantRate |
                                                        benchmark::Counter::kInvert);
}

template <class T, class... Schedules>
void register_size(int n, std::tuple<Schedules...>*) {
  const std::string shape = std::string(precision_name<T>()) + "/" + std::to_string(n) + "x" +
                            std::to_string(n) + "x" + std::to_string(n) + "x" +
                            std::to_string(nvar);
  for (const kernel k : all_kernels) {
    (benchmark::RegisterBenchmark(
         ("fields/" + std::string(name(k)) + "/" + loopnest_test::kind_name<Schedules>() + "/" +
          loopnest::name(typename Schedules::mapping{}) + "/" + shape)
             .c_str(),
         [=](benchmark::State& state) { bm_fields<Schedules, T>(state, k, n); })
         ->UseManualTime()
         ->Unit(benchmark::kMicrosecond),
     ...);
  }
}

// Every schedule and mapping, and collapse3 with strips of 2 and 4 cells per thread
// (fields/<kernel>/collapse3-cells4/contiguous/...), the latter also with 64 registers a thread
// (collapse3-cells4-lb256x4): four variables of four floats in flight fill the 32 registers of
// the default bounds on CUDA.
template <class T>
void register_precision() {
  using strips = std::tuple<
      loopnest_test::with_cells<Kokkos::LayoutLeft, 2>,
      loopnest_test::with_cells<Kokkos::LayoutLeft, 4>,
      loopnest::with_launch_bounds_t<loopnest_test::with_cells<Kokkos::LayoutLeft, 4>, 256, 4>>;
  for (const int n : {256, 201, 128, 64, 32}) {
    register_size<T>(
        n, static_cast<loopnest_test::schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
    register_size<T>(n, static_cast<strips*>(nullptr));
  }
}

}  // namespace

int main(int argc, char** argv) {
  return loopnest_bench::run(argc, argv, [] {
    register_precision<double>();
    register_precision<float>();
  });
}
