// MFC's inviscid CFL number (src/simulation/m_data_output.fpp, s_write_run_time_information's
// icfl_max_loc): per interior cell the primitive state, its enthalpy (m_sim_helpers.fpp,
// s_compute_enthalpy), sound speed (s_compute_speed_of_sound) and ICFL
// (s_compute_stability_from_dt, Cartesian: (dt/dx)*(|u| + c) in 1D, dt/min over directions of
// dx/(|u| + c) in 2D and 3D), and the maximum over the cells, a loopnest::reduce_cell with
// Kokkos::Max. The same maximum at dt = 1 gives the dt of a CFL target (m_time_steppers.fpp,
// s_compute_dt; m_sim_helpers.fpp, s_compute_dt_from_cfl).
#ifndef LOOPNEST_MFC_STABILITY_HPP
#define LOOPNEST_MFC_STABILITY_HPP

#include "case.hpp"
#include "eos.hpp"
#include "grid.hpp"
#include "rhs.hpp"
#include "riemann.hpp"

#include <loopnest/field_set.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/reduce.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace loopnest_mfc {

// The largest ICFL of steps of `step` over the interior cells of the conservative state `cons`
// (the case's variables, MFC's order) of case c on grid g, in precision T: MFC's icfl_max_loc,
// this rank's. q_prim_vf is the simulation's conversion (conversion_site::simulation), the
// enthalpy and sound speed HLLC's (riemann_side, speed_of_sound), MFC's dx(j) in precision T.
template <class Schedule, class T, class ExecutionSpace>
T max_icfl(const ExecutionSpace& exec, const loopnest::field_set<T>& cons, const case_config& c,
           const grid& g, double step) {
  Kokkos::View<const T*> widths[3];
  for (int d = 0; d < c.num_dims; ++d) {
    const axis_grid& a = g.axis[d];
    Kokkos::View<T*> w(Kokkos::view_alloc(exec, "loopnest_mfc::icfl_dx" + std::to_string(d)),
                       static_cast<std::size_t>(a.m) + 1);
    const auto mirror = Kokkos::create_mirror_view(w);
    for (int i = 0; i <= a.m; ++i) {
      mirror(i) = static_cast<T>(a.dx(i));
    }
    Kokkos::deep_copy(exec, w, mirror);
    widths[d] = w;
  }
  const auto q                           = cons.ref();
  const stiffened_gas<T, slot_index> eos = eos_of<T, slot_index>(c);
  const slot_map slots                   = slot_map::of(equations_of(c));
  const bool mixture_err                 = c.mixture_err;
  const int dims                         = c.num_dims;
  const T dt                             = static_cast<T>(step);
  const Kokkos::View<const T*> dx = widths[0], dy = widths[1], dz = widths[2];
  T result = T(0);
  loopnest::reduce_cell<bounded<Schedule, blocks_per_sm<T>::state_check>>(
      exec, cons.interior(),
      KOKKOS_LAMBDA(int i, int j, int k, T& acc) {
        T qc[max_equations] = {};
        T p[max_equations]  = {};
        slots.load(q, i, j, k, qc);
        conservative_to_primitive(eos, qc, p, conversion_site::simulation);
        const riemann_side<T, slot_index> cell(eos, p);
        const T sound =
            speed_of_sound(cell.rho, cell.gamma, cell.enthalpy, cell.vel_rms, cell.qv, mixture_err);
        // |u| + c along each direction (Fortran's abs).
        const T u = loopnest::copysign(p[slot_index::mom(0)], T(1)) + sound;
        T icfl    = T(0);
        if (dims == 1) {
          icfl = (dt / dx(i)) * u;
        } else {
          T terms = fortran_min(dx(i) / u,
                                dy(j) / (loopnest::copysign(p[slot_index::mom(1)], T(1)) + sound));
          if (dims == 3) {
            terms = fortran_min(terms,
                                dz(k) / (loopnest::copysign(p[slot_index::mom(2)], T(1)) + sound));
          }
          icfl = dt / terms;
        }
        acc = icfl > acc ? icfl : acc;
      },
      Kokkos::Max<T>(result), "loopnest_mfc::icfl");
  return result;
}

// MFC's dt for a CFL target (s_compute_dt): the smallest over the cells of cfl_target times the
// cell's crossing time, dx/(|u| + c) in 1D and the smallest over the directions in 2D and 3D,
// which is cfl_target over the largest ICFL of a step of 1. `max_over_ranks` is the maximum over
// every rank of a value (MFC's s_mpi_allreduce_min of dt).
template <class Schedule, class T, class ExecutionSpace, class MaxOverRanks>
double cfl_time_step(const ExecutionSpace& exec, const loopnest::field_set<T>& cons,
                     const case_config& c, const grid& g, double cfl_target,
                     const MaxOverRanks& max_over_ranks) {
  const double per_unit_time =
      max_over_ranks(static_cast<double>(max_icfl<Schedule>(exec, cons, c, g, 1.0)));
  return cfl_target / per_unit_time;
}

}  // namespace loopnest_mfc

#endif
