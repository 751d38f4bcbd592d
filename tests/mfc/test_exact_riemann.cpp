// The exact Riemann solver the shock-tube tests compare against: Toro's star states for his five
// ideal-gas tests, and for those and for water against air, the sampled solution checked against
// the conservation laws themselves (Rankine-Hugoniot across each shock, the isentrope and the
// Riemann invariant through each fan) rather than against the solver's own formulas.
#include "exact_riemann.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace {

using loopnest_test::exact_riemann::left_wave;
using loopnest_test::exact_riemann::primitive;
using loopnest_test::exact_riemann::right_wave;
using loopnest_test::exact_riemann::sample;
using loopnest_test::exact_riemann::side;
using loopnest_test::exact_riemann::solve_star;
using loopnest_test::exact_riemann::star;
using loopnest_test::exact_riemann::wave;

side ideal_gas(double rho, double u, double p) {
  return {rho, u, p, 1.4, 0.};
}
// Water and air as in MFC's 3D_performance_test, with the physical stiffening pressure.
side water(double rho, double u, double p) {
  return {rho, u, p, 4.4, 6.e8};
}
side air(double rho, double u, double p) {
  return {rho, u, p, 1.4, 0.};
}

// A value Toro prints with `printed`'s digits, within `units` of its last digit.
void expect_printed(double actual, const std::string& printed, double units) {
  const std::size_t point = printed.find('.');
  const auto decimals     = static_cast<int>(printed.size() - point - 1);
  const double last_digit = std::pow(10., -decimals);
  EXPECT_NEAR(actual, std::stod(printed), units * last_digit) << "Toro prints " << printed;
}

struct toro_test {
  side left, right;
  const char *p, *u, *rho_left, *rho_right;
  bool left_shock, right_shock;
};

// Toro, Tables 4.1 (initial data) and 4.2 (exact star states), gamma = 1.4.
const toro_test toro_tests[] = {
    {ideal_gas(1., 0., 1.), ideal_gas(0.125, 0., 0.1), "0.30313", "0.92745", "0.42632", "0.26557",
     false, true},
    {ideal_gas(1., -2., 0.4), ideal_gas(1., 2., 0.4), "0.00189", "0.00000", "0.02185", "0.02185",
     false, false},
    {ideal_gas(1., 0., 1000.), ideal_gas(1., 0., 0.01), "460.894", "19.5975", "0.57506", "5.99924",
     false, true},
    {ideal_gas(1., 0., 0.01), ideal_gas(1., 0., 100.), "46.0950", "-6.19633", "5.99242", "0.57511",
     true, false},
    {ideal_gas(5.99924, 19.5975, 460.894), ideal_gas(5.99242, -6.19633, 46.0950), "1691.64",
     "8.68975", "14.2823", "31.0426", true, true},
};

TEST(exact_riemann, toro_table_4_2_star_states) {
  for (int t = 0; t < 5; ++t) {
    SCOPED_TRACE("Toro's test " + std::to_string(t + 1));
    const toro_test& test = toro_tests[t];
    const star s          = solve_star(test.left, test.right);
    // Tests 1-4 agree with Toro to his rounding. In test 5 his printed u* is 2.4 units of the
    // last digit below the exact 8.689774 (p* 1691.647, rho*L 14.28235), as other exact solvers
    // find too; the Rankine-Hugoniot test below checks this solution independently.
    const double units = t == 4 ? 2.5 : 0.5;
    expect_printed(s.p, test.p, units);
    expect_printed(s.u, test.u, units);
    expect_printed(s.rho_left, test.rho_left, units);
    expect_printed(s.rho_right, test.rho_right, units);
  }
}

