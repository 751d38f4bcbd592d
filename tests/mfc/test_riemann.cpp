// loopnest-mfc's HLLC flux (examples/mfc/riemann.hpp) against Toro's HLLC written out in its
// textbook form, F_K + S_K (U*_K - U_K), for the five-equation model: two fluids, three
// directions, the normal along y, and each of the four wave configurations; its HLL flux against
// Toro's HLL, (S_R F_L - S_L F_R + S_L S_R (U_R - U_L))/(S_R - S_L) when S_L < 0 < S_R.
#include <gtest/gtest.h>
#include <riemann.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

using loopnest_mfc::slot_index;
using eos_t = loopnest_mfc::stiffened_gas<double, slot_index>;

constexpr int nvar = loopnest_mfc::max_equations;

eos_t water_and_air() {
  eos_t eos;
  eos.index.num_fluids = 2;
  eos.index.num_dims   = 3;
  // MFC's 1/(gamma - 1) and gamma pi_inf/(gamma - 1) for water (4.4, 6e8 scaled to 6) and air.
  eos.gammas[0]  = 1.0 / 3.4;
  eos.pi_infs[0] = 4.4 * 6.0 / 3.4;
  eos.gammas[1]  = 1.0 / 0.4;
  eos.pi_infs[1] = 0.0;
  return eos;
}

struct state {
  double alpha_rho[2], vel[3], p, alpha[2];
};

void to_slots(const state& s, double* q) {
  for (int k = 0; k < 2; ++k) {
    q[slot_index::cont(k)] = s.alpha_rho[k];
    q[slot_index::adv(k)]  = s.alpha[k];
  }
  for (int d = 0; d < 3; ++d) {
    q[slot_index::mom(d)] = s.vel[d];
  }
  q[slot_index::energy()] = s.p;
}

// The conserved vector (partial densities, momenta, energy, volume fractions), its physical flux
// along `dir` (alpha_k u for the volume fractions), and the sound speed from the mixture's
// stiffened-gas law c^2 = ((Gamma + 1) p + Pi)/(Gamma rho).
struct textbook_side {
  double u[nvar] = {}, f[nvar] = {}, rho, un, c;

  textbook_side(const eos_t& eos, const state& s, int dir) {
    rho          = s.alpha_rho[0] + s.alpha_rho[1];
    double gamma = 0, pi = 0, v2 = 0;
    for (int k = 0; k < 2; ++k) {
      gamma += s.alpha[k] * eos.gammas[k];
      pi += s.alpha[k] * eos.pi_infs[k];
    }
    for (double v : s.vel) {
      v2 += v * v;
    }
    un             = s.vel[dir];
    const double e = gamma * s.p + pi + 0.5 * rho * v2;
    c              = std::sqrt(((gamma + 1) * s.p + pi) / (gamma * rho));
    for (int k = 0; k < 2; ++k) {
      u[slot_index::cont(k)] = s.alpha_rho[k];
      f[slot_index::cont(k)] = s.alpha_rho[k] * un;
      u[slot_index::adv(k)]  = s.alpha[k];
      f[slot_index::adv(k)]  = s.alpha[k] * un;
    }
    for (int d = 0; d < 3; ++d) {
      u[slot_index::mom(d)] = rho * s.vel[d];
      f[slot_index::mom(d)] = rho * s.vel[d] * un + (d == dir ? s.p : 0.0);
    }
    u[slot_index::energy()] = e;
    f[slot_index::energy()] = (e + s.p) * un;
  }

  // U*_K: Toro (10.73) with S* in place of the normal velocity, the volume fractions scaled as
  // the partial densities.
  void star(const state& s, int dir, double s_k, double s_star, double* out) const {
    const double xi = (s_k - un) / (s_k - s_star);
    for (int v = 0; v < nvar; ++v) {
      out[v] = xi * u[v];
    }
    for (int d = 0; d < 3; ++d) {
      out[slot_index::mom(d)] = xi * rho * (d == dir ? s_star : s.vel[d]);
    }
    out[slot_index::energy()] =
        xi * (u[slot_index::energy()] + (s_star - un) * (rho * s_star + s.p / (s_k - un)));
  }
};

