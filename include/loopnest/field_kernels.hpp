// The per-variable loops of a finite-volume right-hand side (MFC's m_rhs, m_riemann_state and
// m_weno), on field sets and packed buffers, with the schedule as a template argument. Every
// kernel checks shapes on the host before launching.
#ifndef LOOPNEST_FIELD_KERNELS_HPP
#define LOOPNEST_FIELD_KERNELS_HPP

#include <loopnest/detail/error.hpp>
#include <loopnest/detail/overlap.hpp>
#include <loopnest/detail/profiling_region.hpp>
#include <loopnest/detail/span_copy.hpp>
#include <loopnest/detail/tiled_transpose.hpp>
#include <loopnest/field_set.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/packed_fields.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace loopnest {

namespace Impl {

// a and b must have the same variables and interior; with_ghosts also the same ghost width.
template <class A, class B>
void check_same_shape(const char* where, const char* a_name, const A& a, const char* b_name,
                      const B& b, bool with_ghosts) {
  if (a.nvar() != b.nvar()) {
    throw_invalid_argument(where, std::string(a_name) + " has nvar = " + std::to_string(a.nvar()) +
                                      " but " + b_name + " has nvar = " + std::to_string(b.nvar()));
  }
  if (a.dims() != b.dims()) {
    throw_invalid_argument(where, std::string(a_name) + " is " + std::to_string(a.dims()) +
                                      "D but " + b_name + " is " + std::to_string(b.dims()) + "D");
  }
  for (int d = 0; d < 3; ++d) {
    if (a.interior_extent(d) != b.interior_extent(d)) {
      throw_invalid_argument(where, std::string(a_name) + " and " + b_name +
                                        " have different grids: interior extent " +
                                        std::to_string(d) + " is " +
                                        std::to_string(a.interior_extent(d)) + " and " +
                                        std::to_string(b.interior_extent(d)));
    }
  }
  if (with_ghosts && a.ghost() != b.ghost()) {
    throw_invalid_argument(where, std::string(a_name) +
                                      " has ghost = " + std::to_string(a.ghost()) + " but " +
                                      b_name + " has ghost = " + std::to_string(b.ghost()));
  }
}

// Refuses an output field set that shares memory with an input one (the same set, or a copy of
// it): a kernel that reads neighbours of what it writes would read values it already changed.
template <class Out, class In>
void check_disjoint(const char* where, const char* out_name, const Out& out, const char* in_name,
                    const In& in) {
  for (int a = 0; a < out.nvar(); ++a) {
    for (int b = 0; b < in.nvar(); ++b) {
      if (views_overlap(out.field(a), in.field(b))) {
        throw_invalid_argument(where, std::string(out_name) + " aliases " + in_name +
                                          ": variable " + std::to_string(a) + " of " + out_name +
                                          " and variable " + std::to_string(b) + " of " + in_name +
                                          " share memory; the output needs fields of its own");
      }
    }
  }
}

// Two field sets of one kernel must agree in element type, layout and memory space: the kernel
// indexes both with one schedule's order, in one memory. Each requirement is its own sentence,
// where a mismatch would otherwise fail template deduction with a long error.
template <class A, class B>
struct check_same_kind {
  static_assert(std::is_same<typename A::value_type, typename B::value_type>::value,
                "loopnest: the two field sets of a field kernel must have the same element type "
                "(both float or both double): copy one into a set of the other's type first.");
  static_assert(std::is_same<typename A::layout_type, typename B::layout_type>::value,
                "loopnest: the two field sets of a field kernel must have the same layout (both "
                "Kokkos::LayoutLeft or both Kokkos::LayoutRight): copy one into a set of the "
                "other's layout first.");
  static_assert(std::is_same<typename A::memory_space, typename B::memory_space>::value,
                "loopnest: the two field sets of a field kernel must be in the same memory "
                "space: deep-copy one into the other's space first.");
  static constexpr bool value = true;
};

template <class Grid>
void check_direction(const char* where, int direction, const Grid& grid) {
  if (direction < 0 || direction >= grid.dims()) {
    throw_invalid_argument(where, "direction = " + std::to_string(direction) +
                                      " but the grid has " + std::to_string(grid.dims()) +
                                      " dimensions (0 = x, 1 = y, 2 = z)");
  }
}

// Where the rows of box b start in a field set, for a collapse3 launch to align them (see
// Impl::row_alignment_traits). The kernels over a part of the arrays align to the field set they
// read or write: its fields are separate allocations that start on the same boundary, so one
// phase fits every variable, where the variables of a packed buffer each start somewhere else.
// flux_difference, finalize_flux and pack_weno align; copy_fields, over whole arrays, measured
// slower aligned and runs unshifted (docs/design.md, "Rows aligned to lines"; the numbers are in
// docs/results/h200). Both run whole arrays of one order as flat copies under the schedules that
// allow it (Impl::span_copy_cells), where no row is placed.
// A schedule of several cells per thread needs the phase to start its strips on vectors, also
// where it launches unaligned otherwise.
template <class ExecutionSpace, class Schedule, class T, class Layout, class MemorySpace>
row_phase rows_of(const box<3>& b, const field_set<T, Layout, MemorySpace>& fields) {
  const auto r = fields.ref();
  return row_phase_for<ExecutionSpace>(
      b, fields.field(0).data() + r.offset(b.lower(0), b.lower(1), b.lower(2)), {r.s0, r.s1, r.s2},
      Schedule::cells_per_thread);
}

// The body of copy_cells: one cell, or a strip of N cells along box index Axis, of one variable.
template <class Dst, class Src>
struct copy_body {
  using runs_strips = void;
  Dst dst;
  Src src;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int k, int v) const {
    dst(v, i, j, k) = src.load(v, i, j, k);
  }
  template <int N, int Axis, class C>
  KOKKOS_FORCEINLINE_FUNCTION void strip(int i, int j, int k, int v, const C&) const {
    store_strip<N>(dst(v, i, j, k), stride_along<Axis>(dst),
                   load_strip<N>(src(v, i, j, k), stride_along<Axis>(src)));
  }
};

