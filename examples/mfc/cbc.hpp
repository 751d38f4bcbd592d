// MFC's characteristic boundary conditions (Thompson 1987, 1990) for the five-equation model:
// src/simulation/m_cbc.fpp (s_cbc, s_initialize_cbc, s_finalize_cbc, s_compute_cbc_coefficients)
// as of MFlowCode/MFC 01fd1b6e, its L of src/simulation/m_compute_cbc.fpp as of 06bcf95c, and
// s_convert_primitive_to_flux_variables of src/common/m_variables_conversion.fpp. MFC fills the
// ghost cells of these faces as -3's (s_populate_variables_buffers); after the Riemann solve it
// replaces, on each face whose bc is -5 to -12, the fluxes and u* (its flux_src(advxb)) at the
// boundary and, with WENO3 and WENO5, at the first one or two faces inside it:
//   - inside, a polynomial interpolation (order 2 or 4) of the cell fluxes of the face's first
//     cells (computed from their primitive variables, not by the Riemann solver);
//   - at the boundary, the inner face's flux plus the cell width times the time derivatives that
//     the characteristic amplitudes L give, L from one-sided differences (order 1, 2 or 4 with
//     WENO1, 3 or 5) of the primitive variables of the boundary cell's line.
// The end face is handled as the beginning mirrored: the normal velocity and every flux but the
// normal momentum's change sign on the way in and out. With MFC's GRCBC inputs (bc_x%grcbc_in,
// grcbc_out, grcbc_vel_out; s_cbc's branches of the same names, m_cbc.fpp at 01fd1b6e) a -7 face's
// incoming amplitudes, and a -8 face's L(advxe), relax toward the prescribed state. Each value
// follows MFC's arithmetic in MFC's order. A face between two ranks (bc >= 0) stays a halo
// exchange.
#ifndef LOOPNEST_MFC_CBC_HPP
#define LOOPNEST_MFC_CBC_HPP

#include "rhs.hpp"

#include <loopnest/box.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/kokkos_compat.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace loopnest_mfc {

// MFC's characteristic boundary types (m_constants.fpp, BC_CHAR_*).
enum characteristic_bc : int {
  bc_slip_wall                 = -5,
  bc_nonreflecting_buffer      = -6,
  bc_nonreflecting_inflow      = -7,
  bc_nonreflecting_outflow     = -8,
  bc_force_free_outflow        = -9,
  bc_constant_pressure_outflow = -10,
  bc_supersonic_inflow         = -11,
  bc_supersonic_outflow        = -12,
};

inline bool is_characteristic(int bc) {
  return bc <= bc_slip_wall && bc >= bc_supersonic_outflow;
}

// s_compute_cbc_coefficients of one face for WENO order 1, 3 or 5, by MFC's formulas in double
// (rounded once for FP32, as the WENO coefficients are): the one-sided first derivative at the
// face's cell (fd_coef, cells 0 .. fd_count - 1 from the face inward) and the interpolation of
// the cell fluxes at the inner faces (pi_coef).
template <class T>
struct cbc_coefficients {
  int fd_count = 0;
  T fd[5]      = {};
  T pi[2][3]   = {};
  T ds0        = T(0);  // the face cell's width
};

