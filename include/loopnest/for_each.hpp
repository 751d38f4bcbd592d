// loopnest::for_each_cell and loopnest::for_each_cell_var: one loop body, any schedule.
#ifndef LOOPNEST_FOR_EACH_HPP
#define LOOPNEST_FOR_EACH_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/error.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>
#include <loopnest/tile.hpp>

#include <climits>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace loopnest {
namespace Impl {

// Policy order: loopnest hands Kokkos the indices with the one adjacent threads should step
// through first and iterates Left, because every Kokkos backend maps policy index 0 to
// threadIdx.x (GPU) or to the innermost loop (host) under Iterate::Left. The spatial indices
// are either in box order or reversed; the variable index, when in the policy, is always last.
template <class Schedule>
inline constexpr bool reverse_v =
    std::is_same<typename Schedule::layout, Kokkos::LayoutLeft>::value !=
    std::is_same<typename Schedule::mapping, contiguous>::value;

template <bool Reverse, class F>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) invoke_cell(const F& f, int p0, int p1) {
  if constexpr (Reverse) {
    return f(p1, p0);
  } else {
    return f(p0, p1);
  }
}
template <bool Reverse, class F>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) invoke_cell(const F& f, int p0, int p1, int p2) {
  if constexpr (Reverse) {
    return f(p2, p1, p0);
  } else {
    return f(p0, p1, p2);
  }
}
template <bool Reverse, class F>
KOKKOS_FORCEINLINE_FUNCTION void invoke_cell_var(const F& f, int v, int p0, int p1) {
  if constexpr (Reverse) {
    f(p1, p0, v);
  } else {
    f(p0, p1, v);
  }
}
template <bool Reverse, class F>
KOKKOS_FORCEINLINE_FUNCTION void invoke_cell_var(const F& f, int v, int p0, int p1, int p2) {
  if constexpr (Reverse) {
    f(p2, p1, p0, v);
  } else {
    f(p0, p1, p2, v);
  }
}

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

