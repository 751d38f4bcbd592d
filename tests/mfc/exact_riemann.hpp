// The exact solution of the Riemann problem for the 1D Euler equations with a stiffened gas on each
// side, p = (gamma - 1) rho e - gamma pi_inf, after Toro, "Riemann Solvers and Numerical Methods
// for Fluid Dynamics", chapter 4. The stiffened gas is the ideal gas in P = p + pi_inf (with
// rho e - pi_inf as its internal energy), so Toro's wave relations hold with P in place of p; the
// two sides may be different materials, joined at the contact where p and u are continuous. A
// reference for the tests only: plain doubles on the host, no Kokkos.
#ifndef LOOPNEST_TESTS_MFC_EXACT_RIEMANN_HPP
#define LOOPNEST_TESTS_MFC_EXACT_RIEMANN_HPP

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace loopnest_test::exact_riemann {

// One side's initial state and material; pi_inf is the physical stiffening pressure (0 for an
// ideal gas), not the gamma pi_inf / (gamma - 1) that MFC's case files hold.
struct side {
  double rho, u, p, gamma, pi_inf;
};

// The star region between the two nonlinear waves: one pressure and velocity, and the density on
// each side of the contact.
struct star {
  double p, u, rho_left, rho_right;
};

struct primitive {
  double rho, u, p;
};

// Where a nonlinear wave lies in x/t: head faces the undisturbed state, tail the star region; a
// shock has head == tail, its speed.
struct wave {
  double head, tail;
  bool shock;
};

namespace detail {

// Relative change of p* at which the Newton iteration stops.
inline constexpr double tolerance = 1e-14;

inline void check_side(const side& k, const std::string& name) {
  if (!std::isfinite(k.rho) || !std::isfinite(k.u) || !std::isfinite(k.p) ||
      !std::isfinite(k.gamma) || !std::isfinite(k.pi_inf)) {
    throw std::invalid_argument("exact_riemann: the " + name + " state is not finite");
  }
  if (!(k.rho > 0.)) {
    throw std::invalid_argument("exact_riemann: the " + name + " density must be positive");
  }
  if (!(k.gamma > 1.)) {
    throw std::invalid_argument("exact_riemann: the " + name + " gamma must exceed 1");
  }
  // c^2 = gamma (p + pi_inf) / rho.
  if (!(k.p + k.pi_inf > 0.)) {
    throw std::invalid_argument("exact_riemann: the " + name +
                                " sound speed must be positive (p + pi_inf > 0)");
  }
}

inline double sound_speed(const side& k) {
  return std::sqrt(k.gamma * (k.p + k.pi_inf) / k.rho);
}

// (p* + pi_inf) / (p_K + pi_inf): the pressure ratio across side K's wave, in the ideal-gas
// variable.
inline double pressure_ratio(const side& k, double p_star) {
  return (p_star + k.pi_inf) / (k.p + k.pi_inf);
}

struct value_and_slope {
  double value, slope;
};

// Toro's f_K(p) (4.6, 4.7) and its derivative (4.37) with p + pi_inf in place of p: the velocity
// change across side K's wave, a shock when p > p_K, a rarefaction otherwise.
inline value_and_slope pressure_function(const side& k, double p) {
  const double gamma   = k.gamma;
  const double big_p   = p + k.pi_inf;
  const double big_p_k = k.p + k.pi_inf;
  if (p > k.p) {
    const double a    = 2. / ((gamma + 1.) * k.rho);
    const double b    = (gamma - 1.) / (gamma + 1.) * big_p_k;
    const double root = std::sqrt(a / (big_p + b));
    // p - p_K directly, not P - P_K, which would lose digits to a large pi_inf.
    return {(p - k.p) * root, root * (1. - (p - k.p) / (2. * (big_p + b)))};
  }
  const double c     = sound_speed(k);
  const double ratio = big_p / big_p_k;
  return {2. * c / (gamma - 1.) * (std::pow(ratio, (gamma - 1.) / (2. * gamma)) - 1.),
          std::pow(ratio, -(gamma + 1.) / (2. * gamma)) / (k.rho * c)};
}

// Toro (4.50) for a shock, the isentrope P / rho^gamma = const for a rarefaction.
inline double star_density(const side& k, double p_star) {
  const double ratio = pressure_ratio(k, p_star);
  if (p_star > k.p) {
    const double g = (k.gamma - 1.) / (k.gamma + 1.);
    return k.rho * (ratio + g) / (g * ratio + 1.);
  }
  return k.rho * std::pow(ratio, 1. / k.gamma);
}

// Inside side K's rarefaction fan at x/t (Toro 4.56, 4.63); direction is +1 for the left fan and
// -1 for the right one.
inline primitive fan_state(const side& k, double direction, double x_over_t) {
  const double gamma = k.gamma;
  const double c     = sound_speed(k);
  const double bracket =
      2. / (gamma + 1.) + direction * (gamma - 1.) / ((gamma + 1.) * c) * (k.u - x_over_t);
  const double u = 2. / (gamma + 1.) * (direction * c + (gamma - 1.) / 2. * k.u + x_over_t);
  return {k.rho * std::pow(bracket, 2. / (gamma - 1.)), u,
          (k.p + k.pi_inf) * std::pow(bracket, 2. * gamma / (gamma - 1.)) - k.pi_inf};
}

// Side K's wave: a shock at u_K -+ c_K sqrt(1 + (gamma+1)/(2 gamma) (p* - p_K)/P_K) (Toro 4.52,
// 4.59), or a fan from u_K -+ c_K to u* -+ c*_K (4.55, 4.62); direction is +1 left, -1 right.
inline wave side_wave(const side& k, const star& s, double direction) {
  const double gamma = k.gamma;
  const double c     = sound_speed(k);
  if (s.p > k.p) {
    const double speed =
        k.u - direction * c *
                  std::sqrt(1. + (gamma + 1.) / (2. * gamma) * (s.p - k.p) / (k.p + k.pi_inf));
    return {speed, speed, true};
  }
  const double c_star = c * std::pow(pressure_ratio(k, s.p), (gamma - 1.) / (2. * gamma));
  return {k.u - direction * c, s.u - direction * c_star, false};
}

}  // namespace detail

// p*, u* and the star densities, by Newton's method on f(p) = f_L(p) + f_R(p) + u_R - u_L from
// the linearised (PVRS) guess, kept inside a bracket of the root and bisecting when a step leaves
// it. Throws std::invalid_argument for a non-positive density or sound speed, gamma <= 1, or
// states that generate vacuum: P = 0 on the side with the smaller pi_inf (Toro's pressure
// positivity condition 4.40 for an ideal gas). p* may be negative (tension) as long as
// p* + pi_inf > 0 on both sides; std::runtime_error if the iteration fails, which it should not.
inline star solve_star(const side& left, const side& right) {
  detail::check_side(left, "left");
  detail::check_side(right, "right");
  const auto f = [&](double p) {
    const detail::value_and_slope l = detail::pressure_function(left, p);
    const detail::value_and_slope r = detail::pressure_function(right, p);
    return detail::value_and_slope{l.value + r.value + right.u - left.u, l.slope + r.slope};
  };
  // f increases with p; at p_min the less stiff side has expanded to P = 0, i.e. vacuum.
  const double p_min = -std::min(left.pi_inf, right.pi_inf);
  if (!(f(p_min).value < 0.)) {
    throw std::invalid_argument(
        "exact_riemann: the states generate vacuum (pressure positivity condition)");
  }
  double low  = p_min;
  double high = std::max(left.p, right.p);
  for (int i = 0; f(high).value < 0.; ++i) {
    if (i == 1000) {
      throw std::runtime_error("exact_riemann: found no upper bound for p*");
    }
    high = p_min + 2. * (high - p_min);
  }
  const double c_left  = detail::sound_speed(left);
  const double c_right = detail::sound_speed(right);
  double p             = 0.5 * (left.p + right.p) -
             0.125 * (right.u - left.u) * (left.rho + right.rho) * (c_left + c_right);
  if (!(p > low && p <= high)) {
    p = 0.5 * (low + high);
  }
  for (int iteration = 0; iteration < 200; ++iteration) {
    const detail::value_and_slope v = f(p);
    if (v.value == 0.) {
      break;
    }
    (v.value < 0. ? low : high) = p;
    double next                 = p - v.value / v.slope;
    if (!(next > low && next <= high)) {
      next = 0.5 * (low + high);
    }
    // Relative to P of the less stiff side, which is p itself for ideal gases.
    const bool converged = std::abs(next - p) <= detail::tolerance * (next - p_min);
    p                    = next;
    if (converged) {
      break;
    }
    if (iteration == 199) {
      throw std::runtime_error("exact_riemann: the iteration for p* did not converge");
    }
  }
  const double u = 0.5 * (left.u + right.u) + 0.5 * (detail::pressure_function(right, p).value -
                                                     detail::pressure_function(left, p).value);
  return {p, u, detail::star_density(left, p), detail::star_density(right, p)};
}

inline wave left_wave(const side& left, const star& s) {
  return detail::side_wave(left, s, 1.);
}
inline wave right_wave(const side& right, const star& s) {
  return detail::side_wave(right, s, -1.);
}

// The self-similar solution at x/t (Toro 4.5): left of the contact (x/t <= u*) the left state,
// its fan or shock and the left star state, right of it the mirror image.
inline primitive sample(const side& left, const side& right, const star& s, double x_over_t) {
  if (x_over_t <= s.u) {
    const wave w = left_wave(left, s);
    if (x_over_t <= w.head) {
      return {left.rho, left.u, left.p};
    }
    if (x_over_t >= w.tail) {
      return {s.rho_left, s.u, s.p};
    }
    return detail::fan_state(left, 1., x_over_t);
  }
  const wave w = right_wave(right, s);
  if (x_over_t >= w.head) {
    return {right.rho, right.u, right.p};
  }
  if (x_over_t <= w.tail) {
    return {s.rho_right, s.u, s.p};
  }
  return detail::fan_state(right, -1., x_over_t);
}

}  // namespace loopnest_test::exact_riemann

#endif
