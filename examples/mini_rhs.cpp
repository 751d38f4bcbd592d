// One right-hand-side evaluation the way an MFC-like code does it, on loopnest's kernels: copy
// the conservative variables, then per direction pack them for reconstruction, solve a (first-
// order upwind) Riemann problem into a packed flux buffer, finalize the fluxes into a field set
// and difference them. Checks the result against a host loop, then prints the grind time (ns
// per grid point per equation per RHS) for collapse3 and collapse4.
//   loopnest-example-mini-rhs [N [REPETITIONS]]   (N^3 interior cells, 8 variables, 4 ghosts)
#include <loopnest/loopnest.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

using exec_space = Kokkos::DefaultExecutionSpace;
using space      = exec_space::memory_space;
using fields     = loopnest::field_set<double, Kokkos::LayoutLeft, space>;
using packed     = loopnest::packed_fields<double, Kokkos::LayoutLeft, space>;

constexpr int nvar = 8, ghost = 4;

// A smooth field, ghosts included. (nvcc allows KOKKOS_LAMBDA in named functions only, not in
// constructors.)
void fill_smooth(const fields& q) {
  const auto qr  = q.ref();
  const double h = 1.0 / q.interior_extent(0);
  loopnest::for_each_cell_var<loopnest::collapse3>(
      exec_space(), q.with_ghosts(), nvar, KOKKOS_LAMBDA(int i, int j, int l, int v) {
        const double x = i * h, y = j * h, z = l * h;
        qr(v, i, j, l) = 1.0 + 0.1 * (v + 1) * (x * x - 0.5 * y * z + 0.25 * z * z * z);
      });
}

struct state {
  int n;
  fields q, q_prim, flux, rhs;
  packed q_rs[3], flux_rs;
  Kokkos::View<double*, space> inv_d[3];

  explicit state(int n_)
      : n(n_),
        q("q", nvar, {n, n, n}, ghost),
        q_prim("q_prim", nvar, {n, n, n}, ghost),
        flux("flux", nvar, {n, n, n}, ghost),
        rhs("rhs", nvar, {n, n, n}, ghost),
        q_rs{packed("q_rs_x", nvar, {n, n, n}, ghost, loopnest::axis_order::xyz),
             packed("q_rs_y", nvar, {n, n, n}, ghost, loopnest::axis_order::yxz),
             packed("q_rs_z", nvar, {n, n, n}, ghost, loopnest::axis_order::zyx)},
        flux_rs("flux_rs", nvar, {n, n, n}, ghost) {
    for (int d = 0; d < 3; ++d) {
      inv_d[d] = Kokkos::View<double*, space>("inv_d", n);
      Kokkos::deep_copy(inv_d[d], n * (1.0 + 0.25 * d));
    }
    fill_smooth(q);
  }
};

// First-order upwind flux at the face above each cell along `dir`: the value of the cell below.
void riemann_upwind(const packed& q_rs, const packed& flux_rs, int dir) {
  const auto in  = q_rs.ref();
  const auto out = flux_rs.ref();
  const loopnest::box<3> faces{
      {dir == 0 ? -1 : 0, dir == 1 ? -1 : 0, dir == 2 ? -1 : 0},
      {q_rs.interior_extent(0), q_rs.interior_extent(1), q_rs.interior_extent(2)}};
  loopnest::for_each_cell_var<loopnest::collapse3>(
      exec_space(), faces, nvar,
      KOKKOS_LAMBDA(int i, int j, int k, int v) { out(v, i, j, k) = in(v, i, j, k); }, "riemann");
}

template <class Schedule>
void evaluate_rhs(state& s) {
  const exec_space exec;
  loopnest::copy_fields<Schedule>(exec, s.q_prim, s.q);
  for (int d = 0; d < 3; ++d) {
    loopnest::pack_weno<Schedule>(exec, s.q_rs[d], s.q_prim);
    riemann_upwind(s.q_rs[d], s.flux_rs, d);
    loopnest::finalize_flux<Schedule>(exec, d, s.flux, s.flux_rs);
    loopnest::flux_difference<Schedule>(exec, d, s.rhs, s.flux, s.inv_d[d]);
  }
}