// Checks hllc_flux against the textbook flux; returns which wave configuration it was: 0 all
// from the left, 1 left star state, 2 right star state, 3 all from the right.
int check(const state& left, const state& right, const char* what) {
  constexpr int dir = 1;
  const eos_t eos   = water_and_air();
  const textbook_side l(eos, left, dir), r(eos, right, dir);
  const double s_l = std::min(l.un - l.c, r.un - r.c);
  const double s_r = std::max(r.un + r.c, l.un + l.c);
  const double s_star =
      (right.p - left.p + l.rho * l.un * (s_l - l.un) - r.rho * r.un * (s_r - r.un)) /
      (l.rho * (s_l - l.un) - r.rho * (s_r - r.un));
  double expected[nvar] = {};
  double star[nvar]     = {};
  const int config      = s_l >= 0 ? 0 : s_star >= 0 ? 1 : s_r >= 0 ? 2 : 3;
  if (config == 0) {
    std::copy(l.f, l.f + nvar, expected);
  } else if (config == 1) {
    l.star(left, dir, s_l, s_star, star);
    for (int v = 0; v < nvar; ++v) {
      expected[v] = l.f[v] + s_l * (star[v] - l.u[v]);
    }
  } else if (config == 2) {
    r.star(right, dir, s_r, s_star, star);
    for (int v = 0; v < nvar; ++v) {
      expected[v] = r.f[v] + s_r * (star[v] - r.u[v]);
    }
  } else {
    std::copy(r.f, r.f + nvar, expected);
  }

  double ql[nvar] = {}, qr[nvar] = {}, flux[nvar] = {}, u_star = 0;
  to_slots(left, ql);
  to_slots(right, qr);
  loopnest_mfc::hllc_flux<dir>(eos, false, ql, qr, flux, u_star);
  SCOPED_TRACE(what);
  for (int v = 0; v < nvar; ++v) {
    SCOPED_TRACE("slot " + std::to_string(v));
    EXPECT_NEAR(flux[v], expected[v], 1e-12 * (1.0 + std::abs(expected[v])));
  }
  // u* carries the volume fractions: their flux is alpha u* on whichever side is upwind.
  const state& up = s_star >= 0 ? left : right;
  EXPECT_NEAR(flux[slot_index::adv(0)], up.alpha[0] * u_star, 1e-12);
  return config;
}

// Water-rich and air-rich states (sound speeds about 0.5), and both moving at 3 along the
// normal, y (vel[1]), or at -3: supersonic either way.
struct wave_states {
  state water{{600.0, 0.4}, {0.2, 0.3, -0.1}, 100.0, {0.6, 0.4}};
  state air{{300.0, 0.7}, {-0.3, 0.1, 0.4}, 50.0, {0.3, 0.7}};
  state water_fast = moving(water, 3.0), air_fast = moving(air, 3.0);
  state water_back = moving(water, -3.0), air_back = moving(air, -3.0);

  static state moving(state s, double v) {
    s.vel[1] = v;
    return s;
  }
};

TEST(mfc_riemann, hllc_is_toros_flux_in_every_wave_configuration) {
  const wave_states w;
  EXPECT_EQ(check(w.water_fast, w.air_fast, "supersonic to +y"), 0);
  EXPECT_EQ(check(w.water, w.air, "high pressure on the left"), 1);
  state air_left = w.air, water_right = w.water;
  air_left.vel[1]    = -0.3;
  water_right.vel[1] = -0.1;
  EXPECT_EQ(check(air_left, water_right, "high pressure on the right"), 2);
  EXPECT_EQ(check(w.water_back, w.air_back, "supersonic to -y"), 3);
}

// Checks hll_flux against Toro's HLL flux of the conserved variables; the volume fractions, which
// MFC's HLL advects in non-conservative form, get the flux's S_L S_R (a_R - a_L)/(S_R - S_L)
// term and the value at the boundary (S_R a_L - S_L a_R)/(S_R - S_L) (the upwind side's alone
// when both waves go one way). Returns the configuration: 0 all from the left, 1 both sides, 2 all
// from the right.
int check_hll(const state& left, const state& right, const char* what) {
  constexpr int dir = 1;
  const eos_t eos   = water_and_air();
  const textbook_side l(eos, left, dir), r(eos, right, dir);
  const double s_l      = std::min(l.un - l.c, r.un - r.c);
  const double s_r      = std::max(r.un + r.c, l.un + l.c);
  const int config      = s_l >= 0 ? 0 : s_r > 0 ? 1 : 2;
  const double s_m      = std::min(0.0, s_l);
  const double s_p      = std::max(0.0, s_r);
  double expected[nvar] = {};
  for (int v = 0; v < nvar; ++v) {
    expected[v] = config == 0 ? l.f[v]
                  : config == 2
                      ? r.f[v]
                      : (s_r * l.f[v] - s_l * r.f[v] + s_l * s_r * (r.u[v] - l.u[v])) / (s_r - s_l);
  }
  double alpha_face[2] = {};
  for (int k = 0; k < 2; ++k) {
    const int a   = slot_index::adv(k);
    expected[a]   = (s_m * s_p * (r.u[a] - l.u[a])) / (s_p - s_m);
    alpha_face[k] = (s_p * left.alpha[k] - s_m * right.alpha[k]) / (s_p - s_m);
  }

  double ql[nvar] = {}, qr[nvar] = {}, flux[nvar] = {}, face[2] = {};
  to_slots(left, ql);
  to_slots(right, qr);
  loopnest_mfc::hll_flux<dir>(eos, false, ql, qr, flux, face);
  SCOPED_TRACE(what);
  for (int v = 0; v < nvar; ++v) {
    SCOPED_TRACE("slot " + std::to_string(v));
    EXPECT_NEAR(flux[v], expected[v], 1e-12 * (1.0 + std::abs(expected[v])));
  }
  for (int k = 0; k < 2; ++k) {
    EXPECT_NEAR(face[k], alpha_face[k], 1e-12);
  }
  return config;
}

TEST(mfc_riemann, hll_is_toros_flux_in_every_wave_configuration) {
  const wave_states w;
  EXPECT_EQ(check_hll(w.water_fast, w.air_fast, "supersonic to +y"), 0);
  EXPECT_EQ(check_hll(w.water, w.air, "subsonic"), 1);
  EXPECT_EQ(check_hll(w.water_back, w.air_back, "supersonic to -y"), 2);
}

}  // namespace
