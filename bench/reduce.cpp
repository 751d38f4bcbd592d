// Family `reduce`: loopnest::reduce_cell_var over a field set of nvar variables, a sum and a
// maximum (reduce/<reducer>/<schedule>/contiguous/<precision>/<n>x<n>x<n>x<nvar>), under each
// schedule, against Kokkos::parallel_reduce over an MDRangePolicy of the same cells and variables
// in the same run. Counters: pct_copy (bytes read against the copy bandwidth), and x_kokkos,
// Kokkos' time over loopnest's (above 1: loopnest is faster), both timed as the shortest of the
// same number of fenced calls.
#include <loopnest/loopnest.hpp>

#include <Kokkos_Random.hpp>

#include <cmath>
#include <string>

#include "bench_common.hpp"

namespace {

using namespace loopnest_bench;

template <class T>
using field = Kokkos::View<T****, Kokkos::LayoutLeft, mem_space>;

template <class T>
struct workspace {
  field<T> q;
  explicit workspace(int n, int nvar) : q("q", n, n, n, nvar) {
    Kokkos::Random_XorShift64_Pool<exec_space> pool(2468u + n);
    Kokkos::fill_random(q, pool, T(0), T(1));
  }
};

enum class reduction { sum, max };

const char* reduction_name(reduction r) {
  return r == reduction::sum ? "sum" : "max";
}

// The reduction by loopnest under Schedule, and the same by Kokkos.
template <class Schedule, class T>
T by_loopnest(const field<T>& q, reduction r) {
  const loopnest::box<3> b{{0, 0, 0}, {int(q.extent(0)), int(q.extent(1)), int(q.extent(2))}};
  const int nvar = int(q.extent(3));
  T result       = T(-1);
  if (r == reduction::sum) {
    loopnest::reduce_cell_var<Schedule>(
        exec_space(), b, nvar,
        KOKKOS_LAMBDA(int i, int j, int k, int v, T& acc) { acc += q(i, j, k, v); },
        Kokkos::Sum<T>(result), "reduce/loopnest");
  } else {
    loopnest::reduce_cell_var<Schedule>(
        exec_space(), b, nvar,
        KOKKOS_LAMBDA(int i, int j, int k, int v, T& acc) {
          acc = q(i, j, k, v) > acc ? q(i, j, k, v) : acc;
        },
        Kokkos::Max<T>(result), "reduce/loopnest");
  }
  return result;
}

template <class T>
T by_kokkos(const field<T>& q, reduction r) {
  const Kokkos::MDRangePolicy<exec_space, Kokkos::Rank<4>> cells(
      {0, 0, 0, 0}, {q.extent(0), q.extent(1), q.extent(2), q.extent(3)});
  T result = T(-1);
  if (r == reduction::sum) {
    Kokkos::parallel_reduce(
        "reduce/kokkos", cells,
        KOKKOS_LAMBDA(int i, int j, int k, int v, T& acc) { acc += q(i, j, k, v); },
        Kokkos::Sum<T>(result));
  } else {
    Kokkos::parallel_reduce(
        "reduce/kokkos", cells,
        KOKKOS_LAMBDA(int i, int j, int k, int v, T& acc) {
          acc = q(i, j, k, v) > acc ? q(i, j, k, v) : acc;
        },
        Kokkos::Max<T>(result));
  }
  return result;
}

template <class Schedule, class T>
void bm_reduce(benchmark::State& state, reduction r, int n, int nvar) {
  auto& ws = shared_workspace<workspace<T>>(std::make_pair(n, nvar), n, nvar);
  // Verified first: against Kokkos (the same cells in another order, so a sum to a rounding
  // tolerance), then loopnest's own result again, bit for bit.
  const T reference = by_kokkos(ws.q, r);
  const T first     = by_loopnest<Schedule>(ws.q, r);
  const double tolerance =
      r == reduction::max ? 0.0 : (sizeof(T) == 4 ? 1e-4 : 1e-10) * std::fabs(double(reference));
  if (!(std::fabs(double(first) - double(reference)) <= tolerance)) {
    state.SkipWithError(("verification failed: " + std::to_string(double(first)) +
                         " against Kokkos' " + std::to_string(double(reference)))
                            .c_str());
    return;
  }
  if (!(by_loopnest<Schedule>(ws.q, r) == first)) {
    state.SkipWithError("verification failed: a second call gave other bits");
    return;
  }
  constexpr int calls = 20;
  const double kokkos = shortest(calls, [&] { by_kokkos(ws.q, r); });
  const double ours   = shortest(calls, [&] { by_loopnest<Schedule>(ws.q, r); });
  const double values = double(n) * n * n * nvar;
  time_launches(state, sizeof(T) * values, values, [&] { by_loopnest<Schedule>(ws.q, r); });
  state.counters["x_kokkos"]  = kokkos / ours;
  state.counters["kokkos_us"] = 1e6 * kokkos;
}

template <class Schedule, class T>
void register_one(reduction r, int n, int nvar) {
  const std::string name = std::string("reduce/") + reduction_name(r) + "/" +
                           loopnest::name(Schedule::kind) + "/contiguous/" + precision_name<T>() +
                           "/" + std::to_string(n) + "x" + std::to_string(n) + "x" +
                           std::to_string(n) + "x" + std::to_string(nvar);
  benchmark::RegisterBenchmark(
      name.c_str(), [=](benchmark::State& state) { bm_reduce<Schedule, T>(state, r, n, nvar); })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

template <class T>
void register_precision(int n, int nvar) {
  for (const reduction r : {reduction::sum, reduction::max}) {
    register_one<loopnest::collapse3, T>(r, n, nvar);
    register_one<loopnest::collapse4, T>(r, n, nvar);
    register_one<loopnest::flat, T>(r, n, nvar);
    register_one<loopnest::automatic, T>(r, n, nvar);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return loopnest_bench::run(argc, argv, [] {
    for (const int n : {32, 64, 256}) {
      register_precision<double>(n, 8);
      register_precision<float>(n, 8);
    }
  });
}
