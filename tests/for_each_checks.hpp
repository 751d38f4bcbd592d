// Checks of loopnest::for_each_cell and for_each_cell_var under one schedule, shared by the
// deterministic and the randomized tests: visit counts, and a floating-point body against the
// same body as a plain host loop. The loop bodies are functors, usable in any test body.
#ifndef LOOPNEST_TEST_FOR_EACH_CHECKS_HPP
#define LOOPNEST_TEST_FOR_EACH_CHECKS_HPP

#include <loopnest/loopnest.hpp>
#include <loopnest/tools/field_compare.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "poison.hpp"
#include "schedules.hpp"

namespace loopnest_test {

// Cell counts over the box grown by `margin` on every side, so that a visit outside the box
// shows as a count where there must be none.
constexpr int margin = 2;

template <class ExecutionSpace>
using count_view = Kokkos::View<int****, Kokkos::LayoutLeft, typename ExecutionSpace::memory_space>;

// Visit counts, and a count of the visits that fell outside them (which would otherwise write
// out of bounds).
template <class ExecutionSpace>
struct visit_counts {
  count_view<ExecutionSpace> counts;
  Kokkos::View<int*, typename ExecutionSpace::memory_space> escaped;

  KOKKOS_INLINE_FUNCTION void hit(int i, int j, int k, int v, int amount = 1) const {
    const bool inside =
        i >= 0 && j >= 0 && k >= 0 && v >= 0 && i < static_cast<int>(counts.extent(0)) &&
        j < static_cast<int>(counts.extent(1)) && k < static_cast<int>(counts.extent(2)) &&
        v < static_cast<int>(counts.extent(3));
    Kokkos::atomic_add(inside ? &counts(i, j, k, v) : &escaped(0), amount);
  }
};

template <class ExecutionSpace, int Rank>
visit_counts<ExecutionSpace> make_counts(const loopnest::box<Rank>& b, int nv) {
  return {count_view<ExecutionSpace>("counts", b.extent(0) + 2 * margin, b.extent(1) + 2 * margin,
                                     Rank == 3 ? b.extent(2) + 2 * margin : 1, nv),
          Kokkos::View<int*, typename ExecutionSpace::memory_space>("escaped", 1)};
}

// Whether every (cell, variable) of b, variables from first_var on, was visited once and nothing
// else was.
template <class ExecutionSpace, int Rank>
bool expect_visited_once(const visit_counts<ExecutionSpace>& visits, const loopnest::box<Rank>& b,
                         const std::string& what, int first_var = 0) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), visits.counts);
  int wrong    = 0;
  for (int v = 0; v < static_cast<int>(h.extent(3)); ++v) {
    for (int k = 0; k < static_cast<int>(h.extent(2)); ++k) {
      for (int j = 0; j < static_cast<int>(h.extent(1)); ++j) {
        for (int i = 0; i < static_cast<int>(h.extent(0)); ++i) {
          const bool inside =
              i >= margin && i < margin + b.extent(0) && j >= margin && j < margin + b.extent(1) &&
              (Rank == 2 || (k >= margin && k < margin + b.extent(2))) && v >= first_var;
          wrong += h(i, j, k, v) != (inside ? 1 : 0);
        }
      }
    }
  }
  int escaped = 0;
  Kokkos::deep_copy(escaped, Kokkos::subview(visits.escaped, 0));
  EXPECT_EQ(wrong, 0) << what;
  EXPECT_EQ(escaped, 0) << what << ": visits more than " << margin << " cells outside the box";
  return wrong == 0 && escaped == 0;
}

template <class Schedule>
std::string describe(const std::string& entry, int rank, const loopnest::tile& t = {}) {
  return entry + " " + kind_name<Schedule>() + "/" + loopnest::name(typename Schedule::mapping{}) +
         "/" +
         (std::is_same<typename Schedule::layout, Kokkos::LayoutLeft>::value ? "left" : "right") +
         " rank " + std::to_string(rank) + (t.is_default() ? "" : " tile " + t.to_string());
}

// The body of the visit counts, relative to their origin lo: a cell (i, j) or (i, j, k) of
// for_each_cell, or a (cell, variable) (i, j, v) or (i, j, k, v) of for_each_cell_var.
template <class ExecutionSpace, int Rank>
struct count_body {
  visit_counts<ExecutionSpace> counts;
  int lo0, lo1, lo2;

  KOKKOS_INLINE_FUNCTION void operator()(int i, int j) const { counts.hit(i - lo0, j - lo1, 0, 0); }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k_or_v) const {
    if (Rank == 3) {
      counts.hit(i - lo0, j - lo1, k_or_v - lo2, 0);
    } else {
      counts.hit(i - lo0, j - lo1, 0, k_or_v);
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, int v) const {
    counts.hit(i - lo0, j - lo1, k - lo2, v);
  }
};

// The variables of for_each_cell_var's argument: an nvar, or a var_range.
inline loopnest::var_range vars_of(int nvar) {
  return {0, nvar};
}
inline loopnest::var_range vars_of(const loopnest::var_range& vars) {
  return vars;
}
inline std::string describe_vars(int nvar) {
  return "nvar " + std::to_string(nvar);
}
inline std::string describe_vars(const loopnest::var_range& vars) {
  return "vars [" + std::to_string(vars.first) + ", " + std::to_string(vars.last) + ")";
}

