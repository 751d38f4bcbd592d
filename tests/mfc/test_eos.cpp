// The stiffened-gas mixture and the conversions: MFC's mixture rules against values computed by
// hand, and primitive -> conservative -> primitive back to round-off in FP64 and FP32.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "eos.hpp"

namespace {

using namespace loopnest_mfc;

// MFC's 3D_performance_test fluids: water (gamma 4.4, pi_inf 6e8) and air (gamma 1.4), as the
// case file writes them: fluid_pp%gamma = 1/(gamma - 1), pi_inf = gamma*pi_inf/(gamma - 1).
template <class T>
stiffened_gas<T> water_and_air(int num_dims, bool mpp_lim = false) {
  stiffened_gas<T> eos;
  eos.index.num_fluids = 2;
  eos.index.num_dims   = num_dims;
  eos.gammas[0]        = T(1. / (4.4 - 1.));
  eos.gammas[1]        = T(1. / (1.4 - 1.));
  eos.pi_infs[0]       = T(4.4 * 6.e8 / (4.4 - 1.));
  eos.pi_infs[1]       = T(0);
  eos.mpp_lim          = mpp_lim;
  return eos;
}

TEST(mfc_eos, the_equation_layout_is_mfcs) {
  const equation_index ix{2, 3};
  EXPECT_EQ(ix.sys_size(), 8);
  EXPECT_EQ(ix.cont(1), 1);
  EXPECT_EQ(ix.mom(0), 2);
  EXPECT_EQ(ix.energy(), 5);
  EXPECT_EQ(ix.adv(0), 6);
}

TEST(mfc_eos, mixture_rules_match_hand_computed_values) {
  const stiffened_gas<double> eos = water_and_air<double>(3);
  // alpha_rho = (1000, 0.1), u = (1, 2, 3), p = 1e5, alpha = (0.9, 0.1).
  const double prim[8]      = {1000., 0.1, 1., 2., 3., 1.e5, 0.9, 0.1};
  const mixture<double> mix = mixture_of(eos, prim);
  EXPECT_EQ(mix.rho, 1000.1);
  EXPECT_DOUBLE_EQ(mix.gamma, 0.9 / 3.4 + 0.1 / 0.4);    // 0.514705882...
  EXPECT_DOUBLE_EQ(mix.pi_inf, 0.9 * 4.4 * 6.e8 / 3.4);  // 698823529.41...
  EXPECT_EQ(mix.qv, 0.);
  double cons[8];
  primitive_to_conservative(eos, prim, cons);
  EXPECT_EQ(cons[0], 1000.);
  EXPECT_EQ(cons[1], 0.1);
  EXPECT_DOUBLE_EQ(cons[2], 1000.1);
  EXPECT_DOUBLE_EQ(cons[4], 3000.3);
  // E = Gamma p + rho |u|^2 / 2 + Pi = 51470.588... + 7000.7 + 698823529.41...
  EXPECT_DOUBLE_EQ(cons[5], (0.9 / 3.4 + 0.1 / 0.4) * 1.e5 + 7000.7 + 0.9 * 4.4 * 6.e8 / 3.4);
  EXPECT_EQ(cons[6], 0.9);
  EXPECT_EQ(cons[7], 0.1);
}

TEST(mfc_eos, mpp_lim_clips_and_renormalises_the_fractions) {
  const stiffened_gas<double> eos = water_and_air<double>(1, true);
  double alpha_rho[2], alpha[2];
  const double negative[6] = {-1., 2., 0., 1.,
                              0.5, 0.5};  // alpha_rho(1), alpha_rho(2), u, p, alpha(1), alpha(2)
  species_fraction(eos, negative, alpha_rho, alpha);
  EXPECT_EQ(alpha_rho[0], 0.);
  EXPECT_EQ(alpha_rho[1], 2.);
  const double over[6] = {1., 1., 0., 1., 1.5, -0.5};
  species_fraction(eos, over, alpha_rho, alpha);
  EXPECT_EQ(alpha[0], 1.);
  EXPECT_EQ(alpha[1], 0.);
  const double halves[6] = {1., 1., 0., 1., 0.3, 0.3};
  species_fraction(eos, halves, alpha_rho, alpha);
  EXPECT_EQ(alpha[0], 0.5);
  EXPECT_EQ(alpha[1], 0.5);
}

TEST(mfc_eos, simulation_floors_the_density_at_sgm_eps) {
  const stiffened_gas<double> eos = water_and_air<double>(1);
  const double cons[6]            = {0., 0., 1.e-20, 1.e5, 0.5, 0.5};
  double sim[6], pre[6];
  conservative_to_primitive(eos, cons, sim, conversion_site::simulation);
  conservative_to_primitive(eos, cons, pre, conversion_site::pre_process);
  EXPECT_EQ(sim[2], 1.e-20 / 1.e-16);
  EXPECT_TRUE(std::isinf(pre[2]));
}

template <class T>
void expect_round_trip(T tolerance) {
  const stiffened_gas<T> eos = water_and_air<T>(3, true);
  const T cases[][8]         = {
              {T(1000), T(0.1), T(1), T(-2), T(3), T(1.e5), T(0.9), T(0.1)},
              {T(100), T(0.9), T(0), T(0), T(0), T(1.e3), T(0.1), T(0.9)},
              {T(1.e-3), T(1.2), T(-300), T(25), T(0.5), T(101325), T(1.e-6), T(1) - T(1.e-6)}};
  for (const auto& prim : cases) {
    T cons[8], back[8];
    primitive_to_conservative(eos, prim, cons);
    conservative_to_primitive(eos, cons, back, conversion_site::simulation);
    for (int v = 0; v < 8; ++v) {
      // The pressure comes back from E - Pi, so its error scales with Pi/Gamma, not with p.
      const T scale = v == 5 ? (std::abs(prim[5]) + T(2.e9)) : std::abs(prim[v]) + T(1);
      EXPECT_LE(std::abs(back[v] - prim[v]), tolerance * scale) << "variable " << v;
    }
  }
}

TEST(mfc_eos, primitive_conservative_primitive_returns_to_round_off) {
  expect_round_trip<double>(8 * std::numeric_limits<double>::epsilon());
  expect_round_trip<float>(8 * std::numeric_limits<float>::epsilon());
}

}  // namespace
