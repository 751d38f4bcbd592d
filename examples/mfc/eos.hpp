// The stiffened-gas mixture of MFC's five-equation model (model_eqns = 2) and the conversions
// between its conservative and primitive variables, following src/common/m_variables_conversion.fpp
// (s_compute_species_fraction, s_convert_species_to_mixture_variables[_acc],
// s_convert_conservative_to_primitive_variables, s_convert_primitive_to_conservative_variables,
// s_compute_pressure). One cell at a time on plain arrays, templated on the scalar type and marked
// for device code, so that the right-hand side can call the same functions inside its kernels.
#ifndef LOOPNEST_MFC_EOS_HPP
#define LOOPNEST_MFC_EOS_HPP

#include <Kokkos_Macros.hpp>

#include <cmath>

namespace loopnest_mfc {

inline constexpr int eos_max_fluids = 2;
// Partial densities, three momenta, energy and volume fractions.
inline constexpr int max_equations = 2 * eos_max_fluids + 3 + 1;

// Where each equation sits in a cell's vector of sys_size values (0-based; MFC's contxb, momxb,
// E_idx, advxb less one).
struct equation_index {
  int num_fluids = 1;
  int num_dims   = 1;
  KOKKOS_FORCEINLINE_FUNCTION int cont(int k) const { return k; }
  KOKKOS_FORCEINLINE_FUNCTION int mom(int d) const { return num_fluids + d; }
  KOKKOS_FORCEINLINE_FUNCTION int energy() const { return num_fluids + num_dims; }
  KOKKOS_FORCEINLINE_FUNCTION int adv(int k) const { return num_fluids + num_dims + 1 + k; }
  KOKKOS_FORCEINLINE_FUNCTION int sys_size() const { return 2 * num_fluids + num_dims + 1; }
};

// The same equations at fixed places, whatever the case has (two fluids' and three directions'
// places, the absent ones unused): the layout of the kernels' per-cell arrays, whose indices are
// then known at compile time and stay in registers on a GPU.
struct slot_index {
  int num_fluids = 1;
  int num_dims   = 1;
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int cont(int k) { return k; }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int mom(int d) { return eos_max_fluids + d; }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int energy() { return eos_max_fluids + 3; }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int adv(int k) { return eos_max_fluids + 4 + k; }
};

// The fluids as MFC stores them: gammas(k) = fluid_pp(k)%gamma = 1/(gamma_k - 1) and
// pi_infs(k) = fluid_pp(k)%pi_inf = gamma_k*pi_inf_k/(gamma_k - 1), already transformed by the
// case file (m_variables_conversion.fpp, s_initialize_variables_conversion_module), and qvs(k).
template <class T, class Index = equation_index>
struct stiffened_gas {
  Index index;
  T gammas[eos_max_fluids]  = {};
  T pi_infs[eos_max_fluids] = {};
  T qvs[eos_max_fluids]     = {};
  bool mpp_lim              = false;
};

// The mixture of one cell: rho = sum alpha_rho_k, Gamma = sum alpha_k*gamma_k,
// Pi = sum alpha_k*pi_inf_k, qv = sum alpha_rho_k*qv_k.
template <class T>
struct mixture {
  T rho, gamma, pi_inf, qv;
};

// MFC's segmentation tolerance sgm_eps (m_constants.fpp).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION constexpr T sgm_eps() {
  return T(1.e-16);
}

template <class T>
KOKKOS_FORCEINLINE_FUNCTION T fortran_max(T a, T b) {
  return a > b ? a : b;
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T fortran_min(T a, T b) {
  return a < b ? a : b;
}

// s_compute_species_fraction (no bubbles, no IGR): the partial densities and volume fractions of
// a cell's vector q (conservative or primitive, they agree there), clipped and renormalised when
// mpp_lim is set.
template <class T, class Index>
KOKKOS_FORCEINLINE_FUNCTION void species_fraction(const stiffened_gas<T, Index>& eos, const T* q,
                                                  T* alpha_rho, T* alpha) {
  const int nf = eos.index.num_fluids;
  for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
    alpha_rho[k] = q[eos.index.cont(k)];
    alpha[k]     = q[eos.index.adv(k)];
  }
  if (eos.mpp_lim) {
    T sum = T(0);
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      alpha_rho[k] = fortran_max(T(0), alpha_rho[k]);
      alpha[k]     = fortran_min(fortran_max(T(0), alpha[k]), T(1));
    }
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      sum = sum + alpha[k];
    }
    const T norm = fortran_max(sum, T(1.e-16));
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      alpha[k] = alpha[k] / norm;
    }
  }
}

// The sums of s_convert_species_to_mixture_variables, fluid by fluid in order.
template <class T, class Index>
KOKKOS_FORCEINLINE_FUNCTION mixture<T> mixture_sums(const stiffened_gas<T, Index>& eos,
                                                    const T* alpha_rho, const T* alpha) {
  mixture<T> mix{T(0), T(0), T(0), T(0)};
  for (int k = 0; k < eos_max_fluids && k < eos.index.num_fluids; ++k) {
    mix.rho    = mix.rho + alpha_rho[k];
    mix.gamma  = mix.gamma + alpha[k] * eos.gammas[k];
    mix.pi_inf = mix.pi_inf + alpha[k] * eos.pi_infs[k];
    mix.qv     = mix.qv + alpha_rho[k] * eos.qvs[k];
  }
  return mix;
}

