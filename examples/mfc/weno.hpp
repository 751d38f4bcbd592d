// MFC's WENO5 and WENO3 reconstruction of one variable at the two boundaries of a cell, with the
// grid-dependent coefficients of src/simulation/m_weno.fpp (s_compute_weno_coefficients, the
// WENO5 and WENO3 branches of s_weno): WENO-JS by default, mapped WENO (Henrick et al.) with
// mapped_weno.
// Component-wise on the primitive variables, in MFC's value-difference form and order of
// operations, so that the result agrees with MFC's to round-off.
#ifndef LOOPNEST_MFC_WENO_HPP
#define LOOPNEST_MFC_WENO_HPP

#include "grid.hpp"

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace loopnest_mfc {

// The coefficients of one cell j in one direction: MFC's poly_coef_cbL/cbR(j, r, c),
// d_cbL/cbR(r, j) and beta_coef(j, r, c). L is the cell's lower boundary (j - 1/2), R its upper
// one (j + 1/2); beta is shared.
template <class T>
struct weno5_coefficients {
  T poly_l[3][2];
  T poly_r[3][2];
  T d_l[3];
  T d_r[3];
  T beta[3][3];
};

namespace detail {

// s_compute_weno_coefficients for WENO5 at cell i + 1, s(k) being the boundary x_cb(k); the
// expressions are MFC's, term for term.
template <class S>
weno5_coefficients<double> weno5_coefficients_at(const S& s, int i) {
  weno5_coefficients<double> c{};
  const auto sq = [](double x) { return x * x; };
  c.poly_r[0][0] =
      ((s(i) - s(i + 1)) * (s(i + 1) - s(i + 2))) / ((s(i) - s(i + 3)) * (s(i + 3) - s(i + 1)));
  c.poly_r[1][0] =
      ((s(i - 1) - s(i + 1)) * (s(i + 1) - s(i))) / ((s(i - 1) - s(i + 2)) * (s(i + 2) - s(i)));
  c.poly_r[1][1] =
      ((s(i) - s(i + 1)) * (s(i + 1) - s(i + 2))) / ((s(i - 1) - s(i + 1)) * (s(i - 1) - s(i + 2)));
  c.poly_r[2][1] =
      ((s(i) - s(i + 1)) * (s(i + 1) - s(i - 1))) / ((s(i - 2) - s(i)) * (s(i - 2) - s(i + 1)));
  c.poly_l[0][0] =
      ((s(i + 1) - s(i)) * (s(i) - s(i + 2))) / ((s(i) - s(i + 3)) * (s(i + 3) - s(i + 1)));
  c.poly_l[1][0] =
      ((s(i) - s(i - 1)) * (s(i) - s(i + 1))) / ((s(i - 1) - s(i + 2)) * (s(i) - s(i + 2)));
  c.poly_l[1][1] =
      ((s(i + 1) - s(i)) * (s(i) - s(i + 2))) / ((s(i - 1) - s(i + 1)) * (s(i - 1) - s(i + 2)));
  c.poly_l[2][1] =
      ((s(i - 1) - s(i)) * (s(i) - s(i + 1))) / ((s(i - 2) - s(i)) * (s(i - 2) - s(i + 1)));

  c.poly_r[0][1] = ((s(i) - s(i + 2)) + (s(i + 1) - s(i + 3))) /
                   ((s(i) - s(i + 2)) * (s(i) - s(i + 3))) * (s(i) - s(i + 1));
  c.poly_r[2][0] = ((s(i - 2) - s(i + 1)) + (s(i - 1) - s(i + 1))) /
                   ((s(i - 1) - s(i + 1)) * (s(i + 1) - s(i - 2))) * (s(i + 1) - s(i));
  c.poly_l[0][1] = ((s(i) - s(i + 2)) + (s(i) - s(i + 3))) /
                   ((s(i) - s(i + 2)) * (s(i) - s(i + 3))) * (s(i + 1) - s(i));
  c.poly_l[2][0] = ((s(i - 2) - s(i)) + (s(i - 1) - s(i + 1))) /
                   ((s(i - 2) - s(i + 1)) * (s(i + 1) - s(i - 1))) * (s(i) - s(i + 1));

  c.d_r[0] = ((s(i - 2) - s(i + 1)) * (s(i + 1) - s(i - 1))) /
             ((s(i - 2) - s(i + 3)) * (s(i + 3) - s(i - 1)));
  c.d_r[2] = ((s(i + 1) - s(i + 2)) * (s(i + 1) - s(i + 3))) /
             ((s(i - 2) - s(i + 2)) * (s(i - 2) - s(i + 3)));
  c.d_l[0] =
      ((s(i - 2) - s(i)) * (s(i) - s(i - 1))) / ((s(i - 2) - s(i + 3)) * (s(i + 3) - s(i - 1)));
  c.d_l[2] =
      ((s(i) - s(i + 2)) * (s(i) - s(i + 3))) / ((s(i - 2) - s(i + 2)) * (s(i - 2) - s(i + 3)));
  c.d_r[1] = 1.0 - c.d_r[0] - c.d_r[2];
  c.d_l[1] = 1.0 - c.d_l[0] - c.d_l[2];

  const double h = sq(s(i) - s(i + 1));
  c.beta[0][0]   = 4.0 * h *
                 (10.0 * sq(s(i + 1) - s(i)) + (s(i + 1) - s(i)) * (s(i + 2) - s(i + 1)) +
                  sq(s(i + 2) - s(i + 1))) /
                 (sq(s(i) - s(i + 3)) * sq(s(i + 1) - s(i + 3)));
  c.beta[0][1] = 4.0 * h *
                 (19.0 * sq(s(i + 1) - s(i)) - (s(i + 1) - s(i)) * (s(i + 3) - s(i + 1)) +
                  2.0 * (s(i + 2) - s(i)) * ((s(i + 2) - s(i)) + (s(i + 3) - s(i + 1)))) /
                 ((s(i) - s(i + 2)) * sq(s(i) - s(i + 3)) * (s(i + 3) - s(i + 1)));
  c.beta[0][2] = 4.0 * h *
                 (10.0 * sq(s(i + 1) - s(i)) +
                  (s(i + 1) - s(i)) * ((s(i + 2) - s(i)) + (s(i + 3) - s(i + 1))) +
                  sq((s(i + 2) - s(i)) + (s(i + 3) - s(i + 1)))) /
                 (sq(s(i) - s(i + 2)) * sq(s(i) - s(i + 3)));
  c.beta[1][0] =
      4.0 * h *
      (10.0 * sq(s(i + 1) - s(i)) + sq(s(i) - s(i - 1)) + (s(i) - s(i - 1)) * (s(i + 1) - s(i))) /
      (sq(s(i - 1) - s(i + 2)) * sq(s(i) - s(i + 2)));
  c.beta[1][1] = 4.0 * h *
                 ((s(i) - s(i + 1)) * ((s(i) - s(i - 1)) + 20.0 * (s(i + 1) - s(i))) +
                  (2.0 * (s(i) - s(i - 1)) + (s(i + 1) - s(i))) * (s(i + 2) - s(i))) /
                 ((s(i + 1) - s(i - 1)) * sq(s(i - 1) - s(i + 2)) * (s(i + 2) - s(i)));
  c.beta[1][2] = 4.0 * h *
                 (10.0 * sq(s(i + 1) - s(i)) + (s(i + 1) - s(i)) * (s(i + 2) - s(i + 1)) +
                  sq(s(i + 2) - s(i + 1))) /
                 (sq(s(i - 1) - s(i + 1)) * sq(s(i - 1) - s(i + 2)));
  c.beta[2][0] = 4.0 * h *
                 (12.0 * sq(s(i + 1) - s(i)) + sq((s(i) - s(i - 2)) + (s(i) - s(i - 1))) +
                  3.0 * ((s(i) - s(i - 2)) + (s(i) - s(i - 1))) * (s(i + 1) - s(i))) /
                 (sq(s(i - 2) - s(i + 1)) * sq(s(i - 1) - s(i + 1)));
  c.beta[2][1] = 4.0 * h *
                 (19.0 * sq(s(i + 1) - s(i)) + ((s(i) - s(i - 2)) * (s(i) - s(i + 1))) +
                  2.0 * (s(i + 1) - s(i - 1)) * ((s(i) - s(i - 2)) + (s(i + 1) - s(i - 1)))) /
                 ((s(i - 2) - s(i)) * sq(s(i - 2) - s(i + 1)) * (s(i + 1) - s(i - 1)));
  c.beta[2][2] =
      4.0 * h *
      (10.0 * sq(s(i + 1) - s(i)) + sq(s(i) - s(i - 1)) + (s(i) - s(i - 1)) * (s(i + 1) - s(i))) /
      (sq(s(i - 2) - s(i)) * sq(s(i - 2) - s(i + 1)));
  return c;
}

}  // namespace detail

// The coefficients of cells -1 .. m + 1 of one direction (entry j + 1 is cell j), in the
// scalar type T: MFC computes them in its working precision from x_cb, here in double and
// rounded once.
template <class T>
std::vector<weno5_coefficients<T>> weno5_coefficients_of(const axis_grid& g) {
  std::vector<weno5_coefficients<T>> out;
  const auto s = [&g](int k) { return g.x_cb(k); };
  for (int j = -1; j <= g.m + 1; ++j) {
    const weno5_coefficients<double> c = detail::weno5_coefficients_at(s, j - 1);
    weno5_coefficients<T> t{};
    for (int r = 0; r < 3; ++r) {
      for (int k = 0; k < 2; ++k) {
        t.poly_l[r][k] = static_cast<T>(c.poly_l[r][k]);
        t.poly_r[r][k] = static_cast<T>(c.poly_r[r][k]);
      }
      t.d_l[r] = static_cast<T>(c.d_l[r]);
      t.d_r[r] = static_cast<T>(c.d_r[r]);
      for (int k = 0; k < 3; ++k) {
        t.beta[r][k] = static_cast<T>(c.beta[r][k]);
      }
    }
    out.push_back(t);
  }
  return out;
}

// MFC's weights of R candidate stencils from their smoothness indicators beta (weno_eps
// included) and ideal weights d: alpha_r = d_r/beta_r^2, omega = alpha/sum(alpha), and with
// mapped WENO (Henrick et al.) alpha_r = (d_r(1 + d_r - 3 omega_r) + omega_r^2) omega_r/(d_r^2 +
// omega_r(1 - 2 d_r)) normalised again. Division bounds WENO on a GPU (MFC has 2R of them per
// normalisation, twelve per boundary with mapped WENO), so each normalisation here takes one: over
// a common denominator, or, for the first in float, where products of squared indicators can pass
// 1e38, as products with the indicators' reciprocals, which a cell's two boundaries share. The
// weights agree with MFC's to a few units in the last place.
template <class T, int R>
KOKKOS_FORCEINLINE_FUNCTION void weno_weights(const T (&beta)[R], const T (&d)[R], bool mapped,
                                              T (&omega)[R]) {
  // omega_r = (n_r/den_r)/sum_s(n_s/den_s) with one division.
  const auto normalise = [&omega](const T(&n)[R], const T(&den)[R]) {
    T a[R];
    T sum = T(0);
    for (int r = 0; r < R; ++r) {
      T others = T(1);
      for (int s = 0; s < R; ++s) {
        others = s == r ? others : others * den[s];
      }
      a[r] = n[r] * others;
      sum  = sum + a[r];
    }
    const T inv = T(1) / sum;
    for (int r = 0; r < R; ++r) {
      omega[r] = a[r] * inv;
    }
  };
  T b[R];
  for (int r = 0; r < R; ++r) {
    b[r] = beta[r] * beta[r];
  }
  if constexpr (sizeof(T) >= 8) {
    normalise(d, b);
  } else {
    T alpha[R];
    T sum = T(0);
    for (int r = 0; r < R; ++r) {
      alpha[r] = d[r] * (T(1) / b[r]);
      sum      = sum + alpha[r];
    }
    const T inv = T(1) / sum;
    for (int r = 0; r < R; ++r) {
      omega[r] = alpha[r] * inv;
    }
  }
  if (mapped) {
    // Of order one in either precision: omega_r and d_r lie in [0, 1].
    T n[R], den[R];
    for (int r = 0; r < R; ++r) {
      n[r]   = (d[r] * (T(1) + d[r] - T(3) * omega[r]) + omega[r] * omega[r]) * omega[r];
      den[r] = d[r] * d[r] + omega[r] * (T(1) - T(2) * d[r]);
    }
    normalise(n, den);
  }
}

// The smoothness indicators of the stencil v(j - 2 .. j + 2) (MFC's beta, weno_eps included)
// and its three candidate values at one boundary.
template <class T>
struct weno5_stencil {
  T dvd[4];  // MFC's dvd(1), dvd(0), dvd(-1), dvd(-2)
  T v;       // v(j)
  T beta[3];

  KOKKOS_FORCEINLINE_FUNCTION weno5_stencil(const T (&s)[5], const T (&b)[3][3], T weno_eps) {
    dvd[0]  = s[4] - s[3];
    dvd[1]  = s[3] - s[2];
    dvd[2]  = s[2] - s[1];
    dvd[3]  = s[1] - s[0];
    v       = s[2];
    beta[0] = b[0][0] * dvd[0] * dvd[0] + b[0][1] * dvd[0] * dvd[1] + b[0][2] * dvd[1] * dvd[1] +
              weno_eps;
    beta[1] = b[1][0] * dvd[1] * dvd[1] + b[1][1] * dvd[1] * dvd[2] + b[1][2] * dvd[2] * dvd[2] +
              weno_eps;
    beta[2] = b[2][0] * dvd[2] * dvd[2] + b[2][1] * dvd[2] * dvd[3] + b[2][2] * dvd[3] * dvd[3] +
              weno_eps;
  }

  // The reconstructed value at the boundary whose coefficients are poly and d.
  KOKKOS_FORCEINLINE_FUNCTION T at(const T (&poly)[3][2], const T (&d)[3], bool mapped) const {
    const T p0 = v + poly[0][0] * dvd[0] + poly[0][1] * dvd[1];
    const T p1 = v + poly[1][0] * dvd[1] + poly[1][1] * dvd[2];
    const T p2 = v + poly[2][0] * dvd[2] + poly[2][1] * dvd[3];
    T omega[3];
    weights(d, mapped, omega);
    return omega[0] * p0 + omega[1] * p1 + omega[2] * p2;
  }

  KOKKOS_FORCEINLINE_FUNCTION void weights(const T (&d)[3], bool mapped, T (&omega)[3]) const {
    weno_weights(beta, d, mapped, omega);
  }
};

// WENO3 (MFC's weno_order = 3): the coefficients of cell j, MFC's poly_coef_cbL/cbR(j, r, 0),
// d_cbL/cbR(r, j) and beta_coef(j, r, 0).
template <class T>
struct weno3_coefficients {
  T poly_l[2];
  T poly_r[2];
  T d_l[2];
  T d_r[2];
  T beta[2];
};

// The WENO3 coefficients of cells -1 .. m + 1 (entry j + 1 is cell j), MFC's expressions at
// i = j - 1 with s = x_cb.
template <class T>
std::vector<weno3_coefficients<T>> weno3_coefficients_of(const axis_grid& g) {
  std::vector<weno3_coefficients<T>> out;
  const auto s  = [&g](int k) { return g.x_cb(k); };
  const auto sq = [](double x) { return x * x; };
  for (int j = -1; j <= g.m + 1; ++j) {
    const int i     = j - 1;
    const double r0 = (s(i) - s(i + 1)) / (s(i) - s(i + 2));
    const double r1 = (s(i) - s(i + 1)) / (s(i - 1) - s(i + 1));
    const double d0 = (s(i - 1) - s(i + 1)) / (s(i - 1) - s(i + 2));
    const double l0 = (s(i - 1) - s(i)) / (s(i - 1) - s(i + 2));
    weno3_coefficients<T> c{};
    c.poly_r[0] = static_cast<T>(r0);
    c.poly_r[1] = static_cast<T>(r1);
    c.poly_l[0] = static_cast<T>(-r0);
    c.poly_l[1] = static_cast<T>(-r1);
    c.d_r[0]    = static_cast<T>(d0);
    c.d_r[1]    = static_cast<T>(1.0 - d0);
    c.d_l[0]    = static_cast<T>(l0);
    c.d_l[1]    = static_cast<T>(1.0 - l0);
    c.beta[0]   = static_cast<T>(4.0 * sq(s(i) - s(i + 1)) / sq(s(i) - s(i + 2)));
    c.beta[1]   = static_cast<T>(4.0 * sq(s(i) - s(i + 1)) / sq(s(i - 1) - s(i + 1)));
    out.push_back(c);
  }
  return out;
}

// The WENO3 branch of s_weno: the stencil v(j - 1 .. j + 1), its two candidates at one boundary.
template <class T>
struct weno3_stencil {
  T dvd[2];  // MFC's dvd(0), dvd(-1)
  T v;
  T beta[2];

  KOKKOS_FORCEINLINE_FUNCTION weno3_stencil(const T (&s)[3], const T (&b)[2], T weno_eps) {
    dvd[0]  = s[2] - s[1];
    dvd[1]  = s[1] - s[0];
    v       = s[1];
    beta[0] = b[0] * dvd[0] * dvd[0] + weno_eps;
    beta[1] = b[1] * dvd[1] * dvd[1] + weno_eps;
  }

  KOKKOS_FORCEINLINE_FUNCTION T at(const T (&poly)[2], const T (&d)[2], bool mapped) const {
    const T p0 = v + poly[0] * dvd[0];
    const T p1 = v + poly[1] * dvd[1];
    T omega[2];
    weno_weights(beta, d, mapped, omega);
    return omega[0] * p0 + omega[1] * p1;
  }
};

}  // namespace loopnest_mfc

#endif
