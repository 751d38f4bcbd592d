// Family `sweep`: a directional update of nvar variables (a four-cell face stencil that mixes two
// variables, then each cell's difference of its faces) along x, y and z, as one loopnest::sweep
// with the faces in team scratch (sweep/<axis>/fused@<pencils>x<length>/...) and as the same two
// stages through memory under automatic (sweep/<axis>/loops/...), in the same run:
// sweep/<axis>/<variant>/<precision>/<n>x<n>x<n>x<nvar>. Counters: pct_copy (the fused pass's
// bytes, each input read and each output written once, against the copy bandwidth) and, for the
// fused variants, x_loops (the loops' time over the sweep's: above 1, the sweep is faster).
#include <loopnest/loopnest.hpp>

#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "sweep_update.hpp"

namespace {

using namespace loopnest_bench;

template <class T>
using fields = loopnest::field_set<T, Kokkos::LayoutLeft, mem_space>;

constexpr int halo = 2;

template <class T>
struct workspace {
  fields<T> q, face, out, reference;
  workspace(int n, int nvar)
      : q("q", nvar, {n, n, n}, halo),
        face("face", nvar, {n, n, n}, halo),
        out("out", nvar, {n, n, n}, halo),
        reference("reference", nvar, {n, n, n}, halo) {
    std::vector<T> host(q.field(0).span());
    for (int v = 0; v < nvar; ++v) {
      unsigned state = 97u + 31u * static_cast<unsigned>(v);
      for (T& x : host) {
        state = state * 1664525u + 1013904223u;
        x     = T(0.25) + T(state >> 8) / T(1u << 24);
      }
      Kokkos::deep_copy(q.field(v), Kokkos::View<const T***, Kokkos::LayoutLeft, Kokkos::HostSpace>(
                                        host.data(), q.field(v).extent(0), q.field(v).extent(1),
                                        q.field(v).extent(2)));
    }
  }
};

template <int Axis, class T>
void by_loops(const workspace<T>& ws, T inv) {
  const int nvar = ws.q.nvar();
  const auto in  = ws.q.interior();
  int hi[3]      = {in.upper(0), in.upper(1), in.upper(2)};
  hi[Axis] += 1;
  const loopnest::box<3> faces{{0, 0, 0}, {hi[0], hi[1], hi[2]}};
  using ref = loopnest::field_set_ref<T>;
  loopnest::for_each_cell<loopnest::automatic>(
      exec_space(), faces,
      loopnest_test::faces_to_memory<Axis, T, ref>{ws.q.ref(), ws.face.ref(), nvar},
      "sweep/loops/faces");
  loopnest::for_each_cell<loopnest::automatic>(exec_space(), in,
                                               loopnest_test::difference_from_memory<Axis, T, ref>{
                                                   ws.face.ref(), ws.reference.ref(), nvar, inv},
                                               "sweep/loops/difference");
}

template <int Axis, class T>
void by_sweep(const workspace<T>& ws, T inv, const loopnest::sweep_shape& shape) {
  const int nvar = ws.q.nvar();
  loopnest::sweep<Axis>(
      exec_space(), ws.q.interior(), ws.q, halo, {{nvar, 0, 1}},
      loopnest_test::sweep_difference<Axis, T, loopnest::field_set_ref<T>>{ws.out.ref(), nvar, inv},
      "sweep/fused", shape);
}

// Whether every element of a and b (ghosts included) has the same bits.
template <class T>
bool same_bits(const fields<T>& a, const fields<T>& b) {
  for (int v = 0; v < a.nvar(); ++v) {
    const auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.field(v));
    const auto y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.field(v));
    if (std::memcmp(x.data(), y.data(), sizeof(T) * x.span()) != 0) {
      return false;
    }
  }
  return true;
}

// shape.pencils == 0: the loops through memory.
template <int Axis, class T>
void bm_sweep(benchmark::State& state, int n, int nvar, loopnest::sweep_shape shape) {
  auto& ws            = shared_workspace<workspace<T>>(std::make_pair(n, nvar), n, nvar);
  const T inv         = T(1) / T(0.37);
  const double values = double(n) * n * n * nvar;
  if (shape.pencils == 0) {
    by_loops<Axis, T>(ws, inv);
    time_launches(state, 2.0 * sizeof(T) * values, values, [&] { by_loops<Axis, T>(ws, inv); });
    return;
  }
  // Verified first: the sweep's output, poisoned before, is the loops' bit for bit.
  for (int v = 0; v < nvar; ++v) {
    Kokkos::deep_copy(ws.out.field(v), std::numeric_limits<T>::quiet_NaN());
    Kokkos::deep_copy(ws.reference.field(v), std::numeric_limits<T>::quiet_NaN());
  }
  by_loops<Axis, T>(ws, inv);
  try {
    by_sweep<Axis, T>(ws, inv, shape);
  } catch (const std::invalid_argument& e) {
    state.SkipWithError(e.what());
    return;
  }
  if (!same_bits(ws.out, ws.reference)) {
    state.SkipWithError("verification failed: the sweep's bits are not the loops'");
    return;
  }
  constexpr int calls = 10;
  const double loops  = shortest(calls, [&] { by_loops<Axis, T>(ws, inv); });
  const double ours   = shortest(calls, [&] { by_sweep<Axis, T>(ws, inv, shape); });
  time_launches(state, 2.0 * sizeof(T) * values, values,
                [&] { by_sweep<Axis, T>(ws, inv, shape); });
  state.counters["x_loops"] = loops / ours;
}

template <int Axis, class T>
void register_one(int n, int nvar, loopnest::sweep_shape shape) {
  const std::string variant = shape.pencils == 0 ? std::string("loops")
                                                 : "fused@" + std::to_string(shape.pencils) + "x" +
                                                       std::to_string(shape.length);
  const std::string name    = std::string("sweep/") + "xyz"[Axis] + "/" + variant + "/" +
                           precision_name<T>() + "/" + std::to_string(n) + "x" + std::to_string(n) +
                           "x" + std::to_string(n) + "x" + std::to_string(nvar);
  benchmark::RegisterBenchmark(
      name.c_str(), [=](benchmark::State& state) { bm_sweep<Axis, T>(state, n, nvar, shape); })
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

// The loops, the backend's default block and, on a GPU, blocks around it for tuning it.
template <int Axis, class T>
void register_axis(int n, int nvar) {
  const loopnest::sweep_shape own = loopnest::sweep_traits<exec_space>::shape;
  register_one<Axis, T>(n, nvar, {0, 0, 0});
  register_one<Axis, T>(n, nvar, own);
  if (own.team_size > 1) {
    for (const loopnest::sweep_shape s :
         {loopnest::sweep_shape{4, 32, 128}, loopnest::sweep_shape{16, 16, 256},
          loopnest::sweep_shape{32, 8, 256}, loopnest::sweep_shape{8, 64, 512}}) {
      register_one<Axis, T>(n, nvar, s);
    }
  }
}

template <class T>
void register_precision(int n, int nvar) {
  register_axis<0, T>(n, nvar);
  register_axis<1, T>(n, nvar);
  register_axis<2, T>(n, nvar);
}

}  // namespace

int main(int argc, char** argv) {
  return loopnest_bench::run(argc, argv, [] {
    for (const int n : {64, 256}) {
      register_precision<double>(n, 5);
      register_precision<float>(n, 5);
    }
  });
}