// Each cell once under for_each_cell (with cell_tile), each (cell, variable) pair once under
// for_each_cell_var for every variable count or var_range in nvars (with var_tile); whether all
// were. A tile must be the default for schedules that take none.
template <class Schedule, class ExecutionSpace, int Rank, class Vars = int>
bool count_visits(const ExecutionSpace& exec, const loopnest::box<Rank>& b,
                  const std::vector<Vars>& nvars, const loopnest::tile& cell_tile = {},
                  const loopnest::tile& var_tile = {}) {
  const int lo0 = b.lower(0) - margin, lo1 = b.lower(1) - margin;
  const int lo2    = b.lower(Rank - 1) - margin;  // unused for a 2D box
  const auto cells = make_counts<ExecutionSpace>(b, 1);
  loopnest::for_each_cell<Schedule>(exec, b, count_body<ExecutionSpace, Rank>{cells, lo0, lo1, lo2},
                                    "count_cells", cell_tile);
  exec.fence();
  bool all = expect_visited_once<ExecutionSpace, Rank>(
      cells, b, describe<Schedule>("for_each_cell", Rank, cell_tile));
  for (const Vars& nv : nvars) {
    const auto pairs = make_counts<ExecutionSpace>(b, vars_of(nv).last);
    loopnest::for_each_cell_var<Schedule>(exec, b, nv,
                                          count_body<ExecutionSpace, Rank>{pairs, lo0, lo1, lo2},
                                          "count_pairs", var_tile);
    exec.fence();
    all = expect_visited_once<ExecutionSpace, Rank>(
              pairs, b,
              describe<Schedule>("for_each_cell_var, " + describe_vars(nv) + ",", Rank, var_tile),
              vars_of(nv).first) &&
          all;
  }
  return all;
}

// ----------------------------------------------------------------------------------------
// Bit-identical results. The body reads neighbours (ghost cells included) and a per-variable
// coefficient; every product-and-sum goes through loopnest::fma so that no compiler may
// contract it differently, which makes the host loop an exact reference too.

constexpr int stencil_ghost = 1;

template <class T>
KOKKOS_INLINE_FUNCTION T update(T centre, T neighbours, T c) {
  return loopnest::fma(c, loopnest::fma(T(-6), centre, neighbours), centre) / (T(1) + c);
}

template <class T, class Layout, class Space>
using field_view = Kokkos::View<T****, Layout, Space>;

// Input u and output w over the box grown by one ghost layer (along k too for a 3D box; a 2D
// box has k = 0 only), stored from 0: box index i is storage index i - o0.
template <class T, class Layout, class ExecutionSpace>
struct bit_fixture {
  field_view<T, Layout, typename ExecutionSpace::memory_space> u, w;
  Kokkos::View<T*, typename ExecutionSpace::memory_space> coef;
  typename field_view<T, Layout, typename ExecutionSpace::memory_space>::HostMirror reference;
  int o0, o1, o2;
};

// Random input and coefficients for variables [0, vars.last), output poisoned, and the reference
// from a plain host loop: the body on the box for the variables of vars, poison on the ghost
// layer and on the variables below vars.first.
template <class T, class Layout, class ExecutionSpace, int Rank>
bit_fixture<T, Layout, ExecutionSpace> make_fixture(const loopnest::box<Rank>& b,
                                                    const loopnest::var_range& vars,
                                                    unsigned seed) {
  const int nvar         = vars.last;
  constexpr bool three_d = Rank == 3;
  constexpr int g        = stencil_ghost;
  const int g2           = three_d ? g : 0;
  const int n0 = b.extent(0), n1 = b.extent(1), n2 = three_d ? b.extent(Rank - 1) : 1;
  bit_fixture<T, Layout, ExecutionSpace> fx;
  fx.o0   = b.lower(0) - g;
  fx.o1   = b.lower(1) - g;
  fx.o2   = three_d ? b.lower(Rank - 1) - g : 0;
  fx.u    = decltype(fx.u)("u", n0 + 2 * g, n1 + 2 * g, n2 + 2 * g2, nvar);
  fx.w    = decltype(fx.w)("w", n0 + 2 * g, n1 + 2 * g, n2 + 2 * g2, nvar);
  fx.coef = decltype(fx.coef)("coef", nvar);
  auto hu = Kokkos::create_mirror_view(fx.u);
  auto hc = Kokkos::create_mirror_view(fx.coef);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int v = 0; v < nvar; ++v) {
    hc(v) = static_cast<T>(0.05 + 0.1 * (dist(gen) + 1.0));
  }
  for (std::size_t e = 0; e < hu.span(); ++e) {
    hu.data()[e] = static_cast<T>(dist(gen));
  }
  Kokkos::deep_copy(fx.u, hu);
  Kokkos::deep_copy(fx.coef, hc);
  Kokkos::deep_copy(fx.w, poison<T>);
  // Its own allocation: on a host backend a mirror view would be w itself.
  fx.reference = Kokkos::create_mirror(fx.w);
  Kokkos::deep_copy(fx.reference, poison<T>);
  for (int v = vars.first; v < vars.last; ++v) {
    for (int k = g2; k < n2 + g2; ++k) {
      for (int j = g; j < n1 + g; ++j) {
        for (int i = g; i < n0 + g; ++i) {
          T nb =
              (hu(i - 1, j, k, v) + hu(i + 1, j, k, v)) + (hu(i, j - 1, k, v) + hu(i, j + 1, k, v));
          nb                       = three_d ? nb + (hu(i, j, k - 1, v) + hu(i, j, k + 1, v)) : nb;
          fx.reference(i, j, k, v) = update(hu(i, j, k, v), nb, hc(v));
        }
      }
    }
  }
  return fx;
}