// The jump [F] = S [U] of mass, momentum and energy, E = (p + gamma pi_inf)/(gamma - 1) + rho
// u^2/2, between the state ahead of a shock and the state behind it.
void expect_rankine_hugoniot(const primitive& ahead, const primitive& behind, double speed,
                             const side& material) {
  const auto energy = [&](const primitive& w) {
    return (w.p + material.gamma * material.pi_inf) / (material.gamma - 1.) +
           0.5 * w.rho * w.u * w.u;
  };
  const auto expect_jump = [&](const char* law, double u_ahead, double u_behind, double f_ahead,
                               double f_behind) {
    const double scale = std::max({std::abs(speed * u_ahead), std::abs(speed * u_behind),
                                   std::abs(f_ahead), std::abs(f_behind)});
    EXPECT_NEAR(speed * (u_behind - u_ahead), f_behind - f_ahead, 1e-12 * scale) << law;
  };
  expect_jump("mass", ahead.rho, behind.rho, ahead.rho * ahead.u, behind.rho * behind.u);
  expect_jump("momentum", ahead.rho * ahead.u, behind.rho * behind.u,
              ahead.rho * ahead.u * ahead.u + ahead.p, behind.rho * behind.u * behind.u + behind.p);
  expect_jump("energy", energy(ahead), energy(behind), ahead.u * (energy(ahead) + ahead.p),
              behind.u * (energy(behind) + behind.p));
}

void expect_state(const primitive& actual, const primitive& expected) {
  EXPECT_DOUBLE_EQ(actual.rho, expected.rho);
  EXPECT_DOUBLE_EQ(actual.u, expected.u);
  EXPECT_DOUBLE_EQ(actual.p, expected.p);
}

double sound_speed(const primitive& w, const side& material) {
  return std::sqrt(material.gamma * (w.p + material.pi_inf) / w.rho);
}

// Side K's wave between its initial state and its star state; direction is +1 for the left wave
// (travelling into the left state) and -1 for the right one.
void expect_wave(const side& left, const side& right, const star& s, const side& k, double rho_star,
                 double direction, bool shock) {
  const wave w = direction > 0. ? left_wave(k, s) : right_wave(k, s);
  ASSERT_EQ(w.shock, shock);
  const primitive initial{k.rho, k.u, k.p};
  const primitive behind{rho_star, s.u, s.p};
  const auto at      = [&](double x_over_t) { return sample(left, right, s, x_over_t); };
  const double delta = 1e-9 * (1. + std::abs(w.head) + std::abs(w.tail));
  expect_state(at(w.head - direction * delta), initial);
  expect_state(at(w.tail + direction * delta), behind);
  if (shock) {
    // Compressive (Lax's entropy condition), and conserving mass, momentum and energy.
    EXPECT_GT(s.p, k.p);
    EXPECT_GT(rho_star, k.rho);
    expect_rankine_hugoniot(initial, behind, w.head, k);
    return;
  }
  // A fan: the entropy (p + pi_inf) / rho^gamma and the Riemann invariant u +- 2c/(gamma - 1) of
  // the initial state, throughout the fan and in the star state at its tail; x/t = u -+ c inside.
  EXPECT_LT(s.p, k.p);
  const auto entropy = [&](const primitive& q) {
    return (q.p + k.pi_inf) / std::pow(q.rho, k.gamma);
  };
  const auto invariant = [&](const primitive& q) {
    return q.u + direction * 2. * sound_speed(q, k) / (k.gamma - 1.);
  };
  const double c_initial = sound_speed(initial, k);
  const double c_star    = sound_speed(behind, k);
  EXPECT_DOUBLE_EQ(w.head, k.u - direction * c_initial);
  EXPECT_NEAR(w.tail, s.u - direction * c_star, 1e-13 * (std::abs(s.u) + c_star));
  const double invariant_scale = std::abs(k.u) + c_initial;
  EXPECT_NEAR(entropy(behind), entropy(initial), 1e-12 * entropy(initial));
  EXPECT_NEAR(invariant(behind), invariant(initial), 1e-13 * invariant_scale);
  for (int i = 1; i < 10; ++i) {
    const double x_over_t = w.head + (w.tail - w.head) * i / 10.;
    const primitive q     = at(x_over_t);
    EXPECT_NEAR(entropy(q), entropy(initial), 1e-12 * entropy(initial)) << "x/t " << x_over_t;
    EXPECT_NEAR(invariant(q), invariant(initial), 1e-13 * invariant_scale) << "x/t " << x_over_t;
    EXPECT_NEAR(q.u - direction * sound_speed(q, k), x_over_t, 1e-13 * invariant_scale)
        << "x/t " << x_over_t;
  }
}