// One work item per cell, the variables in order inside it (collapse3, flat): the per-cell
// value is computed once for all variables.
template <class P, class F, bool Reverse>
struct cell_var_loop_body {
  P per_cell;
  F f;
  int nvar;
  template <class... I>
  KOKKOS_FUNCTION void operator()(I... p) const {
    const auto c = invoke_cell<Reverse>(per_cell, static_cast<int>(p)...);
    const bind_cell_value<F, decltype(c)> g{f, c};
    const auto at = [&](int v) { invoke_cell_var<Reverse>(g, v, static_cast<int>(p)...); };
    // Groups of 4, then the 1 to 3 variables left as one unguarded group: a body's read-only
    // loads can then move ahead of its stores within each group. nvcc's own unrolling of a plain
    // loop leaves the remainder one variable at a time, one load in flight per thread (on an
    // H200, FP32 packing at 256^3 reached 95% of copy with 8 variables but 83% with 7). Guarding
    // every call of a group instead measured worse (87% with 8).
    int v = 0;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll 1
#endif
    for (; v + 4 <= nvar; v += 4) {
      at(v);
      at(v + 1);
      at(v + 2);
      at(v + 3);
    }
    switch (nvar - v) {
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

// The box's bounds and extents in policy order.
template <int Rank>
struct policy_box {
  int lower[Rank];
  int upper[Rank];
  int extent(int d) const { return upper[d] - lower[d]; }
};
template <bool Reverse, int Rank>
policy_box<Rank> to_policy_order(const box<Rank>& b) {
  policy_box<Rank> p{};
  for (int d = 0; d < Rank; ++d) {
    const int from = Reverse ? Rank - 1 - d : d;
    p.lower[d]     = b.lower(from);
    p.upper[d]     = b.upper(from);
  }
  return p;
}

// Per-backend tile choice. Host backends: a tile is a block of the serial loop nest, and a
// whole run of the stride-1 index keeps the innermost loop long and unit-stride.
template <class ExecutionSpace>
struct tile_traits {
  template <int N>
  static void pick(const int (&extent)[N], int (&t)[N], int) {
    t[0] = extent[0] > 0 ? extent[0] : 1;
    for (int d = 1; d < N; ++d) {
      t[d] = 1;
    }
  }
};

// GPU backends: blocks of `Threads`, up to `Width` of them along the stride-1 index and the rest
// along the next indices (fewer when the launch bounds allow fewer threads per block); a box
// thinner than that gets a narrower tile rather than idle threads.
// On an H200, collapse3 packing 7 fields at 256^3 measured the same with 32x8x1 and 256x1x1
// tiles (77.9% and 78.9% of copy bandwidth, FP64), and a whole-row tile leaves no thread idle
// when the other extents are not multiples of 8. Kokkos' own CUDA default (16x2 in 2D, 32
// threads) measured 3.6x slower than 32x8 for the 5-point stencil.
template <int Width, int Threads>
struct gpu_tile_traits {
  static_assert(Width <= Threads, "a tile's first extent is part of the block");
  template <int N>
  static void pick(const int (&extent)[N], int (&t)[N], int max_threads) {
    int left = Threads < max_threads ? Threads : max_threads;
    for (int d = 0; d < N; ++d) {
      const int want = d == 0 ? (Width < left ? Width : left) : left;
      t[d]           = extent[d] < want ? (extent[d] > 0 ? extent[d] : 1) : want;
      left /= t[d];
    }
  }
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct tile_traits<Kokkos::Cuda> : gpu_tile_traits<256, 256> {};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct tile_traits<Kokkos::HIP> : gpu_tile_traits<256, 256> {};
#endif

[[noreturn]] inline void throw_tile_error(const char* where, const tile& t,
                                          const std::string& why) {
  throw_invalid_argument(where, "tile " + t.to_string() + " " + why);
}

// Per-backend launch bounds of loopnest's MDRange kernels under default_bounds, whose block is the
// tile: the register count alone decides how many threads an SM holds. On CUDA, 512 threads
// (Kokkos' largest tile) in at least 4 blocks per SM cap a kernel at 32 registers, so an H200 SM
// holds its full 2048 threads. Without the bound, collapse3 packing compiled to 40 registers, held
// 75% of the threads and reached 79% of copy bandwidth where a flat range (32 registers) reached
// 90%.
template <class ExecutionSpace>
struct launch_bounds_traits {
  using type = Kokkos::LaunchBounds<>;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct launch_bounds_traits<Kokkos::Cuda> {
  using type = Kokkos::LaunchBounds<512, 4>;
};
#endif

// The Kokkos launch bounds of a schedule's bounds on ExecutionSpace.
template <class ExecutionSpace, class Bounds>
struct kokkos_bounds {
  using type = Kokkos::LaunchBounds<Bounds::max_threads, Bounds::min_blocks_per_sm>;
};
template <class ExecutionSpace>
struct kokkos_bounds<ExecutionSpace, default_bounds> {
  using type = typename launch_bounds_traits<ExecutionSpace>::type;
};

// The most points a tile may hold: the backend's limit, or fewer under launch bounds.
template <class Bounds, class ExecutionSpace>
int max_block_threads(const ExecutionSpace& exec) {
  const int backend = max_tile_points(exec);
  if constexpr (std::is_same<Bounds, default_bounds>::value) {
    return backend;
  } else {
    return backend < static_cast<int>(Bounds::max_threads) ? backend
                                                           : static_cast<int>(Bounds::max_threads);
  }
}

// Checks an explicit tile against what the schedule launches (N policy indices, or none when
// N is 0: flat, kokkos_default and automatic take no tile) and against the backend and the
// schedule's launch bounds.
template <class Bounds = default_bounds, class ExecutionSpace>
void check_tile(const char* where, const ExecutionSpace& exec, const tile& t, schedule_kind kind,
                int n, const char* indices) {
  if (t.is_default()) {
    return;
  }
  if (n == 0) {
    throw_tile_error(where, t,
                     std::string("was given to schedule ") + name(kind) +
                         ", which takes no tile (only collapse4 and collapse3 do)");
  }
  if (t.rank() != n) {
    throw_tile_error(where, t,
                     "has " + std::to_string(t.rank()) + " sizes but " + name(kind) +
                         " here needs " + std::to_string(n) + " (" + indices + ")");
  }
  for (int d = 0; d < n; ++d) {
    if (t[d] < 1) {
      throw_tile_error(where, t,
                       "has size " + std::to_string(t[d]) + " at index " + std::to_string(d) +
                           "; every size must be at least 1");
    }
  }
  // Each size is below 2^31, so the product stays exact in 64 bits as long as it stops growing
  // past 2^32, which is over every backend's limit (four sizes of 65536 would wrap to 0 points).
  constexpr std::int64_t saturated = std::int64_t{1} << 32;
  std::int64_t points              = 1;
  for (int d = 0; d < n && points <= saturated; ++d) {
    points *= t[d];
  }
  const int max_points = max_block_threads<Bounds>(exec);
  if (points > max_points) {
    throw_tile_error(
        where, t,
        "holds " +
            (points > saturated ? "more than " + std::to_string(saturated)
                                : std::to_string(points)) +
            " points but " + ExecutionSpace::name() +
            (max_points < max_tile_points(exec) ? " under the schedule's launch bounds" : "") +
            " allows at most " + std::to_string(max_points) + " per tile");
  }
}

// kokkos_default takes Kokkos' own launch parameters: no tile and no launch bounds.
template <class ExecutionSpace, int N, bool KokkosDefaults, class Bounds>
using mdrange_policy =
    Kokkos::MDRangePolicy<ExecutionSpace,
                          Kokkos::Rank<N, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                          Kokkos::IndexType<int>,
                          std::conditional_t<KokkosDefaults, Kokkos::LaunchBounds<>,
                                             typename kokkos_bounds<ExecutionSpace, Bounds>::type>>;

// An MDRange body whose policy starts at 0: adds the box's lower bounds back (the variable index,
// when there is one, has lower bound 0). Kokkos' host MDRange (3.4 to 4.6) sizes a partial last
// tile as the whole extent when the tile is at least the upper bound but less than the extent,
// which only a negative lower bound allows: with an explicit tile it visited cells past the box
// (kokkos/kokkos#9102 rewrites that computation). A policy from 0 never meets the case.
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

// Launches body over an MDRange of N indices: the policy box, plus the variable index of extent
// nvar when N is Rank + 1. The tile is loopnest's pick, an explicit one (given in box order,
// reversed here along with the spatial indices), or Kokkos' default with KokkosDefaults.
template <int N, bool Reverse, bool KokkosDefaults, class Bounds, class ExecutionSpace, int Rank,
          class Body>
void launch_mdrange(const std::string& label, const ExecutionSpace& exec,
                    const policy_box<Rank>& pb, int nvar, const tile& explicit_tile,
                    const Body& body) {
  static_assert(N == Rank || N == Rank + 1, "the policy covers the box, or the box and var");
  using policy = mdrange_policy<ExecutionSpace, N, KokkosDefaults, Bounds>;
  int extent[N];
  int t[N];
  for (int d = 0; d < N; ++d) {
    extent[d] = d < Rank ? pb.extent(d) : nvar;
  }
  if (explicit_tile.is_default()) {
    tile_traits<ExecutionSpace>::pick(extent, t, max_block_threads<Bounds>(exec));
  } else {
    for (int d = 0; d < N; ++d) {
      t[d] = explicit_tile[(Reverse && d < Rank) ? Rank - 1 - d : d];
    }
  }
  typename policy::point_type lower{};
  typename policy::point_type upper{};
  typename policy::tile_type tiles{};
  from_zero_body<Body, N> shifted{body, {}};
  for (int d = 0; d < N; ++d) {
    upper[d]         = extent[d];
    tiles[d]         = KokkosDefaults ? 0 : t[d];
    shifted.lower[d] = d < Rank ? pb.lower[d] : 0;
  }
  Kokkos::parallel_for(label, policy(exec, lower, upper, tiles), shifted);
}

// Row alignment: under collapse3 a GPU block runs whole rows of the stride-1 index, and a row
// that starts mid-line costs every warp of it one more cache line. Shifting each row's threads so
// that its first warp starts on a line of the array the kernel names costs nothing when the shift
// fits in the row's last warp: on an H200 (201^3 interior of 209^3 FP64 arrays, 8 variables) it
// took finalize_flux from 80% to 87% of copy bandwidth and a copy of the interior from 81% to 85%.
// `bytes` is the line a warp's first access should start on (0: no shift), `warp` the threads
// of a warp.
template <class ExecutionSpace>
struct row_alignment_traits {
  static constexpr int bytes = 0;
  static constexpr int warp  = 1;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct row_alignment_traits<Kokkos::Cuda> {
  static constexpr int bytes = 128;
  static constexpr int warp  = 32;
};
#endif

// Where the rows of a 3D box start in memory, modulo a line of lanes elements: the element
// address of the box's first cell and the element strides of its indices, all modulo 2^32 (a
// multiple of every line). lanes == 0 launches the rows unshifted.
struct row_phase {
  std::uint32_t first   = 0;
  std::uint32_t step[3] = {0, 0, 0};
  int lanes             = 0;
  int warp              = 1;
};

// The phase of the rows of b in an array of T whose element (b.lower()) is at first_cell, for
// ExecutionSpace: the line is the backend's, or the longest power-of-two part of it whose shift
// costs no row one more warp (FP64 rows of 201 take 16 elements, FP32 ones 16 of 32). No shift
// where the backend takes none or no index has stride 1.
template <class ExecutionSpace, class T>
row_phase row_phase_for(const box<3>& b, const T* first_cell, const std::ptrdiff_t (&stride)[3]) {
  using traits       = row_alignment_traits<ExecutionSpace>;
  constexpr int elem = static_cast<int>(sizeof(T));
  row_phase rows;
  static_assert((traits::bytes & (traits::bytes - 1)) == 0,
                "row_alignment_traits: the line must be a power of two bytes (or 0)");
  // A line of a power of two bytes holds a power of two elements when it holds a whole number.
  if constexpr (traits::bytes > 0 && traits::bytes % elem == 0) {
    int d = 0;
    while (d < 3 && stride[d] != 1) {
      ++d;
    }
    if (d == 3) {
      return rows;
    }
    const int e     = b.extent(d);
    const int w     = traits::warp;
    int lanes       = traits::bytes / elem;
    const auto fits = [&](int l) { return (e + l - 1 + w - 1) / w == (e + w - 1) / w; };
    while (lanes > 1 && !fits(lanes)) {
      lanes /= 2;
    }
    if (lanes < 2) {
      return rows;
    }
    rows.first =
        static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(first_cell) / sizeof(T));
    for (int s = 0; s < 3; ++s) {
      rows.step[s] = static_cast<std::uint32_t>(stride[s]);
    }
    rows.lanes = lanes;
    rows.warp  = w;
  }
  return rows;
}

template <bool Reverse>
row_phase to_policy_order(const row_phase& rows) {
  row_phase p = rows;
  for (int d = 0; d < 3; ++d) {
    p.step[d] = rows.step[Reverse ? 2 - d : d];
  }
  return p;
}

// A collapse3 body over rows shifted by their phase: policy index 0 runs over a row's extent plus
// up to lanes - 1 leading threads, rounded up to whole warps, and element i of row (j, k) goes to
// thread i + phase(j, k), so that thread t always touches an address that is t modulo lanes; the
// threads outside the row do nothing. origin is the phase of cell (lower0, 0, 0).
template <class Body>
struct aligned_rows_body {
  Body body;
  int lower0, extent0;
  std::uint32_t origin, step1, step2, mask;
  KOKKOS_FUNCTION void operator()(int t, int j, int k) const {
    const auto phase =
        (origin + static_cast<std::uint32_t>(j) * step1 + static_cast<std::uint32_t>(k) * step2) &
        mask;
    const int i = t - static_cast<int>(phase);
    if (i >= 0 && i < extent0) {
      body(lower0 + i, j, k);
    }
  }
};

// Launches a collapse3 body over the box with its rows aligned by rows (in policy order), where
// they can be: policy index 0 of stride 1 and loopnest's own tile, whose blocks start rows on
// warp boundaries.
template <bool Reverse, class Bounds, class ExecutionSpace, class Body>
void launch_rows(const std::string& label, const ExecutionSpace& exec, const policy_box<3>& pb,
                 const row_phase& rows, const tile& explicit_tile, const Body& body) {
  if (rows.lanes < 2 || rows.step[0] != 1 || !explicit_tile.is_default()) {
    launch_mdrange<3, Reverse, false, Bounds>(label, exec, pb, 0, explicit_tile, body);
    return;
  }
  const int w = rows.warp;
  policy_box<3> padded{{0, pb.lower[1], pb.lower[2]},
                       {(pb.extent(0) + rows.lanes - 1 + w - 1) / w * w, pb.upper[1], pb.upper[2]}};
  const auto lower1 = static_cast<std::uint32_t>(pb.lower[1]);
  const auto lower2 = static_cast<std::uint32_t>(pb.lower[2]);
  launch_mdrange<3, Reverse, false, Bounds>(
      label, exec, padded, 0, explicit_tile,
      aligned_rows_body<Body>{body, pb.lower[0], pb.extent(0),
                              rows.first - lower1 * rows.step[1] - lower2 * rows.step[2],
                              rows.step[1], rows.step[2],
                              static_cast<std::uint32_t>(rows.lanes - 1)});
}

// A flat range takes no launch bounds under default_bounds: Kokkos sizes its blocks from the
// kernel's register count.
template <class ExecutionSpace, class Bounds>
struct flat_bounds {
  using type = typename kokkos_bounds<ExecutionSpace, Bounds>::type;
};
template <class ExecutionSpace>
struct flat_bounds<ExecutionSpace, default_bounds> {
  using type = Kokkos::LaunchBounds<>;
};

template <class Bounds, class ExecutionSpace, int Rank, class Body>
void launch_flat(const std::string& label, const ExecutionSpace& exec, const policy_box<Rank>& pb,
                 const Body& body) {
  std::int64_t cells = 1;
  for (int d = 0; d < Rank; ++d) {
    cells *= pb.extent(d);
  }
  // 32-bit division is several times cheaper than 64-bit on GPUs; boxes past 2^31 cells fall
  // back to 64-bit indices rather than overflow.
  auto run = [&](auto index_constant) {
    using index     = decltype(index_constant);
    using policy    = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index>,
                                       typename flat_bounds<ExecutionSpace, Bounds>::type>;
    const auto flat = [&] {
      if constexpr (Rank == 2) {
        return flat_body<Body, 2>{body, pb.lower[0], pb.lower[1], pb.extent(0)};
      } else {
        return flat_body<Body, 3>{body,        pb.lower[0],  pb.lower[1],
                                  pb.lower[2], pb.extent(0), pb.extent(1)};
      }
    }();
    Kokkos::parallel_for(label, policy(exec, 0, static_cast<index>(cells)), flat);
  };
  if (cells <= INT_MAX) {
    run(int{});
  } else {
    run(std::int64_t{});
  }
}

template <schedule_kind Kind, bool Reverse, class ScheduleBounds, class ExecutionSpace, int Rank,
          class P, class F>
void run_cell_var(const std::string& label, const ExecutionSpace& exec, const policy_box<Rank>& pb,
                  int nvar, const P& per_cell, const F& f, const tile& explicit_tile,
                  const row_phase& rows) {
  using bounds = bounds_for_t<Kind, ScheduleBounds>;
  if constexpr (Kind == schedule_kind::collapse4 || Kind == schedule_kind::kokkos_default) {
    launch_mdrange<Rank + 1, Reverse, Kind == schedule_kind::kokkos_default, bounds>(
        label, exec, pb, nvar, explicit_tile, cell_var_body<P, F, Rank, Reverse>{per_cell, f});
  } else if constexpr (Kind == schedule_kind::collapse3) {
    const cell_var_loop_body<P, F, Reverse> body{per_cell, f, nvar};
    if constexpr (Rank == 3) {
      launch_rows<Reverse, bounds>(label, exec, pb, rows, explicit_tile, body);
    } else {
      launch_mdrange<Rank, Reverse, false, bounds>(label, exec, pb, nvar, explicit_tile, body);
    }
  } else {
    static_assert(Kind == schedule_kind::flat, "automatic is resolved before this point");
    launch_flat<bounds>(label, exec, pb, cell_var_loop_body<P, F, Reverse>{per_cell, f, nvar});
  }
}

// rows: where the box's rows start in memory, for a collapse3 launch to align them (the field
// kernels pass their field set's; the public entry points pass none). collapse4_below: the cell
// count below which automatic runs collapse4, automatic_collapse4_below(exec) unless given (tests
// give one to run both branches on any backend).
template <class Schedule, class ExecutionSpace, int Rank, class P, class F>
void for_each_cell_var(const ExecutionSpace& exec, const box<Rank>& b, int nvar, const P& per_cell,
                       const F& f, const std::string& label, const tile& explicit_tile,
                       const row_phase& rows                       = row_phase{},
                       std::optional<std::int64_t> collapse4_below = std::nullopt) {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::for_each_cell_var: the template argument must be a loopnest schedule, "
                "such as loopnest::collapse3.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::for_each_cell_var: the first argument must be a Kokkos execution "
                "space instance, such as Kokkos::DefaultExecutionSpace().");
  constexpr schedule_kind kind = Schedule::kind;
  if (nvar < 1) {
    throw_invalid_argument("loopnest::for_each_cell_var",
                           "nvar = " + std::to_string(nvar) + " but at least 1 variable is needed");
  }
  const int tile_rank = kind == schedule_kind::collapse4   ? Rank + 1
                        : kind == schedule_kind::collapse3 ? Rank
                                                           : 0;
  using bounds        = typename Schedule::bounds;
  check_tile<bounds_for_t<kind, bounds>>(
      "loopnest::for_each_cell_var", exec, explicit_tile, kind, tile_rank,
      kind == schedule_kind::collapse4 ? (Rank == 2 ? "i, j, v" : "i, j, k, v")
                                       : (Rank == 2 ? "i, j" : "i, j, k"));
  if (b.empty()) {
    return;
  }
  constexpr bool reverse = reverse_v<Schedule>;
  const auto pb          = to_policy_order<reverse>(b);
  const auto policy_rows = to_policy_order<reverse>(rows);
  if constexpr (kind == schedule_kind::automatic) {
    if (b.size() < collapse4_below.value_or(automatic_collapse4_below(exec))) {
      run_cell_var<schedule_kind::collapse4, reverse, bounds>(label, exec, pb, nvar, per_cell, f,
                                                              explicit_tile, policy_rows);
    } else {
      run_cell_var<schedule_kind::collapse3, reverse, bounds>(label, exec, pb, nvar, per_cell, f,
                                                              explicit_tile, policy_rows);
    }
  } else {
    run_cell_var<kind, reverse, bounds>(label, exec, pb, nvar, per_cell, f, explicit_tile,
                                        policy_rows);
  }
}

template <class F, int Rank>
inline constexpr bool is_cell_body_v =
    Rank == 2 ? std::is_invocable<const F&, int, int>::value
              : std::is_invocable<const F&, int, int, int>::value;
template <class F, int Rank>
inline constexpr bool is_cell_var_body_v =
    Rank == 2 ? std::is_invocable<const F&, int, int, int>::value
              : std::is_invocable<const F&, int, int, int, int>::value;

template <class P, int Rank>
using cell_value_t =
    std::decay_t<std::conditional_t<Rank == 2, std::invoke_result<const P&, int, int>,
                                    std::invoke_result<const P&, int, int, int>>>;
template <class F, class P, int Rank, class = void>
inline constexpr bool is_cell_var_value_body_v = false;
template <class F, class P, int Rank>
inline constexpr bool
    is_cell_var_value_body_v<F, P, Rank, std::void_t<typename cell_value_t<P, Rank>::type>> =
        Rank == 2 ? std::is_invocable<const F&, int, int, int,
                                      const typename cell_value_t<P, Rank>::type&>::value
                  : std::is_invocable<const F&, int, int, int, int,
                                      const typename cell_value_t<P, Rank>::type&>::value;

}  // namespace Impl

// Runs f(i, j) (2D box) or f(i, j, k) (3D box) once for every cell of b on exec, mapped onto
// the device as Schedule says. For a cell loop collapse4 and collapse3 are the same MDRange;
// an explicit tile has one size per box dimension. Throws std::invalid_argument, before any
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
  Impl::check_tile<bounds>("loopnest::for_each_cell", exec, explicit_tile, kind,
                           takes_tile ? Rank : 0, Rank == 2 ? "i, j" : "i, j, k");
  if (b.empty()) {
    return;
  }
  constexpr bool reverse = Impl::reverse_v<Schedule>;
  const auto pb          = Impl::to_policy_order<reverse>(b);
  const Impl::cell_body<F, reverse> body{f};
  if constexpr (kind == schedule_kind::flat) {
    Impl::launch_flat<bounds>(label, exec, pb, body);
  } else {
    Impl::launch_mdrange<Rank, reverse, kind == schedule_kind::kokkos_default, bounds>(
        label, exec, pb, 0, explicit_tile, body);
  }
}

// Runs f(i, j, v) (2D box) or f(i, j, k, v) (3D box) once for every cell of b and every
// variable v in [0, nvar), mapped as Schedule says: collapse4 and kokkos_default make each
// (cell, variable) pair a work item, collapse3 and flat make each cell a work item that runs
// v = 0, 1, ... nvar - 1 in order, automatic picks collapse4 or collapse3 by
// loopnest::automatic_choice. An explicit tile has one size per box dimension, plus one for the
// variable under collapse4. Throws std::invalid_argument, before any launch, for nvar < 1 and
// for a tile that does not fit the schedule or the backend. An empty box is a no-op.
template <class Schedule, class ExecutionSpace, int Rank, class F>
void for_each_cell_var(const ExecutionSpace& exec, const box<Rank>& b, int nvar, const F& f,
                       const std::string& label  = "loopnest::for_each_cell_var",
                       const tile& explicit_tile = tile{}) {
  static_assert(Impl::is_cell_var_body_v<F, Rank>,
                "loopnest::for_each_cell_var: the loop body must be callable as f(i, j, v) for "
                "a 2D box and as f(i, j, k, v) for a 3D box, with int indices.");
  Impl::for_each_cell_var<Schedule>(exec, b, nvar, Impl::no_cell_value{}, f, label, explicit_tile);
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

// for_each_cell_var with a per-cell value: f(i, j, v, c) or f(i, j, k, v, c), c = p(cell).
template <class Schedule, class ExecutionSpace, int Rank, class P, class F>
void for_each_cell_var(const ExecutionSpace& exec, const box<Rank>& b, int nvar,
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
  Impl::for_each_cell_var<Schedule>(exec, b, nvar, per_cell.p, f, label, explicit_tile);
}

}  // namespace loopnest

#endif
