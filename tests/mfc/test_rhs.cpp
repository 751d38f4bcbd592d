// loopnest-mfc's right-hand side and time step (examples/mfc/rhs.hpp, weno.hpp, riemann.hpp)
// against what the five-equation model must do: shock tubes against the exact Riemann solver along
// each direction, pressure and velocity kept uniform across a moving material interface,
// conservation on periodic domains, the characteristic boundaries (cbc.hpp: a pulse leaving
// without coming back, a wall reflecting it, a supersonic inflow held, a uniform flow kept), and
// the same bits under every schedule (HLLC and HLL).
#include "exact_riemann.hpp"

#include <gtest/gtest.h>
#include <cbc.hpp>
#include <rhs.hpp>

#include <loopnest/schedule.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

using loopnest_mfc::case_config;
using loopnest_mfc::host_fields;
using loopnest_test::exact_riemann::side;

// MFC stores 1/(gamma - 1) and gamma*pi_inf/(gamma - 1).
loopnest_mfc::fluid_config fluid(double gamma, double pi_inf) {
  loopnest_mfc::fluid_config f;
  f.gamma  = 1.0 / (gamma - 1.0);
  f.pi_inf = gamma * pi_inf / (gamma - 1.0);
  return f;
}

// A case on [0, 1] along `tube` with `cells` cells, `across` cells in the other directions of a
// `dims`-dimensional grid, boundary type `bc` everywhere.
case_config make_case(int dims, int tube, int cells, int across, int bc, int fluids, double dt) {
  case_config c;
  c.num_dims   = dims;
  c.num_fluids = fluids;
  c.dt         = dt;
  for (int d = 0; d < dims; ++d) {
    loopnest_mfc::axis_config& a = c.axis[d];
    a.cells_minus_one            = (d == tube ? cells : across) - 1;
    a.beg                        = 0.0;
    a.end                        = d == tube ? 1.0 : static_cast<double>(across) / cells;
    a.bc_beg                     = bc;
    a.bc_end                     = bc;
  }
  return c;
}

struct run_output {
  case_config c;
  host_fields cons;
};

// Runs `steps` SSP-RK3 steps from the primitive state `prim` under Schedule, in T.
template <class T, class Schedule = loopnest::collapse3>
host_fields run(const case_config& c, const host_fields& prim, int steps, bool sweep = false) {
  const loopnest_mfc::grid g = loopnest_mfc::generate_grid(c);
  loopnest_mfc::five_equation_solver<T> solver(Kokkos::DefaultExecutionSpace(), c, g, false);
  solver.sweep_directions(sweep);
  solver.load(loopnest_mfc::conservative_of<T>(c, prim));
  for (int n = 0; n < steps; ++n) {
    solver.template step<Schedule>();
  }
  return solver.conservative();
}

// The primitive state of a two-state problem split at x = 0.5 along `tube`; with two fluids the
// left state is fluid 1 and the right fluid 2 (volume fractions 1 - eps and eps).
host_fields two_states(const case_config& c, int tube, const side& l, const side& r) {
  const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
  host_fields prim(c.m() + 1, c.n() + 1, c.p() + 1, c.sys_size(), 0.0);
  const int cells  = c.axis[tube].cells_minus_one + 1;
  const double eps = 1e-8;
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i) {
        const int t                 = tube == 0 ? i : tube == 1 ? j : k;
        const bool left             = (t + 0.5) / cells < 0.5;
        const side& s               = left ? l : r;
        prim(ix.mom(tube), i, j, k) = s.u;
        prim(ix.energy(), i, j, k)  = s.p;
        if (c.num_fluids == 1) {
          prim(ix.cont(0), i, j, k) = s.rho;
          prim(ix.adv(0), i, j, k)  = 1.0;
        } else {
          const double a1           = left ? 1.0 - eps : eps;
          prim(ix.cont(0), i, j, k) = a1 * s.rho;
          prim(ix.cont(1), i, j, k) = (1.0 - a1) * s.rho;
          prim(ix.adv(0), i, j, k)  = a1;
          prim(ix.adv(1), i, j, k)  = 1.0 - a1;
        }
      }
    }
  }
  return prim;
}

// Density, velocity along the tube and pressure of cell t of the tube's first row.
struct cell_state {
  double rho, u, p;
};
cell_state state_at(const case_config& c, const host_fields& cons, int tube, int t) {
  const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
  const int i = tube == 0 ? t : 0, j = tube == 1 ? t : 0, k = tube == 2 ? t : 0;
  double q[loopnest_mfc::max_equations];
  double p[loopnest_mfc::max_equations];
  for (int v = 0; v < c.sys_size(); ++v) {
    q[v] = cons(v, i, j, k);
  }
  const loopnest_mfc::stiffened_gas<double> eos = loopnest_mfc::eos_of<double>(c);
  loopnest_mfc::conservative_to_primitive(eos, q, p, loopnest_mfc::conversion_site::simulation);
  double rho = 0.0;
  for (int f = 0; f < c.num_fluids; ++f) {
    rho += q[ix.cont(f)];
  }
  return {rho, p[ix.mom(tube)], p[ix.energy()]};
}

