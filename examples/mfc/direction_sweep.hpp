// five_equation_solver's WENO and Riemann solver along one axis as one loopnest::sweep (rhs.hpp,
// sweep_along): included by the translation units that compile it, one per precision and axis
// (examples/mfc/solver.cmake), since the sweep does not depend on the loops' schedule.
#ifndef LOOPNEST_MFC_DIRECTION_SWEEP_HPP
#define LOOPNEST_MFC_DIRECTION_SWEEP_HPP

#include "rhs.hpp"

#include <loopnest/box.hpp>
#include <loopnest/sweep.hpp>

#include <cstddef>
#include <string>

namespace loopnest_mfc {

namespace detail {

// WENO along D and the Riemann solver at the faces of one block of a loopnest::sweep (cells: the
// faces f = -1 .. m, between cells f and f + 1): a face reads the upper value of cell f and the
// lower value of cell f + 1, so the block reconstructs its cells and the one past its last face,
// both values into team scratch (arrays 0 and 1), then solves at its faces. The same calls as
// the loops through memory, on the same values: the same bits.
template <class T, int D, int Order, class Coefficients, riemann_solver_kind Solver>
struct weno_riemann {
  Coefficients coefficients;
  T weno_eps;
  bool mapped;
  loopnest::field_set_ref<T> flux, flux_src;
  stiffened_gas<T, slot_index> eos;
  slot_map slots;
  bool mixture_err;
  int nvar;

  template <class Block>
  KOKKOS_INLINE_FUNCTION void operator()(const Block& block) const {
    using scratch = loopnest::scratch_ref<T>;
    const reconstruct<T, D, Order, Coefficients, scratch, scratch> weno{
        block.staged(), block.array(0), block.array(1), coefficients, weno_eps, mapped};
    block.for_each_cell_var(0, 1, nvar, weno);
    block.barrier();
    const riemann<T, D, Solver, scratch> solve{block.array(0), block.array(1), flux, flux_src, eos,
                                               slots,          mixture_err};
    block.for_each_cell(0, 0, solve);
  }
};

}  // namespace detail

template <class T>
template <int D>
void five_equation_solver<T>::sweep_along(const loopnest::box<3>& boundaries,
                                          const loopnest::box<3>& cells_around) {
  static const char* const names[3] = {"x", "y", "z"};
  const std::string axis            = names[D];
  // Reads the primitive variables (and WENO's halo along D), writes the fluxes and the source
  // values.
  const double sources = m_case.riemann_solver == 1 ? m_case.num_fluids : 1;
  const double bytes   = static_cast<double>(cells_around.size()) * sys_size() * sizeof(T) +
                       static_cast<double>(boundaries.size()) * (sys_size() + sources) * sizeof(T);
  with_weno<D>([&](auto order, const auto& coefficients) {
    if (m_case.riemann_solver == 1) {
      sweep_direction<D, decltype(order)::value, detail::riemann_solver_kind::hll>(
          boundaries, coefficients, "weno_hll_" + axis, bytes);
    } else {
      sweep_direction<D, decltype(order)::value, detail::riemann_solver_kind::hllc>(
          boundaries, coefficients, "weno_hllc_" + axis, bytes);
    }
  });
}

template <class T>
template <int D, int Order, detail::riemann_solver_kind Solver, class C>
void five_equation_solver<T>::sweep_direction(const loopnest::box<3>& boundaries,
                                              const C& coefficients, const std::string& name,
                                              double bytes) {
  const detail::weno_riemann<T, D, Order, C, Solver> body{
      coefficients,
      static_cast<T>(m_case.weno_eps),
      m_case.mapped_weno,
      m_flux[static_cast<std::size_t>(D)].ref(),
      m_flux_src[static_cast<std::size_t>(D)].ref(),
      m_eos,
      m_slots,
      m_case.mixture_err,
      sys_size()};
  // WENO's stencil reaches Order / 2 cells to either side of the cells reconstructed, which reach
  // one cell past the block's last face.
  constexpr int halo = Order / 2 + 1;
  const loopnest::sweep_array values{sys_size(), 0, 1};
  m_profile.run(m_exec, name, bytes, [&] {
    loopnest::sweep<D, loopnest::launch_bounds<256, blocks_per_sm<T>::sweep>>(
        m_exec, boundaries, m_prim, halo, {values, values}, body, "loopnest_mfc::" + name,
        sweep_shape_for(halo));
  });
}

}  // namespace loopnest_mfc

#endif