// `ds`: the widths of the cells from the face inward.
template <class T>
cbc_coefficients<T> cbc_coefficients_of(const double (&ds)[buff_size + 1], int weno_order) {
  double fd[5]    = {};
  double pi[2][3] = {};
  double s[buff_size + 2];  // the cells' boundaries from the face inward (s_cb)
  s[0] = 0.0;
  for (int i = 0; i <= buff_size; ++i) {
    s[i + 1] = s[i] + ds[i];
  }
  int count = 0;
  if (weno_order == 1) {
    count = 2;
    fd[0] = -2.0 / (ds[0] + ds[1]);
    fd[1] = -fd[0];
  } else if (weno_order == 3) {
    count    = 3;
    fd[0]    = -6.0 / (3.0 * ds[0] + 2.0 * ds[1] - ds[2]);
    fd[1]    = -(4.0 * fd[0] / 3.0);
    fd[2]    = fd[0] / 3.0;
    pi[0][0] = (s[0] - s[1]) / (s[0] - s[2]);
  } else {
    count    = 5;
    fd[0]    = -50.0 / (25.0 * ds[0] + 2.0 * ds[1] - 10.0 * ds[2] + 10.0 * ds[3] - 3.0 * ds[4]);
    fd[1]    = -(48.0 * fd[0] / 25.0);
    fd[2]    = 36.0 * fd[0] / 25.0;
    fd[3]    = -(16.0 * fd[0] / 25.0);
    fd[4]    = 3.0 * fd[0] / 25.0;
    pi[0][0] = ((s[0] - s[1]) * (s[1] - s[2]) * (s[1] - s[3])) /
               ((s[1] - s[4]) * (s[4] - s[0]) * (s[4] - s[2]));
    pi[0][1] = ((s[1] - s[0]) * (s[1] - s[2]) *
                ((s[1] - s[3]) * (s[1] - s[3]) - (s[0] - s[4]) * ((s[3] - s[1]) + (s[4] - s[1])))) /
               ((s[0] - s[3]) * (s[1] - s[3]) * (s[0] - s[4]) * (s[1] - s[4]));
    pi[0][2] = (s[1] - s[0]) *
               ((s[1] - s[2]) * (s[1] - s[3]) + ((s[0] - s[2]) + (s[1] - s[3])) * (s[0] - s[4])) /
               ((s[2] - s[0]) * (s[0] - s[3]) * (s[0] - s[4]));
    pi[1][0] = ((s[0] - s[2]) * (s[2] - s[1]) * (s[2] - s[3])) /
               ((s[2] - s[4]) * (s[4] - s[0]) * (s[4] - s[1]));
    pi[1][1] = ((s[0] - s[2]) * (s[1] - s[2]) *
                ((s[1] - s[3]) * (s[2] - s[3]) + (s[0] - s[4]) * ((s[1] - s[3]) + (s[2] - s[4])))) /
               ((s[0] - s[3]) * (s[1] - s[3]) * (s[0] - s[4]) * (s[1] - s[4]));
    pi[1][2] = ((s[1] - s[2]) * (s[2] - s[3]) * (s[2] - s[4])) /
               ((s[0] - s[2]) * (s[0] - s[3]) * (s[0] - s[4]));
  }
  cbc_coefficients<T> c;
  c.fd_count = count;
  c.ds0      = static_cast<T>(ds[0]);
  for (int j = 0; j < 5; ++j) {
    c.fd[j] = static_cast<T>(fd[j]);
  }
  for (int j = 0; j < 2; ++j) {
    for (int q = 0; q < 3; ++q) {
      c.pi[j][q] = static_cast<T>(pi[j][q]);
    }
  }
  return c;
}

// MFC's GRCBC inputs of one axis in the run's precision (s_initialize_cbc_module): the state a -7
// face relaxes toward, the pressure and normal velocity a -8 face relaxes toward, over `del`,
// MFC's Del_in and Del_out: maxval(dx) of the axis, its ghost layers included.
template <class T>
struct grcbc_inputs {
  bool in = false, out = false, vel_out = false;
  T vel_in[3]                    = {};
  T vel_out_value[3]             = {};
  T pres_in                      = T(0);
  T pres_out                     = T(0);
  T alpha_rho_in[eos_max_fluids] = {};
  T alpha_in[eos_max_fluids]     = {};
  T del                          = T(0);
};