struct tube_problem {
  const char* name;
  side left, right;
  double t_end;
  int fluids;
};

// Runs the problem along `tube` to t_end at 400 cells, one across (CFL 0.4 on the exact solution's
// fastest wave) and compares the star states, each read in the middle of its plateau, with the
// exact ones: within 1%.
void check_tube(const tube_problem& problem, int tube, int weno_order = 5,
                double tolerance = 0.01) {
  using namespace loopnest_test::exact_riemann;
  const star s      = solve_star(problem.left, problem.right);
  const wave lw     = left_wave(problem.left, s);
  const wave rw     = right_wave(problem.right, s);
  const double fast = std::max(std::abs(lw.head), std::abs(rw.head));
  const int cells   = 400;
  const int steps   = static_cast<int>(std::ceil(problem.t_end * fast / (0.4 / cells)));
  const double dt   = problem.t_end / steps;
  case_config c     = make_case(tube + 1, tube, cells, 1, -3, problem.fluids, dt);
  c.weno_order      = weno_order;
  for (int f = 0; f < problem.fluids; ++f) {
    const side& m = f == 0 ? problem.left : problem.right;
    c.fluids[f]   = fluid(m.gamma, m.pi_inf);
  }
  if (problem.fluids == 1) {
    c.fluids[0] = fluid(problem.left.gamma, problem.left.pi_inf);
  }
  const host_fields cons = run<double>(c, two_states(c, tube, problem.left, problem.right), steps);
  const auto cell_at     = [&](double x_over_t) {
    return static_cast<int>((0.5 + x_over_t * problem.t_end) * cells);
  };
  // Between the left wave's tail and the contact, and between the contact and the right wave.
  const cell_state l   = state_at(c, cons, tube, cell_at(0.5 * (lw.tail + s.u)));
  const cell_state r   = state_at(c, cons, tube, cell_at(0.5 * (s.u + rw.tail)));
  const double u_scale = std::max(std::abs(s.u), 0.1 * fast);
  SCOPED_TRACE(std::string(problem.name) + " along direction " + std::to_string(tube) +
               ", weno_order " + std::to_string(weno_order));
  EXPECT_NEAR(l.p, s.p, tolerance * std::abs(s.p));
  EXPECT_NEAR(r.p, s.p, tolerance * std::abs(s.p));
  EXPECT_NEAR(l.u, s.u, tolerance * u_scale);
  EXPECT_NEAR(r.u, s.u, tolerance * u_scale);
  EXPECT_NEAR(l.rho, s.rho_left, tolerance * s.rho_left);
  EXPECT_NEAR(r.rho, s.rho_right, tolerance * s.rho_right);
}

const tube_problem problems[] = {
    {"Sod (Toro test 1)", {1.0, 0.0, 1.0, 1.4, 0.0}, {0.125, 0.0, 0.1, 1.4, 0.0}, 0.2, 1},
    {"Lax", {0.445, 0.698, 3.528, 1.4, 0.0}, {0.5, 0.0, 0.571, 1.4, 0.0}, 0.13, 1},
    {"strong Sod (two fluids alike)",
     {1.0, 0.0, 10.0, 1.4, 0.0},
     {0.125, 0.0, 0.1, 1.4, 0.0},
     0.1,
     2},
    {"water shock tube (two fluids alike)",
     {1000.0, 0.0, 1.0e9, 4.4, 6.0e8},
     {1000.0, 0.0, 1.0e5, 4.4, 6.0e8},
     2.0e-4,
     2},
};

TEST(mfc_rhs, shock_tubes_match_the_exact_star_states_along_x) {
  for (const tube_problem& p : problems) {
    check_tube(p, 0);
  }
}

TEST(mfc_rhs, shock_tubes_match_the_exact_star_states_along_y) {
  for (const tube_problem& p : problems) {
    check_tube(p, 1);
  }
}

TEST(mfc_rhs, shock_tubes_match_the_exact_star_states_along_z) {
  for (const tube_problem& p : problems) {
    check_tube(p, 2);
  }
}

// WENO3 (weno_order 3) on the same problems within 1%; first order (weno_order 1) within 4%, its
// smearing of the strong Sod problem's narrow shocked plateau being 3% at 400 cells.
TEST(mfc_rhs, lower_orders_match_the_exact_star_states) {
  for (const tube_problem& p : problems) {
    check_tube(p, 0, 3);
    check_tube(p, 0, 1, 0.04);
  }
}