// rhs = sum over directions of inv_d * (q(c - e_d) - q(c)), summed as the kernels do.
double max_error(const state& s) {
  std::vector<Kokkos::View<double***, Kokkos::LayoutLeft, space>::HostMirror> q, r;
  for (int v = 0; v < nvar; ++v) {
    q.emplace_back(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.q.field(v)));
    r.emplace_back(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.rhs.field(v)));
  }
  double inv[3];
  for (int d = 0; d < 3; ++d) {
    inv[d] = s.n * (1.0 + 0.25 * d);
  }
  double worst = 0.0;
  for (int v = 0; v < nvar; ++v) {
    for (int l = 0; l < s.n; ++l) {
      for (int j = 0; j < s.n; ++j) {
        for (int i = 0; i < s.n; ++i) {
          auto at = [&](int a, int b, int c) { return q[v](a + ghost, b + ghost, c + ghost); };
          double expect = inv[0] * (at(i - 1, j, l) - at(i, j, l));
          expect        = loopnest::fma(inv[1], at(i, j - 1, l) - at(i, j, l), expect);
          expect        = loopnest::fma(inv[2], at(i, j, l - 1) - at(i, j, l), expect);
          worst = std::fmax(worst, std::fabs(r[v](i + ghost, j + ghost, l + ghost) - expect));
        }
      }
    }
  }
  return worst;
}

template <class Schedule>
bool run(state& s, int repetitions) {
  for (int v = 0; v < nvar; ++v) {
    Kokkos::deep_copy(s.rhs.field(v), -1.0e30);
  }
  evaluate_rhs<Schedule>(s);
  exec_space().fence();
  const double error = max_error(s);
  const auto t0      = std::chrono::steady_clock::now();
  for (int r = 0; r < repetitions; ++r) {
    evaluate_rhs<Schedule>(s);
  }
  exec_space().fence();
  const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
  const double grind = 1e9 * dt.count() / repetitions / (double(s.n) * s.n * s.n * nvar);
  std::printf("%-10s max error %.3g  grind time %.4f ns/gp/eq/rhs\n",
              loopnest::name(Schedule::kind), error, grind);
  return error == 0.0;
}

int parse(const char* text, const char* what, int least) {
  char* end    = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*end != '\0' || v < least || v > 4096) {
    std::fprintf(stderr, "loopnest-example-mini-rhs: %s = '%s' is not an integer in [%d, 4096]\n",
                 what, text, least);
    std::exit(2);
  }
  return static_cast<int>(v);
}

}  // namespace

int main(int argc, char* argv[]) {
  // Before Kokkos, which would print its own help for --help.
  for (int a = 1; a < argc; ++a) {
    if (std::string(argv[a]) == "--help" || std::string(argv[a]) == "-h") {
      std::printf(
          "usage: loopnest-example-mini-rhs [N [REPETITIONS]] [Kokkos options]\n"
          "  N            interior cells per direction (default 32; 8 variables, 4 ghost layers)\n"
          "  REPETITIONS  right-hand sides timed per schedule (default 3)\n"
          "Checks collapse3 and collapse4 against a host loop, prints each one's grind time\n"
          "(ns per grid point per equation per RHS) and CHECK=PASS or CHECK=FAIL (exit 1).\n");
      return 0;
    }
  }
  try {
    Kokkos::ScopeGuard kokkos(argc, argv);
    const int n           = argc > 1 ? parse(argv[1], "N", 2) : 32;
    const int repetitions = argc > 2 ? parse(argv[2], "REPETITIONS", 1) : 3;
    state s(n);
    std::printf("%d^3 cells, %d variables, %d ghost layers, %s\n", n, nvar, ghost,
                exec_space::name());
    // Both schedules run, whatever the first one finds.
    const bool ok3 = run<loopnest::collapse3>(s, repetitions);
    const bool ok4 = run<loopnest::collapse4>(s, repetitions);
    std::printf("CHECK=%s\n", ok3 && ok4 ? "PASS" : "FAIL");
    return ok3 && ok4 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loopnest-example-mini-rhs: %s\n", e.what());
    return 1;
  }
}
