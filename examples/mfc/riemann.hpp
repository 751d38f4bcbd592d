// MFC's HLLC and HLL Riemann solvers for the five-equation model at one cell boundary
// (src/simulation/m_riemann_solvers.fpp: s_hllc_riemann_solver, the "5-EQUATION MODEL WITH HLLC"
// branch; s_hll_riemann_solver as read at MFC e8bc4d31, inviscid, without bubbles, elasticity,
// MHD or chemistry): wave_speeds = 1 (Davis' estimates), avg_state = 2 (whose average state only
// feeds speeds that wave_speeds = 1 does not use), low_Mach = 0, alt_soundspeed = F. The order of
// operations is MFC's, term for term.
#ifndef LOOPNEST_MFC_RIEMANN_HPP
#define LOOPNEST_MFC_RIEMANN_HPP

#include "eos.hpp"

#include <loopnest/kokkos_compat.hpp>

namespace loopnest_mfc {

// Fortran's SIGN(0.5, s): 0.5 with the sign of s, -0.0 included (gfortran's signed zeros).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T sign_half(T s) {
  return loopnest::copysign(T(0.5), s);
}

// s_compute_speed_of_sound for model_eqns = 2 without alt_soundspeed: c^2 = (H - |u|^2/2 -
// qv/rho)/Gamma; with mixture_err a negative c^2 gives 100*sgm_eps instead of a NaN.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T speed_of_sound(T rho, T gamma, T enthalpy, T vel_sum, T qv,
                                             bool mixture_err) {
  const T c2 = (enthalpy - T(5.e-1) * vel_sum - qv / rho) / gamma;
  if (mixture_err && c2 < T(0)) {
    return T(100) * sgm_eps<T>();
  }
  return loopnest::sqrt(c2);
}

// One side's reconstructed state q (sys_size primitive values), clipped as HLLC clips it with
// mpp_lim, and its mixture, energy and enthalpy (HLL computes them alike from clipped copies).
template <class T, class Index>
struct riemann_side {
  T rho = T(0), gamma = T(0), pi_inf = T(0), qv = T(0);
  T vel_rms = T(0), pres, energy, enthalpy;

  KOKKOS_FORCEINLINE_FUNCTION riemann_side(const stiffened_gas<T, Index>& eos, T* q) {
    const Index& ix = eos.index;
    const int nf    = ix.num_fluids;
    for (int d = 0; d < 3 && d < ix.num_dims; ++d) {
      vel_rms = vel_rms + q[ix.mom(d)] * q[ix.mom(d)];
    }
    pres = q[ix.energy()];
    if (eos.mpp_lim) {
      T alpha_sum = T(0);
      for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
        q[ix.cont(k)] = fortran_max(T(0), q[ix.cont(k)]);
        q[ix.adv(k)]  = fortran_min(fortran_max(T(0), q[ix.adv(k)]), T(1));
        alpha_sum     = alpha_sum + q[ix.adv(k)];
      }
      for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
        q[ix.adv(k)] = q[ix.adv(k)] / fortran_max(alpha_sum, sgm_eps<T>());
      }
    }
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      rho    = rho + q[ix.cont(k)];
      gamma  = gamma + q[ix.adv(k)] * eos.gammas[k];
      pi_inf = pi_inf + q[ix.adv(k)] * eos.pi_infs[k];
      qv     = qv + q[ix.cont(k)] * eos.qvs[k];
    }
    energy   = gamma * pres + pi_inf + T(5.e-1) * rho * vel_rms + qv;
    enthalpy = (energy + pres) / rho;
  }
};

// What both of MFC's solvers start from: the normal velocities of the two sides, the wave speeds
// of wave_speeds = 1 (the extreme characteristic speeds of the two sides), and s_m = min(0, s_l),
// s_p = max(0, s_r).
template <int Dir, class T>
struct wave_speeds {
  T u_l, u_r, s_l, s_r, s_m, s_p;

  template <class Index>
  KOKKOS_FORCEINLINE_FUNCTION wave_speeds(const riemann_side<T, Index>& l,
                                          const riemann_side<T, Index>& r, const T* ql, const T* qr,
                                          const Index& ix, bool mixture_err)
      : u_l(ql[ix.mom(Dir)]), u_r(qr[ix.mom(Dir)]) {
    const T c_l = speed_of_sound(l.rho, l.gamma, l.enthalpy, l.vel_rms, l.qv, mixture_err);
    const T c_r = speed_of_sound(r.rho, r.gamma, r.enthalpy, r.vel_rms, r.qv, mixture_err);
    s_l         = fortran_min(u_l - c_l, u_r - c_r);
    s_r         = fortran_max(u_r + c_r, u_l + c_l);
    s_m         = fortran_min(T(0), s_l);
    s_p         = fortran_max(T(0), s_r);
  }
};