// Water (fluid 1: gamma 4.4, pi_inf 6e8) and air (fluid 2) on a periodic domain, mpp_lim and
// mixture_err on.
case_config water_and_air(int dims, int cells, int across, double dt, bool mapped) {
  case_config c = make_case(dims, 0, cells, across, -1, 2, dt);
  c.fluids[0]   = fluid(4.4, 6.0e8);
  c.fluids[1]   = fluid(1.4, 0.0);
  c.mapped_weno = mapped;
  c.mpp_lim     = true;
  c.mixture_err = true;
  return c;
}

// A cell holding water (density 1000) at volume fraction a1 and air of density air_rho.
void set_water_fraction(host_fields& prim, const loopnest_mfc::equation_index& ix, int i, int j,
                        int k, double a1, double air_rho) {
  prim(ix.cont(0), i, j, k) = a1 * 1000.0;
  prim(ix.cont(1), i, j, k) = (1.0 - a1) * air_rho;
  prim(ix.adv(0), i, j, k)  = a1;
  prim(ix.adv(1), i, j, k)  = 1.0 - a1;
}

// Water in the middle of air, moving at 100 m/s with 1e5 Pa everywhere: the five-equation model
// keeps p and u uniform.
case_config interface_case(int dims, bool mapped) {
  return water_and_air(dims, 64, 8, 2.0e-6, mapped);
}

host_fields interface_state(const case_config& c) {
  const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
  host_fields prim(c.m() + 1, c.n() + 1, c.p() + 1, c.sys_size(), 0.0);
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i) {
        const double x = (i + 0.5) / (c.m() + 1);
        set_water_fraction(prim, ix, i, j, k, (x > 0.3 && x < 0.6) ? 1.0 - 1e-6 : 1e-6, 1.0);
        prim(ix.mom(0), i, j, k)   = 100.0;
        prim(ix.energy(), i, j, k) = 1.0e5;
      }
    }
  }
  return prim;
}

TEST(mfc_rhs, a_moving_interface_keeps_pressure_and_velocity_uniform) {
  for (int dims = 1; dims <= 2; ++dims) {
    for (const bool mapped : {false, true}) {
      const case_config c    = interface_case(dims, mapped);
      const host_fields cons = run<double>(c, interface_state(c), 100);
      double worst_p = 0.0, worst_u = 0.0;
      for (int i = 0; i <= c.m(); ++i) {
        const cell_state s = state_at(c, cons, 0, i);
        worst_p            = std::max(worst_p, std::abs(s.p / 1.0e5 - 1.0));
        worst_u            = std::max(worst_u, std::abs(s.u / 100.0 - 1.0));
      }
      SCOPED_TRACE("dims " + std::to_string(dims) + (mapped ? " mapped" : " JS"));
      EXPECT_LT(worst_p, 1e-10);
      EXPECT_LT(worst_u, 1e-10);
      // The interface has moved: the water is no longer where it started.
      const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
      EXPECT_GT(std::abs(cons(ix.adv(0), 19, 0, 0) - interface_state(c)(ix.adv(0), 19, 0, 0)),
                1e-3);
    }
  }
}

// HLL along y is HLL along x with the axes swapped (MFC's HLL goldens are 1D, along x): the water
// column of the interface test moving along either axis, 100 steps, each value alike. (HLL does not
// keep this interface's pressure uniform as HLLC does: it smears the energy and the volume
// fractions apart, 0.8% off after 100 steps, the same along x in 1D.)
TEST(mfc_rhs, hll_along_y_is_hll_along_x_transposed) {
  case_config along_x    = interface_case(2, false);
  along_x.riemann_solver = 1;
  case_config along_y    = along_x;
  std::swap(along_y.axis[0], along_y.axis[1]);
  const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(along_x);
  const host_fields prim_x              = interface_state(along_x);
  host_fields prim_y(along_y.m() + 1, along_y.n() + 1, 1, along_y.sys_size(), 0.0);
  for (int j = 0; j <= along_x.n(); ++j) {
    for (int i = 0; i <= along_x.m(); ++i) {
      for (int v = 0; v < along_x.sys_size(); ++v) {
        const int w        = v == ix.mom(0) ? ix.mom(1) : v == ix.mom(1) ? ix.mom(0) : v;
        prim_y(w, j, i, 0) = prim_x(v, i, j, 0);
      }
    }
  }
  const host_fields x = run<double>(along_x, prim_x, 100);
  const host_fields y = run<double>(along_y, prim_y, 100);
  double worst        = 0.0;
  for (int j = 0; j <= along_x.n(); ++j) {
    for (int i = 0; i <= along_x.m(); ++i) {
      for (int v = 0; v < along_x.sys_size(); ++v) {
        const int w    = v == ix.mom(0) ? ix.mom(1) : v == ix.mom(1) ? ix.mom(0) : v;
        const double a = x(v, i, j, 0), b = y(w, j, i, 0);
        const double e = std::abs(a - b) / (1.0 + std::abs(a));
        // A value that is not a number makes worst one too.
        worst = e <= worst ? worst : e;
      }
    }
  }
  EXPECT_LE(worst, 1e-14);
  // The interface has moved.
  EXPECT_GT(std::abs(x(ix.adv(0), 19, 0, 0) - prim_x(ix.adv(0), 19, 0, 0)), 1e-3);
}

