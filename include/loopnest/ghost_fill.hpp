// loopnest::fill_ghosts: the ghost layers of a field set filled on one rank from its own interior
// (periodic, extrapolation, reflection: MFC's boundary conditions -1, -3 and -2), face by face as
// the caller picks, one loopnest loop per axis under the Schedule template argument.
#ifndef LOOPNEST_GHOST_FILL_HPP
#define LOOPNEST_GHOST_FILL_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/error.hpp>
#include <loopnest/detail/profiling_region.hpp>
#include <loopnest/field_set.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/grid_shape.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>

#include <string>

namespace loopnest {

// What fills the ghost layers of one face. Layer l (0 nearest the interior) of the ghosts below
// an axis of n interior cells is cell -1 - l, above it cell n + l; it gets
//   periodic:      the interior cell l layers in from the other side (n - 1 - l below, l above)
//   extrapolation: the interior cell next to the face (0 below, n - 1 above), MFC's bc -3
//   reflection:    its mirror image across the face (l below, n - 1 - l above) with the sign of
//                  the axis' normal variable flipped, MFC's bc -2
// none leaves the face alone (a neighbouring rank's halo exchange, or the caller, fills it).
enum class ghost_rule { none, periodic, extrapolation, reflection };

constexpr const char* name(ghost_rule r) {
  switch (r) {
    case ghost_rule::none:
      return "none";
    case ghost_rule::periodic:
      return "periodic";
    case ghost_rule::extrapolation:
      return "extrapolation";
    case ghost_rule::reflection:
      return "reflection";
  }
  return "unknown";
}

// The rule of each face, face[axis][side] (side 0 below the interior, 1 above), and for each axis
// the variable whose sign reflection flips there (the velocity or momentum along the axis; -1
// for none). span is the cells of the other axes each face's slab covers (grid_shape::ghost_box):
// with_corners fills edges and corners too, from the axes before.
struct ghost_rules {
  ghost_rule face[3][2]  = {{ghost_rule::none, ghost_rule::none},
                            {ghost_rule::none, ghost_rule::none},
                            {ghost_rule::none, ghost_rule::none}};
  int normal_variable[3] = {-1, -1, -1};
  ghost_span span        = ghost_span::with_corners;
};

namespace Impl {

// One axis of fill_ghosts: index g of the box along Axis runs over the `ghost` layers below the
// interior, then those above (g - ghost), so that both faces are one launch; the box leaves out
// a face whose rule is none.
template <class T, int Axis>
struct ghost_fill_body {
  field_set_ref<T> fields;
  int n, ghost, normal_variable;
  ghost_rule rule[2];

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int k, int v) const {
    int to[3]          = {i, j, k};
    int from[3]        = {i, j, k};
    const int g        = to[Axis];
    const bool below   = g < ghost;
    const int layer    = below ? g : g - ghost;
    const ghost_rule r = below ? rule[0] : rule[1];
    to[Axis]           = below ? -1 - layer : n + layer;
    from[Axis]         = r == ghost_rule::periodic     ? (below ? n - 1 - layer : layer)
                         : r == ghost_rule::reflection ? (below ? layer : n - 1 - layer)
                                                       : (below ? 0 : n - 1);
    const T value      = fields.load(v, from[0], from[1], from[2]);
    fields(v, to[0], to[1], to[2]) =
        r == ghost_rule::reflection && v == normal_variable ? -value : value;
  }
};

// The rules of axes first_axis to last_axis checked against the grid (every face's rule and the
// span are valid values whatever the axes): nothing is launched unless all are right.
inline void check_ghost_rules(const char* where, const grid_shape& grid, const ghost_rules& rules,
                              int first_axis, int last_axis) {
  for (int a = 0; a < 3; ++a) {
    for (int s = 0; s < 2; ++s) {
      const ghost_rule r   = rules.face[a][s];
      const std::string at = "face[" + std::to_string(a) + "][" + std::to_string(s) + "]";
      if (r != ghost_rule::none && r != ghost_rule::periodic && r != ghost_rule::extrapolation &&
          r != ghost_rule::reflection) {
        throw_invalid_argument(where, at + " = " + std::to_string(static_cast<int>(r)) +
                                          " is no loopnest::ghost_rule");
      }
      if (r == ghost_rule::none || a < first_axis || a > last_axis) {
        continue;
      }
      if (a >= grid.dims()) {
        throw_invalid_argument(where, at + " is " + name(r) + " but the grid has " +
                                          std::to_string(grid.dims()) +
                                          " dimensions (0 = x, 1 = y, 2 = z)");
      }
      if (r != ghost_rule::extrapolation && grid.interior_extent(a) < grid.ghost()) {
        throw_invalid_argument(where, at + " is " + name(r) + " but interior[" + std::to_string(a) +
                                          "] = " + std::to_string(grid.interior_extent(a)) +
                                          " is below ghost = " + std::to_string(grid.ghost()) +
                                          ": its ghosts would be copied from other ghosts");
      }
      if (r == ghost_rule::reflection &&
          (rules.normal_variable[a] < -1 || rules.normal_variable[a] >= grid.nvar())) {
        throw_invalid_argument(where, "normal_variable[" + std::to_string(a) +
                                          "] = " + std::to_string(rules.normal_variable[a]) +
                                          " but the fields have " + std::to_string(grid.nvar()) +
                                          " variables (-1 for none)");
      }
    }
  }
  if (rules.span != ghost_span::face && rules.span != ghost_span::with_corners) {
    throw_invalid_argument(where, "span = " + std::to_string(static_cast<int>(rules.span)) +
                                      " is no loopnest::ghost_span");
  }
}

template <class Schedule, int Axis, class ExecutionSpace, class T, class Layout, class MemorySpace>
void fill_ghosts_along(const ExecutionSpace& exec, const field_set<T, Layout, MemorySpace>& fields,
                       const ghost_rules& rules, const char* label) {
  const ghost_rule below = rules.face[Axis][0], above = rules.face[Axis][1];
  if (fields.ghost() == 0 || (below == ghost_rule::none && above == ghost_rule::none)) {
    return;
  }
  const int ghost   = fields.ghost();
  const box<3> slab = fields.ghost_box(Axis, 0, rules.span);
  int lo[3]         = {slab.lower(0), slab.lower(1), slab.lower(2)};
  int hi[3]         = {slab.upper(0), slab.upper(1), slab.upper(2)};
  lo[Axis]          = below == ghost_rule::none ? ghost : 0;
  hi[Axis]          = above == ghost_rule::none ? ghost : 2 * ghost;
  const ghost_fill_body<T, Axis> body{fields.ref(),
                                      fields.interior_extent(Axis),
                                      ghost,
                                      rules.normal_variable[Axis],
                                      {below, above}};
  for_each_cell_var<Schedule>(exec, box<3>{{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}},
                              fields.nvar(), body, label);
}

template <class Schedule, class ExecutionSpace, class T, class Layout, class MemorySpace>
void fill_ghosts_axis(const ExecutionSpace& exec, const field_set<T, Layout, MemorySpace>& fields,
                      const ghost_rules& rules, int axis) {
  if (axis == 0) {
    fill_ghosts_along<Schedule, 0>(exec, fields, rules, "loopnest::fill_ghosts_x");
  } else if (axis == 1) {
    fill_ghosts_along<Schedule, 1>(exec, fields, rules, "loopnest::fill_ghosts_y");
  } else {
    fill_ghosts_along<Schedule, 2>(exec, fields, rules, "loopnest::fill_ghosts_z");
  }
}

}  // namespace Impl