// The HLLC flux through the boundary between the states ql (lower side) and qr (upper side)
// whose normal is direction Dir (a template argument, so that the normal velocity's place in
// q is known at compile time and the states stay in registers): flux[sys_size] and the boundary
// velocity u* that the volume-fraction source term uses (MFC's flux_src(advxb)). ql and qr are
// clipped in place with mpp_lim, as MFC clips its reconstructed arrays.
template <int Dir, class T, class Index>
KOKKOS_FORCEINLINE_FUNCTION void hllc_flux(const stiffened_gas<T, Index>& eos, bool mixture_err,
                                           T* ql, T* qr, T* flux, T& u_star) {
  const Index& ix = eos.index;
  const riemann_side<T, Index> l(eos, ql);
  const riemann_side<T, Index> r(eos, qr);
  const auto [u_l, u_r, s_l, s_r, s_m, s_p] = wave_speeds<Dir, T>(l, r, ql, qr, ix, mixture_err);
  const T s_s = (r.pres - l.pres + l.rho * u_l * (s_l - u_l) - r.rho * u_r * (s_r - u_r)) /
                (l.rho * (s_l - u_l) - r.rho * (s_r - u_r));
  const T xi_l = (s_l - u_l) / (s_l - s_s);
  const T xi_r = (s_r - u_r) / (s_r - s_s);
  const T xi_m = T(5.e-1) + sign_half(s_s);
  const T xi_p = T(5.e-1) - sign_half(s_s);

  // The speeds at which mass, volume fractions and u* leave each side.
  const T w_l = u_l + s_m * (xi_l - T(1));
  const T w_r = u_r + s_p * (xi_r - T(1));
  for (int k = 0; k < eos_max_fluids && k < ix.num_fluids; ++k) {
    flux[ix.cont(k)] = xi_m * ql[ix.cont(k)] * w_l + xi_p * qr[ix.cont(k)] * w_r;
  }
  // MFC adds (s_M/s_L)*(s_P/s_R)*dir_flg*pcorr with pcorr = 0 when low_Mach = 0: a zero.
  for (int d = 0; d < 3 && d < ix.num_dims; ++d) {
    const T flg = d == Dir ? T(1) : T(0);
    const T v_l = ql[ix.mom(d)];
    const T v_r = qr[ix.mom(d)];
    flux[ix.mom(d)] =
        xi_m * (l.rho * (u_l * v_l + s_m * (xi_l * (flg * s_s + (T(1) - flg) * v_l) - v_l)) +
                flg * l.pres) +
        xi_p * (r.rho * (u_r * v_r + s_p * (xi_r * (flg * s_s + (T(1) - flg) * v_r) - v_r)) +
                flg * r.pres);
  }
  flux[ix.energy()] =
      xi_m * (u_l * (l.energy + l.pres) +
              s_m * (xi_l * (l.energy + (s_s - u_l) * (l.rho * s_s + l.pres / (s_l - u_l))) -
                     l.energy)) +
      xi_p * (u_r * (r.energy + r.pres) +
              s_p * (xi_r * (r.energy + (s_s - u_r) * (r.rho * s_s + r.pres / (s_r - u_r))) -
                     r.energy));
  for (int k = 0; k < eos_max_fluids && k < ix.num_fluids; ++k) {
    flux[ix.adv(k)] = xi_m * ql[ix.adv(k)] * w_l + xi_p * qr[ix.adv(k)] * w_r;
  }
  u_star = xi_m * w_l + xi_p * w_r;
}

// The HLL flux through the boundary between ql (lower side) and qr (upper side) whose normal is
// direction Dir: flux[sys_size] and the volume fractions at the boundary, alpha_face[num_fluids],
// that the volume-fraction source term differences (MFC's flux_src(advxb:advxe)). MFC clips
// copies of the partial densities and volume fractions with mpp_lim: the mass, momentum and energy
// fluxes see the clipped ones, the volume fractions' flux and alpha_face the reconstructed ones as
// they are. ql and qr are clipped in place (their volume fractions are read first). MFC's
// vel_src_rs (its "Div(U)?" velocities) and s_S feed no term of this model: not computed.
template <int Dir, class T, class Index>
KOKKOS_FORCEINLINE_FUNCTION void hll_flux(const stiffened_gas<T, Index>& eos, bool mixture_err,
                                          T* ql, T* qr, T* flux, T* alpha_face) {
  const Index& ix = eos.index;
  const int nf    = ix.num_fluids;
  T alpha_l[eos_max_fluids];
  T alpha_r[eos_max_fluids];
  for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
    alpha_l[k] = ql[ix.adv(k)];
    alpha_r[k] = qr[ix.adv(k)];
  }
  const riemann_side<T, Index> l(eos, ql);
  const riemann_side<T, Index> r(eos, qr);
  const auto [u_l, u_r, s_l, s_r, s_m, s_p] = wave_speeds<Dir, T>(l, r, ql, qr, ix, mixture_err);

  for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
    flux[ix.cont(k)] = (s_m * qr[ix.cont(k)] * u_r - s_p * ql[ix.cont(k)] * u_l +
                        s_m * s_p * (ql[ix.cont(k)] - qr[ix.cont(k)])) /
                       (s_m - s_p);
  }
  // MFC adds (s_M/s_L)*(s_P/s_R)*pcorr*(...) with pcorr = 0 when low_Mach = 0: a zero.
  for (int d = 0; d < 3 && d < ix.num_dims; ++d) {
    const T flg = d == Dir ? T(1) : T(0);
    const T v_l = ql[ix.mom(d)];
    const T v_r = qr[ix.mom(d)];
    flux[ix.mom(d)] =
        (s_m * (r.rho * u_r * v_r + flg * r.pres) - s_p * (l.rho * u_l * v_l + flg * l.pres) +
         s_m * s_p * (l.rho * v_l - r.rho * v_r)) /
        (s_m - s_p);
  }
  flux[ix.energy()] = (s_m * u_r * (r.energy + r.pres) - s_p * u_l * (l.energy + l.pres) +
                       s_m * s_p * (l.energy - r.energy)) /
                      (s_m - s_p);
  for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
    flux[ix.adv(k)] = (alpha_l[k] - alpha_r[k]) * s_m * s_p / (s_m - s_p);
    alpha_face[k]   = (s_m * alpha_r[k] - s_p * alpha_l[k]) / (s_m - s_p);
  }
}

}  // namespace loopnest_mfc

#endif