// A 2D periodic case with a water column, a pressure pulse and a shear flow: every fluid's mass,
// both momenta and the energy are sums of fluxes that cancel in pairs.
case_config periodic_case() {
  return water_and_air(2, 32, 32, 1.0e-6, true);
}

host_fields periodic_state(const case_config& c) {
  const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
  host_fields prim(c.m() + 1, c.n() + 1, 1, c.sys_size(), 0.0);
  const double pi = std::acos(-1.0);
  for (int j = 0; j <= c.n(); ++j) {
    for (int i = 0; i <= c.m(); ++i) {
      const double x  = (i + 0.5) / (c.m() + 1);
      const double y  = (j + 0.5) / (c.n() + 1);
      const double r2 = (x - 0.5) * (x - 0.5) + (y - 0.4) * (y - 0.4);
      set_water_fraction(prim, ix, i, j, 0, r2 < 0.04 ? 1.0 - 1e-6 : 1e-6, 1.2);
      prim(ix.mom(0), i, j, 0)   = 50.0 * std::sin(2 * pi * y);
      prim(ix.mom(1), i, j, 0)   = 20.0 * std::cos(2 * pi * x);
      prim(ix.energy(), i, j, 0) = 1.0e5 * (1.0 + 0.5 * std::exp(-100.0 * r2));
    }
  }
  return prim;
}

std::vector<double> totals(const host_fields& f) {
  std::vector<double> sum(static_cast<std::size_t>(f.nvar), 0.0);
  for (int v = 0; v < f.nvar; ++v) {
    for (int j = 0; j < f.ny; ++j) {
      for (int i = 0; i < f.nx; ++i) {
        sum[static_cast<std::size_t>(v)] += f(v, i, j, 0);
      }
    }
  }
  return sum;
}

TEST(mfc_rhs, periodic_domains_conserve_mass_momentum_and_energy) {
  const case_config c              = periodic_case();
  const host_fields prim           = periodic_state(c);
  const host_fields start          = loopnest_mfc::conservative_of<double>(c, prim);
  const host_fields end            = run<double>(c, prim, 100);
  const std::vector<double> before = totals(start), after = totals(end);
  const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
  // The state has changed: the pulse has spread.
  EXPECT_GT(std::abs(end(ix.energy(), 16, 12, 0) - start(ix.energy(), 16, 12, 0)), 1.0);
  // Momentum sums to zero here, so its error is relative to the sum of its magnitudes.
  for (int v = 0; v < c.sys_size() - c.num_fluids; ++v) {
    double scale = std::abs(before[static_cast<std::size_t>(v)]);
    if (v == ix.mom(0) || v == ix.mom(1)) {
      scale = 0.0;
      for (int j = 0; j <= c.n(); ++j) {
        for (int i = 0; i <= c.m(); ++i) {
          scale += std::abs(start(v, i, j, 0));
        }
      }
    }
    SCOPED_TRACE("variable " + std::to_string(v));
    EXPECT_LE(std::abs(after[static_cast<std::size_t>(v)] - before[static_cast<std::size_t>(v)]),
              1e-12 * scale);
  }
}

// Five steps of c from prim under every schedule, and with each direction's WENO and Riemann
// solver as one sweep: each gives collapse3's bits, which it returns.
template <class T>
host_fields same_bits_under_every_schedule(const case_config& c, const host_fields& prim) {
  host_fields ref         = run<T, loopnest::collapse3>(c, prim, 5);
  const host_fields c4    = run<T, loopnest::collapse4>(c, prim, 5);
  const host_fields flat  = run<T, loopnest::flat>(c, prim, 5);
  const host_fields aut   = run<T, loopnest::automatic>(c, prim, 5);
  const host_fields swept = run<T, loopnest::automatic>(c, prim, 5, true);
  const std::size_t bytes = ref.values.size() * sizeof(double);
  EXPECT_EQ(std::memcmp(ref.values.data(), c4.values.data(), bytes), 0);
  EXPECT_EQ(std::memcmp(ref.values.data(), flat.values.data(), bytes), 0);
  EXPECT_EQ(std::memcmp(ref.values.data(), aut.values.data(), bytes), 0);
  EXPECT_EQ(std::memcmp(ref.values.data(), swept.values.data(), bytes), 0) << "sweep";
  return ref;
}