namespace detail {

// MFC's dir_idx (0-based): the normal direction, then the tangential ones.
template <int D>
KOKKOS_FORCEINLINE_FUNCTION constexpr int dir_idx(int i) {
  return D == 0 ? i : i == 0 ? D : (D == 1 ? (i == 1 ? 0 : 2) : i - 1);
}

// The cell fluxes of s_convert_primitive_to_flux_variables (riemann_solver = 2) of one cell's
// primitive variables q (normal velocity already mirrored): f[slot] and the source flux u.
template <class T, int D>
KOKKOS_FORCEINLINE_FUNCTION void cell_flux(const stiffened_gas<T, slot_index>& eos, const T* q,
                                           T* f, T& f_src) {
  const int nf                = eos.index.num_fluids;
  const int nd                = eos.index.num_dims;
  T alpha_rho[eos_max_fluids] = {};
  T alpha[eos_max_fluids]     = {};
  for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
    alpha_rho[k] = q[slot_index::cont(k)];
    alpha[k]     = q[slot_index::adv(k)];
  }
  T vel_sum = T(0);
  for (int e = 0; e < 3 && e < nd; ++e) {
    vel_sum = vel_sum + q[slot_index::mom(e)] * q[slot_index::mom(e)];
  }
  const T pres         = q[slot_index::energy()];
  const mixture<T> mix = mixture_of_acc(eos, alpha_rho, alpha);
  const T energy       = mix.gamma * pres + mix.pi_inf + T(5.e-1) * mix.rho * vel_sum + mix.qv;
  const T un           = q[slot_index::mom(D)];
  for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
    f[slot_index::cont(k)] = alpha_rho[k] * un;
  }
  for (int e = 0; e < 3 && e < nd; ++e) {
    f[slot_index::mom(e)] = mix.rho * un * q[slot_index::mom(e)] + pres * T(e == D ? 1 : 0);
  }
  f[slot_index::energy()] = un * (energy + pres);
  for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
    f[slot_index::adv(k)] = un * alpha[k];
  }
  f_src = un;
}

// s_cbc on one line of cells normal to a face of direction D: Loc -1 the beginning (cell 0,
// faces -1/2, 1/2, 3/2), +1 the end (cell m, faces m + 1/2, m - 1/2, m - 3/2). The cell the loop
// passes is the face's cell; its tangential position names the line.
template <class T, int D>
struct characteristic_face {
  loopnest::field_set_ref<T> prim, flux, u_star;
  stiffened_gas<T, slot_index> eos;
  slot_map slots;
  cbc_coefficients<T> coef;
  grcbc_inputs<T> grcbc;
  int bc, loc, last, weno_order;  // last: m, n or p
  bool mixture_err;

  // The j-th cell and face from the face inward (MFC's dj*(m - 2*j) + j, dj*((m - 1) - 2*j) + j).
  KOKKOS_FORCEINLINE_FUNCTION int cell(int j) const { return loc < 0 ? j : last - j; }
  KOKKOS_FORCEINLINE_FUNCTION int face(int j) const { return loc < 0 ? j : last - 1 - j; }

