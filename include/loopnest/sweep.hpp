// loopnest::sweep: a directional pass over a box, one team per block of pencils (lines of cells
// along the sweep's axis), with the block's cells and a halo of their neighbours along the axis
// staged in team scratch. The stages of a directional update (reconstruct at the faces, solve
// there, difference) read their neighbours from scratch and keep their intermediate values
// there: one pass over memory instead of one per stage.
#ifndef LOOPNEST_SWEEP_HPP
#define LOOPNEST_SWEEP_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/error.hpp>
#include <loopnest/detail/launch_bounds.hpp>
#include <loopnest/detail/profiling_region.hpp>
#include <loopnest/field_set.hpp>
#include <loopnest/grid_shape.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>

namespace loopnest {

// The shape of a sweep's blocks: `pencils` pencils side by side, each covering up to `length`
// cells along the axis, on a team of `team_size` threads.
struct sweep_shape {
  int pencils   = 1;
  int length    = 1;
  int team_size = 1;
};

// Per-backend block shape of a sweep when the caller names none. Host backends: one pencil per
// team of one thread, segments of 64 cells, whose halo is a small share of the block and whose
// scratch fits the 32 KB that Kokkos gives a host team.
template <class ExecutionSpace>
struct sweep_traits {
  static constexpr sweep_shape shape{1, 64, 1};
};

#if defined(KOKKOS_ENABLE_CUDA)
// CUDA: eight pencils of 32 cells on 256 threads, a block's loads of one variable a warp's
// contiguous rows along the fields' unit-stride index; a starting point (the sweep family of the
// benchmarks measures others).
template <>
struct sweep_traits<Kokkos::Cuda> {
  static constexpr sweep_shape shape{8, 32, 256};
};
#endif

// An array of team scratch beside the staged fields: `nvar` values for each cell of the block
// and `below` / `above` more cells along the axis (the faces of a block of n cells are n + 1).
struct sweep_array {
  int nvar  = 1;
  int below = 0;
  int above = 0;
};

// A view of team scratch in the grid's indices: element (v, i, j, k) of a region of the grid,
// the same call as field_set_ref's, so that a body written for fields in memory reads staged
// values unchanged. Where KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK is defined, every access checks v and
// (i, j, k) against the region and aborts with the indices on a violation.
template <class T>
struct scratch_ref {
  T* data;
  int lower[3];
  std::ptrdiff_t s0, s1, s2, sv;
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
  Impl::index_bounds bounds;
#endif

  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int v, int i, int j, int k) const {
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
    bounds.check("loopnest::scratch_ref", v, i, j, k);
#endif
    return data[v * sv + (i - lower[0]) * s0 + (j - lower[1]) * s1 + (k - lower[2]) * s2];
  }
  KOKKOS_FORCEINLINE_FUNCTION T load(int v, int i, int j, int k) const {
    return (*this)(v, i, j, k);
  }
};

namespace Impl {

// A box of cells that device code can hold: [lower(d), upper(d)) per axis.
struct region {
  int lo[3], hi[3];