// Bit for bit, whatever the schedule (FP64 and FP32), with HLLC and with HLL.
template <class T>
void check_schedules_agree() {
  case_config c           = periodic_case();
  const host_fields prim  = periodic_state(c);
  const host_fields ref   = same_bits_under_every_schedule<T>(c, prim);
  const std::size_t bytes = ref.values.size() * sizeof(double);
  EXPECT_NE(std::memcmp(ref.values.data(), loopnest_mfc::conservative_of<T>(c, prim).values.data(),
                        bytes),
            0);
  c.riemann_solver      = 1;
  const host_fields hll = same_bits_under_every_schedule<T>(c, prim);
  // HLL's state is not HLLC's: the runs took the other solver.
  EXPECT_NE(std::memcmp(ref.values.data(), hll.values.data(), bytes), 0);
  // WENO3 and WENO1, whose sweeps stage fewer cells on either side.
  for (const int order : {3, 1}) {
    c.weno_order = order;
    same_bits_under_every_schedule<T>(c, prim);
  }
}

TEST(mfc_rhs, every_schedule_gives_the_same_bits_fp64) {
  check_schedules_agree<double>();
}
TEST(mfc_rhs, every_schedule_gives_the_same_bits_fp32) {
  check_schedules_agree<float>();
}

// s_compute_cbc_coefficients on uneven widths: the one-sided differences are exact for a linear
// profile (and, on even widths, WENO5's for a quartic), and the inner faces' interpolation of
// cell averages for a linear one (WENO5's for a cubic).
TEST(mfc_rhs, characteristic_coefficients_differentiate_and_interpolate_exactly) {
  const double ds[loopnest_mfc::buff_size + 1] = {0.011, 0.0093, 0.0127, 0.0104, 0.0089};
  double s[loopnest_mfc::buff_size + 2]        = {0.0};
  for (int i = 0; i <= loopnest_mfc::buff_size; ++i) {
    s[i + 1] = s[i] + ds[i];
  }
  // The average of x^power over cell k.
  const auto average = [&](int k, int power) {
    return (std::pow(s[k + 1], power + 1) - std::pow(s[k], power + 1)) / ((power + 1) * ds[k]);
  };
  for (const int order : {1, 3, 5}) {
    SCOPED_TRACE("weno_order " + std::to_string(order));
    const auto c = loopnest_mfc::cbc_coefficients_of<double>(ds, order);
    EXPECT_EQ(c.fd_count, order == 1 ? 2 : order == 3 ? 3 : 5);
    EXPECT_EQ(c.ds0, ds[0]);
    double slope = 0.0;
    for (int j = 0; j < c.fd_count; ++j) {
      slope += c.fd[j] * (2.0 - 3.0 * 0.5 * (s[j] + s[j + 1]));
    }
    EXPECT_NEAR(slope, -3.0, 1e-12);
    const int inner = order == 5 ? 2 : order == 3 ? 1 : 0;
    for (int power = 1; power <= (order == 5 ? 3 : 1); ++power) {
      for (int j = 0; j < inner; ++j) {
        SCOPED_TRACE("x^" + std::to_string(power) + " at face " + std::to_string(j));
        const double f0 = average(0, power), f1 = average(1, power);
        const double face =
            order == 3 ? f0 + c.pi[0][0] * (f1 - f0)
                       : average(j, power) + c.pi[j][0] * (average(3, power) - average(2, power)) +
                             c.pi[j][1] * (average(2, power) - f1) + c.pi[j][2] * (f1 - f0);
        EXPECT_NEAR(face, std::pow(s[j + 1], power), 1e-13 * std::pow(s[3], power));
      }
    }
  }
  // Even widths: WENO5's difference is the fourth-order one-sided one.
  const double even[loopnest_mfc::buff_size + 1] = {0.01, 0.01, 0.01, 0.01, 0.01};
  const auto c = loopnest_mfc::cbc_coefficients_of<double>(even, 5);
  double d     = 0.0;
  for (int j = 0; j < 5; ++j) {
    d += c.fd[j] * std::pow(0.01 * (j + 0.5), 4);
  }
  EXPECT_NEAR(d, 4.0 * std::pow(0.005, 3), 1e-12);
}

// An ideal gas (gamma 1.4) at rest, density and pressure 1, on [0, 1] (`cells` cells along x,
// `across` in the other directions), with a right-going acoustic pulse of amplitude 1e-3 centred
// at x = 0.7 (u = p'/(rho c), rho' = p'/c^2), boundary `bc_end` at x's end and -3 elsewhere.
constexpr double pulse_amplitude = 1e-3;

case_config pulse_case(int dims, int cells, int across, int bc_end, int weno_order) {
  const double c0  = std::sqrt(1.4);
  case_config c    = make_case(dims, 0, cells, across, -3, 1, 0.4 / cells / c0);
  c.fluids[0]      = fluid(1.4, 0.0);
  c.weno_order     = weno_order;
  c.axis[0].bc_end = bc_end;
  return c;
}