// dst(v, cell) = src(v, cell) over a box: the body of the copy, finalize and packing loops. Where
// dst and src have different stride-1 indices (a transposing pack or finalize) the schedule runs
// as a tiled transpose (Impl::transpose_cells); where the box is one span of memory in every
// variable of both (whole arrays of the same strides), as flat copies (Impl::span_copy_cells).
template <class Schedule, class ExecutionSpace, class Dst, class Src>
void copy_cells(const ExecutionSpace& exec, const box<3>& cells, int nvar, const Dst& dst,
                const Src& src, const char* label, const row_phase& rows) {
  if (transpose_cells<Schedule>(exec, cells, nvar, dst, src, label) ||
      span_copy_cells<Schedule>(exec, cells, nvar, dst, src, label)) {
    return;
  }
  launch_cell_var<Schedule>(exec, cells, var_range{0, nvar}, no_cell_value{},
                            copy_body<Dst, Src>{dst, src}, label, tile{}, rows);
}

// Launch bounds of flux_difference under a schedule with default_bounds. Its body keeps two or
// three loads of every variable in flight, which 32 registers cannot hold, so on CUDA its
// variable loop runs with at most 256 threads in at least 4 blocks per SM (64 registers).
// collapse4, one variable per thread, ran slower under them and keeps the default
// (docs/design.md, "Launch bounds and loads in flight").
template <class ExecutionSpace>
struct flux_difference_bounds {
  using type = default_bounds;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct flux_difference_bounds<Kokkos::Cuda> {
  using type = launch_bounds<256, 4>;
};
#endif

// The body of one direction of flux_difference: one cell, or a strip of N cells along box index
// Axis, of one variable, with the same operations for every element. Along the strip's own axis
// the neighbours below are the strip's elements moved up by one, and only the first is loaded.
template <int Direction, bool Accumulate, class T>
struct flux_difference_body {
  using runs_strips = void;
  field_set_ref<T> r, f;
  static constexpr int dx = Direction == 0, dy = Direction == 1, dz = Direction == 2;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int k, int v, T inv) const {
    T& out     = r(v, i, j, k);
    const T df = f.load(v, i - dx, j - dy, k - dz) - f.load(v, i, j, k);
    out        = Accumulate ? loopnest::fma(inv, df, r.load(v, i, j, k)) : inv * df;
  }
  template <int N, int Axis>
  KOKKOS_FORCEINLINE_FUNCTION void strip(int i, int j, int k, int v,
                                         const strip_of<T, N>& inv) const {
    const auto here = load_strip<N>(f(v, i, j, k), stride_along<Axis>(f));
    strip_of<T, N> below;
    if constexpr (Direction == Axis) {
      below.x[0] = f.load(v, i - dx, j - dy, k - dz);
      for (int u = 1; u < N; ++u) {
        below.x[u] = here.x[u - 1];
      }
    } else {
      below = load_strip<N>(f(v, i - dx, j - dy, k - dz), stride_along<Axis>(f));
    }
    strip_of<T, N> out;
    if constexpr (!Accumulate) {
      for (int u = 0; u < N; ++u) {
        out.x[u] = inv.x[u] * (below.x[u] - here.x[u]);
      }
    } else {
      out = load_strip<N>(r(v, i, j, k), stride_along<Axis>(r));
      for (int u = 0; u < N; ++u) {
        out.x[u] = loopnest::fma(inv.x[u], below.x[u] - here.x[u], out.x[u]);
      }
    }
    store_strip<N>(r(v, i, j, k), stride_along<Axis>(r), out);
  }
};