template <class T, class Layout, class ExecutionSpace>
void expect_bitwise_equal(const bit_fixture<T, Layout, ExecutionSpace>& fx,
                          const std::string& what) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fx.w);
  ASSERT_EQ(h.span(), fx.reference.span());
  std::size_t differing = 0;
  for (std::size_t e = 0; e < h.span(); ++e) {
    differing += !same_bits(h.data()[e], fx.reference.data()[e]);
  }
  EXPECT_EQ(differing, 0u) << what << ": elements differing from the host loop (or poison)";
}

// The body, on a 2D box's (cell, variable) (k = 0, four neighbours) or a 3D box's (six).
template <class T, class Layout, class Space>
struct stencil_body {
  field_view<T, Layout, Space> u, w;
  Kokkos::View<T*, Space> c;
  int o0, o1, o2;

  KOKKOS_INLINE_FUNCTION void operator()(int i0, int j0, int v) const {
    const int i = i0 - o0, j = j0 - o1;
    const T nb = (u(i - 1, j, 0, v) + u(i + 1, j, 0, v)) + (u(i, j - 1, 0, v) + u(i, j + 1, 0, v));
    w(i, j, 0, v) = update(u(i, j, 0, v), nb, c(v));
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i0, int j0, int k0, int v) const {
    const int i = i0 - o0, j = j0 - o1, k = k0 - o2;
    const T nb =
        ((u(i - 1, j, k, v) + u(i + 1, j, k, v)) + (u(i, j - 1, k, v) + u(i, j + 1, k, v))) +
        (u(i, j, k - 1, v) + u(i, j, k + 1, v));
    w(i, j, k, v) = update(u(i, j, k, v), nb, c(v));
  }
};

// The body under Schedule (with an explicit tile, or loopnest's) over any box, for nvar variables
// or a var_range, against the host loop.
template <class Schedule, class T, class ExecutionSpace, int Rank, class Vars>
void bit_identical(const ExecutionSpace& exec, const loopnest::box<Rank>& b, const Vars& nvar,
                   unsigned seed, const loopnest::tile& t = {}) {
  using layout  = typename Schedule::layout;
  using space   = typename ExecutionSpace::memory_space;
  const auto fx = make_fixture<T, layout, ExecutionSpace>(b, vars_of(nvar), seed);
  loopnest::for_each_cell_var<Schedule>(
      exec, b, nvar, stencil_body<T, layout, space>{fx.u, fx.w, fx.coef, fx.o0, fx.o1, fx.o2},
      "bit_identical", t);
  exec.fence();
  expect_bitwise_equal(fx, describe<Schedule>(std::to_string(Rank) + "D " + describe_vars(nvar) +
                                                  " seed " + std::to_string(seed),
                                              Rank, t));
}

// The same body as a cell loop: each cell runs every variable in turn.
template <class Body>
struct cell_loop_body {
  Body body;
  int nvar;

  KOKKOS_INLINE_FUNCTION void operator()(int i, int j) const {
    for (int v = 0; v < nvar; ++v) {
      body(i, j, v);
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    for (int v = 0; v < nvar; ++v) {
      body(i, j, k, v);
    }
  }
};

// bit_identical for for_each_cell: the body as a cell loop under Schedule, against the host loop.
template <class Schedule, class T, class ExecutionSpace, int Rank>
void bit_identical_cells(const ExecutionSpace& exec, const loopnest::box<Rank>& b, int nvar,
                         unsigned seed) {
  using layout  = typename Schedule::layout;
  using space   = typename ExecutionSpace::memory_space;
  using body    = stencil_body<T, layout, space>;
  const auto fx = make_fixture<T, layout, ExecutionSpace>(b, vars_of(nvar), seed);
  loopnest::for_each_cell<Schedule>(
      exec, b, cell_loop_body<body>{body{fx.u, fx.w, fx.coef, fx.o0, fx.o1, fx.o2}, nvar},
      "bit_identical_cells");
  exec.fence();
  expect_bitwise_equal(fx, describe<Schedule>("for_each_cell " + std::to_string(Rank) + "D seed " +
                                                  std::to_string(seed),
                                              Rank, loopnest::tile{}));
}

}  // namespace loopnest_test

#endif