host_fields pulse_state(const case_config& c) {
  const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
  host_fields prim(c.m() + 1, c.n() + 1, c.p() + 1, c.sys_size(), 0.0);
  const double c0 = std::sqrt(1.4);
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i) {
        const double x             = (i + 0.5) / (c.m() + 1);
        const double dp            = pulse_amplitude * std::exp(-std::pow((x - 0.7) / 0.05, 2));
        prim(ix.cont(0), i, j, k)  = 1.0 + dp / (c0 * c0);
        prim(ix.mom(0), i, j, k)   = dp / c0;
        prim(ix.energy(), i, j, k) = 1.0 + dp;
        prim(ix.adv(0), i, j, k)   = 1.0;
      }
    }
  }
  return prim;
}

// The pressure left in the first row, in pulse amplitudes: its least and largest p - 1, once the
// pulse has had time to reach x's end (0.3/c) and to come back to the middle of the domain.
struct pressure_range {
  double low, high;
};
pressure_range pulse_left_behind(int bc_end, int weno_order) {
  const case_config c    = pulse_case(1, 100, 1, bc_end, weno_order);
  const int steps        = static_cast<int>(0.55 / std::sqrt(1.4) / c.dt);
  const host_fields cons = run<double>(c, pulse_state(c), steps);
  pressure_range r{0.0, 0.0};
  for (int i = 0; i <= c.m(); ++i) {
    const double dp = (state_at(c, cons, 0, i).p - 1.0) / pulse_amplitude;
    r.low           = std::min(r.low, dp);
    r.high          = std::max(r.high, dp);
  }
  return r;
}

TEST(mfc_rhs, characteristic_boundaries_reflect_a_pulse_as_their_waves_say) {
  for (const int order : {1, 3, 5}) {
    SCOPED_TRACE("weno_order " + std::to_string(order));
    // A reflective end sends the compression back as one (WENO1 smears it to under half).
    const pressure_range mirror = pulse_left_behind(-2, order);
    EXPECT_GT(mirror.high, 0.4);
    // The slip wall (-5: L(advxe) = L(1)) and, at rest, the force-free outflow (-9: L(1) +
    // 2 rho c u du/ds) reflect it as the reflective end does.
    for (const int bc : {-5, -9}) {
      SCOPED_TRACE("bc " + std::to_string(bc));
      const pressure_range r = pulse_left_behind(bc, order);
      EXPECT_GT(r.high, 0.9 * mirror.high);
      EXPECT_LT(r.high, 1.1 * mirror.high);
      EXPECT_GT(r.low, -0.05);
    }
    // The constant-pressure outflow (-10: L(advxe) = -L(1)) sends it back as a rarefaction.
    const pressure_range node = pulse_left_behind(-10, order);
    EXPECT_LT(node.low, -0.9 * mirror.high);
    EXPECT_LT(node.high, 0.05);
    // The non-reflecting ones (-6, -7, -8: no incoming wave) let it out: what is left is a small
    // fraction of it.
    for (const int bc : {-6, -7, -8}) {
      SCOPED_TRACE("bc " + std::to_string(bc));
      const pressure_range r = pulse_left_behind(bc, order);
      EXPECT_LT(r.high, 0.05);
      EXPECT_GT(r.low, -0.05);
    }
  }
}

// A supersonic inflow (-11) takes no information from inside: the face cell's state stays what it
// was while an entropy wave (a density bump at uniform u = 2, p = 1) passes out through a
// supersonic outflow (-12), which lets it out.
TEST(mfc_rhs, a_supersonic_inflow_holds_its_cell_and_the_outflow_lets_the_flow_out) {
  for (const int order : {1, 3, 5}) {
    SCOPED_TRACE("weno_order " + std::to_string(order));
    case_config c    = make_case(1, 0, 100, 1, -11, 1, 0.4 / 100 / (2.0 + std::sqrt(1.4)));
    c.fluids[0]      = fluid(1.4, 0.0);
    c.weno_order     = order;
    c.axis[0].bc_end = -12;
    const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
    host_fields prim(c.m() + 1, 1, 1, c.sys_size(), 0.0);
    for (int i = 0; i <= c.m(); ++i) {
      const double x             = (i + 0.5) / (c.m() + 1);
      prim(ix.cont(0), i, 0, 0)  = 1.0 + 0.2 * std::exp(-std::pow((x - 0.5) / 0.1, 2));
      prim(ix.mom(0), i, 0, 0)   = 2.0;
      prim(ix.energy(), i, 0, 0) = 1.0;
      prim(ix.adv(0), i, 0, 0)   = 1.0;
    }
    const host_fields start = loopnest_mfc::conservative_of<double>(c, prim);
    // Long enough for the bump to leave: 0.9 at u = 2.
    const host_fields end = run<double>(c, prim, static_cast<int>(0.45 / c.dt));
    for (int v = 0; v < c.sys_size(); ++v) {
      EXPECT_NEAR(end(v, 0, 0, 0), start(v, 0, 0, 0), 1e-14 * std::abs(start(v, 0, 0, 0)));
    }
    double worst = 0.0;
    for (int i = 0; i <= c.m(); ++i) {
      worst = std::max(worst, std::abs(state_at(c, end, 0, i).rho - 1.0));
    }
    EXPECT_LT(worst, 1e-3);
  }
}