  static region of(const box<3>& b) {
    return {{b.lower(0), b.lower(1), b.lower(2)}, {b.upper(0), b.upper(1), b.upper(2)}};
  }
  KOKKOS_INLINE_FUNCTION int extent(int d) const { return hi[d] - lo[d]; }
  KOKKOS_INLINE_FUNCTION std::size_t size() const {
    return static_cast<std::size_t>(extent(0)) * extent(1) * extent(2);
  }
  // The region grown by below / above cells along axis.
  KOKKOS_INLINE_FUNCTION region grown(int axis, int below, int above) const {
    region r = *this;
    r.lo[axis] -= below;
    r.hi[axis] += above;
    return r;
  }
};

// Calls f(i, j, k) for every cell of region r, spread over the team's threads in the order of a
// walk with index `unit` fastest, then the other two in order: the order of consecutive threads,
// of scratch and (unit being the fields' stride-1 index) of memory. A team of one thread (the
// host backends') walks the loops themselves, with no division per cell.
template <class Member, class F>
KOKKOS_INLINE_FUNCTION void team_walk(const Member& member, const region& r, int unit, const F& f) {
  const int a = unit, b = unit == 0 ? 1 : 0, c = unit == 2 ? 1 : 2;
  if (member.team_size() == 1) {
    int ijk[3];
    for (ijk[c] = r.lo[c]; ijk[c] < r.hi[c]; ++ijk[c]) {
      for (ijk[b] = r.lo[b]; ijk[b] < r.hi[b]; ++ijk[b]) {
        for (ijk[a] = r.lo[a]; ijk[a] < r.hi[a]; ++ijk[a]) {
          f(ijk[0], ijk[1], ijk[2]);
        }
      }
    }
    return;
  }
  const int ea = r.extent(a), eb = r.extent(b);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, static_cast<int>(r.size())), [&](int t) {
    int ijk[3];
    ijk[a] = r.lo[a] + t % ea;
    t /= ea;
    ijk[b] = r.lo[b] + t % eb;
    ijk[c] = r.lo[c] + t / eb;
    f(ijk[0], ijk[1], ijk[2]);
  });
}

// Calls f(i, j, k, v) for every cell of region r and every variable v of [0, nvar), the pairs
// spread over the team's threads with the variable slowest and the cells in team_walk's order:
// a team of n threads takes n pairs at a time whatever the region's size, where a loop over the
// variables inside team_walk's body leaves the threads past the last cell idle for all nvar.
template <class Member, class F>
KOKKOS_INLINE_FUNCTION void team_walk_var(const Member& member, const region& r, int nvar, int unit,
                                          const F& f) {
  if (member.team_size() == 1) {
    for (int v = 0; v < nvar; ++v) {
      team_walk(member, r, unit, [&](int i, int j, int k) { f(i, j, k, v); });
    }
    return;
  }
  const int a = unit, b = unit == 0 ? 1 : 0, c = unit == 2 ? 1 : 2;
  const int ea = r.extent(a), eb = r.extent(b), ec = r.extent(c);
  const int cells = ea * eb * ec;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, cells * nvar), [&](int t) {
    int ijk[3];
    const int v = t / cells;
    t -= v * cells;
    ijk[a] = r.lo[a] + t % ea;
    t /= ea;
    ijk[b] = r.lo[b] + t % eb;
    ijk[c] = r.lo[c] + t / eb;
    f(ijk[0], ijk[1], ijk[2], v);
  });
}

}  // namespace Impl

// What the body of a sweep gets: its team's block of cells, the staged fields and the scratch
// arrays over them, and the team's loops. Every thread of the team calls the body; a stage that
// reads what another stage wrote starts after barrier().
template <class T, class Member>
class sweep_block {
 public:
  static constexpr int max_arrays = 4;

  KOKKOS_FUNCTION sweep_block(const Member& member, const Impl::region& cells, int axis, int unit,
                              const scratch_ref<T>& staged, const scratch_ref<T>* arrays,
                              int narrays)
      : m_member(member), m_cells(cells), m_axis(axis), m_unit(unit), m_staged(staged) {
    for (int a = 0; a < narrays; ++a) {
      m_arrays[a] = arrays[a];
    }
  }

