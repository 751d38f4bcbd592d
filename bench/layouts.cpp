// Family `layouts`: the MFC WENO packing loop (nvar separately stored 3D fields into one
// (x, y, z, var) buffer) and a 4D to 4D copy, under every schedule and mapping.
#include <loopnest/loopnest.hpp>

#include <Kokkos_Random.hpp>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bench_common.hpp"
#include "schedules.hpp"

namespace {

using namespace loopnest_bench;

constexpr int max_nvar = 8;

template <class T>
using field_view = Kokkos::View<T***, Kokkos::LayoutLeft, mem_space>;
template <class T>
using packed_view = Kokkos::View<T****, Kokkos::LayoutLeft, mem_space>;

// Inputs with fresh random values, and outputs, for one (precision, cube, nvar). Kept while
// consecutive benchmarks share the shape. The kernels see the fields as a table of raw
// pointers, as MFC does: a table of eight Views would push the kernel's arguments past
// Kokkos' 512-byte limit for passing them directly, and every launch would then stage them
// through constant memory first (about 10 us each on an H200).
template <class T>
struct workspace {
  int n, nvar;
  std::vector<field_view<T>> storage;
  Kokkos::Array<const T*, max_nvar> fields{};
  packed_view<T> packed, src, dst;

  workspace(int n_, int nvar_) : n(n_), nvar(nvar_) {
    Kokkos::Random_XorShift64_Pool<exec_space> pool(12345u + n * 16 + nvar);
    for (int v = 0; v < nvar; ++v) {
      storage.emplace_back("field_" + std::to_string(v), n, n, n);
      Kokkos::fill_random(storage.back(), pool, T(0), T(1));
      fields[v] = storage.back().data();
    }
    packed = packed_view<T>("packed", n, n, n, nvar);
    src    = packed_view<T>("src", n, n, n, nvar);
    dst    = packed_view<T>("dst", n, n, n, nvar);
    Kokkos::fill_random(src, pool, T(0), T(1));
  }
};

template <class T>
constexpr T poison = T(-1.0e30);

template <class Schedule, class T>
void run_pack(const workspace<T>& ws, const loopnest::tile& t) {
  const auto fields = ws.fields;
  const auto packed = ws.packed;
  const int n       = ws.n;
  loopnest::for_each_cell_var<Schedule>(
      exec_space(), loopnest::box<3>{{0, 0, 0}, {ws.n, ws.n, ws.n}}, ws.nvar,
      KOKKOS_LAMBDA(int i, int j, int k, int v) {
        packed(i, j, k, v) = loopnest::load_read_only(fields[v][i + n * (j + std::size_t(n) * k)]);
      },
      "layouts/pack", t);
}

template <class Schedule, class T>
void run_copy(const workspace<T>& ws) {
  const auto src = ws.src;
  const auto dst = ws.dst;
  loopnest::for_each_cell_var<Schedule>(
      exec_space(), loopnest::box<3>{{0, 0, 0}, {ws.n, ws.n, ws.n}}, ws.nvar,
      KOKKOS_LAMBDA(int i, int j, int k, int v) {
        dst(i, j, k, v) = loopnest::load_read_only(src(i, j, k, v));
      },
      "layouts/copy");
}

// Elements of the output that differ from what the kernel must have written.
template <class T>
std::int64_t count_wrong(const workspace<T>& ws, bool pack) {
  const auto fields  = ws.fields;
  const auto packed  = ws.packed;
  const auto src     = ws.src;
  const auto dst     = ws.dst;
  const int n        = ws.n;
  std::int64_t wrong = 0;
  Kokkos::parallel_reduce(
      "layouts/verify",
      Kokkos::MDRangePolicy<exec_space, Kokkos::Rank<4>>({0, 0, 0, 0}, {n, n, n, ws.nvar}),
      KOKKOS_LAMBDA(int i, int j, int k, int v, std::int64_t& w) {
        w += pack ? packed(i, j, k, v) != fields[v][i + n * (j + std::size_t(n) * k)]
                  : dst(i, j, k, v) != src(i, j, k, v);
      },
      wrong);
  return wrong;
}

template <class Schedule, class T>
void bm_layout(benchmark::State& state, bool pack, int n, int nvar, const loopnest::tile& t) {
  auto& ws = shared_workspace<workspace<T>>(std::make_pair(n, nvar), n, nvar);
  Kokkos::deep_copy(pack ? ws.packed : ws.dst, poison<T>);
  const auto launch = [&] { pack ? run_pack<Schedule>(ws, t) : run_copy<Schedule>(ws); };
  launch();
  if (const auto wrong = count_wrong(ws, pack)) {
    state.SkipWithError(
        ("verification failed: " + std::to_string(wrong) + " wrong elements").c_str());
    return;
  }
  const double cell_vars = static_cast<double>(n) * n * n * nvar;
  time_launches(state, 2.0 * sizeof(T) * cell_vars, cell_vars, launch);
}

template <class T, class... Schedules>
void register_shape(int n, int nvar, std::tuple<Schedules...>*) {
  const std::string shape = std::string(precision_name<T>()) + "/" + std::to_string(n) + "x" +
                            std::to_string(n) + "x" + std::to_string(n) + "x" +
                            std::to_string(nvar);
  for (const bool pack : {true, false}) {
    (benchmark::RegisterBenchmark(
         ("layouts/" + std::string(pack ? "pack" : "copy") + "/" + loopnest::name(Schedules::kind) +
          "/" + loopnest::name(typename Schedules::mapping{}) + "/" + shape)
             .c_str(),
         [=](benchmark::State& state) { bm_layout<Schedules, T>(state, pack, n, nvar, {}); })
         ->UseManualTime()
         ->Unit(benchmark::kMicrosecond),
     ...);
  }
}

// collapse3 packing with explicit tiles beside loopnest's own pick, at the size of the targets.
template <class T>
void register_tiles(int n, int nvar) {
  for (const auto& t : {loopnest::tile{32, 8, 1}, loopnest::tile{64, 4, 1},
                        loopnest::tile{128, 2, 1}, loopnest::tile{256, 1, 1}}) {
    const std::string name = "layouts/pack/collapse3-tile" + t.to_string() + "/contiguous/" +
                             precision_name<T>() + "/" + std::to_string(n) + "x" +
                             std::to_string(n) + "x" + std::to_string(n) + "x" +
                             std::to_string(nvar);
    benchmark::RegisterBenchmark(name.c_str(),
                                 [=](benchmark::State& state) {
                                   bm_layout<loopnest::collapse3, T>(state, true, n, nvar, t);
                                 })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

template <class T>
void register_precision() {
  for (const int n : {16, 32, 64, 128, 201, 256}) {
    for (const int nvar : {5, 7, 8}) {
      register_shape<T>(
          n, nvar, static_cast<loopnest_test::schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
      if (n == 256 && nvar == 7) {
        register_tiles<T>(n, nvar);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return loopnest_bench::run(argc, argv, [] {
    register_precision<double>();
    register_precision<float>();
  });
}