// One direction of flux_difference. The direction is a template argument: with the neighbour's
// offset a constant every neighbour address is cheaper, which measured faster than the direction
// as a kernel argument.
template <int Direction, bool Accumulate, class Schedule, class ExecutionSpace, class T, class InvD>
void flux_difference_along(const ExecutionSpace& exec, const box<3>& interior,
                           const field_set_ref<T>& r, const field_set_ref<T>& f, const InvD& inv_d,
                           const char* label, const row_phase& rows) {
  launch_cell_var<Schedule>(
      exec, interior, var_range{0, r.nvar},
      KOKKOS_LAMBDA(int i, int j, int k) {
        return T(inv_d(Direction == 0 ? i : Direction == 1 ? j : k));
      },
      flux_difference_body<Direction, Accumulate, T>{r, f}, label, tile{}, rows);
}

}  // namespace Impl

// How flux_difference writes rhs: loopnest::assign overwrites it, loopnest::accumulate adds to it.
// The caller says which in every call, so that the order of the directions is the caller's.
struct assign_t {
  static constexpr bool accumulates = false;
};
struct accumulate_t {
  static constexpr bool accumulates = true;
};
inline constexpr assign_t assign{};
inline constexpr accumulate_t accumulate{};

// dst(v)(cell) = src(v)(cell) for every variable and every cell, ghosts included (MFC's
// conservative-variable copy). dst and src must have the same shape and ghost width and must not
// share memory.
template <class Schedule, class ExecutionSpace, class T, class Layout, class MemorySpace, class Src>
void copy_fields(const ExecutionSpace& exec, const field_set<T, Layout, MemorySpace>& dst,
                 const Src& src) {
  static_assert(Impl::is_field_set_v<Src>,
                "loopnest::copy_fields: src must be a loopnest::field_set, as dst is.");
  static_assert(Impl::check_same_kind<field_set<T, Layout, MemorySpace>, Src>::value,
                "loopnest: the two field sets must be of one kind (the assertions above).");
  Impl::check_same_shape("loopnest::copy_fields", "dst", dst, "src", src, true);
  Impl::check_disjoint("loopnest::copy_fields", "dst", dst, "src", src);
  const Impl::profiling_region region("loopnest::copy_fields");
  using schedule   = with_layout_t<Schedule, Layout>;
  const auto cells = dst.with_ghosts();
  Impl::copy_cells<schedule>(exec, cells, dst.nvar(), dst.ref(), src.ref(), "loopnest::copy_fields",
                             schedule::cells_per_thread > 1
                                 ? Impl::rows_of<ExecutionSpace, schedule>(cells, dst)
                                 : Impl::row_phase{});
}

