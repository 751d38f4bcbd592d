// Impl::launch_cell_var: a (cell, variable) loop under a schedule, after its checks, with the
// row phase and automatic's threshold that the public for_each_cell_var does not expose.
#ifndef LOOPNEST_DETAIL_CELL_VAR_LAUNCH_HPP
#define LOOPNEST_DETAIL_CELL_VAR_LAUNCH_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/error.hpp>
#include <loopnest/detail/launch.hpp>
#include <loopnest/detail/loop_bodies.hpp>
#include <loopnest/detail/policy_order.hpp>
#include <loopnest/detail/row_alignment.hpp>
#include <loopnest/detail/tiles.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>
#include <loopnest/tile.hpp>

#include <climits>
#include <cstdint>
#include <optional>
#include <string>

namespace loopnest::Impl {

template <schedule_kind Kind, bool Reverse, class ScheduleBounds, int Cells, class ExecutionSpace,
          int Rank, class P, class F>
void run_cell_var(const std::string& label, const ExecutionSpace& exec, const policy_box<Rank>& pb,
                  const var_range& vars, const P& per_cell, const F& f, const tile& explicit_tile,
                  const row_phase& rows) {
  using bounds = bounds_for_t<Kind, ScheduleBounds>;
  if constexpr (Kind == schedule_kind::collapse4 || Kind == schedule_kind::kokkos_default) {
    launch_mdrange<Rank + 1, Reverse, Kind == schedule_kind::kokkos_default, bounds>(
        label, exec, pb, vars, explicit_tile, cell_var_body<P, F, Rank, Reverse>{per_cell, f});
  } else if constexpr (Kind == schedule_kind::collapse3) {
    const cell_var_loop_body<P, F, Reverse> body{per_cell, f, vars};
    if constexpr (Rank == 3 && Cells > 1) {
      launch_strips<Cells, Reverse, bounds>(label, exec, pb, rows, explicit_tile,
                                            cell_var_strip_body<P, F, Reverse, Cells>{body});
    } else if constexpr (Rank == 3) {
      launch_rows<Reverse, bounds>(label, exec, pb, rows, explicit_tile, body);
    } else {
      launch_mdrange<Rank, Reverse, false, bounds>(label, exec, pb, vars, explicit_tile, body);
    }
  } else {
    static_assert(Kind == schedule_kind::flat, "automatic is resolved before this point");
    launch_flat<bounds>(label, exec, pb, cell_var_loop_body<P, F, Reverse>{per_cell, f, vars});
  }
}

// The variables [0, nvar) of for_each_cell_var's nvar overloads; refuses a negative nvar.
inline var_range vars_of_nvar(int nvar) {
  if (nvar < 0) {
    throw_invalid_argument("loopnest::for_each_cell_var",
                           "nvar = " + std::to_string(nvar) + " but it must be at least 0");
  }
  return {0, nvar};
}

// rows: where the box's rows start in memory, for a collapse3 launch to align them (the field
// kernels pass their field set's; the public entry points pass none). collapse4_below: the cell
// count below which automatic runs collapse4, automatic_collapse4_below(exec) unless given (tests
// give one to run both branches on any backend).
template <class Schedule, class ExecutionSpace, int Rank, class P, class F>
void launch_cell_var(const ExecutionSpace& exec, const box<Rank>& b, const var_range& vars,
                     const P& per_cell, const F& f, const std::string& label,
                     const tile& explicit_tile, const row_phase& rows = row_phase{},
                     std::optional<std::int64_t> collapse4_below = std::nullopt) {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::for_each_cell_var: the template argument must be a loopnest schedule, "
                "such as loopnest::collapse3.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::for_each_cell_var: the first argument must be a Kokkos execution "
                "space instance, such as Kokkos::DefaultExecutionSpace().");
  constexpr schedule_kind kind = Schedule::kind;
  if (vars.last < vars.first) {
    throw_invalid_argument("loopnest::for_each_cell_var",
                           "var_range{" + std::to_string(vars.first) + ", " +
                               std::to_string(vars.last) +
                               "} has last = " + std::to_string(vars.last) +
                               " below first = " + std::to_string(vars.first));
  }
  // In 64 bits: last - first of two ints can overflow int, the type of the variable index.
  if (std::int64_t{vars.last} - vars.first > INT_MAX) {
    throw_invalid_argument("loopnest::for_each_cell_var",
                           "var_range{" + std::to_string(vars.first) + ", " +
                               std::to_string(vars.last) +
                               "} holds more than 2^31 - 1 variables, the most an int index spans");
  }
  const int tile_rank    = kind == schedule_kind::collapse4   ? Rank + 1
                           : kind == schedule_kind::collapse3 ? Rank
                                                              : 0;
  using bounds           = typename Schedule::bounds;
  constexpr bool reverse = reverse_v<Schedule>;
  check_tile<bounds_for_t<kind, bounds>>(
      "loopnest::for_each_cell_var", exec, explicit_tile, kind, tile_rank,
      kind == schedule_kind::collapse4 ? (Rank == 2 ? "i, j, v" : "i, j, k, v")
                                       : (Rank == 2 ? "i, j" : "i, j, k"),
      kind == schedule_kind::collapse4 ? Rank : (reverse ? 0 : Rank - 1));
  if (b.empty() || vars.last == vars.first) {
    return;
  }
  constexpr int cells    = Schedule::cells_per_thread;
  const auto pb          = to_policy_order<reverse>(b);
  const auto policy_rows = to_policy_order<reverse>(rows);
  if constexpr (kind == schedule_kind::automatic) {
    if (b.size() < collapse4_below.value_or(automatic_collapse4_below(exec))) {
      run_cell_var<schedule_kind::collapse4, reverse, bounds, 1>(label, exec, pb, vars, per_cell, f,
                                                                 explicit_tile, policy_rows);
    } else if constexpr (automatic_may_run_flat_v<Schedule>) {
      run_cell_var<schedule_kind::flat, reverse, bounds, 1>(label, exec, pb, vars, per_cell, f,
                                                            explicit_tile, policy_rows);
    } else {
      run_cell_var<schedule_kind::collapse3, reverse, bounds, cells>(
          label, exec, pb, vars, per_cell, f, explicit_tile, policy_rows);
    }
  } else {
    run_cell_var<kind, reverse, bounds, cells>(label, exec, pb, vars, per_cell, f, explicit_tile,
                                               policy_rows);
  }
}

}  // namespace loopnest::Impl

#endif