// A uniform flow oblique to every face stays uniform with the non-reflecting buffer (-6) on all
// six faces of a 3D box: its one-sided differences vanish, and its interpolated fluxes are the
// flow's own.
TEST(mfc_rhs, a_uniform_flow_stays_uniform_under_characteristic_boundaries) {
  case_config c                         = make_case(3, 0, 10, 10, -6, 1, 1e-3);
  c.fluids[0]                           = fluid(1.4, 0.0);
  const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
  host_fields prim(c.m() + 1, c.n() + 1, c.p() + 1, c.sys_size(), 0.0);
  const double vel[3] = {0.3, -0.2, 0.1};
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i) {
        prim(ix.cont(0), i, j, k) = 1.0;
        for (int d = 0; d < 3; ++d) {
          prim(ix.mom(d), i, j, k) = vel[d];
        }
        prim(ix.energy(), i, j, k) = 1.0;
        prim(ix.adv(0), i, j, k)   = 1.0;
      }
    }
  }
  const host_fields start = loopnest_mfc::conservative_of<double>(c, prim);
  const host_fields end   = run<double>(c, prim, 10);
  double worst            = 0.0;
  for (std::size_t e = 0; e < start.values.size(); ++e) {
    worst = std::max(worst, std::abs(end.values[e] - start.values[e]));
  }
  EXPECT_LT(worst, 1e-13);
}

// A 3D case with a different characteristic boundary on each face (and the two supersonic ones
// in a second run) and a pressure pulse in a shear flow: every schedule gives the same bits.
template <class T>
void check_schedules_agree_with_characteristic_faces() {
  // Per face set, each axis's (beginning, end).
  const int faces[2][3][2] = {{{-5, -6}, {-7, -8}, {-9, -10}}, {{-11, -12}, {-6, -8}, {-12, -11}}};
  for (const auto& bc : faces) {
    case_config c = make_case(3, 0, 12, 12, -3, 1, 1e-3);
    c.fluids[0]   = fluid(1.4, 0.0);
    for (int d = 0; d < 3; ++d) {
      c.axis[d].bc_beg = bc[d][0];
      c.axis[d].bc_end = bc[d][1];
    }
    const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
    host_fields prim(c.m() + 1, c.n() + 1, c.p() + 1, c.sys_size(), 0.0);
    for (int k = 0; k <= c.p(); ++k) {
      for (int j = 0; j <= c.n(); ++j) {
        for (int i = 0; i <= c.m(); ++i) {
          const double x = (i + 0.5) / 12, y = (j + 0.5) / 12, z = (k + 0.5) / 12;
          const double r2 = (x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6) + (z - 0.5) * (z - 0.5);
          prim(ix.cont(0), i, j, k)  = 1.0 + 0.1 * y;
          prim(ix.mom(0), i, j, k)   = 0.2 * std::sin(3.0 * y);
          prim(ix.mom(1), i, j, k)   = 0.1 * std::cos(2.0 * z);
          prim(ix.mom(2), i, j, k)   = -0.1 * x;
          prim(ix.energy(), i, j, k) = 1.0 + 0.5 * std::exp(-20.0 * r2);
          prim(ix.adv(0), i, j, k)   = 1.0;
        }
      }
    }
    const host_fields ref = same_bits_under_every_schedule<T>(c, prim);
    for (const double v : ref.values) {
      EXPECT_TRUE(std::isfinite(v));
    }
  }
}

TEST(mfc_rhs, characteristic_faces_give_the_same_bits_under_every_schedule_fp64) {
  check_schedules_agree_with_characteristic_faces<double>();
}
TEST(mfc_rhs, characteristic_faces_give_the_same_bits_under_every_schedule_fp32) {
  check_schedules_agree_with_characteristic_faces<float>();
}