// Fills the ghost layers of the faces of `axis` (0 = x, 1 = y, 2 = z) that `rules` names, both
// in one launch over ghost_box(axis, side, rules.span); faces whose rule is none are not touched.
// With span with_corners the edges and corners come out right when the axes before `axis` were
// filled first (by this, or by a halo exchange). Throws std::invalid_argument, before any launch,
// for an axis outside [0, dims()) and for a rule of this axis that cannot apply (a face of an
// axis the grid does not have, periodic or reflection over fewer interior cells than ghost
// layers, a normal variable outside [-1, nvar)). Every schedule writes the same bits.
template <class Schedule, class ExecutionSpace, class T, class Layout, class MemorySpace>
void fill_ghosts(const ExecutionSpace& exec, const field_set<T, Layout, MemorySpace>& fields,
                 const ghost_rules& rules, int axis) {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::fill_ghosts: the template argument must be a loopnest schedule, such "
                "as loopnest::collapse3.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::fill_ghosts: the first argument must be a Kokkos execution space "
                "instance, such as Kokkos::DefaultExecutionSpace().");
  constexpr const char* where = "loopnest::fill_ghosts";
  if (axis < 0 || axis >= fields.dims()) {
    Impl::throw_invalid_argument(where, "axis = " + std::to_string(axis) + " but the grid has " +
                                            std::to_string(fields.dims()) +
                                            " dimensions (0 = x, 1 = y, 2 = z)");
  }
  Impl::check_ghost_rules(where, fields, rules, axis, axis);
  const Impl::profiling_region region(where);
  Impl::fill_ghosts_axis<with_layout_t<Schedule, Layout>>(exec, fields, rules, axis);
}

// Fills every face that `rules` names, axis after axis from x: one launch per axis that has any.
// Throws std::invalid_argument, before any launch, for a rule that cannot apply (as above).
template <class Schedule, class ExecutionSpace, class T, class Layout, class MemorySpace>
void fill_ghosts(const ExecutionSpace& exec, const field_set<T, Layout, MemorySpace>& fields,
                 const ghost_rules& rules) {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::fill_ghosts: the template argument must be a loopnest schedule, such "
                "as loopnest::collapse3.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::fill_ghosts: the first argument must be a Kokkos execution space "
                "instance, such as Kokkos::DefaultExecutionSpace().");
  constexpr const char* where = "loopnest::fill_ghosts";
  Impl::check_ghost_rules(where, fields, rules, 0, 2);
  const Impl::profiling_region region(where);
  for (int axis = 0; axis < fields.dims(); ++axis) {
    Impl::fill_ghosts_axis<with_layout_t<Schedule, Layout>>(exec, fields, rules, axis);
  }
}

}  // namespace loopnest

#endif
