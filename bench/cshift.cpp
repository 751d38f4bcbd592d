// Family `cshift`: loopnest::cshift under every table strategy, on 3D cubes of double and float
// and on 4D lattices of spinors (12 complex doubles a site, Grid's fermion field), every dim,
// shifts +1 and -1. Beside the bandwidth counters: the table work of a first call on a clean
// cache (table_build_us), and the table work and host-device copies of a repeated call
// (table_us_per_call, transfers_per_call), all through Kokkos' profiling callbacks.
#include <loopnest/cshift.hpp>
#include <loopnest/loopnest.hpp>

#include <Kokkos_Random.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "bench_common.hpp"
#include "cshift_host_tables.hpp"
#include "profiling_counters.hpp"
#include "spinor.hpp"

namespace {

using namespace loopnest_bench;
using loopnest_test::spinor;

// loopnest's strategies and Grid's host-filled tables (cshift_host_tables.hpp).
enum class strategy { device_table, host_table_copy, host_table_managed, no_table };

const char* strategy_name(strategy s) {
  switch (s) {
    case strategy::device_table:
      return "device_table";
    case strategy::host_table_copy:
      return "host_table_copy";
    case strategy::host_table_managed:
      return "host_table_managed";
    default:
      return "no_table";
  }
}

template <class View>
void run_cshift(const exec_space& exec, const View& out, const View& in, int dim, int shift,
                strategy s) {
  switch (s) {
    case strategy::device_table:
      loopnest::cshift(exec, out, in, dim, shift, loopnest::cshift_strategy::device_table);
      break;
    case strategy::host_table_copy:
      cshift_host_table(exec, out, in, dim, shift, host_table::copied);
      break;
    case strategy::host_table_managed:
      cshift_host_table(exec, out, in, dim, shift, host_table::managed);
      break;
    default:
      loopnest::cshift(exec, out, in, dim, shift, loopnest::cshift_strategy::no_table);
  }
}

template <class T, int Rank, class Layout>
using lattice = Kokkos::View<std::conditional_t<Rank == 3, T***, T****>, Layout, mem_space>;

// A view's elements as the scalars they hold (a spinor as 24 doubles).
template <class View>
auto scalars_of(const View& v) {
  using value  = typename View::value_type;
  using scalar = std::conditional_t<std::is_same<value, spinor>::value, double, value>;
  return Kokkos::View<scalar*, mem_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
      reinterpret_cast<scalar*>(v.data()), v.span() * sizeof(value) / sizeof(scalar));
}

template <class T, int Rank, class Layout>
struct workspace {
  lattice<T, Rank, Layout> in, out;

  explicit workspace(int n) {
    if constexpr (Rank == 3) {
      in  = lattice<T, Rank, Layout>("in", n, n, n);
      out = lattice<T, Rank, Layout>("out", n, n, n);
    } else {
      in  = lattice<T, Rank, Layout>("in", n, n, n, n);
      out = lattice<T, Rank, Layout>("out", n, n, n, n);
    }
    const auto scalars = scalars_of(in);
    using scalar       = typename decltype(scalars)::value_type;
    Kokkos::Random_XorShift64_Pool<exec_space> pool(4321u + n);
    Kokkos::fill_random(scalars, pool, scalar(0), scalar(1));
  }
};

KOKKOS_INLINE_FUNCTION int periodic(int x, int shift, int n) {
  return ((x + shift) % n + n) % n;
}

// Elements of out that differ from in(x + shift * e_dim), periodic.
template <class View>
std::int64_t count_wrong(const View& out, const View& in, int dim, int shift) {
  const int n        = static_cast<int>(in.extent(dim));
  std::int64_t wrong = 0;
  if constexpr (View::rank == 3) {
    Kokkos::parallel_reduce(
        "cshift/verify",
        Kokkos::MDRangePolicy<exec_space, Kokkos::Rank<3>>(
            {0, 0, 0}, {int(in.extent(0)), int(in.extent(1)), int(in.extent(2))}),
        KOKKOS_LAMBDA(int i, int j, int k, std::int64_t& w) {
          int x[3] = {i, j, k};
          x[dim]   = periodic(x[dim], shift, n);
          w += !(out(i, j, k) == in(x[0], x[1], x[2]));
        },
        wrong);
  } else {
    Kokkos::parallel_reduce(
        "cshift/verify",
        Kokkos::MDRangePolicy<exec_space, Kokkos::Rank<4>>(
            {0, 0, 0, 0},
            {int(in.extent(0)), int(in.extent(1)), int(in.extent(2)), int(in.extent(3))}),
        KOKKOS_LAMBDA(int i, int j, int k, int l, std::int64_t& w) {
          int x[4] = {i, j, k, l};
          x[dim]   = periodic(x[dim], shift, n);
          w += !(out(i, j, k, l) == in(x[0], x[1], x[2], x[3]));
        },
        wrong);
  }
  return wrong;
}

