// max_icfl and cfl_time_step (stability.hpp) on the device against MFC's formulas on the host
// (m_sim_helpers.fpp, s_compute_enthalpy, s_compute_stability_from_dt, s_compute_dt_from_cfl;
// m_variables_conversion.fpp, s_compute_speed_of_sound) on states of random-ish signed
// velocities in 1D, 2D and 3D. The per-cell operations are the same in the same order, and a
// maximum is exact: the same bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "case.hpp"
#include "grid.hpp"
#include "stability.hpp"

namespace {

using loopnest_mfc::case_config;
using loopnest_mfc::equation_index;

const std::string data_dir = LOOPNEST_MFC_TEST_DATA;

// A fixed sequence in [0, 1).
struct sequence {
  std::uint64_t state = 12345;
  double next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  }
};

// A conservative state of the case: per cell random densities, volume fractions summing to 1,
// velocities in [-3, 3) along each direction times `sign` and pressures in [0.5, 2) times the
// case's scale.
std::vector<double> random_state(const case_config& c, double pressure_scale, double sign) {
  const equation_index ix = loopnest_mfc::equations_of(c);
  const auto eos          = loopnest_mfc::eos_of<double>(c);
  const long long cells   = static_cast<long long>(c.m() + 1) * (c.n() + 1) * (c.p() + 1);
  std::vector<double> cons(static_cast<std::size_t>(cells * ix.sys_size()));
  sequence s;
  for (long long cell = 0; cell < cells; ++cell) {
    double prim[loopnest_mfc::max_equations] = {};
    double q[loopnest_mfc::max_equations]    = {};
    const double a                           = 0.05 + 0.9 * s.next();
    for (int k = 0; k < c.num_fluids; ++k) {
      prim[ix.cont(k)] = 0.5 + 1.5 * s.next();
      prim[ix.adv(k)]  = c.num_fluids == 1 ? 1.0 : (k == 0 ? a : 1.0 - a);
    }
    for (int d = 0; d < c.num_dims; ++d) {
      prim[ix.mom(d)] = sign * (6.0 * s.next() - 3.0);
    }
    prim[ix.energy()] = pressure_scale * (0.5 + 1.5 * s.next());
    loopnest_mfc::primitive_to_conservative(eos, prim, q);
    for (int v = 0; v < ix.sys_size(); ++v) {
      cons[static_cast<std::size_t>(cell * ix.sys_size() + v)] = q[v];
    }
  }
  return cons;
}

// The state in the solver's fields (buff_size ghost layers, MFC's order).
loopnest::field_set<double> on_device(const case_config& c, const std::vector<double>& cons) {
  const int nvar = c.sys_size();
  const Kokkos::DefaultExecutionSpace exec;
  loopnest::field_set<double> f =
      c.num_dims == 1 ? loopnest::field_set<double>(exec, "q", nvar, {c.m() + 1}, 4)
      : c.num_dims == 2
          ? loopnest::field_set<double>(exec, "q", nvar, {c.m() + 1, c.n() + 1}, 4)
          : loopnest::field_set<double>(exec, "q", nvar, {c.m() + 1, c.n() + 1, c.p() + 1}, 4);
  for (int v = 0; v < nvar; ++v) {
    auto mirror  = Kokkos::create_mirror_view(f.field(v));
    long long at = 0;
    const int gy = c.num_dims > 1 ? 4 : 0;
    const int gz = c.num_dims > 2 ? 4 : 0;
    for (int k = 0; k <= c.p(); ++k) {
      for (int j = 0; j <= c.n(); ++j) {
        for (int i = 0; i <= c.m(); ++i, ++at) {
          mirror(i + 4, j + gy, k + gz) = cons[static_cast<std::size_t>(at * nvar + v)];
        }
      }
    }
    Kokkos::deep_copy(f.field(v), mirror);
  }
  return f;
}