  KOKKOS_FORCEINLINE_FUNCTION void load_cell(int j, int i0, int i1, int i2, T sign,
                                             T (&q)[max_equations]) const {
    int a[3] = {i0, i1, i2};
    a[D]     = cell(j);
    for (int s = 0; s < max_equations; ++s) {
      q[s] = slots.var[s] >= 0 ? prim.load(slots.var[s], a[0], a[1], a[2]) : T(0);
    }
    q[slot_index::mom(D)] = q[slot_index::mom(D)] * sign;
  }

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i0, int i1, int i2) const {
    const int nf = eos.index.num_fluids;
    const int nd = eos.index.num_dims;
    // sign(1, -cbc_loc): what the normal velocity and the odd fluxes are multiplied by.
    const T sign = loc < 0 ? T(1) : T(-1);
    // The fluxes at the face (j = -1) and the inner faces (j = 0, 1), mirrored as MFC's
    // flux_rs_vf_l; the inner ones interpolated from the cell fluxes with WENO3 and WENO5.
    T fl[3][max_equations] = {};
    T src[3]               = {};
    if (weno_order == 1) {
      int a[3] = {i0, i1, i2};
      a[D]     = face(0);
      for (int s = 0; s < max_equations; ++s) {
        if (slots.var[s] >= 0) {
          const T f = flux.load(slots.var[s], a[0], a[1], a[2]);
          fl[1][s]  = s == slot_index::mom(D) ? f : f * sign;
        }
      }
      src[1] = u_star.load(0, a[0], a[1], a[2]) * sign;
    } else {
      T f[4][max_equations] = {};
      T f_src[4]            = {};
      const int cells       = weno_order == 5 ? 4 : 2;
      for (int j = 0; j < cells; ++j) {
        T q[max_equations];
        load_cell(j, i0, i1, i2, sign, q);
        cell_flux<T, D>(eos, q, f[j], f_src[j]);
      }
      for (int s = 0; s < max_equations; ++s) {
        if (slots.var[s] < 0) {
          continue;
        }
        if (weno_order == 3) {
          fl[1][s] = f[0][s] + coef.pi[0][0] * (f[1][s] - f[0][s]);
        } else {
          for (int j = 0; j < 2; ++j) {
            fl[1 + j][s] = f[j][s] + coef.pi[j][0] * (f[3][s] - f[2][s]) +
                           coef.pi[j][1] * (f[2][s] - f[1][s]) +
                           coef.pi[j][2] * (f[1][s] - f[0][s]);
          }
        }
      }
      if (weno_order == 3) {
        src[1] = f_src[0] + (f_src[1] - f_src[0]) * coef.pi[0][0];
      } else {
        for (int j = 0; j < 2; ++j) {
          src[1 + j] = f_src[j] + (f_src[3] - f_src[2]) * coef.pi[j][0] +
                       (f_src[2] - f_src[1]) * coef.pi[j][1] +
                       (f_src[1] - f_src[0]) * coef.pi[j][2];
        }
      }
    }

    // The face cell's state, mixture and sound speed.
    T q[max_equations];
    load_cell(0, i0, i1, i2, sign, q);
    T alpha_rho[eos_max_fluids] = {};
    T adv[eos_max_fluids]       = {};
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      alpha_rho[k] = q[slot_index::cont(k)];
    }
    T vel[3]  = {};
    T vel_sum = T(0);
    for (int e = 0; e < 3 && e < nd; ++e) {
      vel[e]  = q[slot_index::mom(e)];
      vel_sum = vel_sum + vel[e] * vel[e];
    }
    const T pres = q[slot_index::energy()];
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      adv[k] = q[slot_index::adv(k)];
    }
    const mixture<T> mix = mixture_of_acc(eos, alpha_rho, adv);
    const T rho          = mix.rho;
    T mf[eos_max_fluids] = {};
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      mf[k] = alpha_rho[k] / rho;
    }
    const T energy = mix.gamma * pres + mix.pi_inf + T(5.e-1) * rho * vel_sum;
    const T h      = (energy + pres) / rho;
    const T c      = speed_of_sound(rho, mix.gamma, h, vel_sum, mix.qv, mixture_err);

    // One-sided differences of the primitive variables along the line.
    T d[max_equations] = {};
    for (int j = 0; j < coef.fd_count; ++j) {
      T qj[max_equations];
      load_cell(j, i0, i1, i2, sign, qj);
      for (int s = 0; s < max_equations; ++s) {
        d[s] = qj[s] * coef.fd[j] + d[s];
      }
    }
    const T dpres_ds      = d[slot_index::energy()];
    const T dvel_n        = d[slot_index::mom(D)];
    const T lambda1       = vel[D] - c;
    const T lambda2       = vel[D];
    const T lambda3       = vel[D] + c;
    const int l_adv       = 2 * nf + nd;  // L(advxe)
    T lodi[max_equations] = {};           // MFC's L(1 .. advxe) at 0 .. advxe - 1
    amplitudes(lodi, nf, nd, l_adv, rho, c, mf, d, dpres_ds, dvel_n, lambda1, lambda2, lambda3);
    relax(lodi, nf, nd, l_adv, rho, c, pres, vel, alpha_rho, adv);

    // The time derivatives of the primitive variables.
    const T dpres_dt                = -(T(5.e-1) * (lodi[l_adv] + lodi[0]));
    T dalpha_rho_dt[eos_max_fluids] = {};
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      dalpha_rho_dt[k] = -(lodi[1 + k] - mf[k] * dpres_dt) / (c * c);
    }
    T dvel_dt[3] = {};
    for (int i = 0; i < 3 && i < nd; ++i) {
      const T flg = T(i == 0 ? 1 : 0);  // dir_flg(dir_idx(i))
      dvel_dt[dir_idx<D>(i)] =
          flg * (lodi[0] - lodi[l_adv]) / (T(2) * rho * c) + (flg - T(1)) * lodi[nf + i];
    }
    T vel_dv_dt_sum = T(0);
    for (int e = 0; e < 3 && e < nd; ++e) {
      vel_dv_dt_sum = vel_dv_dt_sum + vel[e] * dvel_dt[e];
    }
    T dadv_dt[eos_max_fluids] = {};
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      dadv_dt[k] = -lodi[nf + nd + k];
    }
    T drho_dt = T(0), dgamma_dt = T(0), dpi_inf_dt = T(0), dqv_dt = T(0);
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      drho_dt    = drho_dt + dalpha_rho_dt[k];
      dgamma_dt  = dgamma_dt + dadv_dt[k] * eos.gammas[k];
      dpi_inf_dt = dpi_inf_dt + dadv_dt[k] * eos.pi_infs[k];
      dqv_dt     = dqv_dt + dalpha_rho_dt[k] * eos.qvs[k];
    }

    // The face's flux: the first inner face's plus the cell width times the derivatives.
    const T ds0 = coef.ds0;
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      fl[0][slot_index::cont(k)] = fl[1][slot_index::cont(k)] + ds0 * dalpha_rho_dt[k];
    }
    for (int e = 0; e < 3 && e < nd; ++e) {
      fl[0][slot_index::mom(e)] =
          fl[1][slot_index::mom(e)] + ds0 * (vel[e] * drho_dt + rho * dvel_dt[e]);
    }
    fl[0][slot_index::energy()] =
        fl[1][slot_index::energy()] +
        ds0 * (pres * dgamma_dt + mix.gamma * dpres_dt + dpi_inf_dt + dqv_dt + rho * vel_dv_dt_sum +
               T(5.e-1) * drho_dt * vel_sum);
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      fl[0][slot_index::adv(k)] = fl[1][slot_index::adv(k)] + ds0 * dadv_dt[k];
    }
    src[0] = src[1];

    // s_finalize_cbc: the replaced faces back, unmirrored (WENO1 keeps its inner face).
    const int replaced = weno_order == 5 ? 2 : weno_order == 3 ? 1 : 0;
    for (int j = -1; j < replaced; ++j) {
      int a[3] = {i0, i1, i2};
      a[D]     = face(j);
      for (int s = 0; s < max_equations; ++s) {
        if (slots.var[s] >= 0) {
          flux(slots.var[s], a[0], a[1], a[2]) =
              s == slot_index::mom(D) ? fl[j + 1][s] : fl[j + 1][s] * sign;
        }
      }
      u_star(0, a[0], a[1], a[2]) = src[j + 1] * sign;
    }
  }

  // s_cbc's GRCBC (its grcbc_in, grcbc_out and grcbc_vel_out branches): the incoming amplitudes
  // replaced by ones that relax the face's state toward the prescribed one, in MFC's order of
  // operations; c**3 is MFC's pow, c**2 a product (gfortran's x**2._wp).
  KOKKOS_FORCEINLINE_FUNCTION void relax(T (&lodi)[max_equations], int nf, int nd, int l_adv, T rho,
                                         T c, T pres, const T (&vel)[3],
                                         const T (&alpha_rho)[eos_max_fluids],
                                         const T (&adv)[eos_max_fluids]) const {
    const T ma = vel[D] / c;
    // sign(1, cbc_loc): the prescribed normal velocity in the face's mirrored frame.
    const T s   = loc < 0 ? T(-1) : T(1);
    const T del = grcbc.del;
    if (bc == bc_nonreflecting_inflow && grcbc.in) {
      const T c3 = loopnest::pow(c, T(3));
      for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
        lodi[1 + k] = c3 * ma * (alpha_rho[k] - grcbc.alpha_rho_in[k]) / del -
                      c * ma * (pres - grcbc.pres_in) / del;
      }
      for (int i = 1; i < 3 && i < nd; ++i) {
        lodi[nf + i] = c * ma * (vel[dir_idx<D>(i)] - grcbc.vel_in[dir_idx<D>(i)]) / del;
      }
      for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
        lodi[nf + nd + k] = c * ma * (adv[k] - grcbc.alpha_in[k]) / del;
      }
      lodi[l_adv] = rho * (c * c) * (T(1) + ma) * (vel[D] + grcbc.vel_in[D] * s) / del +
                    c * (T(1) + ma) * (pres - grcbc.pres_in) / del;
    } else if (bc == bc_nonreflecting_outflow && grcbc.out) {
      lodi[l_adv] = c * (T(1) - ma) * (pres - grcbc.pres_out) / del;
      if (grcbc.vel_out) {
        lodi[l_adv] =
            lodi[l_adv] + rho * (c * c) * (T(1) - ma) * (vel[D] + grcbc.vel_out_value[D] * s) / del;
      }
    }
  }

  // m_compute_cbc's L of this face's bc.
  KOKKOS_FORCEINLINE_FUNCTION void amplitudes(T (&lodi)[max_equations], int nf, int nd, int l_adv,
                                              T rho, T c, const T (&mf)[eos_max_fluids],
                                              const T (&d)[max_equations], T dpres_ds, T dvel_n,
                                              T lambda1, T lambda2, T lambda3) const {
    if (bc == bc_supersonic_inflow) {
      return;
    }
    // The outgoing acoustic wave, and with -6 a factor that keeps only incoming waves' share.
    const T half      = T(5.e-1);
    const auto buffer = [&](T lambda) {
      return bc == bc_nonreflecting_buffer
                 ? (half - half * loopnest::copysign(T(1), lambda)) * lambda
                 : lambda;
    };
    lodi[0] = buffer(lambda1) * (dpres_ds - rho * c * dvel_n);
    if (bc == bc_slip_wall) {
      lodi[l_adv] = lodi[0];
      return;
    }
    if (bc == bc_nonreflecting_inflow) {
      return;
    }
    const T l2 = buffer(lambda2);
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      lodi[1 + k] = l2 * (c * c * d[slot_index::cont(k)] - mf[k] * dpres_ds);
    }
    for (int i = 1; i < 3 && i < nd; ++i) {
      lodi[nf + i] = l2 * d[slot_index::mom(dir_idx<D>(i))];
    }
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      lodi[nf + nd + k] = l2 * d[slot_index::adv(k)];
    }
    if (bc == bc_nonreflecting_buffer) {
      lodi[l_adv] = buffer(lambda3) * (dpres_ds + rho * c * dvel_n);
    } else if (bc == bc_force_free_outflow) {
      lodi[l_adv] = lodi[0] + T(2) * rho * c * lambda2 * dvel_n;
    } else if (bc == bc_constant_pressure_outflow) {
      lodi[l_adv] = -lodi[0];
    } else if (bc == bc_supersonic_outflow) {
      lodi[l_adv] = lambda3 * (dpres_ds + rho * c * dvel_n);
    }
    // bc_nonreflecting_outflow: L(advxe) = 0.
  }
};

}  // namespace detail