// MFC's GRCBC amplitudes (s_cbc's grcbc_in, grcbc_out and grcbc_vel_out branches) as its Fortran
// writes them, one fluid in 2D: L(2) of the partial density, L(3) of the tangential velocity, L(4)
// of the volume fraction and L(advxe) = L(5) at lodi[1..4], on a face normal to D at each end.
template <int D>
void check_grcbc_amplitudes() {
  using loopnest_mfc::max_equations;
  loopnest_mfc::grcbc_inputs<double> g;
  g.in = g.out = g.vel_out = true;
  g.vel_in[0] = 1.3, g.vel_in[1] = -0.4, g.vel_out_value[0] = 0.9, g.vel_out_value[1] = 0.7;
  g.pres_in = 1.1, g.pres_out = 0.8, g.alpha_rho_in[0] = 1.2, g.alpha_in[0] = 0.95, g.del = 0.05;
  const double rho = 1.05, c = 1.2, pres = 0.97, del = g.del;
  const double alpha_rho[loopnest_mfc::eos_max_fluids] = {1.07, 0.};
  const double adv[loopnest_mfc::eos_max_fluids]       = {0.9, 0.};
  const int n = D, t = 1 - D;  // the normal and the tangential component
  for (const int loc : {-1, 1}) {
    loopnest_mfc::detail::characteristic_face<double, D> face{};
    face.grcbc = g;
    face.loc   = loc;
    // The velocity as the face holds it: the normal component mirrored at the end.
    double vel[3]      = {0.6, 0.35, 0.};
    vel[n]             = loc < 0 ? vel[n] : -vel[n];
    const double ma    = vel[n] / c;
    const double s     = loc;  // sign(1, cbc_loc)
    const auto relaxed = [&](int bc, double start) {
      std::vector<double> lodi(max_equations, start);
      double l[max_equations];
      std::copy(lodi.begin(), lodi.end(), l);
      face.bc = bc;
      face.relax(l, 1, 2, 4, rho, c, pres, vel, alpha_rho, adv);
      return std::vector<double>(l, l + max_equations);
    };
    const std::vector<double> in = relaxed(loopnest_mfc::bc_nonreflecting_inflow, 0.);
    EXPECT_EQ(in[0], 0.);  // the outgoing wave's, which amplitudes() gives
    EXPECT_EQ(in[1], std::pow(c, 3.) * ma * (alpha_rho[0] - 1.2) / del -
                         c * ma * (pres - g.pres_in) / del);
    EXPECT_EQ(in[2], c * ma * (vel[t] - g.vel_in[t]) / del);
    EXPECT_EQ(in[3], c * ma * (adv[0] - g.alpha_in[0]) / del);
    EXPECT_EQ(in[4], rho * (c * c) * (1. + ma) * (vel[n] + g.vel_in[n] * s) / del +
                         c * (1. + ma) * (pres - g.pres_in) / del);
    const std::vector<double> out = relaxed(loopnest_mfc::bc_nonreflecting_outflow, 0.);
    EXPECT_EQ(out[4], c * (1. - ma) * (pres - g.pres_out) / del +
                          rho * (c * c) * (1. - ma) * (vel[n] + g.vel_out_value[n] * s) / del);
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(out[k], 0.) << k;
    }
    face.grcbc.vel_out = false;
    EXPECT_EQ(relaxed(loopnest_mfc::bc_nonreflecting_outflow, 0.)[4],
              c * (1. - ma) * (pres - g.pres_out) / del);
    // Other types, and the switches off, keep the amplitudes as amplitudes() gave them.
    EXPECT_EQ(relaxed(loopnest_mfc::bc_nonreflecting_buffer, 7.),
              std::vector<double>(max_equations, 7.));
    face.grcbc.in  = false;
    face.grcbc.out = false;
    EXPECT_EQ(relaxed(loopnest_mfc::bc_nonreflecting_inflow, 7.),
              std::vector<double>(max_equations, 7.));
    EXPECT_EQ(relaxed(loopnest_mfc::bc_nonreflecting_outflow, 7.),
              std::vector<double>(max_equations, 7.));
  }
}

TEST(mfc_rhs, grcbc_relaxes_the_incoming_amplitudes_as_mfc_writes_them) {
  check_grcbc_amplitudes<0>();
  check_grcbc_amplitudes<1>();
}

// filling's launch bounds: under collapse3, blocks of up to 512 threads at the registers a thread
// of 256-thread blocks had (the tile that fills an SM is loopnest's); other schedules, and Fill
// false, keep bounded's.
template <class S, unsigned Threads, unsigned Blocks>
void expect_bounds() {
  EXPECT_EQ(S::bounds::max_threads, Threads);
  EXPECT_EQ(S::bounds::min_blocks_per_sm, Blocks);
}

TEST(mfc_rhs, filling_keeps_the_registers_in_larger_blocks) {
  using loopnest_mfc::filling;
  expect_bounds<filling<loopnest::collapse3, 4>, 512, 2>();
  expect_bounds<filling<loopnest::automatic, 4>, 256, 4>();
  expect_bounds<filling<loopnest::collapse3, 3>, 384, 2>();
  expect_bounds<filling<loopnest::collapse3, 6>, 512, 3>();
  expect_bounds<filling<loopnest::collapse3, 5>, 256, 5>();
  expect_bounds<filling<loopnest::collapse3, 3, false>, 256, 3>();
  expect_bounds<filling<loopnest::flat, 4>, 256, 4>();
  expect_bounds<filling<loopnest::collapse4, 4>, 256, 4>();
}

}  // namespace