  // The cells this block updates, [lower(d), upper(d)) along axis d: its pencils' cells within
  // the sweep's box.
  KOKKOS_FUNCTION int lower(int d) const { return m_cells.lo[d]; }
  KOKKOS_FUNCTION int upper(int d) const { return m_cells.hi[d]; }
  // The fields staged over the block's cells and the halo: the sweep's input, read-only.
  KOKKOS_FUNCTION const scratch_ref<T>& staged() const { return m_staged; }
  // Scratch array a, as the sweep's arrays argument declared it.
  KOKKOS_FUNCTION const scratch_ref<T>& array(int a) const { return m_arrays[a]; }
  // Runs f(i, j, k) once for every cell of the block grown by below / above cells along the
  // axis, the cells spread over the team's threads.
  template <class F>
  KOKKOS_FUNCTION void for_each_cell(int below, int above, const F& f) const {
    Impl::team_walk(m_member, m_cells.grown(m_axis, below, above), m_unit, f);
  }
  // Runs f(i, j, k, v) once for every cell of the block grown by below / above cells along the
  // axis and every variable v of [0, nvar), the (cell, variable) pairs spread over the team's
  // threads: for a stage whose variables are independent, all threads stay busy.
  template <class F>
  KOKKOS_FUNCTION void for_each_cell_var(int below, int above, int nvar, const F& f) const {
    Impl::team_walk_var(m_member, m_cells.grown(m_axis, below, above), nvar, m_unit, f);
  }
  // Waits for the team's threads: what one stage wrote to scratch is then seen by all.
  KOKKOS_FUNCTION void barrier() const { m_member.team_barrier(); }
  KOKKOS_FUNCTION const Member& member() const { return m_member; }

 private:
  const Member& m_member;
  Impl::region m_cells;
  int m_axis, m_unit;
  scratch_ref<T> m_staged;
  scratch_ref<T> m_arrays[max_arrays] = {};
};

namespace Impl {

// nvar values over region r in team scratch, in team_walk's order, the variable slowest.
template <class T, class Member>
KOKKOS_FUNCTION scratch_ref<T> carve(const Member& member, const region& r, int nvar, int unit) {
  const int a = unit, b = unit == 0 ? 1 : 0, c = unit == 2 ? 1 : 2;
  std::ptrdiff_t s[3];
  s[a]                        = 1;
  s[b]                        = r.extent(a);
  s[c]                        = s[b] * r.extent(b);
  const std::ptrdiff_t values = s[c] * r.extent(c);
  T* data = static_cast<T*>(member.team_shmem().get_shmem(sizeof(T) * values * nvar));
  scratch_ref<T> ref{};
  ref.data = data;
  for (int d = 0; d < 3; ++d) {
    ref.lower[d] = r.lo[d];
  }
  ref.s0 = s[0];
  ref.s1 = s[1];
  ref.s2 = s[2];
  ref.sv = values;
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
  ref.bounds = index_bounds{nvar, {r.lo[0], r.lo[1], r.lo[2]}, {r.hi[0], r.hi[1], r.hi[2]}};
#endif
  return ref;
}

// One team per block: blocks are numbered with the pencils' index fastest, then the third
// axis, then the segments along the sweep's axis.
template <class ExecutionSpace, class T, class Body>
struct sweep_functor {
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  field_set_ref<T> in;
  region cells;
  int axis, bundle, third, unit, halo, pencils, length, narrays;
  int blocks[3];  // per axis
  sweep_array arrays[sweep_block<T, member_type>::max_arrays];
  Body body;

  KOKKOS_FUNCTION void operator()(const member_type& member) const {
    int r = member.league_rank();
    int at[3];
    at[bundle] = r % blocks[bundle];
    r /= blocks[bundle];
    at[third] = r % blocks[third];
    at[axis]  = r / blocks[third];
    region mine;
    for (int d = 0; d < 3; ++d) {
      const int size = d == axis ? length : d == bundle ? pencils : 1;
      mine.lo[d]     = cells.lo[d] + at[d] * size;
      mine.hi[d]     = mine.lo[d] + size < cells.hi[d] ? mine.lo[d] + size : cells.hi[d];
    }
    const region staged_region  = mine.grown(axis, halo, halo);
    const scratch_ref<T> staged = carve<T>(member, staged_region, in.nvar, unit);
    scratch_ref<T> refs[sweep_block<T, member_type>::max_arrays];
    for (int a = 0; a < narrays; ++a) {
      refs[a] = carve<T>(member, mine.grown(axis, arrays[a].below, arrays[a].above), arrays[a].nvar,
                         unit);
    }
    team_walk_var(member, staged_region, in.nvar, unit,
                  [&](int i, int j, int k, int v) { staged(v, i, j, k) = in.load(v, i, j, k); });
    member.team_barrier();
    body(sweep_block<T, member_type>(member, mine, axis, unit, staged, refs, narrays));
  }
};

template <class Bounds>
struct is_bounds : std::bool_constant<std::is_same<Bounds, default_bounds>::value ||
                                      is_caller_bounds<Bounds>::value> {};

}  // namespace Impl