template <class T, int Rank, class Layout>
void bm_cshift(benchmark::State& state, strategy s, int n, int dim, int shift) {
  auto& ws = shared_workspace<workspace<T, Rank, Layout>>(n, n);
  const exec_space exec;
  const auto launch = [&] { run_cshift(exec, ws.out, ws.in, dim, shift, s); };
  Kokkos::deep_copy(scalars_of(ws.out), -1.0e30);
  loopnest::cshift_cache_clear();
  double build_us = 0.0;
  {
    const loopnest_test::region_counter tables(loopnest::cshift_table_region);
    launch();
    exec.fence();
    build_us = 1e6 * tables.seconds();
  }
  if (const auto wrong = count_wrong(ws.out, ws.in, dim, shift)) {
    state.SkipWithError(
        ("verification failed: " + std::to_string(wrong) + " wrong elements").c_str());
    return;
  }
  constexpr int repeats = 8;
  double transfers = 0.0, table_us = 0.0;
  {
    const loopnest_test::deep_copy_counter copies;
    const loopnest_test::region_counter tables(loopnest::cshift_table_region);
    for (int r = 0; r < repeats; ++r) {
      launch();
    }
    exec.fence();
    transfers = double(copies.copies()) / repeats;
    table_us  = 1e6 * tables.seconds() / repeats;
  }
  const double elements = std::pow(double(n), Rank);
  time_launches(state, 2.0 * sizeof(T) * elements, elements, launch);
  state.counters["table_build_us"]     = build_us;
  state.counters["table_us_per_call"]  = table_us;
  state.counters["transfers_per_call"] = transfers;
}

template <class T, int Rank, class Layout>
void register_shape(const char* precision, int n) {
  std::string extents = std::to_string(n);
  for (int d = 1; d < Rank; ++d) {
    extents += "x" + std::to_string(n);
  }
  const char* layout = std::is_same<Layout, Kokkos::LayoutLeft>::value ? "left" : "right";
  for (int dim = 0; dim < Rank; ++dim) {
    for (const int shift : {1, -1}) {
      for (const auto s : {strategy::device_table, strategy::host_table_copy,
                           strategy::host_table_managed, strategy::no_table}) {
        if (s == strategy::host_table_managed && !has_managed_memory_v<exec_space>) {
          continue;
        }
        // Each field that stands where other families put the kernel, schedule and mapping
        // names what it holds, so a name reads right without knowing the family.
        const std::string name = "cshift/rank" + std::to_string(Rank) + "/strategy-" +
                                 strategy_name(s) + "/layout-" + layout + "/" + precision + "/" +
                                 extents + "/dim" + std::to_string(dim) + "/shift" +
                                 std::to_string(shift);
        benchmark::RegisterBenchmark(
            name.c_str(),
            [=](benchmark::State& state) { bm_cshift<T, Rank, Layout>(state, s, n, dim, shift); })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

template <class Layout>
void register_layout() {
  for (const int n : {64, 128, 201, 256}) {
    register_shape<double, 3, Layout>("fp64", n);
    register_shape<float, 3, Layout>("fp32", n);
  }
  for (const int n : {16, 32}) {
    register_shape<spinor, 4, Layout>("spinor", n);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return loopnest_bench::run(argc, argv, [] {
    // Which of the strategies below a call that names none takes.
    benchmark::AddCustomContext("cshift_default_strategy",
                                loopnest::name(loopnest::cshift_default_strategy<exec_space>));
    register_layout<Kokkos::LayoutLeft>();
    register_layout<Kokkos::LayoutRight>();
  });
}