// MFC's icfl_max_loc on the host: s_compute_enthalpy, s_compute_speed_of_sound and
// s_compute_stability_from_dt written out per cell, std::max over the cells; with a
// `cfl_target`, s_compute_dt instead: s_compute_dt_from_cfl's cfl_target*dx/(|u| + c) (the
// smallest over the directions in 2D and 3D), std::min over the cells.
double host_max_icfl(const case_config& c, const loopnest_mfc::grid& g,
                     const std::vector<double>& cons, double cfl_target = 0.0) {
  const equation_index ix = loopnest_mfc::equations_of(c);
  const auto eos          = loopnest_mfc::eos_of<double>(c);
  const int nvar          = ix.sys_size();
  const bool cfl_dt       = cfl_target > 0.0;
  double result           = cfl_dt ? 1e300 : -1.0;
  long long at            = 0;
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i, ++at) {
        double prim[loopnest_mfc::max_equations] = {};
        loopnest_mfc::conservative_to_primitive(eos, &cons[static_cast<std::size_t>(at * nvar)],
                                                prim, loopnest_mfc::conversion_site::simulation);
        double alpha_rho[loopnest_mfc::eos_max_fluids] = {};
        double alpha[loopnest_mfc::eos_max_fluids]     = {};
        for (int f = 0; f < c.num_fluids; ++f) {
          alpha_rho[f] = prim[ix.cont(f)];
          alpha[f]     = prim[ix.adv(f)];
        }
        const auto mix = loopnest_mfc::mixture_of_acc(eos, alpha_rho, alpha);
        double vel_sum = 0.0;
        for (int d = 0; d < c.num_dims; ++d) {
          vel_sum = vel_sum + prim[ix.mom(d)] * prim[ix.mom(d)];
        }
        const double pres = prim[ix.energy()];
        const double e    = mix.gamma * pres + mix.pi_inf + 5.e-1 * mix.rho * vel_sum + mix.qv;
        const double h    = (e + pres) / mix.rho;
        double sound      = (h - 5.e-1 * vel_sum - mix.qv / mix.rho) / mix.gamma;
        sound             = c.mixture_err && sound < 0.0 ? 100.0 * 1.e-16 : std::sqrt(sound);
        const int cell[3] = {i, j, k};
        if (cfl_dt) {
          double crossing = g.axis[0].dx(i) / (std::fabs(prim[ix.mom(0)]) + sound);
          for (int d = 1; d < c.num_dims; ++d) {
            crossing =
                std::min(crossing, g.axis[d].dx(cell[d]) / (std::fabs(prim[ix.mom(d)]) + sound));
          }
          result = std::min(result, cfl_target * crossing);
          continue;
        }
        double icfl = 0.0;
        if (c.num_dims == 1) {
          icfl = (c.dt / g.axis[0].dx(i)) * (std::fabs(prim[ix.mom(0)]) + sound);
        } else {
          double terms = g.axis[0].dx(i) / (std::fabs(prim[ix.mom(0)]) + sound);
          for (int d = 1; d < c.num_dims; ++d) {
            terms = std::min(terms, g.axis[d].dx(cell[d]) / (std::fabs(prim[ix.mom(d)]) + sound));
          }
          icfl = c.dt / terms;
        }
        result = std::max(result, icfl);
      }
    }
  }
  return result;
}

// The state and its mirror (every velocity negated): the cell of the largest ICFL moves one way
// in one of them and the other way in the other, so that both signs of |u| are seen. The dt of
// a CFL target of 0.7 is s_compute_dt's to a few roundings: cfl_target/(1/crossing) against
// cfl_target*crossing.
void expect_device_is_host(const case_config& c, double pressure_scale) {
  const loopnest_mfc::grid g = loopnest_mfc::generate_grid(c);
  for (const double sign : {1.0, -1.0}) {
    const std::vector<double> cons = random_state(c, pressure_scale, sign);
    const double expected          = host_max_icfl(c, g, cons);
    const double device            = loopnest_mfc::max_icfl<loopnest::collapse3>(
        Kokkos::DefaultExecutionSpace(), on_device(c, cons), c, g, c.dt);
    EXPECT_GT(expected, 0.0) << sign;
    EXPECT_EQ(device, expected) << sign;
    // flat orders the cells otherwise; a maximum is the same bits.
    EXPECT_EQ(loopnest_mfc::max_icfl<loopnest::flat>(Kokkos::DefaultExecutionSpace(),
                                                     on_device(c, cons), c, g, c.dt),
              expected)
        << sign;
    const double expected_dt = host_max_icfl(c, g, cons, 0.7);
    const double dt          = loopnest_mfc::cfl_time_step<loopnest::collapse3>(
        Kokkos::DefaultExecutionSpace(), on_device(c, cons), c, g, 0.7, [](double v) { return v; });
    EXPECT_NEAR(dt, expected_dt, 1e-15 * expected_dt) << sign;
    // Steps of that dt have the ICFL of the target.
    EXPECT_NEAR(loopnest_mfc::max_icfl<loopnest::collapse3>(Kokkos::DefaultExecutionSpace(),
                                                            on_device(c, cons), c, g, dt),
                0.7, 1e-15)
        << sign;
    // The maximum over the ranks is what divides cfl_target: twice the ICFL, half the dt.
    EXPECT_NEAR(loopnest_mfc::cfl_time_step<loopnest::collapse3>(Kokkos::DefaultExecutionSpace(),
                                                                 on_device(c, cons), c, g, 0.7,
                                                                 [](double v) { return 2.0 * v; }),
                0.5 * expected_dt, 1e-15 * expected_dt)
        << sign;
  }
}

TEST(stability, icfl_1d_is_dt_over_dx_times_speed_plus_sound) {
  expect_device_is_host(loopnest_mfc::read_case(data_dir + "/shock_tube_1d.json", {}), 1.0);
}

TEST(stability, icfl_2d_is_dt_over_the_smaller_crossing_time_dy_the_smaller_width) {
  expect_device_is_host(
      loopnest_mfc::read_case(
          data_dir + "/shock_tube_1d.json",
          {"n=29", "y_domain%beg=0", "y_domain%end=0.3", "bc_y%beg=-3", "bc_y%end=-3",
           "patch_icpp(1)%geometry=3", "patch_icpp(2)%geometry=3", "patch_icpp(1)%y_centroid=0.15",
           "patch_icpp(2)%y_centroid=0.15", "patch_icpp(1)%length_y=0.3",
           "patch_icpp(2)%length_y=0.3", "patch_icpp(1)%vel(2)=0", "patch_icpp(2)%vel(2)=0"}),
      1.0);
}

TEST(stability, icfl_3d_two_fluids_on_a_stretched_grid_dz_the_smallest_width) {
  expect_device_is_host(loopnest_mfc::read_case(data_dir + "/performance_test_3d.json",
                                                {"m=24", "n=24", "p=24", "z_domain%end=1"}),
                        1.0e5);
}

}  // namespace