// The whole solution of one Riemann problem: the left wave, the contact and the right wave.
void expect_exact_solution(const side& left, const side& right, bool left_shock, bool right_shock) {
  const star s = solve_star(left, right);
  {
    SCOPED_TRACE("left wave");
    expect_wave(left, right, s, left, s.rho_left, 1., left_shock);
  }
  {
    SCOPED_TRACE("right wave");
    expect_wave(left, right, s, right, s.rho_right, -1., right_shock);
  }
  // Across the contact only the density jumps.
  const double delta = 1e-9 * (1. + std::abs(s.u));
  expect_state(sample(left, right, s, s.u - delta), {s.rho_left, s.u, s.p});
  expect_state(sample(left, right, s, s.u + delta), {s.rho_right, s.u, s.p});
}

TEST(exact_riemann, toro_tests_satisfy_jump_conditions_and_isentropes) {
  for (int t = 0; t < 5; ++t) {
    SCOPED_TRACE("Toro's test " + std::to_string(t + 1));
    const toro_test& test = toro_tests[t];
    expect_exact_solution(test.left, test.right, test.left_shock, test.right_shock);
  }
}

TEST(exact_riemann, water_and_air_satisfy_jump_conditions_and_isentropes) {
  {
    SCOPED_TRACE("water at 1 GPa expanding into air");
    expect_exact_solution(water(1000., 0., 1e9), air(1., 0., 1e5), false, true);
  }
  {
    SCOPED_TRACE("air at 1 GPa driving a shock into water");
    expect_exact_solution(air(50., 0., 1e9), water(1000., 0., 1e5), false, true);
  }
  {
    SCOPED_TRACE("air hitting water at 500 m/s");
    expect_exact_solution(air(1.2, 500., 1e5), water(1000., 0., 1e5), true, true);
  }
  {
    SCOPED_TRACE("water pulled apart at 1000 m/s: p* negative, p* + pi_inf positive");
    const side left  = water(1000., -500., 1e5);
    const side right = water(1000., 500., 1e5);
    const star s     = solve_star(left, right);
    EXPECT_LT(s.p, -1e8);
    EXPECT_GT(s.p + left.pi_inf, 0.);
    EXPECT_EQ(s.u, 0.);
    expect_exact_solution(left, right, false, false);
  }
}

TEST(exact_riemann, equal_pressure_and_velocity_make_a_contact_only) {
  const side left  = water(1000., 10., 1e5);
  const side right = air(1.2, 10., 1e5);
  const star s     = solve_star(left, right);
  EXPECT_EQ(s.p, 1e5);
  EXPECT_EQ(s.u, 10.);
  EXPECT_EQ(s.rho_left, 1000.);
  EXPECT_EQ(s.rho_right, 1.2);
  expect_state(sample(left, right, s, 9.), {1000., 10., 1e5});
  expect_state(sample(left, right, s, 11.), {1.2, 10., 1e5});
}

TEST(exact_riemann, refuses_vacuum_and_invalid_states) {
  // Toro's 123 problem pulled apart at 4 instead of 2 exceeds 2 (2c/(gamma - 1)) = 7.48.
  EXPECT_THROW(solve_star(ideal_gas(1., -4., 0.4), ideal_gas(1., 4., 0.4)), std::invalid_argument);
  EXPECT_NO_THROW(solve_star(ideal_gas(1., -3.7, 0.4), ideal_gas(1., 3.7, 0.4)));
  // Water reaches P = p + pi_inf = 0 beyond 2 (2c/(gamma - 1)) = 1911.6 m/s.
  EXPECT_THROW(solve_star(water(1000., -1000., 1e5), water(1000., 1000., 1e5)),
               std::invalid_argument);
  EXPECT_THROW(solve_star(ideal_gas(0., 0., 1.), ideal_gas(1., 0., 1.)), std::invalid_argument);
  EXPECT_THROW(solve_star(ideal_gas(1., 0., 1.), water(1000., 0., -6.1e8)), std::invalid_argument);
  EXPECT_THROW(solve_star(ideal_gas(1., 0., 1.), side{1., 0., 1., 1., 0.}), std::invalid_argument);
}

}  // namespace