// pre_process's mixture of a cell vector (s_convert_species_to_mixture_variables).
template <class T, class Index>
KOKKOS_FORCEINLINE_FUNCTION mixture<T> mixture_of(const stiffened_gas<T, Index>& eos, const T* q) {
  T alpha_rho[eos_max_fluids];
  T alpha[eos_max_fluids];
  species_fraction(eos, q, alpha_rho, alpha);
  return mixture_sums(eos, alpha_rho, alpha);
}

// simulation's mixture (s_convert_species_to_mixture_variables_acc): with mpp_lim it clips and
// renormalises the fractions once more, against sgm_eps, before the sums.
template <class T, class Index>
KOKKOS_FORCEINLINE_FUNCTION mixture<T> mixture_of_acc(const stiffened_gas<T, Index>& eos,
                                                      T* alpha_rho, T* alpha) {
  const int nf = eos.index.num_fluids;
  if (eos.mpp_lim) {
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      alpha_rho[k] = fortran_max(T(0), alpha_rho[k]);
      alpha[k]     = fortran_min(fortran_max(T(0), alpha[k]), T(1));
    }
    T sum = T(0);
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      sum = sum + alpha[k];
    }
    const T norm = fortran_max(sum, sgm_eps<T>());
    for (int k = 0; k < eos_max_fluids && k < nf; ++k) {
      alpha[k] = alpha[k] / norm;
    }
  }
  return mixture_sums(eos, alpha_rho, alpha);
}

// s_compute_pressure for model_eqns = 2 without bubbles: p = (E - dyn - Pi - qv)/Gamma.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T pressure(T energy, T dyn_p, T pi_inf, T gamma, T qv) {
  return (energy - dyn_p - pi_inf - qv) / gamma;
}

// s_convert_primitive_to_conservative_variables (pre_process, the only place MFC converts this
// way): alpha and alpha_rho carried over, m = rho*u, E = Gamma*p + 0.5*sum(m*u) + Pi + qv.
template <class T, class Index>
KOKKOS_FORCEINLINE_FUNCTION void primitive_to_conservative(const stiffened_gas<T, Index>& eos,
                                                           const T* prim, T* cons) {
  const Index& ix      = eos.index;
  const mixture<T> mix = mixture_of(eos, prim);
  for (int k = 0; k < eos_max_fluids && k < ix.num_fluids; ++k) {
    cons[ix.adv(k)] = prim[ix.adv(k)];
  }
  for (int k = 0; k < eos_max_fluids && k < ix.num_fluids; ++k) {
    cons[ix.cont(k)] = prim[ix.cont(k)];
  }
  T dyn_pres = T(0);
  for (int d = 0; d < 3 && d < ix.num_dims; ++d) {
    cons[ix.mom(d)] = mix.rho * prim[ix.mom(d)];
    dyn_pres        = dyn_pres + cons[ix.mom(d)] * prim[ix.mom(d)] / T(2);
  }
  cons[ix.energy()] = mix.gamma * prim[ix.energy()] + dyn_pres + mix.pi_inf + mix.qv;
}

// Which program converts: simulation floors the density at sgm_eps and uses the _acc mixture;
// pre_process (and post_process) do neither.
enum class conversion_site { pre_process, simulation };

// s_convert_conservative_to_primitive_variables for one cell (model_eqns = 2, no bubbles, no
// elasticity, no chemistry): alpha_rho and alpha carried over, u = m/rho, p from the energy.
template <class T, class Index>
KOKKOS_FORCEINLINE_FUNCTION void conservative_to_primitive(const stiffened_gas<T, Index>& eos,
                                                           const T* cons, T* prim,
                                                           conversion_site site) {
  const Index& ix = eos.index;
  T alpha_rho[eos_max_fluids];
  T alpha[eos_max_fluids];
  species_fraction(eos, cons, alpha_rho, alpha);
  mixture<T> mix = site == conversion_site::simulation ? mixture_of_acc(eos, alpha_rho, alpha)
                                                       : mixture_sums(eos, alpha_rho, alpha);
  for (int k = 0; k < eos_max_fluids && k < ix.num_fluids; ++k) {
    prim[ix.cont(k)] = cons[ix.cont(k)];
  }
  if (site == conversion_site::simulation) {
    mix.rho = fortran_max(mix.rho, sgm_eps<T>());
  }
  T dyn_pres = T(0);
  for (int d = 0; d < 3 && d < ix.num_dims; ++d) {
    prim[ix.mom(d)] = cons[ix.mom(d)] / mix.rho;
    dyn_pres        = dyn_pres + T(5.e-1) * cons[ix.mom(d)] * prim[ix.mom(d)];
  }
  prim[ix.energy()] = pressure(cons[ix.energy()], dyn_pres, mix.pi_inf, mix.gamma, mix.qv);
  for (int k = 0; k < eos_max_fluids && k < ix.num_fluids; ++k) {
    prim[ix.adv(k)] = cons[ix.adv(k)];
  }
}

}  // namespace loopnest_mfc

#endif