// Flux difference along `direction` (0 = x, 1 = y, 2 = z) on the interior, MFC's advection
// source term, written into rhs as `update` says (MFC assigns along x, then accumulates along y
// and z):
//   loopnest::assign:      rhs(v)(x, y, z)  = inv_d(x) * (flux(v)(x - 1, y, z) - flux(v)(x, y, z))
//   loopnest::accumulate:  rhs(v)(x, y, z) += inv_d(x) * (flux(v)(x - 1, y, z) - flux(v)(x, y, z))
// (along y and z alike, with the neighbour below along that direction).
// inv_d, the inverse cell width along the direction, is read once per cell (loopnest::per_cell),
// outside the variable loop under collapse3. The accumulation is one fused multiply-add
// (loopnest::fma), so every backend and schedule gives the same bits. flux needs at least one
// ghost layer (the face below cell 0); rhs and flux must have the same variables and interior,
// inv_d one entry per interior cell along the direction, and rhs must not share memory with flux.
// Under a schedule with default_bounds
// the variable loop of collapse3 and flat runs under bounds that suit this body (on CUDA 256
// threads x 4 blocks); a schedule with launch bounds of its own keeps them.
template <class Schedule, class ExecutionSpace, class Update, class T, class Layout,
          class MemorySpace, class Flux, class InvD>
void flux_difference(const ExecutionSpace& exec, int direction, [[maybe_unused]] Update update,
                     const field_set<T, Layout, MemorySpace>& rhs, const Flux& flux,
                     const InvD& inv_d) {
  static_assert(std::is_same<Update, assign_t>::value || std::is_same<Update, accumulate_t>::value,
                "loopnest::flux_difference: the third argument must be loopnest::assign or "
                "loopnest::accumulate.");
  static_assert(Impl::is_field_set_v<Flux>,
                "loopnest::flux_difference: flux must be a loopnest::field_set, as rhs is.");
  static_assert(Impl::check_same_kind<field_set<T, Layout, MemorySpace>, Flux>::value,
                "loopnest: the two field sets must be of one kind (the assertions above).");
  static_assert(Kokkos::is_view<InvD>::value && InvD::rank == 1,
                "loopnest::flux_difference: inv_d must be a rank-1 Kokkos::View of inverse cell "
                "widths.");
  constexpr const char* where = "loopnest::flux_difference";
  Impl::check_direction(where, direction, rhs);
  Impl::check_same_shape(where, "rhs", rhs, "flux", flux, false);
  Impl::check_disjoint(where, "rhs", rhs, "flux", flux);
  if (flux.ghost() < 1) {
    Impl::throw_invalid_argument(where,
                                 "flux has ghost = 0 but needs at least 1 (the face below "
                                 "cell 0)");
  }
  if (static_cast<long long>(inv_d.extent(0)) != rhs.interior_extent(direction)) {
    Impl::throw_invalid_argument(where, "inv_d has " + std::to_string(inv_d.extent(0)) +
                                            " entries but the interior has " +
                                            std::to_string(rhs.interior_extent(direction)) +
                                            " cells along direction " + std::to_string(direction));
  }
  const Impl::profiling_region region(where);
  using schedule = Impl::or_bounds_t<
      with_layout_t<Schedule, Layout>,
      Impl::var_loop_bounds<typename Impl::flux_difference_bounds<ExecutionSpace>::type>>;
  const auto interior = rhs.interior();
  const auto r        = rhs.ref();
  const auto f        = flux.ref();
  const auto rows     = Impl::rows_of<ExecutionSpace, schedule>(interior, rhs);
  if (direction == 0) {
    Impl::flux_difference_along<0, Update::accumulates, schedule>(
        exec, interior, r, f, inv_d, "loopnest::flux_difference_x", rows);
  } else if (direction == 1) {
    Impl::flux_difference_along<1, Update::accumulates, schedule>(
        exec, interior, r, f, inv_d, "loopnest::flux_difference_y", rows);
  } else {
    Impl::flux_difference_along<2, Update::accumulates, schedule>(
        exec, interior, r, f, inv_d, "loopnest::flux_difference_z", rows);
  }
}

