// loopnest-mfc's WENO5 (examples/mfc/weno.hpp): MFC's grid coefficients against the classical
// constants on a uniform grid, exactness on linear data, and the JS and mapped weights against
// their formulas written out directly.
#include <gtest/gtest.h>
#include <weno.hpp>

#include <cmath>

namespace {

using loopnest_mfc::case_config;

// The x axis of a uniform 40-cell grid on [0, 1] with MFC's ghost layers.
loopnest_mfc::axis_grid uniform_axis() {
  case_config c;
  c.axis[0].cells_minus_one = 39;
  c.axis[0].end             = 1.0;
  return loopnest_mfc::generate_grid(c).axis[0];
}

// On a uniform grid MFC's coefficients are the classical WENO5 constants.
TEST(mfc_weno, coefficients_on_a_uniform_grid_are_the_classical_ones) {
  const auto coef = loopnest_mfc::weno5_coefficients_of<double>(uniform_axis());
  ASSERT_EQ(coef.size(), 42U);
  for (const auto& w : coef) {
    EXPECT_NEAR(w.d_r[0], 0.3, 1e-13);
    EXPECT_NEAR(w.d_r[1], 0.6, 1e-13);
    EXPECT_NEAR(w.d_r[2], 0.1, 1e-13);
    EXPECT_NEAR(w.d_l[0], 0.1, 1e-13);
    EXPECT_NEAR(w.d_l[2], 0.3, 1e-13);
    // v(j + 1/2) from cells j..j+2 = (2v_j + 5v_{j+1} - v_{j+2})/6
    //                               = v_j - (1/6)dvd(1) + (2/3)dvd(0)
    EXPECT_NEAR(w.poly_r[0][0], -1.0 / 6.0, 1e-13);
    EXPECT_NEAR(w.poly_r[0][1], 2.0 / 3.0, 1e-13);
    // Jiang and Shu's beta_0 = 13/12 (dvd(1) - dvd(0))^2 + 1/4 (dvd(1) - 3 dvd(0))^2.
    EXPECT_NEAR(w.beta[0][0], 4.0 / 3.0, 1e-12);
    EXPECT_NEAR(w.beta[0][1], -11.0 / 3.0, 1e-12);
    EXPECT_NEAR(w.beta[0][2], 10.0 / 3.0, 1e-12);
  }
}

// WENO3 on a uniform grid: ideal weights 2/3 and 1/3, each candidate halfway to its neighbour.
TEST(mfc_weno, weno3_coefficients_on_a_uniform_grid_are_the_classical_ones) {
  const auto coef = loopnest_mfc::weno3_coefficients_of<double>(uniform_axis());
  ASSERT_EQ(coef.size(), 42U);
  for (const auto& w : coef) {
    EXPECT_NEAR(w.d_r[0], 2.0 / 3.0, 1e-13);
    EXPECT_NEAR(w.d_r[1], 1.0 / 3.0, 1e-13);
    EXPECT_NEAR(w.d_l[0], 1.0 / 3.0, 1e-13);
    EXPECT_NEAR(w.poly_r[0], 0.5, 1e-13);
    EXPECT_NEAR(w.poly_r[1], 0.5, 1e-13);
    EXPECT_NEAR(w.poly_l[0], -0.5, 1e-13);
    EXPECT_NEAR(w.beta[0], 1.0, 1e-12);
    EXPECT_NEAR(w.beta[1], 1.0, 1e-12);
  }
  const double s[3] = {5.0, 7.0, 9.0};
  const loopnest_mfc::weno3_stencil<double> stencil(s, coef[10].beta, 1e-16);
  for (const bool mapped : {false, true}) {
    EXPECT_NEAR(stencil.at(coef[10].poly_r, coef[10].d_r, mapped), 8.0, 1e-12);
    EXPECT_NEAR(stencil.at(coef[10].poly_l, coef[10].d_l, mapped), 6.0, 1e-12);
  }
}

// Linear data: every candidate stencil is exact, so both boundary values are, JS or mapped.
TEST(mfc_weno, linear_data_is_reconstructed_exactly) {
  const auto w      = loopnest_mfc::weno5_coefficients_of<double>(uniform_axis())[10];
  const double s[5] = {3.0, 5.0, 7.0, 9.0, 11.0};
  const loopnest_mfc::weno5_stencil<double> stencil(s, w.beta, 1e-16);
  for (const bool mapped : {false, true}) {
    EXPECT_NEAR(stencil.at(w.poly_r, w.d_r, mapped), 8.0, 1e-12);
    EXPECT_NEAR(stencil.at(w.poly_l, w.d_l, mapped), 6.0, 1e-12);
  }
}

// The weights of a stencil with a jump, against Jiang and Shu's omega_r = (d_r/beta_r^2)/sum and
// Henrick's mapping g(w) = w(d + d^2 - 3dw + w^2)/(d^2 + w(1 - 2d)), normalised.
template <class T>
void check_weights() {
  const T b[3][3] = {{T(4) / 3, T(-11) / 3, T(10) / 3},
                     {T(4) / 3, T(-13) / 3, T(4) / 3},
                     {T(10) / 3, T(-31) / 3, T(25) / 3}};
  const T s[5]    = {T(1), T(1.1), T(1.3), T(4), T(4.2)};
  const T d[3]    = {T(0.3), T(0.6), T(0.1)};
  const loopnest_mfc::weno5_stencil<T> stencil(s, b, T(1e-6));
  double js[3], sum = 0;
  for (int r = 0; r < 3; ++r) {
    const auto beta = static_cast<double>(stencil.beta[r]);
    js[r]           = static_cast<double>(d[r]) / (beta * beta);
    sum += js[r];
  }
  double mapped[3], msum = 0;
  for (int r = 0; r < 3; ++r) {
    js[r] /= sum;
    const auto dr = static_cast<double>(d[r]);
    mapped[r] =
        js[r] * (dr + dr * dr - 3 * dr * js[r] + js[r] * js[r]) / (dr * dr + js[r] * (1 - 2 * dr));
    msum += mapped[r];
  }
  T omega[3];
  const double tol = sizeof(T) == 8 ? 1e-14 : 1e-6;
  stencil.weights(d, false, omega);
  for (int r = 0; r < 3; ++r) {
    EXPECT_NEAR(static_cast<double>(omega[r]), js[r], tol);
  }
  stencil.weights(d, true, omega);
  for (int r = 0; r < 3; ++r) {
    EXPECT_NEAR(static_cast<double>(omega[r]), mapped[r] / msum, tol);
  }
  // The jump is in the upper cells: the stencil away from it dominates, more so once mapped.
  EXPECT_GT(js[2], 0.9);
}

TEST(mfc_weno, js_and_mapped_weights_follow_their_formulas_fp64) {
  check_weights<double>();
}
TEST(mfc_weno, js_and_mapped_weights_follow_their_formulas_fp32) {
  check_weights<float>();
}

}  // namespace
