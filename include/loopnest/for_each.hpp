// loopnest::for_each_cell and for_each_cell_var: one loop body over the cells, or the (cell,
// variable) pairs, of a box, mapped onto the device as the schedule says. The machinery is in
// loopnest/detail/.
#ifndef LOOPNEST_FOR_EACH_HPP
#define LOOPNEST_FOR_EACH_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/body_traits.hpp>
#include <loopnest/detail/cell_var_launch.hpp>
#include <loopnest/detail/launch.hpp>
#include <loopnest/detail/loop_bodies.hpp>
#include <loopnest/detail/policy_order.hpp>
#include <loopnest/detail/tiles.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>
#include <loopnest/tile.hpp>

#include <string>

namespace loopnest {

// Runs f(i, j) (2D box) or f(i, j, k) (3D box) once for every cell of b on exec, mapped onto
// the device as Schedule says. For a cell loop collapse4 and collapse3 are the same MDRange,
// which automatic runs unless it picks flat (loopnest::automatic_choice<Schedule>); an explicit
// tile has one size per box dimension. Throws std::invalid_argument, before any
// launch, for a tile that does not fit the schedule or the backend. An empty box is a no-op.
template <class Schedule, class ExecutionSpace, int Rank, class F>
void for_each_cell(const ExecutionSpace& exec, const box<Rank>& b, const F& f,
                   const std::string& label  = "loopnest::for_each_cell",
                   const tile& explicit_tile = tile{}) {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::for_each_cell: the template argument must be a loopnest schedule, "
                "such as loopnest::collapse3.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::for_each_cell: the first argument must be a Kokkos execution space "
                "instance, such as Kokkos::DefaultExecutionSpace().");
  static_assert(Impl::is_cell_body_v<F, Rank>,
                "loopnest::for_each_cell: the loop body must be callable as f(i, j) for a 2D "
                "box and as f(i, j, k) for a 3D box, with int indices.");
  constexpr schedule_kind kind = Schedule::kind;
  constexpr bool takes_tile = kind == schedule_kind::collapse4 || kind == schedule_kind::collapse3;
  using bounds              = Impl::bounds_for_t<kind, typename Schedule::bounds>;
  constexpr bool reverse    = Impl::reverse_v<Schedule>;
  Impl::check_tile<bounds>("loopnest::for_each_cell", exec, explicit_tile, kind,
                           takes_tile ? Rank : 0, Rank == 2 ? "i, j" : "i, j, k",
                           reverse ? 0 : Rank - 1);
  if (b.empty()) {
    return;
  }
  const auto pb = Impl::to_policy_order<reverse>(b);
  const Impl::cell_body<F, reverse> body{f};
  if constexpr (kind == schedule_kind::flat) {
    Impl::launch_flat<bounds>(label, exec, pb, body);
  } else {
    if constexpr (Impl::automatic_may_run_flat_v<Schedule>) {
      if (automatic_choice<Schedule>(exec, b.size()) == schedule_kind::flat) {
        Impl::launch_flat<bounds>(label, exec, pb, body);
        return;
      }
    }
    Impl::launch_mdrange<Rank, reverse, kind == schedule_kind::kokkos_default, bounds>(
        label, exec, pb, var_range{}, explicit_tile, body);
  }
}

// Runs f(i, j, v) (2D box) or f(i, j, k, v) (3D box) once for every cell of b and every
// variable v in vars, [vars.first, vars.last), mapped as Schedule says: collapse4 and
// kokkos_default make each (cell, variable) pair a work item, collapse3 and flat make each cell a
// work item that runs v = first, first + 1, ... last - 1 in order, automatic picks collapse4,
// flat or collapse3 by loopnest::automatic_choice<Schedule>. The body receives the variable's
// own index (MFC's advxb..advxe is var_range{advxb, advxe + 1}). An explicit tile has one size per
// box dimension, plus one for the variable under collapse4. Throws std::invalid_argument, before
// any launch, for vars.last < vars.first and for a tile that does not fit the schedule or the
// backend. An empty box or an empty range is a no-op.
template <class Schedule, class ExecutionSpace, int Rank, class F>
void for_each_cell_var(const ExecutionSpace& exec, const box<Rank>& b, const var_range& vars,
                       const F& f, const std::string& label = "loopnest::for_each_cell_var",
                       const tile& explicit_tile = tile{}) {
  static_assert(Impl::is_cell_var_body_v<F, Rank>,
                "loopnest::for_each_cell_var: the loop body must be callable as f(i, j, v) for "
                "a 2D box and as f(i, j, k, v) for a 3D box, with int indices.");
  Impl::launch_cell_var<Schedule>(exec, b, vars, Impl::no_cell_value{}, f, label, explicit_tile);
}

// for_each_cell_var over the variables [0, nvar). Throws std::invalid_argument, before any
// launch, for nvar < 0; nvar = 0 is a no-op.
template <class Schedule, class ExecutionSpace, int Rank, class F>
void for_each_cell_var(const ExecutionSpace& exec, const box<Rank>& b, int nvar, const F& f,
                       const std::string& label  = "loopnest::for_each_cell_var",
                       const tile& explicit_tile = tile{}) {
  for_each_cell_var<Schedule>(exec, b, Impl::vars_of_nvar(nvar), f, label, explicit_tile);
}

// A per-cell computation for for_each_cell_var: p(i, j[, k]) returns a value that the loop body
// receives after the variable index. Under collapse3 and flat it runs once per cell, outside
// the variable loop (MFC computes the inverse grid spacing this way); under collapse4 and
// kokkos_default once per (cell, variable). The body sees the same value either way as long as
// p depends on nothing but the cell.
template <class P>
struct per_cell_t {
  P p;
};
template <class P>
per_cell_t<P> per_cell(const P& p) {
  return {p};
}

// for_each_cell_var with a per-cell value: f(i, j, v, c) or f(i, j, k, v, c), c = p(cell), for v
// in vars.
template <class Schedule, class ExecutionSpace, int Rank, class P, class F>
void for_each_cell_var(const ExecutionSpace& exec, const box<Rank>& b, const var_range& vars,
                       const per_cell_t<P>& per_cell, const F& f,
                       const std::string& label  = "loopnest::for_each_cell_var",
                       const tile& explicit_tile = tile{}) {
  static_assert(Impl::is_cell_body_v<P, Rank>,
                "loopnest::for_each_cell_var: the per-cell computation must be callable as "
                "p(i, j) for a 2D box and as p(i, j, k) for a 3D box, with int indices.");
  static_assert(Impl::is_cell_var_value_body_v<F, P, Rank>,
                "loopnest::for_each_cell_var: with loopnest::per_cell(p) the loop body must be "
                "callable as f(i, j, v, c) for a 2D box and as f(i, j, k, v, c) for a 3D box, c "
                "being what p returns.");
  Impl::launch_cell_var<Schedule>(exec, b, vars, per_cell.p, f, label, explicit_tile);
}

// The same over the variables [0, nvar).
template <class Schedule, class ExecutionSpace, int Rank, class P, class F>
void for_each_cell_var(const ExecutionSpace& exec, const box<Rank>& b, int nvar,
                       const per_cell_t<P>& per_cell, const F& f,
                       const std::string& label  = "loopnest::for_each_cell_var",
                       const tile& explicit_tile = tile{}) {
  for_each_cell_var<Schedule>(exec, b, Impl::vars_of_nvar(nvar), per_cell, f, label, explicit_tile);
}

}  // namespace loopnest

#endif