template <class T>
template <class Schedule>
void five_equation_solver<T>::characteristic_boundaries(int d) {
  static const char* const names[3] = {"x", "y", "z"};
  const axis_config& a              = m_case.axis[d];
  const int bc[2]                   = {a.bc_beg, a.bc_end};
  for (int side = 0; side < 2; ++side) {
    if (!is_characteristic(bc[side])) {
      continue;
    }
    const int last = a.cells_minus_one;
    int lower[3]   = {0, 0, 0};
    int upper[3]   = {m_case.m() + 1, m_case.n() + 1, m_case.p() + 1};
    lower[d]       = side == 0 ? 0 : last;
    upper[d]       = lower[d] + 1;
    const loopnest::box<3> face({lower[0], lower[1], lower[2]}, {upper[0], upper[1], upper[2]});
    const cbc_coefficients<T> coef =
        cbc_coefficients_of<T>(m_edge_widths[d][side], m_case.weno_order);
    grcbc_inputs<T> grcbc;
    grcbc.in      = a.grcbc_in;
    grcbc.out     = a.grcbc_out;
    grcbc.vel_out = a.grcbc_vel_out;
    for (int e = 0; e < 3; ++e) {
      grcbc.vel_in[e]        = static_cast<T>(a.vel_in[e]);
      grcbc.vel_out_value[e] = static_cast<T>(a.vel_out[e]);
    }
    grcbc.pres_in  = static_cast<T>(a.pres_in);
    grcbc.pres_out = static_cast<T>(a.pres_out);
    static_assert(max_fluids <= eos_max_fluids,
                  "cbc.hpp: the case's fluids must fit the equation of state's arrays.");
    for (int k = 0; k < max_fluids; ++k) {
      grcbc.alpha_rho_in[k] = static_cast<T>(a.alpha_rho_in[k]);
      grcbc.alpha_in[k]     = static_cast<T>(a.alpha_in[k]);
    }
    grcbc.del = static_cast<T>(m_widest[d]);
    // Reads buff_size + 1 cells and a face of fluxes, writes up to three faces, per line.
    const double bytes =
        static_cast<double>(face.size()) * (buff_size + 4) * sys_size() * sizeof(T);
    const std::string label = std::string("cbc_") + names[d] + (side == 0 ? "_beg" : "_end");
    m_profile.run(m_exec, label, bytes, [&] {
      const auto launch = [&](auto body) {
        loopnest::for_each_cell<bounded<Schedule, blocks_per_sm<T>::cbc>>(m_exec, face, body,
                                                                          "loopnest_mfc::" + label);
      };
      const auto flux   = m_flux[static_cast<std::size_t>(d)].ref();
      const auto u_star = m_flux_src[static_cast<std::size_t>(d)].ref();
      const int loc     = side == 0 ? -1 : 1;
      if (d == 0) {
        launch(detail::characteristic_face<T, 0>{m_prim.ref(), flux, u_star, m_eos, m_slots, coef,
                                                 grcbc, bc[side], loc, last, m_case.weno_order,
                                                 m_case.mixture_err});
      } else if (d == 1) {
        launch(detail::characteristic_face<T, 1>{m_prim.ref(), flux, u_star, m_eos, m_slots, coef,
                                                 grcbc, bc[side], loc, last, m_case.weno_order,
                                                 m_case.mixture_err});
      } else {
        launch(detail::characteristic_face<T, 2>{m_prim.ref(), flux, u_star, m_eos, m_slots, coef,
                                                 grcbc, bc[side], loc, last, m_case.weno_order,
                                                 m_case.mixture_err});
      }
    });
  }
}

}  // namespace loopnest_mfc

#endif
