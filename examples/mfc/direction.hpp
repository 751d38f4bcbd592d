// five_equation_solver's WENO and Riemann solver (HLLC or HLL) along one axis (rhs.hpp,
// direction_along): included by the translation units that compile it, one per precision, schedule
// and axis (examples/mfc/solver.cmake).
#ifndef LOOPNEST_MFC_DIRECTION_HPP
#define LOOPNEST_MFC_DIRECTION_HPP

#include "rhs.hpp"

#include <loopnest/box.hpp>
#include <loopnest/for_each.hpp>

#include <cstddef>
#include <string>

namespace loopnest_mfc {

template <class T>
template <class Schedule, int D>
void five_equation_solver<T>::direction_along() {
  static const char* const names[3] = {"x", "y", "z"};
  const std::string axis            = names[D];
  int lower[3]                      = {0, 0, 0};
  int upper[3]                      = {m_case.m() + 1, m_case.n() + 1, m_case.p() + 1};
  lower[D]                          = -1;
  const loopnest::box<3> boundaries({lower[0], lower[1], lower[2]}, {upper[0], upper[1], upper[2]});
  int cell_upper[3] = {upper[0], upper[1], upper[2]};
  cell_upper[D] += 1;
  const loopnest::box<3> cells_around({lower[0], lower[1], lower[2]},
                                      {cell_upper[0], cell_upper[1], cell_upper[2]});
  if (m_sweep) {
    sweep_along<D>(boundaries, cells_around);
    return;
  }
  // Reads the primitive variables (and WENO's halo along D), writes both boundary values.
  const double weno_bytes = static_cast<double>(cells_around.size()) * 3 * sys_size() * sizeof(T);
  m_profile.run(m_exec, "weno_" + axis, weno_bytes, [&] {
    with_weno<D>([&](auto order, const auto& coefficients) {
      reconstruct<Schedule, D, decltype(order)::value>(cells_around, coefficients, axis);
    });
  });
  // Reads both sides' values, writes the fluxes and the source values.
  const double sources = m_case.riemann_solver == 1 ? m_case.num_fluids : 1;
  const double riemann_bytes =
      static_cast<double>(boundaries.size()) * (3 * sys_size() + sources) * sizeof(T);
  if (m_case.riemann_solver == 1) {
    riemann_sweep<Schedule, D, detail::riemann_solver_kind::hll>(boundaries, "hll_" + axis,
                                                                 riemann_bytes);
  } else {
    riemann_sweep<Schedule, D, detail::riemann_solver_kind::hllc>(boundaries, "hllc_" + axis,
                                                                  riemann_bytes);
  }
}

template <class T>
template <class Schedule, int D, detail::riemann_solver_kind Solver>
void five_equation_solver<T>::riemann_sweep(const loopnest::box<3>& boundaries,
                                            const std::string& name, double bytes) {
  const detail::riemann<T, D, Solver> body{m_lower.ref(),
                                           m_upper.ref(),
                                           m_flux[static_cast<std::size_t>(D)].ref(),
                                           m_flux_src[static_cast<std::size_t>(D)].ref(),
                                           m_eos,
                                           m_slots,
                                           m_case.mixture_err};
  m_profile.run(m_exec, name, bytes, [&] {
    loopnest::for_each_cell<
        filling<Schedule, blocks_per_sm<T>::riemann, blocks_per_sm<T>::riemann_filled>>(
        m_exec, boundaries, body, "loopnest_mfc::" + name);
  });
}

}  // namespace loopnest_mfc

#endif