// Copies a Riemann solve's fluxes from the packed buffer into the field set for the normal
// direction `direction`: flux(v)(x, y, z) = flux_rs(x, y, z, v) on the cell faces, i.e. the
// interior extended by one face below along the normal direction (index -1). Every schedule
// sends the stride-1 index of the field set to adjacent threads whatever the direction (MFC
// permutes its loops per direction for the same reason). Both need at least one ghost layer.
template <class Schedule, class ExecutionSpace, class T, class Layout, class MemorySpace,
          class PackedLayout>
void finalize_flux(const ExecutionSpace& exec, int direction,
                   const field_set<T, Layout, MemorySpace>& flux,
                   const packed_fields<T, PackedLayout, MemorySpace>& flux_rs) {
  constexpr const char* where = "loopnest::finalize_flux";
  Impl::check_direction(where, direction, flux);
  Impl::check_same_shape(where, "flux", flux, "flux_rs", flux_rs, false);
  if (flux.ghost() < 1 || flux_rs.ghost() < 1) {
    Impl::throw_invalid_argument(where,
                                 "flux has ghost = " + std::to_string(flux.ghost()) +
                                     " and flux_rs ghost = " + std::to_string(flux_rs.ghost()) +
                                     "; both need at least 1 (the face below cell 0)");
  }
  const Impl::profiling_region region(where);
  const box<3> faces{{direction == 0 ? -1 : 0, direction == 1 ? -1 : 0, direction == 2 ? -1 : 0},
                     {flux.interior_extent(0), flux.interior_extent(1), flux.interior_extent(2)}};
  using schedule = with_layout_t<Schedule, Layout>;
  Impl::copy_cells<schedule>(exec, faces, flux.nvar(), flux.ref(), flux_rs.ref(),
                             direction == 0   ? "loopnest::finalize_flux_x"
                             : direction == 1 ? "loopnest::finalize_flux_y"
                                              : "loopnest::finalize_flux_z",
                             Impl::rows_of<ExecutionSpace, schedule>(faces, flux));
}

// WENO input packing: packed(x, y, z, v) = fields(v)(x, y, z) over every cell, ghosts included.
// A packed buffer in axis_order::yxz or zyx gives MFC's transposing form, which moves the sweep
// direction to the front. packed and fields must have the same shape and ghost width.
template <class Schedule, class ExecutionSpace, class T, class Layout, class MemorySpace,
          class PackedLayout>
void pack_weno(const ExecutionSpace& exec,
               const packed_fields<T, PackedLayout, MemorySpace>& packed,
               const field_set<T, Layout, MemorySpace>& fields) {
  Impl::check_same_shape("loopnest::pack_weno", "packed", packed, "fields", fields, true);
  const Impl::profiling_region region("loopnest::pack_weno");
  const auto cells = fields.with_ghosts();
  using schedule   = with_layout_t<Schedule, Layout>;
  Impl::copy_cells<schedule>(exec, cells, fields.nvar(), packed.ref(), fields.ref(),
                             "loopnest::pack_weno",
                             Impl::rows_of<ExecutionSpace, schedule>(cells, fields));
}

}  // namespace loopnest

#endif