// Runs body(block) on one team per block of the pencils of `cells` along Axis (0: x, 1: y,
// 2: z). Before the body runs, each block's cells and `halo` cells on either side along Axis are
// staged from `in` into team scratch (block.staged()); `arrays` declares up to four more scratch
// arrays over the block (block.array(a)). A block is shape.pencils pencils side by side, along
// the fields' stride-1 index when Axis is another, each up to shape.length cells long, on
// shape.team_size threads; the blocks cover `cells` once. Whatever the shape, a body that reads
// only the staged halo it declared and writes each cell from its own values gives the same bits.
// Throws std::invalid_argument, before any launch, for an Axis outside the fields' dimensions,
// a negative halo, `cells` grown by the halo outside in's index space with ghosts, a bad array
// or shape, or a block whose scratch or team the backend cannot give. An empty box is a no-op.
// Bounds, launch_bounds<MaxThreads, MinBlocksPerSM>, caps the registers of a body that would
// otherwise leave room for too few teams on a GPU (shape.team_size at most MaxThreads); under
// default_bounds the backend sizes nothing, as for a flat range.
template <int Axis, class Bounds = default_bounds, class ExecutionSpace, class T, class Layout,
          class Memory, class Body>
void sweep(const ExecutionSpace& exec, const box<3>& cells, const field_set<T, Layout, Memory>& in,
           int halo, std::initializer_list<sweep_array> arrays, const Body& body,
           const std::string& label = "loopnest::sweep",
           const sweep_shape& shape = sweep_traits<ExecutionSpace>::shape) {
  static_assert(Axis >= 0 && Axis < 3, "loopnest::sweep: the axis must be 0 (x), 1 (y) or 2 (z).");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::sweep: the first argument must be a Kokkos execution space instance, "
                "such as Kokkos::DefaultExecutionSpace().");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, Memory>::accessible,
                "loopnest::sweep: the fields must live in memory the execution space can read.");
  static_assert(Impl::is_bounds<Bounds>::value,
                "loopnest::sweep: the second template argument must be loopnest::default_bounds "
                "or loopnest::launch_bounds<MaxThreads, MinBlocksPerSM>.");
  // After a refused Bounds, the static_assert's sentence alone: the rest compiles unbounded.
  using bounds = std::conditional_t<Impl::is_bounds<Bounds>::value, Bounds, default_bounds>;
  using policy_type =
      Kokkos::TeamPolicy<ExecutionSpace, typename Impl::flat_bounds<ExecutionSpace, bounds>::type>;
  using member_type = typename policy_type::member_type;
  using functor     = Impl::sweep_functor<ExecutionSpace, T, Body>;
  const char* where = "loopnest::sweep";
  if (Axis >= in.dims()) {
    Impl::throw_invalid_argument(where, "the axis " + std::to_string(Axis) +
                                            " is not one of the fields' " +
                                            std::to_string(in.dims()) + " dimensions");
  }
  if (halo < 0) {
    Impl::throw_invalid_argument(where, "halo = " + std::to_string(halo) + " is negative");
  }
  if (static_cast<int>(arrays.size()) > sweep_block<T, member_type>::max_arrays) {
    Impl::throw_invalid_argument(where,
                                 std::to_string(arrays.size()) + " scratch arrays; at most " +
                                     std::to_string(sweep_block<T, member_type>::max_arrays));
  }
  int a = 0;
  for (const sweep_array& s : arrays) {
    if (s.nvar < 1 || s.below < 0 || s.above < 0) {
      Impl::throw_invalid_argument(
          where, "array " + std::to_string(a) + " has nvar = " + std::to_string(s.nvar) +
                     ", below = " + std::to_string(s.below) +
                     ", above = " + std::to_string(s.above) + " (nvar >= 1, below and above >= 0)");
    }
    ++a;
  }
  if (shape.pencils < 1 || shape.length < 1 || shape.team_size < 1) {
    Impl::throw_invalid_argument(where, "shape has pencils = " + std::to_string(shape.pencils) +
                                            ", length = " + std::to_string(shape.length) +
                                            ", team_size = " + std::to_string(shape.team_size) +
                                            " (each at least 1)");
  }
  if constexpr (!std::is_same<bounds, default_bounds>::value) {
    if (shape.team_size > static_cast<int>(bounds::max_threads)) {
      Impl::throw_invalid_argument(where, "shape.team_size = " + std::to_string(shape.team_size) +
                                              " is more than the launch bounds' " +
                                              std::to_string(bounds::max_threads) + " threads");
    }
  }
  const Impl::region whole = Impl::region::of(cells);
  const Impl::region needs = whole.grown(Axis, halo, halo);
  check_box_fits(
      where, in,
      box<3>{{needs.lo[0], needs.lo[1], needs.lo[2]}, {needs.hi[0], needs.hi[1], needs.hi[2]}});

  constexpr int unit = std::is_same<Layout, Kokkos::LayoutLeft>::value ? 0 : 2;
  const int bundle   = Axis == unit ? 1 : unit;
  const int third    = 3 - Axis - bundle;
  functor f{in.ref(), whole, Axis,          bundle,       third,
            unit,     halo,  shape.pencils, shape.length, static_cast<int>(arrays.size()),
            {},       {},    body};
  // The scratch of the largest block, each array rounded up to Kokkos' 8-byte scratch alignment.
  int full[3]  = {1, 1, 1};
  full[Axis]   = shape.length;
  full[bundle] = shape.pencils;
  const Impl::region block{{0, 0, 0}, {full[0], full[1], full[2]}};
  const auto padded = [](const Impl::region& r, int nvar) {
    return (r.size() * static_cast<std::size_t>(nvar) * sizeof(T) + 7) / 8 * 8;
  };
  std::size_t bytes = padded(block.grown(Axis, halo, halo), in.nvar());
  a                 = 0;
  for (const sweep_array& s : arrays) {
    f.arrays[a++] = s;
    bytes += padded(block.grown(Axis, s.below, s.above), s.nvar);
  }
  for (int d = 0; d < 3; ++d) {
    const int size = d == Axis ? shape.length : d == bundle ? shape.pencils : 1;
    f.blocks[d]    = (cells.extent(d) + size - 1) / size;
  }
  const long league = static_cast<long>(f.blocks[0]) * f.blocks[1] * f.blocks[2];
  if (league > INT_MAX) {
    Impl::throw_invalid_argument(where, std::to_string(league) +
                                            " blocks, more than a league holds: take longer "
                                            "blocks (shape.length) or more pencils");
  }
  policy_type policy(exec, static_cast<int>(league), shape.team_size);
  const int most = policy.scratch_size_max(0);
  if (bytes > static_cast<std::size_t>(most)) {
    Impl::throw_invalid_argument(
        where, "a block of " + std::to_string(shape.pencils) + " x " +
                   std::to_string(shape.length) + " cells needs " + std::to_string(bytes) +
                   " bytes of team scratch; the backend gives " + std::to_string(most));
  }
  policy.set_scratch_size(0, Kokkos::PerTeam(static_cast<int>(bytes)));
  if (shape.team_size > policy.team_size_max(f, Kokkos::ParallelForTag())) {
    Impl::throw_invalid_argument(
        where,
        "shape.team_size = " + std::to_string(shape.team_size) + " is more than the backend's " +
            std::to_string(policy.team_size_max(f, Kokkos::ParallelForTag())) + " for this body");
  }
  if (cells.empty()) {
    return;
  }
  const Impl::profiling_region region(label);
  Kokkos::parallel_for(label, policy, f);
}

}  // namespace loopnest

#endif
