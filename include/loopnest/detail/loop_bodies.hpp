// The functors loopnest launches: a user's cell or (cell, variable) body adapted to each
// schedule's work item, in policy order.
#ifndef LOOPNEST_DETAIL_LOOP_BODIES_HPP
#define LOOPNEST_DETAIL_LOOP_BODIES_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/policy_order.hpp>
#include <loopnest/detail/strips.hpp>
#include <loopnest/kokkos_compat.hpp>

#include <type_traits>

namespace loopnest::Impl {

// One work item per cell.
template <class F, bool Reverse>
struct cell_body {
  F f;
  template <class... P>
  KOKKOS_FUNCTION void operator()(P... p) const {
    invoke_cell<Reverse>(f, static_cast<int>(p)...);
  }
};

// The per-cell value of for_each_cell_var with loopnest::per_cell: computed from the cell's
// indices and handed to the body after the variable index. Without one, the body is called
// with the indices alone.
struct no_cell_value {
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION no_cell_value operator()(I...) const {
    return {};
  }
};
template <class F, class C>
struct bind_cell_value {
  const F& f;
  const C& c;
  template <class... I>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(I... i) const {
    if constexpr (std::is_same<std::remove_cv_t<C>, no_cell_value>::value) {
      f(i...);
    } else {
      f(i..., c);
    }
  }
};

// at(v) for every variable v in [first, last): groups of 4, then the 1 to 3 variables left as one
// unguarded group, so that a body's read-only loads can move ahead of its stores within each group.
// nvcc's own unrolling of a plain loop leaves the remainder one variable at a time, one load in
// flight per thread, and guarding every call of a group measured slower still (docs/design.md,
// "Launch bounds and loads in flight"; the numbers are in docs/results/h200).
template <class At>
KOKKOS_FORCEINLINE_FUNCTION void for_each_var_in_groups(const var_range& vars, const At& at) {
  int v = vars.first;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll 1
#endif
  for (; v + 4 <= vars.last; v += 4) {
    at(v);
    at(v + 1);
    at(v + 2);
    at(v + 3);
  }
  switch (vars.last - v) {
    case 3:
      at(v);
      at(v + 1);
      at(v + 2);
      break;
    case 2:
      at(v);
      at(v + 1);
      break;
    case 1:
      at(v);
      break;
    default:
      break;
  }
}

// One work item per cell, the variables in order inside it (collapse3, flat): the per-cell
// value is computed once for all variables.
template <class P, class F, bool Reverse>
struct cell_var_loop_body {
  P per_cell;
  F f;
  var_range vars;
  template <class... I>
  KOKKOS_FUNCTION void operator()(I... p) const {
    const auto c = invoke_cell<Reverse>(per_cell, static_cast<int>(p)...);
    const bind_cell_value<F, decltype(c)> g{f, c};
    for_each_var_in_groups(vars,
                           [&](int v) { invoke_cell_var<Reverse>(g, v, static_cast<int>(p)...); });
  }
};

// A collapse3 work item of N cells along policy index 0 on a 3D box (launch_strips): one cell as
// cell_var_loop_body, or a whole strip, whose per-cell values are computed first and whose
// variables run as strips of the body (has_strips) or cell after cell.
template <class P, class F, bool Reverse, int N>
struct cell_var_strip_body {
  cell_var_loop_body<P, F, Reverse> cell;
  KOKKOS_FUNCTION void operator()(int p0, int p1, int p2) const { cell(p0, p1, p2); }
  KOKKOS_FUNCTION void strip(int p0, int p1, int p2) const {
    using value = std::decay_t<decltype(invoke_cell<Reverse>(cell.per_cell, p0, p1, p2))>;
    strip_of<value, N> c;
    for (int u = 0; u < N; ++u) {
      c.x[u] = invoke_cell<Reverse>(cell.per_cell, p0 + u, p1, p2);
    }
    for_each_var_in_groups(cell.vars, [&](int v) {
      if constexpr (has_strips<F>::value) {
        invoke_cell<Reverse>(
            [&](int i, int j, int k) { cell.f.template strip<N, Reverse ? 2 : 0>(i, j, k, v, c); },
            p0, p1, p2);
      } else {
        for (int u = 0; u < N; ++u) {
          invoke_cell_var<Reverse>(bind_cell_value<F, value>{cell.f, c.x[u]}, v, p0 + u, p1, p2);
        }
      }
    });
  }
};

// One work item per (cell, variable) pair (collapse4, kokkos_default): the variable is the last
// policy index, and each work item computes the per-cell value itself.
template <class P, class F, int Rank, bool Reverse>
struct cell_var_body;
template <class P, class F, bool Reverse>
struct cell_var_body<P, F, 2, Reverse> {
  P per_cell;
  F f;
  KOKKOS_FUNCTION void operator()(int p0, int p1, int v) const {
    const auto c = invoke_cell<Reverse>(per_cell, p0, p1);
    invoke_cell_var<Reverse>(bind_cell_value<F, decltype(c)>{f, c}, v, p0, p1);
  }
};
template <class P, class F, bool Reverse>
struct cell_var_body<P, F, 3, Reverse> {
  P per_cell;
  F f;
  KOKKOS_FUNCTION void operator()(int p0, int p1, int p2, int v) const {
    const auto c = invoke_cell<Reverse>(per_cell, p0, p1, p2);
    invoke_cell_var<Reverse>(bind_cell_value<F, decltype(c)>{f, c}, v, p0, p1, p2);
  }
};

// A 1D range over the cells of a box, decomposed by hand in policy order (flat).
template <class Body, int Rank>
struct flat_body;
template <class Body>
struct flat_body<Body, 2> {
  Body body;
  int lo0, lo1, e0;
  template <class I>
  KOKKOS_FUNCTION void operator()(I n) const {
    body(lo0 + static_cast<int>(n % e0), lo1 + static_cast<int>(n / e0));
  }
};
template <class Body>
struct flat_body<Body, 3> {
  Body body;
  int lo0, lo1, lo2, e0, e1;
  template <class I>
  KOKKOS_FUNCTION void operator()(I n) const {
    const I row = n / e0;
    body(lo0 + static_cast<int>(n - row * e0), lo1 + static_cast<int>(row % e1),
         lo2 + static_cast<int>(row / e1));
  }
};

// An MDRange body whose policy starts at 0: adds the box's lower bounds back (and the first
// variable to the variable index, when there is one). Kokkos' host MDRange (3.4 to 4.6) sizes a
// partial last tile as the whole extent when the tile is at least the upper bound but less than the
// extent, which only a negative lower bound allows: with an explicit tile it visited cells past the
// box (kokkos/kokkos#9102 rewrites that computation). A policy from 0 never meets the case.
template <class Body, int N>
struct from_zero_body;
template <class Body>
struct from_zero_body<Body, 2> {
  Body body;
  int lower[2];
  KOKKOS_FUNCTION void operator()(int p0, int p1) const { body(p0 + lower[0], p1 + lower[1]); }
};
template <class Body>
struct from_zero_body<Body, 3> {
  Body body;
  int lower[3];
  KOKKOS_FUNCTION void operator()(int p0, int p1, int p2) const {
    body(p0 + lower[0], p1 + lower[1], p2 + lower[2]);
  }
};
template <class Body>
struct from_zero_body<Body, 4> {
  Body body;
  int lower[4];
  KOKKOS_FUNCTION void operator()(int p0, int p1, int p2, int p3) const {
    body(p0 + lower[0], p1 + lower[1], p2 + lower[2], p3 + lower[3]);
  }
};

}  // namespace loopnest::Impl

#endif
